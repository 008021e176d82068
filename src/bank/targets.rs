//! Targeted building (the paper's section 4.3.4): quotas per band or level, where each one's
//! jobs come from ([`band_source`]), how many jobs each gets ([`assignment`]), and how each
//! fares.

use super::accept::Assignment;
use super::job::{self, JobResult, Measured, Prepared, Rated, Source};
use super::layout::Layout;
use super::BankError;
use crate::difficulty;
use crate::levels::{Band, Levels, LevelsError, PercentileRange, RatingKind};
use crate::store;
use crate::store::retrieval::Within;
use rayon::prelude::*;

/// What a quota fills: a band of percentiles, or a level of the bank (by name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Aim {
    /// Band k of m.
    Band(Band),
    /// The level of this name.
    Level(String),
}

impl std::fmt::Display for Aim {
    /// `band=3/4` or `level=hard`, as a build's arguments record it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Aim::Band(b) => write!(f, "band={b}"),
            Aim::Level(l) => write!(f, "level={l}"),
        }
    }
}

/// The fewest seeds a band's jobs draw from.
pub const MIN_SEEDS_PER_BAND: usize = 8;

/// One quota of a targeted build, and how it fares.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetProgress {
    /// What it fills, for people: `band 1/4 [0, 25)`, `level hard (5.754 <= difficulty < 10.063)`.
    pub aim: String,
    /// The puzzles that count: those of `within` that keep `layout`.
    pub within: Within,
    /// The layout rules its puzzles keep (and its jobs generate with).
    pub layout: Layout,
    /// Its percentile interval (of the reference, for a level: where its cut points fall),
    /// from which its jobs' seeds are chosen.
    pub range: PercentileRange,
    /// New puzzles it needs.
    pub quota: u64,
    /// Puzzles stored in it by this build.
    pub stored: u64,
    /// Where its jobs draw from: a generator, or the number of seeds near its midpoint.
    pub source: String,
    /// Jobs run for it (this run of the command).
    pub jobs: u64,
    /// Of those, the puzzles that landed in it.
    pub hits: u64,
}

impl std::fmt::Display for TargetProgress {
    /// `band 1/4 [0, 25): 10 of 10 stored; from standard generator: 12 jobs, 11 hits (91.7%)`,
    /// with `, layout symmetry=rotate180` after the name when it has rules.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let layout = if self.layout.is_free() {
            String::new()
        } else {
            format!(", layout {}", self.layout)
        };
        write!(
            f,
            "{}{layout}: {} of {} stored; from {}: {} jobs, {} hits ({:.1}%)",
            self.aim,
            self.stored,
            self.quota,
            self.source,
            self.jobs,
            self.hits,
            100.0 * self.hits as f64 / self.jobs.max(1) as f64
        )
    }
}

/// Where the jobs of a band come from (the paper's section 4.3.4): the seeds whose own
/// percentile lies in the band, or if fewer than [`MIN_SEEDS_PER_BAND`] do, that many seeds
/// nearest its midpoint. When every seed lies above the band (a seed's puzzles need its
/// hardest tier, so they are about as hard as the seed), the standard generator or random
/// minimal puzzles, whichever the reference shows landing in the band more often:
/// `generator_shares` are the shares of the reference's standard-generator and minimal
/// puzzles inside the band.
pub fn band_source(
    seed_percentiles: &[f64],
    range: PercentileRange,
    generator_shares: (f64, f64),
) -> Source {
    if seed_percentiles.iter().all(|&p| p >= range.high) {
        return if generator_shares.1 > generator_shares.0 {
            Source::Minimal
        } else {
            Source::Standard
        };
    }
    let inside: Vec<usize> = (0..seed_percentiles.len())
        .filter(|&i| range.contains(seed_percentiles[i]))
        .collect();
    if inside.len() >= MIN_SEEDS_PER_BAND {
        return Source::Seeds(inside);
    }
    let mid = (range.low + range.high) / 2.0;
    let mut by_distance: Vec<usize> = (0..seed_percentiles.len()).collect();
    by_distance.sort_by(|&a, &b| {
        (seed_percentiles[a] - mid)
            .abs()
            .total_cmp(&(seed_percentiles[b] - mid).abs())
            .then(a.cmp(&b))
    });
    by_distance.truncate(MIN_SEEDS_PER_BAND);
    by_distance.sort_unstable();
    Source::Seeds(by_distance)
}

