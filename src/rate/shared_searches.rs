//! The hard searches that one worker's ratings share with each other.
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
//!
//! The searches kept are a [`SharedSearches`] the caller owns and passes to each rating; a
//! parallel run keeps them in a [`Lender`], which lends one to each worker at a time.

use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, Grid, House};
use crate::strategies::{Application, Strategy};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// At most this many searches are kept by one [`SharedSearches`], in two generations of half as
/// many. A generation of 7,168 is 7/8 of 8,192, the most a hash table of 8,192 slots holds
/// before it doubles: a key takes 164 bytes, so the slots of both take under 4 MiB.
const CAPACITY: usize = 14_336;

/// At most this many bytes of applications are kept by one [`SharedSearches`] (in two
/// generations of half as many): with the searches' keys, some megabytes, whatever the number
/// of puzzles rated. An application kept takes 32 bytes and 16 more per digit it removes.
const MAX_BYTES: usize = 4 << 20;

/// True when every search of `list` can be kept: none is cut short by a budget.
pub(crate) fn can_keep(list: &[Strategy]) -> bool {
    !list
        .iter()
        .any(|s| matches!(s, Strategy::AlsChain | Strategy::DeathBlossom))
}

/// The frame of a solution grid's canonical form, seen from a rating's frame.
pub(crate) struct Frame {
    /// The grid's canonical form (two grids share searches only when these are equal).
    grid: Arc<[u8; 81]>,
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
            grid: Arc::new(c.cells),
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

/// An application as kept, without the nine cell sets of its effect: the cells a digit is
/// removed from are in the search's list of removals, one for each digit of `removes`, in
/// order.
#[derive(Clone, Copy)]
struct Stored {
    cells: CellSet,
    strategy: Strategy,
    digits: DigitSet,
    house: Option<House>,
    depth: u8,
    unit: u8,
    /// The placement (cell and digit index), when the effect is one.
    place: Option<(u8, u8)>,
    /// The digits the effect removes.
    removes: DigitSet,
}

/// A search kept: its grid, p and valid applications, in the grid's frame.
struct Kept {
    grid: Arc<[u8; 81]>,
    p: u64,
    apps: Vec<Stored>,
    /// The cells each removal of `apps` removes its digit from, in order.
    removals: Vec<CellSet>,
}

impl Kept {
    /// `apps` kept.
    fn new(grid: Arc<[u8; 81]>, p: u64, apps: &[Application]) -> Kept {
        let mut removals = Vec::new();
        let apps = apps
            .iter()
            .map(|a| {
                let (place, removes) = match a.effect {
                    Effect::Place(c, d) => {
                        (Some((c.index() as u8, d.index() as u8)), DigitSet::EMPTY)
                    }
                    Effect::Remove(r) => {
                        let mut removes = DigitSet::EMPTY;
                        for (d, &x) in r.iter().enumerate() {
                            if !x.is_empty() {
                                removes |= DigitSet::single(Digit::from_index(d));
                                removals.push(x);
                            }
                        }
                        (None, removes)
                    }
                };
                Stored {
                    cells: a.cells,
                    strategy: a.strategy,
                    digits: a.digits,
                    house: a.house,
                    depth: a.depth,
                    unit: a.unit,
                    place,
                    removes,
                }
            })
            .collect();
        Kept {
            grid,
            p,
            apps,
            removals,
        }
    }

    /// The bytes it holds.
    fn bytes(&self) -> usize {
        self.apps.len() * std::mem::size_of::<Stored>()
            + self.removals.len() * std::mem::size_of::<CellSet>()
    }

    /// The applications kept, as they were given.
    fn applications(&self) -> impl Iterator<Item = Application> + '_ {
        let mut removals = self.removals.iter();
        self.apps.iter().map(move |s| {
            let effect = match s.place {
                Some((c, d)) => {
                    Effect::Place(Cell::from_index(c as usize), Digit::from_index(d as usize))
                }
                None => {
                    let mut r = [CellSet::EMPTY; 9];
                    for d in s.removes.iter() {
                        r[d.index()] = *removals.next().expect("a removal for each digit");
                    }
                    Effect::Remove(r)
                }
            };
            Application {
                strategy: s.strategy,
                cells: s.cells,
                digits: s.digits,
                house: s.house,
                depth: s.depth,
                unit: s.unit,
                effect,
            }
        })
    }
}

/// Searches kept, and the bytes their applications take.
#[derive(Default)]
struct Generation {
    searches: HashMap<([u16; 81], u8), Kept, rustc_hash::FxBuildHasher>,
    bytes: usize,
}

/// Hard searches kept for the next ratings of puzzles with the same solution grid: the newer
/// generation takes what is made; when it is full it becomes the older one, and the older one
/// is dropped. A search is looked for in both, so what was kept last is kept longest. What it
/// holds never changes a rating, only how soon it is made; it keeps at most 7,168 searches and
/// 2 MiB of applications a generation, whatever the number of puzzles rated.
#[derive(Default)]
pub struct SharedSearches {
    new: Generation,
    old: Generation,
}

impl SharedSearches {
    /// The search kept for `key` on `grid`.
    fn get(&self, key: &([u16; 81], u8), grid: &Arc<[u8; 81]>) -> Option<&Kept> {
        [&self.new, &self.old]
            .into_iter()
            .find_map(|g| g.searches.get(key))
            .filter(|k| k.grid == *grid)
    }

    /// Keeps `kept` for `key`.
    fn keep(&mut self, key: ([u16; 81], u8), kept: Kept) {
        let n = kept.bytes();
        if self.new.searches.len() >= CAPACITY / 2 || self.new.bytes + n > MAX_BYTES / 2 {
            self.old = std::mem::take(&mut self.new);
        }
        self.new.bytes += n;
        if let Some(replaced) = self.new.searches.insert(key, kept) {
            self.new.bytes -= replaced.bytes();
        }
    }
}

