//! Play in a fleet's history: the operations of the bank's own ([`crate::store::play`]) under
//! the same names and rules, so that one sequence of results teaches a bank and a fleet the
//! same ratings. A result's transaction locks the player's row, then the puzzle's (always in
//! that order: no two results wait on each other in a circle).

use super::{Postgres, Result};
use crate::canon::Key;
use crate::play::{self, Counted, Game, Glicko, Rated, Refused};
use crate::store::play::{Delivered, PlayedGame};

/// Play in a fleet's history ([`Postgres::play`]).
#[derive(Clone, Copy)]
pub struct Play<'a>(pub(super) &'a Postgres);

/// Removes the rating rows with no rated result of `user` and `puzzle` (made by a glance's
/// transaction).
async fn drop_unrated(
    tx: &deadpool_postgres::Transaction<'_>,
    user: &str,
    puzzle: i64,
) -> std::result::Result<u64, tokio_postgres::Error> {
    tx.execute(
        "WITH p AS (DELETE FROM pseudoku_player_ratings WHERE user_id = $1 AND results = 0) \
         DELETE FROM pseudoku_puzzle_ratings WHERE puzzle_id = $2 AND results = 0",
        &[&user, &puzzle],
    )
    .await
}

/// A rating's columns (rating, deviation, volatility, results) from column 0.
fn rated(r: &tokio_postgres::Row) -> Rated {
    Rated {
        glicko: Glicko {
            rating: r.get(0),
            deviation: r.get(1),
            volatility: r.get(2),
        },
        results: r.get::<_, i64>(3) as u64,
    }
}

