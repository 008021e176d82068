//! Where a server records what it hands out, as one value ([`Recorder`]): in its bank (through
//! the bank's writer), in a fleet's history (PostgreSQL), or nowhere (a read-only server). The
//! routes hand out puzzles and daily puzzles through it and never ask which it is.

use super::error::ApiError;
use super::fleet::Fleet;
use super::writer::{BankWriter, Unwritten};
use super::{blocking, Shared, DRAW_RETRIES};
use crate::calendar::Date;
use crate::canon::Key;
use crate::levels::Levels;
use crate::play::{Counted, Game, Glicko, Rated, Refused};
use crate::retrieve::{self, Daily, Draws, Handout, Recipient, RetrieveError};
use crate::rng::Rng;
use crate::store::play::PlayedGame;
use crate::store::StoreError;
use crate::store::{self, retrieval::Selection, retrieval::Within, Bank};
use std::sync::Arc;

/// A daily puzzle of the archive ([`Recorder::archive`]).
pub struct PastDaily {
    /// Its date.
    pub date: Date,
    /// Its puzzle's id in this bank.
    pub id: i64,
    /// Its number in the bank's daily series, when an export published it.
    pub number: Option<u32>,
    /// The player's game of it, when they have a result for it.
    pub game: Option<PlayedGame>,
}

/// Where a server records deliveries and daily puzzles.
pub enum Recorder {
    /// In its bank, through the bank's writer.
    Bank(BankWriter),
    /// In a fleet's shared history; the bank copy is only read.
    Fleet(Fleet),
    /// Nowhere (`--read-only`): every read, no delivery.
    ReadOnly,
}

/// Why a read-only server answers a delivery or a new daily puzzle with 503.
const READ_ONLY: &str = "this server is read-only: it records nothing";

impl Recorder {
    /// True for a server that records no delivery.
    pub fn read_only(&self) -> bool {
        matches!(self, Recorder::ReadOnly)
    }

    /// Takes no more deliveries: a bank's writer commits what it holds and ends.
    pub fn close(&self) {
        if let Recorder::Bank(writer) = self {
            writer.close();
        }
    }

    /// A puzzle of `within` whose class `user` has never been given, recorded as the user's
    /// before it is answered; `None` when the user has had them all.
    pub async fn deliver(
        &self,
        s: &Arc<Shared>,
        user: &str,
        lv: Arc<Levels>,
        within: Selection,
    ) -> Result<Option<Handout>, ApiError> {
        match self {
            Recorder::Fleet(fleet) => super::fleet::deliver(s, fleet, user, lv, within).await,
            Recorder::Bank(writer) => deliver(s, Some(writer), user, lv, within).await,
            Recorder::ReadOnly => deliver(s, None, user, lv, within).await,
        }
    }

    /// The daily puzzle of `date` at a level (its name and its puzzles on `lv`): the one
    /// recorded, else one chosen and recorded.
    pub async fn daily(
        &self,
        s: &Arc<Shared>,
        date: crate::calendar::Date,
        (level, within): (&str, Within),
        lv: Arc<Levels>,
    ) -> Result<Daily, ApiError> {
        let writer = match self {
            Recorder::Fleet(fleet) => {
                return super::fleet::daily(s, fleet, date, (level, within), lv).await
            }
            Recorder::Bank(writer) => Some(writer),
            Recorder::ReadOnly => None,
        };
        // Recorded already (every request but the first of a date and level): a read.
        let found = {
            let (s, level, lv) = (s.clone(), level.to_string(), lv.clone());
            blocking(move || Ok(s.read(|c| retrieve::recorded_daily(c, &lv, date, &level))?))
                .await?
        };
        if let Some(recorded) = found {
            return Ok(recorded);
        }
        let chosen = match writer {
            Some(writer) => writer.daily(date, (level, within), lv).await,
            None => Err(Unwritten::Closed(READ_ONLY.into())),
        };
        chosen.map_err(|e| ApiError::unwritten("the daily puzzle", "recording the daily puzzle", e))
    }

