//! `hint`: the next step a person would find on a board (the clues, the player's entries and,
//! optionally, the player's pencil marks), in three disclosures: a nudge (where to look), the
//! technique, and the whole move in plain words, with the placements and eliminations it
//! proves.
//!
//! Mistakes come first: an entry that contradicts the solution, then (with marks given) a
//! candidate of the solution the player removed. Otherwise the techniques are searched along
//! the ladder of the `difficulty` rating (`crate::rate::difficulty`), easiest first: full house
//! and hidden single in a box, hidden single in a row or column, naked single, then the
//! ladder's rungs up to trials. Within a rung, a placement is preferred to eliminations. A
//! board without pencil marks, where an elimination cannot be kept, gets the next placement
//! the logic reaches instead, the eliminations that lead to it as its reason: every hint then
//! moves the player on.
//!
//! Every step is sound: the searches run on the player's position (with the marks, only
//! removing what they allow) and only use logic valid for the puzzle's one solution, which is
//! checked first.

pub use crate::strategies::Strategy;

use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, Grid, House, Puzzle};
use crate::rate::hsolve::Rung;
use crate::solve::{solve, Solutions};
use crate::strategies::{self, trial, Application, Context, Known};
use std::fmt::Write as _;

#[cfg(feature = "dev")]
pub mod boards;
mod words;
use words::describe;

/// A position as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The puzzle's clues.
    pub clues: Puzzle,
    /// The player's digits, 0 for empty (a digit on a clue cell is ignored when it repeats
    /// the clue).
    pub entries: [u8; 81],
    /// The player's pencil marks, when given: bit `d - 1` of a cell is set while the player
    /// keeps digit `d` possible there (read for empty cells only).
    pub marks: Option<[u16; 81]>,
}

impl Board {
    /// A board with no entries and no marks.
    pub fn new(clues: Puzzle) -> Board {
        Board {
            clues,
            entries: [0; 81],
            marks: None,
        }
    }

    /// The clues with the player's entries: 81 characters, `1`-`9`, `.` or `0` for empty; a
    /// digit on a clue cell must repeat the clue.
    pub fn with_entries(mut self, entries: &str) -> Result<Board, HintError> {
        self.entries = parse_cells(entries)?;
        let clues = self.clues.as_bytes();
        if let Some(i) =
            (0..81).find(|&i| clues[i] != 0 && ![0, clues[i]].contains(&self.entries[i]))
        {
            return Err(HintError::Entries(format!(
                "cell r{}c{} holds the clue {}, which an entry cannot change (found {})",
                i / 9 + 1,
                i % 9 + 1,
                clues[i],
                self.entries[i]
            )));
        }
        Ok(self)
    }
}

/// The cells of an 81-character line of entries.
fn parse_cells(text: &str) -> Result<[u8; 81], HintError> {
    let text = text.trim();
    let n = text.chars().count();
    if n != 81 {
        return Err(HintError::Entries(format!("expected 81 cells, found {n}")));
    }
    let mut cells = [0u8; 81];
    for (i, ch) in text.chars().enumerate() {
        cells[i] = match ch {
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' => 0,
            _ => {
                return Err(HintError::Entries(format!(
                    "bad character {ch:?} at cell {}",
                    i + 1
                )))
            }
        };
    }
    Ok(cells)
}

/// Why no hint can be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    /// The clues allow no solution.
    #[error("the clues have no solution")]
    NoSolution,
    /// The clues allow more than one solution.
    #[error("the clues have more than one solution; hints need a puzzle with exactly one")]
    Multiple,
    /// The entries could not be read.
    #[error("entries: {0}")]
    Entries(String),
}

/// What kind of step a hint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintKind {
    /// Some of the player's entries contradict the solution.
    WrongEntry,
    /// The player removed a candidate that is the solution's digit.
    MissingCandidate,
    /// A house with one empty cell left.
    FullHouse,
    /// A solving technique.
    Technique(Strategy),
    /// Every cell is filled, correctly.
    Solved,
}

impl HintKind {
    /// The name written as `technique`, e.g. `hidden single`, `wrong entry`.
    pub fn name(self) -> &'static str {
        match self {
            HintKind::WrongEntry => "wrong entry",
            HintKind::MissingCandidate => "missing candidate",
            HintKind::FullHouse => "full house",
            HintKind::Technique(s) => s.name(),
            HintKind::Solved => "solved",
        }
    }
}

