//! Match engine specs and the other option strings of the command lines:
//! parsing never panics.
#![no_main]

use std::str::FromStr;

use damas::matches::openings::parse_openings;
use damas::matches::player::EngineSpec;
use damas::matches::sprt::Sprt;
use damas_engine::search::Techniques;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = EngineSpec::from_str(text);
    let _ = Sprt::from_str(text);
    let _ = Techniques::from_str(text);
    let _ = parse_openings(text);
});
