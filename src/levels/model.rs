//! A bank's level model: a regression of a publisher's levels on the features
//! ([`super::features`]) of their labelled puzzles, ordinal ([`super::ordinal`]) or
//! multinomial ([`super::multinomial`]), whichever puts more held-out puzzles in their own
//! level, stored in the bank with the features' version. With a model, a puzzle's level is the
//! model's most likely level for it, so levels may overlap in rating.

use super::features;
use super::fit::agreement;
use super::multinomial::{self, Multinomial};
use super::ordinal::{self, Ordinal};
use crate::grid::Puzzle;
use crate::rate::Rating;

/// A level model as a bank stores it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LevelModel {
    /// The version of the feature vector it was fitted on (`features::VERSION`).
    pub features: u32,
    /// The fitted regression.
    pub fitted: Fitted,
}

/// The regression a level model is.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fitted {
    /// Proportional odds: one direction of difficulty cut into levels.
    Ordinal(Ordinal),
    /// Softmax: each level its own weights.
    Multinomial(Multinomial),
}

impl Fitted {
    /// The regression's name as reports print it.
    pub fn name(&self) -> &'static str {
        match self {
            Fitted::Ordinal(_) => "ordinal",
            Fitted::Multinomial(_) => "multinomial",
        }
    }

    /// The most likely level (0 = easiest) for the feature vector `x`.
    pub fn level(&self, x: &[f64]) -> usize {
        match self {
            Fitted::Ordinal(m) => m.level(x),
            Fitted::Multinomial(m) => m.level(x),
        }
    }

    /// The number of levels.
    pub fn levels(&self) -> usize {
        match self {
            Fitted::Ordinal(m) => m.levels(),
            Fitted::Multinomial(m) => m.levels(),
        }
    }

    /// The penalty it was fitted with.
    pub fn lambda(&self) -> f64 {
        match self {
            Fitted::Ordinal(m) => m.lambda,
            Fitted::Multinomial(m) => m.lambda,
        }
    }
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

/// How both regressions did held out, and the one kept.
#[derive(Clone, Debug)]
pub struct ModelFit {
    /// The regression kept, fitted on every sample.
    pub model: LevelModel,
    /// Its held-out confusion matrix (`m[label][predicted]`).
    pub held_out: Vec<Vec<u64>>,
    /// Each regression's name and held-out agreement, in the order tried.
    pub tried: Vec<(&'static str, f64)>,
}

impl LevelModel {
    /// The level (0 = easiest) the model gives `puzzle`, rated `rating`.
    pub fn level(&self, puzzle: &Puzzle, rating: &Rating) -> u32 {
        self.fitted.level(&features::of(puzzle, rating)) as u32
    }

    /// The number of levels.
    pub fn levels(&self) -> usize {
        self.fitted.levels()
    }

    /// Fits both regressions of `k` levels (each penalty chosen by cross-validation inside
    /// its training data) and measures each procedure held out: each half classified by a
    /// model fitted on the other. Keeps the regression that agrees better held out (the
    /// ordinal one on a tie: fewer parameters), fitted again on every sample.
    pub fn fit(samples: &[Sample], k: usize) -> ModelFit {
        let x: Vec<Vec<f64>> = samples.iter().map(|s| s.features.clone()).collect();
        let y: Vec<usize> = samples.iter().map(|s| s.level).collect();
        let half: Vec<usize> = samples.iter().map(|s| s.half).collect();
        let inner_of = |train: &[usize]| -> Vec<usize> {
            train.iter().map(|&i| samples[i].inner).collect()
        };
        let (ordinal_held, multinomial_held) = rayon::join(
            || {
                ordinal::held_out(&x, &y, &half, k, |tx, ty, train| {
                    ordinal::fit_tuned(tx, ty, &inner_of(train), k)
                })
            },
            || {
                ordinal::held_out(&x, &y, &half, k, |tx, ty, train| {
                    multinomial::fit_tuned(tx, ty, &inner_of(train), k)
                })
            },
        );
        let tried = vec![
            ("ordinal", agreement(&ordinal_held)),
            ("multinomial", agreement(&multinomial_held)),
        ];
        let (fitted, held_out) = if tried[1].1 > tried[0].1 {
            let m = multinomial::fit_tuned(&x, &y, &half, k);
            (Fitted::Multinomial(m), multinomial_held)
        } else {
            let m = ordinal::fit_tuned(&x, &y, &half, k);
            (Fitted::Ordinal(m), ordinal_held)
        };
        ModelFit {
            model: LevelModel {
                features: features::VERSION,
                fitted,
            },
            held_out,
            tried,
        }
    }
}
