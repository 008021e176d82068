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
//! The searches kept are a [`SharedSearches`] the caller owns and passes to each rating; the
//! workers of a parallel run all read and add to one, which is locked only to look a search
//! up and to keep one (never while searching), so its bounds hold for the whole run whatever
//! the number of threads.

use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, Grid, House};
use crate::strategies::{Application, Strategy};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// At most this many searches are kept by a [`SharedSearches`], in two generations of half as
/// many. A generation of 7,168 is 7/8 of 8,192, the most a hash table of 8,192 slots holds
/// before it doubles: a slot takes 128 bytes (a [`Key`] and its search's header), so the
/// slots of both take about 2 MiB.
const CAPACITY: usize = 14_336;

/// At most this many bytes of applications are kept by a [`SharedSearches`] (in two
/// generations of half as many): with the searches' keys, some megabytes, whatever the number
/// of puzzles rated (an application kept takes a byte per cell it names, and a few more).
const MAX_BYTES: usize = 2 << 20;

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

    /// The key of the search of `rung` in `st`: `st`'s candidates in the grid's frame.
    fn key(&self, st: &Candidates, rung: u8) -> Key {
        let masks: [u16; 81] = std::array::from_fn(|i| {
            let c = self.from_grid[i];
            st.candidates(c)
                .iter()
                .fold(0u16, |m, d| m | 1 << self.digit_to_grid[d.index()].index())
        });
        Key::new(&masks, rung)
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

/// A search kept: its grid, p and valid applications, in the grid's frame, written as bytes.
/// An application is its technique, its digits (two bytes), house (255 for none), depth and
/// unit, its cells (a count and each cell), and its effect: 255 and the cell and digit of a
/// placement, or the number of digits removed and, for each, the digit, a count and each
/// cell: most take 10 to 20 bytes.
struct Kept {
    grid: Arc<[u8; 81]>,
    p: u64,
    apps: Box<[u8]>,
}

/// No house, in a kept application.
const NO_HOUSE: u8 = 255;

/// An effect that places, in a kept application.
const PLACES: u8 = 255;

/// Appends the cells `x` as a count and each cell.
fn put_cells(out: &mut Vec<u8>, x: CellSet) {
    out.push(x.len() as u8);
    out.extend(x.iter().map(|c| c.index() as u8));
}

/// Reads cells written by [`put_cells`] at the front of `bytes`, and moves past them.
fn take_cells(bytes: &mut std::slice::Iter<'_, u8>) -> CellSet {
    let n = *bytes.next().expect("a count of cells") as usize;
    bytes.take(n).fold(CellSet::EMPTY, |mut x, &c| {
        x.insert(Cell::from_index(c as usize));
        x
    })
}

impl Kept {
    /// `apps` kept.
    fn new(grid: Arc<[u8; 81]>, p: u64, apps: impl IntoIterator<Item = Application>) -> Kept {
        let mut out = Vec::new();
        for a in apps {
            let digits = a.digits.bits().to_le_bytes();
            let house = a.house.map_or(NO_HOUSE, |h| h.index() as u8);
            out.extend([
                a.strategy as u8,
                digits[0],
                digits[1],
                house,
                a.depth,
                a.unit,
            ]);
            put_cells(&mut out, a.cells);
            match a.effect {
                Effect::Place(c, d) => out.extend([PLACES, c.index() as u8, d.index() as u8]),
                Effect::Remove(r) => {
                    out.push(r.iter().filter(|x| !x.is_empty()).count() as u8);
                    for (d, &x) in r.iter().enumerate().filter(|(_, x)| !x.is_empty()) {
                        out.push(d as u8);
                        put_cells(&mut out, x);
                    }
                }
            }
        }
        Kept {
            grid,
            p,
            apps: out.into_boxed_slice(),
        }
    }

    /// The bytes it holds.
    fn bytes(&self) -> usize {
        self.apps.len()
    }

    /// The applications kept, as they were given.
    fn applications(&self) -> Vec<Application> {
        let mut bytes = self.apps.iter();
        let mut apps = Vec::new();
        while let Some(&strategy) = bytes.next() {
            let mut next = || *bytes.next().expect("a whole application");
            let (d0, d1, house, depth, unit) = (next(), next(), next(), next(), next());
            let cells = take_cells(&mut bytes);
            let effect = match *bytes.next().expect("an effect") {
                PLACES => {
                    let (c, d) = (bytes.next(), bytes.next());
                    let (c, d) = (*c.expect("a cell"), *d.expect("a digit"));
                    Effect::Place(Cell::from_index(c as usize), Digit::from_index(d as usize))
                }
                n => {
                    let mut r = [CellSet::EMPTY; 9];
                    for _ in 0..n {
                        let d = *bytes.next().expect("a digit removed") as usize;
                        r[d] = take_cells(&mut bytes);
                    }
                    Effect::Remove(r)
                }
            };
            apps.push(Application {
                strategy: Strategy::ALL[strategy as usize],
                cells,
                digits: DigitSet::from_bits(u16::from_le_bytes([d0, d1])),
                house: House::from_index(house as usize),
                depth,
                unit,
                effect,
            });
        }
        apps
    }
}

/// What a kept search is found by: the candidates of a state in its grid's frame, nine bits a
/// cell (bit 9 c + d for digit index d of cell c: 729 bits, a filled cell's nine clear), and
/// the rung searched in the last byte: exact, in 96 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key([u64; 12]);

impl Key {
    /// The key of candidate masks (nine bits each) and a rung.
    fn new(masks: &[u16; 81], rung: u8) -> Key {
        let mut words = [0u64; 12];
        for (i, &m) in masks.iter().enumerate() {
            let (bit, m) = (9 * i, u64::from(m & 0x1FF));
            words[bit / 64] |= m << (bit % 64);
            if bit % 64 > 55 {
                words[bit / 64 + 1] |= m >> (64 - bit % 64);
            }
        }
        words[11] |= u64::from(rung) << 56;
        Key(words)
    }
}

/// Searches kept, and the bytes their applications take.
#[derive(Default)]
struct Generation {
    searches: HashMap<Key, Kept, rustc_hash::FxBuildHasher>,
    bytes: usize,
}

/// The two generations of kept searches: the newer takes what is made; when it is full it
/// becomes the older one, and the older one is dropped. A search is looked for in both, so
/// what was kept last is kept longest.
#[derive(Default)]
struct Generations {
    new: Generation,
    old: Generation,
}

impl Generations {
    /// The search kept for `key` on `grid`.
    fn get(&self, key: &Key, grid: &Arc<[u8; 81]>) -> Option<&Kept> {
        [&self.new, &self.old]
            .into_iter()
            .find_map(|g| g.searches.get(key))
            .filter(|k| k.grid == *grid)
    }

    /// Keeps `kept` for `key`; returns the generation this drops, if any (for the caller to
    /// free after it lets go of the lock).
    fn keep(&mut self, key: Key, kept: Kept) -> Option<Generation> {
        let n = kept.bytes();
        let dropped = (self.new.searches.len() >= CAPACITY / 2
            || self.new.bytes + n > MAX_BYTES / 2)
            .then(|| std::mem::replace(&mut self.old, std::mem::take(&mut self.new)));
        self.new.bytes += n;
        if let Some(replaced) = self.new.searches.insert(key, kept) {
            self.new.bytes -= replaced.bytes();
        }
        dropped
    }
}

/// Hard searches kept for the next ratings of puzzles with the same solution grid, in two
/// generations (the newer takes what is made, the older is dropped when the newer is full).
/// What it holds never changes a rating, only how soon it is made; it keeps at most 7,168
/// searches and 1 MiB of applications a generation, whatever the number of puzzles rated and
/// the number of threads rating them: the workers of a run share one (it locks itself for a
/// look-up or a search kept, never during a search).
#[derive(Default)]
pub struct SharedSearches {
    kept: Mutex<Generations>,
}

impl SharedSearches {
    /// The searches kept, locked. A worker that panicked while holding them left them whole
    /// (a look-up changes nothing, and a search is kept in one insertion), so a poisoned lock
    /// is taken as it is.
    fn generations(&self) -> MutexGuard<'_, Generations> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The search `rung` (an index the caller keeps to one ladder) in `st`, in `frame`'s rating
/// frame: p and the valid applications. When `kept` holds it from any frame of the same grid,
/// that search moved into `frame`; else `search()`, kept for the next.
pub(crate) fn search(
    kept: &SharedSearches,
    frame: &Frame,
    st: &Candidates,
    rung: u8,
    search: impl FnOnce() -> (u64, Vec<Application>),
) -> (u64, Vec<Application>) {
    let key = frame.key(st, rung);
    let hit = kept
        .generations()
        .get(&key, &frame.grid)
        .map(|k| (k.p, k.applications()));
    if let Some((p, apps)) = hit {
        let apps = apps
            .into_iter()
            .map(|a| {
                Frame::moved(
                    &a,
                    &frame.from_grid,
                    &frame.digit_from_grid,
                    &frame.house_from_grid,
                )
            })
            .collect();
        return (p, apps);
    }
    let (p, apps) = search();
    let moved = apps.iter().map(|a| {
        Frame::moved(
            a,
            &frame.to_grid,
            &frame.digit_to_grid,
            &frame.house_to_grid,
        )
    });
    let made = Kept::new(frame.grid.clone(), p, moved);
    // A generation the keeping drops is freed here, once the lock is let go.
    let dropped = kept.generations().keep(key, made);
    drop(dropped);
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
        let kept = Kept::new(Arc::new([0; 81]), 7, apps.iter().copied());
        assert_eq!(kept.applications(), apps);
        let bytes: usize = apps
            .iter()
            .map(|a| {
                7 + a.cells.len() as usize
                    + match a.effect {
                        Effect::Remove(r) => {
                            1 + r
                                .iter()
                                .filter(|x| !x.is_empty())
                                .map(|x| 2 + x.len() as usize)
                                .sum::<usize>()
                        }
                        Effect::Place(..) => 3,
                    }
            })
            .sum();
        assert_eq!(kept.bytes(), bytes);
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

    /// A key holds its masks and rung exactly: two keys are equal only when both are, on
    /// every single candidate changed and on random masks.
    #[test]
    fn a_key_tells_every_state_and_rung_apart() {
        let mut rng = Rng::new(5);
        let mut masks = [0u16; 81];
        for _ in 0..200 {
            masks = std::array::from_fn(|_| rng.below(512) as u16);
            let key = Key::new(&masks, 9);
            assert_ne!(key, Key::new(&masks, 10));
            for i in 0..81 {
                for d in 0..9 {
                    let mut other = masks;
                    other[i] ^= 1 << d;
                    assert_ne!(key, Key::new(&other, 9), "cell {i}, digit {d}");
                }
            }
        }
        assert_eq!(Key::new(&masks, 13), Key::new(&masks, 13));
        assert_eq!(std::mem::size_of::<Key>(), 96);
    }

    /// What one worker keeps, every worker finds: one set shared by threads that keep and
    /// look up at once ends with every search each of them kept (under the bounds).
    #[test]
    fn searches_kept_by_one_worker_serve_every_worker() {
        let kept = SharedSearches::default();
        let grid = Arc::new([1u8; 81]);
        std::thread::scope(|s| {
            for t in 0..4u8 {
                let (kept, grid) = (&kept, grid.clone());
                s.spawn(move || {
                    for i in 0..100u16 {
                        let mut masks = [0u16; 81];
                        masks[0] = i;
                        let dropped = kept.generations().keep(
                            Key::new(&masks, t),
                            Kept::new(grid.clone(), u64::from(i), []),
                        );
                        assert!(dropped.is_none(), "400 searches fit in one generation");
                    }
                });
            }
        });
        let g = kept.generations();
        for t in 0..4u8 {
            for i in 0..100u16 {
                let mut masks = [0u16; 81];
                masks[0] = i;
                let key = Key::new(&masks, t);
                assert_eq!(g.get(&key, &grid).map(|k| k.p), Some(u64::from(i)));
            }
        }
        let other = Arc::new([2u8; 81]);
        assert!(
            g.get(&Key::new(&[0; 81], 0), &other).is_none(),
            "another grid"
        );
    }

    /// A search kept for a state in one frame serves the same state in another frame of the
    /// same grid exactly: on hard states of the reference data moved by a random symmetry,
    /// the kept search, moved back, has the p and the applications (number, techniques,
    /// depths, effects) of a search made in the second frame. This holds because every kept
    /// search is equivariant.
    #[test]
    fn a_search_kept_in_one_frame_is_the_search_in_another() {
        let Ok(puzzles) = crate::strategies::states::hard_puzzles(40) else {
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
        let kept = SharedSearches::default();
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
            for st in crate::strategies::states::states_of(puzzle, solution, 2, &mut rng) {
                let st2 = moved(&st, &t);
                states += 1;
                for (k, list) in rungs.iter().enumerate() {
                    let direct = |st: &Candidates, ctx: &Context| {
                        let mut apps = Vec::new();
                        let p: u64 = list.iter().map(|&s| one(s, st, ctx, &mut apps)).sum();
                        (p, apps)
                    };
                    let (_, apps) = search(&kept, &frame, &st, k as u8, || direct(&st, &ctx));
                    let (p2, apps2) = direct(&st2, &ctx2);
                    let (kp, kapps) = search(&kept, &frame2, &st2, k as u8, || panic!("not kept"));
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
