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
//! - [`bank`]: building a SQLite bank of graded puzzles, merging and verifying it;
//! - [`import`]: a user's puzzle file graded into a bank;
//! - [`levels`]: a bank's scale (rating, reference, percentiles, levels) and `calibrate`;
//! - [`retrieve`]: handing out a bank's puzzles (`get`);
//! - [`play`]: what players' results teach the bank (learned ratings of puzzles and players),
//!   and [`results`]: an app's log of games counted in bulk;
//! - [`export`]: daily files and books for publishers;
//! - [`dataset`]: a bank as train, validation and test files;
//! - [`inventory`]: what a bank holds (`stats`), as tables, JSON and a drawing;
//! - [`seeds`]: the seed library, the seeds imported into a bank, and the miner;
//! - [`serve`]: the bank over HTTP;
//! - [`history`]: a fleet's shared history in PostgreSQL (`history export|import`).
//!
//! The rest of the crate is private. All its modules, by what each owns, in the order of the
//! pipeline: `grid`, `input`, `solve`, `transform`, `rng`, `canon`, `cellset`, `candidates`,
//! `propagate`, `strategies`, `technique`, `rate` (with the two models, `rate::hsolve` and
//! `rate::difficulty`, the ladders' engine, `rate::refutation`, `rate::metrics` and the
//! run's shared searches), `explain`, `hint`, `batch`, `generate`, `seeds`, `scale`, `levels`, `import`, `bank`, `store` (with
//! the PostgreSQL history, `store::postgres`), `retrieve`, `play`, `results`, `inventory`, `export`, `dataset`, `calendar`,
//! `fonts`, `serve` (`docs/contributing.md` draws the layout). With the `dev` feature (the crate's own tests, benchmarks and examples)
//! they are public, and `dev` holds where the external reference data lives and rank
//! statistics.

#![warn(missing_docs)]

/// Declares the crate's internal modules: private to the crate in the library, public with
/// the `dev` feature, so that the crate's own tests, benchmarks and examples can reach inside.
/// Defined before the modules, so that each of them declares its own internal modules with it
/// (`internal! { ... }`), as this file does.
macro_rules! internal {
    ($($(#[$attr:meta])* $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "dev")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "dev"))]
        pub(crate) mod $name;
    )*};
}

pub mod bank;
pub mod batch;
pub mod canon;
pub mod dataset;
pub mod explain;
pub mod export;
pub mod generate;
pub mod hint;
pub mod import;
pub mod inventory;
pub mod levels;
pub mod play;
pub mod rate;
pub mod results;
pub mod retrieve;
pub mod seeds;
pub mod serve;

internal! {
    calendar;
    candidates;
    cellset;
    fonts;
    grid;
    input;
    propagate;
    rng;
    scale;
    solve;
    store;
    strategies;
    technique;
    transform;
}

#[cfg(feature = "dev")]
pub mod dev;

/// A fleet's shared history in PostgreSQL (`history export|import`, `serve --history`): the
/// store's second backend, beside the SQLite bank.
pub mod history {
    pub use crate::store::daily::DailyRow;
    pub use crate::store::history::Delivery;
    pub use crate::store::postgres::{
        export, import, BankIdentity, Binding, HistoryError, Moved, Postgres,
    };
}

pub use grid::{Cell, Digit, Grid, House, ParseError, Puzzle};
pub use rng::Rng;
pub use solve::{count_solutions, solve, Solutions};
pub use transform::Transform;

/// The README's code examples, compiled and run as doctests so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
