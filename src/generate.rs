//! Puzzle generators: random masking (minimal puzzles, optionally symmetric), the hsolve
//! paper's standard generator, tuned masking with annealing toward a target tier, and the
//! neighbourhood moves the seed miner climbs with.
//!
//! Every generator draws from a [`Rng`] and returns puzzles with exactly one solution.

use crate::candidates::Candidates;
use crate::cellset::CellSet;
use crate::grid::{Cell, Grid, Puzzle};
use crate::propagate::Propagation;
use crate::rate::hsolve;
use crate::rng::Rng;
use crate::solve::{count_solutions, random_grid};
use std::fmt;

/// A symmetry of the clue pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No constraint.
    None,
    /// 180-degree rotation (the newspaper convention; paper 002).
    Rotate180,
    /// 90-degree rotation.
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Reflection in the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// The cells that must be clues or empty together with `cell` (its orbit).
    pub fn orbit(self, cell: Cell) -> Vec<Cell> {
        let (r, c) = (cell.row(), cell.col());
        let mut out = vec![cell];
        let images: Vec<(u8, u8)> = match self {
            Symmetry::None => vec![],
            Symmetry::Rotate180 => vec![(8 - r, 8 - c)],
            Symmetry::Rotate90 => vec![(c, 8 - r), (8 - r, 8 - c), (8 - c, r)],
            Symmetry::Mirror => vec![(r, 8 - c)],
            Symmetry::Diagonal => vec![(c, r)],
        };
        for (a, b) in images {
            let x = Cell::at(a, b).expect("inside the grid");
            if !out.contains(&x) {
                out.push(x);
            }
        }
        out
    }

    /// The cells of the orbits of `set`'s cells: `set` and its images.
    pub fn closure(self, set: CellSet) -> CellSet {
        let mut out = set;
        for cell in set.iter() {
            let (r, c) = (cell.row(), cell.col());
            let mut add = |a: u8, b: u8| out.insert(Cell::at(a, b).expect("inside the grid"));
            match self {
                Symmetry::None => {}
                Symmetry::Rotate180 => add(8 - r, 8 - c),
                Symmetry::Rotate90 => {
                    add(c, 8 - r);
                    add(8 - r, 8 - c);
                    add(8 - c, r);
                }
                Symmetry::Mirror => add(r, 8 - c),
                Symmetry::Diagonal => add(c, r),
            }
        }
        out
    }

    /// The orbits partitioning the 81 cells.
    pub fn orbits(self) -> Vec<Vec<Cell>> {
        let mut seen = [false; 81];
        let mut out = Vec::new();
        for c in Cell::all() {
            if !seen[c.index()] {
                let o = self.orbit(c);
                for x in &o {
                    seen[x.index()] = true;
                }
                out.push(o);
            }
        }
        out
    }

    /// True when `p`'s clue pattern has this symmetry.
    pub fn holds_for(self, p: &Puzzle) -> bool {
        Cell::all().all(|c| {
            let filled = p.get(c).is_some();
            self.orbit(c).iter().all(|&x| p.get(x).is_some() == filled)
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        })
    }
}

/// Removes the clues of `cells` (orbits) from `grid`'s cells in random order whenever the
/// solution stays unique: a minimal puzzle (no orbit of clues can go) with `grid` as solution.
pub fn mask(grid: &[u8; 81], orbits: &mut [Vec<Cell>], rng: &mut Rng) -> Puzzle {
    mask_with(grid, orbits, false, rng)
}

/// [`mask`], and with `clued_houses` an orbit is removed only when every house that holds a
/// clue before still holds one after (the same random choices as [`mask`] otherwise).
pub fn mask_with(
    grid: &[u8; 81],
    orbits: &mut [Vec<Cell>],
    clued_houses: bool,
    rng: &mut Rng,
) -> Puzzle {
    let solution = full_grid(grid);
    let mut cells = *grid;
    rng.shuffle(orbits);
    for orbit in orbits.iter() {
        let saved: Vec<u8> = orbit.iter().map(|c| cells[c.index()]).collect();
        let freed: Vec<Cell> = orbit
            .iter()
            .copied()
            .filter(|c| cells[c.index()] != 0)
            .collect();
        if freed.is_empty() {
            continue;
        }
        let empty_before = clued_houses.then(|| empty_houses(&cells));
        for c in orbit {
            cells[c.index()] = 0;
        }
        if empty_before.is_some_and(|e| empty_houses(&cells) != e) {
            for (c, v) in orbit.iter().zip(saved) {
                cells[c.index()] = v;
            }
            continue;
        }
        let p = Puzzle::from_bytes_unchecked(cells);
        let unique = match &solution {
            Some(g) => !crate::solve::has_other_solution(&p, g, &freed),
            None => count_solutions(&p, 2) == 1,
        };
        if !unique {
            for (c, v) in orbit.iter().zip(saved) {
                cells[c.index()] = v;
            }
        }
    }
    Puzzle::from_bytes_unchecked(cells)
}

