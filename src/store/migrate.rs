//! The bank's schema: an append-only list of migrations, applied in order. A migration is
//! either a SQL file of `migrations/` or a data step (a function that rewrites rows). The
//! schema version (`PRAGMA user_version`) is the number of migrations applied, so
//! [`SCHEMA_VERSION`] is the list's length. Never edit or reorder a shipped entry: add one.

use super::{Result, StoreError};
use rusqlite::{params, Connection};

/// What a migration does.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// Runs this SQL (a file of `migrations/`).
    Sql(&'static str),
    /// Rewrites rows.
    Data(fn(&Connection) -> rusqlite::Result<()>),
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
];

/// The schema version this program writes: the number of migrations.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Gives every row that migration 0004 left without a retrieval tie-break its `pick`.
fn fill_picks(conn: &Connection) -> rusqlite::Result<()> {
    let rows: Vec<(i64, String)> = conn
        .prepare("SELECT id, canon_key FROM puzzles WHERE pick IS NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut stmt = conn.prepare("UPDATE puzzles SET pick = ?2 WHERE id = ?1")?;
    for (id, key) in rows {
        stmt.execute(params![id, super::pick_of(&key)])?;
    }
    Ok(())
}

/// The schema version of an open bank.
pub fn version(conn: &Connection) -> Result<u32> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// Applies the migrations newer than the database's version, each with its version bump, in
/// one write transaction that reads the version first (`BEGIN IMMEDIATE`: two processes
/// opening an old bank at once cannot both apply a migration). Returns how many were applied.
pub fn migrate(conn: &Connection) -> Result<usize> {
    let found = version(conn)?;
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
    super::immediate(conn, || {
        let current = version(conn)?;
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
                Step::Data(f) => f(conn).map_err(failed)?,
            }
            conn.pragma_update(None, "user_version", v)?;
            applied += 1;
        }
        Ok(applied)
    })
}
