//! Retrieval: random unserved puzzles of a percentile range or a level through the indexes of
//! unserved puzzles (no table scan), marked served in the same write transaction when asked.

use super::puzzles::{column, first_unit, from_units, hardest_of, stored_puzzle};
use super::{Result, StoreError};
use crate::canon::Key;
use crate::grid::Puzzle;
use crate::rng::Rng;
use crate::scale::{PercentileRange, RatingKind, Reference};
use crate::technique::{HardestStep, Strategy};
use rusqlite::{params_from_iter, Connection, OptionalExtension};
use super::Bank;
use std::collections::HashSet;

/// A stored puzzle as a draw reads it: the row's values, decoded. What it is handed out as
/// (its level's name, its solution, its percentile) is made above the store.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its row id.
    pub id: i64,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its class key.
    pub key: Key,
    /// Its `difficulty` rating (`None` for a row an older version stored and no build has
    /// rated yet).
    pub difficulty: Option<f64>,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// Its value of the rating the bank's percentiles use (one of the two above).
    pub rating: f64,
    /// Its seed's row id (`None` for a puzzle of a generator).
    pub seed_id: Option<i64>,
    /// Its level's index (0 = easiest; `None` until a backfill gives it one).
    pub level: Option<u32>,
    /// The hardest step it needs (`None` for a row an older version stored that no build or
    /// calibration has re-rated yet).
    pub hardest: Option<HardestStep>,
}

/// Which range of the bank's scale a draw is among: a percentile range, a level, or all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Within {
    /// The puzzles whose percentile lies in the range.
    Percentiles(PercentileRange),
    /// The puzzles of the level with this index (0 = easiest).
    Level(u32),
    /// Every puzzle.
    All,
}

/// How a bank measures its puzzles when they are read: its rating and the reference its
/// percentiles are measured against (percentiles are not stored).
#[derive(Clone, Copy, Debug)]
pub struct Measure<'r> {
    /// The bank's rating.
    pub rating: RatingKind,
    /// Its reference distribution.
    pub reference: &'r Reference,
}

impl Measure<'_> {
    /// The stored values `[low, high)` of the rating whose percentiles lie in `range`: exact
    /// (each bound is the first stored value past the range's edge).
    pub fn stored_range(&self, range: PercentileRange) -> (i64, i64) {
        let r = self.reference;
        let low = first_unit(self.rating, |v| r.percentile(v) >= range.low);
        let high = first_unit(self.rating, |v| {
            let p = r.percentile(v);
            if range.closed {
                p > range.high
            } else {
                p >= range.high
            }
        });
        (low, high)
    }
}

/// Which puzzles a draw is among: those of a [`Within`], narrowed when asked to the puzzles
/// whose hardest step is one technique (`get --technique`) and to a range of a named rating
/// (`get --rating NAME --range A..B`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// The range of the bank's scale.
    pub within: Within,
    /// The hardest step the puzzles need, if only one is wanted.
    pub step: Option<Strategy>,
    /// A range of a named rating the puzzles' values lie in, if one is wanted.
    pub named: Option<NamedRange>,
}

/// A range of a named rating: the rating's id in the bank and the bounds, both included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NamedRange {
    /// The named rating's id ([`super::named::id`]).
    pub id: i64,
    /// The lowest value.
    pub low: f64,
    /// The highest value.
    pub high: f64,
}

impl From<Within> for Selection {
    fn from(within: Within) -> Selection {
        Selection {
            within,
            step: None,
            named: None,
        }
    }
}

/// How a condition tests a puzzle's named rating: one puzzle by id (a key lookup), or a
/// listing (the values' index drives it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    ById,
    Listing,
}

impl Selection {
    /// The condition of an unserved puzzle of it, with its parameters (?1, ?2, ...).
    fn condition(self, m: Measure) -> (String, Vec<rusqlite::types::Value>) {
        let (cond, params) = self.any_condition(m);
        (format!("{cond} AND served_at IS NULL"), params)
    }

    /// [`Selection::condition`] for a listing of the puzzles.
    fn list_condition(self, m: Measure) -> (String, Vec<rusqlite::types::Value>) {
        let (cond, params) = self.condition_as(m, Form::Listing);
        (format!("{cond} AND served_at IS NULL"), params)
    }

