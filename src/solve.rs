//! The exact solver: counts solutions up to a limit and returns one, by bit-parallel constraint
//! propagation and depth-first search.
//!
//! # Layout
//!
//! Candidates are kept per digit and per band: `f[3 * d + b]` is a 27-bit mask of the cells of
//! band `b` that may still hold digit `d + 1`. Bit `9 * r + c` is row `r` of the band (0-2) and
//! column `c` (0-8):
//!
//! ```text
//!  bit  26 .............. 18 | 17 .............. 9 | 8 ............... 0
//!       row 2: cols 8..0     | row 1: cols 8..0    | row 0: cols 8..0
//! ```
//!
//! # Propagation
//!
//! - **Digit in band** (one digit, one band at a time): each of the band's three rows and three
//!   boxes holds the digit exactly once, so the 3x3 "row has a candidate in box" matrix must
//!   contain a permutation. `COMPLEX` keeps only the blocks (a row's three cells inside one
//!   box) that lie on some permutation inside the matrix: locked candidates of both kinds and
//!   the band's hidden singles. Then a box whose candidates lie in one column claims that column
//!   from the other two bands, and a row locked into one box whose candidates lie in one column
//!   is solved: the cell is cleared for the other digits.
//! - **Naked singles**: per band, cells with exactly one candidate digit are placed; a cell with
//!   none is a contradiction.
//! - **Hidden singles in columns**: a digit with one candidate left in a column is placed.
//!
//! Placing during the search is lazy: it only clears the cell's peers in the digit's own band;
//! the digit-band propagation does the rest. The 27 digit-band checks are unrolled so that each
//! has its own, well-predicted branch.
//!
//! When propagation stalls, the search branches on a cell with two candidates, choosing the one
//! with the most unsolved cells in its row, column and box (the most constraining choice: each
//! branch then propagates furthest), or else on a cell with the fewest candidates, trying each
//! candidate on a copy of the state and the last one in place.
//!
//! The design follows the band-oriented solvers of the Sudoku programmers' community (JSolve,
//! JCZSolve, fsss2); the code and tables here are written for this project.

use crate::candidates::Candidates;
use crate::grid::{Cell, Digit, Grid, Puzzle, PERMS3};
use crate::propagate::Propagation;
use crate::rng::Rng;

/// All 27 cells of a band.
const BAND: u32 = 0x7FF_FFFF;

/// For the three groups of three bits of `x` (bits 3k to 3k + 2): the groups that are not
/// empty (bit k for group k), and the bits of the groups that hold exactly one bit.
const fn triads(x: usize) -> (usize, usize) {
    let (mut nonempty, mut lone) = (0, 0);
    let mut k = 0;
    while k < 3 {
        let part = x >> (3 * k) & 0x7;
        if part != 0 {
            nonempty |= 1 << k;
        }
        if part.count_ones() == 1 {
            lone |= part << (3 * k);
        }
        k += 1;
    }
    (nonempty, lone)
}

/// `unit << (stride * k)` for every bit k (0-2) of `bits`, together.
const fn spread(bits: usize, unit: u32, stride: u32) -> u32 {
    let mut out = 0;
    if bits & 1 != 0 {
        out |= unit;
    }
    if bits & 2 != 0 {
        out |= unit << stride;
    }
    if bits & 4 != 0 {
        out |= unit << (2 * stride);
    }
    out
}

/// For a 3x3 row-by-stack presence matrix `m` (bit `3 * row + stack`): the blocks (same bits)
/// that lie on at least one permutation inside `m` (one block in each row and each stack).
const fn on_permutations(m: usize) -> usize {
    let mut keep = 0;
    let mut p = 0;
    while p < 6 {
        // Permutation p, as row -> stack.
        let mut bits = 0;
        let mut r = 0;
        while r < 3 {
            bits |= 1 << (3 * r + PERMS3[p][r]);
            r += 1;
        }
        if bits & m == bits {
            keep |= bits;
        }
        p += 1;
    }
    keep
}

/// The 27-bit band mask of the blocks (bit `3 * row + stack`) of `blocks`.
const fn block_cells(blocks: usize) -> u32 {
    let mut mask = 0u32;
    let mut b = 0;
    while b < 9 {
        if blocks & (1 << b) != 0 {
            mask |= 0x7 << (9 * (b / 3) + 3 * (b % 3));
        }
        b += 1;
    }
    mask
}

