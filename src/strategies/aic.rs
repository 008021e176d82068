//! Alternating inference chains (AIC) and nice loops, with grouped nodes (no hsolve tier; for
//! the rating beyond the paper).
//!
//! A **node** is a digit in one cell, or a digit in a **group**: two or three of its places
//! inside one line-box intersection, read as "the digit is in one of these cells". Two nodes
//! are joined by
//!
//! - a **strong link** when at least one of them is true: the only two candidates of a cell,
//!   or the only places of a digit in a house, split between the two nodes;
//! - a **weak link** when they are not both true: two candidates of one cell, or one digit in
//!   two nodes whose cells all see each other.
//!
//! An AIC alternates them, strong first and last: if its first node is false the second is
//! true, the third false, and so on to the last, which is true. So one of the two ends is
//! true, and every candidate weakly linked to both ends is removed: a candidate of the ends'
//! digit seeing both ends, or, when the ends are two digits of one cell, or two digits in
//! cells that see each other, the other digits there. A chain whose ends are weakly linked
//! closes into a **nice loop** (a continuous loop: every weak link of it acts as a strong one);
//! a chain that comes back to its own start (if it is false then it is true) places it. Those
//! two are reported as nice loops, the rest as AICs; chains of one digit only, or of
//! two-candidate cells only, are X-chains and XY-chains, searched before these.
//!
//! Chains are searched breadth first from each start, up to [`MAX_NODES`] nodes: every step
//! is an inference from the previous node alone, so each end reached is the end of a chain.
//! The weak links are kept as sets of nodes (bits), so a level of the walk is a union of
//! sets, and only the ends that can remove something are looked at.
//!
//! Possible applications: the candidates and groups with a strong link (each a possible
//! start).

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet, HOUSES_OF_CELL};
use crate::grid::{Cell, Digit};

/// The longest chain searched, in nodes.
pub const MAX_NODES: usize = 20;

/// A node: a digit in one cell, or in a group of two or three cells of one line-box
/// intersection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The digit.
    pub digit: Digit,
    /// The cell, or the group's cells.
    pub cells: CellSet,
}

impl Node {
    /// True when the node is one candidate (not a group).
    pub fn is_candidate(self) -> bool {
        self.cells.len() == 1
    }
}

/// A link of a chain as it is followed: the node reached, and whether it is true there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The node.
    pub node: Node,
    /// True when the chain makes it true (reached by a strong link), false when it makes it
    /// false (reached by a weak link; the start is false).
    pub on: bool,
}

/// The nodes of a state and the links between them.
struct Graph {
    /// The candidates (cell by cell, digit by digit), then the groups.
    nodes: Vec<Node>,
    /// How many of the nodes are candidates (the first ones).
    candidates: usize,
    /// Per candidate (cell * 9 + digit): its node, or `NONE`.
    candidate: [u16; 729],
    /// Per digit: its group nodes.
    groups: [Vec<u16>; 9],
    /// `strong_to[strong_at[i]..strong_at[i + 1]]`: the nodes made true when node i is false.
    strong_at: Vec<u32>,
    /// See `strong_at`.
    strong_to: Vec<u16>,
    /// Words per node set (64 nodes a word).
    words: usize,
    /// Per node, `words` words: the set of nodes made false when it is true (its weak links;
    /// the relation is symmetric).
    weak_nodes: Vec<u64>,
}

const NONE: u16 = u16::MAX;