    /// The condition of any puzzle of it, served or not (per-user draws), with its parameters
    /// (?1, ?2, ...).
    pub(super) fn any_condition(self, m: Measure) -> (String, Vec<rusqlite::types::Value>) {
        self.condition_as(m, Form::ById)
    }

    /// [`Selection::any_condition`] for a listing of the puzzles.
    pub(super) fn any_list_condition(self, m: Measure) -> (String, Vec<rusqlite::types::Value>) {
        self.condition_as(m, Form::Listing)
    }

    /// The condition of any puzzle of it in the form asked.
    fn condition_as(self, m: Measure, form: Form) -> (String, Vec<rusqlite::types::Value>) {
        let (mut cond, mut params): (String, Vec<rusqlite::types::Value>) = match self.within {
            Within::Percentiles(range) => {
                let (low, high) = m.stored_range(range);
                let col = column(m.rating);
                (
                    format!("{col} >= ?1 AND {col} < ?2"),
                    vec![low.into(), high.into()],
                )
            }
            Within::Level(i) => ("level = ?1".to_string(), vec![i64::from(i).into()]),
            Within::All => ("1".to_string(), Vec::new()),
        };
        if let Some(step) = self.step {
            params.push(i64::from(step.code()).into());
            cond = format!("step = ?{} AND {cond}", params.len());
        }
        if let Some(n) = self.named {
            let at = params.len();
            params.extend([n.id.into(), n.low.into(), n.high.into()]);
            let values = format!(
                "FROM named_ratings WHERE rating_id = ?{} AND value >= ?{} AND value <= ?{}",
                at + 1,
                at + 2,
                at + 3
            );
            cond = match form {
                Form::ById => format!("EXISTS (SELECT 1 {values} AND puzzle_id = id) AND {cond}"),
                Form::Listing => format!("id IN (SELECT puzzle_id {values}) AND {cond}"),
            };
        }
        (cond, params)
    }
}

impl Within {
    /// True when a puzzle of this percentile and level (0 = easiest) is among them.
    pub fn contains(self, percentile: f64, level: u32) -> bool {
        match self {
            Within::Percentiles(r) => r.contains(percentile),
            Within::Level(i) => level == i,
            Within::All => true,
        }
    }
}

/// Random draws before the sampler lists the range: a draw lands in the range with
/// probability (unserved puzzles in range) / (id span), so a range this many times rarer than
/// the span is listed instead (listing it costs what it holds).
const TRIES: u32 = 256;

/// Random ids probed by one query in a draw by hardest step: such a selection is often rare
/// (an X-wing is about 1% of a bank), so its [`TRIES`] probes go to SQLite in batches of this
/// many (`id IN (...)`), one statement each instead of one per id.
const BATCH: usize = 64;

/// Batches of probes before a draw by hardest step draws by rank: probes in a batch cost a
/// fraction of single ones, so such a draw probes more ids than [`TRIES`] first.
const BATCHES: usize = 4;

/// Ranks a draw by rank tries ([`Sampler::draw_nth`]) before the selection is listed.
const NTH_TRIES: u32 = 8;

/// Index entries a draw by rank skips in the time a batch of [`BATCH`] probes takes (both
/// measured on a bank of 10^6: about 45 ns an entry, 150 us a batch). A selection by hardest
/// step whose count is known probes only when the batches it expects to need cost less than
/// skipping half its entries.
const SKIPS_PER_BATCH: f64 = 3_300.0;

/// The smallest and the largest id: two subqueries, each a single seek (one query with both
/// aggregates would scan the table).
pub(super) const SPAN: &str = "SELECT (SELECT MIN(id) FROM puzzles), (SELECT MAX(id) FROM puzzles)";

