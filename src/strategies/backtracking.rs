//! Backtracking (tier 5): in a cell with two candidates, try one and follow it with naked and
//! hidden singles only. A contradiction proves the other candidate; when the puzzle is known
//! to have one solution, a trial that completes the grid proves its own value.
//!
//! The application places the proven digit; the trial value is reported as its digit.
//!
//! Possible applications: the two-candidate cells.

use super::{Application, Context, Known, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::Digit;
use crate::propagate::{place_and_propagate, Propagation};

/// Pushes every valid backtracking application; returns p, the number of two-candidate
/// cells. `known` skips trials whose outcome earlier states proved, and learns the new ones.
pub fn search(
    st: &Candidates,
    ctx: &Context,
    known: &mut Known,
    out: &mut Vec<Application>,
) -> u64 {
    let mut p = 0;
    // Per digit, the cells that some stalled trial of this search placed. If x placed y and
    // stalled, y's own trial starts from more candidates than x's end state: it cannot end in
    // a contradiction (propagation is monotone) nor fill the grid (x's end state would then be
    // the full grid), so it is skipped.
    let mut stalls = [CellSet::EMPTY; 9];
    for c in st.empty() {
        let ds = st.candidates(c);
        if ds.len() != 2 {
            continue;
        }
        p += 1;
        let mut it = ds.iter();
        let (a, b) = (it.next().expect("two"), it.next().expect("two"));
        // With the solution known, try the wrong value first: only it can contradict.
        let order = if ctx.is_solution(c, a) {
            [(b, a), (a, b)]
        } else {
            [(a, b), (b, a)]
        };
        for (trial, other) in order {
            let outcome = if known.singles_contradict[trial.index()].contains(c) {
                Propagation::Contradiction
            } else if known.singles_solve[trial.index()].contains(c) {
                Propagation::Solved
            } else if stalls[trial.index()].contains(c) {
                Propagation::Stalled
            } else {
                let mut s = st.clone();
                let o = place_and_propagate(&mut s, c, trial);
                if o == Propagation::Stalled {
                    for d in Digit::all() {
                        stalls[d.index()] |= s.placed(d) - st.placed(d);
                    }
                }
                o
            };
            let placed = match outcome {
                Propagation::Contradiction => other,
                Propagation::Solved if ctx.solution.is_some() => trial,
                _ => continue,
            };
            let effect = Effect::Place(c, placed);
            out.push(Application::at_cell(Strategy::Backtracking, c, trial, effect).at_depth(1));
            known.learn(out.last().expect("just pushed"));
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::propagate::{place_and_propagate, propagate};
    use crate::strategies::testing::*;

    /// Assumes `d` in `c` on a copy of `st` and follows it with singles.
    fn try_value(st: &Candidates, c: Cell, d: Digit) -> Propagation {
        let mut s = st.clone();
        place_and_propagate(&mut s, c, d)
    }

    #[test]
    fn singles_solve_an_easy_puzzle() {
        let mut st = state(EASY);
        assert_eq!(propagate(&mut st), Propagation::Solved);
        assert!(crate::solve::is_unique(&st.to_puzzle()));
    }

    #[test]
    fn singles_stall_on_a_hard_puzzle() {
        let mut st = state(HARD);
        assert_eq!(propagate(&mut st), Propagation::Stalled);
        assert!(!st.is_broken());
    }

    #[test]
    fn a_wrong_value_ends_in_a_contradiction() {
        // Row 1 misses 8 and 9, and column 8 has its 9 in row 5: r1c8 must be 8, so 8 in
        // r1c9 leaves r1c8 with nothing.
        let st = state(ROW_ONE_MISSES_8_9);
        assert_eq!(try_value(&st, rc(1, 9), dg(8)), Propagation::Contradiction);
        assert_eq!(try_value(&st, rc(1, 9), dg(9)), Propagation::Stalled);
    }

    #[test]
    fn every_application_places_the_solution_digit() {
        let (st, sol) = after_singles(HARD);
        let mut out = Vec::new();
        let n = search(
            &st,
            &Context {
                solution: Some(sol),
            },
            &mut Known::default(),
            &mut out,
        );
        let bivalue = st
            .empty()
            .iter()
            .filter(|&c| st.candidates(c).len() == 2)
            .count();
        assert_eq!(n, bivalue as u64);
        for a in &out {
            let Effect::Place(c, d) = a.effect else {
                panic!()
            };
            assert_eq!(sol.get(c), d);
        }
    }

    #[test]
    fn none_without_two_candidate_cells() {
        let mut out = Vec::new();
        assert_eq!(
            search(
                &empty(),
                &Context::default(),
                &mut Known::default(),
                &mut out
            ),
            0
        );
        assert!(out.is_empty());
    }
}