impl Graph {
    fn new(st: &Candidates) -> Graph {
        let mut nodes = Vec::with_capacity(512);
        let mut candidate = [NONE; 729];
        for c in st.empty() {
            for d in st.candidates(c).iter() {
                candidate[c.index() * 9 + d.index()] = nodes.len() as u16;
                nodes.push(Node {
                    digit: d,
                    cells: CellSet::single(c),
                });
            }
        }
        let candidates = nodes.len();
        let mut groups: [Vec<u16>; 9] = Default::default();
        for seg in (0..54).map(super::locked_candidates::shared) {
            for d in Digit::all() {
                let places = st.cells_with(d) & seg;
                if places.len() < 2 {
                    continue;
                }
                // Every subset of two or more places (a segment has three cells).
                let mut cells = [Cell::from_index(0); 3];
                for (k, c) in places.iter().enumerate() {
                    cells[k] = c;
                }
                let n = places.len() as usize;
                for mask in 1u32..(1 << n) {
                    if mask.count_ones() < 2 {
                        continue;
                    }
                    let g: CellSet = (0..n)
                        .filter(|i| mask >> i & 1 != 0)
                        .map(|i| cells[i])
                        .collect();
                    groups[d.index()].push(nodes.len() as u16);
                    nodes.push(Node { digit: d, cells: g });
                }
            }
        }
        let words = nodes.len().div_ceil(64);
        let mut graph = Graph {
            strong_at: Vec::with_capacity(nodes.len() + 1),
            strong_to: Vec::with_capacity(nodes.len() * 3),
            words,
            weak_nodes: vec![0u64; nodes.len() * words],
            candidates,
            nodes,
            candidate,
            groups,
        };
        graph.strong_at.push(0);
        for i in 0..graph.nodes.len() {
            let Node { digit: d, cells } = graph.nodes[i];
            let from = graph.strong_to.len();
            if let Some(c) = (cells.len() == 1).then(|| cells.first()).flatten() {
                let cs = st.candidates(c);
                if cs.len() == 2 {
                    let e = (cs - DigitSet::single(d)).first().expect("two candidates");
                    graph.strong_to.push(graph.candidate[c.index() * 9 + e.index()]);
                }
            }
            let first = cells.first().expect("a node has cells");
            for &h in &HOUSES_OF_CELL[first.index()] {
                let house = CellSet::house_at(h as usize);
                if !cells.is_subset(house) {
                    continue;
                }
                let rest = (st.cells_with(d) & house) - cells;
                if let Some(n) = graph.node_of(d, rest) {
                    if !graph.strong_to[from..].contains(&n) {
                        graph.strong_to.push(n);
                    }
                }
            }
            graph.strong_at.push(graph.strong_to.len() as u32);
        }
        // Weak links, as `weak` reads them: a candidate's from its own row; a group's both
        // ways (the candidates' rows do not look for groups), and to the later groups of its
        // digit lying among the cells it sees.
        let link = |bits: &mut [u64], from: usize, to: usize| {
            bits[from * words + to / 64] |= 1 << (to % 64);
        };
        for i in 0..candidates {
            for (di, cells) in graph.weak(st, graph.nodes[i]).iter().enumerate() {
                for x in cells.iter() {
                    link(&mut graph.weak_nodes, i, graph.candidate[x.index() * 9 + di] as usize);
                }
            }
        }
        for d in Digit::all() {
            let gs = &graph.groups[d.index()];
            for (k, &g) in gs.iter().enumerate() {
                let g = g as usize;
                let seen = graph.weak(st, graph.nodes[g])[d.index()];
                for x in seen.iter() {
                    let y = graph.candidate[x.index() * 9 + d.index()] as usize;
                    link(&mut graph.weak_nodes, g, y);
                    link(&mut graph.weak_nodes, y, g);
                }
                for &h in &gs[k + 1..] {
                    let h = h as usize;
                    if graph.nodes[h].cells.is_subset(seen) {
                        link(&mut graph.weak_nodes, g, h);
                        link(&mut graph.weak_nodes, h, g);
                    }
                }
            }
        }
        graph
    }

    /// The nodes made true when node `i` is false.
    #[inline]
    fn strong(&self, i: usize) -> &[u16] {
        &self.strong_to[self.strong_at[i] as usize..self.strong_at[i + 1] as usize]
    }

    /// The node of digit `d` on exactly `cells`, if there is one.
    fn node_of(&self, d: Digit, cells: CellSet) -> Option<u16> {
        match cells.len() {
            0 => None,
            1 => {
                let c = cells.first().expect("one cell");
                Some(self.candidate[c.index() * 9 + d.index()]).filter(|&n| n != NONE)
            }
            _ => self.groups[d.index()]
                .iter()
                .copied()
                .find(|&g| self.nodes[g as usize].cells == cells),
        }
    }

