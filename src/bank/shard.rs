//! Shards: `build --shard K/N` runs its share of a build's jobs (every N-th block of them) into
//! a bank of its own, storing every candidate (see [`super::accept`]) its jobs make, and stops
//! when its share would fill its targets with a margin; `merge` ([`mod@super::merge`]) replays the
//! shards' candidates in job order and gets the bank one machine builds.
//!
//! # What a shard stores, and why it is enough
//!
//! A shard cannot know which of its puzzles the merged bank keeps (that depends on the other
//! shards' jobs), so it keeps what the rule could need: every puzzle that fits a target, once
//! per (class, assigned target, targets it fits). A later job with the same three is
//! ignored when the earlier one was (their assigned target was full), a duplicate when the
//! earlier one was stored or a duplicate, off band when it was (what it fits was full): never
//! stored. When no target has a symmetry or technique rule, what a puzzle fits depends on its
//! class alone, and a class made again for the same target is dropped before rating. Jobs
//! are split in blocks of `block` jobs; block b belongs to shard `b mod N + 1`.
//!
//! A shard does not generate the jobs of a target once its own share, run through the rule
//! with the quota `ceil(quota x (1 + margin) / N) + SLACK`, fills it; it records per target how
//! far its jobs ran (its cursors). `merge` checks that every job it needed ran; when one did
//! not, it names the shard to run again with a larger `--margin` (which resumes it).

use std::str::FromStr;

/// Which share of a build's jobs a shard runs, and with what margin it stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shard {
    /// K of K/N (1-based).
    pub k: u64,
    /// N of K/N.
    pub n: u64,
    /// The margin over an even share at which the shard stops, in percent.
    pub margin: f64,
}

/// The default `--margin`, percent.
pub const DEFAULT_MARGIN: f64 = 15.0;

/// Puzzles a shard adds to each target's share beyond the margin (small quotas vary most).
pub const SLACK: u64 = 8;

/// The most shards a build can be split in.
pub const MAX_SHARDS: u64 = 100_000;

/// Why a shard does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not `K/N` with numbers.
    #[error("{0:?} is not K/N (e.g. 2/8)")]
    Form(String),
    /// N out of range.
    #[error("N must be between 1 and {MAX_SHARDS}")]
    Shards,
    /// K out of range.
    #[error("K must be between 1 and N ({0})")]
    Shard(u64),
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N` with 1 <= K <= N, and the default margin.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let form = || ShardError::Form(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(form)?;
        let parse = |w: &str| w.trim().parse::<u64>().map_err(|_| form());
        let (k, n) = (parse(k)?, parse(n)?);
        if n == 0 || n > MAX_SHARDS {
            return Err(ShardError::Shards);
        }
        if k == 0 || k > n {
            return Err(ShardError::Shard(n));
        }
        Ok(Shard {
            k,
            n,
            margin: DEFAULT_MARGIN,
        })
    }
}

impl std::fmt::Display for Shard {
    /// `K/N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// True when job `job` (blocks of `block` jobs) is this shard's.
    pub fn owns(&self, job: u64, block: u64) -> bool {
        (job / block) % self.n == self.k - 1
    }

    /// The first job at or after `job` that is this shard's (the start of one of its blocks
    /// when `job` is not its own).
    pub fn next_own(&self, job: u64, block: u64) -> u64 {
        if self.owns(job, block) {
            return job;
        }
        let b = job / block;
        let r = (self.k - 1 + self.n - b % self.n) % self.n;
        (b + r) * block
    }

    /// The quota the shard stops at for a target of the build's quota `quota`.
    pub fn share(&self, quota: u64) -> u64 {
        let share = quota as f64 * (1.0 + self.margin / 100.0) / self.n as f64;
        (share.ceil() as u64).min(quota) + SLACK.min(quota)
    }
}

/// The entry of a shard's set of what it stored: class key `key` (a
/// [`crate::store::puzzles::key_prefix`]) made by a job of target `assigned`, fitting `fits`
/// (`None` when what a puzzle fits follows from its class). One 128-bit value: the key, a
/// uniform hash, mixed with the rest.
pub fn made(key: u128, assigned: usize, fits: Option<u64>) -> u128 {
    let rest =
        (assigned as u128 + 1) << 64 | u128::from(fits.map_or(0, |f| f ^ 0x9e37_79b9_7f4a_7c15));
    key ^ rest.wrapping_mul(0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_own_their_blocks_and_share_quotas() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!((s.k, s.n, s.to_string()), (2, 3, "2/3".to_string()));
        for bad in ["0/3", "4/3", "1/0", "x", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // Blocks of 4 jobs: shard 2/3 owns blocks 1, 4, 7, ...
        let owned: Vec<u64> = (0..40).filter(|&j| s.owns(j, 4)).collect();
        assert_eq!(owned, vec![4, 5, 6, 7, 16, 17, 18, 19, 28, 29, 30, 31]);
        assert_eq!(s.next_own(0, 4), 4);
        assert_eq!(s.next_own(6, 4), 6);
        assert_eq!(s.next_own(8, 4), 16);
        assert_eq!(s.next_own(20, 4), 28);
        // Every job is exactly one shard's.
        let all: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for j in 0..100 {
            assert_eq!(all.iter().filter(|s| s.owns(j, 7)).count(), 1);
        }
        // 1000 in 3 shards with 15%: 384 + 8; one shard: the quota and 8.
        assert_eq!(s.share(1000), 392);
        let one: Shard = "1/1".parse().unwrap();
        assert_eq!(one.share(1000), 1008);
        assert_eq!(s.share(2), 1 + 2);
    }
}
