//! The `damas-train` command line: self-play data, training, plots. The binary
//! only parses and calls [`run`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args as ClapArgs, Parser, Subcommand};

use crate::train::data::{read_games, DataError, GameRecord};
use crate::train::fit::{export, fit, fit_scale, initial, split, EpochReport, FitConfig};
use crate::train::net::{self, NetConfig};
use crate::train::selfplay::{self, SelfPlayConfig};
use damas_egdb::location;
use damas_engine::eval::features::{self, Group};
use damas_engine::eval::network::{Network, MAX_HIDDEN};
use damas_engine::eval::{EvalName, Evaluation, Trained, Weights};
use damas_rules::variant::Variant;

/// Train the evaluation of damas.
#[derive(Parser, Debug)]
#[command(
    name = "damas-train",
    version,
    about = "Self-play data and evaluation training for damas"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: TrainCommand,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Play self-play games into a data file (resumes a file cut short).
    Selfplay(SelfplayArgs),
    /// Fit weights to one or more data files.
    Fit(FitArgs),
    /// Draw the training curves of several `fit --curve` CSV files in one SVG.
    Plot(PlotArgs),
}

/// Arguments of `selfplay`.
#[derive(ClapArgs, Debug)]
pub struct SelfplayArgs {
    /// Data file (created, or continued up to `--games`).
    #[arg(long)]
    pub out: PathBuf,
    /// Rules the games are played under: brazilian or russian.
    #[arg(long, default_value_t = Variant::Brazilian)]
    pub variant: Variant,
    /// Games the file should hold.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Search nodes per move.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Random plies after the ballot: 0 to this many.
    #[arg(long, default_value_t = 6)]
    pub random_plies: u32,
    /// Each move's node budget drawn from nodes ± this percentage (0 to 99), so
    /// that games from one ballot differ without random moves.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=99))]
    pub node_jitter: u32,
    /// Seed of the random plies and node budgets.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games are drawn at this many plies.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Evaluation the engine plays with.
    #[arg(long, default_value_t = EvalName::Trained)]
    pub eval: EvalName,
    /// Weight file for the trained evaluation (default: the embedded weights of
    /// the variant).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Endgame databases (`damas-egdb build --dir DIR`, of `--variant`'s rules): a game
    /// ends at the first position they hold, with their result as its label
    /// (default: every game is played out).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
}

/// Arguments of `fit`.
#[derive(ClapArgs, Debug)]
pub struct FitArgs {
    /// Data files.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Weight file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = FitConfig::default().epochs)]
    pub epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = FitConfig::default().batch)]
    pub batch: usize,
    /// AdaGrad step size (hundredths of a man).
    #[arg(long, default_value_t = FitConfig::default().lr)]
    pub lr: f32,
    /// Weight of the game result in the target (the rest: the search's score).
    #[arg(long, default_value_t = FitConfig::default().lambda)]
    pub lambda: f32,
    /// L2 penalty.
    #[arg(long, default_value_t = FitConfig::default().l2)]
    pub l2: f32,
    /// Seed of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Percentage of games held out.
    #[arg(long, default_value_t = 10)]
    pub holdout: u32,
    /// Feature groups to train, comma-separated (default: all): material, tempo,
    /// men-squares, king-squares, patterns, mobility, runaways, blocks.
    #[arg(long, value_delimiter = ',')]
    pub groups: Vec<String>,
    /// Leave out positions before this ply.
    #[arg(long, default_value_t = 0)]
    pub skip_plies: u8,
    /// Start from these weights (default: man 100, king 300, the rest 0); a file of an
    /// earlier feature layout starts the groups added since at 0.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Write the losses per epoch to this CSV file.
    #[arg(long)]
    pub curve: Option<PathBuf>,
    /// Train a network of this many hidden units per view on top of `--init`'s
    /// linear weights, which stay as they are (docs/evaluation.md, "The network").
    #[arg(long, value_name = "UNITS", requires = "init")]
    pub net: Option<usize>,
    /// Start the network from this weight file's network instead of random weights
    /// (its linear weights are not read: those are `--init`'s); `--net`, if given,
    /// must match its hidden units.
    #[arg(long, value_name = "FILE", requires = "init")]
    pub net_init: Option<PathBuf>,
    /// Adam's step size for `--net`.
    #[arg(long, default_value_t = 0.001)]
    pub net_lr: f32,
    /// The logistic scale `K` (per hundredth) instead of the one the material count fits
    /// to these games; a network fitted over linear weights needs their `K`.
    #[arg(long, value_name = "K", value_parser = parse_scale)]
    pub scale: Option<f32>,
}

/// A clap value parser for `--scale`: a logistic scale above 0 and below 1 per hundredth.
fn parse_scale(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(k) if k.is_finite() && k > 0.0 && k < 1.0 => Ok(k),
        _ => Err(format!(
            "{text:?}: give a logistic scale above 0 and below 1 per hundredth"
        )),
    }
}

