//! The exact canonical form of a puzzle or grid (its "minlex" form) and its equivalence key.
//!
//! # Definition
//!
//! Over all 3,359,232 geometric maps (optional transpose, then band, row-in-band, stack and
//! column-in-stack permutations), relabel the digits in order of first appearance (reading row
//! by row) and write the 81 cells with `0` for empty; the canonical form is the smallest such
//! string. Empty sorts before every digit. Two puzzles are the same puzzle up to symmetry
//! exactly when their canonical forms are equal; the **key** is the blake3 hash of the
//! 81-character form.
//!
//! # Search
//!
//! The form is built row by row. A *candidate* is a partial map: the transpose flag, the input
//! rows chosen for the output rows so far (whole bands at a time), the column map once a row
//! with clues has fixed it, and the digit labels given so far. At each output row, every
//! candidate is extended with every allowed input row; only the extensions whose row (after
//! relabelling) equals the smallest one found survive. Ties are all kept, so puzzles and grids
//! with automorphisms come out right: at the end the survivors are exactly the maps that
//! produce the form, and their number is the automorphism count.
//!
//! Before any row is read, each extension gets a lower bound on its reading from clue masks
//! alone (the most empty cells its maps can show first, then the smallest label its first clue
//! can get); the extensions of the smallest bound are read first, and any whose bound exceeds
//! the best row found is dropped unread. Most of them are.
//!
//! While the rows so far are empty, the column map is left open. The first row with clues
//! fixes it up to the maps that order that row minimally, generated directly (stacks by
//! ascending clue count, empty cells first inside each stack) rather than by trying all 1,296.

use crate::grid::{Grid, Puzzle, PERMS3};
use crate::transform::Transform;

/// The canonical form of a puzzle or grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The canonical cells, row-major, 0 for empty.
    pub cells: [u8; 81],
    /// One map (with its relabelling) that turns the input into `cells`.
    pub transform: Transform,
    /// Number of symmetries that fix the input: geometric maps that produce the form, times
    /// the relabellings of the digits the input does not use.
    pub automorphisms: u64,
}

impl Canonical {
    /// The form as 81 characters, `0` for empty (the string the key hashes).
    pub fn to_line(&self) -> String {
        self.line_str(&mut [0; 81]).to_owned()
    }

    /// The form as 81 characters written into `buf` (no allocation), as a string.
    pub fn line_str<'b>(&self, buf: &'b mut [u8; 81]) -> &'b str {
        for (b, &v) in buf.iter_mut().zip(&self.cells) {
            *b = b'0' + v;
        }
        std::str::from_utf8(buf).expect("ASCII")
    }

    /// The equivalence key: blake3 of the 81-character form.
    pub fn key(&self) -> Key {
        Key(*blake3::hash(self.line_str(&mut [0; 81]).as_bytes()).as_bytes())
    }

    /// The form as a puzzle.
    pub fn puzzle(&self) -> Puzzle {
        Puzzle::from_bytes_unchecked(self.cells)
    }
}

/// A 32-byte equivalence key; displayed as lowercase hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// The key as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        self.hex_str(&mut [0; 64]).to_owned()
    }

    /// The key as 64 lowercase hex digits written into `buf` (no allocation), as a string.
    pub fn hex_str<'b>(&self, buf: &'b mut [u8; 64]) -> &'b str {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for (pair, &b) in buf.chunks_exact_mut(2).zip(&self.0) {
            pair[0] = HEX[(b >> 4) as usize];
            pair[1] = HEX[(b & 15) as usize];
        }
        std::str::from_utf8(buf).expect("ASCII")
    }

    /// The key of 64 hex digits (either case), as [`Key::to_hex`] writes it; `None` for any
    /// other text.
    pub fn from_hex(hex: &str) -> Option<Key> {
        let digits = hex.as_bytes();
        if digits.len() != 64 {
            return None;
        }
        let mut key = [0u8; 32];
        for (b, pair) in key.iter_mut().zip(digits.chunks_exact(2)) {
            let nibble = |c: u8| char::from(c).to_digit(16);
            *b = (nibble(pair[0])? << 4 | nibble(pair[1])?) as u8;
        }
        Some(Key(key))
    }

    /// The first 8 bytes, little-endian: a seed for random choices tied to the class.
    pub fn seed(&self) -> u64 {
        u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes"))
    }
}

