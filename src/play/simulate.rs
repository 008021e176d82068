//! The play simulator: synthetic players of hidden skill play synthetic puzzles of hidden
//! difficulty, with times drawn from a model, and the learned ratings are measured against
//! the hidden truth as results come in. `examples/play_simulation.rs` prints its curves;
//! a test holds them.
//!
//! # The world it draws
//!
//! - A puzzle's true difficulty is normal, sd [`Simulation::puzzle_spread`] Glicko-2 units;
//!   the bank's static rating of it is the truth plus normal noise of sd
//!   [`Simulation::static_noise`] (a model of a solver is not a person), and its prior comes
//!   from the static rating's percentile, as a bank's does.
//! - A player's true skill is normal, sd [`Simulation::player_spread`] units.
//! - A game's log-time is `ln PAR + WIDTH * (difficulty - skill) + e`, `e` normal of sd
//!   [`Simulation::time_noise`], and one game in ten is interrupted (a pause of an
//!   exponential share of the time is added); a game slower than four times the par is
//!   abandoned (not solved) half of the time, and a slow solve (over twice the par) takes a
//!   hint one time in three. So the simulator's times are not the rating model's: heavier
//!   tails, abandons, hints.
//! - Every puzzle is played in rounds, by players drawn at random among those who have not
//!   played it; a round is a day (the bound on new players' moves is a day's).
//! - The games are counted under [`Simulation::trust`]: the bank's [`Trust::DEFAULT`] (a
//!   player's first games held until their record, then settled), or [`Trust::EVERY_GAME`] to
//!   compare with a model that holds nothing.

use super::{count_trusting, prior, settle, Game, PuzzleRated, Rated, Trust, PAR, WIDTH};
use crate::dev::stats::spearman;
use crate::rng::Rng;

/// A simulated world and how long it is played.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Puzzles.
    pub puzzles: usize,
    /// Players.
    pub players: usize,
    /// After how many results per puzzle the ratings are measured.
    pub checkpoints: Vec<usize>,
    /// The spread of true difficulty (Glicko-2 units).
    pub puzzle_spread: f64,
    /// The spread of true skill (Glicko-2 units).
    pub player_spread: f64,
    /// The static rating's error (Glicko-2 units).
    pub static_noise: f64,
    /// The spread of a game's log-time about its expectation.
    pub time_noise: f64,
    /// When a player's game teaches its puzzle ([`Trust`]).
    pub trust: Trust,
    /// The seed of every draw.
    pub seed: u64,
}

impl Default for Simulation {
    fn default() -> Simulation {
        Simulation {
            puzzles: 2_000,
            players: 400,
            checkpoints: vec![0, 1, 2, 5, 10, 20, 50],
            puzzle_spread: 1.5,
            player_spread: 1.2,
            static_noise: 1.0,
            time_noise: 0.35,
            trust: Trust::DEFAULT,
            seed: 1,
        }
    }
}

/// The ratings measured at one checkpoint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Results per puzzle so far.
    pub results_per_puzzle: usize,
    /// Spearman of the puzzles' learned ratings with their true difficulty.
    pub learned: f64,
    /// Spearman of their static rating with it (the same at every checkpoint).
    pub static_rating: f64,
    /// Spearman of the players' learned ratings with their true skill.
    pub players: f64,
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = rng.next_f64().max(f64::MIN_POSITIVE);
    let v = rng.next_f64();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// One game's report, drawn from the world's time model.
fn play(rng: &mut Rng, user: usize, puzzle: usize, gap: f64, noise: f64) -> Game {
    let mut log_t = PAR.ln() + WIDTH * gap + noise * normal(rng);
    if rng.below(10) == 0 {
        log_t += (1.0 - rng.next_f64().max(1e-12).ln() * 0.3).ln();
    }
    let seconds = log_t.exp().clamp(super::MIN_SOLVE, super::MAX_SECONDS);
    let solved = !(seconds > 4.0 * PAR && rng.coin());
    let hints = u32::from(solved && seconds > 2.0 * PAR && rng.below(3) == 0);
    Game {
        user: format!("p{user}"),
        puzzle: puzzle as i64 + 1,
        solved,
        seconds,
        hints,
        mistakes: 0,
    }
}

/// Runs the simulation: the curve of its checkpoints.
pub fn run(sim: &Simulation) -> Vec<Point> {
    let mut rng = Rng::new(sim.seed);
    let truth: Vec<f64> = (0..sim.puzzles)
        .map(|_| sim.puzzle_spread * normal(&mut rng))
        .collect();
    let statics: Vec<f64> = truth
        .iter()
        .map(|t| t + sim.static_noise * normal(&mut rng))
        .collect();
    let skill: Vec<f64> = (0..sim.players)
        .map(|_| sim.player_spread * normal(&mut rng))
        .collect();
    // Each puzzle's prior from its static rating's percentile among the puzzles.
    let ranks = crate::dev::stats::ranks(&statics);
    let mut puzzles: Vec<PuzzleRated> = ranks
        .iter()
        .map(|r| PuzzleRated::fresh(prior(100.0 * (r - 0.5) / sim.puzzles as f64)))
        .collect();
    let mut players: Vec<Option<Rated>> = vec![None; sim.players];
    // Each player's held games (puzzle, score), until their record.
    let mut held: Vec<Vec<(usize, f64)>> = vec![Vec::new(); sim.players];
    let mut played: Vec<std::collections::HashSet<usize>> = vec![Default::default(); sim.puzzles];
    let static_rho = spearman(&statics, &truth);
    let mut points = Vec::new();
    let last = sim.checkpoints.iter().copied().max().unwrap_or(0);
    let mut order: Vec<usize> = (0..sim.puzzles).collect();
    for round in 0..=last {
        if sim.checkpoints.contains(&round) {
            let learned: Vec<f64> = puzzles.iter().map(|p| p.rated.glicko.rating).collect();
            let (rated, true_skill): (Vec<f64>, Vec<f64>) = players
                .iter()
                .zip(&skill)
                .filter_map(|(p, s)| p.map(|p| (p.glicko.rating, *s)))
                .unzip();
            points.push(Point {
                results_per_puzzle: round,
                learned: spearman(&learned, &truth),
                static_rating: static_rho,
                players: if rated.len() > 2 {
                    spearman(&rated, &true_skill)
                } else {
                    f64::NAN
                },
            });
        }
        if round == last {
            break;
        }
        rng.shuffle(&mut order);
        for &q in &order {
            let user = loop {
                let u = rng.index(sim.players);
                if played[q].len() >= sim.players || played[q].insert(u) {
                    break u;
                }
            };
            let game = play(&mut rng, user, q, truth[q] - skill[user], sim.time_noise);
            let counted = count_trusting(&sim.trust, &game, players[user], puzzles[q]);
            players[user] = Some(counted.player);
            puzzles[q] = counted.puzzle;
            if let (true, Some(score)) = (counted.held, counted.score) {
                held[user].push((q, score));
            }
            if counted.settles {
                for (q, score) in std::mem::take(&mut held[user]) {
                    puzzles[q] =
                        settle(&sim.trust, &counted.player, puzzles[q], score, round as i64).1;
                }
            }
        }
    }
    points
}
