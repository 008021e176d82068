//! The Sudoku symmetry group: validity-preserving maps of puzzles and grids.
//!
//! A [`Transform`] is one of the 2 * 6^8 = 3,359,232 geometric maps (an optional transpose, then
//! a permutation of the bands, of the rows inside each band, of the stacks and of the columns
//! inside each stack) combined with one of the 9! relabellings of the digits.
//!
//! Applied to a position `input`, a transform `(t, rows, cols, digits)` gives
//!
//! ```text
//! g = if t { transpose(input) } else { input }
//! output[r][c] = digits[g[rows[r]][cols[c]]]          (digits[empty] = empty)
//! ```
//!
//! so `rows[r]` names the row of `g` that becomes row `r`. `rows` and `cols` always map bands to
//! bands (stacks to stacks), which is what keeps a valid grid valid.

use std::fmt;

use crate::grid::{Cell, Grid, Puzzle};
use crate::rng::Rng;

/// Number of geometric maps: transpose (2) times band, row-in-band, stack and column-in-stack
/// permutations (6^8).
pub const GEOMETRIC_MAPS: u32 = 2 * 6u32.pow(8);

/// Why a transform could not be built from its parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransformError {
    /// The row or column map is not a permutation, or moves a line out of its band or stack.
    #[error("{0} map is not a band-preserving permutation")]
    NotBandPreserving(&'static str),
    /// The digit map is not a permutation of 1-9.
    #[error("digit map is not a permutation of 1-9")]
    BadDigits,
}

/// A symmetry of Sudoku: geometric map plus digit relabelling. See the module docs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Transform {
    transpose: bool,
    rows: [u8; 9],
    cols: [u8; 9],
    /// `digits[v]` is the new label of digit `v`; `digits[0] == 0` (empty stays empty).
    digits: [u8; 10],
    /// `src[i]`: the input cell whose content lands in output cell `i` (derived).
    src: [u8; 81],
}

impl Transform {
    /// The identity.
    pub fn identity() -> Transform {
        Transform::build(
            false,
            [0, 1, 2, 3, 4, 5, 6, 7, 8],
            [0, 1, 2, 3, 4, 5, 6, 7, 8],
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        )
    }

