//! Unique rectangles (no hsolve tier; for the rating beyond the paper). **They assume the
//! puzzle has exactly one solution**, which every puzzle of a bank has. Four empty cells at the
//! corners of a rectangle spanning two rows, two columns and exactly two boxes, all holding the
//! same two digits x and y, must not end up holding only x and y: the two digits could then be
//! swapped around the rectangle, giving a second solution. A corner holding only x and y is
//! *pure*; the others hold extra digits, and one of those extras must be true.
//!
//! - Type 1 ([`search`]): three pure corners; the fourth loses x and y.
//! - Type 2: two pure corners on one side, the other two hold x, y and one same extra z: one
//!   of them is z, so cells seeing both lose z.
//! - Type 3: two pure corners on one side; the other two, sharing a house, act together as one
//!   cell holding their extras, which with other cells of that house forms a naked subset: the
//!   rest of the house loses the subset's digits.
//! - Type 4: two pure corners on one side; in a house the other two share, x can only go in
//!   them, so one of them is x and neither can be y (else x and y fill the rectangle): they
//!   lose y.
//! - Type 5: two diagonal corners or three corners hold x, y and one same extra z, the others
//!   are pure: one of them is z, so cells seeing all of them lose z.
//! - Type 6: two diagonal pure corners, and x can only go in the rectangle in both its rows
//!   (or both its columns): x in a non-pure corner would force x in the other and fill the
//!   rectangle with x and y, so the non-pure corners lose x.
//!
//! Possible applications: type 1, the two-candidate cells (each a possible corner); types 2-6,
//! the rectangles over two boxes whose corners all hold x and y and whose pure corners are
//! those the type needs: two on one side (types 2, 3 and 4), two on a diagonal or one (type 5),
//! two on a diagonal (type 6).

use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, House};

/// Pushes every valid unique rectangle of type 1; returns p, the number of two-candidate
/// cells.
///
/// Each rectangle with three pure corners is found once, from the pure corner diagonal to the
/// fourth: that corner shares its row with one pure corner and its column with the other.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let bivalue = st.bivalue_cells();
    for a in bivalue {
        let xy = st.candidates(a);
        let same = |x: &Cell| st.candidates(*x) == xy;
        let in_row = bivalue & CellSet::house_at(a.row() as usize);
        let in_col = bivalue & CellSet::house_at(9 + a.col() as usize);
        for b in in_row.iter().filter(|x| *x != a && same(x)) {
            for c in in_col.iter().filter(|x| *x != a && same(x)) {
                let d = Cell::at(c.row(), b.col()).expect("inside");
                // Two boxes: the rows share a band or the columns share a stack, not both.
                let one_band = a.row() / 3 == c.row() / 3;
                let one_stack = a.col() / 3 == b.col() / 3;
                if one_band == one_stack || !st.empty().contains(d) {
                    continue;
                }
                let target = st.candidates(d);
                if !(xy - target).is_empty() || target == xy {
                    continue; // the fourth corner must hold both digits and more
                }
                let cells = [a, b, c, d].into_iter().collect();
                let effect = Effect::remove_digits(xy, CellSet::single(d));
                out.push(Application::new(
                    Strategy::UniqueRectangle,
                    cells,
                    xy,
                    d.index(),
                    effect,
                ));
            }
        }
    }
    bivalue.len() as u64
}

/// A possible unique rectangle: four empty cells over two rows, two columns and two boxes,
/// each holding both x and y, at least one of them nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rectangle {
    /// The corners: `a`, the first pure one (in cell order); `b`, in a's row; `c`, in a's
    /// column; `d`, opposite `a`. Corner `i` shares its row with corner `i ^ 1`, its column
    /// with corner `i ^ 2`, and is opposite corner `i ^ 3`.
    pub corners: [Cell; 4],
    /// The two digits x and y.
    pub xy: DigitSet,
    /// Bit `i` is set when corner `i` holds only x and y.
    pub pure: u8,
}

impl Rectangle {
    /// The four corners.
    pub fn cells(&self) -> CellSet {
        self.corners.iter().copied().collect()
    }

