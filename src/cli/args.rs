//! The command line's arguments (clap derive): one struct per subcommand, raw flags that
//! [`super`] turns into the library's validated options.

use clap::{Parser, Subcommand};
use pseudoku::dataset::{DataFormat, Group};
use pseudoku::export::{Format, Length, PageSize, Palette, Part, SolutionLayout, Stock, Typeface};
use pseudoku::rate::RatingKind;
use std::path::PathBuf;

/// Builds large, graded Sudoku puzzle banks.
///
/// pseudoku is a toolkit for building banks of graded, distinct Sudoku puzzles. Puzzles are read
/// one per line (81 characters, `1`-`9`, `.` or `0` for empty; anything after the 81st character
/// is ignored) or in the nine-line grid form; blank lines and lines starting with `#` are skipped.
///
/// Exit status: 0 on success, 1 if some input lines were bad (each is reported on stderr as
/// FILE:LINE: reason and the rest are processed) or, for `verify`, a row is wrong, for `get`,
/// the range has fewer unserved puzzles than asked, for `export`, a level ran short; 2 on a
/// usage or fatal error; 130 when `build` is stopped by Ctrl-C (every committed batch is kept
/// and the same command resumes).
#[derive(Debug, Parser)]
#[command(
    name = "pseudoku",
    version,
    about,
    long_about,
    disable_help_subcommand = true
)]
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
    /// `puzzle level difficulty hsolve hsolve_sd tier steps wnef wnef_class box_norm box_class
    /// technique clues hardest_step hardest_steps hsolve_family` (the level on the default
    /// levels, or on --db's; technique: the ladder's hardest step, as hardest_step;
    /// hsolve_family: hsolve's technique family, beyond-wings past X-wing and XY-wing); with
    /// --json, one JSON object per line with those keys instead. A puzzle without exactly one
    /// solution is reported on stderr as a bad line.
    Rate(RateArgs),
    /// Solve a puzzle step by step in words, as a player would: every step with its technique,
    /// its cells and what it proves (the same words as `hint`).
    ///
    /// With --grid the candidate grid is printed before each step; with --json one object per
    /// step (keys step, technique, nudge, hint, move, placements, eliminations, and with --grid
    /// candidates). With --model, one run of a rating model instead, with its internals: each
    /// line one search with the step number (or `-` when the search found nothing), the tier
    /// (or, with --rating difficulty, the ladder's rung), the strategy, p (possible
    /// applications), v (valid ones), the running d, and the move.
    Explain(ExplainArgs),
    /// The next step a player can take: a nudge, the technique, and the whole move.
    ///
    /// Input lines hold a puzzle, optionally followed by a tab and the player's entries (81
    /// characters, `.` or `0` for empty; clues may be repeated or left `.`). Per line prints
    /// `<puzzle>\t<technique>\t<nudge>\t<hint>\t<move>` after a header line, or with --json
    /// one object with the keys technique, nudge, hint, move, placements, eliminations and
    /// errors (lists of [row, col, digit], 1-based). Wrong entries are reported before any
    /// technique. --id reads a bank's puzzle instead of a file.
    Hint(HintArgs),
    /// Serve the bank to apps over HTTP: per-user puzzles that never repeat, hints, rating,
    /// solving, canonical forms, the levels, metrics, and a play page at `/`.
    ///
    /// Routes: GET /v1/puzzles/next?user=ID&level=NAME (or band=K/M, percentile=A..B;
    /// &solution=true adds the solution), GET /v1/puzzles/{id}, POST /v1/hint, POST /v1/rate,
    /// POST /v1/solve, POST /v1/canon, GET /v1/levels, GET /healthz, GET /metrics, GET
    /// /openapi.json (the API in OpenAPI 3). Binds to localhost unless told otherwise; SIGTERM
    /// or Ctrl-C stops it after the requests in flight, every delivery recorded.
    Serve(ServeArgs),
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
    /// Combine shard banks (`build --shard K/N`) into one bank: the same rows, in the same
    /// order, as one machine builds with the same arguments.
    ///
    /// Replays the shards' puzzles in job order with the build's own rule (duplicate classes
    /// across shards dropped, each level filled by the earliest jobs), keeping each row's
    /// provenance (a build row per shard, the job). Ctrl-C stops cleanly; the same command
    /// resumes. When a shard stopped before a job the merged bank needs, says which shard to
    /// run again with a larger --margin.
    Merge(MergeArgs),
    /// Grade a file of your own puzzles into a bank, as `build` stores the puzzles it makes.
    ///
    /// Reads the formats `rate` reads (a puzzle a line, or nine-line grids). Each puzzle is
    /// checked for one solution, put in canonical form, dropped when its class is in the bank
    /// already or earlier in the file, rated, levelled and stored with its provenance (the file
    /// and the line); it is then served and exported as a built puzzle is. Bad lines and
    /// puzzles without exactly one solution are reported with their line and skipped. Ctrl-C
    /// stops cleanly: committed puzzles stay, and the same command continues where it
    /// stopped; importing a file imported whole before does nothing.
    Import(ImportArgs),
    /// Write a bank, or part of it, as train, validation and test files for machine learning.
    ///
    /// Each row: id, puzzle, solution, level, difficulty, hsolve, percentile, tier,
    /// hardest_step, hardest_steps, clues, class_key, grid_key; in CSV, JSON lines and Parquet.
    /// A split never separates two puzzles of one class, or with --group grid of one solution
    /// grid up to symmetry. A group's split is read off a hash of its key and --seed, so the
    /// same bank and command make the same files, byte for byte; manifest.json records the
    /// command, the bank's identity, the counts and each file's blake3.
    Dataset(DatasetArgs),
    /// Re-check a bank's rows: the stored cells, a unique solution, the class key, both ratings
    /// and the level.
    Verify(VerifyArgs),
    /// Get random unserved puzzles of a band, a percentile range or a level.
    ///
    /// Prints one line per puzzle: `<puzzle>\t<level>\t<difficulty>\t<hsolve>\t<percentile>\t<id>`
    /// (the level on the bank's scale, both ratings), or with --json one object per line with
    /// the keys `id puzzle solution level difficulty hsolve percentile tier`. With --mark-served the puzzles are recorded
    /// as served in the same transaction, and never handed out again, even to concurrent
    /// callers. Exits with 1 (after printing what there was) when the range has fewer unserved
    /// puzzles than asked.
    Get(GetArgs),
    /// Replace the reference distribution percentiles are measured against, change the rating
    /// they use or the level names; every stored level is recomputed in one transaction.
    Calibrate(CalibrateArgs),
    /// What a bank holds: puzzles per level (rating range, reference percentiles, served,
    /// layout rules; the quartiles of difficulty and of clues, the shares of the range's
    /// quarters) and per hsolve tier, the bank's reference deciles, the rating histogram, the
    /// hardest steps, hsolve's technique families and clue counts per level, duplicates
    /// rejected, seeds used; --plot draws it as an SVG or PNG image.
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
    /// A book without dates: puzzles of each level drawn from the unserved ones and recorded
    /// under the book's name.
    ///
    /// The same command writes the same book again, byte for byte; a class used by an earlier
    /// book or export is never drawn. A printed format (pdf, the default, or html) gets the
    /// book's layout: a cover, contents by level, the puzzles by level numbered from 1, the
    /// solutions at the back. If a level runs short, says which and how many, writes nothing
    /// and exits with 1.
    Book(BookArgs),
    /// The seed library: mine seeds, import them, list them.
    #[command(subcommand)]
    Seeds(SeedsCommand),
    /// A fleet's shared history in PostgreSQL (`serve --history`): move a bank's per-user
    /// history and daily puzzles there, or back.
    #[command(subcommand)]
    History(HistoryCommand),
    /// Players' results: count an app's log of games into the learned ratings.
    #[command(subcommand)]
    Results(ResultsCommand),
    /// Put served puzzles back: `get` and exports can hand them out again.
    ///
    /// Clears the served mark of each puzzle and forgets the export records `export --replace`
    /// retired it from (e.g. a page withdrawn before printing: replace the date, then unserve
    /// the old puzzles). A puzzle a current export record holds stays served: exit 1.
    Unserve(UnserveArgs),
    /// Print a shell completion script for bash, zsh, fish or powershell.
    ///
    /// E.g. `pseudoku completions bash > ~/.local/share/bash-completion/completions/pseudoku`
    /// (docs/reference/cli.md gives the line for each shell).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `pseudoku man > ~/.local/share/man/man1/pseudoku.1`;
    /// with --dir, write it and one page per subcommand (`pseudoku-build.1`, ...) there.
    Man(ManArgs),
    /// Print the help of pseudoku or of a subcommand (`pseudoku help build`).
    Help(HelpArgs),
}

