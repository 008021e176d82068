//! Builds: one bookkeeping row per build (its arguments, RNG seed, job range, counts, rater,
//! status), which is how an interrupted build resumes.

use super::Result;
use rusqlite::{params, OptionalExtension};
use super::Bank;

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

/// What a build's bookkeeping row is started with.
#[derive(Clone, Copy, Debug)]
pub struct NewBuild<'a> {
    /// The arguments that name the build (a build resumes one with the same).
    pub arguments: &'a str,
    /// Its RNG seed.
    pub rng_seed: u64,
    /// The puzzles it is to store.
    pub count: u64,
    /// The rater's description ([`crate::rate::RATER`]).
    pub rater: &'a str,
}

/// Starts a build, or resumes an interrupted one with the same RNG seed, count and arguments
/// (it then continues from its next job and needs only the puzzles it has not stored yet). A
/// new build starts after every job index earlier builds with the same RNG seed used.
pub fn start(bank: &Bank, new: &NewBuild<'_>) -> Result<Build> {
    let conn = &bank.conn;
    if let Some(b) = resumable(
        bank,
        "rng_seed = ?1 AND count = ?2 AND arguments = ?3",
        params![new.rng_seed as i64, new.count as i64, new.arguments],
    )? {
        return Ok(b);
    }
    let first: i64 = conn.query_row(
        "SELECT COALESCE(MAX(next_job), 0) FROM builds WHERE rng_seed = ?1 AND source IS NULL",
        params![new.rng_seed as i64],
        |r| r.get(0),
    )?;
    conn.execute(
        "INSERT INTO builds (arguments, rng_seed, count, first_job, next_job, rater, status)
         VALUES (?1, ?2, ?3, ?4, ?4, ?5, 'running')",
        params![new.arguments, new.rng_seed as i64, new.count as i64, first, new.rater],
    )?;
    Ok(Build {
        id: conn.last_insert_rowid(),
        count: new.count,
        next_job: first as u64,
        stored: 0,
        duplicates: 0,
        rejected: 0,
        off_band: 0,
    })
}

/// Records a build's progress (inside the caller's transaction).
pub(crate) fn save_progress(bank: &Bank, build: &Build) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
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
    Ok(())
}

/// Marks a build finished.
pub fn finish(bank: &Bank, id: i64) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
        "UPDATE builds SET status = 'done', finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ?1",
        params![id],
    )?;
    Ok(())
}

/// A build's bookkeeping row with what it was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildInfo {
    /// Its counts and progress.
    pub build: Build,
    /// Its arguments, as recorded.
    pub arguments: String,
    /// Its RNG seed.
    pub rng_seed: u64,
    /// `running`, `interrupted` or `done`.
    pub status: String,
}

/// Build `id`'s row.
pub fn info(bank: &Bank, id: i64) -> Result<Option<BuildInfo>> {
    let conn = &bank.conn;
    Ok(conn
        .query_row(
            "SELECT id, count, next_job, stored, duplicates, rejected, off_band, arguments,
                rng_seed, status
             FROM builds WHERE id = ?1",
            [id],
            |r| {
                Ok(BuildInfo {
                    build: Build {
                        id: r.get(0)?,
                        count: r.get::<_, i64>(1)? as u64,
                        next_job: r.get::<_, i64>(2)? as u64,
                        stored: r.get::<_, i64>(3)? as u64,
                        duplicates: r.get::<_, i64>(4)? as u64,
                        rejected: r.get::<_, i64>(5)? as u64,
                        off_band: r.get::<_, i64>(6)? as u64,
                    },
                    arguments: r.get(7)?,
                    rng_seed: r.get::<_, i64>(8)? as u64,
                    status: r.get(9)?,
                })
            },
        )
        .optional()?)
}

/// The latest interrupted build matching `filter` (SQL over `builds` with `params`), marked
/// running again, as it was saved. The caller holds the bank's writer lock, so a build still
/// marked running was interrupted: it is marked so first.
fn resumable(
    bank: &Bank,
    filter: &str,
    params: impl rusqlite::Params,
) -> Result<Option<Build>> {
    let conn = &bank.conn;
    conn.execute(
        "UPDATE builds SET status = 'interrupted' WHERE status = 'running'",
        [],
    )?;
    let id: Option<i64> = conn
        .query_row(
            &format!(
                "SELECT id FROM builds WHERE status = 'interrupted' AND {filter}
                 ORDER BY id DESC LIMIT 1"
            ),
            params,
            |r| r.get(0),
        )
        .optional()?;
    let Some(id) = id else { return Ok(None) };
    reopen(bank, id)?;
    Ok(info(bank, id)?.map(|i| i.build))
}

