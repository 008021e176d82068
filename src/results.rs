//! Players' results: an app's log of games counted (`results import FILE`), one game counted
//! ([`count_game`]), a player read back ([`player`]), and the learned ratings read back for
//! `calibrate --from-play` ([`fit_from_play`]).
//!
//! The log (`results import FILE`): JSON lines with the keys of
//! `POST /v1/results`, the puzzle by its bank id, each counted as the route counts it but for
//! the delivery, which the log says happened (it is recorded with the result, if it was not:
//! the app may have handed its puzzles out by other means). Counted in the file's order, in a
//! bank or a fleet's history; bad lines named and skipped; a line counted before (an import
//! stopped and run again) passed over, so a run again continues where one stopped.

use crate::input::{Line, Lines, MAX_LINE};
use crate::levels::{LabelledFit, LevelNames, Levels, LevelsError, RatingKind};
use crate::play::{prior, Counted, Game, GameError, Learned, Rated, Refused};
use crate::retrieve::Handout;
use crate::store::play::Delivered;
pub use crate::store::play::PlayedGame;
use crate::store::{self, StoreError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Lines counted in one transaction of a bank.
const BATCH: usize = 2_000;

/// Where the games are counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// In the bank.
    Bank,
    /// In a fleet's history (`postgres://...`), the bank being only read.
    Fleet(String),
}

/// How a log's counting went (so far, while it runs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counting {
    /// Lines read.
    pub lines: u64,
    /// Games counted (their ratings moved, or kept unrated as glances).
    pub counted: u64,
    /// Of those, glances (left within a few seconds): kept, rated by nothing.
    pub unrated: u64,
    /// Lines whose game was counted before (by this log run earlier, or another).
    pub again: u64,
    /// Lines skipped, each `(line, reason)`.
    pub problems: Vec<(u64, String)>,
    /// True when stopped early (on the stop flag); the same command continues.
    pub stopped: bool,
}

/// Why a log could not be counted.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file could not be read.
    #[error("{}: {source}", .file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The bank failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank's levels could not be read.
    #[error(transparent)]
    Levels(#[from] crate::levels::LevelsError),
    /// The bank's history was moved to a fleet's history: results counted in the bank alone
    /// would be read by no server.
    #[error(
        "{}: this bank's history was {moved}: results counted in the bank alone would be read \
         by no server; count them in the fleet's history (--history URL), or bring the history \
         back first with `pseudoku history import URL`",
        .db.display()
    )]
    Moved {
        /// The bank.
        db: PathBuf,
        /// Where the history went, and when.
        moved: String,
    },
    /// A server records in the bank.
    #[error(
        "{}: a server records deliveries in this bank (or its history is being moved): send \
         the results to it (POST /v1/results), or stop it first",
        .0.display()
    )]
    Held(PathBuf),
    /// The fleet's history failed.
    #[error(transparent)]
    History(#[from] store::postgres::HistoryError),
    /// A stored puzzle could not be handed out (a damaged row).
    #[error("{0}")]
    Puzzle(String),
    /// The async runtime could not start.
    #[error("{0}")]
    Runtime(std::io::Error),
    /// A game out of reason: a bad user or puzzle id, an absurd time, too many hints or
    /// mistakes.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A game the bank refuses: its puzzle is not in the bank, or the user's result for it
    /// was counted already.
    #[error(transparent)]
    Refused(#[from] Refused),
    /// Too few puzzles rated by players, of some level, to fit the levels on (each problem a
    /// line); `min_results` decided which puzzles counted.
    #[error(
        "{}\nthe puzzles players rated are those with at least {min_results} results each \
         ({played} puzzles); `--min-results N` counts puzzles with fewer",
        .problems.join("\n")
    )]
    FewPlayed {
        /// The problems of the fit, one a line.
        problems: Vec<String>,
        /// The results a puzzle needed to count.
        min_results: u64,
        /// The puzzles that counted.
        played: usize,
    },
}

/// A runtime of one thread and one connection to the fleet's history at `url`.
fn connect(url: &str) -> Result<(tokio::runtime::Runtime, store::postgres::Postgres), LogError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(LogError::Runtime)?;
    Ok((runtime, store::postgres::Postgres::connect(url, 1)?))
}