/// Arguments of `plot`.
#[derive(ClapArgs, Debug)]
pub struct PlotArgs {
    /// `LABEL=CSV` pairs, one per training round.
    #[arg(required = true)]
    pub rounds: Vec<String>,
    /// SVG file to write.
    #[arg(long)]
    pub svg: PathBuf,
}

/// Run a command; errors are printed on stderr.
pub fn run(cli: Cli) -> ExitCode {
    let r = match cli.command {
        TrainCommand::Selfplay(a) => run_selfplay(&a),
        TrainCommand::Fit(a) => run_fit(&a),
        TrainCommand::Plot(a) => run_plot(&a),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("damas-train: {e}");
            ExitCode::from(1)
        }
    }
}

/// Check, before the work, that `path` (given as `flag`) can be written.
fn check_out(flag: &str, path: &Path) -> Result<(), String> {
    crate::cli::output::check_file(path).map_err(|e| format!("{flag}: {e}"))
}

fn run_selfplay(a: &SelfplayArgs) -> Result<(), String> {
    check_out("--out", &a.out)?;
    let evaluation = match &a.weights {
        Some(p) => Evaluation::Trained(std::sync::Arc::new(
            Trained::from_file(p).map_err(|e| e.to_string())?,
        )),
        None => a.eval.evaluation(a.variant),
    };
    // Only the directory given: a run's games do not depend on the environment.
    let egdb = match &a.egdb {
        Some(dir) => location::open(a.variant, Some(dir), &location::Env::default())
            .map_err(|e| format!("--egdb {}: {e}", dir.display()))?
            .map(std::sync::Arc::new),
        None => None,
    };
    let cfg = SelfPlayConfig {
        variant: a.variant,
        games: a.games,
        nodes: a.nodes,
        random_plies: a.random_plies,
        node_jitter: a.node_jitter,
        seed: a.seed,
        max_plies: a.max_plies,
        evaluation,
        progress: true,
        egdb,
        ..SelfPlayConfig::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    let s = pool
        .install(|| selfplay::run(&cfg, &a.out))
        .map_err(|e| e.to_string())?;
    let adjudicated = if cfg.egdb.is_some() {
        format!(", {} of them ended by the databases", s.adjudicated)
    } else {
        String::new()
    };
    outln!(
        "{} ({}): {} games ({} played now in {:.1} s{adjudicated}), {} positions, White +{} ={} -{}",
        a.out.display(),
        a.variant,
        s.games,
        s.played,
        start.elapsed().as_secs_f64(),
        s.samples,
        s.results[0],
        s.results[1],
        s.results[2]
    );
    Ok(())
}

/// Prints each epoch's losses with the time since the start and keeps them in `curve`.
fn reporter(curve: &mut Vec<EpochReport>) -> impl FnMut(&EpochReport) + '_ {
    let start = std::time::Instant::now();
    move |r| {
        outln!(
            "epoch {:3}  train {:.5}  held-out {:.5}  ({:.0} s)",
            r.epoch,
            r.train,
            r.valid,
            start.elapsed().as_secs_f64()
        );
        curve.push(*r);
    }
}

/// `fit --net`: a network fitted over fixed linear weights.
fn run_fit_net(
    a: &FitArgs,
    cfg: &FitConfig,
    games: &[GameRecord],
    hidden: usize,
    start: Option<Network>,
) -> Result<(), String> {
    if hidden == 0 || hidden > MAX_HIDDEN {
        return Err(format!(
            "--net {hidden}: hidden units must be 1 to {MAX_HIDDEN}"
        ));
    }
    let init_path = a.init.as_ref().ok_or("--net needs --init")?;
    let mut weights = Weights::load(init_path)
        .map_err(|e| e.to_string())?
        .without_network();
    let linear = Trained::new(&weights);
    // `--scale`, else K as the linear fit measures it.
    let k = a.scale.unwrap_or_else(|| fit_scale(&split(games, cfg).0));
    let (train, valid) = net::split(games, &linear, cfg.holdout, cfg.skip_plies);
    if train.is_empty() {
        return Err("no training positions in the data".into());
    }
    outln!(
        "{} games: {} training positions, {} held out; K = {k:.6} per hundredth; {hidden} hidden units",
        games.len(),
        train.len(),
        valid.len()
    );
    let ncfg = NetConfig {
        hidden,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.net_lr,
        lambda: cfg.lambda,
        l2: cfg.l2,
        seed: cfg.seed,
        holdout: cfg.holdout,
        skip_plies: cfg.skip_plies,
        start,
    };
    let mut curve: Vec<EpochReport> = Vec::new();
    let net = net::fit_net(&train, &valid, k, &ncfg, &mut reporter(&mut curve));
    weights.net = Some(net.export());
    crate::cli::output::write_file(&a.out, &weights.to_bytes())
        .map_err(|e| format!("--out: {e}"))?;
    outln!(
        "wrote {}: linear weights of {} and the network",
        a.out.display(),
        init_path.display()
    );
    if let Some(p) = &a.curve {
        write_curve(p, &curve)?;
    }
    Ok(())
}

