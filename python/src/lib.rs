//! `pseudoku._native`: the library's calls for Python. Puzzles go in and out as 81-character
//! strings; results come back as dicts and lists (the library's serde values); errors are
//! exceptions under `PseudokuError` with the library's reason, in Python's words where the
//! library's names a command line's flag (`words`). Calls that work on many puzzles or on a
//! bank release the GIL and use every core; long ones take a `progress` callable and stop
//! cleanly on Ctrl-C, or when the callable returns False (what a build or an import committed
//! stays, and the same call resumes it).

mod words;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pythonize::pythonize;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use pseudoku::hint::Strategy;
use pseudoku::levels::Levels;
use pseudoku::retrieve::{self, Handout, Narrowing, Selector};
use pseudoku::Puzzle;

/// The program's allocator, for the library's work in this module too (Python's own objects
/// keep Python's).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    _native,
    PseudokuError,
    PyException,
    "The base of every error of pseudoku."
);
create_exception!(
    _native,
    InvalidPuzzle,
    PseudokuError,
    "A text that is not a puzzle (the reason says why)."
);
create_exception!(
    _native,
    NotUnique,
    PseudokuError,
    "A puzzle without exactly one solution, where one is needed."
);
create_exception!(
    _native,
    BankError,
    PseudokuError,
    "A bank that cannot be opened, read or written, or a request it cannot meet."
);

/// The error of a failed call on a bank: the library's reason in Python's words
/// ([`words::in_python_words`]), else the library's reason and its causes.
fn bank_error<E: std::error::Error + 'static>(e: E) -> PyErr {
    if let Some(text) = words::in_python_words(&e) {
        return BankError::new_err(text);
    }
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    BankError::new_err(text)
}

/// A puzzle read from text: 81 cells (`.` or `0` for empty) or the nine-line grid form.
fn parse_puzzle(text: &str) -> PyResult<Puzzle> {
    text.trim()
        .parse::<Puzzle>()
        .map_err(|e| InvalidPuzzle::new_err(format!("{text:?}: {e}")))
}

/// A serde value as a Python object.
fn to_py<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    pythonize(py, value).map_err(|e| PseudokuError::new_err(e.to_string()))
}

/// `threads` if this machine takes them (0: every core; at most 4 a core, as the command
/// line's `--threads`); raises ValueError.
fn threads(threads: usize) -> PyResult<usize> {
    pseudoku::batch::check_threads(threads)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("threads: {e}")))
}

/// A pool of `threads` workers (0: every core).
fn pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(self::threads(threads)?)
        .build()
        .map_err(|e| PseudokuError::new_err(e.to_string()))
}

/// The puzzle as 81 characters, `.` for empty; raises InvalidPuzzle.
#[pyfunction]
fn parse(puzzle: &str) -> PyResult<String> {
    Ok(parse_puzzle(puzzle)?.to_string())
}

/// The puzzle's only solution as 81 digits, or None when it has none or several.
#[pyfunction]
fn solve(py: Python<'_>, puzzle: &str) -> PyResult<Option<String>> {
    let p = parse_puzzle(puzzle)?;
    Ok(py
        .detach(|| pseudoku::solve(&p).unique())
        .map(|g| g.to_string()))
}

/// The number of solutions, counted up to `limit` (2 tells one from several).
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2))]
fn count_solutions(py: Python<'_>, puzzle: &str, limit: usize) -> PyResult<usize> {
    let p = parse_puzzle(puzzle)?;
    Ok(py.detach(|| pseudoku::count_solutions(&p, limit)))
}

/// Every measure of one puzzle: a rating of it as `rate` prints it, sharing its hard searches
/// with the other ratings made through `shared`.
fn report(
    p: &Puzzle,
    runs: Option<u32>,
    shared: &pseudoku::rate::SharedSearches,
) -> Result<pseudoku::rate::Report, String> {
    let rating = pseudoku::rate::rate_sharing(p, runs, shared).map_err(|e| e.to_string())?;
    let level = rating.default_level();
    Ok(pseudoku::rate::Report::new(p, &rating, level))
}

/// Every measure of one puzzle, as `pseudoku rate --json` prints it: level (on the default
/// levels), difficulty, hsolve, hsolve_sd, tier, steps, wnef, wnef_class, box_norm,
/// box_class, technique (the ladder's hardest step), clues, hardest_step, hardest_steps,
/// hsolve_family. Raises NotUnique for a puzzle without exactly one solution.
#[pyfunction]
#[pyo3(signature = (puzzle, runs = None))]
fn rate<'py>(py: Python<'py>, puzzle: &str, runs: Option<u32>) -> PyResult<Bound<'py, PyAny>> {
    let p = parse_puzzle(puzzle)?;
    let r = py
        .detach(|| report(&p, runs, &Default::default()))
        .map_err(NotUnique::new_err)?;
    to_py(py, &r)
}

