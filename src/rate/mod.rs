//! Rating one puzzle, through one function: both ratings made on its canonical form with the
//! seed from its class key ([`ratings_of_class`]), and the secondary metrics beside them, as
//! one domain value, the [`Rating`]. A [`Report`] is how `rate` prints a rating (rounded for
//! reading, with a level's name); [`Graded`] is the value that flows from generation to the
//! bank (puzzle, solution, canonical form and key, rating).

pub use crate::scale::RatingKind;
pub use crate::technique::{HardestStep, Strategy, Technique, UnknownTechnique};
pub use difficulty::Difficulty;
pub use hsolve::{Hsolve, RateError};

use crate::candidates::Candidates;
use crate::canon::{Canonical, Key};
use crate::grid::{Grid, Puzzle};
use crate::scale::LevelSet;
use profile::{clock, stage, Stage};
use serde::Serialize;

pub mod profile;

internal! {
    difficulty;
    hsolve;
    metrics;
    refutation;
}

mod shared_searches;

pub use shared_searches::SharedSearches;

/// The rater's description stored with each build and in reference files (rating
/// provenance).
pub const RATER: &str = concat!(
    "pseudoku ",
    env!("CARGO_PKG_VERSION"),
    " difficulty model 3 (10 runs) and hsolve tiers 0-6 (20 runs) on the canonical form, seed = class key"
);

/// The TSV header of [`Report::to_tsv`] lines.
pub const TSV_HEADER: &str =
    "puzzle\tlevel\tdifficulty\thsolve\thsolve_sd\ttier\tsteps\twnef\twnef_class\tbox_norm\tbox_class\ttechnique\tclues\thardest_step\thardest_steps\thsolve_family";

/// Every difficulty measure of one puzzle. The two ratings are measured to the unit the bank
/// stores and levels compare (`difficulty` to thousandths, hsolve to hundredths), so a stored
/// rating reads back as this value; the other measures are as computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating beyond the paper: log10 of the expected weighted work, to thousandths.
    pub difficulty: f64,
    /// The paper's hsolve rating: the mean over the runs, to hundredths.
    pub hsolve: f64,
    /// The standard deviation of the hsolve runs, to hundredths.
    pub hsolve_sd: f64,
    /// The hardest hsolve tier any run used (0-6).
    pub tier: u8,
    /// Mean steps per hsolve run.
    pub steps: f64,
    /// WNEF of the initial candidates (`metrics::wnef`).
    pub wnef: f64,
    /// The box norm (`metrics::box_norm`).
    pub box_norm: f64,
    /// hsolve's technique family (paper 004's grade; `rate` prints it as `hsolve_family`).
    pub technique: Technique,
    /// Number of clues.
    pub clues: u8,
    /// The hardest step it needs: a technique of the `difficulty` ladder
    /// ([`Difficulty::hardest_step`]) and how many such steps a solve takes.
    pub hardest: HardestStep,
    /// The detail the level model reads besides the ratings.
    pub detail: Detail,
}

/// What a rating saw besides its two numbers: how the `difficulty` runs went and the grid at
/// the start. The level model's features are made from it (`levels::features`).
#[derive(Clone, Debug, PartialEq)]
pub struct Detail {
    /// The spread of the `difficulty` runs' work relative to its mean.
    pub spread: f64,
    /// The hardest ladder position any `difficulty` run used (0 singles .. 10).
    pub hardest_position: u8,
    /// The `difficulty` runs' checks and efforts (`difficulty::FEATURE_NAMES`).
    pub work: [f64; difficulty::FEATURES],
    /// The `difficulty` runs' applications of each strategy (`Strategy as usize`).
    pub strategies: [f64; Strategy::COUNT],
    /// The hsolve runs' mean steps at each tier.
    pub steps_per_tier: [f64; 7],
    /// By rank in the ladder's order of strategies: the share of `difficulty` runs whose
    /// hardest strategy ranks that high or higher.
    pub reached: [f64; Strategy::COUNT],
    /// The candidates left in the empty cells at the start.
    pub candidates: u16,
    /// The cells a single (naked or hidden) fills at the start.
    pub singles: u8,
}

impl Detail {
    /// The detail of a puzzle whose start state is `start` (or a symmetry of it: the counts
    /// are the same) from its two ratings.
    fn new(start: &Candidates, difficulty: &Difficulty, hsolve: &Hsolve) -> Detail {
        let singles = start.naked_single_cells() | start.hidden_single_cells();
        Detail {
            spread: difficulty.spread,
            hardest_position: difficulty.hardest,
            work: difficulty.features,
            strategies: difficulty.strategies,
            steps_per_tier: hsolve.steps_per_tier,
            reached: difficulty.reached,
            candidates: start.candidate_count() as u16,
            singles: singles.len() as u8,
        }
    }
}

