//! Daily batches for publishers (`pseudoku export`): a mix of levels per day over a range of
//! dates, never repeating a puzzle, reproducible, written in the formats a pipeline takes.
//!
//! # Rules
//!
//! - **Never repeat**: every exported puzzle is recorded in the `batches` table with its class
//!   key (UNIQUE, replaced rows included) and is marked served, so neither a later export nor
//!   `get` hands out it or any member of its class again.
//! - **Idempotent**: a date already exported is written again from its record, byte for byte;
//!   `--replace` retires its puzzles (they stay used) and draws new ones.
//! - **Variety**: within a day and within any 7-day window, no two puzzles share a seed or a
//!   solution-grid class (the canonical form of the solution grid).
//! - **Short bank**: when a level cannot fill its slots, the export says which level, how
//!   many puzzles and from which date, and writes and records nothing (unless
//!   `--allow-partial`, which leaves those slots empty).
//!
//! # Crash safety
//!
//! An export holds a lock on the output folder (`.pseudoku-export.lock`, released by the
//! system when the process ends) and runs as one write transaction (`BEGIN IMMEDIATE`, with
//! `synchronous = FULL` so the commit survives a power loss): the puzzles are chosen and
//! recorded (with their rating and percentile, so a date is re-exported identically even
//! after `calibrate`), the files are written under temporary names
//! (`.pseudoku-NAME.tmp`) and flushed to disk with the folder, their names and blake3 hashes
//! are recorded (`export_files`), the transaction commits, and only then are the files renamed
//! into place (and the folder flushed again). A crash before the commit leaves no record and
//! no final file; a crash between the commit and the renames leaves complete, recorded files
//! under their temporary names. The next export into the folder settles both: a temporary
//! file whose bytes match the latest record of its name is renamed into place (the crashed
//! export is completed), any other is removed. Besides, a recorded date is always reproduced
//! from its record, identical.
//!
//! # Files
//!
//! `mix` (a day's mix and its slots), `variety` (the variety rule), `commit` (the crash-safe
//! writing above, shared with `book`), `formats` (the files), `pages` (printed pages),
//! `paper` (the sheet), `pdf` and `html` (the writers), `single` (a file per puzzle), `book`
//! and `cover`, `preflight` (a printed file against the print-on-demand rules); this file
//! runs an export from its options to its report.

internal! {
    book;
    cover;
    formats;
    html;
    pages;
    paper;
    pdf;
    single;
}
mod commit;
mod mix;
pub mod preflight;
mod variety;

pub use crate::calendar::Date;
pub use book::{book, BookOptions, MAX_PER_BOOK};
pub use pages::{check_isbn, Matter, Palette, Part, PrintOptions, SolutionLayout, Typeface};
pub use paper::{Length, PageSize, Stock};

use crate::grid::{Grid, Puzzle};
use crate::retrieve::RetrieveError;
use crate::rng::Rng;
pub use crate::store::batches::Edition;
use crate::store::{self, Bank, StoreError};
#[cfg(any(feature = "dev", feature = "fault-injection"))]
pub use commit::CRASH_AFTER_COMMIT;
pub use commit::TEMP_PREFIX;
pub(crate) use commit::{in_locked_folder, in_transaction, settle_temporaries, write_recorded};
pub(crate) use mix::recorded_mix;
pub use mix::{Mix, MixItem, Schedule, MAX_PER_DAY, RAMP};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
pub(crate) use variety::grid_key;
use variety::{choose, recorded, DayPuzzle};
pub use variety::{MAX_VARIETY_DAYS, VARIETY_DAYS};

/// One exported puzzle, as the files show it (its ratings and percentile as recorded when it
/// was first exported).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Exported {
    /// The day it is published (a book's puzzles have none; files show an empty date).
    #[serde(serialize_with = "day_text")]
    pub date: Option<Date>,
    /// Its slot in the day, from 1.
    pub slot: u32,
    /// Its level (or band) as the mix named it.
    pub level: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// Its `difficulty` when it was exported (`None` if it had none yet).
    pub difficulty: Option<f64>,
    /// Its hsolve rating when it was exported.
    pub hsolve: f64,
    /// Its percentile when it was exported.
    pub percentile: f64,
    /// Its row id in the bank.
    pub id: i64,
    /// Its number in the bank's daily series ("No. N" in print, `number` in `GET /v1/daily`):
    /// a daily puzzle's, given when its date was first recorded; a book's puzzles have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
}

