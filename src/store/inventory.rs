//! The counts `stats` shows, read in one pass over the puzzles: per level (with the span of
//! its ratings), tier, stored rating, level and technique family, level and hardest step,
//! level and clue count, level and `difficulty`; the builds' bookkeeping summed; the seeds
//! used.

use super::Result;
use crate::scale::RatingKind;
use crate::technique::Strategy;
use rusqlite::Connection;
use super::Bank;
use std::collections::{HashMap, HashSet};

/// What `stats` counts over the stored puzzles, in one pass over the table (a bank of
/// 10,000,000 rows is read once, not once per table of the report).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Stored puzzles.
    pub puzzles: u64,
    /// Of those, served.
    pub served: u64,
    /// Puzzles and served puzzles per level (0 = easiest), as far as the highest stored level.
    pub levels: Vec<(u64, u64)>,
    /// The smallest and largest stored rating (whole units) per level; `None` for a level
    /// without a rated puzzle.
    pub spans: Vec<Option<(i64, i64)>>,
    /// Puzzles per hardest hsolve tier (tiers past 6 counted as 6).
    pub tiers: [u64; 7],
    /// Puzzles per stored value of the bank's rating (whole units; see
    /// [`super::puzzles::from_units`]); puzzles without one (before the backfill) are left out.
    pub ratings: HashMap<i64, u64>,
    /// Puzzles per level and hardest technique family's rank (index 1-5; 0 for none);
    /// puzzles without a level left out.
    pub techniques: Vec<[u64; 6]>,
    /// Puzzles per level and clue count (index 0-81); puzzles without a level left out.
    pub clues: Vec<[u64; 82]>,
    /// Puzzles per level and stored `difficulty` (thousandths, whatever the bank's rating);
    /// puzzles without a level or a `difficulty` left out.
    pub difficulties: Vec<HashMap<i64, u64>>,
    /// Puzzles per level and hardest step ([`Strategy::code`]; index [`Strategy::COUNT`] for
    /// a row stored before hardest steps were); puzzles without a level left out.
    pub steps: Vec<[u64; Strategy::COUNT + 1]>,
    /// The distinct seeds (row ids) the puzzles come from.
    pub seeds: HashSet<i64>,
    /// Puzzles per level and seed (row id); puzzles without a level or a seed left out.
    pub level_seeds: Vec<HashMap<i64, u64>>,
    /// Puzzles made by a generator (no seed).
    pub without_seed: u64,
}

impl Tally {
    /// Makes room for level `level`.
    fn grow(&mut self, level: usize) {
        if self.levels.len() <= level {
            self.levels.resize(level + 1, (0, 0));
            self.spans.resize(level + 1, None);
            self.steps.resize(level + 1, [0; Strategy::COUNT + 1]);
            self.techniques.resize(level + 1, [0; 6]);
            self.clues.resize(level + 1, [0; 82]);
            self.difficulties.resize_with(level + 1, HashMap::new);
            self.level_seeds.resize_with(level + 1, HashMap::new);
        }
    }

    /// Adds the counts of `other`.
    fn add(&mut self, other: Tally) {
        self.puzzles += other.puzzles;
        self.served += other.served;
        if let Some(last) = other.levels.len().checked_sub(1) {
            self.grow(last);
        }
        for (i, l) in other.levels.iter().enumerate() {
            self.levels[i].0 += l.0;
            self.levels[i].1 += l.1;
            for (a, b) in self.techniques[i].iter_mut().zip(&other.techniques[i]) {
                *a += b;
            }
            for (a, b) in self.clues[i].iter_mut().zip(&other.clues[i]) {
                *a += b;
            }
            for (a, b) in self.steps[i].iter_mut().zip(&other.steps[i]) {
                *a += b;
            }
            self.spans[i] = span(self.spans[i], other.spans[i]);
        }
        for (i, per_value) in other.difficulties.into_iter().enumerate() {
            for (v, n) in per_value {
                *self.difficulties[i].entry(v).or_default() += n;
            }
        }
        for (i, per_seed) in other.level_seeds.into_iter().enumerate() {
            for (seed, n) in per_seed {
                *self.level_seeds[i].entry(seed).or_default() += n;
            }
        }
        for (a, b) in self.tiers.iter_mut().zip(other.tiers) {
            *a += b;
        }
        for (v, n) in other.ratings {
            *self.ratings.entry(v).or_default() += n;
        }
        self.seeds.extend(other.seeds);
        self.without_seed += other.without_seed;
    }
}

