//! Play in a fleet's history: the operations of the bank's own ([`crate::store::play`]) under
//! the same names and rules, so that one sequence of results teaches a bank and a fleet the
//! same ratings. A result's transaction locks the player's row, then the puzzle's (always in
//! that order: no two results wait on each other in a circle).

use super::{Postgres, Result};
use crate::canon::Key;
use crate::play::{self, Counted, DayMoves, Game, Glicko, PuzzleRated, Rated, Refused};
use crate::store::play::{Delivered, PlayedGame};

/// Play in a fleet's history ([`Postgres::play`]).
#[derive(Clone, Copy)]
pub struct Play<'a>(pub(super) &'a Postgres);

/// A rating's columns (rating, deviation, volatility, results) from column 0.
pub(super) fn rated(r: &tokio_postgres::Row) -> Rated {
    Rated {
        glicko: Glicko {
            rating: r.get(0),
            deviation: r.get(1),
            volatility: r.get(2),
        },
        results: r.get::<_, i64>(3) as u64,
    }
}

/// The statements of a count, prepared (and cached) on the connection that runs it.
struct Statements {
    /// A delivery recorded with its result ([`Delivered::Recorded`]).
    record: tokio_postgres::Statement,
    /// Whether the user was given the class.
    given: tokio_postgres::Statement,
    /// The player's row, made with a newcomer's rating if there is none, locked either way.
    lock_player: tokio_postgres::Statement,
    /// A puzzle's row alike, with its prior.
    lock_puzzle: tokio_postgres::Statement,
    /// The player's rating written.
    write_player: tokio_postgres::Statement,
    /// A puzzle's rating written.
    write_puzzle: tokio_postgres::Statement,
    /// The result; nothing inserted says a second result of the delivery.
    write_result: tokio_postgres::Statement,
    /// A player's held games not settled yet, in the order they were played.
    held: tokio_postgres::Statement,
    /// A puzzle claimed for the transaction (an advisory lock on [`PUZZLE_CLAIM`] and its id).
    claim: tokio_postgres::Statement,
    /// A held game taught.
    settled: tokio_postgres::Statement,
    /// The rating rows of a player and a puzzle that nothing rated (made by the locks)
    /// dropped.
    drop_unrated: tokio_postgres::Statement,
}

impl Statements {
    async fn prepare(
        client: &deadpool_postgres::Object,
    ) -> std::result::Result<Statements, tokio_postgres::Error> {
        let lock = |table: &str, key: &str, more: &str| {
            format!(
                "INSERT INTO {table} ({key}, rating, deviation, volatility, results) \
                 VALUES ($1, $2, $3, $4, 0) \
                 ON CONFLICT ({key}) DO UPDATE SET {key} = EXCLUDED.{key} \
                 RETURNING rating, deviation, volatility, results{more}"
            )
        };
        Ok(Statements {
            record: client
                .prepare_cached(
                    "INSERT INTO pseudoku_user_history (user_id, canon_key, puzzle_id) \
                     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                )
                .await?,
            given: client
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM pseudoku_user_history \
                                    WHERE user_id = $1 AND canon_key = $2)",
                )
                .await?,
            lock_player: client
                .prepare_cached(&lock("pseudoku_player_ratings", "user_id", ""))
                .await?,
            lock_puzzle: client
                .prepare_cached(&lock(
                    "pseudoku_puzzle_ratings",
                    "puzzle_id",
                    ", held_day, held_moved",
                ))
                .await?,
            write_player: client
                .prepare_cached(
                    "UPDATE pseudoku_player_ratings SET rating = $2, deviation = $3, \
                     volatility = $4, results = $5 WHERE user_id = $1",
                )
                .await?,
            write_puzzle: client
                .prepare_cached(
                    "UPDATE pseudoku_puzzle_ratings SET rating = $2, deviation = $3, \
                     volatility = $4, results = $5, held_day = $6, held_moved = $7 \
                     WHERE puzzle_id = $1",
                )
                .await?,
            write_result: client
                .prepare_cached(
                    "INSERT INTO pseudoku_results (user_id, canon_key, puzzle_id, solved, \
                     seconds, hints, mistakes, score, held, player_rating, puzzle_rating) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                     ON CONFLICT DO NOTHING RETURNING seq",
                )
                .await?,
            claim: client
                .prepare_cached("SELECT pg_advisory_xact_lock($1, $2)")
                .await?,
            held: client
                .prepare_cached(
                    "SELECT r.seq, r.puzzle_id, r.score, r.puzzle_rating \
                     FROM pseudoku_results r WHERE r.user_id = $1 AND r.held \
                     AND NOT EXISTS (SELECT 1 FROM pseudoku_settled s \
                                     WHERE s.result_seq = r.seq) ORDER BY r.seq",
                )
                .await?,
            settled: client
                .prepare_cached(
                    "INSERT INTO pseudoku_settled (result_seq, by_seq, puzzle_id, share, \
                     puzzle_rating) VALUES ($1, $2, $3, $4, $5)",
                )
                .await?,
            drop_unrated: client
                .prepare_cached(
                    "WITH p AS (DELETE FROM pseudoku_player_ratings \
                                WHERE user_id = $1 AND results = 0) \
                     DELETE FROM pseudoku_puzzle_ratings \
                     WHERE puzzle_id = ANY($2) AND results = 0",
                )
                .await?,
        })
    }
}

