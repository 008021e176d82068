//! A bank's level model: the ordinal model ([`super::ordinal`]) of a publisher's levels, fitted
//! on the features ([`super::features`]) of their labelled puzzles and stored in the bank with
//! the features' version. With a model, a puzzle's level is the model's most likely level for
//! it, so levels may overlap in rating.

use super::features;
use super::ordinal::{self, Ordinal};
use crate::rate::Rating;

/// A level model as a bank stores it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LevelModel {
    /// The version of the feature vector it was fitted on (`features::VERSION`).
    pub features: u32,
    /// The fitted model.
    pub ordinal: Ordinal,
}

/// A labelled sample: its features, its level and two bits of its class key (the outer and
/// the inner cross-validation halves).
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its features ([`features::of`]).
    pub features: Vec<f64>,
    /// Its level (0 = easiest).
    pub level: usize,
    /// Its half for measuring (0 or 1).
    pub half: usize,
    /// Its half for choosing the penalty inside a training half (0 or 1).
    pub inner: usize,
}

impl LevelModel {
    /// The level (0 = easiest) the model gives a rated puzzle.
    pub fn level(&self, rating: &Rating) -> u32 {
        self.ordinal.level(&features::of(rating)) as u32
    }

    /// The number of levels.
    pub fn levels(&self) -> usize {
        self.ordinal.levels()
    }

    /// Fits a model of `k` levels on every sample (the penalty chosen by cross-validation on
    /// the halves), and measures the procedure held out: each half classified by a model
    /// fitted (penalty chosen inside it) on the other. Returns the model and the held-out
    /// confusion matrix (`m[label][predicted]`).
    pub fn fit(samples: &[Sample], k: usize) -> (LevelModel, Vec<Vec<u64>>) {
        let x: Vec<Vec<f64>> = samples.iter().map(|s| s.features.clone()).collect();
        let y: Vec<usize> = samples.iter().map(|s| s.level).collect();
        let half: Vec<usize> = samples.iter().map(|s| s.half).collect();
        let held = ordinal::held_out(&x, &y, &half, k, |tx, ty, train| {
            let inner: Vec<usize> = train.iter().map(|&i| samples[i].inner).collect();
            ordinal::fit_tuned(tx, ty, &inner, k)
        });
        let model = LevelModel {
            features: features::VERSION,
            ordinal: ordinal::fit_tuned(&x, &y, &half, k),
        };
        (model, held)
    }
}
