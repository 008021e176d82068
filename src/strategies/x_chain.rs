//! X-chains and X-cycles (no hsolve tier; for the rating beyond the paper): chains and loops
//! on one digit whose links alternate between strong (the only two places of the digit in a
//! house: if one does not hold it, the other does) and weak (two places that see each other:
//! if one holds it, the other does not). A strong link may serve as a weak one.
//!
//! **X-chain**: a chain that starts and ends with a strong link, `e1 = a - b = c - ... = e2`,
//! with at least three strong links (two are the turbot fish family; one is a locked
//! candidate) and at most eight. If e1 does not hold the digit, each link forces the next,
//! and e2 holds it: one of the two ends holds it, and every cell seeing both loses it.
//!
//! **X-cycle** (a nice loop on one digit), with at most eight strong links, its cells all
//! different:
//! - *continuous*: the links alternate all the way round. Then either every other cell holds
//!   the digit or the others do, so each weak link holds it exactly once: every other cell
//!   seeing both ends of a weak link loses it. (A loop of two row links and two column links
//!   is an X-wing, which `fish` finds, and is left out.)
//! - *two strong links meet at a cell* (at least two strong links in all): if that cell did
//!   not hold the digit, going round would force it to: the cell holds it.
//! - *two weak links meet at a cell* (at least three strong links in all, as fewer are the
//!   smaller patterns): if the cell held the digit, going round would forbid it: it loses it.
//!   Such a cell sees both ends of the X-chain the rest of the loop forms, so this removal is
//!   also an X-chain's, seen from the cell.
//!
//! Possible applications: for X-chains, per digit, the cells in a strong link (each a
//! possible start); for X-cycles, per digit, its places (each a possible loop cell to start
//! from: the meeting cell of a discontinuous loop, the first cell of a continuous one).

use super::links::{seen_by, sees, Graph};
use super::{per_digit, Application, DigitMemo, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit};

/// The most strong links in an X-chain or an X-cycle.
pub(crate) const MAX_STRONG: usize = 8;

/// The fewest strong links in an X-chain.
const MIN_CHAIN: usize = 3;

/// The fewest strong links in an X-cycle whose two weak links meet at a cell.
const MIN_WEAK_LOOP: usize = 3;

/// The most cells in a chain or loop.
const MAX_CELLS: usize = 2 * MAX_STRONG + 2;

/// What can be forced from one assumption on one cell, level by level: after k strong links,
/// `t[k]` are the places forced to hold the digit and `f[k]` those forced not to, each place
/// at the first level it is reached in that state.
struct Levels {
    /// Whether the start is assumed to hold the digit (`t[0]` is the start) or not (`f[0]`).
    start_true: bool,
    /// The places forced to hold the digit, per level.
    t: [CellSet; MAX_STRONG + 1],
    /// The places forced not to hold it, per level.
    f: [CellSet; MAX_STRONG + 1],
}

impl Levels {
    /// The levels from `start`, assumed to hold the digit or not, over the places of
    /// `allowed` only.
    fn new(g: &Graph, start: Cell, start_true: bool, allowed: CellSet) -> Levels {
        let mut lv = Levels {
            start_true,
            t: [CellSet::EMPTY; MAX_STRONG + 1],
            f: [CellSet::EMPTY; MAX_STRONG + 1],
        };
        let one = CellSet::single(start);
        if start_true {
            lv.t[0] = one;
            lv.f[0] = g.weak(start) & allowed;
        } else {
            lv.f[0] = one;
        }
        let (mut seen_t, mut seen_f) = (lv.t[0], lv.f[0]);
        for k in 1..=MAX_STRONG {
            let t = g.partners_of(lv.f[k - 1]) & (allowed - seen_t);
            if t.is_empty() {
                break;
            }
            seen_t |= t;
            lv.t[k] = t;
            let f = g.places & seen_by(t) & (allowed - seen_f);
            seen_f |= f;
            lv.f[k] = f;
        }
        lv
    }