/// The span of two spans (min and max).
fn span(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, None) => a,
        (None, b) => b,
    }
}

/// Ratings (in stored units) and seed ids below this are counted in arrays while scanning.
const DENSE: usize = 1 << 16;

/// Counts the stored puzzles for `stats`, `rating` being the bank's rating: the id range is
/// split among the machine's cores, each part read by its own connection (the parts are read
/// at nearly the same moment; a build writing meanwhile may be counted in some parts only).
pub fn tally(bank: &Bank, rating: RatingKind) -> Result<Tally> {
    let conn = &bank.conn;
    let (lo, hi): (Option<i64>, Option<i64>) =
        conn.query_row(super::retrieval::SPAN, [], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Ok(Tally::default());
    };
    let sql = format!(
        "SELECT {}, tier, served_at IS NOT NULL, level, technique, clues, seed_id, step, difficulty
         FROM puzzles WHERE id >= ?1 AND id < ?2",
        super::puzzles::column(rating)
    );
    let parts = std::thread::available_parallelism().map_or(1, |n| n.get()) as i64;
    let step = ((hi - lo + 1 + parts - 1) / parts).max(1);
    let path = conn.path().filter(|p| !p.is_empty()).map(str::to_string);
    let scan = |c: &Connection, from: i64, to: i64| -> Result<Tally> {
        let mut t = Tally::default();
        let mut stmt = c.prepare(&sql)?;
        let mut rows = stmt.query([from, to])?;
        // Ratings and seed ids are small integers: counted in arrays (what does not fit, in
        // the maps), without hashing every row.
        let mut ratings = vec![0u64; DENSE];
        let mut seeds = vec![false; DENSE];
        while let Some(r) = rows.next()? {
            let seed = r.get::<_, Option<i64>>(6)?;
            match seed {
                None => t.without_seed += 1,
                Some(id) => match usize::try_from(id).ok().filter(|&i| i < DENSE) {
                    Some(i) => seeds[i] = true,
                    None => {
                        t.seeds.insert(id);
                    }
                },
            }
            let served: bool = r.get(2)?;
            t.puzzles += 1;
            t.served += u64::from(served);
            let value = r.get::<_, Option<i64>>(0)?;
            if let Some(v) = value {
                match usize::try_from(v).ok().filter(|&i| i < DENSE) {
                    Some(i) => ratings[i] += 1,
                    None => *t.ratings.entry(v).or_default() += 1,
                }
            }
            let tier: i64 = r.get(1)?;
            t.tiers[tier.clamp(0, 6) as usize] += 1;
            if let Some(level) = r.get::<_, Option<i64>>(3)? {
                let i = level.max(0) as usize;
                t.grow(i);
                t.levels[i].0 += 1;
                t.levels[i].1 += u64::from(served);
                let technique: i64 = r.get(4)?;
                t.techniques[i][technique.clamp(0, 5) as usize] += 1;
                let clues: i64 = r.get(5)?;
                t.clues[i][clues.clamp(0, 81) as usize] += 1;
                if let Some(d) = r.get::<_, Option<i64>>(8)? {
                    *t.difficulties[i].entry(d).or_default() += 1;
                }
                let step = r
                    .get::<_, Option<i64>>(7)?
                    .and_then(|c| usize::try_from(c).ok())
                    .filter(|&c| c < Strategy::COUNT)
                    .unwrap_or(Strategy::COUNT);
                t.steps[i][step] += 1;
                t.spans[i] = span(t.spans[i], value.map(|v| (v, v)));
                if let Some(seed) = seed {
                    *t.level_seeds[i].entry(seed).or_default() += 1;
                }
            }
        }
        for (v, &n) in ratings.iter().enumerate().filter(|(_, &n)| n > 0) {
            *t.ratings.entry(v as i64).or_default() += n;
        }
        t.seeds
            .extend((0..DENSE).filter(|&i| seeds[i]).map(|i| i as i64));
        Ok(t)
    };
    let Some(path) = path.filter(|_| parts > 1) else {
        return scan(conn, lo, hi + 1);
    };
    let tallies: Vec<Result<Tally>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..parts)
            .map(|k| {
                let (from, to) = (lo + k * step, (lo + (k + 1) * step).min(hi + 1));
                let (path, scan) = (&path, &scan);
                s.spawn(move || {
                    let c = super::open_read_only(std::path::Path::new(path))?;
                    scan(&c.conn, from, to)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a tally thread"))
            .collect()
    });
    let mut total = Tally::default();
    for t in tallies {
        total.add(t?);
    }
    Ok(total)
}

/// The builds' bookkeeping summed over every build (imports apart), and the seeds known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildTotals {
    /// Builds run (and merges; not imports).
    pub builds: u64,
    /// Builds not finished: interrupted (stopped or crashed), or running now.
    pub unfinished: u64,
    /// Duplicates rejected.
    pub duplicates: u64,
    /// Generated puzzles without one solution.
    pub rejected: u64,
    /// Puzzles dropped for falling outside the bands still open.
    pub off_band: u64,
    /// Seeds in the bank's seed table.
    pub seeds_known: u64,
    /// Imports run (`pseudoku import`: a build row with a source file).
    pub imports: u64,
    /// Puzzles the imports stored.
    pub imported: u64,
    /// Puzzles the imports dropped as duplicates.
    pub import_duplicates: u64,
    /// Entries the imports skipped: bad lines, puzzles without one solution.
    pub import_skipped: u64,
}

