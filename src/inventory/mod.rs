//! What a bank holds (`pseudoku stats`): counts per level (with the span of their ratings,
//! how far their spread is from the reference's over the level's range, the quartiles of their
//! `difficulty` and clues and their shares in the quarters of the range) and tier, the rating
//! histogram next to the reference's, the bank's spread over the reference deciles, the
//! hardest steps (the technique a puzzle needs), hsolve's technique families and clue counts
//! per level, build bookkeeping; [`plot`] draws it.

pub mod plot;

use crate::canon::Key;
use crate::levels::{LevelSet, RatingKind};
use crate::store::{self, Bank};
use crate::technique::{Strategy, Technique};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The histogram's number of bins.
pub const BINS: usize = 30;

/// Counts of one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelCount {
    /// Its name.
    pub level: String,
    /// Its rating range, e.g. `5.75 <= difficulty < 10.06`, or `learned` when a level model
    /// names the levels (then levels may overlap in rating).
    pub range: String,
    /// The smallest and largest rating its puzzles have (none for an empty level).
    pub ratings: Option<(f64, f64)>,
    /// Where its cut points fall in the reference: the percentiles of its lower and upper
    /// bound (0 and 100 for no bound; with a level model, those of the cut points fitted
    /// beside it, which the levels do not follow).
    pub percentiles: (f64, f64),
    /// Puzzles in it.
    pub puzzles: u64,
    /// Of those, served.
    pub served: u64,
    /// Its layout rules (`none`, or e.g. `symmetry=rotate180 clues=22..30 minimal`).
    pub layout: String,
    /// How differently its puzzles spread over its rating range than the reference's puzzles
    /// in that range: the Kolmogorov-Smirnov distance between the two (0: the same
    /// distribution, 1: apart), rounded to 3 decimals. None for an empty level, a range the
    /// reference has nothing in, learned levels (not ranges) or the extreme level (whose range
    /// the level below it shares: that level's spread counts the range's puzzles of both).
    pub spread: Option<f64>,
    /// The shares, in percent (one decimal, summing to 100), of its puzzles in each quarter of
    /// its reference-percentile range (as a build fills them: quarter k holds the percentiles
    /// from the k-th of four equal slices of `percentiles`). None when `spread` is.
    pub quarters: Option<[f64; 4]>,
    /// The quartiles of its puzzles' `difficulty` (whatever the bank's rating; none for a
    /// level without a puzzle rated by it).
    pub difficulty_quartiles: Option<Quartiles>,
    /// The quartiles of its puzzles' clue counts (none for an empty level).
    pub clue_quartiles: Option<Quartiles>,
    /// The distinct solution grids (up to symmetry) its puzzles have.
    pub grids: u64,
    /// The most puzzles of one solution grid in it (0 for an empty level).
    pub most_of_a_grid: u64,
}

/// The first quartile, median and third quartile of a sample, each interpolated between the
/// two nearest ranks as a spreadsheet's `QUARTILE.INC` (and numpy's default) does: the
/// p-quantile of n sorted values x(0) .. x(n-1) lies at h = (n - 1) p, x(floor h) plus the
/// fraction of h times the step to the next value. Rounded to 6 decimals.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Quartiles {
    /// The first quartile (p = 1/4).
    pub q1: f64,
    /// The median (p = 1/2).
    pub median: f64,
    /// The third quartile (p = 3/4).
    pub q3: f64,
}

impl Quartiles {
    /// The quartiles of `sample`: ascending values, each with how many times it occurs
    /// (counts of 0 allowed). None for an empty sample.
    pub fn of(sample: &[(f64, u64)]) -> Option<Quartiles> {
        let n: u64 = sample.iter().map(|s| s.1).sum();
        if n == 0 {
            return None;
        }
        // The value at 0-based rank k.
        let at = |k: u64| {
            let mut below = 0;
            for &(v, c) in sample {
                below += c;
                if k < below {
                    return v;
                }
            }
            unreachable!("rank {k} of {n}")
        };
        let quantile = |p: f64| {
            let h = (n - 1) as f64 * p;
            let k = h.floor() as u64;
            let low = at(k);
            let value = if k + 1 < n {
                low + (h - k as f64) * (at(k + 1) - low)
            } else {
                low
            };
            round6(value)
        };
        Some(Quartiles {
            q1: quantile(0.25),
            median: quantile(0.5),
            q3: quantile(0.75),
        })
    }
}

