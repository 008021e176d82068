//! ALS chain, or ALS-XY-chain (no hsolve tier; for the rating beyond the paper): almost locked
//! sets (see [`super::als`]) A1, A2, ..., An, pairwise disjoint, each linked to the next by a
//! restricted common digit, two consecutive links never on the same digit. If A1 lacks a
//! digit z, it is locked with its other digits, the first link's among them; so A2 cannot
//! hold that digit and is locked with the second link's; and so on, until An, which cannot
//! hold the last link's digit and holds all its others. So for a digit z of A1 and An that is
//! neither the first link's nor the last's, z is in A1 or An, and every cell seeing each z of
//! both loses z. Three sets make an ALS-XY-wing (a technique of its own); chains here have
//! four to six sets.
//!
//! The search is bounded: chains are searched shortest first over all first sets (each chain
//! in one direction only, from the earlier set of the list of [`als::find`]), and it stops
//! after [`BUDGET`] link steps. Every chain it reports is valid; on states dense with sets
//! some longer chains are not looked for.
//!
//! Possible applications: the almost locked sets linked to at least one other (each a possible
//! start).

use super::als::{self, Als, Graph};
use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Digit;

/// The fewest sets in a chain (three are an ALS-XY-wing).
const MIN_SETS: usize = 4;

/// The most sets in a chain.
const MAX_SETS: usize = 6;

/// The most links followed in one search, over all starts: a bound on the time a search
/// takes on states dense with sets. The search stops there, keeping what it found.
const BUDGET: u32 = 50_000;

/// One ALS chain: its sets in order, the digits linking them, and the digit removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The sets, first to last.
    pub sets: Vec<Als>,
    /// The restricted common digit linking each set to the next.
    pub links: Vec<Digit>,
    /// The digit of the first and last sets that cells seeing all of them lose.
    pub z: Digit,
}

/// Pushes every valid ALS chain (one per first set, last set and digit z, the shortest chain
/// found between them); returns p, the number of sets linked to another.
#[cfg(test)]
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_sets(&als::Sets::of(st), out)
}

/// [`search`] on the sets of a state (made once for the four ALS techniques).
pub(crate) fn search_sets(all: &als::Sets, out: &mut Vec<Application>) -> u64 {
    visit(all, |_, a| out.push(a))
}

/// The pattern of `app`, an ALS chain found on `st`.
pub(crate) fn pattern(st: &Candidates, app: &Application) -> Option<Pattern> {
    find_again(app, |f| visit(&als::Sets::of(st), f))
}

/// The search from one first set: the state of a depth-first walk along the links.
struct Walk<'a> {
    sets: &'a [Als],
    /// The cells of each set.
    cells: &'a [CellSet],
    graph: &'a Graph,
    /// Per number of links k (0 to `MAX_SETS - 1`), per set, the sets within k links of it
    /// (in rows of `words` words of bits).
    reach: &'a [Vec<u64>],
    words: usize,
    /// The first row of `reach` past itself: per set, its partners (as bits).
    partners: &'a [u64],
    /// Per digit z of the first set: the cells holding z that see every z of the first set.
    targets: [CellSet; 9],
    /// Rows of `words` words of bits: per digit z (rows 0-8), the last sets still to reach,
    /// sets after the first holding z with some target seeing all their z and not reached
    /// by a shorter chain yet; row 9 is their union.
    goal: &'a mut [u64],
    /// The chain so far: set indexes and the links between them.
    chain: Vec<u32>,
    links: Vec<Digit>,
    /// The cells of the chain so far.
    used: CellSet,
    /// Per (set, digit entering it), a stamp and the most links left with which it was
    /// explored without reaching a new last set: it is not explored again with as few.
    dead: &'a mut [(u32, u8)],
    stamp: u32,
    /// Chains reported from this first set.
    found: u32,
    /// Links left to follow in this search.
    budget: &'a mut u32,
}

