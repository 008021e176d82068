//! The build loop: batches of jobs generated in parallel, known classes dropped before rating,
//! the fresh puzzles rated in parallel, accepted in job order by the rule of [`super::accept`]
//! until the count or the quotas are met (a shard: kept as candidates, see [`super::shard`]),
//! and committed by a writer thread that owns the connection while the next batches run (on
//! one machine, a few batches are in flight at once: `IN_FLIGHT`). Rows of older versions are brought up to date first
//! ([`crate::levels::calibrate::backfill`]).

use super::accept::{Acceptance, Assignment, Verdict};
use super::job::{self, Generated, JobResult, Measured, Rated, Source};
use super::layout::Layout;
use super::shard::Shard;
use super::targets::{self, TargetProgress};
use super::{BankError, BuildOptions};
use crate::generate::Symmetry;
use crate::levels::calibrate;
use crate::seeds::Library;
use crate::store::{self, Build, NewPuzzle};
use rayon::prelude::*;
use std::collections::{HashSet, VecDeque};
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What became of one job of a batch.
enum Event {
    /// The puzzle did not have one solution (a bug; never stored).
    NotUnique,
    /// Its class is already in the bank or earlier in the batch.
    Duplicate,
    /// Rated, to be kept or dropped.
    Rated(Box<Rated>),
    /// Its rating puts it in no target that could take it (its other rating not made); its
    /// class key, since a class accepted meanwhile makes it a duplicate instead.
    Off(u128),
}

/// Progress of a running build.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Puzzles stored by this build so far (earlier runs of it included).
    pub stored: u64,
    /// Of those, the ones stored before this run (a resumed build's earlier runs).
    pub at_start: u64,
    /// Rows in the bank from this build: `stored`, or for a shard every candidate it keeps
    /// for `merge` (its `stored` counts what its share filled of its quotas).
    pub rows: u64,
    /// Puzzles requested.
    pub count: u64,
    /// Duplicates skipped.
    pub duplicates: u64,
    /// Generated puzzles without one solution (bugs).
    pub rejected: u64,
    /// Puzzles rated outside every band that still needed puzzles (targeted builds).
    pub off_band: u64,
    /// Per band quota (targeted builds).
    pub targets: Vec<TargetProgress>,
    /// Time per stage, summed over the threads that ran it: generation, uniqueness and
    /// canonical form together (the workers); rating (the workers); insert, with the indexes
    /// built at the end (the writer).
    pub stage: [Duration; 3],
}

impl Progress {
    /// True when the build stopped before storing every puzzle it was asked for.
    pub fn stopped(&self) -> bool {
        self.stored < self.count
    }
}

/// The most puzzles one build may be asked for (SQLite stores counts as signed 64-bit
/// integers; this leaves room for every sum).
pub const MAX_COUNT: u64 = 1 << 40;

/// The build's arguments as recorded in its bookkeeping row (a build resumes only with the
/// same ones).
fn arguments(
    opts: &BuildOptions,
    count: u64,
    lib: &Library,
    imported: usize,
    quotas: &[(targets::Aim, u64, Layout)],
) -> String {
    let mut args = format!(
        "count={} seed={} seeds={}",
        count,
        opts.rng_seed,
        opts.seed_library
            .as_ref()
            .map_or("shipped".to_string(), |p| p.display().to_string())
    );
    if imported > 0 {
        // The imported seeds are the last ones; a build resumes only with the same ones.
        let mut h = blake3::Hasher::new();
        for s in &lib.seeds[lib.seeds.len() - imported..] {
            h.update(&s.key().0);
        }
        args.push_str(&format!(
            " imported={imported}:{}",
            &h.finalize().to_hex()[..16]
        ));
    }
    for (aim, quota, layout) in quotas {
        args.push_str(&format!(" {aim}:{quota}"));
        if !layout.is_free() {
            args.push_str(&format!("[{layout}]"));
        }
    }
    args
}

/// Batches the build may queue for the writer while it commits.
const QUEUED_BATCHES: usize = 8;

/// Rows the writer commits in one transaction at most (batches that queued meanwhile).
const WRITE_ROWS: usize = 4096;

/// The writer's page cache, MiB (SQLite's default is 2).
const WRITER_CACHE_MIB: u32 = 64;

