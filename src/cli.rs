//! The command-line interface: argument structs (clap derive) and one function per subcommand.
//!
//! `main.rs` only parses the arguments and maps the outcome to an exit code; the work happens in
//! the library. Exit codes: 0 success, 1 some input lines were bad (each reported on stderr as
//! `FILE:LINE: reason`, the rest processed), 2 a usage or fatal error (bad arguments, unreadable
//! file).

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::input::{PuzzleReader, ReadError};
use crate::solve::{solve, Solutions};

/// Builds large, graded Sudoku puzzle banks.
///
/// pseudoku is a toolkit for building banks of graded, distinct Sudoku puzzles. Puzzles are read
/// one per line (81 characters, `1`-`9`, `.` or `0` for empty; anything after the 81st character
/// is ignored) or in the nine-line grid form; blank lines and lines starting with `#` are skipped.
///
/// Exit status: 0 on success, 1 if some input lines were bad (each is reported on stderr as
/// FILE:LINE: reason and the rest are processed), 2 on a usage or fatal error.
#[derive(Debug, Parser)]
#[command(name = "pseudoku", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles with the exact solver.
    ///
    /// For each input puzzle prints `<puzzle>\t<solution>`, or `<puzzle>\tmultiple` when it has
    /// two or more solutions, or `<puzzle>\tnone` when it has none. With --count prints
    /// `<puzzle>\t<0|1|2>` instead (2 meaning two or more).
    Solve(SolveArgs),
}

/// Arguments of `pseudoku solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Input file, one puzzle per line; `-` or nothing reads standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    pub input: PathBuf,
    /// Print the number of solutions (0, 1, or 2 for two or more) instead of the solution.
    #[arg(long)]
    pub count: bool,
}

/// How a command ended, mapped to the process exit code by `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything went well (exit 0).
    Success,
    /// Some input lines were bad and were reported (exit 1).
    BadInput,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let result = match cli.command {
        Command::Solve(args) => run_solve(&args),
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

/// Reads every puzzle of `input`, calling `each` on the good ones and reporting the bad ones on
/// stderr. Returns whether any line was bad.
fn for_each_puzzle(
    input: &std::path::Path,
    mut each: impl FnMut(crate::input::Entry) -> io::Result<()>,
) -> anyhow::Result<Outcome> {
    let mut outcome = Outcome::Success;
    for item in PuzzleReader::open(input)? {
        match item {
            Ok(entry) => each(entry)?,
            Err(ReadError::Line(e)) => {
                eprintln!("{e}");
                outcome = Outcome::BadInput;
            }
            Err(e @ ReadError::Io { .. }) => return Err(e.into()),
        }
    }
    Ok(outcome)
}

fn run_solve(args: &SolveArgs) -> anyhow::Result<Outcome> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let outcome = for_each_puzzle(&args.input, |entry| {
        let p = entry.puzzle;
        let result = solve(&p);
        if args.count {
            writeln!(out, "{}\t{}", p, result.count())
        } else {
            match result {
                Solutions::Unique(g) => writeln!(out, "{p}\t{g}"),
                Solutions::Multiple(_) => writeln!(out, "{p}\tmultiple"),
                Solutions::None => writeln!(out, "{p}\tnone"),
            }
        }
    })?;
    out.flush()?;
    Ok(outcome)
}
