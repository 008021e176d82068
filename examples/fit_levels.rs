//! How well level cut points on the `difficulty` rating, fitted exactly on public labelled
//! puzzles, carry over to puzzles they were not fitted on (work towards the default level
//! scale; the figures are quoted in the notes of issue 15).
//!
//! ```text
//! cargo run --release --example fit_levels
//! ```
//!
//! # Procedure (2-fold cross-validation)
//!
//! 1. The Sudoku Exchange buckets (500 puzzles each of easy, medium, hard and diabolical, by
//!    Sukaku Explainer rating: < 1.5, < 2.5, < 5.0, >= 5.0) and the Sudoku Explainer sample
//!    (23,293 puzzles rated 2.5 to 9.3, labelled by the same thresholds: hard or diabolical) are
//!    rated with `difficulty` (its default runs, on the canonical form).
//! 2. Each list is split in two halves by class key (the low bit of the key's seed).
//! 3. On one half, the cut points between easy, medium, hard and expert (= diabolical) that put
//!    the most puzzles in their own level are found exactly (`pseudoku::levels::fit`), on the
//!    buckets alone, then on the buckets and the SE sample together.
//! 4. The cuts are reported on the other half of the buckets (confusion matrix, share per
//!    level). Fold 0 fits on half 0 and reports on half 1; fold 1 the reverse.

use pseudoku::dev::refdata;
use pseudoku::input::read_puzzle_file;
use pseudoku::levels::fit::{self, Cuts};
use pseudoku::{canon, difficulty, Puzzle};
use rayon::prelude::*;
use std::fmt::Write as _;

const NAMES: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// A rated, labelled puzzle.
#[derive(Clone, Copy)]
struct Row {
    rating: f64,
    level: usize,
    half: usize,
}

fn level_of_se(se: f64) -> usize {
    match se {
        x if x < 1.5 => 0,
        x if x < 2.5 => 1,
        x if x < 5.0 => 2,
        _ => 3,
    }
}

fn rate(puzzles: &[Puzzle], labels: &[usize]) -> Vec<Row> {
    puzzles
        .par_iter()
        .zip(labels)
        .map(|(p, &level)| Row {
            rating: pseudoku::rate::report(p, Some(difficulty::DEFAULT_RUNS))
                .expect("unique puzzles")
                .difficulty,
            level,
            half: (canon::key(p).seed() & 1) as usize,
        })
        .collect()
}

fn read(rel: &str, label: impl Fn(&str) -> usize) -> Vec<Row> {
    let path = refdata::file(rel).unwrap_or_else(|e| panic!("{e}"));
    let puzzles = read_puzzle_file(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let text = std::fs::read_to_string(&path).unwrap();
    let labels: Vec<usize> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| label(l.split('\t').nth(1).unwrap()))
        .collect();
    rate(&puzzles, &labels)
}

fn main() {
    let t = std::time::Instant::now();
    let buckets = read("se-rated/sudoku_exchange_buckets.tsv", |b| {
        NAMES.iter().position(|n| b.starts_with(n)).unwrap_or(3)
    });
    let sample = read("se-rated/sudoku_exchange_sample500.tsv", |se| {
        level_of_se(se.parse().unwrap())
    });
    eprintln!(
        "rated {} + {} puzzles in {:.1?}",
        buckets.len(),
        sample.len(),
        t.elapsed()
    );
    let samples = |half: Option<usize>, with_sample: bool| -> Vec<(f64, usize)> {
        let mut v: Vec<(f64, usize)> = buckets
            .iter()
            .filter(|r| half.is_none_or(|h| r.half == h))
            .map(|r| (r.rating, r.level))
            .collect();
        if with_sample {
            v.extend(
                sample
                    .iter()
                    .filter(|r| half.is_none_or(|h| r.half == h))
                    .map(|r| (r.rating, r.level)),
            );
        }
        v
    };
    let mut report = String::new();
    for with_sample in [false, true] {
        for fold in 0..2 {
            let cuts = fit::fit(&samples(Some(fold), with_sample), 4);
            let held: Vec<(f64, usize)> = samples(Some(1 - fold), false);
            let m = fit::confusion(&held, &cuts);
            let _ = writeln!(
                report,
                "with sample {with_sample} fold {fold}: cuts {:?} agreement {:.3}",
                cuts.0,
                fit::agreement(&m)
            );
            for (i, row) in m.iter().enumerate() {
                let n: u64 = row.iter().sum();
                let _ = writeln!(
                    report,
                    "  {:<7} {:?} {:.3}",
                    NAMES[i],
                    row,
                    row[i] as f64 / n.max(1) as f64
                );
            }
        }
        let all: Cuts = fit::fit(&samples(None, with_sample), 4);
        let _ = writeln!(report, "all: {:?}", all.0);
    }
    print!("{report}");
}