/// `x` rounded to `decimals` places, as ratings are measured and reports print them.
pub(crate) fn round(x: f64, decimals: i32) -> f64 {
    let m = 10f64.powi(decimals);
    (x * m).round() / m
}

impl Rating {
    /// The rating of `puzzle` from its two ratings and its secondary metrics.
    pub fn new(puzzle: &Puzzle, difficulty: &Difficulty, hsolve: &Hsolve) -> Rating {
        Rating::from_start(puzzle, &Candidates::new(puzzle), difficulty, hsolve)
    }

    /// [`Rating::new`] when the start state of `puzzle`, or of a symmetry of it, is made.
    fn from_start(
        puzzle: &Puzzle,
        start: &Candidates,
        difficulty: &Difficulty,
        hsolve: &Hsolve,
    ) -> Rating {
        Rating {
            difficulty: round(difficulty.value, 3),
            hsolve: round(hsolve.mean, 2),
            hsolve_sd: round(hsolve.sd, 2),
            tier: hsolve.tier,
            steps: hsolve.steps,
            wnef: metrics::wnef(puzzle),
            box_norm: metrics::box_norm(puzzle),
            technique: metrics::technique(puzzle),
            clues: puzzle.clues() as u8,
            hardest: HardestStep {
                strategy: difficulty.hardest_step,
                count: (difficulty.hardest_steps.round() as u16).max(1),
            },
            detail: Detail::new(start, difficulty, hsolve),
        }
    }

    /// The value of the rating `kind` (a bank's rating).
    pub fn value(&self, kind: RatingKind) -> f64 {
        kind.value(self.difficulty, self.hsolve)
    }

    /// The WNEF class, 1 (easy) to 4 (evil).
    pub fn wnef_class(&self) -> u8 {
        metrics::wnef_class(self.wnef)
    }

    /// The box-norm class, 1 (easy) to 4 (expert).
    pub fn box_class(&self) -> u8 {
        metrics::box_class(self.box_norm)
    }

    /// Its level's name on `levels` of the rating `kind` (empty when the levels have no name
    /// for it).
    pub fn level_name<'l>(&self, kind: RatingKind, levels: &'l LevelSet) -> &'l str {
        levels
            .name(levels.of(self.value(kind), self.hardest.strategy))
            .unwrap_or("")
    }

    /// Its level's name on the default levels of `difficulty`.
    pub fn default_level(&self) -> String {
        let default = LevelSet::default_for(RatingKind::Difficulty);
        self.level_name(RatingKind::Difficulty, &default)
            .to_string()
    }
}

/// How `rate` prints one puzzle's [`Rating`]: the puzzle, its level's name and every measure
/// rounded for reading (difficulty 3 decimals, hsolve, its spread and steps 2, WNEF 6, box
/// norm 4), as a TSV line in the order of [`TSV_HEADER`] or a JSON object with those keys.
/// Its `technique` is the ladder's hardest step (what a puzzle needs, as hints and
/// `get --technique` name techniques); hsolve's family is `hsolve_family`.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Report {
    /// The puzzle, 81 characters, `.` for empty.
    #[schema(value_type = String)]
    pub puzzle: Puzzle,
    /// Its level's name.
    pub level: String,
    /// `difficulty`, 3 decimals.
    pub difficulty: f64,
    /// hsolve: the mean of the runs, 2 decimals.
    pub hsolve: f64,
    /// The spread of the hsolve runs, 2 decimals.
    pub hsolve_sd: f64,
    /// The hardest hsolve tier used (0-6).
    pub tier: u8,
    /// Mean steps per hsolve run, 2 decimals.
    pub steps: f64,
    /// WNEF, 6 decimals.
    pub wnef: f64,
    /// WNEF class, 1 (easy) to 4 (evil).
    pub wnef_class: u8,
    /// Box norm, 4 decimals.
    pub box_norm: f64,
    /// Box-norm class, 1 (easy) to 4 (expert).
    pub box_class: u8,
    /// The technique it needs: the `difficulty` ladder's hardest step (`x-wing`,
    /// `hidden pair`, `trial and error`, ...), as `hardest_step`. Until this key named the
    /// ladder's step it held hsolve's family, now `hsolve_family`.
    #[schema(value_type = String)]
    pub technique: Strategy,
    /// Number of clues.
    pub clues: u8,
    /// The hardest step it needs: a technique of the `difficulty` ladder (`x-wing`,
    /// `hidden pair`, ...).
    #[schema(value_type = String)]
    pub hardest_step: Strategy,
    /// How many such steps a solve takes.
    pub hardest_steps: u16,
    /// hsolve's technique family (paper 004's grade): `singles`, `pairs`,
    /// `locked-candidates`, `x-wing-or-xy-wing`, or `beyond-wings` when its model's families
    /// stop short of the puzzle (which needs no assumption unless its hardest step is one).
    #[schema(value_type = String)]
    pub hsolve_family: Technique,
}

