//! Almost locked sets (ALS), the building block of the ALS techniques (ALS-XZ, ALS-XY-wing,
//! ALS chains, death blossoms); not a technique itself.
//!
//! An almost locked set is N empty cells of one house holding N + 1 digits between them
//! (N = 1 to 8; one cell with two candidates is the smallest). Were one of its digits taken
//! away, the other N would fill its N cells exactly: so if an ALS loses a digit, every other
//! digit of it is placed inside it.
//!
//! Two ALSs A and B share a *restricted common* digit x when both hold x and every x of A sees
//! every x of B: then at most one of them holds x, and if A holds it, B is locked on its other
//! digits. The techniques chain these links.
//!
//! [`find`] lists every ALS of a state once (a set lying in two houses, such as cells of a
//! row inside one box, is listed in the first: rows, then columns, then boxes), with its
//! cells, digits, the cells of each digit and, per digit, the cells outside it holding the
//! digit that see every cell of it holding the digit (what it can take the digit from). [`links`] lists the pairs of disjoint ALSs with their
//! restricted common digits.

use crate::candidates::Candidates;
use crate::cellset::{CellSet, DigitSet, HOUSES_OF_CELL};
use crate::grid::Digit;

/// The largest ALS, in cells.
pub const MAX_CELLS: u32 = 8;

/// One almost locked set: N cells of one house with N + 1 digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Als {
    /// Its cells.
    pub cells: CellSet,
    /// Its N + 1 digits.
    pub digits: DigitSet,
    /// The first house (0-26: rows, columns, boxes) holding all its cells.
    pub house: u8,
    /// Per digit index, the cells of the set holding that digit (empty for other digits).
    by_digit: [CellSet; 9],
    /// Per digit index, the cells holding that digit that see every cell of the set holding
    /// it (none of the set's own; every cell for a digit the set lacks).
    seeing: [CellSet; 9],
    /// The digits of the set that some cell outside it can lose (`seeing` not empty).
    pub reaching: DigitSet,
}

impl Als {
    /// The ALS made of `cells` (in house `house`, with the digits `digits`) on `st`.
    fn new(st: &Candidates, cells: CellSet, digits: DigitSet, house: u8) -> Als {
        let mut by_digit = [CellSet::EMPTY; 9];
        let mut seeing = [CellSet::ALL; 9];
        let mut reaching = DigitSet::EMPTY;
        for d in digits.iter() {
            let places = cells & st.cells_with(d);
            by_digit[d.index()] = places;
            let reach = places.common_peers() & st.cells_with(d);
            seeing[d.index()] = reach;
            if !reach.is_empty() {
                reaching.insert(d);
            }
        }
        Als {
            cells,
            digits,
            house,
            by_digit,
            seeing,
            reaching,
        }
    }

    /// The cells of the set holding `d`.
    #[inline]
    pub fn places(&self, d: Digit) -> CellSet {
        self.by_digit[d.index()]
    }

    /// The cells holding `d` that see every cell of the set holding `d` (none of the set's
    /// own): those the set can take `d` from.
    #[inline]
    pub fn seeing(&self, d: Digit) -> CellSet {
        self.seeing[d.index()]
    }

    /// The number of cells.
    #[inline]
    pub fn size(&self) -> u32 {
        self.cells.len()
    }

    #[cfg(test)]
    /// The restricted common digits of `self` and `other`: the digits both hold where every
    /// place of one sees every place of the other. Empty when the sets share a cell.
    #[inline]
    pub fn restricted_commons(&self, other: &Als) -> DigitSet {
        if self.cells.intersects(other.cells) {
            return DigitSet::EMPTY;
        }
        let mut rc = DigitSet::EMPTY;
        for x in (self.digits & other.digits).iter() {
            if other.by_digit[x.index()].is_subset(self.seeing[x.index()]) {
                rc.insert(x);
            }
        }
        rc
    }
}

/// The first house (rows 0-8, columns 9-17, boxes 18-26) holding every cell of `cells`.
fn first_house(cells: CellSet) -> u8 {
    let first = cells.first().expect("a set of cells");
    let [row, col, bx] = HOUSES_OF_CELL[first.index()];
    if cells.is_subset(CellSet::house_at(row as usize)) {
        row
    } else if cells.is_subset(CellSet::house_at(col as usize)) {
        col
    } else {
        bx
    }
}

