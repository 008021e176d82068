//! X-wing (tier 2), swordfish (tier 3) and jellyfish (tier 4): for one digit, n base rows
//! whose places for it all lie in the same n columns; each of those columns then gets the
//! digit in a base row, so the columns' other cells lose it. The same with rows and columns
//! swapped.
//!
//! Possible applications: for each digit, C(r, n) + C(c, n), where r counts the rows holding
//! the digit's places in 2 to n cells (exactly 2 for the X-wing) and c the columns likewise.
//! A valid application is such a set of n lines whose places cover exactly n cross lines,
//! with at least one place to remove in those cross lines.

use super::{choose, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Digit;

/// Pushes every valid fish of size `n` (2-4); returns p.
pub fn search(st: &Candidates, n: u32, out: &mut Vec<Application>) -> u64 {
    let strategy = match n {
        2 => Strategy::XWing,
        3 => Strategy::Swordfish,
        4 => Strategy::Jellyfish,
        _ => panic!("fish have 2 to 4 lines"),
    };
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        if places.is_empty() {
            continue;
        }
        for by_rows in [true, false] {
            // For each base line, the cross-line indexes of its places.
            let mut lines: Vec<(u8, u16)> = Vec::with_capacity(9);
            for i in 0..9u8 {
                let base = if by_rows { i as usize } else { 9 + i as usize };
                let m = cross_mask(places & CellSet::house_at(base), by_rows);
                let k = m.count_ones();
                if k >= 2 && k <= n {
                    lines.push((i, m));
                }
            }
            p += choose(lines.len() as u32, n);
            if lines.len() < n as usize {
                continue;
            }
            let mut f = Fish {
                n,
                strategy,
                d,
                by_rows,
                places,
                lines: &lines,
                out,
            };
            f.extend(0, 0, 0, 0);
        }
    }
    p
}

/// The column (or, for `by_rows == false`, row) indexes of the cells of `s`, as 9 bits.
#[inline]
fn cross_mask(s: CellSet, by_rows: bool) -> u16 {
    let mut m = 0u16;
    for c in s {
        m |= 1 << if by_rows { c.col() } else { c.row() };
    }
    m
}

/// The recursive enumeration of one digit's base-line sets.
struct Fish<'a> {
    n: u32,
    strategy: Strategy,
    d: Digit,
    by_rows: bool,
    places: CellSet,
    lines: &'a [(u8, u16)],
    out: &'a mut Vec<Application>,
}

impl Fish<'_> {
    fn extend(&mut self, from: usize, count: u32, base: u16, cover: u16) {
        if count == self.n {
            if cover.count_ones() != self.n {
                return;
            }
            let house_offset = if self.by_rows { 0 } else { 9 };
            let cross_offset = if self.by_rows { 9 } else { 0 };
            let mut base_cells = CellSet::EMPTY;
            let mut cover_cells = CellSet::EMPTY;
            for i in 0..9 {
                if base >> i & 1 != 0 {
                    base_cells |= CellSet::house_at(house_offset + i);
                }
                if cover >> i & 1 != 0 {
                    cover_cells |= CellSet::house_at(cross_offset + i);
                }
            }
            let hit = self.places & (cover_cells - base_cells);
            if !hit.is_empty() {
                self.out.push(Application {
                    strategy: self.strategy,
                    cells: self.places & base_cells,
                    digits: DigitSet::single(self.d),
                    house: None,
                    depth: 0,
                    effect: Effect::remove_digit(self.d, hit),
                });
            }
            return;
        }
        let need = (self.n - count) as usize;
        for i in from..self.lines.len() {
            if self.lines.len() - i < need {
                break;
            }
            let (line, m) = self.lines[i];
            let u = cover | m;
            if u.count_ones() > self.n {
                continue;
            }
            self.extend(i + 1, count + 1, base | 1 << line, u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Leaves digit `d` in the given rows only at the given columns.
    fn confine(st: &mut crate::candidates::Candidates, d: u8, rows: &[u8], cols: &[u8]) {
        for &r in rows {
            let cells: Vec<_> = (1..=9)
                .filter(|c| !cols.contains(c))
                .map(|c| rc(r, c))
                .collect();
            remove(st, d, &cells);
        }
    }

    #[test]
    fn x_wing_in_rows() {
        let mut st = empty();
        confine(&mut st, 5, &[2, 7], &[3, 8]);
        let mut out = Vec::new();
        let p = search(&st, 2, &mut out);
        // Digit 5: rows 2 and 7 have it twice; columns 3 and 8 have it 9 times, the others 7.
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cells.len(), 4);
        assert_eq!(out[0].effect.size(), 2 * 7);
    }

    #[test]
    fn no_x_wing_when_columns_differ() {
        let mut st = empty();
        confine(&mut st, 5, &[2], &[3, 8]);
        confine(&mut st, 5, &[7], &[3, 9]);
        let mut out = Vec::new();
        assert_eq!(search(&st, 2, &mut out), 1);
        assert!(out.is_empty());
    }

    #[test]
    fn swordfish_in_columns_with_a_two_place_line() {
        let mut st = empty();
        // Digit 4 in columns 1, 5, 9 only in rows 2, 4, 8; column 5 only in rows 2 and 8.
        for (c, rows) in [(1u8, vec![2u8, 4, 8]), (5, vec![2, 8]), (9, vec![4, 8])] {
            let cells: Vec<_> = (1..=9)
                .filter(|r| !rows.contains(r))
                .map(|r| rc(r, c))
                .collect();
            remove(&mut st, 4, &cells);
        }
        let mut out = Vec::new();
        let p = search(&st, 3, &mut out);
        // Columns eligible (2-3 places): 1, 5, 9 -> C(3,3) = 1; rows: none (8 or 9 places).
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        // Rows 2, 4, 8 lose 4 outside columns 1, 5, 9: 6 cells each.
        assert_eq!(out[0].effect.size(), 18);
        // The X-wing search sees columns 5 and 9 (two places each) but they differ.
        out.clear();
        assert_eq!(search(&st, 2, &mut out), 1);
        assert!(out.is_empty());
    }

    #[test]
    fn jellyfish() {
        let mut st = empty();
        confine(&mut st, 9, &[1, 3, 5, 7], &[2, 4, 6, 8]);
        let mut out = Vec::new();
        let p = search(&st, 4, &mut out);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].effect.size(), 4 * 5);
    }
}
