//! The rating beyond the paper: `difficulty`, hsolve's model of a human expert with the
//! strategies people use between fish and guessing, and the cost of verifying a trial as well
//! as finding it. hsolve itself ([`crate::rate::hsolve`]) is left exactly as the paper defines it.
//!
//! # The model
//!
//! A run is an hsolve run (searches easiest first, each charged E(p, v) = (p + 1) / (v + 1),
//! a failed search too) on a longer ladder of searches:
//!
//! | position | searched | why here |
//! |---|---|---|
//! | 0a | full house, hidden single in a box | what every newspaper "easy" needs (SE 1.0-1.2) |
//! | 0b | hidden single in a row or column | SE 1.5 |
//! | 0c | naked single | SE 2.3: the "medium" of Sudoku Exchange's buckets |
//! | 1 | locked candidates, naked pair, hidden pair | hsolve's tier 1; SE 2.6-3.4 |
//! | 2 | naked and hidden triple, X-wing, swordfish | SE 3.2-4.0 (swordfish 3.8 rates below the hidden triple, so it moves down from hsolve's tier 3) |
//! | 3 | skyscraper, two-string kite, XY-wing, turbot fish, empty rectangle, XYZ-wing, W-wing, remote pairs, unique rectangle type 1 | SE 4.2-4.5, HoDoKu "hard": a few strong links or bivalue cells, read at a glance by club players |
//! | 4 | unique rectangles 2-6, hidden rectangle, finned X-wing and swordfish, WXYZ-wing, BUG+1 | SE 4.5-5.7: a pattern with an exception |
//! | 5 | naked and hidden quad, jellyfish | SE 5.0-5.4: large patterns are harder to see than wings |
//! | 6 | simple and multi-colouring, X-chains and X-cycles, XY-chains, finned jellyfish, Sue de Coq | SE 6.5-6.6 chains, HoDoKu "unfair": the first chains, still without assumptions |
//! | 7 | AICs and nice loops (grouped), ALS-XZ, ALS-XY-wing | SE 7.0-7.5: chains over several digits and sets |
//! | 8 | ALS chains, death blossom | HoDoKu "extreme" sets |
//! | 9 | forcing chains: digit, cell, house (singles, up to 12 waves) | SE 7.5-8.5 forcing chains: an assumption followed to a conclusion every case shares |
//! | 10 | backtracking on a two-candidate cell with singles | hsolve's tier 5, where no forcing chain of the allowed length reaches |
//! | 11.. | trial and error at depth 1, 2, 3, 4 | hsolve's tier 6; nested forcing chains (SE 8.5 and up) |
//!
//! The unique rectangle assumes that the puzzle has one solution, which every rated puzzle
//! has (rating refuses the others) and every bank puzzle has.
//!
//! Singles are searched in three groups, in order (0a, 0b, 0c), each charged E(p, v) with p
//! the empty cells and v the singles of that group; a run places one single of the first
//! group that has one. (Model 1 searched all singles at once: it could not tell a puzzle that
//! box scans solve from one that needs naked singles, which is where publishers put the line
//! between easy and medium.)
//!
//! A run records, per position, the summed E(p, v) of its searches (the **checks**), and for
//! the trial positions the summed **refutation effort** of the trials it applied: the number
//! of propagation steps from the assumption to the contradiction, nested trials adding their
//! inner trials' effort (see [`crate::rate::refutation`]); for the forcing chains, their summed
//! length in waves of singles. Its difficulty is a weighted sum of these
//! features:
//!
//! ```text
//! d = sum over positions i of  w_i * checks_i   (w_0a = 1; depths 2-4 share one weight)
//!   + sum over kinds k of u_k * effort_k        (forcing chains, backtracking, depth 1, 2-4)
//! ```
//!
//! The **rating** is the mean of d over the runs (10 by default), made on the canonical form
//! with the seed from the class key, as hsolve's are: every member of a class gets the same
//! rating. Because a run's path does not depend on the weights, the rating is linear in them,
//! and the weights are fitted once over the features of the reference data.
//!
//! # The weights
//!
//! Fitted by `cargo run --release --example fit_difficulty` on half of `../shared/data/`
//! (the Sudoku Explainer sample and Berthier's sample, split by class key), maximising the
//! mean Spearman correlation with SE, SER and W on that half, and reported on the other half
//! (`docs/difficulty-fit.md`). The script rewrites the block below.

