//! Solving by tiers: every application of tiers 0 to k, the easiest tier first, until none
//! applies ([`fixpoint`]); and [`TierSolver`], the same again and again on one state that only
//! loses candidates between runs. Tier 0 is the singles ([`crate::propagate`]), tiers 1-4 the
//! strategies of [`Strategy::TIERS`], tier 5 [`backtracking`], tier 6 trials to depth
//! [`trial::MAX_DEPTH`]. Only contradictions count as proof, so every step is sound. hsolve's
//! tier-limited solving, the pseudo-generator's reserved cells and the strategies' tests use it.

use super::{backtracking, trial, Application, Context, Known, Strategy, Units};
use crate::candidates::Candidates;
use crate::propagate::{propagate, Propagation};

/// Applies every application of tiers 0 to `k` to `st`, easiest tier first, until none
/// applies. `st` must have a solution.
pub fn fixpoint(st: &mut Candidates, k: u8) {
    TierSolver::new(k).run(st);
}

/// Solving with tiers 0 to `k` ([`fixpoint`]) again and again on one state that only loses
/// candidates between the runs (the pseudo-generator reveals clues one by one, solving after
/// each).
///
/// It remembers, for each of tiers 1-4, the candidate masks of its last search when that
/// search found nothing; the next search of the tier looks only in the units (houses, digits,
/// line-box intersections) that hold a changed cell, since a unit's applications depend on its
/// cells alone and the others had none. What trials proved carries over too (see [`Known`]).
/// Each search finds exactly the applications a full search finds, so the result is
/// [`fixpoint`]'s.
pub(crate) struct TierSolver {
    k: u8,
    clean: [Option<[u16; 81]>; 4],
    known: Known,
    apps: Vec<Application>,
}

impl TierSolver {
    /// A solver with tiers 0 to `k` (0-6).
    pub(crate) fn new(k: u8) -> TierSolver {
        TierSolver {
            k,
            clean: [None; 4],
            known: Known::default(),
            apps: Vec::new(),
        }
    }

    /// Applies every application of tiers 0 to k to `st` until none applies. `st` must have a
    /// solution, and be the state of the previous run with candidates removed (or the first).
    pub(crate) fn run(&mut self, st: &mut Candidates) {
        let ctx = Context::default();
        let k = self.k;
        loop {
            if propagate(st) != Propagation::Stalled {
                return;
            }
            let mut progress = false;
            let mut subset_houses = None;
            'tiers: for slot in 1..=k.min(5) + if k >= 6 { trial::MAX_DEPTH } else { 0 } {
                self.apps.clear();
                match slot {
                    5 => {
                        backtracking::search(st, &ctx, &mut self.known, &mut self.apps);
                    }
                    1..=4 => {
                        let list = Strategy::TIERS[slot as usize];
                        let clean = &mut self.clean[slot as usize - 1];
                        let units = match clean {
                            Some(prev) => Units::changed(prev, st.masks()),
                            None => Units::ALL,
                        };
                        let houses =
                            subset_houses.get_or_insert_with(|| super::SubsetHouses::new(st));
                        super::apps_in(list, st, houses, &units, &mut self.apps);
                        *clean = self.apps.is_empty().then(|| *st.masks());
                    }
                    _ => {
                        trial::search(st, &ctx, slot - 5, &mut self.known, &mut self.apps);
                    }
                };
                for a in &self.apps {
                    st.apply(&a.effect);
                    progress = true;
                }
                if progress {
                    break 'tiers;
                }
            }
            if !progress {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Puzzle;
    use crate::rng::Rng;
    use crate::strategies::testing::HARD;

    #[test]
    fn tier_solver_across_reveals_equals_fixpoint_from_scratch() {
        // Clues revealed one by one from a solution, solving by tiers after each (as the
        // pseudo-generator does): the solver that keeps its searches between reveals reaches
        // the state that a new solver, searching every unit, reaches after each reveal.
        let mut rng = Rng::new(9);
        let solution = crate::solve::solve(&HARD.parse().unwrap()).unique().unwrap();
        for k in [1, 2, 4, 5] {
            for _ in 0..4 {
                let mut cells: Vec<crate::grid::Cell> = crate::grid::Cell::all().collect();
                rng.shuffle(&mut cells);
                let mut st = Candidates::new(&Puzzle::EMPTY);
                let mut plain = st.clone();
                let mut solver = TierSolver::new(k);
                for c in cells {
                    if st.value(c).is_some() {
                        continue;
                    }
                    let d = solution.get(c);
                    st.place(c, d).unwrap();
                    plain.place(c, d).unwrap();
                    solver.run(&mut st);
                    fixpoint(&mut plain, k);
                    assert_eq!(st, plain, "tier {k}");
                    if st.is_solved() {
                        break;
                    }
                }
            }
        }
    }
}
