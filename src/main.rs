//! The `pseudoku` command: parses the command line ([`cli`]), runs it, and maps the outcome to
//! the exit code documented there. All the work is in the library.

mod cli;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;
use cli::{run, Cli, FATAL};

/// The program's allocator (the library leaves the choice to its users).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(outcome) => ExitCode::from(outcome.code()),
        Err(e) => {
            // Standard error may be gone too: then there is nowhere to say why.
            let _ = writeln!(std::io::stderr(), "pseudoku: {e:#}");
            ExitCode::from(FATAL)
        }
    }
}
