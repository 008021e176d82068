//! Rating one puzzle, through one function: both ratings made on its canonical form with the
//! seed from its class key ([`ratings_of_class`]), and the secondary metrics beside them. The
//! [`Report`] is what `rate` prints; [`Graded`] is the value that flows from generation to the
//! bank (puzzle, solution, canonical form and key, report).

use crate::canon::{Canonical, Key};
use crate::difficulty::{self, Difficulty};
use crate::grid::{Grid, Puzzle};
use crate::hsolve::{self, RateError, Rating};
use crate::metrics;
use crate::scale::{LevelSet, RatingKind};
use serde::Serialize;

/// The rater's description stored with each build and in reference files (rating
/// provenance).
pub const RATER: &str = concat!(
    "pseudoku ",
    env!("CARGO_PKG_VERSION"),
    " difficulty model 2 (10 runs) and hsolve tiers 0-6 (20 runs) on the canonical form, seed = class key"
);

/// The TSV header of [`Report::to_tsv`] lines.
pub const TSV_HEADER: &str =
    "puzzle\tlevel\tdifficulty\thsolve\thsolve_sd\ttier\tsteps\twnef\twnef_class\tbox_norm\tbox_class\ttechnique\tclues";

/// Every difficulty measure of one puzzle, rounded for output.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The puzzle, 81 characters with `.` for empty cells.
    pub puzzle: String,
    /// Its level: on the default levels of `difficulty`, or a bank's ([`Report::on_levels`]).
    pub level: String,
    /// The rating beyond the paper: log10 of the expected weighted work (3 decimals).
    pub difficulty: f64,
    /// hsolve difficulty: the mean over the runs (2 decimals).
    pub hsolve: f64,
    /// Standard deviation of the runs (2 decimals).
    pub hsolve_sd: f64,
    /// The hardest tier any run used (0-6).
    pub tier: u8,
    /// Mean steps per run (2 decimals).
    pub steps: f64,
    /// WNEF (6 decimals).
    pub wnef: f64,
    /// WNEF class, 1 (easy) to 4 (evil).
    pub wnef_class: u8,
    /// Box norm (4 decimals).
    pub box_norm: f64,
    /// Box-norm class, 1 (easy) to 4 (expert).
    pub box_class: u8,
    /// The hardest technique family needed (paper 004's grade): singles, pairs,
    /// locked-candidates, x-wing-or-xy-wing or trial.
    pub technique: &'static str,
    /// Number of clues.
    pub clues: usize,
}

/// `x` rounded to `decimals` places, as reports and the bank store ratings.
pub(crate) fn round(x: f64, decimals: i32) -> f64 {
    let m = 10f64.powi(decimals);
    (x * m).round() / m
}

impl Report {
    /// Builds the report from the two ratings and the puzzle's secondary metrics.
    pub fn new(puzzle: &Puzzle, difficulty: &Difficulty, rating: &Rating) -> Report {
        let wnef = metrics::wnef(puzzle);
        let norm = metrics::box_norm(puzzle);
        let d = round(difficulty.value, 3);
        let default = LevelSet::default_for(RatingKind::Difficulty);
        Report {
            puzzle: puzzle.to_line(),
            level: default.name(default.of(d)).unwrap_or_default().to_string(),
            difficulty: d,
            hsolve: round(rating.mean, 2),
            hsolve_sd: round(rating.sd, 2),
            tier: rating.tier,
            steps: round(rating.steps, 2),
            wnef: round(wnef, 6),
            wnef_class: metrics::wnef_class(wnef),
            box_norm: round(norm, 4),
            box_class: metrics::box_class(norm),
            technique: metrics::technique(puzzle).name(),
            clues: puzzle.clues(),
        }
    }

    /// Names its level on `levels` of the rating `rating` (a bank's levels).
    pub fn on_levels(&mut self, rating: RatingKind, levels: &LevelSet) {
        let i = levels.of(rating.value(self.difficulty, self.hsolve));
        self.level = levels.name(i).unwrap_or_default().to_string();
    }

    /// One TSV line (no newline) in the order of [`TSV_HEADER`].
    pub fn to_tsv(&self) -> String {
        format!(
            "{}\t{}\t{:.3}\t{:.2}\t{:.2}\t{}\t{:.2}\t{:.6}\t{}\t{:.4}\t{}\t{}\t{}",
            self.puzzle,
            self.level,
            self.difficulty,
            self.hsolve,
            self.hsolve_sd,
            self.tier,
            self.steps,
            self.wnef,
            self.wnef_class,
            self.box_norm,
            self.box_class,
            self.technique,
            self.clues
        )
    }