/// A key serializes as its 64 lowercase hex digits.
impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.hex_str(&mut [0; 64]))
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.hex_str(&mut [0; 64]))
    }
}

/// The canonical form of `puzzle`.
pub fn canonical(puzzle: &Puzzle) -> Canonical {
    canonical_cells(puzzle.as_bytes())
}

/// The canonical form of a solution grid.
pub fn canonical_grid(grid: &Grid) -> Canonical {
    canonical_cells(grid.as_bytes())
}

/// The key of `puzzle`'s class.
pub fn key(puzzle: &Puzzle) -> Key {
    canonical(puzzle).key()
}

/// A column map: `cols[c]` is the input column that becomes column `c`.
type Cols = [u8; 9];

/// A partial map (see the module docs).
#[derive(Clone, Copy)]
struct Cand {
    /// 0 for the input, 1 for its transpose.
    t: u8,
    /// Input row of each output row chosen so far.
    rows: [u8; 9],
    /// Input bands used so far (bit b).
    bands: u8,
    /// Input rows used so far (bit r).
    used: u16,
    /// The input stack of each output stack, once a row with clues has fixed it.
    sigma: Option<[u8; 3]>,
    /// For each input stack, the orders of its columns still allowed (bit k: `PERMS3[k]`):
    /// the candidate stands for every map combining `sigma` (or any stack order while it is
    /// open) with one allowed order per stack. All of them give the rows so far, with the same
    /// labels.
    inner: [u8; 3],
    /// Label of each digit (index 1-9), 0 while unseen (16 bytes: compared as one word).
    labels: [u8; 16],
    /// The next label to give.
    next: u8,
}

/// The row `row` of the input under `cols`, relabelled with (and updating) `labels`.
#[inline]
fn relabel(row: &[u8; 9], cols: &Cols, labels: &mut [u8; 16], next: &mut u8) -> [u8; 9] {
    let mut out = [0u8; 9];
    for (o, &c) in out.iter_mut().zip(cols) {
        let v = row[c as usize];
        if v != 0 {
            if labels[v as usize] == 0 {
                labels[v as usize] = *next;
                *next += 1;
            }
            *o = labels[v as usize];
        }
    }
    out
}

