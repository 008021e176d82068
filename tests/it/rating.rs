//! hsolve ratings and tier-limited solving: reproducibility, order independence of the
//! fixpoint, and (when `../shared/data/` is present) finite ratings on samples of every list.

use pseudoku::candidates::Candidates;
use pseudoku::dev::refdata;
use pseudoku::input::read_puzzle_file;
use pseudoku::rate::difficulty;
use pseudoku::rate::hsolve::{self, RateError};
use pseudoku::strategies::{self, Context};
use pseudoku::{Puzzle, Rng};

/// Puzzles from easy to very hard (the last needs trial and error).
const PUZZLES: &[&str] = &[
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
];

fn samples() -> Vec<Puzzle> {
    let text = include_str!("../../samples/puzzles.txt");
    let mut v: Vec<Puzzle> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect();
    v.extend(PUZZLES.iter().map(|s| s.parse::<Puzzle>().unwrap()));
    v
}

/// Tier-`k` solving making one application at a time, drawn at random from all the valid
/// applications of all tiers up to `k` (not easiest first).
fn random_order_fixpoint(p: &Puzzle, k: u8, rng: &mut Rng) -> Candidates {
    let mut st = Candidates::new(p);
    let ctx = Context::default();
    let mut apps = Vec::new();
    loop {
        apps.clear();
        for tier in 0..=k.min(6) {
            strategies::search_tier(tier, &st, &ctx, &mut apps);
        }
        if apps.is_empty() {
            return st;
        }
        let a = apps[rng.index(apps.len())];
        assert!(st.apply(&a.effect), "{a}");
    }
}

#[test]
fn the_tier_fixpoint_does_not_depend_on_the_order() {
    let mut rng = Rng::new(7);
    for p in samples() {
        for k in 0..=5 {
            let f = hsolve::solve_to_tier(&p, k).unwrap();
            for _ in 0..2 {
                let other = random_order_fixpoint(&p, k, &mut rng);
                assert_eq!(other, f.state, "{p} tier {k}");
            }
        }
    }
}

#[test]
fn tier_six_solves_and_reserved_cells_shrink_with_k() {
    for s in PUZZLES {
        let p: Puzzle = s.parse().unwrap();
        let mut last = u32::MAX;
        for k in 0..=6 {
            let f = hsolve::solve_to_tier(&p, k).unwrap();
            assert!(f.reserved.len() <= last);
            last = f.reserved.len();
            // Reserved cells are exactly the empty cells of the fixpoint.
            assert_eq!(f.reserved, f.state.empty());
        }
        assert_eq!(last, 0, "{p}");
    }
}

#[test]
fn ratings_are_reproducible_and_ordered() {
    let mut means = Vec::new();
    for s in PUZZLES {
        let p: Puzzle = s.parse().unwrap();
        let a = hsolve::rate(&p, 20).unwrap();
        let b = hsolve::rate(&p, 20).unwrap();
        assert_eq!(a, b);
        assert!(a.mean.is_finite() && a.sd.is_finite());
        assert_eq!(a.runs, 20);
        let per_tier: f64 = a.steps_per_tier.iter().sum();
        assert!((per_tier - a.steps).abs() < 1e-9);
        means.push(a.mean);
    }
    // The easy puzzle rates lowest, the trial-and-error ones highest.
    assert!(means[0] < means[1] && means[1] < means[3], "{means:?}");
}

#[test]
fn puzzles_without_one_solution_are_refused() {
    let multi: Puzzle = format!(".{}", &PUZZLES[1][1..]).parse().unwrap();
    assert_eq!(hsolve::rate(&multi, 1), Err(RateError::NotUnique));
    let none: Puzzle = ("12345678.........9".to_string() + &".".repeat(63))
        .parse()
        .unwrap();
    assert_eq!(hsolve::rate(&none, 1), Err(RateError::NoSolution));
    assert_eq!(
        hsolve::solve_to_tier(&none, 3).unwrap_err(),
        RateError::NoSolution
    );
}