    /// The first level at which `c` is reached holding the digit (`true`) or not, if any.
    fn level(&self, c: Cell, holds: bool) -> Option<usize> {
        let sets = if holds { &self.t } else { &self.f };
        sets.iter().position(|s| s.contains(c))
    }

    /// The chain from the start to `end`, reached holding the digit at level `k` (or not,
    /// when `holds` is false), into `buf`; returns its length. Each cell is forced by the
    /// previous one: a strong link into a cell that holds the digit, a weak one otherwise.
    fn trace(
        &self,
        g: &Graph,
        end: Cell,
        holds: bool,
        k: usize,
        buf: &mut [Cell; MAX_CELLS],
    ) -> usize {
        let (mut cur, mut is_t, mut k) = (end, holds, k);
        let mut n = 0;
        buf[n] = cur;
        n += 1;
        loop {
            if is_t {
                if k == 0 {
                    break;
                }
                cur = (self.f[k - 1] & g.partner[cur.index()])
                    .first()
                    .expect("a strong link reached it");
                k -= 1;
            } else {
                if k == 0 && !self.start_true {
                    break;
                }
                cur = (self.t[k] & CellSet::peers(cur))
                    .first()
                    .expect("a weak link reached it");
            }
            is_t = !is_t;
            buf[n] = cur;
            n += 1;
        }
        buf[..n].reverse();
        n
    }
}

/// Calls `f(end, k, hit)` for each end of an X-chain from `start` (at least three strong
/// links, the end first reached at level k) whose cells seeing both ends (`hit`, places of
/// the digit) add removals to those of the ends before it.
fn for_each_end(g: &Graph, start: Cell, lv: &Levels, mut f: impl FnMut(Cell, usize, CellSet)) {
    let mut hit = CellSet::EMPTY;
    let peers = CellSet::peers(start);
    for k in MIN_CHAIN..=MAX_STRONG {
        for end in lv.t[k] - CellSet::single(start) {
            let h = g.places & peers & CellSet::peers(end);
            if !(h - hit).is_empty() {
                hit |= h;
                f(end, k, h);
            }
        }
    }
}

/// Pushes every valid X-chain (one application per start cell and digit, with the removals
/// of all its ends); returns p, the number of cells in strong links over all digits.
///
/// From each start, assumed not to hold the digit, the forced places are found breadth
/// first, one level per strong link: a walk of forcings is sound even where it revisits a
/// cell, and each place is kept at its first level, so the ends are the places whose
/// shortest chain has three to eight strong links.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    let mut buf = [Cell::from_index(0); MAX_CELLS];
    for d in Digit::all() {
        let g = Graph::new(st, d);
        p += g.linked.len() as u64;
        for start in g.linked {
            let lv = Levels::new(&g, start, false, CellSet::ALL);
            let (mut hit, mut cells) = (CellSet::EMPTY, CellSet::EMPTY);
            for_each_end(&g, start, &lv, |end, k, h| {
                hit |= h;
                let n = lv.trace(&g, end, true, k, &mut buf);
                cells |= buf[..n].iter().copied().collect::<CellSet>();
            });
            if !hit.is_empty() {
                out.push(Application::new(
                    Strategy::XChain,
                    cells,
                    DigitSet::single(d),
                    start.index(),
                    Effect::remove_digit(d, hit),
                ));
            }
        }
    }
    p
}

/// The chains of an X-chain application, recomputed: from its start (the unit) to each end
/// that adds removals, as the cells in order, the start first.
pub(crate) fn chains(st: &Candidates, a: &Application) -> Vec<Vec<Cell>> {
    let (Some(d), Some(start)) = (a.digits.first(), Cell::new(a.unit)) else {
        return Vec::new();
    };
    let g = Graph::new(st, d);
    let lv = Levels::new(&g, start, false, CellSet::ALL);
    let mut buf = [Cell::from_index(0); MAX_CELLS];
    let mut out = Vec::new();
    for_each_end(&g, start, &lv, |end, k, _| {
        let n = lv.trace(&g, end, true, k, &mut buf);
        out.push(buf[..n].to_vec());
    });
    out
}