/// The [`SharedSearches`] of a parallel run: each worker borrows one for a piece of work and
/// gives it back, so that the pieces a worker takes next share what it kept, and no two
/// workers hold the same one.
#[derive(Default)]
pub struct Lender {
    idle: Mutex<Vec<SharedSearches>>,
}

impl Lender {
    /// One of the run's [`SharedSearches`] (a new one when every one is lent), given back when
    /// the loan is dropped.
    pub fn lend(&self) -> Loan<'_> {
        let idle = self.idle.lock().map(|mut v| v.pop()).unwrap_or_default();
        Loan {
            searches: idle.unwrap_or_default(),
            lender: self,
        }
    }
}

/// A [`SharedSearches`] lent by a [`Lender`] (given back when dropped).
pub struct Loan<'l> {
    searches: SharedSearches,
    lender: &'l Lender,
}

impl std::ops::Deref for Loan<'_> {
    type Target = SharedSearches;
    fn deref(&self) -> &SharedSearches {
        &self.searches
    }
}

impl std::ops::DerefMut for Loan<'_> {
    fn deref_mut(&mut self) -> &mut SharedSearches {
        &mut self.searches
    }
}

impl Drop for Loan<'_> {
    fn drop(&mut self) {
        let searches = std::mem::take(&mut self.searches);
        if let Ok(mut idle) = self.lender.idle.lock() {
            idle.push(searches);
        }
    }
}

/// The search `rung` (an index the caller keeps to one ladder) in `st`, in `frame`'s rating
/// frame: p and the valid applications. When `kept` holds it from any frame of the same grid,
/// that search moved into `frame`; else `search()`, kept for the next.
pub(crate) fn search(
    kept: &mut SharedSearches,
    frame: &Frame,
    st: &Candidates,
    rung: u8,
    search: impl FnOnce() -> (u64, Vec<Application>),
) -> (u64, Vec<Application>) {
    let key = (frame.masks(st), rung);
    if let Some(k) = kept.get(&key, &frame.grid) {
        let apps = k
            .applications()
            .map(|a| {
                Frame::moved(
                    &a,
                    &frame.from_grid,
                    &frame.digit_from_grid,
                    &frame.house_from_grid,
                )
            })
            .collect();
        return (k.p, apps);
    }
    let (p, apps) = search();
    let moved: Vec<Application> = apps
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
    kept.keep(key, Kept::new(frame.grid.clone(), p, &moved));
    (p, apps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::strategies::{search as one, Context};
    use crate::transform::Transform;

    /// A search kept gives back its applications exactly, whatever their effects: the
    /// applications of every kept rung on states of a few runs, kept and read back, and its
    /// bytes counted as they are stored.
    #[test]
    fn a_kept_search_gives_back_its_applications() {
        let ctx = Context::default();
        let mut apps = Vec::new();
        for puzzle in [
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ] {
            let st = Candidates::new(&puzzle.parse().unwrap());
            for &s in Strategy::ALL.iter() {
                if !matches!(s, Strategy::Backtracking | Strategy::TrialAndError) {
                    one(s, &st, &ctx, &mut apps);
                }
            }
        }
        assert!(apps.iter().any(|a| matches!(a.effect, Effect::Remove(_))));
        apps.push(Application::at_cell(
            Strategy::NakedSingle,
            Cell::from_index(0),
            Digit::from_index(7),
            Effect::Place(Cell::from_index(0), Digit::from_index(7)),
        ));
        let kept = Kept::new(Arc::new([0; 81]), 7, &apps);
        assert_eq!(kept.applications().collect::<Vec<_>>(), apps);
        let digits: usize = apps
            .iter()
            .map(|a| match a.effect {
                Effect::Remove(r) => r.iter().filter(|x| !x.is_empty()).count(),
                Effect::Place(..) => 0,
            })
            .sum();
        assert_eq!(kept.bytes(), 32 * apps.len() + 16 * digits);
    }

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

    /// A set lent is lent to no one else until it is given back; given back, it is lent
    /// again with what it kept.
    #[test]
    fn a_lender_lends_each_set_to_one_worker_at_a_time() {
        let lender = Lender::default();
        let (key, grid) = (([0u16; 81], 3u8), Arc::new([1u8; 81]));
        {
            let mut a = lender.lend();
            a.keep(key, Kept::new(grid.clone(), 7, &[]));
            let b = lender.lend();
            assert!(b.get(&key, &grid).is_none(), "a second loan is another set");
            assert_eq!(a.get(&key, &grid).map(|k| k.p), Some(7));
        }
        assert_eq!(lender.idle.lock().unwrap().len(), 2, "both given back");
        let (x, y) = (lender.lend(), lender.lend());
        let holding = [&x, &y]
            .iter()
            .filter(|l| l.get(&key, &grid).is_some())
            .count();
        assert_eq!(holding, 1);
        assert!(lender.idle.lock().unwrap().is_empty());
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
        let rungs: Vec<&[Strategy]> = crate::rate::difficulty::LADDER
            .iter()
            .filter_map(|r| match r {
                crate::rate::hsolve::Rung::Strategies(list) if can_keep(list) => Some(*list),
                _ => None,
            })
            .collect();
        let mut kept = SharedSearches::default();
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
                    let (_, apps) = search(&mut kept, &frame, &st, k as u8, || direct(&st, &ctx));
                    let (p2, apps2) = direct(&st2, &ctx2);
                    let (kp, kapps) =
                        search(&mut kept, &frame2, &st2, k as u8, || panic!("not kept"));
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
