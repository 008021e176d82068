//! The words of the uniqueness techniques beyond type 1: unique rectangles of types 2 to 6,
//! the hidden rectangle and BUG+1. Each starts from the deadly pattern it avoids (four
//! corners holding only the same two digits, or a grid of two-candidate cells), then says
//! which extra digit or strong link keeps the puzzle from having two solutions.

use super::{
    and_list, cells_words, digits_words, hold, lines_words, unfound_words, with_candidates, Found,
    Words,
};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet, HOUSES_OF_CELL};
use crate::grid::House;
use crate::strategies::unique_rectangle::{Rectangle, Ur};
use crate::strategies::{bug, hidden_rectangle, unique_rectangle, Application, Strategy};

/// The words of `a` (nudge, hint, move) when it is a unique rectangle of type 2 to 6, a
/// hidden rectangle or BUG+1.
pub(super) fn describe(found: Found) -> Option<Words> {
    let (st, a, elim) = (found.st, found.a, found.elim);
    let words = match a.strategy {
        Strategy::UniqueRectangle2
        | Strategy::UniqueRectangle3
        | Strategy::UniqueRectangle4
        | Strategy::UniqueRectangle5
        | Strategy::UniqueRectangle6 => {
            unique_rectangle::pattern(st, a).map(|u| ur_words(st, &u, elim))
        }
        Strategy::HiddenRectangle => hidden_words(st, a, elim),
        Strategy::BugPlusOne => bug_words(st, a),
        _ => return None,
    };
    // A pattern that cannot be recomputed still gets its cells and removals named.
    Some(words.unwrap_or_else(|| unfound_words(a, None, elim)))
}

/// The deadly pattern a rectangle avoids, as words.
fn intro(r: &Rectangle) -> String {
    let xy = digits_words(r.xy, "and");
    format!(
        "{} form a rectangle over two rows, two columns and two boxes, and all hold {xy}. If \
         they held nothing else, {xy} could be swapped around the rectangle and the puzzle \
         would have two solutions, so that cannot be.",
        cells_words(r.cells(), "and")
    )
}

/// "r1c1 and r1c4 hold only 4 and 5" (or "holds" for one corner).
fn pure_words(r: &Rectangle) -> String {
    let pure = r.pure_cells();
    format!(
        "{} {} only {}",
        cells_words(pure, "and"),
        hold(pure),
        digits_words(r.xy, "and")
    )
}

/// Unique rectangles of types 2 to 6.
fn ur_words(st: &Candidates, u: &Ur, elim: &str) -> Words {
    let r = &u.rect;
    let xy = digits_words(r.xy, "and");
    let extra = r.extra_cells();
    let extra_cands = and_list(extra.iter().map(|c| with_candidates(st, c)), "and");
    let step = match u.kind {
        2 | 5 => {
            let z = u.digit.map_or(String::new(), |d| d.to_string());
            let which = if extra.len() == 2 {
                "both"
            } else {
                "all of them"
            };
            format!(
                "{} {}; {extra_cands} hold one more digit, {z}. So one of them is {z}, and a \
                 cell seeing {which} cannot be: {elim}.",
                intro(r),
                pure_words(r)
            )
        }
        3 => {
            let house = u.house.map_or("their house".to_string(), |h| h.to_string());
            let extras = extra
                .iter()
                .fold(DigitSet::EMPTY, |s, c| s | st.candidates(c))
                - r.xy;
            let n = u.subset.len() + 1;
            let name = match n {
                2 => "a naked pair",
                3 => "a naked triple",
                _ => "a naked quad",
            };
            let subset = and_list(u.subset.iter().map(|c| with_candidates(st, c)), "and");
            format!(
                "{} {}, so one of {} holds one of their other digits, {}. In {house} the two \
                 act as one cell holding {}, which with {subset} makes {name}: {n} cells for \
                 the digits {}, which are not elsewhere in {}: {elim}.",
                intro(r),
                pure_words(r),
                cells_words(extra, "and"),
                digits_words(extras, "or"),
                digits_words(extras, "or"),
                digits_words(u.subset_digits, "and"),
                subset_houses(u),
            )
        }
        4 => {
            let house = u.house.map_or("their house".to_string(), |h| h.to_string());
            let (x, y) = linked_digits(u);
            format!(
                "{} {}. In {house}, {x} can only go in {}, so one of them is {x}; if the other \
                 were {y}, all four corners would hold only {xy}. So neither is {y}: {elim}.",
                intro(r),
                pure_words(r),
                cells_words(extra, "or"),
            )
        }
        _ => {
            let (x, y) = linked_digits(u);
            format!(
                "{} {}, on a diagonal. In {}, {x} can only go in the rectangle's corners. If \
                 one of {} were {x}, {} would be {y} and the other would be {x} too: all four \
                 corners would hold only {xy}. So neither is {x}: {elim}.",
                intro(r),
                pure_words(r),
                linked_lines(st, u),
                cells_words(extra, "and"),
                cells_words(r.pure_cells(), "and"),
            )
        }
    };
    (
        cells_words(r.cells(), "and"),
        format!("There is a unique rectangle of type {} on {xy}.", u.kind),
        step,
    )
}

