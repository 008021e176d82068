//! Stored puzzles: the batched inserts of a build, the class keys, percentiles, and the rows
//! `verify` and the backfill of older banks read.

use super::builds::Build;
use super::Result;
use crate::scale::{LevelSet, RatingKind, Reference};
use rusqlite::{params, Connection};
use std::collections::HashSet;

/// One puzzle row to insert: plain values, as the bank stores them.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPuzzle {
    /// The puzzle as generated (81 characters, `.` empty).
    pub puzzle: String,
    /// Its solution (81 digits).
    pub solution: String,
    /// Exact minlex form (`0` empty).
    pub canon: String,
    /// Class key, hex.
    pub canon_key: String,
    /// Number of clues.
    pub clues: u32,
    /// The `difficulty` rating (log10 of the expected weighted work).
    pub difficulty: f64,
    /// hsolve mean.
    pub hsolve: f64,
    /// hsolve standard deviation.
    pub hsolve_sd: f64,
    /// Hardest hsolve tier used.
    pub tier: u8,
    /// WNEF.
    pub wnef: f64,
    /// WNEF class.
    pub wnef_class: u8,
    /// Box norm.
    pub box_norm: f64,
    /// Box-norm class.
    pub box_class: u8,
    /// The hardest technique family needed (paper 004's grade).
    pub technique: String,
    /// The seed's row id, or `None` for a puzzle of a generator.
    pub seed_id: Option<i64>,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
    /// Its level on the bank's levels (0 = easiest).
    pub level: u32,
    /// The symmetry applied to the seed (empty without one).
    pub transform: String,
    /// The job that made it.
    pub job: u64,
}

/// Commits a batch: the rows, and the build's progress (next job, counts), in one
/// transaction.
pub fn insert_batch(conn: &mut Connection, build: &Build, rows: &[NewPuzzle]) -> Result<()> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare_cached(
            "INSERT INTO puzzles (puzzle, solution, canon, canon_key, clues, hsolve, hsolve_sd,
                tier, wnef, wnef_class, box_norm, box_class, technique, seed_id, transform, build_id, job,
                difficulty, percentile, pick, level)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                ?19, ?20, ?21)",
        )?;
        for r in rows {
            stmt.execute(params![
                r.puzzle,
                r.solution,
                r.canon,
                r.canon_key,
                r.clues,
                r.hsolve,
                r.hsolve_sd,
                r.tier,
                r.wnef,
                r.wnef_class,
                r.box_norm,
                r.box_class,
                r.technique,
                r.seed_id,
                r.transform,
                build.id,
                r.job as i64,
                r.difficulty,
                r.percentile,
                super::pick_of(&r.canon_key),
                r.level
            ])?;
        }
        super::builds::save_progress(&tx, build)?;
    }
    Ok(tx.commit()?)
}

