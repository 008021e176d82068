//! Retrieval: random unserved puzzles of a percentile range or a level through the indexes of
//! unserved puzzles (no table scan), marked served in the same write transaction when asked.

use super::puzzles::{column, first_unit, from_units, line_of};
use super::Result;
use crate::rng::Rng;
use crate::scale::{PercentileRange, RatingKind, Reference};
use rusqlite::{params_from_iter, Connection};
use std::collections::HashSet;

/// A puzzle handed out by [`take`]; as JSON (`get --json`), the keys `id puzzle solution
/// level difficulty hsolve percentile tier` in that order.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Served {
    /// Its row id.
    pub id: i64,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// Its solution, 81 digits (not stored: empty until the caller solves the puzzle).
    pub solution: String,
    /// Its level's name on the bank's levels (empty until the caller names it).
    pub level: String,
    /// Its `difficulty` rating (`None` for a row an older version stored and no build has
    /// rated yet).
    pub difficulty: Option<f64>,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// Its percentile (measured against the bank's reference when read).
    pub percentile: f64,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// The rating the bank's percentiles use, of this puzzle (not printed: it is one of the
    /// two above).
    #[serde(skip)]
    pub rating: f64,
    /// Its seed's row id (not printed).
    #[serde(skip)]
    pub seed_id: Option<i64>,
    /// Its level's index (0 = easiest; `None` until a backfill gives it one).
    #[serde(skip)]
    pub level_index: Option<u32>,
}

/// Which puzzles a draw is among: a percentile range or a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Within {
    /// The puzzles whose percentile lies in the range.
    Percentiles(PercentileRange),
    /// The puzzles of the level with this index (0 = easiest).
    Level(u32),
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

impl Within {
    /// The condition of an unserved puzzle of it, with its parameters (?1, ?2).
    fn condition(self, m: Measure) -> (String, Vec<rusqlite::types::Value>) {
        let (cond, params) = self.any_condition(m);
        (format!("{cond} AND served_at IS NULL"), params)
    }

    /// The condition of any puzzle of it, served or not (per-user draws), with its parameters
    /// (?1, ?2).
    pub(super) fn any_condition(self, m: Measure) -> (String, Vec<rusqlite::types::Value>) {
        match self {
            Within::Percentiles(range) => {
                let (low, high) = m.stored_range(range);
                let col = column(m.rating);
                (
                    format!("{col} >= ?1 AND {col} < ?2"),
                    vec![low.into(), high.into()],
                )
            }
            Within::Level(i) => ("level = ?1".to_string(), vec![i64::from(i).into()]),
        }
    }

    /// True when a puzzle of this percentile and level (0 = easiest) is among them.
    pub fn contains(self, percentile: f64, level: u32) -> bool {
        match self {
            Within::Percentiles(r) => r.contains(percentile),
            Within::Level(i) => level == i,
        }
    }
}

/// Random draws before the sampler lists the range: a draw lands in the range with
/// probability (unserved puzzles in range) / (id span), so a range this many times rarer than
/// the span is listed instead (listing it costs what it holds).
const TRIES: u32 = 256;

/// The smallest and the largest id: two subqueries, each a single seek (one query with both
/// aggregates would scan the table).
pub(super) const SPAN: &str = "SELECT (SELECT MIN(id) FROM puzzles), (SELECT MAX(id) FROM puzzles)";

/// The columns of a [`Served`], in [`served_row`]'s order (`rating` is the bank's rating).
pub(super) fn served_columns(rating: RatingKind) -> String {
    format!(
        "id, puzzle, difficulty, hsolve, tier, {} AS rating, seed_id, level",
        column(rating)
    )
}

/// The queries of a [`Sampler`] and their parameters: one puzzle by id (the last parameter) if
/// it is an unserved puzzle of `within`, and the ids of every unserved puzzle of `within`
/// (through an index of unserved puzzles).
fn sampler_sql(m: Measure, within: Within) -> (String, String, Vec<rusqlite::types::Value>) {
    let (cond, params) = within.condition(m);
    let id = params.len() + 1;
    (
        format!(
            "SELECT {} FROM puzzles WHERE id = ?{id} AND {cond}",
            served_columns(m.rating)
        ),
        // No `INDEXED BY`: a bulk build drops the rating's index until it ends (the planner
        // then scans), and otherwise the planner picks it.
        format!("SELECT id FROM puzzles WHERE {cond}"),
        params,
    )
}

/// A [`Served`] from a row of [`served_columns`] (its solution left empty).
pub(super) fn served_row(r: &rusqlite::Row, m: Measure) -> rusqlite::Result<Served> {
    let rating = from_units(r.get(5)?, m.rating);
    Ok(Served {
        id: r.get(0)?,
        puzzle: line_of(r.get_ref(1)?.as_blob()?).unwrap_or_default(),
        solution: String::new(),
        level: String::new(),
        difficulty: r
            .get::<_, Option<i64>>(2)?
            .map(|v| from_units(v, RatingKind::Difficulty)),
        hsolve: from_units(r.get(3)?, RatingKind::Hsolve),
        percentile: m.reference.percentile(rating),
        tier: r.get(4)?,
        rating,
        seed_id: r.get(6)?,
        level_index: r.get(7)?,
    })
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
/// Both ways every remaining puzzle of the range is equally likely at every draw.
pub struct Sampler<'c> {
    conn: &'c Connection,
    measure: Measure<'c>,
    by_id: String,
    list: String,
    params: Vec<rusqlite::types::Value>,
    span: Option<(i64, u32)>,
    drawn: HashSet<i64>,
    listed: Option<Vec<i64>>,
}