/// The houses (bit h: rows 0-8, columns 9-17, boxes 18-26) of `cells` (0 for an empty cell)
/// that hold no clue.
pub fn empty_houses(cells: &[u8; 81]) -> u32 {
    let mut clued = 0u32;
    for (houses, &v) in crate::cellset::HOUSES_OF_CELL.iter().zip(cells) {
        if v != 0 {
            clued |= houses.iter().fold(0, |m, &h| m | 1 << h);
        }
    }
    !clued & ((1 << 27) - 1)
}

/// The solution of the unique puzzle (or full grid) `cells`.
fn full_grid(cells: &[u8; 81]) -> Option<Grid> {
    crate::solve::solve(&Puzzle::from_bytes_unchecked(*cells)).unique()
}

/// Random masking (paper 000, section 5.3.2): a random solved grid, then clues removed in
/// random order while the solution stays unique. With [`Symmetry::None`] the result is
/// minimal; otherwise no orbit of clues can be removed.
pub fn random_minimal(rng: &mut Rng, symmetry: Symmetry) -> Puzzle {
    let grid = random_grid(rng);
    let mut orbits = symmetry.orbits();
    mask(grid.as_bytes(), &mut orbits, rng)
}

/// Makes `p` (which has one solution) minimal by removing clues in random order.
pub fn minimize(p: &Puzzle, rng: &mut Rng) -> Puzzle {
    let mut orbits: Vec<Vec<Cell>> = Cell::all()
        .filter(|&c| p.get(c).is_some())
        .map(|c| vec![c])
        .collect();
    mask(p.as_bytes(), &mut orbits, rng)
}

/// The hsolve paper's standard generator (section 4.1): starting from the empty board, fill a
/// random empty cell with a random candidate and follow with singles; on a contradiction start
/// again. The puzzle is the set of cells filled by hand: everything else follows from them, so
/// the solution is unique.
pub fn standard(rng: &mut Rng) -> Puzzle {
    'attempt: loop {
        let mut st = Candidates::new(&Puzzle::EMPTY);
        let mut clues = [0u8; 81];
        loop {
            let empty = st.empty();
            if empty.is_empty() {
                return Puzzle::from_bytes_unchecked(clues);
            }
            let c = empty.nth(rng.below(empty.len())).expect("below the count");
            let cands: Vec<_> = st.candidates(c).iter().collect();
            let d = cands[rng.index(cands.len())];
            clues[c.index()] = d.get();
            let mut next = st.clone();
            match crate::propagate::place_and_propagate(&mut next, c, d) {
                Propagation::Contradiction => continue 'attempt,
                Propagation::Solved => return Puzzle::from_bytes_unchecked(clues),
                Propagation::Stalled => st = next,
            }
        }
    }
}

/// One neighbourhood move ({-n+m}): remove `n` random clues, add `m` random cells of
/// `solution`, then make the result unique (adding solution cells while it has several
/// solutions) and minimal.
pub fn neighbour(p: &Puzzle, solution: &Grid, n: usize, m: usize, rng: &mut Rng) -> Puzzle {
    let mut cells = *p.as_bytes();
    let mut clues: Vec<usize> = (0..81).filter(|&i| cells[i] != 0).collect();
    rng.shuffle(&mut clues);
    for &i in clues.iter().take(n) {
        cells[i] = 0;
    }
    let mut empties: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
    rng.shuffle(&mut empties);
    for (added, &i) in empties.iter().enumerate() {
        if added >= m && count_solutions(&Puzzle::from_bytes_unchecked(cells), 2) == 1 {
            break;
        }
        cells[i] = solution.as_bytes()[i];
    }
    minimize(&Puzzle::from_bytes_unchecked(cells), rng)
}