/// Marks build `id` running again (a shard extended after it stopped).
pub fn reopen(bank: &Bank, id: i64) -> Result<()> {
    let conn = &bank.conn;
    conn.execute("UPDATE builds SET status = 'running' WHERE id = ?1", [id])?;
    Ok(())
}

/// Starts the bookkeeping row of a merged shard (its next job: how far the merge has
/// replayed), or resumes an interrupted one with the same arguments.
pub fn start_merge(bank: &Bank, new: &NewBuild<'_>) -> Result<Build> {
    resume_or_insert(bank, new, 0, None)
}

/// Starts the bookkeeping row of an import of the file `source` (its jobs: the file's lines,
/// 1-based; its next job: the line after the last one committed), or resumes an interrupted
/// import with the same arguments.
pub fn start_import(bank: &Bank, new: &NewBuild<'_>, source: &str) -> Result<Build> {
    resume_or_insert(bank, new, 1, Some(source))
}

/// The interrupted row with `new`'s arguments, resumed, or a new row whose jobs start at
/// `first_job`, with its `source` file (an import's).
fn resume_or_insert(
    bank: &Bank,
    new: &NewBuild<'_>,
    first_job: u64,
    source: Option<&str>,
) -> Result<Build> {
    let conn = &bank.conn;
    if let Some(b) = resumable(bank, "arguments = ?1", [new.arguments])? {
        return Ok(b);
    }
    conn.execute(
        "INSERT INTO builds (arguments, rng_seed, count, first_job, next_job, rater, status,
            source)
         VALUES (?1, ?2, ?3, ?4, ?4, ?5, 'running', ?6)",
        params![
            new.arguments,
            new.rng_seed as i64,
            new.count as i64,
            first_job as i64,
            new.rater,
            source
        ],
    )?;
    Ok(info(bank, conn.last_insert_rowid())?
        .expect("the row just inserted")
        .build)
}

/// Where an imported puzzle came from: the file its import read (as the user named it) and
/// the line. `None` for a puzzle a build made, or no such puzzle.
pub fn provenance(bank: &Bank, puzzle_id: i64) -> Result<Option<(String, u64)>> {
    let conn = &bank.conn;
    Ok(conn
        .query_row(
            "SELECT b.source, p.job FROM puzzles p JOIN builds b ON b.id = p.build_id
             WHERE p.id = ?1 AND b.source IS NOT NULL",
            [puzzle_id],
            |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)),
        )
        .optional()?)
}

/// The finished build of these arguments, if any.
pub fn finished(bank: &Bank, arguments: &str) -> Result<Option<Build>> {
    let conn = &bank.conn;
    let id: Option<i64> = conn
        .query_row(
            "SELECT id FROM builds WHERE status = 'done' AND arguments = ?1
             ORDER BY id DESC LIMIT 1",
            [arguments],
            |r| r.get(0),
        )
        .optional()?;
    Ok(match id {
        Some(id) => info(bank, id)?.map(|i| i.build),
        None => None,
    })
}

/// Puzzles stored by the builds of these arguments.
pub fn stored_by_arguments(bank: &Bank, arguments: &[String]) -> Result<u64> {
    let conn = &bank.conn;
    let mut stmt =
        conn.prepare("SELECT COALESCE(SUM(stored), 0) FROM builds WHERE arguments = ?1")?;
    let mut n = 0;
    for a in arguments {
        n += stmt.query_row([a], |r| r.get::<_, i64>(0))? as u64;
    }
    Ok(n)
}

/// Builds recorded in the bank.
pub fn count(bank: &Bank) -> Result<u64> {
    let conn = &bank.conn;
    Ok(conn.query_row("SELECT COUNT(*) FROM builds", [], |r| r.get::<_, i64>(0))? as u64)
}
