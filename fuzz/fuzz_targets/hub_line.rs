//! Hub protocol lines: splitting and parsing commands and positions never panic.
#![no_main]

use damas::hub::protocol::{parse_command, parse_position, position_string, split_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = split_line(text);
    let _ = parse_command(text);
    if let Ok(pos) = parse_position(text) {
        assert_eq!(parse_position(&position_string(&pos)), Ok(pos));
    }
});