    /// The daily puzzles recorded at `level` for the dates from `from` to `to`, the latest
    /// first: each date with its puzzle's id in this bank, its number in the daily series
    /// when an export published it and, asked for a `user`, their game of it if they have a
    /// result. A fleet's day whose class this server's copy of the bank lacks (an older copy)
    /// is left out.
    pub async fn archive(
        &self,
        s: &Arc<Shared>,
        (from, to): (Date, Date),
        level: &str,
        user: Option<&str>,
    ) -> Result<Vec<PastDaily>, ApiError> {
        // The days recorded, as (date, class) in a fleet's history, else read from the bank.
        let (fleet_days, games) = match (self, user) {
            (Recorder::Fleet(fleet), user) => {
                let pg = fleet.ready()?;
                let failed = |e| super::fleet::unavailable(s, e);
                let days = pg.daily().between(from, to, level).await.map_err(failed)?;
                let keys: Vec<Key> = days.iter().map(|d| d.1).collect();
                let games = match user {
                    Some(user) => pg.play().games_of(user, &keys).await.map_err(failed)?,
                    None => Vec::new(),
                };
                (Some(days), games)
            }
            _ => (None, Vec::new()),
        };
        let (s, level, user) = (s.clone(), level.to_string(), user.map(str::to_string));
        blocking(move || {
            Ok(s.read(|c| -> Result<_, StoreError> {
                let (days, games) = match fleet_days {
                    Some(days) => {
                        let mut found = Vec::with_capacity(days.len());
                        for (date, key) in days {
                            if let Some(id) = store::history::id_of(c, &key)? {
                                found.push((date, id, key));
                            }
                        }
                        (found, games)
                    }
                    None => {
                        let days = store::daily::between(c, from, to, &level)?;
                        let keys: Vec<Key> = days.iter().map(|d| d.2).collect();
                        let games = match &user {
                            Some(user) => store::play::games_of(c, user, &keys)?,
                            None => Vec::new(),
                        };
                        (days, games)
                    }
                };
                let mut past = Vec::with_capacity(days.len());
                for (date, id, key) in days {
                    past.push(PastDaily {
                        date,
                        id,
                        number: store::batches::daily_number(c, date, id)?,
                        game: games.iter().find(|g| g.0 == key).map(|g| g.1.clone()),
                    });
                }
                Ok(past)
            })?)
        })
        .await
    }

    /// Counts a player's game (its puzzle of class `key`, with `prior` if it has no learned
    /// rating yet), or refuses it: what it did, once committed.
    pub async fn count(
        &self,
        s: &Arc<Shared>,
        game: Game,
        key: Key,
        prior: Glicko,
    ) -> Result<Result<Counted, Refused>, ApiError> {
        match self {
            Recorder::Bank(writer) => writer
                .count(game, key, prior)
                .await
                .map_err(|e| ApiError::unwritten("counting", "counting the result", e)),
            Recorder::Fleet(fleet) => {
                let pg = fleet.ready()?;
                let start = std::time::Instant::now();
                let counted = pg
                    .play()
                    .count(&game, &key, prior, store::play::Delivered::Required)
                    .await
                    .map_err(|e| super::fleet::unavailable(s, e))?;
                s.metrics
                    .observe_write("result", start.elapsed().as_secs_f64());
                Ok(counted)
            }
            Recorder::ReadOnly => Err(ApiError::Unavailable(format!("counting: {READ_ONLY}"))),
        }
    }

    /// A player's learned rating (if any game of theirs was rated), their last `limit` games
    /// and how many they have had.
    pub async fn player(
        &self,
        s: &Arc<Shared>,
        user: &str,
        limit: usize,
    ) -> Result<(Option<Rated>, Vec<PlayedGame>, u64), ApiError> {
        if let Recorder::Fleet(fleet) = self {
            let pg = fleet.ready()?;
            let failed = |e| super::fleet::unavailable(s, e);
            let rated = pg.play().player(user).await.map_err(failed)?;
            let (games, n) = pg.play().games(user, limit).await.map_err(failed)?;
            return Ok((rated, games, n));
        }
        let (s, user) = (s.clone(), user.to_string());
        blocking(move || {
            Ok(s.read(|c| -> Result<_, StoreError> {
                let (games, n) = store::play::games(c, &user, limit)?;
                Ok((store::play::player(c, &user)?, games, n))
            })?)
        })
        .await
    }

