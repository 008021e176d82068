//! XYZ-wing (no hsolve tier; for the rating beyond the paper): a pivot with candidates
//! {x, y, z} sees two pincers with {x, z} and {y, z}. Whatever the pivot holds, one of the
//! three cells holds z, so every cell seeing all three loses z.
//!
//! Possible applications: the three-candidate cells (each a possible pivot).

use super::{pairs, Application, Strategy};
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
        for (a, b) in pairs(&wings) {
            let (ca, cb) = (st.candidates(a), st.candidates(b));
            // Different pairs sharing exactly one digit z; together they cover xyz.
            let z = ca & cb;
            if ca == cb || z.len() != 1 || (ca | cb) != xyz {
                continue;
            }
            let d = z.first().expect("one digit");
            let hit = st.cells_with(d) & CellSet::peers(pivot) & CellSet::seen_by_both(a, b);
            if !hit.is_empty() {
                let cells = [pivot, a, b].into_iter().collect();
                let effect = Effect::remove_digit(d, hit);
                out.push(Application::new(
                    Strategy::XyzWing,
                    cells,
                    xyz,
                    pivot.index(),
                    effect,
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
    fn finds_an_xyz_wing() {
        // Pivot r1c1, pincers r1c2 (in the row and box) and r3c1 (in the column and box).
        let (p, out) = run(search, &board("r1c1=123 r1c2=13 r3c1=23"));
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        // Cells seeing all three: the rest of box 1.
        let expected = cells("r1c3 r2c1 r2c2 r2c3 r3c2 r3c3").into_iter().collect();
        assert_eq!(removed(&out[0], 3), expected);
    }

    #[test]
    fn pincers_must_cover_the_pivot() {
        let (_, out) = run(search, &board("r1c1=123 r1c2=13 r3c1=13"));
        assert!(out.is_empty());
    }
}