/// Arguments of `pseudoku help`.
#[derive(Debug, clap::Args)]
pub struct HelpArgs {
    /// The subcommand (and its subcommand: `seeds mine`); none: pseudoku's own help.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Arguments of `pseudoku import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The puzzle file (`-`: standard input; a stream is copied beside the bank first).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The bank (created if missing).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// The rating a new bank's percentiles and levels use.
    #[arg(long, value_parser = choice::<RatingKind>())]
    pub rating: Option<RatingKind>,
    /// When another process is writing to the bank, wait for it instead of stopping.
    #[arg(long)]
    pub wait: bool,
    /// Puzzles read, checked and rated between two commits.
    #[arg(long, default_value_t = pseudoku::import::BATCH, hide = true, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub batch: usize,
}

/// Arguments of `pseudoku dataset`.
#[derive(Debug, clap::Args)]
pub struct DatasetArgs {
    /// The set's folder: created if missing, replaced whole (in one step, once every file is
    /// written) if it holds a set; a folder holding other files is refused.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The bank.
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Only this level (repeat for several; default: every level).
    #[arg(long = "level", value_name = "NAME")]
    pub levels: Vec<String>,
    /// At most N puzzles of each level (chosen by a hash of their class and --seed).
    #[arg(long, value_name = "N")]
    pub per_level: Option<u64>,
    /// The shares of train, validation and test.
    #[arg(long, value_name = "TRAIN,VALIDATION,TEST", default_value = "0.8,0.1,0.1", value_parser = parse_split)]
    pub split: [f64; 3],
    /// What a split keeps together.
    #[arg(long, value_parser = choice::<Group>(), default_value = "class")]
    pub group: Group,
    /// The formats to write (each split in each).
    #[arg(long = "format", value_delimiter = ',', value_parser = choice::<DataFormat>(), default_value = pseudoku::dataset::DEFAULT_FORMATS)]
    pub formats: Vec<DataFormat>,
    /// The seed of the split and of the choice of puzzles.
    #[arg(long = "seed", default_value_t = 2026)]
    pub seed: u64,
}

/// Three shares that sum to 1, as `0.8,0.1,0.1`.
fn parse_split(s: &str) -> Result<[f64; 3], String> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{s:?}: three numbers, as 0.8,0.1,0.1"))?;
    let shares: [f64; 3] = parts
        .try_into()
        .map_err(|_| format!("{s:?}: three shares (train, validation, test), as 0.8,0.1,0.1"))?;
    if shares.iter().any(|x| !(0.0..=1.0).contains(x))
        || (shares.iter().sum::<f64>() - 1.0).abs() > 1e-9
    {
        return Err(format!("{s:?}: three shares from 0 to 1 that sum to 1"));
    }
    Ok(shares)
}

/// Arguments of `pseudoku merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The bank to merge into (created if missing; an existing one must have the shards'
    /// levels, reference and layout rules).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The shard banks: each of the N shards of one build, once, in any order.
    #[arg(value_name = "IN", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// When another process is writing to OUT, wait for it instead of stopping.
    #[arg(long)]
    pub wait: bool,
}

/// Arguments of `pseudoku unserve`.
#[derive(Debug, clap::Args)]
pub struct UnserveArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The puzzles' bank ids.
    #[arg(long = "id", value_name = "N", required = true, num_args = 1..)]
    pub ids: Vec<i64>,
}