/// The band's lookup tables indexed by a 9-bit mask, built in one pass (see the constants
/// named after each field).
struct MaskTables {
    shrink: [u8; 512],
    complex: [u32; 512],
    locked_minirows: [u16; 512],
    single_column_minirows: [u16; 512],
    claimed_columns: [u32; 512],
    solved_rows: [u32; 512],
}

/// The tables behind [`SHRINK`], [`COMPLEX`], [`LOCKED_MINIROWS`],
/// [`SINGLE_COLUMN_MINIROWS`], [`CLAIMED_COLUMNS`] and [`SOLVED_ROWS`].
const MASK_TABLES: MaskTables = {
    let mut t = MaskTables {
        shrink: [0; 512],
        complex: [0; 512],
        locked_minirows: [0; 512],
        single_column_minirows: [0; 512],
        claimed_columns: [0; 512],
        solved_rows: [0; 512],
    };
    let mut m = 0;
    while m < 512 {
        let (nonempty, lone) = triads(m);
        t.shrink[m] = nonempty as u8;
        t.solved_rows[m] = spread(nonempty, 0x1FF, 9);
        // Read as columns: the stacks with one column, and those columns in every row.
        t.single_column_minirows[m] = spread(triads(lone).0, 1 | 1 << 3 | 1 << 6, 1) as u16;
        t.claimed_columns[m] = BAND & !spread(0b111, lone as u32, 9);
        // Read as a presence matrix.
        let kept = on_permutations(m);
        t.complex[m] = block_cells(kept);
        t.locked_minirows[m] = triads(kept).1 as u16;
        m += 1;
    }
    t
};

/// `SHRINK[row]`: which stacks (bit 0-2) of a 9-bit row mask hold a candidate.
const SHRINK: [u8; 512] = MASK_TABLES.shrink;

/// `COMPLEX[m]` for a 3x3 row-by-stack presence matrix `m` (bit `3 * row + stack`): the 27-bit
/// band mask of the blocks that lie on at least one permutation inside `m`; 0 when there is none
/// (the digit cannot be placed once in each row and box of the band).
const COMPLEX: [u32; 512] = MASK_TABLES.complex;

/// `LOCKED_MINIROWS[m]` for a presence matrix `m` as in [`COMPLEX`]: the blocks (bit
/// `3 * row + stack`) that every permutation inside `m` uses, i.e. the row's only possible box.
const LOCKED_MINIROWS: [u16; 512] = MASK_TABLES.locked_minirows;

/// `SINGLE_COLUMN_MINIROWS[cols]` for a 9-bit column mask: the blocks (bit `3 * row + stack`,
/// all three rows) of the stacks in which exactly one column is set.
const SINGLE_COLUMN_MINIROWS: [u16; 512] = MASK_TABLES.single_column_minirows;

/// `CLAIMED_COLUMNS[cols]`: the band mask the other two bands keep when this band's digit lies
/// in columns `cols`: every column that is alone in its stack is removed.
const CLAIMED_COLUMNS: [u32; 512] = MASK_TABLES.claimed_columns;

/// `SOLVED_ROWS[blocks]`: the 27-bit mask of the rows that hold one of the blocks (bit
/// `3 * row + stack`).
const SOLVED_ROWS: [u32; 512] = MASK_TABLES.solved_rows;

/// `PEERS_IN_BAND[p]`: the cells of the same band that share a row, column or box with band
/// position `p` (excluding `p`).
const PEERS_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let mut m = 0u32;
        let mut q = 0;
        while q < 27 {
            let (r2, c2) = (q / 9, q % 9);
            if q != p && (r2 == r || c2 == c || c2 / 3 == c / 3) {
                m |= 1 << q;
            }
            q += 1;
        }
        t[p] = m;
        p += 1;
    }
    t
};

/// The three band positions of column `c`.
const fn column_mask(c: u32) -> u32 {
    (1 << c) | (1 << (c + 9)) | (1 << (c + 18))
}

/// Column 0 of a band (bits 0, 9, 18).
const COL0: u32 = 1 | 1 << 9 | 1 << 18;

/// The other two bands of band `b`.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Columns (bit `c`) with a candidate in any row of a band mask.
#[inline(always)]
fn fold_any(x: u32) -> u32 {
    (x | (x >> 9) | (x >> 18)) & 0x1FF
}

