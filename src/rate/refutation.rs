//! Refutation effort: how much work a person does to follow one trial from the assumption to
//! its end, for the rating beyond the paper ([`crate::rate::difficulty`]).
//!
//! The hsolve model charges a trial-and-error step only for *finding* a trial that works (the
//! E(p, v) checks); this module measures *verifying* it, the length of the chain of
//! consequences that ends in a contradiction, which is what makes the hardest puzzles hard.
//!
//! # Following a trial
//!
//! The trial is followed in **waves**, the way a person pencils in consequences: each wave
//! places every single of the state at once (naked and hidden), one step per placement. When
//! singles stall, a trial of depth 1 or more also makes every locked-candidates removal of the
//! state (one step per line-box intersection used), and a trial of depth n >= 2 then refutes
//! the cheapest depth-(n-1) trial inside it (adding that inner trial's whole effort: nested
//! trials cost more). The effort is the number of steps made until the state breaks (a cell
//! with no candidate, a house with no place for a digit it lacks) or, for backtracking's
//! trials that prove their own value, until the grid is full.
//!
//! ```text
//! assume r1c1=5 | wave 1: 3 singles | wave 2: 4 singles | locked candidates: 1 | wave 3: clash
//! effort        |        3          |        7          |          8           |  9
//! ```
//!
//! Waves make the effort independent of the order in which a program happens to find the
//! singles: only the placement that breaks the state is counted inside its wave.

use crate::candidates::Candidates;
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit};
use crate::propagate::Propagation;
use crate::strategies::locked_candidates;

/// How far a trial is followed: singles only (depth 0, backtracking), plus locked candidates
/// (depth 1, trial and error), plus nested trials of depth `depth - 1` (depth 2 and more).
pub type Depth = u8;

/// The effort of assuming `d` in `c` in `st`, followed at `depth` (see the module docs), and
/// how the trial ended. `limit` stops the count early: once the effort exceeds it at the end of
/// a wave, the trial is reported as stalled (callers looking for the cheapest refutation pass
/// the best so far; a contradiction found inside the wave that crosses the limit is still
/// reported, with its count).
pub fn effort(st: &Candidates, c: Cell, d: Digit, depth: Depth, limit: u32) -> (Propagation, u32) {
    let mut s = st.clone();
    if s.place(c, d).is_none() {
        return (Propagation::Contradiction, 0);
    }
    follow(&mut s, depth, limit)
}

/// Follows `s` in waves at `depth` until it breaks, fills, stalls or exceeds `limit` steps.
fn follow(s: &mut Candidates, depth: Depth, limit: u32) -> (Propagation, u32) {
    let mut steps = 0u32;
    let mut moves: Vec<(Cell, Digit)> = Vec::with_capacity(81);
    loop {
        if steps > limit {
            return (Propagation::Stalled, steps);
        }
        if s.is_broken() {
            return (Propagation::Contradiction, steps);
        }
        if s.is_solved() {
            return (Propagation::Solved, steps);
        }
        // A wave of singles, found in the state before the wave.
        let naked = s.naked_single_cells();
        let hidden = s.hidden_single_cells() - naked;
        if !(naked | hidden).is_empty() {
            moves.clear();
            for c in naked {
                moves.push((c, s.candidates(c).first().expect("a naked single")));
            }
            for c in hidden {
                moves.push((c, s.hidden_single_at(c).expect("a hidden single").0));
            }
            for &(c, d) in &moves {
                steps += 1;
                if s.place(c, d).is_none() {
                    // An earlier single of the wave took this cell's digit: a clash.
                    return (Propagation::Contradiction, steps);
                }
            }
            continue;
        }
        if depth == 0 {
            return (Propagation::Stalled, steps);
        }
        // A wave of locked candidates.
        let mut apps = Vec::new();
        locked_candidates::search(s, &mut apps);
        if !apps.is_empty() {
            for a in &apps {
                if s.changes(&a.effect) {
                    steps += 1;
                    s.apply(&a.effect);
                }
            }
            continue;
        }
        if depth == 1 {
            return (Propagation::Stalled, steps);
        }
        // The cheapest refutation one level down.
        let mut best: Option<(u32, Cell, Digit)> = None;
        for c in s.empty() {
            for d in s.candidates(c).iter() {
                let cap = best.map_or(limit.saturating_sub(steps), |b| b.0.saturating_sub(1));
                let (o, n) = effort(s, c, d, depth - 1, cap);
                if o == Propagation::Contradiction && best.is_none_or(|b| n < b.0) {
                    best = Some((n, c, d));
                }
            }
        }
        match best {
            Some((n, c, d)) => {
                steps += n;
                s.remove(d, CellSet::single(c));
            }
            None => return (Propagation::Stalled, steps),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn a_clash_in_the_first_wave() {
        // Row 1 misses 8 and 9; column 8 has its 9 in row 5, so r1c8 can only be 8. Assuming 8
        // in r1c9 empties r1c8: the state breaks with no single placed.
        let st = state(ROW_ONE_MISSES_8_9);
        assert_eq!(
            effort(&st, rc(1, 9), dg(8), 0, u32::MAX),
            (Propagation::Contradiction, 0)
        );
        // Assuming 9 there instead places 8 in r1c8 (one step) and stalls.
        assert_eq!(
            effort(&st, rc(1, 9), dg(9), 0, u32::MAX),
            (Propagation::Stalled, 1)
        );
    }

    #[test]
    fn the_solution_fills_the_grid() {
        let p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let st = state(p);
        let sol = crate::solve::solve(&p.parse().unwrap()).unique().unwrap();
        let c = st.empty().first().unwrap();
        let (o, n) = effort(&st, c, sol.get(c), 0, u32::MAX);
        assert_eq!(o, Propagation::Solved);
        assert_eq!(n, st.empty().len() - 1, "one step per placement");
        // The limit stops the count.
        assert_eq!(effort(&st, c, sol.get(c), 0, 3).0, Propagation::Stalled);
    }
}
