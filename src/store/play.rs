//! Play in the bank: players' results, counted once per delivery, and the learned ratings of
//! players and puzzles they move ([`crate::play`]), written in the result's transaction: a new
//! player's games held, and settled (`settled`) by the game that makes their record. A puzzle
//! without a rating row has its prior (from its `difficulty` percentile), which the caller
//! gives.

use super::history;
use super::puzzles::column;
use super::retrieval::{first_row, row_columns, Measure, PuzzleRow};
use super::Result;
use crate::canon::Key;
use crate::play::{self, Counted, DayMoves, Game, Glicko, PuzzleRated, Rated, Refused};
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// Whether a result must follow a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivered {
    /// The user must have been handed the puzzle (the route: an app's player).
    Required,
    /// The result says it was: the delivery is recorded with it, if it was not (an app's log,
    /// `results import`, whose puzzles may have been handed out by other means).
    Recorded,
}

/// Counts `game` (its puzzle of class `key`, with `prior` if it has no rating yet): refused
/// when the user was not handed the puzzle (with [`Delivered::Required`]) or has a result for
/// it; else the result is stored and both ratings moved. The caller holds a write
/// transaction.
pub fn count(
    bank: &Bank,
    game: &Game,
    key: &Key,
    prior: Glicko,
    delivered: Delivered,
) -> Result<std::result::Result<Counted, Refused>> {
    let conn = &bank.conn;
    match delivered {
        Delivered::Required if !history::given(bank, &game.user, key)? => {
            return Ok(Err(Refused::NotGiven {
                user: game.user.clone(),
                puzzle: game.puzzle,
            }))
        }
        Delivered::Required => {}
        Delivered::Recorded => {
            history::record(bank, &game.user, key, game.puzzle)?;
        }
    }
    let again = conn
        .prepare_cached("SELECT 1 FROM results WHERE user = ?1 AND canon_key = ?2")?
        .query_row(params![game.user, &key.0[..]], |_| Ok(()))
        .optional()?
        .is_some();
    if again {
        return Ok(Err(Refused::Again {
            user: game.user.clone(),
            puzzle: game.puzzle,
        }));
    }
    let before = puzzle_rated(bank, game.puzzle)?.unwrap_or(PuzzleRated::fresh(prior));
    let outcome = play::count(game, player(bank, &game.user)?, before);
    let (p, q) = (outcome.player, outcome.puzzle);
    if outcome.score.is_some() {
        conn.prepare_cached(
            "INSERT OR REPLACE INTO player_ratings (user, rating, deviation, volatility, results) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            game.user,
            p.glicko.rating,
            p.glicko.deviation,
            p.glicko.volatility,
            p.results as i64
        ])?;
    }
    if q != before {
        write_puzzle(bank, game.puzzle, &q)?;
    }
    conn.prepare_cached(
        "INSERT INTO results (user, canon_key, puzzle_id, solved, seconds, hints, mistakes, \
         score, held, player_rating, puzzle_rating) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        game.user,
        &key.0[..],
        game.puzzle,
        game.solved,
        game.seconds,
        game.hints,
        game.mistakes,
        outcome.score,
        outcome.score.map(|_| outcome.held),
        p.glicko.rating,
        q.rated.glicko.rating
    ])?;
    let mut shown = q.rated;
    if outcome.settles {
        let by = conn.last_insert_rowid();
        for (id, after) in settle_held(bank, &game.user, &p, by)? {
            if id == game.puzzle {
                shown = after;
            }
        }
    }
    Ok(Ok(Counted::of(&outcome, &shown)))
}

