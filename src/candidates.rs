//! The candidate state of a puzzle being solved by hand (the hsolve paper's "Sudoku Solution
//! Graph"): the digit of every filled cell and the digits still possible in every empty cell.
//!
//! # Layout
//!
//! The state is kept twice, once per cell and once per digit, so that cell-wise strategies
//! (naked subsets) and digit-wise ones (hidden singles, fish) both read a ready-made view:
//!
//! ```text
//!  cells[i]   : u16, bit d-1 set when digit d is still possible in empty cell i (0 if filled)
//!  digits[d]  : CellSet, the empty cells where digit d+1 is still possible
//!  placed[d]  : CellSet, the cells that hold digit d+1
//!  empty      : CellSet, the empty cells
//! ```
//!
//! Every mutation keeps both views in step. Filling a cell removes its digit from its 20
//! peers, so the filled cells never repeat a digit in a house.

use crate::cellset::{CellSet, DigitSet, BOX_OFFSETS, BOX_STARTS, COLUMN_0, HOUSES_OF_CELL};
use crate::grid::{Cell, Digit, Puzzle};

/// What a strategy may deduce: a digit for a cell, or candidates to remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The cell holds the digit.
    Place(Cell, Digit),
    /// For each digit (index 0-8), the cells from which it is removed.
    Remove([CellSet; 9]),
}

impl Effect {
    /// Removes digit `d` from `cells`.
    pub fn remove_digit(d: Digit, cells: CellSet) -> Effect {
        let mut r = [CellSet::EMPTY; 9];
        r[d.index()] = cells;
        Effect::Remove(r)
    }

    /// Removes every digit of `digits` from every cell of `cells`.
    pub fn remove_digits(digits: DigitSet, cells: CellSet) -> Effect {
        let mut r = [CellSet::EMPTY; 9];
        for d in digits.iter() {
            r[d.index()] = cells;
        }
        Effect::Remove(r)
    }

    /// Number of (cell, digit) candidates the effect removes, counting a placement as one.
    pub fn size(&self) -> u32 {
        match self {
            Effect::Place(..) => 1,
            Effect::Remove(r) => r.iter().map(|s| s.len()).sum(),
        }
    }
}

/// The candidate state; see the module docs for the layout.
#[derive(Clone, PartialEq, Eq)]
pub struct Candidates {
    cells: [u16; 81],
    digits: [CellSet; 9],
    placed: [CellSet; 9],
    empty: CellSet,
}

impl Candidates {
    /// The state of `puzzle` with only the direct restrictions applied: each empty cell may
    /// hold every digit that is not already in its row, column or box.
    pub fn new(puzzle: &Puzzle) -> Candidates {
        let mut st = Candidates {
            cells: [0x1FF; 81],
            digits: [CellSet::ALL; 9],
            placed: [CellSet::EMPTY; 9],
            empty: CellSet::ALL,
        };
        for (i, &v) in puzzle.as_bytes().iter().enumerate() {
            if v != 0 {
                // A Puzzle never repeats a digit in a house, so the digit is still possible.
                st.place(Cell::from_index(i), Digit::from_index(v as usize - 1));
            }
        }
        st
    }

    /// The state with the given filled digits (0 = empty) and candidate masks (ignored for
    /// filled cells). The caller guarantees that no house repeats a filled digit.
    pub(crate) fn from_parts(values: [u8; 81], cells: [u16; 81]) -> Candidates {
        let mut st = Candidates {
            cells: [0; 81],
            digits: [CellSet::EMPTY; 9],
            placed: [CellSet::EMPTY; 9],
            empty: CellSet::EMPTY,
        };
        for i in 0..81 {
            let c = Cell::from_index(i);
            if values[i] != 0 {
                st.placed[values[i] as usize - 1].insert(c);
            } else {
                st.empty.insert(c);
                st.cells[i] = cells[i] & 0x1FF;
                let mut m = st.cells[i];
                while m != 0 {
                    st.digits[m.trailing_zeros() as usize].insert(c);
                    m &= m - 1;
                }
            }
        }
        st
    }