    /// The corners whose bit is set in `mask`.
    pub fn corners_in(&self, mask: u8) -> CellSet {
        (0..4)
            .filter(|i| mask >> i & 1 != 0)
            .map(|i| self.corners[i])
            .collect()
    }

    /// The pure corners.
    pub fn pure_cells(&self) -> CellSet {
        self.corners_in(self.pure)
    }

    /// The corners holding extra digits.
    pub fn extra_cells(&self) -> CellSet {
        self.corners_in(!self.pure & 0xF)
    }

    /// True when the pure corners are exactly two, on one side (a row or a column).
    pub fn pure_side(&self) -> bool {
        matches!(self.pure, 0b0011 | 0b1100 | 0b0101 | 0b1010)
    }

    /// True when the pure corners are exactly two, on a diagonal.
    pub fn pure_diagonal(&self) -> bool {
        matches!(self.pure, 0b1001 | 0b0110)
    }
}

/// Calls `f` with every possible unique rectangle of `st`, each once (from its first pure
/// corner).
pub(crate) fn rectangles(st: &Candidates, mut f: impl FnMut(&Rectangle)) {
    let bivalue = st.bivalue_cells();
    for x in 0..8 {
        let with_x = st.cells_with(Digit::from_index(x));
        for y in x + 1..9 {
            let both = with_x & st.cells_with(Digit::from_index(y));
            // A two-candidate cell holding x and y holds nothing else.
            let pure_cells = both & bivalue;
            if pure_cells.is_empty() {
                continue;
            }
            let xy = DigitSet::from_bits(1 << x | 1 << y);
            for a in pure_cells {
                let in_row = both & CellSet::house_at(a.row() as usize);
                let in_col = both & CellSet::house_at(9 + a.col() as usize);
                for b in in_row.iter().filter(|&b| b != a) {
                    for c in in_col.iter().filter(|&c| c != a) {
                        let d = Cell::at(c.row(), b.col()).expect("inside");
                        // Two boxes: the rows share a band or the columns a stack, not both.
                        let one_band = a.row() / 3 == c.row() / 3;
                        let one_stack = a.col() / 3 == b.col() / 3;
                        if !both.contains(d) || one_band == one_stack {
                            continue;
                        }
                        let corners = [a, b, c, d];
                        if corners.iter().any(|&k| k < a && pure_cells.contains(k)) {
                            continue;
                        }
                        let pure = (0..4)
                            .filter(|&i| pure_cells.contains(corners[i]))
                            .fold(0u8, |m, i| m | 1 << i);
                        f(&Rectangle { corners, xy, pure });
                    }
                }
            }
        }
    }
}

/// Unique rectangle types 2 to 6, by type.
const TYPES: [Strategy; 5] = [
    Strategy::UniqueRectangle2,
    Strategy::UniqueRectangle3,
    Strategy::UniqueRectangle4,
    Strategy::UniqueRectangle5,
    Strategy::UniqueRectangle6,
];

/// One unique rectangle of type 2 to 6: the rectangle, what the type adds to it, and the
/// removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ur {
    /// The type, 2 to 6.
    pub kind: u32,
    /// The rectangle.
    pub rect: Rectangle,
    /// Types 2 and 5: the extra digit z; types 4 and 6: the digit whose places are linked.
    pub digit: Option<Digit>,
    /// Type 3: the house of the naked subset; type 4: the house of the strong link.
    pub house: Option<House>,
    /// Type 3: the subset's cells besides the two corners.
    pub subset: CellSet,
    /// Type 3: the subset's digits.
    pub subset_digits: DigitSet,
    /// The removals.
    pub effect: Effect,
}

impl Ur {
    /// The application of the rectangle: its corners (and a type 3's subset cells), x and y,
    /// found at its first pure corner.
    pub fn application(&self) -> Application {
        Application::new(
            TYPES[self.kind as usize - 2],
            self.rect.cells() | self.subset,
            self.rect.xy,
            self.rect.corners[0].index(),
            self.effect,
        )
        .in_house(self.house)
    }
}

/// Pushes every valid unique rectangle of type `k` (2-6); returns p, the number of rectangles
/// with the pure corners the type needs (see the module docs).
pub fn search_type(st: &Candidates, k: u32, out: &mut Vec<Application>) -> u64 {
    scan(st, k, |u| out.push(u.application()))
}