/// Columns (bit `c`) with candidates in at least two rows of a band mask.
#[inline(always)]
fn fold_two(x: u32) -> u32 {
    let (r0, r1, r2) = (x, x >> 9, x >> 18);
    ((r0 & r1) | (r0 & r2) | (r1 & r2)) & 0x1FF
}

/// Marker for a contradiction found while propagating.
struct Contradiction;

/// The solver's whole state; small enough to copy at every branch.
#[derive(Clone, Copy)]
struct State {
    /// Candidates: `f[3 * d + b]`, see the module docs.
    f: [u32; 27],
    /// The value of `f[i]` when digit-band `i` was last propagated.
    done: [u32; 27],
    /// Unsolved cells per band.
    unsolved: [u32; 3],
}

impl State {
    /// The state of the empty grid.
    const EMPTY: State = State {
        f: [BAND; 27],
        done: [0; 27],
        unsolved: [BAND; 3],
    };

    /// The state after placing the clues of `p`, or a contradiction if two clues conflict.
    fn from_puzzle(p: &Puzzle) -> Result<State, Contradiction> {
        let mut st = State::EMPTY;
        let cells = p.as_bytes();
        for (b, band) in cells.chunks_exact(27).enumerate() {
            // The band's clues as a bit mask first (no branch per cell), then one by one.
            let mut clues = band
                .iter()
                .enumerate()
                .fold(0u32, |m, (k, &v)| m | u32::from(v != 0) << k);
            while clues != 0 {
                let pos = clues.trailing_zeros();
                clues &= clues - 1;
                let d = (band[pos as usize] - 1) as usize;
                if st.f[3 * d + b] & (1 << pos) == 0 {
                    return Err(Contradiction);
                }
                st.place(b, pos, d);
            }
        }
        Ok(st)
    }

    /// Places digit `d` at position `pos` of band `b`, eliminating it from the cell's peers and
    /// every other digit from the cell.
    #[inline(always)]
    fn place(&mut self, b: usize, pos: u32, d: usize) {
        let bit = 1u32 << pos;
        for dd in 0..9 {
            self.restrict(3 * dd + b, !bit);
        }
        let i = 3 * d + b;
        self.f[i] = (self.f[i] & !PEERS_IN_BAND[pos as usize & 31]) | bit;
        let col = !column_mask(pos % 9);
        let [b1, b2] = OTHER_BANDS[b];
        self.restrict(3 * d + b1, col);
        self.restrict(3 * d + b2, col);
        self.unsolved[b] &= !bit;
    }

    /// Places digit `d` at position `pos` of band `b` lazily: only the digit's own band mask is
    /// updated (the cell's row, column and box peers in the band); propagating that digit-band
    /// then clears the cell for the other digits and the column in the other bands.
    #[inline(always)]
    fn place_lazy(&mut self, b: usize, pos: u32, d: usize) {
        let i = (3 * d + b) % 27;
        self.f[i] &= !PEERS_IN_BAND[pos as usize & 31];
    }

    /// Intersects digit-band `i` with `keep`.
    #[inline(always)]
    fn restrict(&mut self, i: usize, keep: u32) {
        self.f[i % 27] &= keep;
    }

