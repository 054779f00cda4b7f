//! The trained positional evaluation: the weighted features of [`super::features`],
//! opening and endgame weights blended by the phase.

use std::sync::{Arc, OnceLock};

use super::features::{self, phase, visit, View, PHASE_MAX};
use super::folded::Folded;
use super::network::NetTables;
use super::weights::{Weights, WeightsError};
use super::{Accumulators, Evaluator};
use crate::score::Score;
use damas_rules::movegen::Board;
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

/// The Brazilian weights shipped with the program (trained by `damas-train`): the
/// linear model and the network added to it.
static EMBEDDED: &[u8] = include_bytes!("../../../../data/eval/weights.bin");

/// The Russian weights: the Brazilian file's linear model and network trained on
/// from Russian self-play (docs/training.md, "Russian weights").
static EMBEDDED_RUSSIAN: &[u8] = include_bytes!("../../../../data/eval/weights-russian.bin");

/// The embedded weights of each variant: the one place where a variant's trained
/// weights are chosen.
pub(crate) fn embedded_weights(variant: Variant) -> Weights {
    let bytes = match variant {
        Variant::Brazilian => EMBEDDED,
        Variant::Russian => EMBEDDED_RUSSIAN,
    };
    Weights::from_bytes(bytes).expect("the embedded weights are checked by the test suite")
}

/// The linear score (hundredths, for either side) beyond which the network is not
/// consulted: five men up or down the game is decided, and a search's trees hold
/// many such positions (about 40 % of its evaluations from the start), each spared
/// the network's cost.
pub const NET_RANGE: i32 = 500;

/// Whether the network is consulted at `pos`, whose linear score is `linear`
/// (hundredths): within [`NET_RANGE`], and while both sides have men. Where a side
/// has only kings, the network misled the search in a won ending the linear model
/// converts (docs/evaluation.md). The engine and the trainer both ask here.
#[inline(always)]
pub fn consults_network(pos: &Position, linear: i32) -> bool {
    linear.abs() <= NET_RANGE && pos.men(Color::White).any() && pos.men(Color::Black).any()
}

/// A linear evaluation over [`features`] with opening and endgame weights.
#[derive(Clone, Debug)]
pub struct Trained {
    /// `[opening, endgame]` per feature, in 1/2^shift hundredths of a man.
    w: Arc<[[i32; 2]]>,
    /// The same weights folded for speed.
    folded: Arc<Folded>,
    shift: u32,
    /// A network whose score is added to the linear one.
    net: Option<Arc<NetTables>>,
    /// Variety: up to this many hundredths added to each score, fixed per
    /// position by a hash of it and `seed` (0: none).
    noise: i32,
    seed: u64,
}

impl Trained {
    /// The evaluation with these weights.
    pub fn new(weights: &Weights) -> Trained {
        let w: Arc<[[i32; 2]]> = weights
            .values
            .iter()
            .map(|&[o, e]| [o as i32, e as i32])
            .collect();
        Trained {
            folded: Arc::new(Folded::new(&w)),
            w,
            shift: weights.shift,
            net: weights.net.as_ref().map(|n| Arc::new(NetTables::new(n))),
            noise: 0,
            seed: 0,
        }
    }

    /// The same evaluation with a little seeded noise: every position gets a fixed
    /// bonus of 0 to `amplitude` hundredths from a hash of it and `seed`, so that
    /// among moves of nearly equal value a different seed picks a different one
    /// while each search stays consistent. Shares the weights.
    pub fn with_noise(&self, seed: u64, amplitude: u32) -> Trained {
        Trained {
            w: self.w.clone(),
            folded: self.folded.clone(),
            shift: self.shift,
            net: self.net.clone(),
            noise: amplitude.min(50) as i32,
            seed,
        }
    }

    /// The evaluation with the embedded weights of `variant` (parsed once per
    /// process and variant).
    pub fn embedded(variant: Variant) -> Arc<Trained> {
        static CELLS: [OnceLock<Arc<Trained>>; Variant::ALL.len()] =
            [const { OnceLock::new() }; Variant::ALL.len()];
        let i = Variant::ALL
            .iter()
            .position(|&v| v == variant)
            .expect("every variant is in Variant::ALL");
        CELLS[i]
            .get_or_init(|| Arc::new(Trained::new(&embedded_weights(variant))))
            .clone()
    }

