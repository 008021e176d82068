//! What publisher exports recorded: the puzzles of each date and slot (`batches`, one row per
//! class key, replaced rows kept, besides a book's reprints) and the files written with their hashes (`export_files`).

use super::puzzles::stored_puzzle;
use super::{Result, StoreError};
use crate::calendar::Date;
use crate::canon::Key;
use crate::grid::Puzzle;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use super::Bank;
use rusqlite::{params, OptionalExtension};

/// What a record belongs to: a day's export, or a book (by its name). The `date` column
/// holds `YYYY-MM-DD` for a day and `book:NAME` for a book.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Edition {
    /// The export of a day.
    Day(Date),
    /// A book, by its name.
    Book(String),
}

impl std::fmt::Display for Edition {
    /// Its name in messages and file names: the date, or the book's name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Edition::Day(d) => write!(f, "{d}"),
            Edition::Book(name) => f.write_str(name),
        }
    }
}

impl Edition {
    /// How the `date` column holds it: `YYYY-MM-DD`, or `book:NAME`.
    pub fn stored(&self) -> String {
        match self {
            Edition::Day(d) => d.to_string(),
            Edition::Book(name) => format!("book:{name}"),
        }
    }
}

impl ToSql for Edition {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.stored()))
    }
}

impl FromSql for Edition {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Edition> {
        let text = value.as_str()?;
        Ok(match text.strip_prefix("book:") {
            Some(name) => Edition::Book(name.to_string()),
            None => Edition::Day(text.parse().map_err(|e| FromSqlError::Other(Box::new(e)))?),
        })
    }
}

/// One puzzle recorded for a date, with the ratings and percentile recorded with it.
#[derive(Clone, Debug, PartialEq)]
pub struct DayRow {
    /// Its day, or its book.
    pub edition: Edition,
    /// Its slot in the day, from 1.
    pub slot: u32,
    /// Its level (or band) as the mix named it.
    pub level: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its `difficulty` when it was exported (`None` if it had none yet).
    pub difficulty: Option<f64>,
    /// Its hsolve rating when it was exported.
    pub hsolve: f64,
    /// Its percentile when it was exported.
    pub percentile: f64,
    /// Its row id in the bank.
    pub id: i64,
    /// Its number in the bank's daily series (a daily puzzle's; a book's have none).
    pub number: Option<u32>,
}

/// A slot recorded for a date, with what the variety rule compares.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The date.
    pub date: Date,
    /// The slot, from 1.
    pub slot: u32,
    /// The level (or band) as the mix named it.
    pub level: String,
    /// The class key of the puzzle's solution grid.
    pub grid_key: Key,
    /// The puzzle's seed, if it has one.
    pub seed_id: Option<i64>,
}

/// A new batch record.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRecord<'a> {
    /// Its day, or its book.
    pub edition: &'a Edition,
    /// The slot, from 1.
    pub slot: u32,
    /// The level (or band) as the mix names it.
    pub level: &'a str,
    /// The puzzle's row id.
    pub puzzle_id: i64,
    /// The class key of its solution grid.
    pub grid_key: &'a Key,
    /// Its rating on the bank's scale now (its `difficulty` and hsolve are recorded from its
    /// row: re-exports show these, whatever later calibrations do).
    pub bank_rating: f64,
    /// Its percentile now.
    pub percentile: f64,
    /// A book's reprint of a class an earlier book or export used.
    pub reprint: bool,
}

/// The current (not replaced) records of the days `from..=to`, by date and slot.
pub fn recorded(bank: &Bank, from: Date, to: Date) -> Result<Vec<Recorded>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT date, slot, level, grid_key, seed_id, puzzle_id FROM batches
         WHERE replaced = 0 AND date BETWEEN ?1 AND ?2 ORDER BY date, slot",
    )?;
    let mut rows = stmt.query([from.to_string(), to.to_string()])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let hex: String = r.get(3)?;
        let Edition::Day(date) = r.get(0)? else {
            continue; // a book's key never sorts between two dates
        };
        out.push(Recorded {
            date,
            slot: r.get(1)?,
            level: r.get(2)?,
            grid_key: Key::from_hex(&hex).ok_or_else(|| StoreError::Damaged {
                id: r.get(5).unwrap_or_default(),
                what: format!("its export record's grid key {hex:?} is not 64 hex digits"),
            })?,
            seed_id: r.get(4)?,
        });
    }
    Ok(out)
}

/// The puzzle an export recorded for `date` at `level` (the first such slot), if any.
pub fn published(bank: &Bank, date: Date, level: &str) -> Result<Option<i64>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached(
            "SELECT puzzle_id FROM batches WHERE date = ?1 AND level = ?2 AND replaced = 0
             ORDER BY slot LIMIT 1",
        )?
        .query_row(params![Edition::Day(date), level], |r| r.get(0))
        .optional()?)
}

/// Retires the current records of `edition` (they stay, so their classes are never used
/// again).
pub fn retire(bank: &Bank, edition: &Edition) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
        "UPDATE batches SET replaced = 1 WHERE date = ?1 AND replaced = 0",
        [edition],
    )?;
    Ok(())
}

