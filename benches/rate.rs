//! The two ratings with their defaults (difficulty 10 runs, hsolve 20 runs per puzzle), each
//! including the canonical form and the uniqueness check it starts with, and both together as
//! `rate` and the bank compute them, on the reference lists, in puzzles/s, single thread.
//!
//! Run: `cargo bench --bench rate`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

use divan::counter::ItemsCount;
use divan::Bencher;
use pseudoku::dev::refdata;
use pseudoku::{difficulty, hsolve, metrics, Puzzle};

fn main() {
    divan::main();
}

/// The puzzles of a reference file, or none (with a message) without the data.
fn puzzles(rel: &str) -> Vec<Puzzle> {
    refdata::puzzles(rel).unwrap_or_else(|why| {
        eprintln!("skipping {rel}: {why}");
        Vec::new()
    })
}

/// Runs `f` over every puzzle of `rel` per sample (the sum keeps the work observable).
fn over(bencher: Bencher, rel: &str, f: impl Fn(&Puzzle) -> f64 + Sync) {
    let list = puzzles(rel);
    bencher
        .counter(ItemsCount::new(list.len()))
        .bench(|| list.iter().map(|p| f(divan::black_box(p))).sum::<f64>());
}

fn rate(bencher: Bencher, rel: &str) {
    over(bencher, rel, |p| {
        hsolve::rate(p, hsolve::DEFAULT_RUNS).expect("unique").mean
    });
}

fn rate_difficulty(bencher: Bencher, rel: &str) {
    over(bencher, rel, |p| {
        difficulty::rate(p, difficulty::DEFAULT_RUNS)
            .expect("unique")
            .value
    });
}

fn rate_both(bencher: Bencher, rel: &str) {
    over(bencher, rel, |p| {
        let (d, h) = pseudoku::rate::ratings(p, difficulty::DEFAULT_RUNS, hsolve::DEFAULT_RUNS)
            .expect("unique");
        d.value + h.mean
    });
}

fn secondary(bencher: Bencher, rel: &str) {
    over(bencher, rel, |p| {
        metrics::wnef(p) + metrics::box_norm(p) + metrics::grade(p).level() as f64
    });
}

/// difficulty, 10 runs per puzzle.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn difficulty_buckets(b: Bencher) {
    rate_difficulty(b, "se-rated/sudoku_exchange_buckets.tsv");
}

/// difficulty, 10 runs per puzzle.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn difficulty_top1465(b: Bencher) {
    rate_difficulty(b, "hard/top1465.tsv");
}

/// Both ratings, one canonical form.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn both_buckets(b: Bencher) {
    rate_both(b, "se-rated/sudoku_exchange_buckets.tsv");
}

/// Both ratings, one canonical form.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn both_top1465(b: Bencher) {
    rate_both(b, "hard/top1465.tsv");
}

/// hsolve, 20 runs per puzzle.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn hsolve_buckets(b: Bencher) {
    rate(b, "se-rated/sudoku_exchange_buckets.tsv");
}

/// hsolve, 20 runs per puzzle.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn hsolve_top1465(b: Bencher) {
    rate(b, "hard/top1465.tsv");
}

/// WNEF, box norm and technique grade together.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn secondary_buckets(b: Bencher) {
    secondary(b, "se-rated/sudoku_exchange_buckets.tsv");
}

/// WNEF, box norm and technique grade together.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn secondary_top1465(b: Bencher) {
    secondary(b, "hard/top1465.tsv");
}
