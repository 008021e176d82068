//! The command-line interface: argument structs (clap derive) and one function per subcommand.
//!
//! `main.rs` only parses the arguments and maps the outcome to an exit code; the work happens in
//! the library. Exit codes: 0 success, 1 some input lines were bad (each reported on stderr as
//! `FILE:LINE: reason`, the rest processed) or a bank came up short (`verify` found a wrong
//! row, `get` or `export` ran out of puzzles), 2 a usage or fatal error (bad arguments,
//! unreadable file).

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::input::{PuzzleReader, ReadError};
use crate::solve::{solve, Solutions};

/// Builds large, graded Sudoku puzzle banks.
///
/// pseudoku is a toolkit for building banks of graded, distinct Sudoku puzzles. Puzzles are read
/// one per line (81 characters, `1`-`9`, `.` or `0` for empty; anything after the 81st character
/// is ignored) or in the nine-line grid form; blank lines and lines starting with `#` are skipped.
///
/// Exit status: 0 on success, 1 if some input lines were bad (each is reported on stderr as
/// FILE:LINE: reason and the rest are processed) or, for `verify`, a row is wrong, for `get`,
/// the range has fewer unserved puzzles than asked, for `export`, a level ran short; 2 on a
/// usage or fatal error.
#[derive(Debug, Parser)]
#[command(name = "pseudoku", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles with the exact solver.
    ///
    /// For each input puzzle prints `<puzzle>\t<solution>`, or `<puzzle>\tmultiple` when it has
    /// two or more solutions, or `<puzzle>\tnone` when it has none. With --count prints
    /// `<puzzle>\t<0|1|2>` instead (2 meaning two or more).
    Solve(SolveArgs),
    /// Rate puzzles: difficulty, the paper's hsolve and the secondary metrics.
    ///
    /// Prints a header line and one tab-separated line per puzzle with the columns
    /// `puzzle difficulty hsolve hsolve_sd tier steps wnef wnef_class box_norm box_class grade
    /// clues`;
    /// with --json, one JSON object per line with those keys instead. A puzzle without exactly
    /// one solution is reported on stderr as a bad line.
    Rate(RateArgs),
    /// Show one hsolve run on a puzzle, step by step, as a person would follow it.
    ///
    /// Each line is one search: the step number (or `-` when the search found nothing and the
    /// solver moved on to the next tier), the tier, the strategy applied, p (possible
    /// applications), v (valid ones), the running difficulty d, and the move. With --rating
    /// difficulty, one run of the difficulty model instead: its ladder position replaces the
    /// tier, and d sums the unweighted E(p, v).
    Explain(ExplainArgs),
    /// Print each puzzle's exact canonical (minlex) form and its class key.
    ///
    /// Per input puzzle: `<input>\t<canonical>\t<key>\t<automorphisms>`: the canonical form as
    /// 81 characters with `0` for empty, the blake3 key of that string in hex, and the number of
    /// symmetries that fix the input. Two puzzles are the same puzzle up to symmetry exactly when
    /// their keys are equal. With --grid, the puzzle's solution grid is canonicalized instead (a
    /// puzzle without exactly one solution is then reported as a bad line).
    Canon(CanonArgs),
    /// Build (or continue building) a bank of graded, distinct puzzles in SQLite.
    ///
    /// Each job takes a seed of the library, applies a random symmetry, reveals random cells
    /// the seed's weaker solver can fill until it fills them all (the seed's hard core stays
    /// empty), checks uniqueness, drops duplicates by class key, rates, and stores. Ctrl-C stops
    /// cleanly: committed puzzles stay, and the same command continues where it stopped. The
    /// same seed and count give the same bank whatever the thread count. With --band or
    /// --per-band, only puzzles inside the bands are kept, until every quota is met.
    Build(BuildArgs),
    /// Re-check a bank's rows: unique solution, stored solution, canonical form and key, both
    /// ratings and the percentile.
    Verify(VerifyArgs),
    /// Get random unserved puzzles of a band, a percentile range or a level.
    ///
    /// Prints one line per puzzle: `<puzzle>\t<rating>\t<percentile>\t<id>` (the rating is the
    /// one the bank's percentiles use), or with --json one object per line with the keys
    /// `id puzzle solution rating percentile tier`. With --mark-served the puzzles are recorded
    /// as served in the same transaction, and never handed out again, even to concurrent
    /// callers. Exits with 1 (after printing what there was) when the range has fewer unserved
    /// puzzles than asked.
    Get(GetArgs),
    /// Replace the reference distribution percentiles are measured against, change the rating
    /// they use or the level names; every stored percentile is recomputed in one transaction.
    Calibrate(CalibrateArgs),
    /// What a bank holds: counts per band and tier, the rating histogram, percentiles against
    /// the reference, duplicates rejected, seeds used; --plot draws it as an SVG image.
    Stats(StatsArgs),
    /// Export daily batches for a publisher: a mix of levels per day, never repeating a
    /// puzzle (nor any member of its class), with no two puzzles from the same seed or
    /// solution grid within 7 days.
    ///
    /// Exporting dates already exported writes the same puzzles again, byte for byte;
    /// --replace draws new ones (the old ones stay retired). If a level runs short, says which,
    /// how many and from which date, exports nothing and exits with 1 (--allow-partial exports
    /// what there is).
    Export(ExportArgs),
    /// The seed library: mine seeds, import them, list them.
    #[command(subcommand)]
    Seeds(SeedsCommand),
}

