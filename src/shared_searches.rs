//! The hard searches that one thread's ratings share with each other.
//!
//! A build makes many puzzles from one seed: they have one solution grid (up to a symmetry)
//! and, once their clues' consequences are drawn, often stall in the same hard state. A rating
//! works on its puzzle's canonical form, where two such puzzles' states lie in different
//! frames. Here a state is moved into the frame of its solution grid's canonical form, where
//! it is the same state for every puzzle of that grid, so a search made for one puzzle serves
//! the next, moved back into its frame.
//!
//! This changes no rating: the searches kept are equivariant (searching a transformed state
//! counts the same possible applications and finds the transformed valid ones; tested below on
//! the reference data's hard states), and a rating uses a hard rung's applications only
//! through their number, their techniques, their depths and their effects, none of which
//! depends on the order they are listed in. Searches cut short by a budget (ALS chains, death
//! blossom) are not kept: which applications a budget reaches depends on the frame.

use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, Grid, House};
use crate::strategies::{Application, Strategy};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hasher;
use std::rc::Rc;

/// At most this many searches are kept per thread (some megabytes); the memo starts afresh
/// when full.
const CAPACITY: usize = 32_768;

/// True when every search of `list` can be kept: none is cut short by a budget.
pub(crate) fn can_keep(list: &[Strategy]) -> bool {
    !list
        .iter()
        .any(|s| matches!(s, Strategy::AlsChain | Strategy::DeathBlossom))
}

/// The frame of a solution grid's canonical form, seen from a rating's frame.
pub(crate) struct Frame {
    /// The grid's canonical form (two grids share searches only when these are equal).
    grid: Rc<[u8; 81]>,
    /// For each cell of the grid's frame, the rating's cell.
    from_grid: [Cell; 81],
    /// For each cell of the rating's frame, the grid's cell.
    to_grid: [Cell; 81],
    /// For each digit (index) of the rating's frame, the grid's digit.
    digit_to_grid: [Digit; 9],
    /// For each digit (index) of the grid's frame, the rating's digit.
    digit_from_grid: [Digit; 9],
    /// For each house (index) of the grid's frame, the rating's house.
    house_from_grid: [House; 27],
    /// For each house (index) of the rating's frame, the grid's house.
    house_to_grid: [House; 27],
}

impl Frame {
    /// The frame of `solution`'s canonical form.
    pub(crate) fn of(solution: &Grid) -> Frame {
        let c = crate::canon::canonical_grid(solution);
        let t = &c.transform;
        let from_grid: [Cell; 81] = std::array::from_fn(|i| t.source_of(Cell::from_index(i)));
        let mut to_grid = [Cell::from_index(0); 81];
        for (i, s) in from_grid.iter().enumerate() {
            to_grid[s.index()] = Cell::from_index(i);
        }
        let labels = t.digits();
        let digit_to_grid: [Digit; 9] =
            std::array::from_fn(|d| Digit::from_index(labels[d] as usize - 1));
        let mut digit_from_grid = [Digit::from_index(0); 9];
        for (d, g) in digit_to_grid.iter().enumerate() {
            digit_from_grid[g.index()] = Digit::from_index(d);
        }
        let houses: Vec<(House, CellSet)> = House::all().map(|h| (h, CellSet::house(h))).collect();
        let map_house = |h: House, map: &[Cell; 81]| {
            let cells = map_cells(CellSet::house(h), map);
            houses
                .iter()
                .find(|(_, x)| *x == cells)
                .expect("a symmetry maps houses to houses")
                .0
        };
        let house_from_grid = std::array::from_fn(|i| {
            map_house(House::from_index(i).expect("27 houses"), &from_grid)
        });
        let house_to_grid =
            std::array::from_fn(|i| map_house(House::from_index(i).expect("27 houses"), &to_grid));
        Frame {
            grid: Rc::new(c.cells),
            from_grid,
            to_grid,
            digit_to_grid,
            digit_from_grid,
            house_from_grid,
            house_to_grid,
        }
    }

    /// `st`'s candidates in the grid's frame.
    fn masks(&self, st: &Candidates) -> [u16; 81] {
        std::array::from_fn(|i| {
            let c = self.from_grid[i];
            st.candidates(c)
                .iter()
                .fold(0u16, |m, d| m | 1 << self.digit_to_grid[d.index()].index())
        })
    }

    /// `a` moved by the cell, digit and house maps given.
    fn moved(
        a: &Application,
        cells: &[Cell; 81],
        digits: &[Digit; 9],
        houses: &[House; 27],
    ) -> Application {
        let mut b = *a;
        b.cells = map_cells(a.cells, cells);
        b.digits = a.digits.iter().fold(DigitSet::EMPTY, |s, d| {
            s | DigitSet::single(digits[d.index()])
        });
        b.house = a.house.map(|h| houses[h.index()]);
        b.effect = match a.effect {
            Effect::Place(c, d) => Effect::Place(cells[c.index()], digits[d.index()]),
            Effect::Remove(r) => {
                let mut out = [CellSet::EMPTY; 9];
                for (d, &x) in r.iter().enumerate() {
                    out[digits[d].index()] = map_cells(x, cells);
                }
                Effect::Remove(out)
            }
        };
        b
    }
}

/// The cells `x`, each moved to `map[c]`.
fn map_cells(x: CellSet, map: &[Cell; 81]) -> CellSet {
    x.iter().fold(CellSet::EMPTY, |mut s, c| {
        s.insert(map[c.index()]);
        s
    })
}

/// A search kept: its grid, p and valid applications, in the grid's frame.
struct Kept {
    grid: Rc<[u8; 81]>,
    p: u64,
    apps: Vec<Application>,
}

