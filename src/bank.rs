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
use crate::grid::{Cell, Grid, Puzzle};
use crate::hsolve;
use crate::levels::{Band, LevelSet, PercentileRange, RatingKind, Reference};
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
    /// Index of its seed in the prepared list, or `None` for the standard generator.
    pub seed: Option<usize>,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// The symmetry applied to the seed (the identity for the standard generator).
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

/// Where a job's puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The pseudo-generator on one of these seeds (indexes into the prepared list), drawn at
    /// random.
    Seeds(Vec<usize>),
    /// The paper's standard generator (for bands too easy for every seed).
    Standard,
    /// Random minimal puzzles (for bands too easy for every seed, where they land more often
    /// than the standard generator's).
    Minimal,
}

/// Runs job `job` from `source`.
pub fn generate_job(seeds: &[Prepared], source: &Source, rng_seed: u64, job: u64) -> JobResult {
    match source {
        Source::Seeds(among) => pseudo_generate(seeds, among, rng_seed, job),
        Source::Standard | Source::Minimal => {
            let mut rng = Rng::for_job(rng_seed, job);
            let puzzle = if *source == Source::Standard {
                crate::generate::standard(&mut rng)
            } else {
                crate::generate::random_minimal(&mut rng, crate::generate::Symmetry::None)
            };
            let Some(solution) = crate::solve::solve(&puzzle).unique() else {
                return JobResult::NotUnique(job);
            };
            JobResult::Puzzle(Box::new(Generated {
                job,
                seed: None,
                canon: canon::canonical(&puzzle),
                puzzle,
                solution,
                transform: Transform::identity(),
            }))
        }
    }
}

/// The pseudo-generator for one job: a seed drawn from `among`, a random symmetry of its
/// solution and reserved cells, then random unreserved cells revealed, each followed by tier-k
/// solving, until every unreserved cell is filled. Reserved cells never get a clue.
pub fn pseudo_generate(seeds: &[Prepared], among: &[usize], rng_seed: u64, job: u64) -> JobResult {
    let mut rng = Rng::for_job(rng_seed, job);
    let si = among[rng.index(among.len())];
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
        seed: Some(si),
        puzzle,
        solution,
        transform: t,
        canon,
    }))
}

/// Rates a generated puzzle into a bank row, with its percentile against `levels`.
pub fn rate(g: &Generated, seeds: &[Prepared], levels: &Levels) -> Row {
    let (p, seed) = (g.canon.puzzle(), g.canon.key().seed());
    let rating =
        hsolve::rate_seeded(&p, hsolve::DEFAULT_RUNS, seed).expect("a generated puzzle is unique");
    let d = difficulty::rate_seeded(&p, difficulty::DEFAULT_RUNS, seed)
        .expect("a generated puzzle is unique");
    let r = Report::new(&g.puzzle, &d, &rating);
    Row {
        puzzle: g.puzzle.to_line(),
        solution: g.solution.to_line(),
        percentile: levels.percentile(&r),
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
        seed_id: g.seed.map(|i| seeds[i].id),
        transform: if g.seed.is_some() {
            g.transform.to_string()
        } else {
            String::new()
        },
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
    /// New distinct puzzles to store (without targets).
    pub count: u64,
    /// Band quotas: build until each band holds this many new puzzles (then `count` is their
    /// sum). Empty: any difficulty.
    pub targets: Vec<(Band, u64)>,
    /// The rating a new bank's percentiles use (an existing bank keeps its own).
    pub rating: Option<RatingKind>,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// RNG seed.
    pub seed: u64,
    /// The seed library file, or `None` for the shipped one.
    pub seeds: Option<std::path::PathBuf>,
    /// Jobs per batch.
    pub batch: u64,
}

/// What became of one job of a batch.
enum Event {
    /// The puzzle did not have one solution (a bug; never stored).
    NotUnique,
    /// Its class is already in the bank or earlier in the batch.
    Duplicate,
    /// Rated, to be kept or dropped.
    Rated(Box<Row>),
}

/// One band quota of a targeted build, and how it fares.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetProgress {
    /// The band.
    pub band: Band,
    /// Its percentile interval.
    pub range: PercentileRange,
    /// New puzzles it needs.
    pub quota: u64,
    /// Puzzles stored in it by this build.
    pub stored: u64,
    /// Where its jobs draw from: `standard`, or the number of seeds near its midpoint.
    pub source: String,
    /// Jobs run for it (this run of the command).
    pub jobs: u64,
    /// Of those, the puzzles that landed in it.
    pub hits: u64,
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
    /// Puzzles rated outside every band that still needed puzzles (targeted builds).
    pub off_band: u64,
    /// Per band quota (targeted builds).
    pub targets: Vec<TargetProgress>,
    /// Time per stage: generation, uniqueness and canonical form together; rating; insert.
    pub stage: [Duration; 3],
}