/// `d` as files show it: `YYYY-MM-DD`, or nothing for a book's puzzle.
pub(crate) struct OnDay(pub Option<Date>);

impl std::fmt::Display for OnDay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(d) => write!(f, "{d}"),
            None => Ok(()),
        }
    }
}

/// Serializes an exported puzzle's date as its files show it ([`OnDay`]).
fn day_text<S: serde::Serializer>(d: &Option<Date>, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(&OnDay(*d))
}

impl Exported {
    /// The rating a printed puzzle shows: `difficulty 3.1`, or `hsolve 250` for a puzzle
    /// exported before it had a `difficulty`.
    pub fn shown_rating(&self) -> String {
        match self.difficulty {
            Some(d) => format!("difficulty {d}"),
            None => format!("hsolve {}", self.hsolve),
        }
    }
}

/// What can go wrong in an export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank's levels cannot be read.
    #[error(transparent)]
    Levels(#[from] crate::levels::LevelsError),
    /// A file or folder could not be written or read.
    #[error("{}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The mix does not parse or names no level of the bank.
    #[error("{0}")]
    Mix(String),
    /// An option is out of range.
    #[error("{0}")]
    Option(String),
    /// A date was exported with another mix.
    #[error(
        "{date} was exported with the mix {mix}; export it with that mix, or draw new puzzles \
         with --replace"
    )]
    MixChanged {
        /// The date.
        date: Date,
        /// Its recorded mix.
        mix: String,
    },
    /// A book was recorded with another mix.
    #[error(
        "the book {name} was recorded with the mix {mix}; write it with that mix, or draw it \
         anew with --replace"
    )]
    BookMixChanged {
        /// The book's name.
        name: String,
        /// Its recorded mix.
        mix: String,
    },
    /// The PDF writer failed.
    #[error(transparent)]
    Pdf(#[from] pdf::PdfError),
    /// A puzzle could not be handed out (a damaged bank).
    #[error(transparent)]
    Retrieve(#[from] RetrieveError),
}

impl ExportError {
    /// An I/O error on `path`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
        move |source| ExportError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The export's result type.
pub type Result<T> = std::result::Result<T, ExportError>;

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tab-separated text: the puzzles, then a solutions section.
    Txt,
    /// CSV with a header; solutions in the same rows.
    Csv,
    /// One JSON document; solutions in the same objects.
    Json,
    /// The common .sdk layout (`#` header lines, nine rows of nine); solutions in a second
    /// file.
    Sdk,
    /// Printable HTML: the PDF's pages, with print CSS.
    Html,
    /// A printable PDF: the puzzles, then their solutions (see `pages`).
    Pdf,
    /// One SVG drawing per grid (and one per solution), for newspapers.
    Svg,
    /// One EPS drawing per grid (and one per solution), for newspapers.
    Eps,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 8] = [
        Format::Txt,
        Format::Csv,
        Format::Json,
        Format::Sdk,
        Format::Html,
        Format::Pdf,
        Format::Svg,
        Format::Eps,
    ];

    /// What it holds, in a line for people (the command line's help).
    pub fn about(self) -> &'static str {
        match self {
            Format::Txt => "Tab-separated text: the puzzles, then a solutions section",
            Format::Csv => "CSV with a header; solutions in the same rows",
            Format::Json => "One JSON document; solutions in the same objects",
            Format::Sdk => "The common .sdk layout; solutions in a second file",
            Format::Html => "Printable HTML: the PDF's pages, with print CSS",
            Format::Pdf => "A printable PDF: the puzzles, then their solutions",
            Format::Svg => "One SVG drawing per grid and per solution (newspapers)",
            Format::Eps => "One EPS drawing per grid and per solution (newspapers)",
        }
    }

    /// The file extension, which names the format (`--format`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Txt => "txt",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Sdk => "sdk",
            Format::Html => "html",
            Format::Pdf => "pdf",
            Format::Svg => "svg",
            Format::Eps => "eps",
        }
    }

    /// Whether it is laid out on printed pages (the print options apply).
    pub fn printed(self) -> bool {
        matches!(self, Format::Pdf | Format::Html)
    }

    /// Whether it can hold one grid per file (`--per-puzzle`).
    pub fn per_puzzle(self) -> bool {
        matches!(self, Format::Sdk | Format::Pdf | Format::Svg | Format::Eps)
    }

    /// Whether it is always one grid per file.
    pub fn single_grid(self) -> bool {
        matches!(self, Format::Svg | Format::Eps)
    }
}

