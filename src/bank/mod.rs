//! The bank builder: the hsolve paper's pseudo-generator (section 4.2) over the seed library,
//! feeding the SQLite bank, and `verify`.
//!
//! - [`job`]: one job: a prepared seed, pseudo-generation (or a generator for the easiest
//!   bands), the uniqueness check and canonical form, the rated row;
//! - [`targets`]: quotas per band or level and where each one's jobs come from;
//! - [`layout`]: the layout rules of a level (symmetry, clue range, minimality, techniques);
//! - [`mod@build`]: the build loop and its writer thread;
//! - [`accept`]: which rated puzzles a build keeps, in job order;
//! - [`shard`]: a shard's share of the jobs and when it stops; [`mod@merge`]: shards combined;
//! - [`mod@verify`]: stored rows re-checked from scratch.
//!
//! # Pipeline
//!
//! Jobs are numbered; job j draws from `Rng::for_job(rng_seed, j)`: a seed of the library, a
//! random symmetry, and the order in which unreserved cells are revealed; with quotas, job j
//! serves the quota its [`accept::Assignment`] names (the quotas' shares of the jobs, measured
//! on a pilot, with the duplicates each will meet at the build's size estimated from its
//! seeds, so that they fill together: [`targets::assignment`]). Jobs run in batches:
//!
//! 1. in parallel: pseudo-generation (clue selection with the tier-k solver), the uniqueness
//!    check, the canonical form;
//! 2. puzzles of classes already seen (the bank's, and those accepted) are not rated;
//! 3. in parallel: the rating (on the canonical form) and the secondary metrics
//!    ([`crate::rate::Graded`]);
//! 4. in job order: puzzles are accepted by the rule of [`accept`] until the requested count
//!    (or every quota) is met;
//! 5. the writer thread, which owns the connection, commits the batch and the build's
//!    progress in one transaction while the next batches run.
//!
//! Steps 1-3 of a few batches are in flight on the pool at once, each planned on what was
//! accepted when it started, so the workers never wait for a batch to end (on a build of one
//! machine; a shard runs its blocks one at a time); step 4 sees every job in order on the
//! current state, so what is stored and counted does not depend on that timing.
//!
//! Accepting in job order by a rule that depends on nothing but the jobs makes the bank the
//! same whatever the thread count, the batch size or the number of machines: `build --shard
//! K/N` runs every N-th block of jobs into a bank of its own ([`shard`]) and [`merge`] replays
//! the shards into the bank one machine builds. An interrupted build keeps its committed
//! batches; the next build with the same RNG seed and count resumes at the first uncommitted
//! job.

pub mod accept;
pub mod build;
pub mod job;
pub mod layout;
pub mod merge;
pub mod shard;
pub mod targets;
pub mod verify;

pub use build::{build, Progress};
pub use verify::{verify, verify_with_progress, Mismatch, Verified};

use crate::levels::{LevelsError, RatingKind};
use crate::store::StoreError;
use std::path::PathBuf;
pub use targets::Aim;

