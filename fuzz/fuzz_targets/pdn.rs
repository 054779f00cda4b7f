//! PDN text: reading never panics, and games read are written and read back the same.
#![no_main]

use damas_rules::pdn::{read_games, write_games};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(games) = read_games(text) else {
        return;
    };
    let again = read_games(&write_games(&games)).expect("written PDN reads back");
    assert_eq!(again.len(), games.len());
});
