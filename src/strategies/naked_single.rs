//! Naked single (tier 0): an empty cell with exactly one candidate holds that digit.
//!
//! Possible applications: every empty cell (checking one takes constant time).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};

/// Pushes every naked single; returns p, the number of empty cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    for c in st.naked_single_cells() {
        let d = st
            .candidates(c)
            .first()
            .expect("a naked single has a candidate");
        out.push(Application::at_cell(
            Strategy::NakedSingle,
            c,
            d,
            Effect::Place(c, d),
        ));
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
        let mut st = state(&format!("{}12345678.{}", ".".repeat(9), ".".repeat(63)));
        let (p, out) = run(search, &st);
        assert_eq!(p, 81 - 8);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].effect, Effect::Place(rc(2, 9), dg(9)));
        // After placing it there is none left.
        st.apply(&out[0].effect);
        assert_eq!(run(search, &st), (81 - 9, Vec::new()));
    }
}