/// One histogram bin over the rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    /// Lower edge (included).
    pub low: f64,
    /// Upper edge (excluded, except for the last bin).
    pub high: f64,
    /// Bank puzzles in it.
    pub bank: u64,
    /// Reference puzzles in it.
    pub reference: u64,
}

/// Puzzles of one of hsolve's technique families, per level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TechniqueRow {
    /// The family's name ([`Technique::name`]: `beyond-wings`, not a trial, for the puzzles
    /// past its X-wing and XY-wing; the key keeps its old name for scripts).
    pub technique: String,
    /// Its puzzles in each level, in the order of [`Inventory::levels`].
    pub per_level: Vec<u64>,
}

/// Puzzles of one hardest step (a technique of the `difficulty` ladder), per level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRow {
    /// The technique's name ([`Strategy::name`]), or `unknown` for rows stored before hardest
    /// steps were.
    pub step: String,
    /// Its puzzles in each level, in the order of [`Inventory::levels`].
    pub per_level: Vec<u64>,
}

/// Puzzles with one number of clues, per level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClueRow {
    /// The number of clues.
    pub clues: u32,
    /// Its puzzles in each level, in the order of [`Inventory::levels`].
    pub per_level: Vec<u64>,
}

/// A named rating as `stats` shows it: its name, the puzzles it values and their lowest,
/// median and highest value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamedSummary {
    /// Its name.
    pub name: String,
    /// The puzzles valued.
    pub puzzles: u64,
    /// The lowest value.
    pub lowest: f64,
    /// The median value.
    pub median: f64,
    /// The highest value.
    pub highest: f64,
}

/// A bank's inventory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Inventory {
    /// Stored puzzles.
    pub puzzles: u64,
    /// Of those, served by `get --mark-served` or exported.
    pub served: u64,
    /// The rating percentiles use.
    pub rating: String,
    /// How the reference was made.
    pub reference: String,
    /// Reference puzzles.
    pub reference_size: u64,
    /// The `difficulty` model the bank's ratings were made with (none recorded: a bank that
    /// has not been built into yet). A bank keeps its model until a build re-rates it.
    pub difficulty_model: Option<u32>,
    /// Per level, easiest first.
    pub levels: Vec<LevelCount>,
    /// Puzzles per hardest hsolve tier 0-6.
    pub tiers: Vec<u64>,
    /// The rating histogram, bank and reference.
    pub histogram: Vec<Bin>,
    /// Bank puzzles per reference decile (percentile 0-10, ..., 90-100).
    pub deciles: Vec<u64>,
    /// The cut points between the levels, easiest first.
    pub cuts: Vec<f64>,
    /// Puzzles per hsolve technique family and level: every family, easiest first
    /// ([`Technique::ALL`]).
    pub techniques: Vec<TechniqueRow>,
    /// Puzzles per hardest step and level: the techniques some puzzle needs, easiest first
    /// (`difficulty::LADDER_ORDER`); what `stats` shows as the technique needed.
    pub steps: Vec<StepRow>,
    /// Puzzles per number of clues and level: every count from the fewest stored to the most
    /// (none when the bank is empty).
    pub clues: Vec<ClueRow>,
    /// Whether a level model names the levels (learned from labelled puzzles).
    pub learned: bool,
    /// The bank's named ratings (publishers' numeric scales), by name.
    pub named: Vec<NamedSummary>,
    /// The pairs of adjacent levels whose rating spans overlap (by name).
    pub overlaps: Vec<(String, String)>,
    /// Duplicates rejected by all builds.
    pub duplicates: u64,
    /// Generated puzzles without one solution (bugs; never stored).
    pub rejected: u64,
    /// Puzzles dropped for falling outside the bands a targeted build still needed.
    pub off_band: u64,
    /// Builds run (and merges).
    pub builds: u64,
    /// Of those, not finished: interrupted (Ctrl-C or a crash; the same command resumes one),
    /// or running now.
    pub unfinished: u64,
    /// Distinct seeds the stored puzzles come from.
    pub seeds_used: u64,
    /// Seeds in the bank's seed table.
    pub seeds_known: u64,
    /// Puzzles from the standard generator (no seed, not imported).
    pub standard: u64,
    /// Imports run (`pseudoku import`).
    pub imports: u64,
    /// Puzzles the imports stored.
    pub imported: u64,
    /// Puzzles the imports dropped as duplicates.
    pub import_duplicates: u64,
    /// Entries the imports skipped: bad lines, puzzles without one solution.
    pub import_skipped: u64,
    /// What players' results taught the bank (`POST /v1/results`, `results import`).
    pub play: store::play::PlaySummary,
}

