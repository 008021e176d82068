//! Uniqueness check (parse + count solutions up to 2) on the reference lists, in puzzles/s.
//!
//! Run: `cargo bench --bench unique`. Needs `../shared/data/` (or `$PSEUDOKU_DATA`); without it
//! the benchmark prints a message and measures nothing.

use divan::counter::ItemsCount;
use divan::Bencher;
use pseudoku::dev::refdata;
use pseudoku::{count_solutions, Puzzle};

fn main() {
    divan::main();
}

/// The first column of a reference file, as text lines.
fn lines(rel: &str) -> Vec<String> {
    match refdata::file(rel) {
        Ok(path) => std::fs::read_to_string(path)
            .expect("readable reference file")
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .map(|l| l[..81].to_string())
            .collect(),
        Err(why) => {
            eprintln!("skipping {rel}: {why}");
            Vec::new()
        }
    }
}

fn unique(bencher: Bencher, rel: &str) {
    let lines = lines(rel);
    bencher.counter(ItemsCount::new(lines.len())).bench(|| {
        let mut ones = 0usize;
        for l in &lines {
            let p = Puzzle::parse_line(divan::black_box(l)).expect("valid puzzle");
            ones += usize::from(count_solutions(&p, 2) == 1);
        }
        ones
    });
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn unique_17_clue(b: Bencher) {
    unique(b, "17-clue/puzzles.tsv");
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn unique_top1465(b: Bencher) {
    unique(b, "hard/top1465.tsv");
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn unique_forum_hardest_1106(b: Bencher) {
    unique(b, "hard/forum_hardest_1106.tsv");
}
