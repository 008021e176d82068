//! pseudoku builds large, graded Sudoku puzzle banks.
//!
//! The library is organised by what each module owns, in the order of the pipeline:
//!
//! - [`grid`]: the puzzle model (digits, cells, houses, puzzles, solved grids), parsing and
//!   formatting;
//! - [`input`]: reading puzzle files with file and line numbers for every bad entry;
//! - [`mod@solve`]: the exact solver (solution counting, random grids);
//! - [`transform`]: the symmetry group (geometric maps and digit relabellings);
//! - [`rng`]: the seeded random number generator every random choice draws from;
//! - [`canon`]: the exact canonical (minlex) form and the equivalence key;
//! - [`cellset`]: typed bitsets of cells and digits, house and peer tables;
//! - [`candidates`]: the candidate state of a puzzle being solved by hand;
//! - [`propagate`]: tier-0 propagation (singles until none is left), for trials;
//! - [`strategies`]: the human solving strategies, one file each, grouped into tiers;
//! - [`hsolve`]: the hsolve difficulty model (ratings) and tier-limited solving;
//! - [`difficulty`]: the rating beyond the paper (more strategies, refutation effort, fitted
//!   weights);
//! - [`refutation`]: the effort of following a trial to its contradiction;
//! - [`metrics`]: the secondary metrics (WNEF, box norm, the hardest technique family);
//! - [`rate`]: one puzzle's full rating through one function, the [`rate::Report`] and the
//!   [`rate::Graded`] value that flows from generation to the bank;
//! - [`explain`]: one rating run written out step by step;
//! - [`batch`]: the batch commands over puzzle files (`solve`, `rate`, `canon`);
//! - [`generate`]: puzzle generators (random masking, standard, tuned, neighbourhood moves);
//! - [`seeds`]: the seed library (format, file, import, summary) and the seed miner;
//! - [`scale`]: plain values: the rating a bank uses, its reference distribution,
//!   percentiles, bands, level names;
//! - [`levels`]: a bank's levels: the shipped default reference, calibration;
//! - [`bank`]: the bank builder (pseudo-generator pipeline: jobs, targets, the build loop) and
//!   `verify`;
//! - [`store`]: the SQLite bank: every SQL statement, behind typed functions;
//! - [`retrieve`]: random unserved puzzles of a band, percentile range or level;
//! - [`inventory`]: what a bank holds (`stats`), and its plot;
//! - [`export`]: daily batches for publishers;
//! - [`calendar`]: civil dates (reports, dated exports);
//! - [`fonts`]: the fonts of printed pages and plots;
//! - [`cli`]: the command-line interface (arguments, one library call per command).
//!
//! With the `dev` feature (the crate's tests, benchmarks and examples), `dev` holds where the
//! external reference data lives and rank statistics for reports.

#![warn(missing_docs)]

pub mod bank;
pub mod batch;
pub mod calendar;
pub mod candidates;
pub mod canon;
pub mod cellset;
pub mod cli;
#[cfg(feature = "dev")]
pub mod dev;
pub mod difficulty;
pub mod explain;
pub mod export;
pub mod fonts;
pub mod generate;
pub mod grid;
pub mod hint;
pub mod hsolve;
pub mod input;
pub mod inventory;
pub mod levels;
pub mod metrics;
pub mod propagate;
pub mod rate;
pub mod refutation;
pub mod retrieve;
pub mod rng;
pub mod scale;
pub mod seeds;
pub mod serve;
pub mod solve;
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
