//! hsolve rating (20 runs per puzzle, the default) plus the uniqueness check it starts with,
//! on the reference lists, in puzzles/s, single thread.
//!
//! Run: `cargo bench --bench rate`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

use divan::counter::ItemsCount;
use divan::Bencher;
use pseudoku::{hsolve, metrics, refdata, Puzzle};

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

fn rate(bencher: Bencher, rel: &str) {
    let list = puzzles(rel);
    bencher.counter(ItemsCount::new(list.len())).bench(|| {
        let mut sum = 0.0;
        for p in &list {
            sum += hsolve::rate(divan::black_box(p), hsolve::DEFAULT_RUNS)
                .expect("unique")
                .mean;
        }
        sum
    });
}

fn secondary(bencher: Bencher, rel: &str) {
    let list = puzzles(rel);
    bencher.counter(ItemsCount::new(list.len())).bench(|| {
        let mut sum = 0.0;
        for p in &list {
            let p = divan::black_box(p);
            sum += metrics::wnef(p) + metrics::box_norm(p) + metrics::grade(p).level() as f64;
        }
        sum
    });
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