/// The kind of an X-cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Links alternate all the way round.
    Continuous,
    /// Two strong links meet at the first cell, which holds the digit.
    Strong,
    /// Two weak links meet at the first cell, which loses the digit.
    Weak,
}

/// What a loop search calls with each loop it finds (its cells, the start first); returning
/// true stops the search.
type OnLoop<'f> = dyn FnMut(&[Cell]) -> bool + 'f;

/// A depth-first search for simple loops through one cell.
struct Loops<'a> {
    /// The digit's links.
    g: &'a Graph,
    /// The kind of loop sought.
    kind: Kind,
    /// The cell the loop starts and ends at.
    start: Cell,
    /// The cells the loop may use.
    allowed: CellSet,
    /// Whether a loop must use every allowed cell.
    exact: bool,
    /// The most strong links.
    max: usize,
    /// Per cell, the fewest strong links still needed to close the loop from it when it holds
    /// the digit (`need[0]`) or not (`need[1]`); 255 when it cannot.
    need: [[u8; 81]; 2],
    /// The cells so far, the start first.
    path: [Cell; MAX_CELLS],
    /// How many.
    len: usize,
    /// The cells of the path, as a set.
    used: CellSet,
}

impl<'a> Loops<'a> {
    /// A search for loops of `kind` through `start` over `allowed`, with at most `max` strong
    /// links.
    fn new(g: &'a Graph, kind: Kind, start: Cell, allowed: CellSet, max: usize) -> Loops<'a> {
        // A loop closing at the start is a chain of forcings back to it; read backwards, it is
        // a chain from the start in the opposite states, so the levels of that chain bound
        // what is left to close.
        let back = Levels::new(g, start, kind != Kind::Strong, allowed);
        let mut need = [[u8::MAX; 81]; 2];
        for c in allowed {
            for (i, holds) in [(0, true), (1, false)] {
                if let Some(k) = back.level(c, !holds) {
                    need[i][c.index()] = k as u8;
                }
            }
        }
        let path = [start; MAX_CELLS];
        Loops {
            g,
            kind,
            start,
            allowed,
            exact: false,
            max,
            need,
            path,
            len: 1,
            used: CellSet::single(start),
        }
    }

    /// Runs the search, calling `found(loop)` for each loop (the start first, not repeated
    /// at the end); stops when it returns true.
    fn run(&mut self, found: &mut OnLoop) -> bool {
        let s = self.start;
        if self.kind == Kind::Weak {
            for x in self.g.weak(s) & self.allowed {
                if self.step(x, false, 0, found) {
                    return true;
                }
            }
        } else {
            for x in self.g.partner[s.index()] & self.allowed {
                if self.step(x, true, 1, found) {
                    return true;
                }
            }
        }
        false
    }

    /// Adds `c` (holding the digit when `holds`), `strong` strong links so far; goes on.
    fn step(&mut self, c: Cell, holds: bool, strong: usize, found: &mut OnLoop) -> bool {
        if strong + usize::from(self.need[usize::from(!holds)][c.index()]) > self.max {
            return false;
        }
        self.path[self.len] = c;
        self.len += 1;
        self.used.insert(c);
        let stop = self.extend(c, holds, strong, found);
        self.used.remove(c);
        self.len -= 1;
        stop
    }

    /// The loops closing at `c`, then the paths going on from it.
    fn extend(&mut self, c: Cell, holds: bool, strong: usize, found: &mut OnLoop) -> bool {
        let s = self.start;
        let complete = !self.exact || self.used == self.allowed;
        let closes = match (self.kind, holds) {
            (Kind::Continuous, true) => strong >= 2 && sees(c, s),
            (Kind::Weak, true) => strong >= MIN_WEAK_LOOP && self.len > 2 && sees(c, s),
            (Kind::Strong, false) => {
                self.len > 2 && strong < self.max && self.g.partner[c.index()].contains(s)
            }
            _ => false,
        };
        if closes && complete && found(&self.path[..self.len]) {
            return true;
        }
        if holds {
            for x in self.g.weak(c) & (self.allowed - self.used) {
                if self.step(x, false, strong, found) {
                    return true;
                }
            }
        } else if strong < self.max {
            for x in self.g.partner[c.index()] & (self.allowed - self.used) {
                if self.step(x, true, strong + 1, found) {
                    return true;
                }
            }
        }
        false
    }
}

/// The removals of a continuous loop: the places, off the loop, that see both ends of one of
/// its weak links (the second and third cells, the fourth and fifth, ..., the last and the
/// first).
fn continuous_removals(g: &Graph, cells: &[Cell]) -> CellSet {
    let on: CellSet = cells.iter().copied().collect();
    let mut hit = CellSet::EMPTY;
    for i in (1..cells.len()).step_by(2) {
        let (u, v) = (cells[i], cells[(i + 1) % cells.len()]);
        hit |= g.places & CellSet::peers(u) & CellSet::peers(v);
    }
    hit - on
}

/// Whether a continuous loop of four cells is an X-wing: two row links joined in columns, or
/// two column links joined in rows.
fn is_x_wing(g: &Graph, cells: &[Cell]) -> bool {
    if cells.len() != 4 {
        return false;
    }
    let (l1, l2) = (g.link(cells[0], cells[1]), g.link(cells[2], cells[3]));
    let (Some(l1), Some(l2)) = (l1, l2) else {
        return false;
    };
    let [s, x, y, z] = [cells[0], cells[1], cells[2], cells[3]];
    (l1.in_row() && l2.in_row() && x.col() == y.col() && z.col() == s.col())
        || (l1.in_col() && l2.in_col() && x.row() == y.row() && z.row() == s.row())
}

/// The shortest loop of `kind` through `start` (a strong-link meeting or a weak-link meeting),
/// over `allowed`, with every allowed cell when `exact`.
fn shortest(
    g: &Graph,
    kind: Kind,
    start: Cell,
    allowed: CellSet,
    exact: bool,
) -> Option<Vec<Cell>> {
    let mut search = Loops::new(g, kind, start, allowed, MAX_STRONG);
    search.exact = exact;
    // The fewest strong links of a walk of forcings back to the start bounds the loop's.
    let least = usize::from(search.need[usize::from(kind == Kind::Strong)][start.index()]);
    if least > MAX_STRONG {
        return None;
    }
    let least = least.max(if kind == Kind::Weak { MIN_WEAK_LOOP } else { 2 });
    let mut best = None;
    for max in least..=MAX_STRONG {
        search.max = max;
        search.run(&mut |cells: &[Cell]| {
            best = Some(cells.to_vec());
            true
        });
        if best.is_some() {
            break;
        }
    }
    best
}

/// Pushes every valid X-cycle; returns p, the number of places over all digits.
///
/// Discontinuous loops: one application per cell where one meets, from the shortest loop.
/// Continuous loops: one application per loop with removals, found from its first cell
/// (every other cell of the loop comes later) and going first along its strong link.
#[cfg(test)]
pub fn search_cycles(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_cycles_kept(st, &mut DigitMemo::default(), out)
}

/// [`search_cycles`], each digit's cycles kept in `memo` by its places: they depend on them
/// alone (a rating meets the same places again and again as other digits move).
pub(crate) fn search_cycles_kept(
    st: &Candidates,
    memo: &mut DigitMemo<Vec<Application>>,
    out: &mut Vec<Application>,
) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        p += places.len() as u64;
        let apps = per_digit(memo, places, d, 0, || {
            let mut apps = Vec::new();
            cycles_of(&Graph::new(st, d), d, &mut apps);
            apps
        });
        out.extend(apps.iter().copied());
    }
    p
}

