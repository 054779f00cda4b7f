//! Tests of the Hub engine loop: sessions of protocol lines in, the lines it
//! answers out.

use super::*;
use crate::hub::MoveNumbering;
use damas_engine::eval::EvalName;
use damas_engine::level::Strength;
use damas_engine::search::TableKind;
use damas_rules::movegen::legal_moves;
use damas_rules::variant::Variant;

/// An output buffer the test can read while the engine owns a writer to it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(lines: &[&str]) -> (HubEngine, Vec<String>) {
    let buf = Shared::default();
    let mut engine = HubEngine::new(Box::new(buf.clone()));
    engine.run(lines.join("\n").as_bytes());
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    (engine, text.lines().map(str::to_string).collect())
}

/// The engine's `error` lines of a session's output.
fn errors(out: &[String]) -> Vec<&String> {
    out.iter().filter(|l| l.starts_with("error")).collect()
}

/// Input that, like a GUI, waits for the engine's `done` before it ends: at end
/// of input the engine stops a running search, so a test that wants the search's
/// own output must not end the input first.
struct UntilDone {
    input: std::io::Cursor<Vec<u8>>,
    out: Shared,
}

impl std::io::Read for UntilDone {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(buf)?;
        if n == 0 {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while !String::from_utf8_lossy(&self.out.0.lock().unwrap()).contains("done")
                && std::time::Instant::now() < deadline
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        Ok(n)
    }
}

/// [`session`] whose input ends only after the engine answered `done`.
fn session_until_done(lines: &[&str]) -> (HubEngine, Vec<String>) {
    let buf = Shared::default();
    let mut engine = HubEngine::new(Box::new(buf.clone()));
    let input = UntilDone {
        input: std::io::Cursor::new(format!("{}\n", lines.join("\n")).into_bytes()),
        out: buf.clone(),
    };
    engine.run(std::io::BufReader::new(input));
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    (engine, text.lines().map(str::to_string).collect())
}

#[test]
fn hash_and_threads_parameters_choose_the_table_and_threads() {
    let start = super::super::protocol::position_string(&Position::start());
    let (engine, out) = session(&[
        "hub",
        "set-param name=tt-bits value=12",
        "set-param name=hash value=8",
        "set-param name=hash value=0",
        "set-param name=threads value=2",
        "set-param name=threads value=many",
        // The start position is in the book: search it.
        "set-param name=book value=false",
        &format!("pos pos={start}"),
        "level depth=4",
        "go think",
        "stop",
    ]);
    assert!(
        out.iter()
            .any(|l| l.starts_with("param name=hash value=64 ")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("param name=threads value=1 ")),
        "{out:?}"
    );
    let errors = errors(&out);
    assert_eq!(errors.len(), 2, "{out:?}");
    assert!(
        errors[0].contains("hash") && errors[1].contains("threads"),
        "{out:?}"
    );
    let s = engine.searcher.as_ref().expect("searcher reclaimed");
    // `hash` after `tt-bits` switches back to the replacing table.
    assert_eq!(s.options().table(), TableKind::Replacing);
    assert_eq!((s.options().hash_mb(), s.options().threads()), (8, 2));
    let done = out
        .iter()
        .find(|l| l.starts_with("done move="))
        .expect("a move");
    let mv = done["done move=".len()..]
        .split_whitespace()
        .next()
        .unwrap();
    let legal: Vec<String> = legal_moves(Variant::Brazilian, &Position::start())
        .iter()
        .map(|&m| MoveNumbering::default().format(Variant::Brazilian, &Position::start(), m))
        .collect();
    assert!(legal.iter().any(|l| l == mv), "{mv} not in {legal:?}");
    let (engine, _) = session(&["set-param name=tt-bits value=12"]);
    assert_eq!(
        engine.settings().search_options().table(),
        TableKind::Thesis
    );
}

#[test]
fn the_built_in_databases_are_a_parameter() {
    let (engine, out) = session(&["hub", "set-param name=builtin-egdb value=false"]);
    assert!(
        out.iter()
            .any(|l| l == "param name=builtin-egdb value=true type=bool"),
        "{out:?}"
    );
    assert!(!engine.settings().engine.builtin_egdb);
    assert!(engine.settings().search_options().oracle().is_none());
    let (engine, _) = session(&[]);
    let options = engine.settings().search_options();
    assert!(options.oracle().is_some() && options.techniques().egdb);
}

