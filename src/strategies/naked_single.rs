//! Naked single (tier 0): an empty cell with exactly one candidate holds that digit.
//!
//! Possible applications: every empty cell (checking one takes constant time).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};

/// Pushes every naked single; returns p, the number of empty cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    for c in st.naked_single_cells() {
        let d = st
            .candidates(c)
            .first()
            .expect("a naked single has a candidate");
        out.push(Application {
            strategy: Strategy::NakedSingle,
            cells: CellSet::single(c),
            digits: DigitSet::single(d),
            house: None,
            depth: 0,
            unit: c.index() as u8,
            effect: Effect::Place(c, d),
        });
    }
    st.empty().len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_the_paper_example() {
        // Row 2 holds 1-8: r2c9 can only be 9.
        let mut st = state(concat!(
            ".........",
            "12345678.",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ));
        let mut out = Vec::new();
        let p = search(&st, &mut out);
        assert_eq!(p, 81 - 8);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].effect, Effect::Place(rc(2, 9), dg(9)));
        // After placing it there is none left.
        st.apply(&out[0].effect);
        out.clear();
        assert_eq!(search(&st, &mut out), 81 - 9);
        assert!(out.is_empty());
    }
}
