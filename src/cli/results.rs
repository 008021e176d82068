//! `results import`: an app's log of games counted into the learned ratings (stopped by
//! Ctrl-C after its batch; the same command continues).

use super::build::STOP;
use super::*;

/// Runs `results import`.
pub(super) fn run_results_import(args: &ResultsImportArgs) -> anyhow::Result<Outcome> {
    use pseudoku::results::{count_file, Target};
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let target = match &args.history {
        Some(url) => Target::Fleet(url.clone()),
        None => Target::Bank,
    };
    let start = std::time::Instant::now();
    let bar = progress_bar(0, "{elapsed_precise} line {pos}, {msg}");
    let mut reported = 0;
    let done = count_file(&args.db, &args.file, &target, &STOP, |c| {
        for (line, why) in &c.problems[reported..] {
            bar.suspend(|| warn!("{}:{line}: {why}", args.file.display()));
        }
        reported = c.problems.len();
        bar.set_position(c.lines);
        bar.set_message(format!("{} counted", c.counted));
    })?;
    bar.finish_and_clear();
    let into = match &args.history {
        Some(_) => "the fleet's history".to_string(),
        None => args.db.display().to_string(),
    };
    let (did, next) = match done.stopped {
        true => ("stopped:", "; run the same command to continue"),
        false => ("counted", ""),
    };
    say!(
        "{did} {} games of {} into {into}, {:.1} s ({} glances kept unrated, {} counted before, \
         {} lines skipped){next}",
        done.counted,
        args.file.display(),
        start.elapsed().as_secs_f64(),
        done.unrated,
        done.again,
        done.problems.len(),
    );
    Ok(if done.stopped {
        Outcome::Interrupted
    } else {
        lines_outcome(done.problems.len())
    })
}