    /// A puzzle's learned rating: the one its games taught, else its prior (no games).
    pub async fn learned(&self, s: &Arc<Shared>, h: &Handout) -> Result<Rated, ApiError> {
        if let Recorder::Fleet(fleet) = self {
            let pg = fleet.ready()?;
            let found = pg
                .play()
                .puzzle(h.id)
                .await
                .map_err(|e| super::fleet::unavailable(s, e))?;
            return Ok(found.unwrap_or_else(|| Rated::fresh(crate::play::prior(h.percentile))));
        }
        let (s, h) = (s.clone(), h.clone());
        blocking(move || Ok(s.read(|c| crate::retrieve::learned(c, &h))?)).await
    }

    /// A puzzle for `user` whose learned rating is near the player's (windows that widen
    /// while each has nothing left for the user, then any puzzle), recorded as the user's
    /// before it is answered; `None` when the user has had them all.
    pub async fn deliver_matched(
        &self,
        s: &Arc<Shared>,
        user: &str,
        lv: Arc<Levels>,
    ) -> Result<Option<Handout>, ApiError> {
        let writer = match self {
            Recorder::Fleet(fleet) => {
                return super::fleet::deliver_matched(s, fleet, user, lv).await
            }
            Recorder::Bank(writer) => Some(writer),
            Recorder::ReadOnly => None,
        };
        let rating = {
            let (s, user) = (s.clone(), user.to_string());
            blocking(move || Ok(s.read(|c| store::play::player(c, &user))?)).await?
        }
        .map_or(crate::play::newcomer(), |r| r.glicko)
        .rating;
        for window in crate::play::windows(rating) {
            let draw = move |c: &Bank, lv: &Levels, user: &str, rng: &mut Rng| {
                retrieve::matched(c, lv, user, window, rng)
            };
            // None left in the window for the user, or every draw taken meanwhile: wider.
            if let Some(Some(h)) = deliver_drawn(s, writer, user, &lv, draw).await? {
                return Ok(Some(h));
            }
        }
        deliver(s, writer, user, lv, Selection::from(Within::All)).await
    }

    /// Whether `user` was given the class `key`: a delivery, or the daily puzzle the user
    /// asked for.
    pub async fn given(&self, s: &Arc<Shared>, user: &str, key: Key) -> Result<bool, ApiError> {
        if let Recorder::Fleet(fleet) = self {
            let pg = fleet.ready()?;
            return pg
                .history()
                .given(user, &key)
                .await
                .map_err(|e| super::fleet::unavailable(s, e));
        }
        let (s, user) = (s.clone(), user.to_string());
        blocking(move || Ok(s.read(|c| store::history::given(c, &user, &key))?)).await
    }

    /// Whether `user` was ever given anything: a user this server (or its fleet) knows.
    pub async fn known(&self, s: &Arc<Shared>, user: &str) -> Result<bool, ApiError> {
        if let Recorder::Fleet(fleet) = self {
            let pg = fleet.ready()?;
            return pg
                .history()
                .known(user)
                .await
                .map_err(|e| super::fleet::unavailable(s, e));
        }
        let (s, user) = (s.clone(), user.to_string());
        blocking(move || Ok(s.read(|c| store::history::known(c, &user))?)).await
    }

    /// Records that `user` asked for the daily puzzle `h`: its delivery to them, which their
    /// result needs (committed before it is answered). A read-only server records nothing.
    pub async fn hand_daily(
        &self,
        s: &Arc<Shared>,
        user: &str,
        h: &Handout,
    ) -> Result<(), ApiError> {
        match self {
            Recorder::Bank(writer) => writer
                .record(user, h.key, h.id)
                .await
                .map(|_| ())
                .map_err(|e| ApiError::unwritten("recording", "recording the delivery", e)),
            Recorder::Fleet(fleet) => {
                let pg = fleet.ready()?;
                pg.history()
                    .record_daily(user, &h.key, h.id)
                    .await
                    .map_err(|e| super::fleet::unavailable(s, e))
            }
            Recorder::ReadOnly => Ok(()),
        }
    }