/// The next step on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// What kind of step it is.
    pub kind: HintKind,
    /// Where to look, e.g. `box 5` or `column 3, digit 7`.
    pub nudge: String,
    /// The technique, e.g. `There is an X-wing on 7.`
    pub hint: String,
    /// The whole move in plain words.
    pub step: String,
    /// The cells the step fills, with their digits.
    pub placements: Vec<(Cell, Digit)>,
    /// The candidates the step removes.
    pub eliminations: Vec<(Cell, Digit)>,
    /// The player's mistakes: wrong entries, or solution digits removed from the marks.
    pub errors: Vec<(Cell, Digit)>,
    /// Where the nudge sends the player to look: the house or cells it names (empty when it
    /// names none, as for several mistakes or a solved board).
    pub focus: CellSet,
    /// The application found, for techniques.
    pub application: Option<Application>,
    /// How far up the ladder the step is: 0 for a full house or a hidden single in a box
    /// (and for mistakes and a solved board), 1 for a hidden single in a row or column, 2 for
    /// a naked single, 3 and up for the rungs of the `difficulty` ladder after singles (pairs
    /// and locked candidates 3, triples and small fish 4, wings and single-digit patterns 5,
    /// unique rectangles 2-6, finned fish, WXYZ-wing and BUG+1 6, quads and jellyfish 7,
    /// colouring, X- and XY-chains and Sue de Coq 8, AICs, nice loops, ALS-XZ and ALS-XY-wing
    /// 9, ALS chains and death blossom 10, forcing chains 11, backtracking 12, trials 13 and
    /// up).
    pub rung: u8,
}

/// A hint as JSON shows it (`hint --json`, `explain --json`, `POST /v1/hint`), keys in this
/// order; cells and digits as `[row, column, digit]`, one-based.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = Hint)]
pub struct HintView<'a> {
    /// The step's number in a walkthrough (walkthroughs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The technique: `mistake`, `naked-single`, `x-wing`, ...
    pub technique: &'a str,
    /// The first disclosure: where to look.
    pub nudge: &'a str,
    /// The second: the technique and its cells.
    pub hint: &'a str,
    /// The third: the whole move.
    #[serde(rename = "move")]
    pub words: &'a str,
    /// The digits the move places.
    #[schema(value_type = Vec<Vec<u8>>)]
    pub placements: Vec<[u8; 3]>,
    /// The candidates the move removes.
    #[schema(value_type = Vec<Vec<u8>>)]
    pub eliminations: Vec<[u8; 3]>,
    /// Where the nudge sends the player to look, as `[row, column]`: the house or cells it
    /// names.
    #[schema(value_type = Vec<Vec<u8>>)]
    pub focus: Vec<[u8; 2]>,
    /// The cells of the step's pattern (the technique's cells; the mistakes' cells), as
    /// `[row, column]`.
    #[schema(value_type = Vec<Vec<u8>>)]
    pub pattern: Vec<[u8; 2]>,
    /// The player's wrong entries, first of all (hints only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Vec<u8>>>)]
    pub errors: Option<Vec<[u8; 3]>>,
    /// Each cell's candidates before the step (walkthroughs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<String>>,
}

/// `[row, col, digit]`, one-based.
fn triple(&(c, d): &(Cell, Digit)) -> [u8; 3] {
    [c.row() + 1, c.col() + 1, d.get()]
}

/// `[row, col]`, one-based.
fn pair(c: Cell) -> [u8; 2] {
    [c.row() + 1, c.col() + 1]
}

