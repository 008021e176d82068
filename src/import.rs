//! `import`: a user's own puzzle file graded into a bank, as a build stores the puzzles it
//! makes. Each puzzle is checked for one solution, put in canonical form, dropped when its
//! class is in the bank already (or earlier in the file), rated on the canonical form, given
//! its percentile and level, and stored with its provenance: the file and the line.
//!
//! An import is a bookkeeping row of the bank's builds whose jobs are the file's lines
//! (`store::builds::start_import`): each batch commits its rows with the line it reached, in
//! one transaction, so an interrupted import keeps what it committed and the same command
//! resumes after it. The row is named by the file's blake3 digest, so a file moved or renamed
//! is still the same import and a file that changed is a new one. Nothing depends on timing or
//! on the thread count: the same file gives the same rows.

use crate::bank::job::Rated;
use crate::canon::{self, Canonical};
use crate::grid::{Grid, ParseError, Puzzle};
use crate::input::{PuzzleReader, ReadError};
use crate::levels::{calibrate, Levels, LevelsError, RatingKind};
use crate::rate::Graded;
use crate::solve::Solutions;
use crate::store::{self, builds::NewBuild, Build, NewPuzzle, StoreError};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Entries read, checked and rated between two commits, by default.
pub const BATCH: usize = 2048;

/// What to import, and where.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The bank (created when missing).
    pub db: PathBuf,
    /// The puzzle file (the formats `rate` reads: a puzzle a line, or nine-line grids).
    pub file: PathBuf,
    /// The rating a new bank's percentiles and levels use (`None`: the bank's, or
    /// `difficulty` for a new bank).
    pub rating: Option<RatingKind>,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// When another process is writing to the bank, wait for it instead of stopping.
    pub wait: bool,
    /// Entries read, checked and rated between two commits ([`BATCH`]).
    pub batch: usize,
}

/// Why an entry of the file was not stored (a duplicate is counted, not reported).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Skip {
    /// The line is not a puzzle.
    #[error(transparent)]
    Bad(#[from] ParseError),
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has two solutions or more.
    #[error("the puzzle has more than one solution")]
    Several,
}

/// An entry of the file that was not stored: its line (1-based) and why. Displays as
/// `FILE:LINE: reason` with [`Skipped::at`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The line.
    pub line: u64,
    /// Why.
    pub why: Skip,
}

impl Skipped {
    /// `FILE:LINE: reason`.
    pub fn at(&self, file: &Path) -> String {
        format!("{}:{}: {}", file.display(), self.line, self.why)
    }
}

/// How an import went (so far, while it runs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Its bookkeeping row's id.
    pub build_id: i64,
    /// The file's lines.
    pub lines: u64,
    /// The line the import started at (1, or after what an interrupted import committed).
    pub from_line: u64,
    /// The line after the last one read.
    pub next_line: u64,
    /// Puzzles stored, by this import as a whole (an interrupted run's included).
    pub stored: u64,
    /// Puzzles whose class the bank (or the file, earlier) already held.
    pub duplicates: u64,
    /// Entries skipped (bad lines, puzzles without exactly one solution), as a whole.
    pub skipped: u64,
    /// The entries this run skipped, in line order.
    pub problems: Vec<Skipped>,
    /// True when the file was imported whole before: nothing was done.
    pub already: bool,
    /// True when the import stopped early (on `stop`); the same call resumes it.
    pub stopped: bool,
}

/// What can stop an import.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The bank failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank's levels could not be read or made.
    #[error(transparent)]
    Levels(#[from] LevelsError),
    /// The file could not be read.
    #[error("{}: {error}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The worker threads could not start.
    #[error("starting the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The bank holds a shard of a build.
    #[error("this bank holds shard {0}/{1} of a build: import into the merged bank")]
    IsShard(u64, u64),
    /// A puzzle with one solution could not be rated.
    #[error("{}:{line}: could not be rated: {reason}", path.display())]
    Rate {
        /// The file.
        path: PathBuf,
        /// The line.
        line: u64,
        /// Why.
        reason: String,
    },
}