/// Builds (or resumes building) the bank from the seed library `lib` and the seeds imported
/// into the bank; calls `progress` after every batch handed to the writer thread (which
/// commits it while the next one is generated). Stops early, keeping what was committed, when
/// `stop` is set.
///
/// With targets, job j is assigned a target by [`targets::assignment`] and draws from its
/// [`targets::band_source`] with its layout rules; the jobs of full targets are not run; a
/// rated puzzle is kept by the rule of [`super::accept`] (in the first open target it fits,
/// counted as off band otherwise). With `opts.shard`, only the shard's blocks of jobs run,
/// and every candidate is kept for `merge` ([`super::shard`]).
pub fn build(
    opts: &BuildOptions,
    lib: &Library,
    stop: &AtomicBool,
    progress: impl FnMut(&Progress),
) -> Result<Progress, BankError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()?;
    let mut lock = store::lock::WriterLock::acquire(&opts.db, "build", opts.wait)?;
    let mut conn = store::open(&opts.db)?;
    let levels = calibrate::ensure(&mut conn, opts.rating)?;
    pool.install(|| calibrate::backfill(&mut conn, &levels))?;
    let (lib, imported) = crate::seeds::imports::with_imports(&conn, lib.clone())?;
    let seeds = job::store_seeds(&conn, pool.install(|| job::prepare(&lib)))?;
    if seeds.is_empty() {
        return Err(BankError::EmptyLibrary);
    }
    let mut quotas = opts.targets.clone();
    if let Some(n) = opts.per_level {
        quotas.extend(
            levels
                .set
                .names()
                .names()
                .iter()
                .map(|name| (targets::Aim::Level(name.clone()), n)),
        );
    }
    if let Some(layout) = &opts.layout {
        let names: Vec<&str> = quotas
            .iter()
            .filter_map(|(aim, _)| match aim {
                targets::Aim::Level(name) => Some(name.as_str()),
                targets::Aim::Band(_) => None,
            })
            .collect();
        if names.is_empty() || names.len() < quotas.len() {
            return Err(BankError::LayoutWithoutLevel);
        }
        store::immediate(&conn, || {
            for name in &names {
                store::settings::set_layout(&conn, name, &layout.to_string())?;
            }
            Ok::<(), store::StoreError>(())
        })?;
    }
    let targeted = !quotas.is_empty();
    let count = if targeted {
        quotas
            .iter()
            .try_fold(0u64, |sum, t| sum.checked_add(t.1))
            .filter(|&n| n <= MAX_COUNT)
            .ok_or(BankError::TooMany)?
    } else if opts.count > MAX_COUNT {
        return Err(BankError::TooMany);
    } else {
        opts.count
    };
    let with_layouts: Vec<(targets::Aim, u64, Layout)> = quotas
        .iter()
        .map(|(aim, n)| {
            let layout = match aim {
                targets::Aim::Level(name) => targets::stored_layout(&conn, name)?,
                targets::Aim::Band(_) => Layout::default(),
            };
            Ok((aim.clone(), *n, layout))
        })
        .collect::<Result<_, BankError>>()?;
    if with_layouts.len() > super::accept::MAX_TARGETS {
        return Err(BankError::TooManyTargets(with_layouts.len()));
    }
    let args = arguments(opts, count, &lib, imported, &with_layouts);
    let held = store::shards::read(&conn)?;
    let (mut b, shard_row) = match (opts.shard, held) {
        (None, Some(row)) => return Err(BankError::IsShard(row.shard, row.shards)),
        (Some(shard), Some(row)) => {
            let info = store::builds::info(&conn, row.build_id)?.ok_or(BankError::Writer)?;
            if info.arguments != shard_arguments(&args, &shard, opts.batch) {
                return Err(BankError::OtherShard(info.arguments));
            }
            store::builds::reopen(&conn, row.build_id)?;
            (info.build, Some((row, false)))
        }
        (Some(shard), None) => {
            // A shard's jobs start at 0 (merge reads its cursors so): a new file.
            if store::puzzles::count(&conn)? > 0 || store::builds::count(&conn)? > 0 {
                return Err(BankError::ShardNotEmpty);
            }
            if opts.batch < with_layouts.len().max(1) as u64 {
                return Err(BankError::ShardBlock(with_layouts.len()));
            }
            let b = store::builds::start(
                &conn,
                &shard_arguments(&args, &shard, opts.batch),
                opts.rng_seed,
                count,
                crate::rate::RATER,
            )?;
            // Saved once the assignment is known (below).
            let row = store::shards::ShardRow {
                build_id: b.id,
                shard: shard.k,
                shards: shard.n,
                block: opts.batch,
                quotas: quota_list(&with_layouts, count),
                cursors: vec![b.next_job; with_layouts.len().max(1)],
                weights: Vec::new(),
            };
            (b, Some((row, true)))
        }
        (None, None) => (
            store::builds::start(&conn, &args, opts.rng_seed, count, crate::rate::RATER)?,
            None,
        ),
    };
    let _ = lock.describe(&format!("build {}", b.id));
    let (mut targets, sources) = targets::plan(&conn, &pool, &levels, &seeds, &with_layouts, b.id)?;
    // Without targets (a build of a count): one target, every job its.
    let planned = || targets::assignment(&pool, &levels, &seeds, &targets, &sources, opts.rng_seed);
    let (assignment, shard_row) = match shard_row {
        Some((mut row, true)) => {
            let a = planned();
            row.weights = a.weights().to_vec();
            store::shards::save(&conn, &row)?;
            (a, Some(row))
        }
        // A shard bank records its assignment (none recorded: the round-robin of an older
        // program's shard).
        Some((row, false)) => {
            let a = Assignment::recorded(&row.weights, row.quotas.len())
                .ok_or_else(|| BankError::NotShard(opts.db.clone()))?;
            (a, Some(row))
        }
        None => (planned(), None),
    };
    let run = Run {
        assignment: &assignment,
        opts,
        seeds: &seeds,
        levels: &levels,
        sources: &sources,
        all_seeds: Source::Seeds((0..seeds.len()).collect()),
        pool: &pool,
        stop,
        busy: Busy::default(),
    };
    match (opts.shard, shard_row) {
        (Some(shard), Some(row)) => {
            // A shard's bank holds a class once per target that made it: no unique key index.
            store::puzzles::defer_indexes(&conn)?;
            run.shard(conn, &mut b, row, shard, &mut targets, progress)
        }
        _ => {
            let keys: HashSet<u128> = store::puzzles::keys(&conn)?;
            // A build that at least doubles the bank appends without the indexes that random
            // keys and ratings would scatter its inserts over; they are built again, packed,
            // when it stops.
            if b.count - b.stored.min(b.count) >= keys.len() as u64 {
                store::puzzles::defer_indexes(&conn)?;
            } else {
                store::puzzles::ensure_indexes(&conn, levels.rating)?;
            }
            let stored = if targets.is_empty() {
                vec![b.stored]
            } else {
                targets.iter().map(|t| t.stored).collect()
            };
            let acc = Acceptance::new(
                assignment.clone(),
                quota_list(&with_layouts, count),
                stored,
                keys,
            );
            run.single(conn, &mut b, acc, &mut targets, progress)
        }
    }
}