impl Hint {
    /// The hint as JSON shows it: `technique`, `nudge`, `hint`, `move`, `placements`,
    /// `eliminations`, `focus`, `pattern`, `errors`.
    pub fn view(&self) -> HintView<'_> {
        self.view_of(None, Some(self.errors.iter().map(triple).collect()), None)
    }

    /// The hint as one JSON object ([`Hint::view`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.view()).expect("serializable")
    }

    /// The hint as step `step` of a walkthrough: one JSON object with the keys `step`,
    /// `technique`, `nudge`, `hint`, `move`, `placements`, `eliminations`, and with `before`
    /// `candidates` (81 strings, see [`cell_text`]).
    pub fn to_step_json(&self, step: usize, before: Option<&Candidates>) -> String {
        let candidates = before.map(|st| Cell::all().map(|c| cell_text(st, c)).collect());
        serde_json::to_string(&self.view_of(Some(step), None, candidates)).expect("serializable")
    }

    fn view_of(
        &self,
        step: Option<usize>,
        errors: Option<Vec<[u8; 3]>>,
        candidates: Option<Vec<String>>,
    ) -> HintView<'_> {
        HintView {
            step,
            technique: self.kind.name(),
            nudge: &self.nudge,
            hint: &self.hint,
            words: &self.step,
            placements: self.placements.iter().map(triple).collect(),
            eliminations: self.eliminations.iter().map(triple).collect(),
            focus: self.focus.iter().map(pair).collect(),
            pattern: self.pattern().iter().map(pair).collect(),
            errors,
            candidates,
        }
    }

    /// The cells of the step's pattern: the application's, or the mistakes'.
    pub fn pattern(&self) -> CellSet {
        match &self.application {
            Some(a) => a.cells,
            None => self.errors.iter().map(|&(c, _)| c).collect(),
        }
    }

    /// The hint as one tab-separated line: technique, nudge, hint, move.
    pub fn to_tsv(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.kind.name(),
            self.nudge,
            self.hint,
            self.step
        )
    }

    fn mistake(kind: HintKind, errors: Vec<(Cell, Digit)>, nudge: String, hint: String) -> Hint {
        let step = errors
            .iter()
            .map(|(c, d)| match kind {
                HintKind::WrongEntry => format!("{c} is not {d}"),
                _ => format!("{c} can still be {d}"),
            })
            .collect::<Vec<_>>()
            .join("; ")
            + ".";
        // A nudge names the first mistake's box when it names a place at all.
        let focus = match (kind, errors.as_slice()) {
            (HintKind::WrongEntry, [_, _, ..]) | (_, []) => CellSet::EMPTY,
            (_, [(c, _), ..]) => CellSet::house(House::Box(c.box_index())),
        };
        Hint {
            kind,
            nudge,
            hint,
            step,
            placements: Vec::new(),
            eliminations: Vec::new(),
            focus,
            errors,
            application: None,
            rung: 0,
        }
    }
}

/// The only solution of `puzzle`, or why there is none.
fn unique_solution(puzzle: &Puzzle) -> Result<Grid, HintError> {
    match solve(puzzle) {
        Solutions::Unique(g) => Ok(g),
        Solutions::None => Err(HintError::NoSolution),
        Solutions::Multiple(_) => Err(HintError::Multiple),
    }
}

