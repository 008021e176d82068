//! The soundness of every strategy on states of real puzzles: every placement an application
//! makes is the solution's digit, and every candidate it removes is not. The states are hard
//! puzzles of the reference data (`../shared/data/`) with random correct placements, reduced
//! by tiers 0-4, so that the patterns beyond them have a chance to appear
//! ([`crate::dev::states`]).

use super::{search, Application, Context, Strategy};
use crate::candidates::Effect;
use crate::grid::{Cell, Grid};
use crate::rng::Rng;

/// The first wrong deduction of `a` against `solution`, as words.
pub(crate) fn wrong(a: &Application, solution: &Grid) -> Option<String> {
    match a.effect {
        Effect::Place(c, d) => {
            (solution.get(c) != d).then(|| format!("{a}: {c} is {}", solution.get(c)))
        }
        Effect::Remove(r) => Cell::all()
            .find(|&c| r[solution.get(c).index()].contains(c))
            .map(|c| {
                format!(
                    "{a}: removes {} from {c}, the solution's digit",
                    solution.get(c)
                )
            }),
    }
}

/// Checks `strategies` on the random states of the hard puzzles: no application is wrong.
/// Returns the number of valid applications found per strategy, to show the test reached
/// them.
pub(crate) fn check(strategies: &[Strategy], per_file: usize, states: usize) -> Option<Vec<usize>> {
    let puzzles = match crate::dev::states::hard_puzzles(per_file) {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return None;
        }
    };
    let mut rng = Rng::new(49);
    let mut found = vec![0; strategies.len()];
    for (puzzle, solution) in &puzzles {
        let ctx = Context {
            solution: Some(*solution),
        };
        for st in crate::dev::states::states_of(puzzle, solution, states, &mut rng) {
            for (k, &s) in strategies.iter().enumerate() {
                let mut out = Vec::new();
                search(s, &st, &ctx, &mut out);
                for a in &out {
                    if let Some(why) = wrong(a, solution) {
                        panic!("unsound on {}: {why}", st.to_puzzle());
                    }
                    assert!(st.changes(&a.effect), "{a} changes nothing");
                }
                found[k] += out.len();
            }
        }
    }
    Some(found)
}

/// [`check`] for one strategy, printing how many valid applications it found: that number, or
/// `None` when the reference data is absent.
pub(crate) fn check_one(strategy: Strategy, per_file: usize, states: usize) -> Option<usize> {
    let found = check(&[strategy], per_file, states)?[0];
    eprintln!("{strategy}: {found} applications");
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_strategy_beyond_the_tiers_is_sound_on_hard_states() {
        let beyond: Vec<Strategy> = Strategy::ALL
            .into_iter()
            .filter(|s| {
                s.tier().is_none_or(|t| t <= 4)
                    && !matches!(s, Strategy::NakedSingle | Strategy::HiddenSingle)
            })
            .collect();
        let Some(found) = check(&beyond, 40, 3) else {
            return;
        };
        for (s, n) in beyond.iter().zip(&found) {
            eprintln!("{s}: {n} applications");
        }
    }
}
