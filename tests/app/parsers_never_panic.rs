//! Property tests: the parsers of outside input (PDN, Hub lines, engine specs and
//! option strings, openings, study CSV, database and weight headers) return errors
//! on arbitrary input, never panic. The fuzz targets in `fuzz/` search the same
//! parsers coverage-guided; these run in `cargo test`. (FEN and move text: see
//! the rules crate's `fen` tests.)

use std::path::Path;
use std::str::FromStr;

use damas::hub::protocol::{parse_command, parse_position, split_line};
use damas::matches::openings::parse_openings;
use damas::matches::player::EngineSpec;
use damas::matches::sprt::Sprt;
use damas::study::csv::{parse_rows, HEADER};
use damas_egdb::format::MAGIC;
use damas_egdb::parts::file::{FileKind, Header};
use damas_engine::eval::weights::{Weights, MAGIC as WEIGHTS_MAGIC};
use damas_engine::search::Techniques;
use damas_rules::pdn::read_games;
use proptest::prelude::*;

proptest! {
    #[test]
    fn pdn_reader_never_panics(s in r#"(\[[A-Za-z]{0,6} "[^"]{0,8}"\]\n|[0-9]{1,2}\. |[a-h1-8x:-]{1,6} |\{[^}]{0,6}\}|\(|\)|1-0|0-1|1-1|\*|\n){0,24}"#) {
        let _ = read_games(&s);
    }

    #[test]
    fn pdn_reader_never_panics_on_any_text(s in "\\PC{0,60}") {
        let _ = read_games(&s);
    }

    #[test]
    fn hub_lines_never_panic(s in r#"[a-z\-]{0,10}( [a-z]{1,6}(=("[^"]{0,8}"|[A-Za-z0-9.:,-]{0,12}))?){0,4}"#) {
        let _ = split_line(&s);
        let _ = parse_command(&s);
        let _ = parse_position(&s);
    }

    #[test]
    fn option_strings_never_panic(s in r"[a-z0-9=:,./+ -]{0,32}") {
        let _ = EngineSpec::from_str(&s);
        let _ = Sprt::from_str(&s);
        let _ = Techniques::from_str(&s);
        let _ = parse_openings(&s);
    }

    #[test]
    fn study_csv_never_panics(rows in proptest::collection::vec(r"[0-9a-z.+-]{0,6}(,[0-9a-z.+-]{0,8}){0,17}", 0..4)) {
        let text = format!("{HEADER}\n{}\n", rows.join("\n"));
        let _ = parse_rows(&text);
    }

    #[test]
    fn headers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), magic in 0u8..3) {
        // Most inputs start like a real file so the checks past the magic run.
        let mut egdb = bytes.clone();
        let mut weights = bytes;
        if magic > 0 && egdb.len() >= 8 {
            egdb[..8].copy_from_slice(&MAGIC);
            weights[..8].copy_from_slice(WEIGHTS_MAGIC);
        }
        for kind in [FileKind::Values, FileKind::Distances] {
            let _ = Header::parse(&egdb, Path::new("prop"), kind, 4);
        }
        let _ = Weights::from_bytes(&weights);
    }
}