/// A puzzle's row (made with `prior` if there is none), locked: its rating, `prior` for a row
/// no game taught yet.
async fn lock_puzzle(
    tx: &deadpool_postgres::Transaction<'_>,
    st: &Statements,
    id: i64,
    prior: &Glicko,
) -> std::result::Result<PuzzleRated, tokio_postgres::Error> {
    let row = tx
        .query_one(
            &st.lock_puzzle,
            &[&id, &prior.rating, &prior.deviation, &prior.volatility],
        )
        .await?;
    Ok(match rated(&row) {
        Rated { results: 0, .. } => PuzzleRated::fresh(*prior),
        rated => PuzzleRated {
            rated,
            moves: DayMoves {
                day: row.get(4),
                moved: row.get(5),
            },
        },
    })
}

/// Writes a puzzle's rating (its row locked).
async fn write_puzzle(
    tx: &deadpool_postgres::Transaction<'_>,
    st: &Statements,
    id: i64,
    q: &PuzzleRated,
) -> std::result::Result<u64, tokio_postgres::Error> {
    let g = &q.rated.glicko;
    tx.execute(
        &st.write_puzzle,
        &[
            &id,
            &g.rating,
            &g.deviation,
            &g.volatility,
            &(q.rated.results as i64),
            &q.moves.day,
            &q.moves.moved,
        ],
    )
    .await
}

/// The first key of the advisory locks that claim puzzles for a count ("puzz" in ASCII); the
/// second is the puzzle's id (ids that agree in their low 32 bits share a lock, which only
/// makes one wait).
const PUZZLE_CLAIM: i32 = 0x7075_7a7a;

/// Counts `game` in the transaction `tx` as the bank's [`crate::store::play::count`] does; a
/// refusal leaves the rows it made for the caller to roll back. The rows are locked player
/// first, then puzzles; a game of a player without a record first claims its puzzle and the
/// held games' puzzles in id order ([`PUZZLE_CLAIM`]), so that two games that settle held
/// games wait on each other in no circle; the game that makes the record settles them.
async fn count_in(
    tx: &deadpool_postgres::Transaction<'_>,
    st: &Statements,
    (game, key, prior): &super::play_log::ToCount,
    delivered: Delivered,
) -> std::result::Result<std::result::Result<Counted, Refused>, tokio_postgres::Error> {
    if delivered == Delivered::Recorded {
        tx.execute(&st.record, &[&game.user, &&key.0[..], &game.puzzle])
            .await?;
    }
    let given: bool = tx
        .query_one(&st.given, &[&game.user, &&key.0[..]])
        .await?
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
            &st.lock_player,
            &[&game.user, &start.rating, &start.deviation, &start.volatility],
        )
        .await?,
    );
    // A player without a record yet may make it with this game and settle their held games:
    // their puzzles and this one are claimed in id order before any puzzle's row is locked, so
    // two games that settle never wait on each other in a circle (each holding its own puzzle
    // and wanting the other's).
    if player.results < play::Trust::DEFAULT.record_games {
        let mut claim: Vec<i64> = tx
            .query(&st.held, &[&game.user])
            .await?
            .iter()
            .map(|r| r.get(1))
            .collect();
        claim.push(game.puzzle);
        claim.sort_unstable();
        claim.dedup();
        for id in claim {
            tx.execute(&st.claim, &[&PUZZLE_CLAIM, &(id as i32)]).await?;
        }
    }
    let puzzle = lock_puzzle(tx, st, game.puzzle, prior).await?;
    let outcome = play::count(game, (player.results > 0).then_some(player), puzzle);
    let (p, q) = (outcome.player, outcome.puzzle);
    let inserted = tx
        .query_opt(
            &st.write_result,
            &[
                &game.user,
                &&key.0[..],
                &game.puzzle,
                &game.solved,
                &game.seconds,
                &(game.hints as i32),
                &(game.mistakes as i32),
                &outcome.score,
                &outcome.score.map(|_| outcome.held),
                &p.glicko.rating,
                &q.rated.glicko.rating,
            ],
        )
        .await?;
    let Some(row) = inserted else {
        return Ok(Err(Refused::Again {
            user: game.user.clone(),
            puzzle: game.puzzle,
        }));
    };
    let by: i64 = row.get(0);
    if outcome.score.is_some() {
        let g = &p.glicko;
        tx.execute(
            &st.write_player,
            &[
                &game.user,
                &g.rating,
                &g.deviation,
                &g.volatility,
                &(p.results as i64),
            ],
        )
        .await?;
    }
    if q != puzzle {
        write_puzzle(tx, st, game.puzzle, &q).await?;
    }
    let mut shown = q.rated;
    let mut touched = vec![game.puzzle];
    if outcome.settles {
        // The held games, this one among them when it is held.
        let held: Vec<(i64, i64, f64, f64)> = tx
            .query(&st.held, &[&game.user])
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect();
        // Their puzzles were claimed above, so they are locked here in the order played.
        let day = play::day_of(std::time::SystemTime::now());
        for &(seq, id, score, then) in &held {
            let before = lock_puzzle(tx, st, id, &play::prior_at(then)).await?;
            let (share, after) = play::settle(&play::Trust::DEFAULT, &p, before, score, day);
            if after != before {
                write_puzzle(tx, st, id, &after).await?;
            }
            let rating = after.rated.glicko.rating;
            tx.execute(&st.settled, &[&seq, &by, &id, &share, &rating])
                .await?;
            if id == game.puzzle {
                shown = after.rated;
            }
        }
        touched.extend(held.iter().map(|h| h.1));
    }
    // Rows the locks made for nothing rated (a newcomer's glance, a puzzle no game taught)
    // are not kept.
    if p.results == 0 || (q == puzzle && puzzle.rated.results == 0) || outcome.settles {
        tx.execute(&st.drop_unrated, &[&game.user, &touched]).await?;
    }
    Ok(Ok(Counted::of(&outcome, &shown)))
}