/// Arguments of `pseudoku completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `pseudoku man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write `pseudoku.1` and a page for every subcommand into this folder (made if missing)
    /// instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Parses a plot's file name (`stats --plot`): one whose extension names a format it is
/// drawn in, so that a wrong one stops the command before any work.
pub fn parse_plot(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    pseudoku::inventory::plot::ImageFormat::of(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// A technique of the `difficulty` ladder by name (`x-wing`, `XWing`, `hidden pair`, ...).
pub fn parse_technique(s: &str) -> Result<pseudoku::rate::Strategy, String> {
    pseudoku::rate::Strategy::parse(s).map_err(|e| e.to_string())
}

/// Parses `--threads`: 0 (all cores) up to [`pseudoku::batch::THREADS_PER_CORE`] per core of
/// this machine.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of threads"))?;
    pseudoku::batch::check_threads(n)
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
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Seed of every random choice.
    #[arg(long = "seed", default_value_t = 2026)]
    pub rng_seed: u64,
    /// A seed library file (default: the shipped library).
    #[arg(long = "seeds", value_name = "FILE")]
    pub seed_library: Option<PathBuf>,
    /// Jobs per batch (one transaction per batch).
    #[arg(long, default_value_t = 256, hide = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub batch: u64,
    /// Build only puzzles of this band (K/M, e.g. 3/4): --count of them.
    #[arg(long, value_name = "K/M", conflicts_with_all = ["per_band", "bands", "level", "per_level"])]
    pub band: Option<pseudoku::levels::Band>,
    /// Build only puzzles of this level of the bank (e.g. hard): --count of them.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["per_band", "bands", "per_level"])]
    pub level: Option<String>,
    /// Build this many puzzles in every level of the bank (quotas; --count is ignored).
    #[arg(long, value_name = "N", conflicts_with_all = ["per_band", "bands"])]
    pub per_level: Option<u64>,
    /// Build this many puzzles in every band of --bands (quotas; --count is ignored).
    #[arg(long, value_name = "N", requires = "bands")]
    pub per_band: Option<u64>,
    /// The number of bands for --per-band.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub bands: Option<u32>,
    /// Fill each level below the top one in parts that follow the reference's spread over the
    /// level's range, so that a level's gentle puzzles are there too (with --per-level or
    /// --level; slower: the middle of medium is rare).
    #[arg(long, conflicts_with_all = ["band", "per_band"])]
    pub spread: bool,
    /// The rating a new bank's percentiles and bands use.
    #[arg(long, value_parser = choice::<RatingKind>())]
    pub rating: Option<RatingKind>,
    /// When another process is writing to the bank, wait for it instead of stopping.
    #[arg(long)]
    pub wait: bool,
    /// Layout rule for the levels this build fills (stored with the bank; each layout option
    /// changes its own rule of the levels' stored rules, the others stay): the clue pattern's
    /// symmetry, none, rotate180 (the default levels'), rotate90, mirror or diagonal.
    #[arg(long, value_name = "S", value_parser = pseudoku::bank::parse_symmetry)]
    pub symmetry: Option<pseudoku::bank::Symmetry>,
    /// Layout rule, with --symmetry: the percentage of the level's puzzles that have the
    /// symmetry, the others not (e.g. 60%; default all of them).
    #[arg(long, value_name = "P%", requires = "symmetry", value_parser = parse_percent)]
    pub share: Option<u8>,
    /// Layout rule: between A and B clues (both included), e.g. 22..30.
    #[arg(long, value_name = "A..B", value_parser = pseudoku::bank::parse_clues)]
    pub clues: Option<(u32, u32)>,
    /// Layout rule: minimal puzzles (no clue, or orbit of clues under --symmetry, can be
    /// removed keeping one solution).
    #[arg(long)]
    pub minimal: bool,
    /// Layout rule: hsolve's technique family lies in MIN..MAX (singles, pairs,
    /// locked-candidates, x-wing-or-xy-wing, beyond-wings; trial, beyond-wings' old name, is
    /// still read), e.g. pairs..x-wing-or-xy-wing.
    #[arg(long, value_name = "MIN..MAX", value_parser = pseudoku::bank::parse_techniques)]
    pub techniques: Option<(pseudoku::bank::Technique, pseudoku::bank::Technique)>,
    /// Layout rule: allow a row, column or box without a clue (the default levels clue every
    /// house).
    #[arg(long)]
    pub allow_empty_houses: bool,
    /// The layout options given are the levels' whole rules, in place of their stored ones
    /// (every house clued unless --allow-empty-houses).
    #[arg(long)]
    pub replace_rules: bool,
    /// Layout rule: no step assumes a value (no forcing chain, backtracking or trial; the
    /// hardest step at most an ALS chain or death blossom), as in the default expert level.
    #[arg(long)]
    pub no_assumptions: bool,
    /// Build only shard K of N of this build's jobs into --db (a new file per shard); combine
    /// the N shard banks with `pseudoku merge`. Every shard takes the same other arguments.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<pseudoku::bank::Shard>,
    /// A shard stops when its share of the jobs fills each quota's 1/N plus this margin
    /// (percent, plus 8 puzzles); run it again with a larger one if `merge` asks.
    #[arg(long, value_name = "PCT", requires = "shard", default_value_t = pseudoku::bank::DEFAULT_MARGIN,
          value_parser = parse_margin)]
    pub margin: f64,
}

/// Parses `--margin`: a percentage from 0 to 1000.
fn parse_margin(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(m) if (0.0..=1000.0).contains(&m) => Ok(m),
        _ => Err(format!("{s:?} is not a percentage from 0 to 1000")),
    }
}

