//! Trial and error (tier 6, beyond the paper, so that every puzzle with one solution gets a
//! finite rating): assume any candidate of any empty cell and follow it; a contradiction
//! removes the assumed candidate.
//!
//! # Following a trial
//!
//! At depth 1 the trial is followed with the exact solver's propagation: naked and hidden
//! singles plus the row-box interactions inside each band (locked candidates), the logic a
//! person applies without thinking once a value is pencilled in. At depth n > 1 it is then
//! also followed with depth n-1 trials, repeated until nothing more follows. (Unlike tier 5,
//! a trial that completes the grid proves nothing here: tier 6 reasons by contradiction only,
//! so it is the same deduction whether or not the puzzle is known to have one solution.)
//!
//! # p and v
//!
//! At depth 1 a possible application is one candidate to try: p = N, the number of
//! candidates in the empty cells (the tier-5 count, generalised from two-candidate cells to
//! every candidate). A depth-n trial runs a depth-(n-1) search inside each of its N trials, so
//! p = N^n. v is the number of candidates whose trial ends in a contradiction. hsolve searches
//! depth 1, then 2, and so on, charging E(p, v) for each depth it searches, until one finds a
//! valid application. Depth 2 is enough for every puzzle in the reference data.

use super::{Application, Context, Known, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit};
use crate::propagate::Propagation;
use crate::solve::{propagate_state, propagate_trial, TrialBase, TrialMemo};

/// The deepest trial-and-error nesting hsolve and tier-limited solving will search.
pub const MAX_DEPTH: u8 = 4;

/// Pushes every valid trial of depth `depth` (1 or more); returns p = N^depth. `known` skips
/// trials whose contradiction earlier states proved (depth 1), and learns the new ones.
pub fn search(
    st: &Candidates,
    ctx: &Context,
    depth: u8,
    known: &mut Known,
    out: &mut Vec<Application>,
) -> u64 {
    search_warm(st, ctx, depth, known, None, out).0
}

/// [`search`], with the end states of an earlier depth-1 search from a state with more
/// candidates as warm starts; also returns this search's end states (depth 1 only).
pub(crate) fn search_warm(
    st: &Candidates,
    ctx: &Context,
    depth: u8,
    known: &mut Known,
    warm: Option<&TrialMemo>,
    out: &mut Vec<Application>,
) -> (u64, Option<TrialMemo>) {
    assert!(depth >= 1, "trials have depth 1 or more");
    let n = st.candidate_count() as u64;
    let p = (0..depth).fold(1u64, |acc, _| acc.saturating_mul(n));
    let mut base = (depth == 1).then(|| TrialBase::new(st));
    // Deeper trials: the cells a stalled trial placed need no trial of their own (the nested
    // propagation is monotone too).
    let mut stalls = [CellSet::EMPTY; 9];
    for c in st.empty() {
        for d in st.candidates(c).iter() {
            if ctx.is_solution(c, d) {
                continue; // never contradicts
            }
            let outcome = match &mut base {
                _ if depth == 1 && known.propagation_contradicts[d.index()].contains(c) => {
                    Propagation::Contradiction
                }
                Some(b) if b.known_to_stall(c, d) => continue,
                Some(b) => b.outcome(c, d, warm),
                None if stalls[d.index()].contains(c) => continue,
                None => deep_trial(st, c, d, depth, &mut stalls),
            };
            if outcome != Propagation::Contradiction {
                continue;
            }
            let effect = Effect::remove_digit(d, CellSet::single(c));
            out.push(Application::at_cell(Strategy::TrialAndError, c, d, effect).at_depth(depth));
            known.learn(out.last().expect("just pushed"));
        }
    }
    (p, base.map(TrialBase::into_memo))
}

#[cfg(feature = "dev")]
/// Assumes `d` in `c` and follows it to the end at `depth`.
pub fn trial(st: &Candidates, c: Cell, d: Digit, depth: u8) -> Propagation {
    if depth <= 1 {
        return propagate_trial(st, c, d, false).0;
    }
    // Deeper: propagate, then follow with shallower trials until nothing more follows.
    match propagate_trial(st, c, d, true) {
        (Propagation::Stalled, Some(mut s)) => follow(&mut s, depth - 1),
        (o, _) => o,
    }
}