/// Every ALS of `st` (1 to [`MAX_CELLS`] cells), each once, ordered by house then by the
/// choice of cells within it.
pub fn find(st: &Candidates) -> Vec<Als> {
    let mut out = Vec::new();
    let empty = st.empty();
    for h in 0..27 {
        let cells: Vec<_> = (empty & CellSet::house_at(h)).iter().collect();
        let n = cells.len();
        // Unions of the candidates of every subset (bit i = cells[i]), built from smaller ones.
        let mut unions = [0u16; 512];
        let mut sets = [CellSet::EMPTY; 512];
        for mask in 1usize..1 << n {
            let low = mask.trailing_zeros() as usize;
            let u = unions[mask & (mask - 1)] | st.candidates(cells[low]).bits();
            unions[mask] = u;
            let set = sets[mask & (mask - 1)] | CellSet::single(cells[low]);
            sets[mask] = set;
            let k = mask.count_ones();
            if k > MAX_CELLS || u.count_ones() != k + 1 {
                continue;
            }
            if first_house(set) != h as u8 {
                continue;
            }
            out.push(Als::new(st, set, DigitSet::from_bits(u), h as u8));
        }
    }
    out
}

/// A pair of disjoint ALSs (indexes into the list of [`find`], `a < b`) and their restricted
/// common digits (at least one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The first ALS.
    pub a: u32,
    /// The second ALS.
    pub b: u32,
    /// Their restricted common digits.
    pub rc: DigitSet,
}

/// Every pair of disjoint ALSs of `sets` sharing a restricted common digit, ordered by the
/// first set, then the second.
///
/// Rather than testing every pair, the partners of each set A are looked up through the places
/// of their digits: a partner sharing x has all its x inside the cells seeing every x of A, so
/// it is indexed under one of those cells.
pub fn links(sets: &[Als]) -> Vec<Link> {
    // Per (digit, cell): the sets whose first place of that digit is that cell, in order, with
    // their places of the digit and their cells (read in a row, not from each set).
    let mut start = vec![0u32; 9 * 81 + 1];
    for s in sets {
        for d in s.digits.iter() {
            let c = s.places(d).first().expect("a set holds each of its digits");
            start[d.index() * 81 + c.index() + 1] += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut index = vec![(0u32, CellSet::EMPTY, CellSet::EMPTY); start[9 * 81] as usize];
    for (i, s) in sets.iter().enumerate() {
        for d in s.digits.iter() {
            let c = s.places(d).first().expect("a set holds each of its digits");
            let slot = &mut fill[d.index() * 81 + c.index()];
            index[*slot as usize] = (i as u32, s.places(d), s.cells);
            *slot += 1;
        }
    }
    // A later set B shares x with A as a restricted common when every x of B is among the
    // cells A takes x from (A's `seeing`) and the two are disjoint; its first x is then one
    // of those cells, so B is listed under it.
    let mut out = Vec::new();
    let mut stamp = vec![u32::MAX; sets.len()];
    let mut commons = vec![DigitSet::EMPTY; sets.len()];
    let mut partners = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        partners.clear();
        for x in a.digits.iter() {
            let reach = a.seeing(x);
            for c in reach {
                let k = x.index() * 81 + c.index();
                let listed = &index[start[k] as usize..start[k + 1] as usize];
                let later = listed.partition_point(|e| e.0 as usize <= i);
                for &(j, places, cells) in &listed[later..] {
                    if places.is_subset(reach) && !cells.intersects(a.cells) {
                        let j = j as usize;
                        if stamp[j] != i as u32 {
                            stamp[j] = i as u32;
                            commons[j] = DigitSet::EMPTY;
                            partners.push(j as u32);
                        }
                        commons[j].insert(x);
                    }
                }
            }
        }
        partners.sort_unstable();
        out.extend(partners.iter().map(|&j| Link {
            a: i as u32,
            b: j,
            rc: commons[j as usize],
        }));
    }
    out
}

/// Every ALS of a state with their links: what the four ALS techniques start from.
#[derive(Debug)]
pub struct Sets {
    /// The sets, as [`find`] lists them.
    pub sets: Vec<Als>,
    /// The cells of each set (read in a row by the searches, rather than from each set).
    pub cells: Vec<CellSet>,
    /// Their links, as [`links`] lists them.
    pub links: Vec<Link>,
    /// The same links, by set.
    pub graph: Graph,
}

impl Sets {
    /// The ALSs of `st` and their links.
    pub fn of(st: &Candidates) -> Sets {
        let sets = find(st);
        let links = links(&sets);
        let cells: Vec<CellSet> = sets.iter().map(|s| s.cells).collect();
        let graph = Graph::new(&cells, &links);
        Sets {
            cells,
            sets,
            links,
            graph,
        }
    }
}

/// The links of every set, in both directions: `edges[start[i]..start[i + 1]]` are the
/// (partner, restricted commons) of set `i`, partners in increasing order.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Where each set's edges begin in `edges` (one more entry than there are sets).
    pub start: Vec<u32>,
    /// The (partner, restricted common digits) of every set, set by set.
    pub edges: Vec<(u32, DigitSet)>,
    /// The partner's cells of each edge (read in a row by the searches).
    pub cells: Vec<CellSet>,
}

