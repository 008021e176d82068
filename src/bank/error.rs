//! What can go wrong while building, merging or verifying a bank.

use crate::levels::LevelsError;
use crate::store::StoreError;
use std::path::PathBuf;

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
        current = crate::rate::difficulty::MODEL
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
        reason: super::LayoutError,
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