type Memo = HashMap<([u16; 81], u8), Kept, std::hash::BuildHasherDefault<FxHasher>>;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(HashMap::default());
}

/// The search `rung` (an index the caller keeps to one ladder) in `st`, in `frame`'s rating
/// frame: p and the valid applications. When this thread has made it in any frame of the same
/// grid, that search moved into `frame`; else `search()`, kept for the next.
pub(crate) fn search(
    frame: &Frame,
    st: &Candidates,
    rung: u8,
    search: impl FnOnce() -> (u64, Vec<Application>),
) -> (u64, Vec<Application>) {
    let key = (frame.masks(st), rung);
    let kept = MEMO.with(|m| {
        let m = m.borrow();
        let k = m.get(&key).filter(|k| k.grid == frame.grid)?;
        let apps = k
            .apps
            .iter()
            .map(|a| {
                Frame::moved(
                    a,
                    &frame.from_grid,
                    &frame.digit_from_grid,
                    &frame.house_from_grid,
                )
            })
            .collect();
        Some((k.p, apps))
    });
    if let Some(found) = kept {
        return found;
    }
    let (p, apps) = search();
    let moved = apps
        .iter()
        .map(|a| {
            Frame::moved(
                a,
                &frame.to_grid,
                &frame.digit_to_grid,
                &frame.house_to_grid,
            )
        })
        .collect();
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= CAPACITY {
            m.clear();
        }
        m.insert(
            key,
            Kept {
                grid: frame.grid.clone(),
                p,
                apps: moved,
            },
        );
    });
    (p, apps)
}

/// A fast hasher for the searches' caches, here and in `hsolve` (keys are candidate masks,
/// not attacker-chosen).
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::strategies::{search as one, Context};
    use crate::transform::Transform;

    /// An effect as one mask per cell (a placement flagged).
    fn masks_of(e: &Effect) -> [u16; 81] {
        let mut out = [0u16; 81];
        match e {
            Effect::Place(c, d) => out[c.index()] = 0x8000 | 1 << d.index(),
            Effect::Remove(r) => {
                for (d, cells) in r.iter().enumerate() {
                    for c in *cells {
                        out[c.index()] |= 1 << d;
                    }
                }
            }
        }
        out
    }

    /// The applications as a sorted list of (technique, depth, effect): what a rating uses.
    fn used(apps: &[Application]) -> Vec<(Strategy, u8, [u16; 81])> {
        let mut v: Vec<_> = apps
            .iter()
            .map(|a| (a.strategy, a.depth, masks_of(&a.effect)))
            .collect();
        v.sort_by_key(|x| (x.0 as usize, x.1, x.2));
        v
    }

    /// `st` moved by `t` (filled digits and candidates).
    fn moved(st: &Candidates, t: &Transform) -> Candidates {
        let labels = t.digits();
        let digit = |d: Digit| labels[d.index()];
        let mut values = [0u8; 81];
        let mut masks = [0u16; 81];
        for c in Cell::all() {
            let s = t.source_of(c);
            match st.value(s) {
                Some(d) => values[c.index()] = digit(d),
                None => {
                    masks[c.index()] = st
                        .candidates(s)
                        .iter()
                        .fold(0, |m, d| m | 1 << (digit(d) - 1))
                }
            }
        }
        Candidates::from_parts(values, masks)
    }

    /// A search kept for a state in one frame serves the same state in another frame of the
    /// same grid exactly: on hard states of the reference data moved by a random symmetry,
    /// the kept search, moved back, has the p and the applications (number, techniques,
    /// depths, effects) of a search made in the second frame. This holds because every kept
    /// search is equivariant.
    #[test]
    fn a_search_kept_in_one_frame_is_the_search_in_another() {
        let Ok(puzzles) = crate::dev::states::hard_puzzles(40) else {
            eprintln!("skipped: the reference data (../shared/data) is absent");
            return;
        };
        let rungs: Vec<&[Strategy]> = crate::difficulty::LADDER
            .iter()
            .filter_map(|r| match r {
                crate::hsolve::Rung::Strategies(list) if can_keep(list) => Some(*list),
                _ => None,
            })
            .collect();
        MEMO.with(|m| m.borrow_mut().clear());
        let mut rng = Rng::new(11);
        let (mut states, mut found) = (0, 0);
        for (puzzle, solution) in &puzzles {
            let t = Transform::random(&mut rng);
            let solution2 = t.apply_grid(solution);
            let (frame, frame2) = (Frame::of(solution), Frame::of(&solution2));
            let (ctx, ctx2) = (
                Context {
                    solution: Some(*solution),
                },
                Context {
                    solution: Some(solution2),
                },
            );
            for st in crate::dev::states::states_of(puzzle, solution, 2, &mut rng) {
                let st2 = moved(&st, &t);
                states += 1;
                for (k, list) in rungs.iter().enumerate() {
                    let direct = |st: &Candidates, ctx: &Context| {
                        let mut apps = Vec::new();
                        let p: u64 = list.iter().map(|&s| one(s, st, ctx, &mut apps)).sum();
                        (p, apps)
                    };
                    let (_, apps) = search(&frame, &st, k as u8, || direct(&st, &ctx));
                    let (p2, apps2) = direct(&st2, &ctx2);
                    let (kp, kapps) = search(&frame2, &st2, k as u8, || panic!("not kept"));
                    assert_eq!(
                        (kp, used(&kapps)),
                        (p2, used(&apps2)),
                        "on {}",
                        st.to_puzzle()
                    );
                    found += apps.len();
                }
            }
        }
        assert!(
            states > 40 && found > 1000,
            "{states} states, {found} applications"
        );
    }
}