/// Pushes the X-cycles of digit `d` (graph `g`).
fn cycles_of(g: &Graph, d: Digit, out: &mut Vec<Application>) {
    let first = out.len();
    for s in g.places {
        // An X-cycle found from s: its cells and what it proves.
        let found = |cells: &[Cell], effect| {
            let set: CellSet = cells.iter().copied().collect();
            Application::new(Strategy::XCycle, set, DigitSet::single(d), s.index(), effect)
        };
        let mut placed = false;
        // Two strong links meeting at s place the digit there.
        if g.linked.contains(s) {
            if let Some(cells) = shortest(g, Kind::Strong, s, g.places, false) {
                out.push(found(&cells, Effect::Place(s, d)));
                placed = true;
            }
        }
        // Two weak links meeting at s remove it (unless it was just placed).
        if !placed {
            if let Some(cells) = shortest(g, Kind::Weak, s, g.places, false) {
                let effect = Effect::remove_digit(d, CellSet::single(s));
                out.push(found(&cells, effect));
            }
        }
        if !g.linked.contains(s) {
            continue;
        }
        // Continuous loops whose first cell is s.
        let later = CellSet::from_bits(g.places.bits() & !((2u128 << s.index()) - 1));
        let allowed = later | CellSet::single(s);
        let mut search = Loops::new(g, Kind::Continuous, s, allowed, MAX_STRONG);
        search.run(&mut |cells: &[Cell]| {
            if is_x_wing(g, cells) {
                return false;
            }
            let hit = continuous_removals(g, cells);
            if hit.is_empty() {
                return false;
            }
            let a = found(cells, Effect::remove_digit(d, hit));
            if !out[first..]
                .iter()
                .any(|b| b.cells == a.cells && b.effect == a.effect)
            {
                out.push(a);
            }
            false
        });
    }
}

