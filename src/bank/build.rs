//! `build`: a bank built (or resumed) from the seed library, in two steps: the plan made
//! before the first job (`plan.rs`: options checked, bookkeeping, targets, the assignment of
//! jobs), then the run of the jobs (`run.rs`) with the writer thread (`writer.rs`) committing
//! what is accepted. Rows of older versions are brought up to date first (`backfill` in
//! `levels/calibrate.rs`).

use super::{BankError, BuildOptions};
use crate::seeds::Library;
use std::sync::atomic::AtomicBool;

pub use super::plan::MAX_COUNT;
pub use super::run::{Progress, StageTimes};

/// Builds (or resumes building) the bank from the seed library `lib` and the seeds imported
/// into the bank; calls `progress` after every batch handed to the writer thread (which
/// commits it while the next one is generated). Stops early, keeping what was committed, when
/// `stop` is set.
///
/// With targets, job j is assigned a target by `super::targets::assignment` and draws from
/// its `super::targets::band_source` with its layout rules; the jobs of full targets are not
/// run; a rated puzzle is kept by the rule of `super::accept` (in the first open target it
/// fits, counted as off band otherwise). With `opts.shard`, only the shard's blocks of jobs
/// run, and every candidate is kept for `merge` (`super::shard`).
pub fn build(
    opts: &BuildOptions,
    lib: &Library,
    stop: &AtomicBool,
    progress: impl FnMut(&Progress),
) -> Result<Progress, BankError> {
    let plan = super::plan::plan(opts, lib)?;
    super::run::run(plan, opts, stop, progress)
}
