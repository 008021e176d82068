//! The SQLite bank: the schema (the ordered migrations in `migrations/`, version in
//! `PRAGMA user_version`), and the queries the builder and `verify` use. One connection, WAL
//! mode, batched transactions.

use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashSet;
use std::path::Path;

/// The migrations, in order: (version, name, SQL). Append only; never edit a shipped one.
pub const MIGRATIONS: &[(u32, &str, &str)] = &[
    (
        1,
        "0001_initial.sql",
        include_str!("../migrations/0001_initial.sql"),
    ),
    (
        2,
        "0002_builds.sql",
        include_str!("../migrations/0002_builds.sql"),
    ),
    (
        3,
        "0003_difficulty.sql",
        include_str!("../migrations/0003_difficulty.sql"),
    ),
];

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = 3;

/// Opens (creating if needed) the bank at `path` and brings its schema up to date.
pub fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    migrate(&conn)?;
    Ok(conn)
}

/// Applies the migrations newer than the database's `user_version`, each in its own
/// transaction together with the version bump. Returns how many were applied.
pub fn migrate(conn: &Connection) -> rusqlite::Result<usize> {
    let current: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let mut applied = 0;
    for &(version, _name, sql) in MIGRATIONS {
        if version <= current {
            continue;
        }
        conn.execute_batch(&format!(
            "BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;"
        ))?;
        applied += 1;
    }
    Ok(applied)
}

/// The schema version of an open bank.
pub fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// The class keys already in the bank.
pub fn keys(conn: &Connection) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare("SELECT canon_key FROM puzzles")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.collect()
}

/// A build's bookkeeping row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// Row id.
    pub id: i64,
    /// New puzzles requested.
    pub count: u64,
    /// Next job index to run.
    pub next_job: u64,
    /// Puzzles stored so far by this build.
    pub stored: u64,
    /// Duplicates skipped so far.
    pub duplicates: u64,
    /// Generated puzzles that failed the uniqueness check.
    pub rejected: u64,
}

/// Starts a build, or resumes an interrupted one with the same RNG seed and count (it then
/// continues from its next job and needs only the puzzles it has not stored yet). A new build
/// starts after every job index earlier builds with the same RNG seed used.
pub fn start_build(
    conn: &Connection,
    arguments: &str,
    rng_seed: u64,
    count: u64,
    rater: &str,
) -> rusqlite::Result<Build> {
    let resumed = conn
        .query_row(
            "SELECT id, count, next_job, stored, duplicates, rejected FROM builds
             WHERE status = 'running' AND rng_seed = ?1 AND count = ?2
             ORDER BY id DESC LIMIT 1",
            params![rng_seed as i64, count as i64],
            |r| {
                Ok(Build {
                    id: r.get(0)?,
                    count: r.get::<_, i64>(1)? as u64,
                    next_job: r.get::<_, i64>(2)? as u64,
                    stored: r.get::<_, i64>(3)? as u64,
                    duplicates: r.get::<_, i64>(4)? as u64,
                    rejected: r.get::<_, i64>(5)? as u64,
                })
            },
        )
        .optional()?;
    if let Some(b) = resumed {
        return Ok(b);
    }
    let first: i64 = conn.query_row(
        "SELECT COALESCE(MAX(next_job), 0) FROM builds WHERE rng_seed = ?1",
        params![rng_seed as i64],
        |r| r.get(0),
    )?;
    conn.execute(
        "INSERT INTO builds (arguments, rng_seed, count, first_job, next_job, rater, status)
         VALUES (?1, ?2, ?3, ?4, ?4, ?5, 'running')",
        params![arguments, rng_seed as i64, count as i64, first, rater],
    )?;
    Ok(Build {
        id: conn.last_insert_rowid(),
        count,
        next_job: first as u64,
        stored: 0,
        duplicates: 0,
        rejected: 0,
    })
}

/// One puzzle row to insert.
#[derive(Clone, Debug)]
pub struct Row {
    /// The puzzle as generated.
    pub puzzle: String,
    /// Its solution.
    pub solution: String,
    /// Exact minlex form.
    pub canon: String,
    /// Class key, hex.
    pub canon_key: String,
    /// Number of clues.
    pub clues: u32,
    /// The `difficulty` rating (log10 of the expected weighted work).
    pub difficulty: f64,
    /// hsolve mean.
    pub rating: f64,
    /// hsolve standard deviation.
    pub rating_sd: f64,
    /// Hardest tier used.
    pub tier: u8,
    /// WNEF.
    pub wnef: f64,
    /// WNEF class.
    pub wnef_class: u8,
    /// Box norm.
    pub box_norm: f64,
    /// Box-norm class.
    pub box_class: u8,
    /// Technique grade.
    pub grade: String,
    /// The seed's row id.
    pub seed_id: i64,
    /// The symmetry applied to the seed.
    pub transform: String,
    /// The job that made it.
    pub job: u64,
}

/// Commits a batch: the rows, and the build's progress (next job, counts), in one
/// transaction.
pub fn commit_batch(conn: &mut Connection, build: &Build, rows: &[Row]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare_cached(
            "INSERT INTO puzzles (puzzle, solution, canon, canon_key, clues, rating, rating_sd,
                tier, wnef, wnef_class, box_norm, box_class, grade, seed_id, transform, build_id, job,
                difficulty)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
        )?;
        for r in rows {
            stmt.execute(params![
                r.puzzle,
                r.solution,
                r.canon,
                r.canon_key,
                r.clues,
                r.rating,
                r.rating_sd,
                r.tier,
                r.wnef,
                r.wnef_class,
                r.box_norm,
                r.box_class,
                r.grade,
                r.seed_id,
                r.transform,
                build.id,
                r.job as i64,
                r.difficulty
            ])?;
        }
        tx.execute(
            "UPDATE builds SET next_job = ?2, stored = ?3, duplicates = ?4, rejected = ?5
             WHERE id = ?1",
            params![
                build.id,
                build.next_job as i64,
                build.stored as i64,
                build.duplicates as i64,
                build.rejected as i64
            ],
        )?;
    }
    tx.commit()
}

/// Marks a build finished.
pub fn finish_build(conn: &Connection, id: i64) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE builds SET status = 'done', finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ?1",
        params![id],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_idempotent_and_upgrade_old_banks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bank.db");
        // An old bank: only the first migration.
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(&format!(
                "BEGIN;\n{}\nPRAGMA user_version = 1;\nCOMMIT;",
                MIGRATIONS[0].2
            ))
            .unwrap();
            conn.execute(
                "INSERT INTO seeds (puzzle, solution, canon_key, tier, rating, reserved, provenance)
                 VALUES ('p', 's', 'k', 1, 1.0, 'r', 'test')",
                [],
            )
            .unwrap();
        }
        let conn = open(&path).unwrap();
        assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION);
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM seeds", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1, "the upgrade keeps the rows");
        // Applying again changes nothing.
        assert_eq!(migrate(&conn).unwrap(), 0);
        assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION);
        let b = start_build(&conn, "args", 7, 10, "test").unwrap();
        assert_eq!(b.next_job, 0);
        // An interrupted build with the same seed and count is resumed.
        assert_eq!(start_build(&conn, "args", 7, 10, "test").unwrap(), b);
        finish_build(&conn, b.id).unwrap();
        let c = start_build(&conn, "args", 7, 10, "test").unwrap();
        assert_ne!(c.id, b.id);
    }
}