    /// A transform from its parts: whether to transpose first, the row map (`rows[r]` is the row
    /// that becomes row `r`), the column map likewise, and the digit map (`digits[v - 1]` is the
    /// new label of digit `v`).
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 9],
    ) -> Result<Transform, TransformError> {
        if !band_preserving(&rows) {
            return Err(TransformError::NotBandPreserving("row"));
        }
        if !band_preserving(&cols) {
            return Err(TransformError::NotBandPreserving("column"));
        }
        let mut seen = 0u16;
        for &d in &digits {
            if !(1..=9).contains(&d) || seen & (1 << d) != 0 {
                return Err(TransformError::BadDigits);
            }
            seen |= 1 << d;
        }
        let mut dm = [0u8; 10];
        dm[1..].copy_from_slice(&digits);
        Ok(Transform::build(transpose, rows, cols, dm))
    }

    /// Builds from parts known to be valid, deriving the cell map.
    fn build(transpose: bool, rows: [u8; 9], cols: [u8; 9], digits: [u8; 10]) -> Transform {
        let mut src = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (x, y) = (rows[r], cols[c]);
                src[9 * r + c] = if transpose { 9 * y + x } else { 9 * x + y };
            }
        }
        Transform {
            transpose,
            rows,
            cols,
            digits,
            src,
        }
    }

    /// A transform drawn uniformly from the whole group (all 3,359,232 * 9! elements).
    pub fn random(rng: &mut Rng) -> Transform {
        let transpose = rng.coin();
        let rows = random_line_map(rng);
        let cols = random_line_map(rng);
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        let mut dm = [0u8; 10];
        dm[1..].copy_from_slice(&digits);
        Transform::build(transpose, rows, cols, dm)
    }

    /// A random geometric map with the identity digit map.
    pub fn random_geometric(rng: &mut Rng) -> Transform {
        let t = Transform::random(rng);
        Transform::build(t.transpose, t.rows, t.cols, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    /// Whether the map transposes first.
    pub fn transposes(&self) -> bool {
        self.transpose
    }

    /// The row map: `rows()[r]` is the row (after the optional transpose) that becomes row `r`.
    pub fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// The column map, like [`Transform::rows`].
    pub fn cols(&self) -> [u8; 9] {
        self.cols
    }

    /// The digit map: `digits()[v - 1]` is the new label of digit `v`.
    pub fn digits(&self) -> [u8; 9] {
        let mut d = [0u8; 9];
        d.copy_from_slice(&self.digits[1..]);
        d
    }

    /// The input cell whose content the transform moves to output cell `cell`.
    pub fn source_of(&self, cell: Cell) -> Cell {
        Cell::new(self.src[cell.index()]).expect("cell map stays on the board")
    }

    /// Applies the transform to raw cells (`0` empty, `1`-`9` digits).
    pub fn apply_bytes(&self, input: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (o, &s) in out.iter_mut().zip(self.src.iter()) {
            *o = self.digits[input[s as usize] as usize];
        }
        out
    }

    /// Applies the transform to a puzzle.
    pub fn apply(&self, p: &Puzzle) -> Puzzle {
        Puzzle::from_bytes_unchecked(self.apply_bytes(p.as_bytes()))
    }

    /// Applies the transform to a solved grid.
    pub fn apply_grid(&self, g: &Grid) -> Grid {
        Grid::from_puzzle(self.apply(g.as_puzzle())).expect("a symmetry keeps a grid full")
    }

    /// The transform that applies `self`, then `next`.
    pub fn then(&self, next: &Transform) -> Transform {
        let (transpose, rows, cols) = if next.transpose {
            (
                !self.transpose,
                next.rows.map(|r| self.cols[r as usize]),
                next.cols.map(|c| self.rows[c as usize]),
            )
        } else {
            (
                self.transpose,
                next.rows.map(|r| self.rows[r as usize]),
                next.cols.map(|c| self.cols[c as usize]),
            )
        };
        let digits = self.digits.map(|v| next.digits[v as usize]);
        Transform::build(transpose, rows, cols, digits)
    }

    /// The inverse transform: `t.then(&t.inverse())` is the identity.
    pub fn inverse(&self) -> Transform {
        let rows_inv = invert9(&self.rows);
        let cols_inv = invert9(&self.cols);
        let mut digits = [0u8; 10];
        for v in 1..10 {
            digits[self.digits[v] as usize] = v as u8;
        }
        if self.transpose {
            Transform::build(true, cols_inv, rows_inv, digits)
        } else {
            Transform::build(false, rows_inv, cols_inv, digits)
        }
    }

    /// True for the identity.
    pub fn is_identity(&self) -> bool {
        *self == Transform::identity()
    }
}

impl fmt::Debug for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Transform {
    /// A compact text form, e.g. `t:1 r:012345678 c:012345678 d:123456789`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |xs: &[u8]| xs.iter().map(|x| (b'0' + x) as char).collect::<String>();
        write!(
            f,
            "t:{} r:{} c:{} d:{}",
            u8::from(self.transpose),
            join(&self.rows),
            join(&self.cols),
            join(&self.digits[1..])
        )
    }
}

/// True when `map` is a permutation of 0-8 that sends each band (group of three) to a band.
fn band_preserving(map: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for &x in map {
        if x > 8 || seen & (1 << x) != 0 {
            return false;
        }
        seen |= 1 << x;
    }
    (0..3).all(|band| {
        let target = map[3 * band] / 3;
        (0..3).all(|i| map[3 * band + i] / 3 == target)
    })
}

/// A uniformly random band-preserving permutation of 0-8.
fn random_line_map(rng: &mut Rng) -> [u8; 9] {
    let mut bands = [0u8, 1, 2];
    rng.shuffle(&mut bands);
    let mut out = [0u8; 9];
    for (i, &band) in bands.iter().enumerate() {
        let mut lines = [0u8, 1, 2];
        rng.shuffle(&mut lines);
        for j in 0..3 {
            out[3 * i + j] = 3 * band + lines[j];
        }
    }
    out
}

/// The inverse of a permutation of 0-8.
fn invert9(p: &[u8; 9]) -> [u8; 9] {
    let mut inv = [0u8; 9];
    for (i, &x) in p.iter().enumerate() {
        inv[x as usize] = i as u8;
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_rejects_bad_maps() {
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let d = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert!(Transform::new(false, id, id, d).unwrap().is_identity());
        let cross_band = [0, 1, 3, 2, 4, 5, 6, 7, 8];
        assert_eq!(
            Transform::new(false, cross_band, id, d),
            Err(TransformError::NotBandPreserving("row"))
        );
        assert_eq!(
            Transform::new(false, id, [0, 0, 2, 3, 4, 5, 6, 7, 8], d),
            Err(TransformError::NotBandPreserving("column"))
        );
        assert_eq!(
            Transform::new(false, id, id, [1, 1, 3, 4, 5, 6, 7, 8, 9]),
            Err(TransformError::BadDigits)
        );
    }

    #[test]
    fn transpose_moves_cells() {
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let t = Transform::new(true, id, id, [1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
        // Output r1c2 (cell 1) comes from input r2c1 (cell 9).
        assert_eq!(t.source_of(Cell::new(1).unwrap()), Cell::new(9).unwrap());
    }
}