    /// One JSON object (no newline) with the keys of [`TSV_HEADER`].
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }
}

/// Both ratings of the class `c` (a puzzle's canonical form), made on the canonical form with
/// the seed from its key: `difficulty` with `difficulty_runs` runs, hsolve with `hsolve_runs`.
/// Every rating of the program goes through here, so every symmetry of a puzzle gets the same
/// numbers.
pub fn ratings_of_class(
    c: &Canonical,
    difficulty_runs: u32,
    hsolve_runs: u32,
) -> Result<(Difficulty, Rating), RateError> {
    let (p, seed) = (c.puzzle(), c.key().seed());
    let rating = hsolve::rate_seeded(&p, hsolve_runs, seed)?;
    let d = difficulty::rate_seeded(&p, difficulty_runs, seed)?;
    Ok((d, rating))
}

/// The `difficulty` rating of the class `c` with the default runs, as [`ratings_of_class`]
/// makes it (the same seed, so the same number).
pub fn difficulty_of_class(c: &Canonical) -> Result<Difficulty, RateError> {
    difficulty::rate_seeded(&c.puzzle(), difficulty::DEFAULT_RUNS, c.key().seed())
}

/// Both ratings of `puzzle` (see [`ratings_of_class`]).
pub fn ratings(
    puzzle: &Puzzle,
    difficulty_runs: u32,
    hsolve_runs: u32,
) -> Result<(Difficulty, Rating), RateError> {
    ratings_of_class(
        &crate::canon::canonical(puzzle),
        difficulty_runs,
        hsolve_runs,
    )
}

/// Rates `puzzle` (`runs` runs for both ratings, or each rating's default) and computes the
/// secondary metrics.
pub fn report(puzzle: &Puzzle, runs: Option<u32>) -> Result<Report, RateError> {
    let (d, rating) = ratings(
        puzzle,
        runs.unwrap_or(difficulty::DEFAULT_RUNS),
        runs.unwrap_or(hsolve::DEFAULT_RUNS),
    )?;
    Ok(Report::new(puzzle, &d, &rating))
}

/// A puzzle with one solution, its class and its full rating: what generation hands to the
/// bank.
#[derive(Clone, Debug, PartialEq)]
pub struct Graded {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// Its canonical form (and so its class key).
    pub canon: Canonical,
    /// Both ratings (default runs) and the secondary metrics.
    pub report: Report,
}

impl Graded {
    /// Rates `puzzle` (solution `solution`, canonical form `canon`) with the default runs.
    pub fn new(puzzle: Puzzle, solution: Grid, canon: Canonical) -> Result<Graded, RateError> {
        let (d, rating) = ratings_of_class(&canon, difficulty::DEFAULT_RUNS, hsolve::DEFAULT_RUNS)?;
        let report = Report::new(&puzzle, &d, &rating);
        Ok(Graded {
            puzzle,
            solution,
            canon,
            report,
        })
    }

    /// [`Graded::new`] when its `difficulty` (default runs, from [`difficulty_of_class`]) is
    /// made already: only hsolve is made.
    pub fn with_difficulty(
        puzzle: Puzzle,
        solution: Grid,
        canon: Canonical,
        d: &Difficulty,
    ) -> Result<Graded, RateError> {
        let rating =
            hsolve::rate_seeded(&canon.puzzle(), hsolve::DEFAULT_RUNS, canon.key().seed())?;
        let report = Report::new(&puzzle, d, &rating);
        Ok(Graded {
            puzzle,
            solution,
            canon,
            report,
        })
    }

    /// Its class key.
    pub fn key(&self) -> Key {
        self.canon.key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_and_json_carry_the_same_fields() {
        let p: Puzzle =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let r = report(&p, None).unwrap();
        let tsv = r.to_tsv();
        assert_eq!(tsv.split('\t').count(), TSV_HEADER.split('\t').count());
        let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        for (key, value) in TSV_HEADER.split('\t').zip(tsv.split('\t')) {
            let j = &json[key];
            match j {
                serde_json::Value::String(s) => assert_eq!(s, value),
                serde_json::Value::Number(n) => {
                    assert_eq!(n.as_f64().unwrap(), value.parse::<f64>().unwrap(), "{key}")
                }
                other => panic!("{key}: {other}"),
            }
        }
        assert_eq!(r.tier, 0);
        assert_eq!(r.level, "easy");
        assert_eq!(r.technique, "singles");
        assert_eq!(r.clues, 32);
    }
}
