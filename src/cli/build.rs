//! `build` and `merge`: a bank built (stopped by Ctrl-C after its batch) and shards merged.

use super::*;

/// Set by Ctrl-C: a build stops after its current batch.
pub(super) static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs `build`.
pub(super) fn run_build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    let lib = seed_library(args.seed_library.as_deref())?;
    // A second Ctrl-C while stopping is left to the default handler; ignore "already set".
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let opts = bank::BuildOptions {
        db: args.db.clone(),
        count: args.count,
        targets: args.targets().map_err(anyhow::Error::msg)?,
        per_level: args.per_level,
        layout: args.layout(),
        wait: args.wait,
        rating: args.rating,
        threads: args.threads,
        rng_seed: args.rng_seed,
        seed_library: args.seed_library.clone(),
        batch: args.batch.max(1),
        shard: args.shard.map(|s| bank::Shard {
            margin: args.margin,
            ..s
        }),
        spread: args.spread,
    };
    let start = std::time::Instant::now();
    let tty = io::stderr().is_terminal();
    let bar = progress_bar(
        args.count,
        "{elapsed_precise} [{bar:30}] {pos}/{len} stored, {msg} ETA {eta}",
    );
    let mut last_line = std::time::Instant::now();
    let prog = bank::build(&opts, &lib, &STOP, |p| {
        // This run's rate: a resumed build's earlier rows are not counted.
        let rate = (p.stored - p.at_start) as f64 / start.elapsed().as_secs_f64().max(1e-9);
        if tty {
            bar.set_position(p.stored);
            bar.set_message(format!("{} duplicates, {rate:.0}/s", p.duplicates));
        } else if last_line.elapsed().as_secs() >= 5 {
            warn!(
                "stored {}/{}, {} duplicates, {rate:.0}/s",
                p.stored, p.count, p.duplicates
            );
            last_line = std::time::Instant::now();
        }
    })?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let stopped = prog.stopped();
    let (db, again) = (args.db.display(), "; run the same command to continue");
    if let Some(shard) = opts.shard {
        let (did, next) = match stopped {
            true => ("stopped with", again),
            false => (
                "stored",
                "; merge the shards with `pseudoku merge OUT SHARD...`",
            ),
        };
        say!(
            "shard {shard}: {did} {} puzzles in {db}, {secs:.1} s; its share filled {} of {} \
             places of the quotas{next}",
            prog.rows,
            prog.stored,
            prog.count,
        );
    } else {
        let (did, next) = match stopped {
            true => ("stopped:", again),
            false => ("stored", ""),
        };
        say!(
            "{did} {} of {} puzzles in {db}, {secs:.1} s ({} duplicates skipped, {} rejected){next}",
            prog.stored,
            prog.count,
            prog.duplicates,
            prog.rejected,
        );
    }
    for t in bank::merged_targets(&prog.targets) {
        say!("{t}");
    }
    // Rules bind the builds of levels: say so when a build of a count or of bands ran past
    // levels that have them.
    if opts.per_level.is_none()
        && !opts
            .targets
            .iter()
            .any(|(a, _)| matches!(a, bank::Aim::Level(_)))
    {
        let ruled = bank::level_layouts(&bank::open_existing(&args.db)?)?;
        if !ruled.is_empty() {
            let list: Vec<String> = ruled.iter().map(|(n, l)| format!("{n} ({l})")).collect();
            warn!(
                "pseudoku: note: levels {} have layout rules, which bind builds of levels only: \
                 this build stored puzzles by their rating alone, so some may break their \
                 level's rules; build with --per-level or --level NAME to keep them",
                list.join(", ")
            );
        }
    }
    if !prog.targets.is_empty() {
        let bands = (opts.targets.iter())
            .filter(|(aim, _)| matches!(aim, bank::Aim::Band(_)))
            .count();
        let levels = opts.per_level.is_some() || opts.targets.len() > bands;
        let what = match (bands > 0, levels) {
            (true, true) => "bands and levels",
            (true, false) => "bands",
            _ => "levels",
        };
        say!(
            "{} puzzles fell outside the {what} still open",
            prog.off_band
        );
    }
    say!(
        "time by stage: the workers' CPU time for generation, uniqueness and canonical form \
         {:.1} s and rating {:.1} s; the writer's time inserting {:.1} s",
        prog.stages.generation.as_secs_f64(),
        prog.stages.rating.as_secs_f64(),
        prog.stages.insert.as_secs_f64()
    );
    Ok(Outcome::Interrupted.when(stopped))
}

/// Runs `merge`.
pub(super) fn run_merge(args: &MergeArgs) -> anyhow::Result<Outcome> {
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let opts = bank::MergeOptions {
        out: args.out.clone(),
        inputs: args.inputs.clone(),
        wait: args.wait,
        commit_rows: 65_536,
    };
    let start = std::time::Instant::now();
    let done = bank::merge(&opts, &STOP, |m| {
        warn!("merged up to job {}: {} stored", m.next_job, m.stored);
    })?;
    if done.already {
        warn!(
            "{} already holds this merge of {} shards ({} puzzles): nothing to do",
            args.out.display(),
            done.shards,
            done.stored
        );
        return Ok(Outcome::Success);
    }
    warn!(
        "{} {} puzzles of {} shards into {} in {:.1} s ({} duplicates across shards, {} of \
         jobs whose quota was full, {} off the open levels){}",
        if done.complete { "stored" } else { "stopped:" },
        done.stored,
        done.shards,
        args.out.display(),
        start.elapsed().as_secs_f64(),
        done.duplicates,
        done.ignored,
        done.off,
        if done.complete {
            ""
        } else {
            "; run the same command to continue"
        }
    );
    Ok(Outcome::Interrupted.when(!done.complete))
}
