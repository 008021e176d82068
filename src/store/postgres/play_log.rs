//! An app's log of games counted into a fleet's history (`results import --history`), a batch
//! at a time: the same ratings, game for game, as the games counted one by one ([`Play::count`],
//! the bank's `store::play::count`), in a handful of statements a batch instead of a handful a
//! game. The batch's rows are locked at once (its players in id order, then its puzzles and the
//! puzzles of the held games its players may settle, in id order), the games counted in memory
//! in their order with the model's own functions (`play::count`, `play::settle`), and the
//! results, settled games and ratings written back in bulk, in one transaction.

use super::play::rated;
use super::{Play, Result};
use crate::canon::Key;
use crate::play::{self, Counted, DayMoves, Game, Glicko, PuzzleRated, Rated, Refused, Trust};
use std::collections::{HashMap, HashSet};

/// Games counted in one transaction by [`Play::count_log`].
pub const BATCH: usize = 2_000;

/// One game to count: the game, its puzzle's class, and the puzzle's prior.
pub type ToCount = (Game, Key, Glicko);

/// A held game waiting for its player's record: its result (a stored one's `seq`, or the
/// batch's game at that index), its puzzle and its score.
#[derive(Clone, Copy)]
enum HeldAt {
    Stored(i64),
    Batch(usize),
}

/// A held game taught when its player's record was made.
struct Taught {
    held: HeldAt,
    by: usize,
    puzzle: i64,
    share: f64,
    rating: f64,
}

/// A result row to write.
struct Row {
    game: usize,
    score: Option<f64>,
    held: Option<bool>,
    player_rating: f64,
    puzzle_rating: f64,
}

