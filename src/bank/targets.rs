//! Targeted building (the paper's section 4.3.4): quotas per band or level, where each one's
//! jobs come from ([`band_source`], eased seeds where a pilot favours them:
//! [`choose_sources`]), how many jobs each gets ([`assignment`]), and how each fares.

use super::accept::{landing_per_job, Assignment};
use super::job::{self, JobResult, Measured, Prepared, Rated, Source};
use super::layout::Layout;
use super::BankError;
use crate::rate::difficulty;
use crate::generate::Symmetry;
use crate::levels::{Band, Levels, LevelsError, PercentileRange, RatingKind};
use crate::store;
use crate::store::retrieval::Within;
use rayon::prelude::*;

/// What a quota fills: a band of percentiles, or a level of the bank (by name), or a part of
/// one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Aim {
    /// Band k of m.
    Band(Band),
    /// The level of this name.
    Level(String),
    /// Part k of m of the level of this name: its puzzles whose percentile lies in the k-th
    /// of m equal slices of the level's percentile interval (the reference's puzzles of the
    /// level split in m equal shares).
    LevelPart(String, Band),
}

impl Aim {
    /// The name of the level it fills, or a part of; `None` for a band.
    pub fn level(&self) -> Option<&str> {
        match self {
            Aim::Band(_) => None,
            Aim::Level(name) | Aim::LevelPart(name, _) => Some(name),
        }
    }
}

impl std::fmt::Display for Aim {
    /// `band=3/4`, `level=hard` or `level=hard part=3/10`, as a build's arguments record it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Aim::Band(b) => write!(f, "band={b}"),
            Aim::Level(l) => write!(f, "level={l}"),
            Aim::LevelPart(l, part) => write!(f, "level={l} part={part}"),
        }
    }
}

/// The parts a level quota below the top level is built in ([`spread`]).
pub const LEVEL_PARTS: u32 = 4;

/// A quota of `n` puzzles of level `name` of `levels` as the quotas a build
/// fills: a level below the top one (cut by rating, not learned) in [`LEVEL_PARTS`] parts
/// (fewer for fewer puzzles), each the same share of the reference's puzzles of the level and
/// of the quota (the first `n % parts` one more), so that the level's puzzles spread over its
/// range as the reference's do (a generator left alone packs most of a level at one end);
/// any other level as one quota.
pub fn spread(name: &str, n: u64, levels: &Levels) -> Vec<(Aim, u64)> {
    let Some(i) = levels.set.index(name) else {
        return vec![(Aim::Level(name.to_string()), n)];
    };
    let top = levels.set.names().rated().len() - 1;
    let parts = u64::from(LEVEL_PARTS).min(n);
    if levels.model.is_some() || i >= top || parts < 2 {
        return vec![(Aim::Level(name.to_string()), n)];
    }
    (1..=parts)
        .map(|k| {
            let part = Band::new(k as u32, parts as u32).expect("1 <= k <= parts <= 10");
            (
                Aim::LevelPart(name.to_string(), part),
                n / parts + u64::from(k <= n % parts),
            )
        })
        .collect()
}

/// The fewest seeds a band's jobs draw from.
pub const MIN_SEEDS_PER_BAND: usize = 8;

/// One quota of a targeted build, and how it fares.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetProgress {
    /// What it fills, for people: `band 1/4 [0, 25)`, `level hard (5.754 <= difficulty < 10.063)`.
    pub aim: String,
    /// The puzzles that count: those of `within` (and of `part`) that keep `layout`.
    pub within: Within,
    /// For a part of a level ([`Aim::LevelPart`]): the percentiles its puzzles lie in.
    pub part: Option<PercentileRange>,
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

impl TargetProgress {
    /// True when a puzzle of this percentile and level (0 = easiest) is among the puzzles it
    /// counts (before its layout rules).
    pub fn holds(&self, percentile: f64, level: u32) -> bool {
        self.within.contains(percentile, level) && self.part.is_none_or(|r| r.contains(percentile))
    }

