//! Batch commands over puzzle inputs (`solve`, `rate`, `canon`): every puzzle of a file or of
//! standard input processed, one output line per good puzzle in input order, and every bad
//! line (one that does not parse, or a puzzle the task cannot handle) reported as
//! `FILE:LINE: reason` while the rest goes on.
//!
//! The input is read and parsed in chunks of [`CHUNK`] entries on a thread of its own, at most
//! two chunks ahead; each chunk is processed on the worker threads in pieces of a few entries
//! and written in input order. Memory stays bounded whatever the input's length, and the
//! reading overlaps the work.

pub use crate::input::{read_puzzle_file, AnyReader, Entry, LineError, PuzzleReader, ReadError};

use crate::canon;
use crate::levels::Levels;
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
    /// Rate: a TSV header, then a [`crate::rate::Report`] line per puzzle, or JSON lines.
    Rate {
        /// Runs per puzzle for both ratings (`None`: each rating's default).
        runs: Option<u32>,
        /// JSON lines instead of TSV.
        json: bool,
        /// The levels each puzzle is named on: a bank's (its level model's when it has one,
        /// else its rating's ranges; `None`: the default levels of `difficulty`).
        levels: Option<Box<Levels>>,
    },
    /// The next step for a player: `puzzle TAB technique TAB nudge TAB hint TAB move`, or JSON
    /// lines ([`crate::hint::Hint::to_json`]). A line may carry the player's entries after the
    /// puzzle (81 characters, `.` or `0` empty); other columns are ignored.
    Hint {
        /// JSON lines instead of TSV.
        json: bool,
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
    /// The thread reading the input could not be started.
    #[error("starting the input reader")]
    Thread(#[source] io::Error),
}

/// Why one puzzle of a batch cannot be handled: reported as a bad line, and the rest goes on.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// It cannot be rated.
    #[error(transparent)]
    Rate(#[from] crate::rate::hsolve::RateError),
    /// No hint can be given on it.
    #[error(transparent)]
    Hint(#[from] crate::hint::HintError),
    /// It has no solution (to canonicalize).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// It has more than one (to canonicalize).
    #[error("the puzzle has more than one solution")]
    NotUnique,
}

/// The most worker threads per core a command (`--threads`) or a library call accepts.
pub const THREADS_PER_CORE: usize = 4;

/// `n` worker threads if this machine takes them: 0 (every core) up to
/// [`THREADS_PER_CORE`] per core; else why not.
pub fn check_threads(n: usize) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = THREADS_PER_CORE * cores;
    if n > max {
        return Err(format!(
            "{n} threads is too many: this machine has {cores} cores, so at most {max} \
             ({THREADS_PER_CORE} per core); 0 uses every core"
        ));
    }
    Ok(n)
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
    /// The command that runs the task (`solve`, `rate`, `hint`, `canon`).
    pub fn name(&self) -> &'static str {
        match self {
            Task::Solve { .. } => "solve",
            Task::Rate { .. } => "rate",
            Task::Hint { .. } => "hint",
            Task::Canon { .. } => "canon",
        }
    }

    /// The line written before the results, if any.
    pub fn header(&self) -> Option<&'static str> {
        match self {
            Task::Rate { json: false, .. } => Some(crate::rate::TSV_HEADER),
            Task::Hint { json: false } => Some("puzzle\ttechnique\tnudge\thint\tmove"),
            _ => None,
        }
    }

    /// Appends the output line of one puzzle (no newline) to `out`, or says why the puzzle
    /// cannot be handled (then `out` is left as it was). A rating shares its hard searches
    /// with the other ratings made through `shared` (a worker's).
    pub fn write_line(
        &self,
        entry: &Entry,
        out: &mut String,
        shared: &crate::rate::SharedSearches,
    ) -> Result<(), TaskError> {
        use std::fmt::Write as _;
        let p = entry.puzzle;
        let start = out.len();
        out.push_str(p.line_str(&mut [0; 81]));
        out.push('\t');
        match self {
            Task::Solve { count: true } => {
                out.push(char::from(
                    b'0' + crate::solve::count_solutions(&p, 2) as u8,
                ));
            }
            Task::Solve { count: false } => match solve(&p) {
                Solutions::Unique(g) => out.push_str(g.as_puzzle().line_str(&mut [0; 81])),
                Solutions::Multiple(_) => out.push_str("multiple"),
                Solutions::None => out.push_str("none"),
            },
            Task::Rate { runs, json, levels } => {
                out.truncate(start);
                let rating = crate::rate::rate_sharing(&p, *runs, shared)?;
                let level = match levels {
                    Some(l) => l
                        .set
                        .name(l.level(&p, &rating) as usize)
                        .unwrap_or_default()
                        .to_string(),
                    None => rating.default_level(),
                };
                let r = crate::rate::Report::new(&p, &rating, level);
                out.push_str(&if *json { r.to_json() } else { r.to_tsv() });
            }
            Task::Hint { json } => {
                let mut board = crate::hint::Board::new(p);
                // The player's entries: a column of digits and dots after the puzzle (checked
                // as a board); any other column (a level's name) is ignored.
                let entries = entry
                    .rest
                    .split_whitespace()
                    .next()
                    .filter(|t| t.bytes().all(|b| b == b'.' || b.is_ascii_digit()));
                if let Some(entries) = entries {
                    board = board.with_entries(entries).inspect_err(|_| {
                        out.truncate(start);
                    })?;
                }
                let h = crate::hint::hint(&board).inspect_err(|_| {
                    out.truncate(start);
                })?;
                if *json {
                    out.truncate(start);
                    out.push_str(&h.to_json());
                } else {
                    out.push_str(&h.to_tsv());
                }
            }
            Task::Canon { grid, json } => {
                let c = if *grid {
                    match solve(&p) {
                        Solutions::Unique(g) => canon::canonical_grid(&g),
                        Solutions::None => {
                            out.truncate(start);
                            return Err(TaskError::NoSolution);
                        }
                        Solutions::Multiple(_) => {
                            out.truncate(start);
                            return Err(TaskError::NotUnique);
                        }
                    }
                } else {
                    canon::canonical(&p)
                };
                if *json {
                    out.truncate(start);
                    let line = serde_json::to_string(&CanonLine {
                        input: p.to_line(),
                        canonical: c.to_line(),
                        key: c.key().to_hex(),
                        automorphisms: c.automorphisms,
                    })
                    .expect("serializable");
                    out.push_str(&line);
                } else {
                    out.push_str(c.line_str(&mut [0; 81]));
                    out.push('\t');
                    out.push_str(c.key().hex_str(&mut [0; 64]));
                    let _ = write!(out, "\t{}", c.automorphisms);
                }
            }
        }
        Ok(())
    }
}

