//! The site's daily puzzles (`daily`): the puzzle recorded for each date and level, once per
//! class.

use super::Result;
use crate::calendar::Date;
use crate::canon::Key;
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// The puzzle recorded for `date` (`YYYY-MM-DD`) and `level` (its name in any case: rows
/// recorded before names were the bank's spelling), if any.
pub fn recorded(bank: &Bank, date: &str, level: &str) -> Result<Option<i64>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached(
            "SELECT puzzle_id FROM daily WHERE date = ?1 AND level = ?2 COLLATE NOCASE \
             ORDER BY created_at LIMIT 1",
        )?
        .query_row(params![date, level], |r| r.get(0))
        .optional()?)
}

/// The daily puzzles recorded at `level` (its name in any case) for the dates from `from` to
/// `to` (both included): each date with its puzzle's id and class, the latest date first.
pub fn between(bank: &Bank, from: Date, to: Date, level: &str) -> Result<Vec<(Date, i64, Key)>> {
    let conn = &bank.conn;
    let mut rows = conn
        .prepare_cached(
            "SELECT date, puzzle_id, canon_key FROM daily \
             WHERE date BETWEEN ?1 AND ?2 AND level = ?3 COLLATE NOCASE \
             ORDER BY date DESC, created_at",
        )?
        .query_map(params![from.to_string(), to.to_string(), level], |r| {
            let day: String = r.get(0)?;
            let date = day.parse::<Date>().map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
            })?;
            let key: Vec<u8> = r.get(2)?;
            Ok((
                date,
                r.get::<_, i64>(1)?,
                Key(key
                    .try_into()
                    .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(2, 0))?),
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    // One a date (a level's name spelt two ways, recorded apart: the first, as `recorded`).
    rows.dedup_by(|b, a| a.0 == b.0);
    Ok(rows)
}

/// Whether the class `key` is the daily puzzle of some date and level.
pub fn has_class(bank: &Bank, key: &Key) -> Result<bool> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached("SELECT 1 FROM daily WHERE canon_key = ?1")?
        .query_row([&key.0[..]], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Records puzzle `puzzle_id` (class `key`) as the daily puzzle of `date` and `level`; false,
/// changing nothing, when that date and level has one or the class is another's.
pub fn record(bank: &Bank, date: &str, level: &str, puzzle_id: i64, key: &Key) -> Result<bool> {
    let conn = &bank.conn;
    let n = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO daily (date, level, puzzle_id, canon_key) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![date, level, puzzle_id, &key.0[..]])?;
    Ok(n == 1)
}

/// One daily puzzle, as the bank and a fleet's history keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyRow {
    /// Its date, `YYYY-MM-DD`.
    pub day: String,
    /// Its level's name.
    pub level: String,
    /// The puzzle's id in the bank.
    pub puzzle_id: i64,
    /// Its class.
    pub key: Key,
}

/// Every daily puzzle of the bank, by date and level.
pub fn all(bank: &Bank) -> Result<Vec<DailyRow>> {
    let conn = &bank.conn;
    let mut stmt =
        conn.prepare("SELECT date, level, puzzle_id, canon_key FROM daily ORDER BY date, level")?;
    let rows = stmt.query_map([], |r| {
        let key: Vec<u8> = r.get(3)?;
        Ok(DailyRow {
            day: r.get(0)?,
            level: r.get(1)?,
            puzzle_id: r.get(2)?,
            key: Key(key
                .try_into()
                .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(3, 0))?),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds `rows` to the bank's daily puzzles, each only when the bank's puzzle of that id is of
/// that class (a row recorded against another bank is skipped) and its date and level and its
/// class are free; each added puzzle is marked served. How many were added. The caller holds
/// a write transaction.
pub fn add(bank: &Bank, rows: &[DailyRow]) -> Result<u64> {
    let conn = &bank.conn;
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO daily (date, level, puzzle_id, canon_key) \
         SELECT ?1, ?2, id, canon_key FROM puzzles WHERE id = ?3 AND canon_key = ?4",
    )?;
    let mut added = 0;
    for r in rows {
        if insert.execute(params![r.day, r.level, r.puzzle_id, &r.key.0[..]])? == 1 {
            super::retrieval::mark_served(bank, r.puzzle_id)?;
            added += 1;
        }
    }
    Ok(added)
}
