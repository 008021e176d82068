//! The SQLite bank, and a fleet's PostgreSQL history beside it. The store owns the connection
//! to a bank: [`open`] and its variants return a [`Bank`], the open bank database, whose
//! SQLite connection no code outside this folder sees; callers hand the `Bank` to the store's
//! typed functions and make write transactions of it with [`Write`] or [`immediate`]. Every
//! SQL statement of the program lives in this folder; nothing above it writes SQL. It knows
//! the bank's tables and the plain values that fill them (a [`Puzzle`](crate::grid::Puzzle), a class [`Key`](crate::canon::Key), a
//! [`Technique`](crate::technique::Technique) family, ratings, level names), and nothing of how
//! puzzles are generated or rated: it reads rows back as those values, and a row it cannot read
//! is an error that names it ([`StoreError::Damaged`]), never a value made up.
//!
//! - [`migrate`]: the schema, an append-only list of migrations (SQL files in `migrations/` and
//!   data steps); the version (`PRAGMA user_version`) is the list's length;
//! - [`puzzles`]: stored puzzles: the compact row, batched inserts, keys, levels, the rows
//!   `verify` and the backfill read;
//! - [`builds`]: one bookkeeping row per build (resume, counts, status);
//! - [`seeds`]: the seeds a bank was built from;
//! - [`settings`]: the bank's settings and its reference distribution;
//! - [`named`]: named ratings, a publisher's numeric scale valued for every puzzle;
//! - [`retrieval`]: uniform draws of unserved puzzles of a percentile range or a level, marked
//!   served atomically; [`history`]: per-user draws and deliveries (`serve`);
//! - [`batches`]: what publisher exports recorded (puzzles per date, file hashes);
//! - [`inventory`]: the counts `stats` shows;
//! - [`shards`]: what a shard bank holds for `merge`, and what `merge` writes;
//! - [`lineage`]: the digest chained over the puzzles that tells copies of one bank apart
//!   from copies that grew apart;
//! - [`lock`]: the lock file one writer of a bank holds, and the lock of a server recording
//!   deliveries in it;
//! - [`postgres`]: the second backend, a fleet's shared history in PostgreSQL: the per-user
//!   history and daily puzzles with the operations of [`history`] and [`daily`], under the same
//!   names.
//!
//! One connection per process, WAL mode, batched transactions; concurrent writers (several
//! `get --mark-served`, a build, an export) wait for each other through the busy timeout.

pub mod batches;
pub mod builds;
pub mod daily;
pub mod history;
pub mod inventory;
pub mod lineage;
pub mod lock;
pub mod migrate;
pub mod named;
pub mod play;
pub mod postgres;
pub mod puzzles;
pub mod retrieval;
pub mod seeds;
pub mod settings;
pub mod shards;

pub use builds::Build;
pub use puzzles::NewPuzzle;
pub use settings::ReferenceRow;