/// What to export.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The first date.
    pub start: Date,
    /// The number of days.
    pub days: u32,
    /// The mix, as given.
    pub mix: String,
    /// The format.
    pub format: Format,
    /// The output folder.
    pub out: PathBuf,
    /// One file for the whole range instead of one per day.
    pub single_file: bool,
    /// Draw new puzzles for dates already exported (the old ones stay retired).
    pub replace: bool,
    /// Export what there is when a level runs short.
    pub allow_partial: bool,
    /// How printed pages (html, pdf) are laid out.
    pub print: pages::PrintOptions,
    /// One file per puzzle and one per solution (`DATE-SLOT`, a book's `NAME-NUMBER`) instead
    /// of one per day: sdk, pdf (a grid `print.grid_width` wide); svg and eps always are.
    pub per_puzzle: bool,
    /// The seed of the random choices.
    pub rng_seed: u64,
    /// The variety rule's window: no two puzzles from one seed or of one solution grid within
    /// any this many consecutive days (1: within a day).
    pub variety_days: u32,
    /// Only say whether the mix can be met over the range: nothing is recorded or written.
    pub check: bool,
}

/// A level that ran short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortage {
    /// The level or band.
    pub level: String,
    /// Puzzles missing.
    pub missing: u64,
    /// The first date missing one (for a book, the book).
    pub from: Edition,
    /// The puzzles of it the mix asks a day.
    pub per_day: u32,
    /// The puzzles of it still unserved when it ran short: none when the bank ran out; some
    /// when the variety rule kept every one of them out.
    pub unserved: u64,
    /// The seeds those come from (puzzles of a generator have none).
    pub seeds: u64,
}

impl Shortage {
    /// True when the variety rule, not the bank's size, ran it short: puzzles of it were
    /// left, each from a seed or of a solution grid used too recently.
    pub fn by_variety(&self) -> bool {
        self.unserved > 0
    }
}

/// What an export did.
#[derive(Clone, Debug, Default)]
pub struct ExportReport {
    /// Files written.
    pub files: Vec<PathBuf>,
    /// Puzzles in the files.
    pub puzzles: usize,
    /// Of those, newly drawn (the rest reproduced from earlier exports).
    pub new: usize,
    /// Levels that ran short (nothing was written unless partial exports were allowed).
    pub shortages: Vec<Shortage>,
    /// Dates whose recorded puzzles `--replace` retired, in date order.
    pub replaced: Vec<Replaced>,
    /// The puzzles the range asks for (the mix's slots times the days).
    pub asked: usize,
    /// Files of the replaced dates that an earlier export wrote and this one did not write
    /// again (another format), removed.
    pub removed: Vec<PathBuf>,
    /// Each printed file's preflight (`--check` of a pdf export or a book): nothing written.
    pub preflight: Vec<preflight::Preflight>,
    /// The printed files with pages holding a lone grid.
    pub lone: Vec<Lone>,
    /// Puzzles of a book drawn with a solution grid (up to symmetry) that an earlier puzzle of
    /// the book has: only once an entry had no unserved puzzle of a new grid left.
    pub repeated_grids: usize,
}