/// Arguments of `pseudoku build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// New distinct puzzles to store.
    #[arg(long, default_value_t = 1000)]
    pub count: u64,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// A seed library file (default: the shipped library).
    #[arg(long, value_name = "FILE")]
    pub seeds: Option<PathBuf>,
    /// Jobs per batch (one transaction per batch).
    #[arg(long, default_value_t = 256, hide = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub batch: u64,
    /// Build only puzzles of this band (K/M, e.g. 3/4): --count of them.
    #[arg(long, value_name = "K/M", conflicts_with_all = ["per_band", "bands"])]
    pub band: Option<crate::levels::Band>,
    /// Build this many puzzles in every band of --bands (quotas; --count is ignored).
    #[arg(long, value_name = "N", requires = "bands")]
    pub per_band: Option<u64>,
    /// The number of bands for --per-band.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub bands: Option<u32>,
    /// The rating a new bank's percentiles and bands use.
    #[arg(long, value_enum)]
    pub rating: Option<crate::levels::RatingKind>,
}

impl BuildArgs {
    /// The band quotas asked for (empty: any difficulty).
    pub fn targets(&self) -> anyhow::Result<Vec<(crate::levels::Band, u64)>> {
        if let Some(band) = self.band {
            return Ok(vec![(band, self.count)]);
        }
        match (self.per_band, self.bands) {
            (Some(n), Some(m)) => Ok((1..=m)
                .map(|k| (crate::levels::Band::new(k, m).expect("1 <= k <= m"), n))
                .collect()),
            (None, Some(_)) => anyhow::bail!("--bands needs --per-band N"),
            _ => Ok(Vec::new()),
        }
    }
}

/// Arguments of `pseudoku verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Rows to check, spread over the bank (0: all).
    #[arg(long, default_value_t = 1000)]
    pub sample: u64,
}

/// Arguments of `pseudoku get`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("range").required(true).args(["band", "percentile", "level"])))]
pub struct GetArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Band K of M, e.g. 3/4: percentiles [100(K-1)/M, 100K/M).
    #[arg(long, value_name = "K/M")]
    pub band: Option<crate::levels::Band>,
    /// Percentiles [A, B), e.g. 90..95 (B = 100 includes 100).
    #[arg(long, value_name = "A..B")]
    pub percentile: Option<crate::levels::PercentileRange>,
    /// A level of the bank's level names, e.g. hard.
    #[arg(long, value_name = "NAME")]
    pub level: Option<String>,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Record the puzzles as served: they are never returned again.
    #[arg(long)]
    pub mark_served: bool,
    /// Seed of the random choice (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Arguments of `pseudoku calibrate`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("change").required(true).multiple(true).args(["from", "default_reference", "rating", "levels"])))]