use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// A row does not have the shape its type expects.
    #[error("reading a row")]
    Row(#[from] serde_rusqlite::Error),
    /// There is no bank at the path.
    #[error("{}: no bank there (build one with `pseudoku build`)", .0.display())]
    NoBank(PathBuf),
    /// The bank was written by a newer pseudoku (its schema is newer than this program's).
    #[error(
        "this bank's schema is version {found}, newer than this program's {supported}: it was \
         written by a newer pseudoku; use that one"
    )]
    Newer {
        /// The bank's schema version.
        found: u32,
        /// The newest this program knows.
        supported: u32,
    },
    /// The file's schema version is one no pseudoku writes.
    #[error(
        "not a pseudoku bank: a SQLite database whose schema version is {0}, which no \
         pseudoku writes"
    )]
    BadVersion(i64),
    /// The file is a SQLite database but not a pseudoku bank.
    #[error(
        "not a pseudoku bank: a SQLite database with tables ({tables}) but no pseudoku schema \
         version"
    )]
    Foreign {
        /// Some of its tables.
        tables: String,
    },
    /// A migration failed (the bank is left as it was: migrations run in one transaction).
    #[error("updating the bank's schema to version {version} ({name}): {reason}")]
    Migration {
        /// The version it would have reached.
        version: u32,
        /// The migration.
        name: &'static str,
        /// SQLite's reason, in one line (not the migration's SQL).
        reason: String,
    },
    /// Another process is rewriting the bank.
    #[error(
        "{}: another process is writing to this bank: {holder}; wait for it, or run again \
         with --wait",
        .db.display()
    )]
    Busy {
        /// The bank.
        db: PathBuf,
        /// Who holds its writer lock, as its lock file says.
        holder: String,
    },
    /// The writer lock file cannot be used.
    #[error("{}: the bank's lock file", .path.display())]
    LockFile {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A stored row cannot be read (its cells or its key are damaged): `verify` lists such
    /// rows.
    #[error("row {id} of the bank is damaged: {what} (`pseudoku verify` lists such rows)")]
    Damaged {
        /// The row id.
        id: i64,
        /// What cannot be read.
        what: String,
    },
    /// A bank that cannot be written here has an older schema: it cannot be brought up to
    /// date.
    #[error(
        "{}: the bank's schema is version {found}, older than this program's {needs}, and it \
         cannot be written here to bring it up to date: open it once with this pseudoku where \
         it can be written (any command does it)",
        .db.display()
    )]
    ReadOnlyOld {
        /// The bank.
        db: PathBuf,
        /// Its schema version.
        found: u32,
        /// This program's.
        needs: u32,
    },
    /// A bank that cannot be written here has commits in its log that cannot be read without
    /// writing.
    #[error(
        "{}: its folder cannot be written, and its log ({}-wal) holds commits that SQLite cannot \
         read without writing beside it ({reason}): checkpoint the bank where it can be written \
         (any pseudoku command that opens it there does it), or give this process write access \
         to the folder",
        .db.display(),
        .db.display()
    )]
    ReadOnlyLog {
        /// The bank.
        db: PathBuf,
        /// SQLite's reason.
        reason: String,
    },
    /// A stored setting does not parse.
    #[error("the bank's setting {key} = {value:?} is not valid: {reason}")]
    Setting {
        /// The setting's name.
        key: &'static str,
        /// Its stored value.
        value: String,
        /// Why it does not parse.
        reason: crate::scale::ScaleError,
    },
}

impl From<rusqlite::types::FromSqlError> for StoreError {
    fn from(e: rusqlite::types::FromSqlError) -> StoreError {
        StoreError::Sqlite(e.into())
    }
}

/// The store's result type.
pub type Result<T> = std::result::Result<T, StoreError>;

/// An open bank: the SQLite connection to one bank database, which it owns and keeps to the
/// store. Opened by [`open`], [`open_existing`] or `open_read_only`; the store's functions
/// take it to read and write the bank, and `Write` (or `immediate`) makes a write
/// transaction of it. A bank is used by one thread at a time (it can be moved to another).
#[derive(Debug)]
pub struct Bank {
    conn: Connection,
}

impl Bank {
    /// The bank on `conn`.
    fn new(conn: Connection) -> Bank {
        Bank { conn }
    }

    /// How many puzzles the bank holds.
    pub fn puzzle_count(&self) -> Result<u64> {
        puzzles::count(self)
    }
}

/// Opens (creating if needed) the bank at `path` and brings its schema up to date.
pub fn open(path: &Path) -> Result<Bank> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Concurrent writers (several `get --mark-served`, a build) wait for each other.
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    let bank = Bank::new(conn);
    migrate::migrate(&bank)?;
    Ok(bank)
}