/// The ratings of many puzzles, in order, on every core (or `threads`) without the GIL.
/// A puzzle that cannot be read or rated raises, naming its index, unless `skip_bad`: then
/// its place holds None.
#[pyfunction]
#[pyo3(signature = (puzzles, runs = None, threads = 0, skip_bad = false))]
fn rate_many<'py>(
    py: Python<'py>,
    puzzles: Vec<String>,
    runs: Option<u32>,
    threads: usize,
    skip_bad: bool,
) -> PyResult<Bound<'py, PyList>> {
    let parsed: Vec<Result<Puzzle, String>> = puzzles
        .iter()
        .map(|t| t.trim().parse::<Puzzle>().map_err(|e| e.to_string()))
        .collect();
    let pool = pool(threads)?;
    let shared = pseudoku::rate::SharedSearches::default();
    let rated: Vec<Result<pseudoku::rate::Report, String>> = py.detach(|| {
        pool.install(|| {
            parsed
                .par_iter()
                .map(|p| {
                    p.as_ref()
                        .map_err(Clone::clone)
                        .and_then(|p| report(p, runs, &shared))
                })
                .collect()
        })
    });
    let out = PyList::empty(py);
    for (i, r) in rated.into_iter().enumerate() {
        match r {
            Ok(r) => out.append(to_py(py, &r)?)?,
            Err(_) if skip_bad => out.append(py.None())?,
            Err(why) => {
                return Err(InvalidPuzzle::new_err(format!(
                    "puzzle {i} ({:?}): {why}",
                    puzzles[i]
                )))
            }
        }
    }
    Ok(out)
}

/// The next step on a player's board: technique, nudge, hint, move, placements,
/// eliminations, errors (wrong entries first), focus and pattern. `entries`: the player's
/// 81 cells (`.` or `0` for empty), or None.
#[pyfunction]
#[pyo3(signature = (puzzle, entries = None))]
fn hint<'py>(py: Python<'py>, puzzle: &str, entries: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    let p = parse_puzzle(puzzle)?;
    let mut board = pseudoku::hint::Board::new(p);
    if let Some(e) = entries {
        board = board
            .with_entries(e)
            .map_err(|e| InvalidPuzzle::new_err(e.to_string()))?;
    }
    let h = py
        .detach(|| pseudoku::hint::hint(&board))
        .map_err(|e| NotUnique::new_err(e.to_string()))?;
    let value: serde_json::Value = serde_json::from_str(&h.to_json()).expect("a hint's JSON");
    to_py(py, &value)
}

/// A whole solution in words, a dict a step (as `pseudoku explain --json`).
#[pyfunction]
fn explain<'py>(py: Python<'py>, puzzle: &str) -> PyResult<Bound<'py, PyAny>> {
    let p = parse_puzzle(puzzle)?;
    let text = py
        .detach(|| pseudoku::explain::steps_json(&p, false))
        .map_err(|e| NotUnique::new_err(e.to_string()))?;
    let steps: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a step's JSON"))
        .collect();
    to_py(py, &steps)
}

/// The exact canonical form: `canonical` (81 characters, `0` for empty), `key` (its blake3,
/// hex: two puzzles are one puzzle up to symmetry exactly when their keys are equal) and
/// `automorphisms` (the symmetries that fix the puzzle).
#[pyfunction]
fn canonical<'py>(py: Python<'py>, puzzle: &str) -> PyResult<Bound<'py, PyDict>> {
    let p = parse_puzzle(puzzle)?;
    let c = py.detach(|| pseudoku::canon::canonical(&p));
    let d = PyDict::new(py);
    let cells: String = c.cells.iter().map(|&v| char::from(b'0' + v)).collect();
    d.set_item("canonical", cells)?;
    d.set_item("key", c.key().to_hex())?;
    d.set_item("automorphisms", c.automorphisms)?;
    Ok(d)
}

/// A random minimal puzzle (one solution, no clue removable) from the seeded generator; the
/// same seed gives the same puzzle. `symmetry`: none, rotate180, rotate90, mirror, diagonal
/// (as `build --symmetry`).
#[pyfunction]
#[pyo3(signature = (seed = 2026, symmetry = "none"))]
fn generate(py: Python<'_>, seed: u64, symmetry: &str) -> PyResult<String> {
    let s = pseudoku::bank::parse_symmetry(symmetry)
        .map_err(|e| PseudokuError::new_err(e.to_string()))?;
    Ok(py
        .detach(|| pseudoku::generate::random_minimal(&mut pseudoku::Rng::new(seed), s))
        .to_string())
}

