//! W-wing (no hsolve tier; for the rating beyond the paper): two cells with the same two
//! candidates {x, y} that do not see each other, and a house where x's only two places are a
//! cell seeing the first and a cell seeing the second. One of the two cells then holds y, so
//! every cell seeing both loses y.
//!
//! Possible applications: the pairs of two-candidate cells with equal candidates that do not
//! see each other.

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;

/// Pushes every valid W-wing; returns p.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue: Vec<_> = st.bivalue_cells().iter().collect();
    let mut p = 0;
    for (i, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[i + 1..] {
            let xy = st.candidates(a);
            if st.candidates(b) != xy || CellSet::peers(a).contains(b) {
                continue;
            }
            p += 1;
            let both = CellSet::peers(a) & CellSet::peers(b);
            for (x, y) in [
                (xy.first().expect("two"), xy.iter().nth(1).expect("two")),
                (xy.iter().nth(1).expect("two"), xy.first().expect("two")),
            ] {
                let hit = st.cells_with(y) & both;
                if hit.is_empty() {
                    continue;
                }
                // A strong link on x between a peer of a and a peer of b.
                let linked = (0..27).any(|h| {
                    let places = st.cells_with(x) & CellSet::house_at(h);
                    if places.len() != 2 || places.contains(a) || places.contains(b) {
                        return false;
                    }
                    let mut it = places.iter();
                    let (u, v) = (it.next().expect("two"), it.next().expect("two"));
                    (CellSet::peers(a).contains(u) && CellSet::peers(b).contains(v))
                        || (CellSet::peers(a).contains(v) && CellSet::peers(b).contains(u))
                });
                if linked {
                    out.push(Application {
                        strategy: Strategy::WWing,
                        cells: [a, b].into_iter().collect(),
                        digits: xy,
                        house: None,
                        depth: 0,
                        unit: a.index() as u8,
                        effect: Effect::remove_digit(y, hit),
                    });
                }
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
    fn finds_a_w_wing() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(5, 5), "12");
        // Row 9: digit 1 only in r9c1 (sees r1c1) and r9c5 (sees r5c5).
        let others: Vec<_> = [2, 3, 4, 6, 7, 8, 9].iter().map(|&c| rc(9, c)).collect();
        remove(&mut st, 1, &others);
        let mut out = Vec::new();
        assert_eq!(search(&st, &mut out), 1);
        assert_eq!(out.len(), 1);
        // r1c5 and r5c1 see both: they lose 2.
        let Effect::Remove(r) = out[0].effect else {
            panic!()
        };
        assert_eq!(r[1], [rc(1, 5), rc(5, 1)].into_iter().collect());
    }

    #[test]
    fn none_without_the_strong_link() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(5, 5), "12");
        let mut out = Vec::new();
        assert_eq!(search(&st, &mut out), 1);
        assert!(out.is_empty());
    }
}
