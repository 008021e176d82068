//! Acceptance: which rated puzzles a build keeps, decided in job order by one rule that a
//! single build, a shard's stopping rule and `merge` all apply, so that shards merged give
//! the bank one machine builds.
//!
//! # The rule
//!
//! A build has T targets (its band or level quotas; a build of `--count` N has one target
//! that every puzzle fits, of quota N). Job j is **assigned** a target by an [`Assignment`]
//! fixed before the first job (a repeating pattern of targets, so that the targets fill
//! together; see [`Assignment::balancing`]), whatever happened before it. Going through the
//! jobs in order:
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
    assignment: Assignment,
    quotas: Vec<u64>,
    stored: Vec<u64>,
    seen: HashSet<u128>,
}

/// Which target each job serves: a pattern of targets repeated over the jobs, target t
/// appearing `weights[t]` times in each period, spread evenly (smooth weighted round-robin:
/// weights 1, 1, 1 give 0 1 2 0 1 2 ..., weights 2, 1 give 0 1 0 0 1 0 ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    weights: Vec<u32>,
    pattern: Vec<u8>,
}

/// The length of a balanced pattern (the weights of [`Assignment::balancing`] sum to about
/// this): a target's share of the jobs is set to within 1/256.
pub const PATTERN: u32 = 256;

/// The largest weight a recorded assignment may hold.
pub const MAX_WEIGHT: u32 = 1 << 16;

/// The most one target's weight may exceed another's in a balanced assignment: every target
/// keeps some jobs of its own, whatever the pilot saw.
pub const MAX_WEIGHT_RATIO: f64 = 16.0;

impl Assignment {
    /// Job j serves target `j mod targets` (at least one).
    pub fn round_robin(targets: usize) -> Assignment {
        Assignment::weighted(&vec![1; targets.max(1)])
    }

    /// Target t serves `weights[t]` jobs of every `sum(weights)` (each at least 1).
    ///
    /// # Panics
    /// When there is no target, more than [`MAX_TARGETS`], or a weight is 0.
    pub fn weighted(weights: &[u32]) -> Assignment {
        assert!(!weights.is_empty() && weights.len() <= MAX_TARGETS);
        assert!(weights.iter().all(|&w| w > 0), "every target gets jobs");
        let total: i64 = weights.iter().map(|&w| i64::from(w)).sum();
        let mut current = vec![0i64; weights.len()];
        let pattern = (0..total)
            .map(|_| {
                for (c, &w) in current.iter_mut().zip(weights) {
                    *c += i64::from(w);
                }
                // The largest current weight, the first of equals.
                let t = (0..weights.len())
                    .rev()
                    .max_by_key(|&t| current[t])
                    .expect("a target");
                current[t] -= total;
                t as u8
            })
            .collect();
        Assignment {
            weights: weights.to_vec(),
            pattern,
        }
    }

    /// The assignment under which each target fills at the pace of its quota, from
    /// `landing[s][t]`: the share of the jobs of target s whose puzzle target t takes (the
    /// first it fits; measured on a pilot). Target s's share of the jobs is raised while t = s
    /// fills slower than its quota asks and lowered while it fills faster, until they agree
    /// (a fixed point: jobs of one target landing in another are counted there), within
    /// [`MAX_WEIGHT_RATIO`]; the shares become integer weights summing to about [`PATTERN`].
    pub fn balancing(landing: &[Vec<f64>], quotas: &[u64]) -> Assignment {
        let n = quotas.len();
        assert!(n > 0 && landing.len() == n && landing.iter().all(|r| r.len() == n));
        let mut share = vec![1.0 / n as f64; n];
        let floor = 1.0 / MAX_WEIGHT_RATIO;
        for _ in 0..200 {
            // Each target's pace: puzzles a job, per puzzle of its quota.
            let pace: Vec<f64> = landing_per_job(landing, &share)
                .iter()
                .zip(quotas)
                .map(|(rate, &quota)| rate / quota.max(1) as f64)
                .collect();
            let mean = pace.iter().sum::<f64>() / n as f64;
            if mean <= 0.0 {
                break;
            }
            for t in 0..n {
                // Damped (square root), and bounded for a target the pilot never saw filled.
                share[t] *= (mean / pace[t].max(mean * floor * floor)).sqrt();
            }
            let top = share.iter().cloned().fold(0.0, f64::max);
            for s in share.iter_mut() {
                *s = s.max(top * floor);
            }
            let sum: f64 = share.iter().sum();
            share.iter_mut().for_each(|s| *s /= sum);
        }
        let weights: Vec<u32> = share
            .iter()
            .map(|s| ((s * f64::from(PATTERN)).round() as u32).max(1))
            .collect();
        Assignment::weighted(&weights)
    }

    /// The assignment of `targets` targets recorded as these weights (none recorded: the
    /// round-robin, as builds assigned jobs before weights were recorded), or `None` when they
    /// are not one (another number of targets, a weight of 0 or above [`MAX_WEIGHT`]).
    pub fn recorded(weights: &[u32], targets: usize) -> Option<Assignment> {
        if weights.is_empty() {
            return (1..=MAX_TARGETS)
                .contains(&targets)
                .then(|| Assignment::round_robin(targets));
        }
        let sound = weights.len() == targets
            && targets <= MAX_TARGETS
            && weights.iter().all(|&w| (1..=MAX_WEIGHT).contains(&w));
        sound.then(|| Assignment::weighted(weights))
    }

