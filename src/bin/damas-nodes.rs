//! `damas-nodes`: the node-count study (thesis §6.6). All logic is in `damas::study`.

fn main() -> std::process::ExitCode {
    damas::cli::study::main()
}