/// Each target's quota (a build of a count: one target of that count).
fn quota_list(quotas: &[(targets::Aim, u64, Layout)], count: u64) -> Vec<u64> {
    if quotas.is_empty() {
        vec![count]
    } else {
        quotas.iter().map(|q| q.1).collect()
    }
}

/// A shard's recorded arguments: the build's, with the shard and its block size.
fn shard_arguments(args: &str, shard: &Shard, block: u64) -> String {
    format!("{args} shard={shard} block={block}")
}

/// What the writer thread commits.
enum Write {
    /// A batch of a build: rows, and the build's progress.
    Rows(Build, Vec<NewPuzzle>),
    /// A batch of a shard: candidates, the build's progress and the shard's cursors.
    Shard(
        Build,
        store::shards::ShardRow,
        Vec<store::shards::Candidate>,
    ),
}

impl Write {
    fn len(&self) -> usize {
        match self {
            Write::Rows(_, r) => r.len(),
            Write::Shard(_, _, r) => r.len(),
        }
    }

    /// Takes a later batch into this one (its progress replaces this one's).
    fn absorb(&mut self, later: Write) {
        match (self, later) {
            (Write::Rows(b, rows), Write::Rows(lb, more)) => {
                *b = lb;
                rows.extend(more);
            }
            (Write::Shard(b, s, rows), Write::Shard(lb, ls, more)) => {
                *b = lb;
                *s = ls;
                rows.extend(more);
            }
            _ => unreachable!("one build writes one kind of batch"),
        }
    }

    fn commit(&self, conn: &mut rusqlite::Connection) -> store::Result<()> {
        match self {
            Write::Rows(b, rows) => store::puzzles::insert_batch(conn, b, rows),
            Write::Shard(b, s, rows) => store::shards::insert_batch(conn, b, s, rows),
        }
    }
}