/// Tuned masking with annealing (paper 000, section 5.3.3), aimed at a hardest hsolve tier
/// instead of a WNEF value: neighbourhood moves from a random minimal puzzle, accepted when
/// they move the hardest tier toward `target` and sometimes (with a probability that falls
/// over `steps`) when they move away. Returns the best puzzle found (closest to the target).
pub fn tuned(rng: &mut Rng, target: u8, steps: u32) -> Puzzle {
    let mut cur = random_minimal(rng, Symmetry::None);
    let solution = crate::solve::solve(&cur)
        .unique()
        .expect("unique by construction");
    let distance = |p: &Puzzle| {
        let t = hsolve::hardest_tier(p).unwrap_or(hsolve::HARDEST_TIER);
        (t as i32 - target as i32).abs()
    };
    let mut cur_d = distance(&cur);
    let (mut best, mut best_d) = (cur, cur_d);
    for step in 0..steps {
        if best_d == 0 {
            break;
        }
        let next = neighbour(&cur, &solution, 1 + rng.index(2), 1 + rng.index(2), rng);
        let d = distance(&next);
        let temperature = 1.0 - step as f64 / steps as f64;
        let accept = d <= cur_d || (rng.below(1000) as f64) < 1000.0 * 0.3 * temperature;
        if accept {
            cur = next;
            cur_d = d;
            if d < best_d {
                best = next;
                best_d = d;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::is_unique;

    /// Masking that keeps every clued house: the same choices as plain masking when off; when
    /// on, no house loses its last clue, the solution stays the only one, and every orbit
    /// still removable keeping one solution would empty a house.
    #[test]
    fn masking_can_keep_a_clue_in_every_house() {
        let mut rng = Rng::new(3);
        for round in 0..24 {
            let symmetry = [Symmetry::None, Symmetry::Rotate180][round % 2];
            let grid = random_grid(&mut rng);
            let mut orbits = symmetry.orbits();
            let (mut a, mut b) = (rng.clone(), rng.clone());
            assert_eq!(
                mask(grid.as_bytes(), &mut orbits.clone(), &mut a),
                mask_with(grid.as_bytes(), &mut orbits.clone(), false, &mut b)
            );
            let p = mask_with(grid.as_bytes(), &mut orbits, true, &mut rng);
            assert_eq!(empty_houses(p.as_bytes()), 0, "{p}");
            assert!(is_unique(&p));
            assert!(symmetry.holds_for(&p));
            for orbit in symmetry.orbits() {
                if orbit.iter().all(|&c| p.get(c).is_none()) {
                    continue;
                }
                let mut cells = *p.as_bytes();
                for c in &orbit {
                    cells[c.index()] = 0;
                }
                let q = Puzzle::from_bytes_unchecked(cells);
                assert!(
                    !is_unique(&q) || empty_houses(&cells) != 0,
                    "{p}: {orbit:?}"
                );
            }
        }
    }

    #[test]
    fn random_masking_gives_unique_minimal_puzzles() {
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            let p = random_minimal(&mut rng, Symmetry::None);
            assert!(is_unique(&p));
            // Minimal: removing any clue breaks uniqueness.
            for c in Cell::all().filter(|&c| p.get(c).is_some()) {
                let mut cells = *p.as_bytes();
                cells[c.index()] = 0;
                assert_eq!(count_solutions(&Puzzle::from_bytes_unchecked(cells), 2), 2);
            }
        }
    }

    #[test]
    fn symmetric_masking_keeps_the_symmetry() {
        let mut rng = Rng::new(2);
        for s in [
            Symmetry::Rotate180,
            Symmetry::Rotate90,
            Symmetry::Mirror,
            Symmetry::Diagonal,
        ] {
            for _ in 0..5 {
                let p = random_minimal(&mut rng, s);
                assert!(is_unique(&p), "{s}");
                assert!(s.holds_for(&p), "{s}: {p}");
                // No orbit of clues can be removed.
                for orbit in s.orbits() {
                    if orbit.iter().all(|c| p.get(*c).is_none()) {
                        continue;
                    }
                    let mut cells = *p.as_bytes();
                    for c in &orbit {
                        cells[c.index()] = 0;
                    }
                    assert_eq!(count_solutions(&Puzzle::from_bytes_unchecked(cells), 2), 2);
                }
            }
        }
    }

    #[test]
    fn orbits_partition_the_grid() {
        for s in [
            Symmetry::None,
            Symmetry::Rotate180,
            Symmetry::Rotate90,
            Symmetry::Mirror,
            Symmetry::Diagonal,
        ] {
            let n: usize = s.orbits().iter().map(|o| o.len()).sum();
            assert_eq!(n, 81);
        }
        assert_eq!(Symmetry::Rotate90.orbits().len(), 21);
        assert_eq!(Symmetry::Rotate180.orbits().len(), 41);
    }

    #[test]
    fn standard_generator_is_unique_by_construction() {
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let p = standard(&mut rng);
            assert!(is_unique(&p), "{p}");
            // Singles alone solve it.
            assert_eq!(hsolve::hardest_tier(&p), Ok(0));
        }
    }

    #[test]
    fn neighbours_stay_unique_and_minimal() {
        let mut rng = Rng::new(4);
        let p = random_minimal(&mut rng, Symmetry::None);
        let sol = crate::solve::solve(&p).unique().unwrap();
        for _ in 0..10 {
            let q = neighbour(&p, &sol, 2, 2, &mut rng);
            assert!(is_unique(&q));
            assert_eq!(crate::solve::solve(&q).unique(), Some(sol));
        }
    }

    #[test]
    fn tuned_masking_reaches_tier_one() {
        let mut rng = Rng::new(5);
        let p = tuned(&mut rng, 1, 200);
        assert!(is_unique(&p));
        assert_eq!(hsolve::hardest_tier(&p), Ok(1));
    }
}
