//! The store's second backend: a fleet's shared history in PostgreSQL (`serve --history
//! postgres://...`, `history export|import`): the classes each app user has been given
//! ([`UserHistory`]) and the site's daily puzzles ([`DailyPuzzles`]), recorded by every server
//! of one bank, so that any server can answer any user; the operations are the SQLite bank's
//! ([`crate::store::history`], [`crate::store::daily`]) under the same names. Owns all of the
//! project's PostgreSQL: the schema (an append-only list of files, `migrations/postgres/`, the
//! version their count), the connection pool, the bank identity check, and every query.
//!
//! The puzzles stay in each server's own copy of the bank file (read-only data); a puzzle id
//! means the same row in every copy of one bank, which the identity check makes sure of (the
//! bank's id and the lineage points of its copies). A server's every request to the history is
//! bounded by [`DEADLINE`], and a delivery's statement carries its deadline on PostgreSQL's
//! clock, so that a history that hangs is answered 503 in time and charges no delivery the
//! player did not receive.

mod daily;
mod history;
mod play;
mod play_log;
mod transfer;

pub use daily::DailyPuzzles;
pub use history::UserHistory;
pub use play::Play;
pub use play_log::BATCH as PLAY_BATCH;
pub use transfer::{export, import, Moved, MOVED_KEY};

use crate::canon::Key;
use crate::store::lineage::Digest;
use crate::store::{self, StoreError};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio_postgres::NoTls;

/// The schema's files, in order. Append only; never edit a shipped one.
const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_history.sql",
        include_str!("../../../migrations/postgres/0001_history.sql"),
    ),
    (
        "0002_lineage.sql",
        include_str!("../../../migrations/postgres/0002_lineage.sql"),
    ),
    (
        "0003_play.sql",
        include_str!("../../../migrations/postgres/0003_play.sql"),
    ),
    (
        "0004_held_games.sql",
        include_str!("../../../migrations/postgres/0004_held_games.sql"),
    ),
];

/// The schema version this program writes: the number of files in [`MIGRATIONS`].
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

/// The advisory lock that servers starting together take to create or migrate the schema
/// one at a time ("pseudoku" in ASCII).
const SCHEMA_LOCK: i64 = 0x7073_6575_646f_6b75;

/// Connections a server keeps to the history at most.
pub const CONNECTIONS: usize = 16;

/// How long a connection may take to open, and a request may wait for a free one (`history
/// export|import`; a server's requests are bounded by [`DEADLINE`] as a whole).
const WAIT: Duration = Duration::from_secs(5);

/// How long a server's use of its history may take, from asking for a connection to the
/// answer: a client-side bound on every request (a history that hangs, a host stopped, is
/// answered 503 within it), and the statement timeout of its connections (a statement that
/// runs too long on PostgreSQL is cancelled there).
pub const DEADLINE: Duration = Duration::from_secs(2);

/// How much sooner than [`DEADLINE`] a delivery must be recorded on PostgreSQL's clock: a
/// statement that reaches PostgreSQL later (it waited in a stopped host's socket) records
/// nothing, and one recorded in time has this long for its answer to reach the server.
const ANSWER_MARGIN: Duration = Duration::from_millis(500);