    /// The embedded linear model of `variant` without its network: what the network
    /// is fitted over, and the evaluation that tree comparisons set before it keep.
    pub fn embedded_linear(variant: Variant) -> Trained {
        Trained::new(&embedded_weights(variant).without_network())
    }

    /// The evaluation with the weights of a file.
    pub fn from_file(path: &std::path::Path) -> Result<Trained, WeightsError> {
        Ok(Trained::new(&Weights::load(path)?))
    }

    /// Sum of a view's weights: (opening, endgame).
    #[inline(always)]
    fn side(&self, v: &View) -> (i32, i32) {
        let (mut o, mut e) = (0i32, 0i32);
        visit(v, |i, c| {
            // SAFETY-free indexing: every index visit produces is < features::COUNT,
            // and the weights have exactly that many entries.
            let w = self.w[i];
            o += w[0] * c;
            e += w[1] * c;
        });
        (o, e)
    }

    /// The score of `pos` for White, in hundredths of a man.
    #[inline]
    pub fn white_score(&self, pos: &Position) -> i32 {
        let linear = self.linear_white(pos);
        linear + self.net_white(pos, linear)
    }

    /// The network's score for White: 0 without one, or where it is not consulted
    /// ([`consults_network`]).
    #[inline(always)]
    fn net_white(&self, pos: &Position, linear: i32) -> i32 {
        match &self.net {
            Some(n) if consults_network(pos, linear) => for_white(pos, n.score(pos)),
            _ => 0,
        }
    }

    /// [`Trained::white_score`] computed feature by feature, as the trainer sees
    /// it (the reference the folded tables are checked against).
    pub fn white_score_by_features(&self, pos: &Position) -> i32 {
        let (wo, we) = self.side(&View::of(pos, Color::White));
        let (bo, be) = self.side(&View::of(pos, Color::Black));
        let linear = self.blend(pos, wo - bo, we - be);
        linear + self.net_white(pos, linear)
    }

    #[inline(always)]
    fn blend(&self, pos: &Position, opening: i32, endgame: i32) -> i32 {
        let ph = phase(pos);
        let blended = opening * (PHASE_MAX - ph) + endgame * ph;
        // Division truncates toward zero, so a position and its mirror round alike
        // (a right shift would round negative scores down). Truncating by 2^shift,
        // then by the constant, is the same and needs no run-time division.
        let magnitude = (blended.unsigned_abs() >> self.shift) / PHASE_MAX as u32;
        if blended < 0 {
            -(magnitude as i32)
        } else {
            magnitude as i32
        }
    }
}

impl Trained {
    /// The linear score of `pos` for White (the network's left out).
    #[inline(always)]
    fn linear_white(&self, pos: &Position) -> i32 {
        let [o, e] = self.folded.sums(&self.w, pos);
        self.blend(pos, o, e)
    }

    /// The evaluation of `pos` from its score for White: bounded, with the noise,
    /// for the side to move.
    #[inline(always)]
    fn finish(&self, pos: &Position, white: i32) -> Score {
        let mut s = white.clamp(-MAX_EVAL, MAX_EVAL);
        if self.noise != 0 {
            s += jitter(pos, self.seed, self.noise);
        }
        Score::centi(for_white(pos, s))
    }
}

impl Evaluator for Trained {
    #[inline]
    fn eval(&self, pos: &Position) -> Score {
        self.finish(pos, self.white_score(pos))
    }

    /// With a network, its first layer is kept per ply in `acc`.
    #[inline]
    fn eval_at(&self, pos: &Position, ply: u32, acc: &mut Accumulators) -> Score {
        match &self.net {
            None => self.eval(pos),
            Some(n) => {
                let linear = self.linear_white(pos);
                if !consults_network(pos, linear) {
                    return self.finish(pos, linear);
                }
                let net = for_white(pos, n.score_at(pos, ply as usize, acc));
                self.finish(pos, linear + net)
            }
        }
    }

