//! The bank builder: the hsolve paper's pseudo-generator (section 4.2) over the seed library,
//! feeding the SQLite bank, and `verify`.
//!
//! # Pipeline
//!
//! Jobs are numbered; job j draws from `Rng::for_job(seed, j)`: a seed of the library, a random
//! symmetry, and the order in which unreserved cells are revealed. Jobs run in batches:
//!
//! 1. in parallel: pseudo-generation (clue selection with the tier-k solver), the uniqueness
//!    check, the canonical form;
//! 2. in job order: duplicates (by class key, against the bank and the batch) are dropped, and
//!    the batch is cut where the requested count is reached;
//! 3. in parallel: the rating (on the canonical form) and the secondary metrics;
//! 4. the writer thread, which owns the connection, commits the batch and the build's
//!    progress in one transaction while the next batch is generated.
//!
//! Accepting in job order makes the bank the same whatever the thread count. An interrupted
//! build keeps its committed batches; the next build with the same seed and count resumes at
//! the first uncommitted job.

use crate::canon;
use crate::cellset::CellSet;
use crate::difficulty;
use crate::grid::{Cell, Puzzle};
use crate::hsolve;
use crate::rate::Report;
use crate::rng::Rng;
use crate::seeds::{Library, Seed};
use crate::store::{self, Build, Row};
use crate::transform::Transform;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The rater's description stored with each build (rating provenance).
pub const RATER: &str = concat!(
    "pseudoku ",
    env!("CARGO_PKG_VERSION"),
    " difficulty (10 runs) and hsolve tiers 0-6 (20 runs) on the canonical form, seed = class key"
);

/// A seed ready for the pseudo-generator.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Its row id in the bank's `seeds` table.
    pub id: i64,
    /// The seed.
    pub seed: Seed,
    /// The tier the clue selection solves with: one below the seed's hardest.
    pub k: u8,
    /// Its reserved cells: empty after tier-k solving.
    pub reserved: CellSet,
}

impl Prepared {
    /// Computes the reserved cells of `seed` (id `id`).
    pub fn new(id: i64, seed: Seed) -> Prepared {
        let k = seed.tier.saturating_sub(1);
        let reserved = hsolve::solve_to_tier(&seed.puzzle, k)
            .expect("a seed has a solution")
            .reserved;
        Prepared {
            id,
            seed,
            k,
            reserved,
        }
    }
}

/// A generated puzzle, before rating.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The job that made it.
    pub job: u64,
    /// Index of its seed in the prepared list.
    pub seed: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The symmetry applied to the seed.
    pub transform: Transform,
    /// Its canonical form.
    pub canon: canon::Canonical,
}

/// What a job produced.
#[derive(Clone, Debug)]
pub enum JobResult {
    /// A puzzle with one solution.
    Puzzle(Box<Generated>),
    /// The pseudo-generator made a puzzle without exactly one solution (a bug: counted,
    /// reported, never stored).
    NotUnique(u64),
}

/// The pseudo-generator for one job: a random symmetry of the seed's solution and reserved
/// cells, then random unreserved cells revealed, each followed by tier-k solving, until every
/// unreserved cell is filled. Reserved cells never get a clue.
pub fn pseudo_generate(seeds: &[Prepared], rng_seed: u64, job: u64) -> JobResult {
    let mut rng = Rng::for_job(rng_seed, job);
    let si = rng.index(seeds.len());
    let s = &seeds[si];
    let t = Transform::random(&mut rng);
    let solution = t.apply_grid(&s.seed.solution);
    let reserved: CellSet = Cell::all()
        .filter(|&c| s.reserved.contains(t.source_of(c)))
        .collect();
    let mut order: Vec<Cell> = (CellSet::ALL - reserved).iter().collect();
    rng.shuffle(&mut order);
    let mut st = crate::candidates::Candidates::new(&Puzzle::EMPTY);
    let mut clues = [0u8; 81];
    for c in order {
        if st.value(c).is_some() {
            continue; // already deduced
        }
        let d = solution.get(c);
        clues[c.index()] = d.get();
        if st.place(c, d).is_none() {
            return JobResult::NotUnique(job);
        }
        hsolve::fixpoint(&mut st, s.k);
    }
    let puzzle = Puzzle::from_bytes_unchecked(clues);
    if !crate::solve::is_unique(&puzzle) {
        return JobResult::NotUnique(job);
    }
    let canon = canon::canonical(&puzzle);
    JobResult::Puzzle(Box::new(Generated {
        job,
        seed: si,
        puzzle,
        transform: t,
        canon,
    }))
}