pub struct CalibrateArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// A corpus of puzzles to become the reference (e.g. a publisher's past puzzles), one per
    /// line; bad lines and puzzles without one solution are reported and left out.
    #[arg(long, value_name = "FILE", conflicts_with = "default_reference")]
    pub from: Option<PathBuf>,
    /// Go back to the default reference (2,500 standard-generator and 7,500 minimal puzzles).
    #[arg(long = "default")]
    pub default_reference: bool,
    /// The rating percentiles and bands use.
    #[arg(long, value_enum)]
    pub rating: Option<crate::levels::RatingKind>,
    /// Level names, easiest first, comma-separated (equal bands), e.g. easy,medium,hard,expert.
    #[arg(long, value_name = "NAMES")]
    pub levels: Option<crate::levels::LevelSet>,
    /// Worker threads for rating the corpus (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// Arguments of `pseudoku stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also draw the histogram and the counts per band into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// Arguments of `pseudoku export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The first date, YYYY-MM-DD.
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub start: String,
    /// The number of days.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3660))]
    pub days: u32,
    /// Puzzles per day by level or band, e.g. easy:2,medium:2,hard:1 or 1/4:2,4/4:1.
    #[arg(long, value_name = "SPEC")]
    pub mix: String,
    /// The file format.
    #[arg(long, value_enum, default_value = "txt")]
    pub format: crate::export::Format,
    /// The output folder (created if needed).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// One file for the whole range instead of one per day.
    #[arg(long)]
    pub single_file: bool,
    /// Draw new puzzles for dates already exported (the old ones are never used again).
    #[arg(long)]
    pub replace: bool,
    /// Export what there is when a level runs short (its slots stay empty).
    #[arg(long)]
    pub allow_partial: bool,
    /// Puzzles per printed page, for html and pdf: 1, 2, 4 or 6.
    #[arg(long, default_value_t = 4, value_parser = per_page)]
    pub per_page: u8,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Parses `--per-page`: 1, 2, 4 or 6.
fn per_page(s: &str) -> Result<u8, String> {
    match s.trim() {
        "1" => Ok(1),
        "2" => Ok(2),
        "4" => Ok(4),
        "6" => Ok(6),
        _ => Err(format!("{s:?}: puzzles per page must be 1, 2, 4 or 6")),
    }
}

/// The `seeds` subcommands.
#[derive(Debug, Subcommand)]
pub enum SeedsCommand {
    /// Mine seeds: random minimal puzzles classified by the hardest tier they need, with
    /// neighbourhood climbing from the rare tiers (3, 4, 6); new classes are added to the
    /// library until every tier has its quota.
    Mine(MineArgs),
    /// Import seeds from a file: plain 81-character puzzles or lines of the seed format.
    ///
    /// Each puzzle is checked (one solution) and analysed; bad lines are reported as
    /// FILE:LINE: reason, the good ones are added (one per class) and a summary is printed.
    Import(ImportArgs),
    /// Summarize the library by tier: count, rating range, reserved-cell range.
    List(ListArgs),
}

/// Where the library lives.
#[derive(Debug, clap::Args)]
pub struct LibraryArg {
    /// The library file.
    #[arg(long, value_name = "FILE", default_value = "seeds/library.tsv")]
    pub library: PathBuf,
}

/// Arguments of `pseudoku seeds mine`.
#[derive(Debug, clap::Args)]
pub struct MineArgs {
    /// Keep seeds needing at least this tier.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub tier: u8,
    /// Seeds wanted per tier for tiers 1-3 and for tiers 5-6 together (tier 4: a tenth).
    #[arg(long, default_value_t = 300)]
    pub count: usize,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Seed of the random choices (the same seed gives the same library).
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Give up after this many candidate puzzles.
    #[arg(long, default_value_t = 5_000_000)]
    pub max_jobs: u64,
    /// Neighbourhood moves tried from each rare find.
    #[arg(long, default_value_t = 20)]
    pub climb: u32,
    /// Where to write the library (merged with what is there).
    #[arg(long, value_name = "FILE", default_value = "seeds/library.tsv")]
    pub out: PathBuf,
}

/// Arguments of `pseudoku seeds import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The file to import; `-` reads standard input.
    #[arg(value_name = "FILE|-")]
    pub input: PathBuf,
    /// The library.
    #[command(flatten)]
    pub library: LibraryArg,
}

/// Arguments of `pseudoku seeds list`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// The library.
    #[command(flatten)]
    pub library: LibraryArg,
}

