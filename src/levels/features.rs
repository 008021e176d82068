//! The features the level model reads: one documented vector per puzzle, made from its
//! [`Rating`] (both ratings, the runs' detail, the grid at the start). The vector has a
//! version ([`VERSION`]) stored with every model fitted on it; a new or reordered feature is a
//! new version, and a bank whose model was fitted on another one is asked to fit it again.
//!
//! Counts that grow by orders of magnitude (checks, applications) enter as `ln(1 + x)`, so one
//! very hard puzzle does not stretch the scale of the rest.

use crate::difficulty::{self, LADDER_ORDER};
use crate::rate::Rating;
use crate::strategies::Strategy;

/// The version of the feature vector (see the module docs).
pub const VERSION: u32 = 1;

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

/// How many features there are.
pub const COUNT: usize =
    PLAIN.len() + difficulty::FEATURES + Strategy::COUNT + 7 + (Strategy::COUNT - 1);

/// The features' names, in the vector's order.
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
    n
}

/// The rank of `s` among the ladder's techniques, easiest first.
pub fn ladder_rank(s: Strategy) -> usize {
    LADDER_ORDER
        .iter()
        .position(|&t| t == s)
        .expect("every strategy is on the ladder order")
}

/// The feature vector of a rating (see [`names`]).
pub fn of(r: &Rating) -> Vec<f64> {
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
        ladder_rank(r.hardest.strategy) as f64,
        ln1(f64::from(r.hardest.count)),
    ]);
    v.extend(d.work.iter().map(|&w| ln1(w)));
    v.extend(LADDER_ORDER.iter().map(|&s| ln1(d.strategies[s as usize])));
    v.extend(d.steps_per_tier.iter().map(|&s| ln1(s)));
    v.extend(&d.reached[1..]);
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
        let v = of(&r);
        assert_eq!(v.len(), COUNT);
        assert!(v.iter().all(|x| x.is_finite()));
        assert_eq!(v[4], 32.0);
        // Singles alone: no application beyond them.
        assert!(r.hardest.strategy <= Strategy::HiddenSingle);
        let hard_rank = PLAIN.len() + difficulty::FEATURES + 2;
        assert!(v[hard_rank..hard_rank + Strategy::COUNT - 2]
            .iter()
            .all(|&x| x == 0.0));
    }

    #[test]
    fn every_symmetry_of_a_puzzle_has_the_same_features() {
        let p: crate::grid::Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let a = of(&crate::rate::rate(&p, Some(3)).unwrap());
        let t = crate::transform::Transform::random(&mut crate::rng::Rng::new(5));
        let b = of(&crate::rate::rate(&t.apply(&p), Some(3)).unwrap());
        assert_eq!(a, b);
    }
}