    /// Propagates digit-in-band constraints until nothing changes.
    ///
    /// The 27 digit-bands are checked in a fixed, unrolled sequence: each check is its own
    /// branch, which the processor predicts far better than one shared loop branch.
    #[inline(always)]
    fn propagate_bands(&mut self) -> Result<(), Contradiction> {
        macro_rules! sweep {
            ($($i:literal)*) => {
                loop {
                    let mut changed = false;
                    $(
                        if self.f[$i] != self.done[$i] {
                            changed = true;
                            self.update_digit_band::<$i>()?;
                        }
                    )*
                    if !changed {
                        return Ok(());
                    }
                }
            };
        }
        sweep!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26)
    }

    /// Propagates digit-band `i`: the row/box permutation rule inside the band, column locks
    /// into the other two bands, and the cells this digit now solves.
    #[inline(always)]
    fn update_digit_band<const I: usize>(&mut self) -> Result<(), Contradiction> {
        let (i, d, b) = (I, I / 3, I % 3);
        let s = self.f[i];
        let shrink = (SHRINK[(s & 0x1FF) as usize] as usize
            | (SHRINK[((s >> 9) & 0x1FF) as usize] as usize) << 3
            | (SHRINK[((s >> 18) & 0x1FF) as usize] as usize) << 6)
            & 0x1FF;
        let s = s & COMPLEX[shrink];
        if s == 0 {
            return Err(Contradiction);
        }
        self.f[i] = s;
        self.done[i] = s;
        // A box of this band whose candidates lie in one column claims that column: the other
        // bands lose it.
        let cols = fold_any(s) as usize;
        let [b1, b2] = OTHER_BANDS[b];
        let keep = CLAIMED_COLUMNS[cols];
        self.restrict(3 * d + b1, keep);
        self.restrict(3 * d + b2, keep);
        // A row locked into one box whose candidates lie in one column is solved.
        let solved_blocks = (LOCKED_MINIROWS[shrink] & SINGLE_COLUMN_MINIROWS[cols]) & 0x1FF;
        let solved = SOLVED_ROWS[solved_blocks as usize] & s & self.unsolved[b];
        // Unconditional: whether a row was solved is hard to predict, and clearing nothing
        // is cheap.
        self.unsolved[b] &= !solved;
        for dd in 0..9 {
            if dd != d {
                self.restrict(3 * dd + b, !solved);
            }
        }
        Ok(())
    }

    /// Places every naked single and records the cells with two candidates in `pairs`.
    /// Returns whether any single was placed.
    #[inline(always)]
    fn naked_singles(&mut self, pairs: &mut [u32; 3]) -> Result<bool, Contradiction> {
        let mut placed = false;
        for (b, band_pairs) in pairs.iter_mut().enumerate() {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[3 * d + b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let unsolved = self.unsolved[b];
            if one & unsolved != unsolved {
                return Err(Contradiction);
            }
            *band_pairs = unsolved & two & !three;
            let mut singles = unsolved & !two;
            while singles != 0 {
                let pos = singles.trailing_zeros();
                singles &= singles - 1;
                let bit = 1 << pos;
                let Some(d) = (0..9).find(|&d| self.f[3 * d + b] & bit != 0) else {
                    return Err(Contradiction);
                };
                self.place_lazy(b, pos, d);
                placed = true;
            }
        }
        Ok(placed)
    }

    /// Places every digit that has one candidate left in some column. Returns whether any was
    /// placed.
    #[inline(always)]
    fn column_singles(&mut self) -> Result<bool, Contradiction> {
        let mut placed = false;
        for d in 0..9 {
            let (a, b, c) = (self.f[3 * d], self.f[3 * d + 1], self.f[3 * d + 2]);
            // Per column: present at least once / at least twice over the 9 rows.
            let (fa, fb, fc) = (fold_any(a), fold_any(b), fold_any(c));
            let one = fa | fb | fc;
            let two = fold_two(a) | fold_two(b) | fold_two(c) | (fa & fb) | (fa & fc) | (fb & fc);
            if one != 0x1FF {
                return Err(Contradiction);
            }
            let single_cols = !two & 0x1FF;
            if single_cols == 0 {
                continue;
            }
            for b in 0..3 {
                let x = self.f[3 * d + b];
                let mut hits = x & (single_cols | single_cols << 9 | single_cols << 18);
                hits &= self.unsolved[b];
                while hits != 0 {
                    let pos = hits.trailing_zeros();
                    hits &= hits - 1;
                    self.place_lazy(b, pos, d);
                    placed = true;
                }
            }
        }
        Ok(placed)
    }

    /// Propagates everything to a fixpoint.
    /// Returns the cells with two candidates (per band) at the fixpoint.
    fn propagate(&mut self) -> Result<[u32; 3], Contradiction> {
        let mut pairs = [0u32; 3];
        loop {
            self.propagate_bands()?;
            if self.solved() {
                return Ok(pairs);
            }
            if self.naked_singles(&mut pairs)? {
                continue;
            }
            if self.column_singles()? {
                continue;
            }
            return Ok(pairs);
        }
    }

    /// True when every cell holds a digit.
    fn solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// A cell to branch on, as (band, position): the two-candidate cell with the most unsolved
    /// peers if there is one, otherwise a cell with the fewest candidates.
    fn branch_cell(&self, pairs: &[u32; 3]) -> (usize, u32) {
        // Among all two-candidate cells, the one with the most unsolved peers.
        let mut pick: Option<(u32, usize, u32)> = None;
        for (b, &p) in pairs.iter().enumerate() {
            let mut cells = p;
            let u = self.unsolved[b];
            while cells != 0 {
                let pos = cells.trailing_zeros();
                cells &= cells - 1;
                let (r, c) = (pos / 9, pos % 9);
                let row = (u >> (9 * r)) & 0x1FF;
                let stack = c / 3;
                let boxm = (u >> (3 * stack)) & (0x7 | 0x7 << 9 | 0x7 << 18);
                let col = ((self.unsolved[0] >> c) & COL0).count_ones()
                    + ((self.unsolved[1] >> c) & COL0).count_ones()
                    + ((self.unsolved[2] >> c) & COL0).count_ones();
                let score = row.count_ones() + boxm.count_ones() + col;
                if pick.is_none_or(|(s, _, _)| score > s) {
                    pick = Some((score, b, pos));
                }
            }
        }
        if let Some((_, b, pos)) = pick {
            return (b, pos);
        }
        let mut best = (0usize, 0u32);
        let mut best_count = u32::MAX;
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            if best_count > 3 {
                let mut cells = unsolved;
                while cells != 0 {
                    let pos = cells.trailing_zeros();
                    cells &= cells - 1;
                    let n = self.candidates(b, pos).count_ones();
                    if n < best_count {
                        best_count = n;
                        best = (b, pos);
                    }
                }
            }
        }
        best
    }

    /// The candidate digits of a cell, as a 9-bit mask (bit `d` for digit `d + 1`).
    #[inline(always)]
    fn candidates(&self, b: usize, pos: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.f[3 * d + b] >> pos) & 1) << d;
        }
        m
    }

    /// The solved grid; only meaningful when [`State::solved`].
    fn grid(&self) -> Grid {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.f[3 * d + b];
                while x != 0 {
                    let pos = x.trailing_zeros() as usize;
                    x &= x - 1;
                    cells[27 * b + pos] = d as u8 + 1;
                }
            }
        }
        Grid::from_puzzle(Puzzle::from_bytes_unchecked(cells)).expect("a solved state is full")
    }
}