/// Arguments of `pseudoku canon`.
#[derive(Debug, clap::Args)]
pub struct CanonArgs {
    /// Input file, one puzzle per line; `-` or nothing reads standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    pub input: PathBuf,
    /// Canonicalize each puzzle's solution grid instead of the puzzle.
    #[arg(long)]
    pub grid: bool,
    /// Print one JSON object per line (keys `input canonical key automorphisms`).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `pseudoku rate`.
#[derive(Debug, clap::Args)]
pub struct RateArgs {
    /// Input file, one puzzle per line; `-` or nothing reads standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    pub input: PathBuf,
    /// Runs per puzzle for both ratings (each is the mean of its runs); by default 10 for
    /// difficulty and 20 for hsolve.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub runs: Option<u32>,
    /// Print one JSON object per line instead of TSV.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `pseudoku explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// The puzzle: 81 characters, `1`-`9` for clues, `.` or `0` for empty cells.
    #[arg(value_name = "PUZZLE")]
    pub puzzle: String,
    /// Which model's run to show.
    #[arg(long, value_enum, default_value = "hsolve")]
    pub rating: crate::levels::RatingKind,
}

/// Arguments of `pseudoku solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Input file, one puzzle per line; `-` or nothing reads standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    pub input: PathBuf,
    /// Print the number of solutions (0, 1, or 2 for two or more) instead of the solution.
    #[arg(long)]
    pub count: bool,
}

/// How a command ended, mapped to the process exit code by `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything went well (exit 0).
    Success,
    /// Some input lines were bad and were reported (exit 1).
    BadInput,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let result = match cli.command {
        Command::Solve(args) => run_solve(&args),
        Command::Rate(args) => run_rate(&args),
        Command::Explain(args) => run_explain(&args),
        Command::Canon(args) => run_canon(&args),
        Command::Build(args) => run_build(&args),
        Command::Verify(args) => run_verify(&args),
        Command::Get(args) => run_get(&args),
        Command::Calibrate(args) => run_calibrate(&args),
        Command::Stats(args) => run_stats(&args),
        Command::Export(args) => run_export(&args),
        Command::Seeds(SeedsCommand::Mine(args)) => run_mine(&args),
        Command::Seeds(SeedsCommand::Import(args)) => run_import(&args),
        Command::Seeds(SeedsCommand::List(args)) => run_list(&args),
    };
    match result {
        // The reader of our output went away (`| head`): not an error.
        Err(e) if is_broken_pipe(&e) => Ok(Outcome::Success),
        other => other,
    }
}

/// True when `e` is (or wraps) a broken-pipe I/O error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Reads every puzzle of `input`, calling `each` on the good ones and reporting the bad ones on
/// stderr. Returns whether any line was bad.
fn for_each_puzzle(
    input: &std::path::Path,
    mut each: impl FnMut(crate::input::Entry) -> io::Result<()>,
) -> anyhow::Result<Outcome> {
    let mut outcome = Outcome::Success;
    for item in PuzzleReader::open(input)? {
        match item {
            Ok(entry) => each(entry)?,
            Err(ReadError::Line(e)) => {
                eprintln!("{e}");
                outcome = Outcome::BadInput;
            }
            Err(e @ ReadError::Io { .. }) => return Err(e.into()),
        }
    }
    Ok(outcome)
}

/// The name of an input in messages: its path, or `-` for standard input.
fn source_name(input: &std::path::Path) -> String {
    input.display().to_string()
}

fn run_rate(args: &RateArgs) -> anyhow::Result<Outcome> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if !args.json {
        writeln!(out, "{}", crate::rate::TSV_HEADER)?;
    }
    let name = source_name(&args.input);
    let mut unrated = false;
    let outcome = for_each_puzzle(&args.input, |entry| {
        match crate::rate::report(&entry.puzzle, args.runs) {
            Ok(r) if args.json => writeln!(out, "{}", r.to_json()),
            Ok(r) => writeln!(out, "{}", r.to_tsv()),
            Err(e) => {
                out.flush()?;
                eprintln!("{name}:{}: {e}", entry.line);
                unrated = true;
                Ok(())
            }
        }
    })?;
    out.flush()?;
    Ok(if unrated { Outcome::BadInput } else { outcome })
}