/// The unique rectangle behind an application of [`search_type`] on `st`, for its words.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<Ur> {
    let k = TYPES.iter().position(|&s| s == a.strategy)? as u32 + 2;
    find_again(a, |f| scan(st, k, |u| f(u, u.application())))
}

/// Calls `f` with every unique rectangle of type `kind`; returns p.
fn scan(st: &Candidates, kind: u32, mut f: impl FnMut(&Ur)) -> u64 {
    assert!((2..=6).contains(&kind), "unique rectangle types are 2 to 6");
    let mut p = 0;
    rectangles(st, |r| {
        let counted = match kind {
            2..=4 => r.pure_side(),
            5 => r.pure_diagonal() || r.pure.count_ones() == 1,
            _ => r.pure_diagonal(),
        };
        if !counted {
            return;
        }
        p += 1;
        let ur = Ur {
            kind,
            rect: *r,
            digit: None,
            house: None,
            subset: CellSet::EMPTY,
            subset_digits: DigitSet::EMPTY,
            effect: Effect::Remove([CellSet::EMPTY; 9]),
        };
        match kind {
            2 | 5 => extra_digit(st, ur, &mut f),
            3 => subsets(st, ur, &mut f),
            4 => strong_link(st, ur, &mut f),
            _ => x_wing(st, ur, &mut f),
        }
    });
    p
}

/// The houses (0-26) two cells share.
fn shared_houses(p: Cell, q: Cell) -> impl Iterator<Item = usize> {
    [
        (p.row() == q.row()).then_some(p.row() as usize),
        (p.col() == q.col()).then_some(9 + p.col() as usize),
        (p.box_index() == q.box_index()).then_some(18 + p.box_index() as usize),
    ]
    .into_iter()
    .flatten()
}

/// The two non-pure corners of a rectangle with two pure ones.
fn extra_pair(r: &Rectangle) -> (Cell, Cell) {
    let mut it = r.extra_cells().iter();
    (
        it.next().expect("two corners"),
        it.next().expect("two corners"),
    )
}

/// Types 2 and 5: every non-pure corner holds x, y and the same one extra z; cells seeing
/// all of them lose z.
fn extra_digit(st: &Candidates, ur: Ur, f: &mut impl FnMut(&Ur)) {
    let extra = ur.rect.extra_cells();
    let first = st.candidates(extra.first().expect("a non-pure corner"));
    if first.len() != 3 || extra.iter().any(|c| st.candidates(c) != first) {
        return;
    }
    let z = (first - ur.rect.xy).first().expect("one extra digit");
    let hit = st.cells_with(z) & extra.common_peers();
    if !hit.is_empty() {
        f(&Ur {
            digit: Some(z),
            effect: Effect::remove_digit(z, hit),
            ..ur
        });
    }
}

/// Type 3: in a house the two non-pure corners share, their extras together with other cells
/// form a naked subset (one more digit than those cells); the rest of the house loses its
/// digits. A subset inside both houses the corners share (their line and their box) acts in
/// both, and is reported once with the removals of both.
fn subsets(st: &Candidates, ur: Ur, f: &mut impl FnMut(&Ur)) {
    let (p, q) = extra_pair(&ur.rect);
    let extras = (st.candidates(p) | st.candidates(q)) - ur.rect.xy;
    if extras.len() > 4 {
        return;
    }
    let corners = CellSet::single(p) | CellSet::single(q);
    let mut houses = [0usize; 3];
    let mut n_houses = 0;
    for h in shared_houses(p, q) {
        houses[n_houses] = h;
        n_houses += 1;
    }
    for (k, &h) in houses[..n_houses].iter().enumerate() {
        let rest = st.empty() & (CellSet::house_at(h) - corners);
        let mut others = [(p, DigitSet::EMPTY); 7];
        let mut n = 0;
        for c in rest {
            let ds = st.candidates(c);
            if (2..=4).contains(&ds.len()) {
                others[n] = (c, ds);
                n += 1;
            }
        }
        for mask in 1u32..1 << n {
            let m = mask.count_ones();
            if m > 3 {
                continue;
            }
            let mut subset = CellSet::EMPTY;
            let mut digits = extras;
            for (i, &(c, ds)) in others[..n].iter().enumerate() {
                if mask >> i & 1 != 0 {
                    subset.insert(c);
                    digits |= ds;
                }
            }
            let within = |g: &usize| subset.is_subset(CellSet::house_at(*g));
            if digits.len() != m + 1 || houses[..k].iter().any(within) {
                continue;
            }
            let mut r = [CellSet::EMPTY; 9];
            let mut any = false;
            for &g in houses[k..n_houses].iter().filter(|g| within(g)) {
                let outside = st.empty() & (CellSet::house_at(g) - corners - subset);
                for d in digits.iter() {
                    r[d.index()] |= st.cells_with(d) & outside;
                    any |= st.cells_with(d).intersects(outside);
                }
            }
            if any {
                f(&Ur {
                    house: House::from_index(h),
                    subset,
                    subset_digits: digits,
                    effect: Effect::Remove(r),
                    ..ur
                });
            }
        }
    }
}