/// Each seed's own percentile (on the current rayon pool): its library line has its hsolve
/// rating (rounded as the bank stores ratings); only difficulty needs rating here.
fn seed_percentiles(seeds: &[Prepared], levels: &Levels) -> Vec<f64> {
    seeds
        .par_iter()
        .map(|s| {
            let difficulty = match levels.rating {
                RatingKind::Difficulty => crate::rate::round(
                    difficulty::rate(&s.seed.puzzle, difficulty::DEFAULT_RUNS)
                        .expect("seeds are unique")
                        .value,
                    3,
                ),
                RatingKind::Hsolve => 0.0, // not used
            };
            levels.percentile(difficulty, s.seed.hsolve)
        })
        .collect()
}

/// What a quota fills on the bank's scale: its name for people, the puzzles that count, and
/// its percentile interval (for a level, the reference percentiles of its cut points).
fn resolve(aim: &Aim, levels: &Levels) -> Result<(String, Within, PercentileRange), BankError> {
    Ok(match aim {
        Aim::Band(b) => (
            format!("band {b} {}", b.range()),
            Within::Percentiles(b.range()),
            b.range(),
        ),
        Aim::Level(name) => {
            let i = levels
                .set
                .index(name)
                .ok_or_else(|| LevelsError::UnknownLevel {
                    name: name.clone(),
                    levels: levels.set.names().clone(),
                })?;
            let (lo, hi) = levels.set.bounds(i);
            let range = PercentileRange {
                low: lo.map_or(0.0, |c| levels.reference.percentile(c)),
                high: hi.map_or(100.0, |c| levels.reference.percentile(c)),
                closed: hi.is_none(),
            };
            (
                format!(
                    "level {name} ({})",
                    crate::retrieve::range_text(&levels.set, i, levels.rating)
                ),
                Within::Level(i as u32),
                range,
            )
        }
    })
}

/// The stored layout rules of level `name` (none when unset).
pub fn stored_layout(conn: &rusqlite::Connection, name: &str) -> Result<Layout, BankError> {
    match store::settings::layout(conn, name)? {
        None => Ok(Layout::default()),
        Some(text) => text.parse().map_err(|reason| BankError::BadLayout {
            level: name.to_string(),
            reason,
        }),
    }
}

/// Plans the quotas (each with its layout rules) of build `build_id` (rating the seeds on
/// `pool`): each one's source and what the build already stored in it.
pub fn plan(
    conn: &rusqlite::Connection,
    pool: &rayon::ThreadPool,
    levels: &Levels,
    seeds: &[Prepared],
    quotas: &[(Aim, u64, Layout)],
    build_id: i64,
) -> Result<(Vec<TargetProgress>, Vec<Source>), BankError> {
    if quotas.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let resolved: Vec<_> = quotas
        .iter()
        .map(|(aim, ..)| resolve(aim, levels))
        .collect::<Result<_, _>>()?;
    let seed_pct = pool.install(|| seed_percentiles(seeds, levels));
    // Each stored puzzle's percentile and level (a puzzle without a rating counts nowhere).
    let stored: Vec<(f64, u32)> = store::puzzles::build_scale(conn, levels.rating, build_id)?
        .into_iter()
        .filter_map(|(r, l)| Some((levels.reference.percentile(r?), l?)))
        .collect();
    let sources_pct = store::settings::reference_by_source(conn, levels.rating)?;
    let shares = |range: PercentileRange| -> (f64, f64) {
        let share = |name: &str| {
            let v: Vec<f64> = sources_pct
                .iter()
                .filter(|(s, _)| s == name)
                .map(|(_, r)| levels.reference.percentile(*r))
                .collect();
            v.iter().filter(|&&p| range.contains(p)).count() as f64 / v.len().max(1) as f64
        };
        (share("standard"), share("minimal"))
    };
    let mut targets = Vec::new();
    let mut sources = Vec::new();
    for ((aim, within, range), (_, quota, layout)) in resolved.into_iter().zip(quotas) {
        let source = band_source(&seed_pct, range, shares(range));
        targets.push(TargetProgress {
            aim,
            within,
            layout: *layout,
            range,
            quota: *quota,
            stored: stored
                .iter()
                .filter(|&&(p, l)| within.contains(p, l))
                .count() as u64,
            source: source.describe(),
            jobs: 0,
            hits: 0,
        });
        sources.push(source);
    }
    Ok((targets, sources))
}

/// The targets a rated puzzle fits (bit t: target t; no targets, a build of a count: its one
/// target).
pub fn fits(targets: &[TargetProgress], rated: &Rated) -> u64 {
    if targets.is_empty() {
        return 1;
    }
    targets.iter().enumerate().fold(0, |mask, (t, target)| {
        let fits = target.within.contains(rated.percentile, rated.level)
            && target
                .layout
                .keeps(&rated.graded.puzzle, rated.graded.report.technique);
        mask | (u64::from(fits) << t)
    })
}

