//! X-wing (tier 2), swordfish (tier 3) and jellyfish (tier 4): for one digit, n base rows
//! whose places for it all lie in the same n columns; each of those columns then gets the
//! digit in a base row, so the columns' other cells lose it. The same with rows and columns
//! swapped.
//!
//! Possible applications: for each digit, C(r, n) + C(c, n), where r counts the rows holding
//! the digit's places in 2 to n cells (exactly 2 for the X-wing) and c the columns likewise.
//! A valid application is such a set of n lines whose places cover exactly n cross lines,
//! with at least one place to remove in those cross lines.

use super::{choose, for_each_subset, sized, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::Digit;

/// Pushes every valid fish of size `n` (2-4); returns p.
pub fn search(st: &Candidates, n: u32, out: &mut Vec<Application>) -> u64 {
    search_in(st, n, 0x1FF, out)
}

/// Pushes the valid fish of size `n` for the digits of the mask `digits` (bit i = digit
/// i + 1); returns p over all digits.
pub(crate) fn search_in(st: &Candidates, n: u32, digits: u16, out: &mut Vec<Application>) -> u64 {
    scan(st, n, digits, true, out)
}

/// Pushes the valid fish of size `n` for the digits of the mask `digits`, without counting p
/// (which needs every digit's lines).
pub(crate) fn apps_in(st: &Candidates, n: u32, digits: u16, out: &mut Vec<Application>) {
    scan(st, n, digits, false, out);
}

/// The search of [`search_in`]; with `count` false, the digits outside `digits` are skipped
/// and the p returned is not meaningful.
#[inline]
fn scan(st: &Candidates, n: u32, digits: u16, count: bool, out: &mut Vec<Application>) -> u64 {
    let strategy = sized(Strategy::FISH, n);
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        if places.is_empty() || (!count && digits >> d.index() & 1 == 0) {
            continue;
        }
        // Row r's places as columns; column c's places as rows (rows of the transpose).
        let (bits, tbits) = (places.bits(), places.transpose().bits());
        let rows: [u16; 9] = std::array::from_fn(|r| (bits >> (9 * r)) as u16 & 0x1FF);
        let cols: [u16; 9] = std::array::from_fn(|c| (tbits >> (9 * c)) as u16 & 0x1FF);
        let (mut rows, mut cols) = (rows, cols);
        for (by_rows, lines) in [(true, &mut rows), (false, &mut cols)] {
            // Lines with 2..=n places take part (exactly 2 for the X-wing); the others get an
            // impossible mask.
            let mut eligible = 0;
            for m in lines.iter_mut() {
                let k = m.count_ones();
                if (2..=n).contains(&k) {
                    eligible += 1;
                } else {
                    *m = 0x1FF;
                }
            }
            p += choose(eligible, n);
            if eligible < n || digits >> d.index() & 1 == 0 {
                continue;
            }
            let (base_off, cover_off) = if by_rows { (0, 9) } else { (9, 0) };
            for_each_subset(&lines[..], n, |base, cover| {
                if cover.count_ones() != n {
                    return;
                }
                let mut base_cells = CellSet::EMPTY;
                let mut cover_cells = CellSet::EMPTY;
                for i in 0..9 {
                    if base >> i & 1 != 0 {
                        base_cells |= CellSet::house_at(base_off + i);
                    }
                    if cover >> i & 1 != 0 {
                        cover_cells |= CellSet::house_at(cover_off + i);
                    }
                }
                let hit = places & (cover_cells - base_cells);
                if !hit.is_empty() {
                    let effect = Effect::remove_digit(d, hit);
                    let cells = places & base_cells;
                    out.push(Application::of_digit(strategy, d, cells, effect));
                }
            });
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

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