impl BuildArgs {
    /// The layout options given, if any was.
    pub fn layout(&self) -> Option<pseudoku::bank::LayoutChange> {
        let given = self.symmetry.is_some()
            || self.clues.is_some()
            || self.minimal
            || self.techniques.is_some()
            || self.allow_empty_houses
            || self.no_assumptions
            || self.replace_rules;
        given.then(|| pseudoku::bank::LayoutChange {
            symmetry: self.symmetry,
            share: self.share.map(|p| Some(p).filter(|&p| p < 100)),
            clues: self.clues,
            minimal: self.minimal,
            techniques: self.techniques,
            clued_houses: self.allow_empty_houses.then_some(false),
            no_assumptions: self.no_assumptions,
            replace: self.replace_rules,
        })
    }

    /// The band and level quotas asked for (empty: any difficulty; `--per-level` is added by
    /// the build, which knows the bank's levels).
    pub fn targets(&self) -> Result<Vec<(pseudoku::bank::Aim, u64)>, String> {
        use pseudoku::bank::Aim;
        if let Some(band) = self.band {
            return Ok(vec![(Aim::Band(band), self.count)]);
        }
        if let Some(level) = &self.level {
            return Ok(vec![(Aim::Level(level.trim().to_lowercase()), self.count)]);
        }
        match (self.per_band, self.bands) {
            (Some(n), Some(m)) => Ok((1..=m)
                .map(|k| {
                    (
                        Aim::Band(pseudoku::levels::Band::new(k, m).expect("1 <= k <= m")),
                        n,
                    )
                })
                .collect()),
            (None, Some(_)) => Err("--bands needs --per-band N".into()),
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
    /// At most this many rows to check, every k-th row of the bank (0: all).
    #[arg(long, default_value_t = 1000)]
    pub sample: u64,
}

/// Arguments of `pseudoku get`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("scope").args(["band", "percentile", "level", "id"])))]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["band", "percentile", "level", "id", "technique", "rating", "for_user"])))]
pub struct GetArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Band K of M, e.g. 3/4: percentiles [100(K-1)/M, 100K/M).
    #[arg(long, value_name = "K/M")]
    pub band: Option<pseudoku::levels::Band>,
    /// Percentiles [A, B), e.g. 90..95 (B = 100 includes 100).
    #[arg(long, value_name = "A..B")]
    pub percentile: Option<pseudoku::levels::PercentileRange>,
    /// A level of the bank's level names, e.g. hard.
    #[arg(long, value_name = "NAME")]
    pub level: Option<String>,
    /// The puzzle with this bank id, served or not (with --mark-served, marked served).
    #[arg(long, value_name = "N", conflicts_with_all = ["count", "technique", "rating"])]
    pub id: Option<i64>,
    /// Only puzzles whose hardest step is this technique of the `difficulty` ladder, e.g.
    /// x-wing (alone, or with --level, --band or --percentile).
    #[arg(long, value_name = "NAME", value_parser = parse_technique)]
    pub technique: Option<pseudoku::rate::Strategy>,
    /// Only puzzles whose value on this named rating of the bank (`calibrate --labelled
    /// --named NAME`, e.g. se) lies in --range (alone, or with the options above).
    #[arg(long, value_name = "NAME", requires = "range")]
    pub rating: Option<String>,
    /// With --rating: the range of values, A..B, both included, e.g. 7.0..8.0.
    #[arg(long, value_name = "A..B", requires = "rating")]
    pub range: Option<String>,
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
    #[arg(long = "seed")]
    pub rng_seed: Option<u64>,
    /// Puzzles for this app user matched to their learned rating (near it, in windows that
    /// widen), each a class the user was never given, recorded as theirs as a server records
    /// a delivery.
    #[arg(long, value_name = "USER", conflicts_with_all = ["id", "band", "percentile", "level", "technique", "rating", "mark_served"])]
    pub for_user: Option<String>,
}

/// A share of symmetric puzzles as `--share` takes it (`P%` or `P`, 0 to 100).
fn parse_percent(s: &str) -> Result<u8, String> {
    pseudoku::bank::parse_share(s)
        .map(|p| p.unwrap_or(100))
        .map_err(|e| e.to_string())
}

/// A new named rating's name (`calibrate --named`).
fn parse_rating_name(s: &str) -> Result<String, String> {
    pseudoku::levels::check_name(s).map_err(|e| e.to_string())
}

/// Arguments of `pseudoku calibrate`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("change").required(true).multiple(true).args(["from", "from_play", "default_reference", "rating", "levels"])))]
pub struct CalibrateArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// A corpus of puzzles to become the reference (e.g. a publisher's past puzzles), one per
    /// line; bad lines and puzzles without one solution are reported and left out. With
    /// `--labelled`: puzzles with their level names, to fit the levels on.
    #[arg(long, value_name = "FILE", conflicts_with = "default_reference")]
    pub from: Option<PathBuf>,
    /// `--from FILE` holds `puzzle<TAB>level name` lines: fit both the levels' cut points on
    /// the rating (exactly: the most puzzles in their own level) and a model of the level
    /// (ordinal or multinomial, the better held out) on every feature of the rating and of a
    /// player's path, print both cross-validated confusion matrices, and store the better
    /// (the model's levels may overlap in rating). The reference stays.
    /// Nothing changes if a line is bad, a name unknown, the file names one level, a level
    /// has fewer than 20 different puzzles (a puzzle repeated, up to symmetry, counts once),
    /// or the levels would drop one of the bank's (unless --levels names the new ones) or
    /// leave one without a puzzle of the bank (unless --force).
    #[arg(long, requires = "from")]
    pub labelled: bool,
    /// With --labelled: the labels are numbers on a publisher's scale (e.g. Sudoku
    /// Explainer's rating): fit a monotone regression of it on every feature, print its
    /// held-out Spearman correlation and mean absolute error beside `difficulty` alone, and
    /// store it as the named rating NAME, valued for every puzzle (draws: `get --rating NAME
    /// --range A..B`). The levels stay.
    #[arg(long, value_name = "NAME", requires = "labelled", conflicts_with_all = ["layouts", "levels", "rating"], value_parser = parse_rating_name)]
    pub named: Option<String>,
    /// With --labelled: store each level's layout rules measured from its labelled puzzles
    /// (clues from their 10th to their 90th percentile, a symmetry or minimality that 90% of
    /// them have); later level builds keep them.
    #[arg(long, requires = "labelled")]
    pub layouts: bool,
    /// Refit the levels to human time: the puzzles players rated (with --min-results results
    /// or more) are labelled by their learned ratings, each level as many of them as it holds
    /// now, the easiest by players first, and the levels are fitted on them as with
    /// --labelled (cut points or the model, the better held out), then every puzzle of the
    /// bank is levelled again. The reference stays.
    #[arg(long, conflicts_with_all = ["from", "default_reference", "labelled"])]
    pub from_play: bool,
    /// With --from-play: the results a puzzle needs to label its level (1 to 1000000).
    #[arg(long, value_name = "N", default_value_t = pseudoku::levels::MIN_RESULTS, requires = "from_play",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub min_results: u64,
    /// With --from-play: the learned ratings of a fleet's history
    /// (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE) instead of the bank's.
    #[arg(long, value_name = "URL", requires = "from_play")]
    pub history: Option<String>,
    /// Go back to the default reference (2,500 standard-generator and 7,500 minimal puzzles)
    /// and, without --levels, the default levels.
    #[arg(long = "default")]
    pub default_reference: bool,
    /// The rating percentiles, bands and levels use.
    #[arg(long, value_parser = choice::<RatingKind>())]
    pub rating: Option<RatingKind>,
    /// Level names, easiest first, comma-separated, e.g. easy,medium,hard,expert: as many as
    /// now renames the levels; another number cuts the reference into equal shares; with
    /// `--labelled`, the order of the file's names.
    #[arg(long, value_name = "NAMES")]
    pub levels: Option<pseudoku::levels::LevelNames>,
    /// Calibrate even with a reference of fewer than 20 different puzzles, or levels that
    /// would hold no puzzle of the reference (with --labelled: none of the bank).
    #[arg(long)]
    pub force: bool,
    /// When another process is writing to the bank, wait for it instead of stopping.
    #[arg(long)]
    pub wait: bool,
    /// Worker threads for rating the corpus (0: all cores).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
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
    /// Also draw it into this file, SVG or PNG by its extension (.svg, .png): the rating
    /// histogram of the bank against the reference with the levels shaded, hsolve's
    /// technique families per level, the clue counts per level.
    #[arg(long, value_name = "FILE.svg|FILE.png", value_parser = parse_plot)]
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
    /// Puzzles per day by level or band, e.g. easy:2,medium:2,hard:1 or 1/4:2,4/4:1; or
    /// `ramp` (`ramp:N`): one level a day (N puzzles of it), Monday easiest to Sunday hardest.
    #[arg(long, value_name = "SPEC")]
    pub mix: String,
    /// The file format.
    #[arg(long, value_parser = choice::<Format>(), default_value = "txt")]
    pub format: Format,
    /// The output folder (created if needed; not needed by --check).
    #[arg(long, value_name = "DIR", required_unless_present = "check")]
    pub out: Option<PathBuf>,
    /// One file for the whole range instead of one per day.
    #[arg(long)]
    pub single_file: bool,
    /// Draw new puzzles for dates already exported (the old ones are never used again).
    #[arg(long)]
    pub replace: bool,
    /// Export what there is when a level runs short (its slots stay empty).
    #[arg(long)]
    pub allow_partial: bool,
    /// How printed pages are laid out.
    #[command(flatten)]
    pub print: PrintArgs,
    /// Start each day on a new page.
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub page_per_day: bool,
    /// A book: one file with a title page, contents by level, the puzzles by level (easiest
    /// first, numbered from 1) and the solutions, on facing pages.
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub book: bool,
    /// Seed of the random choices.
    #[arg(long = "seed", default_value_t = 1)]
    pub rng_seed: u64,
    /// The variety rule's window: no two puzzles from one seed or of one solution grid within
    /// any N consecutive days (1: within a day).
    #[arg(long, value_name = "N", default_value_t = pseudoku::export::VARIETY_DAYS)]
    pub variety_days: u32,
    /// Only say whether the mix can be met over the range (and what runs short, and why), and
    /// for pdf, check the files against the print-on-demand rules (trim, bleed, margins,
    /// gutter, fonts, type size): nothing is recorded, served or written.
    #[arg(long)]
    pub check: bool,
}