/// Opens an existing bank ([`StoreError::NoBank`] if there is none, or only an empty file),
/// bringing its schema up to date and putting back the indexes a bulk build drops while it
/// runs, when one was killed before it could (`restore_indexes`).
///
/// A bank in a folder this process cannot write (a read-only mount, a folder of another
/// user's) is opened read-only (`open_read_only`): reading commands work on it; a write is
/// refused by SQLite.
pub fn open_existing(path: &Path) -> Result<Bank> {
    if !path.metadata().is_ok_and(|m| m.is_file() && m.len() > 0) {
        return Err(StoreError::NoBank(path.to_path_buf()));
    }
    let bank = match open(path) {
        Ok(bank) => bank,
        Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)))
            if matches!(
                e.code,
                rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen
            ) =>
        {
            return open_read_only(path);
        }
        Err(e) => return Err(e),
    };
    restore_indexes(path, &bank)?;
    Ok(bank)
}

/// Opens the bank at `path` only to read it, where neither it nor its folder can be written:
/// as it stands when its log (`BANK-wal`) is readable beside it, else as immutable (SQLite
/// then takes no lock and makes no file: nothing can write to a folder no one may write).
/// Refused when its schema is older than this program's (it cannot be brought up to date
/// here) or its log holds commits that cannot be read without writing.
pub fn open_read_only(path: &Path) -> Result<Bank> {
    use rusqlite::OpenFlags;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let usable = |conn: Connection| -> rusqlite::Result<Connection> {
        conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))?;
        Ok(conn)
    };
    let wal = {
        let mut name = path.as_os_str().to_owned();
        name.push("-wal");
        PathBuf::from(name)
    };
    let logged = wal.metadata().is_ok_and(|m| m.len() > 0);
    let conn = match Connection::open_with_flags(path, flags).and_then(usable) {
        Ok(conn) => conn,
        Err(_) if !logged => {
            let uri = format!("file:{}?immutable=1", uri_path(path));
            Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)
                .and_then(usable)?
        }
        Err(e) => {
            return Err(StoreError::ReadOnlyLog {
                db: path.to_path_buf(),
                reason: e.to_string(),
            })
        }
    };
    let bank = Bank::new(conn);
    let found = migrate::version(&bank)?;
    if found > migrate::SCHEMA_VERSION || found == 0 {
        // A newer bank, or no bank: what the usual check says (it writes nothing then).
        migrate::migrate(&bank)?;
    }
    if found != migrate::SCHEMA_VERSION {
        return Err(StoreError::ReadOnlyOld {
            db: path.to_path_buf(),
            found,
            needs: migrate::SCHEMA_VERSION,
        });
    }
    bank.conn.busy_timeout(std::time::Duration::from_secs(30))?;
    Ok(bank)
}

/// A file path as the path of a SQLite `file:` URI: `%`, `?` and `#` (and anything not
/// printable ASCII) escaped.
fn uri_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::new();
    for &b in absolute.as_os_str().as_encoded_bytes() {
        if b.is_ascii_graphic() && !b"%?#".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Puts back the class-key and rating indexes of the bank at `path` (open as `bank`) when
/// they are missing and no writer holds the bank: a bulk build drops them while it runs and
/// builds them again when it stops, so they are missing only while a build runs (which puts
/// them back itself) or after one was killed. Without them nothing in the bank stops a
/// second row of a class, and draws by rating scan the table. Returns whether it restored
/// them.
pub fn restore_indexes(path: &Path, bank: &Bank) -> Result<bool> {
    if puzzles::missing_indexes(bank)?.is_empty() {
        return Ok(false);
    }
    let _lock = match lock::WriterLock::acquire(path, "restoring the bank's indexes", false) {
        Ok(lock) => lock,
        // A build holds the bank: it puts them back when it stops.
        Err(StoreError::Busy { .. }) => return Ok(false),
        Err(e) => return Err(e),
    };
    if puzzles::missing_indexes(bank)?.is_empty() {
        return Ok(false);
    }
    let (rating, _) = settings::levels(bank)?;
    if shards::read(bank)?.is_some() {
        puzzles::ensure_shard_indexes(bank, rating)?;
    } else {
        puzzles::ensure_indexes(bank, rating)?;
    }
    Ok(true)
}

/// A write transaction of the bank, the one way this crate opens one: it takes the write
/// lock at once (`BEGIN IMMEDIATE`), so that what it reads stays true until it ends, and it is
/// rolled back when dropped without [`Write::commit`] (an error, or a caller that decides not
/// to keep the work).
#[must_use = "a write transaction is rolled back when dropped"]
pub struct Write<'c> {
    bank: &'c Bank,
    open: bool,
}

