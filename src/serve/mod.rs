//! `serve`: the bank over HTTP for apps. Per-user puzzles that never repeat a class for a
//! user, hints, rating, solving and canonical forms, the bank's levels, health, Prometheus
//! metrics, the API's OpenAPI description, and a play page.
//!
//! Reads run on a small pool of SQLite connections (WAL: they never wait for the writer);
//! every write (a user's delivery) goes through one writer thread, which commits what arrived
//! together in one transaction (group commit) before answering; a request awaits its commit
//! without holding a thread. A delivery is answered only once committed, so a stopped server
//! (SIGTERM, Ctrl-C: in-flight requests are drained) has recorded every puzzle it handed out.
//!
//! One server records in a bank: it holds the bank's deliveries lock while it runs, which
//! `history export|import` take too, and refuses a bank whose history was exported.
//!
//! A fleet (`--history postgres://...`): several servers, each on its own copy of one bank
//! (only read), record deliveries and daily puzzles in one PostgreSQL history (`fleet`), whose
//! uniqueness constraints decide races between them; no writer thread, no checkpoints. A
//! history that cannot be reached at the start is tried again in the background while the
//! server answers 503.
//!
//! The log: a checkpointer thread copies it into the bank every 100 ms (passive: it never
//! waits for readers or the writer). Under steady deliveries the log would never start over,
//! so past `WAL_FRAMES` the writer checkpoints its tail between two commits and the next
//! commit starts it over.

mod api;
mod fleet;
mod health;
mod limit;
mod listen;
mod log;
mod metrics;
mod page;

pub use listen::Limits;

use crate::canon::Key;
use crate::levels::{Levels, LevelsError};
use crate::rng::Rng;
use crate::store::{self, StoreError};
use rusqlite::Connection;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// What `serve` runs with.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The bank.
    pub db: PathBuf,
    /// Where to listen.
    pub listen: SocketAddr,
    /// The bearer token every route but `/healthz` and the play page's files requires, if any.
    pub token: Option<String>,
    /// The play page's token, if any: written into the page, which sends it; it opens the
    /// routes the page plays with (levels, next, a puzzle by id, the daily puzzle, hint) and
    /// no other.
    pub page_token: Option<String>,
    /// Reading connections.
    pub readers: usize,
    /// The seed of the draws (each request draws from its own stream of it).
    pub rng_seed: u64,
    /// The bounds of the connections.
    pub limits: Limits,
    /// The longest a request may take, its body read included.
    pub request_time: std::time::Duration,
    /// Serve without recording deliveries (a bank that cannot be written: a read-only copy).
    pub read_only: bool,
    /// A fleet's shared history (`postgres://USER@HOST:PORT/DATABASE`) in which deliveries
    /// and daily puzzles are recorded instead of the bank, which is then only read.
    pub history: Option<String>,
    /// Record this bank as the history's bank when the history was recorded against another
    /// (or a larger copy of this one), instead of refusing to start.
    pub history_rebind: bool,
    /// The web origins whose pages may call the API (`https://app.example.com`; `*`: any):
    /// preflights are answered and the CORS headers set. Empty: none (the default).
    pub cors: Vec<String>,
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The bank could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank could not be set up for serving.
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The fleet's history could not be used.
    #[error(transparent)]
    History(#[from] crate::history::HistoryError),
    /// The address could not be bound, or the runtime failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Another process holds the bank's deliveries lock: a server recording in it, or a move
    /// of its history.
    #[error(
        "{}: another process records deliveries in this bank or moves its history (a `pseudoku \
         serve`, or `history export|import`): one server records in a bank; start more with \
         --read-only, or run a fleet (--history)",
        .0.display()
    )]
    Held(PathBuf),
    /// The bank's history was moved to a fleet's history: deliveries recorded here alone
    /// would never reach it.
    #[error(
        "{}: this bank's history was {moved}: deliveries recorded in the bank alone would never \
         reach it (and the fleet would hand those puzzles to the same users again); serve it in \
         the fleet (--history URL), or bring the history back first with `pseudoku history \
         import URL`",
        .db.display()
    )]
    Moved {
        /// The bank.
        db: PathBuf,
        /// Where the history went, and when.
        moved: String,
    },
    /// The bank cannot be written, so no delivery could be recorded.
    #[error(
        "{}: the bank cannot be written ({reason}): no delivery could be recorded; serve it \
         with --read-only to hand out nothing but reads, or give the server a bank it can write",
        .db.display()
    )]
    ReadOnly {
        /// The bank.
        db: PathBuf,
        /// Why it cannot be written.
        reason: String,
    },
}

