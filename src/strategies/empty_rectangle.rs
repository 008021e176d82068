//! Empty rectangle (no hsolve tier; for the rating beyond the paper), as HoDoKu defines it.
//! For one digit, a box whose places all lie in one row r and one column c of the box (the
//! other four cells of the box, a rectangle, are empty of it), with at least one place in r
//! outside c, at least one in c outside r, and at least three places in all (with two, the
//! box is a strong link and the pattern is a turbot fish). Wherever the box holds the digit,
//! it is in row r or in column c.
//!
//! Add a strong link in a column k outside the box, one end in row r (the *near* end): if the
//! cell where the other end's row meets column c held the digit, the far end would not, so
//! the near end would, and the box could hold it neither in row r nor in column c. So that
//! cell loses it. Likewise with a strong link in a row crossing column c. (A target inside the
//! box proves nothing and is skipped.)
//!
//! Possible applications: per digit, the pairs of an empty rectangle (a box with its row and
//! column) and a strong link in a line crossing that row or column outside the box, with its
//! near end on it.

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit, House};

/// An empty rectangle with a strong link: the box (0-8), the row and column of its places,
/// the link's near end (on that row or column) and far end, and the cell that loses the
/// digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The box.
    pub bx: u8,
    /// The row (0-8) the box's places lie on, with `col`.
    pub row: u8,
    /// The column (0-8) the box's places lie on, with `row`.
    pub col: u8,
    /// The link's end on the box's row or column, outside the box.
    pub near: Cell,
    /// The link's other end.
    pub far: Cell,
    /// The cell where the far end's line meets the box's other line.
    pub target: Cell,
}

impl Pattern {
    /// The cells of the pattern for a digit with places `places`: the box's places and the
    /// link's two ends.
    fn cells(&self, places: CellSet) -> CellSet {
        let bx = places & CellSet::house_at(18 + self.bx as usize);
        bx | CellSet::single(self.near) | CellSet::single(self.far)
    }
}

/// Calls `f(pattern, has_target)` for every empty rectangle of digit places `places` and every
/// strong link crossing it, `has_target` telling whether the target still has the digit (it
/// is then a valid application, unless the target lies in the box).
fn for_each(places: CellSet, mut f: impl FnMut(Pattern, bool)) {
    for b in 0..9u8 {
        let bx = places & CellSet::house_at(18 + b as usize);
        if bx.len() < 3 {
            continue;
        }
        let (r0, c0) = (3 * (b / 3), 3 * (b % 3));
        for row in r0..r0 + 3 {
            for col in c0..c0 + 3 {
                let in_row = CellSet::house_at(row as usize);
                let in_col = CellSet::house_at(9 + col as usize);
                if !(bx - in_row - in_col).is_empty()
                    || (bx & (in_row - in_col)).is_empty()
                    || (bx & (in_col - in_row)).is_empty()
                {
                    continue;
                }
                for_each_link(places, b, row, col, &mut f);
            }
        }
    }
}

/// Calls `f(pattern, has_target)` (see [`for_each`]) for every strong link crossing the empty
/// rectangle of box `b` whose places lie in `row` and `col`: in the columns crossing the row
/// outside the box, then in the rows crossing the column, the link's near end on them.
fn for_each_link(places: CellSet, b: u8, row: u8, col: u8, f: &mut impl FnMut(Pattern, bool)) {
    for by_cols in [true, false] {
        // The box's stack (for columns) or band (for rows), then the other.
        let (own, other) = if by_cols { (b % 3, b / 3) } else { (b / 3, b % 3) };
        for k in (0..9u8).filter(|k| k / 3 != own) {
            let (h, near) = if by_cols {
                (9 + k, Cell::at(row, k))
            } else {
                (k, Cell::at(k, col))
            };
            let line = places & CellSet::house_at(h as usize);
            let near = near.expect("on the board");
            if line.len() != 2 || !line.contains(near) {
                continue;
            }
            let far = (line - CellSet::single(near)).first().expect("two");
            // Where the far end's row meets the column (or its column the row), and the far
            // end's band (or stack).
            let (target, far_part) = if by_cols {
                (Cell::at(far.row(), col), far.row() / 3)
            } else {
                (Cell::at(row, far.col()), far.col() / 3)
            };
            let target = target.expect("on the board");
            let p = Pattern {
                bx: b,
                row,
                col,
                near,
                far,
                target,
            };
            f(p, far_part != other && places.contains(target));
        }
    }
}

