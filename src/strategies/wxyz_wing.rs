//! WXYZ-wing (no hsolve tier; for the rating beyond the paper): four cells, a pivot seeing the
//! three others (the wings), holding four digits between them. A digit is *restricted* when
//! the pattern's cells holding it all see each other, so that at most one of them holds it.
//! When every digit but one, z, is restricted, the three restricted digits fill at most three
//! of the four cells, so one of the cells holding z holds it: every cell seeing all of those
//! loses z. Patterns in which three of the cells hold only three digits are left out: those
//! three cells already make the removals (an XY-wing, an XYZ-wing, or a naked subset).
//!
//! Possible applications: the sets of four cells, one of which sees the three others, each
//! with two to four candidates, holding four digits between them.

use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit};

/// One WXYZ-wing: its cells, the unrestricted digit and the removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wing {
    /// The pivot, which sees the three wings.
    pub pivot: Cell,
    /// The wings.
    pub wings: [Cell; 3],
    /// The four digits.
    pub digits: DigitSet,
    /// The unrestricted digit z.
    pub z: Digit,
    /// The cells that lose z.
    pub targets: CellSet,
}

impl Wing {
    /// The pattern's four cells.
    pub fn cells(&self) -> CellSet {
        self.wings
            .iter()
            .fold(CellSet::single(self.pivot), |s, &w| s | CellSet::single(w))
    }

    /// The application: the four cells and digits, found at the pivot.
    pub fn application(&self) -> Application {
        Application::new(
            Strategy::WxyzWing,
            self.cells(),
            self.digits,
            self.pivot.index(),
            Effect::remove_digit(self.z, self.targets),
        )
    }
}

/// Pushes every valid WXYZ-wing; returns p (see the module docs).
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    scan(st, |w| out.push(w.application()))
}

/// The WXYZ-wing behind an application of [`search`] on `st`, for its words.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<Wing> {
    find_again(a, |f| scan(st, |w| f(w, w.application())))
}

/// True when the cells of `s` all see each other.
fn all_see(s: CellSet) -> bool {
    s.iter()
        .all(|c| (s - CellSet::single(c)).is_subset(CellSet::peers(c)))
}

/// Calls `f` with every WXYZ-wing; returns p.
///
/// Each set of four cells is taken once, from its first cell (in cell order) that sees the
/// three others.
fn scan(st: &Candidates, mut f: impl FnMut(&Wing)) -> u64 {
    let small: CellSet = st
        .empty()
        .iter()
        .filter(|&c| (2..=4).contains(&st.candidates(c).len()))
        .collect();
    let mut p = 0;
    for pivot in small {
        let pd = st.candidates(pivot);
        let mut wings = [pivot; 20];
        let mut n = 0;
        for w in small & CellSet::peers(pivot) {
            if (pd | st.candidates(w)).len() <= 4 {
                wings[n] = w;
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let ws = [wings[i], wings[j], wings[k]];
                    let cand = |c: Cell| st.candidates(c);
                    let digits = pd | cand(ws[0]) | cand(ws[1]) | cand(ws[2]);
                    if digits.len() != 4 {
                        continue;
                    }
                    let cells = ws
                        .iter()
                        .fold(CellSet::single(pivot), |s, &w| s | CellSet::single(w));
                    // Counted from the first cell that sees the others.
                    let earlier_pivot = ws.iter().any(|&w| {
                        w < pivot && (cells - CellSet::single(w)).is_subset(CellSet::peers(w))
                    });
                    if earlier_pivot {
                        continue;
                    }
                    p += 1;
                    // Three cells with three digits already make the removals.
                    let all = [pivot, ws[0], ws[1], ws[2]];
                    let three_hold_three = (0..4).any(|skip| {
                        let held = (0..4)
                            .filter(|&m| m != skip)
                            .fold(DigitSet::EMPTY, |u, m| u | cand(all[m]));
                        held.len() == 3
                    });
                    if three_hold_three {
                        continue;
                    }
                    let mut unrestricted = digits
                        .iter()
                        .filter(|&d| !all_see(cells & st.cells_with(d)));
                    let (Some(z), None) = (unrestricted.next(), unrestricted.next()) else {
                        continue;
                    };
                    let holders = cells & st.cells_with(z);
                    let targets = st.cells_with(z) & (holders.common_peers() - cells);
                    if !targets.is_empty() {
                        f(&Wing {
                            pivot,
                            wings: ws,
                            digits,
                            z,
                            targets,
                        });
                    }
                }
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_wxyz_wing() {
        // Pivot r1c1 (1234); wings r1c2 (14), r2c3 (24) in box 1, r1c7 (34) in row 1. Only 4
        // is unrestricted (r2c3 and r1c7 do not see each other); r1c3 sees all its cells.
        let st = board("r1c1=1234 r1c2=14 r2c3=24 r1c7=34");
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].effect,
            Effect::remove_digit(dg(4), CellSet::single(rc(1, 3)))
        );
        assert_eq!(
            out[0].cells,
            set("r1c1 r1c2 r2c3 r1c7")
        );
    }

    #[test]
    fn no_wing_with_two_unrestricted_digits_nor_around_an_xyz_wing() {
        for spec in [
            // r1c7 holds 2 too: 2 and 4 are both unrestricted.
            "r1c1=1234 r1c2=14 r2c3=24 r1c7=234",
            // r1c1 (124), r1c2 (14) and r2c3 (24) are an XYZ-wing on 4 by themselves.
            "r1c1=124 r1c2=14 r2c3=24 r1c7=34",
        ] {
            let (p, out) = run(search, &board(spec));
            assert_eq!((p, out.len()), (1, 0), "{spec}");
        }
    }

    /// SudokuWiki's WXYZ-wing (the general definition: four cells, four digits, one
    /// unrestricted digit; sudokuwiki.org/WXYZ_Wing). The positions and eliminations are those
    /// of the SudokuWiki-based tests of joeseibel/sudoku-solver (WXYZWingKtTest, tests 6 and
    /// 4): 3 leaves r2c7, r2c8 and r2c9; 6 leaves r6c5, 5 leaves r6c6, r7c5 and r9c5.
    #[test]
    fn published_examples() {
        let cases: [(&str, &[(u8, &str)]); 2] = [
            (
                "2457 135 1257 3467 2367 247 8 3456 9
                 2479 39 8 34679 23679 5 13 346 136
                 459 6 59 1 389 489 7 345 2
                 589 589 2569 679 15679 3 1259 279 4
                 259 7 23569 69 4 19 12359 8 135
                 1 4 359 2 5789 789 6 379 357
                 3 589 4 789 279 6 259 1 578
                 789 2 179 5 1379 179 4 3679 3678
                 6 1589 1579 34789 12379 12479 2359 2379 3578",
                &[(3, "r2c7 r2c8 r2c9")],
            ),
            (
                "8 4 2 56 56 3 7 1 9
                 67 679 3 1 789 4 568 258 26
                 5 679 1 27 2789 289 68 3 4
                 69 3 8 26 1 269 4 7 5
                 49 2 45 3 59 7 1 6 8
                 1 56 7 456 4568 568 2 9 3
                 3 58 6 2457 2457 25 9 458 1
                 47 578 45 9 3 1 568 258 26
                 2 1 9 8 456 56 3 45 7",
                &[(6, "r6c5"), (5, "r6c6 r7c5 r9c5")],
            ),
        ];
        for (position, removals) in cases {
            let (_, out) = run(search, &grid(position));
            for &(d, cells) in removals {
                assert_eq!(removed_all(&out, d), set(cells), "{d}");
            }
        }
    }
}