/// Set by Ctrl-C: a build stops after its current batch.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn run_build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    use std::io::IsTerminal as _;
    let lib = match &args.seeds {
        Some(path) if !path.is_file() => {
            anyhow::bail!("{}: no such seed library file", path.display())
        }
        Some(path) => load_library(path)?,
        None => crate::seeds::Library::shipped(),
    };
    // A second Ctrl-C while stopping is left to the default handler; ignore "already set".
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let opts = crate::bank::BuildOptions {
        db: args.db.clone(),
        count: args.count,
        targets: args.targets()?,
        rating: args.rating,
        threads: args.threads,
        seed: args.seed,
        seeds: args.seeds.clone(),
        batch: args.batch.max(1),
    };
    let start = std::time::Instant::now();
    let tty = io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::new(args.count);
    if tty {
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} stored, {msg} ETA {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut last_line = std::time::Instant::now();
    let prog = crate::bank::build(&opts, &lib, &STOP, |p| {
        let rate = p.stored as f64 / start.elapsed().as_secs_f64().max(1e-9);
        if tty {
            bar.set_position(p.stored);
            bar.set_message(format!("{} duplicates, {rate:.0}/s", p.duplicates));
        } else if last_line.elapsed().as_secs() >= 5 {
            eprintln!(
                "stored {}/{}, {} duplicates, {rate:.0}/s",
                p.stored, p.count, p.duplicates
            );
            last_line = std::time::Instant::now();
        }
    })?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let stopped = prog.stored < prog.count;
    eprintln!(
        "{} {} of {} puzzles in {}, {:.1} s ({} duplicates skipped, {} rejected){}",
        if stopped { "stopped:" } else { "stored" },
        prog.stored,
        prog.count,
        args.db.display(),
        secs,
        prog.duplicates,
        prog.rejected,
        if stopped {
            "; run the same command to continue"
        } else {
            ""
        }
    );
    for t in &prog.targets {
        eprintln!(
            "band {} {}: {} of {} stored; from {}: {} jobs, {} hits ({:.1}%)",
            t.band,
            t.range,
            t.stored,
            t.quota,
            t.source,
            t.jobs,
            t.hits,
            100.0 * t.hits as f64 / t.jobs.max(1) as f64
        );
    }
    if !prog.targets.is_empty() {
        eprintln!(
            "{} puzzles fell outside the bands still open",
            prog.off_band
        );
    }
    eprintln!(
        "stage times: generation, uniqueness and canonical form {:.1} s; rating {:.1} s; insert {:.1} s",
        prog.stage[0].as_secs_f64(),
        prog.stage[1].as_secs_f64(),
        prog.stage[2].as_secs_f64()
    );
    Ok(Outcome::Success)
}

fn run_get(args: &GetArgs) -> anyhow::Result<Outcome> {
    use crate::retrieve::Selector;
    let selector = match (&args.band, &args.percentile, &args.level) {
        (Some(b), _, _) => Selector::Band(*b),
        (_, Some(p), _) => Selector::Percentile(*p),
        (_, _, Some(l)) => Selector::Level(l.clone()),
        _ => unreachable!("clap requires one of --band, --percentile, --level"),
    };
    let conn = crate::store::open_existing(&args.db)?;
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        crate::rng::splitmix64(t ^ u64::from(std::process::id()) << 32)
    });
    let mut rng = crate::rng::Rng::new(seed);
    let (range, _, puzzles) = crate::retrieve::get(
        &conn,
        &selector,
        args.count as usize,
        args.mark_served,
        &mut rng,
    )?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for p in &puzzles {
        if args.json {
            writeln!(out, "{}", serde_json::to_string(p)?)?;
        } else {
            writeln!(
                out,
                "{}\t{}\t{:.3}\t{}",
                p.puzzle, p.rating, p.percentile, p.id
            )?;
        }
    }
    out.flush()?;
    if (puzzles.len() as u64) < args.count {
        let what = match &args.level {
            Some(l) => format!("level {l} {range}"),
            None => format!("percentiles {range}"),
        };
        if puzzles.is_empty() {
            eprintln!("pseudoku: no unserved puzzle left in {what}");
        } else {
            eprintln!(
                "pseudoku: only {} unserved puzzles left in {what} ({} asked)",
                puzzles.len(),
                args.count
            );
        }
        return Ok(Outcome::BadInput);
    }
    Ok(Outcome::Success)
}

