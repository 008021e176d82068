//! Uniqueness check (parse + count solutions up to 2) on the reference lists, in puzzles/s.
//!
//! Run: `cargo bench --bench unique`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

mod common;

use common::{each, lines, FORUM_HARDEST, SEVENTEEN_CLUE, TOP1465};
use divan::Bencher;
use pseudoku::{count_solutions, Puzzle};

fn main() {
    common::main();
}

/// Puzzles per second.
#[divan::bench(args = [SEVENTEEN_CLUE, TOP1465, FORUM_HARDEST])]
fn count_up_to_two(b: Bencher, rel: &str) {
    each(b, &lines(rel), |l| {
        let p = Puzzle::parse_line(l).expect("valid puzzle");
        count_solutions(&p, 2) == 1
    });
}
