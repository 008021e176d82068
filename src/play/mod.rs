//! Play: what players' results teach the bank. A [`Game`] (a user, a puzzle handed to them,
//! solved or not, seconds, hints, mistakes) is checked ([`Game::check`]), scored against the
//! par time ([`score`]: time is the signal), and moves the player's and the puzzle's learned
//! ratings together ([`glicko`], Glicko-2 a game at a time). A puzzle no one has played has its
//! prior from its `difficulty` percentile ([`prior`]); a new player starts at [`newcomer`].
//! Matched draws look among the puzzles rated near a player, in windows that widen
//! ([`windows`]). The store keeps the ratings (`store::play`, and a fleet's PostgreSQL
//! history), `crate::results` counts an app's log of games; the simulator (`simulate`, with the `dev` feature)
//! measures how well they learn. Plain values and arithmetic: this module imports neither
//! the store nor the bank.
//!
//! # The time model
//!
//! A player of rating `r_p` solves a puzzle of rating `r_q` in a time `t` with
//! `ln t = ln PAR + WIDTH * (r_q - r_p) / 173.7 + noise`: a player as strong as the puzzle
//! takes the par time (ten minutes) half of the time, and every 173.7 points (one Glicko-2
//! unit) between them make it `e^WIDTH` (1.65) times faster or slower. A game's score is the
//! logistic of how far its time beat the par: `1 / (1 + e^((ln t - ln PAR) / WIDTH))`, 0.5 at
//! the par, 0.90 at a third of it, 0.10 at three times it; so a player's expected score
//! against a puzzle is Glicko-2's. A hint counts as half as much time again (`t * 1.5`), a
//! mistake as a tenth more; a puzzle not solved scores 0 (a loss), unless it was left within
//! [`MIN_PLAYED`] seconds (a glance, which teaches nothing and is kept unrated).

pub mod glicko;
#[cfg(feature = "dev")]
pub mod simulate;

pub use glicko::Glicko;

use serde::Serialize;

/// The par time in seconds: what a player as strong as a puzzle takes on it, half of the time.
pub const PAR: f64 = 600.0;

/// Log-seconds per Glicko-2 unit: how much faster a stronger player is ([`score`]).
pub const WIDTH: f64 = 0.5;

/// What a hint counts as: the time times this.
const HINT: f64 = 1.5;

/// What a mistake counts as: the time times this.
const MISTAKE: f64 = 1.1;

/// A game left unsolved sooner than this many seconds is kept but rated by nothing.
pub const MIN_PLAYED: f64 = 30.0;

/// The fewest seconds a solve can take: a whole grid filled faster than this is not a human's.
pub const MIN_SOLVE: f64 = 10.0;

/// The most seconds a game may report (a week).
pub const MAX_SECONDS: f64 = 7.0 * 86_400.0;

/// The most hints or mistakes a game may report.
pub const MAX_COUNT: u32 = 1_000;

/// The lowest deviation a rating keeps, so that it still learns (lichess keeps puzzles' so).
pub const MIN_DEVIATION: f64 = 45.0;

/// A new player's rating.
pub fn newcomer() -> Glicko {
    Glicko {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    }
}

/// Rating points per unit of the logit of a puzzle's percentile, for its prior: the bank's
/// easiest half-percent at 1500 - 662, its hardest at 1500 + 662.
const PRIOR_SPREAD: f64 = 125.0;

/// The deviation of a prior: the bank's rating places a puzzle, not exactly.
pub const PRIOR_DEVIATION: f64 = 200.0;

/// The percentiles a prior is clamped to (the logit's ends).
const PRIOR_ENDS: (f64, f64) = (0.5, 99.5);

/// The prior rating of a puzzle no one has played, from its `difficulty` percentile against
/// the bank's reference (the common scale of every bank measured against one reference): the
/// middle of the bank at 1500, the logit of the percentile spread by 125 points.
pub fn prior(percentile: f64) -> Glicko {
    let p = percentile.clamp(PRIOR_ENDS.0, PRIOR_ENDS.1) / 100.0;
    Glicko {
        rating: 1500.0 + PRIOR_SPREAD * (p / (1.0 - p)).ln(),
        deviation: PRIOR_DEVIATION,
        volatility: 0.06,
    }
}

/// The percentile whose prior is `rating` (the inverse of [`prior`]), 0 or 100 past its ends.
pub fn prior_percentile(rating: f64) -> f64 {
    let p = 100.0 / (1.0 + (-(rating - 1500.0) / PRIOR_SPREAD).exp());
    if p <= PRIOR_ENDS.0 {
        0.0
    } else if p >= PRIOR_ENDS.1 {
        100.0
    } else {
        p
    }
}

/// A game's score against the par time (the module's time model); `None` for a game left
/// within [`MIN_PLAYED`] seconds, which rates nothing.
pub fn score(game: &Game) -> Option<f64> {
    if !game.solved {
        return (game.seconds >= MIN_PLAYED).then_some(0.0);
    }
    let x = game.seconds.max(1.0).ln()
        + f64::from(game.hints) * HINT.ln()
        + f64::from(game.mistakes) * MISTAKE.ln();
    Some(1.0 / (1.0 + ((x - PAR.ln()) / WIDTH).exp()))
}

