//! XY-wing (no tier; the technique grade's "insane" level): a pivot with candidates {a, b}
//! sees two pincers with {a, c} and {b, c}. Whatever the pivot holds, one pincer holds c, so
//! every cell seeing both pincers loses c.
//!
//! Possible applications: the two-candidate cells (each a possible pivot).

use super::{Application, Strategy};
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
        for (i, &x) in wings.iter().enumerate() {
            for &y in &wings[i + 1..] {
                let (cx, cy) = (st.candidates(x), st.candidates(y));
                let c = (cx - ab) & (cy - ab);
                // The pincers share c and split a and b between them.
                if c.len() != 1 || (cx & ab) == (cy & ab) {
                    continue;
                }
                let d = c.first().expect("one digit");
                let mut both = CellSet::peers(x) & CellSet::peers(y);
                both.remove(pivot);
                let hit = st.cells_with(d) & both;
                if !hit.is_empty() {
                    out.push(Application {
                        strategy: Strategy::XyWing,
                        cells: [pivot, x, y].into_iter().collect(),
                        digits: ab | c,
                        house: None,
                        depth: 0,
                        unit: pivot.index() as u8,
                        effect: Effect::remove_digit(d, hit),
                    });
                }
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
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12"); // pivot
        keep(&mut st, rc(1, 7), "13"); // pincer in the row
        keep(&mut st, rc(5, 1), "23"); // pincer in the column
        let mut out = Vec::new();
        assert_eq!(search(&st, &mut out), 3);
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
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(1, 7), "13");
        keep(&mut st, rc(5, 1), "13");
        let mut out = Vec::new();
        search(&st, &mut out);
        assert!(out.is_empty());
    }
}
