//! The features the level model reads: one documented vector per puzzle, made from its
//! [`Rating`] (both ratings, the runs' detail, the grid at the start) and from the path a
//! player takes who uses the easiest technique at every step ([`crate::hint::path`], on the
//! canonical form, so every symmetry of a puzzle has the same vector): graders that label by
//! technique (Sudoku Explainer's family, a newspaper's "needs an X-wing") see that path, not
//! the rating's average over random orders. The vector has a
//! version ([`VERSION`]) stored with every model fitted on it; a new or reordered feature is a
//! new version, and a bank whose model was fitted on another one is asked to fit it again.
//!
//! Counts that grow by orders of magnitude (checks, applications) enter as `ln(1 + x)`, so one
//! very hard puzzle does not stretch the scale of the rest.

use crate::rate::difficulty::{self, LADDER_ORDER};
use crate::grid::Puzzle;
use crate::rate::Rating;
use crate::solve::{solve, Solutions};
use crate::strategies::Strategy;

/// The version of the feature vector (see the module docs).
pub const VERSION: u32 = 3;

/// The features that are the rating's plain numbers, in order (the counts follow them).
const PLAIN: [&str; 15] = [
    "difficulty",
    "hsolve",
    "hsolve spread (sd)",
    "difficulty spread (sd / mean of the work)",
    "clues",
    "hardest hsolve tier",
    "hsolve steps",
    "WNEF",
    "box norm",
    "technique family (1 singles .. 5 trial)",
    "candidates at the start",
    "cells a single fills at the start",
    "hardest ladder position",
    "hardest step (its rank among the ladder's techniques)",
    "ln(1 + hardest steps)",
];

/// The kinds of step on a player's path: the three singles apart (a hidden single in a box
/// or a full house, a hidden single in a row or column, a naked single), then the ladder's
/// other techniques in its order ([`path_kind`]).
const KINDS: usize = Strategy::COUNT + 1;

/// The first kind that is not a single.
const FIRST_TECHNIQUE: usize = 3;

/// The features of the path: per kind its steps, per kind past the first whether the hardest
/// step is of it or harder, the hardest rung, per technique kind whether the hardest step
/// that leaves no hidden single is of it or harder, the steps that do and those that do not.
const PATH: usize = KINDS + (KINDS - 1) + 1 + (KINDS - FIRST_TECHNIQUE) + 2;

/// How many features there are.
pub const COUNT: usize =
    PLAIN.len() + difficulty::FEATURES + Strategy::COUNT + 7 + (Strategy::COUNT - 1) + PATH;