impl<'c> Write<'c> {
    /// Begins a write transaction on `bank`.
    pub fn begin(bank: &'c Bank) -> Result<Write<'c>> {
        bank.conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(Write { bank, open: true })
    }

    /// Commits it.
    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        Ok(self.bank.conn.execute_batch("COMMIT")?)
    }
}

impl std::ops::Deref for Write<'_> {
    type Target = Bank;

    /// The bank the transaction is on.
    fn deref(&self) -> &Bank {
        self.bank
    }
}

impl Drop for Write<'_> {
    fn drop(&mut self) {
        if self.open && !self.bank.conn.is_autocommit() {
            let _ = self.bank.conn.execute_batch("ROLLBACK");
        }
    }
}

/// Runs `f` inside a [`Write`] transaction: committed when `f` succeeds, rolled back when it
/// fails.
pub fn immediate<T, E: From<StoreError>>(
    bank: &Bank,
    f: impl FnOnce() -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let write = Write::begin(bank)?;
    let value = f()?;
    write.commit()?;
    Ok(value)
}

/// What SQLite's integrity check finds wrong with the bank (nothing: an empty list): the quick
/// check (`PRAGMA quick_check`: the structure of every page and index entry count), or with
/// `full` the full one (`PRAGMA integrity_check`, which also compares every index with its
/// table).
pub fn integrity(bank: &Bank, full: bool) -> Result<Vec<String>> {
    let conn = &bank.conn;
    let pragma = if full {
        "PRAGMA integrity_check"
    } else {
        "PRAGMA quick_check"
    };
    let found: Vec<String> = conn
        .prepare(pragma)?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(found.into_iter().filter(|f| f != "ok").collect())
}

/// Whether `bank` can be written, and if not why: a write transaction is
/// begun and rolled back (a file or folder without write permission, a read-only mount).
pub fn can_write(bank: &Bank) -> std::result::Result<(), String> {
    let conn = &bank.conn;
    if conn.is_readonly(rusqlite::DatabaseName::Main).unwrap_or(true) {
        return Err("it is opened read-only: no write permission".into());
    }
    conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;")
        .map_err(|e| e.to_string())
}

/// How a checkpoint of the bank's log ([`checkpoint`]) goes about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// Copies what it can without waiting for readers or the writer.
    Passive,
    /// Waits for the readers, copies all of the log and truncates it.
    Truncate,
}

/// A checkpoint of the bank's log: the log's length and the pages copied (in pages).
pub fn checkpoint(bank: &Bank, how: Checkpoint) -> Result<(i64, i64)> {
    let conn = &bank.conn;
    let sql = match how {
        Checkpoint::Passive => "PRAGMA wal_checkpoint(PASSIVE)",
        Checkpoint::Truncate => "PRAGMA wal_checkpoint(TRUNCATE)",
    };
    Ok(conn.query_row(sql, [], |r| Ok((r.get(1)?, r.get(2)?)))?)
}

/// Sets up the connection of a writer that commits small transactions all the time (a
/// server's deliveries): no automatic checkpoint (another thread runs them with
/// [`checkpoint`]), and a wait for another writer (a build adding puzzles holds the bank for
/// a few milliseconds at a time) that tries again every 200 us rather than on SQLite's
/// escalating sleeps (1, 2, 5, 10 ms...), for at most the store's usual 30 s.
pub fn for_group_commits(bank: &Bank) -> Result<()> {
    let conn = &bank.conn;
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    conn.busy_handler(Some(|tries: i32| {
        std::thread::sleep(std::time::Duration::from_micros(200));
        tries < 150_000
    }))?;
    Ok(())
}

