//! A bank's named ratings: a publisher's numeric scale (`calibrate --labelled --named NAME`,
//! e.g. Sudoku Explainer's rating as `se`) learned by the monotone regression
//! ([`super::regression`]) on the features ([`super::features`]), stored with the features'
//! version; every puzzle of the bank gets its value, and draws can ask for a range of it.

use super::features;
use super::regression::Regression;
use crate::grid::Puzzle;
use crate::rate::Rating;

/// A named rating's model as a bank stores it (JSON in its settings).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NamedModel {
    /// The version of the feature vector it was fitted on (`features::VERSION`).
    pub features: u32,
    /// The fitted regression.
    pub regression: Regression,
}

/// A named rating of a bank: its name and model.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedRating {
    /// Its name, as draws give it (`get --rating NAME`).
    pub name: String,
    /// Its id in the bank.
    pub id: i64,
    /// Its model.
    pub model: NamedModel,
}

/// Why a name cannot name a rating.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad rating name {0:?}: 1 to 32 lowercase letters, digits, '-' or '_', and not difficulty \
     or hsolve (the bank's own ratings)"
)]
pub struct BadName(pub String);

/// Checks a new rating's name.
pub fn check_name(name: &str) -> Result<String, BadName> {
    let n = name.trim().to_lowercase();
    let ok = !n.is_empty()
        && n.len() <= 32
        && n
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && n != "difficulty"
        && n != "hsolve";
    if ok {
        Ok(n)
    } else {
        Err(BadName(name.to_string()))
    }
}

impl NamedModel {
    /// The value of `puzzle`, rated `rating`, rounded to thousandths (as stored).
    pub fn value(&self, puzzle: &Puzzle, rating: &Rating) -> f64 {
        self.value_of(&features::of(puzzle, rating))
    }

    /// The value of the feature vector `x`, rounded to thousandths.
    pub fn value_of(&self, x: &[f64]) -> f64 {
        (self.regression.value(x) * 1000.0).round() / 1000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_words_and_not_the_banks_own_ratings() {
        assert_eq!(check_name(" SE "), Ok("se".to_string()));
        assert_eq!(check_name("hodoku_2"), Ok("hodoku_2".to_string()));
        for bad in ["", "difficulty", "hsolve", "s e", "é", &"x".repeat(33)] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }
}