/// A progress callable's call: with the GIL, `value` as a dict. Ctrl-C or an exception the
/// callable raises sets `stop` and is raised when the call returns; the callable's returning
/// False sets `stop` alone (the call returns its counts, `stopped` true).
fn report_progress(callback: Option<&Py<PyAny>>, stop: &AtomicBool, value: &impl serde::Serialize) {
    Python::attach(|py| {
        if py.check_signals().is_err() {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        if let Some(cb) = callback {
            let called = to_py(py, value).and_then(|d| cb.call1(py, (d,)));
            match called {
                Ok(said) => {
                    if matches!(said.extract::<bool>(py), Ok(false)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    e.restore(py);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
}

/// A build's counts, as its progress and its result say them: `stopped` only in the result
/// (true when the build stopped before storing every puzzle asked for).
#[derive(serde::Serialize)]
struct BuildCounts {
    stored: u64,
    count: u64,
    duplicates: u64,
    rejected: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<bool>,
}

impl BuildCounts {
    /// The counts of a progress report (no `stopped`: the build goes on).
    fn progress(p: &pseudoku::bank::Progress) -> BuildCounts {
        BuildCounts {
            stored: p.stored,
            count: p.count,
            duplicates: p.duplicates,
            rejected: p.rejected,
            stopped: None,
        }
    }

    /// The counts of the build's result, with whether it stopped early.
    fn result(p: &pseudoku::bank::Progress) -> BuildCounts {
        BuildCounts {
            stopped: Some(p.stopped()),
            ..BuildCounts::progress(p)
        }
    }
}

/// An import's counts, as its progress and its result say them: `stopped` only in the result
/// (true when the import stopped before the file's end).
#[derive(serde::Serialize)]
struct ImportCounts {
    lines: u64,
    next_line: u64,
    stored: u64,
    duplicates: u64,
    skipped: u64,
    already: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<bool>,
}

impl ImportCounts {
    /// The counts of a progress report (no `stopped`: the import goes on).
    fn progress(p: &pseudoku::import::Imported) -> ImportCounts {
        ImportCounts {
            lines: p.lines,
            next_line: p.next_line,
            stored: p.stored,
            duplicates: p.duplicates,
            skipped: p.skipped,
            already: p.already,
            stopped: None,
        }
    }

    /// The counts of the import's result, with whether it stopped early.
    fn result(p: &pseudoku::import::Imported) -> ImportCounts {
        ImportCounts {
            stopped: Some(p.stopped),
            ..ImportCounts::progress(p)
        }
    }
}

/// A log's counting, as its progress and its result say them: `stopped` only in the result.
#[derive(serde::Serialize)]
struct ResultCounts {
    lines: u64,
    counted: u64,
    unrated: u64,
    again: u64,
    problems: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<bool>,
}

impl ResultCounts {
    /// The counts of a progress report, the problems each `FILE:LINE: reason`.
    fn progress(c: &pseudoku::results::Counting, file: &std::path::Path) -> ResultCounts {
        ResultCounts {
            lines: c.lines,
            counted: c.counted,
            unrated: c.unrated,
            again: c.again,
            problems: c
                .problems
                .iter()
                .map(|(line, why)| format!("{}:{line}: {why}", file.display()))
                .collect(),
            stopped: None,
        }
    }

    /// The counts of the counting's result, with whether it stopped early.
    fn result(c: &pseudoku::results::Counting, file: &std::path::Path) -> ResultCounts {
        ResultCounts {
            stopped: Some(c.stopped),
            ..ResultCounts::progress(c, file)
        }
    }
}

/// Raises a pending exception (Ctrl-C, or one a progress callable raised), if any.
fn raise_pending(py: Python<'_>) -> PyResult<()> {
    match PyErr::take(py) {
        Some(e) => Err(e),
        None => py.check_signals(),
    }
}

/// A puzzle handed out by a bank, as a dict.
#[derive(serde::Serialize)]
struct HandoutView {
    id: i64,
    puzzle: String,
    solution: String,
    level: Option<String>,
    difficulty: Option<f64>,
    hsolve: f64,
    percentile: f64,
    tier: u8,
    hardest_step: Option<&'static str>,
    hardest_steps: Option<u16>,
    key: String,
    /// Its learned rating, where the call gives it (`get --json` with `--id` or
    /// `--for-user`).
    #[serde(skip_serializing_if = "Option::is_none")]
    learned: Option<pseudoku::play::Learned>,
}

impl HandoutView {
    /// The view of a handout, without its learned rating.
    fn of(h: &Handout) -> HandoutView {
        HandoutView {
            id: h.id,
            puzzle: h.puzzle.to_string(),
            solution: h.solution.to_string(),
            level: h.level.clone(),
            difficulty: h.difficulty,
            hsolve: h.hsolve,
            percentile: h.percentile,
            tier: h.tier,
            hardest_step: h.hardest.map(|s| s.strategy.name()),
            hardest_steps: h.hardest.map(|s| s.count),
            key: h.key.to_hex(),
            learned: None,
        }
    }

    /// The view of a handout with its learned rating.
    fn learned(h: &Handout, learned: pseudoku::play::Learned) -> HandoutView {
        HandoutView {
            learned: Some(learned),
            ..HandoutView::of(h)
        }
    }
}

/// A bank: a SQLite file `build`, `import_puzzles` or the `pseudoku` program made.
#[pyclass(frozen)]
struct Bank {
    path: PathBuf,
}

impl Bank {
    fn open(&self) -> PyResult<pseudoku::bank::Bank> {
        pseudoku::bank::open_existing(&self.path).map_err(bank_error)
    }
}

#[pymethods]
impl Bank {
    /// Opens the bank at `path` (it must exist: `build` or `import_puzzles` make one).
    #[new]
    fn new(path: PathBuf) -> PyResult<Bank> {
        let bank = Bank { path };
        bank.open()?;
        Ok(bank)
    }

    /// The bank's file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The number of puzzles.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        let bank = self.open()?;
        py.detach(move || bank.puzzle_count().map(|n| n as usize).map_err(bank_error))
    }

    fn __repr__(&self) -> String {
        format!("Bank({:?})", self.path.display().to_string())
    }

    /// The names of the bank's levels, easiest first.
    fn levels(&self) -> PyResult<Vec<String>> {
        let conn = self.open()?;
        let levels = Levels::read(&conn).map_err(bank_error)?;
        Ok(levels.set.names().names().to_vec())
    }

    /// Random unserved puzzles: of a `level`, a `band` (`"K/M"`), a `percentile` range
    /// (`"A..B"`) or the whole bank, narrowed to those whose hardest step is `technique`
    /// (e.g. `"x-wing"`). At most `count`; `mark_served` marks them so no later draw or export
    /// hands them out again. The draws come from the seeded generator (`seed`; None: the
    /// clock's).
    #[pyo3(signature = (level = None, band = None, percentile = None, technique = None, count = 1, mark_served = false, seed = None))]
    #[allow(clippy::too_many_arguments)]
    fn get<'py>(
        &self,
        py: Python<'py>,
        level: Option<String>,
        band: Option<&str>,
        percentile: Option<&str>,
        technique: Option<&str>,
        count: usize,
        mark_served: bool,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let selector = match (level, band, percentile) {
            (Some(l), None, None) => Selector::Level(l),
            (None, Some(b), None) => Selector::Band(
                b.parse()
                    .map_err(|e: pseudoku::levels::ScaleError| BankError::new_err(e.to_string()))?,
            ),
            (None, None, Some(p)) => Selector::Percentile(
                p.parse()
                    .map_err(|e: pseudoku::levels::ScaleError| BankError::new_err(e.to_string()))?,
            ),
            (None, None, None) => Selector::All,
            _ => {
                return Err(BankError::new_err(
                    "give at most one of level, band and percentile",
                ))
            }
        };
        let technique = technique
            .map(|t| Strategy::parse(t).map_err(|e| BankError::new_err(e.to_string())))
            .transpose()?;
        let narrowing = Narrowing {
            technique,
            named: None,
        };
        let mut rng = pseudoku::Rng::new(seed.unwrap_or_else(pseudoku::Rng::clock_seed));
        let conn = self.open()?;
        let got: Vec<HandoutView> = py.detach(move || {
            let mut got = Vec::new();
            retrieve::get(
                &conn,
                &selector,
                &narrowing,
                count,
                mark_served,
                &mut rng,
                |h| {
                    got.push(HandoutView::of(h));
                    Ok(())
                },
            )
            .map_err(bank_error)?;
            Ok::<_, PyErr>(got)
        })?;
        to_py(py, &got)
    }

    /// The puzzle with this id (served or not), or None, with its `learned` rating (as `get
    /// --id N --json`); an imported puzzle's dict also has `source` (file and line).
    fn puzzle<'py>(&self, py: Python<'py>, id: i64) -> PyResult<Option<Bound<'py, PyAny>>> {
        let conn = self.open()?;
        let levels = Levels::read(&conn).map_err(bank_error)?;
        let Some(h) = retrieve::by_id(&conn, &levels, id).map_err(bank_error)? else {
            return Ok(None);
        };
        let learned = retrieve::learned(&conn, &h).map_err(bank_error)?.view();
        let view = to_py(py, &HandoutView::learned(&h, learned))?;
        if let Some(source) = retrieve::provenance(&conn, id).map_err(bank_error)? {
            view.set_item("source", to_py(py, &source)?)?;
        }
        Ok(Some(view))
    }

    /// What the bank holds, as `pseudoku stats --json` prints it.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let conn = self.open()?;
        let inventory = py.detach(move || pseudoku::inventory::read(&conn).map_err(bank_error))?;
        to_py(py, &inventory)
    }

    /// Up to `count` puzzles for the app user `user` matched to their learned rating (as
    /// `pseudoku get --for-user USER --json`): each drawn near it (in windows that widen), a
    /// puzzle the user was never given (up to symmetry), recorded as theirs as a server
    /// records a delivery, with its `learned` rating. Fewer when the user has had every
    /// puzzle. The draws come from the seeded generator (`seed`; None: the clock's). Raises
    /// ValueError for a bad user id, BankError while a server records in the bank.
    #[pyo3(signature = (user, count = 1, seed = None))]
    fn for_user<'py>(
        &self,
        py: Python<'py>,
        user: &str,
        count: usize,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut rng = pseudoku::Rng::new(seed.unwrap_or_else(pseudoku::Rng::clock_seed));
        let conn = self.open()?;
        let path = self.path.clone();
        let got: Vec<HandoutView> = py.detach(move || {
            let mut got = Vec::new();
            retrieve::for_user(&conn, &path, user, count, &mut rng, |h, learned| {
                got.push(HandoutView::learned(h, *learned));
                Ok(())
            })
            .map_err(|e| match e {
                retrieve::RetrieveError::User(_) => {
                    pyo3::exceptions::PyValueError::new_err(format!("user: {e}"))
                }
                e => bank_error(e),
            })?;
            Ok::<_, PyErr>(got)
        })?;
        to_py(py, &got)
    }

    /// Counts a player's game of the puzzle `puzzle` (its bank id), as `pseudoku results
    /// import` counts a line of an app's log (the keys of `POST /v1/results`): `solved` or
    /// abandoned after `seconds`, with `hints` and `mistakes`. The delivery is recorded with
    /// it if it was not (the user is not handed that puzzle again); both learned ratings move.
    /// Returns what it did: `score` (None: a glance, rated by nothing), `held` (the player has
    /// no record yet), and the `player`'s and the `puzzle`'s learned ratings after it. Raises
    /// ValueError for a game out of reason (a bad user id, an absurd time, too many hints),
    /// BankError for a puzzle the bank does not have or a second result of the user's for it.
    #[pyo3(signature = (user, puzzle, solved, seconds, hints = 0, mistakes = 0))]
    #[allow(clippy::too_many_arguments)]
    fn record_result<'py>(
        &self,
        py: Python<'py>,
        user: String,
        puzzle: i64,
        solved: bool,
        seconds: f64,
        hints: u32,
        mistakes: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        let game = pseudoku::play::Game {
            user,
            puzzle,
            solved,
            seconds,
            hints,
            mistakes,
        };
        let counted = py
            .detach(|| pseudoku::results::count_game(&self.path, &game))
            .map_err(results_error)?;
        to_py(py, &counted)
    }

    /// The player `user`: their `learned` rating (a new player's, 1500 with deviation 350,
    /// before any rated game), the `games` of theirs counted and their last `last` games as
    /// `history` (the latest first: puzzle, solved, seconds, hints, mistakes, score, rating,
    /// at), as `GET /v1/players/{user}` of a server on the bank answers.
    #[pyo3(signature = (user, last = 50))]
    fn player<'py>(&self, py: Python<'py>, user: &str, last: usize) -> PyResult<Bound<'py, PyAny>> {
        let conn = self.open()?;
        let player = py
            .detach(move || pseudoku::results::player(&conn, user, last))
            .map_err(results_error)?;
        to_py(py, &player)
    }
}

