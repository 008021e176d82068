//! Orienting a seed for a symmetric layout: which of its symmetries (transforms) a job draws
//! so that its reserved cells share orbits with as few other cells as can be. Each such cell
//! is one the clue selection may not reveal (its orbit holds a reserved cell), and a puzzle
//! left without one solution by them gets reserved cells revealed, which makes it easier: a
//! seed's symmetric puzzles keep its difficulty only when this count is small.
//!
//! A half-turn or a mirror acts on rows and columns apart, so what a transform makes of it,
//! seen from the seed, is a pairing of the seed's rows and one of its columns: an involution
//! of the lines that maps bands to bands ([`FLIPS`] of them: one band kept and one of its
//! lines fixed, the other two bands paired line to line). Every pairing is tried, so the
//! transform found is the best of all 3,359,232 (the cost of a pairing is read from the
//! reserved cells as nine row masks, a few microseconds for all). A quarter-turn and the
//! diagonal mix rows with columns: for them the best of [`TRIES`] random transforms is taken.
//!
//! ```text
//!  a half-turn, output rows r <-> 8 - r:    seen from the seed, a line involution
//!  band 0  r0 r1 r2  <->  r8 r7 r6  band 2  (the bands paired: 6 ways to match their lines)
//!  band 1  r3 r4 r5  <->  r5 r4 r3          (one line fixed: 3 ways; the kept band: 3 ways)
//! ```

use crate::cellset::CellSet;
use crate::generate::Symmetry;
use crate::grid::Cell;
use crate::rng::Rng;
use crate::transform::Transform;
use std::sync::OnceLock;

/// The line involutions that maps of lines make of the flip (3 kept bands x 3 fixed lines x 6
/// pairings of the other two bands' lines).
pub const FLIPS: usize = 54;

/// Random transforms tried for a symmetry that mixes rows with columns.
pub const TRIES: usize = 64;

/// A line involution and the line maps that make it of the flip: a map `m` (output line `i`
/// shows the seed's line `m[i]`) pairs the seed's lines `m[i]` and `m[8 - i]`.
struct Flip {
    pairs: [u8; 9],
    maps: Vec<[u8; 9]>,
}

/// The [`FLIPS`] line involutions, each with its 24 maps (all 1,296 band-preserving maps).
fn flips() -> &'static [Flip] {
    static FLIPS_MADE: OnceLock<Vec<Flip>> = OnceLock::new();
    FLIPS_MADE.get_or_init(|| {
        let mut out: Vec<Flip> = Vec::new();
        for m in line_maps() {
            let mut pairs = [0u8; 9];
            for i in 0..9 {
                pairs[m[i] as usize] = m[8 - i];
            }
            match out.iter_mut().find(|f| f.pairs == pairs) {
                Some(f) => f.maps.push(m),
                None => out.push(Flip {
                    pairs,
                    maps: vec![m],
                }),
            }
        }
        out
    })
}

/// Every band-preserving map of 9 lines: the bands permuted, the lines within each.
fn line_maps() -> Vec<[u8; 9]> {
    use crate::grid::PERMS3 as PERMS;
    let mut out = Vec::with_capacity(1296);
    for bands in PERMS {
        for a in PERMS {
            for b in PERMS {
                for c in PERMS {
                    let mut m = [0u8; 9];
                    for (i, lines) in [a, b, c].iter().enumerate() {
                        for j in 0..3 {
                            m[3 * i + j] = (3 * bands[i] + lines[j]) as u8;
                        }
                    }
                    out.push(m);
                }
            }
        }
    }
    out
}

/// A random map of the involution `f` (of a random involution: a random band-preserving map).
fn map_of(f: &Flip, rng: &mut Rng) -> [u8; 9] {
    f.maps[rng.index(f.maps.len())]
}

/// The cells of `set` as nine row masks (bit `c` of mask `r`: cell r, c).
fn row_masks(set: CellSet) -> [u16; 9] {
    let mut rows = [0u16; 9];
    for c in set.iter() {
        rows[c.row() as usize] |= 1 << c.col();
    }
    rows
}

/// `mask`'s columns moved by the involution `pairs`.
fn paired(mask: u16, pairs: &[u8; 9]) -> u16 {
    (0..9)
        .filter(|&c| mask & (1 << c) != 0)
        .fold(0, |m, c| m | (1 << pairs[c]))
}

/// The rows of `reserved` with their columns moved by the involution `cols` (`None`: kept).
fn moved(reserved: &[u16; 9], cols: Option<&[u8; 9]>) -> [u16; 9] {
    cols.map_or(*reserved, |p| reserved.map(|m| paired(m, p)))
}

/// The cells of `reserved` (in the seed's coordinates, as row masks) whose image under the
/// involution of rows `rows` (`None`: kept) and of the columns that made `moved` (its rows
/// with their columns moved) is not reserved: what a transform of that involution costs.
fn cost(reserved: &[u16; 9], moved: &[u16; 9], rows: Option<&[u8; 9]>) -> u32 {
    (0..9)
        .map(|r| {
            let to = rows.map_or(r, |p| p[r] as usize);
            (moved[r] & !reserved[to]).count_ones()
        })
        .sum()
}

/// A transform of a seed with reserved cells `reserved` for a layout of `symmetry`, uniformly
/// among the best found (see the module's documentation), with random digits; for no symmetry
/// a random transform.
pub fn orient(reserved: CellSet, symmetry: Symmetry, rng: &mut Rng) -> Transform {
    match symmetry {
        Symmetry::None => Transform::random(rng),
        Symmetry::Rotate180 | Symmetry::Mirror => by_lines(reserved, symmetry, rng),
        Symmetry::Rotate90 | Symmetry::Diagonal => by_tries(reserved, symmetry, rng),
    }
}

