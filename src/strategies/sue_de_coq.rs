//! Sue de Coq (no hsolve tier; for the rating beyond the paper): where a row or column crosses a
//! box, two or three empty cells C of the crossing holding V between them, at least two digits
//! more than they have cells. Add cells L from the rest of the line and cells B from the rest
//! of the box, so that L and B share no digit, and the N cells of C, L and B hold exactly N
//! digits between them. Then each of those digits is placed exactly once in the N cells: a
//! digit of L can go once in C and L (one line), a digit of B once in C and B (one box), and
//! a digit of V in neither once in C; counted together, that is N placements at most for N
//! cells, so each happens. Hence L's digits leave the rest of the line, B's digits leave the
//! rest of the box, and the digits of V in neither L nor B leave both (HoDoKu's Sue de Coq,
//! with its extended variant: L and B may have several cells, and digits outside V).
//!
//! Possible applications: the sets of two or three empty cells of a line-box crossing holding
//! at least two digits more than they have cells.

use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};

/// One Sue de Coq: the crossing cells, the cells added from the line and from the box, and
/// the houses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The line (0-17: rows, then columns).
    pub line: usize,
    /// The box (18-26).
    pub bx: usize,
    /// The cells of the crossing.
    pub cross: CellSet,
    /// Their digits.
    pub v: DigitSet,
    /// The cells added from the rest of the line.
    pub line_cells: CellSet,
    /// Their digits.
    pub line_digits: DigitSet,
    /// The cells added from the rest of the box.
    pub box_cells: CellSet,
    /// Their digits.
    pub box_digits: DigitSet,
}

/// Pushes every valid Sue de Coq (one per crossing cells and added cells, choices with the
/// same removals for the same crossing cells counted once); returns p, the number of possible
/// crossing cells.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    visit(st, |_, a| out.push(a))
}

/// The pattern of `app`, a Sue de Coq found on `st`.
pub(crate) fn pattern(st: &Candidates, app: &Application) -> Option<Pattern> {
    find_again(app, |f| visit(st, f))
}

/// The subsets of `cells` (at most nine) whose digits meet `v`, with no fewer digits than
/// cells and at most `slack` more: (cells, digits).
fn groups(st: &Candidates, cells: CellSet, v: DigitSet, slack: u32) -> Vec<(CellSet, DigitSet)> {
    let list: Vec<_> = cells.iter().collect();
    let mut out = Vec::new();
    let mut unions = [0u16; 512];
    for mask in 1usize..1 << list.len() {
        let low = mask.trailing_zeros() as usize;
        let u = unions[mask & (mask - 1)] | st.candidates(list[low]).bits();
        unions[mask] = u;
        let (k, n) = (mask.count_ones(), u.count_ones());
        if n < k || n > k + slack || u & v.bits() == 0 {
            continue;
        }
        let set = (0..list.len())
            .filter(|&i| mask >> i & 1 != 0)
            .map(|i| list[i])
            .collect();
        out.push((set, DigitSet::from_bits(u)));
    }
    out
}

/// The house number (18-26) of the `k`-th box (0-2) that line `line` (0-17: rows, then
/// columns) crosses.
fn crossed_box(line: usize, k: usize) -> usize {
    let i = line % 9;
    if line < 9 {
        18 + 3 * (i / 3) + k
    } else {
        18 + 3 * k + i / 3
    }
}

