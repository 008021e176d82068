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
//!
//! # What a player's game teaches a puzzle
//!
//! A player's game moves the player's rating at once, as a whole game. It teaches the puzzle
//! only once the player has a record ([`Trust`]): a new player's rating is still a guess, and
//! a forged player is always new. The games a player plays before their 10th rated game are
//! held; the game that makes ten teaches the puzzles of every held game ([`settle`]), each as
//! a whole game against the player's rating by then (which knows them better than their first
//! games did), in the order they were played; from then on each game teaches its puzzle at
//! once. A player who never gets a record never moves a puzzle. And the held games move one
//! puzzle by at most 200 rating points (a prior's deviation) in all in a UTC day
//! ([`DayMoves`]): a crowd of players without a record, real or forged, cannot carry a puzzle
//! far (lichess leaves puzzles alone for its clueless players alike).

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

/// Where on the common scale a new player is taken to start, as a puzzle's percentile: the
/// easiest twentieth, which every bank's easiest level holds. Their first matched draws come
/// from there, and the rating climbs as they win (with a newcomer's deviation, quickly).
pub const NEWCOMER_PERCENTILE: f64 = 5.0;

/// A new player's rating: the prior of a puzzle at [`NEWCOMER_PERCENTILE`] (about 1132),
/// deviation 350.
pub fn newcomer() -> Glicko {
    Glicko {
        rating: prior(NEWCOMER_PERCENTILE).rating,
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
    prior_at(1500.0 + PRIOR_SPREAD * (p / (1.0 - p)).ln())
}

/// The prior whose rating is `rating` (a prior's deviation and volatility): a puzzle's prior
/// as a held game recorded it.
pub fn prior_at(rating: f64) -> Glicko {
    Glicko {
        rating,
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

/// A player and a puzzle after a game the player scored `score` in, the game counting whole
/// for both: each updated from both ratings before it, each deviation kept at
/// [`MIN_DEVIATION`] or more.
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

/// When a player's game teaches its puzzle, and how far games of players without a record
/// may move one puzzle in a day ([`Trust::DEFAULT`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trust {
    /// The rated games that make a player's record: the games before are held, and taught to
    /// their puzzles when the player has this many ([`settle`]).
    pub record_games: u64,
    /// The most, in rating points, that held games move one puzzle's rating in all in one UTC
    /// day.
    pub daily_move: f64,
}

impl Trust {
    /// The bank's: a player's first 9 rated games are held until the 10th; held games move
    /// one puzzle by at most one prior's deviation (200 points) a day.
    pub const DEFAULT: Trust = Trust {
        record_games: 10,
        daily_move: PRIOR_DEVIATION,
    };

    /// Every game taught at once, whole, no bound: the model before new players' games were
    /// held (the simulator's comparison).
    pub const EVERY_GAME: Trust = Trust {
        record_games: 0,
        daily_move: f64::INFINITY,
    };

    /// Whether a player with `played` rated games has a record: their next game teaches its
    /// puzzle at once.
    pub fn has_record(&self, played: u64) -> bool {
        played >= self.record_games
    }
}

/// A rating `share` of the way from `before` to `after` (each of its three numbers): a game
/// counted for that share of a game.
fn partway(before: &Glicko, after: &Glicko, share: f64) -> Glicko {
    let mix = |a: f64, b: f64| a + share * (b - a);
    Glicko {
        rating: mix(before.rating, after.rating),
        deviation: mix(before.deviation, after.deviation),
        volatility: mix(before.volatility, after.volatility),
    }
}

/// What held games moved a puzzle's rating by, in rating points, on its last day of such
/// moves (days since 1970-01-01 in UTC); a new day starts from nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DayMoves {
    /// The day.
    pub day: i64,
    /// The rating points moved that day.
    pub moved: f64,
}

impl DayMoves {
    /// The rating points held games may still move the puzzle by on `day`, of `bound` a day.
    pub fn left(&self, day: i64, bound: f64) -> f64 {
        if self.day == day {
            (bound - self.moved).max(0.0)
        } else {
            bound
        }
    }
}

/// The day of `at` (days since 1970-01-01 in UTC), as [`DayMoves`] counts them.
pub fn day_of(at: std::time::SystemTime) -> i64 {
    let secs = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (secs / 86_400) as i64
}

/// A puzzle's learned rating as stored: its rating, and what held games moved it by on its
/// last day of such moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRated {
    /// The rating and the games that taught it.
    pub rated: Rated,
    /// Held games' moves of their last day.
    pub moves: DayMoves,
}