impl<'c> Sampler<'c> {
    /// A sampler of the unserved puzzles of `within` (measured by `measure`).
    pub fn new(conn: &'c Connection, measure: Measure<'c>, within: Within) -> Result<Sampler<'c>> {
        let (by_id, list, params) = sampler_sql(measure, within);
        let (lo, hi): (Option<i64>, Option<i64>) =
            conn.query_row(SPAN, [], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let span = match (lo, hi) {
            (Some(lo), Some(hi)) => u32::try_from(hi - lo + 1).ok().map(|n| (lo, n)),
            _ => None,
        };
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
        })
    }

    /// The next puzzle, uniformly among the unserved puzzles of the range not drawn yet;
    /// `None` when there is none.
    pub fn draw(&mut self, rng: &mut Rng) -> Result<Option<Served>> {
        if self.listed.is_none() {
            let (lo, n) = self.span.expect("a span until listed");
            let mut stmt = self.conn.prepare_cached(&self.by_id)?;
            for _ in 0..TRIES {
                let id = lo + i64::from(rng.below(n));
                if self.drawn.contains(&id) {
                    continue;
                }
                let mut rows = stmt.query(with_id(&self.params, id))?;
                if let Some(r) = rows.next()? {
                    self.drawn.insert(id);
                    return Ok(Some(served_row(r, self.measure)?));
                }
            }
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
            let mut rows = stmt.query(with_id(&self.params, id))?;
            if let Some(r) = rows.next()? {
                return Ok(Some(served_row(r, self.measure)?));
            }
        }
        Ok(None)
    }
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

/// SQLite's query plans for the queries of a [`Sampler`] of `within` (the detail column of
/// `EXPLAIN QUERY PLAN`: the id span, a draw by id, the listing), to check that they search an
/// index rather than scan the table.
pub fn take_plans(conn: &Connection, measure: Measure, within: Within) -> Result<Vec<String>> {
    let (by_id, list, params) = sampler_sql(measure, within);
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

/// Up to `count` unserved puzzles of `within`, drawn uniformly at random
/// without replacement by a [`Sampler`]. With `mark`, they are recorded as served in the same
/// write transaction (`BEGIN IMMEDIATE`: concurrent callers queue, and no puzzle is handed out
/// twice). Fewer than `count` come back when the range runs out.
pub fn take(
    conn: &Connection,
    measure: Measure,
    within: Within,
    count: usize,
    mark: bool,
    rng: &mut Rng,
) -> Result<Vec<Served>> {
    let work = |rng: &mut Rng| -> Result<Vec<Served>> {
        let mut sampler = Sampler::new(conn, measure, within)?;
        let mut out: Vec<Served> = Vec::with_capacity(count.min(4096));
        while out.len() < count {
            let Some(p) = sampler.draw(rng)? else { break };
            if mark {
                mark_served(conn, p.id)?;
            }
            out.push(p);
        }
        Ok(out)
    };
    if mark {
        super::immediate(conn, || work(rng))
    } else {
        work(rng)
    }
}

/// The puzzle (as stored, `.` for empty) of the row `id`, or `None` when there is none. Reads
/// only: serving marks nothing.
pub fn puzzle_by_id(conn: &Connection, id: i64) -> Result<Option<String>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached("SELECT puzzle FROM puzzles WHERE id = ?1")?
        .query_row([id], |r| {
            Ok(line_of(r.get_ref(0)?.as_blob()?).unwrap_or_default())
        })
        .optional()?)
}

/// The row `id` as a [`Served`] (measured by `measure`), served or not; `None` when there is
/// none.
pub fn by_id(conn: &Connection, measure: Measure, id: i64) -> Result<Option<Served>> {
    use rusqlite::OptionalExtension;
    let sql = format!(
        "SELECT {} FROM puzzles WHERE id = ?1",
        served_columns(measure.rating)
    );
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], |r| served_row(r, measure))
        .optional()?)
}

/// Marks a puzzle served (`get --mark-served`, exports): neither `get` nor an export hands it
/// out again.
pub fn mark_served(conn: &Connection, id: i64) -> Result<()> {
    conn.prepare_cached(
        "UPDATE puzzles SET served_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
    )?
    .execute([id])?;
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
    /// It is in a current export record (that date's files hold it): left served.
    Exported {
        /// The date.
        date: String,
        /// The slot.
        slot: u32,
    },
}

/// Puts the puzzle `id` back among the unserved (`pseudoku unserve`): clears its served mark
/// and forgets the export records `export --replace` retired it from, so `get` and later
/// exports can hand it out again. A puzzle a current export record holds stays served (the
/// date's files are reproduced from the record): replace that date first. One transaction.
pub fn unserve(conn: &Connection, id: i64) -> Result<Unserved> {
    use rusqlite::OptionalExtension;
    super::immediate(conn, || {
        let served: Option<bool> = conn
            .prepare_cached("SELECT served_at IS NOT NULL FROM puzzles WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        let Some(was_served) = served else {
            return Ok(Unserved::Missing);
        };
        let current: Option<(String, u32)> = conn
            .prepare_cached(
                "SELECT date, slot FROM batches WHERE puzzle_id = ?1 AND replaced = 0 LIMIT 1",
            )?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        if let Some((date, slot)) = current {
            return Ok(Unserved::Exported { date, slot });
        }
        conn.prepare_cached("DELETE FROM batches WHERE puzzle_id = ?1 AND replaced = 1")?
            .execute([id])?;
        conn.prepare_cached("UPDATE puzzles SET served_at = NULL WHERE id = ?1")?
            .execute([id])?;
        Ok(Unserved::Back { was_served })
    })
}