use crate::candidates::Candidates;
use crate::grid::Puzzle;
use crate::rate::hsolve::{Engine, RateError, Rung, Search};
use crate::rate::shared_searches::SharedSearches;
use crate::rng::Rng;
use crate::strategies::Strategy;

/// The version of the model: 3 since the ladder has the chains and sets between the XY-chain
/// and backtracking (2: singles searched in three groups). A bank records the
/// model its `difficulty` column was rated with; a build re-rates a bank rated with another.
pub const MODEL: u32 = 3;

/// The rating's ladder after singles: what it searches, in order (positions 1 to 14).
pub(crate) const LADDER: [Rung; 14] = [
    Rung::Strategies(&[
        Strategy::LockedCandidates,
        Strategy::NakedPair,
        Strategy::HiddenPair,
    ]),
    Rung::Strategies(&[
        Strategy::NakedTriple,
        Strategy::HiddenTriple,
        Strategy::XWing,
        Strategy::Swordfish,
    ]),
    Rung::Strategies(&[
        Strategy::Skyscraper,
        Strategy::TwoStringKite,
        Strategy::XyWing,
        Strategy::TurbotFish,
        Strategy::EmptyRectangle,
        Strategy::XyzWing,
        Strategy::WWing,
        Strategy::RemotePairs,
        Strategy::UniqueRectangle,
    ]),
    Rung::Strategies(&[
        Strategy::UniqueRectangle2,
        Strategy::UniqueRectangle5,
        Strategy::UniqueRectangle4,
        Strategy::UniqueRectangle6,
        Strategy::HiddenRectangle,
        Strategy::UniqueRectangle3,
        Strategy::FinnedXWing,
        Strategy::WxyzWing,
        Strategy::FinnedSwordfish,
        Strategy::BugPlusOne,
    ]),
    Rung::Strategies(&[
        Strategy::NakedQuad,
        Strategy::HiddenQuad,
        Strategy::Jellyfish,
    ]),
    Rung::Strategies(&[
        Strategy::Colouring,
        Strategy::MultiColouring,
        Strategy::XChain,
        Strategy::XCycle,
        Strategy::XyChain,
        Strategy::FinnedJellyfish,
        Strategy::SueDeCoq,
    ]),
    Rung::Strategies(&[
        Strategy::Aic,
        Strategy::NiceLoop,
        Strategy::AlsXz,
        Strategy::AlsXyWing,
    ]),
    Rung::Strategies(&[Strategy::AlsChain, Strategy::DeathBlossom]),
    Rung::Forcing,
    Rung::Backtracking,
    Rung::Trial(1),
    Rung::Trial(2),
    Rung::Trial(3),
    Rung::Trial(4),
];

/// The strategies a run may apply, from the easiest to the hardest: by ladder position, and
/// within a position by Sudoku Explainer's rating of them (a run's hardest step is the last of
/// these it applied).
pub const LADDER_ORDER: [Strategy; Strategy::COUNT] = [
    Strategy::HiddenSingle,
    Strategy::NakedSingle,
    Strategy::LockedCandidates,
    Strategy::NakedPair,
    Strategy::HiddenPair,
    Strategy::XWing,
    Strategy::NakedTriple,
    Strategy::Swordfish,
    Strategy::HiddenTriple,
    Strategy::Skyscraper,
    Strategy::TwoStringKite,
    Strategy::XyWing,
    Strategy::TurbotFish,
    Strategy::EmptyRectangle,
    Strategy::XyzWing,
    Strategy::WWing,
    Strategy::RemotePairs,
    Strategy::UniqueRectangle,
    Strategy::UniqueRectangle2,
    Strategy::UniqueRectangle5,
    Strategy::UniqueRectangle4,
    Strategy::UniqueRectangle6,
    Strategy::HiddenRectangle,
    Strategy::UniqueRectangle3,
    Strategy::FinnedXWing,
    Strategy::WxyzWing,
    Strategy::FinnedSwordfish,
    Strategy::BugPlusOne,
    Strategy::NakedQuad,
    Strategy::Jellyfish,
    Strategy::HiddenQuad,
    Strategy::Colouring,
    Strategy::MultiColouring,
    Strategy::XChain,
    Strategy::XCycle,
    Strategy::XyChain,
    Strategy::FinnedJellyfish,
    Strategy::SueDeCoq,
    Strategy::Aic,
    Strategy::NiceLoop,
    Strategy::AlsXz,
    Strategy::AlsXyWing,
    Strategy::AlsChain,
    Strategy::DeathBlossom,
    Strategy::DigitForcingChain,
    Strategy::CellForcingChain,
    Strategy::HouseForcingChain,
    Strategy::Backtracking,
    Strategy::TrialAndError,
];

