//! Acceptance: which rated puzzles a build keeps, decided in job order by one rule that a
//! single build, a shard's stopping rule and `merge` all apply, so that shards merged give
//! the bank one machine builds.
//!
//! # The rule
//!
//! A build has T targets (its band or level quotas; a build of `--count` N has one target
//! that every puzzle fits, of quota N). Job j is **assigned** target `j mod T`, whatever
//! happened before it. Going through the jobs in order:
//!
//! 1. a job whose assigned target is full is **ignored** (a build does not even generate it
//!    when it knows that at the start of a batch);
//! 2. a puzzle whose class key is **seen** is a duplicate;
//! 3. a puzzle fits the targets whose band or level holds it and whose layout rules it keeps;
//! 4. it is stored in the first target it fits that is not full, and its key becomes seen;
//!    when it fits none, or only full ones, it is off band and leaves no trace.
//!
//! The build stops when every target is full. The seen keys are the bank's: those it held
//! before the build and those the build stored, so a resumed build starts from the state it
//! stopped in. Nothing but the jobs' own puzzles and this state decides a verdict, so it does
//! not depend on batches, threads or machines.

use std::collections::HashSet;

/// What became of one job's puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Its assigned target was full: as if the job had not run.
    Ignored,
    /// Its class was seen before.
    Duplicate,
    /// It fits no target, or only full ones.
    Off,
    /// Stored, in this target.
    Stored(usize),
}

/// The state of the rule: each target's quota and count, and the seen keys (as
/// [`crate::store::puzzles::key_prefix`]es).
#[derive(Clone, Debug)]
pub struct Acceptance {
    quotas: Vec<u64>,
    stored: Vec<u64>,
    seen: HashSet<u128>,
}

/// The target job `job` is assigned among `targets` (at least one).
pub fn assigned(job: u64, targets: usize) -> usize {
    (job % targets as u64) as usize
}

/// The most targets one build can have (a puzzle's fits are a 64-bit mask).
pub const MAX_TARGETS: usize = 64;

impl Acceptance {
    /// Targets of these quotas, with these counts already stored and these keys seen.
    ///
    /// # Panics
    /// When there is no target, more than [`MAX_TARGETS`], or the counts do not match.
    pub fn new(quotas: Vec<u64>, stored: Vec<u64>, seen: HashSet<u128>) -> Acceptance {
        assert!(!quotas.is_empty() && quotas.len() <= MAX_TARGETS);
        assert_eq!(quotas.len(), stored.len());
        Acceptance {
            quotas,
            stored,
            seen,
        }
    }

    /// The number of targets.
    pub fn targets(&self) -> usize {
        self.quotas.len()
    }

    /// The target job `job` is assigned.
    pub fn assigned(&self, job: u64) -> usize {
        assigned(job, self.quotas.len())
    }

    /// True while target `t` needs puzzles.
    pub fn open(&self, t: usize) -> bool {
        self.stored[t] < self.quotas[t]
    }

    /// The targets still needing puzzles.
    pub fn open_count(&self) -> usize {
        (0..self.targets()).filter(|&t| self.open(t)).count()
    }

    /// True when every target is full.
    pub fn done(&self) -> bool {
        self.open_count() == 0
    }

    /// Puzzles stored in target `t`.
    pub fn stored(&self, t: usize) -> u64 {
        self.stored[t]
    }

    /// True when job `job` would be ignored now.
    pub fn ignores(&self, job: u64) -> bool {
        !self.open(self.assigned(job))
    }

    /// True when `key` is seen.
    pub fn seen(&self, key: u128) -> bool {
        self.seen.contains(&key)
    }

    /// The verdict on job `job`'s puzzle, of class key `key`, fitting the targets of the mask
    /// `fits` (bit t: target t), and the state moved on by it.
    pub fn offer(&mut self, job: u64, key: u128, fits: u64) -> Verdict {
        if self.ignores(job) {
            return Verdict::Ignored;
        }
        if self.seen.contains(&key) {
            return Verdict::Duplicate;
        }
        match (0..self.targets()).find(|&t| fits >> t & 1 == 1 && self.open(t)) {
            Some(t) => {
                self.seen.insert(key);
                self.stored[t] += 1;
                Verdict::Stored(t)
            }
            None => Verdict::Off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_assigned_round_the_targets_and_ignored_when_theirs_is_full() {
        let mut a = Acceptance::new(vec![1, 2], vec![0, 0], HashSet::new());
        assert_eq!(a.assigned(0), 0);
        assert_eq!(a.assigned(7), 1);
        // Job 0 (target 0) makes a puzzle of target 1.
        assert_eq!(a.offer(0, 10, 0b10), Verdict::Stored(1));
        // The same class again: a duplicate, whatever it fits.
        assert_eq!(a.offer(1, 10, 0b01), Verdict::Duplicate);
        // A puzzle fitting nothing leaves no trace: its class may come again.
        assert_eq!(a.offer(2, 11, 0), Verdict::Off);
        assert_eq!(a.offer(3, 11, 0b11), Verdict::Stored(0));
        // Target 0 is full: its jobs are ignored, their classes not seen.
        assert!(a.ignores(4));
        assert_eq!(a.offer(4, 12, 0b10), Verdict::Ignored);
        // A puzzle fitting only full targets is off band and leaves no trace either.
        assert_eq!(a.offer(5, 13, 0b01), Verdict::Off);
        assert!(!a.seen(13));
        assert_eq!(a.offer(7, 13, 0b10), Verdict::Stored(1));
        assert_eq!(a.offer(9, 12, 0b10), Verdict::Ignored);
        assert!(a.done());
        assert_eq!((a.stored(0), a.stored(1)), (1, 2));
    }
}
