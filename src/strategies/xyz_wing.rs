//! XYZ-wing (no hsolve tier; for the rating beyond the paper): a pivot with candidates
//! {x, y, z} sees two pincers with {x, z} and {y, z}. Whatever the pivot holds, one of the
//! three cells holds z, so every cell seeing all three loses z.
//!
//! Possible applications: the three-candidate cells (each a possible pivot).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;

/// Pushes every valid XYZ-wing; returns p, the number of three-candidate cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for pivot in st.empty() {
        let xyz = st.candidates(pivot);
        if xyz.len() != 3 {
            continue;
        }
        p += 1;
        let wings: Vec<_> = (st.empty() & CellSet::peers(pivot))
            .iter()
            .filter(|&w| {
                let c = st.candidates(w);
                c.len() == 2 && (c - xyz).is_empty()
            })
            .collect();
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ca, cb) = (st.candidates(a), st.candidates(b));
                // Different pairs sharing exactly one digit z; together they cover xyz.
                let z = ca & cb;
                if ca == cb || z.len() != 1 || (ca | cb) != xyz {
                    continue;
                }
                let d = z.first().expect("one digit");
                let seen = CellSet::peers(pivot) & CellSet::peers(a) & CellSet::peers(b);
                let hit = st.cells_with(d) & seen;
                if !hit.is_empty() {
                    out.push(Application {
                        strategy: Strategy::XyzWing,
                        cells: [pivot, a, b].into_iter().collect(),
                        digits: xyz,
                        house: None,
                        depth: 0,
                        unit: pivot.index() as u8,
                        effect: Effect::remove_digit(d, hit),
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
    fn finds_an_xyz_wing() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "123"); // pivot
        keep(&mut st, rc(1, 2), "13"); // pincer in the row (and box)
        keep(&mut st, rc(3, 1), "23"); // pincer in the column (and box)
        let mut out = Vec::new();
        assert_eq!(search(&st, &mut out), 1);
        assert_eq!(out.len(), 1);
        // Cells seeing all three: the rest of box 1.
        let Effect::Remove(r) = out[0].effect else {
            panic!()
        };
        let expected: CellSet = [rc(1, 3), rc(2, 1), rc(2, 2), rc(2, 3), rc(3, 2), rc(3, 3)]
            .into_iter()
            .collect();
        assert_eq!(r[2], expected);
    }

    #[test]
    fn pincers_must_cover_the_pivot() {
        let mut st = empty();
        keep(&mut st, rc(1, 1), "123");
        keep(&mut st, rc(1, 2), "13");
        keep(&mut st, rc(3, 1), "13");
        let mut out = Vec::new();
        search(&st, &mut out);
        assert!(out.is_empty());
    }
}