    /// True when some percentile from `low` to `high` lies in its range (its part's, for a
    /// part of a level): where a puzzle whose rating lies there could count.
    pub fn reaches(&self, low: f64, high: f64) -> bool {
        let r = self.part.unwrap_or(self.range);
        low <= r.high && r.low <= high
    }
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

/// The quotas as people read them: the parts of one level (the same name and rules, one after
/// the other) summed into one line, their sources listed once each.
pub fn merged(targets: &[TargetProgress]) -> Vec<TargetProgress> {
    let mut out: Vec<TargetProgress> = Vec::new();
    for t in targets {
        match out.last_mut() {
            Some(last) if last.aim == t.aim && last.layout == t.layout => {
                last.quota += t.quota;
                last.stored += t.stored;
                last.jobs += t.jobs;
                last.hits += t.hits;
                if !last.source.split(" + ").any(|s| s == t.source) {
                    last.source = format!("{} + {}", last.source, t.source);
                }
                last.range.high = t.range.high;
                last.range.closed = t.range.closed;
            }
            _ => out.push(t.clone()),
        }
    }
    out
}

/// Where the jobs of a band come from (the paper's section 4.3.4): the seeds whose own
/// percentile lies in the band, or if fewer than [`MIN_SEEDS_PER_BAND`] do, that many seeds
/// nearest its midpoint. When every seed lies above the band (a seed's puzzles need its
/// hardest tier, so they are about as hard as the seed), the standard generator or random
/// minimal puzzles, whichever the reference shows landing in the band more often:
/// `generator_shares` are the shares of the reference's standard-generator and minimal
/// puzzles inside the band (a build may then ease seeds instead: [`choose_sources`]).
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
/// rating (rounded as the bank stores ratings); only difficulty needs rating here. The seeds
/// from `symmetric_from` on (the shipped symmetric ones, all from an expert level, a few
/// thousand) are rated by [`difficulty::EARLY_RUNS`] runs instead of the whole rating, which
/// would cost a small symmetric build a second: their percentile only tells which ranges'
/// sources they join.
fn seed_percentiles(seeds: &[Prepared], levels: &Levels, symmetric_from: usize) -> Vec<f64> {
    seeds
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let runs = if i < symmetric_from {
                difficulty::DEFAULT_RUNS
            } else {
                difficulty::EARLY_RUNS
            };
            let difficulty = match levels.rating {
                RatingKind::Difficulty => crate::rate::round(
                    difficulty::rate(&s.seed.puzzle, runs)
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
        Aim::LevelPart(name, part) => {
            let (what, within, range) = resolve(&Aim::Level(name.clone()), levels)?;
            let width = range.high - range.low;
            let k = f64::from(part.k);
            let m = f64::from(part.m);
            let slice = PercentileRange {
                low: range.low + width * (k - 1.0) / m,
                high: if part.k == part.m {
                    range.high
                } else {
                    range.low + width * k / m
                },
                closed: part.k == part.m && range.closed,
            };
            (what, within, slice)
        }
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
            // A level model's levels are not ranges of the rating.
            let what = if levels.model.is_some() {
                "learned".to_string()
            } else {
                crate::retrieve::range_text(&levels.set, i, levels.rating)
            };
            (
                format!("level {name} ({what})"),
                Within::Level(i as u32),
                range,
            )
        }
    })
}

/// The stored layout rules of level `name` (none when unset).
pub fn stored_layout(conn: &store::Bank, name: &str) -> Result<Layout, BankError> {
    match store::settings::layout(conn, name)? {
        None => Ok(Layout::default()),
        Some(text) => text.parse().map_err(|reason| BankError::BadLayout {
            level: name.to_string(),
            reason,
        }),
    }
}

/// The levels of the bank `conn` that have layout rules, with their rules, easiest first.
pub fn level_layouts(conn: &store::Bank) -> Result<Vec<(String, Layout)>, BankError> {
    let (_, set) = store::settings::levels(conn)?;
    let mut out = Vec::new();
    for name in set.names().names() {
        let layout = stored_layout(conn, name)?;
        if !layout.is_free() {
            out.push((name.clone(), layout));
        }
    }
    Ok(out)
}