/// The kinds' names, in order (see [`KINDS`]).
#[cfg_attr(not(feature = "dev"), allow(dead_code))]
fn kind_names() -> Vec<String> {
    let mut n: Vec<String> = [
        "hidden single in a box (or full house)",
        "hidden single in a row or column",
        "naked single",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    n.extend(LADDER_ORDER[2..].iter().map(|s| s.to_string()));
    n
}

/// The kind of a step of technique `s` at ladder position `rung` (see [`KINDS`]).
fn path_kind(s: Strategy, rung: u8) -> usize {
    match s {
        Strategy::HiddenSingle if rung == 0 => 0,
        Strategy::HiddenSingle => 1,
        s => 1 + difficulty::rank(s),
    }
}

/// The features' names, in the vector's order (for the crate's own tests and examples).
#[cfg_attr(not(feature = "dev"), allow(dead_code))]
pub fn names() -> Vec<String> {
    let mut n: Vec<String> = PLAIN.iter().map(|s| s.to_string()).collect();
    n.extend(
        difficulty::FEATURE_NAMES
            .iter()
            .map(|w| format!("ln(1 + difficulty {w})")),
    );
    n.extend(
        LADDER_ORDER
            .iter()
            .map(|s| format!("ln(1 + {s} applications)")),
    );
    n.extend((0..7).map(|t| format!("ln(1 + hsolve steps at tier {t})")));
    n.extend(
        LADDER_ORDER[1..]
            .iter()
            .map(|s| format!("share of runs that needed {s} or harder")),
    );
    let kinds = kind_names();
    n.extend(kinds.iter().map(|k| format!("ln(1 + path steps: {k})")));
    n.extend(kinds[1..].iter().map(|k| format!("path's hardest step: {k} or harder")));
    n.push("path's hardest rung".into());
    n.extend(
        kinds[FIRST_TECHNIQUE..]
            .iter()
            .map(|k| format!("path's hardest step leaving no hidden single: {k} or harder")),
    );
    n.push("ln(1 + path technique steps leaving a hidden single)".into());
    n.push("ln(1 + path technique steps leaving none)".into());
    n
}


/// The path features of `puzzle` (see [`PATH`]), measured on its canonical form.
fn path(puzzle: &Puzzle) -> [f64; PATH] {
    let canonical = crate::canon::canonical(puzzle).puzzle();
    let mut counts = [0u32; KINDS];
    let (mut hardest, mut hardest_rung, mut indirect_hardest) = (0, 0, 0);
    let (mut direct, mut indirect) = (0u32, 0u32);
    if let Solutions::Unique(solution) = solve(&canonical) {
        for step in crate::hint::path(&canonical, &solution) {
            let k = path_kind(step.strategy, step.rung);
            counts[k] += 1;
            hardest = hardest.max(k);
            hardest_rung = hardest_rung.max(step.rung);
            if k >= FIRST_TECHNIQUE {
                if step.direct {
                    direct += 1;
                } else {
                    indirect += 1;
                    indirect_hardest = indirect_hardest.max(k);
                }
            }
        }
    }
    let ln1 = |x: u32| f64::from(x).ln_1p();
    let at_least = |h: usize, k: usize| if h >= k { 1.0 } else { 0.0 };
    let mut v = [0.0; PATH];
    let mut at = 0;
    let mut push = |x: f64| {
        v[at] = x;
        at += 1;
    };
    counts.iter().for_each(|&c| push(ln1(c)));
    (1..KINDS).for_each(|k| push(at_least(hardest, k)));
    push(f64::from(hardest_rung));
    (FIRST_TECHNIQUE..KINDS).for_each(|k| push(at_least(indirect_hardest, k)));
    push(ln1(direct));
    push(ln1(indirect));
    v
}

/// The feature vector of `puzzle` rated `r` (see [`names`]).
pub fn of(puzzle: &Puzzle, r: &Rating) -> Vec<f64> {
    let d = &r.detail;
    let ln1 = |x: f64| (1.0 + x.max(0.0)).ln();
    let mut v = Vec::with_capacity(COUNT);
    v.extend([
        r.difficulty,
        r.hsolve,
        r.hsolve_sd,
        d.spread,
        f64::from(r.clues),
        f64::from(r.tier),
        r.steps,
        r.wnef,
        r.box_norm,
        f64::from(r.technique.rank()),
        f64::from(d.candidates),
        f64::from(d.singles),
        f64::from(d.hardest_position),
        difficulty::rank(r.hardest.strategy) as f64,
        ln1(f64::from(r.hardest.count)),
    ]);
    v.extend(d.work.iter().map(|&w| ln1(w)));
    v.extend(LADDER_ORDER.iter().map(|&s| ln1(d.strategies[s as usize])));
    v.extend(d.steps_per_tier.iter().map(|&s| ln1(s)));
    v.extend(&d.reached[1..]);
    v.extend(path(puzzle));
    debug_assert_eq!(v.len(), COUNT);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_vector() {
        assert_eq!(names().len(), COUNT);
        let p: crate::grid::Puzzle =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let r = crate::rate::rate(&p, None).unwrap();
        let v = of(&p, &r);
        assert_eq!(v.len(), COUNT);
        assert!(v.iter().all(|x| x.is_finite()));
        assert_eq!(v[4], 32.0);
        // Singles alone: no application beyond them.
        assert!(r.hardest.strategy <= Strategy::HiddenSingle);
        let hard_rank = PLAIN.len() + difficulty::FEATURES + 2;
        assert!(v[hard_rank..hard_rank + Strategy::COUNT - 2]
            .iter()
            .all(|&x| x == 0.0));
        // Its path: singles only, one step per empty cell.
        let path = &v[COUNT - PATH..];
        let steps: f64 = path[..KINDS].iter().map(|x| x.exp() - 1.0).sum();
        assert!((steps - 49.0).abs() < 1e-9, "{steps}");
        assert!(path[KINDS + FIRST_TECHNIQUE - 1..2 * KINDS - 1]
            .iter()
            .all(|&x| x == 0.0));
        assert!(path[PATH - 2..].iter().all(|&x| x == 0.0));
    }

    #[test]
    fn every_symmetry_of_a_puzzle_has_the_same_features() {
        let p: crate::grid::Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let a = of(&p, &crate::rate::rate(&p, Some(3)).unwrap());
        let t = crate::transform::Transform::random(&mut crate::rng::Rng::new(5));
        let q = t.apply(&p);
        let b = of(&q, &crate::rate::rate(&q, Some(3)).unwrap());
        assert_eq!(a, b);
    }
}