/// The puzzles ever recorded for `edition`, retired ones included.
pub fn ever_recorded(bank: &Bank, edition: &Edition) -> Result<Vec<i64>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare("SELECT puzzle_id FROM batches WHERE date = ?1 ORDER BY id")?;
    let ids = stmt
        .query_map([edition], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// The puzzles a reprint may not take on `today`: those recorded for a date after it (not
/// published yet), and those whose every record was retired by `--replace` (never to be used
/// again).
pub fn not_reprintable(bank: &Bank, today: Date) -> Result<Vec<i64>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT puzzle_id FROM batches
         GROUP BY puzzle_id
         HAVING max(replaced = 0 AND date GLOB '[0-9]*' AND date > ?1) = 1
             OR min(replaced) = 1
         ORDER BY puzzle_id",
    )?;
    let ids = stmt
        .query_map([today.to_string()], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// The mix `edition` was exported with, as recorded (`None`: never recorded, or exported
/// before mixes were).
pub fn day_mix(bank: &Bank, edition: &Edition) -> Result<Option<String>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached("SELECT mix FROM export_mixes WHERE date = ?1")?
        .query_row([edition], |r| r.get(0))
        .optional()?)
}

/// Records that `edition` is exported with the mix `mix` (in place of any mix recorded
/// before).
pub fn record_day_mix(bank: &Bank, edition: &Edition, mix: &str) -> Result<()> {
    let conn = &bank.conn;
    conn.prepare_cached("INSERT OR REPLACE INTO export_mixes (date, mix) VALUES (?1, ?2)")?
        .execute(params![edition, mix])?;
    Ok(())
}

/// Records an exported puzzle (its class key and seed come from its row); a daily one takes
/// the next number of the bank's daily series.
pub fn record(bank: &Bank, r: &NewRecord) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
        "INSERT INTO batches (date, slot, level, puzzle_id, canon_key, grid_key, seed_id,
            bank_rating, percentile, difficulty, hsolve, reprint, number)
         SELECT ?1, ?2, ?3, id, lower(hex(canon_key)), ?4, seed_id, ?6, ?7, difficulty / 1000.0,
            hsolve / 100.0, ?8,
            CASE WHEN ?1 LIKE 'book:%' THEN NULL
                 ELSE (SELECT COALESCE(MAX(number), 0) + 1 FROM batches
                       WHERE number IS NOT NULL) END
         FROM puzzles WHERE id = ?5",
        params![
            r.edition,
            r.slot,
            r.level,
            r.grid_key.to_hex(),
            r.puzzle_id,
            r.bank_rating,
            r.percentile,
            r.reprint
        ],
    )?;
    Ok(())
}

/// The puzzles recorded for `edition`, in slot order, with the ratings and percentile
/// recorded with them.
pub fn day(bank: &Bank, edition: &Edition) -> Result<Vec<DayRow>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT b.date, b.slot, b.level, p.puzzle, b.difficulty, b.hsolve, b.percentile, p.id,
            b.number
         FROM batches b JOIN puzzles p ON p.id = b.puzzle_id
         WHERE b.date = ?1 AND b.replaced = 0 ORDER BY b.slot",
    )?;
    let mut rows = stmt.query([edition])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let id = r.get(7)?;
        out.push(DayRow {
            edition: r.get(0)?,
            slot: r.get(1)?,
            level: r.get(2)?,
            puzzle: stored_puzzle(r.get_ref(3)?).map_err(|e| StoreError::Damaged {
                id,
                what: e.to_string(),
            })?,
            difficulty: r.get(4)?,
            hsolve: r.get(5)?,
            percentile: r.get(6)?,
            id,
            number: r.get(8)?,
        });
    }
    Ok(out)
}

/// The day `edition` was first recorded (its earliest record's, replaced ones included), in
/// UTC; `None` if it never was.
pub fn first_recorded(bank: &Bank, edition: &Edition) -> Result<Option<Date>> {
    let conn = &bank.conn;
    let text: Option<String> = conn
        .prepare_cached("SELECT MIN(created_at) FROM batches WHERE date = ?1")?
        .query_row([edition], |r| r.get(0))?;
    Ok(text.and_then(|t| t.get(..10).and_then(|d| d.parse().ok())))
}

/// The number of the daily series an export gave puzzle `puzzle_id` on `date`, if it did.
pub fn daily_number(bank: &Bank, date: Date, puzzle_id: i64) -> Result<Option<u32>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached(
            "SELECT number FROM batches WHERE date = ?1 AND puzzle_id = ?2 AND replaced = 0",
        )?
        .query_row(params![Edition::Day(date), puzzle_id], |r| r.get(0))
        .optional()?
        .flatten())
}

/// Records a file an export wrote into the folder `dir` (canonical path), with its blake3 hash.
pub fn record_file(bank: &Bank, dir: &str, name: &str, blake3: &str) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
        "INSERT INTO export_files (dir, name, blake3) VALUES (?1, ?2, ?3)",
        params![dir, name, blake3],
    )?;
    Ok(())
}

/// Every file recorded in folder `dir`, by name, with the hash of its latest record.
pub fn files_in(bank: &Bank, dir: &str) -> Result<Vec<(String, String)>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT name, blake3 FROM export_files e WHERE dir = ?1 \
         AND id = (SELECT MAX(id) FROM export_files WHERE dir = ?1 AND name = e.name) \
         ORDER BY name",
    )?;
    let rows = stmt.query_map([dir], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The hash of the latest record of file `name` in folder `dir`, if any.
pub fn file_hash(bank: &Bank, dir: &str, name: &str) -> Result<Option<String>> {
    let conn = &bank.conn;
    Ok(conn
        .query_row(
            "SELECT blake3 FROM export_files WHERE dir = ?1 AND name = ?2
             ORDER BY id DESC LIMIT 1",
            [dir, name],
            |r| r.get(0),
        )
        .optional()?)
}
