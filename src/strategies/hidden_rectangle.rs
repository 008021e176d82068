//! Hidden rectangle (no hsolve tier; for the rating beyond the paper). **Assumes the puzzle
//! has exactly one solution.** Four empty cells at the corners of a rectangle over two rows,
//! two columns and two boxes all hold x and y, and one corner holds nothing else. In the row
//! and in the column of the opposite corner, x can only go in the rectangle's two cells (two
//! strong links). If that opposite corner were y, x would fill the two other corners, the pure
//! corner would be y too, and x and y could be swapped around the rectangle: a second
//! solution. So the opposite corner loses y (HoDoKu's hidden rectangle).
//!
//! Possible applications: the rectangles over two boxes whose corners all hold x and y and
//! one or two of which hold nothing else.

use super::unique_rectangle::{rectangles, Rectangle};
use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Digit;

/// One hidden rectangle: the rectangle, its pure corner, and the digit linked in the
/// opposite corner's row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HiddenRectangle {
    /// The rectangle.
    pub rect: Rectangle,
    /// The index (0-3) of the pure corner; the opposite corner is `corner ^ 3`.
    pub corner: usize,
    /// The digit x with strong links in the opposite corner's row and column.
    pub linked: Digit,
    /// The digit y the opposite corner loses.
    pub removed: Digit,
}

impl HiddenRectangle {
    /// The application: the four corners, x and y, found at the pure corner.
    pub fn application(&self) -> Application {
        let target = self.rect.corners[self.corner ^ 3];
        Application::new(
            Strategy::HiddenRectangle,
            self.rect.cells(),
            self.rect.xy,
            self.rect.corners[self.corner].index(),
            Effect::remove_digit(self.removed, CellSet::single(target)),
        )
    }
}

/// Pushes every valid hidden rectangle; returns p, the number of rectangles with one or two
/// pure corners.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    scan(st, |h| out.push(h.application()))
}

/// The hidden rectangle behind an application of [`search`] on `st`, for its words.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<HiddenRectangle> {
    find_again(a, |f| scan(st, |h| f(h, h.application())))
}

/// Calls `f` with every hidden rectangle; returns p.
fn scan(st: &Candidates, mut f: impl FnMut(&HiddenRectangle)) -> u64 {
    let mut p = 0;
    rectangles(st, |r| {
        if !matches!(r.pure.count_ones(), 1 | 2) {
            return;
        }
        p += 1;
        for corner in (0..4).filter(|i| r.pure >> i & 1 != 0) {
            let far = r.corners[corner ^ 3];
            // The corners sharing the far corner's row and its column.
            let row_pair = CellSet::single(far) | CellSet::single(r.corners[corner ^ 2]);
            let col_pair = CellSet::single(far) | CellSet::single(r.corners[corner ^ 1]);
            let row = CellSet::house_at(far.row() as usize);
            let col = CellSet::house_at(9 + far.col() as usize);
            for x in r.xy.iter() {
                let places = st.cells_with(x);
                if places & row == row_pair && places & col == col_pair {
                    let y = (r.xy - DigitSet::single(x)).first().expect("two digits");
                    f(&HiddenRectangle {
                        rect: *r,
                        corner,
                        linked: x,
                        removed: y,
                    });
                }
            }
        }
    });
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_hidden_rectangle() {
        // Pure corner r1c1 (45); the opposite corner r2c4; 4 only in the rectangle in row 2
        // and in column 4.
        let mut st = board("r1c1=45 r1c4=456 r2c1=457 r2c4=4578");
        remove(&mut st, 4, &cells("r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9"));
        remove(&mut st, 4, &cells("r3c4 r4c4 r5c4 r6c4 r7c4 r8c4 r9c4"));
        let (p, out) = run(search, &st);
        // Rectangles from the only pure corner r1c1 whose corners hold 4 and 5: rows 1-2 on
        // columns 1-4; rows 1-3 on column 1 and one of columns 5-9; rows 1 and 4-9 on column 1
        // and column 2 or 3.
        assert_eq!(p, 1 + 5 + 6 * 2);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].effect,
            Effect::remove_digit(dg(5), CellSet::single(rc(2, 4)))
        );
        let h = pattern(&st, &out[0]).expect("the pattern");
        assert_eq!((h.linked, h.removed), (dg(4), dg(5)));
    }

    #[test]
    fn one_strong_link_is_not_enough() {
        let mut st = board("r1c1=45 r1c4=456 r2c1=457 r2c4=4578");
        remove(&mut st, 4, &cells("r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9"));
        let (_, out) = run(search, &st);
        assert!(out.is_empty());
    }

    /// The case of HoDoKu's regression library (reglib-1.3.txt, section 0606) that must not
    /// be found: no hidden rectangle on 3 and 4 (its positive cases are in `library.txt`).
    #[test]
    fn the_library_case_that_must_not_be_found() {
        let fail = ":0606-x:34:.51.+8..4+2....2.3...........3..8.+29.....5.4......1.+9+4.....7+5+6+214.6.+29....2........:432 732 832 932 433 633 733 833 933 334 335 635 735 336 881 383 883 392 492 892 992 393 493 893 993 395:435::";
        let (st, _) = library_line(fail);
        let (_, out) = run(search, &st);
        assert!(
            out.iter()
                .all(|a| !a.digits.contains(dg(3)) || !a.digits.contains(dg(4))),
            "{out:?}"
        );
    }
}
