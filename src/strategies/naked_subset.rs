//! Naked pair, triple and quad (tiers 1, 2 and 3): k empty cells of one house whose candidates
//! together are only k digits hold those digits, so the other cells of the house lose them.
//!
//! Possible applications: for each of the 27 houses, C(n, k) where n is the number of empty
//! cells of the house (every k-subset of its empty cells). A valid application is a k-subset
//! whose candidates cover exactly k digits and whose digits appear in another cell of the
//! house. A pair in a row and a box counts once for each house.

use super::{choose, empty_in, for_each_subset, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, House};

/// Pushes every valid naked subset of size `k` (2-4); returns p.
pub fn search(st: &Candidates, k: u32, out: &mut Vec<Application>) -> u64 {
    search_in(st, k, (1 << 27) - 1, out)
}

/// Pushes the valid naked subsets of size `k` in the houses of the mask `houses` (bit h =
/// house h); returns p over all houses.
pub(crate) fn search_in(st: &Candidates, k: u32, houses: u32, out: &mut Vec<Application>) -> u64 {
    let strategy = match k {
        2 => Strategy::NakedPair,
        3 => Strategy::NakedTriple,
        4 => Strategy::NakedQuad,
        _ => panic!("naked subsets have 2 to 4 cells"),
    };
    let mut p = 0;
    for h in 0..27 {
        let empty = empty_in(st, h);
        let n = empty.len();
        p += choose(n, k);
        if n <= k || houses >> h & 1 == 0 {
            continue;
        }
        let mut cells = [Cell::from_index(0); 9];
        let mut masks = [0u16; 9];
        for (i, c) in empty.iter().enumerate() {
            cells[i] = c;
            masks[i] = st.candidates(c).bits();
        }
        let n = n as usize;
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
            out.push(Application {
                strategy,
                cells: subset,
                digits,
                house: House::from_index(h),
                depth: 0,
                unit: h as u8,
                effect: Effect::remove_digits(digits, empty - subset),
            });
        });
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_naked_pair_and_counts_p() {
        let mut st = empty();
        // Row 1: r1c1 and r1c2 hold only {1,2}.
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(1, 2), "12");
        let mut out = Vec::new();
        let p = search(&st, 2, &mut out);
        // 27 houses of 9 empty cells: 27 * C(9,2).
        assert_eq!(p, 27 * 36);
        // The pair is in row 1 and in box 1: two applications.
        assert_eq!(out.len(), 2);
        let row = out.iter().find(|a| a.house == Some(House::Row(0))).unwrap();
        assert_eq!(row.digits.to_string(), "12");
        assert_eq!(row.cells.len(), 2);
        let Effect::Remove(r) = row.effect else {
            panic!("a pair removes candidates")
        };
        assert_eq!(r[0].len(), 7);
        assert_eq!(r[1].len(), 7);
        assert!(out.iter().any(|a| a.house == Some(House::Box(0))));
    }

    #[test]
    fn a_pair_with_nothing_to_remove_is_not_valid() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(1, 2), "12");
        let others: Vec<_> = (3..=9).map(|c| rc(1, c)).collect();
        remove(&mut st, 1, &others);
        remove(&mut st, 2, &others);
        let box_others: Vec<_> = [
            rc(1, 3),
            rc(2, 1),
            rc(2, 2),
            rc(2, 3),
            rc(3, 1),
            rc(3, 2),
            rc(3, 3),
        ]
        .to_vec();
        remove(&mut st, 1, &box_others);
        remove(&mut st, 2, &box_others);
        let mut out = Vec::new();
        search(&st, 2, &mut out);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn finds_a_naked_triple_without_any_cell_holding_all_three() {
        let mut st = empty();
        keep(&mut st, rc(5, 1), "12");
        keep(&mut st, rc(5, 5), "23");
        keep(&mut st, rc(5, 9), "13");
        let mut out = Vec::new();
        let p = search(&st, 3, &mut out);
        assert_eq!(p, 27 * 84);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].house, Some(House::Row(4)));
        assert_eq!(out[0].digits.to_string(), "123");
        assert_eq!(out[0].effect.size(), 6 * 3);
        // No pair in it.
        out.clear();
        search(&st, 2, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn finds_a_naked_quad() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(2, 2), "23");
        keep(&mut st, rc(3, 3), "34");
        keep(&mut st, rc(2, 3), "41");
        let mut out = Vec::new();
        search(&st, 4, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].house, Some(House::Box(0)));
        assert_eq!(out[0].effect.size(), 5 * 4);
    }

    #[test]
    fn p_counts_only_empty_cells() {
        let st = state(
            "123456...........................................................................",
        );
        let mut out = Vec::new();
        // Row 1 has 3 empty cells, boxes 1 and 2 have 6 each, columns 1-6 have 8.
        let expected = choose(3, 2) // row 1
            + 8 * choose(9, 2) // rows 2-9
            + 6 * choose(8, 2) + 3 * choose(9, 2) // columns
            + 2 * choose(6, 2) + 7 * choose(9, 2); // boxes
        assert_eq!(search(&st, 2, &mut out), expected);
    }
}
