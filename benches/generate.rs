//! Generators, single thread, in puzzles per second: the random ones, and the
//! pseudo-generator as a build runs it on the shipped seeds.
//!
//! Run: `cargo bench --bench generate`.

mod common;

use divan::counter::ItemsCount;
use divan::Bencher;
use pseudoku::generate::{random_minimal, standard, Symmetry};
use pseudoku::{Puzzle, Rng};

fn main() {
    common::main();
}

/// Puzzles made per sample.
const N: usize = 2000;

/// A generator measured.
#[derive(Clone, Copy, Debug)]
enum Generator {
    /// Random masking: a random grid, then clues removed while unique (minimal puzzles).
    RandomMinimal,
    /// Random masking with 180-degree symmetry.
    RandomSymmetric,
    /// The hsolve paper's standard generator.
    Standard,
}

impl Generator {
    /// The seed of each sample's random numbers.
    fn seed(self) -> u64 {
        match self {
            Generator::RandomMinimal => 1,
            Generator::RandomSymmetric => 2,
            Generator::Standard => 3,
        }
    }

    /// One puzzle.
    fn make(self, rng: &mut Rng) -> Puzzle {
        match self {
            Generator::RandomMinimal => random_minimal(rng, Symmetry::None),
            Generator::RandomSymmetric => random_minimal(rng, Symmetry::Rotate180),
            Generator::Standard => standard(rng),
        }
    }
}

/// Puzzles per second, from the same seed in every sample.
#[divan::bench(args = [Generator::RandomMinimal, Generator::RandomSymmetric, Generator::Standard])]
fn puzzles(b: Bencher, generator: Generator) {
    b.counter(ItemsCount::new(N)).bench(|| {
        let mut rng = Rng::new(generator.seed());
        (0..N)
            .map(|_| generator.make(&mut rng).clues())
            .sum::<usize>()
    });
}

/// The pseudo-generator's jobs 0 to N - 1 on the shipped seeds (each job draws its seed, a
/// symmetry and its clues; tier-limited solving after each clue, the uniqueness check and the
/// canonical form), as `build` runs them before rating; in jobs per second.
#[divan::bench]
fn pseudo_generator(b: Bencher) {
    use pseudoku::bank::job::{generate, prepare, JobResult, Source};
    let seeds = prepare(&pseudoku::seeds::Library::shipped());
    let source = Source::Seeds((0..seeds.len()).collect());
    let layout = pseudoku::bank::layout::Layout::default();
    b.counter(ItemsCount::new(N)).bench(|| {
        (0..N as u64)
            .filter(|&job| {
                matches!(
                    generate(&seeds, &source, 1, job, &layout),
                    JobResult::Puzzle(_)
                )
            })
            .count()
    });
}