/// The bytes free for this user on the file system of the bank at `path` (`None` where that
/// cannot be told).
pub fn free_bytes(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        rustix::fs::statvfs(dir)
            .ok()
            .map(|s| s.f_bavail.saturating_mul(s.f_frsize))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Sets the connection's page cache to `mib` MiB.
pub fn set_cache_mib(bank: &Bank, mib: u32) -> Result<()> {
    let conn = &bank.conn;
    Ok(conn.pragma_update(None, "cache_size", -(i64::from(mib) * 1024))?)
}

/// Lets SQLite sort with up to `threads` helper threads (`PRAGMA threads`): building an index
/// over a large table sorts its keys in parts that are sorted at once (10^7 class keys: 21 s
/// against 26 s on 2 cores).
pub fn set_sort_threads(bank: &Bank, threads: usize) -> Result<()> {
    let conn = &bank.conn;
    Ok(conn.pragma_update(None, "threads", threads as i64)?)
}

/// Sets how hard commits reach the disk: `full` (every commit survives a power loss: exports)
/// or the bank's usual `NORMAL` (WAL: a commit survives a crash of the process).
pub fn set_full_sync(bank: &Bank, full: bool) -> Result<()> {
    let conn = &bank.conn;
    Ok(conn.pragma_update(None, "synchronous", if full { "FULL" } else { "NORMAL" })?)
}

/// Every row of `stmt` run with `params`, each read into a `T` by column name (the query's
/// column names, with `AS` where needed, are `T`'s field names).
pub(crate) fn rows<T: serde::de::DeserializeOwned>(
    stmt: &mut rusqlite::Statement,
    params: impl rusqlite::Params,
) -> Result<Vec<T>> {
    Ok(serde_rusqlite::from_rows::<T>(stmt.query(params)?)
        .collect::<std::result::Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const KEY: &str = "017c64a829329200c3ebf4c1ff8f051faf2ab54e103e1fc5420a6ee81a79698d";

    #[test]
    fn migrations_are_idempotent_and_upgrade_old_banks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bank.db");
        // An old bank: only the first migration.
        {
            let conn = Connection::open(&path).unwrap();
            let migrate::Step::Sql(sql) = migrate::MIGRATIONS[0].step else {
                panic!("the first migration is SQL")
            };
            conn.execute_batch(&format!("BEGIN;\n{sql}\nPRAGMA user_version = 1;\nCOMMIT;"))
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
                 VALUES (?1, 's', 'c', ?2, 17, 1.0, 0.25, 5, 0.5, 1, 1.0, 1,
                    'hard', 1, 't:1 r:345201687 c:354687120 d:387951642', 1, 0)",
                [PUZZLE, KEY],
            )
            .unwrap();
        }
        let bank = open(&path).unwrap();
        let conn = &bank.conn;
        assert_eq!(migrate::version(&bank).unwrap(), migrate::SCHEMA_VERSION);
        // The puzzle survived the rebuilds of its table, compacted: its cells packed, its key
        // as 32 bytes, its ratings in whole units, its technique named (migration 0008) and
        // stored by rank, its transform by rank; the view reads it back as it was.
        let (bytes, key_len): (Vec<u8>, i64) = conn
            .query_row("SELECT puzzle, length(canon_key) FROM puzzles", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((bytes.len(), key_len), (puzzles::PACKED_LEN, 32));
        let row: (String, String, f64, f64, Option<f64>, String, i64) = conn
            .query_row(
                "SELECT puzzle, canon_key, hsolve, hsolve_sd, difficulty, technique, transform
                 FROM puzzles_text",
                [],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                },
            )
            .unwrap();
        let transform: crate::transform::Transform =
            "t:1 r:345201687 c:354687120 d:387951642".parse().unwrap();
        assert_eq!(
            row,
            (
                PUZZLE.to_string(),
                KEY.to_string(),
                1.0,
                0.25,
                None,
                "locked-candidates".to_string(),
                transform.rank() as i64
            )
        );
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM seeds", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1, "the upgrade keeps the rows");
        // Applying again changes nothing.
        assert_eq!(migrate::migrate(&bank).unwrap(), 0);
        assert_eq!(migrate::version(&bank).unwrap(), migrate::SCHEMA_VERSION);
        let b = builds::start(&bank, &NEW).unwrap();
        assert_eq!(b.next_job, 0);
        // An interrupted build with the same seed and count is resumed.
        assert_eq!(builds::start(&bank, &NEW).unwrap(), b);
        builds::finish(&bank, b.id).unwrap();
        let c = builds::start(&bank, &NEW).unwrap();
        assert_ne!(c.id, b.id);
    }

    /// The build the tests start.
    const NEW: builds::NewBuild = builds::NewBuild {
        arguments: "args",
        rng_seed: 7,
        count: 10,
        rater: "test",
    };

    /// A bank at schema version `version` (its first migrations only).
    fn bank_at(path: &Path, version: usize) -> Bank {
        let bank = Bank::new(Connection::open(path).unwrap());
        for m in &migrate::MIGRATIONS[..version] {
            match m.step {
                migrate::Step::Sql(sql) => bank.conn.execute_batch(sql).unwrap(),
                migrate::Step::Data(f) => f(&bank).unwrap(),
            }
        }
        bank.conn
            .pragma_update(None, "user_version", version as i64)
            .unwrap();
        bank
    }

    /// A bank made by the migrations before the one named `migration`, with `sql` run on it;
    /// returns that migration's index.
    fn bank_before(path: &Path, migration: &str, sql: &str) -> usize {
        let before = migrate::MIGRATIONS
            .iter()
            .position(|m| m.name == migration)
            .unwrap();
        bank_at(path, before).conn.execute_batch(sql).unwrap();
        before
    }

    #[test]
    fn user_histories_keep_class_keys_as_32_bytes_after_the_upgrade() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bank.db");
        // A bank from before migration 0017: histories keep keys as 64 hex digits.
        bank_before(
            &path,
            "0017_user_history_keys.sql",
            &format!(
                "INSERT INTO user_history (user, canon_key, puzzle_id, given_at)
                 VALUES ('ann', '{KEY}', 7, '2026-01-02T03:04:05.000Z'), ('bob', '{KEY}', 8, 'x')"
            ),
        );
        let bank = open(&path).unwrap();
        assert_eq!(migrate::version(&bank).unwrap(), migrate::SCHEMA_VERSION);
        let rows: Vec<(String, Vec<u8>, i64, String)> = bank
            .conn
            .prepare("SELECT user, canon_key, puzzle_id, given_at FROM user_history ORDER BY user")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let key = crate::canon::Key::from_hex(KEY).unwrap();
        assert_eq!(
            rows,
            vec![
                ("ann".into(), key.0.to_vec(), 7, "2026-01-02T03:04:05.000Z".into()),
                ("bob".into(), key.0.to_vec(), 8, "x".into()),
            ]
        );
        // A recorded class is found again: the same user cannot be given it twice.
        assert!(!history::record(&bank, "ann", &key, 9).unwrap());
        assert!(history::record(&bank, "cat", &key, 9).unwrap());
    }

    #[test]
    fn a_history_key_that_is_not_hex_fails_the_upgrade_and_leaves_the_bank() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bank.db");
        let before = bank_before(
            &path,
            "0017_user_history_keys.sql",
            "INSERT INTO user_history (user, canon_key, puzzle_id) VALUES ('ann', 'zz', 7)",
        );
        let err = open(&path).unwrap_err().to_string();
        assert!(err.contains("0017_user_history_keys.sql"), "{err}");
        let bank = Bank::new(Connection::open(&path).unwrap());
        assert_eq!(migrate::version(&bank).unwrap() as usize, before);
    }
}