/// Plans the quotas (each with its layout rules) of build `build_id` (rating the seeds on
/// `pool`): each one's source and what the build already stored in it. The seeds from index
/// `symmetric_from` on are the shipped symmetric ones: only a half-turn layout draws on them.
pub fn plan(
    conn: &store::Bank,
    pool: &rayon::ThreadPool,
    levels: &Levels,
    (seeds, symmetric_from): (&[Prepared], usize),
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
    let seed_pct = pool.install(|| seed_percentiles(seeds, levels, symmetric_from));
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
    for ((aim, within, range), (of, quota, layout)) in resolved.into_iter().zip(quotas) {
        let among = if layout.generated_symmetry() == Symmetry::Rotate180 {
            seeds.len()
        } else {
            symmetric_from
        };
        let source = band_source(&seed_pct[..among], range, shares(range));
        let mut target = TargetProgress {
            aim,
            within,
            part: matches!(of, Aim::LevelPart(..)).then_some(range),
            layout: *layout,
            range,
            quota: *quota,
            stored: 0,
            source: source.describe(),
            jobs: 0,
            hits: 0,
        };
        target.stored = stored.iter().filter(|&&(p, l)| target.holds(p, l)).count() as u64;
        targets.push(target);
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
        let fits = target.holds(rated.percentile, rated.level)
            && target
                .layout
                .keeps(
                    &rated.graded.puzzle,
                    rated.graded.rating.technique,
                    rated.graded.rating.hardest.strategy,
                );
        mask | (u64::from(fits) << t)
    })
}

/// The most pilot jobs a target runs (see [`assignment`]).
pub const PILOT_JOBS: u64 = 2048;

/// The fewest pilot jobs worth running for a target: below it, the round-robin.
pub const MIN_PILOT_JOBS: u64 = 32;

/// Added to the build's RNG seed for the jobs that choose a source ([`choose_sources`]).
const CHOICE_STREAM: u64 = 0x6368_6f69_6365_0000;

/// For each target that `sources` fill from a generator (its range lies below every seed),
/// the seeds of the lowest tier eased instead ([`Source::Eased`]) when a pilot of its jobs
/// lands in it more often that way: a publisher's clue range can keep a generator's puzzles
/// out of a range that a seed's puzzle with part of its hard core revealed reaches (of the
/// jobs for medium's lower three parts under `--spread`, 29-34 clues, 2.8% of the
/// generators' landed in medium, 5.4% of the eased seeds'). The pilots (as many jobs as
/// [`assignment`]'s, on a stream of their own) depend only on the build's arguments, so every
/// shard and a resumed build choose alike.
pub fn choose_sources(
    pool: &rayon::ThreadPool,
    levels: &Levels,
    seeds: &[Prepared],
    targets: &mut [TargetProgress],
    sources: &mut [Source],
    rng_seed: u64,
) {
    let Some(lowest) = seeds.iter().map(|s| s.seed.tier).min() else {
        return;
    };
    let eased = Source::Eased(
        (0..seeds.len())
            .filter(|&i| seeds[i].seed.tier == lowest)
            .collect(),
    );
    let per_target = pilot_jobs(targets);
    if per_target < MIN_PILOT_JOBS {
        return;
    }
    let seed = rng_seed.wrapping_add(CHOICE_STREAM);
    for t in 0..targets.len() {
        if !matches!(sources[t], Source::Standard | Source::Minimal) {
            continue;
        }
        let landed = |source: &Source| -> usize {
            let shared = crate::rate::SharedSearches::default();
            pool.install(|| {
                (0..per_target)
                    .into_par_iter()
                    .map(|j| lands(seeds, levels, targets, (t, source), seed, j, &shared))
                    .filter(|&landed| landed == Some(t))
                    .count()
            })
        };
        if landed(&eased) > landed(&sources[t]) {
            sources[t] = eased.clone();
            targets[t].source = eased.describe();
        }
    }
}

