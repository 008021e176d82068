//! XY-chain (no hsolve tier; for the rating beyond the paper): a chain of two-candidate cells,
//! each seeing the next and sharing a digit with it. If the first cell is not x, each cell
//! in turn is forced, and the last one becomes x; so one of the two ends is x, and every cell
//! seeing both ends loses x. Chains are searched up to eight cells.
//!
//! Possible applications: the two-candidate cells (each a possible start).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit};

/// The longest chain searched.
const MAX_LEN: usize = 8;

/// Pushes every valid XY-chain (one per start cell and digit, with all its removals);
/// returns p, the number of two-candidate cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue = st.bivalue_cells();
    for start in bivalue {
        for x in st.candidates(start).iter() {
            // If start is not x it is the other digit, which the next cell then is not.
            let other = (st.candidates(start) - DigitSet::single(x))
                .first()
                .expect("two candidates");
            let mut hit = CellSet::EMPTY;
            let mut path = vec![start];
            extend(st, bivalue, x, other, &mut path, &mut hit);
            hit -= CellSet::single(start);
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

/// From the last cell of `path`, whose forced value is `value`, walks on to cells that lose
/// `value` and so hold their other digit; where that digit is `x`, the cells seeing both ends
/// lose `x`.
fn extend(
    st: &Candidates,
    bivalue: CellSet,
    x: Digit,
    value: Digit,
    path: &mut Vec<Cell>,
    hit: &mut CellSet,
) {
    if path.len() >= MAX_LEN {
        return;
    }
    let last = *path.last().expect("non-empty");
    for next in bivalue & CellSet::peers(last) {
        if path.contains(&next) || !st.candidates(next).contains(value) {
            continue;
        }
        let forced = (st.candidates(next) - DigitSet::single(value))
            .first()
            .expect("two candidates");
        path.push(next);
        if forced == x && path.len() >= 3 {
            let ends = CellSet::peers(path[0]) & CellSet::peers(next);
            *hit |= st.cells_with(x) & ends;
        }
        extend(st, bivalue, x, forced, path, hit);
        path.pop();
    }
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