/// The digit of a type 4 or 6 rectangle (the one whose places are linked) and the other of x
/// and y, as words.
fn linked_digits(u: &Ur) -> (String, String) {
    let x = u.digit.map_or(String::new(), |d| d.to_string());
    let y = u
        .digit
        .and_then(|d| u.rect.xy.iter().find(|&e| e != d))
        .map_or(String::new(), |d| d.to_string());
    (x, y)
}

/// The houses a type 3 subset acts in: its house, and the box too when the subset and the
/// corners all lie in it.
fn subset_houses(u: &Ur) -> String {
    let mut houses: Vec<String> = u.house.iter().map(|h| h.to_string()).collect();
    let extra = u.rect.extra_cells();
    let cells = extra | u.subset;
    if let Some(first) = cells.first() {
        let bx = House::Box(first.box_index());
        if Some(bx) != u.house && cells.is_subset(CellSet::house(bx)) {
            houses.push(bx.to_string());
        }
    }
    and_list(houses, "or")
}

/// The rows (or columns) of a type 6 rectangle where its digit can only go in the corners.
fn linked_lines(st: &Candidates, u: &Ur) -> String {
    let r = &u.rect;
    let [a, _, _, d] = r.corners;
    let Some(x) = u.digit else {
        return "its rows".to_string();
    };
    let places = st.cells_with(x);
    let cells = r.cells();
    let only = |h: House| places & CellSet::house(h) == cells & CellSet::house(h);
    let rows_linked = only(House::Row(a.row())) && only(House::Row(d.row()));
    if rows_linked {
        lines_words(1 << a.row() | 1 << d.row(), true)
    } else {
        lines_words(1 << a.col() | 1 << d.col(), false)
    }
}

/// Hidden rectangle: the pure corner, the two strong links of the opposite corner.
fn hidden_words(st: &Candidates, a: &Application, elim: &str) -> Option<Words> {
    let h = hidden_rectangle::pattern(st, a)?;
    let r = &h.rect;
    let pure = r.corners[h.corner];
    let far = r.corners[h.corner ^ 3];
    let in_row = r.corners[h.corner ^ 2];
    let in_col = r.corners[h.corner ^ 1];
    let (x, y) = (h.linked, h.removed);
    let xy = digits_words(r.xy, "and");
    Some((
        cells_words(r.cells(), "and"),
        format!("There is a hidden rectangle on {xy}."),
        format!(
            "{} {pure} holds only {xy}. In {}, {x} can only go in {far} or {in_row}; in {}, \
             only in {far} or {in_col}. If {far} were {y}, {in_row} and {in_col} would be {x}, \
             so {pure} would be {y}, and all four corners would hold only {xy}. So {far} is \
             not {y}: {elim}.",
            intro(r),
            House::Row(far.row()),
            House::Col(far.col()),
        ),
    ))
}