/// The held games of `user`, who now has a record (`player`) since the result `by`, taught to
/// their puzzles in the order they were played ([`play::settle`]): each recorded in
/// `settled`, its puzzle's rating written; the puzzles taught and their ratings after.
fn settle_held(
    bank: &Bank,
    user: &str,
    player: &Rated,
    by: i64,
) -> Result<Vec<(i64, Rated)>> {
    let conn = &bank.conn;
    let held: Vec<(i64, i64, f64, f64)> = conn
        .prepare_cached(
            "SELECT seq, puzzle_id, score, puzzle_rating FROM results WHERE user = ?1 \
             AND held = 1 AND seq NOT IN (SELECT result_seq FROM settled) ORDER BY seq",
        )?
        .query_map([user], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let day = play::day_of(std::time::SystemTime::now());
    let mut taught = Vec::with_capacity(held.len());
    for (seq, id, score, then) in held {
        // A puzzle no game taught yet: its prior, as the held game recorded it.
        let before = puzzle_rated(bank, id)?.unwrap_or(PuzzleRated::fresh(play::prior_at(then)));
        let (share, after) = play::settle(&play::Trust::DEFAULT, player, before, score, day);
        if after != before {
            write_puzzle(bank, id, &after)?;
        }
        conn.prepare_cached(
            "INSERT INTO settled (result_seq, by_seq, puzzle_id, share, puzzle_rating) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![seq, by, id, share, after.rated.glicko.rating])?;
        taught.push((id, after.rated));
    }
    Ok(taught)
}

/// Writes a puzzle's learned rating (what games taught it).
fn write_puzzle(bank: &Bank, id: i64, q: &PuzzleRated) -> Result<()> {
    let conn = &bank.conn;
    conn.prepare_cached(
        "INSERT OR REPLACE INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, \
         results, held_day, held_moved) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        id,
        q.rated.glicko.rating,
        q.rated.glicko.deviation,
        q.rated.glicko.volatility,
        q.rated.results as i64,
        q.moves.day,
        q.moves.moved
    ])?;
    Ok(())
}

/// A stored rating's columns (rating, deviation, volatility, results) from column 0.
fn rated(r: &rusqlite::Row) -> rusqlite::Result<Rated> {
    Ok(Rated {
        glicko: Glicko {
            rating: r.get(0)?,
            deviation: r.get(1)?,
            volatility: r.get(2)?,
        },
        results: r.get::<_, i64>(3)? as u64,
    })
}

/// A player's learned rating, if any result of theirs was rated.
pub fn player(bank: &Bank, user: &str) -> Result<Option<Rated>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, results FROM player_ratings WHERE user = ?1",
        )?
        .query_row([user], rated)
        .optional()?)
}

/// A puzzle's learned rating, if a result taught it.
pub fn puzzle(bank: &Bank, id: i64) -> Result<Option<Rated>> {
    Ok(puzzle_rated(bank, id)?.map(|q| q.rated))
}

/// A puzzle's learned rating with new players' moves of its last day of them, if a result
/// taught it.
fn puzzle_rated(bank: &Bank, id: i64) -> Result<Option<PuzzleRated>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, results, held_day, held_moved \
             FROM puzzle_ratings WHERE puzzle_id = ?1",
        )?
        .query_row([id], |r| {
            Ok(PuzzleRated {
                rated: rated(r)?,
                moves: DayMoves {
                    day: r.get(4)?,
                    moved: r.get(5)?,
                },
            })
        })
        .optional()?)
}

/// One of a player's games, as their history shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct PlayedGame {
    /// The puzzle's id.
    pub puzzle: i64,
    /// Whether it was solved.
    pub solved: bool,
    /// The seconds it took.
    pub seconds: f64,
    /// Hints taken.
    pub hints: u32,
    /// Mistakes made.
    pub mistakes: u32,
    /// Its score against the par time (null: a glance, unrated).
    pub score: Option<f64>,
    /// The player's rating after it.
    pub rating: f64,
    /// When it was counted, `YYYY-MM-DDTHH:MM:SS.SSSZ` (UTC).
    pub at: String,
}

/// The columns `puzzle_id, solved, seconds, hints, mistakes, score, player_rating, at` of a
/// result as the game a player's history shows.
fn played(r: &rusqlite::Row) -> rusqlite::Result<PlayedGame> {
    Ok(PlayedGame {
        puzzle: r.get(0)?,
        solved: r.get(1)?,
        seconds: r.get(2)?,
        hints: r.get(3)?,
        mistakes: r.get(4)?,
        score: r.get::<_, Option<f64>>(5)?.map(|x| (x * 1000.0).round() / 1000.0),
        rating: (r.get::<_, f64>(6)? * 10.0).round() / 10.0,
        at: r.get(7)?,
    })
}

/// A player's last `limit` games, the latest first, and how many they have had.
pub fn games(bank: &Bank, user: &str, limit: usize) -> Result<(Vec<PlayedGame>, u64)> {
    let conn = &bank.conn;
    let rows = conn
        .prepare_cached(
            "SELECT puzzle_id, solved, seconds, hints, mistakes, score, player_rating, at \
             FROM results WHERE user = ?1 ORDER BY seq DESC LIMIT ?2",
        )?
        .query_map(params![user, limit as i64], played)?
        .collect::<rusqlite::Result<_>>()?;
    let n: i64 = conn
        .prepare_cached("SELECT count(*) FROM results WHERE user = ?1")?
        .query_row([user], |r| r.get(0))?;
    Ok((rows, n as u64))
}