/// One line read: its game, checked, or why it is skipped (`None`: a blank line).
fn parse(line: &[u8], read: Line) -> Option<Result<Game, String>> {
    if read == Line::Long {
        return Some(Err(format!(
            "a line longer than {MAX_LINE} bytes (skipped)"
        )));
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Some(Err("not valid UTF-8 text".into()));
    };
    if text.trim().is_empty() {
        return None;
    }
    Some(
        serde_json::from_str::<Game>(text)
            .map_err(|e| format!("not a result: {e}"))
            .and_then(|game| game.check().map(|()| game).map_err(|e| e.to_string())),
    )
}

/// The bank's deliveries lock, held while games are counted in the bank itself: refused when
/// the bank's history was moved to a fleet's, or a server records in the bank.
fn hold_bank(conn: &store::Bank, db: &Path) -> Result<store::lock::DeliveriesLock, LogError> {
    if let Some(moved) = store::settings::get(conn, store::postgres::MOVED_KEY)? {
        return Err(LogError::Moved {
            db: db.to_path_buf(),
            moved,
        });
    }
    store::lock::DeliveriesLock::try_acquire(db)?.ok_or_else(|| LogError::Held(db.to_path_buf()))
}

/// The puzzle of a game: the bank's row `id` handed out on the scale `levels`, or `None`.
fn game_puzzle(conn: &store::Bank, levels: &Levels, id: i64) -> Result<Option<Handout>, LogError> {
    crate::retrieve::by_id(conn, levels, id).map_err(|e| match e {
        crate::retrieve::RetrieveError::Store(e) => LogError::Store(e),
        crate::retrieve::RetrieveError::Levels(e) => LogError::Levels(e),
        other => LogError::Puzzle(other.to_string()),
    })
}

/// Counts one game in the bank at `db` as a line of a log is counted (`results import`):
/// checked ([`Game::check`]), its delivery recorded with it if it was not, the player's and
/// the puzzle's learned ratings moved; what it did, once committed. Refused
/// ([`LogError::Refused`]) for a puzzle the bank does not have, or a user's second result for
/// a puzzle; like a log, refused while a server records in the bank or when its history was
/// moved to a fleet's.
pub fn count_game(db: &Path, game: &Game) -> Result<Counted, LogError> {
    game.check()?;
    let conn = store::open_existing(db)?;
    let _held = hold_bank(&conn, db)?;
    let levels = Levels::read(&conn)?;
    let h = game_puzzle(&conn, &levels, game.puzzle)?.ok_or(Refused::NoPuzzle(game.puzzle))?;
    let counted = store::immediate(&conn, || {
        store::play::count(
            &conn,
            game,
            &h.key,
            prior(h.percentile),
            Delivered::Recorded,
        )
    })?;
    Ok(counted?)
}

/// A player as the bank knows them (`GET /v1/players/{user}` of a server on the bank).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Player {
    /// The app's id of the user.
    pub user: String,
    /// Their learned rating (a new player's, 1500 with deviation 350, before any rated game).
    pub learned: Learned,
    /// Their games counted.
    pub games: u64,
    /// Their last games, the latest first.
    pub history: Vec<PlayedGame>,
}

/// The player `user` of the bank `conn`: their learned rating, how many games of theirs were
/// counted and their last `limit` games, the latest first (a user with no game: a new
/// player's rating and no games). Reads only.
pub fn player(conn: &store::Bank, user: &str, limit: usize) -> Result<Player, LogError> {
    if !crate::play::is_user_id(user) {
        return Err(GameError::User(user.to_string()).into());
    }
    let (history, games) = store::play::games(conn, user, limit)?;
    let rated = store::play::player(conn, user)?.unwrap_or(Rated::fresh(crate::play::newcomer()));
    Ok(Player {
        user: user.to_string(),
        learned: rated.view(),
        games,
        history,
    })
}

