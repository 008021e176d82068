//! Exact solver: known answers, solution counts and properties of the solutions.

use pseudoku::solve::{count_solutions, first_solution, is_unique, random_grid, solve};
use pseudoku::{Grid, Puzzle, Rng, Solutions};

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// True when `g` is a valid solved grid that agrees with every clue of `p`.
fn solves(g: &Grid, p: &Puzzle) -> bool {
    let ok_grid = Puzzle::from_bytes(*g.as_bytes()).is_ok();
    let agrees = p
        .as_bytes()
        .iter()
        .zip(g.as_bytes())
        .all(|(&c, &s)| c == 0 || c == s);
    ok_grid && agrees
}

#[test]
fn known_answer() {
    let p = Puzzle::parse_line(HARD).unwrap();
    match solve(&p) {
        Solutions::Unique(g) => assert_eq!(g.to_line(), HARD_SOLUTION),
        other => panic!("expected a unique solution, got {other:?}"),
    }
    assert!(is_unique(&p));
    assert_eq!(count_solutions(&p, 10), 1);
}

#[test]
fn multiple_and_none() {
    // Remove one clue from a minimal puzzle: several solutions.
    let mut s = HARD.to_string();
    s.replace_range(0..1, ".");
    let p = Puzzle::parse_line(&s).unwrap();
    let r = solve(&p);
    assert_eq!(r.count(), 2);
    let Solutions::Multiple(g) = r else { panic!() };
    assert!(solves(&g, &p));
    assert!(count_solutions(&p, 1000) > 2);

    // Consistent clues but no solution: r1c9 can hold no digit (its row and column see 1-9).
    let s = "12345678.........9".to_string() + &".".repeat(63);
    let p = Puzzle::parse_line(&s).unwrap();
    assert_eq!(solve(&p), Solutions::None);
    assert_eq!(count_solutions(&p, 2), 0);
    assert_eq!(first_solution(&p), None);
}

#[test]
fn full_grid_and_counting_limits() {
    let g: Grid = HARD_SOLUTION.parse().unwrap();
    assert_eq!(solve(g.as_puzzle()), Solutions::Unique(g));
    assert_eq!(count_solutions(g.as_puzzle(), 0), 0);
    // The empty grid: counting stops at the limit.
    assert_eq!(count_solutions(&Puzzle::EMPTY, 1), 1);
    assert_eq!(count_solutions(&Puzzle::EMPTY, 1000), 1000);
}

#[test]
fn a_grid_with_four_holes_in_a_rectangle_has_two_solutions() {
    // Swapping the two digits of a "deadly pattern" gives a second solution.
    let g: Grid = HARD_SOLUTION.parse().unwrap();
    let bytes = g.as_bytes();
    // Find r1c_a, r1c_b, r2c_a, r2c_b in the same band and stack pair with digits x y / y x.
    let mut found = None;
    'search: for r1 in 0..9 {
        for r2 in (r1 + 1)..9 {
            if r1 / 3 != r2 / 3 {
                continue;
            }
            for c1 in 0..9 {
                for c2 in (c1 + 1)..9 {
                    let (a, b) = (bytes[9 * r1 + c1], bytes[9 * r1 + c2]);
                    if bytes[9 * r2 + c1] == b && bytes[9 * r2 + c2] == a {
                        found = Some([9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2]);
                        break 'search;
                    }
                }
            }
        }
    }
    if let Some(cells) = found {
        let mut holes = *bytes;
        for c in cells {
            holes[c] = 0;
        }
        let p = Puzzle::from_bytes(holes).unwrap();
        assert_eq!(count_solutions(&p, 10), 2);
    }
}

#[test]
fn random_grids_are_valid_and_reproducible() {
    let mut a = Rng::new(1);
    let mut b = Rng::new(1);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200 {
        let g = random_grid(&mut a);
        assert_eq!(g, random_grid(&mut b));
        assert!(Puzzle::from_bytes(*g.as_bytes()).is_ok());
        assert!(g.as_puzzle().is_full());
        seen.insert(g);
    }
    assert_eq!(seen.len(), 200);
}

#[test]
fn solutions_of_random_puzzles_are_valid() {
    // Random partial grids: take a random grid, keep a random subset of clues.
    let mut rng = Rng::new(99);
    for _ in 0..300 {
        let g = random_grid(&mut rng);
        let mut cells = *g.as_bytes();
        for c in cells.iter_mut() {
            if rng.below(100) < 70 {
                *c = 0;
            }
        }
        let p = Puzzle::from_bytes(cells).unwrap();
        match solve(&p) {
            Solutions::Unique(s) => assert_eq!(s, g),
            Solutions::Multiple(s) => assert!(solves(&s, &p)),
            Solutions::None => panic!("a subset of a grid always has a solution: {p}"),
        }
    }
}
