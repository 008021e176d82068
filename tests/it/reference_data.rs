//! The exact solver on every published list in `../shared/data/` (skipped with a message when
//! the folder is absent): every puzzle has exactly one solution, except the
//! `serg_benchmark` list, where every puzzle has two or more.

use pseudoku::dev::refdata;
use pseudoku::input::read_puzzle_file;
use pseudoku::solve::{count_solutions, solve};
use pseudoku::{Puzzle, Solutions};

/// Every list, its row count (from the data README) and the expected solution count.
const LISTS: &[(&str, usize, usize)] = &[
    ("17-clue/puzzles.tsv", 49_158, 1),
    ("17-clue/royle_original_49151.tsv", 49_151, 1),
    ("se-rated/sudoku_exchange_sample500.tsv", 23_293, 1),
    ("se-rated/sudoku_exchange_buckets.tsv", 2_000, 1),
    ("berthier-cb000/puzzles.tsv", 21_375, 1),
    ("hard/top1465.tsv", 1_465, 1),
    ("hard/top95.tsv", 95, 1),
    ("hard/forum_hardest_1106.tsv", 375, 1),
    ("hard/forum_hardest_1905_11plus.tsv", 48_766, 1),
    ("hard/isomorphic_pairs.tsv", 48, 1),
    ("hard/serg_benchmark.tsv", 10_000, 2),
];

#[test]
fn every_list_has_the_expected_solution_counts() {
    if let Err(why) = refdata::dir() {
        crate::common::skipping("the tests on the shared reference data", why);
        return;
    }
    for &(rel, rows, expected) in LISTS {
        let path = refdata::file(rel).unwrap();
        let puzzles = read_puzzle_file(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(puzzles.len(), rows, "{rel}: row count");
        let wrong: Vec<&Puzzle> = puzzles
            .iter()
            .filter(|p| count_solutions(p, 2) != expected)
            .collect();
        assert!(
            wrong.is_empty(),
            "{rel}: {} puzzles without {expected} solution(s), first {}",
            wrong.len(),
            wrong[0]
        );
        eprintln!("{rel}: {rows} puzzles, all with {expected} solution(s)");
    }
}

#[test]
fn solutions_match_the_published_ones() {
    // The buckets list carries each puzzle's solution in column 4.
    let path = match refdata::file("se-rated/sudoku_exchange_buckets.tsv") {
        Ok(p) => p,
        Err(why) => {
            crate::common::skipping("the tests on the shared reference data", why);
            return;
        }
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let p = Puzzle::parse_line(cols[0]).unwrap();
        let Solutions::Unique(g) = solve(&p) else {
            panic!("{p}: not unique")
        };
        assert_eq!(g.to_line(), cols[3], "{p}");
        checked += 1;
    }
    assert_eq!(checked, 2_000);
}

/// A test that skips says so where the run's output shows it: this test binary, run on one
/// test without the data, prints a `SKIPPED` line for its group (and passes).
#[test]
fn a_skip_is_said_in_the_runs_output() {
    let one = "reference_data::every_list_has_the_expected_solution_counts";
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", one, "--test-threads", "1"])
        .env("PSEUDOKU_DATA", "/nonexistent/pseudoku-data")
        .output()
        .unwrap();
    let err = crate::common::text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("SKIPPED the tests on the shared reference data: "),
        "{err}"
    );
    assert!(crate::common::text(&out.stdout).contains("1 passed"));
}
