//! The bank's writer, for a server that records in its bank: one thread owns the writing
//! connection and commits the deliveries that arrived together in one transaction (group
//! commit) before answering them; a request awaits its commit without holding a thread. A
//! second thread copies the log into the bank (checkpoints).
//!
//! The log: the checkpointer copies it into the bank every 100 ms (passive: it never waits
//! for readers or the writer). Under steady deliveries the log would never start over, so
//! past [`WAL_FRAMES`] the writer checkpoints its tail between two commits and the next
//! commit starts it over.

use super::Shared;
use crate::canon::Key;
use crate::levels::Levels;
use crate::play::{Counted, Game, Glicko, Refused};
use crate::retrieve::Daily;
use crate::store::retrieval::Within;
use crate::store::{self, Bank, Checkpoint, StoreError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

/// The log's length (in pages, about 512 MB) past which the writer checkpoints it so that it
/// starts over. Under light load the log starts over by itself (the checkpointer copies all of
/// it between two deliveries); under thousands of deliveries a second it would grow without
/// end. Each start-over holds the deliveries for one checkpoint of the log's tail (40-75 ms on
/// the 2-core machine under load), so it is kept rare: about every 28 s at 3,000 deliveries a
/// second (1.65 pages each), which keeps the requests it delays under half a percent
/// (BENCHMARKS.md, "Serving": at 256 MB they were 1% and the p99 11-23 ms).
const WAL_FRAMES: i64 = 131_072;

/// How many checkpoints the writer tries for a start-over of the log.
const RESTART_TRIES: usize = 3;

/// What the writer is asked to write.
enum Job {
    /// A user's delivery.
    Deliver(PendingDelivery),
    /// A user's result.
    Game(PendingGame),
    /// A daily puzzle, recorded unless it was.
    Daily(DailyAsk),
}

/// A daily puzzle for the writer to find or draw, record and answer (each in a transaction of
/// its own: one is written per date and level, ever).
struct DailyAsk {
    date: crate::calendar::Date,
    level: String,
    within: Within,
    levels: Arc<Levels>,
    reply: tokio::sync::oneshot::Sender<Result<Daily, Unwritten>>,
}

/// A delivery for the writer: record it, then answer whether it was new. One whose request
/// was dropped before the commit (its client went away) is not recorded.
struct PendingDelivery {
    user: String,
    canon_key: Key,
    puzzle_id: i64,
    reply: tokio::sync::oneshot::Sender<Result<bool, Unwritten>>,
}

/// A result for the writer: count it (or refuse it), then answer what it did.
struct PendingGame {
    game: Game,
    key: Key,
    prior: Glicko,
    reply: tokio::sync::oneshot::Sender<Result<Result<Counted, Refused>, Unwritten>>,
}

/// A delivery or a result, committed together with others in one transaction, in the order
/// they arrived (so the ratings follow the results' order).
enum Pending {
    Deliver(PendingDelivery),
    Game(PendingGame),
}

impl Pending {
    /// Whether its request is gone (its client closed the connection).
    fn dropped(&self) -> bool {
        match self {
            Pending::Deliver(d) => d.reply.is_closed(),
            Pending::Game(g) => g.reply.is_closed(),
        }
    }
}

/// What the transaction did with one [`Pending`].
enum Done {
    Delivered(bool),
    Counted(Result<Counted, Refused>),
}

/// Why the writer did not record a job.
#[derive(Debug)]
pub enum Unwritten {
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

/// The writer's inbox, while it takes jobs.
pub struct BankWriter {
    inbox: Mutex<Option<mpsc::Sender<Job>>>,
}

/// The threads of a writer: the writer's and the checkpointer's.
pub struct Threads {
    writer: JoinHandle<()>,
    checkpointer: JoinHandle<()>,
    stopping: Arc<AtomicBool>,
}

impl BankWriter {
    /// A writer's inbox, and the end its thread ([`start`]) takes jobs from.
    pub fn new() -> (BankWriter, Inbox) {
        let (tx, rx) = mpsc::channel();
        (
            BankWriter {
                inbox: Mutex::new(Some(tx)),
            },
            Inbox(rx),
        )
    }

    /// Takes no more jobs: the writer commits what it holds, then its thread ends.
    pub fn close(&self) {
        self.inbox.lock().expect("writer").take();
    }

    /// Hands `job` to the writer.
    fn send(&self, job: Job) -> Result<(), Unwritten> {
        let inbox = self.inbox.lock().expect("writer").clone();
        let Some(inbox) = inbox else {
            return Err(Unwritten::Closed("the server is stopping".into()));
        };
        inbox.send(job).map_err(|_| Unwritten::stopped())
    }

    /// Records a delivery; whether it was new for the user. Awaits the commit without holding
    /// a thread.
    pub async fn record(
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

    /// Counts a result (its puzzle of class `key`, with `prior` if it has no rating yet), or
    /// refuses it; what it did. Awaits the commit without holding a thread.
    pub async fn count(
        &self,
        game: Game,
        key: Key,
        prior: Glicko,
    ) -> Result<Result<Counted, Refused>, Unwritten> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Job::Game(PendingGame {
            game,
            key,
            prior,
            reply,
        }))?;
        answer.await.map_err(|_| Unwritten::stopped())?
    }

    /// The daily puzzle of `date` at a level (its name and its puzzles on `levels`), found or
    /// drawn and recorded. Awaits the commit without holding a thread.
    pub async fn daily(
        &self,
        date: crate::calendar::Date,
        (level, within): (&str, Within),
        levels: Arc<Levels>,
    ) -> Result<Daily, Unwritten> {
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

/// The end of a writer's inbox its thread takes jobs from.
pub struct Inbox(mpsc::Receiver<Job>);

/// Starts the writer on `conn` (set up by [`store::for_group_commits`]) and the checkpointer
/// on `checkpoints`, a connection of its own.
pub fn start(
    conn: Bank,
    checkpoints: Bank,
    inbox: Inbox,
    shared: &Arc<Shared>,
) -> std::io::Result<Threads> {
    let stopping = Arc::new(AtomicBool::new(false));
    let checkpointer = {
        let (stopping, shared) = (stopping.clone(), shared.clone());
        std::thread::Builder::new()
            .name("pseudoku-checkpoint".into())
            .spawn(move || checkpoint_loop(&checkpoints, &stopping, &shared))?
    };
    let writer = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("pseudoku-writer".into())
            .spawn(move || writer_loop(conn, inbox.0, &shared))?
    };
    Ok(Threads {
        writer,
        checkpointer,
        stopping,
    })
}

impl Threads {
    /// Waits for the writer to commit what it holds and end (its inbox closed:
    /// [`BankWriter::close`]), then stops the checkpointer, which truncates the log.
    pub fn join(self) {
        let _ = self.writer.join();
        self.stopping.store(true, Ordering::Relaxed);
        let _ = self.checkpointer.join();
    }
}

/// The checkpointer: copies the log into the bank every 100 ms until `stopping`, then
/// truncates it.
fn checkpoint_loop(conn: &Bank, stopping: &AtomicBool, shared: &Shared) {
    let metrics = &shared.metrics;
    let mut last = (0, 0);
    while !stopping.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let start = std::time::Instant::now();
        if let Ok((frames, copied)) = store::checkpoint(conn, Checkpoint::Passive) {
            // Counted only when it copied pages (SQLite reports the log's pages copied so
            // far): an idle server's tries are not checkpoints.
            if (frames, copied) != last && copied > 0 {
                metrics.observe_write("checkpoint", start.elapsed().as_secs_f64());
            }
            last = (frames, copied);
            metrics.wal_frames.store(frames, Ordering::Relaxed);
            // The last resort, should the log never start over: wait for the readers and
            // truncate it.
            if frames > 4 * WAL_FRAMES {
                let _ = store::checkpoint(conn, Checkpoint::Truncate);
            }
        }
    }
    let _ = store::checkpoint(conn, Checkpoint::Truncate);
}

/// A daily puzzle found or drawn and recorded in a transaction of its own.
fn write_daily(conn: &Bank, ask: &DailyAsk) -> Result<Daily, Unwritten> {
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
fn writer_loop(conn: Bank, inbox: mpsc::Receiver<Job>, shared: &Shared) {
    let (metrics, readiness) = (&shared.metrics, &shared.readiness);
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
                Job::Deliver(d) => batch.push(Pending::Deliver(d)),
                Job::Game(g) => batch.push(Pending::Game(g)),
                Job::Daily(ask) => {
                    let start = std::time::Instant::now();
                    let outcome = write_daily(&conn, &ask);
                    metrics.observe_write("daily", start.elapsed().as_secs_f64());
                    let _ = ask.reply.send(outcome);
                }
            }
        }
        // A request dropped meanwhile (its client closed the connection) is not charged.
        batch.retain(|p| !p.dropped());
        if batch.is_empty() {
            continue;
        }
        let start = std::time::Instant::now();
        let outcome = store::immediate(&conn, || -> Result<Vec<Done>, StoreError> {
            batch
                .iter()
                .map(|p| match p {
                    Pending::Deliver(d) => {
                        store::history::record(&conn, &d.user, &d.canon_key, d.puzzle_id)
                            .map(Done::Delivered)
                    }
                    Pending::Game(g) => store::play::count(
                        &conn,
                        &g.game,
                        &g.key,
                        g.prior,
                        store::play::Delivered::Required,
                    )
                    .map(Done::Counted),
                })
                .collect()
        });
        metrics.observe_write("commit", start.elapsed().as_secs_f64());
        readiness.recorded(outcome.as_ref().err().map(ToString::to_string));
        match outcome {
            Ok(done) => {
                for (p, d) in batch.into_iter().zip(done) {
                    match (p, d) {
                        (Pending::Deliver(p), Done::Delivered(new)) => {
                            metrics.delivered(1);
                            let _ = p.reply.send(Ok(new));
                        }
                        (Pending::Game(p), Done::Counted(counted)) => {
                            let _ = p.reply.send(Ok(counted));
                        }
                        _ => unreachable!("each pending job is done in its own kind"),
                    }
                }
            }
            Err(e) => {
                for p in batch {
                    let failed = Unwritten::Failed(e.to_string());
                    match p {
                        Pending::Deliver(d) => {
                            let _ = d.reply.send(Err(failed));
                        }
                        Pending::Game(g) => {
                            let _ = g.reply.send(Err(failed));
                        }
                    }
                }
            }
        }
        if metrics.wal_frames.load(Ordering::Relaxed) > WAL_FRAMES {
            metrics.wal_frames.store(0, Ordering::Relaxed);
            let start = std::time::Instant::now();
            // A reader still on an older snapshot keeps its last frames from being copied;
            // readers are short, so the next try (with the log's start still synced) gets them.
            for _ in 0..RESTART_TRIES {
                match store::checkpoint(&conn, Checkpoint::Passive) {
                    Ok((log, copied)) if copied < log => std::thread::yield_now(),
                    _ => break,
                }
            }
            metrics.observe_write("restart", start.elapsed().as_secs_f64());
        }
    }
}