/// The error of a call on players' results: ValueError for a game out of reason (the
/// argument named), else [`bank_error`].
fn results_error(e: pseudoku::results::LogError) -> PyErr {
    match e {
        pseudoku::results::LogError::Game(e) => {
            pyo3::exceptions::PyValueError::new_err(e.to_string())
        }
        e => bank_error(e),
    }
}

/// Builds (or continues building) the bank `db`: `count` new puzzles, or `count` of one
/// `level`, or `per_level` of every level. `progress(dict)` is called after each batch (keys
/// stored, count, duplicates, rejected). Ctrl-C stops after the batch: what was committed
/// stays and the same call continues. Returns the counts.
#[pyfunction]
#[pyo3(signature = (db, count = 1000, level = None, per_level = None, threads = 0, seed = 2026, progress = None))]
#[allow(clippy::too_many_arguments)]
fn build<'py>(
    py: Python<'py>,
    db: PathBuf,
    count: u64,
    level: Option<String>,
    per_level: Option<u64>,
    threads: usize,
    seed: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let targets = match level {
        Some(name) => vec![(pseudoku::bank::Aim::Level(name), count)],
        None => Vec::new(),
    };
    let opts = pseudoku::bank::BuildOptions {
        db,
        count,
        targets,
        per_level,
        layout: None,
        wait: false,
        rating: None,
        threads: self::threads(threads)?,
        rng_seed: seed,
        seed_library: None,
        batch: 256,
        shard: None,
        spread: false,
    };
    let stop = AtomicBool::new(false);
    let lib = pseudoku::seeds::Library::shipped();
    let prog = py.detach(|| {
        pseudoku::bank::build(&opts, &lib, &stop, |p| {
            report_progress(progress.as_ref(), &stop, &BuildCounts::progress(p))
        })
        .map_err(bank_error)
    })?;
    raise_pending(py)?;
    to_py(py, &BuildCounts::result(&prog))
}