/// Why the history could not be used.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The address is not a PostgreSQL connection address.
    #[error(
        "bad history address {url:?}: {reason} (expected postgres://USER@HOST:PORT/DATABASE)"
    )]
    Address {
        /// The address given, its password hidden.
        url: String,
        /// Why it was refused.
        reason: String,
    },
    /// PostgreSQL refused or failed a request.
    #[error("the history at {at}: {}", said(error))]
    Postgres {
        /// The history's address, its password hidden.
        at: String,
        /// What PostgreSQL or the connection said (with its cause: not a separate source, so
        /// that it is said once).
        error: tokio_postgres::Error,
    },
    /// No connection could be had.
    #[error("the history at {at}: no connection: {reason}")]
    Pool {
        /// The history's address, its password hidden.
        at: String,
        /// Why.
        reason: String,
    },
    /// A newer pseudoku made the schema.
    #[error(
        "the history at {at} has schema version {found}, newer than this program's {known}: \
         use the newer pseudoku"
    )]
    Newer {
        /// The history's address.
        at: String,
        /// The schema's version.
        found: i32,
        /// This program's.
        known: i32,
    },
    /// The history was recorded against another bank, or a larger copy of this one.
    #[error(
        "the history at {at} was recorded against bank {recorded} with {recorded_puzzles} \
         puzzles; this is bank {bank} with {puzzles}: {advice}"
    )]
    OtherBank {
        /// The history's address.
        at: String,
        /// The bank id the history holds.
        recorded: String,
        /// How many puzzles a copy it was recorded against had.
        recorded_puzzles: i64,
        /// This bank's id.
        bank: String,
        /// This bank's puzzles.
        puzzles: i64,
        /// What to do.
        advice: &'static str,
    },
    /// The history did not answer within the server's bound (`DEADLINE`, 2 s).
    #[error("the history at {at} did not answer within {} s", .after.as_secs_f64())]
    Late {
        /// The history's address, its password hidden.
        at: String,
        /// The bound.
        after: Duration,
    },
    /// This copy of the bank and the copy the history records grew apart: each holds
    /// puzzles the other lacks, so a puzzle id would name different puzzles on different
    /// servers.
    #[error(
        "the history at {at} serves copies of bank {bank} (the newest up to puzzle id \
         {last_id}) from which this copy ({puzzles} puzzles) grew apart: each was built on by \
         a build of its own, so an id would name different puzzles on different servers; give \
         every server a copy of one bank file (or record this copy as the history's: serve \
         --history-rebind, history export|import --rebind)"
    )]
    Apart {
        /// The history's address.
        at: String,
        /// The bank's id.
        bank: String,
        /// The newest lineage point's last puzzle id.
        last_id: i64,
        /// This copy's puzzles.
        puzzles: i64,
    },
    /// A server records deliveries in the bank, so its history cannot be moved now.
    #[error(
        "{}: a `pseudoku serve` is recording deliveries in this bank: stop it first (the \
         deliveries it made after the move would never reach the history, and the fleet would \
         hand those puzzles to the same users again)",
        .db.display()
    )]
    Serving {
        /// The bank.
        db: std::path::PathBuf,
    },
    /// The bank has no id (a bank opened only read-only since before ids were given).
    #[error(
        "the bank has no id: open it once with this pseudoku where it can be written (any \
         command that opens it gives it one), then copy it to the servers"
    )]
    NoBankId,
    /// The bank.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The runtime could not start.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl HistoryError {
    /// Whether PostgreSQL aborted the transaction to end a deadlock or a serialization
    /// conflict: the same work run again may well succeed.
    pub fn is_deadlock(&self) -> bool {
        use tokio_postgres::error::SqlState;
        matches!(self, HistoryError::Postgres { error, .. }
            if error.code().is_some_and(|c| {
                *c == SqlState::T_R_DEADLOCK_DETECTED || *c == SqlState::T_R_SERIALIZATION_FAILURE
            }))
    }

    /// Why, without the history's address: what a server tells its clients (`/healthz`, a
    /// 503), which need not learn the database's host.
    pub fn reason(&self) -> String {
        match self {
            HistoryError::Postgres { error, .. } => format!("the history: {}", said(error)),
            HistoryError::Pool { reason, .. } => format!("the history: no connection: {reason}"),
            HistoryError::Late { after, .. } => format!(
                "the history did not answer within {} s",
                after.as_secs_f64()
            ),
            other => other.to_string(),
        }
    }

    /// True when the history could not be reached (no connection, no answer in time, the
    /// connection broken, PostgreSQL starting or full): trying again later may work. False
    /// for what trying again does not change (a bad address, a refused login, a missing
    /// database, another bank).
    pub fn unreachable(&self) -> bool {
        match self {
            HistoryError::Pool { .. } | HistoryError::Late { .. } => true,
            HistoryError::Postgres { error, .. } => match error.as_db_error() {
                None => true,
                Some(db) => {
                    let code = db.code().code();
                    // Connection exceptions, "the database system is starting up", "too many
                    // connections", "the database system is shutting down".
                    code.starts_with("08") || matches!(code, "57P03" | "53300" | "57P01")
                }
            },
            _ => false,
        }
    }
}

