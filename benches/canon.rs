//! Exact canonical form, single thread, in puzzles (or grids) per second.
//!
//! Run: `cargo bench --bench canon`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

use divan::counter::ItemsCount;
use divan::Bencher;
use pseudoku::canon::{canonical, canonical_grid};
use pseudoku::dev::refdata;
use pseudoku::{solve, Puzzle};

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

fn puzzle_forms(bencher: Bencher, rel: &str) {
    let list = puzzles(rel);
    bencher.counter(ItemsCount::new(list.len())).bench(|| {
        let mut x = 0u64;
        for p in &list {
            x ^= canonical(divan::black_box(p)).automorphisms;
        }
        x
    });
}

/// Puzzles per second.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn canon_17_clue(b: Bencher) {
    puzzle_forms(b, "17-clue/puzzles.tsv");
}

/// Puzzles per second.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn canon_top1465(b: Bencher) {
    puzzle_forms(b, "hard/top1465.tsv");
}

/// Solution grids of top1465, grids per second.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn canon_grids_top1465(b: Bencher) {
    let grids: Vec<_> = puzzles("hard/top1465.tsv")
        .iter()
        .map(|p| solve(p).unique().expect("unique"))
        .collect();
    b.counter(ItemsCount::new(grids.len())).bench(|| {
        let mut x = 0u64;
        for g in &grids {
            x ^= canonical_grid(divan::black_box(g)).automorphisms;
        }
        x
    });
}
