//! The seed miner: random minimal puzzles classified by the hardest tier they need, climbing
//! by neighbourhood moves from the rare tiers (3, 4, 6); new classes are added to the library
//! until every tier group has its quota. The same RNG seed gives the same library whatever the
//! thread count (finds are accepted in job order).

use super::{Library, LibraryError, Seed, SeedError};
use crate::generate::{self, Symmetry};
use crate::grid::Puzzle;
use crate::rate::hsolve;
use crate::rng::Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to mine.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// Keep seeds needing at least this tier (1-6).
    pub tier: u8,
    /// Seeds wanted per tier for tiers 1-3 and for tiers 5-6 together (tier 4: a tenth).
    pub count: usize,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// The seed of the random choices.
    pub rng_seed: u64,
    /// Give up after this many candidate puzzles.
    pub max_jobs: u64,
    /// Neighbourhood moves tried from each rare find.
    pub climb: u32,
    /// The library file (merged with what is there; saved every minute and at the end).
    pub out: PathBuf,
}

/// The tier groups of the quotas: 1, 2, 3, 4, then 5 and 6 together (index 0 unused).
pub const GROUPS: usize = 6;

/// The quota group of a tier.
fn group(tier: u8) -> usize {
    tier.min(5) as usize
}

/// Mines seeds into the library file `opts.out`; calls `progress(jobs, have)` after every
/// batch, `have` counting the library's seeds per tier group. Returns the library and the
/// number of candidates tried.
pub fn mine(
    opts: &MineOptions,
    mut progress: impl FnMut(u64, &[usize; GROUPS]),
) -> Result<(Library, u64), LibraryError> {
    let mut lib = Library::load(&opts.out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()?;
    let mut quota = [0usize; GROUPS];
    for t in opts.tier.max(1)..=5 {
        quota[t as usize] = if t == 4 {
            (opts.count / 10).max(1)
        } else {
            opts.count
        };
    }
    let mut have = [0usize; GROUPS];
    for s in &lib.seeds {
        have[group(s.tier)] += 1;
    }
    let done = |have: &[usize; GROUPS]| (0..GROUPS).all(|g| have[g] >= quota[g]);
    let mut job = 0u64;
    let mut saved = Instant::now();
    const BATCH: u64 = 512;
    while job < opts.max_jobs && !done(&have) {
        let end = (job + BATCH).min(opts.max_jobs);
        let found: Vec<Vec<Seed>> = pool.install(|| {
            (job..end)
                .into_par_iter()
                .map(|j| mine_job(opts.rng_seed, j, opts.climb))
                .collect()
        });
        // Accept in job order (the same library whatever the thread count).
        let mut accepted = Vec::new();
        let mut keys = std::collections::HashSet::new();
        let mut pending = have;
        for s in found.into_iter().flatten() {
            let g = group(s.tier);
            if s.tier < opts.tier || pending[g] >= quota[g] {
                continue;
            }
            let key = s.key();
            if lib.contains(&key) || !keys.insert(key) {
                continue;
            }
            pending[g] += 1;
            accepted.push(s);
        }
        let complete: Vec<Result<Seed, SeedError>> =
            pool.install(|| accepted.into_par_iter().map(complete).collect());
        for s in complete {
            let s = s?;
            have[group(s.tier)] += 1;
            lib.add(s);
        }
        job = end;
        // Keep what was found if the run is interrupted.
        if saved.elapsed() > Duration::from_secs(60) {
            lib.save(&opts.out)?;
            saved = Instant::now();
        }
        progress(job, &have);
    }
    lib.save(&opts.out)?;
    Ok((lib, job))
}

/// What one mining job found: seeds (not yet deduplicated), in the order found.
pub fn mine_job(rng_seed: u64, job: u64, climb: u32) -> Vec<Seed> {
    let mut rng = Rng::for_job(rng_seed, job);
    let p = generate::random_minimal(&mut rng, Symmetry::None);
    let mut found = Vec::new();
    let Ok(tier) = hsolve::hardest_tier(&p) else {
        return found;
    };
    if tier == 0 {
        return found;
    }
    let prov = |how: &str| format!("mined:{how}:seed={rng_seed}:job={job}");
    if tier < 3 || (tier >= 5 && tier != 6) {
        // Common tiers: no climbing (the rating is computed only if the miner keeps it).
        found.push(light_seed(&p, tier, &prov("masking")));
        return found;
    }
    // Rare tiers: climb by neighbourhood moves, keeping moves that need at least this tier.
    found.push(light_seed(&p, tier, &prov("masking")));
    let solution = crate::solve::solve(&p).unique().expect("unique");
    let (mut cur, mut cur_tier) = (p, tier);
    for step in 0..climb {
        let q = generate::neighbour(
            &cur,
            &solution,
            1 + rng.index(2),
            1 + rng.index(2),
            &mut rng,
        );
        if let Ok(t) = hsolve::hardest_tier(&q) {
            if t >= cur_tier && t != 5 {
                found.push(light_seed(&q, t, &prov(&format!("climb{step}"))));
                cur = q;
                cur_tier = t;
            }
        }
    }
    found
}

/// A seed with its tier but without the costly fields (filled by [`complete`]).
fn light_seed(p: &Puzzle, tier: u8, provenance: &str) -> Seed {
    Seed {
        puzzle: *p,
        solution: crate::solve::solve(p).unique().expect("unique"),
        tier,
        hsolve: f64::NAN,
        reserved: 0,
        provenance: provenance.to_string(),
    }
}

/// Fills the rating and the reserved-cell count of a seed from [`mine_job`].
pub fn complete(seed: Seed) -> Result<Seed, SeedError> {
    Seed::analyze(&seed.puzzle, &seed.provenance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mining_is_reproducible() {
        let a: Vec<String> = (0..30)
            .flat_map(|j| mine_job(7, j, 5))
            .map(|s| s.puzzle.to_line())
            .collect();
        let b: Vec<String> = (0..30)
            .flat_map(|j| mine_job(7, j, 5))
            .map(|s| s.puzzle.to_line())
            .collect();
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }
}