/// Type 4: in a house the two non-pure corners share, one of x and y can only go in them;
/// they lose the other.
fn strong_link(st: &Candidates, ur: Ur, f: &mut impl FnMut(&Ur)) {
    let (p, q) = extra_pair(&ur.rect);
    let pair: CellSet = [p, q].into_iter().collect();
    for u in ur.rect.xy.iter() {
        let v = (ur.rect.xy - DigitSet::single(u))
            .first()
            .expect("two digits");
        let linked = shared_houses(p, q).find(|&h| st.cells_with(u) & CellSet::house_at(h) == pair);
        if let Some(h) = linked {
            f(&Ur {
                digit: Some(u),
                house: House::from_index(h),
                effect: Effect::remove_digit(v, pair),
                ..ur
            });
        }
    }
}

/// Type 6: with two diagonal pure corners, one of x and y can only go in the rectangle in
/// both its rows or in both its columns; the non-pure corners lose it.
fn x_wing(st: &Candidates, ur: Ur, f: &mut impl FnMut(&Ur)) {
    let cells = ur.rect.cells();
    let [a, _, _, d] = ur.rect.corners;
    let rows = [a.row() as usize, d.row() as usize];
    let cols = [9 + a.col() as usize, 9 + d.col() as usize];
    for u in ur.rect.xy.iter() {
        let places = st.cells_with(u);
        let only_corners =
            |h: &usize| places & CellSet::house_at(*h) == cells & CellSet::house_at(*h);
        if rows.iter().all(only_corners) || cols.iter().all(only_corners) {
            f(&Ur {
                digit: Some(u),
                effect: Effect::remove_digit(u, ur.rect.extra_cells()),
                ..ur
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_type_one_rectangle() {
        // Rows 1 and 2 (box 1 and box 2), columns 1 and 4.
        let (p, out) = run(search, &board("r1c1=45 r1c4=45 r2c1=45 r2c4=456"));
        assert_eq!(p, 3);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].effect,
            Effect::remove_digits(out[0].digits, CellSet::single(rc(2, 4)))
        );
    }

    #[test]
    fn a_rectangle_in_four_boxes_is_not_one() {
        let (_, out) = run(search, &board("r1c1=45 r1c4=45 r4c1=45 r4c4=456"));
        assert!(out.is_empty());
    }

    /// Runs type `k` on `st`.
    fn run_type(k: u32, st: &Candidates) -> (u64, Vec<Application>) {
        run(|st, out| search_type(st, k, out), st)
    }

    #[test]
    fn finds_a_type_two_rectangle() {
        // Pure side r1c1 r1c4; r2c1 and r2c4 hold the same extra 6.
        let st = board("r1c1=45 r1c4=45 r2c1=456 r2c4=456");
        let (p, out) = run_type(2, &st);
        // Rectangles with a pure side: rows 1-2 and rows 1-3 on columns 1 and 4.
        assert_eq!(p, 2);
        assert_eq!(out.len(), 1);
        let row2 = cells("r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9");
        assert_eq!(
            out[0].effect,
            Effect::remove_digit(dg(6), row2.into_iter().collect())
        );
        assert_eq!(
            out[0].cells,
            set("r1c1 r1c4 r2c1 r2c4")
        );
        // Different extras make no type 2.
        let (_, out) = run_type(2, &board("r1c1=45 r1c4=45 r2c1=456 r2c4=457"));
        assert!(out.is_empty());
    }

    #[test]
    fn finds_a_type_three_rectangle() {
        // The extras 6 and 7 with r2c7 (67) form a naked pair in row 2.
        let st = board("r1c1=45 r1c4=45 r2c1=456 r2c4=457 r2c7=67");
        let (p, out) = run_type(3, &st);
        assert_eq!(p, 2);
        assert_eq!(out.len(), 1, "{out:?}");
        let rest = set("r2c2 r2c3 r2c5 r2c6 r2c8 r2c9");
        let mut want = [CellSet::EMPTY; 9];
        want[5] = rest;
        want[6] = rest;
        assert_eq!(out[0].effect, Effect::Remove(want));
        assert_eq!(out[0].house, Some(House::Row(1)));
        assert!(out[0].cells.contains(rc(2, 7)));
        // Without the pair cell, nothing.
        let (_, out) = run_type(3, &board("r1c1=45 r1c4=45 r2c1=456 r2c4=457 r2c7=678"));
        assert!(out.is_empty());
    }

    #[test]
    fn finds_a_type_four_rectangle() {
        // 4 can only go in r2c1 and r2c4 in row 2: they lose 5.
        let mut st = board("r1c1=45 r1c4=45 r2c1=456 r2c4=457");
        remove(&mut st, 4, &cells("r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9"));
        let (p, out) = run_type(4, &st);
        assert_eq!(p, 2);
        assert_eq!(out.len(), 1);
        let pair = set("r2c1 r2c4");
        assert_eq!(out[0].effect, Effect::remove_digit(dg(5), pair));
        // Without the strong link, nothing.
        let (_, out) = run_type(4, &board("r1c1=45 r1c4=45 r2c1=456 r2c4=457"));
        assert!(out.is_empty());
    }

    #[test]
    fn finds_type_five_rectangles() {
        // Diagonal: r1c4 and r2c1 hold the extra 6; the cells seeing both lose it.
        let st = board("r1c1=45 r2c4=45 r1c4=456 r2c1=456");
        let (_, out) = run_type(5, &st);
        assert_eq!(out.len(), 1);
        let seen = set("r1c2 r1c3 r2c5 r2c6");
        assert_eq!(out[0].effect, Effect::remove_digit(dg(6), seen));
        // Three corners with the extra 6: cells seeing all three.
        let st = board("r1c1=45 r2c4=456 r1c4=456 r2c1=456");
        let (_, out) = run_type(5, &st);
        assert_eq!(out.len(), 1);
        let seen = set("r2c5 r2c6");
        assert_eq!(out[0].effect, Effect::remove_digit(dg(6), seen));
    }

    #[test]
    fn finds_a_type_six_rectangle() {
        // Pure diagonal r1c1, r2c4; 4 only in the rectangle in rows 1 and 2.
        let mut st = board("r1c1=45 r2c4=45 r1c4=456 r2c1=457");
        let others = "r1c2 r1c3 r1c5 r1c6 r1c7 r1c8 r1c9 r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9";
        remove(&mut st, 4, &cells(others));
        let (p, out) = run_type(6, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        let extra = set("r1c4 r2c1");
        assert_eq!(out[0].effect, Effect::remove_digit(dg(4), extra));
        // With 4 free in row 2, nothing.
        let mut st = board("r1c1=45 r2c4=45 r1c4=456 r2c1=457");
        remove(&mut st, 4, &cells("r1c2 r1c3 r1c5 r1c6 r1c7 r1c8 r1c9"));
        assert!(run_type(6, &st).1.is_empty());
    }

    #[test]
    fn rectangles_over_four_boxes_make_no_type() {
        let st = board("r1c1=45 r1c4=45 r4c1=456 r4c4=456");
        for k in 2..=6 {
            assert!(run_type(k, &st).1.is_empty(), "type {k}");
        }
    }
}