fn run_calibrate(args: &CalibrateArgs) -> anyhow::Result<Outcome> {
    let mut conn = crate::store::open_existing(&args.db)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    let mut outcome = Outcome::Success;
    let reference = if let Some(path) = &args.from {
        anyhow::ensure!(path.is_file(), "{}: no such file", path.display());
        let name = source_name(path);
        let mut entries = Vec::new();
        outcome = for_each_puzzle(path, |e| {
            entries.push(e);
            Ok(())
        })?;
        let puzzles: Vec<(crate::grid::Puzzle, String)> = entries
            .iter()
            .map(|e| (e.puzzle, format!("{name}:{}", e.line)))
            .collect();
        let mut rows = Vec::new();
        for r in pool.install(|| crate::bank::rate_reference(&puzzles)) {
            match r {
                Ok(row) => rows.push(row),
                Err((i, e)) => {
                    eprintln!("{name}:{}: {e}", entries[i].line);
                    outcome = Outcome::BadInput;
                }
            }
        }
        anyhow::ensure!(!rows.is_empty(), "{name}: no puzzle to calibrate with");
        let n = rows.len();
        Some((rows, format!("user: {name} ({n} puzzles)")))
    } else if args.default_reference {
        Some(pool.install(crate::bank::default_reference_rows)?)
    } else {
        None
    };
    let change = crate::bank::Calibration {
        reference,
        rating: args.rating,
        levels: args.levels.clone(),
    };
    let (levels, n) = pool.install(|| crate::bank::calibrate(&mut conn, &change))?;
    let description = crate::store::setting(&conn, "reference")?.unwrap_or_default();
    println!(
        "reference: {description}, {} puzzles; rating: {}; levels: {}; {n} percentiles recomputed",
        levels.reference.len(),
        levels.rating.name(),
        levels.names
    );
    Ok(outcome)
}

fn run_export(args: &ExportArgs) -> anyhow::Result<Outcome> {
    let start = crate::export::parse_date(&args.start)?;
    let mut conn = crate::store::open_existing(&args.db)?;
    let opts = crate::export::ExportOptions {
        start,
        days: args.days,
        mix: args.mix.clone(),
        format: args.format,
        out: args.out.clone(),
        single_file: args.single_file,
        replace: args.replace,
        allow_partial: args.allow_partial,
        per_page: args.per_page,
        seed: args.seed,
    };
    let report = crate::export::export(&mut conn, &opts)?;
    for s in &report.shortages {
        eprintln!(
            "pseudoku: level {}: {} puzzles missing, from {}",
            s.level, s.missing, s.from
        );
    }
    if !report.shortages.is_empty() && !args.allow_partial {
        eprintln!(
            "pseudoku: nothing exported; build more puzzles of those levels, or export what \
             there is with --allow-partial"
        );
        return Ok(Outcome::BadInput);
    }
    eprintln!(
        "exported {} puzzles ({} new, {} as exported before) in {} files to {}",
        report.puzzles,
        report.new,
        report.puzzles - report.new,
        report.files.len(),
        args.out.display()
    );
    Ok(if report.shortages.is_empty() {
        Outcome::Success
    } else {
        Outcome::BadInput
    })
}

fn run_stats(args: &StatsArgs) -> anyhow::Result<Outcome> {
    let conn = crate::store::open_existing(&args.db)?;
    let inv = crate::inventory::read(&conn)?;
    if args.json {
        println!("{}", serde_json::to_string(&inv)?);
    } else {
        print!("{}", inv.to_text());
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, inv.to_svg())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    Ok(Outcome::Success)
}

fn run_verify(args: &VerifyArgs) -> anyhow::Result<Outcome> {
    let (checked, mismatches) = crate::bank::verify(&args.db, args.sample)?;
    for m in &mismatches {
        println!("row {}: {}", m.id, m.what);
    }
    println!(
        "checked {checked} rows of {}: {} mismatches",
        args.db.display(),
        mismatches.len()
    );
    Ok(if mismatches.is_empty() {
        Outcome::Success
    } else {
        Outcome::BadInput
    })
}

/// Reads a library file (an absent file is an empty library).
fn load_library(path: &std::path::Path) -> anyhow::Result<crate::seeds::Library> {
    use anyhow::Context as _;
    let mut lib = crate::seeds::Library::default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(lib),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let seed = crate::seeds::Seed::parse_line(line, "library")
            .with_context(|| format!("{}:{}", path.display(), i + 1))?;
        lib.add(seed);
    }
    Ok(lib)
}