/// The history's result type.
pub type Result<T> = std::result::Result<T, HistoryError>;

/// A bank's identity as the history records it: the id every copy of its file keeps, how
/// many puzzles this copy holds (a bank only grows), and its lineage point (its last puzzle
/// id and the digest of every puzzle up to it, the bank's `lineage` table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankIdentity {
    /// The bank's id (its `bank_id` setting).
    pub id: String,
    /// Its puzzles.
    pub puzzles: i64,
    /// Its last puzzle id and the digest up to it (`None` without puzzles).
    pub last: Option<(i64, Digest)>,
}

impl BankIdentity {
    /// The identity of the open bank `bank`.
    pub fn of(bank: &store::Bank) -> Result<BankIdentity> {
        let id = store::settings::get(bank, "bank_id")?.ok_or(HistoryError::NoBankId)?;
        let puzzles = i64::try_from(store::puzzles::count(bank)?).unwrap_or(i64::MAX);
        let last = store::lineage::latest(bank)?;
        Ok(BankIdentity { id, puzzles, last })
    }
}

/// The digest of a bank's puzzles up to an id (`None` when its puzzles end before it): how
/// [`Postgres::bind`] asks a copy whether it has the point the history records.
pub type LineageAt<'a> = &'a (dyn Fn(i64) -> Result<Option<Digest>> + Sync);

/// How a copy stands against the lineage `points` a history records (newest first): of the
/// lineage when it has the newest point's digest; older when its puzzles end before it and it
/// has the digest of the newest point it reaches (or reaches none); apart otherwise. With no
/// point recorded yet, the sizes tell an older copy.
fn standing(
    points: &[(i64, Vec<u8>)],
    bank: &BankIdentity,
    recorded_puzzles: i64,
    at: LineageAt<'_>,
) -> Result<Standing> {
    let Some((newest, theirs)) = points.first() else {
        return Ok(if bank.puzzles >= recorded_puzzles {
            Standing::Of
        } else {
            Standing::Older
        });
    };
    if let Some(mine) = at(*newest)? {
        return Ok(if mine[..] == theirs[..] {
            Standing::Of
        } else {
            Standing::Apart
        });
    }
    let mine_last = bank.last.map_or(0, |(last, _)| last);
    Ok(match points.iter().find(|(last, _)| *last <= mine_last) {
        Some((last, theirs)) => match at(*last)? {
            Some(mine) if mine[..] == theirs[..] => Standing::Older,
            _ => Standing::Apart,
        },
        None => Standing::Older,
    })
}

/// How a copy stands against the lineage point a history records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Standing {
    /// It has the point: the same puzzles up to it (and maybe more).
    Of,
    /// Its puzzles end before the point: an older copy.
    Older,
    /// It has puzzles up to the point, other ones: it grew apart.
    Apart,
}

/// How a bank stands against the history ([`Postgres::bind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// The history was empty: this bank is now its bank.
    New,
    /// The same bank, as large as the history has seen or larger (a refreshed copy).
    Same,
    /// Another bank, or an older copy, recorded as the history's bank because it was asked.
    Rebound,
}

/// What a PostgreSQL error says, its causes included ("db error: FATAL: database \"x\" does
/// not exist"), for messages and the API's reasons.
fn said(error: &tokio_postgres::Error) -> String {
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.ends_with(&more) {
            text = format!("{text}: {more}");
        }
        cause = c.source();
    }
    text
}