/// Counts the games of `file` in the bank at `db` (or in a fleet's history), in the file's
/// order; `progress` hears how it goes after every batch; `stop` stops it after the batch.
pub fn count_file(
    db: &Path,
    file: &Path,
    target: &Target,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Counting),
) -> Result<Counting, LogError> {
    let read_err = |source| LogError::Read {
        file: file.to_path_buf(),
        source,
    };
    let mut lines = Lines::new(std::io::BufReader::new(
        std::fs::File::open(file).map_err(read_err)?,
    ));
    let conn = store::open_existing(db)?;
    let levels = Levels::read(&conn)?;
    let mut out = Counting::default();
    let (fleet, _held) = match target {
        Target::Bank => (None, Some(hold_bank(&conn, db)?)),
        Target::Fleet(url) => {
            let (runtime, pg) = connect(url)?;
            let bank = store::postgres::BankIdentity::of(&conn)?;
            // The check reads the bank's lineage on a connection of its own.
            let check = std::sync::Mutex::new(store::open_existing(db)?);
            let at = |last: i64| Ok(store::lineage::at(&check.lock().expect("bank"), last)?);
            runtime.block_on(async {
                pg.migrate().await?;
                pg.bind(&bank, &at, false, false).await.map(|_| ())
            })?;
            (Some((runtime, pg)), None)
        }
    };
    let mut bytes = Vec::new();
    loop {
        // A batch of lines read: each game with its line, its puzzle found in the bank.
        let mut batch = Vec::with_capacity(BATCH);
        let mut read = 0;
        while read < BATCH {
            let Some(line) = lines.next_into(&mut bytes).map_err(read_err)? else {
                break;
            };
            read += 1;
            out.lines += 1;
            let at = out.lines;
            let game = match parse(&bytes, line) {
                None => continue,
                Some(Ok(game)) => game,
                Some(Err(why)) => {
                    out.problems.push((at, why));
                    continue;
                }
            };
            match game_puzzle(&conn, &levels, game.puzzle)? {
                Some(h) => batch.push((at, (game, h.key, prior(h.percentile)))),
                None => out
                    .problems
                    .push((at, Refused::NoPuzzle(game.puzzle).to_string())),
            }
        }
        let counted = match &fleet {
            None => store::immediate(&conn, || -> Result<Vec<_>, LogError> {
                let mut counted = Vec::with_capacity(batch.len());
                for (_, (game, key, prior)) in &batch {
                    counted.push(store::play::count(
                        &conn,
                        game,
                        key,
                        *prior,
                        Delivered::Recorded,
                    )?);
                }
                Ok(counted)
            })?,
            Some((runtime, pg)) => {
                let mut counted = Vec::with_capacity(batch.len());
                for part in batch.chunks(store::postgres::PLAY_BATCH) {
                    let games: Vec<_> = part.iter().map(|(_, g)| g.clone()).collect();
                    counted.extend(runtime.block_on(pg.play().count_log(&games))?);
                }
                counted
            }
        };
        for ((at, _), counted) in batch.iter().zip(counted) {
            match counted {
                Ok(c) => {
                    out.counted += 1;
                    out.unrated += u64::from(c.score.is_none());
                }
                Err(Refused::Again { .. }) => out.again += 1,
                Err(other) => out.problems.push((*at, other.to_string())),
            }
        }
        // The problems in line order (a puzzle not found is named as the line is read).
        out.problems.sort_by_key(|(at, _)| *at);
        progress(&out);
        if read < BATCH {
            break;
        }
        if stop.load(Ordering::Relaxed) {
            out.stopped = true;
            break;
        }
    }
    Ok(out)
}

/// The puzzles rated by `min_results` results or more (id and learned rating), from the bank
/// `conn` or, given its address, a fleet's history.
pub fn learned_puzzles(
    conn: &store::Bank,
    history: Option<&str>,
    min_results: u64,
) -> Result<Vec<(i64, Rated)>, LogError> {
    let Some(url) = history else {
        return Ok(crate::store::play::learned_puzzles(conn, min_results)?);
    };
    let (runtime, pg) = connect(url)?;
    Ok(runtime.block_on(pg.play().learned_puzzles(min_results))?)
}

/// Levels refitted to human time (`calibrate --from-play`): the puzzles rated by `min_results`
/// results or more (in the bank `conn`, or the fleet's history at `history`) labelled by their
/// learned ratings, each level `names` names as many of them as it holds now, the easiest by
/// players first, and the levels fitted on them on `rating` as labelled puzzles are
/// ([`crate::levels::fit_examples`], on `pool`'s threads). `stage` hears each step. Too few
/// of a level: [`LogError::FewPlayed`].
pub fn fit_from_play(
    conn: &store::Bank,
    history: Option<&str>,
    min_results: u64,
    names: &LevelNames,
    rating: RatingKind,
    pool: &rayon::ThreadPool,
    stage: &dyn Fn(String),
) -> Result<LabelledFit, LogError> {
    stage("reading the learned ratings".into());
    let learned = learned_puzzles(conn, history, min_results)?;
    let examples = crate::levels::play_examples(conn, &learned)?;
    let played = examples.len();
    stage(format!("rating and fitting {played} played puzzles"));
    let source = Path::new("the puzzles players rated");
    pool.install(|| crate::levels::fit_examples(source, examples, Some(names), rating))
        .map_err(|e| match e {
            LevelsError::Labelled(problems) => LogError::FewPlayed {
                problems,
                min_results,
                played,
            },
            e => e.into(),
        })
}
