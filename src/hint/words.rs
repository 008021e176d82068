//! The words of a hint: the nudge, the technique and the whole move for each kind of step,
//! with the pattern's cells (a fish's base and cover lines, a chain's links and their kinds, a
//! trial's consequences up to its contradiction).

use super::{Hint, HintKind};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, House};
use crate::strategies::{self, Application, Context, Strategy};
use std::fmt::Write as _;

mod chains;
mod fish_and_wings;
mod sets;
mod single_digit;
mod uniqueness;

/// The three disclosures of a step in words: the nudge, the hint and the whole move.
type Words = (String, String, String);

/// An application found on a state, as the words of each family of techniques read it.
#[derive(Clone, Copy)]
struct Found<'a> {
    /// The state it was found on.
    st: &'a Candidates,
    /// The application.
    a: &'a Application,
    /// What it changes on `st`.
    effect: &'a Effect,
    /// That change in words ([`removal_words`]).
    elim: &'a str,
}

/// The words of one family of techniques (`single_digit`, `uniqueness`, ...) for an
/// application; `None` for a technique of another family.
type Describe = fn(Found) -> Option<Words>;

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |f| f.to_uppercase().chain(chars).collect())
}

/// "a", "a and b", "a, b and c".
fn and_list<T: ToString>(items: impl IntoIterator<Item = T>, word: &str) -> String {
    let v: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} {word} {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

/// The cells of a set, as words.
fn cells_words(s: CellSet, word: &str) -> String {
    and_list(s.iter(), word)
}

/// The digits of a set, as words: "3, 5 and 8".
fn digits_words(ds: DigitSet, word: &str) -> String {
    and_list(ds.iter(), word)
}

/// A cell with its candidates: "r2c1 (4, 5 or 6)".
fn with_candidates(st: &Candidates, c: Cell) -> String {
    format!("{c} ({})", digits_words(st.candidates(c), "or"))
}

/// "holds" after one cell, "hold" after several.
fn hold(cells: CellSet) -> &'static str {
    if cells.len() == 1 {
        "holds"
    } else {
        "hold"
    }
}

/// The words of a pattern that cannot be found again on the state: its name, its cells and
/// what it removes; for a single-digit technique (`on` its digit), the digit is the nudge.
fn unfound_words(a: &Application, on: Option<Digit>, elim: &str) -> Words {
    let name = a.strategy.name();
    let cells = cells_words(a.cells, "and");
    match on {
        Some(d) => (
            format!("digit {d}"),
            format!("Look for a {name} on {d}."),
            format!("The {name} on {d} in {cells} gives: {elim}."),
        ),
        None => (
            cells.clone(),
            format!("Look for a {name}."),
            format!("The {name} in {cells} gives: {elim}."),
        ),
    }
}

/// The rows (or columns) of a set of cells, as a mask of their indexes.
fn lines_of(s: CellSet, rows: bool) -> u16 {
    s.iter()
        .fold(0, |m, c| m | 1 << if rows { c.row() } else { c.col() })
}

/// "rows 2 and 6", "column 3".
fn lines_words(mask: u16, rows: bool) -> String {
    let name = match (rows, mask.count_ones()) {
        (true, 1) => "row",
        (true, _) => "rows",
        (false, 1) => "column",
        (false, _) => "columns",
    };
    let idx = (0..9).filter(|i| mask >> i & 1 != 0).map(|i| i + 1);
    format!("{name} {}", and_list(idx, "and"))
}

/// The eliminations of an effect, as (cell, digit) pairs, cell order then digit order.
fn removals(effect: &Effect) -> Vec<(Cell, Digit)> {
    match effect {
        Effect::Place(..) => Vec::new(),
        Effect::Remove(r) => {
            let mut out = Vec::new();
            for c in Cell::all() {
                for (di, s) in r.iter().enumerate() {
                    if s.contains(c) {
                        out.push((c, Digit::from_index(di)));
                    }
                }
            }
            out
        }
    }
}