/// The next step on `board`: its mistakes first, then the easiest technique that makes
/// progress; without marks, the next placement (see the module's docs).
pub fn hint(board: &Board) -> Result<Hint, HintError> {
    let solution = unique_solution(&board.clues)?;
    // Wrong entries.
    let mut wrong = Vec::new();
    let mut filled = *board.clues.as_bytes();
    for c in Cell::all() {
        let v = board.entries[c.index()];
        if v == 0 || board.clues.get(c).is_some_and(|d| d.get() == v) {
            continue;
        }
        if v != solution.get(c).get() {
            wrong.push((c, Digit::new(v).expect("1-9")));
        } else {
            filled[c.index()] = v;
        }
    }
    if !wrong.is_empty() {
        let n = wrong.len();
        let nudge = if n == 1 {
            format!(
                "One of your entries is wrong: check {}.",
                House::Box(wrong[0].0.box_index())
            )
        } else {
            format!("{n} of your entries are wrong.")
        };
        let hint = format!(
            "Wrong: {}.",
            wrong
                .iter()
                .map(|(c, _)| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Ok(Hint::mistake(HintKind::WrongEntry, wrong, nudge, hint));
    }
    let position = Puzzle::from_bytes_unchecked(filled);
    let mut st = Candidates::new(&position);
    if st.is_solved() {
        return Ok(Hint {
            kind: HintKind::Solved,
            nudge: "The puzzle is solved.".into(),
            hint: "The puzzle is solved.".into(),
            step: "Every cell is filled, and correctly.".into(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            errors: Vec::new(),
            focus: CellSet::EMPTY,
            application: None,
            rung: 0,
        });
    }
    // Marks: solution digits removed are mistakes; the other removals are kept.
    if let Some(marks) = &board.marks {
        let mut missing = Vec::new();
        for c in st.empty() {
            let d = solution.get(c);
            if marks[c.index()] >> d.index() & 1 == 0 {
                missing.push((c, d));
            }
        }
        if !missing.is_empty() {
            let nudge = format!(
                "A digit you removed is still possible: look at {}.",
                House::Box(missing[0].0.box_index())
            );
            let hint = format!("Look at {}.", missing[0].0);
            return Ok(Hint::mistake(
                HintKind::MissingCandidate,
                missing,
                nudge,
                hint,
            ));
        }
        for c in st.empty() {
            let gone = st.candidates(c).bits() & !marks[c.index()];
            for d in DigitSet::from_bits(gone).iter() {
                st.remove(d, CellSet::single(c));
            }
        }
    }
    if board.marks.is_none() {
        return Ok(toward_placement(&st, &solution));
    }
    let (a, full_house) = next_step(&st, &solution);
    Ok(describe(&st, &a, full_house))
}

/// The longest run of eliminations a hint aimed at a placement spells out; past it, the move
/// names how many more steps the logic takes (each is in `explain`'s walkthrough).
const SPELLED_STEPS: usize = 6;

/// A hint for a player who keeps no notes, who cannot record an elimination: the next
/// placement the logic reaches from `st`. When the easiest step places a digit, that step;
/// otherwise the eliminations the easiest steps make until a cell's digit follows, cut down
/// to those the placement needs (each kept step found again, as it is, on the board the kept
/// ones before it leave), as the reason, and the placement as the move. Such a hint always
/// fills a cell, so a player who follows hints always gets on.
fn toward_placement(st: &Candidates, solution: &Grid) -> Hint {
    let mut scratch = st.clone();
    let mut chain: Vec<Application> = Vec::new();
    let last = loop {
        let (a, full_house) = next_step(&scratch, solution);
        if let Effect::Place(..) = a.effect {
            if chain.is_empty() {
                return describe(&scratch, &a, full_house);
            }
            break a;
        }
        scratch.apply(&scratch.restrict(&a.effect));
        chain.push(a);
    };
    // The placement on the board the steps leave: a single there, else its own step again.
    let placed = |end: &Candidates| -> Option<(Application, bool)> {
        let Effect::Place(c, d) = last.effect else {
            return None;
        };
        match last.strategy {
            Strategy::HiddenSingle | Strategy::NakedSingle => single_at(end, c, d),
            _ => find_again(end, &last, solution).map(|found| (found, false)),
        }
    };
    // Each step the placement does without goes, earliest first. `found` is the chain found
    // again from `st` step by step (as far as it has been), `boards[i]` the board before
    // `found[i]` (one more: the board after the last), and `aim` the placement on the last
    // board once `found` is the whole chain. Finding steps again is deterministic, so a
    // chain without step `k` is found again from `boards[k]` on, and a chain found again is
    // found again as itself (each step has the technique, pattern and kind of the one it was
    // found for, and is the first such).
    let mut found: Vec<Application> = Vec::with_capacity(chain.len());
    let mut boards: Vec<Candidates> = Vec::with_capacity(chain.len() + 1);
    boards.push(st.clone());
    let mut aim: Option<(Application, bool)> = None;
    // Finds the chain again up to `n` steps; false when one of them is not there any more.
    let extend = |n: usize,
                  chain: &[Application],
                  found: &mut Vec<Application>,
                  boards: &mut Vec<Candidates>| {
        while found.len() < n {
            let at = &boards[found.len()];
            let Some(again) = find_again(at, &chain[found.len()], solution) else {
                return false;
            };
            let mut next = at.clone();
            next.apply(&next.restrict(&again.effect));
            found.push(again);
            boards.push(next);
        }
        true
    };
    let mut k = 0;
    while k < chain.len() && chain.len() > 1 {
        // A chain whose first k steps are not found again has no step of its own removed:
        // every shorter chain from there on keeps the step that is not there.
        if !extend(k, &chain, &mut found, &mut boards) {
            break;
        }
        let mut at = boards[k].clone();
        let mut rest = Vec::with_capacity(chain.len() - k - 1);
        let mut rest_boards = Vec::with_capacity(chain.len() - k - 1);
        let mut all = true;
        for a in &chain[k + 1..] {
            let Some(again) = find_again(&at, a, solution) else {
                all = false;
                break;
            };
            let mut next = at.clone();
            next.apply(&next.restrict(&again.effect));
            rest.push(again);
            rest_boards.push(std::mem::replace(&mut at, next));
        }
        match all.then(|| placed(&at)).flatten() {
            Some(p) => {
                found.truncate(k);
                found.extend(rest);
                boards.truncate(k);
                boards.extend(rest_boards);
                boards.push(at);
                chain.clone_from(&found);
                aim = Some(p);
            }
            None => k += 1,
        }
    }
    // The steps found again lead to the placement (the unpruned chain by construction, a
    // pruned one as checked); were that ever not so, the easiest step is the hint still.
    let aimed_at = extend(chain.len(), &chain, &mut found, &mut boards)
        .then(|| aim.or_else(|| placed(&boards[chain.len()])))
        .flatten();
    let Some((a, full_house)) = aimed_at else {
        let (a, full_house) = next_step(st, solution);
        return describe(st, &a, full_house);
    };
    let words = found
        .iter()
        .zip(&boards)
        .map(|(a, at)| describe(at, a, false))
        .collect();
    aimed(words, describe(&boards[chain.len()], &a, full_house))
}

/// The step `a` found again on `at` by its technique: the first application of the search
/// with the same pattern and the same kind of deduction (a placement the same placement)
/// that still changes the board. `None` when there is none.
fn find_again(at: &Candidates, a: &Application, solution: &Grid) -> Option<Application> {
    let ctx = Context {
        solution: Some(*solution),
    };
    let mut out = Vec::new();
    match a.strategy {
        s if s.is_forcing_chain() => {
            strategies::forcing_chain::search_all(at, &mut out);
        }
        Strategy::Backtracking => {
            strategies::search(Strategy::Backtracking, at, &Context::default(), &mut out);
        }
        Strategy::TrialAndError => {
            trial::search(at, &ctx, a.depth, &mut Known::default(), &mut out);
        }
        s => {
            strategies::search(s, at, &ctx, &mut out);
        }
    }
    let same_kind = |b: &Application| match (a.effect, b.effect) {
        (Effect::Place(..), Effect::Place(..)) => a.effect == b.effect,
        (Effect::Remove(_), Effect::Remove(_)) => true,
        _ => false,
    };
    out.into_iter().find(|b| {
        b.strategy == a.strategy
            && b.cells == a.cells
            && b.digits == a.digits
            && same_kind(b)
            && at.changes(&b.effect)
    })
}

/// The single that places `d` in `c` on `st`, if there is one: a full house, a hidden single
/// (in the cell's box first) or a naked single; with whether it is a full house.
fn single_at(st: &Candidates, c: Cell, d: Digit) -> Option<(Application, bool)> {
    if !st.empty().contains(c) || !st.candidates(c).contains(d) {
        return None;
    }
    let houses = [
        House::Box(c.box_index()),
        House::Row(c.row()),
        House::Col(c.col()),
    ];
    let place = Effect::Place(c, d);
    for h in houses {
        let cells = CellSet::house(h);
        if (st.empty() & cells).len() == 1 {
            let a = Application::at_cell(Strategy::HiddenSingle, c, d, place).in_house(Some(h));
            return Some((a, true));
        }
    }
    for h in houses {
        if (st.cells_with(d) & CellSet::house(h)).len() == 1 {
            let a = Application::at_cell(Strategy::HiddenSingle, c, d, place).in_house(Some(h));
            return Some((a, false));
        }
    }
    (st.candidates(c).len() == 1).then(|| {
        (
            Application::at_cell(Strategy::NakedSingle, c, d, place),
            false,
        )
    })
}

/// The hint made of `chain` (eliminations, in order) and the placement `last` they lead to.
fn aimed(chain: Vec<Hint>, last: Hint) -> Hint {
    let n = chain.len();
    let rung = chain
        .iter()
        .map(|h| h.rung)
        .chain([last.rung])
        .max()
        .unwrap_or(0);
    let (c, d) = last.placements[0];
    let mut move_words = String::new();
    for (i, h) in chain.iter().take(SPELLED_STEPS).enumerate() {
        let lead = match (i, n) {
            (_, 1) => "",
            (0, _) => "First: ",
            _ => "Then: ",
        };
        let _ = write!(move_words, "{lead}{} ", h.step);
    }
    if n > SPELLED_STEPS {
        let more = n - SPELLED_STEPS;
        let steps = if more == 1 { "step" } else { "steps" };
        let _ = write!(move_words, "Then {more} more {steps} of elimination. ");
    }
    let _ = write!(move_words, "So: {}", last.step);
    let first = chain.into_iter().next().expect("a chain");
    let steps = if n == 1 {
        "This step leads".to_string()
    } else {
        format!(
            "This and {} more {} lead",
            n - 1,
            if n == 2 { "step" } else { "steps" }
        )
    };
    Hint {
        hint: format!("{} {steps} to the digit of {c}.", first.hint),
        step: move_words,
        placements: vec![(c, d)],
        eliminations: Vec::new(),
        rung,
        ..first
    }
}

/// The easiest application on `st` along the difficulty ladder, and whether it is a full
/// house.
fn next_step(st: &Candidates, solution: &Grid) -> (Application, bool) {
    if let Some(a) = singles(st) {
        return a;
    }
    let ctx = Context {
        solution: Some(*solution),
    };
    let mut out = Vec::new();
    for (i, rung) in crate::rate::difficulty::LADDER.iter().enumerate() {
        out.clear();
        match rung {
            Rung::Strategies(list) => {
                for &s in list.iter() {
                    strategies::search(s, st, &ctx, &mut out);
                }
            }
            Rung::Forcing => {
                strategies::forcing_chain::search_all(st, &mut out);
            }
            Rung::Backtracking => {
                // Without the solution: only a contradiction proves a value, which a player
                // can follow (a trial that happens to complete the grid is a guess).
                let blind = Context::default();
                strategies::search(Strategy::Backtracking, st, &blind, &mut out);
            }
            Rung::Trial(depth) => {
                trial::search(st, &ctx, *depth, &mut Known::default(), &mut out);
            }
        }
        out.retain(|a| st.changes(&a.effect));
        if i + 1 >= crate::rate::difficulty::SIMPLEST_FROM {
            // From where the rating takes the simplest technique found, so does the hint: the
            // easiest technique of the rung, then its shortest pattern, a placement first.
            let simplest = out.iter().min_by_key(|a| {
                let place = matches!(a.effect, Effect::Place(..));
                (
                    crate::rate::difficulty::rank(a.strategy),
                    !place,
                    a.depth,
                    a.cells.len(),
                )
            });
            if let Some(a) = simplest {
                return (*a, false);
            }
            continue;
        }
        let place = out.iter().find(|a| matches!(a.effect, Effect::Place(..)));
        if let Some(a) = place.or(out.first()) {
            return (*a, false);
        }
    }
    // Trials at depth 4 settle every position with one solution; placing the solution's
    // digit in the first empty cell is the last resort all the same.
    let c = st.empty().first().expect("not solved");
    let d = solution.get(c);
    let a = Application::at_cell(Strategy::TrialAndError, c, d, Effect::Place(c, d));
    (a, false)
}

/// The first single in the order people find them: full houses, hidden singles in boxes,
/// hidden singles in rows and columns, naked singles.
fn singles(st: &Candidates) -> Option<(Application, bool)> {
    let houses_of = |order: &[usize]| -> Option<(Application, bool)> {
        for &h in order {
            let house = House::from_index(h).expect("house < 27");
            let cells = CellSet::house_at(h);
            for d in Digit::all() {
                let places = st.cells_with(d) & cells;
                if places.len() == 1 {
                    let c = places.first().expect("one");
                    let full = (st.empty() & cells).len() == 1;
                    let a = Application::at_cell(Strategy::HiddenSingle, c, d, Effect::Place(c, d))
                        .in_house(Some(house));
                    return Some((a, full));
                }
            }
        }
        None
    };
    // Full houses first.
    for h in 0..27 {
        let cells = CellSet::house_at(h) & st.empty();
        if cells.len() == 1 {
            let c = cells.first().expect("one");
            if let Some(d) = st.candidates(c).first() {
                let a = Application::at_cell(Strategy::HiddenSingle, c, d, Effect::Place(c, d))
                    .in_house(House::from_index(h));
                return Some((a, true));
            }
        }
    }
    let boxes: Vec<usize> = (18..27).collect();
    let lines: Vec<usize> = (0..18).collect();
    if let Some(found) = houses_of(&boxes).or_else(|| houses_of(&lines)) {
        return Some(found);
    }
    let c = st.naked_single_cells().first()?;
    let d = st.candidates(c).first()?;
    Some((
        Application::at_cell(Strategy::NakedSingle, c, d, Effect::Place(c, d)),
        false,
    ))
}

/// The ladder position of an application (see [`Hint::rung`]).
fn rung_of(a: &Application, full_house: bool) -> u8 {
    match a.strategy {
        Strategy::HiddenSingle => match a.house {
            _ if full_house => 0,
            Some(House::Box(_)) => 0,
            _ => 1,
        },
        Strategy::NakedSingle => 2,
        s => {
            let at = crate::rate::difficulty::LADDER
                .iter()
                .position(|rung| match rung {
                    Rung::Strategies(list) => list.contains(&s),
                    Rung::Forcing => s.is_forcing_chain(),
                    Rung::Backtracking => s == Strategy::Backtracking,
                    Rung::Trial(depth) => s == Strategy::TrialAndError && a.depth <= *depth,
                });
            3 + at.unwrap_or(crate::rate::difficulty::LADDER.len()) as u8
        }
    }
}

/// One step of a walkthrough: the candidates before it, and the step as a hint.
#[derive(Clone, Debug)]
pub struct Walk {
    /// The candidate state the step is found in.
    pub before: Candidates,
    /// The step.
    pub hint: Hint,
}

/// The whole solution of `puzzle` as a player would find it: from the clues, the next step
/// (as [`hint`] gives it, on the candidates so far) applied until every cell is filled.
pub fn walkthrough(puzzle: &Puzzle) -> Result<Vec<Walk>, HintError> {
    let solution = unique_solution(puzzle)?;
    let mut st = Candidates::new(puzzle);
    let mut steps = Vec::new();
    while !st.is_solved() {
        let (a, full_house) = next_step(&st, &solution);
        let hint = describe(&st, &a, full_house);
        let before = st.clone();
        st.apply(&st.restrict(&a.effect));
        steps.push(Walk { before, hint });
    }
    Ok(steps)
}

/// A cell of `st` as text: a filled cell's digit, an empty cell's candidates (e.g. `157`).
pub fn cell_text(st: &Candidates, c: Cell) -> String {
    match st.value(c) {
        Some(d) => d.to_string(),
        None => st.candidates(c).iter().map(|d| d.to_string()).collect(),
    }
}

/// The candidate grid of `st`: each filled cell's digit, each empty cell's candidates, columns
/// padded to their widest cell, boxes ruled off.
pub fn candidate_grid(st: &Candidates) -> String {
    let text = |c: Cell| cell_text(st, c);
    let widths: [usize; 9] = std::array::from_fn(|col| {
        (0..9)
            .map(|row| text(Cell::at(row, col as u8).expect("a cell")).len())
            .max()
            .unwrap_or(1)
    });
    let rule: String = (0..3)
        .map(|s| "-".repeat(widths[3 * s..3 * s + 3].iter().sum::<usize>() + 4))
        .collect::<Vec<_>>()
        .join("+");
    let mut out = String::new();
    for row in 0..9u8 {
        if row > 0 && row % 3 == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        let mut line = String::new();
        for col in 0..9u8 {
            if col > 0 && col % 3 == 0 {
                line.push_str(" |");
            }
            let cell = text(Cell::at(row, col).expect("a cell"));
            let _ = write!(line, " {cell:<w$}", w = widths[col as usize]);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One step of a player's [`path`]: the technique, its ladder position ([`Hint::rung`]) and
/// whether it leaves a hidden single on the board (a step that does is what some graders call
/// *direct*: it leads straight to a placement found without candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The technique of the step.
    pub strategy: Strategy,
    /// How far up the ladder it is ([`Hint::rung`]).
    pub rung: u8,
    /// Whether a hidden single is open after it.
    pub direct: bool,
}

/// The steps of the [`walkthrough`] of `puzzle` (whose solution is `solution`) without their
/// words: what a player following the easiest technique at every step would use, in order.
pub fn path(puzzle: &Puzzle, solution: &Grid) -> Vec<PathStep> {
    let mut st = Candidates::new(puzzle);
    let mut steps = Vec::new();
    while !st.is_solved() {
        let (a, full_house) = next_step(&st, solution);
        st.apply(&st.restrict(&a.effect));
        steps.push(PathStep {
            strategy: a.strategy,
            rung: rung_of(&a, full_house),
            direct: !st.hidden_single_cells().is_empty(),
        });
    }
    steps
}
