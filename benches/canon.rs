//! Exact canonical form, single thread, in puzzles (or grids) per second.
//!
//! Run: `cargo bench --bench canon`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

mod common;

use common::{each, puzzles, SEVENTEEN_CLUE, TOP1465};
use divan::Bencher;
use pseudoku::canon::{canonical, canonical_grid};
use pseudoku::solve;

fn main() {
    common::main();
}

/// Puzzles per second.
#[divan::bench(args = [SEVENTEEN_CLUE, TOP1465])]
fn puzzle_forms(b: Bencher, rel: &str) {
    each(b, &puzzles(rel), |p| canonical(p).automorphisms);
}

/// Solution grids of top1465, grids per second.
#[divan::bench]
fn grid_forms_top1465(b: Bencher) {
    let grids: Vec<_> = puzzles(TOP1465)
        .iter()
        .map(|p| solve(p).unique().expect("unique"))
        .collect();
    each(b, &grids, |g| canonical_grid(g).automorphisms);
}