/// What a bank measures percentiles with: its rating, reference and level names.
#[derive(Clone, Debug)]
pub struct Levels {
    /// The rating percentiles use.
    pub rating: RatingKind,
    /// The reference distribution of that rating.
    pub reference: Reference,
    /// The level names.
    pub names: LevelSet,
}

impl Levels {
    /// The percentile of a rated puzzle (from its rounded, stored value).
    pub fn percentile(&self, r: &Report) -> f64 {
        self.reference
            .percentile(self.rating.value(r.difficulty, r.hsolve))
    }
}

/// Rates reference puzzles (in parallel on the current pool) into reference rows; lines that
/// cannot be rated (no single solution) come back as errors with their index.
pub fn rate_reference(
    puzzles: &[(Puzzle, String)],
) -> Vec<Result<store::ReferenceRow, (usize, crate::hsolve::RateError)>> {
    puzzles
        .par_iter()
        .enumerate()
        .map(|(i, (p, source))| {
            let r = crate::rate::report(p, None).map_err(|e| (i, e))?;
            Ok(store::ReferenceRow {
                puzzle: p.to_line(),
                difficulty: r.difficulty,
                hsolve: r.hsolve,
                source: source.clone(),
            })
        })
        .collect()
}

/// The bank's levels, creating its default reference (and settings) on first use: a new bank
/// takes `rating` (default difficulty). Runs on the current rayon pool.
pub fn ensure_levels(
    conn: &mut rusqlite::Connection,
    rating: Option<RatingKind>,
) -> anyhow::Result<Levels> {
    if store::setting(conn, "reference")?.is_none() {
        let (rows, description) = default_reference_rows()?;
        let tx = conn.transaction()?;
        store::replace_reference(&tx, &rows)?;
        store::set_setting(&tx, "reference", &description)?;
        if store::setting(&tx, "rating")?.is_none() {
            store::set_setting(&tx, "rating", rating.unwrap_or_default().name())?;
        }
        if store::setting(&tx, "levels")?.is_none() {
            store::set_setting(&tx, "levels", &LevelSet::default().to_string())?;
        }
        tx.commit()?;
    }
    let (kind, names) = store::level_settings(conn)?;
    if let Some(want) = rating {
        anyhow::ensure!(
            want == kind,
            "this bank's percentiles use {}; change that with `pseudoku calibrate --rating {}`",
            kind.name(),
            want.name()
        );
    }
    let reference = store::reference(conn, kind)?
        .ok_or_else(|| anyhow::anyhow!("the bank has no reference distribution"))?;
    Ok(Levels {
        rating: kind,
        reference,
        names,
    })
}

/// What `calibrate` changes.
#[derive(Clone, Debug, Default)]
pub struct Calibration {
    /// A new reference: rated rows (see [`rate_reference`]) and their description.
    pub reference: Option<(Vec<store::ReferenceRow>, String)>,
    /// The rating percentiles use.
    pub rating: Option<RatingKind>,
    /// The level names.
    pub levels: Option<LevelSet>,
}

/// Applies a calibration to the bank and recomputes every stored percentile, all in one
/// transaction. Returns the bank's levels afterwards and the number of percentiles
/// recomputed.
pub fn calibrate(
    conn: &mut rusqlite::Connection,
    change: &Calibration,
) -> anyhow::Result<(Levels, u64)> {
    ensure_levels(conn, None)?;
    let tx = conn.transaction()?;
    if let Some((rows, description)) = &change.reference {
        anyhow::ensure!(!rows.is_empty(), "the new reference has no puzzle");
        store::replace_reference(&tx, rows)?;
        store::set_setting(&tx, "reference", description)?;
    }
    if let Some(r) = change.rating {
        store::set_setting(&tx, "rating", r.name())?;
    }
    if let Some(l) = &change.levels {
        store::set_setting(&tx, "levels", &l.to_string())?;
    }
    let (rating, names) = store::level_settings(&tx)?;
    let reference = store::reference(&tx, rating)?
        .ok_or_else(|| anyhow::anyhow!("the bank has no reference distribution"))?;
    let n = store::recompute_percentiles(&tx, rating, &reference)?;
    tx.commit()?;
    Ok((
        Levels {
            rating,
            reference,
            names,
        },
        n,
    ))
}