/// The ladder position from which a run applies every application of the simplest technique
/// found in one step (see the module docs): unique rectangles and finned fish, and up.
pub(crate) const SIMPLEST_FROM: usize = 4;

/// The rank of `s` in [`LADDER_ORDER`], easiest first.
pub fn rank(s: Strategy) -> usize {
    LADDER_ORDER
        .iter()
        .position(|&t| t == s)
        .expect("every strategy is on the ladder order")
}

/// An engine on this ladder (singles in three groups, the simplest technique in one step from
/// [`SIMPLEST_FROM`]) for a puzzle with this solution.
fn engine<'s>(solution: crate::grid::Grid) -> Engine<'s> {
    let mut engine = Engine::new(solution, &LADDER, crate::rate::profile::Model::Difficulty);
    engine.split_singles = true;
    engine.simplest = Some((SIMPLEST_FROM, &LADDER_ORDER));
    engine
}

/// The number of features of a rating (see [`FEATURE_NAMES`]).
pub const FEATURES: usize = 19;

/// The ladder position of the forcing chains, of backtracking and of depth-1 trials.
const FORCING: usize = 9;
const BACKTRACKING: usize = 10;
const TRIAL_1: usize = 11;

/// The features a rating is a weighted sum of, in order: the checks of positions 0 to 11,
/// of trial depths 2-4 together, and the effort of the forcing chains (their length), of
/// backtracking, of depth-1 trials and of deeper trials.
#[cfg_attr(not(feature = "dev"), allow(dead_code))]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "checks: full house and hidden single in a box",
    "checks: hidden single in a row or column",
    "checks: naked single",
    "checks: pairs and locked candidates",
    "checks: triples, x-wing, swordfish",
    "checks: wings, single-digit patterns, unique rectangle",
    "checks: unique rectangles 2-6, finned fish, wxyz-wing, bug+1",
    "checks: quads and jellyfish",
    "checks: colouring, x-chains, xy-chains, sue de coq",
    "checks: aic, nice loops, als-xz, als-xy-wing",
    "checks: als chains, death blossom",
    "checks: forcing chains",
    "checks: backtracking",
    "checks: trial depth 1",
    "checks: trial depth 2+",
    "effort: forcing chains",
    "effort: backtracking",
    "effort: trial depth 1",
    "effort: trial depth 2+",
];

// BEGIN FITTED WEIGHTS (written by examples/fit_difficulty.rs; do not edit by hand)
/// The weight of each feature (see [`FEATURE_NAMES`]).
pub const WEIGHTS: [f64; FEATURES] = [
    1.000000e0,
    8.000000e0,
    5.120000e2,
    4.096000e3,
    2.621440e5,
    1.342177e8,
    1.073742e9,
    4.671764e9,
    8.589935e9,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
    6.871948e10,
];
// END FITTED WEIGHTS

/// The default number of runs per rating.
pub const DEFAULT_RUNS: u32 = 10;

/// A puzzle's `difficulty` rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Difficulty {
    /// The rating: log10 of the mean over the runs of the weighted work d (one unit is ten
    /// times the work).
    pub value: f64,
    /// The mean of d over the runs.
    pub work: f64,
    /// Standard deviation of d over the runs, relative to their mean (0 for a single run).
    pub spread: f64,
    /// The hardest ladder position any run used (0 = singles, 1-9 = the strategy rungs,
    /// 10 = backtracking, 11-14 = trial and error at depth 1-4).
    pub hardest: u8,
    /// The features, averaged over the runs (see `FEATURE_NAMES`).
    pub features: [f64; FEATURES],
    /// The applications of each strategy (`Strategy as usize`), averaged over the runs.
    pub strategies: [f64; Strategy::COUNT],
    /// The hardest step the puzzle needs: the median over the runs (the harder of the two
    /// middle ones) of each run's hardest strategy in `LADDER_ORDER`.
    pub hardest_step: Strategy,
    /// How many times a run applied [`Difficulty::hardest_step`], averaged over the runs.
    pub hardest_steps: f64,
    /// By rank r in `LADDER_ORDER`: the share of runs whose hardest strategy ranks r or
    /// higher (1 at rank 0).
    pub reached: [f64; Strategy::COUNT],
    /// Number of runs.
    pub runs: u32,
}

