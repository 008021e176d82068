//! A build's plan: everything decided before its first job. The options checked, the bank
//! opened under its writer lock and brought up to date, the seeds prepared, the quotas with
//! their layout rules, the build's bookkeeping row started or resumed (a shard's checked
//! against what its bank holds), the targets and the assignment of jobs to them, and where
//! acceptance starts from. [`super::run`] then runs the jobs.

use super::accept::{Acceptance, Assignment};
use super::job::{self, Source};
use super::layout::Layout;
use super::shard::Shard;
use super::targets::{self, TargetProgress};
use super::{BankError, BuildOptions};
use crate::generate::Symmetry;
use crate::levels::{calibrate, Levels};
use crate::seeds::Library;
use crate::store::builds::NewBuild;
use crate::store::{self, Build};
use std::collections::HashSet;

/// The most puzzles one build may be asked for (SQLite stores counts as signed 64-bit
/// integers; this leaves room for every sum).
pub const MAX_COUNT: u64 = 1 << 40;

/// A quota of the build: what it aims at, how many puzzles, and the layout rules its jobs
/// follow.
pub(super) type Quota = (targets::Aim, u64, Layout);

/// How the build runs its jobs.
pub(super) enum Mode {
    /// On one machine: every job, accepted in order from where `acceptance` stands.
    Single {
        /// The acceptance as the bank stands (its classes, the counts stored).
        acceptance: Acceptance,
    },
    /// One shard of the jobs, into a bank of its own, for `merge`.
    Shard {
        /// Which shard.
        shard: Shard,
        /// Its bookkeeping (quotas, cursors, assignment).
        row: store::shards::ShardRow,
    },
}

/// What a build decided before its first job.
pub(super) struct Plan {
    /// The worker threads.
    pub pool: rayon::ThreadPool,
    /// The bank's writer lock, held until the build ends.
    pub lock: store::lock::WriterLock,
    /// The bank.
    pub conn: store::Bank,
    /// The bank's scale.
    pub levels: Levels,
    /// The seeds, prepared (the library's and the bank's imported ones).
    pub seeds: Vec<job::Prepared>,
    /// The build's bookkeeping row (a resumed build's counts so far).
    pub build: Build,
    /// The targets (none for a build of a count).
    pub targets: Vec<TargetProgress>,
    /// Each target's seeds.
    pub sources: Vec<Source>,
    /// Which target each job serves.
    pub assignment: Assignment,
    /// How the jobs run.
    pub mode: Mode,
}

/// A half-turn build takes one of the shipped symmetric seeds for every this many puzzles of
/// its half-turn quotas (all 3,000 from 96,000 on): a seed gives a build a handful of distinct
/// symmetric puzzles (on `build --per-level 25000 --symmetry rotate180`, 5,673 duplicates with
/// all of them against 14,221 without), and each costs the build's start a rating (about a
/// second for all of them, on two cores); with one per 8 puzzles, `build --per-level 5000
/// --symmetry rotate180` took 7.1 s against 6.0 s without them, with one per 32 6.5 s.
const SYMMETRIC_SEED_SHARE: u64 = 32;

