//! Difficulty levels: the scale a bank measures puzzles on and how it is calibrated. Percentiles
//! and bands are the hsolve paper's (section 4.3.2: equal percentile intervals of the
//! difficulty of typical puzzles); levels are named ranges of the rating, cut where a labelled
//! scale (by default the Sudoku Exchange buckets, or a publisher's own puzzles) lands in its own
//! levels best.
//!
//! - `crate::scale` (re-exported here): plain values: the rating a bank uses, its reference
//!   distribution, percentiles, bands, level names;
//! - `reference`: the default reference, shipped as data (`references/`), and how it is
//!   made again;
//! - `calibrate`: a bank's scale: the default reference and levels on first use, the upgrade
//!   of a bank rated by an older model, `calibrate`, the percentile and level of a rated puzzle;
//! - `fit`: the exact fit of cut points to labelled ratings, and its cross-validation;
//! - `features`, `ordinal`, `model`: the feature vector of a rated puzzle, the ordinal
//!   regression fitted on it, and the level model a bank stores;
//! - `regression`, `named`: a publisher's numeric scale learned from the same features,
//!   and the named ratings a bank stores and draws by;
//! - `labelled`: labelled puzzles read, rated and fitted both ways (`calibrate --labelled`),
//!   and numeric labels fitted by the regression;
//! - `play`: the puzzles players rated, labelled by their learned ratings for the same fit
//!   (`calibrate --from-play`).

internal! {
    calibrate;
    features;
    fit;
    labelled;
    model;
    multinomial;
    ordinal;
    named;
    play;
    reference;
    regression;
}

pub use crate::scale::{
    Band, LevelNames, LevelSet, PercentileRange, RatingKind, Reference, ScaleError,
};
pub use crate::store::settings::{levels as stored_levels, reference_description};
pub use calibrate::{
    calibrate, calibrate_with_progress, default_reference, level_counts, store_named, Calibration,
    Corpus, LevelChange, Levels, LevelsError, MIN_REFERENCE,
};
pub use features::COUNT as FEATURE_COUNT;
pub use labelled::{
    fit_examples, fit_file, fit_numbers_file, numbers_summary, summary, Kept, LabelledFit,
    NumericFit,
};
pub use model::LevelModel;
pub use named::{check_name, BadName};
pub use play::{examples as play_examples, MIN_RESULTS};
