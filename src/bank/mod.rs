//! The bank builder: the hsolve paper's pseudo-generator (section 4.2) over the seed library,
//! feeding the SQLite bank, and `verify`.
//!
//! - `job`: one job: a prepared seed, pseudo-generation (or a generator for the easiest
//!   bands), the uniqueness check and canonical form, the rated row;
//! - `targets`: quotas per band or level and where each one's jobs come from;
//! - `layout`: the layout rules of a level (symmetry, clue range, minimality, techniques);
//! - `orient`: the symmetry of a seed a job uses under a symmetric layout;
//! - `build`: a build: its plan (`plan`: everything decided before the first job), its
//!   run (`run`: the batches of jobs) and its writer thread (`writer`);
//! - `accept`: which rated puzzles a build keeps, in job order;
//! - `shard`: a shard's share of the jobs and when it stops; `merge`: shards combined;
//! - `verify`: stored rows re-checked from scratch.
//!
//! # Pipeline
//!
//! Jobs are numbered; job j draws from `Rng::for_job(rng_seed, j)`: a seed of the library, a
//! random symmetry, and the order in which unreserved cells are revealed; with quotas, job j
//! serves the quota its `accept::Assignment` names (the quotas' shares of the jobs, measured
//! on a pilot, with the duplicates each will meet at the build's size estimated from its
//! seeds, so that they fill together: `targets::assignment`). Jobs run in batches:
//!
//! 1. in parallel: pseudo-generation (clue selection with the tier-k solver), the uniqueness
//!    check, the canonical form;
//! 2. puzzles of classes already seen (the bank's, and those accepted) are not rated;
//! 3. in parallel: the rating (on the canonical form) and the secondary metrics
//!    ([`crate::rate::Graded`]);
//! 4. in job order: puzzles are accepted by the rule of `accept` until the requested count
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
//! K/N` runs every N-th block of jobs into a bank of its own (`shard`) and `merge` replays
//! the shards into the bank one machine builds. An interrupted build keeps its committed
//! batches; the next build with the same RNG seed and count resumes at the first uncommitted
//! job.

internal! {
    accept;
    build;
    job;
    layout;
    merge;
    shard;
    targets;
    verify;
}
mod error;
mod orient;
mod plan;
mod run;
mod writer;

pub use build::{build, Progress, StageTimes, MAX_COUNT};
pub use error::BankError;
pub use layout::{
    parse_clues, parse_share, parse_symmetry, parse_techniques, profiles, profiles_text, Layout,
    LayoutChange, LayoutError, Profile, RULE_SHARE, SHARE_RULE,
};
pub use merge::{merge, MergeOptions, Merged};
pub use shard::{Shard, ShardError, DEFAULT_MARGIN};
pub use targets::{level_layouts, merged as merged_targets, Aim, TargetProgress};
pub use verify::{verify, verify_with_progress, Mismatch, Verified};

pub use crate::generate::Symmetry;
pub use crate::store::lock::WriterLock;
pub use crate::store::{open, open_existing, Bank, StoreError};
pub use crate::technique::Technique;

use crate::levels::RatingKind;
use std::path::PathBuf;

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
    /// Layout options changing the stored rules of the levels this build fills.
    pub layout: Option<layout::LayoutChange>,
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
    /// Jobs per batch (for a shard: per block, see `shard`).
    pub batch: u64,
    /// Build only this shard of the jobs, into a bank of its own (see `shard`).
    pub shard: Option<shard::Shard>,
    /// Fill each level below the top one in parts that follow the reference's spread over
    /// the level's range, instead of wherever its jobs land.
    pub spread: bool,
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
            spread: false,
        }
    }
}