/// The table's ids for draws by random id: the smallest and how many ids lie from it to the
/// largest; `None` for an empty table, or a span too wide to draw in (over `u32::MAX` ids).
pub fn span(bank: &Bank) -> Result<Option<(i64, u32)>> {
    let conn = &bank.conn;
    let (lo, hi): (Option<i64>, Option<i64>) =
        conn.query_row(SPAN, [], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(match (lo, hi) {
        (Some(lo), Some(hi)) => u32::try_from(hi - lo + 1).ok().map(|n| (lo, n)),
        _ => None,
    })
}

/// The columns of a [`PuzzleRow`], in [`read_row`]'s order (`rating` is the bank's rating),
/// each prefixed with `p.` (the `puzzles` table's alias in every query that reads them).
pub(super) fn row_columns(rating: RatingKind) -> String {
    format!(
        "p.id, p.puzzle, p.difficulty, p.hsolve, p.tier, p.{} AS rating, p.seed_id, p.level, \
         p.canon_key, p.step, p.step_count",
        column(rating)
    )
}

/// The queries of a [`Sampler`] and their parameters: one puzzle by id (the last parameter) if
/// it is an unserved puzzle of `within`, and the ids of every unserved puzzle of `within`
/// (through an index of unserved puzzles).
fn sampler_sql(m: Measure, within: Selection) -> (String, String, Vec<rusqlite::types::Value>) {
    let (cond, params) = within.condition(m);
    let (list_cond, _) = within.list_condition(m);
    let id = params.len() + 1;
    (
        format!(
            "SELECT {} FROM puzzles p WHERE id = ?{id} AND {cond}",
            row_columns(m.rating)
        ),
        // No `INDEXED BY`: a bulk build drops the rating's index until it ends (the planner
        // then scans), and otherwise the planner picks it.
        format!("SELECT id FROM puzzles WHERE {list_cond}"),
        params,
    )
}

/// A [`PuzzleRow`] from a row of [`row_columns`] of a bank rated by `rating`; a row whose
/// cells or key cannot be read is an error that names it ([`StoreError::Damaged`]).
pub(super) fn read_row(r: &rusqlite::Row, rating: RatingKind) -> Result<PuzzleRow> {
    let id: i64 = r.get(0)?;
    let puzzle = stored_puzzle(r.get_ref(1)?).map_err(|e| StoreError::Damaged {
        id,
        what: e.to_string(),
    })?;
    let key = r
        .get_ref(8)?
        .as_blob()
        .ok()
        .and_then(|b| b.try_into().ok())
        .map(Key)
        .ok_or_else(|| StoreError::Damaged {
            id,
            what: "the class key is not 32 bytes".into(),
        })?;
    Ok(PuzzleRow {
        id,
        puzzle,
        key,
        difficulty: r
            .get::<_, Option<i64>>(2)?
            .map(|v| from_units(v, RatingKind::Difficulty)),
        hsolve: from_units(r.get(3)?, RatingKind::Hsolve),
        tier: r.get(4)?,
        rating: from_units(r.get(5)?, rating),
        seed_id: r.get(6)?,
        level: r.get(7)?,
        hardest: hardest_of(r.get(9)?, r.get(10)?).map_err(|what| StoreError::Damaged {
            id,
            what: format!("the stored {what} names no technique"),
        })?,
    })
}

/// The first row of `rows` as a [`PuzzleRow`], if any.
pub(super) fn first_row(rows: &mut rusqlite::Rows, rating: RatingKind) -> Result<Option<PuzzleRow>> {
    match rows.next()? {
        Some(r) => read_row(r, rating).map(Some),
        None => Ok(None),
    }
}

/// Draws unserved puzzles of a percentile range or a level uniformly at random, without replacement,
/// whatever the spread of ratings inside the range, without a table scan:
///
/// - a draw picks a uniform id between the smallest and the largest and keeps the puzzle if
///   it is unserved, in the range and not drawn yet (rejection sampling: every such puzzle is
///   equally likely);
/// - after 256 misses in a row, the range is rare among the ids: its unserved puzzles
///   are listed through the index of unserved puzzles (a cost of what the range holds) and
///   the draws pick uniformly from the list.
///
/// - a selection by hardest step probes its random ids in batches, and when they miss or
///   would (a rare technique, by the bank's counts of unserved puzzles by step and level)
///   draws by rank: the k-th of its unserved puzzles in their index, for a uniform k below
///   their count, before it lists them.
///
/// Every way, every remaining puzzle of the range is equally likely at every draw.
pub struct Sampler<'c> {
    conn: &'c Connection,
    measure: Measure<'c>,
    by_id: String,
    list: String,
    params: Vec<rusqlite::types::Value>,
    span: Option<(i64, u32)>,
    drawn: HashSet<i64>,
    listed: Option<Vec<i64>>,
    /// With a hardest step: the query of the ids among [`BATCH`] probed ids that are unserved
    /// puzzles of the selection.
    batch: Option<String>,
    /// With a hardest step: the queries that count the selection's unserved puzzles and read
    /// the k-th of them (in its index's order), and the count once made (at once, from the
    /// bank's counts by step and level, for a selection of a level or of all).
    nth: Option<(String, String, Option<u32>)>,
}