    /// The candidates weakly linked to `n` (false when it is true), per digit.
    fn weak(&self, st: &Candidates, n: Node) -> [CellSet; 9] {
        let mut out = [CellSet::EMPTY; 9];
        out[n.digit.index()] = (st.cells_with(n.digit) & n.cells.common_peers()) - n.cells;
        if let Some(c) = n.is_candidate().then(|| n.cells.first()).flatten() {
            for e in (st.candidates(c) - DigitSet::single(n.digit)).iter() {
                out[e.index()].insert(c);
            }
        }
        out
    }

    /// The weak links of node `i`, as a node set.
    #[inline]
    fn weak_of(&self, i: usize) -> &[u64] {
        &self.weak_nodes[i * self.words..(i + 1) * self.words]
    }
}

/// Pushes every AIC that is not a loop (see the module docs): one application per pair of
/// ends with removals; returns p.
#[cfg(test)]
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_kept(st, false, &mut None, out)
}

/// Pushes every nice loop: chains whose ends are weakly linked (their removals), and chains
/// that return to their start (a placement); returns p.
#[cfg(test)]
pub fn search_loops(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_kept(st, true, &mut None, out)
}

/// A walk's result kept for the other kind: the state's candidate masks, the kind (true:
/// loops), p and the applications.
pub(crate) type Kept = ([u16; 81], bool, u64, Vec<Application>);

/// The AICs (`loops` false) or loops of `st`, taken from `kept` when it holds them (the walk
/// made for the other kind on the same state: one walk finds both, and a rating searches them
/// one after the other); a new walk keeps there what it found of the other kind.
pub(crate) fn search_kept(
    st: &Candidates,
    loops: bool,
    kept: &mut Option<Kept>,
    out: &mut Vec<Application>,
) -> u64 {
    if let Some((masks, kind, _, _)) = kept {
        if *kind == loops && masks == st.masks() {
            let (_, _, p, apps) = kept.take().expect("just matched");
            out.extend(apps);
            return p;
        }
    }
    let mut sinks = [Vec::new(), Vec::new()];
    let p = chains(st, &mut sinks, None);
    let [aics, nice] = sinks;
    let (mine, other) = if loops { (nice, aics) } else { (aics, nice) };
    out.extend(mine);
    *kept = Some((*st.masks(), !loops, p, other));
    p
}

/// The chain of an AIC or nice loop `a` found in `st`, from its start (false) to its end
/// (true), for the words of a hint.
pub fn chain_of(st: &Candidates, a: &Application) -> Option<Vec<Step>> {
    let mut found = [Vec::new(), Vec::new()];
    let mut chains_found = [Vec::new(), Vec::new()];
    chains(st, &mut found, Some(&mut chains_found));
    let k = usize::from(a.strategy == Strategy::NiceLoop);
    found[k]
        .iter()
        .zip(std::mem::take(&mut chains_found[k]))
        .find(|(f, _)| f.effect == a.effect && f.cells == a.cells && f.unit == a.unit)
        .map(|(_, c)| c)
}

