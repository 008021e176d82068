//! Remote pairs (no hsolve tier; for the rating beyond the paper): two-candidate cells that
//! all hold the same two digits x and y, linked into a chain where each cell sees the next.
//! Neighbours hold different digits, so the cells alternate between two colours: one colour
//! holds x, the other y. A cell seeing two cells of different colours sees both x and y, and
//! loses them. Only chains of four cells or more count: two cells of different colours that see
//! each other are a naked pair (and three cells make a W-wing at most).
//!
//! Possible applications: the groups of two-candidate cells with the same two digits, linked
//! by seeing each other, that hold two cells of different colours not seeing each other (a
//! chain of four cells or more).

use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit};

/// One group of remote pairs: its two digits, its two colours and the removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RemotePairs {
    /// The two digits x and y.
    pub xy: DigitSet,
    /// The two colours: the group's cells alternate between them along any chain.
    pub colours: [CellSet; 2],
    /// The cells that lose x and y (those that hold them).
    pub targets: CellSet,
    /// The removals.
    pub effect: Effect,
}

impl RemotePairs {
    /// The group's cells.
    pub fn cells(&self) -> CellSet {
        self.colours[0] | self.colours[1]
    }

    /// The application: the group's cells and digits, found at its first cell.
    pub fn application(&self) -> Application {
        let first = self.cells().first().expect("a group has cells");
        Application::new(
            Strategy::RemotePairs,
            self.cells(),
            self.xy,
            first.index(),
            self.effect,
        )
    }

    /// A chain of the group's cells from `from` to `to`, each seeing the next (the shortest).
    pub fn chain(&self, from: Cell, to: Cell) -> Option<Vec<Cell>> {
        let cells = self.cells();
        let mut parent = [None::<Cell>; 81];
        let mut queue = vec![from];
        let mut seen = CellSet::single(from);
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            if c == to {
                let mut path = vec![to];
                let mut at = to;
                while let Some(p) = parent[at.index()] {
                    path.push(p);
                    at = p;
                }
                path.reverse();
                return Some(path);
            }
            for n in cells & (CellSet::peers(c) - seen) {
                seen.insert(n);
                parent[n.index()] = Some(c);
                queue.push(n);
            }
        }
        None
    }

    /// Two cells of different colours that a target sees and that do not see each other.
    pub fn ends_for(&self, target: Cell) -> Option<(Cell, Cell)> {
        let seen = CellSet::peers(target);
        for u in self.colours[0] & seen {
            if let Some(v) = (self.colours[1] & (seen - CellSet::peers(u))).first() {
                return Some((u, v));
            }
        }
        None
    }
}

/// Pushes every valid group of remote pairs; returns p (see the module docs).
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    scan(st, |g| out.push(g.application()))
}

/// The group behind an application of [`search`] on `st`, for its words.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<RemotePairs> {
    find_again(a, |f| scan(st, |g| f(g, g.application())))
}

/// Two-colours the group of `cells` linked to `start`: `None` when two cells of one colour
/// see each other (a broken state).
fn colour(cells: CellSet, start: Cell) -> Option<[CellSet; 2]> {
    let mut colours = [CellSet::single(start), CellSet::EMPTY];
    let mut frontier = CellSet::single(start);
    let mut k = 0;
    while !frontier.is_empty() {
        let mut next = CellSet::EMPTY;
        for c in frontier {
            next |= cells & CellSet::peers(c);
        }
        if next.intersects(colours[k]) {
            return None;
        }
        next -= colours[1 - k];
        colours[1 - k] |= next;
        frontier = next;
        k = 1 - k;
    }
    Some(colours)
}

/// Calls `f` with every group of remote pairs that removes something; returns p.
fn scan(st: &Candidates, mut f: impl FnMut(&RemotePairs)) -> u64 {
    let bivalue = st.bivalue_cells();
    let mut p = 0;
    for x in 0..8 {
        let dx = Digit::from_index(x);
        for y in x + 1..9 {
            let dy = Digit::from_index(y);
            let mut left = bivalue & st.cells_with(dx) & st.cells_with(dy);
            if left.len() < 4 {
                continue;
            }
            while let Some(start) = left.first() {
                let Some(colours) = colour(left, start) else {
                    // Cells of one colour see each other: skip the whole group.
                    let mut group = CellSet::single(start);
                    let mut frontier = group;
                    while !frontier.is_empty() {
                        let mut next = CellSet::EMPTY;
                        for c in frontier {
                            next |= left & CellSet::peers(c);
                        }
                        frontier = next - group;
                        group |= next;
                    }
                    left -= group;
                    continue;
                };
                let group = colours[0] | colours[1];
                left -= group;
                let chain = colours[0]
                    .iter()
                    .any(|u| !(colours[1] - CellSet::peers(u)).is_empty());
                if !chain {
                    continue;
                }
                p += 1;
                let xy = DigitSet::from_bits(1 << x | 1 << y);
                let mut g = RemotePairs {
                    xy,
                    colours,
                    targets: CellSet::EMPTY,
                    effect: Effect::Remove([CellSet::EMPTY; 9]),
                };
                let candidates = (st.cells_with(dx) | st.cells_with(dy)) - group;
                let targets: CellSet = candidates
                    .iter()
                    .filter(|&t| g.ends_for(t).is_some())
                    .collect();
                if targets.is_empty() {
                    continue;
                }
                let mut r = [CellSet::EMPTY; 9];
                r[x] = targets & st.cells_with(dx);
                r[y] = targets & st.cells_with(dy);
                g.targets = targets;
                g.effect = Effect::Remove(r);
                f(&g);
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_remote_pairs() {
        // r1c1 - r1c5 - r5c5 - r5c9, all 27: r1c1 and r5c9 differ, and r1c9 and r5c1 see both.
        let st = board("r1c1=27 r1c5=27 r5c5=27 r5c9=27");
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        let seen = set("r1c9 r5c1");
        assert_eq!(out[0].effect, Effect::remove_digits(out[0].digits, seen));
        let g = pattern(&st, &out[0]).expect("the group");
        let (u, v) = g.ends_for(rc(1, 9)).expect("two ends");
        assert_eq!(
            g.chain(u, v).expect("a chain"),
            vec![rc(1, 1), rc(1, 5), rc(5, 5), rc(5, 9)]
        );
    }

    #[test]
    fn three_cells_are_not_remote_pairs() {
        // r1c1 - r1c5 - r5c5: the two ends have one colour.
        let (p, out) = run(search, &board("r1c1=27 r1c5=27 r5c5=27"));
        assert_eq!(p, 0);
        assert!(out.is_empty());
        // Four cells, but every pair of different colours sees each other (a star).
        let (p, out) = run(search, &board("r1c1=27 r1c5=27 r5c1=27 r2c2=27"));
        assert_eq!(p, 0);
        assert!(out.is_empty());
    }
}
