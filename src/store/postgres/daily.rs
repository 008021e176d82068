//! The daily puzzles in a fleet's PostgreSQL history: the operations of the bank's own
//! ([`crate::store::daily`]) under the same names.

use super::{key_of, Postgres, Result};
use crate::calendar::Date;
use crate::canon::Key;
use crate::store::daily::DailyRow;
use std::collections::HashSet;

/// The daily puzzles of a fleet's history ([`Postgres::daily`]).
#[derive(Clone, Copy)]
pub struct DailyPuzzles<'a>(pub(super) &'a Postgres);

impl DailyPuzzles<'_> {
    /// The class recorded as the daily puzzle of `day` (`YYYY-MM-DD`) and `level` (its name
    /// in any case), if any: a class, which every copy of the bank (and a bank the history
    /// was rebound to) finds by its key.
    pub async fn recorded(&self, day: &str, level: &str) -> Result<Option<Key>> {
        self.0.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT canon_key FROM pseudoku_daily WHERE day = $1 \
                     AND lower(level) = lower($2) ORDER BY created_at LIMIT 1",
                )
                .await
                .map_err(self.0.failed())?;
            let row = client
                .query_opt(&stmt, &[&day, &level])
                .await
                .map_err(self.0.failed())?;
            Ok(row.map(|r| key_of(r.get(0))))
        })
        .await
    }

    /// The daily puzzles recorded at `level` (its name in any case) for the days from `from`
    /// to `to` (both included): each day with its class, the latest first.
    pub async fn between(&self, from: Date, to: Date, level: &str) -> Result<Vec<(Date, Key)>> {
        let (from, to) = (from.to_string(), to.to_string());
        self.0.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT day, canon_key FROM pseudoku_daily WHERE day BETWEEN $1 AND $2 \
                     AND lower(level) = lower($3) ORDER BY day DESC, created_at",
                )
                .await
                .map_err(self.0.failed())?;
            let rows = client
                .query(&stmt, &[&from, &to, &level])
                .await
                .map_err(self.0.failed())?;
            // A day the calendar lacks (the schema checks only its shape) is no date to list.
            let mut days: Vec<(Date, Key)> = rows
                .iter()
                .filter_map(|r| Some((r.get::<_, &str>(0).parse().ok()?, key_of(r.get(1)))))
                .collect();
            // One a day (a level's name spelt two ways, recorded apart: the first).
            days.dedup_by(|b, a| a.0 == b.0);
            Ok(days)
        })
        .await
    }

    /// Every class that is some date's and level's daily puzzle.
    pub async fn classes(&self) -> Result<HashSet<Key>> {
        self.0.run(async |client| {
            let rows = client
                .query("SELECT canon_key FROM pseudoku_daily", &[])
                .await
                .map_err(self.0.failed())?;
            Ok(rows.iter().map(|r| key_of(r.get(0))).collect())
        })
        .await
    }

    /// Records puzzle `puzzle_id` (class `key`) as the daily puzzle of `day` and `level`;
    /// false, changing nothing, when the date and level has one (another server's, maybe) or
    /// the class is another date's.
    pub async fn record(
        &self,
        day: &str,
        level: &str,
        puzzle_id: i64,
        key: &Key,
    ) -> Result<bool> {
        self.0.run(async |client| {
            let n = client
                .execute(
                    "INSERT INTO pseudoku_daily (day, level, puzzle_id, canon_key) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    &[&day, &level, &puzzle_id, &&key.0[..]],
                )
                .await
                .map_err(self.0.failed())?;
            Ok(n == 1)
        })
        .await
    }

    /// Adds `rows` to the daily puzzles in one transaction, keeping those there; how many
    /// were added.
    pub async fn add(&self, rows: &[DailyRow]) -> Result<u64> {
        self.0.run(async |client| {
            let tx = client.transaction().await.map_err(self.0.failed())?;
            let mut added = 0;
            for r in rows {
                added += tx
                    .execute(
                        "INSERT INTO pseudoku_daily (day, level, puzzle_id, canon_key) \
                         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                        &[&r.day, &r.level, &r.puzzle_id, &&r.key.0[..]],
                    )
                    .await
                    .map_err(self.0.failed())?;
            }
            tx.commit().await.map_err(self.0.failed())?;
            Ok(added)
        })
        .await
    }

    /// Every daily puzzle, by date and level.
    pub async fn all(&self) -> Result<Vec<DailyRow>> {
        self.0.run(async |client| {
            let rows = client
                .query(
                    "SELECT day, level, puzzle_id, canon_key FROM pseudoku_daily \
                     ORDER BY day, level",
                    &[],
                )
                .await
                .map_err(self.0.failed())?;
            Ok(rows
                .iter()
                .map(|r| DailyRow {
                    day: r.get(0),
                    level: r.get(1),
                    puzzle_id: r.get(2),
                    key: key_of(r.get(3)),
                })
                .collect())
        })
        .await
    }
}