    #[inline]
    fn eval_board_at(&self, board: &Board, ply: u32, acc: &mut Accumulators) -> Score {
        match &self.net {
            None => self.eval_board(board),
            Some(_) => self.eval_at(&board.to_position(), ply, acc),
        }
    }
}

/// A score for the side to move as White's, or White's as the side to move's.
#[inline(always)]
fn for_white(pos: &Position, s: i32) -> i32 {
    match pos.side_to_move() {
        Color::White => s,
        Color::Black => -s,
    }
}

/// A number in `-amplitude..=amplitude` fixed by `pos` and `seed` (splitmix64 of
/// the position's masks), antisymmetric in the colours so the mirror property holds.
fn jitter(pos: &Position, seed: u64, amplitude: i32) -> i32 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let h = |a: u32, b: u32, k: u32| {
        let x = mix(seed ^ ((a as u64) << 32 | b as u64));
        let x = mix(x ^ k as u64);
        (x % (amplitude as u64 + 1)) as i32
    };
    let (w, b, k) = (pos.white().0, pos.black().0, pos.kings().0);
    // White's bonus minus Black's (Black's computed on the turned board).
    h(w, b, k) - h(b.reverse_bits(), w.reverse_bits(), k.reverse_bits())
}

/// Evaluations stay well below the proven-result band.
const MAX_EVAL: i32 = 10_000;