/// Rates a generated puzzle into a bank row.
pub fn rate(g: &Generated, seeds: &[Prepared]) -> Row {
    let (p, seed) = (g.canon.puzzle(), g.canon.key().seed());
    let rating =
        hsolve::rate_seeded(&p, hsolve::DEFAULT_RUNS, seed).expect("a generated puzzle is unique");
    let d = difficulty::rate_seeded(&p, difficulty::DEFAULT_RUNS, seed)
        .expect("a generated puzzle is unique");
    let r = Report::new(&g.puzzle, &d, &rating);
    Row {
        puzzle: g.puzzle.to_line(),
        solution: g
            .transform
            .apply_grid(&seeds[g.seed].seed.solution)
            .to_line(),
        canon: g.canon.to_line(),
        canon_key: g.canon.key().to_hex(),
        clues: g.puzzle.clues() as u32,
        difficulty: r.difficulty,
        rating: r.hsolve,
        rating_sd: r.hsolve_sd,
        tier: r.tier,
        wnef: r.wnef,
        wnef_class: r.wnef_class,
        box_norm: r.box_norm,
        box_class: r.box_class,
        grade: r.grade.to_string(),
        seed_id: seeds[g.seed].id,
        transform: g.transform.to_string(),
        job: g.job,
    }
}

/// Prepares the library's seeds (in parallel on the current rayon pool).
pub fn prepare(lib: &Library) -> Vec<Prepared> {
    lib.seeds
        .par_iter()
        .map(|s| Prepared::new(0, s.clone()))
        .collect()
}

/// Stores prepared seeds in the bank (once each) and sets their row ids.
pub fn store_seeds(
    conn: &rusqlite::Connection,
    prepared: Vec<Prepared>,
) -> rusqlite::Result<Vec<Prepared>> {
    let tx = conn.unchecked_transaction()?;
    let mut out = Vec::with_capacity(prepared.len());
    for mut p in prepared {
        let key = p.seed.key().to_hex();
        let reserved: String = Cell::all()
            .map(|c| if p.reserved.contains(c) { '1' } else { '0' })
            .collect();
        tx.execute(
            "INSERT OR IGNORE INTO seeds (puzzle, solution, canon_key, tier, rating, reserved, provenance)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            rusqlite::params![
                p.seed.puzzle.to_line(),
                p.seed.solution.to_line(),
                key,
                p.seed.tier,
                p.seed.hsolve,
                reserved,
                p.seed.provenance
            ],
        )?;
        p.id = tx.query_row("SELECT id FROM seeds WHERE canon_key = ?1", [&key], |r| {
            r.get(0)
        })?;
        out.push(p);
    }
    tx.commit()?;
    Ok(out)
}

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The bank.
    pub db: std::path::PathBuf,
    /// New distinct puzzles to store.
    pub count: u64,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// RNG seed.
    pub seed: u64,
    /// The seed library file, or `None` for the shipped one.
    pub seeds: Option<std::path::PathBuf>,
    /// Jobs per batch.
    pub batch: u64,
}

/// Progress of a running build.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Puzzles stored by this build so far.
    pub stored: u64,
    /// Puzzles requested.
    pub count: u64,
    /// Duplicates skipped.
    pub duplicates: u64,
    /// Generated puzzles without one solution (bugs).
    pub rejected: u64,
    /// Time per stage: generation, uniqueness and canonical form together; rating; insert.
    pub stage: [Duration; 3],
}