/// The solver state of a hand-solving candidate state (the per-digit cell sets of
/// [`Candidates`] and the band masks share their row-major bit order).
fn band_state(st: &Candidates) -> State {
    let mut f = [0u32; 27];
    for d in 0..9 {
        let dg = Digit::from_index(d);
        let bits = (st.cells_with(dg) | st.placed(dg)).bits();
        for b in 0..3 {
            f[3 * d + b] = (bits >> (27 * b)) as u32 & BAND;
        }
    }
    let e = st.empty().bits();
    State {
        f,
        done: [0; 27],
        unsolved: [0, 1, 2].map(|b| (e >> (27 * b)) as u32 & BAND),
    }
}

/// The hand-solving candidate state of a solver state.
fn hand_state(st: &State) -> Candidates {
    let mut values = [0u8; 81];
    let mut cells = [0u16; 81];
    for (b, &unsolved) in st.unsolved.iter().enumerate() {
        for pos in 0..27u32 {
            let m = st.candidates(b, pos) as u16;
            let i = 27 * b + pos as usize;
            if unsolved >> pos & 1 != 0 || m.count_ones() != 1 {
                cells[i] = m;
            } else {
                values[i] = m.trailing_zeros() as u8 + 1;
            }
        }
    }
    Candidates::from_parts(values, cells)
}

/// Assumes `d` in `c` and propagates with the solver's rules (naked singles, hidden singles,
/// and the row-box interactions inside each band), without branching. Returns how it ended
/// and, when it stalled and `want_state` is set, the resulting candidate state.
pub(crate) fn propagate_trial(
    st: &Candidates,
    c: Cell,
    d: Digit,
    want_state: bool,
) -> (Propagation, Option<Candidates>) {
    if !st.candidates(c).contains(d) {
        return (Propagation::Contradiction, None);
    }
    let mut s = band_state(st);
    let i = c.index();
    s.place(i / 27, (i % 27) as u32, d.index());
    match s.propagate() {
        Err(Contradiction) => (Propagation::Contradiction, None),
        Ok(_) if s.solved() => (Propagation::Solved, None),
        Ok(_) => (Propagation::Stalled, want_state.then(|| hand_state(&s))),
    }
}