/// The most pilot jobs a target runs (see [`assignment`]).
pub const PILOT_JOBS: u64 = 512;

/// The fewest pilot jobs worth running for a target: below it, the round-robin.
pub const MIN_PILOT_JOBS: u64 = 32;

/// Added to the build's RNG seed for the pilot's jobs (a stream of their own: the pilot's
/// puzzles are not stored).
const PILOT_STREAM: u64 = 0x7069_6c6f_7400_0000;

/// Which target each job of a build serves: the targets' shares of the jobs chosen so that
/// they fill together ([`Assignment::balancing`]), measured on a pilot of jobs that depends
/// only on the build's arguments (so every shard, and a resumed build, finds the same).
///
/// Each target runs min([`PILOT_JOBS`], count / (8 T)) jobs from its source with its layout
/// rules, on an RNG stream of their own; each puzzle is rated by the bank's rating (both
/// ratings when a target has layout rules) and counted in the first target it fits. With one
/// target, or too small a build for [`MIN_PILOT_JOBS`], jobs go round the targets.
pub fn assignment(
    pool: &rayon::ThreadPool,
    levels: &Levels,
    seeds: &[Prepared],
    targets: &[TargetProgress],
    sources: &[Source],
    rng_seed: u64,
) -> Assignment {
    let n_targets = targets.len();
    let count: u64 = targets.iter().map(|t| t.quota).sum();
    let per_target = PILOT_JOBS.min(count / (8 * n_targets.max(1) as u64));
    if n_targets < 2 || per_target < MIN_PILOT_JOBS {
        return Assignment::round_robin(n_targets);
    }
    let full_rating = targets.iter().any(|t| !t.layout.is_free());
    let jobs: Vec<(usize, u64)> = (0..per_target)
        .flat_map(|i| (0..n_targets).map(move |t| (t, i * n_targets as u64 + t as u64)))
        .collect();
    let seed = rng_seed.wrapping_add(PILOT_STREAM);
    let first_fit: Vec<(usize, Option<usize>)> = pool.install(|| {
        jobs.par_iter()
            .map(|&(t, j)| {
                let g = match job::generate(seeds, &sources[t], seed, j, &targets[t].layout) {
                    JobResult::Puzzle(g) => *g,
                    JobResult::NotUnique(_) => return (t, None),
                };
                let m = Measured::new(g, levels);
                let first = match (m.percentile, m.level) {
                    (Some(p), Some(l)) if !full_rating => {
                        targets.iter().position(|x| x.within.contains(p, l))
                    }
                    _ => {
                        let mask = fits(targets, &m.rate(seeds, levels));
                        (mask != 0).then(|| mask.trailing_zeros() as usize)
                    }
                };
                (t, first)
            })
            .collect()
    });
    let mut landing = vec![vec![0.0; n_targets]; n_targets];
    for (s, t) in first_fit {
        if let Some(t) = t {
            landing[s][t] += 1.0 / per_target as f64;
        }
    }
    let quotas: Vec<u64> = targets.iter().map(|t| t.quota).collect();
    Assignment::balancing(&landing, &quotas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_sources_follow_the_seeds_and_the_reference() {
        let range = |s: &str| s.parse::<Band>().unwrap().range();
        // Seeds at percentiles 60, 61, ..., 99.
        let pct: Vec<f64> = (60..100).map(f64::from).collect();
        // Every seed is above band 1/4 and 2/4: a generator, whichever lands there more.
        assert_eq!(
            band_source(&pct, range("1/4"), (0.9, 0.1)),
            Source::Standard
        );
        assert_eq!(band_source(&pct, range("2/4"), (0.1, 0.3)), Source::Minimal);
        // Band 3/4 holds 15 seeds (60-74): those.
        assert_eq!(
            band_source(&pct, range("3/4"), (0.0, 0.0)),
            Source::Seeds((0..15).collect())
        );
        // Every seed is above 45-55: a generator.
        let r = PercentileRange {
            low: 45.0,
            high: 55.0,
            closed: false,
        };
        assert_eq!(band_source(&pct, r, (0.5, 0.2)), Source::Standard);
        let r = PercentileRange {
            low: 55.0,
            high: 62.0,
            closed: false,
        };
        // Seeds 60 and 61 inside (2 < 8): the 8 nearest the midpoint 58.5 are 60-67.
        assert_eq!(
            band_source(&pct, r, (0.0, 0.0)),
            Source::Seeds((0..8).collect())
        );
    }
}
