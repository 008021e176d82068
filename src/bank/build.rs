//! The build loop: batches of jobs generated in parallel, duplicates dropped in job order, the
//! fresh puzzles rated in parallel, accepted in job order until the count or the band quotas
//! are met, and committed by a writer thread that owns the connection while the next batch is
//! generated. Rows of older versions are brought up to date first
//! ([`crate::levels::calibrate::backfill`]).

use super::job::{self, Generated, JobResult, Rated, Source};
use super::layout::Layout;
use super::targets::{self, TargetProgress};
use super::{BankError, BuildOptions};
use crate::levels::calibrate;
use crate::seeds::Library;
use crate::store::{self, Build, NewPuzzle};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What became of one job of a batch.
enum Event {
    /// The puzzle did not have one solution (a bug; never stored).
    NotUnique,
    /// Its class is already in the bank or earlier in the batch.
    Duplicate,
    /// Rated, to be kept or dropped.
    Rated(Box<Rated>),
}

/// Progress of a running build.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Puzzles stored by this build so far (earlier runs of it included).
    pub stored: u64,
    /// Of those, the ones stored before this run (a resumed build's earlier runs).
    pub at_start: u64,
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
    /// Time per stage: generation, uniqueness and canonical form together; rating; insert.
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
/// With targets, each batch's jobs go round the bands that still need puzzles, each band
/// drawing from its [`targets::band_source`]; a rated puzzle is kept when its percentile falls
/// in any band that still needs puzzles, and dropped otherwise (counted as off band).
pub fn build(
    opts: &BuildOptions,
    lib: &Library,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Progress),
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
    let free = Layout::default();
    let mut b: Build = store::builds::start(
        &conn,
        &arguments(opts, count, &lib, imported, &with_layouts),
        opts.rng_seed,
        count,
        crate::rate::RATER,
    )?;
    let _ = lock.describe(&format!("build {}", b.id));
    let mut keys: HashSet<u128> = store::puzzles::keys(&conn)?;
    // A build that at least doubles the bank appends without the indexes that random keys and
    // ratings would scatter its inserts over; they are built again, packed, when it stops.
    if b.count - b.stored.min(b.count) >= keys.len() as u64 {
        store::puzzles::defer_indexes(&conn)?;
    } else {
        store::puzzles::ensure_indexes(&conn, levels.rating)?;
    }
    let (mut targets, sources) = targets::plan(&conn, &pool, &levels, &seeds, &with_layouts, b.id)?;
    let all_seeds = Source::Seeds((0..seeds.len()).collect());
    let mut prog = Progress {
        stored: b.stored,
        at_start: b.stored,
        count: b.count,
        duplicates: b.duplicates,
        rejected: b.rejected,
        off_band: b.off_band,
        targets: targets.clone(),
        stage: Default::default(),
    };
    // The writer: owns the connection, commits batches in order; batches that queued while it
    // committed go into one transaction (up to WRITE_ROWS rows), with the latest progress.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(Build, Vec<NewPuzzle>)>(QUEUED_BATCHES);
    store::set_cache_mib(&conn, WRITER_CACHE_MIB)?;
    let writer = std::thread::spawn(
        move || -> Result<(Duration, rusqlite::Connection), BankError> {
            let mut spent = Duration::ZERO;
            while let Ok((mut build, mut rows)) = rx.recv() {
                while rows.len() < WRITE_ROWS {
                    match rx.try_recv() {
                        Ok((later, more)) => {
                            build = later;
                            rows.extend(more);
                        }
                        Err(_) => break,
                    }
                }
                let t = Instant::now();
                store::puzzles::insert_batch(&mut conn, &build, &rows)?;
                spent += t.elapsed();
            }
            Ok((spent, conn))
        },
    );
    while b.stored < b.count && !stop.load(Ordering::Relaxed) {
        let (start, end) = (b.next_job, b.next_job + opts.batch);
        // The bands still needing puzzles at the start of the batch; job j serves the
        // (j - start) mod n-th of them.
        let active: Vec<usize> = (0..targets.len())
            .filter(|&i| targets[i].stored < targets[i].quota)
            .collect();
        let source_of = |j: u64| -> (Option<usize>, &Source) {
            if active.is_empty() {
                (None, &all_seeds)
            } else {
                let t = active[((j - start) % active.len() as u64) as usize];
                (Some(t), &sources[t])
            }
        };
        let t = Instant::now();
        let results: Vec<JobResult> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|j| {
                    let (t, source) = source_of(j);
                    let layout = t.map_or(&free, |t| &targets[t].layout);
                    job::generate(&seeds, source, opts.rng_seed, j, layout)
                })
                .collect()
        });
        // Duplicates of the bank or of an earlier job of the batch are dropped unrated.
        let mut fresh: Vec<Generated> = Vec::new();
        let mut batch_keys: HashSet<u128> = HashSet::new();
        let mut events: Vec<(u64, Event)> = Vec::new();
        for r in results {
            match r {
                JobResult::NotUnique(j) => events.push((j, Event::NotUnique)),
                JobResult::Puzzle(g) => {
                    let key = store::puzzles::key_prefix(&g.canon.key().0);
                    if keys.contains(&key) || !batch_keys.insert(key) {
                        events.push((g.job, Event::Duplicate));
                    } else {
                        fresh.push(*g);
                    }
                }
            }
        }
        prog.stage[0] += t.elapsed();
        let t = Instant::now();
        let rated: Vec<Rated> = pool.install(|| {
            fresh
                .into_par_iter()
                .map(|g| Rated::new(g, &seeds, &levels))
                .collect()
        });
        prog.stage[1] += t.elapsed();
        // Accept in job order until the quotas (or the count) are met.
        events.extend(
            rated
                .into_iter()
                .map(|r| (r.job, Event::Rated(Box::new(r)))),
        );
        events.sort_by_key(|e| e.0);
        let mut rows: Vec<NewPuzzle> = Vec::new();
        let mut next_job = end;
        for (j, event) in events {
            if b.stored >= b.count {
                next_job = j;
                break;
            }
            let rated = match event {
                Event::NotUnique => {
                    let _ = writeln!(
                        std::io::stderr(),
                        "pseudoku: bug: job {j} made a puzzle without one solution; not stored"
                    );
                    b.rejected += 1;
                    continue;
                }
                Event::Duplicate => {
                    b.duplicates += 1;
                    continue;
                }
                Event::Rated(r) => *r,
            };
            if targeted {
                let (aim, _) = source_of(j);
                if let Some(a) = aim {
                    targets[a].jobs += 1;
                }
                let hit = (0..targets.len()).find(|&i| {
                    targets[i].stored < targets[i].quota
                        && targets[i].within.contains(rated.percentile, rated.level)
                        && targets[i]
                            .layout
                            .keeps(&rated.graded.puzzle, rated.graded.report.technique)
                });
                let Some(i) = hit else {
                    b.off_band += 1;
                    continue;
                };
                if aim == Some(i) {
                    targets[i].hits += 1;
                }
                targets[i].stored += 1;
            }
            keys.insert(store::puzzles::key_prefix(&rated.graded.key().0));
            b.stored += 1;
            rows.push(rated.into());
        }
        b.next_job = next_job;
        if tx.send((b.clone(), rows)).is_err() {
            // The writer stopped on an error: report it.
            drop(tx);
            return Err(match writer.join() {
                Ok(Err(e)) => e,
                Ok(Ok(_)) | Err(_) => BankError::Writer,
            });
        }
        prog.stored = b.stored;
        prog.duplicates = b.duplicates;
        prog.rejected = b.rejected;
        prog.off_band = b.off_band;
        prog.targets.clone_from(&targets);
        progress(&prog);
    }
    drop(tx);
    let (spent, conn) = writer.join().map_err(|_| BankError::Writer)??;
    let t = Instant::now();
    store::puzzles::ensure_indexes(&conn, levels.rating)?;
    prog.stage[2] = spent + t.elapsed();
    if b.stored >= b.count {
        store::builds::finish(&conn, b.id)?;
    }
    Ok(prog)
}
