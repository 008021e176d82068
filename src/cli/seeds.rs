//! `seeds list`, `seeds import` and `seeds mine`: the seed library.

use super::*;

/// Runs `seeds list`.
pub(super) fn run_list(args: &ListArgs) -> anyhow::Result<Outcome> {
    let at = &args.library;
    if let Some(file) = &at.library {
        io::stdout().write_all(pseudoku::seeds::Library::load(file)?.summary().as_bytes())?;
        return Ok(Outcome::Success);
    }
    let base = seed_library(at.seed_library.as_deref())?;
    let n = base.seeds.len();
    // A bank that does not exist yet has no imports (and is not created by listing).
    let (lib, imported) = if at.db.is_file() {
        let conn = bank::open_existing(&at.db)?;
        pseudoku::seeds::with_imports(&conn, base)?
    } else {
        (base, 0)
    };
    io::stdout().write_all(lib.summary().as_bytes())?;
    say!(
        "library {n} + imported into {} {imported}: the seeds `pseudoku build` uses",
        at.db.display()
    );
    Ok(Outcome::Success)
}

/// Runs `seeds import`.
pub(super) fn run_seed_import(args: &SeedImportArgs) -> anyhow::Result<Outcome> {
    let at = &args.library;
    let (done, total) = match &at.library {
        Some(file) => {
            let mut lib = pseudoku::seeds::Library::load(file)?;
            let done = lib.import(&args.input)?;
            lib.save(file)?;
            (done, format!("library: {} seeds", lib.seeds.len()))
        }
        None => {
            let base = seed_library(at.seed_library.as_deref())?;
            let n = base.seeds.len();
            // A missing input creates no bank.
            anyhow::ensure!(
                args.input.as_os_str() == "-" || args.input.is_file(),
                "{}: no such file",
                args.input.display()
            );
            let _lock = bank::WriterLock::acquire(&at.db, "seeds import", args.wait)?;
            let conn = bank::open(&at.db)?;
            let (done, imported) = pseudoku::seeds::import(&conn, &args.input, base)?;
            (
                done,
                format!("library {n} + imported into {} {imported}", at.db.display()),
            )
        }
    };
    for line in &done.bad {
        warn!("{line}");
    }
    say!(
        "imported {}, already in the library {}, bad lines {}; {total}",
        done.added,
        done.duplicates,
        done.bad.len(),
    );
    Ok(lines_outcome(done.bad.len()))
}

/// Runs `seeds mine`.
pub(super) fn run_mine(args: &MineArgs) -> anyhow::Result<Outcome> {
    let opts = pseudoku::seeds::MineOptions {
        tier: args.tier,
        count: args.count,
        threads: args.threads,
        rng_seed: args.rng_seed,
        max_jobs: args.max_jobs,
        climb: args.climb,
        out: args.out.clone(),
    };
    let bar = indicatif::ProgressBar::new(args.max_jobs);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} {pos}/{len} candidates {msg}")
            .expect("a valid template"),
    );
    let start = std::time::Instant::now();
    let (lib, jobs) = pseudoku::seeds::mine(&opts, |jobs, have| {
        bar.set_position(jobs);
        bar.set_message(format!(
            "tier 1: {}  2: {}  3: {}  4: {}  5+: {}",
            have[1], have[2], have[3], have[4], have[5]
        ));
    })?;
    bar.finish();
    if jobs == 0 {
        warn!(
            "{} already has the seeds --count asks for in every tier: nothing mined (write a new \
             library with --out NEW.tsv, or ask for more with a larger --count)",
            args.out.display()
        );
    } else {
        warn!(
            "mined {jobs} candidates in {:.1?}; library {}: {} seeds",
            start.elapsed(),
            args.out.display(),
            lib.seeds.len()
        );
    }
    io::stdout().write_all(lib.summary().as_bytes())?;
    Ok(Outcome::Success)
}
