//! Simple colouring (no hsolve tier; for the rating beyond the paper). For one digit, the
//! *strong links* are the houses where it has exactly two places: one of the two holds it.
//! Chains of strong links are coloured alternately; in each chain one colour holds the digit
//! everywhere and the other nowhere. So:
//!
//! - **colour wrap**: if two cells of one colour see each other, that colour is false and all
//!   its cells lose the digit;
//! - **colour trap**: a cell outside the chain that sees cells of both colours loses it.
//!
//! Possible applications: per digit, the chains (connected sets of strong links).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, HOUSES_OF_CELL};
use crate::grid::{Cell, Digit};

/// The cells joined to `c` by a strong link of a digit with places `places`: in each of
/// `c`'s houses where the digit has exactly two places, the other one.
#[inline]
fn partners(places: CellSet, c: Cell) -> CellSet {
    let mut out = CellSet::EMPTY;
    for &h in &HOUSES_OF_CELL[c.index()] {
        let x = places & CellSet::house_at(h as usize);
        if x.len() == 2 {
            out |= x;
        }
    }
    out - CellSet::single(c)
}

/// The union of the peers of the cells of `s`.
#[inline]
pub(super) fn seen_by(s: CellSet) -> CellSet {
    s.iter().fold(CellSet::EMPTY, |a, c| a | CellSet::peers(c))
}

/// Pushes every valid colouring (one application per chain with removals); returns p, the
/// number of chains over all digits.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        // The cells in some strong link.
        let mut linked = CellSet::EMPTY;
        for h in 0..27 {
            let x = places & CellSet::house_at(h);
            if x.len() == 2 {
                linked |= x;
            }
        }
        // Colour each chain breadth first, alternating colours level by level.
        let mut left = linked;
        while let Some(start) = left.first() {
            let mut colours = [CellSet::single(start), CellSet::EMPTY];
            let mut frontier = CellSet::single(start);
            let mut seen = frontier;
            let mut k = 0;
            while !frontier.is_empty() {
                let next = frontier
                    .iter()
                    .fold(CellSet::EMPTY, |a, c| a | partners(places, c))
                    - seen;
                k ^= 1;
                colours[k] |= next;
                seen |= next;
                frontier = next;
            }
            left -= seen;
            p += 1;
            let [one, two] = colours;
            let mut hit = CellSet::EMPTY;
            // Wrap: a colour seeing itself is false.
            for s in [one, two] {
                if s.iter().any(|c| CellSet::peers(c).intersects(s)) {
                    hit |= s;
                }
            }
            // Trap: outside cells seeing both colours.
            hit |= (places - seen) & seen_by(one) & seen_by(two);
            if !hit.is_empty() {
                let effect = Effect::remove_digit(d, hit);
                out.push(Application::of_digit(Strategy::Colouring, d, seen, effect));
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Leaves digit `d` only in the given cells of each listed house (cells given per house).
    fn only(st: &mut Candidates, d: u8, house: &[(u8, u8)], keep: &[(u8, u8)]) {
        let cells: Vec<_> = house
            .iter()
            .filter(|x| !keep.contains(x))
            .map(|&(r, c)| rc(r, c))
            .collect();
        remove(st, d, &cells);
    }

    #[test]
    fn colour_trap() {
        let mut st = empty();
        let row = |r: u8| -> Vec<(u8, u8)> { (1..=9).map(|c| (r, c)).collect() };
        let col9: Vec<(u8, u8)> = (1..=9).map(|r| (r, 9)).collect();
        // Strong links for 7: row 1 (c2, c9), column 9 (r1, r6), row 6 (c9, c2): the chain
        // r1c2 (A) - r1c9 (B) - r6c9 (A) - r6c2 (B).
        only(&mut st, 7, &row(1), &[(1, 2), (1, 9)]);
        only(&mut st, 7, &col9, &[(1, 9), (6, 9)]);
        only(&mut st, 7, &row(6), &[(6, 9), (6, 2)]);
        let mut out = Vec::new();
        assert!(search(&st, &mut out) >= 1);
        let apps: Vec<_> = out.iter().filter(|a| a.digits.contains(dg(7))).collect();
        assert_eq!(apps.len(), 1, "{out:?}");
        let Effect::Remove(r) = apps[0].effect else {
            panic!()
        };
        // Column 2 between r1c2 (A) and r6c2 (B) is trapped, e.g. r3c2.
        assert!(r[6].contains(rc(3, 2)));
        // The chain itself keeps its candidates (no wrap).
        for c in [rc(1, 2), rc(1, 9), rc(6, 9), rc(6, 2)] {
            assert!(!r[6].contains(c));
        }
        // Every removed cell sees both colours.
        for c in r[6] {
            let sees = |x: crate::grid::Cell| CellSet::peers(c).contains(x);
            let a = sees(rc(1, 2)) || sees(rc(6, 9));
            let b = sees(rc(1, 9)) || sees(rc(6, 2));
            assert!(a && b, "{c}");
        }
    }

    #[test]
    fn nothing_without_strong_links() {
        assert_eq!(run(search, &empty()), (0, Vec::new()));
    }
}