fn canonical_cells(cells: &[u8; 81]) -> Canonical {
    // The input and its transpose, as rows.
    let mut g = [[[0u8; 9]; 9]; 2];
    for r in 0..9 {
        for c in 0..9 {
            g[0][r][c] = cells[9 * r + c];
            g[1][c][r] = cells[9 * r + c];
        }
    }
    let start = |t: u8| Cand {
        t,
        rows: [0; 9],
        bands: 0,
        used: 0,
        sigma: None,
        inner: [0x3F; 3],
        labels: [0; 16],
        next: 1,
    };
    let mut next_cands: Vec<Cand> = Vec::new();
    let mut form = [0u8; 81];
    let (mut cands, first) = if cells[..9].iter().all(|&v| v != 0) && is_full(cells) {
        // A full grid: every first row reads 123456789, whatever the column map; the second
        // row decides it (see `full_band_start`).
        let (cands, rows) = full_band_start(&g);
        form[..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        form[9..18].copy_from_slice(&rows);
        (cands, 2)
    } else {
        (vec![start(0), start(1)], 0)
    };
    let masks: [[u16; 9]; 2] =
        std::array::from_fn(|t| std::array::from_fn(|r| clue_mask(&g[t][r])));
    // (bound, candidate, input row) of every extension at this level.
    let mut pairs: Vec<(u64, u32, u8)> = Vec::new();
    for i in first..9 {
        let mut best: Option<u64> = None;
        next_cands.clear();
        pairs.clear();
        for (ci, cand) in cands.iter().enumerate() {
            for r in 0..9u8 {
                let band = r / 3;
                let allowed = if i % 3 == 0 {
                    cand.bands & (1 << band) == 0
                } else {
                    band == cand.rows[i - 1] / 3 && cand.used & (1 << r) == 0
                };
                if allowed {
                    let t = cand.t as usize;
                    let b = bound(cand, &g[t][r as usize], masks[t][r as usize]);
                    pairs.push((b, ci as u32, r));
                }
            }
        }
        // The extensions of the smallest bound first, so that the best row is found early;
        // then only those whose bound does not exceed it.
        let least = pairs.iter().map(|p| p.0).min().unwrap_or(0);
        let first_pass = pairs.iter().filter(|p| p.0 == least);
        for &(lower, ci, r) in first_pass.chain(pairs.iter().filter(|p| p.0 != least)) {
            if best.is_some_and(|b| lower > b) {
                continue;
            }
            let cand = &cands[ci as usize];
            let band = r / 3;
            let row = &g[cand.t as usize][r as usize];
            let mut base = *cand;
            base.rows[i] = r;
            base.bands |= 1 << band;
            base.used |= 1 << r;
            if lower == 0 {
                // An empty row reads the same under every map and labels nothing.
                consider(&mut best, &mut next_cands, 0, base);
                continue;
            }
            let mut refine = Refine {
                row,
                base: &base,
                best: &mut best,
                out: &mut next_cands,
            };
            refine.slot(0, 0, true, [0; 3], 0, base.inner, base.labels, base.next);
        }
        let best = best.expect("every level has a candidate");
        for j in 0..9 {
            form[9 * i + j] = (best >> (4 * (8 - j)) & 0xF) as u8;
        }
        std::mem::swap(&mut cands, &mut next_cands);
    }
    let used = {
        let mut m = 0u16;
        for &v in cells {
            m |= 1 << v;
        }
        (m >> 1).count_ones() as u64
    };
    let unused_relabellings: u64 = (1..=9 - used).product();
    let maps: u64 = cands
        .iter()
        .map(|c| {
            let inner: u64 = c.inner.iter().map(|m| m.count_ones() as u64).product();
            if c.sigma.is_some() {
                inner
            } else {
                6 * inner
            }
        })
        .sum();
    let first = &cands[0];
    Canonical {
        cells: form,
        transform: to_transform(first),
        automorphisms: maps * unused_relabellings,
    }
}

/// The cells of `row` holding a clue, bit c for column c.
fn clue_mask(row: &[u8; 9]) -> u16 {
    row.iter()
        .enumerate()
        .fold(0, |m, (c, &v)| if v != 0 { m | 1 << c } else { m })
}

/// `LEADING[m][allowed]`: the most empty cells a stack whose clue cells are `m` (bit i: its
/// column i) can show before its first clue, over the column orders in `allowed` (bit k:
/// `PERMS3[k]`).
const LEADING: [[u8; 64]; 8] = {
    let mut table = [[0u8; 64]; 8];
    let mut m = 0;
    while m < 8 {
        let mut allowed = 1;
        while allowed < 64 {
            let mut most = 0;
            let mut k = 0;
            while k < 6 {
                if allowed & (1 << k) != 0 {
                    let mut lead = 0;
                    while lead < 3 && m & (1 << PERMS3[k][lead]) == 0 {
                        lead += 1;
                    }
                    if lead > most {
                        most = lead;
                    }
                }
                k += 1;
            }
            table[m][allowed] = most as u8;
            allowed += 1;
        }
        m += 1;
    }
    table
};

/// A lower bound on the packed reading (see [`Refine::best`]) of `row`, whose clue cells are
/// `mask`, under the maps of `cand`: the most empty cells any of them shows first, then the
/// smallest label any clue of the stack holding the first clue can have. 0 exactly for an
/// empty row. Comparing bounds costs no relabelling, so extensions that cannot tie the best
/// row are dropped before they are read.
fn bound(cand: &Cand, row: &[u8; 9], mask: u16) -> u64 {
    if mask == 0 {
        return 0;
    }
    let stack = |st: u8| (mask >> (3 * st) & 7) as usize;
    let (lead, first) = match cand.sigma {
        Some(sigma) => {
            let mut lead = 0;
            let mut first = sigma[2];
            for st in sigma {
                let m = stack(st);
                lead += LEADING[m][cand.inner[st as usize] as usize] as u32;
                if m != 0 {
                    first = st;
                    break;
                }
            }
            (lead, first)
        }
        None => {
            // Any stack order: empty stacks first, then the one with the fewest clues.
            let (mut empty, mut fewest, mut first) = (0, 3, 0);
            for st in 0..3u8 {
                let n = stack(st).count_ones();
                if n == 0 {
                    empty += 1;
                } else if n < fewest {
                    (fewest, first) = (n, st);
                }
            }
            (3 * empty + 3 - fewest, first)
        }
    };
    let label = row[3 * first as usize..3 * first as usize + 3]
        .iter()
        .filter(|&&v| v != 0)
        .map(|&v| match cand.labels[v as usize] {
            0 => cand.next,
            l => l,
        })
        .min()
        .unwrap_or(cand.next);
    (label as u64) << (4 * (8 - lead))
}

/// True when every cell is filled.
fn is_full(cells: &[u8; 81]) -> bool {
    cells.iter().all(|&v| v != 0)
}

/// The first two output rows of a full grid. Whatever the column map C, the first row reads
/// 123456789, so a digit's label is its column's output position + 1, and the second row reads
/// (C^-1 p C)(j) + 1, where p sends each input column to the column of the first row holding
/// the digit the second row has there. For every choice of the first two rows, the column maps
/// minimizing that are found column by column: choosing C(j) forces where p(C(j)) must go (the
/// smallest free position its stack allows), so only genuine ties branch.
fn full_band_start(g: &[[[u8; 9]; 9]; 2]) -> (Vec<Cand>, [u8; 9]) {
    // The smallest (C^-1 p C) so far, packed as in `Conjugate::best`.
    let mut best = u64::MAX;
    let mut out: Vec<Cand> = Vec::new();
    let mut found: Vec<Cols> = Vec::new();
    for t in 0..2u8 {
        for r0 in 0..9u8 {
            let b = r0 / 3;
            for r1 in 3 * b..3 * b + 3 {
                if r1 == r0 {
                    continue;
                }
                let (row0, row1) = (&g[t as usize][r0 as usize], &g[t as usize][r1 as usize]);
                let mut where0 = [0u8; 10];
                for (c, &v) in row0.iter().enumerate() {
                    where0[v as usize] = c as u8;
                }
                let p: [u8; 9] = std::array::from_fn(|c| where0[row1[c] as usize]);
                found.clear();
                let mut search = Conjugate {
                    p,
                    pos: [u8::MAX; 9],
                    cols: [u8::MAX; 9],
                    stack_of: [u8::MAX; 3],
                    best: &mut best,
                    found: &mut found,
                    improved: false,
                };
                search.dfs(0, 0);
                if search.improved {
                    out.clear();
                }
                for &cols in &found {
                    let mut labels = [0u8; 16];
                    let mut next = 1;
                    relabel(row0, &cols, &mut labels, &mut next);
                    let mut rows = [0u8; 9];
                    rows[0] = r0;
                    rows[1] = r1;
                    let sigma: [u8; 3] = std::array::from_fn(|k| cols[3 * k] / 3);
                    let mut inner = [0u8; 3];
                    for (k, &st) in sigma.iter().enumerate() {
                        let order: [usize; 3] =
                            std::array::from_fn(|i| (cols[3 * k + i] - 3 * st) as usize);
                        let o = PERMS3
                            .iter()
                            .position(|p| *p == order)
                            .expect("a permutation");
                        inner[st as usize] = 1 << o;
                    }
                    out.push(Cand {
                        t,
                        rows,
                        bands: 1 << b,
                        used: 1 << r0 | 1 << r1,
                        sigma: Some(sigma),
                        inner,
                        labels,
                        next,
                    });
                }
            }
        }
    }
    let row: [u8; 9] = std::array::from_fn(|j| (best >> (4 * (8 - j)) & 0xF) as u8 + 1);
    (out, row)
}

/// The depth-first search of `full_band_start` for one permutation `p`.
struct Conjugate<'a> {
    p: [u8; 9],
    /// Output position of each input column, `u8::MAX` while free.
    pos: [u8; 9],
    /// Input column of each output position, `u8::MAX` while free.
    cols: [u8; 9],
    /// Input stack of each output stack, `u8::MAX` while free.
    stack_of: [u8; 3],
    /// The smallest (C^-1 p C) found so far, over all searches, packed: 4 bits per position,
    /// the first highest (`u64::MAX` before any).
    best: &'a mut u64,
    /// The column maps reaching `best` in this search.
    found: &'a mut Vec<Cols>,
    /// Whether this search lowered `best` (the earlier searches' maps are then worse).
    improved: bool,
}

