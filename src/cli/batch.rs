//! The batch commands on puzzle files (`solve`, `rate`, `canon`, and `hint` on a file): every line
//! on every core, bad lines named.

use super::*;

/// Runs `task` on every puzzle of `input` (a file, or `-` for standard input) on `threads`
/// workers; a bad line is named on stderr and the rest goes on.
pub(super) fn batch(
    task: pseudoku::batch::Task,
    input: &std::path::Path,
    threads: usize,
) -> anyhow::Result<Outcome> {
    use std::io::IsTerminal as _;
    if input.as_os_str() == "-" && io::stdin().is_terminal() {
        // Not a silent wait: say what is expected.
        warn!(
            "pseudoku: reading puzzles from standard input, one per line or as nine-line grids; \
             end with Ctrl-D (or give a FILE: pseudoku {} FILE)",
            task.name()
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    // A spinner with the count once the work has taken a second (quick runs show nothing).
    let bar = LateBar::new("{spinner} {msg}: {pos} puzzles, {per_sec}, {elapsed}");
    let summary = pseudoku::batch::run_with_progress(
        &task,
        input,
        &pool,
        &mut out,
        &mut io::stderr().lock(),
        &|n| {
            if let Some(b) = bar.shown() {
                b.set_message(task.name());
                b.set_position(n);
            }
        },
    )?;
    bar.finish();
    out.flush()?;
    Ok(lines_outcome(summary.bad as usize))
}

/// Runs `rate`.
pub(super) fn run_rate(args: &RateArgs) -> anyhow::Result<Outcome> {
    let levels = match &args.db {
        Some(db) => Some(Box::new(pseudoku::levels::Levels::read(
            &bank::open_existing(db)?,
        )?)),
        None => None,
    };
    if args.profile {
        pseudoku::rate::profile::start();
    }
    let outcome = batch(
        pseudoku::batch::Task::Rate {
            runs: args.runs,
            json: args.json,
            levels,
        },
        &args.input,
        args.threads,
    )?;
    if args.profile {
        eprint!("{}", pseudoku::rate::profile::read());
    }
    Ok(outcome)
}
