//! The rule variants the program plays, and the seam where the move generator
//! consults them (see `docs/variants.md`).
//!
//! A variant is two things: the value [`Variant`], which callers choose at run time
//! (command lines, PDN `GameType`), and a zero-sized type implementing [`Rules`],
//! whose constants the generator reads. The generator is generic over [`Rules`], so
//! each variant gets its own monomorphised copy with its choices folded away; a
//! [`Variant`] is turned into its type once, at an entry point (`*_for` functions).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A rule variant of 8×8 draughts with flying kings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Brazilian draughts: captures of the most pieces are compulsory, a man is
    /// crowned only where its move ends.
    #[default]
    Brazilian,
    /// Russian draughts (shashki): any capture sequence may be chosen, and a man
    /// reaching the far row during a capture is crowned at once and goes on as a king.
    Russian,
}

impl Variant {
    /// Every supported variant.
    pub const ALL: [Variant; 2] = [Variant::Brazilian, Variant::Russian];

    /// The names of [`Variant::ALL`], in order.
    pub const NAMES: [&'static str; Variant::ALL.len()] = {
        let mut names = [""; Variant::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Variant::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The lower-case name read and printed (`brazilian`, `russian`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
        }
    }

    /// The PDN `GameType` number (Brazilian 26, Russian 25).
    pub const fn game_type(self) -> GameType {
        match self {
            Variant::Brazilian => GameType(26),
            Variant::Russian => GameType(25),
        }
    }

    /// The variant a PDN `GameType` number names, if it is one we play.
    pub fn from_game_type(number: GameType) -> Result<Variant, VariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.game_type() == number)
            .ok_or(VariantError::GameType(number))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// A variant by name, in any case (`brazilian`, `Brazilian`).
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| VariantError::Name(s.to_string()))
    }
}

/// A PDN `GameType` number: the first field of the tag (`26` in `26,W,8,8,A0,0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameType(pub u16);

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Why a variant could not be chosen.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// No variant has this name.
    #[error("unknown variant {0:?} (known: {known})", known = Variant::NAMES.join(", "))]
    Name(String),
    /// A PDN `GameType` number of a game we do not play.
    #[error("unsupported GameType {0} (26, Brazilian, and 25, Russian, are played)")]
    GameType(GameType),
}

/// A variant's rules as constants, for the generic move generator. Implemented by a
/// zero-sized type per variant; [`Rules::VARIANT`] ties it to its [`Variant`].
pub trait Rules: Copy + Default + Send + Sync + 'static {
    /// The variant these rules are.
    const VARIANT: Variant;
    /// Whether only the captures taking the most pieces are legal (majority rule);
    /// otherwise any complete capture sequence may be chosen.
    const MAJORITY: bool;
    /// Whether a man reaching the far row during a capture is crowned at once and
    /// goes on capturing as a king; otherwise only where the move ends.
    const CROWNS_MID_CAPTURE: bool;
}

/// The rules of Brazilian draughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    const VARIANT: Variant = Variant::Brazilian;
    const MAJORITY: bool = true;
    const CROWNS_MID_CAPTURE: bool = false;
}

/// The rules of Russian draughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    const VARIANT: Variant = Variant::Russian;
    const MAJORITY: bool = false;
    const CROWNS_MID_CAPTURE: bool = true;
}

/// Call `f` with the [`Rules`] type of `variant`: the one place a run-time variant
/// becomes a type, so entry points dispatch once and everything below is
/// monomorphised.
#[macro_export]
macro_rules! with_rules {
    ($variant:expr, $r:ident => $body:expr) => {
        match $variant {
            $crate::variant::Variant::Brazilian => {
                type $r = $crate::variant::Brazilian;
                $body
            }
            $crate::variant::Variant::Russian => {
                type $r = $crate::variant::Russian;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_game_types_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.to_string().to_uppercase().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::from_game_type(v.game_type()), Ok(v));
        }
        assert_eq!(Variant::default(), Variant::Brazilian);
        assert_eq!(Variant::Brazilian.game_type(), GameType(26));
        assert_eq!(Brazilian::VARIANT, Variant::Brazilian);
        assert_eq!(Variant::Russian.game_type(), GameType(25));
        assert_eq!("Russian".parse::<Variant>(), Ok(Variant::Russian));
        assert_eq!(Russian::VARIANT, Variant::Russian);
    }

    #[test]
    fn unknown_names_and_game_types_are_errors() {
        assert_eq!(
            "checkers".parse::<Variant>(),
            Err(VariantError::Name("checkers".into()))
        );
        assert_eq!(
            Variant::from_game_type(GameType(20)),
            Err(VariantError::GameType(GameType(20)))
        );
        // The error lists every variant, from the type.
        let said = VariantError::Name("checkers".into()).to_string();
        for v in Variant::ALL {
            assert!(said.contains(v.name()), "{said}");
        }
        assert_eq!(Variant::NAMES.len(), Variant::ALL.len());
    }
}