/// Plans the build of `opts` from the seed library `lib` (and the seeds imported into the
/// bank): every check and every piece of bookkeeping that comes before the first job.
pub(super) fn plan(opts: &BuildOptions, lib: &Library) -> Result<Plan, BankError> {
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
    if let Some(change) = &opts.layout {
        let names: Vec<&str> = quotas.iter().filter_map(|(aim, _)| aim.level()).collect();
        if names.is_empty() || names.len() < quotas.len() {
            return Err(BankError::LayoutWithoutLevel);
        }
        let layouts = names
            .iter()
            .map(|name| Ok((*name, change.apply(targets::stored_layout(&conn, name)?))))
            .collect::<Result<Vec<_>, BankError>>()?;
        store::immediate(&conn, || {
            for (name, layout) in &layouts {
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
    // A level whose rules share a symmetry among its puzzles is two quotas: its symmetric
    // puzzles and the others.
    let with_layouts: Vec<Quota> = quotas
        .iter()
        .map(|(aim, n)| {
            let layout = match aim.level() {
                Some(name) => targets::stored_layout(&conn, name)?,
                None => Layout::default(),
            };
            // With spread, a level below the top is filled in parts that follow the reference.
            Ok(layout
                .split(*n)
                .into_iter()
                .flat_map(|(share, layout)| {
                    let parts = match aim {
                        targets::Aim::Level(name) if opts.spread => {
                            targets::spread(name, share, &levels)
                        }
                        _ => vec![(aim.clone(), share)],
                    };
                    parts.into_iter().map(move |(aim, n)| (aim, n, layout))
                })
                .collect::<Vec<_>>())
        })
        .collect::<Result<Vec<_>, BankError>>()?
        .into_iter()
        .flatten()
        .collect();
    if with_layouts.len() > super::accept::MAX_TARGETS {
        return Err(BankError::TooManyTargets(with_layouts.len()));
    }
    // A half-turn layout on the shipped library also draws on the shipped symmetric seeds
    // (after the others, so that the other targets' seeds and draws stay as they were): one
    // for every SYMMETRIC_SEED_SHARE puzzles of its quotas, evenly spaced in the file.
    let mut seeds = seeds;
    let symmetric_from = seeds.len();
    let half_turn: u64 = with_layouts
        .iter()
        .filter(|(_, _, layout)| layout.generated_symmetry() == Symmetry::Rotate180)
        .map(|(_, n, _)| n)
        .sum();
    if half_turn > 0 && opts.seed_library.is_none() {
        let wanted = usize::try_from(half_turn / SYMMETRIC_SEED_SHARE).unwrap_or(usize::MAX);
        let mut extra = Library::default();
        for seed in Library::shipped_symmetric_sample(wanted).seeds {
            if !lib.contains(&seed.key()) {
                extra.add(seed);
            }
        }
        seeds.extend(job::store_seeds(
            &conn,
            pool.install(|| job::prepare(&extra)),
        )?);
    }
    let args = arguments(opts, count, &lib, imported, &with_layouts);
    let held = store::shards::read(&conn)?;
    let (build, shard_row) = match (opts.shard, held) {
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
                &NewBuild {
                    arguments: &shard_arguments(&args, &shard, opts.batch),
                    rng_seed: opts.rng_seed,
                    count,
                    rater: crate::rate::RATER,
                },
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
            store::builds::start(
                &conn,
                &NewBuild {
                    arguments: &args,
                    rng_seed: opts.rng_seed,
                    count,
                    rater: crate::rate::RATER,
                },
            )?,
            None,
        ),
    };
    let _ = lock.describe(&format!("build {}", build.id));
    let (mut targets, mut sources) = targets::plan(
        &conn,
        &pool,
        &levels,
        (&seeds, symmetric_from),
        &with_layouts,
        build.id,
    )?;
    targets::choose_sources(
        &pool,
        &levels,
        &seeds,
        &mut targets,
        &mut sources,
        opts.rng_seed,
    );
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
    let mode = match (opts.shard, shard_row) {
        (Some(shard), Some(row)) => {
            // A shard's bank holds a class once per target that made it: no unique key index.
            store::puzzles::defer_indexes(&conn)?;
            Mode::Shard { shard, row }
        }
        _ => Mode::Single {
            acceptance: {
                let keys: HashSet<u128> = store::puzzles::keys(&conn)?;
                // A build that at least doubles the bank appends without the indexes that random
                // keys and ratings would scatter its inserts over; they are built again, packed,
                // when it stops.
                if build.count - build.stored.min(build.count) >= keys.len() as u64 {
                    store::puzzles::defer_indexes(&conn)?;
                } else {
                    store::puzzles::ensure_indexes(&conn, levels.rating)?;
                }
                let stored = if targets.is_empty() {
                    vec![build.stored]
                } else {
                    targets.iter().map(|t| t.stored).collect()
                };
                Acceptance::new(
                    assignment.clone(),
                    quota_list(&with_layouts, count),
                    stored,
                    keys,
                )
            },
        },
    };
    Ok(Plan {
        pool,
        lock,
        conn,
        levels,
        seeds,
        build,
        targets,
        sources,
        assignment,
        mode,
    })
}

/// Each target's quota (a build of a count: one target of that count).
fn quota_list(quotas: &[Quota], count: u64) -> Vec<u64> {
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

/// The build's arguments as recorded in its bookkeeping row (a build resumes only with the
/// same ones).
fn arguments(
    opts: &BuildOptions,
    count: u64,
    lib: &Library,
    imported: usize,
    quotas: &[Quota],
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