/// Grades the puzzle file `path` into the bank `db` (created if missing), as `pseudoku
/// import` does. `progress(dict)` is called after each batch (keys lines, next_line, stored,
/// duplicates, skipped). Returns the counts and `problems`: a `FILE:LINE: reason` a skipped
/// entry.
#[pyfunction]
#[pyo3(signature = (db, path, threads = 0, progress = None))]
fn import_puzzles<'py>(
    py: Python<'py>,
    db: PathBuf,
    path: PathBuf,
    threads: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = pseudoku::import::ImportOptions {
        db,
        file: path.clone(),
        rating: None,
        threads: self::threads(threads)?,
        wait: false,
        batch: pseudoku::import::BATCH,
    };
    let stop = AtomicBool::new(false);
    let done = py.detach(|| {
        pseudoku::import::import(&opts, &stop, |p| {
            report_progress(progress.as_ref(), &stop, &ImportCounts::progress(p))
        })
        .map_err(bank_error)
    })?;
    raise_pending(py)?;
    let d = to_py(py, &ImportCounts::result(&done))?;
    d.set_item(
        "problems",
        done.problems
            .iter()
            .map(|s| s.at(&path))
            .collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// Writes the bank `db` (or some `levels`, at most `per_level` puzzles of each) as train,
/// validation and test files in `out`, as `pseudoku dataset` does: `split` the three shares,
/// `group` "class" or "grid" (puzzles of one solution grid in one split), `formats` among
/// "csv", "jsonl", "parquet" (default all). Returns the rows per split and the files.
#[pyfunction]
#[pyo3(signature = (db, out, levels = None, per_level = None, split = (0.8, 0.1, 0.1), group = "class", formats = None, seed = 2026))]
#[allow(clippy::too_many_arguments)]
fn dataset<'py>(
    py: Python<'py>,
    db: PathBuf,
    out: PathBuf,
    levels: Option<Vec<String>>,
    per_level: Option<u64>,
    split: (f64, f64, f64),
    group: &str,
    formats: Option<Vec<String>>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    use pseudoku::dataset::{DataFormat, Group};
    let group = Group::ALL
        .into_iter()
        .find(|g| g.name() == group)
        .ok_or_else(|| PseudokuError::new_err(format!("group {group:?}: class or grid")))?;
    let formats = formats
        .unwrap_or_else(|| {
            pseudoku::dataset::DEFAULT_FORMATS
                .split(',')
                .map(String::from)
                .collect()
        })
        .iter()
        .map(|f| {
            DataFormat::ALL
                .into_iter()
                .find(|d| d.name() == f)
                .ok_or_else(|| {
                    PseudokuError::new_err(format!("format {f:?}: csv, jsonl or parquet"))
                })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let command = vec![format!(
        "pseudoku.dataset({db:?}, {out:?}, levels={levels:?}, per_level={per_level:?}, \
         split={split:?}, group={:?}, formats={:?}, seed={seed})",
        group.name(),
        formats.iter().map(|f| f.name()).collect::<Vec<_>>()
    )];
    let opts = pseudoku::dataset::DatasetOptions {
        db,
        out,
        levels: levels.unwrap_or_default(),
        per_level,
        split: [split.0, split.1, split.2],
        group,
        formats,
        seed,
        command,
    };
    let written = py.detach(|| pseudoku::dataset::write(&opts).map_err(bank_error))?;
    let d = PyDict::new(py);
    for (name, rows) in pseudoku::dataset::SPLITS.iter().zip(written.rows) {
        d.set_item(*name, rows)?;
    }
    d.set_item(
        "files",
        written
            .files
            .iter()
            .map(|(name, _, _)| name.clone())
            .collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// Exports `days` days from `start` (`YYYY-MM-DD`) of the bank `db` into `out`, each day
/// with `mix` (e.g. `"easy:2,medium:2,hard:1"`), in `format` (txt, csv, json, sdk, html, pdf,
/// svg, eps), as `pseudoku export` does; `replace` draws new puzzles for dates exported
/// before (the old ones are never used again). Returns the files written and the puzzles
/// exported.
#[pyfunction]
#[pyo3(signature = (db, out, start, days, mix, format = "txt", single_file = false, allow_partial = false, replace = false, seed = 1))]
#[allow(clippy::too_many_arguments)]
fn export<'py>(
    py: Python<'py>,
    db: PathBuf,
    out: PathBuf,
    start: &str,
    days: u32,
    mix: String,
    format: &str,
    single_file: bool,
    allow_partial: bool,
    replace: bool,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    use pseudoku::export::{Date, ExportOptions};
    let start: Date = start
        .parse()
        .map_err(|e: <Date as std::str::FromStr>::Err| PseudokuError::new_err(e.to_string()))?;
    let format = format_named(format)?;
    let opts = ExportOptions {
        start,
        days,
        mix,
        format,
        out,
        single_file,
        replace,
        allow_partial,
        print: Default::default(),
        per_puzzle: false,
        rng_seed: seed,
        variety_days: pseudoku::export::VARIETY_DAYS,
        check: false,
    };
    let report = py.detach(|| {
        let mut conn = pseudoku::bank::open_existing(&db).map_err(bank_error)?;
        pseudoku::export::export(&mut conn, &opts).map_err(bank_error)
    })?;
    written(py, &report)
}

/// A ValueError: an argument out of reason, its name in `text`.
fn value_error(text: impl Into<String>) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(text.into())
}

/// A file format of `export` and `book` by its extension.
fn format_named(format: &str) -> PyResult<pseudoku::export::Format> {
    use pseudoku::export::Format;
    Format::ALL
        .into_iter()
        .find(|f| f.extension() == format)
        .ok_or_else(|| {
            let all: Vec<&str> = Format::ALL.iter().map(|f| f.extension()).collect();
            pyo3::exceptions::PyValueError::new_err(format!(
                "format={format:?}: one of {}",
                all.join(", ")
            ))
        })
}

/// Writes the book `name` of the bank `db` into `out`, as `pseudoku book` does: the puzzles
/// of `mix` by level, band or technique (e.g. `"easy:30,medium:30,hard:30"`), each drawn once
/// and recorded under the book's name (the same call writes the same book again; `replace`
/// draws it anew, `reprint` draws among puzzles earlier books and exports used too), in
/// `format` (pdf by default: a title page, contents, the puzzles by level and the solutions,
/// on facing pages). `title`, `subtitle` and `author` go on the title page; `page` is the
/// page size (a4, a5, letter, 6x9, 8x10, 8.5x11, or e.g. `"150x220mm"`), `per_page` the most
/// grids a page (1, 2, 4 or 6). Returns the files written, the puzzles, the newly drawn and
/// `repeated_grids`; raises BankError, writing nothing, when a level runs short.
#[pyfunction]
#[pyo3(signature = (db, out, name, mix, format = "pdf", replace = false, reprint = false, title = None, subtitle = None, author = None, page = None, per_page = None, seed = 1))]
#[allow(clippy::too_many_arguments)]
fn book<'py>(
    py: Python<'py>,
    db: PathBuf,
    out: PathBuf,
    name: String,
    mix: String,
    format: &str,
    replace: bool,
    reprint: bool,
    title: Option<String>,
    subtitle: Option<String>,
    author: Option<String>,
    page: Option<&str>,
    per_page: Option<u8>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    use pseudoku::export::{BookOptions, Matter, PageSize, PrintOptions};
    let format = format_named(format)?;
    let printed = format.printed() && !format.single_grid();
    let given = [
        ("title", title.is_some()),
        ("page", page.is_some()),
        ("per_page", per_page.is_some()),
    ];
    if let Some((arg, _)) = given.iter().find(|g| g.1 && !printed) {
        return Err(value_error(format!(
            "{arg}= is for printed pages: give format=\"pdf\" or format=\"html\" (this is {})",
            format.extension()
        )));
    }
    if title.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(value_error("title= is empty"));
    }
    if per_page.is_some_and(|n| ![1, 2, 4, 6].contains(&n)) {
        return Err(value_error(format!(
            "per_page={}: 1, 2, 4 or 6",
            per_page.unwrap_or_default()
        )));
    }
    let d = PrintOptions::default();
    let page = page
        .map(|p| {
            p.parse::<PageSize>()
                .map_err(|e| value_error(format!("page={p:?}: {e}")))
        })
        .transpose()?;
    let opts = BookOptions {
        name,
        mix,
        format,
        per_puzzle: format.single_grid(),
        out,
        replace,
        reprint,
        print: PrintOptions {
            page: page.unwrap_or(d.page),
            title,
            per_page,
            matter: Matter {
                subtitle,
                author,
                ..Matter::default()
            },
            ..d
        },
        rng_seed: seed,
        check: false,
    };
    let report = py.detach(|| {
        let mut conn = pseudoku::bank::open_existing(&db).map_err(bank_error)?;
        pseudoku::export::book(&mut conn, &opts).map_err(bank_error)
    })?;
    if !report.shortages.is_empty() {
        let short: Vec<String> = report
            .shortages
            .iter()
            .map(|s| format!("level {}: {} puzzles missing", s.level, s.missing))
            .collect();
        return Err(BankError::new_err(format!(
            "{}; nothing written: build more puzzles of those levels (pseudoku.build(db, \
             level=NAME, count=N))",
            short.join(", ")
        )));
    }
    let d = written(py, &report)?;
    d.set_item("repeated_grids", report.repeated_grids)?;
    Ok(d)
}