    /// The digit in `cell`, if it is filled.
    #[inline]
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        if self.empty.contains(cell) {
            return None;
        }
        (0..9)
            .find(|&d| self.placed[d].contains(cell))
            .map(Digit::from_index)
    }

    /// The digits still possible in `cell` (empty for a filled cell).
    #[inline]
    pub fn candidates(&self, cell: Cell) -> DigitSet {
        DigitSet::from_bits(self.cells[cell.index()])
    }

    /// The empty cells where `d` is still possible.
    #[inline]
    pub fn cells_with(&self, d: Digit) -> CellSet {
        self.digits[d.index()]
    }

    /// The cells that hold `d`.
    #[inline]
    pub fn placed(&self, d: Digit) -> CellSet {
        self.placed[d.index()]
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> CellSet {
        self.empty
    }

    /// True when every cell is filled.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.empty.is_empty()
    }

    /// Total number of candidates over the empty cells.
    pub fn candidate_count(&self) -> u32 {
        self.digits.iter().map(|s| s.len()).sum()
    }

    /// The filled cells as a puzzle.
    pub fn to_puzzle(&self) -> Puzzle {
        // Filling a cell removes its digit from the peers, so no house repeats a digit.
        let mut cells = [0u8; 81];
        for (d, placed) in self.placed.iter().enumerate() {
            for c in *placed {
                cells[c.index()] = d as u8 + 1;
            }
        }
        Puzzle::from_bytes_unchecked(cells)
    }

    /// The per-cell candidate masks (0 for filled cells): with the filled cells implied, a
    /// complete description of the state, used as a cache key.
    #[inline]
    pub(crate) fn masks(&self) -> &[u16; 81] {
        &self.cells
    }

    /// True when the state cannot lead to a solution by the direct rules: an empty cell has
    /// no candidate, or a house has a digit that is neither placed nor possible.
    pub fn is_broken(&self) -> bool {
        let any = self.digits.iter().fold(CellSet::EMPTY, |a, &s| a | s);
        if !self.empty.is_subset(any) {
            return true;
        }
        for d in 0..9 {
            let cover = self.digits[d] | self.placed[d];
            for h in 0..27 {
                if !cover.intersects(CellSet::house_at(h)) {
                    return true;
                }
            }
        }
        false
    }

    /// Fills `cell` with `d` and removes `d` from its peers. Returns the peers that lost `d`,
    /// or `None` (changing nothing) if `d` is not a candidate of `cell`.
    #[inline(always)]
    pub(crate) fn place(&mut self, cell: Cell, d: Digit) -> Option<CellSet> {
        self.place_with(cell, d, |_, _| {})
    }

    /// [`Candidates::place`], calling `each(p, left)` for every peer `p` that lost `d`, with
    /// the candidates `left` in it (one pass over them for the caller's bookkeeping too).
    #[inline]
    pub(crate) fn place_with(
        &mut self,
        cell: Cell,
        d: Digit,
        mut each: impl FnMut(Cell, u16),
    ) -> Option<CellSet> {
        let i = cell.index();
        let mask = self.cells[i];
        if mask >> d.index() & 1 == 0 {
            return None;
        }
        let mut m = mask;
        while m != 0 {
            let e = m.trailing_zeros() as usize;
            m &= m - 1;
            self.digits[e].remove(cell);
        }
        self.cells[i] = 0;
        self.empty.remove(cell);
        self.placed[d.index()].insert(cell);
        let lost = self.digits[d.index()] & CellSet::peers(cell);
        self.digits[d.index()] -= lost;
        let bit = !(1u16 << d.index());
        for p in lost {
            let left = self.cells[p.index()] & bit;
            self.cells[p.index()] = left;
            each(p, left);
        }
        Some(lost)
    }

    /// Removes `d` from the candidates of every cell of `cells`; returns the cells that had it.
    #[inline]
    pub(crate) fn remove(&mut self, d: Digit, cells: CellSet) -> CellSet {
        let hit = self.digits[d.index()] & cells;
        self.digits[d.index()] -= hit;
        let bit = !(1u16 << d.index());
        for c in hit {
            self.cells[c.index()] &= bit;
        }
        hit
    }

    /// Applies `effect`. Returns false (after applying what it could) when a placement was not
    /// possible, which only happens in a contradictory state.
    pub fn apply(&mut self, effect: &Effect) -> bool {
        match *effect {
            Effect::Place(c, d) => self.place(c, d).is_some(),
            Effect::Remove(ref r) => {
                for (di, &cells) in r.iter().enumerate() {
                    if !cells.is_empty() {
                        self.remove(Digit::from_index(di), cells);
                    }
                }
                true
            }
        }
    }

    /// `effect` limited to what it would change here: its removals of candidates the state
    /// still has (a placement is kept as it is).
    pub fn restrict(&self, effect: &Effect) -> Effect {
        match *effect {
            Effect::Place(..) => *effect,
            Effect::Remove(ref r) => {
                let mut out = *r;
                for (o, &have) in out.iter_mut().zip(self.digits.iter()) {
                    *o &= have;
                }
                Effect::Remove(out)
            }
        }
    }

    /// True when `effect` would change the state (places a digit or removes a candidate).
    pub fn changes(&self, effect: &Effect) -> bool {
        match *effect {
            Effect::Place(c, _) => self.empty.contains(c),
            Effect::Remove(ref r) => r
                .iter()
                .zip(self.digits.iter())
                .any(|(a, b)| a.intersects(*b)),
        }
    }

    /// The empty cells with exactly one candidate.
    #[inline]
    pub fn naked_single_cells(&self) -> CellSet {
        let (once, twice) = self.bit_counts();
        self.empty & (once - twice)
    }

    /// The empty cells with exactly two candidates.
    #[inline]
    pub fn bivalue_cells(&self) -> CellSet {
        let (mut once, mut twice, mut thrice) = (CellSet::EMPTY, CellSet::EMPTY, CellSet::EMPTY);
        for &s in &self.digits {
            thrice |= twice & s;
            twice |= once & s;
            once |= s;
        }
        self.empty & (twice - thrice)
    }

    /// For each cell, whether it has at least one and at least two candidates.
    #[inline]
    fn bit_counts(&self) -> (CellSet, CellSet) {
        let mut once = CellSet::EMPTY;
        let mut twice = CellSet::EMPTY;
        for &s in &self.digits {
            twice |= once & s;
            once |= s;
        }
        (once, twice)
    }

    /// The empty cells where some digit has its only place in one of the cell's houses.
    pub fn hidden_single_cells(&self) -> CellSet {
        let mut out = CellSet::EMPTY;
        for d in 0..9 {
            out |= alone_in_a_house(self.digits[d]);
        }
        out
    }

    /// The digit that `cell` must hold as a hidden single, and the house that forces it.
    pub fn hidden_single_at(&self, cell: Cell) -> Option<(Digit, crate::grid::House)> {
        for d in DigitSet::from_bits(self.cells[cell.index()]).iter() {
            for &h in &HOUSES_OF_CELL[cell.index()] {
                let h = h as usize;
                if (self.digits[d.index()] & CellSet::house_at(h)).len() == 1 {
                    return Some((d, crate::grid::House::from_index(h).expect("house < 27")));
                }
            }
        }
        None
    }
}

