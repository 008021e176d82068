//! Writes `samples/puzzles.txt`: minimal puzzles made by random masking of seeded random grids
//! (remove clues in random order while the solution stays unique). The sample lets the README's
//! first command run on a fresh machine; the full generators live in the library.
//!
//! Run: `cargo run --release --example sample_puzzles > samples/puzzles.txt`

use pseudoku::solve::{is_unique, random_grid};
use pseudoku::{Puzzle, Rng};

fn main() {
    println!("# pseudoku sample: 50 minimal puzzles, random masking of random grids, seed 2026");
    let mut rng = Rng::new(2026);
    for _ in 0..50 {
        let g = random_grid(&mut rng);
        let mut cells = *g.as_bytes();
        let mut order: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut order);
        for i in order {
            let keep = cells[i];
            cells[i] = 0;
            if !is_unique(&Puzzle::from_bytes(cells).expect("subset of a grid")) {
                cells[i] = keep;
            }
        }
        println!("{}", Puzzle::from_bytes(cells).expect("subset of a grid"));
    }
}