/// The printed pages' options that `export` and `book` share.
#[derive(Debug, clap::Args)]
pub struct PrintArgs {
    /// The most puzzles a printed page holds: 1, 2, 4 or 6; a run of puzzles is spread
    /// evenly over the fewest pages [default: as many as stay a readable size: 4 on A4 and
    /// Letter, 2 in a 6x9 book; in large print 2 or 1].
    #[arg(long, value_parser = per_page, help_heading = "Printed pages (pdf, html)")]
    pub per_page: Option<u8>,
    /// The page (trim) size: a4, a5, letter, 6x9, 8x10, 8.5x11 (inches), or WxH with a unit,
    /// e.g. 150x220mm or 5.5x8.5in [default: a4].
    #[arg(long, alias = "paper", value_name = "SIZE", value_parser = page_size, help_heading = "Printed pages (pdf, html)")]
    pub page: Option<PageSize>,
    /// The outer, top and bottom margin, e.g. 15mm or 0.5in [default: 0.5in on pages narrower
    /// than 7 in, else 15mm].
    #[arg(long, value_name = "LENGTH", value_parser = length, help_heading = "Printed pages (pdf, html)")]
    pub margin: Option<Length>,
    /// Facing pages with this much more margin on the binding side, alternating left and
    /// right [default: a book's grows with its page count, 0.125in up to 150 pages and
    /// 0.125in more per further 150; other exports are single-sided].
    #[arg(long, value_name = "LENGTH", value_parser = length, help_heading = "Printed pages (pdf, html)")]
    pub gutter: Option<Length>,
    /// Print 0.125 in past the trim on the outer edges (for print-on-demand interiors).
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub bleed: bool,
    /// Large print: at most two grids a page, bigger cells, digits and labels.
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub large_print: bool,
    /// The running heading and the document's title [default: "Sudoku" and the dates; a
    /// book: its name].
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub title: Option<String>,
    /// How solutions are printed: compact (small grids after the puzzles; a week a page for
    /// daily puzzles in one file), full (full size), strip (a day's under its puzzles),
    /// next-day (yesterday's with today's puzzles) or none; each puzzle names the page of its
    /// solution [default: strip for a file a day, else compact].
    #[arg(long, value_parser = choice::<SolutionLayout>(), help_heading = "Printed pages (pdf, html)")]
    pub solutions: Option<SolutionLayout>,
    /// Also write a cover file (pdf): back, spine and front on one sheet with a bleed, the
    /// spine as wide as the interior's pages on --stock.
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub cover: bool,
    /// The paper of the cover's spine width: white (0.002252 in a page), cream (0.0025 in)
    /// or a leaf's thickness, e.g. 0.1mm [default: white].
    #[arg(long, value_name = "PAPER", value_parser = stock, help_heading = "Printed pages (pdf, html)")]
    pub stock: Option<Stock>,
    /// Print each puzzle's bank id, rating and percentile under its grid.
    #[arg(long, help_heading = "Printed pages (pdf, html)")]
    pub show_ids: bool,
    /// One grid per file and one per solution, in this format: sdk, pdf, svg or eps
    /// (DATE-SLOT.svg and DATE-SLOT-solution.svg; a book's NAME-001.svg).
    #[arg(long, value_name = "FORMAT", value_parser = per_puzzle, conflicts_with = "format", help_heading = "One grid per file")]
    pub per_puzzle: Option<Format>,
    /// The width of a grid in its own file (pdf, svg, eps), e.g. 2in or 50mm, or a newspaper
    /// column: 1col (11 picas, 1.833 in), 2col (23 picas), 3col (35 picas) [default: 2in].
    #[arg(long, value_name = "LENGTH", value_parser = Length::grid_width, help_heading = "One grid per file")]
    pub grid_width: Option<Length>,
}