/// A printed file's pages that hold a lone grid where the layout holds more (a run of
/// puzzles of odd count on a 2-up page), for a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lone {
    /// The file's name.
    pub file: String,
    /// The printed page numbers.
    pub pages: Vec<usize>,
}

/// A date whose records `--replace` retired: what it had been exported with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    /// The date, or the book.
    pub edition: Edition,
    /// The mix it was recorded with.
    pub mix: String,
    /// The puzzles retired.
    pub puzzles: usize,
}

/// The printed pages' options checked: a page count a page the layout knows, a margin and a
/// gutter that leave room for a grid, a per-puzzle grid of a sensible width.
pub(crate) fn check_print(print: &pages::PrintOptions) -> Result<()> {
    if print.per_page.is_some_and(|n| !matches!(n, 1 | 2 | 4 | 6)) {
        return Err(ExportError::Option(
            "--per-page must be 1, 2, 4 or 6".into(),
        ));
    }
    if print.large_print && print.per_page.is_some_and(|n| n > 2) {
        return Err(ExportError::Option(
            "--large-print holds at most 2 puzzles a page: leave out --per-page or give 1 or 2"
                .into(),
        ));
    }
    if print.book && print.solutions.by_day() {
        return Err(ExportError::Option(format!(
            "--solutions {} prints a day's solutions with the days' puzzles: a book's are at the \
             back (compact, full or none)",
            print.solutions.name()
        )));
    }
    let page = print.page;
    let margin = print.margin.unwrap_or(page.default_margin());
    let gutter = print.gutter.unwrap_or(0.0);
    let narrow = page.width.min(page.height);
    if 2.0 * margin + gutter > narrow * 0.5 {
        return Err(ExportError::Option(format!(
            "--margin and --gutter leave less than half of the page's width ({} by {}) to print on",
            paper::Length(page.width),
            paper::Length(page.height)
        )));
    }
    if let Some(why) = pages::unfit(print) {
        return Err(ExportError::Option(why));
    }
    if !(36.0..=720.0).contains(&print.grid_width) {
        return Err(ExportError::Option(
            "--grid-width must be between 0.5 in and 10 in".into(),
        ));
    }
    Ok(())
}

/// Exports `opts` from the open bank `conn` (see the module docs).
pub fn export(conn: &mut Bank, opts: &ExportOptions) -> Result<ExportReport> {
    export_with_progress(conn, opts, &|_, _, _| {})
}