/// [`orient`] for a symmetry that acts on rows and columns apart: every line involution
/// tried.
fn by_lines(reserved: CellSet, symmetry: Symmetry, rng: &mut Rng) -> Transform {
    let masks = row_masks(reserved);
    let all = flips();
    // (transposed, the seed's row involution, its column involution) of the least cost.
    let mut best: Vec<(bool, Option<usize>, Option<usize>)> = Vec::new();
    let mut least = u32::MAX;
    let mut consider = |c: u32, choice| {
        if c < least {
            least = c;
            best.clear();
        }
        if c == least {
            best.push(choice);
        }
    };
    if symmetry == Symmetry::Rotate180 {
        // Both lines flipped: transposed or not, a transform makes every pair of involutions.
        for (j, cols) in all.iter().enumerate() {
            let moved = moved(&masks, Some(&cols.pairs));
            for (i, rows) in all.iter().enumerate() {
                consider(
                    cost(&masks, &moved, Some(&rows.pairs)),
                    (false, Some(i), Some(j)),
                );
            }
        }
    } else {
        // A mirror flips the output's columns: the seed's columns, or (transposed) its rows.
        for (j, f) in all.iter().enumerate() {
            let by_cols = moved(&masks, Some(&f.pairs));
            consider(cost(&masks, &by_cols, None), (false, None, Some(j)));
            consider(cost(&masks, &masks, Some(&f.pairs)), (true, Some(j), None));
        }
    }
    let (mut transposed, rows, cols) = best[rng.index(best.len())];
    if symmetry == Symmetry::Rotate180 {
        transposed = rng.coin();
    }
    let seed_rows = map_of(&all[rows.unwrap_or_else(|| rng.index(FLIPS))], rng);
    let seed_cols = map_of(&all[cols.unwrap_or_else(|| rng.index(FLIPS))], rng);
    // Untransposed, the output's rows show the seed's rows; transposed, its columns do.
    let (out_rows, out_cols) = if transposed {
        (seed_cols, seed_rows)
    } else {
        (seed_rows, seed_cols)
    };
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    Transform::new(transposed, out_rows, out_cols, digits).expect("band-preserving maps")
}

/// [`orient`] for a symmetry that mixes rows with columns: the best of [`TRIES`] random
/// transforms (the first of the least cost).
fn by_tries(reserved: CellSet, symmetry: Symmetry, rng: &mut Rng) -> Transform {
    let cost = |t: &Transform| shared(reserved, symmetry, t);
    let mut t = Transform::random(rng);
    let mut least = cost(&t);
    for _ in 1..TRIES {
        if least == 0 {
            break;
        }
        let u = Transform::random(rng);
        let c = cost(&u);
        if c < least {
            (t, least) = (u, c);
        }
    }
    t
}

/// The cells of `reserved` (the seed's) that `t` puts where their orbit under `symmetry`
/// holds a cell not reserved: the empty cells a symmetric clue selection cannot reveal.
pub fn shared(reserved: CellSet, symmetry: Symmetry, t: &Transform) -> u32 {
    let r: CellSet = Cell::all()
        .filter(|&c| reserved.contains(t.source_of(c)))
        .collect();
    (symmetry.closure(r) - r).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flips_are_54_involutions_of_24_maps() {
        let all = flips();
        assert_eq!(all.len(), FLIPS);
        for f in all {
            assert_eq!(f.maps.len(), 24);
            for i in 0..9 {
                assert_eq!(f.pairs[f.pairs[i] as usize] as usize, i, "an involution");
                let band = |j: usize| f.pairs[j] / 3;
                assert_eq!(band(i), band(3 * (i / 3)), "bands go to bands");
            }
            assert_eq!((0..9).filter(|&i| f.pairs[i] as usize == i).count(), 1);
        }
    }

    /// The cost [`by_lines`] computes is what the transform it returns costs, and no random
    /// transform costs less.
    #[test]
    fn the_best_orientation_is_the_least_cost_of_all() {
        let mut rng = Rng::new(11);
        for symmetry in [Symmetry::Rotate180, Symmetry::Mirror] {
            for round in 0..40 {
                let n = 6 + round % 30;
                let mut reserved = CellSet::EMPTY;
                while reserved.len() < n {
                    reserved.insert(Cell::new(rng.below(81) as u8).unwrap());
                }
                let t = orient(reserved, symmetry, &mut rng);
                let found = shared(reserved, symmetry, &t);
                for _ in 0..300 {
                    let u = Transform::random(&mut rng);
                    assert!(
                        shared(reserved, symmetry, &u) >= found,
                        "{symmetry} {round}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_symmetric_set_costs_nothing() {
        let mut rng = Rng::new(5);
        // Reserved cells already symmetric under a half-turn, moved by a random transform.
        let base: CellSet = [(0u8, 1u8), (8, 7), (2, 4), (6, 4), (4, 4), (3, 0), (5, 8)]
            .iter()
            .map(|&(r, c)| Cell::at(r, c).unwrap())
            .collect();
        let t = Transform::random_geometric(&mut rng);
        let moved: CellSet = Cell::all()
            .filter(|&c| base.contains(t.source_of(c)))
            .collect();
        let found = orient(moved, Symmetry::Rotate180, &mut rng);
        assert_eq!(shared(moved, Symmetry::Rotate180, &found), 0);
    }
}