impl Report {
    /// The report of `puzzle`, rated `rating`, whose level is named `level`.
    pub fn new(puzzle: &Puzzle, rating: &Rating, level: impl Into<String>) -> Report {
        Report {
            puzzle: *puzzle,
            level: level.into(),
            difficulty: rating.difficulty,
            hsolve: rating.hsolve,
            hsolve_sd: rating.hsolve_sd,
            tier: rating.tier,
            steps: round(rating.steps, 2),
            wnef: round(rating.wnef, 6),
            wnef_class: rating.wnef_class(),
            box_norm: round(rating.box_norm, 4),
            box_class: rating.box_class(),
            technique: rating.hardest.strategy,
            clues: rating.clues,
            hardest_step: rating.hardest.strategy,
            hardest_steps: rating.hardest.count,
            hsolve_family: rating.technique,
        }
    }

    /// One TSV line (no newline) in the order of [`TSV_HEADER`].
    pub fn to_tsv(&self) -> String {
        format!(
            "{}\t{}\t{:.3}\t{:.2}\t{:.2}\t{}\t{:.2}\t{:.6}\t{}\t{:.4}\t{}\t{}\t{}\t{}\t{}\t{}",
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
            self.clues,
            self.hardest_step,
            self.hardest_steps,
            self.hsolve_family
        )
    }

    /// One JSON object (no newline) with the keys of [`TSV_HEADER`].
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }
}

/// A class ready to be rated: its canonical form as a puzzle, that puzzle's solution, its start
/// state (made once, for both ratings and the detail) and the seed from its key.
struct Start {
    solution: Grid,
    candidates: Candidates,
    seed: u64,
}

impl Start {
    /// The start of the class `c`, solving its form (the only solve a rating makes).
    fn of(c: &Canonical) -> Result<Start, RateError> {
        let p = c.puzzle();
        Ok(Start {
            solution: hsolve::check_unique(&p)?,
            candidates: Candidates::new(&p),
            seed: c.key().seed(),
        })
    }

    /// The start of the class `c` of a puzzle whose (only) solution is `solution`: the
    /// form's solution is `solution` moved by the map that made the form.
    fn solved(c: &Canonical, solution: &Grid) -> Start {
        let p = c.puzzle();
        let solution = c.transform.apply_grid(solution);
        debug_assert!(p
            .as_bytes()
            .iter()
            .zip(solution.as_bytes())
            .all(|(&v, &s)| v == 0 || v == s));
        Start {
            solution,
            candidates: Candidates::new(&p),
            seed: c.key().seed(),
        }
    }

    /// Both ratings: hsolve with `hsolve_runs` runs, `difficulty` with `difficulty_runs`
    /// (sharing its hard searches through `shared`, when given).
    fn ratings(
        &self,
        difficulty_runs: u32,
        hsolve_runs: u32,
        shared: Option<&SharedSearches>,
    ) -> Result<(Difficulty, Hsolve), RateError> {
        let h = self.hsolve(hsolve_runs)?;
        let d = self.difficulty(difficulty_runs, |_, _| false, shared)?;
        Ok((d.expect("never stopped"), h))
    }

    /// hsolve with `runs` runs.
    fn hsolve(&self, runs: u32) -> Result<Hsolve, RateError> {
        let since = clock();
        let h = hsolve::rate_from(&self.candidates, self.solution, runs, self.seed);
        stage(Stage::Hsolve, since);
        h
    }