/// The loop of an X-cycle application, recomputed from its cells: its kind and its cells in
/// order, from the cell where a discontinuous loop meets (or a continuous loop's first cell),
/// not repeated at the end.
pub(crate) fn cycle(st: &Candidates, a: &Application) -> Option<(Kind, Vec<Cell>)> {
    let d = a.digits.first()?;
    let s = Cell::new(a.unit)?;
    let g = Graph::new(st, d);
    let kind = match a.effect {
        Effect::Place(..) => Kind::Strong,
        Effect::Remove(r) if r[d.index()] == CellSet::single(s) && a.cells.contains(s) => {
            Kind::Weak
        }
        Effect::Remove(_) => Kind::Continuous,
    };
    if kind != Kind::Continuous {
        return shortest(&g, kind, s, a.cells, true).map(|c| (kind, c));
    }
    let Effect::Remove(r) = a.effect else {
        return None;
    };
    let mut found = None;
    let mut search = Loops::new(&g, kind, s, a.cells, MAX_STRONG);
    search.exact = true;
    search.run(&mut |cells: &[Cell]| {
        let hit = continuous_removals(&g, cells);
        if r[d.index()].is_subset(hit) && !is_x_wing(&g, cells) {
            found = Some(cells.to_vec());
            true
        } else {
            false
        }
    });
    found.map(|c| (kind, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// An X-chain of three strong links on 6: `r1c1 = r1c5` (row 1), `r4c5 = r4c8` (row 4)
    /// and `r8c8 = r8c2` (row 8), joined by weak links in columns 5 (r7c5 is its third 6) and
    /// 8 (a strong link used as a weak one). One of r1c1 and r8c2 is 6; r2c2 and r3c2 see
    /// both.
    const CHAIN: &str = "r1c1 r1c5 r4c5 r4c8 r8c8 r8c2 r2c2 r3c2 r7c5";

    #[test]
    fn finds_an_x_chain() {
        let st = only(6, CHAIN);
        let (p, out) = run(search, &st);
        let g = Graph::new(&st, dg(6));
        assert_eq!(p, u64::from(g.linked.len()));
        let from = out
            .iter()
            .find(|a| a.unit as usize == rc(1, 1).index())
            .expect("a chain from r1c1");
        assert_eq!(removed(from, 6), set("r2c2 r3c2"));
        assert_eq!(from.cells, set("r1c1 r1c5 r4c5 r4c8 r8c8 r8c2"));
        assert_eq!(
            chains(&st, from),
            vec![cells("r1c1 r1c5 r4c5 r4c8 r8c8 r8c2")]
        );
    }

    #[test]
    fn no_chain_of_two_strong_links() {
        // Rows 1 and 4 joined in column 5: a skyscraper removing 6 from r2c3 and r3c3, too
        // short for an X-chain.
        let st = only(6, "r1c1 r1c5 r4c5 r4c3 r7c5 r2c3 r3c3");
        let (_, out) = run(search, &st);
        assert!(out.is_empty(), "{out:?}");
        let (_, sky) = run(super::super::skyscraper::search, &st);
        assert_eq!(removed_all(&sky, 6), set("r2c3 r3c3"));
    }

    /// The continuous loop of Jeff's post "Nice loops for elementary level players - the
    /// x-cycle" (forum.enjoysudoku.com/nice-loops-for-elementary-level-players-the-x-cycle-t2752.html),
    /// example 3, on 3: r2c1 -3- r9c1 =3= r7c3 -3- r7c8 =3= r5c8 -3- r5c6 =3= r3c6 -3- r2c4
    /// =3= r2c1. Other 3s in the weak links' houses (column 1, row 7, row 5, box 2) go: here
    /// r5c1, r7c5, r5c3 and r1c5, which also keep those houses from being strong links.
    const JEFF_3: &str = "r2c1 r9c1 r7c3 r7c8 r5c8 r5c6 r3c6 r2c4 r5c1 r7c5 r5c3 r1c5";

    #[test]
    fn continuous_x_cycle() {
        let st = only(3, JEFF_3);
        let (p, out) = run(search_cycles, &st);
        assert_eq!(p, u64::from(st.candidate_count()));
        let loops = on_cells(&out, "r2c1 r9c1 r7c3 r7c8 r5c8 r5c6 r3c6 r2c4");
        assert_eq!(loops.len(), 1, "{out:?}");
        assert_eq!(removed(loops[0], 3), set("r5c1 r7c5 r5c3 r1c5"));
        let (kind, cells) = cycle(&st, loops[0]).expect("the loop");
        assert_eq!(kind, Kind::Continuous);
        assert_eq!(cells.len(), 8);
    }

    /// The X-cycle of `st` that `pick` chooses among those [`search_cycles`] finds, with its
    /// loop's kind and cells.
    fn found_loop(st: &Candidates, pick: impl Fn(&Application) -> bool) -> (Application, Kind, Vec<Cell>) {
        let (_, out) = run(search_cycles, st);
        let at = *out.iter().find(|a| pick(a)).expect("the X-cycle");
        let (kind, cells) = cycle(st, &at).expect("the loop");
        (at, kind, cells)
    }

    /// Jeff's example 4, a discontinuous loop on 7 whose two strong links meet at r8c8:
    /// r8c8 =7= r3c8 -7- r3c1 =7= r1c3 -7- r8c3 =7= r8c8, so r8c8 is 7. Third places r3c5
    /// and r6c3 make row 3 and column 3 weak links.
    #[test]
    fn discontinuous_x_cycle_places_a_digit() {
        let st = only(7, "r8c8 r3c8 r3c1 r1c3 r8c3 r3c5 r6c3");
        let placed = Effect::Place(rc(8, 8), dg(7));
        let (at, kind, cells) = found_loop(&st, |a| a.effect == placed);
        assert_eq!(at.cells, set("r8c8 r3c8 r3c1 r1c3 r8c3"));
        assert_eq!(kind, Kind::Strong);
        assert_eq!(cells[0], rc(8, 8));
        assert_eq!(cells.len(), 5);
    }

    #[test]
    fn discontinuous_x_cycle_removes_a_digit() {
        // The X-chain of `CHAIN` closed by r2c2, which sees both ends: r2c2 is not 6.
        let st = only(6, CHAIN);
        let at = rc(2, 2).index();
        let (_, kind, cells) =
            found_loop(&st, |a| a.unit as usize == at && removed(a, 6) == set("r2c2"));
        assert_eq!(kind, Kind::Weak);
        assert_eq!(cells[0], rc(2, 2));
        assert_eq!(cells.len(), 7);
    }

    #[test]
    fn a_continuous_loop_beyond_a_skyscraper() {
        // Rows 1 and 2 hold 9 only in (c1, c5) and (c5, c3): a skyscraper on column 5 whose
        // roof cells r1c1 and r2c3 share box 1. As a loop, r1c1 = r1c5 - r2c5 = r2c3 - r1c1,
        // column 5 loses 9 too (r6c5), not only box 1 (r3c2).
        let st = only(9, "r1c1 r1c5 r2c5 r2c3 r6c5 r3c2");
        let (_, out) = run(search_cycles, &st);
        let lp = on_cells(&out, "r1c1 r1c5 r2c5 r2c3");
        assert_eq!(lp.len(), 1, "{out:?}");
        assert_eq!(removed(lp[0], 9), set("r6c5 r3c2"));
    }

    #[test]
    fn an_x_wing_is_no_x_cycle() {
        // Rows 2 and 8 hold 5 only in columns 2 and 6; row 5 has a third place in r5c9.
        let st = only(5, "r2c2 r2c6 r8c6 r8c2 r5c2 r5c6 r5c9");
        let (_, out) = run(search_cycles, &st);
        assert!(out.is_empty(), "{out:?}");
    }

    /// HoDoKu's X-chain examples (`reglib-1.3.txt`, section 0701, chains of three strong
    /// links), seen as loops: the removed cell sees both ends of the chain, and two weak links
    /// meet at it.
    #[test]
    fn hodoku_x_chains_as_loops() {
        let cases = [
            ("3.4+52..8...6.+9.....5..7.3.....68+9.2+3...+734....6+315+27...1.+9+6......9.+4..6.+6.8217..5", "", 7, "742"),
            (".+421+7+8..+9..+8+4+2..+7+1.1+7+3.928+44..+83+1+7+2673+65+4+2+1+9+8+2+8+1+69745+3.2.+9..+8.787+32.49.+5...+78...+2", "", 6, "697 698"),
        ];
        for (givens, deleted, d, want) in cases {
            let st = library(givens, deleted);
            let (_, out) = run(search_cycles, &st);
            for (c, x) in candidates(want) {
                let at = out
                    .iter()
                    .find(|a| a.unit as usize == c.index() && a.digits.contains(x))
                    .unwrap_or_else(|| panic!("{givens}: no loop at {c}: {out:?}"));
                assert_eq!(removed(at, d), CellSet::single(c));
                let (kind, cells) = cycle(&st, at).expect("the loop");
                assert_eq!((kind, cells.len()), (Kind::Weak, 7));
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// Prints the time the searches take on hard states (not asserted).
    #[test]
    fn time_on_hard_states() {
        let Ok(puzzles) = crate::dev::refdata::puzzles("hard/top1465.tsv") else {
            return;
        };
        for (name, tiers) in [("after singles", 0u8), ("after tier 4", 4)] {
            let mut states = Vec::new();
            for p in puzzles.iter().step_by(15).take(100) {
                let mut st = Candidates::new(p);
                crate::strategies::tiers::fixpoint(&mut st, tiers);
                if !st.is_solved() {
                    states.push(st);
                }
            }
            for (label, f) in [
                (
                    "x-chain",
                    search as fn(&Candidates, &mut Vec<Application>) -> u64,
                ),
                ("x-cycle", search_cycles),
            ] {
                let t = std::time::Instant::now();
                let (mut worst, mut n) = (0.0f64, 0);
                for st in &states {
                    let t1 = std::time::Instant::now();
                    let mut out = Vec::new();
                    f(st, &mut out);
                    n += out.len();
                    worst = worst.max(t1.elapsed().as_secs_f64());
                }
                eprintln!(
                    "{label} {name}: {} states, {:.2} ms mean, {:.2} ms worst, {n} apps",
                    states.len(),
                    t.elapsed().as_secs_f64() * 1e3 / states.len() as f64,
                    worst * 1e3
                );
            }
        }
    }
}
