//! The bank's schema: an append-only list of migrations, applied in order. A migration is
//! either a SQL file of `migrations/` or a data step (a function that rewrites rows). The
//! schema version (`PRAGMA user_version`) is the number of migrations applied, so
//! [`SCHEMA_VERSION`] is the list's length. Never edit or reorder a shipped entry: add one.

use super::{Result, StoreError};
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// What a migration does.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// Runs this SQL (a file of `migrations/`).
    Sql(&'static str),
    /// Rewrites rows.
    Data(fn(&Bank) -> rusqlite::Result<()>),
}

/// One migration: its name and its step. Its version is its position in [`MIGRATIONS`] + 1.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// The file name (`0004_levels.sql`) or a name for a data step.
    pub name: &'static str,
    /// What it does.
    pub step: Step,
}

/// A migration that runs the SQL file `migrations/NAME`.
macro_rules! sql_file {
    ($name:literal) => {
        Migration {
            name: $name,
            step: Step::Sql(include_str!(concat!("../../migrations/", $name))),
        }
    };
}

/// The migrations, in order. Append only; never edit a shipped one.
pub const MIGRATIONS: &[Migration] = &[
    sql_file!("0001_initial.sql"),
    sql_file!("0002_builds.sql"),
    sql_file!("0003_difficulty.sql"),
    sql_file!("0004_levels.sql"),
    sql_file!("0005_batches.sql"),
    Migration {
        name: "0006 (data): retrieval tie-breaks for rows stored before 0004",
        step: Step::Data(fill_picks),
    },
    sql_file!("0007_seed_imports.sql"),
    sql_file!("0008_names.sql"),
    sql_file!("0009_rating_levels.sql"),
    sql_file!("0010_user_history.sql"),
    sql_file!("0011_compact_rows.sql"),
    Migration {
        name: "0012 (data): every puzzle row into the compact table",
        step: Step::Data(compact_rows),
    },
    sql_file!("0013_compact_indexes.sql"),
    Migration {
        name: "0014 (data): the rating index follows the bank's rating",
        step: Step::Data(rating_index),
    },
    sql_file!("0015_shards.sql"),
    sql_file!("0016_shard_assignment.sql"),
    sql_file!("0017_user_history_keys.sql"),
    sql_file!("0018_hardest_step.sql"),
    sql_file!("0019_named_ratings.sql"),
    sql_file!("0020_step_counts.sql"),
    sql_file!("0021_export_mixes.sql"),
    sql_file!("0022_reprints.sql"),
    sql_file!("0023_daily.sql"),
    sql_file!("0024_bank_id.sql"),
    sql_file!("0025_lineage.sql"),
    Migration {
        name: "0026 (data): the lineage of the puzzles stored before 0025",
        step: Step::Data(super::lineage::record_existing),
    },
    sql_file!("0027_import_source.sql"),
    sql_file!("0028_play.sql"),
    sql_file!("0029_daily_numbers.sql"),
    sql_file!("0030_held_games.sql"),
];

/// The schema version this program writes: the number of migrations.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Gives every row that migration 0004 left without a retrieval tie-break its `pick`.
fn fill_picks(bank: &Bank) -> rusqlite::Result<()> {
    let conn = &bank.conn;
    let rows: Vec<(i64, String)> = conn
        .prepare("SELECT id, canon_key FROM puzzles WHERE pick IS NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut stmt = conn.prepare("UPDATE puzzles SET pick = ?2 WHERE id = ?1")?;
    for (id, key) in rows {
        stmt.execute(params![id, pick_of(&key)])?;
    }
    Ok(())
}

/// The retrieval tie-break migration 0004 added: the first 60 bits of a class key (hex).
/// Compact rows (0011) no longer store it.
fn pick_of(canon_key: &str) -> i64 {
    i64::from_str_radix(canon_key.get(..15).unwrap_or("0"), 16).unwrap_or(0)
}

/// A row an older version stored that does not convert (never written by pseudoku).
fn bad_row(id: i64, what: &str) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_MISMATCH),
        Some(format!("puzzle row {id}: {what}")),
    )
}

