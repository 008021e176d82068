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

/// Pushes every valid locked-candidates intersection; returns p.
///
/// Each intersection is three masks: the shared cells, the rest of the line and the rest of
/// the box. A digit whose places in the box lie in the shared cells points at the rest of the
/// line; one whose places in the line lie there claims the rest of the box.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_in(st, (1 << 54) - 1, out)
}

/// The line and box houses of intersection `i`: row-box (`i < 27`) or column-box, numbered
/// band (or stack), line in it, then box along the line.
const fn houses(i: usize) -> (usize, usize) {
    let (transposed, j) = (i >= 27, i % 27);
    let (band, r, s) = (j / 9, (j / 3) % 3, j % 3);
    let line = 3 * band + r;
    if transposed {
        (9 + line, 18 + 3 * s + band)
    } else {
        (line, 18 + 3 * band + s)
    }
}

/// Per intersection: (shared cells, rest of the line, rest of the box).
const MASKS: [(u128, u128, u128); 54] = {
    let mut t = [(0u128, 0u128, 0u128); 54];
    let mut i = 0;
    while i < 54 {
        let (l, b) = houses(i);
        let (line, bx) = (CellSet::house_at(l).bits(), CellSet::house_at(b).bits());
        t[i] = (line & bx, line & !bx, bx & !line);
        i += 1;
    }
    t
};

/// Per intersection, its cells as indexes: 3 shared, 6 in the rest of the line, 6 in the rest
/// of the box.
const CELLS: [[u8; 15]; 54] = {
    let mut t = [[0u8; 15]; 54];
    let mut i = 0;
    while i < 54 {
        let (shared, line, bx) = MASKS[i];
        let (mut a, mut b, mut c) = (0, 3, 9);
        let mut k = 0;
        while k < 81 {
            if shared >> k & 1 != 0 {
                t[i][a] = k as u8;
                a += 1;
            } else if line >> k & 1 != 0 {
                t[i][b] = k as u8;
                b += 1;
            } else if bx >> k & 1 != 0 {
                t[i][c] = k as u8;
                c += 1;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// The cells whose candidates decide each intersection's applications: its line and its box.
pub(crate) const REACH: [CellSet; 54] = {
    let mut t = [CellSet::EMPTY; 54];
    let mut i = 0;
    while i < 54 {
        let (shared, line, bx) = MASKS[i];
        t[i] = CellSet::from_bits(shared | line | bx);
        i += 1;
    }
    t
};

/// The shared cells of intersection `i` (0-53, see [`REACH`]): a line's three cells in a box.
pub(crate) fn shared(i: usize) -> CellSet {
    CellSet::from_bits(MASKS[i].0)
}

/// Pushes the valid intersections of the mask `units` (bit i = intersection i, see
/// [`REACH`]); returns p over all intersections.
pub(crate) fn search_in(st: &Candidates, units: u64, out: &mut Vec<Application>) -> u64 {
    let empty = st.empty().bits();
    let places: [u128; 9] = std::array::from_fn(|d| st.cells_with(Digit::from_index(d)).bits());
    let masks = st.masks();
    let mut p = 0;
    for (unit, &(shared, line_rest, box_rest)) in MASKS.iter().enumerate() {
        if (empty & shared).count_ones() < 2 {
            continue;
        }
        p += 1;
        if units >> unit & 1 == 0 {
            continue;
        }
        // The digits with places in the shared cells, the rest of the line, the rest of
        // the box: pointing digits are missing from the rest of the box, claiming ones from
        // the rest of the line.
        let cells = &CELLS[unit];
        let m = |range: std::ops::Range<usize>| {
            cells[range]
                .iter()
                .fold(0u16, |a, &c| a | masks[c as usize])
        };
        let (in_shared, in_line, in_box) = (m(0..3), m(3..9), m(9..15));
        let pointing = in_shared & !in_box & in_line;
        let claiming = in_shared & !in_line & in_box;
        if pointing | claiming == 0 {
            continue;
        }
        let mut removals = [CellSet::EMPTY; 9];
        let digits = DigitSet::from_bits(pointing | claiming);
        for d in digits.iter() {
            let pl = places[d.index()];
            let hit = if pointing >> d.index() & 1 != 0 {
                pl & line_rest
            } else {
                pl & box_rest
            };
            removals[d.index()] = CellSet::from_bits(hit);
        }
        if !digits.is_empty() {
            let base = CellSet::from_bits(empty & shared);
            let effect = Effect::Remove(removals);
            out.push(Application::new(
                Strategy::LockedCandidates,
                base,
                digits,
                unit,
                effect,
            ));
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