/// [`export`], calling `progress(stage, done, total)` as it goes: `"drawing"` per day, then
/// `"writing"` per file.
pub fn export_with_progress(
    conn: &mut Bank,
    opts: &ExportOptions,
    progress: &dyn Fn(&'static str, u64, u64),
) -> Result<ExportReport> {
    check_print(&opts.print)?;
    // A title page and a cover print the title large (a book's is checked by `book`).
    let print = &opts.print;
    if let Some(title) = print.title.as_deref().filter(|_| print.book || print.cover) {
        if let Some(why) = pages::title_unfit(title, print) {
            return Err(ExportError::Option(why));
        }
    }
    if opts.days < 1 {
        return Err(ExportError::Option("--days must be at least 1".into()));
    }
    if !(1..=MAX_VARIETY_DAYS).contains(&opts.variety_days) {
        return Err(ExportError::Option(format!(
            "--variety-days must be between 1 and {MAX_VARIETY_DAYS}"
        )));
    }
    let printed = opts.format.printed();
    if opts.print.book && !printed {
        return Err(ExportError::Option(
            "--book is for printed formats: --format pdf or html".into(),
        ));
    }
    if opts.per_puzzle && !opts.format.per_puzzle() {
        return Err(ExportError::Option(format!(
            "--per-puzzle is for sdk, pdf, svg and eps (the format is {})",
            opts.format.extension()
        )));
    }
    if (opts.per_puzzle || opts.format.single_grid()) && (opts.single_file || opts.print.book) {
        return Err(ExportError::Option(
            "one grid per file cannot be one file: leave out --single-file and --book".into(),
        ));
    }
    let scale = crate::levels::Levels::read(conn)?;
    let levels = scale.set.clone();
    let schedule = Schedule::parse(&opts.mix, &levels)?;
    let first = opts.start.days();
    let last = first + opts.days as i64 - 1;
    if Date::from_days(last).year > 9999 {
        return Err(ExportError::Option(
            "the range ends after the year 9999".into(),
        ));
    }
    if opts.check {
        // Drawn in a transaction rolled back: no folder, no lock, no record.
        let no_folder = "";
        return export_locked(
            conn,
            opts,
            &scale,
            &schedule,
            no_folder,
            (first, last),
            progress,
        );
    }
    in_locked_folder(&opts.out, |dir| {
        export_locked(conn, opts, &scale, &schedule, dir, (first, last), progress)
    })
}

/// [`export_with_progress`] once the folder `dir` (canonical) is locked: the days `range`
/// drawn and written in one transaction.
#[allow(clippy::too_many_arguments)]
fn export_locked(
    conn: &mut Bank,
    opts: &ExportOptions,
    scale: &crate::levels::Levels,
    schedule: &Schedule,
    dir: &str,
    (first, last): (i64, i64),
    progress: &dyn Fn(&'static str, u64, u64),
) -> Result<ExportReport> {
    in_transaction(conn, opts, dir, |conn| {
        // Under the folder lock: no other export is between its commit and its renames.
        if !opts.check {
            settle_temporaries(conn, &opts.out, dir)?;
        }
        // Every current record near the range: the variety rule looks `window` days each way.
        let window = i64::from(opts.variety_days) - 1;
        let mut placed = recorded(conn, first - window, last + window)?;
        let mut report = ExportReport {
            asked: (first..=last)
                .map(|d| schedule.for_day(Date::from_days(d)).slots().len())
                .sum(),
            ..ExportReport::default()
        };
        let mut short: HashMap<String, (u64, Edition, &MixItem)> = HashMap::new();
        for day in first..=last {
            progress("drawing", (day - first) as u64, opts.days as u64);
            let date = Date::from_days(day);
            let edition = Edition::Day(date);
            let mix = schedule.for_day(date);
            let slots = mix.slots();
            let wanted = &mix.text();
            // The slots to draw: all of them, or those a partial export left empty. A recorded
            // date is written as it was: only with the mix it was recorded with, unless
            // replaced.
            let mut todo: Vec<(u32, &MixItem)> = slots.to_vec();
            if let Some(rows) = placed.get(&day) {
                let filled: Vec<u32> = rows.iter().map(|p| p.slot).collect();
                let was = recorded_mix(
                    conn,
                    &edition,
                    rows.iter().map(|p| (p.slot, p.level.as_str())),
                )?;
                if opts.replace {
                    store::batches::retire(conn, &edition)?;
                    placed.remove(&day);
                    report.replaced.push(Replaced {
                        edition: edition.clone(),
                        mix: was,
                        puzzles: filled.len(),
                    });
                } else if was != *wanted {
                    return Err(ExportError::MixChanged { date, mix: was });
                } else {
                    todo.retain(|(s, _)| !filled.contains(s));
                }
            }
            if !todo.is_empty() {
                store::batches::record_day_mix(conn, &edition, wanted)?;
            }
            let mut rng = Rng::for_job(opts.rng_seed, day as u64);
            // Entries that found no puzzle today: their later slots of the day find none
            // either (the day's draws only narrow what is left), so they are not searched again.
            let mut dry: HashSet<&str> = HashSet::new();
            for (slot, item) in &todo {
                let found = if dry.contains(item.label.as_str()) {
                    None
                } else {
                    choose(conn, scale, item.within, &placed, (day, window), &mut rng)?
                };
                if found.is_none() {
                    dry.insert(item.label.as_str());
                }
                match found {
                    Some(p) => {
                        let grid = grid_key(&p.solution);
                        store::batches::record(
                            conn,
                            &store::batches::NewRecord {
                                edition: &edition,
                                slot: *slot,
                                level: &item.label,
                                puzzle_id: p.id,
                                grid_key: &grid,
                                bank_rating: p.rating,
                                percentile: p.percentile,
                                reprint: false,
                            },
                        )?;
                        let day_rows = placed.entry(day).or_default();
                        day_rows.push(DayPuzzle {
                            slot: *slot,
                            level: item.label.clone(),
                            grid_key: grid,
                            seed_id: p.seed_id,
                        });
                        day_rows.sort_by_key(|p| p.slot);
                        report.new += 1;
                    }
                    None => {
                        let e =
                            short
                                .entry(item.label.clone())
                                .or_insert((0, edition.clone(), *item));
                        e.0 += 1;
                    }
                }
            }
        }
        let mut shortages: Vec<Shortage> = short
            .into_iter()
            .map(|(level, (missing, from, item))| {
                // What is left of it once this export's draws are served.
                let (unserved, seeds) =
                    store::retrieval::unserved_sources(conn, scale.measure(), item.within)?;
                Ok(Shortage {
                    level,
                    missing,
                    from,
                    per_day: item.count,
                    unserved,
                    seeds,
                })
            })
            .collect::<Result<_>>()?;
        shortages.sort_by(|a, b| a.from.cmp(&b.from).then(a.level.cmp(&b.level)));
        report.shortages = shortages;
        let printed_check = opts.check && opts.format == Format::Pdf && !opts.per_puzzle;
        if (opts.check && !printed_check) || (!report.shortages.is_empty() && !opts.allow_partial) {
            return Ok((report, Vec::new()));
        }
        // The puzzles of every date of the range, from the records (new and old alike).
        let mut days: Vec<(String, Vec<Exported>)> = Vec::new();
        for day in first..=last {
            let date = Date::from_days(day);
            let puzzles = recorded_puzzles(conn, &Edition::Day(date))?;
            report.puzzles += puzzles.len();
            days.push((date.to_string(), puzzles));
        }
        // A book's copyright year: the year its first date was first recorded, so that
        // the same export prints the same year.
        let mut dated = opts.clone();
        if opts.print.book && opts.print.matter.year.is_none() {
            let first_day =
                store::batches::first_recorded(conn, &Edition::Day(Date::from_days(first)))?;
            dated.print.matter.year = Some(first_day.unwrap_or_else(Date::today).year);
        }
        let opts = &dated;
        if printed_check {
            // The files as they would be, checked and not written (the draws roll back).
            let before = commit::day_before(conn, opts, &days)?;
            report.preflight = formats::preflight(opts, &days, &before)?;
            return Ok((report, Vec::new()));
        }
        let (files, lone) = write_recorded(conn, opts, &days, dir, progress)?;
        report.lone = lone;
        report.files = files.iter().map(|w| w.fin.clone()).collect();
        Ok((report, files))
    })
}

/// The puzzles recorded for `edition`, in slot order, as they were recorded.
pub(crate) fn recorded_puzzles(conn: &Bank, edition: &Edition) -> Result<Vec<Exported>> {
    store::batches::day(conn, edition)?
        .into_iter()
        .map(|r| {
            Ok(Exported {
                solution: crate::retrieve::solve(&r.puzzle, r.id)?,
                date: match r.edition {
                    Edition::Day(d) => Some(d),
                    Edition::Book(_) => None,
                },
                slot: r.slot,
                level: r.level,
                puzzle: r.puzzle,
                difficulty: r.difficulty,
                hsolve: r.hsolve,
                percentile: r.percentile,
                id: r.id,
                number: r.number,
            })
        })
        .collect()
}

/// Puzzles for the layout's tests: `n` of a book (no dates), the levels taken in turn from
/// `levels`, the same valid puzzle each.
#[cfg(test)]
pub(crate) fn book_of(n: usize, levels: &[&str]) -> Vec<Exported> {
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    (0..n)
        .map(|i| Exported {
            date: None,
            slot: i as u32 + 1,
            level: levels[i % levels.len()].into(),
            puzzle: puzzle.parse().expect("a puzzle"),
            solution: solution.parse().expect("a grid"),
            difficulty: None,
            hsolve: 1.0,
            percentile: 1.0,
            id: i as i64,
            number: None,
        })
        .collect()
}