/// Copies every row of the old `puzzles` into `puzzles_compact` (migration 0011), converted:
/// cells packed, the hex key as 32 bytes, ratings in whole units, the technique by rank, the
/// transform by rank; then the old table goes and the compact one takes its name. Columns
/// derived in microseconds (solution, canonical form, WNEF, box norm, percentile, tie-break,
/// creation time) are not copied.
fn compact_rows(bank: &Bank) -> rusqlite::Result<()> {
    let conn = &bank.conn;
    use super::puzzles::{pack, to_units};
    use crate::scale::RatingKind::{Difficulty, Hsolve};
    let mut read = conn.prepare(
        "SELECT id, puzzle, canon_key, clues, difficulty, hsolve, hsolve_sd, tier, technique,
            level, seed_id, transform, build_id, job, served_at FROM puzzles ORDER BY id",
    )?;
    let mut write = conn.prepare(
        "INSERT INTO puzzles_compact (id, puzzle, canon_key, clues, difficulty, hsolve, hsolve_sd,
            tier, technique, level, seed_id, transform, build_id, job, served_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let text: String = r.get(1)?;
        let mut cells = [0u8; 81];
        if text.len() != 81 {
            return Err(bad_row(id, "the puzzle is not 81 characters"));
        }
        for (c, b) in cells.iter_mut().zip(text.bytes()) {
            *c = match b {
                b'.' | b'0' => 0,
                b'1'..=b'9' => b - b'0',
                _ => {
                    return Err(bad_row(
                        id,
                        "the puzzle has a character other than . and 0-9",
                    ))
                }
            };
        }
        let hex: String = r.get(2)?;
        let key: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2).unwrap_or("x"), 16))
            .collect::<std::result::Result<_, _>>()
            .ok()
            .filter(|k: &Vec<u8>| k.len() == 32 && hex.len() == 64)
            .ok_or_else(|| bad_row(id, "the class key is not 64 hex digits"))?;
        let technique: String = r.get(8)?;
        let technique = crate::technique::Technique::from_name(&technique)
            .ok_or_else(|| bad_row(id, "unknown technique"))?
            .rank();
        let transform: String = r.get(11)?;
        let transform = match transform.as_str() {
            "" => None,
            t => Some(
                t.parse::<crate::transform::Transform>()
                    .map_err(|e| bad_row(id, &e.to_string()))?
                    .rank() as i64,
            ),
        };
        write.execute(rusqlite::params![
            id,
            &pack(&cells)[..],
            key,
            r.get::<_, i64>(3)?,
            r.get::<_, Option<f64>>(4)?.map(|v| to_units(v, Difficulty)),
            to_units(r.get(5)?, Hsolve),
            to_units(r.get(6)?, Hsolve),
            r.get::<_, i64>(7)?,
            technique,
            r.get::<_, Option<i64>>(9)?,
            r.get::<_, Option<i64>>(10)?,
            transform,
            r.get::<_, i64>(12)?,
            r.get::<_, i64>(13)?,
            r.get::<_, Option<String>>(14)?,
        ])?;
    }
    conn.execute_batch("DROP TABLE puzzles; ALTER TABLE puzzles_compact RENAME TO puzzles;")
}

/// Points the rating index of migration 0013 at hsolve in a bank rated by hsolve.
fn rating_index(bank: &Bank) -> rusqlite::Result<()> {
    let conn = &bank.conn;
    let rating: Option<String> = conn
        .query_row("SELECT value FROM settings WHERE key = 'rating'", [], |r| {
            r.get(0)
        })
        .optional()?;
    if rating.as_deref() == Some(crate::scale::RatingKind::Hsolve.name()) {
        super::puzzles::index_rating(bank, crate::scale::RatingKind::Hsolve).map_err(
            |e| match e {
                StoreError::Sqlite(e) => e,
                other => rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                    Some(other.to_string()),
                ),
            },
        )?;
    }
    Ok(())
}

/// The schema version of an open bank.
pub fn version(bank: &Bank) -> Result<u32> {
    let conn = &bank.conn;
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    u32::try_from(v).map_err(|_| StoreError::BadVersion(v))
}

/// Applies the migrations newer than the database's version, each with its version bump, in
/// one write transaction that reads the version first (`BEGIN IMMEDIATE`: two processes
/// opening an old bank at once cannot both apply a migration). Returns how many were applied.
pub fn migrate(bank: &Bank) -> Result<usize> {
    let conn = &bank.conn;
    let found = version(bank)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    if found == SCHEMA_VERSION {
        return Ok(0);
    }
    if found == 0 {
        // A new bank is an empty file; a database with tables but no schema version is
        // someone else's.
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 5")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if !tables.is_empty() {
            return Err(StoreError::Foreign {
                tables: tables.join(", "),
            });
        }
    }
    // Migrations that rebuild a table drop the one other tables' foreign keys name (SQLite's
    // documented way: foreign keys off around the transaction, checked before it commits).
    conn.pragma_update(None, "foreign_keys", "OFF")?;
    let out = apply(bank);
    conn.pragma_update(None, "foreign_keys", "ON")?;
    out
}

/// Applies the pending migrations in one `BEGIN IMMEDIATE` transaction (see [`migrate`]).
fn apply(bank: &Bank) -> Result<usize> {
    let conn = &bank.conn;
    super::immediate(bank, || {
        let current = version(bank)?;
        if current > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                found: current,
                supported: SCHEMA_VERSION,
            });
        }
        let mut applied = 0;
        for (i, m) in MIGRATIONS.iter().enumerate() {
            let v = i as u32 + 1;
            if v <= current {
                continue;
            }
            let failed = |e: rusqlite::Error| StoreError::Migration {
                version: v,
                name: m.name,
                reason: match e {
                    rusqlite::Error::SqlInputError { msg, .. } => msg,
                    rusqlite::Error::SqliteFailure(_, Some(msg)) => msg,
                    other => other.to_string().lines().next().unwrap_or("").to_string(),
                },
            };
            match m.step {
                Step::Sql(sql) => conn.execute_batch(sql).map_err(failed)?,
                Step::Data(f) => f(bank).map_err(failed)?,
            }
            conn.pragma_update(None, "user_version", v)?;
            applied += 1;
        }
        let broken: Option<String> = conn
            .query_row(
                "SELECT \"table\" FROM pragma_foreign_key_check LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(table) = broken {
            return Err(StoreError::Migration {
                version: SCHEMA_VERSION,
                name: "foreign key check",
                reason: format!("a row of {table} names a row that is gone"),
            });
        }
        Ok(applied)
    })
}