impl Play<'_> {
    /// Counts `game` (its puzzle of class `key`, with `prior` if it has no rating yet) as the
    /// bank's [`crate::store::play::count`]: refused when the user was not handed the puzzle
    /// (a delivery [`Delivered::Required`]) or has a result for it; else stored, both ratings
    /// moved, in one transaction. One that PostgreSQL aborts to end a deadlock with another
    /// counting at once (each locks a player and puzzles) is run again, up to four times more.
    pub async fn count(
        &self,
        game: &Game,
        key: &Key,
        prior: Glicko,
        delivered: Delivered,
    ) -> Result<std::result::Result<Counted, Refused>> {
        let pg = self.0;
        let one = (game.clone(), *key, prior);
        let mut tries = 0;
        loop {
            let done = pg
                .run(async |client| {
                    let st = Statements::prepare(client).await.map_err(pg.failed())?;
                    let tx = client.transaction().await.map_err(pg.failed())?;
                    let counted = count_in(&tx, &st, &one, delivered)
                        .await
                        .map_err(pg.failed())?;
                    // A refusal rolls back what it made (the transaction dropped).
                    if counted.is_ok() {
                        tx.commit().await.map_err(pg.failed())?;
                    }
                    Ok(counted)
                })
                .await;
            match done {
                Err(e) if e.is_deadlock() && tries < 4 => tries += 1,
                other => return other,
            }
        }
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
            let games = rows.iter().map(played).collect();
            Ok((games, n as u64))
        })
        .await
    }

    /// `user`'s game of each class of `keys` they have a result for, with the class.
    pub async fn games_of(&self, user: &str, keys: &[Key]) -> Result<Vec<(Key, PlayedGame)>> {
        let pg = self.0;
        let keys: Vec<&[u8]> = keys.iter().map(|k| &k.0[..]).collect();
        pg.run(async |client| {
            let stmt = client
                .prepare_cached(
                    "SELECT puzzle_id, solved, seconds, hints, mistakes, score, player_rating, \
                     to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), \
                     canon_key FROM pseudoku_results WHERE user_id = $1 AND canon_key = ANY($2)",
                )
                .await
                .map_err(pg.failed())?;
            let rows = client
                .query(&stmt, &[&user, &keys])
                .await
                .map_err(pg.failed())?;
            Ok(rows
                .iter()
                .map(|r| (super::key_of(r.get(8)), played(r)))
                .collect())
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
                .query(&stmt, &[&i64::try_from(min_results).unwrap_or(i64::MAX)])
                .await
                .map_err(pg.failed())?;
            Ok(rows.iter().map(|r| (r.get(4), rated(r))).collect())
        })
        .await
    }
}

/// The columns `puzzle_id, solved, seconds, hints, mistakes, score, player_rating, at` (the
/// time as text) of a result as the game a player's history shows.
fn played(r: &tokio_postgres::Row) -> PlayedGame {
    PlayedGame {
        puzzle: r.get(0),
        solved: r.get(1),
        seconds: r.get(2),
        hints: r.get::<_, i32>(3) as u32,
        mistakes: r.get::<_, i32>(4) as u32,
        score: r.get::<_, Option<f64>>(5).map(|x| (x * 1000.0).round() / 1000.0),
        rating: (r.get::<_, f64>(6) * 10.0).round() / 10.0,
        at: r.get(7),
    }
}