/// The feature vector of one run.
fn features_of(r: &crate::rate::hsolve::RunResult) -> [f64; FEATURES] {
    let mut f = [0.0; FEATURES];
    f[..3].copy_from_slice(&r.singles3);
    f[3..14].copy_from_slice(&r.checks[1..=TRIAL_1]);
    f[14] = r.checks[TRIAL_1 + 1..].iter().sum();
    f[15] = r.refutation[FORCING];
    f[16] = r.refutation[BACKTRACKING];
    f[17] = r.refutation[TRIAL_1];
    f[18] = r.refutation[TRIAL_1 + 1..].iter().sum();
    f
}

/// The weighted sum of a feature vector.
pub fn weigh(features: &[f64; FEATURES], weights: &[f64; FEATURES]) -> f64 {
    features.iter().zip(weights).map(|(f, w)| f * w).sum()
}

/// Rates `puzzle` with `runs` runs (at least 1) on its canonical form, seeded from its class
/// key: every puzzle of a class gets the identical rating.
pub fn rate(puzzle: &Puzzle, runs: u32) -> Result<Difficulty, RateError> {
    let c = crate::canon::canonical(puzzle);
    rate_seeded(&c.puzzle(), runs, c.key().seed())
}

/// Rates `puzzle` with `runs` runs (at least 1), run i drawing from `Rng::for_job(seed, i)`.
pub fn rate_seeded(puzzle: &Puzzle, runs: u32, seed: u64) -> Result<Difficulty, RateError> {
    Ok(rate_seeded_unless(puzzle, runs, seed, |_, _| false)?.expect("never stopped"))
}

/// The runs a rating makes before [`rate_seeded_unless`] asks whether to go on.
pub const EARLY_RUNS: u32 = 2;

/// [`rate_seeded`], stopped (`None`) after the first [`EARLY_RUNS`] runs when `far` says of
/// the least and the greatest of their values (log10 of a run's work, on the rating's scale)
/// that the rating is not wanted. A rating that goes on is exactly [`rate_seeded`]'s: its runs
/// are the same runs.
pub fn rate_seeded_unless(
    puzzle: &Puzzle,
    runs: u32,
    seed: u64,
    far: impl Fn(f64, f64) -> bool,
) -> Result<Option<Difficulty>, RateError> {
    let solution = crate::rate::hsolve::check_unique(puzzle)?;
    rate_from_unless(&Candidates::new(puzzle), solution, runs, seed, far, None)
}

