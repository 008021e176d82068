//! `import`: a user's own puzzle file graded into a bank, as a build stores the puzzles it
//! makes. Each puzzle is checked for one solution, put in canonical form, dropped when its
//! class is in the bank already (or earlier in the file), rated on the canonical form, given
//! its percentile and level, and stored with its provenance: the file and the line.
//!
//! An import is a bookkeeping row of the bank's builds whose jobs are the file's lines
//! (`store::builds::start_import`): each batch commits its rows with the line it reached, in
//! one transaction, so an interrupted import keeps what it committed and the same command
//! resumes after it. The row is named by the file's blake3 digest, so a file moved or renamed
//! is still the same import and a file that changed is a new one. A stream (standard input, a
//! pipe, a FIFO) is copied whole into a temporary file beside the bank first, its digest taken
//! on the way, and imported from there: the same content sent again resumes alike. A stop
//! (Ctrl-C) ends the batch in flight within a puzzle's rating: what was graded in line order
//! up to the first entry not finished is committed, and the rest is read again on resuming.
//! Nothing depends on timing or on the thread count: the same file gives the same rows.

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
    let input = Input::open(&opts.file, &opts.db).map_err(file_error)?;
    let (digest, lines) = (input.digest.clone(), input.lines);
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
    let source = source_name(&opts.file);
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
    let file = std::fs::File::open(input.path()).map_err(file_error)?;
    let mut reader = PuzzleReader::new(
        opts.file.display().to_string(),
        std::io::BufReader::with_capacity(1 << 16, file),
    );
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
        let graded = pool.install(|| grade(&opts.file, entries, &levels, &mut seen, stop))?;
        let mut rows = Vec::new();
        for (line, outcome) in graded.outcomes {
            match outcome {
                Fate::Stored(row) => rows.push(*row),
                Fate::Duplicate => done.duplicates += 1,
                Fate::Skipped(why) => {
                    done.skipped += 1;
                    done.problems.push(Skipped { line, why });
                }
            }
        }
        let reached = match graded.cut {
            // Stopped within the batch: its first entry not finished is read again.
            Some(line) => line,
            None => end.unwrap_or(lines + 1),
        }
        .max(build.next_job);
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
        if graded.cut.is_some() {
            done.stopped = true;
            break;
        }
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
    puzzle: Puzzle,
    solution: Grid,
    canon: Canonical,
}

/// What became of an entry of the file.
enum Fate {
    /// Rated and levelled: its row.
    Stored(Box<NewPuzzle>),
    /// Its class was in the bank, or earlier in the file.
    Duplicate,
    /// Not stored, and why.
    Skipped(Skip),
}

/// A batch graded: its entries' outcomes in line order, up to the first one a stop left
/// unfinished (`cut`, its line), if a stop did.
struct Batch {
    outcomes: Vec<(u64, Fate)>,
    cut: Option<u64>,
}