/// What the writer is asked to write.
enum Job {
    /// A user's delivery.
    Deliver(PendingDelivery),
    /// A daily puzzle, recorded unless it was.
    Daily(DailyAsk),
}

/// A daily puzzle for the writer to find or draw, record and answer (each in a transaction of
/// its own: one is written per date and level, ever).
struct DailyAsk {
    date: crate::calendar::Date,
    level: String,
    within: crate::store::retrieval::Within,
    levels: Arc<Levels>,
    reply: tokio::sync::oneshot::Sender<Result<crate::retrieve::Daily, Unwritten>>,
}

/// A delivery for the writer: record it, then answer whether it was new. One whose request
/// was dropped before the commit (its client went away) is not recorded.
struct PendingDelivery {
    user: String,
    canon_key: Key,
    puzzle_id: i64,
    reply: tokio::sync::oneshot::Sender<Result<bool, Unwritten>>,
}

/// What every request shares.
struct Shared {
    readers: Mutex<Vec<Connection>>,
    db: PathBuf,
    writer: Mutex<Option<mpsc::Sender<Job>>>,
    token: Option<String>,
    page_token: Option<String>,
    rng_seed: u64,
    draws: AtomicU64,
    metrics: Arc<metrics::Metrics>,
    /// The bank's rating and levels, and when they were read (a calibration while serving is
    /// seen within [`LEVELS_TTL`]).
    levels: Mutex<Option<(std::time::Instant, Arc<Levels>)>>,
    /// Whether the bank can take deliveries, and why not.
    health: health::Health,
    /// The longest a request may take.
    request_time: std::time::Duration,
    /// A fleet's shared history, where deliveries and daily puzzles are recorded.
    fleet: Option<fleet::Fleet>,
    /// The web origins allowed to call the API from their pages (`--cors`).
    origins: Vec<String>,
    /// The play page's token's rate limits.
    page_limits: limit::PageLimits,
    /// The requests' ids.
    ids: log::Ids,
}

/// The log's length (in pages, about 512 MB) past which the writer checkpoints it so that it
/// starts over. Under light load the log starts over by itself (the checkpointer copies all of
/// it between two deliveries); under thousands of deliveries a second it would grow without
/// end. Each start-over holds the deliveries for one checkpoint of the log's tail (40-75 ms on
/// the 2-core machine under load), so it is kept rare: about every 28 s at 3,000 deliveries a
/// second (1.65 pages each), which keeps the requests it delays under half a percent
/// (BENCHMARKS.md, "Serving": at 256 MB they were 1% and the p99 11-23 ms).
const WAL_FRAMES: i64 = 131_072;

/// The threads for blocking work (draws, hints, lists of puzzles): each piece is short, and
/// a few threads on a 2-core machine answer more (closed loop 9,800-10,600 requests/s with 8
/// against 6,700-9,200 with tokio's 512, alternated) with a shorter tail.
const BLOCKING_THREADS: usize = 8;

/// How many checkpoints the writer tries for a start-over of the log.
const RESTART_TRIES: usize = 3;

/// How long the bank's levels are kept before they are read again.
const LEVELS_TTL: std::time::Duration = std::time::Duration::from_secs(1);