/// What an export or a book wrote, as Python sees it: `files`, `puzzles` and `new`.
fn written<'py>(
    py: Python<'py>,
    report: &pseudoku::export::ExportReport,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(
        "files",
        report
            .files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("puzzles", report.puzzles)?;
    d.set_item("new", report.new)?;
    Ok(d)
}

/// Counts an app's log of games (`path`: JSON lines with the keys of `record_result`: user,
/// puzzle, solved, seconds, hints, mistakes) into the bank `db`, as `pseudoku results import`
/// does: in the file's order, each moving the player's and the puzzle's learned ratings, the
/// delivery recorded with it. `progress(dict)` is called after each batch (keys lines,
/// counted, unrated, again, problems); Ctrl-C, or the callable's returning False, stops after
/// the batch, and the same call continues. Returns the counts: `counted` (of them `unrated`
/// glances), `again` (counted before), `problems` (a `FILE:LINE: reason` a skipped line) and
/// `stopped`.
#[pyfunction]
#[pyo3(signature = (db, path, progress = None))]
fn import_results<'py>(
    py: Python<'py>,
    db: PathBuf,
    path: PathBuf,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use pseudoku::results::{count_file, Target};
    let stop = AtomicBool::new(false);
    let done = py.detach(|| {
        count_file(&db, &path, &Target::Bank, &stop, |c| {
            report_progress(progress.as_ref(), &stop, &ResultCounts::progress(c, &path))
        })
        .map_err(results_error)
    })?;
    raise_pending(py)?;
    to_py(py, &ResultCounts::result(&done, &path))
}

