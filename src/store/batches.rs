//! What publisher exports recorded: the puzzles of each date and slot (`batches`, one row per
//! class key, replaced rows kept) and the files written with their hashes (`export_files`).

use super::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// One exported puzzle, as the files show it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Exported {
    /// The date it is published.
    pub date: String,
    /// Its slot in the day, from 1.
    pub slot: u32,
    /// Its level (or band) as the mix named it.
    pub level: String,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// Its solution, 81 digits (empty as read: the caller solves the puzzle).
    pub solution: String,
    /// Its `difficulty` when it was exported (`None` if it had none yet).
    pub difficulty: Option<f64>,
    /// Its hsolve rating when it was exported.
    pub hsolve: f64,
    /// Its percentile when it was exported.
    pub percentile: f64,
    /// Its row id in the bank.
    pub id: i64,
}

/// A slot recorded for a date, with what the variety rule compares.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Recorded {
    /// The date, `YYYY-MM-DD`.
    pub date: String,
    /// The slot, from 1.
    pub slot: u32,
    /// The level (or band) as the mix named it.
    pub level: String,
    /// The class key of the puzzle's solution grid.
    pub grid_key: String,
    /// The puzzle's seed, if it has one.
    pub seed_id: Option<i64>,
}

/// A new batch record.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRecord<'a> {
    /// The date, `YYYY-MM-DD`.
    pub date: &'a str,
    /// The slot, from 1.
    pub slot: u32,
    /// The level (or band) as the mix names it.
    pub level: &'a str,
    /// The puzzle's row id.
    pub puzzle_id: i64,
    /// The class key of its solution grid.
    pub grid_key: &'a str,
    /// Its rating on the bank's scale now (its `difficulty` and hsolve are recorded from its
    /// row: re-exports show these, whatever later calibrations do).
    pub bank_rating: f64,
    /// Its percentile now.
    pub percentile: f64,
}

/// The current (not replaced) records of the dates `from..=to` (`YYYY-MM-DD`), by date and
/// slot.
pub fn recorded(conn: &Connection, from: &str, to: &str) -> Result<Vec<Recorded>> {
    super::rows(
        &mut conn.prepare(
            "SELECT date, slot, level, grid_key, seed_id FROM batches
             WHERE replaced = 0 AND date BETWEEN ?1 AND ?2 ORDER BY date, slot",
        )?,
        [from, to],
    )
}

/// Retires the current records of `date` (they stay, so their classes are never used again).
pub fn retire(conn: &Connection, date: &str) -> Result<()> {
    conn.execute(
        "UPDATE batches SET replaced = 1 WHERE date = ?1 AND replaced = 0",
        [date],
    )?;
    Ok(())
}

/// Records an exported puzzle (its class key and seed come from its row).
pub fn record(conn: &Connection, r: &NewRecord) -> Result<()> {
    conn.execute(
        "INSERT INTO batches (date, slot, level, puzzle_id, canon_key, grid_key, seed_id,
            bank_rating, percentile, difficulty, hsolve)
         SELECT ?1, ?2, ?3, id, lower(hex(canon_key)), ?4, seed_id, ?6, ?7, difficulty / 1000.0,
            hsolve / 100.0
         FROM puzzles WHERE id = ?5",
        params![
            r.date,
            r.slot,
            r.level,
            r.grid_key,
            r.puzzle_id,
            r.bank_rating,
            r.percentile
        ],
    )?;
    Ok(())
}

/// The puzzles recorded for `date`, in slot order, with the ratings and percentile recorded
/// with them (their solutions left empty: the caller solves them).
pub fn day(conn: &Connection, date: &str) -> Result<Vec<Exported>> {
    let mut stmt = conn.prepare(
        "SELECT b.date, b.slot, b.level, p.puzzle, b.difficulty, b.hsolve, b.percentile, p.id
         FROM batches b JOIN puzzles p ON p.id = b.puzzle_id
         WHERE b.date = ?1 AND b.replaced = 0 ORDER BY b.slot",
    )?;
    let rows = stmt.query_map([date], |r| {
        Ok(Exported {
            date: r.get(0)?,
            slot: r.get(1)?,
            level: r.get(2)?,
            puzzle: super::puzzles::line_of(r.get_ref(3)?.as_blob()?).unwrap_or_default(),
            solution: String::new(),
            difficulty: r.get(4)?,
            hsolve: r.get(5)?,
            percentile: r.get(6)?,
            id: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Records a file an export wrote into the folder `dir` (canonical path), with its blake3 hash.
pub fn record_file(conn: &Connection, dir: &str, name: &str, blake3: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO export_files (dir, name, blake3) VALUES (?1, ?2, ?3)",
        params![dir, name, blake3],
    )?;
    Ok(())
}

/// The hash of the latest record of file `name` in folder `dir`, if any.
pub fn file_hash(conn: &Connection, dir: &str, name: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row(
            "SELECT blake3 FROM export_files WHERE dir = ?1 AND name = ?2
             ORDER BY id DESC LIMIT 1",
            [dir, name],
            |r| r.get(0),
        )
        .optional()?)
}
