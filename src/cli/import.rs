//! `import`: a file of the user's own puzzles (or a stream: `-`, a pipe) graded into a bank
//! (stopped by Ctrl-C within a puzzle's rating, resumed by the same command).

use super::build::STOP;
use super::*;

/// Runs `import`.
pub(super) fn run_import(args: &ImportArgs) -> anyhow::Result<Outcome> {
    // A second Ctrl-C while stopping is left to the default handler; ignore "already set".
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let opts = pseudoku::import::ImportOptions {
        db: args.db.clone(),
        file: args.file.clone(),
        rating: args.rating,
        threads: args.threads,
        wait: args.wait,
        batch: args.batch,
    };
    let start = std::time::Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    let mut reported = 0;
    let done = pseudoku::import::import(&opts, &STOP, |p| {
        let bar = bar.get_or_insert_with(|| {
            let b = progress_bar(
                p.lines,
                "{elapsed_precise} [{bar:30}] line {pos}/{len}, {msg} ETA {eta}",
            );
            b.set_position(p.from_line.saturating_sub(1));
            b.reset_eta();
            b
        });
        for s in &p.problems[reported..] {
            bar.suspend(|| warn!("{}", s.at(&args.file)));
        }
        reported = p.problems.len();
        bar.set_position(p.next_line.saturating_sub(1));
        bar.set_message(format!("{} stored", p.stored));
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    for s in &done.problems[reported..] {
        warn!("{}", s.at(&args.file));
    }
    let (file, db) = (args.file.display(), args.db.display());
    if done.already {
        say!(
            "{file} was imported into {db} before (its {} puzzles stored, {} duplicates, {} \
             skipped): nothing to do",
            done.stored,
            done.duplicates,
            done.skipped,
        );
        return Ok(Outcome::Success);
    }
    let secs = start.elapsed().as_secs_f64();
    let (did, next) = match done.stopped {
        true => ("stopped:", "; run the same command to continue"),
        false => ("imported", ""),
    };
    say!(
        "{did} {} puzzles of {file} into {db}, {secs:.1} s ({} duplicates skipped, {} lines \
         skipped){next}",
        done.stored,
        done.duplicates,
        done.skipped,
    );
    Ok(if done.stopped {
        Outcome::Interrupted
    } else {
        lines_outcome(done.problems.len())
    })
}