/// The default reference, rated (on the current rayon pool), with its description.
pub fn default_reference_rows() -> anyhow::Result<(Vec<store::ReferenceRow>, String)> {
    let puzzles: Vec<(Puzzle, String)> = crate::levels::default_reference()
        .into_iter()
        .map(|(p, s)| (p, s.to_string()))
        .collect();
    let rows = rate_reference(&puzzles)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|(i, e)| anyhow::anyhow!("default reference puzzle {i}: {e}"))?;
    Ok((rows, crate::levels::DEFAULT_REFERENCE.to_string()))
}

/// The fewest seeds a band's jobs draw from.
pub const MIN_SEEDS_PER_BAND: usize = 8;

/// Where the jobs of a band come from (the paper's section 4.3.4): the seeds whose own
/// percentile lies in the band, or if fewer than [`MIN_SEEDS_PER_BAND`] do, that many seeds
/// nearest its midpoint. When every seed lies above the band (a seed's puzzles need its
/// hardest tier, so they are about as hard as the seed), the standard generator or random
/// minimal puzzles, whichever the reference shows landing in the band more often:
/// `generator_shares` are the shares of the reference's standard-generator and minimal
/// puzzles inside the band.
pub fn band_source(
    seed_percentiles: &[f64],
    range: PercentileRange,
    generator_shares: (f64, f64),
) -> Source {
    if seed_percentiles.iter().all(|&p| p >= range.high) {
        return if generator_shares.1 > generator_shares.0 {
            Source::Minimal
        } else {
            Source::Standard
        };
    }
    let inside: Vec<usize> = (0..seed_percentiles.len())
        .filter(|&i| range.contains(seed_percentiles[i]))
        .collect();
    if inside.len() >= MIN_SEEDS_PER_BAND {
        return Source::Seeds(inside);
    }
    let mid = (range.low + range.high) / 2.0;
    let mut by_distance: Vec<usize> = (0..seed_percentiles.len()).collect();
    by_distance.sort_by(|&a, &b| {
        (seed_percentiles[a] - mid)
            .abs()
            .total_cmp(&(seed_percentiles[b] - mid).abs())
            .then(a.cmp(&b))
    });
    by_distance.truncate(MIN_SEEDS_PER_BAND);
    by_distance.sort_unstable();
    Source::Seeds(by_distance)
}