/// Arguments of `pseudoku book`.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The book's name: its record and its file's name (letters, digits, '-', '_', '.').
    #[arg(long)]
    pub name: String,
    /// Puzzles in the book by level, band or technique, e.g. easy:300,medium:300,hard:300.
    #[arg(long, value_name = "SPEC")]
    pub mix: String,
    /// The file format.
    #[arg(long, value_parser = choice::<Format>(), default_value = "pdf")]
    pub format: Format,
    /// The output folder (created if needed; not needed by --check).
    #[arg(long, value_name = "DIR", required_unless_present = "check")]
    pub out: Option<PathBuf>,
    /// Draw the book anew (its old puzzles are never used again).
    #[arg(long)]
    pub replace: bool,
    /// Draw among every puzzle of each entry, those an earlier book or an export dated up to
    /// today used included (a collection of published puzzles); each still once in the book.
    #[arg(long)]
    pub reprint: bool,
    /// How printed pages are laid out.
    #[command(flatten)]
    pub print: PrintArgs,
    /// The subtitle, under the title on the title page and the cover.
    #[arg(long, help_heading = "Front matter and cover")]
    pub subtitle: Option<String>,
    /// The author or compiler: on the title page, the cover, the spine and the copyright line.
    #[arg(long, help_heading = "Front matter and cover")]
    pub author: Option<String>,
    /// The publisher's imprint: on the title page, the spine and the copyright page.
    #[arg(long, help_heading = "Front matter and cover")]
    pub imprint: Option<String>,
    /// The ISBN printed on the copyright page (ISBN-13 or ISBN-10; its check digit checked).
    #[arg(long, help_heading = "Front matter and cover")]
    pub isbn: Option<String>,
    /// The copyright year [default: the year the book was first drawn].
    #[arg(long, value_parser = clap::value_parser!(i32).range(1900..=9999), help_heading = "Front matter and cover")]
    pub year: Option<i32>,
    /// The back cover's text, from a UTF-8 file (paragraphs split by blank lines) [default:
    /// what the book holds and how to play].
    #[arg(long, value_name = "FILE", help_heading = "Front matter and cover")]
    pub blurb: Option<PathBuf>,
    /// Front matter to leave out, comma-separated: title-page, copyright, contents,
    /// how-to-play (the solutions: --solutions none).
    #[arg(long, value_delimiter = ',', value_parser = choice::<Part>(), help_heading = "Front matter and cover")]
    pub without: Vec<Part>,
    /// The cover's colours.
    #[arg(long, value_parser = choice::<Palette>(), default_value = "navy", help_heading = "Front matter and cover")]
    pub colours: Palette,
    /// The typeface of the cover and the title page (the pages inside are DejaVu Sans).
    #[arg(long, value_parser = choice::<Typeface>(), default_value = "sans", help_heading = "Front matter and cover")]
    pub font: Typeface,
    /// Check the book's PDF (and cover) against the print-on-demand rules (KDP's trim, bleed,
    /// margins, gutter, page count, spine text, barcode area, fonts, type size) and print each
    /// rule passed or failed; nothing is recorded or written (exit 1 when a rule fails).
    #[arg(long)]
    pub check: bool,
    /// Seed of the random choices.
    #[arg(long = "seed", default_value_t = 1)]
    pub rng_seed: u64,
}

impl BookArgs {
    /// Whether an option only the cover prints was given.
    pub fn cover_only_options_given(&self) -> bool {
        self.blurb.is_some() || self.colours != Palette::Navy
    }
}

/// Parses a `--cors` origin: `*`, or `http(s)://host[:port]` with nothing after it.
fn origin(s: &str) -> Result<String, String> {
    let s = s.trim();
    if s == "*" {
        return Ok(s.to_string());
    }
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .ok_or_else(|| format!("{s:?}: an origin is http:// or https:// and a host, or *"))?;
    let ok = !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s:?}: an origin is a scheme and a host (and a port), with no path: e.g. https://app.example.com"
        ))
    }
}