impl PuzzleRated {
    /// A puzzle no game has taught yet: its prior.
    pub fn fresh(prior: Glicko) -> PuzzleRated {
        PuzzleRated {
            rated: Rated::fresh(prior),
            moves: DayMoves::default(),
        }
    }
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
    /// Whether it is held: the player has no record yet (fewer than 10 rated games), so it
    /// teaches the puzzle when they have one (absent for a glance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<bool>,
    /// The player's rating after it.
    pub player: Learned,
    /// The puzzle's rating after it (and after the held games it made the player's record
    /// teach).
    pub puzzle: Learned,
}

impl Counted {
    /// What a game did, as shown: its score (to thousandths), whether it is held, and both
    /// ratings after it (the puzzle's as `puzzle`, after whatever settled with it).
    pub fn of(outcome: &Outcome, puzzle: &Rated) -> Counted {
        Counted {
            score: outcome.score.map(|s| (s * 1000.0).round() / 1000.0),
            held: outcome.score.map(|_| outcome.held),
            player: outcome.player.view(),
            puzzle: puzzle.view(),
        }
    }
}

/// A game counted: its score, whether it is held, both ratings after it, and whether it made
/// the player's record (the player's held games are then to be [`settle`]d).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The score against the par (`None`: a glance, which rates nothing).
    pub score: Option<f64>,
    /// Held: it teaches its puzzle when the player has a record (false for a glance).
    pub held: bool,
    /// The player after it.
    pub player: Rated,
    /// The puzzle after it (as before when held).
    pub puzzle: PuzzleRated,
    /// It made the player's record: every held game of theirs, this one included, now
    /// teaches its puzzle.
    pub settles: bool,
}

/// A game counted against the ratings before it (a player's `None`: a newcomer), as the bank
/// counts it ([`Trust::DEFAULT`]).
pub fn count(game: &Game, player: Option<Rated>, puzzle: PuzzleRated) -> Outcome {
    count_trusting(&Trust::DEFAULT, game, player, puzzle)
}

/// [`count`] under `trust`: the player moved as by a whole game; the puzzle as by a whole
/// game if the player had a record, else the game held. A puzzle's results count the games
/// that taught it.
pub fn count_trusting(
    trust: &Trust,
    game: &Game,
    player: Option<Rated>,
    puzzle: PuzzleRated,
) -> Outcome {
    let player = player.unwrap_or(Rated::fresh(newcomer()));
    let Some(s) = score(game) else {
        return Outcome {
            score: None,
            held: false,
            player,
            puzzle,
            settles: false,
        };
    };
    let (p, whole) = rate(&player.glicko, &puzzle.rated.glicko, s);
    let after = Rated {
        glicko: p,
        results: player.results + 1,
    };
    let held = !trust.has_record(player.results);
    Outcome {
        score: Some(s),
        held,
        player: after,
        puzzle: if held {
            puzzle
        } else {
            PuzzleRated {
                rated: Rated {
                    glicko: whole,
                    results: puzzle.rated.results + 1,
                },
                moves: puzzle.moves,
            }
        },
        settles: held && trust.has_record(after.results),
    }
}

