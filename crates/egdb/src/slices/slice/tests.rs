//! Tests of the slice index ([`super`]).

use super::*;

#[test]
fn counts_match_the_issue() {
    let small: u64 = (2..=5).map(positions_with).sum();
    assert_eq!(small, 145_859_644);
    assert_eq!(positions_with(6), 2_426_085_676);
    assert_eq!(largest_slice(6), Some(124_966_800));
    assert_eq!(positions_with(7), 34_243_113_624);
    assert_eq!(largest_slice(7), Some(1_415_939_616));
}

/// Positions in the largest slice of `pieces` pieces.
fn largest_slice(pieces: usize) -> Option<u64> {
    Slice::all(pieces)
        .into_iter()
        .map(|s| SliceIndex::new(s).size())
        .max()
}

#[test]
fn slices_are_ordered_by_men() {
    let all = Slice::all(4);
    assert!(all.windows(2).all(|w| w[0].men() <= w[1].men()));
    assert!(all.iter().all(|s| s.pieces() == 4 && s.is_valid()));
    assert_eq!(Slice::new(2, 1, 1, 0).stem(), "w21b10");
    assert_eq!(Slice::new(2, 1, 1, 0).to_string(), "2M+1K v 1M");
}

/// Unrank gives a real placement of the slice and rank inverts it.
fn check_slice(s: Slice, indices: impl Iterator<Item = u64>) {
    let ix = SliceIndex::new(s);
    for i in indices {
        let p = ix
            .unrank(i)
            .unwrap_or_else(|| panic!("{s}: {i} does not decode"));
        assert_eq!(p.white & p.black, 0);
        assert_eq!(p.kings & !(p.white | p.black), 0);
        assert_eq!(Slice::of(p.white, p.black, p.kings), s);
        assert_eq!(p.white & !p.kings & Bitboard::RANK_8.0, 0);
        assert_eq!(p.black & !p.kings & Bitboard::RANK_1.0, 0);
        assert_eq!(ix.rank(p.white, p.black, p.kings), i, "{s}: {p:?}");
        let padded = |x: u32| Padded::from_bitboard(Bitboard(x)).bits();
        let got = ix.rank_padded(padded(p.white), padded(p.black), padded(p.kings));
        assert_eq!(got, i, "{s}: {p:?} in the padded layout");
    }
    assert!(ix.unrank(ix.size()).is_none());
}

#[test]
fn the_sampler_draws_every_slice_of_its_piece_count() {
    use rand::SeedableRng;
    let sampler = PositionSampler::new(3);
    assert_eq!(sampler.size(), positions_with(3));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut seen = std::collections::BTreeSet::new();
    let mut black = 0;
    for _ in 0..20_000 {
        let pos = sampler.sample(&mut rng).unwrap();
        assert_eq!(pos.piece_count(), 3);
        let q = if pos.side_to_move() == Color::Black {
            black += 1;
            pos.flip()
        } else {
            pos
        };
        seen.insert(Slice::of(q.white().0, q.black().0, q.kings().0));
    }
    assert_eq!(seen.len(), Slice::all(3).len());
    assert!(
        (8_000..12_000).contains(&black),
        "{black} of 20000 with Black to move"
    );
    assert!(PositionSampler::new(1).sample(&mut rng).is_none());
}

#[test]
fn rank_inverts_unrank_on_every_slice_up_to_four_pieces() {
    for n in 2..=4 {
        for s in Slice::all(n) {
            check_slice(s, 0..SliceIndex::new(s).size());
        }
    }
}

#[test]
fn rank_inverts_unrank_on_samples_up_to_seven_pieces() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for n in 5..=MAX_SLICE_PIECES {
        for s in Slice::all(n) {
            let size = SliceIndex::new(s).size();
            let sample = (0..200).map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % size
            });
            check_slice(s, sample.chain([0, size - 1]));
        }
    }
}
