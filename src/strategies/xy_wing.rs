//! XY-wing (no tier; used by `metrics::technique`): a pivot with candidates {a, b}
//! sees two pincers with {a, c} and {b, c}. Whatever the pivot holds, one pincer holds c, so
//! every cell seeing both pincers loses c.
//!
//! Possible applications: the two-candidate cells (each a possible pivot).

use super::{pairs, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;

/// Pushes every valid XY-wing; returns p, the number of two-candidate cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue = st.bivalue_cells();
    for pivot in bivalue {
        let ab = st.candidates(pivot);
        let wings: Vec<_> = (bivalue & CellSet::peers(pivot))
            .iter()
            .filter(|&w| (st.candidates(w) & ab).len() == 1)
            .collect();
        for (x, y) in pairs(&wings) {
            let (cx, cy) = (st.candidates(x), st.candidates(y));
            let c = (cx - ab) & (cy - ab);
            // The pincers share c and split a and b between them.
            if c.len() != 1 || (cx & ab) == (cy & ab) {
                continue;
            }
            let d = c.first().expect("one digit");
            let hit = st.cells_with(d) & (CellSet::seen_by_both(x, y) - CellSet::single(pivot));
            if !hit.is_empty() {
                let cells = [pivot, x, y].into_iter().collect();
                let effect = Effect::remove_digit(d, hit);
                out.push(Application::new(
                    Strategy::XyWing,
                    cells,
                    ab | c,
                    pivot.index(),
                    effect,
                ));
            }
        }
    }
    bivalue.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_an_xy_wing() {
        // Pivot r1c1, pincers r1c7 (in the row) and r5c1 (in the column).
        let (p, out) = run(search, &board("r1c1=12 r1c7=13 r5c1=23"));
        assert_eq!(p, 3);
        assert_eq!(out.len(), 1);
        // r5c7 sees both pincers.
        assert_eq!(
            out[0].effect,
            Effect::remove_digit(dg(3), CellSet::single(rc(5, 7)))
        );
        assert_eq!(out[0].digits.to_string(), "123");
    }

    #[test]
    fn pincers_must_split_the_pivot() {
        let (_, out) = run(search, &board("r1c1=12 r1c7=13 r5c1=13"));
        assert!(out.is_empty());
    }
}
