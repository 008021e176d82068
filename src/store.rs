//! The SQLite bank: the schema (the ordered migrations in `migrations/`, version in
//! `PRAGMA user_version`), and the queries the builder and `verify` use. One connection, WAL
//! mode, batched transactions.

use crate::levels::{LevelSet, PercentileRange, RatingKind, Reference};
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
    (
        4,
        "0004_levels.sql",
        include_str!("../migrations/0004_levels.sql"),
    ),
    (
        5,
        "0005_batches.sql",
        include_str!("../migrations/0005_batches.sql"),
    ),
];

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = 5;

/// Opens (creating if needed) the bank at `path` and brings its schema up to date.
pub fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Concurrent writers (several `get --mark-served`, a build) wait for each other.
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    migrate(&conn)?;
    Ok(conn)
}

/// Opens an existing bank (an error naming the path if there is none), bringing its schema up
/// to date.
pub fn open_existing(path: &Path) -> anyhow::Result<Connection> {
    anyhow::ensure!(
        path.is_file(),
        "{}: no bank there (build one with `pseudoku build`)",
        path.display()
    );
    Ok(open(path)?)
}

/// Applies the migrations newer than the database's `user_version`, with the version bumps,
/// in one write transaction that reads the version first (`BEGIN IMMEDIATE`: two processes
/// opening an old bank at once cannot both apply a migration). Then gives rows that migration
/// 0004 left without a retrieval tie-break their `pick`. Returns how many migrations were
/// applied.
pub fn migrate(conn: &Connection) -> rusqlite::Result<usize> {
    let current: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current >= SCHEMA_VERSION {
        return Ok(0);
    }
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let result = (|| -> rusqlite::Result<usize> {
        let current: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let mut applied = 0;
        for &(version, _name, sql) in MIGRATIONS {
            if version <= current {
                continue;
            }
            conn.execute_batch(&format!("{sql}\nPRAGMA user_version = {version};"))?;
            applied += 1;
        }
        if applied > 0 && current < 4 {
            let rows: Vec<(i64, String)> = conn
                .prepare("SELECT id, canon_key FROM puzzles WHERE pick IS NULL")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut stmt = conn.prepare("UPDATE puzzles SET pick = ?2 WHERE id = ?1")?;
            for (id, key) in rows {
                stmt.execute(params![id, pick_of(&key)])?;
            }
        }
        Ok(applied)
    })();
    match result {
        Ok(n) => {
            conn.execute_batch("COMMIT")?;
            Ok(n)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// The schema version of an open bank.
pub fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// The percentiles of the puzzles a build stored.
pub fn build_percentiles(conn: &Connection, build_id: i64) -> rusqlite::Result<Vec<f64>> {
    conn.prepare("SELECT percentile FROM puzzles WHERE build_id = ?1")?
        .query_map([build_id], |r| r.get(0))?
        .collect()
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
    /// Puzzles rated outside every band that still needed puzzles (targeted builds).
    pub off_band: u64,
}

/// Starts a build, or resumes an interrupted one with the same RNG seed, count and arguments
/// (it then continues from its next job and needs only the puzzles it has not stored yet). A
/// new build starts after every job index earlier builds with the same RNG seed used.
pub fn start_build(
    conn: &Connection,
    arguments: &str,
    rng_seed: u64,
    count: u64,
    rater: &str,
) -> rusqlite::Result<Build> {
    let resumed = conn
        .query_row(
            "SELECT id, count, next_job, stored, duplicates, rejected, off_band FROM builds
             WHERE status = 'running' AND rng_seed = ?1 AND count = ?2 AND arguments = ?3
             ORDER BY id DESC LIMIT 1",
            params![rng_seed as i64, count as i64, arguments],
            |r| {
                Ok(Build {
                    id: r.get(0)?,
                    count: r.get::<_, i64>(1)? as u64,
                    next_job: r.get::<_, i64>(2)? as u64,
                    stored: r.get::<_, i64>(3)? as u64,
                    duplicates: r.get::<_, i64>(4)? as u64,
                    rejected: r.get::<_, i64>(5)? as u64,
                    off_band: r.get::<_, i64>(6)? as u64,
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
        off_band: 0,
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
    /// The seed's row id, or `None` for a puzzle of the standard generator.
    pub seed_id: Option<i64>,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
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
                difficulty, percentile, pick)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                ?19, ?20)",
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
                r.difficulty,
                r.percentile,
                pick_of(&r.canon_key)
            ])?;
        }
        tx.execute(
            "UPDATE builds SET next_job = ?2, stored = ?3, duplicates = ?4, rejected = ?5,
                off_band = ?6
             WHERE id = ?1",
            params![
                build.id,
                build.next_job as i64,
                build.stored as i64,
                build.duplicates as i64,
                build.rejected as i64,
                build.off_band as i64
            ],
        )?;
    }
    tx.commit()
}

/// The retrieval tie-break of a puzzle: the first 60 bits of its class key (hex), so puzzles
/// of equal percentile come in a random-looking but fixed order.
pub fn pick_of(canon_key: &str) -> i64 {
    i64::from_str_radix(canon_key.get(..15).unwrap_or("0"), 16).unwrap_or(0)
}

/// A bank setting, if set.
pub fn setting(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
        r.get(0)
    })
    .optional()
}