impl Conjugate<'_> {
    /// Places input column `c` at output position `j`; false if that breaks the stacks.
    fn assign(&mut self, c: u8, j: u8) -> bool {
        let (os, is) = (j / 3, c / 3);
        if self.stack_of[os as usize] == u8::MAX {
            if self.stack_of.contains(&is) {
                return false;
            }
            self.stack_of[os as usize] = is;
        } else if self.stack_of[os as usize] != is {
            return false;
        }
        self.pos[c as usize] = j;
        self.cols[j as usize] = c;
        true
    }

    /// The smallest free output position input column `c` may take.
    fn smallest_free(&self, c: u8) -> Option<u8> {
        let is = c / 3;
        match self.stack_of.iter().position(|&s| s == is) {
            Some(os) => {
                (3 * os as u8..3 * os as u8 + 3).find(|&q| self.cols[q as usize] == u8::MAX)
            }
            None => (0..3u8)
                .find(|&os| self.stack_of[os as usize] == u8::MAX)
                .map(|os| 3 * os),
        }
    }

    /// Extends the map from output position `j`, `sigma` (packed like `best`) holding the
    /// positions before it.
    fn dfs(&mut self, j: usize, sigma: u64) {
        if j == 9 {
            if sigma < *self.best {
                *self.best = sigma;
                self.found.clear();
                self.improved = true;
            }
            if sigma == *self.best {
                self.found.push(self.cols);
            }
            return;
        }
        let forced = self.cols[j] != u8::MAX;
        let mut choices: u16 = if forced {
            1 << self.cols[j]
        } else {
            (0..9)
                .filter(|&c| self.pos[c] == u8::MAX)
                .fold(0, |m, c| m | 1 << c)
        };
        let shift = 4 * (8 - j);
        while choices != 0 {
            let c = choices.trailing_zeros() as u8;
            choices &= choices - 1;
            let saved = (self.pos, self.cols, self.stack_of);
            if !forced && !self.assign(c, j as u8) {
                continue;
            }
            let d = self.p[c as usize];
            let q = if self.pos[d as usize] != u8::MAX {
                Some(self.pos[d as usize])
            } else {
                self.smallest_free(d).filter(|&q| self.assign(d, q))
            };
            if let Some(q) = q {
                let s = sigma | (q as u64) << shift;
                // Prune: the prefix must not exceed the best one.
                if s >> shift <= *self.best >> shift {
                    self.dfs(j + 1, s);
                }
            }
            (self.pos, self.cols, self.stack_of) = saved;
        }
    }
}