/// A hand-solving state propagated once with the solver's rules, from which many trials are
/// made: each trial copies it and only re-propagates what the trial value touches.
///
/// It also remembers what the stalled trials implied. If assuming x places y and x ends
/// without a contradiction, assuming y cannot end in one either: y's propagation starts from a
/// state with more candidates than x's closure, and propagation is monotone. So once x
/// stalls, every candidate its closure placed is known to stall and needs no trial of its own.
pub(crate) struct TrialBase {
    state: Option<State>,
    /// Per digit-band, the cells known not to end in a contradiction.
    stalls: [u32; 27],
    /// The end states of this base's stalled trials, for the next search's warm starts.
    memo: TrialMemo,
}

/// The end states of stalled trials made from some state S, by candidate. A trial of the same
/// candidate from a state S' with fewer candidates ends where the old end state, less what S'
/// lacks, propagates to (propagation is monotone, so that is the same end), which usually
/// takes far less work than propagating the trial afresh.
#[derive(Clone)]
pub(crate) struct TrialMemo {
    /// Position in `ends` + 1 of candidate `9 * cell + digit index`, 0 when absent; `None`
    /// when the memo keeps nothing.
    index: Option<Box<[u16; 729]>>,
    /// The end states: candidates and unsolved cells (a propagated state needs no more).
    ends: Vec<([u32; 27], [u32; 3])>,
}

impl TrialMemo {
    fn with_capacity(n: usize) -> TrialMemo {
        TrialMemo {
            index: Some(Box::new([0; 729])),
            ends: Vec::with_capacity(n),
        }
    }

    /// A memo that keeps nothing.
    fn off() -> TrialMemo {
        TrialMemo {
            index: None,
            ends: Vec::new(),
        }
    }

    fn get(&self, c: Cell, d: Digit) -> Option<&([u32; 27], [u32; 3])> {
        match self.index.as_ref()?[9 * c.index() + d.index()] {
            0 => None,
            i => Some(&self.ends[i as usize - 1]),
        }
    }

    fn insert(&mut self, c: Cell, d: Digit, end: &State) {
        let k = 9 * c.index() + d.index();
        if let Some(index) = self.index.as_mut() {
            if index[k] == 0 {
                self.ends.push((end.f, end.unsolved));
                index[k] = self.ends.len() as u16;
            }
        }
    }
}

impl TrialBase {
    /// Propagates `st` once.
    pub(crate) fn new(st: &Candidates) -> TrialBase {
        let mut s = band_state(st);
        TrialBase {
            state: s.propagate().ok().map(|_| s),
            stalls: [0; 27],
            memo: TrialMemo::with_capacity(st.candidate_count() as usize),
        }
    }

    /// Propagates `st` once, for trials whose end states are not kept.
    pub(crate) fn without_memo(st: &Candidates) -> TrialBase {
        let mut s = band_state(st);
        TrialBase {
            state: s.propagate().ok().map(|_| s),
            stalls: [0; 27],
            memo: TrialMemo::off(),
        }
    }

    /// The end states of this base's stalled trials.
    pub(crate) fn into_memo(self) -> TrialMemo {
        self.memo
    }

    /// True when assuming `d` in `c` is known not to end in a contradiction.
    #[inline]
    pub(crate) fn known_to_stall(&self, c: Cell, d: Digit) -> bool {
        let i = c.index();
        self.stalls[3 * d.index() + i / 27] >> (i % 27) & 1 != 0
    }

