//! Candidate states of hard puzzles, for the strategies' soundness test and the per-technique
//! benchmark: puzzles of the reference data's hard lists, each with random correct placements
//! (0 to 20 of its solution's digits), then reduced by tiers 0-4, so that the patterns beyond
//! them have a chance to appear. Solved states are left out.

use crate::candidates::Candidates;
use crate::grid::{Grid, Puzzle};
use crate::rng::Rng;

/// The reference files the states come from.
pub const FILES: [&str; 3] = [
    "hard/top1465.tsv",
    "hard/forum_hardest_1106.tsv",
    "berthier-cb000/puzzles.tsv",
];

/// Up to `per_file` puzzles of each of [`FILES`] (spread evenly over the file) with one
/// solution, and the solution; or why the data is absent.
pub fn hard_puzzles(per_file: usize) -> Result<Vec<(Puzzle, Grid)>, String> {
    let mut out = Vec::new();
    for rel in FILES {
        let puzzles = crate::dev::refdata::puzzles(rel)?;
        let step = (puzzles.len() / per_file.max(1)).max(1);
        for p in puzzles.iter().step_by(step).take(per_file) {
            if let Some(g) = crate::solve::solve(p).unique() {
                out.push((*p, g));
            }
        }
    }
    Ok(out)
}

/// `states` random states of `puzzle` (see the module docs), drawing from `rng`.
pub fn states_of(
    puzzle: &Puzzle,
    solution: &Grid,
    states: usize,
    rng: &mut Rng,
) -> Vec<Candidates> {
    let mut out = Vec::new();
    for _ in 0..states {
        let mut st = Candidates::new(puzzle);
        for _ in 0..rng.below(21) {
            let empty = st.empty();
            if empty.is_empty() {
                break;
            }
            let c = empty.nth(rng.below(empty.len())).expect("below len");
            st.apply(&crate::candidates::Effect::Place(c, solution.get(c)));
        }
        crate::strategies::tiers::fixpoint(&mut st, 4);
        if !st.is_solved() {
            out.push(st);
        }
    }
    out
}

/// The states of [`hard_puzzles`]`(per_file)`, `per_puzzle` each, with their puzzle's
/// solution, drawn from `Rng::new(seed)`.
pub fn hard(
    per_file: usize,
    per_puzzle: usize,
    seed: u64,
) -> Result<Vec<(Candidates, Grid)>, String> {
    let mut rng = Rng::new(seed);
    Ok(hard_puzzles(per_file)?
        .into_iter()
        .flat_map(|(p, g)| {
            states_of(&p, &g, per_puzzle, &mut rng)
                .into_iter()
                .map(move |st| (st, g))
        })
        .collect())
}