/// The refinement of one candidate by one input row: over the candidate's maps, the smallest
/// reading of the row, and the candidates (narrower map sets) that give it. Output stacks are
/// filled in order; for each, every allowed input stack and column order is read, and the
/// orders that read the same with the same new labels stay together as one set.
struct Refine<'a> {
    row: &'a [u8; 9],
    base: &'a Cand,
    /// The smallest row so far, packed: 4 bits per cell, the first cell highest, so that
    /// integer order is the strings' order.
    best: &'a mut Option<u64>,
    out: &'a mut Vec<Cand>,
}

impl Refine<'_> {
    /// Fills output stack `k`, the row read so far being `s` (packed, see `best`) and
    /// `tight` telling whether it equals the best row's prefix.
    #[allow(clippy::too_many_arguments)]
    fn slot(
        &mut self,
        k: usize,
        s: u64,
        tight: bool,
        sigma: [u8; 3],
        used: u8,
        inner: [u8; 3],
        labels: [u8; 16],
        next: u8,
    ) {
        if k == 3 {
            let mut c = *self.base;
            c.sigma = Some(sigma);
            c.inner = inner;
            c.labels = labels;
            c.next = next;
            consider(self.best, self.out, s, c);
            return;
        }
        let stacks: &[u8] = match &self.base.sigma {
            Some(fixed) => std::slice::from_ref(&fixed[k]),
            None => &[0, 1, 2],
        };
        let shift = 4 * (6 - 3 * k); // where this stack's three cells go in the packed row
        for &st in stacks {
            if used & (1 << st) != 0 {
                continue;
            }
            // Group the allowed orders of this stack by what they read and label.
            let mut groups: [(u16, [u8; 16], u8, u8); 6] = [(0, [0; 16], 0, 0); 6];
            let mut n = 0;
            let mut m = inner[st as usize];
            let cells = &self.row[3 * st as usize..3 * st as usize + 3];
            while m != 0 {
                let o = m.trailing_zeros() as usize;
                m &= m - 1;
                let (mut l, mut nx) = (labels, next);
                let mut piece = 0u16;
                for &col in &PERMS3[o] {
                    let v = cells[col] as usize;
                    let x = if v != 0 {
                        if l[v] == 0 {
                            l[v] = nx;
                            nx += 1;
                        }
                        l[v]
                    } else {
                        0
                    };
                    piece = piece << 4 | x as u16;
                }
                match groups[..n]
                    .iter_mut()
                    .find(|g| g.0 == piece && u128::from_ne_bytes(g.1) == u128::from_ne_bytes(l))
                {
                    Some(g) => g.3 |= 1 << o,
                    None => {
                        groups[n] = (piece, l, nx, 1 << o);
                        n += 1;
                    }
                }
            }
            for &(piece, l, nx, mask) in &groups[..n] {
                let mut now_tight = false;
                if tight {
                    if let Some(b) = *self.best {
                        let bp = (b >> shift & 0xFFF) as u16;
                        if piece > bp {
                            continue;
                        }
                        now_tight = piece == bp;
                    }
                }
                let mut sg = sigma;
                sg[k] = st;
                let mut inn = inner;
                inn[st as usize] = mask;
                let s2 = s | (piece as u64) << shift;
                self.slot(k + 1, s2, now_tight, sg, used | 1 << st, inn, l, nx);
            }
        }
    }
}

