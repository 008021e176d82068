//! Turbot fish (no hsolve tier; for the rating beyond the paper), in HoDoKu's sense: for one
//! digit, a chain of a strong link, a weak link and a strong link, `a = b - c = e` (a and b
//! the only two places of the digit in a house, b and c seeing each other, c and e the only
//! two places in a house; four different cells). If a does not hold the digit, b does, so c
//! does not, so e does: one of a and e holds it, and every cell seeing both loses it.
//!
//! Skyscrapers (two row links, or two column links, joined in a cross line) and two-string
//! kites (a row string and a column string joined in a box) are such chains too, and so are
//! the X-wing's; they keep their own names, so a turbot fish is every other one: a strong link
//! in a box, or two parallel links joined through a box.
//!
//! Possible applications: per digit, the chains `a = b - c = e` of two strong links that are
//! neither a skyscraper, a two-string kite nor an X-wing (each pair of strong links once per
//! weak link joining them).

use super::links::{seen_by, sees, Graph, Link};
use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit};

/// Whether the chain through `x - y` of the strong links `l1` (an end `x`) and `l2` (an end
/// `y`) is one that another technique names: a skyscraper, a two-string kite, or half of an
/// X-wing.
pub(crate) fn named_elsewhere(l1: Link, l2: Link, x: Cell, y: Cell) -> bool {
    // Two row links joined in a column, or two column links joined in a row: a skyscraper,
    // or an X-wing when the other ends are aligned too.
    if (l1.in_row() && l2.in_row() && x.col() == y.col())
        || (l1.in_col() && l2.in_col() && x.row() == y.row())
    {
        return true;
    }
    // A row string and a column string (each across two boxes) joined in a box: a kite.
    let string_row = |l: Link| l.in_row() && l.a.box_index() != l.b.box_index();
    let string_col = |l: Link| l.in_col() && l.a.box_index() != l.b.box_index();
    ((string_row(l1) && string_col(l2)) || (string_col(l1) && string_row(l2)))
        && x.box_index() == y.box_index()
}

/// Calls `f(x, ea, y, ey)` for every turbot fish of the strong links `l1` and `l2`: the
/// chain `ea = x - y = ey`, with four different cells, that is named nowhere else.
fn for_each_chain(l1: Link, l2: Link, mut f: impl FnMut(Cell, Cell, Cell, Cell)) {
    if l1.cells().intersects(l2.cells()) {
        return;
    }
    for x in [l1.a, l1.b] {
        let (_, ea) = l1.from(x);
        for y in [l2.a, l2.b] {
            let (_, ey) = l2.from(y);
            if sees(x, y) && !named_elsewhere(l1, l2, x, y) {
                f(x, ea, y, ey);
            }
        }
    }
}

/// Pushes every valid turbot fish (one application per chain, with all its removals); returns
/// p, the number of chains.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let g = Graph::new(st, d);
        let links = g.links();
        for (i, &l1) in links.iter().enumerate() {
            for &l2 in &links[i + 1..] {
                for_each_chain(l1, l2, |_, ea, _, ey| {
                    p += 1;
                    let hit =
                        g.places & seen_by(CellSet::single(ea)) & seen_by(CellSet::single(ey));
                    if !hit.is_empty() {
                        out.push(Application::of_digit(
                            Strategy::TurbotFish,
                            d,
                            l1.cells() | l2.cells(),
                            Effect::remove_digit(d, hit),
                        ));
                    }
                });
            }
        }
    }
    p
}

/// The chain of a turbot fish application, recomputed: `[a, b, c, e]` for `a = b - c = e`,
/// the first whose ends are both seen by every cell it removes the digit from (`gone`).
pub(crate) fn pattern(st: &Candidates, a: &Application, gone: CellSet) -> Option<[Cell; 4]> {
    let d = a.digits.first()?;
    let g = Graph::new(st, d);
    let links = g.links();
    let mut found = None;
    for (i, &l1) in links.iter().enumerate() {
        for &l2 in &links[i + 1..] {
            if l1.cells() | l2.cells() != a.cells {
                continue;
            }
            for_each_chain(l1, l2, |x, ea, y, ey| {
                let both = seen_by(CellSet::single(ea)) & seen_by(CellSet::single(ey));
                if found.is_none() && gone.is_subset(both) {
                    found = Some([ea, x, y, ey]);
                }
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Column 6 holds 8 only in r2c6 and r7c6, box 9 only in r7c9 and r9c8; r7c6 and r7c9
    /// share row 7 (with a third 8 in r7c2). So r2c6 or r9c8 is 8, and r2c8 sees both. The
    /// other places keep every other house from being a strong link.
    const BOX_AND_COLUMN: &str = "r2c6 r7c6 r7c9 r9c8 r2c8 r7c2 r2c2 r5c8 r4c2";

    #[test]
    fn finds_a_turbot_fish_with_a_box_link() {
        let st = only(8, BOX_AND_COLUMN);
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 8), set("r2c8"));
        assert_eq!(out[0].cells, set("r2c6 r7c6 r7c9 r9c8"));
        assert_eq!(
            pattern(&st, &out[0], set("r2c8")),
            Some([rc(2, 6), rc(7, 6), rc(7, 9), rc(9, 8)])
        );
    }

    #[test]
    fn nothing_without_the_box_link_nor_for_a_skyscraper() {
        // A third 8 in box 9.
        let (p, out) = run(search, &only(8, &format!("{BOX_AND_COLUMN} r8c7")));
        assert_eq!((p, out.len()), (0, 0));
        // Columns 6 and 9 joined in row 5 make a skyscraper, not a turbot fish.
        let (p, out) = run(search, &only(1, "r1c6 r5c6 r3c9 r5c9 r1c7 r1c8 r3c4 r3c5"));
        assert_eq!((p, out.len()), (0, 0));
    }

    #[test]
    fn two_rows_joined_through_a_box() {
        // Rows 1 and 2 hold 4 only in (c1, c7) and (c2, c8); r1c1 and r2c2 share box 1. So
        // r1c7 or r2c8 is 4, and box 3 loses it elsewhere: in r3c7 and r3c9.
        let st = only(4, "r1c1 r1c7 r2c2 r2c8 r3c7 r3c9 r3c5");
        let (_, out) = run(search, &st);
        let rows = on_cells(&out, "r1c1 r1c7 r2c2 r2c8");
        assert_eq!(rows.len(), 1, "{out:?}");
        assert_eq!(removed(rows[0], 4), set("r3c7 r3c9"));
    }
}
