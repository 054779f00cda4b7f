//! Games from the 150 FMJD three-move ballots: which ballot (`--ballot N` or
//! `random`, the `b` key), read from the match's embedded list
//! ([`crate::matches::fmjd_ballot`]).

use std::fmt;
use std::str::FromStr;

use rand::Rng;

use crate::matches::{fmjd_ballot, Opening, BALLOT_COUNT};

/// Which ballot to start from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BallotChoice {
    /// Ballot number 1 to 150 (file order).
    Number(usize),
    /// One drawn at random.
    Random,
}

/// A ballot choice that is neither a number from 1 to 150 nor `random`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a ballot number from 1 to {BALLOT_COUNT} or `random`, got {0:?}")]
pub struct BallotError(pub String);

impl FromStr for BallotChoice {
    type Err = BallotError;
    fn from_str(s: &str) -> Result<BallotChoice, BallotError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("random") {
            return Ok(BallotChoice::Random);
        }
        match t.parse::<usize>() {
            Ok(n) if (1..=BALLOT_COUNT).contains(&n) => Ok(BallotChoice::Number(n)),
            _ => Err(BallotError(s.to_string())),
        }
    }
}

impl fmt::Display for BallotChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BallotChoice::Number(n) => write!(f, "{n}"),
            BallotChoice::Random => f.write_str("random"),
        }
    }
}

impl BallotChoice {
    /// The ballot chosen (a random one drawn from `rng`).
    pub fn pick(self, rng: &mut impl Rng) -> Opening {
        let n = match self {
            BallotChoice::Number(n) => n,
            BallotChoice::Random => rng.gen_range(1..=BALLOT_COUNT),
        };
        fmjd_ballot(n).expect("the embedded ballots are valid and numbered 1 to 150")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::to_fen;

    #[test]
    fn choices_parse_and_refuse_what_is_not_a_ballot() {
        assert_eq!("7".parse(), Ok(BallotChoice::Number(7)));
        assert_eq!(" Random ".parse(), Ok(BallotChoice::Random));
        for bad in ["0", "151", "-1", "x", ""] {
            assert!(bad.parse::<BallotChoice>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_number_picks_that_ballot_of_the_file() {
        let mut rng = rand::thread_rng();
        let first = BallotChoice::Number(1).pick(&mut rng);
        assert_eq!(first.name, "1-I cd4 ba5 dc5");
        assert_eq!(
            to_fen(&first.position()),
            "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,c5:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        );
        let last = BallotChoice::Number(BALLOT_COUNT).pick(&mut rng);
        assert_ne!(last.name, first.name);
        let random = BallotChoice::Random.pick(&mut rng);
        assert!(crate::matches::fmjd_ballots()
            .unwrap()
            .iter()
            .any(|b| b.name == random.name));
    }
}
