//! Batch commands over puzzle inputs (`solve`, `rate`, `canon`): every puzzle of a file or of
//! standard input processed, one output line per good puzzle in input order, and every bad
//! line (one that does not parse, or a puzzle the task cannot handle) reported as
//! `FILE:LINE: reason` while the rest goes on.
//!
//! The input is read in chunks of [`CHUNK`] entries; each chunk is processed on the worker
//! threads and written in input order before the next is read, so memory stays bounded
//! whatever the input's length.

use crate::canon;
use crate::input::{Entry, PuzzleReader, ReadError};
use crate::scale::{LevelSet, RatingKind};
use crate::solve::{solve, Solutions};
use std::io::{self, Write};
use std::path::Path;

/// What to do with each puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// Solve: `puzzle TAB solution` (or `multiple` / `none`); with `count`, `puzzle TAB 0|1|2`.
    Solve {
        /// Print the number of solutions (2: two or more) instead.
        count: bool,
    },
    /// Rate: a TSV header, then [`crate::rate::Report`] lines, or JSON lines.
    Rate {
        /// Runs per puzzle for both ratings (`None`: each rating's default).
        runs: Option<u32>,
        /// JSON lines instead of TSV.
        json: bool,
        /// The levels each puzzle is named on: a bank's rating and levels (`None`: the default
        /// levels of `difficulty`).
        levels: Option<(RatingKind, LevelSet)>,
    },
    /// The canonical form: `input TAB canonical TAB key TAB automorphisms`, or JSON lines.
    Canon {
        /// Canonicalize the solution grid instead of the puzzle.
        grid: bool,
        /// JSON lines instead of TSV.
        json: bool,
    },
}

/// What went wrong with the input or the output as a whole (bad lines are not errors).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input could not be opened or read.
    #[error(transparent)]
    Read(ReadError),
    /// The output could not be written.
    #[error("writing the output")]
    Write(#[from] io::Error),
}

/// What a batch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Puzzles handled (an output line each).
    pub done: u64,
    /// Bad lines reported.
    pub bad: u64,
}

/// One `canon --json` line, keys in this order.
#[derive(serde::Serialize)]
struct CanonLine {
    input: String,
    canonical: String,
    key: String,
    automorphisms: u64,
}

impl Task {
    /// The line written before the results, if any.
    pub fn header(&self) -> Option<&'static str> {
        match self {
            Task::Rate { json: false, .. } => Some(crate::rate::TSV_HEADER),
            _ => None,
        }
    }

    /// The output line of one puzzle (no newline), or why the puzzle cannot be handled.
    pub fn line(&self, entry: &Entry) -> Result<String, String> {
        let p = entry.puzzle;
        match self {
            Task::Solve { count: true } => {
                Ok(format!("{}\t{}", p, crate::solve::count_solutions(&p, 2)))
            }
            Task::Solve { count: false } => Ok(match solve(&p) {
                Solutions::Unique(g) => format!("{p}\t{g}"),
                Solutions::Multiple(_) => format!("{p}\tmultiple"),
                Solutions::None => format!("{p}\tnone"),
            }),
            Task::Rate { runs, json, levels } => {
                let mut r = crate::rate::report(&p, *runs).map_err(|e| e.to_string())?;
                if let Some((rating, set)) = levels {
                    r.on_levels(*rating, set);
                }
                Ok(if *json { r.to_json() } else { r.to_tsv() })
            }
            Task::Canon { grid, json } => {
                let c = if *grid {
                    match solve(&p) {
                        Solutions::Unique(g) => canon::canonical_grid(&g),
                        Solutions::None => return Err("the puzzle has no solution".into()),
                        Solutions::Multiple(_) => {
                            return Err("the puzzle has more than one solution".into())
                        }
                    }
                } else {
                    canon::canonical(&p)
                };
                Ok(if *json {
                    serde_json::to_string(&CanonLine {
                        input: p.to_line(),
                        canonical: c.to_line(),
                        key: c.key().to_hex(),
                        automorphisms: c.automorphisms,
                    })
                    .expect("serializable")
                } else {
                    format!("{p}\t{}\t{}\t{}", c.to_line(), c.key(), c.automorphisms)
                })
            }
        }
    }
}

/// Entries read and processed at a time.
pub const CHUNK: usize = 4096;

/// Runs `task` over the puzzles of `input` (`-`: standard input) on the threads of `pool`,
/// writing the results to `out` and the bad lines to `err`, in input order. A report that
/// cannot be written to `err` is dropped (there is nowhere left to say so); an `out` that
/// cannot be written is an error.
pub fn run(
    task: &Task,
    input: &Path,
    pool: &rayon::ThreadPool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<Summary, BatchError> {
    use rayon::prelude::*;
    let name = input.display().to_string();
    let mut summary = Summary::default();
    if let Some(h) = task.header() {
        writeln!(out, "{h}")?;
    }
    let mut reader = PuzzleReader::open(input).map_err(BatchError::Read)?;
    let mut chunk: Vec<Result<Entry, ReadError>> = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        chunk.extend(reader.by_ref().take(CHUNK));
        if chunk.is_empty() {
            break;
        }
        // The input itself failing ends the reading: what came before is still handled.
        let failed = match chunk.last() {
            Some(Err(ReadError::Io { .. })) => chunk.pop(),
            _ => None,
        };
        let done: Vec<Result<String, String>> = pool.install(|| {
            chunk
                .par_iter()
                .with_max_len(8)
                .map(|item| match item {
                    Ok(entry) => task
                        .line(entry)
                        .map_err(|why| format!("{name}:{}: {why}", entry.line)),
                    Err(e) => Err(e.to_string()),
                })
                .collect()
        });
        for result in done {
            match result {
                Ok(line) => {
                    writeln!(out, "{line}")?;
                    summary.done += 1;
                }
                Err(report) => {
                    out.flush()?;
                    let _ = writeln!(err, "{report}");
                    summary.bad += 1;
                }
            }
        }
        if let Some(Err(e)) = failed {
            out.flush()?;
            return Err(BatchError::Read(e));
        }
    }
    out.flush()?;
    Ok(summary)
}