fn run_fit(a: &FitArgs) -> Result<(), String> {
    check_out("--out", &a.out)?;
    if let Some(p) = &a.curve {
        check_out("--curve", p)?;
    }
    let groups = if a.groups.is_empty() {
        Group::ALL.to_vec()
    } else {
        a.groups
            .iter()
            .map(|g| {
                Group::from_name(g).ok_or_else(|| {
                    let names: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
                    format!("unknown feature group {g:?} (known: {})", names.join(", "))
                })
            })
            .collect::<Result<_, _>>()?
    };
    // The network a run starts from, read before the data so a bad file fails at once.
    let start = match &a.net_init {
        Some(p) => {
            let w = Weights::load(p).map_err(|e| e.to_string())?;
            Some(
                w.net
                    .ok_or_else(|| format!("{}: this weight file has no network", p.display()))?,
            )
        }
        None => None,
    };
    let hidden = match (a.net, &start) {
        (Some(h), Some(n)) if h != n.hidden => {
            return Err(format!(
                "--net {h}: the network of --net-init has {} hidden units",
                n.hidden
            ))
        }
        (h, n) => h.or(n.as_ref().map(|n| n.hidden)),
    };
    let cfg = FitConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lambda: a.lambda,
        l2: a.l2,
        seed: a.seed,
        holdout: a.holdout,
        groups,
        skip_plies: a.skip_plies,
        ..FitConfig::default()
    };
    let mut games = Vec::new();
    let mut variant = None;
    for p in &a.data {
        let f = read_games(p).map_err(|e| e.to_string())?;
        // Weights are fitted to one variant's games.
        let expected = *variant.get_or_insert(f.variant);
        if f.variant != expected {
            return Err(DataError::Variant {
                path: p.display().to_string(),
                found: f.variant,
                expected,
            }
            .to_string());
        }
        // Indices restart in each file; keep them distinct for the split.
        let base = games.len() as u32;
        games.extend(f.games.into_iter().map(|mut g| {
            g.index += base;
            g
        }));
    }
    if let Some(hidden) = hidden {
        return run_fit_net(a, &cfg, &games, hidden, start);
    }
    let (train, valid) = split(&games, &cfg);
    if train.is_empty() {
        return Err("no training positions in the data".into());
    }
    let init = match &a.init {
        Some(p) => Some(Weights::load(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let k = a.scale.unwrap_or_else(|| fit_scale(&train));
    outln!(
        "{} {} games: {} training positions, {} held out; K = {k:.6} per hundredth",
        variant.unwrap_or_default(),
        games.len(),
        train.len(),
        valid.len()
    );
    let mut curve: Vec<EpochReport> = Vec::new();
    let w = fit(
        &train,
        &valid,
        initial(init.as_ref()),
        k,
        &cfg,
        &mut reporter(&mut curve),
    );
    let out = export(&w, cfg.shift);
    crate::cli::output::write_file(&a.out, &out.to_bytes()).map_err(|e| format!("--out: {e}"))?;
    let m = w[features::MATERIAL];
    let kg = w[features::MATERIAL + 1];
    outln!(
        "wrote {}: man {:.0}/{:.0}, king {:.0}/{:.0} (opening/endgame, hundredths)",
        a.out.display(),
        m[0],
        m[1],
        kg[0],
        kg[1]
    );
    if let Some(p) = &a.curve {
        write_curve(p, &curve)?;
    }
    Ok(())
}

fn write_curve(path: &Path, curve: &[EpochReport]) -> Result<(), String> {
    let mut s = String::from("epoch,train,valid\n");
    for r in curve {
        s.push_str(&format!("{},{:.6},{:.6}\n", r.epoch, r.train, r.valid));
    }
    crate::cli::output::write_file(path, s.as_bytes()).map_err(|e| format!("--curve: {e}"))
}

fn read_curve(path: &Path) -> Result<Vec<EpochReport>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            let bad = || {
                format!(
                    "{} line {}: expected epoch,train,valid",
                    path.display(),
                    n + 1
                )
            };
            let f: Vec<&str> = l.split(',').collect();
            if f.len() != 3 {
                return Err(bad());
            }
            Ok(EpochReport {
                epoch: f[0].trim().parse().map_err(|_| bad())?,
                train: f[1].trim().parse().map_err(|_| bad())?,
                valid: f[2].trim().parse().map_err(|_| bad())?,
            })
        })
        .collect()
}

fn run_plot(a: &PlotArgs) -> Result<(), String> {
    let mut rounds = Vec::new();
    for r in &a.rounds {
        let (label, file) = r
            .split_once('=')
            .ok_or_else(|| format!("{r:?}: expected LABEL=CSV"))?;
        rounds.push((label.to_string(), read_curve(Path::new(file))?));
    }
    check_out("--svg", &a.svg)?;
    crate::train::curve::draw(&a.svg, &rounds)
}