/// `user`'s game of each class of `keys` they have a result for (a result is counted once
/// per user and class), with the class.
pub fn games_of(bank: &Bank, user: &str, keys: &[Key]) -> Result<Vec<(Key, PlayedGame)>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "SELECT puzzle_id, solved, seconds, hints, mistakes, score, player_rating, at \
         FROM results WHERE user = ?1 AND canon_key = ?2",
    )?;
    let mut out = Vec::new();
    for key in keys {
        let game = stmt
            .query_row(params![user, &key.0[..]], played)
            .optional()?;
        out.extend(game.map(|g| (*key, g)));
    }
    Ok(out)
}

/// The played puzzles whose learned rating lies in `[low, high]`, up to `cap` of them counted
/// (a count costs what it counts: a matched draw weighs the played puzzles of its window by
/// at most `cap`).
pub fn rated_in(bank: &Bank, (low, high): (f64, f64), cap: u64) -> Result<u64> {
    let conn = &bank.conn;
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM puzzle_ratings \
             WHERE rating >= ?1 AND rating <= ?2 LIMIT ?3)",
        )?
        .query_row(params![low, high, cap as i64], |r| r.get(0))?;
    Ok(n as u64)
}

/// The played puzzle whose learned rating is the first at or above `at` in `[low, high]`
/// (the first of the window past its end): one seek of the rating index, for a draw about
/// uniform among the window's played puzzles when `at` is.
pub fn rated_at(bank: &Bank, (low, high): (f64, f64), at: f64) -> Result<Option<i64>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "SELECT puzzle_id FROM puzzle_ratings WHERE rating >= ?1 AND rating <= ?2 \
         ORDER BY rating LIMIT 1",
    )?;
    if let Some(id) = stmt.query_row(params![at, high], |r| r.get(0)).optional()? {
        return Ok(Some(id));
    }
    Ok(stmt.query_row(params![low, high], |r| r.get(0)).optional()?)
}

