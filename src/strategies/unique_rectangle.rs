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
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    let mut seen = std::collections::HashSet::new();
    for a in st.empty() {
        let xy = st.candidates(a);
        if xy.len() != 2 {
            continue;
        }
        p += 1;
        for r in 0..9u8 {
            for c in 0..9u8 {
                if r == a.row() || c == a.col() {
                    continue;
                }
                let corners = [
                    a,
                    Cell::at(a.row(), c).expect("inside"),
                    Cell::at(r, a.col()).expect("inside"),
                    Cell::at(r, c).expect("inside"),
                ];
                let boxes: std::collections::BTreeSet<u8> =
                    corners.iter().map(|x| x.box_index()).collect();
                if boxes.len() != 2 || !corners.iter().all(|&x| st.empty().contains(x)) {
                    continue;
                }
                let pure: Vec<Cell> = corners
                    .iter()
                    .copied()
                    .filter(|&x| st.candidates(x) == xy)
                    .collect();
                let rest: Vec<Cell> = corners
                    .iter()
                    .copied()
                    .filter(|&x| st.candidates(x) != xy)
                    .collect();
                if pure.len() != 3 || rest.len() != 1 {
                    continue;
                }
                let target = rest[0];
                if !(xy - st.candidates(target)).is_empty() {
                    continue; // the fourth corner must hold both digits and more
                }
                let key: CellSet = corners.into_iter().collect();
                if !seen.insert(key.bits()) {
                    continue;
                }
                out.push(Application {
                    strategy: Strategy::UniqueRectangle,
                    cells: key,
                    digits: xy,
                    house: None,
                    depth: 0,
                    unit: target.index() as u8,
                    effect: Effect::remove_digits(xy, CellSet::single(target)),
                });
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_type_one_rectangle() {
        let mut st = empty();
        // Rows 1 and 2 (box 1 and box 2), columns 1 and 4.
        keep(&mut st, rc(1, 1), "45");
        keep(&mut st, rc(1, 4), "45");
        keep(&mut st, rc(2, 1), "45");
        keep(&mut st, rc(2, 4), "456");
        let mut out = Vec::new();
        assert_eq!(search(&st, &mut out), 3);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].effect,
            Effect::remove_digits(out[0].digits, CellSet::single(rc(2, 4)))
        );
    }

    #[test]
    fn a_rectangle_in_four_boxes_is_not_one() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "45");
        keep(&mut st, rc(1, 4), "45");
        keep(&mut st, rc(4, 1), "45");
        keep(&mut st, rc(4, 4), "456");
        let mut out = Vec::new();
        search(&st, &mut out);
        assert!(out.is_empty());
    }
}