/// The totals of [`BuildTotals`].
pub fn build_totals(bank: &Bank) -> Result<BuildTotals> {
    let conn = &bank.conn;
    let count = |sql: &str| -> Result<u64> {
        Ok(conn
            .query_row(sql, [], |r| r.get::<_, Option<i64>>(0))?
            .unwrap_or(0) as u64)
    };
    Ok(BuildTotals {
        builds: count("SELECT COUNT(*) FROM builds WHERE source IS NULL")?,
        unfinished: count("SELECT COUNT(*) FROM builds WHERE status <> 'done'")?,
        duplicates: count("SELECT SUM(duplicates) FROM builds WHERE source IS NULL")?,
        rejected: count("SELECT SUM(rejected) FROM builds WHERE source IS NULL")?,
        off_band: count("SELECT SUM(off_band) FROM builds WHERE source IS NULL")?,
        seeds_known: count("SELECT COUNT(*) FROM seeds")?,
        imports: count("SELECT COUNT(*) FROM builds WHERE source IS NOT NULL")?,
        imported: count("SELECT SUM(stored) FROM builds WHERE source IS NOT NULL")?,
        import_duplicates: count("SELECT SUM(duplicates) FROM builds WHERE source IS NOT NULL")?,
        import_skipped: count("SELECT SUM(rejected) FROM builds WHERE source IS NOT NULL")?,
    })
}

/// The stored puzzles without a seed (imports, the standard generator) that have a level,
/// with their level, for counting their solution grids.
pub fn unseeded(bank: &Bank) -> Result<Vec<(u32, crate::grid::Puzzle)>> {
    let conn = &bank.conn;
    let mut out = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT id, level, puzzle FROM puzzles WHERE level IS NOT NULL AND seed_id IS NULL",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id = r.get(0)?;
        let puzzle = super::puzzles::stored_puzzle(r.get_ref(2)?).map_err(|e| {
            super::StoreError::Damaged {
                id,
                what: e.to_string(),
            }
        })?;
        out.push((r.get(1)?, puzzle));
    }
    Ok(out)
}