/// `x` to 6 decimals, so reports print `2.5596`, not `2.5595999999999997`.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Reads the inventory of an open bank.
pub fn read(conn: &Bank) -> store::Result<Inventory> {
    let (rating, levels): (RatingKind, LevelSet) = store::settings::levels(conn)?;
    let tally = store::inventory::tally(conn, rating)?;
    let learned = store::settings::get(conn, crate::levels::calibrate::MODEL_KEY)?.is_some();
    let reference = store::settings::reference_values(conn, rating)?;
    let r = (!reference.is_empty()).then(|| crate::levels::Reference::new(reference.clone()));
    let mut counts: Vec<LevelCount> = (0..levels.len())
        .map(|i| {
            let (lo, hi) = levels.bounds(i);
            let pct = |b: Option<f64>, none: f64| match (&r, b) {
                (Some(r), Some(c)) => (r.percentile(c) * 100.0).round() / 100.0,
                _ => none,
            };
            let (puzzles, served) = tally.levels.get(i).copied().unwrap_or_default();
            LevelCount {
                level: levels.name(i).unwrap_or_default().to_string(),
                range: if learned {
                    "learned".to_string()
                } else {
                    crate::retrieve::range_text(&levels, i, rating)
                },
                ratings: tally.spans.get(i).copied().flatten().map(|(a, b)| {
                    (
                        store::puzzles::from_units(a, rating),
                        store::puzzles::from_units(b, rating),
                    )
                }),
                percentiles: (pct(lo, 0.0), pct(hi, 100.0)),
                puzzles,
                served,
                layout: String::new(),
                spread: None,
                quarters: None,
                difficulty_quartiles: tally.difficulties.get(i).and_then(|per| {
                    let mut sample: Vec<(f64, u64)> = per
                        .iter()
                        .map(|(&v, &n)| (store::puzzles::from_units(v, RatingKind::Difficulty), n))
                        .collect();
                    sample.sort_by(|a, b| a.0.total_cmp(&b.0));
                    Quartiles::of(&sample)
                }),
                clue_quartiles: tally.clues.get(i).and_then(|per| {
                    let sample: Vec<(f64, u64)> = per
                        .iter()
                        .enumerate()
                        .map(|(c, &n)| (c as f64, n))
                        .collect();
                    Quartiles::of(&sample)
                }),
                grids: 0,
                most_of_a_grid: 0,
            }
        })
        .collect();
    for (l, per_grid) in counts.iter_mut().zip(grids_per_level(conn, &tally)?) {
        l.grids = per_grid.len() as u64;
        l.most_of_a_grid = per_grid.values().copied().max().unwrap_or(0);
    }
    for l in &mut counts {
        l.layout = store::settings::layout(conn, &l.level)?.unwrap_or_else(|| "none".to_string());
    }
    // The bank's ratings, each with how many puzzles have it.
    let values: Vec<(f64, u64)> = tally
        .ratings
        .iter()
        .map(|(&v, &n)| (store::puzzles::from_units(v, rating), n))
        .collect();
    if let (false, Some(r)) = (learned, &r) {
        let mut sorted = values.clone();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        // The extreme level shares the range of the level below it, whose spread counts the
        // range's puzzles of both.
        for (i, l) in counts.iter_mut().enumerate() {
            if levels.extreme() == Some(i) {
                continue;
            }
            let (lo, hi) = levels.bounds(i);
            let within = |v: f64| lo.is_none_or(|lo| v >= lo) && hi.is_none_or(|hi| v < hi);
            let bank: Vec<(f64, u64)> = sorted.iter().copied().filter(|b| within(b.0)).collect();
            l.spread = ks_distance(&bank, r.within(lo, hi)).map(|d| (d * 1000.0).round() / 1000.0);
            let (plo, phi) = (
                lo.map_or(0.0, |c| r.percentile(c)),
                hi.map_or(100.0, |c| r.percentile(c)),
            );
            l.quarters = l
                .spread
                .and(quarter_shares(&bank, |v| r.percentile(v), plo, phi));
        }
    }
    let mut deciles = vec![0u64; 10];
    if let Some(r) = &r {
        for &(v, n) in &values {
            deciles[((r.percentile(v) / 10.0).floor() as usize).min(9)] += n;
        }
    }
    let mut techniques: Vec<TechniqueRow> = Technique::ALL
        .iter()
        .map(|t| TechniqueRow {
            technique: t.name().to_string(),
            per_level: vec![0; counts.len()],
        })
        .collect();
    for (level, ranks) in tally.techniques.iter().enumerate() {
        for (rank, &n) in ranks.iter().enumerate() {
            let family = Technique::from_rank(rank as u8)
                .and_then(|t| Technique::ALL.iter().position(|&a| a == t));
            if let Some(c) = family.and_then(|t| techniques[t].per_level.get_mut(level)) {
                *c += n;
            }
        }
    }
    let mut steps: Vec<StepRow> = crate::rate::difficulty::LADDER_ORDER
        .iter()
        .map(|&t| (t.name().to_string(), t as usize))
        .chain([("unknown".to_string(), Strategy::COUNT)])
        .map(|(step, code)| StepRow {
            step,
            per_level: (0..counts.len())
                .map(|l| tally.steps.get(l).map_or(0, |per| per[code]))
                .collect(),
        })
        .collect();
    steps.retain(|r| r.per_level.iter().any(|&n| n > 0));
    // The extreme level shares its range with the level below it by design.
    let shared = levels.extreme().map(|e| e - 1);
    let overlaps = counts
        .windows(2)
        .enumerate()
        .filter(|&(i, _)| shared != Some(i))
        .map(|(_, w)| w)
        .filter(|w| matches!((w[0].ratings, w[1].ratings), (Some(a), Some(b)) if a.1 > b.0))
        .map(|w| (w[0].level.clone(), w[1].level.clone()))
        .collect();
    let used = |n: usize| tally.clues.iter().any(|per| per[n] > 0);
    let fewest = (0..82).find(|&n| used(n));
    let most = (0..82).rev().find(|&n| used(n));
    let clues: Vec<ClueRow> = fewest
        .zip(most)
        .map_or(0..0, |(f, m)| f..m + 1)
        .map(|n| ClueRow {
            clues: n as u32,
            per_level: (0..counts.len())
                .map(|l| tally.clues.get(l).map_or(0, |per| per[n]))
                .collect(),
        })
        .collect();
    let totals = store::inventory::build_totals(conn)?;
    Ok(Inventory {
        puzzles: tally.puzzles,
        served: tally.served,
        rating: rating.name().to_string(),
        reference: store::settings::get(conn, "reference")?.unwrap_or_else(|| "none yet".into()),
        reference_size: reference.len() as u64,
        difficulty_model: store::settings::get(conn, "difficulty_model")?
            .and_then(|m| m.parse().ok()),
        levels: counts,
        tiers: tally.tiers.to_vec(),
        histogram: histogram(&values, &reference),
        deciles,
        cuts: levels.cuts().iter().map(|&c| round6(c)).collect(),
        techniques,
        steps,
        clues,
        learned,
        named: store::named::summary(conn)?
            .into_iter()
            .map(|n| NamedSummary {
                name: n.name,
                puzzles: n.puzzles,
                lowest: n.values.0,
                median: n.values.1,
                highest: n.values.2,
            })
            .collect(),
        overlaps,
        duplicates: totals.duplicates,
        rejected: totals.rejected,
        off_band: totals.off_band,
        builds: totals.builds,
        unfinished: totals.unfinished,
        seeds_used: tally.seeds.len() as u64,
        seeds_known: totals.seeds_known,
        standard: tally.without_seed.saturating_sub(totals.imported),
        imports: totals.imports,
        imported: totals.imported,
        import_duplicates: totals.import_duplicates,
        import_skipped: totals.import_skipped,
        play: store::play::summary(conn)?,
    })
}