/// The results of a few consecutive entries, in order: runs of output lines, and reports.
enum Piece {
    /// Output lines, each ending in a newline, and how many.
    Lines(String, u64),
    /// A bad line's report.
    Bad(String),
}

/// Entries read and processed at a time. At most three chunks are held (one worked on, two
/// read ahead), so a run's memory stops growing with its input after a few thousand entries;
/// a chunk still keeps each of two workers busy for a thousand easy ratings or a hundred hard
/// ones between the waits at its end.
pub const CHUNK: usize = 1024;

/// Entries handed to a thread at a time: few, as puzzles vary in cost by 100x and a thread
/// left with the slow half of a chunk would idle the others.
const PIECE: usize = 8;

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
    run_with_progress(task, input, pool, out, err, &|_| {})
}

/// [`run`], calling `progress(lines)` with the puzzles handled so far (good and bad) after
/// every chunk.
pub fn run_with_progress(
    task: &Task,
    input: &Path,
    pool: &rayon::ThreadPool,
    out: &mut impl Write,
    err: &mut impl Write,
    progress: &dyn Fn(u64),
) -> Result<Summary, BatchError> {
    use rayon::prelude::*;
    let name = input.display().to_string();
    let mut summary = Summary::default();
    if let Some(h) = task.header() {
        writeln!(out, "{h}")?;
    }
    let mut reader = PuzzleReader::open(input).map_err(BatchError::Read)?;
    // Reading and parsing run on a thread of their own, at most two chunks ahead of the work
    // and the writing: memory stays bounded, and neither waits for the other.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Result<Entry, ReadError>>>(1);
    let feeder = std::thread::Builder::new()
        .name("pseudoku-reader".into())
        .spawn(move || loop {
            let chunk: Vec<_> = reader.by_ref().take(CHUNK).collect();
            // An empty chunk is the end; a failed send, the work has stopped.
            if chunk.is_empty() || tx.send(chunk).is_err() {
                break;
            }
        })
        .map_err(BatchError::Thread)?;
    // The hard searches the workers' ratings share.
    let shared = crate::rate::SharedSearches::default();
    for mut chunk in rx {
        // The input itself failing ends the reading: what came before is still handled.
        let failed = match chunk.last() {
            Some(Err(ReadError::Io { .. })) => chunk.pop(),
            _ => None,
        };
        let done: Vec<Vec<Piece>> = pool.install(|| {
            chunk
                .par_chunks(PIECE)
                .with_max_len(1)
                .map(|items| {
                    let mut pieces: Vec<Piece> = Vec::new();
                    for item in items {
                        let report = match item {
                            Ok(entry) => {
                                if !matches!(pieces.last(), Some(Piece::Lines(..))) {
                                    pieces.push(Piece::Lines(String::new(), 0));
                                }
                                let Some(Piece::Lines(text, n)) = pieces.last_mut() else {
                                    unreachable!("a run of lines was just pushed")
                                };
                                match task.write_line(entry, text, &shared) {
                                    Ok(()) => {
                                        text.push('\n');
                                        *n += 1;
                                        continue;
                                    }
                                    Err(why) => format!("{name}:{}: {why}", entry.line),
                                }
                            }
                            Err(e) => e.to_string(),
                        };
                        if matches!(pieces.last(), Some(Piece::Lines(_, 0))) {
                            pieces.pop();
                        }
                        pieces.push(Piece::Bad(report));
                    }
                    pieces
                })
                .collect()
        });
        for piece in done.into_iter().flatten() {
            match piece {
                Piece::Lines(text, n) => {
                    out.write_all(text.as_bytes())?;
                    summary.done += n;
                }
                Piece::Bad(report) => {
                    out.flush()?;
                    let _ = writeln!(err, "{report}");
                    summary.bad += 1;
                }
            }
        }
        progress(summary.done + summary.bad);
        if let Some(Err(e)) = failed {
            out.flush()?;
            return Err(BatchError::Read(e));
        }
    }
    if let Err(panic) = feeder.join() {
        std::panic::resume_unwind(panic);
    }
    out.flush()?;
    Ok(summary)
}