/// Builds (or resumes building) the bank; calls `progress` after every committed batch. Stops
/// early, keeping what was committed, when `stop` is set.
pub fn build(
    opts: &BuildOptions,
    lib: &Library,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Progress),
) -> anyhow::Result<Progress> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()?;
    let mut conn = store::open(&opts.db)?;
    pool.install(|| backfill_difficulty(&mut conn))?;
    let seeds = store_seeds(&conn, pool.install(|| prepare(lib)))?;
    anyhow::ensure!(!seeds.is_empty(), "the seed library is empty");
    let args = format!(
        "count={} seed={} seeds={}",
        opts.count,
        opts.seed,
        opts.seeds
            .as_ref()
            .map_or("shipped".to_string(), |p| p.display().to_string())
    );
    let mut b: Build = store::start_build(&conn, &args, opts.seed, opts.count, RATER)?;
    let mut keys: HashSet<String> = store::keys(&conn)?;
    let mut prog = Progress {
        stored: b.stored,
        count: b.count,
        duplicates: b.duplicates,
        rejected: b.rejected,
        stage: Default::default(),
    };
    // The writer: owns the connection, commits batches in order.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(Build, Vec<Row>)>(1);
    let writer = std::thread::spawn(
        move || -> anyhow::Result<(Duration, rusqlite::Connection)> {
            let mut spent = Duration::ZERO;
            for (build, rows) in rx {
                let t = Instant::now();
                store::commit_batch(&mut conn, &build, &rows)?;
                spent += t.elapsed();
            }
            Ok((spent, conn))
        },
    );
    while b.stored < b.count && !stop.load(Ordering::Relaxed) {
        let (start, end) = (b.next_job, b.next_job + opts.batch);
        let t = Instant::now();
        let results: Vec<JobResult> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|j| pseudo_generate(&seeds, opts.seed, j))
                .collect()
        });
        prog.stage[0] += t.elapsed();
        let mut accepted: Vec<Generated> = Vec::new();
        let mut next_job = end;
        for r in results {
            if b.stored + accepted.len() as u64 >= b.count {
                next_job = match &r {
                    JobResult::Puzzle(g) => g.job,
                    JobResult::NotUnique(j) => *j,
                };
                break;
            }
            match r {
                JobResult::NotUnique(j) => {
                    eprintln!(
                        "pseudoku: bug: job {j} made a puzzle without one solution; not stored"
                    );
                    b.rejected += 1;
                }
                JobResult::Puzzle(g) => {
                    if keys.insert(g.canon.key().to_hex()) {
                        accepted.push(*g);
                    } else {
                        b.duplicates += 1;
                    }
                }
            }
        }
        let t = Instant::now();
        let rows: Vec<Row> =
            pool.install(|| accepted.par_iter().map(|g| rate(g, &seeds)).collect());
        prog.stage[1] += t.elapsed();
        b.stored += rows.len() as u64;
        b.next_job = next_job;
        tx.send((b.clone(), rows))
            .map_err(|_| anyhow::anyhow!("the database writer stopped"))?;
        prog.stored = b.stored;
        prog.duplicates = b.duplicates;
        prog.rejected = b.rejected;
        progress(&prog);
    }
    drop(tx);
    let (spent, conn) = writer
        .join()
        .map_err(|_| anyhow::anyhow!("the database writer panicked"))??;
    prog.stage[2] = spent;
    if b.stored >= b.count {
        store::finish_build(&conn, b.id)?;
    }
    Ok(prog)
}

