//! Targeted building (the paper's section 4.3.4): band quotas, where each band's jobs come from
//! ([`band_source`]), and how each band fares.

use super::job::{Prepared, Source};
use super::BankError;
use crate::difficulty;
use crate::levels::{Band, Levels, PercentileRange, RatingKind};
use crate::store;
use rayon::prelude::*;

/// The fewest seeds a band's jobs draw from.
pub const MIN_SEEDS_PER_BAND: usize = 8;

/// One band quota of a targeted build, and how it fares.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetProgress {
    /// The band.
    pub band: Band,
    /// Its percentile interval.
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
    /// `band 1/4 [0, 25): 10 of 10 stored; from standard generator: 12 jobs, 11 hits (91.7%)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "band {} {}: {} of {} stored; from {}: {} jobs, {} hits ({:.1}%)",
            self.band,
            self.range,
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

/// Plans the quotas of build `build_id` (rating the seeds on `pool`): each band's source and
/// what the build already stored in it.
pub fn plan(
    conn: &rusqlite::Connection,
    pool: &rayon::ThreadPool,
    levels: &Levels,
    seeds: &[Prepared],
    quotas: &[(Band, u64)],
    build_id: i64,
) -> Result<(Vec<TargetProgress>, Vec<Source>), BankError> {
    if quotas.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let seed_pct = pool.install(|| seed_percentiles(seeds, levels));
    let stored = store::puzzles::build_percentiles(conn, build_id)?;
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
    for &(band, quota) in quotas {
        let range = band.range();
        let source = band_source(&seed_pct, range, shares(range));
        targets.push(TargetProgress {
            band,
            range,
            quota,
            stored: stored.iter().filter(|&&p| range.contains(p)).count() as u64,
            source: source.describe(),
            jobs: 0,
            hits: 0,
        });
        sources.push(source);
    }
    Ok((targets, sources))
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