/// A player and a puzzle after a game the player scored `score` in: each updated from both
/// ratings before it, each deviation kept at [`MIN_DEVIATION`] or more.
pub fn rate(player: &Glicko, puzzle: &Glicko, score: f64) -> (Glicko, Glicko) {
    let floor = |g: Glicko| Glicko {
        deviation: g.deviation.max(MIN_DEVIATION),
        ..g
    };
    (
        floor(glicko::update(player, puzzle, score)),
        floor(glicko::update(puzzle, player, 1.0 - score)),
    )
}

/// The half-widths, in rating points, of the windows a matched draw looks in, one after the
/// other while each has nothing left for the player (lichess widens its so); past the last,
/// any puzzle.
pub const WINDOWS: [f64; 5] = [100.0, 200.0, 400.0, 800.0, 1600.0];

/// The windows `[low, high]` of rating a matched draw for a player rated `rating` looks in.
pub fn windows(rating: f64) -> impl Iterator<Item = (f64, f64)> {
    WINDOWS.into_iter().map(move |w| (rating - w, rating + w))
}

/// One game as a player reports it: the route's body and a line of `results import`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// The app's id of the user: 1 to 64 characters among letters, digits and `-_.:@`.
    pub user: String,
    /// The puzzle's id in the bank.
    pub puzzle: i64,
    /// Whether the user solved it (false: abandoned).
    pub solved: bool,
    /// The seconds the user played it.
    pub seconds: f64,
    /// The hints the user took.
    #[serde(default)]
    pub hints: u32,
    /// The mistakes the user made.
    #[serde(default)]
    pub mistakes: u32,
}

/// Why a game is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The user id is not one.
    #[error("bad user id {0:?}: 1 to 64 characters among letters, digits and - _ . : @")]
    User(String),
    /// The time is not a time a game takes.
    #[error("{0}")]
    Seconds(String),
    /// Too many hints or mistakes.
    #[error("{what} {n}: at most {MAX_COUNT}")]
    Count {
        /// `hints` or `mistakes`.
        what: &'static str,
        /// How many were given.
        n: u32,
    },
    /// The puzzle id is not one.
    #[error("bad puzzle id {0}: a bank's ids are 1 and up")]
    Puzzle(i64),
}

/// Whether `user` is a user id: 1 to 64 characters among letters, digits and `-_.:@`.
pub fn is_user_id(user: &str) -> bool {
    !user.is_empty()
        && user.len() <= 64
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:@".contains(c))
}

impl Game {
    /// Checks what can be checked without the bank: the user id, the puzzle id, a time a game
    /// takes (a solve of [`MIN_SOLVE`] seconds or more, no game over [`MAX_SECONDS`]), and
    /// hints and mistakes within [`MAX_COUNT`].
    pub fn check(&self) -> Result<(), GameError> {
        if !is_user_id(&self.user) {
            return Err(GameError::User(self.user.clone()));
        }
        if self.puzzle < 1 {
            return Err(GameError::Puzzle(self.puzzle));
        }
        let s = self.seconds;
        if !s.is_finite() || s < 0.0 {
            return Err(GameError::Seconds(format!(
                "seconds {s}: a time is 0 or more"
            )));
        }
        if s > MAX_SECONDS {
            return Err(GameError::Seconds(format!(
                "seconds {s}: more than a week ({MAX_SECONDS}) is no game's time"
            )));
        }
        if self.solved && s < MIN_SOLVE {
            return Err(GameError::Seconds(format!(
                "seconds {s}: no one solves a puzzle in under {MIN_SOLVE} seconds"
            )));
        }
        for (what, n) in [("hints", self.hints), ("mistakes", self.mistakes)] {
            if n > MAX_COUNT {
                return Err(GameError::Count { what, n });
            }
        }
        Ok(())
    }
}

/// A learned rating as it is shown: the rating, its deviation, and the games it learned from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Learned {
    /// The rating (1500 the middle; a player and a puzzle of one rating: the par time).
    pub rating: f64,
    /// Its deviation (the true rating lies within about two of it).
    pub deviation: f64,
    /// The games it learned from (0: a puzzle's prior, from its `difficulty`).
    pub results: u64,
}

impl Learned {
    /// The view of a rating learned from `results` games, rounded to tenths.
    pub fn of(g: &Glicko, results: u64) -> Learned {
        Learned {
            rating: (g.rating * 10.0).round() / 10.0,
            deviation: (g.deviation * 10.0).round() / 10.0,
            results,
        }
    }
}

/// A rating as stored: the value and the games it learned from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// The rating.
    pub glicko: Glicko,
    /// The games it learned from.
    pub results: u64,
}

impl Rated {
    /// A rating no game has taught yet: a puzzle's prior, a newcomer's start.
    pub fn fresh(glicko: Glicko) -> Rated {
        Rated { glicko, results: 0 }
    }