/// Pushes every valid empty rectangle (one application per rectangle and strong link);
/// returns p, the number of pairs of an empty rectangle and a strong link crossing it.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        for_each(places, |e, valid| {
            p += 1;
            if valid {
                let effect = Effect::remove_digit(d, CellSet::single(e.target));
                out.push(
                    Application::of_digit(Strategy::EmptyRectangle, d, e.cells(places), effect)
                        .in_house(Some(House::Box(e.bx))),
                );
            }
        });
    }
    p
}

/// The empty rectangle of an application, recomputed from its cells and removal.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<Pattern> {
    let d = a.digits.first()?;
    let Effect::Remove(r) = a.effect else {
        return None;
    };
    let target = r[d.index()].first()?;
    let places = st.cells_with(d);
    let mut found = None;
    for_each(places, |e, valid| {
        if found.is_none() && valid && e.target == target && e.cells(places) == a.cells {
            found = Some(e);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Box 5 holds 1 in r4c5, r4c6, r5c5 and r6c5: row 4 and column 5. Row 7 holds it only in
    /// r7c5 and r7c9. If r4c9 were 1, r7c9 would not be, r7c5 would, and box 5 would have no
    /// place left. r1c9 keeps column 9 from being a strong link.
    const BOX_5: &str = "r4c5 r4c6 r5c5 r6c5 r7c5 r7c9 r4c9 r1c9";

    #[test]
    fn finds_an_empty_rectangle() {
        let st = only(1, BOX_5);
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 1), set("r4c9"));
        assert_eq!(out[0].cells, set("r4c5 r4c6 r5c5 r6c5 r7c5 r7c9"));
        assert_eq!(out[0].house, Some(House::Box(4)));
        let e = pattern(&st, &out[0]).expect("a pattern");
        assert_eq!((e.bx, e.row, e.col), (4, 3, 4));
        assert_eq!((e.near, e.far, e.target), (rc(7, 5), rc(7, 9), rc(4, 9)));
    }

    #[test]
    fn the_other_direction_and_a_strong_column() {
        // Without r1c9, column 9 is a strong link too (r4c9 = r7c9), crossing row 4: it
        // removes 1 from r7c5, where r7c9's row meets column 5.
        let (p, out) = run(search, &only(1, "r4c5 r4c6 r5c5 r6c5 r7c5 r7c9 r4c9"));
        assert_eq!(p, 2);
        assert_eq!(removed_all(&out, 1), set("r4c9 r7c5"));
    }

    #[test]
    fn nothing_when_the_box_is_not_an_empty_rectangle() {
        // A fifth place r5c4 off row 4 and column 5.
        let (p, out) = run(search, &only(1, &format!("{BOX_5} r5c4")));
        assert_eq!((p, out.len()), (0, 0));
        // Two places only: a strong link (a turbot fish's), not an empty rectangle.
        let (p, out) = run(search, &only(1, "r4c6 r6c5 r7c5 r7c9 r4c9 r1c9"));
        assert_eq!((p, out.len()), (0, 0));
        // All places on row 4: locked candidates, not an empty rectangle.
        let (p, out) = run(search, &only(1, "r4c4 r4c5 r4c6 r7c5 r7c9 r4c9 r1c9"));
        assert_eq!((p, out.len()), (0, 0));
    }

    /// The example of a forum answer on empty rectangles (Leren, "Help with empty rectangles",
    /// forum.enjoysudoku.com/help-with-empty-rectangles-t33099.html): box 5's 1s lie in row 4
    /// and column 5, row 7 holds 1 only in r7c5 and r7c9, so r4c9 is not 1.
    #[test]
    fn forum_example() {
        let st = grid(
            "5 9 8 | 6 4 3 | 17 17 2
             12 12 3 | 7 5 9 | 6 4 8
             6 7 4 | 1 2 8 | 5 9 3
             4 5 7 | 2 169 16 | 8 3 19
             9 18 6 | 3 18 7 | 4 2 5
             18 3 2 | 4 189 5 | 17 6 179
             27 26 5 | 9 16 4 | 3 8 17
             3 4 1 | 8 7 2 | 9 5 6
             78 68 9 | 5 3 16 | 2 17 4",
        );
        let (gone, ones) = digit_removals(search, &st, 1);
        assert!(gone.contains(rc(4, 9)), "{ones:?}");
        assert!(ones
            .iter()
            .any(|a| a.house == Some(House::Box(4)) && removed(a, 1) == set("r4c9")));
    }
}