/// Keeps `cand` if its row `s` is the smallest so far (dropping the others) or ties with it.
#[inline]
fn consider(best: &mut Option<u64>, next: &mut Vec<Cand>, s: u64, cand: Cand) {
    match best {
        Some(b) if s > *b => {}
        Some(b) if s == *b => next.push(cand),
        _ => {
            *best = Some(s);
            next.clear();
            next.push(cand);
        }
    }
}

/// The transform of a complete candidate (unseen digits get the remaining labels in order).
fn to_transform(c: &Cand) -> Transform {
    let sigma = c.sigma.unwrap_or([0, 1, 2]);
    let mut cols = [0u8; 9];
    for (slot, &st) in sigma.iter().enumerate() {
        let order = PERMS3[c.inner[st as usize].trailing_zeros() as usize];
        for k in 0..3 {
            cols[3 * slot + k] = 3 * st + order[k] as u8;
        }
    }
    let mut labels = c.labels;
    let mut next = c.next;
    for l in labels.iter_mut().skip(1) {
        if *l == 0 {
            *l = next;
            next += 1;
        }
    }
    let digits: [u8; 9] = std::array::from_fn(|d| labels[d + 1]);
    Transform::new(c.t == 1, c.rows, cols, digits).expect("a complete candidate is a valid map")
}