#[test]
fn explain_ends_with_the_run_difficulty() {
    let p: Puzzle = PUZZLES[2].parse().unwrap();
    let trace = hsolve::explain(&p).unwrap();
    let placed = trace
        .iter()
        .filter(|s| matches!(s.applied, Some(a) if matches!(a.effect, pseudoku::candidates::Effect::Place(..))))
        .count();
    assert!(placed > 0);
    // d only grows, by E(p, v) at each search.
    let mut d = 0.0;
    for s in &trace {
        d += hsolve::expected_checks(s.p, s.v);
        assert!((s.d - d).abs() < 1e-6 * d.max(1.0));
    }
}

/// Samples of every list: (file, how many puzzles, runs).
const SAMPLES: &[(&str, usize, u32)] = &[
    ("17-clue/puzzles.tsv", 200, 20),
    ("se-rated/sudoku_exchange_sample500.tsv", 400, 20),
    ("se-rated/sudoku_exchange_buckets.tsv", 400, 20),
    ("berthier-cb000/puzzles.tsv", 300, 20),
    ("hard/top1465.tsv", 150, 20),
    ("hard/top95.tsv", 95, 20),
    ("hard/forum_hardest_1106.tsv", 4, 2),
    ("hard/forum_hardest_1905_11plus.tsv", 3, 2),
    ("hard/isomorphic_pairs.tsv", 48, 5),
];

/// Every `len / n`-th puzzle of a list, `n` in all.
fn spread(puzzles: Vec<Puzzle>, n: usize) -> Vec<Puzzle> {
    let step = (puzzles.len() / n).max(1);
    puzzles.into_iter().step_by(step).take(n).collect()
}

#[test]
fn every_list_gets_finite_ratings_and_the_hardest_rate_highest() {
    if let Err(why) = refdata::dir() {
        crate::common::skipping("the tests on the shared reference data", why);
        return;
    }
    let mut mean_of = std::collections::HashMap::new();
    for &(rel, n, runs) in SAMPLES {
        let path = refdata::file(rel).unwrap();
        let puzzles = spread(read_puzzle_file(&path).unwrap(), n);
        let mut sum = 0.0;
        for p in &puzzles {
            let r = hsolve::rate(p, runs).unwrap_or_else(|e| panic!("{rel}: {p}: {e}"));
            assert!(r.mean.is_finite() && r.mean > 0.0, "{rel}: {p}");
            sum += r.mean;
        }
        let mean = sum / puzzles.len() as f64;
        eprintln!("{rel}: {} puzzles, mean hsolve {mean:.0}", puzzles.len());
        mean_of.insert(rel, mean);
    }
    let se = mean_of["se-rated/sudoku_exchange_sample500.tsv"];
    for hard in [
        "hard/top1465.tsv",
        "hard/top95.tsv",
        "hard/forum_hardest_1106.tsv",
        "hard/forum_hardest_1905_11plus.tsv",
    ] {
        assert!(
            mean_of[hard] > se,
            "{hard} {} <= SE sample {se}",
            mean_of[hard]
        );
    }
    // Multiple solutions are refused, not rated.
    let serg = read_puzzle_file(&refdata::file("hard/serg_benchmark.tsv").unwrap()).unwrap();
    for p in spread(serg, 20) {
        assert_eq!(hsolve::rate(&p, 1), Err(RateError::NotUnique));
    }
}

mod symmetry {
    use super::*;
    use proptest::prelude::*;
    use pseudoku::Transform;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Every symmetry of a puzzle gets the identical ratings (hsolve and difficulty) and
        /// report.
        #[test]
        fn equivalent_puzzles_rate_identically(i in 0usize..54, seed in any::<u64>()) {
            let p = samples()[i];
            let t = Transform::random(&mut pseudoku::Rng::new(seed));
            let q = t.apply(&p);
            prop_assert_eq!(hsolve::rate(&q, 5).unwrap(), hsolve::rate(&p, 5).unwrap());
            prop_assert_eq!(difficulty::rate(&q, 3).unwrap(), difficulty::rate(&p, 3).unwrap());
            let (a, b) = (
                pseudoku::rate::rate(&p, Some(5)).unwrap(),
                pseudoku::rate::rate(&q, Some(5)).unwrap(),
            );
            prop_assert_eq!(
                (a.difficulty, a.hsolve, a.hsolve_sd, a.tier, a.steps, a.technique, a.clues),
                (b.difficulty, b.hsolve, b.hsolve_sd, b.tier, b.steps, b.technique, b.clues)
            );
        }
    }
}

