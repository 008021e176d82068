//! Naked pair, triple and quad (tiers 1, 2 and 3): k empty cells of one house whose candidates
//! together are only k digits hold those digits, so the other cells of the house lose them.
//!
//! Possible applications: for each of the 27 houses, C(n, k) where n is the number of empty
//! cells of the house (every k-subset of its empty cells). A valid application is a k-subset
//! whose candidates cover exactly k digits and whose digits appear in another cell of the
//! house. A pair in a row and a box counts once for each house.

use super::{for_each_subset, scan_houses, sized, Application, Strategy, ALL_HOUSES};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Cell;

/// Pushes every valid naked subset of size `k` (2-4); returns p.
pub fn search(st: &Candidates, k: u32, out: &mut Vec<Application>) -> u64 {
    search_in(st, k, ALL_HOUSES, out)
}

/// Pushes the valid naked subsets of size `k` in the houses of the mask `houses` (bit h =
/// house h); returns p over all houses.
pub(crate) fn search_in(st: &Candidates, k: u32, houses: u32, out: &mut Vec<Application>) -> u64 {
    let strategy = sized(Strategy::NAKED_SUBSETS, k);
    scan_houses(st, k, houses, |h, empty| {
        let mut cells = [Cell::from_index(0); 9];
        let mut masks = [0u16; 9];
        for (i, c) in empty.iter().enumerate() {
            cells[i] = c;
            masks[i] = st.candidates(c).bits();
        }
        let n = empty.len() as usize;
        for_each_subset(&masks[..n], k, |chosen, union| {
            if union.count_ones() != k {
                return; // fewer digits than cells: a contradiction, not a subset
            }
            let mut subset = CellSet::EMPTY;
            let mut others = 0u16;
            for (i, &c) in cells[..n].iter().enumerate() {
                if chosen >> i & 1 != 0 {
                    subset.insert(c);
                } else {
                    others |= masks[i];
                }
            }
            if others & union == 0 {
                return; // nothing to remove
            }
            let digits = DigitSet::from_bits(union);
            let effect = Effect::remove_digits(digits, empty - subset);
            out.push(Application::of_house(strategy, h, subset, digits, effect));
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::House;
    use crate::strategies::choose;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_naked_pair_and_counts_p() {
        // Row 1: r1c1 and r1c2 hold only {1,2}.
        let (p, out) = run(|s, o| search(s, 2, o), &board("r1c1=12 r1c2=12"));
        // 27 houses of 9 empty cells: 27 * C(9,2).
        assert_eq!(p, 27 * 36);
        // The pair is in row 1 and in box 1: two applications.
        assert_eq!(out.len(), 2);
        let row = out.iter().find(|a| a.house == Some(House::Row(0))).unwrap();
        assert_eq!(row.digits.to_string(), "12");
        assert_eq!(row.cells.len(), 2);
        assert_eq!(removed(row, 1).len(), 7);
        assert_eq!(removed(row, 2).len(), 7);
        assert!(out.iter().any(|a| a.house == Some(House::Box(0))));
    }

    #[test]
    fn a_pair_with_nothing_to_remove_is_not_valid() {
        let mut st = board("r1c1=12 r1c2=12");
        // The other cells of row 1 and box 1.
        let others = cells("r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3");
        remove(&mut st, 1, &others);
        remove(&mut st, 2, &others);
        let (_, out) = run(|s, o| search(s, 2, o), &st);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn finds_a_naked_triple_without_any_cell_holding_all_three() {
        let st = board("r5c1=12 r5c5=23 r5c9=13");
        let (p, out) = run(|s, o| search(s, 3, o), &st);
        assert_eq!(p, 27 * 84);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].house, Some(House::Row(4)));
        assert_eq!(out[0].digits.to_string(), "123");
        assert_eq!(out[0].effect.size(), 6 * 3);
        // No pair in it.
        assert!(run(|s, o| search(s, 2, o), &st).1.is_empty());
    }

    #[test]
    fn finds_a_naked_quad() {
        let (_, out) = run(
            |s, o| search(s, 4, o),
            &board("r1c1=12 r2c2=23 r3c3=34 r2c3=41"),
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].house, Some(House::Box(0)));
        assert_eq!(out[0].effect.size(), 5 * 4);
    }

    #[test]
    fn p_counts_only_empty_cells() {
        let st = state(
            "123456...........................................................................",
        );
        // Row 1 has 3 empty cells, boxes 1 and 2 have 6 each, columns 1-6 have 8.
        let expected = choose(3, 2) // row 1
            + 8 * choose(9, 2) // rows 2-9
            + 6 * choose(8, 2) + 3 * choose(9, 2) // columns
            + 2 * choose(6, 2) + 7 * choose(9, 2); // boxes
        assert_eq!(run(|s, o| search(s, 2, o), &st).0, expected);
    }
}