impl Play<'_> {
    /// Counts `game` (its puzzle of class `key`, with `prior` if it has no rating yet) as the
    /// bank's [`crate::store::play::count`]: refused when the user was not handed the puzzle
    /// (a delivery [`Delivered::Required`]) or has a result for it; else stored, both ratings
    /// moved, in one transaction.
    pub async fn count(
        &self,
        game: &Game,
        key: &Key,
        prior: Glicko,
        delivered: Delivered,
    ) -> Result<std::result::Result<Counted, Refused>> {
        let pg = self.0;
        pg.run(async |client| {
            // Cached statements (one round trip each), the rows locked player first.
            let record = client
                .prepare_cached(
                    "INSERT INTO pseudoku_user_history (user_id, canon_key, puzzle_id) \
                     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                )
                .await
                .map_err(pg.failed())?;
            let given = client
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM pseudoku_user_history \
                                    WHERE user_id = $1 AND canon_key = $2) \
                     OR EXISTS (SELECT 1 FROM pseudoku_daily WHERE canon_key = $2)",
                )
                .await
                .map_err(pg.failed())?;
            // A row made (with its starting rating) if there is none, locked either way.
            let lock = |table: &str, key: &str| {
                format!(
                    "INSERT INTO {table} ({key}, rating, deviation, volatility, results) \
                     VALUES ($1, $2, $3, $4, 0) \
                     ON CONFLICT ({key}) DO UPDATE SET {key} = EXCLUDED.{key} \
                     RETURNING rating, deviation, volatility, results"
                )
            };
            let lock_player = client
                .prepare_cached(&lock("pseudoku_player_ratings", "user_id"))
                .await
                .map_err(pg.failed())?;
            let lock_puzzle = client
                .prepare_cached(&lock("pseudoku_puzzle_ratings", "puzzle_id"))
                .await
                .map_err(pg.failed())?;
            // The result and both ratings in one statement: nothing inserted (a second result
            // of the delivery) says so, and the transaction is rolled back.
            let write = client
                .prepare_cached(
                    "WITH p AS (UPDATE pseudoku_player_ratings SET rating = $11, \
                                deviation = $12, volatility = $13, results = $14 \
                                WHERE user_id = $1 AND $19), \
                          q AS (UPDATE pseudoku_puzzle_ratings SET rating = $15, \
                                deviation = $16, volatility = $17, results = $18 \
                                WHERE puzzle_id = $3 AND $19) \
                     INSERT INTO pseudoku_results (user_id, canon_key, puzzle_id, solved, \
                     seconds, hints, mistakes, score, player_rating, puzzle_rating) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                     ON CONFLICT DO NOTHING",
                )
                .await
                .map_err(pg.failed())?;
            let tx = client.transaction().await.map_err(pg.failed())?;
            if delivered == Delivered::Recorded {
                tx.execute(&record, &[&game.user, &&key.0[..], &game.puzzle])
                    .await
                    .map_err(pg.failed())?;
            }
            let given: bool = tx
                .query_one(&given, &[&game.user, &&key.0[..]])
                .await
                .map_err(pg.failed())?
                .get(0);
            if !given {
                return Ok(Err(Refused::NotGiven {
                    user: game.user.clone(),
                    puzzle: game.puzzle,
                }));
            }
            let start = play::newcomer();
            let player = rated(
                &tx.query_one(
                    &lock_player,
                    &[&game.user, &start.rating, &start.deviation, &start.volatility],
                )
                .await
                .map_err(pg.failed())?,
            );
            let puzzle = rated(
                &tx.query_one(
                    &lock_puzzle,
                    &[&game.puzzle, &prior.rating, &prior.deviation, &prior.volatility],
                )
                .await
                .map_err(pg.failed())?,
            );
            let player = (player.results > 0).then_some(player);
            let puzzle = match puzzle.results {
                0 => Rated::fresh(prior),
                _ => puzzle,
            };
            let (score, p, q) = play::count(game, player, puzzle);
            let inserted = tx
                .execute(
                    &write,
                    &[
                        &game.user,
                        &&key.0[..],
                        &game.puzzle,
                        &game.solved,
                        &game.seconds,
                        &(game.hints as i32),
                        &(game.mistakes as i32),
                        &score,
                        &p.glicko.rating,
                        &q.glicko.rating,
                        &p.glicko.rating,
                        &p.glicko.deviation,
                        &p.glicko.volatility,
                        &(p.results as i64),
                        &q.glicko.rating,
                        &q.glicko.deviation,
                        &q.glicko.volatility,
                        &(q.results as i64),
                        &score.is_some(),
                    ],
                )
                .await
                .map_err(pg.failed())?;
            if inserted == 0 {
                // Rolled back: rows made above go too.
                return Ok(Err(Refused::Again {
                    user: game.user.clone(),
                    puzzle: game.puzzle,
                }));
            }
            // A glance rates nothing: rows made for it (a player or puzzle with no rated
            // result) are not kept.
            if score.is_none() && (player.is_none() || puzzle.results == 0) {
                let drop = drop_unrated(&tx, &game.user, game.puzzle).await;
                drop.map_err(pg.failed())?;
            }
            tx.commit().await.map_err(pg.failed())?;
            Ok(Ok(Counted::of(score, &p, &q)))
        })
        .await
    }

    /// A player's learned rating, if any result of theirs was rated.
    pub async fn player(&self, user: &str) -> Result<Option<Rated>> {
        self.rating(
            "SELECT rating, deviation, volatility, results FROM pseudoku_player_ratings \
             WHERE user_id = $1 AND results > 0",
            &user,
        )
        .await
    }

    /// A puzzle's learned rating, if any result for it was rated.
    pub async fn puzzle(&self, id: i64) -> Result<Option<Rated>> {
        self.rating(
            "SELECT rating, deviation, volatility, results FROM pseudoku_puzzle_ratings \
             WHERE puzzle_id = $1 AND results > 0",
            &id,
        )
        .await
    }

    /// The rating row `sql` finds by `key`, if any.
    async fn rating(
        &self,
        sql: &str,
        key: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Option<Rated>> {
        let pg = self.0;
        pg.run(async |client| {
            let stmt = client.prepare_cached(sql).await.map_err(pg.failed())?;
            let row = client
                .query_opt(&stmt, &[key])
                .await
                .map_err(pg.failed())?;
            Ok(row.as_ref().map(rated))
        })
        .await
    }

    /// A player's last `limit` games, the latest first, and how many they have had.
    pub async fn games(&self, user: &str, limit: usize) -> Result<(Vec<PlayedGame>, u64)> {
        let pg = self.0;
        pg.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT puzzle_id, solved, seconds, hints, mistakes, score, player_rating, \
                     to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') \
                     FROM pseudoku_results WHERE user_id = $1 ORDER BY seq DESC LIMIT $2",
                )
                .await
                .map_err(pg.failed())?;
            let rows = client
                .query(&stmt, &[&user, &(limit as i64)])
                .await
                .map_err(pg.failed())?;
            let stmt = client
                .prepare_cached(
                    "SELECT count(*) FROM pseudoku_results WHERE user_id = $1",
                )
                .await
                .map_err(pg.failed())?;
            let n: i64 = client
                .query_one(&stmt, &[&user])
                .await
                .map_err(pg.failed())?
                .get(0);
            let games = rows
                .iter()
                .map(|r| PlayedGame {
                    puzzle: r.get(0),
                    solved: r.get(1),
                    seconds: r.get(2),
                    hints: r.get::<_, i32>(3) as u32,
                    mistakes: r.get::<_, i32>(4) as u32,
                    score: r.get::<_, Option<f64>>(5).map(|x| (x * 1000.0).round() / 1000.0),
                    rating: (r.get::<_, f64>(6) * 10.0).round() / 10.0,
                    at: r.get(7),
                })
                .collect();
            Ok((games, n as u64))
        })
        .await
    }

    /// The played puzzles whose learned rating lies in `[low, high]`, up to `cap` counted.
    pub async fn rated_in(&self, (low, high): (f64, f64), cap: u64) -> Result<u64> {
        let pg = self.0;
        pg.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT count(*) FROM (SELECT 1 FROM pseudoku_puzzle_ratings \
                     WHERE rating >= $1 AND rating <= $2 AND results > 0 LIMIT $3) AS w",
                )
                .await
                .map_err(pg.failed())?;
            let n: i64 = client
                .query_one(&stmt, &[&low, &high, &(cap as i64)])
                .await
                .map_err(pg.failed())?
                .get(0);
            Ok(n as u64)
        })
        .await
    }

    /// The played puzzle whose learned rating is the first at or above `at` in `[low, high]`
    /// (the first of the window past its end): one seek of the rating index.
    pub async fn rated_at(&self, (low, high): (f64, f64), at: f64) -> Result<Option<i64>> {
        let pg = self.0;
        pg.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT puzzle_id FROM pseudoku_puzzle_ratings \
                     WHERE rating >= $1 AND rating <= $2 AND results > 0 \
                     ORDER BY rating LIMIT 1",
                )
                .await
                .map_err(pg.failed())?;
            for from in [at, low] {
                let row = client
                    .query_opt(&stmt, &[&from, &high])
                    .await
                    .map_err(pg.failed())?;
                if let Some(r) = row {
                    return Ok(Some(r.get(0)));
                }
            }
            Ok(None)
        })
        .await
    }

    /// The learned ratings of the puzzles among `ids` that have one.
    pub async fn ratings_of(&self, ids: &[i64]) -> Result<Vec<(i64, f64)>> {
        let pg = self.0;
        pg.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT puzzle_id, rating FROM pseudoku_puzzle_ratings \
                     WHERE puzzle_id = ANY($1) AND results > 0",
                )
                .await
                .map_err(pg.failed())?;
            let rows = client
                .query(&stmt, &[&ids])
                .await
                .map_err(pg.failed())?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
        .await
    }

    /// The puzzles rated by `min_results` results or more: id, learned rating, results.
    pub async fn learned_puzzles(&self, min_results: u64) -> Result<Vec<(i64, Rated)>> {
        let pg = self.0;
        pg.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT rating, deviation, volatility, results, puzzle_id \
                     FROM pseudoku_puzzle_ratings WHERE results >= $1 AND results > 0 \
                     ORDER BY puzzle_id",
                )
                .await
                .map_err(pg.failed())?;
            let rows = client
                .query(&stmt, &[&(min_results as i64)])
                .await
                .map_err(pg.failed())?;
            Ok(rows.iter().map(|r| (r.get(4), rated(r))).collect())
        })
        .await
    }
}