/// The history's address for messages: read as PostgreSQL reads it (a URL, or the key=value
/// form) and written again without its password (`***` where one was given) or any option;
/// an address that does not read is not shown at all.
fn redact(url: &str) -> String {
    let Ok(c) = url.parse::<tokio_postgres::Config>() else {
        return "(an address that does not read as one: not shown, as it may hold a password)"
            .into();
    };
    let user = match (c.get_user(), c.get_password()) {
        (Some(u), Some(_)) => format!("{u}:***@"),
        (Some(u), None) => format!("{u}@"),
        (None, Some(_)) => ":***@".into(),
        (None, None) => String::new(),
    };
    let ports = c.get_ports();
    let hosts: Vec<String> = c
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let name = match host {
                tokio_postgres::config::Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
            };
            // One port for all hosts, or one each.
            match ports.get(i).or(ports.first().filter(|_| ports.len() == 1)) {
                Some(port) => format!("{name}:{port}"),
                None => name,
            }
        })
        .collect();
    let db = c.get_dbname().map(|d| format!("/{d}")).unwrap_or_default();
    format!("postgres://{user}{}{db}", hosts.join(","))
}

/// A key from the 32 bytes PostgreSQL holds.
fn key_of(bytes: &[u8]) -> Key {
    Key(bytes
        .try_into()
        .expect("the schema keeps 32-byte keys (a CHECK constraint)"))
}

/// A pool of connections to a fleet's history.
#[derive(Clone)]
pub struct Postgres {
    pool: Pool,
    at: String,
    /// The bound of every request ([`DEADLINE`] for a server), if any.
    deadline: Option<Duration>,
    /// PostgreSQL's clock less this machine's, in microseconds, as last measured.
    offset_us: Arc<AtomicI64>,
}

impl Postgres {
    /// A pool of at most `connections` connections to the PostgreSQL database at `url`
    /// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or the key=value form); opens none
    /// until one is needed. Plain TCP or a Unix socket: no TLS. For a command's few long
    /// requests (`history export|import`); a server's pool is [`Postgres::serving`].
    pub fn connect(url: &str, connections: usize) -> Result<Postgres> {
        Postgres::open(url, connections, None)
    }

    /// The pool of a server of a fleet: every request bounded by `DEADLINE` (2 s) on this side,
    /// and each statement by PostgreSQL's `statement_timeout` on its side.
    pub fn serving(url: &str) -> Result<Postgres> {
        Postgres::open(url, CONNECTIONS, Some(DEADLINE))
    }

    fn open(url: &str, connections: usize, deadline: Option<Duration>) -> Result<Postgres> {
        let at = redact(url);
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e: tokio_postgres::Error| HistoryError::Address {
                url: at.clone(),
                reason: e.to_string(),
            })?;
        if config.get_hosts().is_empty() {
            return Err(HistoryError::Address {
                url: at,
                reason: "no host".into(),
            });
        }
        let wait = deadline.unwrap_or(WAIT);
        config.connect_timeout(wait);
        config.application_name("pseudoku");
        if let Some(limit) = deadline {
            let mut options = config.get_options().unwrap_or_default().to_string();
            if !options.is_empty() {
                options.push(' ');
            }
            options.push_str(&format!("-c statement_timeout={}", limit.as_millis()));
            config.options(options);
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(connections.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(wait))
            .create_timeout(Some(wait))
            .build()
            .map_err(|e| HistoryError::Pool {
                at: at.clone(),
                reason: e.to_string(),
            })?;
        Ok(Postgres {
            pool,
            at,
            deadline,
            offset_us: Arc::new(AtomicI64::new(0)),
        })
    }