    /// Its view, rounded to tenths.
    pub fn view(&self) -> Learned {
        Learned::of(&self.glicko, self.results)
    }
}

/// What a counted game did: its score and both ratings after it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Counted {
    /// The game's score against the par (null: a glance, rated by nothing).
    pub score: Option<f64>,
    /// The player's rating after it.
    pub player: Learned,
    /// The puzzle's rating after it.
    pub puzzle: Learned,
}

impl Counted {
    /// What a game did, as shown: its score (to thousandths) and both ratings after it.
    pub fn of(score: Option<f64>, player: &Rated, puzzle: &Rated) -> Counted {
        Counted {
            score: score.map(|s| (s * 1000.0).round() / 1000.0),
            player: player.view(),
            puzzle: puzzle.view(),
        }
    }
}

/// A game counted against the ratings before it: the score, and both ratings after.
pub fn count(game: &Game, player: Option<Rated>, puzzle: Rated) -> (Option<f64>, Rated, Rated) {
    let player = player.unwrap_or(Rated::fresh(newcomer()));
    match score(game) {
        None => (None, player, puzzle),
        Some(s) => {
            let (p, q) = rate(&player.glicko, &puzzle.glicko, s);
            (
                Some(s),
                Rated {
                    glicko: p,
                    results: player.results + 1,
                },
                Rated {
                    glicko: q,
                    results: puzzle.results + 1,
                },
            )
        }
    }
}

/// Why a game was not counted, though well formed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refused {
    /// The bank has no such puzzle.
    #[error("no puzzle with id {0}")]
    NoPuzzle(i64),
    /// The user was never handed the puzzle.
    #[error("user {user} was not handed puzzle {puzzle}: a result is counted only for a puzzle the user was given")]
    NotGiven {
        /// The user.
        user: String,
        /// The puzzle.
        puzzle: i64,
    },
    /// The user's result for this puzzle was counted already.
    #[error("user {user}'s result for puzzle {puzzle} was counted already: one result per puzzle handed out")]
    Again {
        /// The user.
        user: String,
        /// The puzzle.
        puzzle: i64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(solved: bool, seconds: f64) -> Game {
        Game {
            user: "u".into(),
            puzzle: 1,
            solved,
            seconds,
            hints: 0,
            mistakes: 0,
        }
    }

    #[test]
    fn the_par_scores_a_half_and_faster_scores_more() {
        assert!((score(&game(true, PAR)).unwrap() - 0.5).abs() < 1e-12);
        let third = score(&game(true, PAR / 3.0)).unwrap();
        assert!((third - 1.0 / (1.0 + (-(3f64.ln()) / WIDTH).exp())).abs() < 1e-12);
        assert!(score(&game(true, 60.0)).unwrap() > score(&game(true, 61.0)).unwrap());
        assert_eq!(score(&game(false, 900.0)), Some(0.0));
        assert_eq!(score(&game(false, 5.0)), None);
        let hinted = Game {
            hints: 1,
            ..game(true, 400.0)
        };
        assert!((score(&hinted).unwrap() - score(&game(true, 600.0)).unwrap()).abs() < 1e-12);
    }

    #[test]
    fn the_prior_and_its_inverse_agree() {
        assert_eq!(prior(50.0).rating, 1500.0);
        for p in [1.0, 10.0, 33.3, 50.0, 71.0, 99.0] {
            assert!((prior_percentile(prior(p).rating) - p).abs() < 1e-9, "{p}");
        }
        assert!(prior(0.0).rating == prior(0.5).rating && prior(99.9).rating == prior(99.5).rating);
        assert_eq!(prior_percentile(prior(0.0).rating - 1.0), 0.0);
        assert_eq!(prior_percentile(prior(100.0).rating + 1.0), 100.0);
        let mut last = f64::NEG_INFINITY;
        for p in 0..=100 {
            let r = prior(f64::from(p)).rating;
            assert!(r >= last);
            last = r;
        }
    }

    #[test]
    fn games_out_of_reason_are_refused() {
        assert!(game(true, 300.0).check().is_ok());
        assert!(game(false, 0.0).check().is_ok());
        for bad in [
            game(true, 3.0),
            game(true, -1.0),
            game(true, f64::NAN),
            game(true, 8.0 * 86_400.0),
            Game {
                user: String::new(),
                ..game(true, 300.0)
            },
            Game {
                user: "a b".into(),
                ..game(true, 300.0)
            },
            Game {
                puzzle: 0,
                ..game(true, 300.0)
            },
            Game {
                hints: 5_000,
                ..game(true, 300.0)
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_fast_solve_moves_the_player_up_and_the_puzzle_down() {
        let puzzle = Rated {
            glicko: prior(50.0),
            results: 0,
        };
        let (s, p, q) = count(&game(true, 120.0), None, puzzle);
        assert!(s.unwrap() > 0.9);
        assert!(p.glicko.rating > 1500.0 && q.glicko.rating < 1500.0);
        assert_eq!((p.results, q.results), (1, 1));
        let (s, p2, q2) = count(&game(false, 5.0), Some(p), q);
        assert_eq!((s, p2, q2), (None, p, q));
    }
}