/// The cells of `s` that are the only cell of `s` in their row, column or box.
#[inline]
pub(crate) fn alone_in_a_house(s: CellSet) -> CellSet {
    let (lines, boxes) = alone_by_kind(s);
    lines | boxes
}

/// The cells of `s` that are the only cell of `s` in their row or column, and those that are
/// the only cell of `s` in their box.
///
/// Branch-free: for each house kind, the nine cells of every house are folded onto the
/// house's first cell counting "at least one" and "at least two"; the houses with exactly one
/// are then spread back over their cells with a multiplication (the copies never overlap).
#[inline]
pub(crate) fn alone_by_kind(s: CellSet) -> (CellSet, CellSet) {
    let bits = s.bits();
    // Rows: fold the nine columns onto column 0.
    let (mut once, mut twice) = (0u128, 0u128);
    for j in 0..9 {
        let y = (bits >> j) & COLUMN_0;
        twice |= once & y;
        once |= y;
    }
    let rows = (once & !twice).wrapping_mul(0x1FF);
    // Columns: fold the nine rows onto row 0.
    let (mut once_c, mut twice_c) = (0u32, 0u32);
    for r in 0..9 {
        let y = (bits >> (9 * r)) as u32 & 0x1FF;
        twice_c |= once_c & y;
        once_c |= y;
    }
    let cols = ((once_c & !twice_c) as u128).wrapping_mul(COLUMN_0);
    // Boxes: fold the nine cells onto the top-left one.
    let (mut once_b, mut twice_b) = (0u128, 0u128);
    for off in BOX_OFFSETS {
        let y = (bits >> off) & BOX_STARTS;
        twice_b |= once_b & y;
        once_b |= y;
    }
    let boxes = (once_b & !twice_b).wrapping_mul(0b111 | 0b111 << 9 | 0b111 << 18);
    (
        CellSet::from_bits(bits & (rows | cols)),
        CellSet::from_bits(bits & boxes),
    )
}

