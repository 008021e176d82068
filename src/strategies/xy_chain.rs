//! XY-chain (no hsolve tier; for the rating beyond the paper): a chain of two-candidate cells,
//! each seeing the next and sharing a digit with it. If the first cell is not x, each cell
//! in turn is forced, and the last one becomes x; so one of the two ends is x, and every cell
//! seeing both ends loses x. Chains are searched up to eight cells.
//!
//! Possible applications: the two-candidate cells (each a possible start).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Digit;

/// The longest chain searched, in cells.
const MAX_LEN: usize = 8;

/// Pushes every valid XY-chain (one per start cell and digit, with all its removals);
/// returns p, the number of two-candidate cells.
///
/// From each start and digit x the chain is followed breadth first over (cell, forced value)
/// states, one level per cell added: a walk of forcings is sound even where it revisits a
/// cell, so the states reached are exactly the ends of the chains. A state reached again at
/// a later level continues nothing new, and the only ends skipped that way are cells of the
/// start's own two digits beside it, whose removals a naked pair makes (an earlier rung).
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue = st.bivalue_cells();
    // Per digit v, the two-candidate cells holding v.
    let with: [CellSet; 9] = std::array::from_fn(|v| bivalue & st.cells_with(Digit::from_index(v)));
    for start in bivalue {
        for x in st.candidates(start).iter() {
            // If start is not x it is the other digit, which the next cells then are not.
            let other = (st.candidates(start) - DigitSet::single(x))
                .first()
                .expect("two candidates");
            // frontier[v]: cells forced to v at this level; seen[v]: forced to v so far.
            let mut frontier = [CellSet::EMPTY; 9];
            frontier[other.index()] = CellSet::single(start);
            let mut seen = frontier;
            let mut ends = CellSet::EMPTY;
            for level in 1..MAX_LEN {
                let mut next = [CellSet::EMPTY; 9];
                for v in 0..9 {
                    if frontier[v].is_empty() {
                        continue;
                    }
                    // Cells seeing a cell forced to v lose v and hold their other digit.
                    let reach = with[v] & super::colouring::seen_by(frontier[v]);
                    for c in reach {
                        let forced = (st.candidates(c) - DigitSet::from_bits(1 << v))
                            .first()
                            .expect("two candidates");
                        next[forced.index()].insert(c);
                    }
                }
                let mut any = false;
                for v in 0..9 {
                    next[v] -= seen[v];
                    seen[v] |= next[v];
                    any |= !next[v].is_empty();
                }
                if level >= 2 {
                    ends |= next[x.index()];
                }
                if !any {
                    break;
                }
                frontier = next;
            }
            let mut hit = CellSet::EMPTY;
            for end in ends - CellSet::single(start) {
                hit |= st.cells_with(x) & CellSet::seen_by_both(start, end);
            }
            if !hit.is_empty() {
                let effect = Effect::remove_digit(x, hit);
                out.push(Application::at_cell(Strategy::XyChain, start, x, effect));
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
    fn an_xy_wing_is_a_three_cell_chain() {
        // Ends r1c7 and r5c1, middle r1c1.
        let (p, out) = run(search, &board("r1c7=13 r1c1=12 r5c1=23"));
        assert_eq!(p, 3);
        let with3: Vec<_> = out.iter().filter(|a| a.digits.contains(dg(3))).collect();
        assert!(!with3.is_empty());
        for a in with3 {
            assert_eq!(
                a.effect,
                Effect::remove_digit(dg(3), CellSet::single(rc(5, 7)))
            );
        }
    }

    #[test]
    fn a_four_cell_chain() {
        let (_, out) = run(search, &board("r1c1=12 r1c5=23 r5c5=34 r5c9=41"));
        // Ends r1c1 and r5c9 both could be 1: r1c9 and r5c1 lose 1.
        let ones = out.iter().fold(CellSet::EMPTY, |s, a| s | removed(a, 1));
        assert_eq!(ones, cells("r1c9 r5c1").into_iter().collect());
    }
}
