//! Typed bitsets over the board: [`CellSet`] (a set of cells) and [`DigitSet`] (a set of
//! digits), with the constant house and peer tables the strategies are written against.
//!
//! # Layout
//!
//! A [`CellSet`] is one `u128`; bit `i` is cell `i` in row-major order (`9 * row + col`), and
//! bits 81-127 are always zero:
//!
//! ```text
//!  bit 80 ......... 72 | ... | 17 .......... 9 | 8 ........... 0
//!      row 9: c9..c1   | ... | row 2: c9..c1   | row 1: c9..c1
//! ```
//!
//! A [`DigitSet`] is one `u16`; bit `d - 1` is digit `d`.

use crate::grid::{Cell, Digit, House};
use std::fmt;

/// What both sets share: the empty and the full set, a set of one member, the raw bits, the
/// size and membership.
macro_rules! bitset_basics {
    ($set:ident, $bits:ty, $member:ty, $all:expr, $all_doc:literal, $what:literal, $top:literal) => {
        impl $set {
            /// The empty set.
            pub const EMPTY: $set = $set(0);
            #[doc = $all_doc]
            pub const ALL: $set = $set($all);

            #[doc = concat!("The set holding `", $what, "` alone.")]
            #[inline]
            pub const fn single(member: $member) -> $set {
                $set(1 << member.index())
            }

            #[doc = concat!("The set from its raw bits; bits above ", $top, " are dropped.")]
            #[inline]
            pub const fn from_bits(bits: $bits) -> $set {
                $set(bits & $all)
            }

            /// The raw bits.
            #[inline]
            pub const fn bits(self) -> $bits {
                self.0
            }

            #[doc = concat!("Number of ", $what, "s in the set.")]
            #[inline]
            pub const fn len(self) -> u32 {
                self.0.count_ones()
            }

            #[doc = concat!("True when the set has no ", $what, ".")]
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            #[doc = concat!("True when `", $what, "` is in the set.")]
            #[inline]
            pub const fn contains(self, member: $member) -> bool {
                self.0 >> member.index() & 1 != 0
            }
        }
    };
}

/// A set of cells, one bit per cell (see the module docs for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(u128);

/// All 81 cells.
const ALL_CELLS: u128 = (1u128 << 81) - 1;

bitset_basics!(CellSet, u128, Cell, ALL_CELLS, "Every cell of the board.", "cell", 80);

impl CellSet {
    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= CELL_BITS[cell.index()];
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        // The bit comes from a table, not a shift: a shifted single bit lets the compiler
        // narrow the update to the one 32-bit word it touches, and a later full-width read
        // of the set then waits for that narrow store (a store-forwarding stall that cost
        // the singles loops a fifth of their time).
        self.0 &= !CELL_BITS[cell.index()];
    }

    /// The lowest cell of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// The `n`-th cell of the set in increasing order (0-based), if the set has that many.
    pub fn nth(self, n: u32) -> Option<Cell> {
        let lo = self.0 as u64;
        let lo_count = lo.count_ones();
        let (mut word, mut n, mut base) = if n < lo_count {
            (lo, n, 0)
        } else {
            ((self.0 >> 64) as u64, n - lo_count, 64)
        };
        if n >= word.count_ones() {
            return None;
        }
        // Narrow to the half, quarter and eighth of the word holding the cell (branch-free),
        // then clear the lower cells of the last byte.
        for width in [32, 16, 8] {
            let low = (word & ((1u64 << width) - 1)).count_ones();
            let up = n >= low;
            n -= if up { low } else { 0 };
            word = if up { word >> width } else { word };
            base += if up { width } else { 0 };
        }
        while n > 0 {
            word &= word - 1;
            n -= 1;
        }
        Some(Cell::from_index(base + word.trailing_zeros() as usize))
    }

    /// The cells of the set in increasing order.
    #[inline]
    pub fn iter(self) -> CellSetIter {
        CellSetIter(self.0)
    }

    /// True when the two sets share a cell.
    #[inline]
    pub const fn intersects(self, other: CellSet) -> bool {
        self.0 & other.0 != 0
    }

    /// True when every cell of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: CellSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The 20 peers of `cell`: the other cells of its row, column and box.
    #[inline]
    pub const fn peers(cell: Cell) -> CellSet {
        CellSet(PEERS[cell.index()])
    }

    /// The cells that see both `a` and `b`, neither of them included.
    #[inline]
    pub const fn seen_by_both(a: Cell, b: Cell) -> CellSet {
        CellSet(PEERS[a.index()] & PEERS[b.index()])
    }

    /// The nine cells of `house`.
    #[inline]
    pub const fn house(house: House) -> CellSet {
        CellSet(HOUSE_BITS[house.index()])
    }

    /// The nine cells of house number `h` (rows 0-8, columns 9-17, boxes 18-26).
    #[inline]
    pub(crate) const fn house_at(h: usize) -> CellSet {
        CellSet(HOUSE_BITS[h])
    }

    /// The set mirrored in the main diagonal: cell (r, c) goes to (c, r).
    pub fn transpose(self) -> CellSet {
        // Column c, gathered into nine bits by a multiplication, becomes row c.
        let mut out = 0u128;
        for c in 0..9 {
            out |= (column_bits(self.0, c) as u128) << (9 * c);
        }
        CellSet(out)
    }

    /// The cells that see every cell of `self` (excluding the cells of `self`); every cell
    /// when `self` is empty.
    pub fn common_peers(self) -> CellSet {
        let mut out = CellSet::ALL;
        for c in self {
            out &= CellSet::peers(c);
        }
        out
    }
}