#[test]
fn wings_and_rectangles_never_remove_a_solution_digit() {
    use pseudoku::candidates::Effect;
    use pseudoku::strategies::Strategy;
    let mut found = 0;
    let mut puzzles = samples();
    if let Ok(path) = refdata::file("hard/top1465.tsv") {
        puzzles.extend(read_puzzle_file(&path).unwrap().into_iter().take(300));
    }
    for p in puzzles {
        let sol = pseudoku::solve(&p).unique().unwrap();
        let st = hsolve::solve_to_tier(&p, 4).unwrap().state;
        for s in [
            Strategy::XyWing,
            Strategy::XyzWing,
            Strategy::WWing,
            Strategy::UniqueRectangle,
            Strategy::Colouring,
            Strategy::XyChain,
        ] {
            let mut apps = Vec::new();
            strategies::search(s, &st, &Context::default(), &mut apps);
            for a in &apps {
                found += 1;
                let Effect::Remove(r) = a.effect else {
                    panic!("{s} only removes")
                };
                for c in pseudoku::Cell::all() {
                    let d = sol.get(c);
                    assert!(
                        !r[d.index()].contains(c),
                        "{s} removes the solution {d} from {c} in {p}"
                    );
                }
            }
        }
    }
    assert!(found > 0);
}

/// `rate --profile` prints where the time went and changes no rating: the same standard
/// output as without it; every stage counted once per puzzle; each model's first rung asked
/// for; a rung's cache and shared answers and its hits never more than its searches, and its
/// strategies searched no more often than the rung searched.
#[test]
fn the_profile_counts_every_rating_and_changes_no_number() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles.txt");
    let puzzles = read_puzzle_file(&path).unwrap().len() as u64;
    let plain = crate::common::pseudoku()
        .args(["rate", "--threads", "2"])
        .arg(&path)
        .output()
        .unwrap();
    let profiled = crate::common::pseudoku()
        .args(["rate", "--threads", "2", "--profile"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(profiled.status.success());
    assert_eq!(plain.stdout, profiled.stdout);
    let table = crate::common::text(&profiled.stderr);
    // A row's last `n` columns, as numbers (names may hold numbers too).
    let numbers = |line: &str, n: usize| -> Vec<f64> {
        let words: Vec<&str> = line.split_whitespace().collect();
        words[words.len() - n..]
            .iter()
            .map(|w| w.trim_end_matches('%').parse().unwrap())
            .collect()
    };
    for stage in ["canonical form", "difficulty", "hsolve", "metrics"] {
        let line = table
            .lines()
            .find(|l| l.starts_with(stage) && !l.contains("rung"))
            .unwrap_or_else(|| panic!("no {stage} row in\n{table}"));
        assert_eq!(numbers(line, 3)[0], puzzles as f64, "{line}");
    }
    for model in ["difficulty: rung", "hsolve: rung"] {
        let rows: Vec<&str> = table
            .lines()
            .skip_while(|l| !l.starts_with(model))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(numbers(rows[0], 6)[0] > 0.0, "{}", rows[0]);
        let mut rung_searched = 0.0;
        for row in &rows {
            if row.contains("singles, steps") {
                continue;
            }
            if row.starts_with("     ") {
                // A strategy: searches, hits, seconds, share.
                let n = numbers(row, 4);
                assert!(n[0] <= rung_searched && n[1] <= n[0], "{row}");
            } else {
                // A rung: searches, cached, shared, hits, seconds, share.
                let n = numbers(row, 6);
                let (searches, cached, shared, hits) = (n[0], n[1], n[2], n[3]);
                assert!(cached + shared <= searches && hits <= searches, "{row}");
                rung_searched = searches - cached - shared;
            }
        }
    }
}
