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

#[cfg(feature = "dev")]
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
    /// The text is not the form [`Transform`]'s `Display` writes.
    #[error("bad transform {0:?}: expected t:0 r:012345678 c:012345678 d:123456789")]
    Form(String),
    /// The text has that form but its maps are not a symmetry.
    #[error("bad transform {text:?}: expected t:0 r:012345678 c:012345678 d:123456789: {why}")]
    Maps {
        /// The text.
        text: String,
        /// Why its maps are not a symmetry.
        why: Box<TransformError>,
    },
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

    /// The transform's number among the group's 2 * 6^8 * 9! = 1,218,998,108,160 elements (below
    /// 2^41; the bank stores it in 6 bytes):
    ///
    /// ```text
    /// rank = ((t * 1296 + rows) * 1296 + cols) * 9! + digits
    /// rows = bands * 216 + in_band[0] * 36 + in_band[1] * 6 + in_band[2]    (each a 0..6 rank)
    /// ```
    ///
    /// where `bands` ranks the order of the bands and `in_band[i]` the order of the rows inside
    /// the i-th output band (permutations ranked in lexicographic order), `cols` likewise, and
    /// `digits` ranks the digit map among the 9! permutations. [`Transform::from_rank`] inverts it.
    pub fn rank(&self) -> u64 {
        let t = u64::from(self.transpose);
        let digits = perm_rank(&self.digits[1..].iter().map(|d| d - 1).collect::<Vec<_>>());
        ((t * 1296 + line_map_rank(&self.rows)) * 1296 + line_map_rank(&self.cols)) * FACT9 + digits
    }

    /// The transform of number `rank` ([`Transform::rank`]); `None` past the group's size.
    pub fn from_rank(rank: u64) -> Option<Transform> {
        if rank >= 2 * 1296 * 1296 * FACT9 {
            return None;
        }
        let digits = perm_unrank(rank % FACT9, 9);
        let rest = rank / FACT9;
        let cols = line_map_unrank(rest % 1296);
        let rows = line_map_unrank(rest / 1296 % 1296);
        let transpose = rest / (1296 * 1296) == 1;
        let mut dm = [0u8; 10];
        for (v, d) in digits.iter().enumerate() {
            dm[v + 1] = d + 1;
        }
        Some(Transform::build(transpose, rows, cols, dm))
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

impl std::str::FromStr for Transform {
    type Err = TransformError;
    /// The text form [`Transform`]'s `Display` writes: `t:1 r:012345678 c:012345678 d:123456789`.
    fn from_str(s: &str) -> Result<Transform, TransformError> {
        let bad = || TransformError::Form(s.to_string());
        let mut parts = s.split_whitespace();
        let mut field = |name: &str| -> Result<Vec<u8>, TransformError> {
            let p = parts.next().ok_or_else(bad)?;
            let v = p.strip_prefix(name).ok_or_else(bad)?;
            v.bytes()
                .map(|b| b.checked_sub(b'0').filter(|d| *d <= 9).ok_or_else(bad))
                .collect()
        };
        let t = field("t:")?;
        let (r, c, d) = (field("r:")?, field("c:")?, field("d:")?);
        let nine = |v: Vec<u8>| <[u8; 9]>::try_from(v).map_err(|_| bad());
        if t.len() != 1 || t[0] > 1 || parts.next().is_some() {
            return Err(bad());
        }
        Transform::new(t[0] == 1, nine(r)?, nine(c)?, nine(d)?).map_err(|e| TransformError::Maps {
            text: s.to_string(),
            why: Box::new(e),
        })
    }
}

/// 9!, the number of digit maps.
const FACT9: u64 = 362_880;

/// The lexicographic rank of a permutation of `0..p.len()`.
fn perm_rank(p: &[u8]) -> u64 {
    let mut rank = 0u64;
    for (i, &x) in p.iter().enumerate() {
        let smaller_after = p[i + 1..].iter().filter(|&&y| y < x).count() as u64;
        rank = rank * (p.len() - i) as u64 + smaller_after;
    }
    rank
}

/// The permutation of `0..n` of lexicographic rank `rank` (below n!).
fn perm_unrank(mut rank: u64, n: usize) -> Vec<u8> {
    let mut digits = vec![0u64; n];
    for (i, d) in digits.iter_mut().enumerate().rev() {
        let base = (n - i) as u64;
        *d = rank % base;
        rank /= base;
    }
    let mut left: Vec<u8> = (0..n as u8).collect();
    digits.iter().map(|&d| left.remove(d as usize)).collect()
}

/// The rank (0..1296) of a band-preserving line map: the band order, then the line order
/// inside each output band.
fn line_map_rank(map: &[u8; 9]) -> u64 {
    let bands = [map[0] / 3, map[3] / 3, map[6] / 3];
    (0..3).fold(perm_rank(&bands), |acc, b| {
        acc * 6 + perm_rank(&[map[3 * b] % 3, map[3 * b + 1] % 3, map[3 * b + 2] % 3])
    })
}

/// The line map of rank `rank` (below 1296), inverting [`line_map_rank`].
fn line_map_unrank(rank: u64) -> [u8; 9] {
    let bands = perm_unrank(rank / 216, 3);
    let mut out = [0u8; 9];
    for b in 0..3 {
        let lines = perm_unrank(rank / 6u64.pow(2 - b as u32) % 6, 3);
        for j in 0..3 {
            out[3 * b + j] = 3 * bands[b] + lines[j];
        }
    }
    out
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

    #[test]
    fn ranks_number_the_group() {
        assert_eq!(Transform::identity().rank(), 0);
        let last = 2 * 1296 * 1296 * FACT9 - 1;
        let t = Transform::from_rank(last).unwrap();
        assert_eq!(t.rank(), last);
        assert_eq!(t.to_string(), "t:1 r:876543210 c:876543210 d:987654321");
        assert!(Transform::from_rank(last + 1).is_none());
        assert!(last < 1 << 41);
    }

    #[test]
    fn text_form_parses_back_and_rejects_bad_text() {
        let t: Transform = "t:1 r:345201687 c:354687120 d:387951642".parse().unwrap();
        assert_eq!(t.to_string(), "t:1 r:345201687 c:354687120 d:387951642");
        for bad in [
            "",
            "t:2 r:012345678 c:012345678 d:123456789",
            "t:0 r:0123 c:012345678 d:123456789",
            "t:0 r:012345678 c:012345678 d:123456789 x",
            "t:0 r:102345678 c:012345678 d:113456789",
        ] {
            assert!(bad.parse::<Transform>().is_err(), "{bad:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn rank_round_trips(seed in proptest::prelude::any::<u64>()) {
            let t = Transform::random(&mut Rng::new(seed));
            let r = t.rank();
            proptest::prop_assert!(r < 2 * 1296 * 1296 * FACT9);
            proptest::prop_assert_eq!(Transform::from_rank(r), Some(t));
            proptest::prop_assert_eq!(t.to_string().parse::<Transform>(), Ok(t));
        }
    }
}