/// The digits an effect removes.
fn removed_digits(effect: &Effect) -> DigitSet {
    match effect {
        Effect::Remove(r) => (0..9)
            .filter(|&d| !r[d].is_empty())
            .map(Digit::from_index)
            .collect(),
        Effect::Place(..) => DigitSet::EMPTY,
    }
}

/// The cells an effect removes digit `d` from.
fn removed_cells(effect: &Effect, d: Digit) -> CellSet {
    match effect {
        Effect::Remove(r) => r[d.index()],
        Effect::Place(..) => CellSet::EMPTY,
    }
}

/// What an effect removes, as words: "7 is not in r4c3 or r4c8" for one digit, else
/// "r1c2 is not 4 or 9; r1c5 is not 4".
fn removal_words(effect: &Effect) -> String {
    let Effect::Remove(r) = effect else {
        return String::new();
    };
    if let Some(d) = eliminated_digit(effect) {
        return format!("{d} is not in {}", cells_words(r[d.index()], "or"));
    }
    let mut cells = CellSet::EMPTY;
    for s in r {
        cells |= *s;
    }
    cells
        .iter()
        .map(|c| {
            let ds = (0..9).filter(|&d| r[d].contains(c)).map(Digit::from_index);
            format!("{c} is not {}", and_list(ds, "or"))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The line (row or column) all of `cells` share, if any.
fn shared_line(cells: CellSet) -> Option<House> {
    let first = cells.first()?;
    if cells.iter().all(|c| c.row() == first.row()) {
        Some(House::Row(first.row()))
    } else if cells.iter().all(|c| c.col() == first.col()) {
        Some(House::Col(first.col()))
    } else {
        None
    }
}

/// The three disclosures of an application on `st`.
pub(super) fn describe(st: &Candidates, a: &Application, full_house: bool) -> Hint {
    let mut placements = Vec::new();
    if let Effect::Place(c, d) = a.effect {
        placements.push((c, d));
    }
    let effect = st.restrict(&a.effect);
    let eliminations = removals(&effect);
    let elim = removal_words(&effect);
    let kind = if full_house {
        HintKind::FullHouse
    } else {
        HintKind::Technique(a.strategy)
    };
    let (nudge, hint, step) = match (a.strategy, a.effect) {
        (Strategy::HiddenSingle, Effect::Place(c, d)) if full_house => {
            let h = a.house.expect("a house");
            let house = capitalized(&h.to_string());
            (
                format!("{h}"),
                format!("{house} has one empty cell left."),
                format!(
                    "{house} has one empty cell left, {c}, and one digit is missing: {c} is {d}."
                ),
            )
        }
        (Strategy::HiddenSingle, Effect::Place(c, d)) => {
            let h = a.house.expect("a house");
            (
                format!("{h}, digit {d}"),
                format!("There is a hidden single in {h}."),
                format!("In {h}, {d} can only go in {c}: {c} is {d}."),
            )
        }
        (Strategy::NakedSingle, Effect::Place(c, d)) => (
            format!("{c}"),
            "There is a naked single: a cell with one candidate left.".to_string(),
            format!("Every digit but {d} is already in the row, column or box of {c}: {c} is {d}."),
        ),
        (Strategy::LockedCandidates, _) => locked_words(st, a, &effect),
        (s, _) if strategies::Strategy::NAKED_SUBSETS.contains(&s) => {
            let h = a.house.expect("a house");
            let ds = and_list(a.digits.iter(), "and");
            (
                format!("{h}"),
                format!("There is a {} in {h}.", s.name()),
                format!(
                    "In {h}, {} hold only {ds} between them, so {ds} are not elsewhere in {h}: \
                     {elim}.",
                    cells_words(a.cells, "and")
                ),
            )
        }
        (s, _) if strategies::Strategy::HIDDEN_SUBSETS.contains(&s) => {
            let h = a.house.expect("a house");
            let ds = and_list(a.digits.iter(), "and");
            (
                format!("{h}"),
                format!("There is a {} in {h}.", s.name()),
                format!(
                    "In {h}, {ds} can only go in {}, so those cells hold nothing else: {elim}.",
                    cells_words(a.cells, "and")
                ),
            )
        }
        (s, _) if strategies::Strategy::FISH.contains(&s) => fish_words(a, &effect, &elim),
        (Strategy::XyWing, _) | (Strategy::XyzWing, _) => wing_words(st, a, &elim),
        (Strategy::WWing, _) => w_wing_words(st, a, &effect, &elim),
        (Strategy::UniqueRectangle, _) => {
            let ds = and_list(a.digits.iter(), "and");
            (
                cells_words(a.cells, "and"),
                format!("There is a unique rectangle on {ds}."),
                format!(
                    "{} form a rectangle over two boxes; three of its corners hold only {ds}. If \
                     the fourth held {} too, the two digits could be swapped around the \
                     rectangle and the puzzle would have two solutions, so {elim}.",
                    cells_words(a.cells, "and"),
                    and_list(a.digits.iter(), "or")
                ),
            )
        }
        (Strategy::Colouring, _) => colouring_words(st, a, &elim),
        (Strategy::XyChain, _) => chain_words(st, a, &effect, &elim),
        (Strategy::Backtracking, _) | (Strategy::TrialAndError, _) => trial_words(st, a),
        _ => [
            single_digit::describe as Describe,
            uniqueness::describe,
            fish_and_wings::describe,
            sets::describe,
            chains::describe,
        ]
        .iter()
        .find_map(|words| {
            words(Found {
                st,
                a,
                effect: &effect,
                elim: &elim,
            })
        })
        .unwrap_or_else(|| {
            (
                cells_words(a.cells, "and"),
                format!("Look for a {}.", a.strategy.name()),
                format!("{a}"),
            )
        }),
    };
    Hint {
        kind,
        nudge,
        hint,
        step,
        placements,
        eliminations,
        errors: Vec::new(),
        focus: focus_of(st, a, &effect),
        application: Some(*a),
        rung: super::rung_of(a, full_house),
    }
}

/// Where the nudge sends the player to look, as cells: the house it names (a single's or a
/// subset's house, a locked candidate's first house, a fish's base lines), the cell (a naked
/// single, a wing's pivot, a chain's start, a trial's cell), the digit's places (colouring),
/// else the pattern's cells.
fn focus_of(st: &Candidates, a: &Application, effect: &Effect) -> CellSet {
    let first = a.cells.first().map_or(CellSet::EMPTY, CellSet::single);
    match a.strategy {
        Strategy::LockedCandidates => locked_from(a, effect).map_or(a.cells, CellSet::house),
        s if strategies::Strategy::FISH.contains(&s) => {
            let by_rows = fish_by_rows(a, effect);
            let lines = lines_of(a.cells, by_rows);
            CellSet::from_iter(
                Cell::all().filter(|c| lines >> if by_rows { c.row() } else { c.col() } & 1 != 0),
            )
        }
        Strategy::XyWing | Strategy::XyzWing => Cell::new(a.unit).map_or(a.cells, CellSet::single),
        Strategy::Colouring => a.digits.first().map_or(a.cells, |d| st.cells_with(d)),
        Strategy::NakedSingle
        | Strategy::XyChain
        | Strategy::Backtracking
        | Strategy::TrialAndError => first,
        _ => a.house.map_or(a.cells, CellSet::house),
    }
}

/// W-wing: two equal two-candidate cells, the strong link joining them, and the digit the
/// cells seeing both lose.
fn w_wing_words(st: &Candidates, a: &Application, effect: &Effect, elim: &str) -> Words {
    let ends: Vec<Cell> = a.cells.iter().collect();
    let (p, q) = (ends[0], ends[1]);
    let y = eliminated_digit(effect).expect("one digit");
    let x = (a.digits - DigitSet::single(y))
        .first()
        .expect("two digits");
    // The house where x has exactly two places, one seeing each end.
    let link = (0..27).find_map(|h| {
        let places = st.cells_with(x) & CellSet::house_at(h);
        if places.len() != 2 || places.contains(p) || places.contains(q) {
            return None;
        }
        let mut it = places.iter();
        let (u, v) = (it.next()?, it.next()?);
        let sees = |a: Cell, b: Cell| CellSet::peers(a).contains(b);
        if sees(p, u) && sees(q, v) {
            Some((House::from_index(h)?, u, v))
        } else if sees(p, v) && sees(q, u) {
            Some((House::from_index(h)?, v, u))
        } else {
            None
        }
    });
    let link_words = match link {
        Some((h, u, v)) => format!(
            "In {h}, {x} can only go in {u} or {v}; {u} sees {p} and {v} sees {q}, so one of \
             {p} and {q} is not {x}: it is {y}"
        ),
        None => format!("A strong link on {x} joins them, so one of them is {y}"),
    };
    (
        format!("{p} and {q}"),
        format!("There is a W-wing on {x} and {y}."),
        format!(
            "{p} and {q} both hold only {x} and {y}. {link_words}. Cells seeing both lose {y}: \
             {elim}."
        ),
    )
}

/// The one digit an effect removes, if it removes one digit only.
fn eliminated_digit(effect: &Effect) -> Option<Digit> {
    let ds = removed_digits(effect);
    ds.first().filter(|_| ds.len() == 1)
}

/// Locked candidates: pointing (a box's places on a line) or claiming (a line's places in a
/// box), per digit removed.
fn locked_words(st: &Candidates, a: &Application, effect: &Effect) -> Words {
    let Effect::Remove(r) = effect else {
        unreachable!("locked candidates remove");
    };
    let shared = a.cells;
    let line = shared_line(shared).expect("an intersection lies on a line");
    let bx = House::Box(shared.first().expect("cells").box_index());
    let (mut nudge, mut hint, mut steps) = (String::new(), String::new(), Vec::new());
    for d in Digit::all() {
        let gone = r[d.index()];
        if gone.is_empty() {
            continue;
        }
        let places = st.cells_with(d) & shared;
        let (from, to, how) = if claims(gone, bx) {
            (line, bx, "claiming")
        } else {
            (bx, line, "pointing")
        };
        if nudge.is_empty() {
            nudge = format!("{from}, digit {d}");
            hint = format!("There are locked candidates on {d} ({how}).");
        }
        steps.push(format!(
            "In {from}, {d} can only go in {}, which are also in {to}, so {d} is not elsewhere \
             in {to}: {d} is not in {}",
            cells_words(places, "or"),
            cells_words(gone, "or")
        ));
    }
    (nudge, hint, steps.join("; ") + ".")
}

/// Whether locked candidates removing `gone` claim (from a line, for the box `bx`) rather
/// than point (from the box, for a line).
fn claims(gone: CellSet, bx: House) -> bool {
    gone.is_subset(CellSet::house(bx))
}

/// The house locked candidates start from (the nudge's): the line when they claim, the box
/// when they point; that of the first digit they remove.
fn locked_from(a: &Application, effect: &Effect) -> Option<House> {
    let Effect::Remove(r) = effect else {
        return None;
    };
    let line = shared_line(a.cells)?;
    let bx = House::Box(a.cells.first()?.box_index());
    let gone = r.iter().find(|g| !g.is_empty())?;
    Some(if claims(*gone, bx) { line } else { bx })
}

/// Whether a fish's base lines are rows: its removals lie in the places' columns but outside
/// their rows.
fn fish_by_rows(a: &Application, effect: &Effect) -> bool {
    let d = a.digits.first().expect("a digit");
    let gone = removed_cells(effect, d);
    let rows = lines_of(a.cells, true);
    gone.iter().all(|c| rows >> c.row() & 1 == 0)
}

/// Fish: the base lines holding the digit's places, the cover lines they lie in.
fn fish_words(a: &Application, effect: &Effect, elim: &str) -> Words {
    let d = a.digits.first().expect("a digit");
    let n = a.strategy;
    let rows = lines_of(a.cells, true);
    let cols = lines_of(a.cells, false);
    let by_rows = fish_by_rows(a, effect);
    let (base, cover) = if by_rows {
        (lines_words(rows, true), lines_words(cols, false))
    } else {
        (lines_words(cols, false), lines_words(rows, true))
    };
    let per_line: Vec<String> = (0..9u8)
        .filter(|&i| (if by_rows { rows } else { cols }) >> i & 1 != 0)
        .map(|i| {
            let line = a
                .cells
                .iter()
                .filter(|c| if by_rows { c.row() == i } else { c.col() == i });
            and_list(line, "or")
        })
        .collect();
    let name = match n {
        Strategy::XWing => "an X-wing",
        Strategy::Swordfish => "a swordfish",
        _ => "a jellyfish",
    };
    (
        format!("{d} in {base}"),
        format!("There is {name} on {d}."),
        format!(
            "In {base}, {d} can only go in {cover}: {d} must be in {}. Each of {cover} gets its \
             {d} in one of {base}, so {elim}.",
            per_line.join(" and in ")
        ),
    )
}

/// XY-wing and XYZ-wing: a pivot and two pincers.
fn wing_words(st: &Candidates, a: &Application, elim: &str) -> Words {
    let pivot = Cell::new(a.unit).expect("a cell");
    let pincers: Vec<Cell> = (a.cells - CellSet::single(pivot)).iter().collect();
    let name = if a.strategy == Strategy::XyWing {
        "an XY-wing"
    } else {
        "an XYZ-wing"
    };
    let z = st.candidates(pincers[0]) & st.candidates(pincers[1]);
    let z = z.first().map_or(String::new(), |d| d.to_string());
    (
        format!("{pivot}"),
        format!("There is {name} with its pivot in {pivot}."),
        format!(
            "The pivot {} sees {} and {}. Whatever the pivot holds, one of {} holds {z}, so \
             a cell seeing {} cannot be {z}: {elim}.",
            with_candidates(st, pivot),
            with_candidates(st, pincers[0]),
            with_candidates(st, pincers[1]),
            if a.strategy == Strategy::XyWing {
                "the two pincers"
            } else {
                "the three cells"
            },
            if a.strategy == Strategy::XyWing {
                "both pincers"
            } else {
                "all three"
            }
        ),
    )
}

/// The cells linked to `start` by strong links on `d` (houses with exactly two places), in
/// two colours: (same colour as `start`, the other colour).
fn colour_chain(st: &Candidates, d: Digit, start: Cell) -> (CellSet, CellSet) {
    let places = st.cells_with(d);
    let mut colour = [CellSet::single(start), CellSet::EMPTY];
    let mut frontier = vec![(start, 0usize)];
    while let Some((c, k)) = frontier.pop() {
        for h in 0..27 {
            let house = CellSet::house_at(h);
            if !house.contains(c) {
                continue;
            }
            let pair = places & house;
            if pair.len() != 2 {
                continue;
            }
            let other = (pair - CellSet::single(c)).first().expect("two");
            if !colour[0].contains(other) && !colour[1].contains(other) {
                colour[1 - k].insert(other);
                frontier.push((other, 1 - k));
            }
        }
    }
    (colour[0], colour[1])
}

/// Simple colouring: the chain's two colours, then the wrap or the trap.
fn colouring_words(st: &Candidates, a: &Application, elim: &str) -> Words {
    let d = a.digits.first().expect("a digit");
    let start = a.cells.first().expect("cells");
    let (one, two) = colour_chain(st, d, start);
    let sees_own = |s: CellSet| s.iter().any(|c| CellSet::peers(c).intersects(s));
    let how = if sees_own(one) || sees_own(two) {
        "Two cells of one colour see each other, so that colour is false everywhere"
    } else {
        "Cells seeing both colours cannot hold it, as one colour is true"
    };
    (
        format!("digit {d}"),
        format!("Colour the strong links of {d}."),
        format!(
            "Link the places of {d} in houses where it has exactly two: one of each pair holds \
             {d}. Coloured alternately, one colour is {}, the other {}; one of the colours \
             holds every {d}. {how}: {elim}.",
            cells_words(one, "and"),
            cells_words(two, "and")
        ),
    )
}

/// An XY-chain: the path of forced cells from the start to an end that holds the digit.
fn chain_words(st: &Candidates, a: &Application, effect: &Effect, elim: &str) -> Words {
    let start = a.cells.first().expect("a start");
    let x = a.digits.first().expect("a digit");
    let path = xy_path(st, start, x, removed_cells(effect, x));
    let text = match &path {
        Some(links) => {
            let mut s = format!("If {start} is not {x}, it is {}", links[0].1);
            for &(c, v) in &links[1..] {
                let _ = write!(s, ", so {c} is {v}");
            }
            let end = links.last().expect("a link").0;
            let _ = write!(
                s,
                ". Either {start} or {end} is {x}, and the cells seeing both lose it: {elim}. \
                 The chain: "
            );
            // (a=b)cell: a strong link inside a two-candidate cell (if not a, then b);
            // between cells, a weak link (they see each other, so not both b).
            let mut from = x;
            for (i, &(c, v)) in links.iter().enumerate() {
                if i > 0 {
                    s.push_str(" - ");
                }
                let _ = write!(s, "({from}={v}){c}");
                from = v;
            }
            s.push_str(
                " (= a strong link inside a two-candidate cell: one of its digits is true; - a \
                 weak link between cells that see each other: they are not both that digit).",
            );
            s
        }
        None => format!(
            "A chain of two-candidate cells from {start} forces {x} at its other end; cells \
             seeing both ends lose {x}: {elim}."
        ),
    };
    (
        format!("{start}, digit {x}"),
        format!("There is an XY-chain starting at {start}."),
        text,
    )
}

/// The links of an XY-chain from `start` (not `x`) to an end forced to `x` that sees one of
/// `gone` together with `start`: each link a two-candidate cell and the digit it is forced to.
fn xy_path(st: &Candidates, start: Cell, x: Digit, gone: CellSet) -> Option<Vec<(Cell, Digit)>> {
    let bivalue = st.bivalue_cells();
    let other = |c: Cell, v: Digit| (st.candidates(c) - DigitSet::single(v)).first();
    let first = other(start, x)?;
    // Breadth first over (cell, forced digit), up to eight cells.
    let mut parent: Vec<((Cell, Digit), Option<usize>)> = vec![((start, first), None)];
    let mut seen = vec![(start, first)];
    let mut head = 0;
    while head < parent.len() {
        let ((c, v), _) = parent[head];
        let depth = {
            let (mut n, mut i) = (1, head);
            while let Some(p) = parent[i].1 {
                n += 1;
                i = p;
            }
            n
        };
        if depth >= 8 {
            head += 1;
            continue;
        }
        for n in (bivalue & CellSet::peers(c)).iter() {
            if !st.candidates(n).contains(v) {
                continue;
            }
            let w = other(n, v).expect("two candidates");
            if seen.contains(&(n, w)) || n == start {
                continue;
            }
            seen.push((n, w));
            parent.push(((n, w), Some(head)));
            if w == x
                && gone
                    .iter()
                    .any(|g| CellSet::seen_by_both(start, n).contains(g))
            {
                let mut links = vec![(n, w)];
                let mut i = head;
                loop {
                    links.push(parent[i].0);
                    match parent[i].1 {
                        Some(p) => i = p,
                        None => break,
                    }
                }
                links.reverse();
                return Some(links);
            }
        }
        head += 1;
    }
    None
}

/// Backtracking and trials: the assumption, its consequences by singles, and the
/// contradiction they reach.
fn trial_words(st: &Candidates, a: &Application) -> Words {
    let c = a.cells.first().expect("a cell");
    let tried = a.digits.first().expect("a digit");
    let (placed, refuted) = match a.effect {
        Effect::Place(_, d) => (Some(d), d != tried),
        Effect::Remove(_) => (None, true),
    };
    let name = a.strategy.name();
    let nudge = format!("{c}");
    if !refuted {
        let d = placed.expect("placed");
        return (
            nudge,
            format!("Try a value in {c} ({name})."),
            format!(
                "With {d} in {c}, singles fill the whole grid; as the puzzle has one solution, \
                 {c} is {d}."
            ),
        );
    }
    let (trace, end) = follow(st, c, tried);
    let mut s = format!("Suppose {c} were {tried}");
    for step in &trace {
        let _ = write!(s, "; then {step}");
    }
    match end {
        Some(why) => {
            let _ = write!(s, "; then {why}. So {c} is not {tried}");
        }
        None => {
            let _ = write!(
                s,
                "; following it further (with {}) ends in a contradiction. So {c} is not \
                 {tried}",
                if a.depth > 1 {
                    "trials nested inside it"
                } else {
                    "the interactions inside each band"
                }
            );
        }
    }
    if let Some(d) = placed {
        let _ = write!(s, ": it is {d}");
    }
    s.push('.');
    (
        nudge,
        format!("Try a value in {c} and follow it ({name})."),
        s,
    )
}

/// Follows `c = d` on a copy of `st` with singles, and locked candidates when singles stall:
/// each consequence in words, and the contradiction reached, if any.
fn follow(st: &Candidates, c: Cell, d: Digit) -> (Vec<String>, Option<String>) {
    let mut s = st.clone();
    let mut trace = Vec::new();
    if s.place(c, d).is_none() {
        return (trace, Some(format!("{c} cannot hold {d}")));
    }
    let mut locked = Vec::new();
    for _ in 0..200 {
        if let Some(why) = contradiction(&s) {
            return (trace, Some(why));
        }
        if let Some((a, full)) = super::singles(&s) {
            let Effect::Place(cell, digit) = a.effect else {
                return (trace, None);
            };
            let why = match (a.strategy, a.house) {
                (Strategy::HiddenSingle, Some(h)) if full => format!("full {h}"),
                (Strategy::HiddenSingle, Some(h)) => format!("hidden single in {h}"),
                _ => "naked single".to_string(),
            };
            if s.place(cell, digit).is_none() {
                return (trace, Some(format!("{cell} cannot hold {digit}")));
            }
            trace.push(format!("{cell} is {digit} ({why})"));
            continue;
        }
        locked.clear();
        strategies::search(
            Strategy::LockedCandidates,
            &s,
            &Context::default(),
            &mut locked,
        );
        let Some(a) = locked.iter().find(|a| s.changes(&a.effect)) else {
            return (trace, None);
        };
        let effect = s.restrict(&a.effect);
        let bx = House::Box(a.cells.first().expect("cells").box_index());
        trace.push(format!(
            "{} (locked candidates in {bx})",
            removal_words(&effect)
        ));
        s.apply(&effect);
    }
    (trace, contradiction(&s))
}

/// The first contradiction of a state, in words: an empty cell without candidates, or a house
/// with no place left for a digit it lacks.
fn contradiction(st: &Candidates) -> Option<String> {
    for c in st.empty() {
        if st.candidates(c).is_empty() {
            return Some(format!("{c} has no candidate left"));
        }
    }
    for h in 0..27 {
        let cells = CellSet::house_at(h);
        for d in Digit::all() {
            if !(st.cells_with(d) | st.placed(d)).intersects(cells) {
                let house = House::from_index(h).expect("house < 27");
                return Some(format!("{house} has no place left for {d}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod testing {
    //! Helpers for the tests of the words of each family of techniques.
    use super::{removal_words, Describe, Found, Words};
    use crate::candidates::Candidates;
    use crate::strategies::testing::run;
    use crate::strategies::Application;

    /// The words a family's `describe` gives `a` on `st`, which it must describe.
    pub(super) fn words_for(describe: Describe, st: &Candidates, a: &Application) -> Words {
        let effect = st.restrict(&a.effect);
        let elim = removal_words(&effect);
        let found = Found {
            st,
            a,
            effect: &effect,
            elim: &elim,
        };
        describe(found).expect("words")
    }

    /// The words a family's `describe` gives the first application `search` finds on `st`.
    pub(super) fn first_words(
        describe: Describe,
        st: &Candidates,
        search: impl FnOnce(&Candidates, &mut Vec<Application>) -> u64,
    ) -> Words {
        let (_, out) = run(search, st);
        words_for(describe, st, out.first().expect("an application"))
    }
}
