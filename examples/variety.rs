//! Variety of the pseudo-generator: for 20 seeds per tier, the number of distinct classes
//! among 1,000 puzzles derived from each. Prints a markdown table (recorded in BENCHMARKS.md).
//!
//! `cargo run --release --example variety`

use pseudoku::bank::job::{pseudo_generate, JobResult, Prepared};
use pseudoku::seeds::Library;
use rayon::prelude::*;
use std::collections::HashSet;

fn main() {
    let lib = Library::shipped();
    println!("| seed tier | seeds | distinct classes per 1,000 attempts: min | median | max |");
    println!("|---:|---:|---:|---:|---:|");
    for tier in 1..=6u8 {
        let seeds: Vec<Prepared> = lib
            .seeds
            .iter()
            .filter(|s| s.tier == tier)
            .take(20)
            .map(|s| Prepared::new(0, s.clone()))
            .collect();
        let mut distinct: Vec<usize> = seeds
            .par_iter()
            .map(|p| {
                let one = std::slice::from_ref(p);
                let keys: HashSet<_> = (0..1000)
                    .filter_map(|j| {
                        match pseudo_generate(one, &[0], 1, j, &Default::default(), false) {
                            JobResult::Puzzle(g) => Some(g.canon.key()),
                            JobResult::NotUnique(_) => None,
                        }
                    })
                    .collect();
                keys.len()
            })
            .collect();
        distinct.sort();
        if distinct.is_empty() {
            continue;
        }
        println!(
            "| {tier} | {} | {} | {} | {} |",
            distinct.len(),
            distinct[0],
            distinct[distinct.len() / 2],
            distinct[distinct.len() - 1]
        );
    }
}