/// The puzzles of each solution grid (by its class key) per level: a seed's puzzles have its
/// solution grid (a symmetry of it); a puzzle without a seed is solved.
fn grids_per_level(
    conn: &Bank,
    tally: &store::inventory::Tally,
) -> store::Result<Vec<HashMap<Key, u64>>> {
    use rayon::prelude::*;
    let unseeded = if tally.without_seed > 0 {
        store::inventory::unseeded(conn)?
    } else {
        Vec::new()
    };
    let seed_grids: HashMap<i64, Key> = store::seeds::all(conn)?
        .into_par_iter()
        .filter(|(id, _)| tally.seeds.contains(id))
        .filter_map(|(id, row)| {
            let solution = crate::grid::Puzzle::parse_line(&row.solution).ok()?;
            let grid = crate::grid::Grid::from_puzzle(solution).ok()?;
            Some((id, crate::canon::canonical_grid(&grid).key()))
        })
        .collect();
    let solved: Vec<(u32, Key)> = unseeded
        .par_iter()
        .filter_map(|(level, p)| {
            let grid = crate::solve::solve(p).unique()?;
            Some((*level, crate::canon::canonical_grid(&grid).key()))
        })
        .collect();
    let mut out: Vec<HashMap<Key, u64>> = Vec::new();
    let mut add = |level: u32, key: Key, n: u64| {
        let level = level as usize;
        if out.len() <= level {
            out.resize_with(level + 1, HashMap::new);
        }
        *out[level].entry(key).or_default() += n;
    };
    for (level, per_seed) in tally.level_seeds.iter().enumerate() {
        for (seed, &n) in per_seed {
            if let Some(&key) = seed_grids.get(seed) {
                add(level as u32, key, n);
            }
        }
    }
    for (level, key) in solved {
        add(level, key, 1);
    }
    Ok(out)
}