/// [`rate_seeded_unless`] from the puzzle's start state `start` when its (only) solution is
/// known, sharing its hard searches through `shared` when given.
pub(crate) fn rate_from_unless(
    start: &Candidates,
    solution: crate::grid::Grid,
    runs: u32,
    seed: u64,
    far: impl Fn(f64, f64) -> bool,
    shared: Option<&SharedSearches>,
) -> Result<Option<Difficulty>, RateError> {
    let runs = runs.max(1);
    let mut engine = engine(solution);
    engine.shared = shared;
    let n = runs as f64;
    let mut features = [0.0; FEATURES];
    let mut strategies = [0.0; Strategy::COUNT];
    let mut applied = [0u32; Strategy::COUNT];
    let mut hardest_of_run = Vec::with_capacity(runs as usize);
    let mut values = Vec::with_capacity(runs as usize);
    let mut hardest = 0;
    for i in 0..runs {
        let mut rng = Rng::for_job(seed, i as u64);
        let r = engine.run(start, &mut rng, None)?;
        let f = features_of(&r);
        for (a, b) in features.iter_mut().zip(&f) {
            *a += b / n;
        }
        for (a, &b) in strategies.iter_mut().zip(&r.strategies) {
            *a += f64::from(b) / n;
        }
        let rank = LADDER_ORDER
            .iter()
            .rposition(|&s| r.strategies[s as usize] > 0)
            .unwrap_or(0);
        hardest_of_run.push(rank);
        for (a, &b) in applied.iter_mut().zip(&r.strategies) {
            *a += b;
        }
        values.push(weigh(&f, &WEIGHTS));
        hardest = hardest.max(r.hardest);
        if i + 1 == EARLY_RUNS && runs > EARLY_RUNS {
            let low = values.iter().copied().fold(f64::INFINITY, f64::min);
            let high = values.iter().copied().fold(0.0, f64::max);
            if far(low.log10(), high.log10()) {
                return Ok(None);
            }
        }
    }
    hardest_of_run.sort_unstable();
    let mut reached = [0.0; Strategy::COUNT];
    for (r, share) in reached.iter_mut().enumerate() {
        *share = hardest_of_run.iter().filter(|&&h| h >= r).count() as f64 / n;
    }
    let hardest_step = LADDER_ORDER[hardest_of_run[hardest_of_run.len() / 2]];
    let hardest_steps = f64::from(applied[hardest_step as usize]) / n;
    let work = values.iter().sum::<f64>() / n;
    let sd = if runs > 1 {
        (values.iter().map(|v| (v - work).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    Ok(Some(Difficulty {
        value: work.log10(),
        work,
        spread: sd / work,
        hardest: hardest as u8,
        features,
        strategies,
        hardest_step,
        hardest_steps,
        reached,
        runs,
    }))
}

/// One run on `puzzle` as given (seeded from its class key), with every search it made in
/// order; a search's `tier` is its ladder position (see the module docs) and `depth` the
/// trial depth. Each search's `d` is the running sum of the unweighted E(p, v), as hsolve
/// counts them (the weights apply to the run's features). Also returns the run's difficulty:
/// log10 of its weighted work, on the rating's scale (the rating is the mean work of 10 such
/// runs on the canonical form). Like [`crate::rate::hsolve::explain`], an illustration of the model
/// on the puzzle as the reader sees it.
pub fn explain(puzzle: &Puzzle) -> Result<(Vec<Search>, f64), RateError> {
    let solution = crate::rate::hsolve::check_unique(puzzle)?;
    let mut trace = Vec::new();
    let mut rng = Rng::for_job(crate::rate::hsolve::seed_of(puzzle), 0);
    let mut engine = engine(solution);
    let r = engine.run(&Candidates::new(puzzle), &mut rng, Some(&mut trace))?;
    for s in &mut trace {
        s.tier = s.rung;
    }
    Ok((trace, weigh(&features_of(&r), &WEIGHTS).log10()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_is_the_weighted_features() {
        let p: Puzzle =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let d = rate(&p, 5).unwrap();
        assert!((weigh(&d.features, &WEIGHTS) - d.work).abs() < 1e-9 * d.work);
        assert!((d.value - d.work.log10()).abs() < 1e-12);
        assert!(d.hardest >= 7, "top1465's first puzzle needs chains");
    }

    /// Run `i` of a rating seeded `seed`, alone: log10 of its work.
    fn rate_seeded_from(p: &Puzzle, i: u32, seed: u64) -> f64 {
        let solution = crate::rate::hsolve::check_unique(p).unwrap();
        let shared = SharedSearches::default();
        let mut engine = engine(solution);
        engine.shared = Some(&shared);
        let mut rng = Rng::for_job(seed, u64::from(i));
        let r = engine.run(&Candidates::new(p), &mut rng, None).unwrap();
        weigh(&features_of(&r), &WEIGHTS).log10()
    }

    /// A rating asked whether to go on is asked once, after the first runs, with their value;
    /// stopped it is `None`, gone on it is the whole rating's, run for run.
    #[test]
    fn a_rating_stops_early_only_when_asked_and_otherwise_is_the_whole_rating() {
        let p: Puzzle =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let seed = 77;
        let first = rate_seeded(&p, EARLY_RUNS, seed).unwrap();
        let runs: Vec<f64> = (0..EARLY_RUNS)
            .map(|i| rate_seeded_from(&p, i, seed))
            .collect();
        let asked = std::cell::RefCell::new(Vec::new());
        let stopped = rate_seeded_unless(&p, 10, seed, |low, high| {
            asked.borrow_mut().push((low, high));
            true
        })
        .unwrap();
        assert!(stopped.is_none());
        let (low, high) = asked.borrow()[0];
        assert_eq!(asked.borrow().len(), 1);
        assert_eq!(low, runs.iter().copied().fold(f64::INFINITY, f64::min));
        assert_eq!(high, runs.iter().copied().fold(0.0, f64::max));
        // The rating of the first runs is their mean, between the least and the greatest.
        assert!(low <= first.value + 1e-12 && first.value <= high + 1e-12);
        let first = first.value;
        let whole = rate_seeded(&p, 10, seed).unwrap();
        let went_on = rate_seeded_unless(&p, 10, seed, |_, _| false).unwrap().unwrap();
        assert_eq!(went_on.value, whole.value);
        assert_eq!(went_on.features, whole.features);
        assert_eq!(went_on.hardest_step, whole.hardest_step);
        // A rating of no more runs than the first is never asked.
        let short = rate_seeded_unless(&p, EARLY_RUNS, seed, |_, _| panic!("asked")).unwrap();
        assert_eq!(short.unwrap().value, first);
    }
}
