//! Tier-0 propagation: placing naked and hidden singles until none is left, as the trials of
//! tiers 5 and 6 (and tier-limited solving) do thousands of times per puzzle.
//!
//! The propagation is driven by a work list: placing digit d in cell c can only create
//!
//! - naked singles among the peers that lost d;
//! - hidden singles of d in any house (d left some cells of up to 21 houses: all 27 houses
//!   are checked at once with bit tricks);
//! - hidden singles of c's other candidates in c's three houses.
//!
//! and the same checks find the contradictions: a cell left without candidates, or a house
//! left without a place for a digit it lacks.

use crate::candidates::{alone_in_a_house, Candidates};
use crate::cellset::{CellSet, BOX_OFFSETS, BOX_STARTS, COLUMN_0, HOUSES_OF_CELL};
use crate::grid::{Cell, Digit};

/// How a propagation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    /// Some cell or house has no way left: the assumptions were wrong.
    Contradiction,
    /// Every cell is filled.
    Solved,
    /// Nothing more follows.
    Stalled,
}

/// The cells of digit `places` (empty cells where it may go) that are alone in a row, column
/// or box, or `None` when a house has neither a place for it nor the digit itself (`placed`).
#[inline]
fn digit_scan(places: u128, placed: u128) -> Option<u128> {
    // Fold every house onto its first cell: a house the digit no longer reaches leaves a hole.
    let cover = places | placed;
    let (mut rows, mut cols, mut boxes) = (0u128, 0u32, 0u128);
    for (j, off) in BOX_OFFSETS.into_iter().enumerate() {
        rows |= (cover >> j) & COLUMN_0;
        cols |= (cover >> (9 * j)) as u32 & 0x1FF;
        boxes |= (cover >> off) & BOX_STARTS;
    }
    if rows != COLUMN_0 || cols != 0x1FF || boxes != BOX_STARTS {
        return None;
    }
    Some(alone_in_a_house(CellSet::from_bits(places)).bits())
}

/// The work list of placements still to make.
struct Work {
    queued: CellSet,
    list: [(u8, u8); 81],
    len: usize,
}