/// Rates the rows stored before the bank had a `difficulty` column (migration 0003 leaves
/// them NULL), 1,000 per transaction, on the current rayon pool. Returns how many.
pub fn backfill_difficulty(conn: &mut rusqlite::Connection) -> anyhow::Result<u64> {
    let todo: Vec<(i64, String)> = conn
        .prepare("SELECT id, puzzle FROM puzzles WHERE difficulty IS NULL ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for chunk in todo.chunks(1000) {
        let rated: Vec<(i64, f64)> = chunk
            .par_iter()
            .map(|(id, puzzle)| -> anyhow::Result<(i64, f64)> {
                let p = Puzzle::parse_line(puzzle)
                    .map_err(|e| anyhow::anyhow!("puzzle {id} does not parse: {e}"))?;
                let r = crate::rate::report(&p, None)
                    .map_err(|e| anyhow::anyhow!("puzzle {id} cannot be rated: {e}"))?;
                Ok((*id, r.difficulty))
            })
            .collect::<anyhow::Result<_>>()?;
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached("UPDATE puzzles SET difficulty = ?2 WHERE id = ?1")?;
            for (id, d) in &rated {
                stmt.execute(rusqlite::params![id, d])?;
            }
        }
        tx.commit()?;
    }
    Ok(todo.len() as u64)
}

/// A row that `verify` found wrong.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The row id.
    pub id: i64,
    /// What is wrong.
    pub what: String,
}

/// Re-checks up to `sample` rows (spread over the table; all when `sample` is 0): unique
/// solution, the stored solution, canonical form and key recomputed, rating recomputed.
pub fn verify(db: &Path, sample: u64) -> anyhow::Result<(u64, Vec<Mismatch>)> {
    let conn = store::open(db)?;
    let total: i64 = conn.query_row("SELECT COUNT(*) FROM puzzles", [], |r| r.get(0))?;
    let step = if sample == 0 || sample as i64 >= total {
        1
    } else {
        (total as u64).div_ceil(sample)
    };
    let mut stmt = conn.prepare(
        "SELECT id, puzzle, solution, canon, canon_key, rating, rating_sd, tier, grade, difficulty
         FROM puzzles WHERE (id - 1) % ?1 = 0 ORDER BY id",
    )?;
    type Stored = (
        i64,
        String,
        String,
        String,
        String,
        f64,
        f64,
        u8,
        String,
        Option<f64>,
    );
    let rows: Vec<Stored> = stmt
        .query_map([step as i64], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let checked = rows.len() as u64;
    let mismatches: Vec<Mismatch> = rows
        .par_iter()
        .flat_map_iter(|(id, puzzle, solution, canon, key, rating, sd, tier, grade, stored_d)| {
            let mut out = Vec::new();
            let mut bad = |what: String| out.push(Mismatch { id: *id, what });
            let p = match Puzzle::parse_line(puzzle) {
                Ok(p) => p,
                Err(e) => {
                    bad(format!("puzzle does not parse: {e}"));
                    return out;
                }
            };
            match crate::solve::solve(&p).unique() {
                None => bad("not exactly one solution".into()),
                Some(g) if g.to_line() != *solution => bad("stored solution is not the solution".into()),
                _ => {}
            }
            let c = canon::canonical(&p);
            if c.to_line() != *canon {
                bad(format!("canonical form {} != stored {canon}", c.to_line()));
            }
            if c.key().to_hex() != *key {
                bad("key does not match the canonical form".into());
            }
            match crate::rate::report(&p, None) {
                Ok(report) => {
                    if report.hsolve != *rating || report.hsolve_sd != *sd || report.tier != *tier || report.grade != grade {
                        bad(format!(
                            "rating {} sd {} tier {} grade {} != stored {rating} {sd} {tier} {grade}",
                            report.hsolve, report.hsolve_sd, report.tier, report.grade
                        ));
                    }
                    if *stored_d != Some(report.difficulty) {
                        bad(format!(
                            "difficulty {} != stored {}",
                            report.difficulty,
                            stored_d.map_or("NULL".to_string(), |d| d.to_string())
                        ));
                    }
                }
                Err(e) => bad(format!("cannot rate: {e}")),
            }
            out
        })
        .collect();
    Ok((checked, mismatches))
}
