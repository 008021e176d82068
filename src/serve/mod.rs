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
//! Where a server records (its bank, a fleet's history, or nowhere) is one value, its
//! `Recorder`, through which the routes deliver puzzles and daily puzzles.

mod api;
mod error;
mod fleet;
mod limit;
mod listen;
mod log;
mod metrics;
mod page;
mod player_id;
mod readiness;
mod recorder;
mod writer;

pub use listen::Limits;

use crate::levels::{Levels, LevelsError};
use crate::rng::Rng;
use crate::store::{self, Bank, StoreError};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
    /// Where deliveries and daily puzzles are recorded.
    pub recording: Recording,
    /// The web origins whose pages may call the API (`https://app.example.com`; `*`: any):
    /// preflights are answered and the CORS headers set. Empty: none (the default).
    pub cors: Vec<String>,
    /// The new players one address may make in an hour, with the play page's token or on a
    /// server without a token (the server's token is not limited).
    pub new_players_per_address: u32,
    /// The new players the server lets in a day in all, alike.
    pub new_players_per_day: u32,
}

/// Where a server records deliveries and daily puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recording {
    /// In the bank (one server records in a bank).
    Bank,
    /// Nowhere: a bank that cannot be written (a read-only copy) serves every read and no
    /// delivery.
    ReadOnly,
    /// In a fleet's shared history, the bank being only read.
    Fleet {
        /// The history, `postgres://USER@HOST:PORT/DATABASE`.
        history: String,
        /// Record this bank as the history's bank when the history was recorded against
        /// another (or a larger copy of this one), instead of refusing to start.
        rebind: bool,
    },
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The bank could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The fleet's history could not be used.
    #[error(transparent)]
    History(#[from] store::postgres::HistoryError),
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

/// What every request shares.
struct Shared {
    readers: Mutex<Vec<Bank>>,
    db: PathBuf,
    /// Where deliveries and daily puzzles are recorded.
    recorder: recorder::Recorder,
    token: Option<String>,
    page_token: Option<String>,
    rng_seed: u64,
    draws: AtomicU64,
    metrics: Arc<metrics::Metrics>,
    /// The bank's rating and levels, and when they were read (a calibration while serving is
    /// seen within [`LEVELS_TTL`]).
    levels: Mutex<Option<(std::time::Instant, Arc<Levels>)>>,
    /// Whether the server can do its job, and why not.
    readiness: readiness::Readiness,
    /// The longest a request may take.
    request_time: std::time::Duration,
    /// The web origins allowed to call the API from their pages (`--cors`).
    origins: Vec<String>,
    /// The play page's token's rate limits.
    page_limits: limit::PageLimits,
    /// The budgets of new players.
    new_players: limit::NewPlayers,
    /// The player ids this server hands out and checks.
    player_ids: player_id::PlayerIds,
    /// The requests' ids.
    ids: log::Ids,
}

/// The threads for blocking work (draws, hints, lists of puzzles): each piece is short, and
/// a few threads on a 2-core machine answer more (closed loop 9,800-10,600 requests/s with 8
/// against 6,700-9,200 with tokio's 512, alternated) with a shorter tail.
const BLOCKING_THREADS: usize = 8;

/// The longest a request may work.
const MAX_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Deliveries tried before a draw gives up (each retry follows a race with another request
/// of the same user).
const DRAW_RETRIES: usize = 8;

/// How long the bank's levels are kept before they are read again.
const LEVELS_TTL: std::time::Duration = std::time::Duration::from_secs(1);

impl Shared {
    /// Runs `f` with a reading connection from the pool (opening one if the pool is empty).
    fn read<T, E: From<StoreError>>(&self, f: impl FnOnce(&Bank) -> Result<T, E>) -> Result<T, E> {
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
}

/// Runs blocking work (the bank, CPU) off the async threads, within [`MAX_TIME`].
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, error::ApiError> + Send + 'static,
) -> Result<T, error::ApiError> {
    let work = tokio::task::spawn_blocking(f);
    match tokio::time::timeout(MAX_TIME, work).await {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            tracing::error!(id = %log::current(), cause = %e, "a request's worker failed");
            Err(error::ApiError::Failed)
        }
        Err(_) => Err(error::ApiError::Unavailable(format!(
            "the request took longer than {} s",
            MAX_TIME.as_secs()
        ))),
    }
}

/// Serves the bank until SIGTERM or Ctrl-C; `ready` is told the address once listening, and
/// `notice` what an operator should hear meanwhile (a fleet's history not reached yet, then
/// reached), as a plain sentence for the caller's log. A bank that cannot be written is
/// refused unless it is served [`Recording::ReadOnly`]. On the signal the server stops
/// accepting, finishes the requests it is answering within `opts.limits.drain`, commits the
/// deliveries it has answered, and returns.
pub fn run(
    opts: &ServeOptions,
    ready: impl FnOnce(SocketAddr),
    notice: impl Fn(String) + Send + Sync + 'static,
) -> Result<(), ServeError> {
    // A server recording in its bank: the writer's connection, and the bank's deliveries
    // lock, held while it runs (one server records in a bank, and never while its history is
    // moved or after it was). A fleet's server records in the history: the bank is only read.
    let bank_writer = match opts.recording {
        Recording::Bank => {
            let conn = store::open_existing(&opts.db)?;
            if let Err(reason) = store::can_write(&conn) {
                return Err(ServeError::ReadOnly {
                    db: opts.db.clone(),
                    reason,
                });
            }
            if let Some(moved) = store::settings::get(&conn, store::postgres::MOVED_KEY)? {
                return Err(ServeError::Moved {
                    db: opts.db.clone(),
                    moved,
                });
            }
            let held = store::lock::DeliveriesLock::try_acquire(&opts.db)?
                .ok_or_else(|| ServeError::Held(opts.db.clone()))?;
            Some((conn, held))
        }
        _ => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("pseudoku-serve")
        .max_blocking_threads(BLOCKING_THREADS)
        .build()?;
    let readiness = readiness::Readiness::default();
    // Where deliveries are recorded. A fleet's history: its schema brought up to date and
    // this bank checked against the one it records before anything is delivered. A history
    // that cannot be reached yet is tried again in the background (503 meanwhile); any other
    // refusal stops the server.
    let mut unbound = None;
    let mut inbox = None;
    let recorder = match &opts.recording {
        Recording::Bank => {
            let (writer, rx) = writer::BankWriter::new();
            inbox = Some(rx);
            recorder::Recorder::Bank(writer)
        }
        Recording::ReadOnly => recorder::Recorder::ReadOnly,
        Recording::Fleet { history, rebind } => {
            let fleet = fleet::Fleet::new(store::postgres::Postgres::serving(history)?);
            let conn = Mutex::new(store::open_existing(&opts.db)?);
            match runtime.block_on(fleet.bind(&conn, *rebind)) {
                Ok(()) => {}
                Err(e) if e.unreachable() => {
                    readiness.recorded(Some(fleet::not_bound(&e)));
                    unbound = Some((fleet.clone(), conn, e, *rebind));
                }
                Err(e) => return Err(e.into()),
            }
            recorder::Recorder::Fleet(fleet)
        }
    };
    let mut readers = Vec::new();
    for _ in 0..opts.readers.max(1) {
        readers.push(store::open_existing(&opts.db)?);
    }
    let shared = Arc::new(Shared {
        readers: Mutex::new(readers),
        db: opts.db.clone(),
        recorder,
        token: opts.token.clone(),
        page_token: opts.page_token.clone(),
        rng_seed: opts.rng_seed,
        draws: AtomicU64::new(0),
        metrics: Arc::new(metrics::Metrics::default()),
        levels: Mutex::new(None),
        readiness,
        request_time: opts.request_time,
        origins: opts.cors.clone(),
        page_limits: limit::PageLimits::default(),
        new_players: limit::NewPlayers::new(opts.new_players_per_address, opts.new_players_per_day),
        player_ids: player_id::PlayerIds::new(opts.token.as_deref(), opts.rng_seed),
        ids: log::Ids::new(),
    });
    // A read-only server, or a fleet's, writes nothing to the bank: no writer, no checkpoints.
    // Checkpoints (copying the log into the bank, with an fsync) run on a thread of their own,
    // so that deliveries seldom wait for one.
    let (threads, _held) = match (inbox, bank_writer) {
        (Some(inbox), Some((conn, held))) => {
            store::for_group_commits(&conn)?;
            let checkpoints = store::open_existing(&opts.db)?;
            (
                Some(writer::start(conn, checkpoints, inbox, &shared)?),
                Some(held),
            )
        }
        _ => (None, None),
    };
    // The error of a history that could not be bound, which stops the server.
    let (fatal_tx, fatal) = tokio::sync::oneshot::channel();
    let mut stopped_by: Option<store::postgres::HistoryError> = None;
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(opts.listen).await?;
        ready(listener.local_addr()?);
        // A history not reached at the start: tried again until bound, or the server stops.
        if let Some((fleet, conn, first, rebind)) = unbound {
            let shared = shared.clone();
            notice(format!(
                "{}: trying again for up to {} s (deliveries and /healthz answer 503 \
                 meanwhile)",
                first.reason(),
                fleet::START_WAIT.as_secs()
            ));
            tokio::spawn(async move {
                let failed = |e: &store::postgres::HistoryError| {
                    shared.readiness.recorded(Some(fleet::not_bound(e)));
                };
                match fleet.bind_retrying(&conn, rebind, failed).await {
                    Ok(()) => {
                        shared.readiness.recorded(None);
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
    shared.recorder.close();
    if let Some(threads) = threads {
        threads.join();
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