#[test]
fn parameters_are_checked_and_stored() {
    let db = tempfile::tempdir().unwrap();
    damas_egdb::build(db.path(), 2, &Default::default(), |_| {}).unwrap();
    let empty = tempfile::tempdir().unwrap();
    let (engine, out) = session(&[
        "set-param name=tt-bits value=12",
        "set-param name=tt-bits value=99",
        "set-param name=techniques value=pvs+tt",
        "set-param name=techniques value=warp",
        &format!("set-param name=egdb-dir value=\"{}\"", db.path().display()),
        "set-param name=variant value=brazilian",
        "set-param name=variant value=russian",
        "set-param name=variant value=italian",
        "set-param name=egdb-dir value=/no/such/dir",
        &format!("set-param name=egdb-dir value={}", empty.path().display()),
        "set-param name=move-numbering value=rows-reversed",
        "set-param name=colour value=green",
    ]);
    let s = engine.settings();
    assert_eq!(s.engine.tt_bits, 12);
    assert_eq!(s.engine.techniques, "pvs+tt".parse().unwrap());
    // The directory is kept, its Brazilian database dropped under Russian rules.
    assert_eq!(s.egdb_dir, db.path());
    assert!(s.egdb.is_none());
    assert_eq!(s.numbering, MoveNumbering::RowsReversed);
    assert_eq!(s.engine.variant, Variant::Russian);
    // In their place, the built-in Russian databases of 1-4 pieces.
    let options = s.search_options();
    let oracle = options.oracle().expect("the built-in databases");
    assert_eq!(
        (oracle.variant(), oracle.max_pieces()),
        (Variant::Russian, 4)
    );
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("error message="))
        .collect();
    assert_eq!(errors.len(), 7, "{out:?}");
    assert!(
        errors[0].contains("tt-bits")
            && errors[2].contains("no russian endgame databases")
            && errors[3].contains("italian")
            && errors[4].contains("/no/such/dir"),
        "{errors:?}"
    );
}

#[test]
fn eval_parameter_is_advertised_checked_and_used() {
    let (engine, out) = session(&[
        "hub",
        "set-param name=eval value=material",
        "set-param name=eval value=neural",
    ]);
    assert!(
        out.iter()
            .any(|l| l == "param name=eval value=trained type=enum values=\"trained material\""),
        "{out:?}"
    );
    assert_eq!(engine.settings().engine.eval, EvalName::Material);
    assert_eq!(
        engine.settings().search_options().evaluation().name(),
        "material"
    );
    let errors = errors(&out);
    assert!(errors.len() == 1 && errors[0].contains("neural"), "{out:?}");
    let (engine, _) = session(&[]);
    assert_eq!(
        engine.settings().search_options().evaluation().name(),
        "trained"
    );
}

#[test]
fn strength_parameter_is_advertised_checked_and_plays() {
    let (engine, out) = session(&[
        "hub",
        "set-param name=strength value=beginner",
        "set-param name=strength value=11",
        "set-param name=book value=false",
        "level depth=3",
        "go think",
    ]);
    assert!(
        out.iter()
            .any(|l| l == "param name=strength value=10 type=int min=1 max=10"),
        "{out:?}"
    );
    assert_eq!(engine.settings().engine.strength, Strength::MIN);
    let errors = errors(&out);
    assert!(
        errors.len() == 1 && errors[0].contains("1 to 10"),
        "{errors:?}"
    );
    // `run` waits for the search at end of input: a move was played.
    assert!(out.iter().any(|l| l.starts_with("done move=")), "{out:?}");
}

#[test]
fn book_parameter_switches_the_opening_book() {
    let start = super::super::protocol::position_string(&Position::start());
    let think = [
        &format!("pos pos={start}") as &str,
        "level depth=3",
        "go think",
    ];
    let (engine, on) = session(&[&["hub"][..], &think[..]].concat());
    assert!(engine.settings().engine.book);
    assert!(
        on.iter()
            .any(|l| l == "param name=book value=true type=bool"),
        "{on:?}"
    );
    // From the book: no search (its one `info` labels the move as book, without a
    // score), a move the book holds for the start position.
    let infos: Vec<_> = on.iter().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 1, "{on:?}");
    assert!(
        infos[0].ends_with(" source=book") && !infos[0].contains("score="),
        "{on:?}"
    );
    let done = on.last().unwrap();
    let book = damas_engine::book::Book::embedded(Variant::Brazilian);
    let numbering = MoveNumbering::default();
    let in_book: Vec<String> = book
        .moves(&Position::start())
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "done move={}",
                numbering.format(Variant::Brazilian, &Position::start(), m.mv)
            )
        })
        .collect();
    assert!(in_book.contains(done), "{done} not in {in_book:?}");

    let (engine, off) =
        session_until_done(&[&["set-param name=book value=false"][..], &think[..]].concat());
    assert!(!engine.settings().engine.book);
    assert!(
        off.iter().any(|l| l.starts_with("info depth=3 ")),
        "{off:?}"
    );
    assert!(off.last().unwrap().starts_with("done move="), "{off:?}");

    let (_, bad) = session(&["set-param name=book value=maybe"]);
    assert!(
        bad[0].starts_with("error message=\"book must be"),
        "{bad:?}"
    );
}