/// The outcomes of a batch: every entry checked (in parallel), the duplicates dropped (in
/// line order, against `seen`, which learns the new classes), the rest rated and levelled (in
/// parallel). Once `stop` is set no entry starts: the outcomes end before the first entry in
/// line order that was not finished.
fn grade(
    file: &Path,
    entries: Vec<Entry>,
    levels: &Levels,
    seen: &mut HashSet<u128>,
    stop: &AtomicBool,
) -> Result<Batch, ImportError> {
    let stopped = || stop.load(Ordering::Relaxed);
    let checked: Vec<(u64, Option<Result<Checked, Skip>>)> = entries
        .into_par_iter()
        .map(|(line, read)| {
            if stopped() {
                return (line, None);
            }
            let checked =
                read.map_err(Skip::Bad)
                    .and_then(|puzzle| match crate::solve::solve(&puzzle) {
                        Solutions::None => Err(Skip::NoSolution),
                        Solutions::Multiple(_) => Err(Skip::Several),
                        Solutions::Unique(solution) => Ok(Checked {
                            puzzle,
                            solution,
                            canon: canon::canonical(&puzzle),
                        }),
                    });
            (line, Some(checked))
        })
        .collect();
    let mut cut = None;
    let mut outcomes = Vec::with_capacity(checked.len());
    let mut fresh = Vec::new();
    for (line, c) in checked {
        match c {
            None => {
                cut = Some(line);
                break;
            }
            Some(Err(why)) => outcomes.push((line, Some(Fate::Skipped(why)))),
            Some(Ok(c)) => {
                if seen.insert(store::puzzles::key_prefix(&c.canon.key())) {
                    outcomes.push((line, None));
                    fresh.push((line, c));
                } else {
                    outcomes.push((line, Some(Fate::Duplicate)));
                }
            }
        }
    }
    let rated: Vec<Option<NewPuzzle>> = fresh
        .into_par_iter()
        .map(|(line, c)| {
            if stopped() {
                return Ok(None);
            }
            let graded =
                Graded::new(c.puzzle, c.solution, c.canon).map_err(|e| ImportError::Rate {
                    path: file.to_path_buf(),
                    line,
                    reason: e.to_string(),
                })?;
            let r = &graded.rating;
            let percentile = levels.percentile(r.difficulty, r.hsolve);
            let (level, named) = levels.grade(&graded.puzzle, r);
            Ok(Some(NewPuzzle::from(Rated {
                job: line,
                seed_id: None,
                transform: None,
                graded,
                percentile,
                level,
                named,
            })))
        })
        .collect::<Result<_, ImportError>>()?;
    let mut rated = rated.into_iter();
    let mut done = Vec::with_capacity(outcomes.len());
    for (line, outcome) in outcomes {
        let outcome = match outcome {
            Some(o) => o,
            None => match rated.next().flatten() {
                Some(row) => Fate::Stored(Box::new(row)),
                None => {
                    cut = Some(line);
                    break;
                }
            },
        };
        done.push((line, outcome));
    }
    Ok(Batch {
        outcomes: done,
        cut,
    })
}

/// The name an imported puzzle's provenance keeps of `file`: as given when relative (to the
/// working folder, where the import ran), the part under the working folder when absolute and
/// within it, else the file name alone; no server shows a client where the importer's files
/// lie.
fn source_name(file: &Path) -> String {
    if file.is_relative() {
        return file.display().to_string();
    }
    let within = std::env::current_dir()
        .ok()
        .and_then(|cwd| file.strip_prefix(cwd).ok().map(Path::to_path_buf));
    match within {
        Some(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => file
            .file_name()
            .map_or_else(|| "-".to_string(), |n| n.to_string_lossy().into_owned()),
    }
}

/// The file an import reads: the file itself, or for a stream (standard input as `-`, a pipe,
/// a FIFO, a device) a temporary copy of it beside the bank, removed when dropped; with its
/// blake3 digest (hex) and its number of lines.
struct Input {
    path: PathBuf,
    /// The copy of a stream, kept while the import reads it.
    _copy: Option<tempfile::TempPath>,
    digest: String,
    lines: u64,
}

impl Input {
    fn open(file: &Path, db: &Path) -> std::io::Result<Input> {
        let stream = file.as_os_str() == "-" || !std::fs::metadata(file)?.is_file();
        if !stream {
            let (digest, lines) = digest(&mut std::fs::File::open(file)?, None)?;
            return Ok(Input {
                path: file.to_path_buf(),
                _copy: None,
                digest,
                lines,
            });
        }
        let folder = match db.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut copy = tempfile::Builder::new()
            .prefix(".pseudoku-import-")
            .tempfile_in(folder)?;
        let (digest, lines) = if file.as_os_str() == "-" {
            digest(&mut std::io::stdin().lock(), Some(copy.as_file_mut()))?
        } else {
            digest(&mut std::fs::File::open(file)?, Some(copy.as_file_mut()))?
        };
        copy.as_file_mut().sync_all()?;
        let path = copy.into_temp_path();
        Ok(Input {
            path: path.to_path_buf(),
            _copy: Some(path),
            digest,
            lines,
        })
    }

    /// The file to read.
    fn path(&self) -> &Path {
        &self.path
    }
}

/// The blake3 digest (hex) of what `from` holds and its number of lines (as the puzzle
/// reader counts them), copying it to `copy` on the way if given.
fn digest(
    from: &mut impl Read,
    mut copy: Option<&mut std::fs::File>,
) -> std::io::Result<(String, u64)> {
    use std::io::Write;
    let mut hasher = blake3::Hasher::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut lines = crate::input::LineCount::default();
    loop {
        let n = match from.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        lines.update(&buf[..n]);
        if let Some(copy) = copy.as_mut() {
            copy.write_all(&buf[..n])?;
        }
    }
    Ok((hasher.finalize().to_hex().to_string(), lines.lines()))
}