/// BUG+1: the near-grave, the digit with three places, and the placement.
fn bug_words(st: &Candidates, a: &Application) -> Option<Words> {
    let (cell, digit) = bug::pattern(st)?;
    if a.effect != Effect::Place(cell, digit) {
        return None;
    }
    let houses: Vec<String> = HOUSES_OF_CELL[cell.index()]
        .iter()
        .filter_map(|&h| House::from_index(usize::from(h)))
        .map(|h| h.to_string())
        .collect();
    let others = st.candidates(cell).iter().filter(|&d| d != digit);
    Some((
        cell.to_string(),
        "There is a BUG+1: every empty cell but one has two candidates.".to_string(),
        format!(
            "Every empty cell but {cell} has two candidates, and every digit has two places \
             in each house that lacks it, except {digit}, which has three in {cell}'s {}. If \
             {cell} were {}, every cell would have two candidates and every digit two places \
             per house: a bivalue universal grave, which has no solution or several. So \
             {cell} is {digit}.",
            and_list(houses, "and"),
            and_list(others, "or"),
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::testing::first_words;
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn unique_rectangles_in_words() {
        let st = board("r1c1=45 r1c4=45 r2c1=456 r2c4=456");
        let (nudge, hint, step) = first_words(describe, &st, |st, out| {
            unique_rectangle::search_type(st, 2, out)
        });
        assert_eq!(nudge, "r1c1, r1c4, r2c1 and r2c4");
        assert_eq!(hint, "There is a unique rectangle of type 2 on 4 and 5.");
        assert!(step.contains("r1c1 and r1c4 hold only 4 and 5"), "{step}");
        assert!(step.contains("one more digit, 6"), "{step}");
        assert!(
            step.ends_with("6 is not in r2c2, r2c3, r2c5, r2c6, r2c7, r2c8 or r2c9."),
            "{step}"
        );

        let st = board("r1c1=45 r1c4=45 r2c1=456 r2c4=457 r2c7=67");
        let (_, _, step) = first_words(describe, &st, |st, out| {
            unique_rectangle::search_type(st, 3, out)
        });
        assert!(step.contains("r2c7 (6 or 7) makes a naked pair"), "{step}");
        assert!(step.contains("not elsewhere in row 2"), "{step}");

        let mut st = board("r1c1=45 r1c4=45 r2c1=456 r2c4=457");
        remove(&mut st, 4, &cells("r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9"));
        let (_, _, step) = first_words(describe, &st, |st, out| {
            unique_rectangle::search_type(st, 4, out)
        });
        assert!(
            step.contains("In row 2, 4 can only go in r2c1 or r2c4"),
            "{step}"
        );
        assert!(step.ends_with("5 is not in r2c1 or r2c4."), "{step}");

        let st = board("r1c1=45 r2c4=45 r1c4=456 r2c1=456");
        let (_, _, step) = first_words(describe, &st, |st, out| {
            unique_rectangle::search_type(st, 5, out)
        });
        assert!(
            step.ends_with("6 is not in r1c2, r1c3, r2c5 or r2c6."),
            "{step}"
        );

        let mut st = board("r1c1=45 r2c4=45 r1c4=456 r2c1=457");
        let others = "r1c2 r1c3 r1c5 r1c6 r1c7 r1c8 r1c9 r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9";
        remove(&mut st, 4, &cells(others));
        let (_, _, step) = first_words(describe, &st, |st, out| {
            unique_rectangle::search_type(st, 6, out)
        });
        assert!(step.contains("In rows 1 and 2, 4 can only go"), "{step}");
        assert!(step.ends_with("4 is not in r1c4 or r2c1."), "{step}");
    }

    #[test]
    fn a_hidden_rectangle_in_words() {
        let mut st = board("r1c1=45 r1c4=456 r2c1=457 r2c4=4578");
        remove(&mut st, 4, &cells("r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9"));
        remove(&mut st, 4, &cells("r3c4 r4c4 r5c4 r6c4 r7c4 r8c4 r9c4"));
        let (_, hint, step) = first_words(describe, &st, hidden_rectangle::search);
        assert_eq!(hint, "There is a hidden rectangle on 4 and 5.");
        assert!(
            step.contains(
                "In row 2, 4 can only go in r2c4 or r2c1; in column 4, only in r2c4 or r1c4"
            ),
            "{step}"
        );
        assert!(step.ends_with("5 is not in r2c4."), "{step}");
    }

    #[test]
    fn a_bug_plus_one_in_words() {
        let line = ":0610::.+9.+613.+8+4...2+5+7+1+393.184+92..968+5+7+1+42+3+4379+2+6+81+5+1..+3+84......+1+9+2..8..9+435+67+1+51.+76+8..+2::373 673::";
        let (st, _) = library_line(line);
        let (nudge, _, step) = first_words(describe, &st, bug::search);
        assert_eq!(nudge, "r7c3");
        assert!(
            step.contains("Every empty cell but r7c3 has two candidates"),
            "{step}"
        );
        assert!(step.contains("except 4, which has three in r7c3's row 7, column 3 and box 7"));
        assert!(step.contains("If r7c3 were 3 or 6"), "{step}");
        assert!(step.ends_with("So r7c3 is 4."), "{step}");
    }
}