impl Shared {
    /// Runs `f` with a reading connection from the pool (opening one if the pool is empty).
    fn read<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, E>,
    ) -> Result<T, E> {
        let conn = self.readers.lock().expect("pool").pop();
        let conn = match conn {
            Some(c) => c,
            None => store::open_existing(&self.db)?,
        };
        let out = f(&conn);
        self.readers.lock().expect("pool").push(conn);
        out
    }

    /// The bank's rating, reference and levels if read within [`LEVELS_TTL`].
    fn cached_levels(&self) -> Option<Arc<Levels>> {
        match &*self.levels.lock().expect("levels") {
            Some((at, levels)) if at.elapsed() < LEVELS_TTL => Some(levels.clone()),
            _ => None,
        }
    }

    /// The bank's rating, reference and levels (read again after [`LEVELS_TTL`]).
    fn levels(&self) -> Result<Arc<Levels>, LevelsError> {
        if let Some(cached) = self.cached_levels() {
            return Ok(cached);
        }
        let levels = Arc::new(self.read(Levels::read)?);
        *self.levels.lock().expect("levels") = Some((std::time::Instant::now(), levels.clone()));
        Ok(levels)
    }

    /// A random stream for one draw.
    fn rng(&self) -> Rng {
        Rng::for_job(self.rng_seed, self.draws.fetch_add(1, Ordering::Relaxed))
    }

    /// Hands `job` to the writer.
    fn send(&self, job: Job) -> Result<(), Unwritten> {
        let writer = self.writer.lock().expect("writer").clone();
        let Some(writer) = writer else {
            return Err(Unwritten::Closed(if self.health.read_only() {
                "this server is read-only: it records nothing".into()
            } else {
                "the server is stopping".into()
            }));
        };
        writer
            .send(job)
            .map_err(|_| Unwritten::stopped())
    }

    /// Records a delivery through the writer; whether it was new for the user. Awaits the
    /// commit without holding a thread.
    async fn record(
        &self,
        user: &str,
        canon_key: Key,
        puzzle_id: i64,
    ) -> Result<bool, Unwritten> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Job::Deliver(PendingDelivery {
            user: user.to_string(),
            canon_key,
            puzzle_id,
            reply,
        }))?;
        answer.await.map_err(|_| Unwritten::stopped())?
    }

    /// The daily puzzle of `date` at a level (its name and its puzzles on `levels`), found or
    /// drawn and recorded by the writer. Awaits the commit without holding a thread.
    async fn daily(
        &self,
        date: crate::calendar::Date,
        (level, within): (&str, crate::store::retrieval::Within),
        levels: Arc<Levels>,
    ) -> Result<crate::retrieve::Daily, Unwritten> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Job::Daily(DailyAsk {
            date,
            level: level.to_string(),
            within,
            levels,
            reply,
        }))?;
        answer.await.map_err(|_| Unwritten::stopped())?
    }
}

/// Why the writer did not record a job.
#[derive(Debug)]
enum Unwritten {
    /// The server takes no writes now (read-only, stopping): the reason, for the client.
    Closed(String),
    /// The commit failed: its cause, for the log.
    Failed(String),
}

impl Unwritten {
    /// The writer thread is gone.
    fn stopped() -> Unwritten {
        Unwritten::Closed("the writer stopped".into())
    }
}

/// A checkpoint of the bank's log in `mode`: the log's length and the pages copied.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<(i64, i64)> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        Ok((r.get(1)?, r.get(2)?))
    })
}

/// A daily puzzle found or drawn and recorded in a transaction of its own.
fn write_daily(conn: &Connection, ask: &DailyAsk) -> Result<crate::retrieve::Daily, Unwritten> {
    let today = crate::calendar::Date::today();
    let level = (ask.level.as_str(), ask.within);
    store::immediate(conn, || {
        crate::retrieve::daily(conn, &ask.levels, ask.date, level, today)
    })
    .map_err(|e| Unwritten::Failed(e.to_string()))
}