/// Writes a library file (creating its folder).
fn save_library(path: &std::path::Path, lib: &crate::seeds::Library) -> anyhow::Result<()> {
    use anyhow::Context as _;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, lib.to_text()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

fn run_list(args: &ListArgs) -> anyhow::Result<Outcome> {
    let lib = load_library(&args.library.library)?;
    print!("{}", lib.summary());
    Ok(Outcome::Success)
}

fn run_import(args: &ImportArgs) -> anyhow::Result<Outcome> {
    use anyhow::Context as _;
    use std::io::BufRead as _;
    let mut lib = load_library(&args.library.library)?;
    let name = source_name(&args.input);
    let reader: Box<dyn io::BufRead> = if name == "-" {
        Box::new(io::BufReader::new(io::stdin()))
    } else {
        Box::new(io::BufReader::new(
            std::fs::File::open(&args.input).with_context(|| name.clone())?,
        ))
    };
    let (mut added, mut duplicates, mut bad) = (0, 0, 0);
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("{name}:{}", i + 1))?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match crate::seeds::Seed::parse_line(&line, &format!("import:{name}:{}", i + 1)) {
            Ok(seed) => {
                if lib.add(seed) {
                    added += 1;
                } else {
                    duplicates += 1;
                }
            }
            Err(e) => {
                eprintln!("{name}:{}: {e}", i + 1);
                bad += 1;
            }
        }
    }
    save_library(&args.library.library, &lib)?;
    println!(
        "imported {added}, already in the library {duplicates}, bad lines {bad}; library: {} seeds",
        lib.seeds.len()
    );
    Ok(if bad > 0 {
        Outcome::BadInput
    } else {
        Outcome::Success
    })
}

fn run_mine(args: &MineArgs) -> anyhow::Result<Outcome> {
    use rayon::prelude::*;
    let mut lib = load_library(&args.out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    // Quotas by tier group: 1, 2, 3, 4, then 5 and 6 together.
    let group = |t: u8| (t.min(5)) as usize;
    let mut quota = [0usize; 6];
    for t in args.tier.max(1)..=5 {
        quota[t as usize] = if t == 4 {
            (args.count / 10).max(1)
        } else {
            args.count
        };
    }
    let mut have = [0usize; 6];
    for s in &lib.seeds {
        have[group(s.tier)] += 1;
    }
    let done = |have: &[usize; 6]| (0..6).all(|g| have[g] >= quota[g]);
    let bar = indicatif::ProgressBar::new(args.max_jobs);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} {pos}/{len} candidates {msg}")
            .expect("a valid template"),
    );
    let start = std::time::Instant::now();
    let mut job = 0u64;
    let mut saved = std::time::Instant::now();
    const BATCH: u64 = 512;
    while job < args.max_jobs && !done(&have) {
        let end = (job + BATCH).min(args.max_jobs);
        let found: Vec<Vec<crate::seeds::Seed>> = pool.install(|| {
            (job..end)
                .into_par_iter()
                .map(|j| crate::seeds::mine_job(args.seed, j, args.climb))
                .collect()
        });
        // Accept in job order (the same library whatever the thread count).
        let mut accepted = Vec::new();
        let mut keys = std::collections::HashSet::new();
        let mut pending = have;
        for s in found.into_iter().flatten() {
            let g = group(s.tier);
            if s.tier < args.tier || pending[g] >= quota[g] {
                continue;
            }
            let key = s.key();
            if lib.contains(&key) || !keys.insert(key) {
                continue;
            }
            pending[g] += 1;
            accepted.push(s);
        }
        let complete: Vec<_> = pool.install(|| {
            accepted
                .into_par_iter()
                .map(crate::seeds::complete)
                .collect()
        });
        for s in complete {
            let s = s?;
            have[group(s.tier)] += 1;
            lib.add(s);
        }
        job = end;
        // Keep what was found if the run is interrupted.
        if saved.elapsed() > std::time::Duration::from_secs(60) {
            save_library(&args.out, &lib)?;
            saved = std::time::Instant::now();
        }
        bar.set_position(job);
        bar.set_message(format!(
            "tier 1: {}  2: {}  3: {}  4: {}  5+: {}",
            have[1], have[2], have[3], have[4], have[5]
        ));
    }
    bar.finish();
    save_library(&args.out, &lib)?;
    eprintln!(
        "mined {job} candidates in {:.1?}; library {}: {} seeds",
        start.elapsed(),
        args.out.display(),
        lib.seeds.len()
    );
    print!("{}", lib.summary());
    Ok(Outcome::Success)
}

