//! Hints, single thread: 10,000 random positions (`pseudoku::hint::boards`, seed 2026) on the
//! puzzles of top1465 and the Sudoku Exchange buckets, hints per second. The distribution per
//! hint (median, p99) comes from `cargo run --release --example hint_soundness`.
//!
//! Run: `cargo bench --bench hint`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

mod common;

use common::{each, puzzles, BUCKETS, TOP1465};
use divan::Bencher;
use pseudoku::hint::boards::{position, Position};
use pseudoku::hint::hint;
use pseudoku::Rng;

fn main() {
    common::main();
}

/// 10,000 positions, alternating between the two lists.
fn positions() -> Vec<Position> {
    let lists = [puzzles(TOP1465), puzzles(BUCKETS)];
    if lists.iter().any(|l| l.is_empty()) {
        return Vec::new();
    }
    let mut rng = Rng::new(2026);
    let mut out = Vec::with_capacity(10_000);
    while out.len() < 10_000 {
        let list = &lists[out.len() % 2];
        if let Some(p) = position(&list[rng.index(list.len())], &mut rng) {
            out.push(p);
        }
    }
    out
}

/// Hints per second.
#[divan::bench]
fn hints(b: Bencher) {
    each(b, &positions(), |p| {
        hint(&p.board).map(|h| h.placements.len())
    });
}
