//! Hidden pair, triple and quad (tiers 1, 2 and 3): k digits whose only places in a house are
//! the same k cells fill those cells, so the cells lose every other candidate.
//!
//! Possible applications: for each of the 27 houses, C(n, k) where n is the number of empty
//! cells of the house. A valid application is a k-subset of the empty cells holding all the
//! places of k digits (of the digits missing from the house) and some other candidate.

use super::{for_each_subset, scan_houses, sized, Application, Strategy, ALL_HOUSES};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{column_bits, CellSet, DigitSet};
use crate::grid::{Digit, House};

/// Pushes every valid hidden subset of size `k` (2-4); returns p.
pub fn search(st: &Candidates, k: u32, out: &mut Vec<Application>) -> u64 {
    search_in(st, k, ALL_HOUSES, out)
}

/// The places of the cells of `s` inside house `h`, as 9 bits in the order of
/// [`House::cells`].
#[inline]
fn places_in(s: u128, h: usize) -> u16 {
    match h {
        0..=8 => (s >> (9 * h)) as u16 & 0x1FF,
        9..=17 => column_bits(s, h - 9),
        _ => {
            let b = h - 18;
            let o = 27 * (b / 3) + 3 * (b % 3);
            let x = s >> o;
            (x as u16 & 7) | ((x >> 9) as u16 & 7) << 3 | ((x >> 18) as u16 & 7) << 6
        }
    }
}

/// Pushes the valid hidden subsets of size `k` in the houses of the mask `houses` (bit h =
/// house h); returns p over all houses.
pub(crate) fn search_in(st: &Candidates, k: u32, houses: u32, out: &mut Vec<Application>) -> u64 {
    let strategy = sized(Strategy::HIDDEN_SUBSETS, k);
    let digit_bits: [u128; 9] = std::array::from_fn(|d| st.cells_with(Digit::from_index(d)).bits());
    scan_houses(st, k, houses, |h, _| {
        // Item = digit, mask = its places in the house. A digit without places is already
        // in the house and must not join a subset: it gets an impossible mask.
        let mut places = [0u16; 9];
        let mut small = 0;
        for (d, pl) in places.iter_mut().enumerate() {
            let m = places_in(digit_bits[d], h);
            *pl = if m == 0 { 0x1FF } else { m };
            small += u32::from(m.count_ones() <= k && m != 0);
        }
        if small < k {
            return;
        }
        let cells = House::from_index(h).expect("house < 27").cells();
        for_each_subset(&places, k, |chosen, union| {
            if union.count_ones() != k {
                return; // fewer cells than digits: a contradiction, not a subset
            }
            let mut subset = CellSet::EMPTY;
            let mut extra = false;
            for (i, &c) in cells.iter().enumerate() {
                if union >> i & 1 != 0 {
                    subset.insert(c);
                    extra |= st.candidates(c).bits() & !chosen != 0;
                }
            }
            if !extra {
                return; // nothing to remove
            }
            let digits = DigitSet::from_bits(chosen);
            let effect = Effect::remove_digits(!digits, subset);
            out.push(Application::of_house(strategy, h, subset, digits, effect));
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_follow_the_house_order() {
        for h in 0..27 {
            let cells = House::from_index(h).unwrap().cells();
            for (i, c) in cells.iter().enumerate() {
                assert_eq!(
                    places_in(CellSet::single(*c).bits(), h),
                    1 << i,
                    "house {h}"
                );
            }
            assert_eq!(places_in(CellSet::ALL.bits(), h), 0x1FF);
        }
    }
    use crate::strategies::testing::*;

    /// An empty board where, in row 1, digits 1 and 2 only fit in r1c1 and r1c5.
    fn hidden_pair() -> Candidates {
        let mut st = empty();
        let others = cells("r1c2 r1c3 r1c4 r1c6 r1c7 r1c8 r1c9");
        remove(&mut st, 1, &others);
        remove(&mut st, 2, &others);
        st
    }

    #[test]
    fn finds_a_hidden_pair() {
        let (p, out) = run(|s, o| search(s, 2, o), &hidden_pair());
        assert_eq!(p, 27 * 36);
        assert_eq!(out.len(), 1);
        let a = &out[0];
        assert_eq!(a.house, Some(House::Row(0)));
        assert_eq!(a.digits.to_string(), "12");
        assert_eq!(a.cells, cells("r1c1 r1c5").into_iter().collect());
        assert_eq!(a.effect.size(), 2 * 7);
    }

    #[test]
    fn a_hidden_pair_already_naked_is_not_valid() {
        let mut st = hidden_pair();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(1, 5), "12");
        assert!(run(|s, o| search(s, 2, o), &st).1.is_empty());
    }

    #[test]
    fn finds_a_hidden_triple_in_a_box() {
        let mut st = empty();
        // Box 9: digits 4, 5, 6 only in r7c7, r8c8, r9c9.
        let others = cells("r7c8 r7c9 r8c7 r8c9 r9c7 r9c8");
        for d in [4, 5, 6] {
            remove(&mut st, d, &others);
        }
        // One of the three cells lacks 6: still a triple.
        remove(&mut st, 6, &[rc(9, 9)]);
        let (_, out) = run(|s, o| search(s, 3, o), &st);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].house, Some(House::Box(8)));
        assert_eq!(out[0].digits.to_string(), "456");
        assert_eq!(out[0].effect.size(), 3 * 6);
        // And no quad nor pair.
        for k in [2, 4] {
            let (_, out) = run(|s, o| search(s, k, o), &st);
            assert!(out.is_empty(), "{out:?}");
        }
    }
}
