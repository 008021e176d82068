//! Retrieval: random unserved puzzles of a percentile range through the index of unserved
//! puzzles (no table scan), marked served in the same write transaction when asked.

use super::Result;
use crate::scale::{PercentileRange, RatingKind};
use rusqlite::{params, Connection};
use std::collections::HashSet;

/// A puzzle handed out by [`take`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Served {
    /// Its row id.
    pub id: i64,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// Its solution, 81 digits.
    pub solution: String,
    /// Its rating (the bank's rating: difficulty or hsolve).
    pub rating: f64,
    /// Its percentile.
    pub percentile: f64,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// Its seed's row id (not printed: `get` prints the keys above).
    #[serde(skip)]
    pub seed_id: Option<i64>,
    /// Its retrieval tie-break (not printed).
    #[serde(skip)]
    pub pick: i64,
}

/// The two queries of [`take`]: the first unserved puzzles at or after a point of the range,
/// and those before it.
fn take_sql(rating: RatingKind, range: PercentileRange) -> (String, String) {
    let high = if range.closed { "<=" } else { "<" };
    let cols = format!(
        "id, puzzle, solution, {}, percentile, tier, seed_id, pick",
        super::puzzles::column(rating)
    );
    let after = format!(
        "SELECT {cols} FROM puzzles INDEXED BY puzzles_unserved
         WHERE served_at IS NULL AND (percentile, pick) >= (?1, ?2) AND percentile {high} ?3
         ORDER BY percentile, pick LIMIT ?4"
    );
    let before = format!(
        "SELECT {cols} FROM puzzles INDEXED BY puzzles_unserved
         WHERE served_at IS NULL AND percentile >= ?3 AND (percentile, pick) < (?1, ?2)
         ORDER BY percentile, pick LIMIT ?4"
    );
    (after, before)
}

/// A [`Served`] from a row of the [`take_sql`] queries.
fn served_row(r: &rusqlite::Row) -> rusqlite::Result<Served> {
    Ok(Served {
        id: r.get(0)?,
        puzzle: r.get(1)?,
        solution: r.get(2)?,
        rating: r.get(3)?,
        percentile: r.get(4)?,
        tier: r.get(5)?,
        seed_id: r.get(6)?,
        pick: r.get(7)?,
    })
}

/// Up to `limit` unserved puzzles of `range` in index order (percentile, tie-break) from the
/// point (`x`, `s`), wrapping round to the range's start when `wrap`: the candidates a caller
/// with its own conditions (the export's variety rule) walks through.
pub fn unserved_from(
    conn: &Connection,
    rating: RatingKind,
    range: PercentileRange,
    x: f64,
    s: i64,
    limit: usize,
    wrap: bool,
) -> Result<Vec<Served>> {
    let (after, before) = take_sql(rating, range);
    let mut out: Vec<Served> = conn
        .prepare_cached(&after)?
        .query_map(params![x, s, range.high, limit as i64], served_row)?
        .collect::<rusqlite::Result<_>>()?;
    if wrap && out.len() < limit {
        let rest: Vec<Served> = conn
            .prepare_cached(&before)?
            .query_map(
                params![x, s, range.low, (limit - out.len()) as i64],
                served_row,
            )?
            .collect::<rusqlite::Result<_>>()?;
        out.extend(rest);
    }
    Ok(out)
}

/// SQLite's query plans for the queries of [`take`] (the detail column of `EXPLAIN QUERY
/// PLAN`), to check that they search the index rather than scan the table.
pub fn take_plans(conn: &Connection, rating: RatingKind) -> Result<Vec<String>> {
    let (after, before) = take_sql(rating, "0..50".parse().expect("a valid range"));
    let mut plans = Vec::new();
    for sql in [after, before] {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
        let rows = stmt.query_map(params![25.0, 0, 50.0, 1], |r| r.get::<_, String>(3))?;
        for r in rows {
            plans.push(r?);
        }
    }
    Ok(plans)
}

/// Up to `count` random unserved puzzles with a percentile in `range`, without a table scan:
/// each is the first unserved puzzle at or after a random point (percentile, tie-break) of the
/// range, in the index order, wrapping round to the range's start. With `mark`, they are
/// recorded as served in the same write transaction (`BEGIN IMMEDIATE`: concurrent callers
/// queue, and no puzzle is handed out twice). Fewer than `count` come back when the range runs
/// out.
pub fn take(
    conn: &Connection,
    rating: RatingKind,
    range: PercentileRange,
    count: usize,
    mark: bool,
    rng: &mut crate::rng::Rng,
) -> Result<Vec<Served>> {
    let (after, before) = take_sql(rating, range);
    let mut work = || -> Result<Vec<Served>> {
        let mut out: Vec<Served> = Vec::with_capacity(count.min(4096));
        let mut taken: HashSet<i64> = HashSet::new();
        let mut after_stmt = conn.prepare_cached(&after)?;
        let mut before_stmt = conn.prepare_cached(&before)?;
        let mut mark_stmt = conn.prepare_cached(
            "UPDATE puzzles SET served_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?1 AND served_at IS NULL",
        )?;
        while out.len() < count {
            let x = range.low + rng.next_f64() * (range.high - range.low);
            let s = (rng.next_u64() >> 4) as i64;
            // The first row not taken yet at or after the point, else before it. Rows are
            // read one at a time (LIMIT -1: no limit); marked rows have left the index.
            let mut found = None;
            for (stmt, bound) in [(&mut after_stmt, range.high), (&mut before_stmt, range.low)] {
                let mut rows = stmt.query(params![x, s, bound, -1])?;
                while let Some(r) = rows.next()? {
                    let p = served_row(r)?;
                    if !taken.contains(&p.id) {
                        found = Some(p);
                        break;
                    }
                }
                if found.is_some() {
                    break;
                }
            }
            let Some(r) = found else { break };
            if mark {
                mark_stmt.execute([r.id])?;
            }
            taken.insert(r.id);
            out.push(r);
        }
        Ok(out)
    };
    if mark {
        super::immediate(conn, work)
    } else {
        work()
    }
}

/// Marks a puzzle served (`get --mark-served`, exports): neither `get` nor an export hands it
/// out again.
pub fn mark_served(conn: &Connection, id: i64) -> Result<()> {
    conn.execute(
        "UPDATE puzzles SET served_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
        [id],
    )?;
    Ok(())
}
