//! The symmetry group: group laws, validity, and what transforms do to solutions.

use std::collections::HashSet;

use proptest::prelude::*;
use pseudoku::solve::{count_solutions, random_grid, solve};
use pseudoku::transform::GEOMETRIC_MAPS;
use pseudoku::{Cell, Puzzle, Rng, Solutions, Transform};

/// A random puzzle: a random grid with about `keep` percent of its cells kept.
fn random_puzzle(seed: u64, keep: u32) -> Puzzle {
    let mut rng = Rng::new(seed);
    let g = random_grid(&mut rng);
    let mut cells = *g.as_bytes();
    for c in cells.iter_mut() {
        if rng.below(100) >= keep {
            *c = 0;
        }
    }
    Puzzle::from_bytes(cells).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn inverse_undoes(seed in any::<u64>()) {
        let t = Transform::random(&mut Rng::new(seed));
        prop_assert!(t.then(&t.inverse()).is_identity());
        prop_assert!(t.inverse().then(&t).is_identity());
        prop_assert_eq!(t.inverse().inverse(), t);
    }

    #[test]
    fn composition_is_sequential_application(s1 in any::<u64>(), s2 in any::<u64>(), ps in any::<u64>()) {
        let t1 = Transform::random(&mut Rng::new(s1));
        let t2 = Transform::random(&mut Rng::new(s2));
        let p = random_puzzle(ps, 40);
        prop_assert_eq!(t1.then(&t2).apply(&p), t2.apply(&t1.apply(&p)));
    }

    #[test]
    fn keeps_solution_count_and_maps_the_solution(seed in any::<u64>(), ps in any::<u64>(), keep in 20u32..45) {
        let t = Transform::random(&mut Rng::new(seed));
        let p = random_puzzle(ps, keep);
        let q = t.apply(&p);
        prop_assert_eq!(q.clues(), p.clues());
        prop_assert_eq!(count_solutions(&q, 3), count_solutions(&p, 3));
        if let Solutions::Unique(g) = solve(&p) {
            prop_assert_eq!(solve(&q), Solutions::Unique(t.apply_grid(&g)));
        }
    }

    #[test]
    fn source_of_matches_apply(seed in any::<u64>(), ps in any::<u64>()) {
        let t = Transform::random_geometric(&mut Rng::new(seed));
        let p = random_puzzle(ps, 50);
        let q = t.apply(&p);
        for cell in Cell::all() {
            prop_assert_eq!(q.get(cell), p.get(t.source_of(cell)));
        }
    }
}

#[test]
fn random_draws_reach_every_line_map() {
    // 6^4 = 1296 band-preserving row maps; 40,000 draws miss one with probability < 1e-9.
    let mut rng = Rng::new(5);
    let mut rows = HashSet::new();
    let mut transposes = 0;
    for _ in 0..40_000 {
        let t = Transform::random(&mut rng);
        rows.insert(t.rows());
        transposes += u32::from(t.transposes());
    }
    assert_eq!(rows.len(), 1296);
    assert_eq!(2 * 1296 * 1296, GEOMETRIC_MAPS);
    // A fair coin: 20,000 +- 5 sigma (sigma = 100).
    assert!((19_500..=20_500).contains(&transposes), "{transposes}");
}

#[test]
fn display_names_the_parts() {
    let t = Transform::new(
        true,
        [2, 1, 0, 3, 4, 5, 8, 6, 7],
        [0, 1, 2, 3, 4, 5, 6, 7, 8],
        [9, 8, 7, 6, 5, 4, 3, 2, 1],
    )
    .unwrap();
    assert_eq!(t.to_string(), "t:1 r:210345867 c:012345678 d:987654321");
    assert_eq!(t.digits(), [9, 8, 7, 6, 5, 4, 3, 2, 1]);
}