    /// How assuming `d` in `c` ends; a stalled trial's placements and end state are
    /// remembered. `warm` is the memo of an earlier search from a state with more candidates.
    #[inline]
    pub(crate) fn outcome(&mut self, c: Cell, d: Digit, warm: Option<&TrialMemo>) -> Propagation {
        let Some(base) = &self.state else {
            return Propagation::Contradiction;
        };
        let i = c.index();
        let (b, pos) = (i / 27, (i % 27) as u32);
        if base.f[3 * d.index() + b] >> pos & 1 == 0 {
            return Propagation::Contradiction;
        }
        if base.unsolved[b] >> pos & 1 == 0 {
            // Already placed by the base propagation.
            return if base.solved() {
                Propagation::Solved
            } else {
                Propagation::Stalled
            };
        }
        let mut s = match warm.and_then(|m| m.get(c, d)) {
            Some((end_f, end_unsolved)) => {
                // The old end state less what the base lacks; only the digit-bands that lost
                // something are propagated again.
                let mut s = State {
                    f: *end_f,
                    done: *end_f,
                    unsolved: *end_unsolved,
                };
                let mut any = [0u32; 3];
                let mut lost = 0;
                for k in 0..27 {
                    lost |= s.f[k] & !base.f[k];
                    s.f[k] &= base.f[k];
                    any[k % 3] |= s.f[k];
                }
                if any != [BAND; 3] {
                    return Propagation::Contradiction; // a cell lost every digit
                }
                if lost == 0 {
                    // The base lacks nothing the old end state had: same end.
                    self.note_stall(base.unsolved, &s);
                    self.memo.insert(c, d, &s);
                    return Propagation::Stalled;
                }
                s
            }
            None => {
                let mut s = *base;
                s.place_lazy(b, pos, d.index());
                s
            }
        };
        match s.propagate() {
            Err(Contradiction) => Propagation::Contradiction,
            Ok(_) if s.solved() => Propagation::Solved,
            Ok(_) => {
                let unsolved = base.unsolved;
                self.note_stall(unsolved, &s);
                self.memo.insert(c, d, &s);
                Propagation::Stalled
            }
        }
    }

    /// Remembers that the cells a stalled trial placed (its end state `s`, from a base with
    /// unsolved cells `unsolved`) need no trial of their own.
    #[inline]
    fn note_stall(&mut self, unsolved: [u32; 3], s: &State) {
        for (band, (&before, &after)) in unsolved.iter().zip(&s.unsolved).enumerate() {
            let new = before & !after;
            if new != 0 {
                for dd in 0..9 {
                    self.stalls[3 * dd + band] |= s.f[3 * dd + band] & new;
                }
            }
        }
    }
}

/// Propagates a hand-solving state with the solver's rules, without branching.
pub(crate) fn propagate_state(st: &Candidates) -> (Propagation, Option<Candidates>) {
    let mut s = band_state(st);
    match s.propagate() {
        Err(Contradiction) => (Propagation::Contradiction, None),
        Ok(_) if s.solved() => (Propagation::Solved, None),
        Ok(_) => (Propagation::Stalled, Some(hand_state(&s))),
    }
}

/// Depth-first search state: how many solutions to look for and what was found.
struct Branching<'r> {
    limit: usize,
    /// Whether to record the first solution found (counting alone is faster).
    record: bool,
    count: usize,
    first: Option<Grid>,
    /// When set, candidates are tried in random order (for random grids).
    rng: Option<&'r mut Rng>,
}

impl Branching<'_> {
    /// Propagates `st` and explores its branches until `limit` solutions are found.
    /// Works on `st` in place; only the branches that are not the last get a copy.
    fn run(&mut self, st: &mut State) {
        let Ok(pairs) = st.propagate() else {
            return;
        };
        if st.solved() {
            if self.record && self.first.is_none() {
                self.first = Some(st.grid());
            }
            self.count += 1;
            return;
        }
        let (b, pos) = st.branch_cell(&pairs);
        let mut digits = [0usize; 9];
        let mut n = 0;
        let mut cands = st.candidates(b, pos);
        while cands != 0 {
            digits[n] = cands.trailing_zeros() as usize;
            cands &= cands - 1;
            n += 1;
        }
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut digits[..n]);
        }
        for (k, &d) in digits[..n].iter().enumerate() {
            if k + 1 == n {
                st.place_lazy(b, pos, d);
                self.run(st);
                return;
            }
            let mut child = *st;
            child.place_lazy(b, pos, d);
            self.run(&mut child);
            if self.count >= self.limit {
                return;
            }
        }
    }
}

/// What the exact solver found for a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// The puzzle has no solution.
    None,
    /// The puzzle has exactly one solution.
    Unique(Grid),
    /// The puzzle has two or more solutions; one of them is given.
    Multiple(Grid),
}

impl Solutions {
    /// Number of solutions found, capped at 2 (2 meaning two or more).
    pub fn count(&self) -> usize {
        match self {
            Solutions::None => 0,
            Solutions::Unique(_) => 1,
            Solutions::Multiple(_) => 2,
        }
    }

    /// The unique solution, if there is exactly one.
    pub fn unique(self) -> Option<Grid> {
        match self {
            Solutions::Unique(g) => Some(g),
            _ => None,
        }
    }
}