/// Sets the levels of the bank `db`, as `pseudoku calibrate` does, and levels every puzzle
/// again: `levels` names them, easiest first (as many as now renames them, another number
/// cuts the reference into equal shares); `rating` ("difficulty" or "hsolve") is the rating
/// percentiles and levels use; `default` goes back to the default reference (and, without
/// `levels`, the default levels); `from_play` refits the levels to human time: the puzzles
/// players rated (`min_results` results or more each) labelled by their learned ratings,
/// each level as many of them as it holds now, the levels fitted on them (cut points or a
/// model, the better held out). `force` calibrates even when a level would hold no puzzle.
/// Returns the `levels`, whether they are `learned` (a model's), the `rating`, the
/// `reference` and its `reference_size`, the levels `recomputed`, the puzzles `per_level`,
/// and with `from_play` the fit's `summary` (as the command prints it).
#[pyfunction]
#[pyo3(signature = (db, levels = None, rating = None, default = false, from_play = false, min_results = pseudoku::levels::MIN_RESULTS, force = false, threads = 0))]
#[allow(clippy::too_many_arguments)]
fn calibrate<'py>(
    py: Python<'py>,
    db: PathBuf,
    levels: Option<Vec<String>>,
    rating: Option<&str>,
    default: bool,
    from_play: bool,
    min_results: u64,
    force: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    use pseudoku::levels::{Calibration, LevelChange, LevelNames, RatingKind};
    if levels.is_none() && rating.is_none() && !default && !from_play {
        return Err(value_error(
            "nothing to change: give levels=[...], rating=..., default=True or from_play=True",
        ));
    }
    if default && from_play {
        return Err(value_error(
            "default=True and from_play=True: give one of them",
        ));
    }
    if !(1..=1_000_000).contains(&min_results) {
        return Err(value_error(format!(
            "min_results={min_results}: 1 to 1000000"
        )));
    }
    let names = levels
        .map(|l| {
            l.join(",")
                .parse::<LevelNames>()
                .map_err(|e| value_error(format!("levels={l:?}: {e}")))
        })
        .transpose()?;
    let rating = rating
        .map(|r| {
            r.parse::<RatingKind>()
                .map_err(|e| value_error(format!("rating={r:?}: {e}")))
        })
        .transpose()?;
    let pool = pool(threads)?;
    let (levels, recomputed, description, per_level, summary) = py.detach(|| {
        let mut conn = pseudoku::bank::open_existing(&db).map_err(bank_error)?;
        let _lock = pseudoku::bank::WriterLock::acquire(&db, "pseudoku.calibrate", false)
            .map_err(bank_error)?;
        let mut change = Calibration {
            rating,
            levels: names.clone().map(LevelChange::Names),
            force,
            names_given: names.is_some(),
            ..Calibration::default()
        };
        let mut summary = None;
        if from_play {
            let (stored, set) = pseudoku::levels::stored_levels(&conn).map_err(bank_error)?;
            let names = names.clone().unwrap_or_else(|| set.names().clone());
            let rating = rating.unwrap_or(stored);
            let fit = pseudoku::results::fit_from_play(
                &conn,
                None,
                min_results,
                &names,
                rating,
                &pool,
                &|_| {},
            )
            .map_err(results_error)?;
            summary = Some(pseudoku::levels::summary(&fit, rating));
            change.levels = Some(fit.into_change());
        } else if default {
            change.reference = Some(pseudoku::levels::default_reference());
            change
                .levels
                .get_or_insert(LevelChange::Names(LevelNames::default()));
        }
        let (levels, n) = pool
            .install(|| pseudoku::levels::calibrate(&mut conn, &change))
            .map_err(bank_error)?;
        let description = pseudoku::levels::reference_description(&conn)
            .map_err(bank_error)?
            .unwrap_or_default();
        let per_level = pseudoku::levels::level_counts(&conn).map_err(bank_error)?;
        Ok::<_, PyErr>((levels, n, description, per_level, summary))
    })?;
    let d = PyDict::new(py);
    d.set_item("levels", levels.set.names().names().to_vec())?;
    d.set_item("learned", levels.model.is_some())?;
    d.set_item("rating", levels.rating.name())?;
    d.set_item("reference", description)?;
    d.set_item("reference_size", levels.reference.len())?;
    d.set_item("recomputed", recomputed)?;
    let counts = PyDict::new(py);
    for (name, n) in per_level {
        counts.set_item(name, n)?;
    }
    d.set_item("per_level", counts)?;
    if let Some(summary) = summary {
        d.set_item("summary", summary)?;
    }
    Ok(d)
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PseudokuError", py.get_type::<PseudokuError>())?;
    m.add("InvalidPuzzle", py.get_type::<InvalidPuzzle>())?;
    m.add("NotUnique", py.get_type::<NotUnique>())?;
    m.add("BankError", py.get_type::<BankError>())?;
    m.add("RATER", pseudoku::rate::RATER)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Bank>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count_solutions, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(rate_many, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(import_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(dataset, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add_function(wrap_pyfunction!(book, m)?)?;
    m.add_function(wrap_pyfunction!(import_results, m)?)?;
    m.add_function(wrap_pyfunction!(calibrate, m)?)?;
    Ok(())
}