const _: () = assert!(features::COUNT < 1 << 20);

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;

    #[test]
    fn embedded_weights_load() {
        let t = Trained::embedded(Variant::Brazilian);
        assert_eq!(t.w.len(), features::COUNT);
        for v in Variant::ALL {
            assert_eq!(Trained::embedded(v).w.len(), features::COUNT, "{v}");
        }
    }

    #[test]
    fn russian_plays_its_own_weights() {
        // Russian plays weights trained on Russian games, which beat the Brazilian
        // ones under Russian rules (docs/training.md); Brazilian keeps its own.
        let brazilian = Trained::embedded(Variant::Brazilian);
        let russian = Trained::embedded(Variant::Russian);
        assert!(brazilian.net.is_some());
        assert!(russian.net.is_some());
        assert_ne!(russian.w, brazilian.w);
        let pos = parse_fen("W:W21,22,23,26:B9,10,11").unwrap();
        assert_ne!(russian.eval(&pos), brazilian.eval(&pos));
        let pos = parse_fen("W:W21,22,23:B9,10").unwrap();
        assert!(russian.eval(&pos) > Score(0));
        assert!(brazilian.eval(&pos) > Score(0));
    }

    #[test]
    fn folded_tables_score_exactly_as_the_features() {
        use rand::{Rng, SeedableRng};
        let t = Trained::embedded(Variant::Brazilian);
        let positions = crate::eval::random_walk_positions(7, 200, 120);
        for pos in &positions {
            assert_eq!(t.white_score(pos), t.white_score_by_features(pos));
        }
        assert!(positions.len() > 5_000, "{}", positions.len());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        // Random weights exercise every table entry's sign and folding.
        let mut w = Weights::zero(3);
        for v in w.values.iter_mut() {
            *v = [rng.gen_range(-500..500), rng.gen_range(-500..500)];
        }
        let r = Trained::new(&w);
        for fen in [
            "W:Wa1,c3,Kd4,e5,g7:Bb6,h8,Kg1,b2",
            "B:Wa1,c1,e1,g1,b2,d2:Bf6,h6,a7,c7,Kb8",
            "W:W21-32:B1-12",
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(
                r.white_score(&pos),
                r.white_score_by_features(&pos),
                "{fen}"
            );
        }
    }

    #[test]
    fn mirror_positions_score_the_same_for_the_side_to_move() {
        let t = Trained::embedded(Variant::Brazilian);
        for fen in [
            "W:Wa1,c3,Kd4,e5:Bb6,h8,Kg1",
            "B:Wa1,c1,e1,g1,b2,d2:Bf6,h6,a7,c7,Kb8",
            "W:W21-32:B1-12",
            "B:Wa3,b4,c5:Bd6,e7,f8,Kh2",
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(t.eval(&pos), t.eval(&pos.flip()), "{fen}");
        }
    }

    #[test]
    fn the_network_is_consulted_only_within_its_range() {
        let linear = Trained::embedded_linear(Variant::Brazilian);
        let mut w = embedded_weights(Variant::Brazilian);
        w.net = Some(crate::eval::network::random(16, 9, 20));
        let t = Trained::new(&w);
        let net = t.net.as_ref().expect("a network");
        let (mut inside, mut beyond, mut kings_only) = (0, 0, 0);
        let mut acc = Accumulators::new();
        let mut positions = crate::eval::random_walk_positions(9, 100, 120);
        for fen in ["W:WKb2,Kd2,Kf2:Bb8,Kd8", "B:Wc3,e3:BKh8", "W:WKa1:BKh8"] {
            positions.push(parse_fen(fen).unwrap());
        }
        for pos in &positions {
            let lin = linear.white_score(pos);
            let men = pos.men(Color::White).any() && pos.men(Color::Black).any();
            let consulted = lin.abs() <= NET_RANGE && men;
            let expect = match consulted {
                true => lin + for_white(pos, net.score(pos)),
                false => lin,
            };
            assert_eq!(consults_network(pos, lin), consulted);
            assert_eq!(t.white_score(pos), expect);
            assert_eq!(t.white_score_by_features(pos), expect);
            assert_eq!(t.eval_at(pos, 3, &mut acc), t.eval(pos));
            match (consulted, men) {
                (true, _) => inside += 1,
                (false, true) => beyond += 1,
                (false, false) => kings_only += 1,
            }
        }
        assert!(
            inside > 100 && beyond > 100 && kings_only >= 3,
            "{inside} {beyond} {kings_only}"
        );
    }

    #[test]
    fn material_counts() {
        // An extra man is good for its side whoever is to move.
        let t = Trained::embedded(Variant::Brazilian);
        let even = parse_fen("W:Wa3,c3,e3:Bb6,d6,f6").unwrap();
        let up = parse_fen("W:Wa3,c3,e3,g3:Bb6,d6,f6").unwrap();
        assert!(t.eval(&up) > t.eval(&even));
        assert!(t.eval(&up).value() > 50, "{}", t.eval(&up));
        let king = parse_fen("W:Wa3,c3,e3,Kg1:Bb6,d6,f6,h6").unwrap();
        assert!(t.eval(&king).value() > 50, "{}", t.eval(&king));
    }

    #[test]
    fn noise_is_small_fixed_and_symmetric() {
        let t = Trained::embedded(Variant::Brazilian);
        let a = t.with_noise(1, 4);
        let b = t.with_noise(2, 4);
        let mut differs = false;
        for fen in [
            "W:Wa1,c3,e3:Bb6,d6,f6",
            "B:Wa1,c3,Ke3:Bb6,d6,h8",
            "W:W21-32:B1-12",
        ] {
            let pos = parse_fen(fen).unwrap();
            let base = t.eval(&pos).value();
            for n in [&a, &b] {
                let v = n.eval(&pos).value();
                assert!((v - base).abs() <= 4, "{fen}: {v} vs {base}");
                assert_eq!(n.eval(&pos), n.eval(&pos.flip()), "{fen}");
            }
            differs |= a.eval(&pos) != b.eval(&pos);
        }
        assert!(differs);
    }

    #[test]
    fn weights_give_their_value() {
        // One man's square weight, with the others zero, is the score (blended).
        let mut w = Weights::zero(0);
        let a3 = damas_rules::square::Square::from_coords(0, 2)
            .unwrap()
            .index();
        w.values[features::MEN_SQUARES + a3] = [120, 120];
        let t = Trained::new(&w);
        let pos = parse_fen("W:Wa3:Bh8").unwrap();
        assert_eq!(t.white_score(&pos), 120);
        assert_eq!(t.eval(&pos.flip()).value(), 120);
        // Opening 0, endgame 240: two pieces on the board is phase 22 of 24.
        w.values[features::MEN_SQUARES + a3] = [0, 240];
        assert_eq!(Trained::new(&w).white_score(&pos), 240 * 22 / 24);
    }
}