/// A trial at `depth` >= 2 from `st`; when it stalls, the cells its end state placed are
/// added to `stalls`.
fn deep_trial(
    st: &Candidates,
    c: Cell,
    d: Digit,
    depth: u8,
    stalls: &mut [CellSet; 9],
) -> Propagation {
    match propagate_trial(st, c, d, true) {
        (Propagation::Stalled, Some(mut s)) => {
            let o = follow(&mut s, depth - 1);
            if o == Propagation::Stalled {
                for dg in Digit::all() {
                    stalls[dg.index()] |= s.placed(dg) - st.placed(dg);
                }
            }
            o
        }
        (o, _) => o,
    }
}

/// Applies depth-`depth` removals and propagation to `s` until nothing follows. Each removal
/// is made as soon as it is found (the end state does not depend on the order), so that the
/// trials after it start from a smaller state.
fn follow(s: &mut Candidates, depth: u8) -> Propagation {
    loop {
        let mut changed = false;
        let mut base = (depth == 1).then(|| TrialBase::without_memo(s));
        let mut stalls = [CellSet::EMPTY; 9];
        for c in s.empty() {
            for d in s.candidates(c).iter() {
                if !s.candidates(c).contains(d) {
                    continue; // removed since the scan began
                }
                let outcome = match &mut base {
                    Some(b) if b.known_to_stall(c, d) => Propagation::Stalled,
                    Some(b) => b.outcome(c, d, None),
                    None if stalls[d.index()].contains(c) => Propagation::Stalled,
                    None => deep_trial(s, c, d, depth, &mut stalls),
                };
                match outcome {
                    Propagation::Contradiction => {
                        s.remove(d, CellSet::single(c));
                        match propagate_state(s) {
                            (Propagation::Stalled, Some(next)) => *s = next,
                            (o, _) => return o,
                        }
                        changed = true;
                        if depth == 1 {
                            base = Some(TrialBase::without_memo(s));
                        } else {
                            stalls = [CellSet::EMPTY; 9];
                        }
                    }
                    // The assumptions so far are consistent with a full grid.
                    Propagation::Solved => return Propagation::Solved,
                    Propagation::Stalled => {}
                }
            }
        }
        if !changed {
            return Propagation::Stalled;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::{after_singles, solution, DEEP, TOP};

    #[test]
    fn depth_one_removals_are_all_wrong_candidates() {
        let (st, sol) = after_singles(TOP);
        let mut out = Vec::new();
        let n = st.candidate_count() as u64;
        assert_eq!(
            search(&st, &Context::default(), 1, &mut Known::default(), &mut out),
            n
        );
        assert!(!out.is_empty());
        for a in &out {
            let Effect::Remove(r) = a.effect else {
                panic!("trials only remove")
            };
            let c = a.cells.first().unwrap();
            let d = a.digits.first().unwrap();
            assert!(r[d.index()].contains(c));
            assert_ne!(sol.get(c), d, "the solution digit is never removed");
        }
    }

    #[test]
    fn depth_two_finds_what_depth_one_cannot() {
        let sol = solution(DEEP);
        let st = crate::rate::hsolve::solve_to_tier(&DEEP.parse().unwrap(), 5)
            .unwrap()
            .state;
        let n = st.candidate_count() as u64;
        let mut out = Vec::new();
        let ctx = Context {
            solution: Some(sol),
        };
        assert_eq!(search(&st, &ctx, 1, &mut Known::default(), &mut out), n);
        assert!(
            out.is_empty(),
            "singles after one trial find no contradiction here"
        );
        assert_eq!(search(&st, &ctx, 2, &mut Known::default(), &mut out), n * n);
        assert!(!out.is_empty());
        for a in &out {
            assert_ne!(sol.get(a.cells.first().unwrap()), a.digits.first().unwrap());
        }
        // Without the solution the same removals are found.
        let mut plain = Vec::new();
        search(
            &st,
            &Context::default(),
            2,
            &mut Known::default(),
            &mut plain,
        );
        assert_eq!(plain, out);
    }
}
