//! What the benchmarks share: their settings, the reference lists and the puzzles in them, and
//! one pass over a list per sample.
//!
//! Each benchmark loads this module with `mod common;` and uses the parts it needs.
#![allow(dead_code)]

use divan::counter::ItemsCount;
use divan::{Bencher, Divan};
use pseudoku::dev::refdata;
use pseudoku::Puzzle;

/// Sudoku Exchange's rated sample, 2,000 puzzles across its difficulty buckets.
pub const BUCKETS: &str = "se-rated/sudoku_exchange_buckets.tsv";
/// The top1465 list of hard puzzles.
pub const TOP1465: &str = "hard/top1465.tsv";
/// Puzzles with 17 clues.
pub const SEVENTEEN_CLUE: &str = "17-clue/puzzles.tsv";
/// The forum's hardest puzzles.
pub const FORUM_HARDEST: &str = "hard/forum_hardest_1106.tsv";

/// Runs the benchmarks: each takes 5 samples of one pass over its input, unless the command
/// line asks otherwise.
pub fn main() {
    Divan::default()
        .sample_count(5)
        .sample_size(1)
        .config_with_args()
        .main();
}

/// Explains why a benchmark measures nothing: the reference data is missing.
fn skip<T>(rel: &str, why: impl std::fmt::Display) -> Vec<T> {
    eprintln!("skipping {rel}: {why}");
    Vec::new()
}

/// The puzzles of a reference file, or none (with a message) without the data.
pub fn puzzles(rel: &str) -> Vec<Puzzle> {
    refdata::puzzles(rel).unwrap_or_else(|why| skip(rel, why))
}

/// The puzzle column of a reference file as text, or none (with a message) without the data.
pub fn lines(rel: &str) -> Vec<String> {
    match refdata::file(rel) {
        Ok(path) => std::fs::read_to_string(path)
            .expect("readable reference file")
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .map(|l| l[..81].to_string())
            .collect(),
        Err(why) => skip(rel, why),
    }
}

/// Measures `f` over every item of `list` per sample, in items per second.
pub fn each<T: Sync, R>(bencher: Bencher, list: &[T], f: impl Fn(&T) -> R + Sync) {
    bencher.counter(ItemsCount::new(list.len())).bench(|| {
        for item in list {
            divan::black_box(f(divan::black_box(item)));
        }
    });
}

/// Puzzles as a build makes them before rating: jobs 0 to n - 1 of the pseudo-generator on the
/// shipped seeds (each job draws its seed among all of them; no layout rules; seed 1). Needs
/// no reference data.
pub fn bank_puzzles(n: u64) -> Vec<Puzzle> {
    use pseudoku::bank::job::{generate, prepare, JobResult, Source};
    let seeds = prepare(&pseudoku::seeds::Library::shipped());
    let source = Source::Seeds((0..seeds.len()).collect());
    let layout = pseudoku::bank::layout::Layout::default();
    (0..n)
        .filter_map(|job| match generate(&seeds, &source, 1, job, &layout) {
            JobResult::Puzzle(g) => Some(g.puzzle),
            JobResult::NotUnique(_) => None,
        })
        .collect()
}