impl std::fmt::Debug for Candidates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in 0..9 {
            for c in 0..9 {
                let i = 9 * r + c;
                if let Some(v) = self.value(Cell::from_index(i)) {
                    write!(f, "{:>10}", format!("={v}"))?;
                } else {
                    write!(f, "{:>10}", DigitSet::from_bits(self.cells[i]).to_string())?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alone_in_a_house_matches_counting() {
        let mut rng = crate::rng::Rng::new(3);
        for _ in 0..2000 {
            let bits = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            // Sparse sets make singletons likely.
            let s = CellSet::from_bits(
                bits & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128),
            );
            let mut want = CellSet::EMPTY;
            for h in 0..27 {
                let x = s & CellSet::house_at(h);
                if x.len() == 1 {
                    want |= x;
                }
            }
            assert_eq!(alone_in_a_house(s), want);
            let (mut in_line, mut in_box) = (CellSet::EMPTY, CellSet::EMPTY);
            for h in 0..27 {
                let x = s & CellSet::house_at(h);
                if x.len() == 1 {
                    if h < 18 {
                        in_line |= x;
                    } else {
                        in_box |= x;
                    }
                }
            }
            assert_eq!(alone_by_kind(s), (in_line, in_box));
        }
    }

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn direct_restrictions() {
        let p: Puzzle = P.parse().unwrap();
        let st = Candidates::new(&p);
        assert_eq!(st.empty().len(), 81 - p.clues() as u32);
        // r1c2: row 1 has 4 8 5, column 2 has 3 2, box 1 has 4 3.
        let c = Cell::at(0, 1).unwrap();
        assert_eq!(st.candidates(c).to_string(), "1679");
        assert!(!st.is_broken());
        assert_eq!(st.to_puzzle(), p);
        for d in Digit::all() {
            for c in st.cells_with(d) {
                assert!(st.candidates(c).contains(d));
            }
        }
    }

    #[test]
    fn placing_keeps_views_in_step() {
        let p: Puzzle = P.parse().unwrap();
        let mut st = Candidates::new(&p);
        let c = Cell::at(0, 1).unwrap();
        let d = Digit::new(6).unwrap();
        let lost = st.place(c, d).unwrap();
        assert!(!lost.is_empty());
        assert_eq!(st.value(c), Some(d));
        assert!(st.candidates(c).is_empty());
        for peer in CellSet::peers(c) {
            assert!(!st.candidates(peer).contains(d));
        }
        assert!(st.place(c, d).is_none());
        assert!(st
            .place(Cell::at(0, 2).unwrap(), Digit::new(4).unwrap())
            .is_none());
    }
}