/// Sets a bank setting.
pub fn set_setting(conn: &Connection, key: &str, value: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO settings (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [key, value],
    )?;
    Ok(())
}

/// A bank's level settings: the rating its percentiles use and its level names.
pub fn level_settings(conn: &Connection) -> anyhow::Result<(RatingKind, LevelSet)> {
    let rating = match setting(conn, "rating")? {
        Some(r) => r.parse().map_err(anyhow::Error::msg)?,
        None => RatingKind::default(),
    };
    let levels = match setting(conn, "levels")? {
        Some(l) => l.parse().map_err(anyhow::Error::msg)?,
        None => LevelSet::default(),
    };
    Ok((rating, levels))
}

/// The ratings (for `rating`) of the bank's reference puzzles, in row order.
pub fn reference_values(conn: &Connection, rating: RatingKind) -> rusqlite::Result<Vec<f64>> {
    conn.prepare(&format!(
        "SELECT {} FROM reference ORDER BY id",
        rating.reference_column()
    ))?
    .query_map([], |r| r.get(0))?
    .collect()
}

/// The bank's reference distribution for `rating`, or `None` when it has none yet.
pub fn reference(conn: &Connection, rating: RatingKind) -> rusqlite::Result<Option<Reference>> {
    let values = reference_values(conn, rating)?;
    Ok((!values.is_empty()).then(|| Reference::new(values)))
}

/// The reference's ratings (for `rating`) with the source of each puzzle.
pub fn reference_by_source(
    conn: &Connection,
    rating: RatingKind,
) -> rusqlite::Result<Vec<(String, f64)>> {
    conn.prepare(&format!(
        "SELECT source, {} FROM reference",
        rating.reference_column()
    ))?
    .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// One reference puzzle with both its ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceRow {
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// Its `difficulty` rating.
    pub difficulty: f64,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// Where it came from.
    pub source: String,
}

/// Replaces the reference distribution (inside the caller's transaction).
pub fn replace_reference(conn: &Connection, rows: &[ReferenceRow]) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM reference", [])?;
    let mut stmt = conn.prepare_cached(
        "INSERT INTO reference (puzzle, difficulty, hsolve, source) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for r in rows {
        stmt.execute(params![r.puzzle, r.difficulty, r.hsolve, r.source])?;
    }
    Ok(())
}

/// Recomputes every stored puzzle's percentile against `reference` for `rating` (inside the
/// caller's transaction). Returns how many rows were updated.
pub fn recompute_percentiles(
    conn: &Connection,
    rating: RatingKind,
    reference: &Reference,
) -> rusqlite::Result<u64> {
    let rows: Vec<(i64, Option<f64>)> = conn
        .prepare(&format!("SELECT id, {} FROM puzzles", rating.column()))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut stmt = conn.prepare_cached("UPDATE puzzles SET percentile = ?2 WHERE id = ?1")?;
    let mut n = 0;
    for (id, value) in rows {
        let p = value.map(|v| reference.percentile(v));
        stmt.execute(params![id, p])?;
        n += 1;
    }
    Ok(n)
}

/// A puzzle handed out by [`take`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Served {
    /// Its row id.
    pub id: i64,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// Its solution, 81 digits.
    pub solution: String,
    /// Its rating (the bank's rating: difficulty or hsolve).
    pub rating: f64,
    /// Its percentile.
    pub percentile: f64,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// Its seed's row id (not printed: `get` prints the keys above).
    #[serde(skip)]
    pub seed_id: Option<i64>,
    /// Its retrieval tie-break (not printed).
    #[serde(skip)]
    pub pick: i64,
}

/// The two queries of [`take`]: the first unserved puzzles at or after a point of the range,
/// and those before it.
fn take_sql(rating: RatingKind, range: PercentileRange) -> (String, String) {
    let high = if range.closed { "<=" } else { "<" };
    let cols = format!(
        "id, puzzle, solution, {}, percentile, tier, seed_id, pick",
        rating.column()
    );
    let after = format!(
        "SELECT {cols} FROM puzzles INDEXED BY puzzles_unserved
         WHERE served_at IS NULL AND (percentile, pick) >= (?1, ?2) AND percentile {high} ?3
         ORDER BY percentile, pick LIMIT ?4"
    );
    let before = format!(
        "SELECT {cols} FROM puzzles INDEXED BY puzzles_unserved
         WHERE served_at IS NULL AND percentile >= ?3 AND (percentile, pick) < (?1, ?2)
         ORDER BY percentile, pick LIMIT ?4"
    );
    (after, before)
}

/// A [`Served`] from a row of the [`take_sql`] queries.
fn served_row(r: &rusqlite::Row) -> rusqlite::Result<Served> {
    Ok(Served {
        id: r.get(0)?,
        puzzle: r.get(1)?,
        solution: r.get(2)?,
        rating: r.get(3)?,
        percentile: r.get(4)?,
        tier: r.get(5)?,
        seed_id: r.get(6)?,
        pick: r.get(7)?,
    })
}

