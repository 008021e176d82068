//! The command-line interface: raw flags ([`args`]) turned into the library's options, one
//! library call per command, and its result printed, a file per command (or family of
//! commands); this file dispatches and holds what several share. No puzzle is handled here.
//!
//! Exit codes ([`Outcome::code`]): 0 success; 1 some input lines were bad (each reported on
//! stderr as `FILE:LINE: reason`, the rest processed), a bank came up short (`get` or `export`
//! ran out of puzzles), or `verify` found a wrong row; 2 a usage or fatal error (bad arguments,
//! unreadable file, output that cannot be written); 130 a build stopped by Ctrl-C (what it
//! committed is kept; the same command resumes it). A closed output pipe is success.

pub mod args;

/// Writes a line to standard error; one that cannot be written is dropped (there is nowhere
/// left to say so), never a panic.
macro_rules! warn {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// Writes a line to standard output, returning from the command with the error when it cannot
/// be written (a closed pipe is then success, see [`run`]).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*)?;
    }};
}

pub use args::*;

mod batch;
mod book;
mod build;
mod calibrate;
mod dataset;
mod export;
mod get;
mod help;
mod hint;
mod import;
mod results;
mod seeds;
mod serve;
mod stats;
mod verify;

use batch::{batch, run_rate};
use book::run_book;
use build::{run_build, run_merge};
use calibrate::run_calibrate;
use dataset::run_dataset;
use export::run_export;
use get::{run_get, run_unserve};
use help::{run_completions, run_help, run_man};
use hint::{run_explain, run_hint};
use import::run_import;
use results::run_results_import;
use seeds::{run_list, run_mine, run_seed_import};
use serve::{run_history, run_serve};
use stats::run_stats;
use verify::run_verify;

use anyhow::Context as _;
use pseudoku::bank;
use std::io::{self, BufWriter, IsTerminal as _, Write};

/// How a command ended, mapped to the process exit code by `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything went well (exit 0).
    Success,
    /// Some input lines were bad and were reported; the rest was processed (exit 1).
    BadLines,
    /// The bank had fewer puzzles than asked (`get`, `export`; exit 1).
    Short,
    /// `verify` found a wrong row, or a preflight a broken rule (`book --check`, `export
    /// --check`; exit 1).
    Mismatch,
    /// A build was stopped by Ctrl-C (SIGINT) and kept what it committed (exit 130, the
    /// shell's code for a command ended by SIGINT).
    Interrupted,
}

impl Outcome {
    /// `self` when `failed`, else success.
    pub fn when(self, failed: bool) -> Outcome {
        if failed {
            self
        } else {
            Outcome::Success
        }
    }

    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Success => 0,
            Outcome::BadLines | Outcome::Short | Outcome::Mismatch => 1,
            Outcome::Interrupted => 130,
        }
    }
}

/// The exit code of a fatal error (bad arguments, unreadable file, a failed bank).
pub const FATAL: u8 = 2;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let result = match cli.command {
        Command::Solve(a) => batch(
            pseudoku::batch::Task::Solve { count: a.count },
            &a.input,
            a.threads,
        ),
        Command::Rate(a) => run_rate(&a),
        Command::Canon(a) => batch(
            pseudoku::batch::Task::Canon {
                grid: a.grid,
                json: a.json,
            },
            &a.input,
            a.threads,
        ),
        Command::Explain(a) => run_explain(&a),
        Command::Hint(a) => run_hint(&a),
        Command::Serve(a) => run_serve(&a),
        Command::Build(a) => run_build(&a),
        Command::Merge(a) => run_merge(&a),
        Command::Import(a) => run_import(&a),
        Command::Dataset(a) => run_dataset(&a),
        Command::Verify(a) => run_verify(&a),
        Command::Get(a) => run_get(&a),
        Command::Calibrate(a) => run_calibrate(&a),
        Command::Stats(a) => run_stats(&a),
        Command::Export(a) => run_export(&a),
        Command::Book(a) => run_book(&a),
        Command::History(HistoryCommand::Export(a)) => run_history(&a, true),
        Command::History(HistoryCommand::Import(a)) => run_history(&a, false),
        Command::Results(ResultsCommand::Import(a)) => run_results_import(&a),
        Command::Seeds(SeedsCommand::Mine(a)) => run_mine(&a),
        Command::Seeds(SeedsCommand::Import(a)) => run_seed_import(&a),
        Command::Seeds(SeedsCommand::List(a)) => run_list(&a),
        Command::Unserve(a) => run_unserve(&a),
        Command::Help(a) => run_help(&a),
        Command::Completions(a) => run_completions(&a),
        Command::Man(a) => run_man(&a),
    };
    match result {
        // The reader of our output went away (`| head`): not an error.
        Err(e) if is_broken_pipe(&e) => Ok(Outcome::Success),
        other => other,
    }
}

/// True when `e` is (or wraps) a broken-pipe I/O error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `1 file`, `2 files`.
fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `BadLines` when any line was bad.
fn lines_outcome(bad: usize) -> Outcome {
    Outcome::BadLines.when(bad > 0)
}

/// A progress bar on standard error when it is a terminal (hidden otherwise).
fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    if io::stderr().is_terminal() {
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .expect("a valid template")
                .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

/// A progress bar that appears once the work has taken a second: quick runs show nothing.
struct LateBar {
    start: std::time::Instant,
    template: &'static str,
    bar: std::cell::OnceCell<indicatif::ProgressBar>,
}

impl LateBar {
    fn new(template: &'static str) -> LateBar {
        LateBar {
            start: std::time::Instant::now(),
            template,
            bar: std::cell::OnceCell::new(),
        }
    }

    /// The bar, once a second has passed.
    fn shown(&self) -> Option<&indicatif::ProgressBar> {
        if self.bar.get().is_none() && self.start.elapsed().as_secs() < 1 {
            return None;
        }
        Some(self.bar.get_or_init(|| progress_bar(0, self.template)))
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

/// The seed library a build uses: `path`, or the shipped one.
fn seed_library(path: Option<&std::path::Path>) -> anyhow::Result<pseudoku::seeds::Library> {
    Ok(match path {
        Some(path) if !path.is_file() => {
            anyhow::bail!("{}: no such seed library file", path.display())
        }
        Some(path) => pseudoku::seeds::Library::load(path)?,
        None => pseudoku::seeds::Library::shipped(),
    })
}