    /// Looks at where deliveries are recorded, for `/healthz`: a fleet's server that is bound
    /// asks its history whether it answers (one that answers again clears an earlier failure:
    /// a server taken out of the balancer gets no delivery to clear it).
    pub async fn look(&self, s: &Shared) {
        if let Recorder::Fleet(fleet) = self {
            if fleet.bound() {
                let answered = fleet.pg.ping().await.err().map(|e| e.reason());
                s.readiness.recorded(answered);
            }
        }
    }

    /// Whether deliveries can be recorded, and if not why (`conn`: a reading connection to
    /// the bank `s` serves): the last recording did not fail and, in a bank, its disk has room.
    /// A read-only server records none by design and is healthy for reads.
    pub fn health(&self, s: &Shared, conn: &Bank) -> Result<(), String> {
        s.readiness.check(conn, |last| match self {
            Recorder::ReadOnly => Ok(()),
            Recorder::Fleet(_) => last.map_or(Ok(()), |e| Err(e.to_string())),
            Recorder::Bank(_) => {
                if let Some(e) = last {
                    return Err(format!("the last deliveries could not be recorded: {e}"));
                }
                match store::free_bytes(&s.db) {
                    Some(free) if free < super::readiness::MIN_FREE_BYTES => Err(format!(
                        "the bank's disk is full ({free} bytes free): deliveries cannot be \
                         recorded"
                    )),
                    _ => Ok(()),
                }
            }
        })
    }
}

/// A puzzle of `within` whose class `user` has never been given, recorded in the bank's
/// history by its writer before it is answered (a read-only server draws it and refuses to
/// hand it out); `None` when the user has had them all.
async fn deliver(
    s: &Arc<Shared>,
    writer: Option<&BankWriter>,
    user: &str,
    lv: Arc<Levels>,
    within: Selection,
) -> Result<Option<Handout>, ApiError> {
    let draw = move |c: &Bank, lv: &Levels, user: &str, rng: &mut Rng| {
        Draws::new(c, lv, within, Recipient::User(user))?.next(rng)
    };
    deliver_drawn(s, writer, user, &lv, draw)
        .await?
        .ok_or(ApiError::Conflict)
}

/// A puzzle `draw` finds for `user` (on a reading connection, with the bank's scale and a
/// random stream), recorded in the bank's history by its writer before it is answered, drawn
/// again while another request of the user took it first: `Some(Some(puzzle))`, `Some(None)`
/// when `draw` found none, `None` when [`DRAW_RETRIES`] draws were all taken.
async fn deliver_drawn(
    s: &Arc<Shared>,
    writer: Option<&BankWriter>,
    user: &str,
    lv: &Arc<Levels>,
    draw: impl Fn(&Bank, &Levels, &str, &mut Rng) -> Result<Option<Handout>, RetrieveError>
        + Clone
        + Send
        + 'static,
) -> Result<Option<Option<Handout>>, ApiError> {
    for _ in 0..DRAW_RETRIES {
        let drawn = {
            let (s, user, lv, draw) = (s.clone(), user.to_string(), lv.clone(), draw.clone());
            blocking(move || {
                let mut rng = s.rng();
                Ok(s.read(|c| draw(c, &lv, &user, &mut rng))?)
            })
            .await?
        };
        let Some(h) = drawn else {
            return Ok(Some(None));
        };
        let recorded = match writer {
            Some(writer) => writer.record(user, h.key, h.id).await,
            None => Err(Unwritten::Closed(READ_ONLY.into())),
        };
        if recorded.map_err(|e| ApiError::unwritten("recording", "recording the delivery", e))? {
            return Ok(Some(Some(h)));
        }
    }
    Ok(None)
}