/// The class keys already in the bank.
pub fn keys(conn: &Connection) -> Result<HashSet<String>> {
    let mut stmt = conn.prepare("SELECT canon_key FROM puzzles")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The percentile and level of each puzzle a build stored.
pub fn build_scale(conn: &Connection, build_id: i64) -> Result<Vec<(f64, u32)>> {
    Ok(conn
        .prepare("SELECT percentile, level FROM puzzles WHERE build_id = ?1")?
        .query_map([build_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// Recomputes every stored puzzle's percentile against `reference` and its level on `levels`,
/// for `rating` (inside the caller's transaction). Returns how many rows were updated.
pub fn recompute_scale(
    conn: &Connection,
    rating: RatingKind,
    reference: &Reference,
    levels: &LevelSet,
) -> Result<u64> {
    let rows: Vec<(i64, Option<f64>)> = conn
        .prepare(&format!("SELECT id, {} FROM puzzles", column(rating)))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut stmt =
        conn.prepare_cached("UPDATE puzzles SET percentile = ?2, level = ?3 WHERE id = ?1")?;
    let mut n = 0;
    for (id, value) in rows {
        let p = value.map(|v| reference.percentile(v));
        let l = value.map(|v| levels.of(v) as u32);
        stmt.execute(params![id, p, l])?;
        n += 1;
    }
    Ok(n)
}

/// Forgets every stored `difficulty` (and what is measured from it) when the bank's ratings
/// were made by another model: the rows become stale and the next backfill re-rates them.
pub fn forget_difficulty(conn: &Connection) -> Result<u64> {
    Ok(conn.execute(
        "UPDATE puzzles SET difficulty = NULL, percentile = NULL, level = NULL",
        [],
    )? as u64)
}

/// The `puzzles` column holding a rating.
pub(crate) fn column(rating: RatingKind) -> &'static str {
    match rating {
        RatingKind::Difficulty => "difficulty",
        RatingKind::Hsolve => "hsolve",
    }
}

/// A row stored by an older version that needs bringing up to date.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Stale {
    /// Row id.
    pub id: i64,
    /// The puzzle.
    pub puzzle: String,
    /// Its class key, hex.
    pub canon_key: String,
    /// Its `difficulty`, when it has one.
    pub difficulty: Option<f64>,
    /// Its hsolve rating.
    pub hsolve: f64,
}

/// The rows without a `difficulty` (migration 0003 leaves them NULL, a new difficulty model
/// forgets them), a retrieval tie-break, a percentile or a level, in id order.
pub fn stale(conn: &Connection) -> Result<Vec<Stale>> {
    super::rows(
        &mut conn.prepare(
            "SELECT id, puzzle, canon_key, difficulty, hsolve FROM puzzles
             WHERE difficulty IS NULL OR pick IS NULL OR percentile IS NULL OR level IS NULL
             ORDER BY id",
        )?,
        [],
    )
}

/// A stale row brought up to date.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refreshed {
    /// Row id.
    pub id: i64,
    /// Its `difficulty`.
    pub difficulty: f64,
    /// Its percentile.
    pub percentile: f64,
    /// Its level (0 = easiest).
    pub level: u32,
}

/// Writes refreshed rows (their difficulty, percentile, level and tie-break) in one
/// transaction.
pub fn refresh(conn: &mut Connection, rows: &[(Refreshed, &str)]) -> Result<()> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare_cached(
            "UPDATE puzzles SET difficulty = ?2, percentile = ?3, pick = ?4, level = ?5 WHERE id = ?1",
        )?;
        for (r, key) in rows {
            stmt.execute(params![
                r.id,
                r.difficulty,
                r.percentile,
                super::pick_of(key),
                r.level
            ])?;
        }
    }
    Ok(tx.commit()?)
}

/// A stored puzzle as `verify` re-checks it.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Stored {
    /// Row id.
    pub id: i64,
    /// The puzzle.
    pub puzzle: String,
    /// Its stored solution.
    pub solution: String,
    /// Its stored canonical form.
    pub canon: String,
    /// Its stored class key.
    pub canon_key: String,
    /// hsolve mean.
    pub hsolve: f64,
    /// hsolve standard deviation.
    pub hsolve_sd: f64,
    /// Hardest hsolve tier.
    pub tier: u8,
    /// The hardest technique family needed (paper 004's grade).
    pub technique: String,
    /// Its `difficulty` (NULL before the backfill).
    pub difficulty: Option<f64>,
    /// Its percentile.
    pub percentile: Option<f64>,
    /// Its level (0 = easiest).
    pub level: Option<u32>,
}

/// The number of stored puzzles.
pub fn count(conn: &Connection) -> Result<u64> {
    Ok(conn.query_row("SELECT COUNT(*) FROM puzzles", [], |r| r.get::<_, i64>(0))? as u64)
}

/// Every `step`-th row (ids 1, 1 + step, ...), in id order.
pub fn every_nth(conn: &Connection, step: u64) -> Result<Vec<Stored>> {
    super::rows(
        &mut conn.prepare(
            "SELECT id, puzzle, solution, canon, canon_key, hsolve, hsolve_sd, tier, technique,
                 difficulty, percentile, level
             FROM puzzles WHERE (id - 1) % ?1 = 0 ORDER BY id",
        )?,
        [step.max(1) as i64],
    )
}

/// How many puzzles each level holds, by level index (0 = easiest), for `levels` levels.
pub fn level_counts(conn: &Connection, levels: usize) -> Result<Vec<u64>> {
    let mut counts = vec![0u64; levels];
    let mut stmt = conn.prepare_cached(
        "SELECT level, COUNT(*) FROM puzzles WHERE level IS NOT NULL GROUP BY level",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u64>(1)?)))?;
    for row in rows {
        let (level, n) = row?;
        if let Some(c) = usize::try_from(level).ok().and_then(|l| counts.get_mut(l)) {
            *c = n;
        }
    }
    Ok(counts)
}
