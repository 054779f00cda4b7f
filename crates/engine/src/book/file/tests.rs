use super::*;
use damas_rules::movegen::legal_moves;

fn small_book() -> Book {
    let mut book = Book::new(Variant::Brazilian);
    let start = Position::start();
    let legal = legal_moves(Variant::Brazilian, &start);
    book.insert(
        start,
        vec![
            BookMove {
                mv: legal[0],
                weight: Weight(1000),
            },
            BookMove {
                mv: legal[2],
                weight: Weight(600),
            },
        ],
    );
    // A capture, so the captured mask is exercised.
    let pos = damas_rules::fen::parse_fen("W:W21:B17").unwrap();
    let capture = legal_moves(Variant::Brazilian, &pos)[0];
    assert!(capture.is_capture());
    book.insert(
        pos,
        vec![BookMove {
            mv: capture,
            weight: Weight(7),
        }],
    );
    book
}

#[test]
fn round_trip_through_bytes_and_file() {
    let book = small_book();
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.book");
    book.save(&path).unwrap();
    assert_eq!(Book::load(&path).unwrap(), book);
    assert_eq!(book.depth(), 1);
}

#[test]
fn damaged_files_are_refused_with_the_reason() {
    let bytes = small_book().to_bytes();
    assert!(matches!(
        Book::from_bytes(&bytes[..10]),
        Err(BookError::TooShort { len: 10 })
    ));
    let cut = &bytes[..bytes.len() - 3];
    let e = Book::from_bytes(cut).unwrap_err();
    assert!(matches!(e, BookError::Length { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(matches!(Book::from_bytes(&magic), Err(BookError::BadMagic)));
    let mut version = bytes.clone();
    version[8] = 9;
    let e = Book::from_bytes(&version).unwrap_err();
    assert!(matches!(e, BookError::WrongVersion { found: 9 }), "{e}");
    assert!(e.to_string().contains("version 9"), "{e}");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    let e = Book::from_bytes(&flipped).unwrap_err();
    assert!(matches!(e, BookError::Checksum { .. }), "{e}");
    assert!(e.to_string().contains("damaged"), "{e}");
}

/// Rewrite the body of `bytes` with `edit` and fix the length and checksum, so
/// the entry checks (not the checksum) must catch the problem.
fn reseal(bytes: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut body = bytes[HEADER_LEN..].to_vec();
    edit(&mut body);
    let mut out = bytes[..HEADER_LEN].to_vec();
    out[16..20].copy_from_slice(&(body.len() as u32).to_le_bytes());
    out[20..24].copy_from_slice(&crc32fast::hash(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

#[test]
fn consistent_but_wrong_entries_are_refused() {
    let bytes = small_book().to_bytes();
    let illegal = reseal(&bytes, |b| b[POSITION_LEN + 1] = 31);
    assert!(matches!(
        Book::from_bytes(&illegal),
        Err(BookError::IllegalMove { entry: 0, index: 0 })
    ));
    let cut = reseal(&bytes, |b| b.truncate(b.len() - 2));
    assert!(matches!(
        Book::from_bytes(&cut),
        Err(BookError::Truncated { entry: 1, .. })
    ));
    let extra = reseal(&bytes, |b| b.push(0));
    assert!(matches!(
        Book::from_bytes(&extra),
        Err(BookError::TrailingBytes { count: 2, extra: 1 })
    ));
    let overlap = reseal(&bytes, |b| b.copy_within(0..4, 4));
    assert!(matches!(
        Book::from_bytes(&overlap),
        Err(BookError::BadPosition { entry: 0, .. })
    ));
}

#[test]
fn the_header_records_the_variant() {
    let bytes = small_book().to_bytes();
    // Books written before the field hold zero there: Brazilian books.
    let mut old = bytes.clone();
    old[10..12].copy_from_slice(&[0, 0]);
    assert_eq!(
        Book::from_bytes(&old).unwrap().variant(),
        Variant::Brazilian
    );
    let e = Book::from_bytes_for(&bytes, Variant::Russian).unwrap_err();
    assert!(
        matches!(
            e,
            BookError::WrongVariant {
                found: Variant::Brazilian,
                expected: Variant::Russian
            }
        ),
        "{e}"
    );
    let mut odd = bytes.clone();
    odd[10] = 99;
    assert!(matches!(
        Book::from_bytes(&odd),
        Err(BookError::UnknownVariant(GameType(99)))
    ));

    let mut ru = Book::new(Variant::Russian);
    let start = Position::start();
    let legal = legal_moves(Variant::Russian, &start);
    ru.insert(
        start,
        vec![BookMove {
            mv: legal[1],
            weight: Weight(5),
        }],
    );
    let back = Book::from_bytes_for(&ru.to_bytes(), Variant::Russian).unwrap();
    assert_eq!((back.variant(), &back), (Variant::Russian, &ru));
}

#[test]
fn a_crowning_capture_survives_the_file() {
    // Russian: f6xd8 crowns the man, which goes on as a king to take c7 (f6xa5);
    // the stored squares find the crowned legal move again.
    let pos = damas_rules::fen::parse_fen("W:Wf6:Bc7,e7").unwrap();
    let legal = legal_moves(Variant::Russian, &pos);
    let crowned = *legal.iter().find(|m| m.crowned()).unwrap();
    let mut ru = Book::new(Variant::Russian);
    ru.insert(
        pos,
        vec![BookMove {
            mv: crowned,
            weight: Weight(1),
        }],
    );
    let back = Book::from_bytes(&ru.to_bytes()).unwrap();
    assert_eq!(back.moves(&pos).unwrap()[0].mv, crowned);
}

#[test]
fn the_embedded_books_read_and_every_move_is_legal() {
    for variant in Variant::ALL {
        let book = Book::from_bytes_for(super::super::embedded_bytes(variant), variant).unwrap();
        assert!(!book.is_empty(), "{variant}");
        for (pos, moves) in book.iter() {
            let legal = legal_moves(variant, pos);
            assert!(!moves.is_empty());
            for m in moves {
                assert!(legal.contains(&m.mv), "{variant} {pos:?} {:?}", m.mv);
            }
        }
        assert!(book.moves(&Position::start()).is_some(), "{variant}");
    }
}