/// The search: pushes AICs to `out[0]` and nice loops to `out[1]`; with `witness`, also the
/// chain of each application pushed, in the same order.
///
/// From each start (false) the walk goes breadth first, a level at a time: the nodes its
/// strong links make true, then every node weakly linked to one of those (a union of node
/// sets), and so on; a node is taken at the first level it is reached with a truth value, so
/// the chain to it is a shortest one. Only the ends that can remove something are looked at:
/// the nodes weakly linked to a candidate the start is weakly linked to (and the start itself,
/// which closes a loop); the walk stops when it has reached them all.
fn chains(
    st: &Candidates,
    out: &mut [Vec<Application>; 2],
    mut witness: Option<&mut [Vec<Vec<Step>>; 2]>,
) -> u64 {
    let g = Graph::new(st);
    let n = g.nodes.len();
    let w = g.words;
    let mut seen_false = vec![0u64; w];
    let mut seen_true = vec![0u64; w];
    // Per odd level: the nodes first made true there.
    let mut true_at = vec![0u64; MAX_NODES * w];
    // Per node made true: the false node whose strong link did it.
    let mut parent = vec![NONE; n];
    let mut wanted = vec![0u64; w];
    let mut reach = vec![0u64; w];
    let mut p = 0;
    let mut frontier: Vec<u16> = Vec::new();
    let mut next: Vec<u16> = Vec::new();
    for start in 0..n {
        if g.strong(start).is_empty() {
            continue;
        }
        p += 1;
        let a = g.nodes[start];
        // The ends that remove something: weakly linked to a candidate the start is weakly
        // linked to; and the start itself, when it is a candidate.
        wanted.fill(0);
        for y in super::members(g.weak_of(start)).take_while(|&y| y < g.candidates) {
            for (t, &z) in wanted.iter_mut().zip(g.weak_of(y)) {
                *t |= z;
            }
        }
        if a.is_candidate() {
            wanted[start / 64] |= 1 << (start % 64);
        }
        // Each pair of ends once (the chain read backwards is the same chain).
        for (k, t) in wanted.iter_mut().enumerate() {
            let lo = k * 64;
            if lo + 64 <= start {
                *t = 0;
            } else if lo < start {
                *t &= !0u64 << (start - lo);
            }
        }
        if wanted.iter().all(|&t| t == 0) {
            continue;
        }
        let weak_a = g.weak(st, a);
        seen_false.fill(0);
        seen_true.fill(0);
        seen_false[start / 64] |= 1 << (start % 64);
        frontier.clear();
        frontier.push(start as u16);
        for level in 1..MAX_NODES {
            let made = &mut true_at[level * w..(level + 1) * w];
            if level % 2 == 1 {
                // False nodes make their strong partners true.
                made.fill(0);
                next.clear();
                for &x in &frontier {
                    for &y in g.strong(x as usize) {
                        let (k, bit) = (y as usize / 64, 1u64 << (y % 64));
                        if seen_true[k] & bit == 0 {
                            seen_true[k] |= bit;
                            made[k] |= bit;
                            parent[y as usize] = x;
                            next.push(y);
                        }
                    }
                }
                if level >= 3 {
                    let made = &true_at[level * w..(level + 1) * w];
                    for (k, t) in wanted.iter_mut().enumerate() {
                        let mut m = made[k] & *t;
                        *t &= !made[k];
                        while m != 0 {
                            let y = k * 64 + m.trailing_zeros() as usize;
                            m &= m - 1;
                            end(st, &g, &true_at, &parent, start, y, level, &weak_a, out, witness.as_deref_mut());
                        }
                    }
                    if wanted.iter().all(|&t| t == 0) {
                        break;
                    }
                }
            } else {
                // True nodes make every node weakly linked to them false.
                reach.fill(0);
                for &x in &frontier {
                    for (r, &z) in reach.iter_mut().zip(g.weak_of(x as usize)) {
                        *r |= z;
                    }
                }
                next.clear();
                for (k, (r, s)) in reach.iter_mut().zip(seen_false.iter_mut()).enumerate() {
                    let mut m = *r & !*s;
                    *s |= m;
                    while m != 0 {
                        next.push((k * 64 + m.trailing_zeros() as usize) as u16);
                        m &= m - 1;
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(&mut frontier, &mut next);
        }
    }
    p
}

/// Pushes the chain from `start` to the end `y`, made true at `level`, if it proves
/// something.
#[allow(clippy::too_many_arguments)]
fn end(
    st: &Candidates,
    g: &Graph,
    true_at: &[u64],
    parent: &[u16],
    start: usize,
    y: usize,
    level: usize,
    weak_a: &[CellSet; 9],
    out: &mut [Vec<Application>; 2],
    witness: Option<&mut [Vec<Vec<Step>>; 2]>,
) {
    let a = g.nodes[start];
    let b = g.nodes[y];
    let closed = y == start;
    let looped = closed || b.cells.is_subset(weak_a[b.digit.index()]);
    let effect = if closed {
        match a.is_candidate() {
            true => Effect::Place(a.cells.first().expect("one cell"), a.digit),
            false => return,
        }
    } else {
        let weak_b = g.weak(st, b);
        let mut r = [CellSet::EMPTY; 9];
        let mut any = false;
        for d in 0..9 {
            r[d] = weak_a[d] & weak_b[d];
            any |= !r[d].is_empty();
        }
        if !any {
            return;
        }
        Effect::Remove(r)
    };
    let chain = path(g, true_at, parent, y, level);
    let cells = chain.iter().fold(CellSet::EMPTY, |s, x| s | x.node.cells);
    let digits = chain.iter().map(|x| x.node.digit).collect::<DigitSet>();
    let strategy = if looped {
        Strategy::NiceLoop
    } else {
        Strategy::Aic
    };
    let first = a.cells.first().expect("a node has cells");
    out[usize::from(looped)].push(Application::new(
        strategy,
        cells,
        digits,
        first.index(),
        effect,
    ));
    if let Some(w) = witness {
        w[usize::from(looped)].push(chain);
    }
}

/// The chain from the start (false, level 0) to `end` (true, made true at `level`): each true
/// node back to the false node whose strong link made it true, each false node back to the
/// first node of the level before weakly linked to it.
fn path(g: &Graph, true_at: &[u64], parent: &[u16], end: usize, level: usize) -> Vec<Step> {
    let w = g.words;
    let mut steps = Vec::with_capacity(level + 1);
    let mut x = end;
    for l in (0..=level).rev() {
        let on = l % 2 == 1;
        steps.push(Step {
            node: g.nodes[x],
            on,
        });
        if l == 0 {
            break;
        }
        x = if on {
            parent[x] as usize
        } else {
            let before = &true_at[(l - 1) * w..l * w];
            super::members(g.weak_of(x))
                .find(|&z| before[z / 64] >> (z % 64) & 1 != 0)
                .expect("a false node was made false by the level before")
        };
    }
    steps.reverse();
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn an_xy_wing_is_an_aic_of_three_cells() {
        // (3=1)r1c7 - (1=2)r1c1 - (2=3)r5c1: r5c7 loses 3.
        let st = board("r1c7=13 r1c1=12 r5c1=23");
        let (_, out) = run(search, &st);
        assert_eq!(removed_all(&out, 3), CellSet::single(rc(5, 7)));
        let a = out
            .iter()
            .find(|a| !removed(a, 3).is_empty())
            .expect("found");
        let chain = chain_of(&st, a).expect("its chain");
        assert_eq!(chain.len(), 6);
        assert!(!chain[0].on && chain[5].on);
    }

    #[test]
    fn a_grouped_chain_uses_a_box_line_group() {
        // Digit 5 in row 1: only r1c1 and the group r1c8 r1c9 (box 3). In box 3, 5 is only
        // in r1c8, r1c9 and r3c7. Column 7: 5 only in r3c7 and r9c7. So r1c1 is 5 or
        // (group) ... r3c7 false ... : if r1c1 is not 5 the group holds it, so r3c7 is not 5,
        // so r9c7 is 5: one of r1c1 and r9c7 is 5; r9c1 sees both and loses 5.
        let mut st = empty();
        let row1: Vec<_> = (2..=7).map(|c| rc(1, c)).collect();
        remove(&mut st, 5, &row1);
        remove(&mut st, 5, &cells("r2c7 r2c8 r2c9 r3c8 r3c9"));
        let col7: Vec<_> = [2u8, 4, 5, 6, 7, 8].iter().map(|&r| rc(r, 7)).collect();
        remove(&mut st, 5, &col7);
        let (_, out) = run(search, &st);
        let gone = removed_all(&out, 5);
        assert!(gone.contains(rc(9, 1)), "{gone}");
    }

    #[test]
    fn loops_and_aics_never_share_an_application() {
        let st = board("r1c7=13 r1c1=12 r5c1=23");
        let (p, aics) = run(search, &st);
        let (q, loops) = run(search_loops, &st);
        assert_eq!(p, q);
        assert!(aics.iter().all(|a| !loops.contains(a)));
    }
}
