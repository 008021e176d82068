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
                hit |= st.cells_with(x) & CellSet::peers(start) & CellSet::peers(end);
            }
            if !hit.is_empty() {
                out.push(Application {
                    strategy: Strategy::XyChain,
                    cells: CellSet::single(start),
                    digits: DigitSet::single(x),
                    house: None,
                    depth: 0,
                    unit: start.index() as u8,
                    effect: Effect::remove_digit(x, hit),
                });
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
        let mut st = empty();
        keep(&mut st, rc(1, 7), "13"); // end
        keep(&mut st, rc(1, 1), "12"); // middle
        keep(&mut st, rc(5, 1), "23"); // end
        let mut out = Vec::new();
        assert_eq!(search(&st, &mut out), 3);
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
        let mut st = empty();
        keep(&mut st, rc(1, 1), "12");
        keep(&mut st, rc(1, 5), "23");
        keep(&mut st, rc(5, 5), "34");
        keep(&mut st, rc(5, 9), "41");
        let mut out = Vec::new();
        search(&st, &mut out);
        // Ends r1c1 and r5c9 both could be 1: r1c9 and r5c1 lose 1.
        let ones: CellSet = out
            .iter()
            .filter(|a| a.digits.contains(dg(1)))
            .flat_map(|a| match a.effect {
                Effect::Remove(r) => r[0].iter().collect::<Vec<_>>(),
                _ => vec![],
            })
            .collect();
        assert_eq!(ones, [rc(1, 9), rc(5, 1)].into_iter().collect());
    }
}
