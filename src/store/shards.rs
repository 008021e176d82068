//! Shards: the `shards` row that says which share of a build's jobs a bank holds and how far
//! each target's jobs have run, the candidates it stored (`shard_rows`, by job), and what
//! `merge` reads and writes.

use super::builds::Build;
use super::puzzles::{self, NewPuzzle};
use super::Result;
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// The shard a bank holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRow {
    /// The build that runs it.
    pub build_id: i64,
    /// K of K/N (1-based).
    pub shard: u64,
    /// N of K/N.
    pub shards: u64,
    /// Jobs per block: block b holds jobs `b*block ..< (b+1)*block` and belongs to shard
    /// `b mod N + 1`.
    pub block: u64,
    /// Each target's quota (of the whole build, not of the shard).
    pub quotas: Vec<u64>,
    /// Per target: the first of the shard's jobs of that target not run yet (every one below
    /// it has run).
    pub cursors: Vec<u64>,
    /// The weights of the build's job assignment (`bank::accept::Assignment`); empty for a
    /// shard made before assignments were recorded (round-robin).
    pub weights: Vec<u32>,
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

fn split(text: &str) -> rusqlite::Result<Vec<u64>> {
    text.split_whitespace()
        .map(|w| {
            w.parse().map_err(|_| {
                rusqlite::Error::FromSqlConversionFailure(
                    0,
                    rusqlite::types::Type::Text,
                    format!("bad number list {text:?}").into(),
                )
            })
        })
        .collect()
}

/// The bank's shard row, if it holds a shard.
pub fn read(bank: &Bank) -> Result<Option<ShardRow>> {
    let conn = &bank.conn;
    Ok(conn
        .query_row(
            "SELECT build_id, shard, shards, block, quotas, cursors, assignment FROM shards
             ORDER BY build_id LIMIT 1",
            [],
            |r| {
                Ok(ShardRow {
                    build_id: r.get(0)?,
                    shard: r.get::<_, i64>(1)? as u64,
                    shards: r.get::<_, i64>(2)? as u64,
                    block: r.get::<_, i64>(3)? as u64,
                    quotas: split(&r.get::<_, String>(4)?)?,
                    cursors: split(&r.get::<_, String>(5)?)?,
                    weights: split(&r.get::<_, String>(6)?)?
                        .into_iter()
                        .map(|w| u32::try_from(w).unwrap_or(u32::MAX))
                        .collect(),
                })
            },
        )
        .optional()?)
}

/// Records that the bank holds shard `row` (or replaces what it said).
pub fn save(bank: &Bank, row: &ShardRow) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
        "INSERT OR REPLACE INTO shards
         (build_id, shard, shards, block, quotas, cursors, assignment)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            row.build_id,
            row.shard as i64,
            row.shards as i64,
            row.block as i64,
            join(&row.quotas),
            join(&row.cursors),
            join(
                &row.weights
                    .iter()
                    .map(|&w| u64::from(w))
                    .collect::<Vec<_>>()
            )
        ],
    )?;
    Ok(())
}

/// A shard's stored candidate: its row and the targets it fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The row (its job included).
    pub row: NewPuzzle,
    /// Bit t: it fits target t.
    pub fits: u64,
}

/// Commits a shard's batch: its candidates, the build's progress and the shard's cursors, in
/// one transaction.
pub fn insert_batch(
    bank: &mut Bank,
    build: &Build,
    shard: &ShardRow,
    rows: &[Candidate],
) -> Result<()> {
    let conn = &bank.conn;
    super::immediate(bank, || {
        let ids = puzzles::insert_rows(bank, rows.iter().map(|c| (build.id, &c.row)))?;
        let mut stmt = conn
            .prepare_cached("INSERT INTO shard_rows (job, puzzle_id, fits) VALUES (?1, ?2, ?3)")?;
        for (c, id) in rows.iter().zip(ids) {
            stmt.execute(params![c.row.job as i64, id, c.fits as i64])?;
        }
        super::builds::save_progress(bank, build)?;
        save(bank, shard)
    })
}

/// Up to `limit` of the shard's candidates with jobs above `after` (all: `None`), by job.
pub fn candidates(bank: &Bank, after: Option<u64>, limit: usize) -> Result<Vec<Candidate>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT s.fits, p.id, {} FROM shard_rows s JOIN puzzles p ON p.id = s.puzzle_id
         WHERE s.job > ?1 ORDER BY s.job LIMIT ?2",
        puzzles::NEW_PUZZLE_COLUMNS
    ))?;
    let after = after.map_or(-1, |j| j as i64);
    let rows = stmt
        .query_map(params![after, limit as i64], |r| {
            Ok((
                r.get::<_, i64>(1)?,
                Candidate {
                    fits: r.get::<_, i64>(0)? as u64,
                    row: puzzles::new_puzzle_of(r, 2)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    // Its named ratings come with it.
    rows.into_iter()
        .map(|(id, mut c)| {
            c.row.named = super::named::of(bank, id)?;
            Ok(c)
        })
        .collect()
}

/// Commits a step of a merge: the accepted rows (each with the build row of its shard) and
/// every shard's build row moved to `next_job`, in one transaction.
pub fn insert_merged(
    bank: &mut Bank,
    rows: &[(i64, NewPuzzle)],
    builds: &[Build],
) -> Result<()> {
    super::immediate(bank, || {
        puzzles::insert_rows(bank, rows.iter().map(|(b, r)| (*b, r)))?;
        for b in builds {
            super::builds::save_progress(bank, b)?;
        }
        Ok(())
    })
}
