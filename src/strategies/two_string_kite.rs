//! Two-string kite (no hsolve tier; for the rating beyond the paper). For one digit, take a
//! row and a column where it has exactly two places each (the two *strings*: strong links),
//! each string's two cells in different boxes. If one end of the row string and one end of
//! the column string are different cells of the same box, at most one of those two holds the
//! digit; so one of the two other ends holds it, and the cell seeing both (in the row of the
//! column's free end and the column of the row's free end) loses it.
//!
//! Possible applications: per digit, the pairs of a row string and a column string (a row or
//! column where the digit has two places, in different boxes).

use super::links::{line_links, seen_by};
use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit};

/// The strings of one direction (rows when `rows`): lines where the digit with places
/// `places` has two places, in different boxes, as their two cells; and how many.
fn strings(places: CellSet, rows: bool) -> ([(Cell, Cell); 9], usize) {
    let (mut out, lines) = line_links(places, rows);
    let mut n = 0;
    for i in 0..lines {
        let (a, b) = out[i];
        if a.box_index() != b.box_index() {
            out[n] = (a, b);
            n += 1;
        }
    }
    (out, n)
}

/// The kite of a row string and a column string: (row's knot end, row's free end, column's
/// knot end, column's free end), when they share no cell and one end of each lies in one box.
pub(crate) fn kite(row: (Cell, Cell), col: (Cell, Cell)) -> Option<(Cell, Cell, Cell, Cell)> {
    let (a, b) = row;
    let (c, e) = col;
    if a == c || a == e || b == c || b == e {
        return None;
    }
    for (rk, rf) in [(a, b), (b, a)] {
        for (ck, cf) in [(c, e), (e, c)] {
            if rk.box_index() == ck.box_index() {
                return Some((rk, rf, ck, cf));
            }
        }
    }
    None
}

/// Pushes every valid two-string kite; returns p, the number of pairs of a row string and a
/// column string.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        let (rows, nr) = strings(places, true);
        let (cols, nc) = strings(places, false);
        p += (nr * nc) as u64;
        for &row in &rows[..nr] {
            for &col in &cols[..nc] {
                let Some((_, rf, _, cf)) = kite(row, col) else {
                    continue;
                };
                let hit = places & seen_by(CellSet::single(rf)) & seen_by(CellSet::single(cf));
                if hit.is_empty() {
                    continue;
                }
                let cells: CellSet = [row.0, row.1, col.0, col.1].into_iter().collect();
                out.push(Application::of_digit(
                    Strategy::TwoStringKite,
                    d,
                    cells,
                    Effect::remove_digit(d, hit),
                ));
            }
        }
    }
    p
}

/// The kite of an application, recomputed from its four cells: (row's knot end, row's free
/// end, column's knot end, column's free end).
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<(Cell, Cell, Cell, Cell)> {
    let d = a.digits.first()?;
    let places = st.cells_with(d);
    let (rows, nr) = strings(places, true);
    let (cols, nc) = strings(places, false);
    for &row in &rows[..nr] {
        for &col in &cols[..nc] {
            let cells: CellSet = [row.0, row.1, col.0, col.1].into_iter().collect();
            if cells == a.cells {
                if let Some(k) = kite(row, col) {
                    return Some(k);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Sudopedia's diagram (2-String Kite): strings in row 1 (r1c3, r1c7) and column 1 (r3c1,
    /// r7c1), meeting in box 1; r7c7 sees both free ends. r7c5 and r5c7 keep row 7 and column
    /// 7 from being strong links.
    const KITE: &str = "r1c3 r1c7 r3c1 r7c1 r7c7 r7c5 r5c7";

    #[test]
    fn finds_a_kite() {
        let st = only(5, KITE);
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 5), set("r7c7"));
        assert_eq!(out[0].cells, set("r1c3 r1c7 r3c1 r7c1"));
        assert_eq!(
            pattern(&st, &out[0]),
            Some((rc(1, 3), rc(1, 7), rc(3, 1), rc(7, 1)))
        );
    }

    #[test]
    fn nothing_without_the_knot_or_with_a_string_inside_a_box() {
        // Column 1's places r6c1 and r7c1: no end in box 1 with a row end.
        let (p, out) = run(search, &only(5, "r1c3 r1c7 r6c1 r7c1 r7c7 r7c5 r5c7"));
        assert_eq!((p, out.len()), (1, 0));
        // Row 1's places both in box 1: not a string.
        let (p, out) = run(search, &only(5, "r1c2 r1c3 r3c1 r7c1 r7c7 r7c5 r5c7"));
        assert_eq!((p, out.len()), (0, 0));
    }
}