/// The union row of a start's goal rows.
const ANY: usize = 9;

impl Walk<'_> {
    /// True when a set still to reach is within `k` links of set `i`.
    fn can_reach(&self, i: usize, k: usize) -> bool {
        let row = &self.reach[k][i * self.words..(i + 1) * self.words];
        let any = &self.goal[ANY * self.words..(ANY + 1) * self.words];
        row.iter().zip(any).any(|(a, b)| a & b != 0)
    }

    /// Reports the chain, which ends in set `end` entered by the link `last`, for each digit
    /// it removes.
    fn arrive(&mut self, end: u32, last: Digit, f: &mut impl FnMut(&Pattern, Application)) {
        let (e, bit) = (end as usize / 64, 1u64 << (end % 64));
        let w = self.words;
        if self.goal[ANY * w + e] & bit == 0 {
            return;
        }
        let first_link = self.links[0];
        let mut left = false;
        for zi in 0..9 {
            let z = Digit::from_index(zi);
            if self.goal[zi * w + e] & bit == 0 {
                continue;
            }
            if z == last || z == first_link {
                left = true;
                continue;
            }
            self.goal[zi * w + e] &= !bit;
            let hit = self.targets[zi] & self.sets[end as usize].seeing(z);
            let chain: Vec<Als> = self.chain.iter().map(|&k| self.sets[k as usize]).collect();
            let cells = chain.iter().fold(CellSet::EMPTY, |u, s| u | s.cells);
            let digits = chain.iter().fold(DigitSet::EMPTY, |u, s| u | s.digits);
            let app = Application::new(
                Strategy::AlsChain,
                cells,
                digits,
                usize::from(chain[0].house),
                Effect::remove_digit(z, hit),
            );
            self.found += 1;
            f(
                &Pattern {
                    sets: chain,
                    links: self.links.clone(),
                    z,
                },
                app,
            );
        }
        if !left {
            self.goal[ANY * w + e] &= !bit;
        }
    }

    /// Extends the chain, whose last set was entered by the link `prev` (`None` for the
    /// first set), by exactly `left` more sets, reporting each chain reaching a new last set.
    fn extend(
        &mut self,
        prev: Option<Digit>,
        left: usize,
        f: &mut impl FnMut(&Pattern, Application),
    ) {
        let last = *self.chain.last().expect("a first set") as usize;
        let key = last * 10 + prev.map_or(9, |d| d.index());
        let (stamp, k) = self.dead[key];
        if stamp == self.stamp && usize::from(k) >= left {
            return;
        }
        let before = self.found;
        let banned = prev.map_or(DigitSet::EMPTY, DigitSet::single);
        let edges = self.graph.of(last);
        if left == 1 {
            // The last link: only partners still to reach matter.
            let w = self.words;
            for k in 0..w {
                let mut m = self.partners[last * w + k] & self.goal[ANY * w + k];
                while m != 0 {
                    let next = (k * 64 + m.trailing_zeros() as usize) as u32;
                    m &= m - 1;
                    if *self.budget == 0 {
                        return;
                    }
                    *self.budget -= 1;
                    if self.cells[next as usize].intersects(self.used) {
                        continue;
                    }
                    let at = edges
                        .binary_search_by_key(&next, |e| e.0)
                        .expect("a partner has an edge");
                    for r in (edges[at].1 - banned).iter() {
                        self.chain.push(next);
                        self.links.push(r);
                        self.arrive(next, r, f);
                        self.chain.pop();
                        self.links.pop();
                    }
                }
            }
        } else {
            let partners = self.graph.cells_of(last);
            for (&(next, rc), &cells) in edges.iter().zip(partners) {
                if cells.intersects(self.used) {
                    continue;
                }
                for r in (rc - banned).iter() {
                    if *self.budget == 0 {
                        return;
                    }
                    *self.budget -= 1;
                    if self.can_reach(next as usize, left - 1) {
                        self.chain.push(next);
                        self.links.push(r);
                        self.used |= cells;
                        self.extend(Some(r), left - 1, f);
                        self.used -= cells;
                        self.chain.pop();
                        self.links.pop();
                    }
                }
            }
        }
        if self.found == before {
            let entry = &mut self.dead[key];
            if entry.0 != self.stamp {
                *entry = (self.stamp, 0);
            }
            entry.1 = entry.1.max(left as u8);
        }
    }
}

