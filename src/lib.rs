//! pseudoku builds large, graded Sudoku puzzle banks.
//!
//! The library is organised by what each module owns:
//!
//! - [`grid`]: the puzzle model (digits, cells, houses, puzzles, solved grids), parsing and
//!   formatting;
//! - [`input`]: reading puzzle files with file and line numbers for every bad entry;
//! - [`solve`]: the exact solver (solution counting, random grids);
//! - [`bank`]: the bank builder (pseudo-generator pipeline) and `verify`;
//! - [`calendar`]: civil dates (reports, dated exports);
//! - [`store`]: the SQLite bank: migrations and queries;
//! - [`canon`]: the exact canonical (minlex) form and the equivalence key;
//! - [`cellset`]: typed bitsets of cells and digits, house and peer tables;
//! - [`candidates`]: the candidate state of a puzzle being solved by hand;
//! - [`propagate`]: tier-0 propagation (singles until none is left), for trials;
//! - [`strategies`]: the human solving strategies, one file each, grouped into tiers;
//! - [`generate`]: puzzle generators (random masking, standard, tuned, neighbourhood moves);
//! - [`seeds`]: the seed library (format, import, summary) and the seed miner;
//! - [`metrics`]: the secondary metrics (WNEF, box norm, technique grade);
//! - [`rate`]: one puzzle's full grading (both ratings and the secondary metrics) for output;
//! - [`hsolve`]: the hsolve difficulty model (ratings) and tier-limited solving;
//! - [`difficulty`]: the rating beyond the paper (more strategies, refutation effort, fitted
//!   weights);
//! - [`refutation`]: the effort of following a trial to its contradiction;
//! - [`stats`]: rank statistics (Spearman, Goodman-Kruskal gamma) for validation;
//! - [`transform`]: the symmetry group (geometric maps and digit relabellings);
//! - [`refdata`]: where the external reference data lives (tests, benchmarks, reports);
//! - [`rng`]: the seeded random number generator every random choice draws from;
//! - [`cli`]: the command-line interface.

#![warn(missing_docs)]

pub mod bank;
pub mod calendar;
pub mod candidates;
pub mod canon;
pub mod cellset;
pub mod cli;
pub mod difficulty;
pub mod export;
pub mod generate;
pub mod grid;
pub mod hsolve;
pub mod input;
pub mod inventory;
pub mod levels;
pub mod metrics;
pub mod propagate;
pub mod rate;
pub mod refdata;
pub mod refutation;
pub mod retrieve;
pub mod rng;
pub mod seeds;
pub mod solve;
pub mod stats;
pub mod store;
pub mod strategies;
pub mod transform;

pub use grid::{Cell, Digit, Grid, House, ParseError, Puzzle};
pub use rng::Rng;
pub use solve::{count_solutions, solve, Solutions};
pub use transform::Transform;

/// The README's code examples, compiled and run as doctests so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
