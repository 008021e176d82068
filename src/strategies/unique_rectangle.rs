//! Unique rectangle, type 1 (no hsolve tier; for the rating beyond the paper). **Assumes the
//! puzzle has exactly one solution**, which every puzzle of a bank has: four empty cells at
//! the corners of a rectangle spanning two rows, two columns and exactly two boxes, three of
//! them with candidates {x, y} only. If the fourth were also x or y, x and y could be swapped
//! around the rectangle, giving a second solution; so the fourth loses x and y.
//!
//! Possible applications: the two-candidate cells (each a possible corner).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::Cell;

/// Pushes every valid unique rectangle of type 1; returns p, the number of two-candidate
/// cells.
///
/// Each rectangle with three pure corners is found once, from the pure corner diagonal to the
/// fourth: that corner shares its row with one pure corner and its column with the other.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue = st.bivalue_cells();
    for a in bivalue {
        let xy = st.candidates(a);
        let same = |x: &Cell| st.candidates(*x) == xy;
        let in_row = bivalue & CellSet::house_at(a.row() as usize);
        let in_col = bivalue & CellSet::house_at(9 + a.col() as usize);
        for b in in_row.iter().filter(|x| *x != a && same(x)) {
            for c in in_col.iter().filter(|x| *x != a && same(x)) {
                let d = Cell::at(c.row(), b.col()).expect("inside");
                // Two boxes: the rows share a band or the columns share a stack, not both.
                let one_band = a.row() / 3 == c.row() / 3;
                let one_stack = a.col() / 3 == b.col() / 3;
                if one_band == one_stack || !st.empty().contains(d) {
                    continue;
                }
                let target = st.candidates(d);
                if !(xy - target).is_empty() || target == xy {
                    continue; // the fourth corner must hold both digits and more
                }
                let cells = [a, b, c, d].into_iter().collect();
                let effect = Effect::remove_digits(xy, CellSet::single(d));
                out.push(Application::new(
                    Strategy::UniqueRectangle,
                    cells,
                    xy,
                    d.index(),
                    effect,
                ));
            }
        }
    }
    bivalue.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_type_one_rectangle() {
        // Rows 1 and 2 (box 1 and box 2), columns 1 and 4.
        let (p, out) = run(search, &board("r1c1=45 r1c4=45 r2c1=45 r2c4=456"));
        assert_eq!(p, 3);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].effect,
            Effect::remove_digits(out[0].digits, CellSet::single(rc(2, 4)))
        );
    }

    #[test]
    fn a_rectangle_in_four_boxes_is_not_one() {
        let (_, out) = run(search, &board("r1c1=45 r1c4=45 r4c1=45 r4c4=456"));
        assert!(out.is_empty());
    }
}