/// Builds (or resumes building) the bank; calls `progress` after every batch handed to the
/// writer thread (which commits it while the next one is generated). Stops early, keeping
/// what was committed, when `stop` is set.
///
/// With targets, each batch's jobs go round the bands that still need puzzles, each band
/// drawing from its [`band_source`]; a rated puzzle is kept when its percentile falls in any
/// band that still needs puzzles, and dropped otherwise (counted as off band).
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
    let levels = pool.install(|| ensure_levels(&mut conn, opts.rating))?;
    pool.install(|| backfill(&mut conn, &levels))?;
    let seeds = store_seeds(&conn, pool.install(|| prepare(lib)))?;
    anyhow::ensure!(!seeds.is_empty(), "the seed library is empty");
    let targeted = !opts.targets.is_empty();
    let count = if targeted {
        opts.targets.iter().map(|t| t.1).sum()
    } else {
        opts.count
    };
    let mut args = format!(
        "count={} seed={} seeds={}",
        count,
        opts.seed,
        opts.seeds
            .as_ref()
            .map_or("shipped".to_string(), |p| p.display().to_string())
    );
    for (band, quota) in &opts.targets {
        args.push_str(&format!(" band={band}:{quota}"));
    }
    let mut b: Build = store::start_build(&conn, &args, opts.seed, count, RATER)?;
    let mut keys: HashSet<String> = store::keys(&conn)?;
    let mut targets: Vec<TargetProgress> = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    if targeted {
        // Each seed's own percentile: its library line has its hsolve rating (rounded as the
        // bank stores ratings); only difficulty needs rating here.
        let seed_pct: Vec<f64> = pool.install(|| {
            seeds
                .par_iter()
                .map(|s| {
                    let difficulty = match levels.rating {
                        RatingKind::Difficulty => crate::rate::round(
                            difficulty::rate(&s.seed.puzzle, difficulty::DEFAULT_RUNS)
                                .expect("seeds are unique")
                                .value,
                            3,
                        ),
                        RatingKind::Hsolve => 0.0, // not used
                    };
                    levels
                        .reference
                        .percentile(levels.rating.value(difficulty, s.seed.hsolve))
                })
                .collect()
        });
        let stored = store::build_percentiles(&conn, b.id)?;
        let sources_pct = store::reference_by_source(&conn, levels.rating)?;
        let shares = |range: PercentileRange| -> (f64, f64) {
            let share = |name: &str| {
                let v: Vec<f64> = sources_pct
                    .iter()
                    .filter(|(s, _)| s == name)
                    .map(|(_, r)| levels.reference.percentile(*r))
                    .collect();
                v.iter().filter(|&&p| range.contains(p)).count() as f64 / v.len().max(1) as f64
            };
            (share("standard"), share("minimal"))
        };
        for &(band, quota) in &opts.targets {
            let range = band.range();
            let source = band_source(&seed_pct, range, shares(range));
            targets.push(TargetProgress {
                band,
                range,
                quota,
                stored: stored.iter().filter(|&&p| range.contains(p)).count() as u64,
                source: match &source {
                    Source::Standard => "standard generator".to_string(),
                    Source::Minimal => "random minimal puzzles".to_string(),
                    Source::Seeds(v) => format!("{} seeds", v.len()),
                },
                jobs: 0,
                hits: 0,
            });
            sources.push(source);
        }
    }
    let all_seeds = Source::Seeds((0..seeds.len()).collect());
    let mut prog = Progress {
        stored: b.stored,
        count: b.count,
        duplicates: b.duplicates,
        rejected: b.rejected,
        off_band: b.off_band,
        targets: targets.clone(),
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
                .map(|j| generate_job(&seeds, source_of(j).1, opts.seed, j))
                .collect()
        });
        // Duplicates of the bank or of an earlier job of the batch are dropped unrated.
        let mut fresh: Vec<Generated> = Vec::new();
        let mut batch_keys: HashSet<String> = HashSet::new();
        let mut events: Vec<(u64, Event)> = Vec::new();
        for r in results {
            match r {
                JobResult::NotUnique(j) => events.push((j, Event::NotUnique)),
                JobResult::Puzzle(g) => {
                    let key = g.canon.key().to_hex();
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
        let rated: Vec<Row> =
            pool.install(|| fresh.par_iter().map(|g| rate(g, &seeds, &levels)).collect());
        prog.stage[1] += t.elapsed();
        // Accept in job order until the quotas (or the count) are met.
        events.extend(
            rated
                .into_iter()
                .map(|r| (r.job, Event::Rated(Box::new(r)))),
        );
        events.sort_by_key(|e| e.0);
        let mut rows: Vec<Row> = Vec::new();
        let mut next_job = end;
        for (j, event) in events {
            if b.stored >= b.count {
                next_job = j;
                break;
            }
            let row = match event {
                Event::NotUnique => {
                    eprintln!(
                        "pseudoku: bug: job {j} made a puzzle without one solution; not stored"
                    );
                    b.rejected += 1;
                    continue;
                }
                Event::Duplicate => {
                    b.duplicates += 1;
                    continue;
                }
                Event::Rated(row) => *row,
            };
            if targeted {
                let (aim, _) = source_of(j);
                if let Some(a) = aim {
                    targets[a].jobs += 1;
                }
                let hit = (0..targets.len()).find(|&i| {
                    targets[i].stored < targets[i].quota
                        && targets[i].range.contains(row.percentile)
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
            keys.insert(row.canon_key.clone());
            b.stored += 1;
            rows.push(row);
        }
        b.next_job = next_job;
        if tx.send((b.clone(), rows)).is_err() {
            // The writer stopped on an error: report it.
            drop(tx);
            return match writer.join() {
                Ok(Err(e)) => Err(e.context("committing a batch")),
                Ok(Ok(_)) => Err(anyhow::anyhow!("the database writer stopped")),
                Err(_) => Err(anyhow::anyhow!("the database writer panicked")),
            };
        }
        prog.stored = b.stored;
        prog.duplicates = b.duplicates;
        prog.rejected = b.rejected;
        prog.off_band = b.off_band;
        prog.targets.clone_from(&targets);
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

/// Brings rows stored by older versions up to date: rates the rows without a `difficulty`
/// (migration 0003 leaves them NULL), gives every row its retrieval tie-break (`pick`, added
/// by migration 0004) and its percentile. 1,000 rows per transaction, on the current rayon
/// pool. Returns how many rows were touched.
pub fn backfill(conn: &mut rusqlite::Connection, levels: &Levels) -> anyhow::Result<u64> {
    let todo: Vec<(i64, String, String, Option<f64>, f64)> = conn
        .prepare(
            "SELECT id, puzzle, canon_key, difficulty, rating FROM puzzles
             WHERE difficulty IS NULL OR pick IS NULL OR percentile IS NULL ORDER BY id",
        )?
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<Result<_, _>>()?;
    for chunk in todo.chunks(1000) {
        let done: Vec<(i64, f64, f64, i64)> = chunk
            .par_iter()
            .map(
                |(id, puzzle, key, d, hs)| -> anyhow::Result<(i64, f64, f64, i64)> {
                    let d = match d {
                        Some(d) => *d,
                        None => {
                            let p = Puzzle::parse_line(puzzle)
                                .map_err(|e| anyhow::anyhow!("puzzle {id} does not parse: {e}"))?;
                            crate::rate::report(&p, None)
                                .map_err(|e| anyhow::anyhow!("puzzle {id} cannot be rated: {e}"))?
                                .difficulty
                        }
                    };
                    let value = levels.rating.value(d, *hs);
                    Ok((
                        *id,
                        d,
                        levels.reference.percentile(value),
                        store::pick_of(key),
                    ))
                },
            )
            .collect::<anyhow::Result<_>>()?;
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "UPDATE puzzles SET difficulty = ?2, percentile = ?3, pick = ?4 WHERE id = ?1",
            )?;
            for (id, d, p, pick) in &done {
                stmt.execute(rusqlite::params![id, d, p, pick])?;
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
    let conn = store::open_existing(db)?;
    let (kind, _) = store::level_settings(&conn)?;
    let reference = store::reference(&conn, kind)?;
    let total: i64 = conn.query_row("SELECT COUNT(*) FROM puzzles", [], |r| r.get(0))?;
    let step = if sample == 0 || sample as i64 >= total {
        1
    } else {
        (total as u64).div_ceil(sample)
    };
    let mut stmt = conn.prepare(
        "SELECT id, puzzle, solution, canon, canon_key, rating, rating_sd, tier, grade, difficulty,
             percentile
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
                r.get(10)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let checked = rows.len() as u64;
    let mismatches: Vec<Mismatch> = rows
        .par_iter()
        .flat_map_iter(|(id, puzzle, solution, canon, key, rating, sd, tier, grade, stored_d, pct)| {
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
                    let value = kind.value(report.difficulty, report.hsolve);
                    let want = reference.as_ref().map(|r| r.percentile(value));
                    if *pct != want {
                        bad(format!("percentile {want:?} != stored {pct:?}"));
                    }
                }
                Err(e) => bad(format!("cannot rate: {e}")),
            }
            out
        })
        .collect();
    Ok((checked, mismatches))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_sources_follow_the_seeds_and_the_reference() {
        let range = |s: &str| s.parse::<Band>().unwrap().range();
        // Seeds at percentiles 60, 61, ..., 99.
        let pct: Vec<f64> = (60..100).map(f64::from).collect();
        // Every seed is above band 1/4 and 2/4: a generator, whichever lands there more.
        assert_eq!(
            band_source(&pct, range("1/4"), (0.9, 0.1)),
            Source::Standard
        );
        assert_eq!(band_source(&pct, range("2/4"), (0.1, 0.3)), Source::Minimal);
        // Band 3/4 holds 15 seeds (60-74): those.
        assert_eq!(
            band_source(&pct, range("3/4"), (0.0, 0.0)),
            Source::Seeds((0..15).collect())
        );
        // Band 45-55 holds none but seeds lie in reach: the 8 nearest its midpoint (60-67).
        let r = PercentileRange {
            low: 45.0,
            high: 55.0,
            closed: false,
        };
        // Not all seeds are above 55? They are: a generator.
        assert_eq!(band_source(&pct, r, (0.5, 0.2)), Source::Standard);
        let r = PercentileRange {
            low: 55.0,
            high: 62.0,
            closed: false,
        };
        // Seeds 60 and 61 inside (2 < 8): the 8 nearest the midpoint 58.5 are 60-67.
        assert_eq!(
            band_source(&pct, r, (0.0, 0.0)),
            Source::Seeds((0..8).collect())
        );
    }
}
