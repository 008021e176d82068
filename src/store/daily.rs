//! The site's daily puzzles (`daily`): the puzzle recorded for each date and level, once per
//! class.

use super::Result;
use crate::canon::Key;
use rusqlite::{params, Connection, OptionalExtension};

/// The puzzle recorded for `date` (`YYYY-MM-DD`) and `level`, if any.
pub fn recorded(conn: &Connection, date: &str, level: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT puzzle_id FROM daily WHERE date = ?1 AND level = ?2")?
        .query_row(params![date, level], |r| r.get(0))
        .optional()?)
}

/// Whether the class `key` is the daily puzzle of some date and level.
pub fn has_class(conn: &Connection, key: &Key) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM daily WHERE canon_key = ?1")?
        .query_row([&key.0[..]], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Records puzzle `puzzle_id` (class `key`) as the daily puzzle of `date` and `level`; false,
/// changing nothing, when that date and level has one or the class is another's.
pub fn record(conn: &Connection, date: &str, level: &str, puzzle_id: i64, key: &Key) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO daily (date, level, puzzle_id, canon_key) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![date, level, puzzle_id, &key.0[..]])?;
    Ok(n == 1)
}