/// The set operations of a bitset newtype over an integer: `&`, `|`, `-` (difference) and
/// their assigning forms.
macro_rules! set_ops {
    ($set:ident) => {
        impl std::ops::BitAnd for $set {
            type Output = $set;
            #[inline]
            fn bitand(self, rhs: $set) -> $set {
                $set(self.0 & rhs.0)
            }
        }

        impl std::ops::BitOr for $set {
            type Output = $set;
            #[inline]
            fn bitor(self, rhs: $set) -> $set {
                $set(self.0 | rhs.0)
            }
        }

        impl std::ops::BitAndAssign for $set {
            #[inline]
            fn bitand_assign(&mut self, rhs: $set) {
                self.0 &= rhs.0;
            }
        }

        impl std::ops::BitOrAssign for $set {
            #[inline]
            fn bitor_assign(&mut self, rhs: $set) {
                self.0 |= rhs.0;
            }
        }

        /// The members of `self` that are not in `rhs`.
        impl std::ops::Sub for $set {
            type Output = $set;
            #[inline]
            fn sub(self, rhs: $set) -> $set {
                $set(self.0 & !rhs.0)
            }
        }

        impl std::ops::SubAssign for $set {
            #[inline]
            fn sub_assign(&mut self, rhs: $set) {
                self.0 &= !rhs.0;
            }
        }
    };
}

set_ops!(CellSet);

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        CellSetIter(self.0)
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Iterator over the cells of a [`CellSet`], lowest first.
#[derive(Clone)]
pub struct CellSetIter(u128);

impl Iterator for CellSetIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Cell::from_index(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellSetIter {}

impl fmt::Display for CellSet {
    /// The cells as `r1c2 r5c7`, lowest first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

/// A set of digits, one bit per digit (bit `d - 1` is digit `d`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet(u16);

bitset_basics!(DigitSet, u16, Digit, 0x1FF, "All nine digits.", "digit", 8);

impl DigitSet {
    /// Adds `d`.
    #[inline]
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << d.index();
    }

    /// The smallest digit of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// The digits of the set in increasing order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Digit> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(Digit::from_index(i))
        })
    }
}

set_ops!(DigitSet);

impl std::ops::Not for DigitSet {
    type Output = DigitSet;
    #[inline]
    fn not(self) -> DigitSet {
        DigitSet(!self.0 & 0x1FF)
    }
}

impl FromIterator<Digit> for DigitSet {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}

impl fmt::Display for DigitSet {
    /// The digits run together, e.g. `157`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.iter() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

/// Column 1's cells, which are also the first cell of each row (bits 0, 9, ..., 72).
pub(crate) const COLUMN_0: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1 << (9 * r);
        r += 1;
    }
    m
};