/// Imports `opts.file` into `opts.db`, calling `progress` after each committed batch; stops
/// after the batch in flight when `stop` is set (what was committed stays, and the same call
/// resumes).
pub fn import(
    opts: &ImportOptions,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Imported),
) -> Result<Imported, ImportError> {
    let file_error = |error| ImportError::File {
        path: opts.file.clone(),
        error,
    };
    let (digest, lines) = digest(&opts.file).map_err(file_error)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()?;
    let _lock = store::lock::WriterLock::acquire(&opts.db, "import", opts.wait)?;
    let mut conn = store::open(&opts.db)?;
    if let Some(row) = store::shards::read(&conn)? {
        return Err(ImportError::IsShard(row.shard, row.shards));
    }
    let levels = calibrate::ensure(&mut conn, opts.rating)?;
    pool.install(|| calibrate::backfill(&mut conn, &levels))?;
    let arguments = format!("import blake3:{digest}");
    if let Some(done) = store::builds::finished(&conn, &arguments)? {
        return Ok(Imported {
            build_id: done.id,
            lines,
            from_line: lines + 1,
            next_line: lines + 1,
            stored: done.stored,
            duplicates: done.duplicates,
            skipped: done.rejected,
            already: true,
            ..Imported::default()
        });
    }
    let new = NewBuild {
        arguments: &arguments,
        rng_seed: 0,
        count: lines,
        rater: crate::rate::RATER,
    };
    let source = opts.file.display().to_string();
    let mut build = store::builds::start_import(&conn, &new, &source)?;
    let mut seen = store::puzzles::keys(&conn)?;
    let mut done = Imported {
        build_id: build.id,
        lines,
        from_line: build.next_job,
        next_line: build.next_job,
        stored: build.stored,
        duplicates: build.duplicates,
        skipped: build.rejected,
        ..Imported::default()
    };
    let mut reader = PuzzleReader::open(&opts.file).map_err(|e| match e {
        ReadError::Io { source, .. } => file_error(source),
        ReadError::Line(_) => unreachable!("opening reads no line"),
    })?;
    loop {
        if stop.load(Ordering::Relaxed) {
            done.stopped = true;
            break;
        }
        let (entries, end) =
            next_batch(&mut reader, build.next_job, opts.batch.max(1)).map_err(file_error)?;
        if entries.is_empty() && end.is_none() {
            break;
        }
        let rows = pool.install(|| grade(&opts.file, entries, &levels, &mut seen, &mut done))?;
        let reached = end.unwrap_or(lines + 1).max(build.next_job);
        build = Build {
            next_job: reached,
            stored: done.stored + rows.len() as u64,
            duplicates: done.duplicates,
            rejected: done.skipped,
            ..build
        };
        store::puzzles::insert_batch(&mut conn, &build, &rows)?;
        done.stored = build.stored;
        done.next_line = reached;
        progress(&done);
        if end.is_none() {
            break;
        }
    }
    store::puzzles::ensure_indexes(&conn, levels.rating)?;
    if !done.stopped {
        store::builds::finish(&conn, build.id)?;
    }
    Ok(done)
}

/// One entry read from the file: its line and the puzzle, or why it is not one.
type Entry = (u64, Result<Puzzle, ParseError>);

/// The next `batch` entries at or after line `from`, and the line after the last one read
/// (`None` at the end of the file).
fn next_batch<R: std::io::BufRead>(
    reader: &mut PuzzleReader<R>,
    from: u64,
    batch: usize,
) -> std::io::Result<(Vec<Entry>, Option<u64>)> {
    let mut entries = Vec::with_capacity(batch);
    while entries.len() < batch {
        let entry = match reader.next() {
            None => return Ok((entries, None)),
            Some(Ok(e)) => (e.line as u64, Ok(e.puzzle)),
            Some(Err(ReadError::Line(bad))) => (bad.line as u64, Err(bad.error)),
            Some(Err(ReadError::Io { source, .. })) => return Err(source),
        };
        if entry.0 >= from {
            entries.push(entry);
        }
    }
    let last = entries.last().map_or(from, |e| e.0);
    Ok((entries, Some(last + 1)))
}

/// A puzzle with one solution, in canonical form, not rated yet.
struct Checked {
    line: u64,
    puzzle: Puzzle,
    solution: Grid,
    canon: Canonical,
}

/// The rows of a batch: every entry checked (in parallel), the duplicates dropped (in line
/// order, against `seen`, which learns the new classes), the rest rated and levelled (in
/// parallel). Counts and skipped entries go to `done`.
fn grade(
    file: &Path,
    entries: Vec<Entry>,
    levels: &Levels,
    seen: &mut HashSet<u128>,
    done: &mut Imported,
) -> Result<Vec<NewPuzzle>, ImportError> {
    let checked: Vec<Result<Checked, Skipped>> = entries
        .into_par_iter()
        .map(|(line, read)| {
            let skip = |why| Skipped { line, why };
            let puzzle = read.map_err(|e| skip(Skip::Bad(e)))?;
            match crate::solve::solve(&puzzle) {
                Solutions::None => Err(skip(Skip::NoSolution)),
                Solutions::Multiple(_) => Err(skip(Skip::Several)),
                Solutions::Unique(solution) => Ok(Checked {
                    line,
                    puzzle,
                    solution,
                    canon: canon::canonical(&puzzle),
                }),
            }
        })
        .collect();
    let mut fresh = Vec::new();
    for c in checked {
        match c {
            Err(skipped) => {
                done.skipped += 1;
                done.problems.push(skipped);
            }
            Ok(c) => {
                if seen.insert(store::puzzles::key_prefix(&c.canon.key())) {
                    fresh.push(c);
                } else {
                    done.duplicates += 1;
                }
            }
        }
    }
    fresh
        .into_par_iter()
        .map(|c| {
            let line = c.line;
            let graded =
                Graded::new(c.puzzle, c.solution, c.canon).map_err(|e| ImportError::Rate {
                    path: file.to_path_buf(),
                    line,
                    reason: e.to_string(),
                })?;
            let r = &graded.rating;
            let percentile = levels.percentile(r.difficulty, r.hsolve);
            let (level, named) = levels.grade(&graded.puzzle, r);
            Ok(NewPuzzle::from(Rated {
                job: line,
                seed_id: None,
                transform: None,
                graded,
                percentile,
                level,
                named,
            }))
        })
        .collect()
}

/// The file's blake3 digest (hex) and its number of lines.
fn digest(path: &Path) -> std::io::Result<(String, u64)> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = blake3::Hasher::new();
    let mut buf = vec![0u8; 1 << 16];
    let (mut lines, mut last) = (0u64, b'\n');
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        last = buf[n - 1];
    }
    if last != b'\n' {
        lines += 1;
    }
    Ok((hasher.finalize().to_hex().to_string(), lines))
}