/// The writer thread: owns the connection, commits batches in order; batches that queued
/// while it committed go into one transaction (up to WRITE_ROWS rows), with the latest
/// progress. Returns the time it spent and the connection.
struct Writer {
    tx: Option<std::sync::mpsc::SyncSender<Write>>,
    thread: std::thread::JoinHandle<Result<(Duration, rusqlite::Connection), BankError>>,
}

impl Writer {
    fn spawn(conn: rusqlite::Connection) -> Result<Writer, BankError> {
        store::set_cache_mib(&conn, WRITER_CACHE_MIB)?;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Write>(QUEUED_BATCHES);
        let thread = std::thread::spawn(
            move || -> Result<(Duration, rusqlite::Connection), BankError> {
                let mut conn = conn;
                let mut spent = Duration::ZERO;
                while let Ok(mut w) = rx.recv() {
                    while w.len() < WRITE_ROWS {
                        match rx.try_recv() {
                            Ok(later) => w.absorb(later),
                            Err(_) => break,
                        }
                    }
                    let t = Instant::now();
                    w.commit(&mut conn)?;
                    spent += t.elapsed();
                }
                Ok((spent, conn))
            },
        );
        Ok(Writer {
            tx: Some(tx),
            thread,
        })
    }

    /// Queues a batch; when the writer stopped on an error, returns that error.
    fn send(self, w: Write) -> Result<Writer, BankError> {
        if self
            .tx
            .as_ref()
            .expect("the writer is open")
            .send(w)
            .is_ok()
        {
            return Ok(self);
        }
        Err(match self.finish() {
            Err(e) => e,
            Ok(_) => BankError::Writer,
        })
    }

    /// Waits for every queued batch to be committed.
    fn finish(mut self) -> Result<(Duration, rusqlite::Connection), BankError> {
        self.tx = None;
        self.thread.join().map_err(|_| BankError::Writer)?
    }
}

/// What every batch of a build needs.
struct Run<'a> {
    opts: &'a BuildOptions,
    assignment: &'a Assignment,
    seeds: &'a [job::Prepared],
    levels: &'a crate::levels::Levels,
    sources: &'a [Source],
    all_seeds: Source,
    pool: &'a rayon::ThreadPool,
    stop: &'a AtomicBool,
    busy: Busy,
}

/// Batches planned ahead of the one being accepted: enough that the pool always has the next
/// one's jobs when a worker runs out of the current one's.
const IN_FLIGHT: usize = 4;

/// A batch in flight.
struct Batch {
    /// The first job after it.
    end: u64,
    /// Its jobs' events so far.
    events: Vec<(u64, Event)>,
    /// Its parts not yet reported (its generation, then its rating).
    waiting: u32,
}

/// What a part of a batch reports: its number, and its jobs' results.
enum Piece {
    /// The puzzles of its jobs.
    Generated(u64, Vec<JobResult>),
    /// The events of the puzzles it rated.
    Rated(u64, Vec<(u64, Event)>),
    /// A job panicked (a bug).
    Panicked(Box<dyn std::any::Any + Send>),
}

impl Piece {
    /// Runs `part` of a batch on the scope's pool; what it reports (or its panic) comes back
    /// on `tx`.
    fn spawn<'scope>(
        s: &rayon::Scope<'scope>,
        tx: &std::sync::mpsc::Sender<Piece>,
        part: Box<dyn FnOnce() -> Piece + Send + 'scope>,
    ) {
        let tx = tx.clone();
        s.spawn(move |_| {
            let _ = tx.send(Piece::caught(part));
        });
    }

    /// What `part` reports, or the panic it ended in (the thread that waits for it resumes
    /// the panic rather than waiting for ever).
    fn caught(part: impl FnOnce() -> Piece) -> Piece {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(part)).unwrap_or_else(Piece::Panicked)
    }
}

/// Thread time the workers spent per stage (generation with uniqueness and canonical form;
/// rating), in nanoseconds.
#[derive(Default)]
struct Busy([AtomicU64; 2]);

impl Busy {
    /// Adds the time since `since` to stage `stage`.
    fn add(&self, stage: usize, since: Instant) {
        let ns = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.0[stage].fetch_add(ns, Ordering::Relaxed);
    }

    /// Stage `stage`'s time so far.
    fn get(&self, stage: usize) -> Duration {
        Duration::from_nanos(self.0[stage].load(Ordering::Relaxed))
    }
}