/// A held game of a player who now has a record (`player`, their rating now) taught to its
/// puzzle on `day`: the puzzle moved as by a whole game of score `score` against the player's
/// rating now, cut so that held games move it by at most [`Trust::daily_move`] in the day.
/// The share of a game it taught (less than 1 where the bound cut it) and the puzzle after.
pub fn settle(
    trust: &Trust,
    player: &Rated,
    puzzle: PuzzleRated,
    score: f64,
    day: i64,
) -> (f64, PuzzleRated) {
    let before = puzzle.rated.glicko;
    let whole = rate(&player.glicko, &before, score).1;
    let step = (whole.rating - before.rating).abs();
    let left = puzzle.moves.left(day, trust.daily_move);
    let share = if step > left { left / step } else { 1.0 };
    if share <= 0.0 {
        return (0.0, puzzle);
    }
    let moved = if puzzle.moves.day == day {
        puzzle.moves.moved
    } else {
        0.0
    };
    (
        share,
        PuzzleRated {
            rated: Rated {
                glicko: partway(&before, &whole, share),
                results: puzzle.rated.results + 1,
            },
            moves: DayMoves {
                day,
                moved: moved + share * step,
            },
        },
    )
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
    fn a_newcomer_starts_on_the_easiest_twentieth_and_climbs() {
        let start = newcomer();
        assert!((prior_percentile(start.rating) - NEWCOMER_PERCENTILE).abs() < 1e-9);
        assert_eq!(start.deviation, 350.0);
        // Fast solves of puzzles at their own rating lift a newcomer game after game.
        let mut player: Option<Rated> = None;
        let mut last = start.rating;
        for _ in 0..5 {
            let at = player.map_or(start.rating, |p| p.glicko.rating);
            let c = count(&game(true, 120.0), player, PuzzleRated::fresh(prior_at(at)));
            assert!(c.player.glicko.rating > last, "{c:?}");
            last = c.player.glicko.rating;
            player = Some(c.player);
        }
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

    /// A player who has played `n` rated games.
    fn played(n: u64) -> Rated {
        Rated {
            glicko: prior(50.0),
            results: n,
        }
    }

    #[test]
    fn a_fast_solve_moves_the_player_up_and_the_puzzle_down() {
        let puzzle = PuzzleRated::fresh(prior(50.0));
        let c = count(&game(true, 120.0), Some(played(30)), puzzle);
        assert!(c.score.unwrap() > 0.9);
        assert!(c.player.glicko.rating > 1500.0 && c.puzzle.rated.glicko.rating < 1500.0);
        assert_eq!((c.player.results, c.puzzle.rated.results), (31, 1));
        assert!(!c.held && !c.settles);
        // A player with a record: a whole game, as Glicko-2 moves it; no day's bound.
        let whole = rate(&played(30).glicko, &prior(50.0), c.score.unwrap()).1;
        assert_eq!(c.puzzle.rated.glicko, whole);
        assert_eq!(c.puzzle.moves, DayMoves::default());
        // A glance changes nothing.
        let again = count(&game(false, 5.0), Some(c.player), c.puzzle);
        assert_eq!(
            (again.score, again.held, again.player, again.puzzle),
            (None, false, c.player, c.puzzle)
        );
    }

    #[test]
    fn a_new_players_games_are_held_until_their_record() {
        let t = Trust::DEFAULT;
        let puzzle = PuzzleRated::fresh(prior(50.0));
        // A newcomer's first game: the player learns, the puzzle does not (yet).
        let first = count(&game(true, 120.0), None, puzzle);
        assert!(first.player.glicko.rating > newcomer().rating);
        assert!(first.held && !first.settles);
        assert_eq!(first.puzzle, puzzle);
        // The game that makes the record settles the held ones; the next is taught at once.
        let last = count(&game(true, 120.0), Some(played(t.record_games - 1)), puzzle);
        assert!(last.held && last.settles);
        let next = count(&game(true, 120.0), Some(played(t.record_games)), puzzle);
        assert!(!next.held && !next.settles);
        // Settled: a whole game against the player's rating now.
        let player = played(t.record_games);
        let (share, taught) = settle(&t, &player, puzzle, 0.7, 7);
        let whole = rate(&player.glicko, &prior(50.0), 0.7).1;
        assert_eq!((share, taught.rated.glicko), (1.0, whole));
        assert_eq!(taught.rated.results, 1);
        assert_eq!(taught.moves.day, 7);
        assert!((taught.moves.moved - (whole.rating - 1500.0).abs()).abs() < 1e-9);
        // Under EVERY_GAME nothing is held.
        let open = count_trusting(&Trust::EVERY_GAME, &game(true, 120.0), None, puzzle);
        assert!(!open.held && open.puzzle.rated.results == 1);
    }

    #[test]
    fn held_games_move_a_puzzle_at_most_the_days_bound() {
        let t = Trust::DEFAULT;
        let mut puzzle = PuzzleRated::fresh(prior(50.0));
        // Players with a record now, each settling a solve of a few seconds, all day.
        for _ in 0..200 {
            puzzle = settle(&t, &played(t.record_games), puzzle, 1.0, 3).1;
        }
        let moved = 1500.0 - puzzle.rated.glicko.rating;
        assert!(
            moved <= t.daily_move + 1e-9 && moved > t.daily_move - 1.0,
            "{moved}"
        );
        // Once the bound is spent the day's next one teaches nothing.
        let (share, spent) = settle(&t, &played(t.record_games), puzzle, 1.0, 3);
        assert_eq!((share, spent), (0.0, puzzle));
        // The next day, the bound anew; a player with a record is not bound by it.
        let (_, next) = settle(&t, &played(t.record_games), puzzle, 1.0, 4);
        assert!(next.rated.glicko.rating < puzzle.rated.glicko.rating);
        assert!(next.moves.moved <= t.daily_move + 1e-9);
        let old = count(&game(true, 10.0), Some(played(40)), puzzle);
        assert!(old.puzzle.rated.glicko.rating < puzzle.rated.glicko.rating);
        assert_eq!(old.puzzle.moves, puzzle.moves);
    }
}