impl Play<'_> {
    /// Counts a log's `games` (each delivery recorded with its result, as the log says the user
    /// played it) in their order, in one transaction: what each did, or why it was refused (a
    /// result counted before). A transaction that PostgreSQL aborts to end a deadlock with a
    /// server counting at once, or in which a server counted one of the games first, is rolled
    /// back whole and run again, up to four times more.
    pub async fn count_log(
        &self,
        games: &[ToCount],
    ) -> Result<Vec<std::result::Result<Counted, Refused>>> {
        let pg = self.0;
        let mut tries = 0;
        loop {
            let done = pg
                .run(async |client| {
                    let tx = client.transaction().await.map_err(pg.failed())?;
                    let out = count_batch(&tx, games).await.map_err(pg.failed())?;
                    if out.is_some() {
                        tx.commit().await.map_err(pg.failed())?;
                    }
                    Ok(out)
                })
                .await;
            match done {
                Ok(Some(out)) => return Ok(out),
                // A server counted one of the games meanwhile: the batch again, which now
                // finds it counted.
                Ok(None) if tries < 4 => tries += 1,
                Ok(None) => unreachable!("a game taken by a server five times over"),
                Err(e) if e.is_deadlock() && tries < 4 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }
}

/// Counts `games` in `tx`: `None` when a server counted one of them between the batch's reads
/// and its writes (the caller rolls back and runs it again).
async fn count_batch(
    tx: &deadpool_postgres::Transaction<'_>,
    games: &[ToCount],
) -> std::result::Result<Option<Vec<std::result::Result<Counted, Refused>>>, tokio_postgres::Error>
{
    let trust = Trust::DEFAULT;
    let users: Vec<&str> = games.iter().map(|(g, _, _)| g.user.as_str()).collect();
    let keys: Vec<&[u8]> = games.iter().map(|(_, k, _)| &k.0[..]).collect();
    let ids: Vec<i64> = games.iter().map(|(g, _, _)| g.puzzle).collect();
    // The log says each user played each puzzle: its delivery, recorded.
    tx.execute(
        "INSERT INTO pseudoku_user_history (user_id, canon_key, puzzle_id) \
         SELECT * FROM unnest($1::text[], $2::bytea[], $3::int8[]) ON CONFLICT DO NOTHING",
        &[&users, &keys, &ids],
    )
    .await?;
    // The players, locked in id order (made with a newcomer's rating where missing).
    let mut names: Vec<&str> = users.clone();
    names.sort_unstable();
    names.dedup();
    let start = play::newcomer();
    let mut players: HashMap<String, Rated> = tx
        .query(
            "INSERT INTO pseudoku_player_ratings (user_id, rating, deviation, volatility, results) \
             SELECT u, $2, $3, $4, 0 FROM unnest($1::text[]) AS u ORDER BY u \
             ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id \
             RETURNING rating, deviation, volatility, results, user_id",
            &[&names, &start.rating, &start.deviation, &start.volatility],
        )
        .await?
        .iter()
        .map(|r| (r.get(4), rated(r)))
        .collect();
    // The held games of the players without a record, which the batch may settle.
    let unrecorded: Vec<&str> = names
        .iter()
        .copied()
        .filter(|u| !trust.has_record(players[*u].results))
        .collect();
    let mut held: HashMap<String, Vec<(HeldAt, i64, f64)>> = HashMap::new();
    let mut held_prior: HashMap<i64, Glicko> = HashMap::new();
    for r in tx
        .query(
            "SELECT r.seq, r.user_id, r.puzzle_id, r.score, r.puzzle_rating \
             FROM pseudoku_results r WHERE r.user_id = ANY($1) AND r.held \
             AND NOT EXISTS (SELECT 1 FROM pseudoku_settled s WHERE s.result_seq = r.seq) \
             ORDER BY r.seq",
            &[&unrecorded],
        )
        .await?
    {
        let (seq, user, puzzle, score, then): (i64, String, i64, f64, f64) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        held.entry(user)
            .or_default()
            .push((HeldAt::Stored(seq), puzzle, score));
        // A puzzle no game taught yet: its prior, as the held game recorded it.
        held_prior.entry(puzzle).or_insert(play::prior_at(then));
    }
    // The puzzles, locked in id order (made with their priors where missing).
    let mut priors: HashMap<i64, Glicko> = held_prior;
    for (g, _, prior) in games {
        priors.insert(g.puzzle, *prior);
    }
    let mut order: Vec<(i64, Glicko)> = priors.into_iter().collect();
    order.sort_unstable_by_key(|&(id, _)| id);
    let column = |f: fn(&Glicko) -> f64| order.iter().map(|(_, g)| f(g)).collect::<Vec<f64>>();
    let puzzle_ids: Vec<i64> = order.iter().map(|&(id, _)| id).collect();
    let mut puzzles: HashMap<i64, PuzzleRated> = tx
        .query(
            "INSERT INTO pseudoku_puzzle_ratings (puzzle_id, rating, deviation, volatility, \
             results) SELECT i, r, d, v, 0 \
             FROM unnest($1::int8[], $2::float8[], $3::float8[], $4::float8[]) AS p(i, r, d, v) \
             ORDER BY i ON CONFLICT (puzzle_id) DO UPDATE SET puzzle_id = EXCLUDED.puzzle_id \
             RETURNING rating, deviation, volatility, results, held_day, held_moved, puzzle_id",
            &[
                &puzzle_ids,
                &column(|g| g.rating),
                &column(|g| g.deviation),
                &column(|g| g.volatility),
            ],
        )
        .await?
        .iter()
        .map(|r| {
            let id: i64 = r.get(6);
            let q = match rated(r) {
                Rated { results: 0, .. } => PuzzleRated::fresh(order_prior(&order, id)),
                rated => PuzzleRated {
                    rated,
                    moves: DayMoves {
                        day: r.get(4),
                        moved: r.get(5),
                    },
                },
            };
            (id, q)
        })
        .collect();
    // The games whose result was counted before.
    let mut counted: HashSet<(String, Key)> = tx
        .query(
            "SELECT r.user_id, r.canon_key FROM pseudoku_results r \
             JOIN unnest($1::text[], $2::bytea[]) AS g(u, k) \
             ON r.user_id = g.u AND r.canon_key = g.k",
            &[&users, &keys],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), super::key_of(r.get(1))))
        .collect();
    // The games, in order, in memory.
    let day = play::day_of(std::time::SystemTime::now());
    let mut out = Vec::with_capacity(games.len());
    let mut rows: Vec<Row> = Vec::with_capacity(games.len());
    let mut taught: Vec<Taught> = Vec::new();
    let (mut moved_players, mut moved_puzzles) = (HashSet::new(), HashSet::new());
    for (i, (game, key, _)) in games.iter().enumerate() {
        if !counted.insert((game.user.clone(), *key)) {
            out.push(Err(Refused::Again {
                user: game.user.clone(),
                puzzle: game.puzzle,
            }));
            continue;
        }
        let player = players[&game.user];
        let before = puzzles[&game.puzzle];
        let outcome = play::count(game, (player.results > 0).then_some(player), before);
        let (p, q) = (outcome.player, outcome.puzzle);
        if outcome.score.is_some() {
            players.insert(game.user.clone(), p);
            moved_players.insert(game.user.clone());
        }
        if q != before {
            puzzles.insert(game.puzzle, q);
            moved_puzzles.insert(game.puzzle);
        }
        rows.push(Row {
            game: i,
            score: outcome.score,
            held: outcome.score.map(|_| outcome.held),
            player_rating: p.glicko.rating,
            puzzle_rating: q.rated.glicko.rating,
        });
        if let (true, Some(score)) = (outcome.held, outcome.score) {
            held.entry(game.user.clone())
                .or_default()
                .push((HeldAt::Batch(i), game.puzzle, score));
        }
        let mut shown = q.rated;
        if outcome.settles {
            for (at, id, score) in held.remove(&game.user).unwrap_or_default() {
                let before = puzzles[&id];
                let (share, after) = play::settle(&trust, &p, before, score, day);
                if after != before {
                    puzzles.insert(id, after);
                    moved_puzzles.insert(id);
                }
                taught.push(Taught {
                    held: at,
                    by: i,
                    puzzle: id,
                    share,
                    rating: after.rated.glicko.rating,
                });
                if id == game.puzzle {
                    shown = after.rated;
                }
            }
        }
        out.push(Ok(Counted::of(&outcome, &shown)));
    }
    // The results, in the games' order; one that a server counted meanwhile is not written,
    // and the batch is run again.
    let row_users: Vec<&str> = rows.iter().map(|r| games[r.game].0.user.as_str()).collect();
    let row_keys: Vec<&[u8]> = rows.iter().map(|r| &games[r.game].1 .0[..]).collect();
    let row_ids: Vec<i64> = rows.iter().map(|r| games[r.game].0.puzzle).collect();
    let solved: Vec<bool> = rows.iter().map(|r| games[r.game].0.solved).collect();
    let seconds: Vec<f64> = rows.iter().map(|r| games[r.game].0.seconds).collect();
    let hints: Vec<i32> = rows.iter().map(|r| games[r.game].0.hints as i32).collect();
    let mistakes: Vec<i32> = rows.iter().map(|r| games[r.game].0.mistakes as i32).collect();
    let scores: Vec<Option<f64>> = rows.iter().map(|r| r.score).collect();
    let helds: Vec<Option<bool>> = rows.iter().map(|r| r.held).collect();
    let player_ratings: Vec<f64> = rows.iter().map(|r| r.player_rating).collect();
    let puzzle_ratings: Vec<f64> = rows.iter().map(|r| r.puzzle_rating).collect();
    let written = tx
        .query(
            "INSERT INTO pseudoku_results (user_id, canon_key, puzzle_id, solved, seconds, hints, \
             mistakes, score, held, player_rating, puzzle_rating) \
             SELECT u, k, p, s, t, h, m, sc, hd, pr, qr FROM unnest($1::text[], $2::bytea[], \
             $3::int8[], $4::bool[], $5::float8[], $6::int4[], $7::int4[], $8::float8[], \
             $9::bool[], $10::float8[], $11::float8[]) WITH ORDINALITY \
             AS g(u, k, p, s, t, h, m, sc, hd, pr, qr, n) ORDER BY n \
             ON CONFLICT DO NOTHING RETURNING seq, user_id, canon_key",
            &[
                &row_users,
                &row_keys,
                &row_ids,
                &solved,
                &seconds,
                &hints,
                &mistakes,
                &scores,
                &helds,
                &player_ratings,
                &puzzle_ratings,
            ],
        )
        .await?;
    if written.len() != rows.len() {
        return Ok(None);
    }
    let seq_of: HashMap<(String, Key), i64> = written
        .iter()
        .map(|r| ((r.get(1), super::key_of(r.get(2))), r.get(0)))
        .collect();
    let seq = |i: usize| seq_of[&(games[i].0.user.clone(), games[i].1)];
    // The held games taught.
    if !taught.is_empty() {
        let results: Vec<i64> = taught
            .iter()
            .map(|t| match t.held {
                HeldAt::Stored(s) => s,
                HeldAt::Batch(i) => seq(i),
            })
            .collect();
        let by: Vec<i64> = taught.iter().map(|t| seq(t.by)).collect();
        let ids: Vec<i64> = taught.iter().map(|t| t.puzzle).collect();
        let shares: Vec<f64> = taught.iter().map(|t| t.share).collect();
        let ratings: Vec<f64> = taught.iter().map(|t| t.rating).collect();
        tx.execute(
            "INSERT INTO pseudoku_settled (result_seq, by_seq, puzzle_id, share, puzzle_rating) \
             SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::float8[], \
             $5::float8[])",
            &[&results, &by, &ids, &shares, &ratings],
        )
        .await?;
    }
    // The ratings the batch moved.
    let moved: Vec<(&String, &Rated)> = moved_players.iter().map(|u| (u, &players[u])).collect();
    if !moved.is_empty() {
        let who: Vec<&str> = moved.iter().map(|(u, _)| u.as_str()).collect();
        let g = |f: fn(&Glicko) -> f64| moved.iter().map(|(_, p)| f(&p.glicko)).collect::<Vec<_>>();
        let results: Vec<i64> = moved.iter().map(|(_, p)| p.results as i64).collect();
        tx.execute(
            "UPDATE pseudoku_player_ratings p SET rating = v.r, deviation = v.d, \
             volatility = v.v, results = v.n FROM unnest($1::text[], $2::float8[], \
             $3::float8[], $4::float8[], $5::int8[]) AS v(u, r, d, v, n) WHERE p.user_id = v.u",
            &[
                &who,
                &g(|g| g.rating),
                &g(|g| g.deviation),
                &g(|g| g.volatility),
                &results,
            ],
        )
        .await?;
    }
    let moved: Vec<(i64, &PuzzleRated)> =
        moved_puzzles.iter().map(|&id| (id, &puzzles[&id])).collect();
    if !moved.is_empty() {
        let ids: Vec<i64> = moved.iter().map(|(id, _)| *id).collect();
        let g = |f: fn(&Glicko) -> f64| {
            moved
                .iter()
                .map(|(_, q)| f(&q.rated.glicko))
                .collect::<Vec<_>>()
        };
        let results: Vec<i64> = moved.iter().map(|(_, q)| q.rated.results as i64).collect();
        let days: Vec<i64> = moved.iter().map(|(_, q)| q.moves.day).collect();
        let moves: Vec<f64> = moved.iter().map(|(_, q)| q.moves.moved).collect();
        tx.execute(
            "UPDATE pseudoku_puzzle_ratings p SET rating = v.r, deviation = v.d, \
             volatility = v.v, results = v.n, held_day = v.hd, held_moved = v.hm \
             FROM unnest($1::int8[], $2::float8[], $3::float8[], $4::float8[], $5::int8[], \
             $6::int8[], $7::float8[]) AS v(i, r, d, v, n, hd, hm) WHERE p.puzzle_id = v.i",
            &[
                &ids,
                &g(|g| g.rating),
                &g(|g| g.deviation),
                &g(|g| g.volatility),
                &results,
                &days,
                &moves,
            ],
        )
        .await?;
    }
    // Rows the locks made for nothing rated are not kept.
    tx.execute(
        "WITH p AS (DELETE FROM pseudoku_player_ratings WHERE user_id = ANY($1) AND results = 0) \
         DELETE FROM pseudoku_puzzle_ratings WHERE puzzle_id = ANY($2) AND results = 0",
        &[&names, &puzzle_ids],
    )
    .await?;
    Ok(Some(out))
}

/// The prior `order` (sorted by id) holds for puzzle `id`.
fn order_prior(order: &[(i64, Glicko)], id: i64) -> Glicko {
    let at = order
        .binary_search_by_key(&id, |&(i, _)| i)
        .expect("every locked puzzle has its prior");
    order[at].1
}
