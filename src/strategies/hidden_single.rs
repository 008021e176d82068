//! Hidden single (tier 0): a digit with one possible cell in a row, column or box goes there.
//!
//! Possible applications: every empty cell (checking a cell means inspecting the other cells
//! of its three houses). An application is a cell, so a cell that is a hidden single in two
//! houses counts once.

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};

/// Pushes every hidden single; returns p, the number of empty cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    for c in st.hidden_single_cells() {
        if let Some((d, h)) = st.hidden_single_at(c) {
            let a = Application::at_cell(Strategy::HiddenSingle, c, d, Effect::Place(c, d));
            out.push(a.in_house(Some(h)));
        }
    }
    st.empty().len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cellset::CellSet;
    use crate::grid::House;
    use crate::strategies::testing::*;

    #[test]
    fn finds_the_paper_example() {
        // The paper's example: 1s in rows 2 and 3 and columns 2 and 3 leave r1c1 as the only
        // place for 1 in box 1 (the other cells of the box are filled). The 1s of columns 2 and 3
        // sit in rows 4 and 7.
        let st = state(concat!(
            ".........",
            ".341.....",
            ".56....1.",
            ".1.......",
            ".........",
            ".........",
            "..1......",
            ".........",
            ".........",
        ));
        let (p, out) = run(search, &st);
        assert_eq!(p, st.empty().len() as u64);
        let a = out
            .iter()
            .find(|a| a.cells == CellSet::single(rc(1, 1)))
            .expect("r1c1 is a hidden single");
        assert_eq!(a.effect, Effect::Place(rc(1, 1), dg(1)));
        // 1 has no other place in row 1 either; the first house found is reported.
        assert!(matches!(a.house, Some(House::Row(0) | House::Box(0))));
    }

    #[test]
    fn none_on_an_empty_board() {
        assert_eq!(run(search, &empty()), (81, Vec::new()));
    }
}
