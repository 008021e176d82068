//! The soundness of every strategy on states of real puzzles: every placement an application
//! makes is the solution's digit, and every candidate it removes is not. The states are hard
//! puzzles of the reference data (`../shared/data/`) with random correct placements, reduced
//! by tiers 0-4, so that the patterns beyond them have a chance to appear
//! ([`crate::strategies::states`]).

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
    let puzzles = match crate::strategies::states::hard_puzzles(per_file) {
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
        for st in crate::strategies::states::states_of(puzzle, solution, states, &mut rng) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The strategies beyond the tiers met at least once on 40 hard puzzles a file with 3
    /// states each.
    const MET: [Strategy; 16] = [
        Strategy::Skyscraper,
        Strategy::TwoStringKite,
        Strategy::TurbotFish,
        Strategy::EmptyRectangle,
        Strategy::XChain,
        Strategy::XCycle,
        Strategy::MultiColouring,
        Strategy::FinnedXWing,
        Strategy::FinnedSwordfish,
        Strategy::FinnedJellyfish,
        Strategy::WxyzWing,
        Strategy::Aic,
        Strategy::AlsXz,
        Strategy::AlsXyWing,
        Strategy::AlsChain,
        Strategy::DeathBlossom,
    ];

    /// The patterns too rare to be met so, each group with the puzzles a file and the states
    /// a puzzle at which every one of it is met (but for [`SOUND_ONLY`]).
    const RARE: [(&[Strategy], usize, usize); 2] = [
        (
            &[
                Strategy::BugPlusOne,
                Strategy::HiddenRectangle,
                Strategy::RemotePairs,
                Strategy::UniqueRectangle2,
                Strategy::UniqueRectangle3,
                Strategy::UniqueRectangle4,
                Strategy::UniqueRectangle5,
                Strategy::UniqueRectangle6,
            ],
            300,
            6,
        ),
        (&[Strategy::SueDeCoq], 150, 3),
    ];

    /// Checked for soundness with the rare patterns but not expected to be met: no state of
    /// their reach holds one (HoDoKu's library has two, in `library.txt`).
    const SOUND_ONLY: [Strategy; 1] = [Strategy::UniqueRectangle5];

    fn report(strategies: &[Strategy], found: &[usize]) {
        for (s, n) in strategies.iter().zip(found) {
            eprintln!("{s}: {n} applications");
        }
    }

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
        report(&beyond, &found);
        for s in MET {
            let k = beyond.iter().position(|&b| b == s).expect("beyond the tiers");
            assert!(found[k] > 0, "{s} is never met");
        }
    }

    #[test]
    fn the_rare_patterns_are_met_and_sound_on_more_states() {
        for (strategies, per_file, states) in RARE {
            let Some(found) = check(strategies, per_file, states) else {
                return;
            };
            report(strategies, &found);
            for (s, n) in strategies.iter().zip(&found) {
                assert!(*n > 0 || SOUND_ONLY.contains(s), "{s} is never met");
            }
        }
    }
}