/// Calls `f` with every valid ALS chain and its application; returns p.
///
/// Chains are searched shortest first: every first set with four sets, then with five, then
/// with six, depth first along the links with two prunings: the last set must be one still
/// to reach for some digit (the goals), within the links left; and a (set, entering link)
/// already explored from the same first set without reaching a new goal, with as many links
/// left, is not explored again (whatever cells the chain used before it, so a chain blocked
/// there by its own cells can be missed). After [`BUDGET`] link steps the search stops.
fn visit(all: &als::Sets, mut f: impl FnMut(&Pattern, Application)) -> u64 {
    let (sets, graph) = (&all.sets, &all.graph);
    let n = sets.len();
    let starts: Vec<usize> = (0..n).filter(|&i| !graph.of(i).is_empty()).collect();
    let p = starts.len() as u64;
    // reach[k]: per set, the sets within k links of it (itself included).
    let words = n.div_ceil(64);
    let mut reach = vec![vec![0u64; n * words]];
    for i in 0..n {
        reach[0][i * words + i / 64] |= 1 << (i % 64);
    }
    for k in 1..MAX_SETS {
        let mut next = reach[k - 1].clone();
        for i in 0..n {
            for &(j, _) in graph.of(i) {
                let j = j as usize;
                for w in 0..words {
                    next[i * words + w] |= reach[k - 1][j * words + w];
                }
            }
        }
        reach.push(next);
    }
    let mut partners = reach[1].clone();
    for i in 0..n {
        partners[i * words + i / 64] &= !(1 << (i % 64));
    }
    // Per start: its targets, and its goal rows.
    let rows = 10 * words;
    let mut goals = vec![0u64; starts.len() * rows];
    let mut targets = vec![[CellSet::EMPTY; 9]; starts.len()];
    // Per digit, the linked sets holding it, in order, with the cells they take it from and
    // their cells (read in a row, not from each set).
    let mut holding: [Vec<(u32, CellSet, CellSet)>; 9] = Default::default();
    for &i in &starts {
        let s = &sets[i];
        for d in s.digits.iter() {
            holding[d.index()].push((i as u32, s.seeing(d), s.cells));
        }
    }
    for (k, &i) in starts.iter().enumerate() {
        let first = &sets[i];
        let goal = &mut goals[k * rows..(k + 1) * rows];
        for z in first.digits.iter() {
            let t = first.seeing(z);
            targets[k][z.index()] = t;
            if t.is_empty() {
                continue;
            }
            let later = &holding[z.index()];
            for &(j, seeing, cells) in &later[later.partition_point(|e| e.0 as usize <= i)..] {
                let j = j as usize;
                if seeing.intersects(t) && !cells.intersects(first.cells) {
                    goal[z.index() * words + j / 64] |= 1 << (j % 64);
                    goal[ANY * words + j / 64] |= 1 << (j % 64);
                }
            }
        }
    }
    let mut budget = BUDGET;
    let mut dead = vec![(u32::MAX, 0u8); n * 10];
    let mut stamp = 0;
    for len in MIN_SETS..=MAX_SETS {
        for (k, &i) in starts.iter().enumerate() {
            if budget == 0 {
                return p;
            }
            let mut walk = Walk {
                sets,
                cells: &all.cells,
                graph,
                reach: &reach,
                words,
                partners: &partners,
                targets: targets[k],
                goal: &mut goals[k * rows..(k + 1) * rows],
                chain: vec![i as u32],
                links: Vec::new(),
                used: sets[i].cells,
                dead: &mut dead,
                stamp,
                found: 0,
                budget: &mut budget,
            };
            stamp += 1;
            if walk.can_reach(i, len - 1) {
                walk.extend(None, len - 1, &mut f);
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// A chain of four bivalue cells (an XY-chain seen as ALSs): r1c1 (1, 2) -2- r1c5 (2, 3)
    /// -3- r5c5 (3, 4) -4- r5c9 (4, 1). z = 1: one of r1c1 and r5c9 is 1; r1c9 and r5c1 see
    /// both.
    const CHAIN: &str = "r1c1=12 r1c5=23 r5c5=34 r5c9=14";

    #[test]
    fn finds_a_chain_of_four() {
        let st = board(CHAIN);
        let (_, out) = run(search, &st);
        let mine = on_cells(&out, "r1c1 r1c5 r5c5 r5c9");
        assert_eq!(mine.len(), 1);
        assert_eq!(
            removed(mine[0], 1),
            set("r1c9 r5c1")
        );
        let p = pattern(&st, mine[0]).expect("its pattern");
        assert_eq!(p.links.len(), 3);
        assert_eq!(p.z, dg(1));
    }

    #[test]
    fn counts_linked_sets() {
        let st = board(CHAIN);
        let sets = als::find(&st);
        let linked = (0..sets.len())
            .filter(|&i| (0..sets.len()).any(|j| !sets[i].restricted_commons(&sets[j]).is_empty()))
            .count() as u64;
        let (p, _) = run(search, &st);
        assert_eq!(p, linked);
    }

    #[test]
    fn none_when_a_digit_links_twice_in_a_row() {
        // r1c1 (1, 2) -2- r1c5 (2, 3) -3- r5c5 (3, 4) and then r5c9 (3, 1), linked to r5c5 by
        // 3 again: after r5c5 lost 3 it holds 4, which says nothing about r5c9.
        let st = board("r1c1=12 r1c5=23 r5c5=34 r5c9=13");
        let (_, out) = run(search, &st);
        assert!(on_cells(&out, "r1c1 r1c5 r5c5 r5c9").is_empty());
    }

    /// The second ALS chain example of GIDOO's "Sudoku Solver Generator" pages (ALS Chain,
    /// gidoo-code.github.io/Sudoku_Solver_Generator_v4/page52.html): on this puzzle, the sets
    /// r1c7 (1, 3) -1- r1c5, r1c6 (1, 4, 8) -4- r3c4 (1, 4) -1- r5c4 (1, 4) -4- r5c9 (3, 4)
    /// remove 3 from r6c7. The state is the puzzle's after singles, locked candidates and
    /// pairs, whose candidates in these cells are the published ones.
    const GIDOO: &str =
        "6..9....5.4.5.6.7...5.3.2...6.8.3.91..8...6..91.7.2.5...6.7.4...7.3.5.6.2....4..7";

    #[test]
    fn gidoo_example() {
        let mut st = state(GIDOO);
        crate::strategies::tiers::fixpoint(&mut st, 1);
        for (c, ds) in [
            ("r1c7", "13"),
            ("r1c5", "148"),
            ("r1c6", "18"),
            ("r3c4", "14"),
            ("r5c4", "14"),
            ("r5c9", "34"),
        ] {
            assert_eq!(st.candidates(cells(c)[0]).to_string(), ds, "{c}");
        }
        let (_, out) = run(search, &st);
        assert!(out.iter().any(|a| removed(a, 3).contains(rc(6, 7))));
        // The published chain itself is among those found, or a shorter one between the
        // same two sets.
        let ends = set("r1c7 r5c9");
        assert!(out
            .iter()
            .any(|a| ends.is_subset(a.cells) && removed(a, 3).contains(rc(6, 7))));
    }
}