impl Graph {
    /// The graph of `links` over the sets with these cells.
    pub fn new(cells: &[CellSet], links: &[Link]) -> Graph {
        let n = cells.len();
        let mut start = vec![0u32; n + 1];
        for l in links {
            start[l.a as usize + 1] += 1;
            start[l.b as usize + 1] += 1;
        }
        for i in 1..=n {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut edges = vec![(0u32, DigitSet::EMPTY); start[n] as usize];
        // Each list is sorted by partner afterwards.
        for l in links {
            edges[fill[l.a as usize] as usize] = (l.b, l.rc);
            fill[l.a as usize] += 1;
            edges[fill[l.b as usize] as usize] = (l.a, l.rc);
            fill[l.b as usize] += 1;
        }
        for i in 0..n {
            edges[start[i] as usize..start[i + 1] as usize].sort_unstable_by_key(|e| e.0);
        }
        let cells = edges.iter().map(|e| cells[e.0 as usize]).collect();
        Graph {
            start,
            edges,
            cells,
        }
    }

    /// The (partner, restricted commons) of set `i`.
    #[inline]
    pub fn of(&self, i: usize) -> &[(u32, DigitSet)] {
        &self.edges[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The cells of each partner of set `i`, in the order of [`Graph::of`].
    #[inline]
    pub fn cells_of(&self, i: usize) -> &[CellSet] {
        &self.cells[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Every pair of disjoint sets of `sets` sharing a restricted common digit, found by testing
    /// every pair.
    fn every_link(sets: &[Als]) -> Vec<Link> {
        let mut brute = Vec::new();
        for i in 0..sets.len() {
            for j in i + 1..sets.len() {
                let rc = sets[i].restricted_commons(&sets[j]);
                if !rc.is_empty() {
                    brute.push(Link {
                        a: i as u32,
                        b: j as u32,
                        rc,
                    });
                }
            }
        }
        brute
    }

    #[test]
    fn finds_the_sets_of_a_row() {
        // Row 1: r1c1 = 12, r1c2 = 23, r1c3 = 13 form a locked triple of 123 (no ALS), and
        // each cell alone is an ALS of two digits, as is any pair (three digits in two cells).
        let st = board("r1c1=12 r1c2=23 r1c3=13");
        let sets = find(&st);
        let small: Vec<_> = sets
            .iter()
            .filter(|s| {
                s.cells
                    .is_subset(set("r1c1 r1c2 r1c3"))
            })
            .collect();
        // Three single cells (listed once each, in their row) and three pairs; in row 1 and
        // again in box 1 they are the same sets, listed in row 1 only.
        assert_eq!(small.len(), 6);
        assert!(small.iter().all(|s| s.house == 0));
        let pair = small
            .iter()
            .find(|s| s.cells == set("r1c1 r1c2"))
            .expect("the pair r1c1 r1c2");
        assert_eq!(pair.digits, DigitSet::from_bits(0b111));
        assert_eq!(pair.places(dg(2)), set("r1c1 r1c2"));
        // Cells seeing both 2s: the rest of row 1 and of box 1.
        assert!(pair.seeing(dg(2)).contains(rc(1, 9)));
        assert!(pair.seeing(dg(2)).contains(rc(3, 3)));
        assert!(pair.seeing(dg(2)).contains(rc(2, 1)));
        assert!(!pair.seeing(dg(2)).contains(rc(5, 1)));
    }

    #[test]
    fn links_are_the_restricted_commons_of_disjoint_sets() {
        // r1c1 = 12 and r1c9 = 13 share 1 in row 1: a restricted common. r5c5 = 12 shares 1
        // and 2 with r1c1 but sees neither place.
        let st = board("r1c1=12 r1c9=13 r5c5=12");
        let sets = find(&st);
        let idx = |c| {
            sets.iter()
                .position(|s| s.cells == CellSet::single(c))
                .expect("a bivalue cell is an ALS") as u32
        };
        let all = links(&sets);
        let (a, b, e) = (idx(rc(1, 1)), idx(rc(1, 9)), idx(rc(5, 5)));
        let link = all
            .iter()
            .find(|l| (l.a, l.b) == (a.min(b), a.max(b)))
            .expect("a link");
        assert_eq!(link.rc, DigitSet::single(dg(1)));
        assert!(!all.iter().any(|l| l.a == a.min(e) && l.b == a.max(e)));
        // The partner index finds exactly what testing every pair finds.
        assert_eq!(all, every_link(&sets));
    }

    #[test]
    fn links_match_every_pair_on_hard_states() {
        let (st, _) = after_singles(TOP);
        let sets = find(&st);
        let brute = every_link(&sets);
        assert_eq!(links(&sets), brute);
        let g = Graph::new(&sets.iter().map(|s| s.cells).collect::<Vec<_>>(), &brute);
        let degree: usize = (0..sets.len()).map(|i| g.of(i).len()).sum();
        assert_eq!(degree, 2 * brute.len());
    }

    /// Prints the average and longest time of `search` over states of the hard reference
    /// puzzles (debug build: the times only compare), and the sets and links found.
    fn timing(
        name: &str,
        search: impl Fn(&Candidates, &mut Vec<crate::strategies::Application>) -> u64,
    ) {
        let mut rng = crate::rng::Rng::new(7);
        let (mut n, mut most_sets, mut most_links) = (0u32, 0, 0);
        let (mut total, mut longest) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
        let mut found = 0;
        for file in ["hard/top1465.tsv", "hard/forum_hardest_1106.tsv"] {
            let Ok(puzzles) = crate::dev::refdata::puzzles(file) else {
                return;
            };
            for p in puzzles.iter().step_by(40).take(25) {
                let Some(g) = crate::solve::solve(p).unique() else {
                    continue;
                };
                for st in crate::strategies::states::states_of(p, &g, 3, &mut rng) {
                    let sets = find(&st);
                    most_sets = most_sets.max(sets.len());
                    most_links = most_links.max(links(&sets).len());
                    let mut out = Vec::new();
                    let t = std::time::Instant::now();
                    search(&st, &mut out);
                    let e = t.elapsed();
                    total += e;
                    longest = longest.max(e);
                    found += out.len();
                    n += 1;
                }
            }
        }
        eprintln!(
            "{name}: {n} states (at most {most_sets} sets, {most_links} links), {found} \
             applications, {:?} on average, {longest:?} at most (debug build)",
            total / n.max(1)
        );
    }

    #[test]
    fn the_searches_on_sets_are_timed_on_hard_states() {
        timing("sets and links", |st, _| links(&find(st)).len() as u64);
        use crate::strategies::{search, Context, Strategy};
        let ctx = Context::default();
        for s in [
            Strategy::AlsXz,
            Strategy::AlsXyWing,
            Strategy::AlsChain,
            Strategy::DeathBlossom,
            Strategy::SueDeCoq,
        ] {
            timing(s.name(), |st, out| search(s, st, &ctx, out));
        }
    }
}