    fn failed(&self) -> impl Fn(tokio_postgres::Error) -> HistoryError + '_ {
        |error| HistoryError::Postgres {
            at: self.at.clone(),
            error,
        }
    }

    fn late(&self, after: Duration) -> HistoryError {
        HistoryError::Late {
            at: self.at.clone(),
            after,
        }
    }

    /// A connection from the pool.
    async fn client(&self) -> Result<deadpool_postgres::Object> {
        self.pool.get().await.map_err(|e| match e {
            deadpool_postgres::PoolError::Backend(error) => HistoryError::Postgres {
                at: self.at.clone(),
                error,
            },
            deadpool_postgres::PoolError::Timeout(_) => self.late(self.deadline.unwrap_or(WAIT)),
            other => HistoryError::Pool {
                at: self.at.clone(),
                reason: other.to_string(),
            },
        })
    }

    /// Runs `work` on a connection, within the pool's bound: past it, the request is
    /// [`HistoryError::Late`], and the connection, a statement still in flight on it, leaves
    /// the pool (it closes once PostgreSQL answers or the connection breaks) rather than make
    /// the next request wait behind that statement.
    async fn run<T>(
        &self,
        work: impl AsyncFnOnce(&mut deadpool_postgres::Object) -> Result<T>,
    ) -> Result<T> {
        let Some(limit) = self.deadline else {
            let mut client = self.client().await?;
            return work(&mut client).await;
        };
        let until = tokio::time::Instant::now() + limit;
        let mut client = match tokio::time::timeout_at(until, self.client()).await {
            Ok(client) => client?,
            Err(_) => return Err(self.late(limit)),
        };
        let done = tokio::time::timeout_at(until, work(&mut client)).await;
        match done {
            Ok(out) => out,
            Err(_) => {
                let _ = deadpool_postgres::Object::take(client);
                Err(self.late(limit))
            }
        }
    }

    /// Measures PostgreSQL's clock against this machine's (half the round trip is the
    /// error): the deadline a delivery carries is on PostgreSQL's clock.
    async fn measure_clock(&self, client: &deadpool_postgres::Object) -> Result<()> {
        let before = SystemTime::now();
        let row = client
            .query_one("SELECT clock_timestamp()", &[])
            .await
            .map_err(self.failed())?;
        let after = SystemTime::now();
        let theirs: SystemTime = row.get(0);
        let mid = before + after.duration_since(before).unwrap_or_default() / 2;
        let offset = match theirs.duration_since(mid) {
            Ok(ahead) => i64::try_from(ahead.as_micros()).unwrap_or(i64::MAX),
            Err(behind) => -i64::try_from(behind.duration().as_micros()).unwrap_or(i64::MAX),
        };
        self.offset_us.store(offset, Ordering::Relaxed);
        Ok(())
    }

    /// The time, on PostgreSQL's clock, after which a delivery asked now must not be recorded.
    fn record_by(&self) -> SystemTime {
        let limit = self.deadline.unwrap_or(WAIT).saturating_sub(ANSWER_MARGIN);
        let local = SystemTime::now() + limit;
        let offset = self.offset_us.load(Ordering::Relaxed);
        if offset >= 0 {
            local + Duration::from_micros(offset as u64)
        } else {
            local - Duration::from_micros(offset.unsigned_abs())
        }
    }

    /// The per-user history: what each user was given.
    pub fn history(&self) -> UserHistory<'_> {
        UserHistory(self)
    }

    /// Play: results and the learned ratings of players and puzzles.
    pub fn play(&self) -> Play<'_> {
        Play(self)
    }

    /// The daily puzzles: one per date and level.
    pub fn daily(&self) -> DailyPuzzles<'_> {
        DailyPuzzles(self)
    }

    /// Whether the history answers (`SELECT 1`, and the clocks compared).
    pub async fn ping(&self) -> Result<()> {
        self.run(async |client| self.measure_clock(client).await)
            .await
    }

    /// Brings the schema up to date: creates it in an empty database, applies the files this
    /// program has and the database has not, each in the one transaction that records its
    /// version; refuses a schema newer than this program's. Servers starting together take
    /// turns (an advisory lock). Returns the version.
    pub async fn migrate(&self) -> Result<i32> {
        self.run(async |client| {
            let tx = client.transaction().await.map_err(self.failed())?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
                .await
                .map_err(self.failed())?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS pseudoku_schema (
                     version INTEGER PRIMARY KEY,
                     name TEXT NOT NULL,
                     applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
            )
            .await
            .map_err(self.failed())?;
            let found: i32 = tx
                .query_one("SELECT COALESCE(MAX(version), 0) FROM pseudoku_schema", &[])
                .await
                .map_err(self.failed())?
                .get(0);
            if found > SCHEMA_VERSION {
                return Err(HistoryError::Newer {
                    at: self.at.clone(),
                    found,
                    known: SCHEMA_VERSION,
                });
            }
            for (version, (name, sql)) in (1..).zip(MIGRATIONS).skip(found as usize) {
                tx.batch_execute(sql).await.map_err(self.failed())?;
                tx.execute(
                    "INSERT INTO pseudoku_schema (version, name) VALUES ($1, $2)",
                    &[&version, name],
                )
                .await
                .map_err(self.failed())?;
            }
            tx.commit().await.map_err(self.failed())?;
            Ok(SCHEMA_VERSION)
        })
        .await
    }

    /// Checks `bank` against the copy the history was recorded against: an empty history
    /// takes it; the same bank of the same lineage (`at` gives this copy's digest at the
    /// point the history records: it must have that point, the same puzzles up to it) is the
    /// same (with `grow`, a server's start, the point recorded moves on to this copy's;
    /// `history export|import` on a master bank leave it); another bank, an older copy
    /// (its puzzles end before the point) or one that grew apart is refused unless `rebind`,
    /// which records `bank` as the history's bank.
    pub async fn bind(
        &self,
        bank: &BankIdentity,
        at: LineageAt<'_>,
        rebind: bool,
        grow: bool,
    ) -> Result<Binding> {
        self.run(async |client| {
            self.measure_clock(client).await?;
            let tx = client.transaction().await.map_err(self.failed())?;
            // Servers starting together on an empty history take turns (`FOR UPDATE` locks no
            // row that is not there yet).
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
                .await
                .map_err(self.failed())?;
            let row = tx
                .query_opt("SELECT bank_id, puzzles FROM pseudoku_bank FOR UPDATE", &[])
                .await
                .map_err(self.failed())?;
            // What this copy records: its size and point for a server, only the bank's id for
            // a move from a master bank (the servers' copies, maybe older, record theirs when
            // they start).
            let puzzles = if grow { bank.puzzles } else { 0 };
            let point = bank.last.filter(|_| grow);
            let record_point = async |tx: &deadpool_postgres::Transaction<'_>| -> Result<()> {
                if let Some((last, digest)) = point {
                    tx.execute(
                        "INSERT INTO pseudoku_lineage (last_id, digest) VALUES ($1, $2) \
                         ON CONFLICT DO NOTHING",
                        &[&last, &&digest[..]],
                    )
                    .await
                    .map_err(self.failed())?;
                }
                Ok(())
            };
            // A history bound anew: its points start over from this copy's.
            let restart_points = async |tx: &deadpool_postgres::Transaction<'_>| -> Result<()> {
                tx.execute("DELETE FROM pseudoku_lineage", &[])
                    .await
                    .map_err(self.failed())?;
                record_point(tx).await
            };
            let binding = match row {
                None => {
                    tx.execute(
                        "INSERT INTO pseudoku_bank (bank_id, puzzles) VALUES ($1, $2)",
                        &[&bank.id, &puzzles],
                    )
                    .await
                    .map_err(self.failed())?;
                    restart_points(&tx).await?;
                    Binding::New
                }
                Some(row) => {
                    let (recorded, recorded_puzzles): (String, i64) = (row.get(0), row.get(1));
                    let same = recorded == bank.id;
                    let points: Vec<(i64, Vec<u8>)> = tx
                        .query(
                            "SELECT last_id, digest FROM pseudoku_lineage ORDER BY last_id DESC",
                            &[],
                        )
                        .await
                        .map_err(self.failed())?
                        .iter()
                        .map(|r| (r.get(0), r.get(1)))
                        .collect();
                    let standing = standing(&points, bank, recorded_puzzles, at)?;
                    if same && standing == Standing::Of {
                        if grow {
                            tx.execute(
                                "UPDATE pseudoku_bank SET puzzles = GREATEST(puzzles, $1), \
                                 recorded_at = now()",
                                &[&bank.puzzles],
                            )
                            .await
                            .map_err(self.failed())?;
                            record_point(&tx).await?;
                        }
                        Binding::Same
                    } else if rebind {
                        tx.execute(
                            "UPDATE pseudoku_bank SET bank_id = $1, puzzles = $2, \
                             recorded_at = now()",
                            &[&bank.id, &puzzles],
                        )
                        .await
                        .map_err(self.failed())?;
                        restart_points(&tx).await?;
                        Binding::Rebound
                    } else if same && standing == Standing::Apart {
                        return Err(HistoryError::Apart {
                            at: self.at.clone(),
                            bank: bank.id.clone(),
                            last_id: points.first().map_or(0, |p| p.0),
                            puzzles: bank.puzzles,
                        });
                    } else {
                        return Err(HistoryError::OtherBank {
                            at: self.at.clone(),
                            recorded,
                            recorded_puzzles,
                            bank: bank.id.clone(),
                            puzzles: bank.puzzles,
                            advice: if same {
                                "this copy of the bank is older than one a server had: copy \
                                 the bank again (or rebind: serve --history-rebind, history \
                                 export|import --rebind)"
                            } else {
                                "give every server a copy of the same bank (or record this \
                                 bank as the history's: serve --history-rebind, history \
                                 export|import --rebind; classes stay classes, so users \
                                 still get none twice)"
                            },
                        });
                    }
                }
            };
            tx.commit().await.map_err(self.failed())?;
            Ok(binding)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden() {
        // PostgreSQL's default port may be written out or not.
        let shown = |url: &str| redact(url).replace(":5432", "");
        assert_eq!(
            shown("postgres://app:secret@db:5432/bank"),
            "postgres://app:***@db/bank"
        );
        assert_eq!(shown("postgres://app@db/bank"), "postgres://app@db/bank");
        assert_eq!(shown("host=db user=app"), "postgres://app@db");
        assert_eq!(
            shown("host=db password=pw dbname=bank"),
            "postgres://:***@db/bank"
        );
        // What defeated reading the text for `password=`: a query after a `?` in the
        // password, quoted values with spaces, a password given twice.
        for (url, want) in [
            (
                "postgres://app@db/bank?sslmode=disable&password=pw",
                "postgres://app:***@db/bank",
            ),
            (
                "postgres://app:p%40ss%3Fw@db/bank?password=other",
                "postgres://app:***@db/bank",
            ),
            (
                "host=db user=app password='S3 cret x' dbname=bank",
                "postgres://app:***@db/bank",
            ),
            (
                "host=db user=app password = S3cret port=6543",
                "postgres://app:***@db:6543",
            ),
        ] {
            assert_eq!(shown(url), want, "{url}");
        }
        for bad in [
            "postgres://app:S3c?ret@db:5432/bank",
            "postgres://app:S3cret@db:port/bank",
            "password='S3cret",
            "host=db password=S3cret?x=1 user=app",
        ] {
            let shown = redact(bad);
            assert!(
                !shown.contains("S3c") && !shown.contains("ret@"),
                "{bad}: {shown}"
            );
        }
    }

    #[test]
    fn bad_addresses_are_refused_before_connecting() {
        for url in ["mysql://x", "postgres://app:pw@db:notaport/bank"] {
            match Postgres::connect(url, 1) {
                Err(HistoryError::Address { url: shown, .. }) => {
                    assert!(!shown.contains("pw"), "{shown}")
                }
                Err(e) => panic!("{url}: {e}"),
                Ok(_) => panic!("{url} accepted"),
            }
        }
    }
}