impl Work {
    fn new() -> Work {
        Work {
            queued: CellSet::EMPTY,
            list: [(0, 0); 81],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, c: Cell, d: usize) {
        if !self.queued.contains(c) {
            self.queued.insert(c);
            self.list[self.len] = (c.index() as u8, d as u8);
            self.len += 1;
        }
    }

    /// Queues every cell of `cells` with digit `d`.
    #[inline]
    fn push_all(&mut self, cells: u128, d: usize) {
        for c in CellSet::from_bits(cells) {
            self.push(c, d);
        }
    }
}

/// Places `d` in `c`, then singles until none is left.
pub fn place_and_propagate(st: &mut Candidates, c: Cell, d: Digit) -> Propagation {
    let mut work = Work::new();
    work.push(c, d.index());
    run(st, &mut work)
}

/// Places singles in `st` until none is left, starting from a full scan.
pub fn propagate(st: &mut Candidates) -> Propagation {
    let mut work = Work::new();
    let any = Digit::all().fold(CellSet::EMPTY, |a, d| a | st.cells_with(d));
    if !st.empty().is_subset(any) {
        return Propagation::Contradiction;
    }
    for c in st.naked_single_cells() {
        let d = st.candidates(c).first().expect("one candidate");
        work.push(c, d.index());
    }
    for d in Digit::all() {
        match digit_scan(st.cells_with(d).bits(), st.placed(d).bits()) {
            None => return Propagation::Contradiction,
            Some(alone) => work.push_all(alone, d.index()),
        }
    }
    run(st, &mut work)
}

fn run(st: &mut Candidates, work: &mut Work) -> Propagation {
    let mut next = 0;
    while next < work.len {
        let (ci, di) = work.list[next];
        next += 1;
        let c = Cell::from_index(ci as usize);
        let d = Digit::from_index(di as usize);
        let old = st.candidates(c);
        let Some(lost) = st.place(c, d) else {
            // Filled already, or d is gone from the cell: two singles disagree.
            return Propagation::Contradiction;
        };
        for p in lost {
            let m = st.candidates(p);
            match m.len() {
                0 => return Propagation::Contradiction,
                1 => work.push(p, m.first().expect("one").index()),
                _ => {}
            }
        }
        match digit_scan(st.cells_with(d).bits(), st.placed(d).bits()) {
            None => return Propagation::Contradiction,
            Some(alone) => work.push_all(alone, di as usize),
        }
        for e in old.iter() {
            if e == d {
                continue;
            }
            let places = st.cells_with(e);
            let placed = st.placed(e);
            for &h in &HOUSES_OF_CELL[c.index()] {
                let house = CellSet::house_at(h as usize);
                let x = places & house;
                match x.len() {
                    0 if !placed.intersects(house) => return Propagation::Contradiction,
                    1 => work.push(x.first().expect("one"), e.index()),
                    _ => {}
                }
            }
        }
    }
    if st.is_solved() {
        Propagation::Solved
    } else {
        Propagation::Stalled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Puzzle;

    #[test]
    fn digit_scan_finds_alone_cells_and_missing_digits() {
        // Digit everywhere: nothing alone.
        assert_eq!(digit_scan(CellSet::ALL.bits(), 0), Some(0));
        // Nowhere and not placed: contradiction.
        assert_eq!(digit_scan(0, 0), None);
        // One cell per row/col/box pattern: a full placement of the digit is fine.
        let placed: u128 = [0, 12, 24, 28, 40, 52, 56, 68, 80]
            .iter()
            .fold(0, |a, &i| a | 1 << i);
        assert_eq!(digit_scan(0, placed), Some(0));
    }

    #[test]
    fn agrees_with_the_simple_propagation() {
        // Every puzzle of the samples, and every trial of every candidate in its singles
        // fixpoint: the work-list propagation and a plain repeated scan end the same way.
        let text = include_str!("../samples/puzzles.txt");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let p: Puzzle = line.parse().unwrap();
            let mut st = Candidates::new(&p);
            let mut st2 = st.clone();
            assert_eq!(propagate(&mut st), simple(&mut st2));
            assert_eq!(st, st2);
            for c in st.empty() {
                for d in st.candidates(c).iter() {
                    let mut a = st.clone();
                    let mut b = st.clone();
                    let oa = place_and_propagate(&mut a, c, d);
                    b.place(c, d);
                    let ob = simple(&mut b);
                    assert_eq!(oa, ob, "{line} {c}={d}");
                    if oa != Propagation::Contradiction {
                        assert_eq!(a, b);
                    }
                }
            }
        }
    }

    /// Repeated full scans, the definition the work list must match.
    fn simple(st: &mut Candidates) -> Propagation {
        loop {
            if st.is_solved() {
                return Propagation::Solved;
            }
            let any = Digit::all().fold(CellSet::EMPTY, |a, d| a | st.cells_with(d));
            if !st.empty().is_subset(any) {
                return Propagation::Contradiction;
            }
            if let Some(c) = st.naked_single_cells().first() {
                let d = st.candidates(c).first().unwrap();
                st.place(c, d);
                continue;
            }
            let mut placed = false;
            'digits: for d in Digit::all() {
                for h in 0..27 {
                    let house = CellSet::house_at(h);
                    let x = st.cells_with(d) & house;
                    if x.is_empty() && !st.placed(d).intersects(house) {
                        return Propagation::Contradiction;
                    }
                    if x.len() == 1 {
                        st.place(x.first().unwrap(), d);
                        placed = true;
                        break 'digits;
                    }
                }
            }
            if !placed {
                return Propagation::Stalled;
            }
        }
    }
}