/// The jobs a pilot runs per target: min([`PILOT_JOBS`], count / (8 T), 2 sqrt(count)).
fn pilot_jobs(targets: &[TargetProgress]) -> u64 {
    let count: u64 = targets.iter().map(|t| t.quota).sum();
    PILOT_JOBS
        .min(count / (8 * targets.len().max(1) as u64))
        .min(2 * (count as f64).sqrt() as u64)
}

/// The first of `targets` that job `j` (on the stream `seed`) of `source`, with the layout
/// of the target it is run for, lands in: rated by the bank's rating, and by both when a
/// target has layout rules.
fn lands(
    seeds: &[Prepared],
    levels: &Levels,
    targets: &[TargetProgress],
    (t, source): (usize, &Source),
    seed: u64,
    j: u64,
    shared: &crate::rate::SharedSearches,
) -> Option<usize> {
    let g = match job::generate(seeds, source, seed, j, &targets[t].layout) {
        JobResult::Puzzle(g) => *g,
        JobResult::NotUnique(_) => return None,
    };
    let Ok(m) = Measured::new(g, levels, |_, _| false, shared) else {
        unreachable!("a rating asked nothing is never stopped")
    };
    let full_rating = targets.iter().any(|t| !t.layout.is_free());
    match (m.percentile, m.level) {
        (Some(p), Some(l)) if !full_rating => targets.iter().position(|x| x.holds(p, l)),
        _ => {
            let mask = fits(targets, &m.rate(seeds, levels));
            (mask != 0).then(|| mask.trailing_zeros() as usize)
        }
    }
}

/// Added to the build's RNG seed for the pilot's jobs (a stream of their own: the pilot's
/// puzzles are not stored).
const PILOT_STREAM: u64 = 0x7069_6c6f_7400_0000;

