//! A build's run: batches of jobs generated in parallel, known classes dropped before rating,
//! the fresh puzzles rated in parallel, accepted in job order by the rule of
//! [`super::accept`] until the count or the quotas are met (a shard: kept as candidates, see
//! [`super::shard`]), and handed to the [`super::writer`] while the next batches run (on one
//! machine, a few batches are in flight at once: `IN_FLIGHT`).

use super::accept::{Acceptance, Assignment, Verdict};
use super::job::{self, Generated, JobResult, Measured, Rated, Source};
use super::layout::Layout;
use super::plan::{Mode, Plan};
use super::shard::Shard;
use super::targets::{self, TargetProgress};
use super::writer::{Commit, Writer};
use super::{BankError, BuildOptions};
use crate::generate::Symmetry;
use crate::grid::Puzzle;
use crate::store::{self, Build, NewPuzzle};
use rayon::prelude::*;
use std::collections::{HashSet, VecDeque};
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
    /// Time per stage, summed over the threads that ran it.
    pub stages: StageTimes,
}

impl Progress {
    /// True when the build stopped before storing every puzzle it was asked for.
    pub fn stopped(&self) -> bool {
        self.stored < self.count
    }
}

/// Time a build spent per stage. The stages run at once on different threads: generation and
/// rating are the workers' CPU time, summed over them; inserting is the writer's time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// Generation, with the uniqueness check and the canonical form (the workers' CPU time).
    pub generation: Duration,
    /// Rating (the workers' CPU time).
    pub rating: Duration,
    /// Inserting the rows, with the indexes built at the end (the writer's time).
    pub insert: Duration,
}

/// Runs the planned build `plan` of `opts`; calls `progress` after every batch handed to the
/// writer. Stops early, keeping what was committed, when `stop` is set.
pub(super) fn run(
    plan: Plan,
    opts: &BuildOptions,
    stop: &AtomicBool,
    progress: impl FnMut(&Progress),
) -> Result<Progress, BankError> {
    let Plan {
        pool,
        lock,
        conn,
        levels,
        seeds,
        mut build,
        mut targets,
        sources,
        assignment,
        mode,
    } = plan;
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
        shared: crate::rate::SharedSearches::default(),
    };
    let out = match mode {
        Mode::Shard { shard, row } => {
            run.shard(conn, &mut build, row, shard, &mut targets, progress)
        }
        Mode::Single { acceptance } => {
            run.single(conn, &mut build, acceptance, &mut targets, progress)
        }
    };
    drop(lock);
    out
}

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
    /// The hard searches the workers' ratings share.
    shared: crate::rate::SharedSearches,
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

/// CPU time the workers spent per stage (each job's thread CPU time, so that a worker that
/// waits for a core is not counted), in nanoseconds.
#[derive(Default)]
struct Busy {
    /// Generation, with the uniqueness check and the canonical form.
    generation: AtomicU64,
    /// Rating.
    rating: AtomicU64,
}

impl Busy {
    /// Adds this thread's CPU time since `since` to `stage`.
    fn add(stage: &AtomicU64, since: cpu_time::ThreadTime) {
        let ns = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX);
        stage.fetch_add(ns, Ordering::Relaxed);
    }

    /// The workers' times so far, with `insert` as the writer's.
    fn times(&self, insert: Duration) -> StageTimes {
        let get = |stage: &AtomicU64| Duration::from_nanos(stage.load(Ordering::Relaxed));
        StageTimes {
            generation: get(&self.generation),
            rating: get(&self.rating),
            insert,
        }
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
                if known(g.job, store::puzzles::key_prefix(&g.canon.key())) {
                    events.push((g.job, Event::Duplicate));
                } else {
                    fresh.push(*g);
                }
            }
        }
    }
    (events, fresh)
}

/// How far beyond a target's range the values of a puzzle's first runs (the least below it,
/// the greatest above it) may lie, in `difficulty` (log10 of work: a factor of 3.2 in work),
/// and the puzzle still be rated to the end for it: a rating is the mean of its runs, and the
/// first [`crate::rate::difficulty::EARLY_RUNS`] of them both miss it by that much only for a
/// puzzle whose runs differ by far more than a build's puzzles do (on the main job 3 puzzles
/// of 100,000 were missed with 0.4 and their mean, none with this).
const EARLY_MARGIN: f64 = 0.5;

/// What a build knows of a puzzle when it asks whether an open target could take it.
#[derive(Clone, Copy, Debug)]
enum Known {
    /// Its clues only.
    Clues,
    /// An estimate of its rating after a few runs: the percentiles its rating may lie between.
    Near(f64, f64),
    /// Its rating: its percentile and level.
    Rated(f64, u32),
}