/// The Kolmogorov-Smirnov distance between two samples, `bank` (ascending values with their
/// counts) and `reference` (ascending): the largest difference between their cumulative
/// distributions. None when either is empty.
pub fn ks_distance(bank: &[(f64, u64)], reference: &[f64]) -> Option<f64> {
    let nb: u64 = bank.iter().map(|b| b.1).sum();
    let nr = reference.len();
    if nb == 0 || nr == 0 {
        return None;
    }
    let (mut i, mut j, mut below_b, mut d) = (0, 0, 0u64, 0f64);
    while i < bank.len() || j < nr {
        // The next value of either sample, with every copy of it in both taken at once.
        let x = match (bank.get(i), reference.get(j)) {
            (Some(b), Some(&r)) => b.0.min(r),
            (Some(b), None) => b.0,
            (None, Some(&r)) => r,
            (None, None) => break,
        };
        while i < bank.len() && bank[i].0 <= x {
            below_b += bank[i].1;
            i += 1;
        }
        while j < nr && reference[j] <= x {
            j += 1;
        }
        d = d.max((below_b as f64 / nb as f64 - j as f64 / nr as f64).abs());
    }
    Some(d)
}

/// The shares (percent, one decimal) of `bank` (values with their counts) in each quarter of
/// the percentile range `low..high`, a value's percentile being `percentile(value)` (one
/// below `low` counts in the first quarter, one at or above `high` in the last), rounded so
/// that they sum to 100 (tenths by the largest remainder). None for an empty bank or range.
pub fn quarter_shares(
    bank: &[(f64, u64)],
    percentile: impl Fn(f64) -> f64,
    low: f64,
    high: f64,
) -> Option<[f64; 4]> {
    let total: u64 = bank.iter().map(|b| b.1).sum();
    if total == 0 || high <= low {
        return None;
    }
    let mut counts = [0u64; 4];
    for &(v, n) in bank {
        let k = ((percentile(v) - low) / (high - low) * 4.0).floor();
        counts[k.clamp(0.0, 3.0) as usize] += n;
    }
    Some(shares(counts, total))
}

/// `counts` (summing to `total`, not 0) as percentages in tenths that sum to exactly 100:
/// each share rounded down to a tenth, and the tenths left given to the largest remainders
/// (the earlier quarter first among equal ones).
fn shares(counts: [u64; 4], total: u64) -> [f64; 4] {
    let tenths = counts.map(|c| 1000 * c / total);
    let mut order = [0, 1, 2, 3];
    order.sort_by_key(|&k| std::cmp::Reverse(1000 * counts[k] % total));
    let mut tenths = tenths;
    let left = 1000 - tenths.iter().sum::<u64>();
    for &k in order.iter().take(left as usize) {
        tenths[k] += 1;
    }
    tenths.map(|t| t as f64 / 10.0)
}

/// [`BINS`] equal bins over the range of both lists (the bank's as values with their counts).
fn histogram(bank: &[(f64, u64)], reference: &[f64]) -> Vec<Bin> {
    let all = bank.iter().map(|b| &b.0).chain(reference);
    let lo = all.clone().copied().fold(f64::INFINITY, f64::min);
    let hi = all.copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return Vec::new();
    }
    let width = ((hi - lo) / BINS as f64).max(1e-9);
    let mut bins: Vec<Bin> = (0..BINS)
        .map(|i| Bin {
            low: round6(lo + i as f64 * width),
            high: round6(lo + (i + 1) as f64 * width),
            bank: 0,
            reference: 0,
        })
        .collect();
    let at = |v: f64| (((v - lo) / width) as usize).min(BINS - 1);
    for &(v, n) in bank {
        bins[at(v)].bank += n;
    }
    for &v in reference {
        bins[at(v)].reference += 1;
    }
    bins
}

