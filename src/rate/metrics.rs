//! Secondary difficulty metrics, stored beside hsolve so that users can pick their scale:
//!
//! - **WNEF** (paper 000, sections 3.3 and 4.3): the weighted, normalised ease function of the
//!   candidate-count histogram of the empty cells, and its 4-level Gaussian class (Table 1);
//! - **box norm** (paper 002): the Euclidean norm of the 3x3 matrix of clue counts per box, and
//!   its 4 levels (Table 1);
//! - **technique** (paper 004's grade, hsolve's technique family): the hardest family of
//!   techniques a solver needs when it always uses the easiest one that works, named after the
//!   family (`singles`, `pairs`, `locked-candidates`, `x-wing-or-xy-wing`, `beyond-wings`) so
//!   that it cannot be read as a level; `beyond-wings` only says the families stop short.

use crate::candidates::Candidates;
use crate::grid::Puzzle;
use crate::propagate::{propagate, Propagation};
use crate::strategies::{self, Context, Strategy};
use crate::technique::Technique;

/// WNEF of the puzzle's initial candidates: sum over empty cells of w(n) = 2^(9-n) for a cell
/// with n candidates, divided by w(1) times the number of empty cells. 1 when every empty cell
/// is already determined; lower is harder. A full grid has WNEF 1.
pub fn wnef(puzzle: &Puzzle) -> f64 {
    let st = Candidates::new(puzzle);
    let empty = st.empty();
    if empty.is_empty() {
        return 1.0;
    }
    let wef: f64 = empty
        .iter()
        .map(|c| {
            let n = st.candidates(c).len();
            // A cell without candidates contributes nothing (such a puzzle has no solution).
            if n == 0 {
                0.0
            } else {
                f64::from(1u32 << (9 - n))
            }
        })
        .sum();
    wef / (256.0 * empty.len() as f64)
}

/// The paper 000 Table 1 estimates per level (1 easy .. 4 evil): mean and variance of WNEF.
const WNEF_LEVELS: [(f64, f64); 4] = [
    (0.2680756, 0.00096963),
    (0.1108268, 0.000502135),
    (0.09244832, 0.000255063),
    (0.04078146, 0.000125557),
];

/// The WNEF class, 1 (easy) to 4 (evil): the level whose Gaussian (Table 1 of paper 000) gives
/// `wnef` the highest density.
pub fn wnef_class(wnef: f64) -> u8 {
    // Compare log-densities: exact even far in the tails, where densities underflow.
    let log_density =
        |(mean, var): (f64, f64)| -(wnef - mean).powi(2) / (2.0 * var) - 0.5 * var.ln();
    let mut best = (1, f64::NEG_INFINITY);
    for (i, &level) in WNEF_LEVELS.iter().enumerate() {
        let l = log_density(level);
        if l > best.1 {
            best = (i as u8 + 1, l);
        }
    }
    best.0
}

/// Euclidean norm of the 3x3 matrix of clue counts per box.
pub fn box_norm(puzzle: &Puzzle) -> f64 {
    let mut counts = [0u32; 9];
    for (i, &v) in puzzle.as_bytes().iter().enumerate() {
        if v != 0 {
            counts[(i / 27) * 3 + (i % 9) / 3] += 1;
        }
    }
    (counts.iter().map(|&n| f64::from(n * n)).sum::<f64>()).sqrt()
}

/// The box-norm class, 1 (easy) to 4 (expert), with the lower bounds paper 002 used
/// (Table 1): 10.71, 9.59 and 8.89.
pub fn box_class(norm: f64) -> u8 {
    if norm >= 10.71 {
        1
    } else if norm >= 9.59 {
        2
    } else if norm >= 8.89 {
        3
    } else {
        4
    }
}

/// The technique families, easiest first (singles are handled by propagation).
const FAMILIES: [(Technique, &[Strategy]); 3] = [
    (
        Technique::Pairs,
        &[Strategy::NakedPair, Strategy::HiddenPair],
    ),
    (Technique::LockedCandidates, &[Strategy::LockedCandidates]),
    (
        Technique::XWingOrXyWing,
        &[Strategy::XWing, Strategy::XyWing],
    ),
];

/// The hardest technique family needed: solve with singles, and when they stall with the
/// easiest family that applies (applying all it finds), and report the hardest family used;
/// `BeyondWings` when all stall before the grid is full.
pub fn technique(puzzle: &Puzzle) -> Technique {
    let mut st = Candidates::new(puzzle);
    let ctx = Context::default();
    let mut hardest = Technique::Singles;
    let mut apps = Vec::new();
    loop {
        match propagate(&mut st) {
            Propagation::Solved => return hardest,
            Propagation::Contradiction => return Technique::BeyondWings,
            Propagation::Stalled => {}
        }
        // The easiest family that applies, with its applications in `apps`.
        let easiest = FAMILIES.iter().find_map(|&(family, members)| {
            apps.clear();
            for &s in members {
                strategies::search(s, &st, &ctx, &mut apps);
            }
            (!apps.is_empty()).then_some(family)
        });
        let Some(family) = easiest else {
            return Technique::BeyondWings;
        };
        for a in &apps {
            st.apply(&a.effect);
        }
        hardest = hardest.max(family);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::{EASY, HARD};

    #[test]
    fn wnef_bounds() {
        let full = crate::solve::solve(&EASY.parse().unwrap())
            .unique()
            .unwrap();
        assert_eq!(wnef(full.as_puzzle()), 1.0);
        // Empty board: every cell has 9 candidates, w(9) = 1, so 1 / 256.
        assert!((wnef(&Puzzle::EMPTY) - 1.0 / 256.0).abs() < 1e-12);
        let e = wnef(&EASY.parse().unwrap());
        let h = wnef(&HARD.parse().unwrap());
        assert!(e > h, "{e} {h}");
    }

    #[test]
    fn wnef_classes_follow_the_means() {
        let classes = [
            (0.30, 1),
            (0.2680756, 1),
            (0.1108268, 2),
            (0.09244832, 3),
            (0.04078146, 4),
            (0.0, 4),
            (1.0, 1),
        ];
        for (w, class) in classes {
            assert_eq!(wnef_class(w), class, "{w}");
        }
    }

    #[test]
    fn box_norm_and_classes() {
        // Three clues in three boxes: norm sqrt(3).
        let mut cells = [0u8; 81];
        cells[0] = 1; // box 1
        cells[28] = 4; // r4c2, box 4
        cells[70] = 7; // r8c8, box 9
        let p = Puzzle::from_bytes(cells).unwrap();
        assert!((box_norm(&p) - 3.0_f64.sqrt()).abs() < 1e-12);
        for (norm, class) in [(12.0, 1), (10.0, 2), (9.0, 3), (8.0, 4)] {
            assert_eq!(box_class(norm), class, "{norm}");
        }
    }

    #[test]
    fn techniques() {
        assert_eq!(technique(&EASY.parse().unwrap()), Technique::Singles);
        assert_eq!(technique(&HARD.parse().unwrap()), Technique::BeyondWings);
    }
}