fn run_canon(args: &CanonArgs) -> anyhow::Result<Outcome> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let name = source_name(&args.input);
    let mut unsolvable = false;
    let outcome = for_each_puzzle(&args.input, |entry| {
        let p = entry.puzzle;
        let c = if args.grid {
            match solve(&p) {
                Solutions::Unique(g) => crate::canon::canonical_grid(&g),
                other => {
                    out.flush()?;
                    let why = if other.count() == 0 {
                        "the puzzle has no solution"
                    } else {
                        "the puzzle has more than one solution"
                    };
                    eprintln!("{name}:{}: {why}", entry.line);
                    unsolvable = true;
                    return Ok(());
                }
            }
        } else {
            crate::canon::canonical(&p)
        };
        if args.json {
            /// One `canon --json` line, keys in this order.
            #[derive(serde::Serialize)]
            struct Line {
                input: String,
                canonical: String,
                key: String,
                automorphisms: u64,
            }
            let line = Line {
                input: p.to_line(),
                canonical: c.to_line(),
                key: c.key().to_hex(),
                automorphisms: c.automorphisms,
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&line).expect("serializable")
            )
        } else {
            writeln!(
                out,
                "{p}\t{}\t{}\t{}",
                c.to_line(),
                c.key(),
                c.automorphisms
            )
        }
    })?;
    out.flush()?;
    Ok(if unsolvable {
        Outcome::BadInput
    } else {
        outcome
    })
}

fn run_explain(args: &ExplainArgs) -> anyhow::Result<Outcome> {
    use std::fmt::Write as _;
    let puzzle: crate::grid::Puzzle = args
        .puzzle
        .trim()
        .parse()
        .map_err(|e| anyhow::anyhow!("bad puzzle: {e}"))?;
    let (trace, column) = match args.rating {
        crate::levels::RatingKind::Hsolve => (crate::hsolve::explain(&puzzle), "tier"),
        crate::levels::RatingKind::Difficulty => (crate::difficulty::explain(&puzzle), "rung"),
    };
    let trace = trace.map_err(|e| anyhow::anyhow!("{e}"))?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    writeln!(out, "{puzzle:#}")?;
    writeln!(
        out,
        "{:>5}  {:>4}  {:<20} {:>10} {:>6} {:>11}  move",
        "step", column, "strategy", "p", "v", "d"
    )?;
    let mut step = 0;
    for s in &trace {
        let tier = if s.depth > 0 {
            format!("{}.{}", s.tier, s.depth)
        } else {
            s.tier.to_string()
        };
        let (n, strategy, mv) = match &s.applied {
            Some(a) => {
                step += 1;
                let mut mv = String::new();
                crate::strategies::write_effect(&mut mv, &a.effect)?;
                let mut pattern = String::new();
                if !a.digits.is_empty() && !matches!(a.effect, crate::candidates::Effect::Place(..))
                {
                    write!(pattern, "{} in ", a.digits)?;
                }
                if !matches!(a.effect, crate::candidates::Effect::Place(..)) || a.house.is_some() {
                    write!(pattern, "{}", a.cells)?;
                }
                if let Some(h) = a.house {
                    write!(pattern, " ({h})")?;
                }
                let mv = if pattern.is_empty() {
                    mv
                } else {
                    format!("{mv}   [{pattern}]")
                };
                (step.to_string(), a.strategy.name().to_string(), mv)
            }
            None => ("-".to_string(), "(none found)".to_string(), String::new()),
        };
        writeln!(
            out,
            "{n:>5}  {tier:>4}  {strategy:<20} {:>10} {:>6} {:>11.2}  {mv}",
            s.p, s.v, s.d
        )?;
    }
    let d = trace.last().map_or(0.0, |s| s.d);
    match args.rating {
        crate::levels::RatingKind::Hsolve => writeln!(out, "difficulty of this run: {d:.2}")?,
        crate::levels::RatingKind::Difficulty => writeln!(
            out,
            "unweighted checks of this run: {d:.2} (the rating weighs them per rung: `pseudoku rate`)"
        )?,
    }
    out.flush()?;
    Ok(Outcome::Success)
}

fn run_solve(args: &SolveArgs) -> anyhow::Result<Outcome> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let outcome = for_each_puzzle(&args.input, |entry| {
        let p = entry.puzzle;
        let result = solve(&p);
        if args.count {
            writeln!(out, "{}\t{}", p, result.count())
        } else {
            match result {
                Solutions::Unique(g) => writeln!(out, "{p}\t{g}"),
                Solutions::Multiple(_) => writeln!(out, "{p}\tmultiple"),
                Solutions::None => writeln!(out, "{p}\tnone"),
            }
        }
    })?;
    out.flush()?;
    Ok(outcome)
}
