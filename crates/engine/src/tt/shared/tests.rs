//! Tests of the shared table (`tt/shared.rs`).

use super::*;
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;
use damas_rules::variant::Variant;
use std::sync::Arc;

#[test]
fn bucket_is_one_cache_line() {
    assert_eq!(std::mem::size_of::<Bucket>(), 64);
    assert_eq!(std::mem::align_of::<Bucket>(), 64);
    assert_eq!(SharedTable::new(1).capacity(), 1 << 16);
    assert_eq!(SharedTable::new(1).megabytes(), 1);
}

#[test]
fn store_and_probe() {
    let t = SharedTable::with_buckets(8);
    let m = legal_moves(Variant::Brazilian, &Position::start())[3];
    t.store(Key(42), -1234, 9, Bound::Lower, Some(StoredMove::of(m)));
    let e = t.probe(Key(42)).unwrap();
    assert_eq!((e.value, e.depth, e.bound), (-1234, 9, Bound::Lower));
    assert!(e.best.unwrap().matches(m));
    assert!(t.probe(Key(43)).is_none());
    // A store without a move keeps the old one; depth saturates.
    t.store(Key(42), 7, 300, Bound::Exact, None);
    let e = t.probe(Key(42)).unwrap();
    assert_eq!(
        (e.value, e.depth, e.bound),
        (7, MAX_STORED_DEPTH, Bound::Exact)
    );
    assert!(e.best.unwrap().matches(m));
    t.clear();
    assert!(t.probe(Key(42)).is_none());
}

#[test]
fn stored_move_is_found_whatever_the_list_order() {
    let pos = Position::start();
    let mut moves = legal_moves(Variant::Brazilian, &pos).to_vec();
    let code = StoredMove::of(moves[5]);
    let m = moves[5];
    moves.reverse();
    assert_eq!(moves[code.find(&moves).unwrap()], m);
}

/// Keys that all land in bucket 0 of a one-bucket table.
fn keys(n: u64) -> Vec<Key> {
    (1..=n)
        .map(|i| Key(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        .collect()
}

/// A one-bucket table filled with `k[0]` … `k[3]`, stored in that order, the
/// `i`-th at depth `depth(i)`.
fn full_bucket(k: &[Key], depth: impl Fn(usize) -> u32) -> SharedTable {
    let t = SharedTable::with_buckets(1);
    for (i, &key) in k[..BUCKET_ENTRIES].iter().enumerate() {
        t.store(key, 0, depth(i), Bound::Exact, None);
    }
    t
}

#[test]
fn replacement_keeps_the_deep_and_drops_the_shallow() {
    let k = keys(5);
    let t = full_bucket(&k, |i| 10 + i as u32);
    // Full: the shallowest (depth 10) goes.
    t.store(k[4], 0, 1, Bound::Exact, None);
    assert!(t.probe(k[0]).is_none());
    assert!(k[1..].iter().all(|&key| t.probe(key).is_some()));
    // The new shallow entry goes next, not the deep ones.
    t.store(k[0], 0, 2, Bound::Exact, None);
    assert!(t.probe(k[4]).is_none());
    assert!(t.probe(k[0]).is_some());
}

#[test]
fn equal_entries_go_oldest_first_and_a_stored_key_is_updated_in_place() {
    let k = keys(6);
    // Four entries of equal worth: the oldest is replaced first.
    let t = full_bucket(&k, |_| 5);
    t.store(k[4], 0, 5, Bound::Exact, None);
    assert!(t.probe(k[0]).is_none());
    assert!(k[1..5].iter().all(|&key| t.probe(key).is_some()));
    // Still tied, so slot 0 again: the newcomer there goes, not k[1].
    t.store(k[5], 0, 5, Bound::Exact, None);
    assert!(t.probe(k[4]).is_none());
    assert!(k[1..4].iter().all(|&key| t.probe(key).is_some()));
    // A key already stored keeps its slot even when a shallower entry stands
    // before it, and keeps its move when the new result has none.
    let m = legal_moves(Variant::Brazilian, &Position::start())[2];
    t.store(k[3], 0, 5, Bound::Exact, Some(StoredMove::of(m)));
    t.store(k[2], 0, 1, Bound::Exact, None);
    t.store(k[3], 9, 7, Bound::Lower, None);
    let e = t.probe(k[3]).unwrap();
    assert_eq!((e.value, e.depth, e.bound), (9, 7, Bound::Lower));
    assert!(e.best.unwrap().matches(m));
    assert!([k[1], k[2], k[5]].iter().all(|&key| t.probe(key).is_some()));
}

#[test]
fn aging_lets_new_searches_replace_old_deep_entries() {
    let k = keys(8);
    let t = full_bucket(&k, |_| 12);
    assert_eq!(t.fill_permille(), 1000);
    // In the same search a shallow result does not displace them …
    t.store(k[4], 0, 3, Bound::Exact, None);
    assert_eq!(
        k[..4].iter().filter(|&&key| t.probe(key).is_some()).count(),
        3
    );
    // … but three searches later, depth 12 is worth less than a fresh depth 3.
    for _ in 0..3 {
        t.new_search();
    }
    assert_eq!(t.fill_permille(), 0);
    for &key in &k[5..8] {
        t.store(key, 0, 3, Bound::Exact, None);
    }
    assert!(k[5..8].iter().all(|&key| t.probe(key).is_some()));
    assert_eq!(t.fill_permille(), 750);
}

#[test]
fn concurrent_writers_never_produce_a_torn_entry() {
    // Each writer stores, for its keys, a value and depth derived from the key;
    // a reader must only ever see entries consistent with their key.
    let t = Arc::new(SharedTable::with_buckets(4));
    let value_of = |key: Key| (key.0 >> 40) as i16;
    let depth_of = |key: Key| ((key.0 >> 20) % 100) as u32;
    std::thread::scope(|s| {
        for w in 0..4u64 {
            let t = &t;
            s.spawn(move || {
                for i in 0..200_000u64 {
                    let key = Key((w * 1_000_003 + i % 97).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    t.store(key, value_of(key), depth_of(key), Bound::Exact, None);
                }
            });
        }
        let t = &t;
        s.spawn(move || {
            let mut seen = 0;
            for i in 0..400_000u64 {
                let key = Key(((i % 4) * 1_000_003 + i % 97).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                if let Some(e) = t.probe(key) {
                    seen += 1;
                    assert_eq!((e.value, e.depth), (value_of(key), depth_of(key)));
                }
            }
            assert!(seen > 0);
        });
    });
}

#[test]
fn a_crowned_capture_is_told_from_its_uncrowned_twin() {
    use damas_rules::bitboard::Bitboard;
    use damas_rules::square::Square;
    let (from, to) = (Square::new(1).unwrap(), Square::new(19).unwrap());
    let captured =
        Bitboard::square(Square::new(5).unwrap()) | Bitboard::square(Square::new(14).unwrap());
    let plain = Move::new(from, to, captured);
    let crowned = Move::new_crowned(from, to, captured);
    assert_ne!(StoredMove::of(plain), StoredMove::of(crowned));
    let list = [plain, crowned];
    assert_eq!(StoredMove::of(crowned).find(&list), Some(1));
    assert_eq!(StoredMove::of(plain).find(&list), Some(0));
}
