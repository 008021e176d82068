//! Difficulty levels: the scale a bank measures puzzles on and how it is calibrated (the hsolve
//! paper, section 4.3.2: levels are equal percentile intervals of the difficulty of typical
//! puzzles).
//!
//! - [`crate::scale`] (re-exported here): plain values: the rating a bank uses, its reference
//!   distribution, percentiles, bands, level names;
//! - [`mod@reference`]: the default reference, shipped as data (`references/`), and how it is
//!   made again;
//! - [`calibrate`]: a bank's levels: the default reference on first use, `calibrate` from a
//!   corpus, the percentile of a rated puzzle.

pub mod calibrate;
pub mod fit;
pub mod reference;

pub use crate::scale::{Band, LevelSet, PercentileRange, RatingKind, Reference, DEFAULT_LEVELS};
pub use calibrate::{Calibration, Levels, LevelsError};
