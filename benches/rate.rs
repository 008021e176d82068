//! The two ratings with their defaults (difficulty 10 runs, hsolve 20 runs per puzzle), each
//! including the canonical form and the uniqueness check it starts with, and both together as
//! `rate` and the bank compute them, on the reference lists, in puzzles/s, single thread; and
//! the two ratings on 2,000 puzzles made as a build makes them (`*_bank`).
//!
//! Run: `cargo bench --bench rate`. The reference lists need `../shared/data/` (or
//! `$PSEUDOKU_DATA`); without it those benchmarks print a message and measure nothing.

mod common;

use common::{bank_puzzles, each, puzzles, BUCKETS, TOP1465};
use divan::Bencher;
use pseudoku::rate::{metrics, ratings};

fn main() {
    common::main();
}

/// The lists every rating is measured on.
const LISTS: [&str; 2] = [BUCKETS, TOP1465];

/// difficulty, 10 runs per puzzle.
#[divan::bench(args = LISTS)]
fn difficulty(b: Bencher, rel: &str) {
    use pseudoku::rate::difficulty::{rate, DEFAULT_RUNS};
    each(b, &puzzles(rel), |p| {
        rate(p, DEFAULT_RUNS).expect("unique").value
    });
}

/// hsolve, 20 runs per puzzle.
#[divan::bench(args = LISTS)]
fn hsolve(b: Bencher, rel: &str) {
    use pseudoku::rate::hsolve::{rate, DEFAULT_RUNS};
    each(b, &puzzles(rel), |p| {
        rate(p, DEFAULT_RUNS).expect("unique").mean
    });
}

/// Both ratings, one canonical form.
#[divan::bench(args = LISTS)]
fn both(b: Bencher, rel: &str) {
    use pseudoku::rate::{difficulty, hsolve};
    each(b, &puzzles(rel), |p| {
        ratings(p, difficulty::DEFAULT_RUNS, hsolve::DEFAULT_RUNS).expect("unique")
    });
}

/// WNEF, box norm and technique grade together.
#[divan::bench(args = LISTS)]
fn secondary(b: Bencher, rel: &str) {
    each(b, &puzzles(rel), |p| {
        (
            metrics::wnef(p),
            metrics::box_norm(p),
            metrics::technique(p),
        )
    });
}

/// Puzzles of the `*_bank` benchmarks.
const BANK: u64 = 2000;

/// difficulty, 10 runs per puzzle, on puzzles as a build makes them.
#[divan::bench]
fn difficulty_bank(b: Bencher) {
    use pseudoku::rate::difficulty::{rate, DEFAULT_RUNS};
    each(b, &bank_puzzles(BANK), |p| {
        rate(p, DEFAULT_RUNS).expect("unique").value
    });
}

/// hsolve, 20 runs per puzzle, on puzzles as a build makes them.
#[divan::bench]
fn hsolve_bank(b: Bencher) {
    use pseudoku::rate::hsolve::{rate, DEFAULT_RUNS};
    each(b, &bank_puzzles(BANK), |p| {
        rate(p, DEFAULT_RUNS).expect("unique").mean
    });
}

/// The techniques beyond hsolve's tiers, by name: the ones model 2's ladder searches, then the
/// ones between the XY-chain and backtracking.
const BEYOND: [&str; 34] = [
    "xyz-wing",
    "w-wing",
    "unique rectangle",
    "simple colouring",
    "xy-chain",
    "skyscraper",
    "two-string kite",
    "turbot fish",
    "empty rectangle",
    "x-chain",
    "x-cycle",
    "multi-colouring",
    "finned x-wing",
    "finned swordfish",
    "finned jellyfish",
    "unique rectangle type 2",
    "unique rectangle type 3",
    "unique rectangle type 4",
    "unique rectangle type 5",
    "unique rectangle type 6",
    "hidden rectangle",
    "bug+1",
    "wxyz-wing",
    "remote pairs",
    "aic",
    "nice loop",
    "als-xz",
    "als-xy-wing",
    "als chain",
    "death blossom",
    "sue de coq",
    "digit forcing chain",
    "cell forcing chain",
    "house forcing chain",
];

/// One technique searched alone (every application and p, as a rating's search) on candidate
/// states of the hard lists where tiers 0-4 stall (`pseudoku::strategies::states`: 20 puzzles of
/// each list, 3 states each), in states/s.
#[divan::bench(args = BEYOND)]
fn technique(b: Bencher, name: &str) {
    use pseudoku::strategies::{search, Context, Strategy};
    let s = Strategy::parse(name).expect("a technique");
    let states = pseudoku::strategies::states::hard(20, 3, 49).unwrap_or_else(|why| {
        eprintln!("skipping the techniques: {why}");
        Vec::new()
    });
    each(b, &states, |(st, g)| {
        let mut out = Vec::new();
        let ctx = Context { solution: Some(*g) };
        search(s, st, &ctx, &mut out) + out.len() as u64
    });
}