impl Inventory {
    /// The inventory as readable tables.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let _ = writeln!(
            s,
            "{} puzzles ({} served); percentiles by {} against the reference ({}, {} puzzles)",
            self.puzzles, self.served, self.rating, self.reference, self.reference_size
        );
        match self.difficulty_model {
            Some(m) if m != crate::rate::difficulty::MODEL => {
                let _ = writeln!(
                    s,
                    "rated by difficulty model {m}; this program rates with model {}: \
                     the next build on this bank re-rates it",
                    crate::rate::difficulty::MODEL
                );
            }
            Some(m) => {
                let _ = writeln!(s, "rated by difficulty model {m}");
            }
            None => {}
        }
        let _ = writeln!(
            s,
            "\nlevel\t{}\treference percentiles\tpuzzles\tshare\tserved\t{} of its puzzles\tspread (KS)\tgrids (puzzles a grid: mean, most)\tlayout",
            self.rating, self.rating
        );
        for l in &self.levels {
            let _ = writeln!(
                s,
                "{}\t{}\t{}\t{}\t{:.1}%\t{}\t{}\t{}\t{}\t{}",
                l.level,
                l.range,
                if self.learned {
                    "-".to_string()
                } else {
                    format!("{}-{}", l.percentiles.0, l.percentiles.1)
                },
                l.puzzles,
                pct(l.puzzles, self.puzzles),
                l.served,
                l.ratings
                    .map_or("-".to_string(), |(a, b)| format!("{a}..{b}")),
                l.spread.map_or("-".to_string(), |d| format!("{d:.3}")),
                if l.grids == 0 {
                    "-".to_string()
                } else {
                    format!(
                        "{} ({:.1}, {})",
                        l.grids,
                        l.puzzles as f64 / l.grids as f64,
                        l.most_of_a_grid
                    )
                },
                l.layout
            );
        }
        if self.learned {
            let _ = writeln!(
                s,
                "the levels were learned from labelled puzzles (`calibrate --labelled`): a \
                 puzzle's level is the model's, not a range of {}",
                self.rating
            );
        }
        for (a, b) in &self.overlaps {
            let _ = writeln!(s, "levels {a} and {b} overlap in {}", self.rating);
        }
        s.push('\n');
        s.push_str(&self.spread_table());
        if !self.named.is_empty() {
            let _ = writeln!(s, "\nnamed rating\tpuzzles\tlowest\tmedian\thighest");
            for n in &self.named {
                let _ = writeln!(
                    s,
                    "{}\t{}\t{}\t{}\t{}",
                    n.name, n.puzzles, n.lowest, n.median, n.highest
                );
            }
        }
        let _ = writeln!(s, "\nhsolve tier\tpuzzles");
        for (t, n) in self.tiers.iter().enumerate() {
            let _ = writeln!(s, "{t}\t{n}");
        }
        let _ = writeln!(s, "\nreference decile\tbank puzzles\tshare");
        for (i, n) in self.deciles.iter().enumerate() {
            let _ = writeln!(
                s,
                "{}-{}\t{n}\t{:.1}%",
                10 * i,
                10 * (i + 1),
                pct(*n, self.puzzles)
            );
        }
        let _ = writeln!(
            s,
            "\n{} from\t{} to\tbank\treference",
            self.rating, self.rating
        );
        for b in &self.histogram {
            let _ = writeln!(
                s,
                "{:.3}\t{:.3}\t{}\t{}",
                b.low, b.high, b.bank, b.reference
            );
        }
        let names: Vec<&str> = self.levels.iter().map(|l| l.level.as_str()).collect();
        let _ = writeln!(s, "\ntechnique needed (hardest step)\t{}", names.join("\t"));
        for t in &self.steps {
            let _ = writeln!(s, "{}\t{}", t.step, join(&t.per_level));
        }
        let _ = writeln!(s, "\nhsolve family\t{}", names.join("\t"));
        for t in &self.techniques {
            let _ = writeln!(s, "{}\t{}", t.technique, join(&t.per_level));
        }
        let _ = writeln!(s, "\nclues\t{}", names.join("\t"));
        for c in &self.clues {
            let _ = writeln!(s, "{}\t{}", c.clues, join(&c.per_level));
        }
        let _ = writeln!(
            s,
            "\nbuilds {} ({} unfinished: interrupted, or running now); duplicates rejected {}; off band {}; not unique {}; seeds used {} of {}; standard generator {}",
            self.builds,
            self.unfinished,
            self.duplicates,
            self.off_band,
            self.rejected,
            self.seeds_used,
            self.seeds_known,
            self.standard
        );
        if self.imports > 0 {
            let _ = writeln!(
                s,
                "imports {}: {} puzzles stored, {} duplicates, {} lines skipped",
                self.imports, self.imported, self.import_duplicates, self.import_skipped
            );
        }
        let p = &self.play;
        if p.results > 0 {
            let _ = write!(
                s,
                "play: {} results ({} solved{}) from {} players; {} puzzles learned",
                p.results,
                p.solved,
                p.median_seconds
                    .map(|m| format!(", median {m:.0} s"))
                    .unwrap_or_default(),
                p.players,
                p.puzzles,
            );
            if let Some((rating, deviation)) = p.puzzle_rating {
                let _ = write!(s, " (mean rating {rating:.0}, deviation {deviation:.0})");
            }
            let _ = writeln!(s);
            if !p.per_level.is_empty() {
                let _ = writeln!(s, "level\tlearned\tmean rating\tmean results");
                for &(i, n, rating, results) in &p.per_level {
                    let name = self
                        .levels
                        .get(i as usize)
                        .map_or_else(|| i.to_string(), |l| l.level.clone());
                    let _ = writeln!(s, "{name}\t{n}\t{rating:.0}\t{results:.1}");
                }
            }
        }
        s
    }
}

