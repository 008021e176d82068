//! pseudoku builds large, graded Sudoku puzzle banks.
//!
//! What a Rust user of the library gets:
//!
//! - at the root, the puzzle model ([`Puzzle`], [`Grid`], [`Cell`], [`Digit`], [`House`]),
//!   the exact solver ([`solve()`], [`count_solutions`]), the symmetry group ([`Transform`])
//!   and the seeded random numbers every random choice draws from ([`Rng`]);
//! - [`rate`]: one puzzle's full rating (the paper's hsolve, the project's `difficulty`, the
//!   secondary metrics);
//! - [`hint`]: the next step on a player's board, and walkthroughs of whole puzzles;
//! - [`explain`]: a walkthrough as text or JSON lines, and one rating run written out with
//!   the model's internals;
//! - [`canon`]: the exact canonical form of puzzles and grids, and the class key;
//! - [`generate`]: puzzle generators (random masking, the standard generator, neighbourhood
//!   moves);
//! - [`batch`]: puzzle files read with every bad line named, and the batch commands over them
//!   (`solve`, `rate`, `canon`, `hint`);
//! - [`bank`]: a SQLite bank of graded puzzles: building, merging and verifying it, its
//!   levels, handing out its puzzles, exports for publishers, its inventory, its seeds and
//!   the HTTP server.
//!
//! The rest of the crate is private. Its modules, by what each owns, in the order of the
//! pipeline: `grid`, `input`, `solve`, `transform`, `rng`, `canon`, `cellset`, `candidates`,
//! `propagate`, `strategies`, `technique`, `hsolve`, `difficulty`, `refutation`, `metrics`,
//! `rate`, `explain`, `batch`, `generate`, `seeds`, `scale`, `levels`, `bank`, `store`,
//! `retrieve`, `inventory`, `export`, `calendar`, `fonts`, `serve` (`docs/contributing.md`
//! draws the layout). With the `dev` feature (the crate's own tests, benchmarks and examples)
//! they are public, and `dev` holds where the external reference data lives, rank statistics
//! and random player positions.

#![warn(missing_docs)]

/// Declares the crate's internal modules: private in the library, public with the `dev`
/// feature, so that the crate's own tests, benchmarks and examples can reach inside.
macro_rules! internal {
    ($($(#[$attr:meta])* $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "dev")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "dev"))]
        mod $name;
    )*};
}
pub(crate) use internal;

pub mod bank;
pub mod batch;
pub mod canon;
pub mod explain;
pub mod generate;
pub mod hint;
pub mod rate;

internal! {
    calendar;
    candidates;
    cellset;
    difficulty;
    export;
    fonts;
    grid;
    hsolve;
    input;
    inventory;
    levels;
    metrics;
    propagate;
    refutation;
    retrieve;
    rng;
    scale;
    seeds;
    serve;
    solve;
    store;
    strategies;
    technique;
    transform;
}

mod shared_searches;

#[cfg(feature = "dev")]
pub mod dev;

pub use grid::{Cell, Digit, Grid, House, ParseError, Puzzle};
pub use rng::Rng;
pub use solve::{count_solutions, solve, Solutions};
pub use transform::Transform;

/// The README's code examples, compiled and run as doctests so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