/// Parses `--page`.
fn page_size(s: &str) -> Result<PageSize, String> {
    s.parse()
}

/// Parses a length (`--margin`, `--gutter`, `--grid-width`).
fn length(s: &str) -> Result<Length, String> {
    s.parse()
}

/// Parses `--stock`.
fn stock(s: &str) -> Result<Stock, String> {
    s.parse()
}

/// Parses `--per-puzzle`: a format that holds one grid a file.
fn per_puzzle(s: &str) -> Result<Format, String> {
    let ok: Vec<&str> = Format::ALL
        .iter()
        .filter(|f| f.per_puzzle())
        .map(|f| f.extension())
        .collect();
    Format::ALL
        .iter()
        .find(|f| f.per_puzzle() && f.extension() == s.trim())
        .copied()
        .ok_or_else(|| format!("{s:?}: one grid per file is written as {}", ok.join(", ")))
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
    /// Import seeds from a file into the bank (every later build on it uses them beside the
    /// seed library), or with --library into a library file: plain 81-character puzzles or
    /// lines of the seed format.
    ///
    /// Each puzzle is checked (one solution) and analysed; bad lines are reported as
    /// FILE:LINE: reason, the good ones are added (one per class) and a summary is printed.
    Import(SeedImportArgs),
    /// Summarize, by tier (count, rating range, reserved-cell range), exactly the seeds the
    /// next `build` on the bank uses: the seed library (the shipped one, or --seeds) and the
    /// seeds imported into the bank; or with --library, a library file.
    List(ListArgs),
}

/// The `history` subcommands.
#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// Copy the bank's per-user history and daily puzzles into a fleet's PostgreSQL history
    /// (creating its schema): before its servers start with --history, so that no user gets
    /// again what the single server gave. Rows there already are kept; it can run again.
    Export(HistoryArgs),
    /// Copy a fleet's PostgreSQL history (per-user deliveries and daily puzzles) into the
    /// bank, in one transaction: back to one server, or before an export, so that no daily
    /// puzzle the site showed is printed (each is marked served). Rows there already are kept.
    Import(HistoryArgs),
}

/// `pseudoku results`.
#[derive(Debug, clap::Subcommand)]
pub enum ResultsCommand {
    /// Count an app's log of games: JSON lines with the keys of POST /v1/results (user,
    /// puzzle by its bank id, solved, seconds, hints, mistakes), in the file's order, each
    /// moving the player's and the puzzle's learned ratings. The delivery is recorded with the
    /// result (the user is not handed that puzzle again). Bad lines are named and skipped
    /// (exit 1); a line counted before is passed over, so the same command continues an
    /// import that was stopped.
    Import(ResultsImportArgs),
}

/// Arguments of `pseudoku results import`.
#[derive(Debug, clap::Args)]
pub struct ResultsImportArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The log: JSON lines, one game each.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Count into a fleet's history (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE) instead
    /// of the bank, which is only read.
    #[arg(
        long,
        value_name = "URL",
        env = "PSEUDOKU_HISTORY",
        hide_env_values = true
    )]
    pub history: Option<String>,
}

/// Arguments of `pseudoku history export` and `history import`.
#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The fleet's history: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.
    #[arg(value_name = "URL", env = "PSEUDOKU_HISTORY", hide_env_values = true)]
    pub url: String,
    /// Go on when the history was recorded against another bank (or a larger copy of this
    /// one), recording this bank as the history's.
    #[arg(long)]
    pub rebind: bool,
}

/// Which seeds: a bank's (its seed library and imports) or a library file's.
#[derive(Debug, clap::Args)]
pub struct LibraryArg {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The seed library `build` uses with the bank (default: the shipped library).
    #[arg(long = "seeds", value_name = "FILE", conflicts_with = "library")]
    pub seed_library: Option<PathBuf>,
    /// A library file to work on instead of a bank.
    #[arg(long, value_name = "FILE")]
    pub library: Option<PathBuf>,
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
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Seed of the random choices (the same seed gives the same library).
    #[arg(long = "seed", default_value_t = 2026)]
    pub rng_seed: u64,
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
pub struct SeedImportArgs {
    /// The file to import; `-` reads standard input.
    #[arg(value_name = "FILE|-")]
    pub input: PathBuf,
    /// When another process is writing to the bank, wait for it instead of stopping.
    #[arg(long)]
    pub wait: bool,
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
    /// Worker threads (0: all cores; at most 4 per core). Output stays in input order.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
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
    /// Name each puzzle's level on this bank's levels instead of the default ones.
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Worker threads (0: all cores; at most 4 per core). Output stays in input order.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Print where the time went to standard error at the end: per stage of a rating, and per
    /// rung of each model's ladder and per strategy, the searches (those answered by the
    /// rating's cache and by the run's shared searches among them), the searches that found
    /// something, and seconds summed over threads. The ratings are the same.
    #[arg(long)]
    pub profile: bool,
}

/// Arguments of `pseudoku explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// The puzzle: 81 characters, `1`-`9` for clues, `.` or `0` for empty cells; `-` reads
    /// the first puzzle of standard input.
    #[arg(value_name = "PUZZLE|-", required_unless_present = "id")]
    pub puzzle: Option<String>,
    /// A bank puzzle by its id instead.
    #[arg(long, conflicts_with = "puzzle")]
    pub id: Option<i64>,
    /// The bank --id reads.
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// Print the candidate grid before each step.
    #[arg(long, conflicts_with = "model")]
    pub grid: bool,
    /// One JSON object per step.
    #[arg(long, conflicts_with = "model")]
    pub json: bool,
    /// Show one run of a rating model with its internals instead.
    #[arg(long)]
    pub model: bool,
    /// Which model's run --model shows.
    #[arg(long, value_parser = choice::<RatingKind>(), default_value = "hsolve", requires = "model")]
    pub rating: RatingKind,
}