impl Inventory {
    /// Per level, how its puzzles spread: the quartiles of `difficulty` and of clues and the
    /// shares of the quarters of its reference-percentile range, in columns aligned with
    /// spaces under a two-line header (`-` for what a level does not have).
    fn spread_table(&self) -> String {
        let quartiles = |q: Option<Quartiles>, text: &dyn Fn(f64) -> String| match q {
            Some(q) => [q.q1, q.median, q.q3].map(text),
            None => ["-", "-", "-"].map(str::to_string),
        };
        let mut rows: Vec<Vec<String>> = vec![
            [
                "",
                "difficulty",
                "",
                "",
                "clues",
                "",
                "",
                "quarters of the range",
                "",
                "",
                "",
            ]
            .map(str::to_string)
            .to_vec(),
            [
                "level", "Q1", "median", "Q3", "Q1", "median", "Q3", "1st", "2nd", "3rd", "4th",
            ]
            .map(str::to_string)
            .to_vec(),
        ];
        for l in &self.levels {
            let mut row = vec![l.level.clone()];
            row.extend(quartiles(l.difficulty_quartiles, &|x| format!("{x:.3}")));
            row.extend(quartiles(l.clue_quartiles, &|x| {
                format!("{x:.2}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            }));
            match l.quarters {
                Some(q) => row.extend(q.map(|x| format!("{x:.1}%"))),
                None => row.extend(["-"; 4].map(str::to_string)),
            }
            rows.push(row);
        }
        // Each column as wide as its widest cell, two spaces between columns and four between
        // groups; a group's title starts over its first column (its last column widened when
        // the title is longer than the group).
        let columns = rows[1].len();
        let groups = [(1, 3), (4, 3), (7, 4)];
        let gap = |c: usize| {
            if groups.iter().any(|g| g.0 == c) {
                4
            } else {
                2
            }
        };
        let mut width: Vec<usize> = (0..columns)
            .map(|c| rows[1..].iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        for (first, span) in groups {
            let title = rows[0][first].len();
            let spanned = width[first..first + span].iter().sum::<usize>() + 2 * (span - 1);
            width[first + span - 1] += title.saturating_sub(spanned);
        }
        let mut out = String::new();
        for (i, row) in rows.iter().enumerate() {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if i == 0 && c > 0 {
                    // A group's title spans the group's columns.
                    if let Some(&(first, span)) = groups.iter().find(|g| g.0 == c) {
                        let room =
                            width[first..first + span].iter().sum::<usize>() + 2 * (span - 1);
                        line.push_str(&" ".repeat(gap(c)));
                        let _ = write!(line, "{cell:<room$}");
                    }
                    continue;
                }
                if c > 0 {
                    line.push_str(&" ".repeat(gap(c)));
                }
                if c == 0 {
                    let _ = write!(line, "{cell:<w$}", w = width[c]);
                } else {
                    let _ = write!(line, "{cell:>w$}", w = width[c]);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// Counts separated by tabs.
fn join(counts: &[u64]) -> String {
    counts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("\t")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers: the percentile is the value here; quarters of 20..60 are 20-30, 30-40,
    /// 40-50 and 50-60, values outside count at the nearer end, counts weigh values.
    #[test]
    fn quarter_shares_of_known_samples() {
        let bank = [
            (21.0, 1),
            (29.9, 1),
            (30.0, 2),
            (45.0, 1),
            (59.0, 3),
            (75.0, 1),
            (5.0, 1),
        ];
        assert_eq!(
            quarter_shares(&bank, |v| v, 20.0, 60.0),
            Some([30.0, 20.0, 10.0, 40.0])
        );
        assert_eq!(quarter_shares(&[], |v| v, 20.0, 60.0), None);
        assert_eq!(quarter_shares(&bank, |v| v, 60.0, 60.0), None);
    }

    /// Known answers, as a spreadsheet's QUARTILE.INC gives them: 1, 2, 3, 4 has quartiles
    /// 1.75, 2.5, 3.25; counts weigh values; one value is its own quartiles; none, none.
    #[test]
    fn quartiles_of_known_samples() {
        let q = |q1, median, q3| Some(Quartiles { q1, median, q3 });
        let ones = |v: &[f64]| v.iter().map(|&x| (x, 1)).collect::<Vec<_>>();
        assert_eq!(
            Quartiles::of(&ones(&[1.0, 2.0, 3.0, 4.0])),
            q(1.75, 2.5, 3.25)
        );
        assert_eq!(
            Quartiles::of(&ones(&[1.0, 2.0, 3.0, 4.0, 5.0])),
            q(2.0, 3.0, 4.0)
        );
        // 27, 27, 28, 30, 30, 30 (with a count of 0 between).
        let clues = [(27.0, 2), (28.0, 1), (29.0, 0), (30.0, 3)];
        assert_eq!(Quartiles::of(&clues), q(27.25, 29.0, 30.0));
        assert_eq!(Quartiles::of(&[(7.5, 1)]), q(7.5, 7.5, 7.5));
        assert_eq!(Quartiles::of(&[]), None);
        assert_eq!(Quartiles::of(&[(3.0, 0)]), None);
    }

    /// Shares in tenths of a percent always sum to 100: thirds give the spare tenth to the
    /// first of the equal remainders.
    #[test]
    fn quarter_shares_sum_to_100() {
        assert_eq!(shares([1, 1, 1, 0], 3), [33.4, 33.3, 33.3, 0.0]);
        assert_eq!(shares([1, 2, 3, 1], 7), [14.3, 28.6, 42.8, 14.3]);
        for counts in [[1, 1, 1, 0], [1, 2, 3, 1], [5, 0, 0, 0], [3, 3, 3, 2]] {
            let total = counts.iter().sum();
            let tenths: f64 = shares(counts, total).iter().map(|s| s * 10.0).sum();
            assert_eq!(tenths.round(), 1000.0, "{counts:?}");
        }
    }

    /// Known answers: the same sample is 0 apart, two apart samples 1, and a sample shifted by
    /// one of four values 1/4; counts weigh values; order does not matter between the two.
    #[test]
    fn ks_distance_of_known_samples() {
        let r = [1.0, 2.0, 3.0, 4.0];
        let same: Vec<(f64, u64)> = r.iter().map(|&v| (v, 1)).collect();
        assert_eq!(ks_distance(&same, &r), Some(0.0));
        assert_eq!(ks_distance(&[(5.0, 3)], &r), Some(1.0));
        assert_eq!(ks_distance(&[(0.0, 7)], &r), Some(1.0));
        let shifted = [(2.0, 1), (3.0, 1), (4.0, 1), (5.0, 1)];
        assert_eq!(ks_distance(&shifted, &r), Some(0.25));
        // Twice the same values is the same distribution; all on the lowest value is 3/4 off.
        let doubled: Vec<(f64, u64)> = r.iter().map(|&v| (v, 2)).collect();
        assert_eq!(ks_distance(&doubled, &r), Some(0.0));
        assert_eq!(ks_distance(&[(1.0, 4)], &r), Some(0.75));
        // Symmetric in the two samples.
        let back: Vec<f64> = shifted.iter().map(|b| b.0).collect();
        assert_eq!(ks_distance(&same, &back), Some(0.25));
        assert_eq!(ks_distance(&[], &r), None);
        assert_eq!(ks_distance(&same, &[]), None);
    }
}