/// Multiplier that gathers the nine bits of [`COLUMN_0`] into bits 72-80: bit 9i lands on
/// 72 + i, and no two partial products meet, so nothing carries into that window.
const GATHER_COLUMN: u128 = {
    let mut m = 0u128;
    let mut j = 0;
    while j < 9 {
        m |= 1 << (72 - 8 * j);
        j += 1;
    }
    m
};

/// The top-left cell of each box.
pub(crate) const BOX_STARTS: u128 = {
    let mut m = 0u128;
    let mut b = 0;
    while b < 9 {
        m |= 1 << (27 * (b / 3) + 3 * (b % 3));
        b += 1;
    }
    m
};

/// The offsets of a box's nine cells from its top-left cell.
pub(crate) const BOX_OFFSETS: [u32; 9] = [0, 1, 2, 9, 10, 11, 18, 19, 20];

/// The cells of column `c` in `bits` (a [`CellSet`]'s bits), as 9 bits, row 1 lowest.
#[inline]
pub(crate) fn column_bits(bits: u128, c: usize) -> u16 {
    (((bits >> c) & COLUMN_0).wrapping_mul(GATHER_COLUMN) >> 72) as u16 & 0x1FF
}

/// The three houses (row, column, box numbers as in [`CellSet::house_at`]) of each cell.
pub(crate) const HOUSES_OF_CELL: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i] = [r as u8, 9 + c as u8, 18 + ((r / 3) * 3 + c / 3) as u8];
        i += 1;
    }
    t
};

/// Bit i set, for each cell i (see [`CellSet::remove`]).
static CELL_BITS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// Cells of each house: rows 0-8, columns 9-17, boxes 18-26.
const HOUSE_BITS: [u128; 27] = {
    let mut t = [0u128; 27];
    let mut i = 0;
    while i < 81 {
        let [r, c, b] = HOUSES_OF_CELL[i];
        t[r as usize] |= 1 << i;
        t[c as usize] |= 1 << i;
        t[b as usize] |= 1 << i;
        i += 1;
    }
    t
};

/// The peers of each cell: the cells of its houses but itself.
const PEERS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let [r, c, b] = HOUSES_OF_CELL[i];
        let houses = HOUSE_BITS[r as usize] | HOUSE_BITS[c as usize] | HOUSE_BITS[b as usize];
        t[i] = houses & !(1 << i);
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_and_houses() {
        for c in Cell::all() {
            assert_eq!(CellSet::peers(c).len(), 20);
            assert!(!CellSet::peers(c).contains(c));
        }
        for h in House::all() {
            let s = CellSet::house(h);
            assert_eq!(s.len(), 9);
            assert_eq!(s.iter().collect::<Vec<_>>(), h.cells().to_vec());
        }
    }

    #[test]
    fn nth_and_iter_agree() {
        let s = CellSet::from_bits(0x1_0000_0000_0000_0000_0105 | 1 << 80);
        let cells: Vec<Cell> = s.iter().collect();
        for (n, c) in cells.iter().enumerate() {
            assert_eq!(s.nth(n as u32), Some(*c));
        }
        assert_eq!(s.nth(cells.len() as u32), None);
        assert_eq!(cells.len() as u32, s.len());
        // Sets of every density, both halves of the word.
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..2000 {
            let keep = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64();
            let bits = (u128::from(rng.next_u64()) << 64 | u128::from(keep)) & CellSet::ALL.bits();
            let s = CellSet::from_bits(bits);
            for (n, c) in s.iter().enumerate() {
                assert_eq!(s.nth(n as u32), Some(c));
            }
            assert_eq!(s.nth(s.len()), None);
        }
    }

    #[test]
    fn transpose_mirrors_cells() {
        for c in Cell::all() {
            let t = CellSet::single(c).transpose();
            assert_eq!(t, CellSet::single(Cell::at(c.col(), c.row()).unwrap()));
        }
        let s = CellSet::from_bits(0x1234_5678_9abc_def0_1357_9bdf_2468);
        assert_eq!(s.transpose().transpose(), s);
        assert_eq!(s.transpose().len(), s.len());
    }

    #[test]
    fn digit_sets() {
        let s: DigitSet = [1, 5, 9].iter().map(|&d| Digit::new(d).unwrap()).collect();
        assert_eq!(s.to_string(), "159");
        assert_eq!((!s).len(), 6);
        assert_eq!(s.first(), Digit::new(1));
    }
}