    /// The number of targets.
    pub fn targets(&self) -> usize {
        self.weights.len()
    }

    /// The target job `job` serves.
    #[inline]
    pub fn target(&self, job: u64) -> usize {
        self.pattern[(job % self.pattern.len() as u64) as usize] as usize
    }

    /// Each target's weight.
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }
}

/// The puzzles each target gets a job when the jobs serve the targets in proportions `share`
/// (summing to 1) and `landing[s][t]` of target s's jobs land in target t.
pub fn landing_per_job(landing: &[Vec<f64>], share: &[f64]) -> Vec<f64> {
    (0..share.len())
        .map(|t| (0..share.len()).map(|s| share[s] * landing[s][t]).sum())
        .collect()
}

/// The most targets one build can have (a puzzle's fits are a 64-bit mask).
pub const MAX_TARGETS: usize = 64;

impl Acceptance {
    /// Targets of these quotas, jobs assigned by `assignment`, with these counts already
    /// stored and these keys seen.
    ///
    /// # Panics
    /// When there is no target, more than [`MAX_TARGETS`], or the counts do not match.
    pub fn new(
        assignment: Assignment,
        quotas: Vec<u64>,
        stored: Vec<u64>,
        seen: HashSet<u128>,
    ) -> Acceptance {
        assert!(!quotas.is_empty() && quotas.len() <= MAX_TARGETS);
        assert_eq!(quotas.len(), stored.len());
        assert_eq!(quotas.len(), assignment.targets());
        Acceptance {
            assignment,
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
        self.assignment.target(job)
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
        let mut a = Acceptance::new(
            Assignment::round_robin(2),
            vec![1, 2],
            vec![0, 0],
            HashSet::new(),
        );
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

    #[test]
    fn weighted_patterns_spread_each_target_evenly() {
        assert_eq!(Assignment::round_robin(3).pattern, vec![0, 1, 2]);
        assert_eq!(Assignment::round_robin(3).weights(), [1, 1, 1]);
        assert_eq!(Assignment::weighted(&[2, 1]).pattern, vec![0, 1, 0]);
        let a = Assignment::weighted(&[5, 2, 1]);
        assert_eq!(a.pattern, vec![0, 1, 0, 0, 2, 0, 1, 0]);
        assert_eq!((0..80).filter(|&j| a.target(j) == 0).count(), 50);
        // Any weights: each target's count over a period is its weight, and over every
        // prefix of the pattern it stays within one job of its share.
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let n = 1 + rng.below(6) as usize;
            let w: Vec<u32> = (0..n).map(|_| 1 + rng.below(40)).collect();
            let a = Assignment::weighted(&w);
            let total: u32 = w.iter().sum();
            assert_eq!(a.pattern.len() as u32, total);
            for (t, &wt) in w.iter().enumerate() {
                let mut count = 0u32;
                for (k, &x) in a.pattern.iter().enumerate() {
                    count += u32::from(x as usize == t);
                    let share = f64::from(wt) * (k + 1) as f64 / f64::from(total);
                    assert!((f64::from(count) - share).abs() < 1.0 + 1e-9, "{w:?}");
                }
                assert_eq!(count, wt);
            }
        }
    }

    #[test]
    fn balancing_gives_each_target_the_jobs_its_quota_needs() {
        // Every job lands in its own target: shares in proportion to quota / landing rate.
        let landing = vec![
            vec![0.5, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
        ];
        let a = Assignment::balancing(&landing, &[100, 100, 200]);
        let w = a.weights();
        // 2 : 1 : 2 (up to rounding to a period of 256).
        assert!((w[0] as i64 - w[2] as i64).abs() <= 1, "{w:?}");
        assert!(
            (f64::from(w[0]) / f64::from(w[1]) - 2.0).abs() < 0.02,
            "{w:?}"
        );
        // Target 0's jobs half land in target 1: target 1 needs fewer jobs of its own.
        let landing = vec![vec![0.5, 0.5], vec![0.0, 1.0]];
        let w = Assignment::balancing(&landing, &[100, 100])
            .weights()
            .to_vec();
        // share s0 * 0.5 = s0 * 0.5 + s1: s1 as small as allowed (1/16 of s0).
        assert!(f64::from(w[0]) / f64::from(w[1]) > 15.0, "{w:?}");
        // Equal targets stay the round-robin.
        let landing = vec![vec![0.9, 0.1], vec![0.1, 0.9]];
        let w = Assignment::balancing(&landing, &[7, 7]).weights().to_vec();
        assert_eq!(w[0], w[1]);
        // A target the pilot never filled still gets jobs.
        let landing = vec![vec![1.0, 0.0], vec![0.0, 0.0]];
        let w = Assignment::balancing(&landing, &[10, 10])
            .weights()
            .to_vec();
        assert!(w[1] > w[0] && w[0] >= 1, "{w:?}");
        assert!(f64::from(w[1]) / f64::from(w[0]) <= MAX_WEIGHT_RATIO + 0.5);
    }
}
