//! Skyscraper (no hsolve tier; for the rating beyond the paper). For one digit, take two
//! parallel lines (two rows, or two columns) where it has exactly two places each: two strong
//! links. If one place of each lies on the same cross line (the *base*: the same column for
//! two rows) and the other two (the *roof*) do not, the two base cells see each other and at
//! most one of them holds the digit; so one of the two roof cells holds it, and every cell
//! seeing both roof cells loses it. (When the roof cells share a cross line too, the four
//! cells are an X-wing, which `fish` finds.)
//!
//! Possible applications: per digit, the pairs of strong links on parallel lines (two rows
//! where the digit has two places each, or two such columns).

use super::links::{line_links, seen_by};
use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit};

/// Pushes every valid skyscraper (one application per pair of lines, with all its removals);
/// returns p, the number of pairs of strong links on parallel lines.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        for rows in [true, false] {
            // The strong links of the nine lines of this direction, as their two cells.
            let (links, n) = line_links(places, rows);
            p += (n * n.saturating_sub(1) / 2) as u64;
            // The position of a cell across the lines: its column for rows.
            let across = |c: Cell| if rows { c.col() } else { c.row() };
            for i in 0..n {
                for j in i + 1..n {
                    let Some([(_, roof1), (_, roof2)]) = roof(links[i], links[j], across) else {
                        continue;
                    };
                    let hit =
                        places & seen_by(CellSet::single(roof1)) & seen_by(CellSet::single(roof2));
                    if hit.is_empty() {
                        continue;
                    }
                    let (a, b) = links[i];
                    let (c, e) = links[j];
                    let cells: CellSet = [a, b, c, e].into_iter().collect();
                    out.push(Application::of_digit(
                        Strategy::Skyscraper,
                        d,
                        cells,
                        Effect::remove_digit(d, hit),
                    ));
                }
            }
        }
    }
    p
}

/// Two strong links on parallel lines as (base, roof) pairs, when exactly one end of each (the
/// base) is on a shared cross line (`across` gives a cell's cross line); the other ends are the
/// roof.
fn roof(
    (a1, b1): (Cell, Cell),
    (a2, b2): (Cell, Cell),
    across: impl Fn(Cell) -> u8,
) -> Option<[(Cell, Cell); 2]> {
    for (base1, roof1) in [(a1, b1), (b1, a1)] {
        for (base2, roof2) in [(a2, b2), (b2, a2)] {
            if across(base1) == across(base2) && across(roof1) != across(roof2) {
                return Some([(base1, roof1), (base2, roof2)]);
            }
        }
    }
    None
}

/// The skyscraper of an application, recomputed from its four cells: the two lines' links as
/// (base, roof) pairs, and whether the lines are rows. `None` when the cells are not one.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<(bool, [(Cell, Cell); 2])> {
    let d = a.digits.first()?;
    let places = st.cells_with(d);
    let cells: Vec<Cell> = a.cells.iter().collect();
    if cells.len() != 4 {
        return None;
    }
    for rows in [true, false] {
        let line = |c: Cell| if rows { c.row() } else { c.col() };
        let across = |c: Cell| if rows { c.col() } else { c.row() };
        // Split the four cells by line: two lines of two, each a strong link.
        let (first, second): (Vec<Cell>, Vec<Cell>) =
            cells.iter().copied().partition(|&c| line(c) == line(cells[0]));
        if first.len() != 2 || second.len() != 2 || line(second[0]) != line(second[1]) {
            continue;
        }
        let strong = |x: &[Cell]| {
            let h = if rows { line(x[0]) } else { 9 + line(x[0]) } as usize;
            places & CellSet::house_at(h) == x.iter().copied().collect::<CellSet>()
        };
        if !strong(&first) || !strong(&second) {
            continue;
        }
        if let Some(links) = roof((first[0], first[1]), (second[0], second[1]), across) {
            return Some((rows, links));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Columns 6 and 9 hold 1 twice each, both in row 5 (the base); the roof is r1c6 and r3c9,
    /// and 1 is also possible in r1c78 and r3c45, which see both roof cells.
    const COLUMNS_6_9: &str = "r1c6 r5c6 r3c9 r5c9 r1c7 r1c8 r3c4 r3c5";

    #[test]
    fn finds_a_skyscraper_and_its_removals() {
        let st = only(1, COLUMNS_6_9);
        let (p, out) = run(search, &st);
        // Row 5 is a strong link too, but alone in its direction: one pair, columns 6 and 9.
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(removed(&out[0], 1), set("r1c7 r1c8 r3c4 r3c5"));
        assert_eq!(out[0].cells, set("r1c6 r5c6 r3c9 r5c9"));
        let (rows, [(b1, r1), (b2, r2)]) = pattern(&st, &out[0]).expect("a skyscraper");
        assert!(!rows);
        assert_eq!((b1, r1, b2, r2), (rc(5, 6), rc(1, 6), rc(5, 9), rc(3, 9)));
    }

    #[test]
    fn nothing_when_a_line_has_a_third_place_or_the_pattern_is_an_x_wing() {
        // A third 1 in column 9: no second strong link.
        let (p, out) = run(search, &only(1, &format!("{COLUMNS_6_9} r8c9")));
        assert_eq!((p, out.len()), (0, 0));
        // Both pairs aligned: an X-wing, not a skyscraper.
        let (p, out) = run(search, &only(1, "r1c6 r5c6 r1c9 r5c9 r1c7 r3c4"));
        assert_eq!(p, 1);
        assert!(out.is_empty(), "{out:?}");
        // The roof cells see nothing with a 1: a pattern without removals.
        let (p, out) = run(search, &only(1, "r1c6 r5c6 r3c9 r5c9"));
        assert_eq!((p, out.len()), (1, 0));
    }
}
