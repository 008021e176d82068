//! W-wing (no hsolve tier; for the rating beyond the paper): two cells with the same two
//! candidates {x, y} that do not see each other, and a house where x's only two places are a
//! cell seeing the first and a cell seeing the second. One of the two cells then holds y, so
//! every cell seeing both loses y.
//!
//! Possible applications: the pairs of two-candidate cells with equal candidates that do not
//! see each other.

use super::{pairs, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;

/// Pushes every valid W-wing; returns p.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue: Vec<_> = st.bivalue_cells().iter().collect();
    let mut p = 0;
    for (a, b) in pairs(&bivalue) {
        let xy = st.candidates(a);
        if st.candidates(b) != xy || CellSet::peers(a).contains(b) {
            continue;
        }
        p += 1;
        let ends: CellSet = [a, b].into_iter().collect();
        let both = CellSet::seen_by_both(a, b);
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
                out.push(Application::new(
                    Strategy::WWing,
                    ends,
                    xy,
                    a.index(),
                    Effect::remove_digit(y, hit),
                ));
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
        let mut st = board("r1c1=12 r5c5=12");
        // Row 9: digit 1 only in r9c1 (sees r1c1) and r9c5 (sees r5c5).
        remove(&mut st, 1, &cells("r9c2 r9c3 r9c4 r9c6 r9c7 r9c8 r9c9"));
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        // r1c5 and r5c1 see both: they lose 2.
        assert_eq!(
            removed(&out[0], 2),
            cells("r1c5 r5c1").into_iter().collect()
        );
    }

    #[test]
    fn none_without_the_strong_link() {
        let (p, out) = run(search, &board("r1c1=12 r5c5=12"));
        assert_eq!(p, 1);
        assert!(out.is_empty());
    }
}
