//! Generators, single thread, in puzzles per second.
//!
//! Run: `cargo bench --bench generate`.

use divan::counter::ItemsCount;
use divan::Bencher;
use pseudoku::generate::{random_minimal, standard, Symmetry};
use pseudoku::Rng;

fn main() {
    divan::main();
}

const N: usize = 2000;

/// Random masking: a random grid, then clues removed while unique (minimal puzzles).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn random_minimal_puzzles(b: Bencher) {
    b.counter(ItemsCount::new(N)).bench(|| {
        let mut rng = Rng::new(1);
        (0..N)
            .map(|_| random_minimal(&mut rng, Symmetry::None).clues())
            .sum::<usize>()
    });
}

/// Random masking with 180-degree symmetry.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn random_symmetric_puzzles(b: Bencher) {
    b.counter(ItemsCount::new(N)).bench(|| {
        let mut rng = Rng::new(2);
        (0..N)
            .map(|_| random_minimal(&mut rng, Symmetry::Rotate180).clues())
            .sum::<usize>()
    });
}

/// The hsolve paper's standard generator.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn standard_puzzles(b: Bencher) {
    b.counter(ItemsCount::new(N)).bench(|| {
        let mut rng = Rng::new(3);
        (0..N).map(|_| standard(&mut rng).clues()).sum::<usize>()
    });
}
