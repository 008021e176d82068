//! Locked candidates (tier 1): where a row or column crosses a box, the three shared cells.
//! If a digit's places in the box all lie in the shared cells, it leaves the rest of the line
//! (pointing); if its places in the line all lie there, it leaves the rest of the box
//! (claiming).
//!
//! Possible applications: the 54 line-box intersections (27 row-box, 27 column-box) with two
//! or three empty cells. A valid application is such an intersection where some digit points
//! or claims with at least one removal; applying it makes all of that intersection's removals.

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Digit;

/// The 54 intersections as (line house, box house, shared cells).
const INTERSECTIONS: [(usize, usize, CellSet); 54] = {
    let mut t = [(0usize, 0usize, CellSet::EMPTY); 54];
    let mut n = 0;
    let mut line = 0;
    while line < 18 {
        let mut k = 0;
        while k < 3 {
            // The three boxes a row (or column) crosses.
            let b = if line < 9 {
                (line / 3) * 3 + k
            } else {
                k * 3 + (line - 9) / 3
            };
            let bits = CellSet::house_at(line).bits() & CellSet::house_at(18 + b).bits();
            t[n] = (line, 18 + b, CellSet::from_bits(bits));
            n += 1;
            k += 1;
        }
        line += 1;
    }
    t
};

/// Pushes every valid locked-candidates intersection; returns p.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for &(line, bx, shared) in &INTERSECTIONS {
        let cells = shared & st.empty();
        if cells.len() < 2 {
            continue;
        }
        p += 1;
        let line_rest = CellSet::house_at(line) - shared;
        let box_rest = CellSet::house_at(bx) - shared;
        let mut removals = [CellSet::EMPTY; 9];
        let mut digits = DigitSet::EMPTY;
        for d in Digit::all() {
            let places = st.cells_with(d);
            if !places.intersects(shared) {
                continue;
            }
            let mut hit = CellSet::EMPTY;
            if !places.intersects(box_rest) {
                hit |= places & line_rest; // pointing
            }
            if !places.intersects(line_rest) {
                hit |= places & box_rest; // claiming
            }
            if !hit.is_empty() {
                removals[d.index()] = hit;
                digits.insert(d);
            }
        }
        if !digits.is_empty() {
            out.push(Application {
                strategy: Strategy::LockedCandidates,
                cells,
                digits,
                house: None,
                depth: 0,
                effect: Effect::Remove(removals),
            });
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn pointing_and_p() {
        let mut st = empty();
        // In box 1, digit 7 only in row 1 (r1c1, r1c2): it leaves r1c4..r1c9.
        remove(
            &mut st,
            7,
            &[
                rc(1, 3),
                rc(2, 1),
                rc(2, 2),
                rc(2, 3),
                rc(3, 1),
                rc(3, 2),
                rc(3, 3),
            ],
        );
        let mut out = Vec::new();
        let p = search(&st, &mut out);
        assert_eq!(p, 54);
        // Box 1 / row 1 points; column 1 and column 2 each claim... no: they still have 7 in
        // rows 4-9. Row 2 and 3 have no 7 in box 1, so nothing else.
        assert_eq!(out.len(), 1, "{out:?}");
        let Effect::Remove(r) = out[0].effect else {
            panic!()
        };
        assert_eq!(r[6], (4..=9).map(|c| rc(1, c)).collect());
        assert_eq!(out[0].effect.size(), 6);
    }

    #[test]
    fn claiming() {
        let mut st = empty();
        // In column 5, digit 3 only in rows 4-6 (box 5): it leaves the rest of box 5.
        let col: Vec<_> = [1, 2, 3, 7, 8, 9].iter().map(|&r| rc(r, 5)).collect();
        remove(&mut st, 3, &col);
        let mut out = Vec::new();
        search(&st, &mut out);
        // Column 5 / box 5 claims; and box 2 and box 8 now have 3 only outside column 5,
        // which is no pattern. Columns 4 and 6: nothing.
        let claim: Vec<_> = out.iter().filter(|a| a.cells.contains(rc(5, 5))).collect();
        assert_eq!(claim.len(), 1, "{out:?}");
        assert_eq!(claim[0].effect.size(), 6);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn p_skips_intersections_with_fewer_than_two_empty_cells() {
        let st = state(
            "12.......3........................................................................",
        );
        let mut out = Vec::new();
        // Row 1 / box 1 has one empty cell; column 1 / box 1 has one (r3c1).
        assert_eq!(search(&st, &mut out), 52);
        assert!(out.is_empty());
    }
}
