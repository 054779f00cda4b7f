//! `damas moves`: the legal moves of a position, one per line.

use crate::cli::{position_arg, variant_parser, CliError};
use clap::builder::TypedValueParser as _;
use damas_rules::notation::{legal_move_strings, Notation};
use damas_rules::Variant;

/// Arguments of `damas moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position (algebraic or numeric FEN); the start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// How to write the moves.
    #[arg(long, default_value_t = Notation::Algebraic, value_parser = clap::builder::PossibleValuesParser::new(["algebraic", "numeric", "hub"]).try_map(|s| s.parse::<Notation>()))]
    pub notation: Notation,
    /// The rules: brazilian or russian.
    #[arg(long, default_value_t = Variant::Brazilian, value_parser = variant_parser())]
    pub variant: Variant,
}

/// Print the legal moves.
pub fn run(args: &Args) -> Result<(), CliError> {
    let pos = position_arg(args.fen.as_deref())?;
    for m in legal_move_strings(args.variant, &pos, args.notation) {
        outln!("{m}");
    }
    Ok(())
}
