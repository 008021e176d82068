//! The rating beyond the paper (`difficulty`): reproducible, ordered, every deduction of its
//! runs sound, every applied trial verified to its end, finite on samples of every shared
//! list (when `../shared/data/` is present) with the hardest lists rated highest.

use pseudoku::candidates::{Candidates, Effect};
use pseudoku::dev::refdata;
use pseudoku::input::read_puzzle_file;
use pseudoku::propagate::Propagation;
use pseudoku::rate::difficulty::{self, FEATURES, WEIGHTS};
use pseudoku::strategies::Strategy;
use pseudoku::{rate::refutation, Puzzle};

/// From easy to very hard: singles only; pairs; a trial-and-error puzzle; depth-2 trials.
const PUZZLES: &[&str] = &[
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
];

fn puzzle(s: &str) -> Puzzle {
    s.parse().unwrap()
}

#[test]
fn ratings_are_reproducible_ordered_and_the_weighted_features() {
    let mut values = Vec::new();
    for s in PUZZLES {
        let p = puzzle(s);
        let a = difficulty::rate(&p, 10).unwrap();
        assert_eq!(a, difficulty::rate(&p, 10).unwrap());
        assert_eq!(a.runs, 10);
        assert!(a.value.is_finite() && a.spread >= 0.0);
        let w: f64 = a.features.iter().zip(WEIGHTS).map(|(f, w)| f * w).sum();
        assert!((w - a.work).abs() <= 1e-9 * a.work);
        assert_eq!(a.features.len(), FEATURES);
        values.push((a.value, a.hardest));
    }
    // Singles only: the work is the singles checks alone, the hardest position 0.
    assert_eq!(values[0].1, 0);
    assert!(
        values.windows(2).all(|w| w[0].0 < w[1].0),
        "harder puzzles rate higher: {values:?}"
    );
    // The last needs trials of depth 2 (position 12): no forcing chain of 12 waves settles it.
    assert_eq!(values[3].1, 12);
}

/// Replays a difficulty run: every application keeps the solution, and every trial applied
/// is verified to a contradiction (or, for backtracking, possibly to the full grid).
fn check_run(p: &Puzzle) -> usize {
    let sol = pseudoku::solve(p).unique().unwrap();
    let mut st = Candidates::new(p);
    let mut trials = 0;
    for s in difficulty::explain(p).unwrap().0 {
        let Some(a) = s.applied else { continue };
        if matches!(a.strategy, Strategy::Backtracking | Strategy::TrialAndError) {
            let (c, d) = (a.cells.first().unwrap(), a.digits.first().unwrap());
            let depth = if a.strategy == Strategy::Backtracking {
                0
            } else {
                a.depth
            };
            let (o, n) = refutation::effort(&st, c, d, depth, u32::MAX);
            match a.strategy {
                Strategy::Backtracking => assert!(
                    o == Propagation::Contradiction
                        || (o == Propagation::Solved && sol.get(c) == d),
                    "{p}: {a}: {o:?}"
                ),
                _ => assert_eq!(o, Propagation::Contradiction, "{p}: {a}"),
            }
            assert!(n > 0 || o == Propagation::Contradiction);
            trials += 1;
        }
        match a.effect {
            Effect::Place(c, d) => assert_eq!(sol.get(c), d, "{p}: {a}"),
            Effect::Remove(r) => {
                for c in pseudoku::Cell::all() {
                    assert!(!r[sol.get(c).index()].contains(c), "{p}: {a}");
                }
            }
        }
        st.apply(&a.effect);
    }
    assert!(st.is_solved());
    trials
}

#[test]
fn runs_are_sound_and_trials_are_verified() {
    let mut trials = 0;
    for s in PUZZLES {
        trials += check_run(&puzzle(s));
    }
    assert!(trials > 0);
}

#[test]
fn runs_on_hard_lists_are_sound() {
    let mut trials = 0;
    let mut n = 0;
    for (rel, take) in [
        ("hard/top1465.tsv", 300),
        ("hard/forum_hardest_1106.tsv", 20),
    ] {
        let Ok(path) = refdata::file(rel) else {
            crate::common::skipping(
                "the tests on the shared reference data",
                format!("{rel} is absent"),
            );
            return;
        };
        for p in read_puzzle_file(&path).unwrap().into_iter().take(take) {
            trials += check_run(&p);
            n += 1;
        }
    }
    eprintln!("{n} runs replayed, {trials} trials verified");
    assert!(trials > 0);
}

#[test]
fn hardest_lists_rate_above_the_se_sample() {
    if let Err(why) = refdata::dir() {
        crate::common::skipping("the tests on the shared reference data", why);
        return;
    }
    let mean = |rel: &str, n: usize| -> f64 {
        let all = read_puzzle_file(&refdata::file(rel).unwrap()).unwrap();
        let step = (all.len() / n).max(1);
        let picked: Vec<&Puzzle> = all.iter().step_by(step).take(n).collect();
        let sum: f64 = picked
            .iter()
            .map(|p| {
                let d = difficulty::rate(p, 5).unwrap_or_else(|e| panic!("{rel}: {p}: {e}"));
                assert!(d.value.is_finite() && d.value > 0.0, "{rel}: {p}");
                d.value
            })
            .sum();
        sum / picked.len() as f64
    };
    let se = mean("se-rated/sudoku_exchange_sample500.tsv", 100);
    let buckets = mean("se-rated/sudoku_exchange_buckets.tsv", 100);
    let top = mean("hard/top1465.tsv", 60);
    let forum = mean("hard/forum_hardest_1106.tsv", 15);
    eprintln!("mean difficulty: buckets {buckets:.2}, SE sample {se:.2}, top1465 {top:.2}, forum {forum:.2}");
    assert!(buckets < se && se < top && top < forum);
}