/// Runs the search for at most `limit` solutions, with or without random branching.
fn search(p: &Puzzle, limit: usize, record: bool, rng: Option<&mut Rng>) -> (usize, Option<Grid>) {
    if limit == 0 {
        return (0, None);
    }
    let Ok(mut st) = State::from_puzzle(p) else {
        return (0, None);
    };
    let mut s = Branching {
        limit,
        record,
        count: 0,
        first: None,
        rng,
    };
    s.run(&mut st);
    (s.count.min(limit), s.first)
}

/// Counts the solutions of `p`, stopping at `limit` (so the result is at most `limit`).
pub fn count_solutions(p: &Puzzle, limit: usize) -> usize {
    search(p, limit, false, None).0
}

/// Solves `p`, telling whether it has no, one, or several solutions.
pub fn solve(p: &Puzzle) -> Solutions {
    match search(p, 2, true, None) {
        (0, _) => Solutions::None,
        (1, Some(g)) => Solutions::Unique(g),
        (_, Some(g)) => Solutions::Multiple(g),
        (_, None) => unreachable!("a counted solution is recorded"),
    }
}

/// True when `p`, which has the solution `solution`, has another one: one where the cells of
/// `free` do not all hold their digit of `solution`. (After removing the clues of `free` from
/// a puzzle with a unique solution, this tells whether it is still unique, searching only
/// for a solution that differs, which is faster than counting to two.)
pub fn has_other_solution(p: &Puzzle, solution: &Grid, free: &[crate::grid::Cell]) -> bool {
    let Ok(st) = State::from_puzzle(p) else {
        return false;
    };
    // Some freed cell differs from the solution: try each one in turn with its solution digit
    // excluded, the cells before it keeping theirs.
    let mut base = st;
    for (k, &c) in free.iter().enumerate() {
        let i = c.index();
        let (b, pos) = (i / 27, (i % 27) as u32);
        let d = solution.as_bytes()[i] as usize - 1;
        let mut trial = base;
        trial.f[3 * d + b] &= !(1 << pos);
        let mut s = Branching {
            limit: 1,
            record: false,
            count: 0,
            first: None,
            rng: None,
        };
        s.run(&mut trial);
        if s.count > 0 {
            return true;
        }
        if k + 1 < free.len() {
            base.place(b, pos, d);
        }
    }
    false
}

/// True when `p` has exactly one solution.
pub fn is_unique(p: &Puzzle) -> bool {
    count_solutions(p, 2) == 1
}

#[cfg(feature = "dev")]
/// Some solution of `p`, if it has any.
pub fn first_solution(p: &Puzzle) -> Option<Grid> {
    search(p, 1, true, None).1
}

/// A random solution of `p` (candidates are tried in random order), if it has any.
pub fn random_solution(p: &Puzzle, rng: &mut Rng) -> Option<Grid> {
    search(p, 1, true, Some(rng)).1
}

/// A random solved grid drawn with `rng`.
pub fn random_grid(rng: &mut Rng) -> Grid {
    // Fill the first row with a random permutation: every grid class is reachable and the
    // search then never backtracks far.
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    let mut cells = [0u8; 81];
    cells[..9].copy_from_slice(&digits);
    let p = Puzzle::from_bytes_unchecked(cells);
    random_solution(&p, rng).expect("a single filled row always completes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_table_examples() {
        // Full matrix: every block allowed.
        assert_eq!(COMPLEX[0x1FF], BAND);
        // Empty row 0: impossible.
        assert_eq!(COMPLEX[0x1F8], 0);
        // Identity permutation only.
        assert_eq!(COMPLEX[0b100_010_001], 0x7 | 0x7 << 12 | 0x7 << 24);
        // Row 0 only in stack 0; rows 1-2 anywhere: rows 1-2 lose stack 0.
        let m = 0b111_111_001;
        let mask = COMPLEX[m];
        assert_eq!(mask & 0x1FF, 0x7);
        assert_eq!((mask >> 9) & 0x1FF, 0x1F8);
        assert_eq!((mask >> 18) & 0x1FF, 0x1F8);
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        assert_eq!(count_solutions(&Puzzle::EMPTY, 5), 5);
        assert!(matches!(solve(&Puzzle::EMPTY), Solutions::Multiple(_)));
    }
}
