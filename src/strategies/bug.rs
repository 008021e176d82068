//! BUG+1, the bivalue universal grave plus one (no hsolve tier; for the rating beyond the
//! paper). **Assumes the puzzle has exactly one solution.** A state where every empty cell has
//! two candidates and every digit has exactly two places in each house that lacks it (a BUG)
//! has no solution or at least two. When every empty cell but one has two candidates, that
//! one has three, and the houses are as in a BUG except that in the three houses of that cell
//! one of its digits has three places, then that cell holds that digit: any other would leave
//! a BUG.
//!
//! Possible applications: 1 when every empty cell but one has two candidates and that one has
//! three (the one position to check), else 0.

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, HOUSES_OF_CELL};
use crate::grid::{Cell, Digit};

/// The cell of a BUG+1 and the digit it holds, if `st` is one.
pub(crate) fn pattern(st: &Candidates) -> Option<(Cell, Digit)> {
    let odd = st.empty() - st.bivalue_cells();
    let cell = odd.first()?;
    if odd.len() != 1 || st.candidates(cell).len() != 3 {
        return None;
    }
    let houses = HOUSES_OF_CELL[cell.index()].map(usize::from);
    let count = |d: Digit, h: usize| (st.cells_with(d) & CellSet::house_at(h)).len();
    // The digit with three places in the cell's row.
    let digit = st
        .candidates(cell)
        .iter()
        .find(|&d| count(d, houses[0]) == 3)?;
    for d in Digit::all() {
        for h in 0..27 {
            let want = if d == digit && houses.contains(&h) {
                3
            } else {
                2
            };
            let n = count(d, h);
            if n != 0 && n != want || n == 0 && want == 3 {
                return None;
            }
        }
    }
    Some((cell, digit))
}

/// Pushes the BUG+1 placement if `st` is one; returns p (see the module docs).
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let odd = st.empty() - st.bivalue_cells();
    let p = match odd.first() {
        Some(c) if odd.len() == 1 && st.candidates(c).len() == 3 => 1,
        _ => 0,
    };
    if let Some((cell, digit)) = pattern(st) {
        out.push(Application::at_cell(
            Strategy::BugPlusOne,
            cell,
            digit,
            Effect::Place(cell, digit),
        ));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// HoDoKu's regression library (reglib-1.3.txt, section 0610, "Bivalue Universal Grave +
    /// 1"): HoDoKu writes the step as the removal of the cell's two other digits; here the
    /// cell is placed with the third.
    #[test]
    fn hodoku_library_examples() {
        let cases = [
            ":0610::.+9.+613.+8+4...2+5+7+1+393.184+92..968+5+7+1+42+3+4379+2+6+81+5+1..+3+84......+1+9+2..8..9+435+67+1+51.+76+8..+2::373 673::",
            ":0610::1953246874.78659.168.179...75.936.189.651837.31824756926975184357..8.19.8.1.9.7..:238 239:599 699::",
            ":0610::+4+3+75+82+9+61..+9+41+7+28+38+1+2+6+9+34+7+5..+6+9+7+8+13+49413+2+68+5778+3+15+46+2+9..+4+2.+5+7.+8.75+8.9+3.2..87.+1+5.+6::171 371::",
        ];
        for line in cases {
            let (st, gone) = library_line(line);
            let (p, out) = run(search, &st);
            assert_eq!(p, 1, "{line}");
            assert_eq!(out.len(), 1, "{line}");
            let Effect::Place(cell, digit) = out[0].effect else {
                panic!("a placement");
            };
            // The cell loses exactly its other two digits.
            let others: Vec<Digit> = st.candidates(cell).iter().filter(|&d| d != digit).collect();
            assert_eq!(others.len(), 2);
            for d in Digit::all() {
                assert_eq!(
                    gone[d.index()].contains(cell),
                    others.contains(&d),
                    "{line}"
                );
            }
        }
    }

    /// The library's case marked "this is not a BUG+1!": one cell has three candidates, but
    /// the houses are not those of a BUG.
    #[test]
    fn a_near_bug_that_is_not_one() {
        let line = ":0610-x::+9+5+2..+17+3+6..8+5+76+249476+9+2+3+18+5+78..92+5+61+69+17.5+42.2.+516.+97..2.+6.+981786+92+1+73+5+4..7...+6+9+2:391 392 494 395 495::";
        let (st, _) = library_line(line);
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn nothing_without_a_single_three_candidate_cell() {
        // An empty board: no cell has two candidates.
        assert_eq!(run(search, &empty()), (0, Vec::new()));
        // Two cells with three candidates.
        let st = board("r1c1=12 r1c2=123 r1c3=124");
        assert_eq!(run(search, &st), (0, Vec::new()));
    }
}