/// What can go wrong while building or verifying a bank.
#[derive(Debug, thiserror::Error)]
pub enum BankError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank's levels could not be set up.
    #[error(transparent)]
    Levels(#[from] LevelsError),
    /// The worker threads could not be started.
    #[error("starting the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The seed library has no seed.
    #[error("the seed library is empty")]
    EmptyLibrary,
    /// The bank was rated by an older `difficulty` model.
    #[error(
        "this bank was rated by difficulty model {0} (this program rates with model {current}); \
         the next `pseudoku build` on it re-rates it",
        current = crate::difficulty::MODEL
    )]
    OlderModel(String),
    /// More puzzles asked for than one build can count.
    #[error("too many puzzles asked for: one build makes at most 2^40 (about 10^12)")]
    TooMany,
    /// Layout rules were given for a build that fills no level.
    #[error("layout rules belong to levels: give them with --level NAME or --per-level N")]
    LayoutWithoutLevel,
    /// A stored layout rule does not parse.
    #[error("the stored layout of level {level:?} is bad: {reason}")]
    BadLayout {
        /// The level.
        level: String,
        /// Why.
        reason: String,
    },
    /// A plain build on a shard's bank.
    #[error(
        "this bank holds shard {0}/{1} of a build: merge the shards with `pseudoku merge`, \
         or continue it with `build --shard {0}/{1}` and the same arguments"
    )]
    IsShard(u64, u64),
    /// A shard build on a bank that holds another build's shard.
    #[error("this bank holds a shard of another build ({0}): a shard builds into its own file")]
    OtherShard(String),
    /// A shard build on a bank that already holds puzzles or builds.
    #[error(
        "this bank already holds puzzles or builds: a shard builds into a new file of its own"
    )]
    ShardNotEmpty,
    /// A shard's blocks smaller than its number of quotas.
    #[error(
        "a shard's block of jobs (--batch) must hold at least one job of each of its {0} quotas"
    )]
    ShardBlock(usize),
    /// More quotas than one build can follow.
    #[error("{0} bands or levels in one build: at most 64")]
    TooManyTargets(usize),
    /// A merge input is not a shard's bank.
    #[error("{}: not a shard's bank (build shards with `pseudoku build --shard K/N`)", .0.display())]
    NotShard(PathBuf),
    /// A merge was given no shard.
    #[error("no shard to merge")]
    NoShards,
    /// Merge inputs of different builds.
    #[error(
        "{}: a shard of another build than {} (each shard must be built with the same \
         arguments, --seed and N)",
        .path.display(), .first.display()
    )]
    OtherBuild {
        /// The input.
        path: PathBuf,
        /// The first input.
        first: PathBuf,
    },
    /// Not every shard of a build, or one twice.
    #[error("a merge takes each of the {n} shards once; given: {}", .have.join(", "))]
    ShardsMissing {
        /// N.
        n: u64,
        /// The shards given (K/N).
        have: Vec<String>,
    },
    /// Banks of different levels, reference or layout rules.
    #[error(
        "{}: its levels, reference or layout rules differ from the shards' (merge into a new \
         file, or a bank with the same scale)",
        .0.display()
    )]
    OtherScale(PathBuf),
    /// A shard stopped before a job the merged bank needs.
    #[error(
        "{}: shard {shard} did not run job {job} (for {target}), which the merged bank needs: \
         run that shard's build again with the same arguments and a larger --margin (it \
         resumes where it stopped), then merge again",
        .path.display()
    )]
    ShardShort {
        /// The shard's file.
        path: PathBuf,
        /// K/N.
        shard: String,
        /// The target whose job is missing.
        target: String,
        /// The job.
        job: u64,
    },
    /// The database writer thread stopped without saying why.
    #[error("the database writer stopped")]
    Writer,
}

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The bank.
    pub db: PathBuf,
    /// New distinct puzzles to store (without targets).
    pub count: u64,
    /// Quotas per band or level: build until each holds this many new puzzles (then the count
    /// is their sum). Empty: any difficulty.
    pub targets: Vec<(Aim, u64)>,
    /// A quota for every level of the bank (added to `targets`).
    pub per_level: Option<u64>,
    /// Layout rules to store for the levels this build fills (their stored rules otherwise).
    pub layout: Option<layout::Layout>,
    /// When another process is writing to the bank, wait for it (else stop with an error).
    pub wait: bool,
    /// The rating a new bank's percentiles use (an existing bank keeps its own).
    pub rating: Option<RatingKind>,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// The seed of every random choice.
    pub rng_seed: u64,
    /// The seed library file, or `None` for the shipped one (recorded with the build).
    pub seed_library: Option<PathBuf>,
    /// Jobs per batch (for a shard: per block, see [`shard`]).
    pub batch: u64,
    /// Build only this shard of the jobs, into a bank of its own (see [`shard`]).
    pub shard: Option<shard::Shard>,
}

impl BuildOptions {
    /// `n` new puzzles for every level of the bank `db`, every random choice from `rng_seed`,
    /// with the command line's defaults otherwise (all cores, the shipped seed library).
    pub fn per_level(db: PathBuf, n: u64, rng_seed: u64) -> BuildOptions {
        BuildOptions {
            db,
            count: 0,
            targets: Vec::new(),
            per_level: Some(n),
            layout: None,
            wait: false,
            rating: None,
            threads: 0,
            rng_seed,
            seed_library: None,
            batch: 256,
            shard: None,
        }
    }
}