impl Run<'_> {
    /// Job `j`'s puzzle, from its assigned target's source and layout (`targets`: the
    /// targets' rules; none: any seed, no rules), timed as generation.
    fn generate(&self, targets: &[TargetProgress], j: u64) -> JobResult {
        let t = cpu_time::ThreadTime::now();
        let free = Layout::default();
        let (source, layout) = if targets.is_empty() {
            (&self.all_seeds, &free)
        } else {
            let a = self.assignment.target(j);
            (&self.sources[a], &targets[a].layout)
        };
        let r = job::generate(self.seeds, source, self.opts.rng_seed, j, layout);
        Busy::add(&self.busy.generation, t);
        r
    }

    /// The bank's rating of `g` first, then the other one, unless `wanted` refuses it (not
    /// rated further: [`Event::Off`]): by its clues before any rating, then by its percentile
    /// and level; timed as rating. Its hard searches are shared through `shared`.
    fn rate(
        &self,
        g: Generated,
        wanted: impl Fn(&Puzzle, Known) -> bool,
        shared: &crate::rate::SharedSearches,
    ) -> (u64, Event) {
        let t = cpu_time::ThreadTime::now();
        let off = |g: &Generated| {
            (
                g.job,
                Event::Off(store::puzzles::key_prefix(&g.canon.key())),
            )
        };
        if !wanted(&g.puzzle, Known::Clues) {
            Busy::add(&self.busy.rating, t);
            return off(&g);
        }
        // A learned level model's levels are not ranges of the rating: no estimate rules one out.
        let (levels, puzzle) = (self.levels, g.puzzle);
        let far = |low: f64, high: f64| {
            levels.model.is_none()
                && !wanted(
                    &puzzle,
                    Known::Near(
                        levels.percentile(low - EARLY_MARGIN, 0.0),
                        levels.percentile(high + EARLY_MARGIN, 0.0),
                    ),
                )
        };
        let m = match Measured::new(g, levels, far, shared) {
            Ok(m) => m,
            Err(g) => {
                Busy::add(&self.busy.rating, t);
                return off(&g);
            }
        };
        let r = match (m.percentile, m.level) {
            (Some(p), Some(l)) if !wanted(m.puzzle(), Known::Rated(p, l)) => {
                let key = store::puzzles::key_prefix(&m.key());
                (m.job(), Event::Off(key))
            }
            _ => {
                let r = m.rate(self.seeds, self.levels);
                (r.job, Event::Rated(Box::new(r)))
            }
        };
        Busy::add(&self.busy.rating, t);
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
        wanted: impl Fn(&Puzzle, Known) -> bool + Sync,
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
                .map(|g| self.rate(g, &wanted, &self.shared))
                .collect()
        });
        events.extend(rated);
        events.sort_by_key(|e| e.0);
        events
    }

    /// True when a target that `open` says can take it admits `puzzle` by its clues
    /// ([`Layout::admits`]) and, as far as `known` tells, by its rating (a build of a count:
    /// always).
    fn could_take(
        targets: &[TargetProgress],
        open: impl Fn(usize) -> bool,
        puzzle: &Puzzle,
        known: Known,
    ) -> bool {
        targets.is_empty()
            || (targets.iter().enumerate()).any(|(t, target)| {
                open(t)
                    && target.layout.admits(puzzle)
                    && match known {
                        Known::Clues => true,
                        Known::Near(low, high) => target.reaches(low, high),
                        Known::Rated(p, l) => target.holds(p, l),
                    }
            })
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
        conn: store::Bank,
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
                        let within =
                            |p: &Puzzle, known| Self::could_take(fixed, |t| open[t], p, known);
                        let events = fresh
                            .into_par_iter()
                            .filter(|_| !cancel.load(Ordering::Relaxed))
                            .map(|g| self.rate(g, within, &self.shared))
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
                        writer = writer.send(Commit::Rows(b.clone(), rows))?;
                        prog.update(b, targets, self.busy.times(Duration::ZERO));
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
        prog.stages = self.busy.times(spent + t.elapsed());
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
                    let key = store::puzzles::key_prefix(&rated.graded.key());
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
        conn: store::Bank,
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
                |p: &Puzzle, known| Self::could_take(targets, |_| true, p, known),
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
                let key = store::puzzles::key_prefix(&rated.graded.key());
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
            writer = writer.send(Commit::Shard(b.clone(), row.clone(), rows))?;
            prog.update(b, targets, self.busy.times(Duration::ZERO));
            prog.stored = local_stored(&local);
            progress(&prog);
        }
        let (spent, conn) = writer.finish()?;
        let t = Instant::now();
        store::set_sort_threads(&conn, self.pool.current_num_threads())?;
        store::puzzles::ensure_shard_indexes(&conn, rating)?;
        prog.stages = self.busy.times(spent + t.elapsed());
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
            stages: StageTimes::default(),
        }
    }

    fn update(&mut self, b: &Build, targets: &[TargetProgress], stages: StageTimes) {
        self.stages = stages;
        self.stored = b.stored;
        self.rows = b.stored;
        self.duplicates = b.duplicates;
        self.rejected = b.rejected;
        self.off_band = b.off_band;
        self.targets.clone_from_slice(targets);
    }
}