/// Splits a batch's generated puzzles into the events of the jobs that are done (no puzzle
/// with one solution, or a class `known` says is dropped) and the puzzles to rate.
fn sift(
    results: Vec<JobResult>,
    known: impl Fn(u64, u128) -> bool,
) -> (Vec<(u64, Event)>, Vec<Generated>) {
    let mut fresh: Vec<Generated> = Vec::new();
    let mut events: Vec<(u64, Event)> = Vec::new();
    for r in results {
        match r {
            JobResult::NotUnique(j) => events.push((j, Event::NotUnique)),
            JobResult::Puzzle(g) => {
                if known(g.job, store::puzzles::key_prefix(&g.canon.key().0)) {
                    events.push((g.job, Event::Duplicate));
                } else {
                    fresh.push(*g);
                }
            }
        }
    }
    (events, fresh)
}

impl Run<'_> {
    /// Job `j`'s puzzle, from its assigned target's source and layout (`targets`: the
    /// targets' rules; none: any seed, no rules), timed as generation.
    fn generate(&self, targets: &[TargetProgress], j: u64) -> JobResult {
        let t = Instant::now();
        let free = Layout::default();
        let (source, layout) = if targets.is_empty() {
            (&self.all_seeds, &free)
        } else {
            let a = self.assignment.target(j);
            (&self.sources[a], &targets[a].layout)
        };
        let r = job::generate(self.seeds, source, self.opts.rng_seed, j, layout);
        self.busy.add(0, t);
        r
    }

    /// The bank's rating of `g` first, then the other one unless its percentile and level are
    /// ones `wanted` refuses (not rated further: [`Event::Off`]); timed as rating.
    fn rate(&self, g: Generated, wanted: impl Fn(u64, f64, u32) -> bool) -> (u64, Event) {
        let t = Instant::now();
        let m = Measured::new(g, self.levels);
        let r = match (m.percentile, m.level) {
            (Some(p), Some(l)) if !wanted(m.job(), p, l) => {
                let key = store::puzzles::key_prefix(&m.key().0);
                (m.job(), Event::Off(key))
            }
            _ => {
                let r = m.rate(self.seeds, self.levels);
                (r.job, Event::Rated(Box::new(r)))
            }
        };
        self.busy.add(1, t);
        r
    }

    /// Generates jobs `jobs` (in parallel); the puzzles whose class `known` says is dropped
    /// are not rated; the rest are rated (in parallel) by [`Run::rate`]. Returns each job's
    /// event, in job order.
    fn run_jobs(
        &self,
        jobs: Vec<u64>,
        targets: &[TargetProgress],
        known: impl Fn(u64, u128) -> bool,
        wanted: impl Fn(u64, f64, u32) -> bool + Sync,
    ) -> Vec<(u64, Event)> {
        let results: Vec<JobResult> = self.pool.install(|| {
            jobs.into_par_iter()
                .map(|j| self.generate(targets, j))
                .collect()
        });
        let (mut events, fresh) = sift(results, known);
        let rated: Vec<(u64, Event)> = self.pool.install(|| {
            fresh
                .into_par_iter()
                .map(|g| self.rate(g, &wanted))
                .collect()
        });
        events.extend(rated);
        events.sort_by_key(|e| e.0);
        events
    }

    /// True when a puzzle of percentile `p` and level `l` lies within a target that `open`
    /// says can take it (a build of a count: always).
    fn could_take(
        targets: &[TargetProgress],
        open: impl Fn(usize) -> bool,
        p: f64,
        l: u32,
    ) -> bool {
        targets.is_empty()
            || (targets.iter().enumerate())
                .any(|(t, target)| open(t) && target.within.contains(p, l))
    }

    /// A build on one machine: batches of jobs, accepted in job order by the rule of
    /// [`super::accept`] until every target is full.
    ///
    /// The batches flow through the pool without waiting for one another: [`IN_FLIGHT`] of
    /// them are generated or rated at any time, and as the oldest is accepted the next is
    /// planned, so a worker that finishes its share of one batch goes on with the next. A
    /// batch is planned, and its puzzles told apart as known or wanted, on the state of the
    /// acceptance as it was then: jobs of targets full by the time it is accepted are ignored
    /// there, a class accepted since is found a duplicate there, and a target closed since
    /// takes nothing there. What is stored, and every count, is what accepting every job in
    /// order on the current state gives, whatever the timing.
    fn single(
        &self,
        conn: rusqlite::Connection,
        b: &mut Build,
        mut acc: Acceptance,
        targets: &mut [TargetProgress],
        mut progress: impl FnMut(&Progress),
    ) -> Result<Progress, BankError> {
        let rating = self.levels.rating;
        let mut prog = Progress::new(b, targets);
        let writer = Writer::spawn(conn)?;
        // What the workers read of the targets (rules and intervals, which do not change);
        // `targets` has their counts, moved on as batches are accepted.
        let owned = targets.to_vec();
        let fixed: &[TargetProgress] = &owned;
        let cancel = &AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::channel::<Piece>();
        let outcome = self.pool.in_place_scope(|s| {
            let spawn_generate = |seq: u64, jobs: Vec<u64>| {
                Piece::spawn(
                    s,
                    &tx,
                    Box::new(move || {
                        let results = jobs
                            .into_par_iter()
                            .filter(|_| !cancel.load(Ordering::Relaxed))
                            .map(|j| self.generate(fixed, j))
                            .collect();
                        Piece::Generated(seq, results)
                    }),
                )
            };
            let spawn_rate = |seq: u64, fresh: Vec<Generated>, open: Vec<bool>| {
                Piece::spawn(
                    s,
                    &tx,
                    Box::new(move || {
                        let within = |_: u64, p, l| Self::could_take(fixed, |t| open[t], p, l);
                        let events = fresh
                            .into_par_iter()
                            .filter(|_| !cancel.load(Ordering::Relaxed))
                            .map(|g| self.rate(g, within))
                            .collect();
                        Piece::Rated(seq, events)
                    }),
                )
            };
            let run = || -> Result<Writer, BankError> {
                let mut writer = writer;
                let mut flight: VecDeque<Batch> = VecDeque::new();
                // The first job not yet planned, and the number of the next batch.
                let (mut planned, mut next_seq) = (b.next_job, 0u64);
                let mut plan = |acc: &Acceptance, flight: &mut VecDeque<Batch>| {
                    // As many jobs as make a batch of live ones: the jobs of full targets
                    // are ignored, so not run.
                    let span = self.opts.batch * acc.targets() as u64 / acc.open_count() as u64;
                    let end = planned + span;
                    let jobs: Vec<u64> = (planned..end).filter(|&j| !acc.ignores(j)).collect();
                    flight.push_back(Batch {
                        end,
                        events: Vec::new(),
                        waiting: 1,
                    });
                    spawn_generate(next_seq, jobs);
                    (planned, next_seq) = (end, next_seq + 1);
                };
                for _ in 0..IN_FLIGHT {
                    if !acc.done() {
                        plan(&acc, &mut flight);
                    }
                }
                // The number of the oldest batch in flight.
                let mut first_seq = 0u64;
                while !acc.done() && !self.stop.load(Ordering::Relaxed) {
                    let piece = rx.recv().expect("a batch in flight reports");
                    let (seq, events, fresh) = match piece {
                        Piece::Generated(seq, results) => {
                            let (events, fresh) = sift(results, |_, key| acc.seen(key));
                            (seq, events, fresh)
                        }
                        Piece::Rated(seq, events) => (seq, events, Vec::new()),
                        // A bug: the panic goes on here, where the build's caller sees it.
                        Piece::Panicked(payload) => {
                            cancel.store(true, Ordering::Relaxed);
                            std::panic::resume_unwind(payload)
                        }
                    };
                    let batch = &mut flight[(seq - first_seq) as usize];
                    batch.events.extend(events);
                    batch.waiting -= 1;
                    if !fresh.is_empty() {
                        batch.waiting += 1;
                        let open = (0..acc.targets()).map(|t| acc.open(t)).collect();
                        spawn_rate(seq, fresh, open);
                    }
                    // A stop (Ctrl-C, or the caller's) ends the build after the batch it
                    // came in.
                    while flight.front().is_some_and(|f| f.waiting == 0)
                        && !acc.done()
                        && !self.stop.load(Ordering::Relaxed)
                    {
                        let mut batch = flight.pop_front().expect("checked");
                        first_seq += 1;
                        batch.events.sort_by_key(|e| e.0);
                        let rows = Self::accept(&mut acc, b, targets, batch);
                        writer = writer.send(Write::Rows(b.clone(), rows))?;
                        prog.update(b, targets, &self.busy);
                        progress(&prog);
                        if !acc.done() {
                            plan(&acc, &mut flight);
                        }
                    }
                }
                Ok(writer)
            };
            let outcome = run();
            // What is still in flight is not needed: its jobs stop at once.
            cancel.store(true, Ordering::Relaxed);
            outcome
        });
        let (spent, conn) = outcome?.finish()?;
        let t = Instant::now();
        store::set_sort_threads(&conn, self.pool.current_num_threads())?;
        store::puzzles::ensure_indexes(&conn, rating)?;
        prog.stage[2] = spent + t.elapsed();
        if acc.done() {
            store::builds::finish(&conn, b.id)?;
        }
        Ok(prog)
    }

    /// Accepts a batch's events in job order: the rows to store, with `b` (its next job
    /// among them) and the targets' counts moved on.
    fn accept(
        acc: &mut Acceptance,
        b: &mut Build,
        targets: &mut [TargetProgress],
        batch: Batch,
    ) -> Vec<NewPuzzle> {
        let mut rows: Vec<NewPuzzle> = Vec::new();
        let mut next_job = batch.end;
        for (j, event) in batch.events {
            if acc.ignores(j) {
                continue;
            }
            let assigned = acc.assigned(j);
            if let Some(t) = targets.get_mut(assigned) {
                t.jobs += 1;
            }
            let verdict = match event {
                // Off by the targets open when it was rated; a class accepted since makes it a
                // duplicate.
                Event::Off(key) => acc.offer(j, key, 0),
                event => {
                    let Some(rated) = event.rated(j, b) else {
                        continue;
                    };
                    let key = store::puzzles::key_prefix(&rated.graded.key().0);
                    match acc.offer(j, key, targets::fits(targets, &rated)) {
                        Verdict::Stored(t) => {
                            if let Some(target) = targets.get_mut(t) {
                                target.stored += 1;
                                target.hits += u64::from(t == assigned);
                            }
                            rows.push(rated.into());
                            Verdict::Stored(t)
                        }
                        v => v,
                    }
                }
            };
            match verdict {
                Verdict::Stored(_) => {
                    b.stored += 1;
                    // The build ends with the job that filled the last target, whatever
                    // jobs the batch planned after it.
                    if acc.done() {
                        next_job = j + 1;
                        break;
                    }
                }
                Verdict::Duplicate => b.duplicates += 1,
                Verdict::Off => b.off_band += 1,
                Verdict::Ignored => unreachable!("checked above"),
            }
        }
        b.next_job = next_job;
        rows
    }

    /// A shard: its blocks of jobs, every candidate stored once per (class, assigned target),
    /// until its share fills every target (see [`super::shard`]).
    fn shard(
        &self,
        conn: rusqlite::Connection,
        b: &mut Build,
        mut row: store::shards::ShardRow,
        shard: Shard,
        targets: &mut [TargetProgress],
        mut progress: impl FnMut(&Progress),
    ) -> Result<Progress, BankError> {
        let rating = self.levels.rating;
        let block = row.block;
        // The shard's own run of the rule, with its shares as quotas, replayed over what it
        // stored: it decides when the shard stops.
        let shares: Vec<u64> = row.quotas.iter().map(|&q| shard.share(q)).collect();
        let mut local = Acceptance::new(
            self.assignment.clone(),
            shares.clone(),
            vec![0; shares.len()],
            HashSet::new(),
        );
        // What a puzzle fits follows from its class unless a rule looks at its layout.
        let by_class = targets
            .iter()
            .all(|t| t.layout.symmetry == Symmetry::None && t.layout.techniques.is_none());
        let entry = |key: u128, assigned: usize, fits: u64| {
            super::shard::made(key, assigned, (!by_class).then_some(fits))
        };
        let mut made: HashSet<u128> = HashSet::new();
        let mut after = None;
        loop {
            let chunk = store::shards::candidates(&conn, after, 65_536)?;
            let Some(last) = chunk.last() else { break };
            after = Some(last.row.job);
            for c in &chunk {
                let key = store::puzzles::key_prefix(&c.row.canon_key);
                made.insert(entry(key, local.assigned(c.row.job), c.fits));
                local.offer(c.row.job, key, c.fits);
            }
        }
        // Its targets report the shard's shares and what its own run stored in them.
        let report = |targets: &mut [TargetProgress], local: &Acceptance| {
            for (t, target) in targets.iter_mut().enumerate() {
                target.quota = shares[t];
                target.stored = local.stored(t);
            }
        };
        report(targets, &local);
        let mut prog = Progress::new(b, targets);
        prog.count = shares.iter().sum();
        let local_stored = |local: &Acceptance| (0..shares.len()).map(|t| local.stored(t)).sum();
        prog.stored = local_stored(&local);
        prog.at_start = prog.stored;
        let mut writer = Writer::spawn(conn)?;
        while !local.done() && !self.stop.load(Ordering::Relaxed) {
            // The next block: the first of the shard's that an open target has not run.
            let from = (0..shares.len())
                .filter(|&t| local.open(t))
                .map(|t| row.cursors[t])
                .min()
                .expect("a target is open");
            let start = shard.next_own(from, block);
            let start = start - start % block;
            let end = start + block;
            let open: Vec<bool> = (0..shares.len()).map(|t| local.open(t)).collect();
            let jobs: Vec<u64> = (start..end)
                .filter(|&j| {
                    let a = local.assigned(j);
                    open[a] && j >= row.cursors[a]
                })
                .collect();
            let events = self.run_jobs(
                jobs,
                targets,
                |j, key| by_class && made.contains(&entry(key, local.assigned(j), 0)),
                // A shard keeps whatever some target could take, full here or not.
                |_, p, l| Self::could_take(targets, |_| true, p, l),
            );
            let mut rows = Vec::new();
            for (j, event) in events {
                let assigned = local.assigned(j);
                if let Some(t) = targets.get_mut(assigned) {
                    t.jobs += 1;
                }
                let Some(rated) = event.rated(j, b) else {
                    continue;
                };
                let key = store::puzzles::key_prefix(&rated.graded.key().0);
                let fits = targets::fits(targets, &rated);
                if fits == 0 {
                    b.off_band += 1;
                    continue;
                }
                if !made.insert(entry(key, assigned, fits)) {
                    b.duplicates += 1;
                    continue;
                }
                if let Verdict::Stored(t) = local.offer(j, key, fits) {
                    if let Some(target) = targets.get_mut(t) {
                        target.hits += u64::from(t == assigned);
                    }
                }
                b.stored += 1;
                rows.push(store::shards::Candidate {
                    row: rated.into(),
                    fits,
                });
            }
            for (t, &was_open) in open.iter().enumerate() {
                if was_open {
                    row.cursors[t] = row.cursors[t].max(end);
                }
            }
            b.next_job = b.next_job.max(end);
            report(targets, &local);
            writer = writer.send(Write::Shard(b.clone(), row.clone(), rows))?;
            prog.update(b, targets, &self.busy);
            prog.stored = local_stored(&local);
            progress(&prog);
        }
        let (spent, conn) = writer.finish()?;
        let t = Instant::now();
        store::set_sort_threads(&conn, self.pool.current_num_threads())?;
        store::puzzles::ensure_shard_indexes(&conn, rating)?;
        prog.stage[2] = spent + t.elapsed();
        if local.done() {
            store::builds::finish(&conn, b.id)?;
        }
        Ok(prog)
    }
}

