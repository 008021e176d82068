//! Players' results in bulk: an app's log of games counted (`results import FILE`), and the
//! learned ratings read back for `calibrate --from-play`.
//!
//! The log (`results import FILE`): JSON lines with the keys of
//! `POST /v1/results`, the puzzle by its bank id, each counted as the route counts it but for
//! the delivery, which the log says happened (it is recorded with the result, if it was not:
//! the app may have handed its puzzles out by other means). Counted in the file's order, in a
//! bank or a fleet's history; bad lines named and skipped; a line counted before (an import
//! stopped and run again) passed over, so a run again continues where one stopped.

use crate::input::{Line, Lines, MAX_LINE};
use crate::levels::Levels;
use crate::play::{prior, Game, Rated, Refused};
use crate::store::play::Delivered;
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
    let fleet = match target {
        Target::Bank => {
            if let Some(moved) = store::settings::get(&conn, store::postgres::MOVED_KEY)? {
                return Err(LogError::Moved {
                    db: db.to_path_buf(),
                    moved,
                });
            }
            None
        }
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
            Some((runtime, pg))
        }
    };
    let _held = match fleet {
        None => Some(
            store::lock::DeliveriesLock::try_acquire(db)?
                .ok_or_else(|| LogError::Held(db.to_path_buf()))?,
        ),
        Some(_) => None,
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
            let found =
                crate::retrieve::by_id(&conn, &levels, game.puzzle).map_err(|e| match e {
                    crate::retrieve::RetrieveError::Store(e) => LogError::Store(e),
                    crate::retrieve::RetrieveError::Levels(e) => LogError::Levels(e),
                    other => LogError::Puzzle(other.to_string()),
                })?;
            match found {
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
    conn: &rusqlite::Connection,
    history: Option<&str>,
    min_results: u64,
) -> Result<Vec<(i64, Rated)>, LogError> {
    let Some(url) = history else {
        return Ok(crate::store::play::learned_puzzles(conn, min_results)?);
    };
    let (runtime, pg) = connect(url)?;
    Ok(runtime.block_on(pg.play().learned_puzzles(min_results))?)
}