/// The puzzle whose stored value of the bank's rating is the first at or above `(value, id)`
/// (the value in stored units, ties in id order) among the values `[low, high)`, the first of
/// the range past its end: one seek of the rating index, for a draw about uniform among the
/// range when `value` and `id` are. Any puzzle, given to anyone or not.
pub fn seek(
    bank: &Bank,
    measure: Measure,
    (low, high): (i64, i64),
    (value, id): (i64, i64),
) -> Result<Option<PuzzleRow>> {
    let conn = &bank.conn;
    let col = column(measure.rating);
    let sql = format!(
        "SELECT {} FROM puzzles p WHERE (p.{col}, p.id) >= (?1, ?2) AND p.{col} < ?3 \
         ORDER BY p.{col}, p.id LIMIT 1",
        row_columns(measure.rating)
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    for from in [(value, id), (low, i64::MIN)] {
        let found = first_row(
            &mut stmt.query(params![from.0, from.1, high])?,
            measure.rating,
        )?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The played puzzle not taken by `user` (given to them, or a daily puzzle) whose learned
/// rating is the first at or above `at` in `[low, high]`, the first of the window past its
/// end: the exact walk a matched draw falls back on when its seeks keep finding taken ones.
pub fn untaken_rated_at(
    bank: &Bank,
    (low, high): (f64, f64),
    user: &str,
    at: f64,
) -> Result<Option<i64>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT r.puzzle_id FROM puzzle_ratings r JOIN puzzles p ON p.id = r.puzzle_id \
         WHERE r.rating >= ?1 AND r.rating <= ?2 AND {} ORDER BY r.rating LIMIT 1",
        history::untaken(3)
    ))?;
    for from in [at, low] {
        if let Some(id) = stmt.query_row(params![from, high, user], |r| r.get(0)).optional()? {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// The puzzle not taken by `user` whose stored value of the bank's rating is the first at or
/// above `(value, id)` among the values `[low, high)` (the first of the range past its end),
/// and whose learned rating, if it has one, lies in `window`: [`seek`] restricted to what a
/// matched draw may hand `user`, which walks past the taken puzzles instead of landing on them.
pub fn untaken_seek(
    bank: &Bank,
    measure: Measure,
    (low, high): (i64, i64),
    (value, id): (i64, i64),
    user: &str,
    window: (f64, f64),
) -> Result<Option<PuzzleRow>> {
    let conn = &bank.conn;
    let col = column(measure.rating);
    let sql = format!(
        "SELECT {} FROM puzzles p WHERE (p.{col}, p.id) >= (?1, ?2) AND p.{col} < ?3 AND {} \
         AND NOT EXISTS (SELECT 1 FROM puzzle_ratings r WHERE r.puzzle_id = p.id \
                         AND (r.rating < ?5 OR r.rating > ?6)) \
         ORDER BY p.{col}, p.id LIMIT 1",
        row_columns(measure.rating),
        history::untaken(4)
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    for from in [(value, id), (low, i64::MIN)] {
        let found = first_row(
            &mut stmt.query(params![from.0, from.1, high, user, window.0, window.1])?,
            measure.rating,
        )?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The learned ratings of the puzzles among `ids` that have one.
pub fn ratings_of(bank: &Bank, ids: &[i64]) -> Result<Vec<(i64, f64)>> {
    let conn = &bank.conn;
    let mut stmt =
        conn.prepare_cached("SELECT rating FROM puzzle_ratings WHERE puzzle_id = ?1")?;
    let mut found = Vec::new();
    for &id in ids {
        if let Some(r) = stmt.query_row([id], |r| r.get(0)).optional()? {
            found.push((id, r));
        }
    }
    Ok(found)
}

/// The puzzles rated by `min_results` results or more: id, learned rating, results.
pub fn learned_puzzles(bank: &Bank, min_results: u64) -> Result<Vec<(i64, Rated)>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare(
            "SELECT rating, deviation, volatility, results, puzzle_id FROM puzzle_ratings \
             WHERE results >= ?1 ORDER BY puzzle_id",
        )?
        .query_map([i64::try_from(min_results).unwrap_or(i64::MAX)], |r| Ok((r.get(4)?, rated(r)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// What the bank learned from play, as `stats` reports it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PlaySummary {
    /// Results counted.
    pub results: u64,
    /// Of those, solved.
    pub solved: u64,
    /// Players with a learned rating.
    pub players: u64,
    /// Puzzles with a learned rating.
    pub puzzles: u64,
    /// The median seconds of the solved results (null without one).
    pub median_seconds: Option<f64>,
    /// The learned puzzles' mean rating and deviation (null without one).
    pub puzzle_rating: Option<(f64, f64)>,
    /// The players' mean rating and deviation (null without one).
    pub player_rating: Option<(f64, f64)>,
    /// Per level (index, 0 the easiest) of the learned puzzles: how many, their mean learned
    /// rating and mean results.
    pub per_level: Vec<(u32, u64, f64, f64)>,
}

/// What the bank learned from play.
pub fn summary(bank: &Bank) -> Result<PlaySummary> {
    let conn = &bank.conn;
    let (results, solved): (i64, i64) = conn.query_row(
        "SELECT count(*), coalesce(sum(solved), 0) FROM results",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mean = |table: &str| -> Result<(u64, Option<(f64, f64)>)> {
        Ok(conn.query_row(
            &format!("SELECT count(*), avg(rating), avg(deviation) FROM {table}"),
            [],
            |r| {
                let n: i64 = r.get(0)?;
                let m: Option<f64> = r.get(1)?;
                let d: Option<f64> = r.get(2)?;
                Ok((n as u64, m.zip(d)))
            },
        )?)
    };
    let (players, player_rating) = mean("player_ratings")?;
    let (puzzles, puzzle_rating) = mean("puzzle_ratings")?;
    let median_seconds = if solved > 0 {
        conn.query_row(
            "SELECT seconds FROM results WHERE solved = 1 ORDER BY seconds LIMIT 1 OFFSET ?1",
            [(solved - 1) / 2],
            |r| r.get(0),
        )
        .optional()?
    } else {
        None
    };
    let per_level = conn
        .prepare(
            "SELECT p.level, count(*), avg(r.rating), avg(r.results) FROM puzzle_ratings r \
             JOIN puzzles p ON p.id = r.puzzle_id WHERE p.level IS NOT NULL \
             GROUP BY p.level ORDER BY p.level",
        )?
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)? as u32,
                r.get::<_, i64>(1)? as u64,
                r.get(2)?,
                r.get(3)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(PlaySummary {
        per_level,
        results: results as u64,
        solved: solved as u64,
        players,
        puzzles,
        median_seconds,
        puzzle_rating,
        player_rating,
    })
}