/// Calls `f` with every valid Sue de Coq and its application; returns p.
fn visit(st: &Candidates, mut f: impl FnMut(&Pattern, Application)) -> u64 {
    let empty = st.empty();
    let mut p = 0;
    let mut reported: Vec<[CellSet; 9]> = Vec::new();
    for line in 0..18 {
        for k in 0..3 {
            let bx = crossed_box(line, k);
            let (line_set, box_set) = (CellSet::house_at(line), CellSet::house_at(bx));
            let shared = line_set & box_set & empty;
            if shared.len() < 2 {
                continue;
            }
            let line_rest = (line_set - box_set) & empty;
            let box_rest = (box_set - line_set) & empty;
            let list: Vec<_> = shared.iter().collect();
            for mask in 1usize..1 << list.len() {
                if mask.count_ones() < 2 {
                    continue;
                }
                let cross: CellSet = (0..list.len())
                    .filter(|&j| mask >> j & 1 != 0)
                    .map(|j| list[j])
                    .collect();
                let v = cross
                    .iter()
                    .fold(DigitSet::EMPTY, |u, c| u | st.candidates(c));
                let n = cross.len();
                if v.len() < n + 2 {
                    continue;
                }
                p += 1;
                reported.clear();
                let from_line = groups(st, line_rest, v, v.len() - n);
                let from_box = groups(st, box_rest, v, v.len() - n);
                for &(lc, ld) in &from_line {
                    for &(bc, bd) in &from_box {
                        if !(ld & bd).is_empty() {
                            continue;
                        }
                        let digits = v | ld | bd;
                        if digits.len() != n + lc.len() + bc.len() {
                            continue;
                        }
                        let line_targets = (line_set & empty) - cross - lc;
                        let box_targets = (box_set & empty) - cross - bc;
                        let mut r = [CellSet::EMPTY; 9];
                        for d in (ld | (v - bd)).iter() {
                            r[d.index()] |= st.cells_with(d) & line_targets;
                        }
                        for d in (bd | (v - ld)).iter() {
                            r[d.index()] |= st.cells_with(d) & box_targets;
                        }
                        if r.iter().all(|s| s.is_empty()) || reported.contains(&r) {
                            continue;
                        }
                        reported.push(r);
                        let app = Application::new(
                            Strategy::SueDeCoq,
                            cross | lc | bc,
                            digits,
                            3 * line + k,
                            Effect::Remove(r),
                        );
                        f(
                            &Pattern {
                                line,
                                bx,
                                cross,
                                v,
                                line_cells: lc,
                                line_digits: ld,
                                box_cells: bc,
                                box_digits: bd,
                            },
                            app,
                        );
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

    /// The basic pattern: r1c7, r1c8, r1c9 (row 1, box 3) hold 1 to 5; r1c2 (row 1) holds 1
    /// and 2, r3c9 (box 3) holds 3 and 4. The crossing holds one of 1 and 2, one of 3 and 4,
    /// and 5.
    const BASIC: &str = "r1c7=12345 r1c8=12345 r1c9=12345 r1c2=12 r3c9=34";

    #[test]
    fn finds_the_basic_pattern() {
        let st = board(BASIC);
        let (_, out) = run(search, &st);
        let mine = on_cells(&out, "r1c7 r1c8 r1c9 r1c2 r3c9");
        assert_eq!(mine.len(), 1);
        let a = mine[0];
        // 1 and 2 leave the rest of row 1; 3 and 4 the rest of box 3; 5 both.
        let row = set("r1c1 r1c3 r1c4 r1c5 r1c6");
        let bx = set("r2c7 r2c8 r2c9 r3c7 r3c8");
        assert_eq!(removed(a, 1), row);
        assert_eq!(removed(a, 2), row);
        assert_eq!(removed(a, 3), bx);
        assert_eq!(removed(a, 4), bx);
        assert_eq!(removed(a, 5), row | bx);
        let p = pattern(&st, a).expect("its pattern");
        assert_eq!((p.line, p.bx), (0, 20));
        assert_eq!(p.line_cells, CellSet::single(rc(1, 2)));
    }

    #[test]
    fn counts_crossings_with_enough_digits() {
        // Every crossing of the near-empty board has enough digits in each of its pairs and
        // in its triple; count them by brute force.
        let st = board(BASIC);
        let mut want = 0;
        for line in 0..18usize {
            for k in 0..3 {
                let bx = crossed_box(line, k);
                let shared: Vec<_> = (CellSet::house_at(line) & CellSet::house_at(bx))
                    .iter()
                    .collect();
                for mask in 1u32..8 {
                    let cs: Vec<_> = (0..3)
                        .filter(|j| mask >> j & 1 != 0)
                        .map(|j| shared[j])
                        .collect();
                    let v = cs
                        .iter()
                        .fold(DigitSet::EMPTY, |u, &c| u | st.candidates(c));
                    if cs.len() >= 2 && v.len() as usize >= cs.len() + 2 {
                        want += 1;
                    }
                }
            }
        }
        let (p, _) = run(search, &st);
        assert_eq!(p, want);
    }

    #[test]
    fn none_when_the_added_cells_share_a_digit() {
        // r3c9 now holds 2 and 3: 2 is in both added cells, and the crossing may hold 1, 4
        // and 5 with r1c2 = 2, r3c9 = 3.
        let st = board("r1c7=12345 r1c8=12345 r1c9=12345 r1c2=12 r3c9=23");
        let (_, out) = run(search, &st);
        assert!(on_cells(&out, "r1c7 r1c8 r1c9 r1c2 r3c9").is_empty());
    }

    /// HoDoKu's extended Sue de Coq example (hodoku.sourceforge.net, "Solving Technique
    /// Example" for Sue de Coq (extended variant), file sdc04): the crossing r4c8, r6c8
    /// (column 8, box 6) holds 3, 5, 7 and 8; r8c8 (3, 5) from the column, r4c7 and r5c9 (7,
    /// 8, 9) from the box.
    const SDC04: &str = ":1101:35789:+3+24+8+6+1+59765+7+9+4+3+82191+8+5+273+642.1+43....5.32.6...+4..+7.....+1..6.....+8..1746..7..+39..1.::378 578 757 758 849 858 869 949 957 967 969:";

    #[test]
    fn hodoku_extended_example() {
        let (st, want) = library_line(SDC04);
        let (_, out) = run(search, &st);
        let a = *on_cells(&out, "r4c8 r6c8 r8c8 r4c7 r5c9")
            .first()
            .expect("HoDoKu's pattern");
        assert_eq!(a.effect, Effect::Remove(want));
    }
}