    /// `difficulty` with `runs` runs, stopped early as `far` asks (see
    /// [`difficulty_of_class_unless`]), sharing its hard searches through `shared` when given.
    fn difficulty(
        &self,
        runs: u32,
        far: impl Fn(f64, f64) -> bool,
        shared: Option<&SharedSearches>,
    ) -> Result<Option<Difficulty>, RateError> {
        let since = clock();
        let (st, solution, seed) = (&self.candidates, self.solution, self.seed);
        let d = difficulty::rate_from_unless(st, solution, runs, seed, far, shared);
        stage(Stage::Difficulty, since);
        d
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
) -> Result<(Difficulty, Hsolve), RateError> {
    Start::of(c)?.ratings(difficulty_runs, hsolve_runs, None)
}

/// The `difficulty` rating of the class `c` with the default runs, as [`ratings_of_class`]
/// makes it (the same seed, so the same number).
pub fn difficulty_of_class(c: &Canonical) -> Result<Difficulty, RateError> {
    Ok(Start::of(c)?
        .difficulty(difficulty::DEFAULT_RUNS, |_, _| false, None)?
        .expect("never stopped"))
}

/// [`difficulty_of_class`] for the class `c` of a puzzle whose (only) solution is `solution`,
/// stopped (`None`) after a few runs when `far` says of the least and the greatest of their
/// values (log10 of a run's work) that the rating is not wanted. Its hard searches are shared
/// with the other ratings made through `shared`.
pub fn difficulty_of_class_unless(
    c: &Canonical,
    solution: &Grid,
    far: impl Fn(f64, f64) -> bool,
    shared: &SharedSearches,
) -> Option<Difficulty> {
    Start::solved(c, solution)
        .difficulty(difficulty::DEFAULT_RUNS, far, Some(shared))
        .expect("a puzzle with a solution is rated")
}

/// Both ratings of `puzzle` (see [`ratings_of_class`]).
pub fn ratings(
    puzzle: &Puzzle,
    difficulty_runs: u32,
    hsolve_runs: u32,
) -> Result<(Difficulty, Hsolve), RateError> {
    ratings_of_class(
        &crate::canon::canonical(puzzle),
        difficulty_runs,
        hsolve_runs,
    )
}

/// Rates `puzzle` (`runs` runs for both ratings, or each rating's default) and computes the
/// secondary metrics.
pub fn rate(puzzle: &Puzzle, runs: Option<u32>) -> Result<Rating, RateError> {
    rate_with(puzzle, runs, None)
}

/// [`rate`], sharing the hard searches with the other ratings made through `shared` (the same
/// rating, made sooner when they share a solution grid: see [`SharedSearches`]).
pub fn rate_sharing(
    puzzle: &Puzzle,
    runs: Option<u32>,
    shared: &SharedSearches,
) -> Result<Rating, RateError> {
    rate_with(puzzle, runs, Some(shared))
}

/// [`rate`], sharing through `shared` when given.
fn rate_with(
    puzzle: &Puzzle,
    runs: Option<u32>,
    shared: Option<&SharedSearches>,
) -> Result<Rating, RateError> {
    let since = clock();
    let class = crate::canon::canonical(puzzle);
    stage(Stage::Canonical, since);
    let start = Start::of(&class)?;
    let (d, h) = start.ratings(
        runs.unwrap_or(difficulty::DEFAULT_RUNS),
        runs.unwrap_or(hsolve::DEFAULT_RUNS),
        shared,
    )?;
    let since = clock();
    let rating = Rating::from_start(puzzle, &start.candidates, &d, &h);
    stage(Stage::Metrics, since);
    Ok(rating)
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
    pub rating: Rating,
}

impl Graded {
    /// Rates `puzzle` (solution `solution`, canonical form `canon`) with the default runs.
    pub fn new(puzzle: Puzzle, solution: Grid, canon: Canonical) -> Result<Graded, RateError> {
        let start = Start::solved(&canon, &solution);
        let (d, h) = start.ratings(difficulty::DEFAULT_RUNS, hsolve::DEFAULT_RUNS, None)?;
        let rating = Rating::from_start(&puzzle, &start.candidates, &d, &h);
        Ok(Graded {
            puzzle,
            solution,
            canon,
            rating,
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
        let start = Start::solved(&canon, &solution);
        let h = start.hsolve(hsolve::DEFAULT_RUNS)?;
        let rating = Rating::from_start(&puzzle, &start.candidates, d, &h);
        Ok(Graded {
            puzzle,
            solution,
            canon,
            rating,
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
        let rating = rate(&p, None).unwrap();
        let level = rating.default_level();
        let r = Report::new(&p, &rating, level.clone());
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
        assert_eq!(rating.tier, 0);
        assert_eq!(level, "easy");
        assert_eq!(rating.technique, Technique::Singles);
        assert_eq!(rating.clues, 32);
    }
}