impl<'c> Sampler<'c> {
    /// A sampler of the unserved puzzles of `within` (measured by `measure`).
    pub fn new(
        bank: &'c Bank,
        measure: Measure<'c>,
        within: impl Into<Selection>,
    ) -> Result<Sampler<'c>> {
        let conn = &bank.conn;
        let within = within.into();
        let (by_id, list, params) = sampler_sql(measure, within);
        // A selection by hardest step of a level or of all: its count is the bank's (kept by
        // step and level), read at once.
        let known = match (within.step, within.named, within.within) {
            (Some(step), None, Within::Level(i)) => Some(unserved_by_step(bank, step, Some(i))?),
            (Some(step), None, Within::All) => Some(unserved_by_step(bank, step, None)?),
            _ => None,
        };
        let nth = within.step.map(|_| {
            let (cond, _) = within.list_condition(measure);
            (
                format!("SELECT COUNT(*) FROM puzzles WHERE {cond}"),
                format!(
                    "SELECT id FROM puzzles WHERE {cond} LIMIT 1 OFFSET ?{}",
                    params.len() + 1
                ),
                known,
            )
        });
        let batch = within.step.map(|_| {
            let (cond, params) = within.condition(measure);
            let ids: Vec<String> = (1..=BATCH)
                .map(|i| format!("?{}", params.len() + i))
                .collect();
            // By the ids alone (row id lookups): an index of the condition would scan it.
            format!(
                "SELECT id FROM puzzles NOT INDEXED WHERE id IN ({}) AND {cond}",
                ids.join(", ")
            )
        });
        let span = span(bank)?;
        Ok(Sampler {
            conn,
            measure,
            by_id,
            list,
            params,
            span,
            drawn: HashSet::new(),
            listed: if span.is_none() {
                Some(Vec::new())
            } else {
                None
            },
            batch,
            nth,
        })
    }

    /// A draw by rank, for a selection by hardest step that probing missed or would miss (a
    /// rare technique): its unserved puzzles counted (the bank's count by step and level, or
    /// through the index), the k-th read for a uniform k; each remaining puzzle is equally
    /// likely. Skipping runs inside SQLite, several times faster than listing every id; `None` after [`NTH_TRIES`] ranks that were drawn
    /// already or served since the count (the listing takes over).
    fn draw_nth(&mut self, rng: &mut Rng) -> Result<Option<PuzzleRow>> {
        let Some((count_sql, nth_sql, counted)) = &mut self.nth else {
            return Ok(None);
        };
        let n = match counted {
            Some(n) => *n,
            None => {
                let n: i64 = self
                    .conn
                    .prepare_cached(count_sql)?
                    .query_row(params_from_iter(&self.params), |r| r.get(0))?;
                *counted = Some(u32::try_from(n).unwrap_or(u32::MAX));
                counted.expect("just set")
            }
        };
        if n == 0 {
            self.listed = Some(Vec::new());
            return Ok(None);
        }
        let mut nth = self.conn.prepare_cached(nth_sql)?;
        let mut by_id = self.conn.prepare_cached(&self.by_id)?;
        for _ in 0..NTH_TRIES {
            let k = rng.below(n);
            let mut p = self.params.clone();
            p.push(i64::from(k).into());
            let id: Option<i64> = nth
                .query_row(params_from_iter(p), |r| r.get(0))
                .optional()?;
            let Some(id) = id else { continue };
            if self.drawn.contains(&id) {
                continue;
            }
            if let Some(row) = first_row(
                &mut by_id.query(with_id(&self.params, id))?,
                self.measure.rating,
            )? {
                self.drawn.insert(id);
                return Ok(Some(row));
            }
        }
        Ok(None)
    }

    /// Whether a selection by hardest step is probed before it is drawn by rank: always
    /// until its count is known; then when the batches of probes it expects to need (one hits
    /// with chance 1 - (1 - share)^64, the share being its unserved puzzles over the id span)
    /// cost less than skipping half its entries ([`SKIPS_PER_BATCH`]). A rare technique is
    /// drawn by rank at once, a common one probed.
    fn probing_pays(&self) -> bool {
        let (Some((_, _, Some(n))), Some((_, span))) = (&self.nth, self.span) else {
            return true;
        };
        if *n == 0 {
            return false;
        }
        let share = (f64::from(*n) / f64::from(span)).min(1.0);
        let hit = 1.0 - (1.0 - share).powi(BATCH as i32);
        SKIPS_PER_BATCH / hit < f64::from(*n) / 2.0
    }

    /// Up to [`BATCHES`] x [`BATCH`] random ids probed [`BATCH`] at a time: a puzzle drawn uniformly among
    /// those that hit (each probed id is uniform over the span, so every unserved puzzle of
    /// the selection is equally likely to be among the hits and to be picked), or `None`
    /// when none did.
    fn probe_batches(&mut self, batch: &str, rng: &mut Rng) -> Result<Option<PuzzleRow>> {
        let (lo, n) = self.span.expect("a span until listed");
        let mut stmt = self.conn.prepare_cached(batch)?;
        for _ in 0..BATCHES {
            let mut p = self.params.clone();
            p.extend((0..BATCH).map(|_| (lo + i64::from(rng.below(n))).into()));
            let mut hits: Vec<i64> = stmt
                .query_map(params_from_iter(p), |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()?
                .into_iter()
                .filter(|id| !self.drawn.contains(id))
                .collect();
            hits.sort_unstable();
            hits.dedup();
            if hits.is_empty() {
                continue;
            }
            let id = hits[rng.index(hits.len())];
            let mut by_id = self.conn.prepare_cached(&self.by_id)?;
            let row = first_row(
                &mut by_id.query(with_id(&self.params, id))?,
                self.measure.rating,
            )?;
            if let Some(row) = row {
                self.drawn.insert(id);
                return Ok(Some(row));
            }
        }
        Ok(None)
    }

    /// The next puzzle, uniformly among the unserved puzzles of the range not drawn yet;
    /// `None` when there is none.
    pub fn draw(&mut self, rng: &mut Rng) -> Result<Option<PuzzleRow>> {
        let rating = self.measure.rating;
        if self.listed.is_none() {
            if let Some(batch) = self.batch.take() {
                let found = if self.probing_pays() {
                    self.probe_batches(&batch, rng)?
                } else {
                    None
                };
                self.batch = Some(batch);
                if found.is_some() {
                    return Ok(found);
                }
                let found = self.draw_nth(rng)?;
                if found.is_some() {
                    return Ok(found);
                }
            }
        }
        if self.listed.is_none() && self.batch.is_none() {
            let (lo, n) = self.span.expect("a span until listed");
            let mut stmt = self.conn.prepare_cached(&self.by_id)?;
            for _ in 0..TRIES {
                let id = lo + i64::from(rng.below(n));
                if self.drawn.contains(&id) {
                    continue;
                }
                if let Some(row) = first_row(&mut stmt.query(with_id(&self.params, id))?, rating)? {
                    self.drawn.insert(id);
                    return Ok(Some(row));
                }
            }
        }
        if self.listed.is_none() {
            let ids: Vec<i64> = self
                .conn
                .prepare_cached(&self.list)?
                .query_map(params_from_iter(&self.params), |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            self.listed = Some(
                ids.into_iter()
                    .filter(|i| !self.drawn.contains(i))
                    .collect(),
            );
        }
        let listed = self.listed.as_mut().expect("listed");
        let mut stmt = self.conn.prepare_cached(&self.by_id)?;
        while !listed.is_empty() {
            let id = listed.swap_remove(rng.index(listed.len()));
            self.drawn.insert(id);
            // Another process may have served it since it was listed.
            if let Some(row) = first_row(&mut stmt.query(with_id(&self.params, id))?, rating)? {
                return Ok(Some(row));
            }
        }
        Ok(None)
    }
}

/// The unserved puzzles of `within` and how many seeds they come from (puzzles of a
/// generator have none): what an export that ran short of it had left.
pub fn unserved_sources(
    bank: &Bank,
    measure: Measure,
    within: impl Into<Selection>,
) -> Result<(u64, u64)> {
    let conn = &bank.conn;
    let within = within.into();
    let (cond, params) = within.list_condition(measure);
    let (n, seeds): (i64, i64) = conn
        .prepare(&format!(
            "SELECT COUNT(*), COUNT(DISTINCT seed_id) FROM puzzles WHERE {cond}"
        ))?
        .query_row(params_from_iter(params), |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok((n.max(0) as u64, seeds.max(0) as u64))
}

/// The unserved puzzles whose hardest step is `step`, of the level with index `level` or of
/// every level, as the bank's counts by step and level (kept by triggers) hold them.
fn unserved_by_step(bank: &Bank, step: Strategy, level: Option<u32>) -> Result<u32> {
    let conn = &bank.conn;
    let code = i64::from(step.code());
    let n: i64 = match level {
        Some(i) => conn
            .prepare_cached(
                "SELECT IFNULL(SUM(unserved), 0) FROM step_counts WHERE step = ?1 AND level = ?2",
            )?
            .query_row([code, i64::from(i)], |r| r.get(0))?,
        None => conn
            .prepare_cached("SELECT IFNULL(SUM(unserved), 0) FROM step_counts WHERE step = ?1")?
            .query_row([code], |r| r.get(0))?,
    };
    Ok(u32::try_from(n.max(0)).unwrap_or(u32::MAX))
}

/// The parameters of a draw by id: the condition's, then the id.
fn with_id(
    params: &[rusqlite::types::Value],
    id: i64,
) -> rusqlite::ParamsFromIter<Vec<rusqlite::types::Value>> {
    let mut p = params.to_vec();
    p.push(id.into());
    params_from_iter(p)
}

#[cfg(feature = "dev")]
/// SQLite's query plans for the queries of a [`Sampler`] of `within` (the detail column of
/// `EXPLAIN QUERY PLAN`: the id span, a draw by id, the listing), to check that they search an
/// index rather than scan the table.
pub fn take_plans(
    bank: &Bank,
    measure: Measure,
    within: impl Into<Selection>,
) -> Result<Vec<String>> {
    let conn = &bank.conn;
    let (by_id, list, params) = sampler_sql(measure, within.into());
    let mut with_id = params.clone();
    with_id.push(1.into());
    let mut plans = Vec::new();
    for (sql, p) in [
        (SPAN.to_string(), Vec::new()),
        (by_id, with_id),
        (list, params),
    ] {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
        let mut rows = stmt.query(params_from_iter(p))?;
        while let Some(r) = rows.next()? {
            plans.push(r.get::<_, String>(3)?);
        }
    }
    Ok(plans)
}

#[cfg(feature = "dev")]
/// Up to `count` unserved puzzles of `within`, drawn uniformly at random
/// without replacement by a [`Sampler`]. With `mark`, they are recorded as served in the same
/// write transaction (`BEGIN IMMEDIATE`: concurrent callers queue, and no puzzle is handed out
/// twice). Fewer than `count` come back when the range runs out.
pub fn take(
    bank: &Bank,
    measure: Measure,
    within: impl Into<Selection>,
    count: usize,
    mark: bool,
    rng: &mut Rng,
) -> Result<Vec<PuzzleRow>> {
    let within = within.into();
    let work = |rng: &mut Rng| -> Result<Vec<PuzzleRow>> {
        let mut sampler = Sampler::new(bank, measure, within)?;
        let mut out: Vec<PuzzleRow> = Vec::with_capacity(count.min(4096));
        while out.len() < count {
            let Some(p) = sampler.draw(rng)? else { break };
            if mark {
                mark_served(bank, p.id)?;
            }
            out.push(p);
        }
        Ok(out)
    };
    if mark {
        super::immediate(bank, || work(rng))
    } else {
        work(rng)
    }
}

/// The row `id` of a bank rated by `rating`, served or not; `None` when there is none. Reads
/// only: it marks nothing.
pub fn by_id(bank: &Bank, rating: RatingKind, id: i64) -> Result<Option<PuzzleRow>> {
    let conn = &bank.conn;
    let sql = format!("SELECT {} FROM puzzles p WHERE p.id = ?1", row_columns(rating));
    first_row(&mut conn.prepare_cached(&sql)?.query([id])?, rating)
}

/// Up to `limit` rows of a bank rated by `rating` with an id above `after`, served or not, in
/// id order (a dataset reads a bank so, a chunk at a time).
pub fn rows_after(
    bank: &Bank,
    rating: RatingKind,
    after: i64,
    limit: u32,
) -> Result<Vec<PuzzleRow>> {
    let conn = &bank.conn;
    let sql = format!(
        "SELECT {} FROM puzzles p WHERE p.id > ?1 ORDER BY p.id LIMIT ?2",
        row_columns(rating)
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(rusqlite::params![after, limit])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(read_row(r, rating)?);
    }
    Ok(out)
}

/// The ids of every puzzle of `within`, served or not, in id order (a book's reprints draw
/// among them).
pub fn ids_within(bank: &Bank, measure: Measure, within: Selection) -> Result<Vec<i64>> {
    let conn = &bank.conn;
    let (cond, params) = within.any_list_condition(measure);
    let mut stmt = conn.prepare(&format!("SELECT id FROM puzzles WHERE {cond} ORDER BY id"))?;
    let ids = stmt
        .query_map(params_from_iter(params), |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// Marks a puzzle served (`get --mark-served`, exports): neither `get` nor an export hands it
/// out again. A puzzle served before keeps the time it was first served.
pub fn mark_served(bank: &Bank, id: i64) -> Result<()> {
    let conn = &bank.conn;
    conn.prepare_cached(
        "UPDATE puzzles SET served_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?1 AND served_at IS NULL",
    )?
    .execute([id])?;
    Ok(())
}

/// Marks the puzzles `ids` unserved again: puzzles a `get --mark-served` marked and could
/// not hand over. The caller holds a write transaction.
pub fn unmark_served(bank: &Bank, ids: &[i64]) -> Result<()> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached("UPDATE puzzles SET served_at = NULL WHERE id = ?1")?;
    for id in ids {
        stmt.execute([id])?;
    }
    Ok(())
}

/// What [`unserve`] did with a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unserved {
    /// It can be handed out again; `was_served`: it had been.
    Back {
        /// Whether it had been served.
        was_served: bool,
    },
    /// No row has that id.
    Missing,
    /// It is in a current export record (that date's or book's files hold it): left served.
    Exported {
        /// The date, or the book.
        edition: super::batches::Edition,
        /// The slot.
        slot: u32,
    },
}

/// Puts the puzzle `id` back among the unserved (`pseudoku unserve`): clears its served mark
/// and forgets the export records `export --replace` retired it from, so `get` and later
/// exports can hand it out again. A puzzle a current export record holds stays served (the
/// date's files are reproduced from the record): replace that date first. One transaction.
pub fn unserve(bank: &Bank, id: i64) -> Result<Unserved> {
    let conn = &bank.conn;
    use rusqlite::OptionalExtension;
    super::immediate(bank, || {
        let served: Option<bool> = conn
            .prepare_cached("SELECT served_at IS NOT NULL FROM puzzles WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        let Some(was_served) = served else {
            return Ok(Unserved::Missing);
        };
        let current: Option<(super::batches::Edition, u32)> = conn
            .prepare_cached(
                "SELECT date, slot FROM batches WHERE puzzle_id = ?1 AND replaced = 0 LIMIT 1",
            )?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        if let Some((edition, slot)) = current {
            return Ok(Unserved::Exported { edition, slot });
        }
        conn.prepare_cached("DELETE FROM batches WHERE puzzle_id = ?1 AND replaced = 1")?
            .execute([id])?;
        conn.prepare_cached("UPDATE puzzles SET served_at = NULL WHERE id = ?1")?
            .execute([id])?;
        Ok(Unserved::Back { was_served })
    })
}
