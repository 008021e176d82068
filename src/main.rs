//! The `pseudoku` command: parses the command line and maps the outcome to an exit code.
//! All the work is in the library (`pseudoku::cli`).

use std::process::ExitCode;

use clap::Parser;
use pseudoku::cli::{run, Cli, Outcome};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::BadInput) => ExitCode::from(1),
        Err(e) => {
            eprintln!("pseudoku: {e:#}");
            ExitCode::from(2)
        }
    }
}