#[test]
fn invalid_utf8_is_ignored_and_crlf_accepted() {
    let buf = Shared::default();
    let mut engine = HubEngine::new(Box::new(buf.clone()));
    engine.run(&b"\xff\xfe garbage\r\nping\r\n"[..]);
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    assert_eq!(text, "pong\n");
}

#[test]
fn illegal_move_keeps_the_previous_position() {
    let start = super::super::protocol::position_string(&Position::start());
    let (engine, out) = session(&[
        "set-param name=move-numbering value=standard",
        &format!("pos pos={start} moves=\"22-18\""),
        &format!("pos pos={start} moves=\"22-18 18-14\""),
    ]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("error message=\"move 2 of pos: illegal move"),
        "{out:?}"
    );
    assert_eq!(
        engine.pos.side_to_move(),
        damas_rules::position::Color::Black
    );
    assert_eq!(engine.history, vec![Position::start()]);
}

#[test]
fn parameters_sent_after_init_or_during_a_search_reach_the_next_search() {
    let db = tempfile::tempdir().unwrap();
    damas_egdb::build(db.path(), 2, &Default::default(), |_| {}).unwrap();
    let start = super::super::protocol::position_string(&Position::start());
    // pydraughts' configure(): init first, then set-param.
    let (engine, _) = session(&[
        "init",
        &format!("set-param name=egdb-dir value=\"{}\"", db.path().display()),
        "set-param name=tt-bits value=12",
        "set-param name=book value=false",
        &format!("pos pos={start}"),
        "level depth=1",
        "go think",
        "stop",
    ]);
    let s = engine.searcher.as_ref().expect("searcher reclaimed");
    assert!(
        s.options().oracle().is_some(),
        "egdb-dir ignored after init"
    );
    assert!(s.options().techniques().egdb);
    assert_eq!(s.options().tt_bits(), 12);

    // A change sent while a search runs is kept for the next one.
    let (engine, _) = session(&[
        &format!("pos pos={start}"),
        "go analyze",
        "set-param name=tt-bits value=11",
        "stop",
        "set-param name=book value=false",
        "level depth=1",
        "go think",
        "stop",
    ]);
    let s = engine.searcher.as_ref().expect("searcher reclaimed");
    assert_eq!(s.options().tt_bits(), 11, "change during a search lost");
}

#[test]
fn illegal_move_is_reported_in_hub_numbering() {
    let start = super::super::protocol::position_string(&Position::start());
    let (_, out) = session(&[
        "set-param name=move-numbering value=rows-reversed",
        &format!("pos pos={start} moves=\"22-17\""),
    ]);
    assert_eq!(out.len(), 1, "{out:?}");
    let e = &out[0];
    assert!(e.contains("illegal move"), "{e}");
    // Legal moves listed as numbers in the requested numbering, no board letters.
    let legal = e.split("legal moves:").nth(1).unwrap();
    assert!(
        !legal.chars().any(|c| c.is_ascii_lowercase() && c != 'x'),
        "{e}"
    );
    let first = legal
        .trim()
        .trim_end_matches('"')
        .split(' ')
        .next()
        .unwrap();
    let m = MoveNumbering::RowsReversed.parse(Variant::Brazilian, &Position::start(), first);
    assert!(m.is_ok(), "{e}");
}

#[test]
fn move_overhead_is_advertised_checked_and_stored() {
    let (engine, out) = session(&[
        "hub",
        "set-param name=move-overhead value=250",
        "set-param name=move-overhead value=-5",
    ]);
    assert!(
        out.iter()
            .any(|l| l == "param name=move-overhead value=100 type=int min=0 max=10000"),
        "{out:?}"
    );
    assert_eq!(engine.settings().engine.move_overhead.millis(), 250);
    assert_eq!(errors(&out).len(), 1, "{out:?}");
}