/// Arguments of `pseudoku serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The bank (SQLite file).
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// With --token-file: a file holding the play page's token, which the server writes into
    /// the page; it opens only what the page plays with (levels, puzzles, hints), so the page
    /// works while the other routes keep the token.
    #[arg(long, value_name = "FILE", requires = "token_file")]
    pub page_token_file: Option<PathBuf>,
    /// Web origins whose pages may call the API from a browser (CORS), e.g.
    /// https://app.example.com, or * for any; off unless given.
    #[arg(long, value_name = "ORIGIN", num_args = 1.., value_delimiter = ',', value_parser = origin)]
    pub cors: Vec<String>,
    /// A file holding a bearer token that every route but /healthz and the play page's own
    /// files requires (`Authorization: Bearer TOKEN`).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Reading connections to the bank.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub readers: u64,
    /// The seed of the draws (default: from the clock, so that a restarted server does not
    /// hand new users the puzzles it handed out before in the same order; the log names it).
    #[arg(long = "seed")]
    pub rng_seed: Option<u64>,
    /// Serve a bank that cannot be written (a read-only copy): every read, no delivery
    /// (POST /v1/puzzles/next answers 503). Without it, such a bank is refused.
    #[arg(long, conflicts_with = "history")]
    pub read_only: bool,
    /// Record deliveries and daily puzzles in a fleet's PostgreSQL history
    /// (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE) instead of the bank, which is then
    /// only read: several servers, each on a copy of one bank, never give a user a class twice.
    /// The schema is created or updated at start; a bank other than the history's is refused.
    #[arg(
        long,
        value_name = "URL",
        env = "PSEUDOKU_HISTORY",
        hide_env_values = true
    )]
    pub history: Option<String>,
    /// With --history: serve even when the history was recorded against another bank (or a
    /// larger copy of this one), recording this bank as the history's.
    #[arg(long, requires = "history")]
    pub history_rebind: bool,
    /// Open connections at most; more are closed at once.
    #[arg(long, value_name = "N", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
    /// Open connections from one address at most (behind a proxy, all clients share its
    /// address: raise it there).
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_per_client: u64,
    /// Seconds a client has to send a request's headers; a connection silent that long is
    /// closed.
    #[arg(long, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// Seconds a request may take, its body read included (408 after it).
    #[arg(long, value_name = "SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub request_timeout: u64,
    /// Seconds a stopping server (SIGTERM, Ctrl-C) waits for the requests it is answering.
    #[arg(long, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub drain: u64,
    /// How the log on standard error is written (its level by `RUST_LOG`, default `info`).
    #[arg(long, value_name = "FORMAT", value_parser = choice::<LogFormat>(), default_value = "text")]
    pub log_format: LogFormat,
    /// New players one address may make in an hour (all of them at once), with the play
    /// page's token (POST /v1/players) or on a server without a token (a user id first seen);
    /// the server's token makes players freely. Behind a proxy, all clients share its address.
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub new_players_per_address: u64,
    /// New players the server lets in a day in all, alike (a twenty-fourth of them at once).
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub new_players_per_day: u64,
}

/// How `serve` writes its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// A line of text per event.
    Text,
    /// A JSON object per line.
    Json,
}

impl Choice for LogFormat {
    fn all() -> &'static [Self] {
        &[LogFormat::Text, LogFormat::Json]
    }
    fn name(self) -> &'static str {
        match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        }
    }
    fn about(self) -> &'static str {
        match self {
            LogFormat::Text => "A line of text per event: time, level, message, fields",
            LogFormat::Json => "A JSON object per line, for a log collector",
        }
    }
}

/// Arguments of `pseudoku hint`.
#[derive(Debug, clap::Args)]
pub struct HintArgs {
    /// Input file, one puzzle (and optionally a tab and the entries) per line; `-` or nothing
    /// reads standard input.
    #[arg(value_name = "FILE|-", default_value = "-", conflicts_with = "id")]
    pub input: PathBuf,
    /// A bank puzzle by its id (see `get --json`) instead of a file.
    #[arg(long)]
    pub id: Option<i64>,
    /// The bank --id reads.
    #[arg(long, env = "PSEUDOKU_DB", default_value = "pseudoku.db")]
    pub db: PathBuf,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (0: all cores; at most 4 per core). Output stays in input order.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
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
    /// Worker threads (0: all cores; at most 4 per core). Output stays in input order.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
}

/// A value of the library chosen by name on the command line: its names and their help come
/// from the library, so that the command line and the library cannot disagree.
pub trait Choice: Copy + Send + Sync + 'static {
    /// Every value, in the order the help lists them.
    fn all() -> &'static [Self];
    /// Its name on the command line.
    fn name(self) -> &'static str;
    /// Its help.
    fn about(self) -> &'static str;
}

/// The parser of a [`Choice`]: one of its names (completions and `--help` list them).
pub fn choice<T: Choice>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    PossibleValuesParser::new(
        T::all()
            .iter()
            .map(|&v| PossibleValue::new(v.name()).help(v.about())),
    )
    .map(|name| {
        *T::all()
            .iter()
            .find(|v| v.name() == name)
            .expect("the parser accepts only these names")
    })
}

/// Implements [`Choice`] for a library type from its list of values and its name and help
/// functions.
macro_rules! choice_of {
    ($($t:ident: $all:expr, $name:path, $about:path;)*) => {$(
        impl Choice for $t {
            fn all() -> &'static [Self] {
                &$all
            }
            fn name(self) -> &'static str {
                $name(self)
            }
            fn about(self) -> &'static str {
                $about(self)
            }
        }
    )*};
}

choice_of! {
    RatingKind: RatingKind::ALL, RatingKind::name, RatingKind::about;
    Format: Format::ALL, Format::extension, Format::about;
    SolutionLayout: SolutionLayout::ALL, SolutionLayout::name, SolutionLayout::about;
    Part: Part::ALL, Part::name, Part::about;
    Palette: Palette::ALL, Palette::name, Palette::about;
    Typeface: Typeface::ALL, Typeface::name, Typeface::about;
    Group: Group::ALL, Group::name, Group::about;
    DataFormat: DataFormat::ALL, DataFormat::name, DataFormat::about;
}