/// Up to `limit` unserved puzzles of `range` in index order (percentile, tie-break) from the
/// point (`x`, `s`), wrapping round to the range's start when `wrap`: the candidates a caller
/// with its own conditions (the export's variety rule) walks through.
pub fn unserved_from(
    conn: &Connection,
    rating: RatingKind,
    range: PercentileRange,
    x: f64,
    s: i64,
    limit: usize,
    wrap: bool,
) -> rusqlite::Result<Vec<Served>> {
    let (after, before) = take_sql(rating, range);
    let mut out: Vec<Served> = conn
        .prepare_cached(&after)?
        .query_map(params![x, s, range.high, limit as i64], served_row)?
        .collect::<Result<_, _>>()?;
    if wrap && out.len() < limit {
        let rest: Vec<Served> = conn
            .prepare_cached(&before)?
            .query_map(
                params![x, s, range.low, (limit - out.len()) as i64],
                served_row,
            )?
            .collect::<Result<_, _>>()?;
        out.extend(rest);
    }
    Ok(out)
}

/// SQLite's query plans for the queries of [`take`] (the detail column of `EXPLAIN QUERY
/// PLAN`), to check that they search the index rather than scan the table.
pub fn take_plans(conn: &Connection, rating: RatingKind) -> rusqlite::Result<Vec<String>> {
    let (after, before) = take_sql(rating, "0..50".parse().expect("a valid range"));
    let mut plans = Vec::new();
    for sql in [after, before] {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
        let rows = stmt.query_map(params![25.0, 0, 50.0, 1], |r| r.get::<_, String>(3))?;
        for r in rows {
            plans.push(r?);
        }
    }
    Ok(plans)
}

/// Up to `count` random unserved puzzles with a percentile in `range`, without a table scan:
/// each is the first unserved puzzle at or after a random point (percentile, tie-break) of the
/// range, in the index order, wrapping round to the range's start. With `mark`, they are
/// recorded as served in the same write transaction (`BEGIN IMMEDIATE`: concurrent callers
/// queue, and no puzzle is handed out twice). Fewer than `count` come back when the range runs
/// out.
pub fn take(
    conn: &Connection,
    rating: RatingKind,
    range: PercentileRange,
    count: usize,
    mark: bool,
    rng: &mut crate::rng::Rng,
) -> rusqlite::Result<Vec<Served>> {
    let (after, before) = take_sql(rating, range);
    if mark {
        conn.execute_batch("BEGIN IMMEDIATE")?;
    }
    let result = (|| -> rusqlite::Result<Vec<Served>> {
        let mut out: Vec<Served> = Vec::with_capacity(count.min(4096));
        let mut taken: HashSet<i64> = HashSet::new();
        let mut after_stmt = conn.prepare_cached(&after)?;
        let mut before_stmt = conn.prepare_cached(&before)?;
        let mut mark_stmt = conn.prepare_cached(
            "UPDATE puzzles SET served_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?1 AND served_at IS NULL",
        )?;
        while out.len() < count {
            let x = range.low + rng.next_f64() * (range.high - range.low);
            let s = (rng.next_u64() >> 4) as i64;
            // The first row not taken yet at or after the point, else before it. Rows are
            // read one at a time (LIMIT -1: no limit); marked rows have left the index.
            let mut found = None;
            for (stmt, bound) in [(&mut after_stmt, range.high), (&mut before_stmt, range.low)] {
                let mut rows = stmt.query(params![x, s, bound, -1])?;
                while let Some(r) = rows.next()? {
                    let p = served_row(r)?;
                    if !taken.contains(&p.id) {
                        found = Some(p);
                        break;
                    }
                }
                if found.is_some() {
                    break;
                }
            }
            let Some(r) = found else { break };
            if mark {
                mark_stmt.execute([r.id])?;
            }
            taken.insert(r.id);
            out.push(r);
        }
        Ok(out)
    })();
    if mark {
        match &result {
            Ok(_) => conn.execute_batch("COMMIT")?,
            Err(_) => conn.execute_batch("ROLLBACK")?,
        }
    }
    result
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
            conn.execute(
                "INSERT INTO puzzles (puzzle, solution, canon, canon_key, clues, rating, rating_sd,
                    tier, wnef, wnef_class, box_norm, box_class, grade, seed_id, transform,
                    build_id, job)
                 VALUES ('p', 's', 'c', '00000000000001f0', 17, 1.0, 0.0, 5, 0.5, 1, 1.0, 1,
                    'hard', 1, 't', 1, 0)",
                [],
            )
            .unwrap();
        }
        let conn = open(&path).unwrap();
        assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION);
        // The puzzle survived the rebuild of its table and got its retrieval tie-break.
        let (pick, difficulty): (i64, Option<f64>) = conn
            .query_row("SELECT pick, difficulty FROM puzzles", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((pick, difficulty), (0x1f, None));
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
