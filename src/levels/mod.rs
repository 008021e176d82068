//! Difficulty levels: the scale a bank measures puzzles on and how it is calibrated. Percentiles
//! and bands are the hsolve paper's (section 4.3.2: equal percentile intervals of the
//! difficulty of typical puzzles); levels are named ranges of the rating, cut where a labelled
//! scale (by default the Sudoku Exchange buckets, or a publisher's own puzzles) lands in its own
//! levels best.
//!
//! - [`crate::scale`] (re-exported here): plain values: the rating a bank uses, its reference
//!   distribution, percentiles, bands, level names;
//! - [`mod@reference`]: the default reference, shipped as data (`references/`), and how it is
//!   made again;
//! - [`calibrate`]: a bank's scale: the default reference and levels on first use, the upgrade
//!   of a bank rated by an older model, `calibrate`, the percentile and level of a rated puzzle;
//! - [`fit`]: the exact fit of cut points to labelled ratings, and its cross-validation;
//! - [`features`], [`ordinal`], [`model`]: the feature vector of a rated puzzle, the ordinal
//!   regression fitted on it, and the level model a bank stores;
//! - [`regression`], [`named`]: a publisher's numeric scale learned from the same features,
//!   and the named ratings a bank stores and draws by;
//! - [`labelled`]: labelled puzzles read, rated and fitted both ways (`calibrate --labelled`),
//!   and numeric labels fitted by the regression.

pub mod calibrate;
pub mod features;
pub mod fit;
pub mod labelled;
pub mod model;
pub mod multinomial;
pub mod ordinal;
pub mod named;
pub mod reference;
pub mod regression;

pub use crate::scale::{Band, LevelSet, PercentileRange, RatingKind, Reference};
pub use calibrate::{Levels, LevelsError};