impl Event {
    /// The rated puzzle of job `j`, or `None` with the build's counts moved on by what else
    /// became of it (a job whose puzzle did not have one solution is reported: a bug).
    fn rated(self, j: u64, b: &mut Build) -> Option<Rated> {
        match self {
            Event::NotUnique => {
                let _ = writeln!(
                    std::io::stderr(),
                    "pseudoku: bug: job {j} made a puzzle without one solution; not stored"
                );
                b.rejected += 1;
            }
            Event::Duplicate => b.duplicates += 1,
            Event::Off(_) => b.off_band += 1,
            Event::Rated(r) => return Some(*r),
        }
        None
    }
}

impl Progress {
    fn new(b: &Build, targets: &[TargetProgress]) -> Progress {
        Progress {
            stored: b.stored,
            at_start: b.stored,
            rows: b.stored,
            count: b.count,
            duplicates: b.duplicates,
            rejected: b.rejected,
            off_band: b.off_band,
            targets: targets.to_vec(),
            stage: Default::default(),
        }
    }

    fn update(&mut self, b: &Build, targets: &[TargetProgress], busy: &Busy) {
        self.stage[0] = busy.get(0);
        self.stage[1] = busy.get(1);
        self.stored = b.stored;
        self.rows = b.stored;
        self.duplicates = b.duplicates;
        self.rejected = b.rejected;
        self.off_band = b.off_band;
        self.targets.clone_from_slice(targets);
    }
}