/// The canonical form by brute force: every one of the 3,359,232 maps, each relabelled. Slow
/// (about a second per position); the reference the tests hold [`canonical`] to.
pub fn canonical_brute_force(cells: &[u8; 81]) -> ([u8; 81], u64) {
    let mut best = [10u8; 81];
    let mut count = 0u64;
    let lines = all_line_maps();
    let mut g = [[[0u8; 9]; 9]; 2];
    for r in 0..9 {
        for c in 0..9 {
            g[0][r][c] = cells[9 * r + c];
            g[1][c][r] = cells[9 * r + c];
        }
    }
    for grid in &g {
        for rows in &lines {
            for cols in &lines {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut s = [0u8; 81];
                let mut order = std::cmp::Ordering::Equal;
                for i in 0..81 {
                    let v = grid[rows[i / 9] as usize][cols[i % 9] as usize];
                    let x = if v == 0 {
                        0
                    } else {
                        if labels[v as usize] == 0 {
                            labels[v as usize] = next;
                            next += 1;
                        }
                        labels[v as usize]
                    };
                    s[i] = x;
                    if order == std::cmp::Ordering::Equal {
                        order = x.cmp(&best[i]);
                        if order == std::cmp::Ordering::Greater {
                            break;
                        }
                    }
                }
                match order {
                    std::cmp::Ordering::Less => {
                        best = s;
                        count = 1;
                    }
                    std::cmp::Ordering::Equal => count += 1,
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
    }
    let mut m = 0u16;
    for &v in cells {
        m |= 1 << v;
    }
    let used = (m >> 1).count_ones() as u64;
    (best, count * (1..=9 - used).product::<u64>())
}

/// All 1,296 band-preserving line maps.
fn all_line_maps() -> Vec<[u8; 9]> {
    let mut out = Vec::with_capacity(1296);
    for b in PERMS3 {
        for p0 in PERMS3 {
            for p1 in PERMS3 {
                for p2 in PERMS3 {
                    let inner = [p0, p1, p2];
                    let mut m = [0u8; 9];
                    for slot in 0..3 {
                        for k in 0..3 {
                            m[3 * slot + k] = (3 * b[slot] + inner[slot][k]) as u8;
                        }
                    }
                    out.push(m);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn keys_round_trip_through_hex() {
        let k = key(&HARD.parse().unwrap());
        assert_eq!(Key::from_hex(&k.to_hex()), Some(k));
        assert_eq!(Key::from_hex(&k.to_hex().to_uppercase()), Some(k));
        assert_eq!(
            serde_json::to_string(&k).unwrap(),
            format!("\"{}\"", k.to_hex())
        );
        for bad in ["", "00", &"g".repeat(64), &"0".repeat(63), &"0".repeat(65)] {
            assert_eq!(Key::from_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn transform_produces_the_form_and_forms_are_invariant() {
        let p: Puzzle = HARD.parse().unwrap();
        let c = canonical(&p);
        assert_eq!(c.transform.apply(&p).as_bytes(), &c.cells);
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let t = Transform::random(&mut rng);
            let q = t.apply(&p);
            let cq = canonical(&q);
            assert_eq!(cq.cells, c.cells);
            assert_eq!(cq.automorphisms, c.automorphisms);
            assert_eq!(cq.transform.apply(&q).as_bytes(), &c.cells);
        }
        assert_eq!(canonical(&c.puzzle()).cells, c.cells);
    }

    #[test]
    fn empty_grid() {
        let c = canonical(&Puzzle::EMPTY);
        assert_eq!(c.cells, [0; 81]);
        assert_eq!(c.automorphisms, 3_359_232 * 362_880);
    }
}