/// Which target each job of a build serves: the targets' shares of the jobs chosen so that
/// they fill together ([`Assignment::balancing`]), measured on a pilot of jobs that depends
/// only on the build's arguments (so every shard, and a resumed build, finds the same).
///
/// Each target runs min([`PILOT_JOBS`], count / (8 T), 2 sqrt(count)) jobs from its source
/// with its layout rules (a share is measured to about one over the square root of that:
/// finer for a larger build, at a smaller part of its work), on an RNG stream of their own;
/// each puzzle is rated by the bank's rating (both ratings when a target has layout rules) and
/// counted in the first target it fits. The duplicates each target's jobs will meet at the
/// build's size are then estimated from its seeds' numbers of classes (probed, see
/// [`PROBE_DIVISOR`]) and taken out of what lands before the shares are balanced again. With
/// one target, or too small a build for [`MIN_PILOT_JOBS`], jobs go round the targets.
pub fn assignment(
    pool: &rayon::ThreadPool,
    levels: &Levels,
    seeds: &[Prepared],
    targets: &[TargetProgress],
    sources: &[Source],
    rng_seed: u64,
) -> Assignment {
    let n_targets = targets.len();
    let per_target = pilot_jobs(targets);
    if n_targets < 2 || per_target < MIN_PILOT_JOBS {
        return Assignment::round_robin(n_targets);
    }
    let jobs: Vec<(usize, u64)> = (0..per_target)
        .flat_map(|i| (0..n_targets).map(move |t| (t, i * n_targets as u64 + t as u64)))
        .collect();
    let seed = rng_seed.wrapping_add(PILOT_STREAM);
    let shared = crate::rate::SharedSearches::default();
    let first_fit: Vec<(usize, Option<usize>)> = pool.install(|| {
        jobs.par_iter()
            .map(|&(t, j)| {
                let source = (t, &sources[t]);
                (t, lands(seeds, levels, targets, source, seed, j, &shared))
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
    // A seed's puzzles fall into few classes when most of its cells are reserved: its later
    // draws are duplicates, more of them the larger the build. Each seed's classes are
    // estimated on a probe, and the shares balanced again on what lands once duplicates are
    // dropped (which changes the jobs, hence the draws of each seed: a few rounds).
    let mut balanced = Assignment::balancing(&landing, &quotas);
    let mut jobs = jobs_per_target(&landing, &quotas, balanced.weights());
    let capacities = pool.install(|| {
        probe_capacities(
            seeds,
            sources,
            targets,
            &jobs,
            rng_seed.wrapping_add(CAPACITY_STREAM),
        )
    });
    for _ in 0..DUPLICATE_ROUNDS {
        let duplicates = duplicate_shares(&capacities, sources, &jobs);
        let kept: Vec<Vec<f64>> = landing
            .iter()
            .zip(&duplicates)
            .map(|(row, d)| row.iter().map(|x| x * (1.0 - d)).collect())
            .collect();
        balanced = Assignment::balancing(&kept, &quotas);
        jobs = jobs_per_target(&kept, &quotas, balanced.weights());
    }
    balanced
}

/// Added to the build's RNG seed for the probes of the seeds' classes.
const CAPACITY_STREAM: u64 = 0x6361_7061_6369_7479;

/// How many times the shares are balanced again on the duplicates their jobs would meet.
const DUPLICATE_ROUNDS: usize = 3;

/// A seed is probed with one draw for every `PROBE_DIVISOR` draws the build is expected to
/// make of it (between [`MIN_PROBE`] and [`MAX_PROBE`]; a seed drawn less than `MIN_PROBE *
/// PROBE_DIVISOR` times is not probed: it meets few duplicates).
pub const PROBE_DIVISOR: f64 = 32.0;

/// The fewest draws of a seed's probe.
pub const MIN_PROBE: u64 = 4;

/// The most draws of a seed's probe.
pub const MAX_PROBE: u64 = 256;

/// The jobs each target runs in a build whose jobs follow `weights`, when target s's jobs land
/// in target t at `landing[s][t]` a job: until the last quota fills.
fn jobs_per_target(landing: &[Vec<f64>], quotas: &[u64], weights: &[u32]) -> Vec<f64> {
    let total: f64 = weights.iter().map(|&w| f64::from(w)).sum();
    let share: Vec<f64> = weights.iter().map(|&w| f64::from(w) / total).collect();
    let jobs = landing_per_job(landing, &share)
        .iter()
        .zip(quotas)
        .map(|(per_job, &quota)| quota as f64 / per_job.max(1e-9))
        .fold(0.0, f64::max)
        .min(1e12);
    share.iter().map(|s| s * jobs).collect()
}

/// The expected number of distinct classes among `n` draws (rounded to a whole number) from
/// `classes` equally likely ones: K (1 - (1 - 1/K)^n). Made of multiplications, divisions and
/// square roots only (no library function that may round differently elsewhere), so that
/// every machine computes the same assignment: shards compare theirs.
pub fn expected_distinct(classes: f64, n: f64) -> f64 {
    let n = n.round().clamp(0.0, f64::from(i32::MAX));
    if classes.is_infinite() {
        n
    } else if classes <= 1.0 {
        n.min(1.0)
    } else {
        classes * (1.0 - (1.0 - 1.0 / classes).powi(n as i32))
    }
}

/// The number of equally likely classes K under which `r` draws find `distinct` classes on
/// average ([`expected_distinct`] inverted): infinite when every draw was new.
pub fn fitted_classes(distinct: u64, r: u64) -> f64 {
    if distinct >= r {
        return f64::INFINITY;
    }
    if distinct <= 1 {
        return 1.0;
    }
    let (d, r) = (distinct as f64, r as f64);
    // expected_distinct grows with K, and draws that repeat a class fit a K below r^2:
    // bisect between d and r^2 on a log scale (geometric means).
    let (mut lo, mut hi) = (d, r * r);
    for _ in 0..100 {
        let mid = (lo * hi).sqrt();
        if expected_distinct(mid, r) < d {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo * hi).sqrt()
}

/// How many times seed `seed` is drawn when target t runs `jobs[t]` jobs (a target's jobs
/// draw among its seeds uniformly).
fn draws_of(seed: usize, sources: &[Source], jobs: &[f64]) -> f64 {
    sources
        .iter()
        .zip(jobs)
        .filter_map(|(source, &j)| match source {
            Source::Seeds(among) if among.contains(&seed) => Some(j / among.len() as f64),
            _ => None,
        })
        .sum()
}

/// Each seed's number of classes ([`fitted_classes`]) as the build's jobs draw them (when
/// target t runs `jobs[t]` jobs), estimated on a probe of its own draws from `stream` (see
/// [`PROBE_DIVISOR`]): jobs of the pseudo-generator with the layout of the first target that
/// draws it, each class told by its canonical form. Seeds not probed are left out (as if
/// their classes were countless).
fn probe_capacities(
    seeds: &[Prepared],
    sources: &[Source],
    targets: &[TargetProgress],
    jobs: &[f64],
    stream: u64,
) -> Vec<(usize, f64)> {
    let mut layout_of: Vec<Option<usize>> = vec![None; seeds.len()];
    for (t, source) in sources.iter().enumerate() {
        if let Source::Seeds(among) = source {
            for &s in among {
                layout_of[s].get_or_insert(t);
            }
        }
    }
    let probes: Vec<(usize, usize, u64)> = layout_of
        .iter()
        .enumerate()
        .filter_map(|(s, &t)| {
            let r = (draws_of(s, sources, jobs) / PROBE_DIVISOR).floor() as u64;
            (r >= MIN_PROBE).then_some((s, t?, r.min(MAX_PROBE)))
        })
        .collect();
    let draws: Vec<(usize, u64)> = probes
        .iter()
        .enumerate()
        .flat_map(|(i, &(_, _, r))| (0..r).map(move |k| (i, k)))
        .collect();
    let classes: Vec<Option<[u8; 81]>> = draws
        .par_iter()
        .map(|&(i, k)| {
            let (s, t, _) = probes[i];
            let seed_stream = stream ^ ((s as u64 + 1) << 40);
            match job::pseudo_generate(seeds, &[s], seed_stream, k, &targets[t].layout, false) {
                JobResult::Puzzle(g) => Some(g.canon.cells),
                JobResult::NotUnique(_) => None,
            }
        })
        .collect();
    let mut at = 0;
    probes
        .iter()
        .map(|&(s, _, r)| {
            let found: std::collections::HashSet<[u8; 81]> = classes[at..at + r as usize]
                .iter()
                .flatten()
                .copied()
                .collect();
            at += r as usize;
            (s, fitted_classes(found.len() as u64, r))
        })
        .collect()
}

/// Each target's expected share of duplicates among its jobs' puzzles when target t runs
/// `jobs[t]` jobs, from its seeds' classes (`capacities`: seed, classes): a seed drawn n times
/// makes n - [`expected_distinct`] of them.
fn duplicate_shares(capacities: &[(usize, f64)], sources: &[Source], jobs: &[f64]) -> Vec<f64> {
    let draws: Vec<(f64, f64)> = capacities
        .iter()
        .map(|&(s, k)| {
            let n = draws_of(s, sources, jobs);
            (n, n - expected_distinct(k, n))
        })
        .collect();
    sources
        .iter()
        .zip(jobs)
        .map(|(source, &j)| {
            let Source::Seeds(among) = source else {
                return 0.0; // a generator's puzzles are all but never seen twice
            };
            // A seed's duplicates are shared among the targets that draw it, by their draws.
            let per_seed = j / among.len() as f64;
            let duplicates: f64 = capacities
                .iter()
                .zip(&draws)
                .filter(|((s, _), _)| among.contains(s))
                .map(|(_, &(n, dup))| dup * per_seed / n.max(1e-9))
                .sum();
            (duplicates / j.max(1e-9)).clamp(0.0, 1.0)
        })
        .collect()
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

    #[test]
    fn distinct_classes_follow_the_uniform_model_and_invert() {
        // One class: one distinct draw, however many; countless classes: every draw new.
        assert_eq!(expected_distinct(1.0, 50.0), 1.0);
        assert_eq!(expected_distinct(f64::INFINITY, 50.0), 50.0);
        // 10 draws of 10 classes: 10 (1 - 0.9^10).
        assert!((expected_distinct(10.0, 10.0) - 6.513_215_599).abs() < 1e-6);
        assert_eq!(fitted_classes(8, 8), f64::INFINITY);
        assert_eq!(fitted_classes(1, 64), 1.0);
        for r in [8u64, 64, 256] {
            for d in 2..r {
                let k = fitted_classes(d, r);
                assert!(k >= d as f64, "{d} of {r}: {k}");
                assert!((expected_distinct(k, r as f64) - d as f64).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn duplicate_shares_count_each_seed_by_its_draws() {
        let sources = vec![
            Source::Standard,
            Source::Seeds(vec![0, 1]),
            Source::Seeds(vec![2]),
        ];
        // Seed 0 has one class, seed 1 countless, seed 2 a hundred.
        let capacities = vec![(0, 1.0), (1, f64::INFINITY), (2, 100.0)];
        let shares = duplicate_shares(&capacities, &sources, &[100.0, 200.0, 50.0]);
        assert_eq!(shares[0], 0.0);
        // Seed 0 drawn 100 times: 99 duplicates of target 1's 200 jobs.
        assert!((shares[1] - 99.0 / 200.0).abs() < 1e-9);
        // 50 draws of 100 classes: 50 - 100 (1 - 0.99^50) duplicates.
        let dup = 50.0 - 100.0 * (1.0 - 0.99f64.powi(50));
        assert!((shares[2] - dup / 50.0).abs() < 1e-9);
        // A seed two targets draw shares its duplicates by their draws.
        let both = vec![Source::Seeds(vec![0]), Source::Seeds(vec![0])];
        let shares = duplicate_shares(&[(0, 1.0)], &both, &[30.0, 10.0]);
        assert!((shares[0] - 39.0 * 0.75 / 30.0).abs() < 1e-9);
        assert!((shares[1] - 39.0 * 0.25 / 10.0).abs() < 1e-9);
    }

    #[test]
    fn jobs_run_until_the_last_quota_fills() {
        // Half of each target's jobs land in it: 400 jobs fill two quotas of 100 in turn.
        let landing = vec![vec![0.5, 0.0], vec![0.0, 0.5]];
        assert_eq!(
            jobs_per_target(&landing, &[100, 100], &[1, 1]),
            [200.0, 200.0]
        );
        // Target 1 gets 1 job in 4: it fills last, after 800 jobs.
        assert_eq!(
            jobs_per_target(&landing, &[100, 100], &[3, 1]),
            [600.0, 200.0]
        );
    }

    #[test]
    fn a_probe_finds_few_classes_in_a_seed_of_many_reserved_cells() {
        let lib = crate::seeds::Library::shipped();
        let prepared = job::prepare(&lib);
        let by_reserved = |want: fn(u32) -> bool| {
            (0..prepared.len())
                .find(|&i| prepared[i].seed.tier >= 2 && want(prepared[i].reserved.len()))
                .expect("the library has such a seed")
        };
        let (tight, open) = (by_reserved(|r| r >= 54), by_reserved(|r| r <= 22));
        let sources = vec![Source::Seeds(vec![tight]), Source::Seeds(vec![open])];
        let targets: Vec<TargetProgress> = (0..2)
            .map(|_| TargetProgress {
                aim: String::new(),
                within: Within::Percentiles(PercentileRange {
                    low: 0.0,
                    high: 100.0,
                    closed: true,
                }),
                part: None,
                layout: Layout::default(),
                range: PercentileRange {
                    low: 0.0,
                    high: 100.0,
                    closed: true,
                },
                quota: 0,
                stored: 0,
                source: String::new(),
                jobs: 0,
                hits: 0,
            })
            .collect();
        // 2048 draws each: a probe of 64 draws.
        let jobs = [2048.0, 2048.0];
        let probed = probe_capacities(&prepared, &sources, &targets, &jobs, 7);
        assert_eq!(probed.len(), 2);
        let classes = |s: usize| probed.iter().find(|p| p.0 == s).expect("probed").1;
        assert!(classes(tight) < 64.0, "{}", classes(tight));
        assert!(classes(open) > 2048.0, "{}", classes(open));
        // The same probe again: the same estimate.
        assert_eq!(
            probe_capacities(&prepared, &sources, &targets, &jobs, 7),
            probed
        );
    }
}