/// The writer: takes every job waiting, commits the deliveries among them in one
/// transaction and answers each, then each daily puzzle in a transaction of its own.
///
/// The log starts over (instead of growing) only when a write begins after a checkpoint that
/// copied all of it. The checkpointer thread never quite gets there while deliveries keep
/// coming, so once the log passes [`WAL_FRAMES`] the writer itself checkpoints between two
/// commits: with most of the log copied already that is short, and the next commit starts the
/// log over.
fn writer_loop(
    conn: Connection,
    inbox: mpsc::Receiver<Job>,
    metrics: &metrics::Metrics,
    health: &health::Health,
) {
    while let Ok(first) = inbox.recv() {
        let mut jobs = vec![first];
        while jobs.len() < 512 {
            match inbox.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        let mut batch = Vec::with_capacity(jobs.len());
        for job in jobs {
            match job {
                Job::Deliver(d) => batch.push(d),
                Job::Daily(ask) => {
                    let start = std::time::Instant::now();
                    let outcome = write_daily(&conn, &ask);
                    metrics.observe_write("daily", start.elapsed().as_secs_f64());
                    let _ = ask.reply.send(outcome);
                }
            }
        }
        // A request dropped meanwhile (its client closed the connection) is not charged.
        batch.retain(|d| !d.reply.is_closed());
        if batch.is_empty() {
            continue;
        }
        let start = std::time::Instant::now();
        let outcome = store::immediate(&conn, || -> Result<Vec<bool>, StoreError> {
            batch
                .iter()
                .map(|d| store::history::record(&conn, &d.user, &d.canon_key, d.puzzle_id))
                .collect()
        });
        metrics.observe_write("commit", start.elapsed().as_secs_f64());
        health.recorded(outcome.as_ref().err().map(ToString::to_string));
        match outcome {
            Ok(new) => {
                metrics.delivered(new.len());
                for (d, n) in batch.into_iter().zip(new) {
                    let _ = d.reply.send(Ok(n));
                }
            }
            Err(e) => {
                for d in batch {
                    let _ = d.reply.send(Err(Unwritten::Failed(e.to_string())));
                }
            }
        }
        if metrics.wal_frames.load(Ordering::Relaxed) > WAL_FRAMES {
            metrics.wal_frames.store(0, Ordering::Relaxed);
            let start = std::time::Instant::now();
            // A reader still on an older snapshot keeps its last frames from being copied;
            // readers are short, so the next try (with the log's start still synced) gets them.
            for _ in 0..RESTART_TRIES {
                match checkpoint(&conn, "PASSIVE") {
                    Ok((log, copied)) if copied < log => std::thread::yield_now(),
                    _ => break,
                }
            }
            metrics.observe_write("restart", start.elapsed().as_secs_f64());
        }
    }
}

/// Serves the bank until SIGTERM or Ctrl-C; `ready` is told the address once listening, and
/// `notice` what an operator should hear meanwhile (a fleet's history not reached yet, then
/// reached), as a plain sentence for the caller's log. A
/// bank that cannot be written is refused unless `opts.read_only`. On the signal the server
/// stops accepting, finishes the requests it is answering within `opts.limits.drain`,
/// commits the deliveries it has answered, and returns.
pub fn run(
    opts: &ServeOptions,
    ready: impl FnOnce(SocketAddr),
    notice: impl Fn(String) + Send + Sync + 'static,
) -> Result<(), ServeError> {
    let write_conn = store::open_existing(&opts.db)?;
    // A fleet's server records in the history: the bank is only read.
    let in_bank = !opts.read_only && opts.history.is_none();
    if let Err(reason) = store::can_write(&write_conn) {
        if in_bank {
            return Err(ServeError::ReadOnly {
                db: opts.db.clone(),
                reason,
            });
        }
    }
    // One server records in a bank, and never while its history is moved or after it was.
    let _recording = if in_bank {
        if let Some(moved) = store::settings::get(&write_conn, crate::history::MOVED_KEY)? {
            return Err(ServeError::Moved {
                db: opts.db.clone(),
                moved,
            });
        }
        Some(
            store::lock::DeliveriesLock::try_acquire(&opts.db)?
                .ok_or_else(|| ServeError::Held(opts.db.clone()))?,
        )
    } else {
        None
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("pseudoku-serve")
        .max_blocking_threads(BLOCKING_THREADS)
        .build()?;
    // A fleet's history: its schema brought up to date and this bank checked against the
    // one it records before anything is delivered. A history that cannot be reached yet is
    // tried again in the background (503 meanwhile); any other refusal stops the server.
    let (fleet, unbound) = match &opts.history {
        Some(url) => {
            let fleet = fleet::Fleet::new(crate::history::Postgres::serving(url)?);
            let conn = Mutex::new(store::open_existing(&opts.db)?);
            match runtime.block_on(fleet.bind(&conn, opts.history_rebind)) {
                Ok(()) => (Some(fleet), None),
                Err(e) if e.unreachable() => (Some(fleet), Some((conn, e))),
                Err(e) => return Err(e.into()),
            }
        }
        None => (None, None),
    };
    let mut readers = Vec::new();
    for _ in 0..opts.readers.max(1) {
        readers.push(store::open_existing(&opts.db)?);
    }
    // Checkpoints (copying the log into the bank, with an fsync) run on a thread of their own,
    // so that deliveries seldom wait for one; see `writer_loop` for how the log starts over.
    write_conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // Another writer (a build adding puzzles) holds the bank for a few milliseconds at a time:
    // deliveries try again every 200 us rather than on SQLite's escalating sleeps (1, 2, 5,
    // 10 ms...), for at most the store's usual 30 s.
    write_conn.busy_handler(Some(|tries: i32| {
        std::thread::sleep(std::time::Duration::from_micros(200));
        tries < 150_000
    }))?;
    let checkpoints = store::open_existing(&opts.db)?;
    let stopping = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let metrics = Arc::new(metrics::Metrics::default());
    let health = health::Health::new(opts.db.clone(), opts.read_only, in_bank);
    if let Some((_, e)) = &unbound {
        health.recorded(Some(fleet::not_bound(e)));
    }
    // A read-only server, or a fleet's, writes nothing to the bank: no writer, no checkpoints.
    let checkpointer = in_bank.then(|| {
        let (stopping, metrics) = (stopping.clone(), metrics.clone());
        std::thread::Builder::new()
            .name("pseudoku-checkpoint".into())
            .spawn(move || {
                let mut last = (0, 0);
                while !stopping.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    let start = std::time::Instant::now();
                    if let Ok((frames, copied)) = checkpoint(&checkpoints, "PASSIVE") {
                        // Counted only when it copied pages (SQLite reports the log's pages
                        // copied so far): an idle server's tries are not checkpoints.
                        if (frames, copied) != last && copied > 0 {
                            metrics.observe_write("checkpoint", start.elapsed().as_secs_f64());
                        }
                        last = (frames, copied);
                        metrics.wal_frames.store(frames, Ordering::Relaxed);
                        // The last resort, should the log never start over: wait for the
                        // readers and truncate it.
                        if frames > 4 * WAL_FRAMES {
                            let _ = checkpoint(&checkpoints, "TRUNCATE");
                        }
                    }
                }
                let _ = checkpoint(&checkpoints, "TRUNCATE");
            })
    });
    let checkpointer = checkpointer.transpose()?;
    let (tx, inbox) = mpsc::channel();
    let shared = Arc::new(Shared {
        readers: Mutex::new(readers),
        db: opts.db.clone(),
        writer: Mutex::new(in_bank.then_some(tx)),
        token: opts.token.clone(),
        page_token: opts.page_token.clone(),
        rng_seed: opts.rng_seed,
        draws: AtomicU64::new(0),
        metrics,
        levels: Mutex::new(None),
        health,
        request_time: opts.request_time,
        fleet,
        origins: opts.cors.clone(),
        page_limits: limit::PageLimits::default(),
        ids: log::Ids::new(),
    });
    let writer = if !in_bank {
        None
    } else {
        let shared = shared.clone();
        Some(
            std::thread::Builder::new()
                .name("pseudoku-writer".into())
                .spawn(move || writer_loop(write_conn, inbox, &shared.metrics, &shared.health))?,
        )
    };
    // The error of a history that could not be bound, which stops the server.
    let (fatal_tx, fatal) = tokio::sync::oneshot::channel();
    let mut stopped_by: Option<crate::history::HistoryError> = None;
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(opts.listen).await?;
        ready(listener.local_addr()?);
        // A history not reached at the start: tried again until bound, or the server stops.
        if let Some((conn, first)) = unbound {
            let (shared, rebind) = (shared.clone(), opts.history_rebind);
            let fleet = shared.fleet.clone().expect("a fleet's server");
            notice(format!(
                "{}: trying again for up to {} s (deliveries and /healthz answer 503 \
                 meanwhile)",
                first.reason(),
                fleet::START_WAIT.as_secs()
            ));
            tokio::spawn(async move {
                let failed = |e: &crate::history::HistoryError| {
                    shared.health.recorded(Some(fleet::not_bound(e)));
                };
                match fleet.bind_retrying(&conn, rebind, failed).await {
                    Ok(()) => {
                        shared.health.recorded(None);
                        notice("the history answers: serving deliveries".into());
                    }
                    Err(e) => {
                        let _ = fatal_tx.send(e);
                    }
                }
            });
        }
        let app = (
            api::router(shared.clone(), &opts.cors),
            api::busy_router(shared.clone()),
        );
        let stop = async {
            tokio::select! {
                () = stop_signal() => {},
                Ok(e) = fatal => stopped_by = Some(e),
            }
        };
        listen::serve(listener, app, opts.limits, stop).await
    });
    // The requests answered are done (or abandoned after the drain): let the writer commit
    // what it holds, then stop.
    shared.writer.lock().expect("writer").take();
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    stopping.store(true, Ordering::Relaxed);
    if let Some(checkpointer) = checkpointer {
        let _ = checkpointer.join();
    }
    // Requests abandoned by the drain may still hold a reading connection on the blocking
    // threads: they are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    if let Some(e) = stopped_by {
        return Err(e.into());
    }
    result.map_err(ServeError::Io)
}

/// Resolves on SIGTERM or Ctrl-C.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
