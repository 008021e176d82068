//! Deliveries and daily puzzles of a server in a fleet (`serve --history postgres://...`):
//! drawn from the server's own copy of the bank, recorded in the fleet's shared history,
//! whose uniqueness constraints decide every race between servers (never the draw). The bank
//! copy is only read.

use super::error::ApiError;
use super::{blocking, Shared, DRAW_RETRIES};
use crate::canon::Key;
use crate::levels::Levels;
use crate::retrieve::{self, Daily, Handout};
use crate::rng::Rng;
use crate::store::postgres::{BankIdentity, HistoryError, Postgres};
use crate::store::retrieval::{Selection, Within};
use crate::store::Bank;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a server started while its history cannot be reached keeps trying before it
/// stops (meanwhile it answers deliveries and `/healthz` with 503 and the reason).
pub const START_WAIT: Duration = Duration::from_secs(300);

/// The longest pause between two tries of an unreachable history at the start.
const RETRY_MAX: Duration = Duration::from_secs(8);

/// A fleet's server's history, and whether this server is bound to it (its schema brought up
/// to date and this copy of the bank checked against the one it records): until then, no
/// delivery or daily puzzle is answered but with 503.
#[derive(Clone)]
pub struct Fleet {
    /// The history.
    pub pg: Postgres,
    bound: Arc<AtomicBool>,
}

impl Fleet {
    /// A fleet's server's history, not bound yet.
    pub fn new(pg: Postgres) -> Fleet {
        Fleet {
            pg,
            bound: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the server is bound to its history.
    pub fn bound(&self) -> bool {
        self.bound.load(Ordering::Acquire)
    }

    /// The history, once bound; else the 503 that says why not.
    pub(super) fn ready(&self) -> Result<&Postgres, ApiError> {
        if self.bound() {
            Ok(&self.pg)
        } else {
            Err(ApiError::Unavailable(NOT_BOUND.into()))
        }
    }

    /// Brings the history's schema up to date and checks this copy of the bank (`conn`)
    /// against the one it records ([`Postgres::bind`]); bound when both succeed.
    pub async fn bind(&self, conn: &Mutex<Bank>, rebind: bool) -> Result<(), HistoryError> {
        let bank = BankIdentity::of(&conn.lock().expect("bank"))?;
        let at = |last: i64| {
            Ok(crate::store::lineage::at(
                &conn.lock().expect("bank"),
                last,
            )?)
        };
        self.pg.migrate().await?;
        self.pg.bind(&bank, &at, rebind, true).await?;
        self.bound.store(true, Ordering::Release);
        Ok(())
    }

    /// [`Fleet::bind`] again and again while the history cannot be reached (pauses doubling
    /// from a quarter of a second to [`RETRY_MAX`]), each failure told to `failed`, for at
    /// most [`START_WAIT`]; the error that ends it (one trying again does not change, or the
    /// last when the time is up).
    pub async fn bind_retrying(
        &self,
        conn: &Mutex<Bank>,
        rebind: bool,
        failed: impl Fn(&HistoryError),
    ) -> Result<(), HistoryError> {
        let until = tokio::time::Instant::now() + START_WAIT;
        let mut pause = Duration::from_millis(250);
        loop {
            match self.bind(conn, rebind).await {
                Ok(()) => return Ok(()),
                Err(e) if e.unreachable() && tokio::time::Instant::now() + pause < until => {
                    failed(&e);
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(RETRY_MAX);
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// Why a fleet's server that has not bound to its history answers 503.
pub const NOT_BOUND: &str =
    "the history has not been reached since this server started (it keeps trying)";

/// What `/healthz` says of a server whose last try to bind to its history failed with `e`.
pub fn not_bound(e: &HistoryError) -> String {
    format!("{}; {NOT_BOUND}", e.reason())
}

/// Candidates drawn at once, offered to the history in one statement, which records the first
/// the user has not had: a user has seldom had more than a small part of a range, so a few
/// are nearly always enough (each costs about four random probes of the bank copy).
const CANDIDATES: usize = 4;

/// Rounds of candidates before the draw lists what the user has left (a user who has had
/// most of the range).
const SAMPLES: usize = 4;

/// The history's failure as the API answers it (503), noted for `/healthz`.
pub(super) fn unavailable(s: &Shared, e: HistoryError) -> ApiError {
    let reason = e.reason();
    tracing::warn!(id = %super::log::current(), cause = %e, "the history failed");
    s.readiness.recorded(Some(reason.clone()));
    ApiError::Unavailable(reason)
}

/// A puzzle of `within` whose class `user` has never been given by any server, recorded as
/// the user's in the history before it is answered; `None` when the user has had them all.
///
/// Candidates are drawn uniformly from the range (random ids of the bank copy) and offered
/// to the history, which records the first the user has not had (`INSERT ... SELECT ... ON
/// CONFLICT DO NOTHING`, one round trip): inserted, it is the user's; none inserted (the user
/// had them all, or another server gave the user one meanwhile), new candidates are drawn.
/// After [`SAMPLES`] rounds without one (the user has had most of the range), the classes the
/// user was given are read and one of the range's other puzzles is picked uniformly.
pub(super) async fn deliver(
    s: &Arc<Shared>,
    fleet: &Fleet,
    user: &str,
    lv: Arc<Levels>,
    within: Selection,
) -> Result<Option<Handout>, ApiError> {
    let pg = fleet.ready()?;
    let mut listing = false;
    for round in 0..SAMPLES + DRAW_RETRIES {
        listing |= round >= SAMPLES;
        let rows = if listing {
            let given = pg
                .history()
                .taken(user)
                .await
                .map_err(|e| unavailable(s, e))?;
            let (s, lv) = (s.clone(), lv.clone());
            let picked = blocking(move || {
                let mut rng = s.rng();
                Ok(s.read(|c| retrieve::pick_except(c, &lv, within, &given, &mut rng))?)
            })
            .await?;
            match picked {
                Some(row) => vec![row],
                None => return Ok(None),
            }
        } else {
            let (s, lv) = (s.clone(), lv.clone());
            blocking(move || {
                let mut rng = s.rng();
                Ok(s.read(|c| retrieve::sample(c, &lv, within, CANDIDATES, &mut rng))?)
            })
            .await?
        };
        if rows.is_empty() {
            // Random ids found none of the range (a narrow one in a large bank): list it.
            listing = true;
            continue;
        }
        let candidates: Vec<(Key, i64)> = rows.iter().map(|r| (r.key, r.id)).collect();
        let claimed = claim(s, pg, user, &candidates).await?;
        let Some(row) = claimed.and_then(|id| rows.into_iter().find(|r| r.id == id)) else {
            // The user had them all, or another server gave one meanwhile: draw again.
            continue;
        };
        let lv = lv.clone();
        return blocking(move || Ok(retrieve::hand_out(row, &lv)?))
            .await
            .map(Some);
    }
    Err(ApiError::Conflict)
}

/// Offers `candidates` (class, puzzle id) to the history, which records as `user`'s the first
/// the user has not had ([`UserHistory::record`](crate::store::postgres::UserHistory::record)):
/// its id, counted as a delivery; `None` when none was.
async fn claim(
    s: &Arc<Shared>,
    pg: &Postgres,
    user: &str,
    candidates: &[(Key, i64)],
) -> Result<Option<i64>, ApiError> {
    let start = std::time::Instant::now();
    let claimed = pg
        .history()
        .record(user, candidates)
        .await
        .map_err(|e| unavailable(s, e))?;
    s.metrics
        .observe_write("history", start.elapsed().as_secs_f64());
    s.readiness.recorded(None);
    if claimed.is_some() {
        s.metrics.delivered(1);
    }
    Ok(claimed)
}

/// Rounds of a matched draw in one window before it is taken as empty for the user.
const MATCH_ROUNDS: usize = 12;

/// A puzzle for `user` whose learned rating (the history's) is near the player's, recorded as
/// the user's in the history before it is answered: the bank's matched draw
/// ([`retrieve::matched`]) with the played puzzles listed in the history and the unplayed
/// ones drawn from this server's copy, offered to the history as [`deliver`] offers its
/// candidates; windows that widen, then any puzzle.
pub(super) async fn deliver_matched(
    s: &Arc<Shared>,
    fleet: &Fleet,
    user: &str,
    lv: Arc<Levels>,
) -> Result<Option<Handout>, ApiError> {
    let pg = fleet.ready()?;
    let failed = |e| unavailable(s, e);
    let rating = pg
        .play()
        .player(user)
        .await
        .map_err(failed)?
        .map_or(crate::play::newcomer(), |r| r.glicko)
        .rating;
    let bank = {
        let s = s.clone();
        blocking(move || Ok(s.read(crate::store::retrieval::span)?)).await?
    }
    .map_or(0, |(_, n)| u64::from(n));
    let mut rng = s.rng();
    for window in crate::play::windows(rating) {
        let inside = |r: f64| r >= window.0 && r <= window.1;
        let played = pg
            .play()
            .rated_in(window, retrieve::MATCH_COUNT_CAP)
            .await
            .map_err(failed)?;
        for _ in 0..MATCH_ROUNDS {
            let Some(set) = retrieve::match_set(window, (played, bank), &mut rng) else {
                break;
            };
            let handouts: Vec<Handout> = match set {
                retrieve::MatchSet::Played(at) => {
                    let Some(id) = pg.play().rated_at(window, at).await.map_err(failed)? else {
                        continue;
                    };
                    let (s, lv) = (s.clone(), lv.clone());
                    blocking(move || Ok(s.read(|c| retrieve::by_id(c, &lv, id))?))
                        .await?
                        .into_iter()
                        .collect()
                }
                retrieve::MatchSet::Priors => {
                    // A few candidates whose priors lie in the window, offered together; one
                    // whose learned rating (the history's) left the window is passed over.
                    let (s2, lv) = (s.clone(), lv.clone());
                    let mut draw = Rng::new(rng.next_u64());
                    let found = blocking(move || {
                        let mut found = Vec::new();
                        for _ in 0..CANDIDATES {
                            if let Some(h) =
                                s2.read(|c| retrieve::prior_candidate(c, &lv, window, &mut draw))?
                            {
                                if !found.iter().any(|f: &Handout| f.id == h.id) {
                                    found.push(h);
                                }
                            }
                        }
                        Ok(found)
                    })
                    .await?;
                    let ids: Vec<i64> = found.iter().map(|h| h.id).collect();
                    let learned = pg.play().ratings_of(&ids).await.map_err(failed)?;
                    found
                        .into_iter()
                        .filter(|h| {
                            learned
                                .iter()
                                .find(|(id, _)| *id == h.id)
                                .is_none_or(|&(_, r)| inside(r))
                        })
                        .collect()
                }
            };
            if handouts.is_empty() {
                continue;
            }
            let candidates: Vec<(Key, i64)> = handouts.iter().map(|h| (h.key, h.id)).collect();
            let claimed = claim(s, pg, user, &candidates).await?;
            if let Some(h) = claimed.and_then(|id| handouts.into_iter().find(|h| h.id == id)) {
                return Ok(Some(h));
            }
        }
    }
    deliver(s, fleet, user, lv, Selection::from(Within::All)).await
}

/// The daily puzzle of `date` at a level (its name and its puzzles on `lv`), as the fleet's
/// history records it: the one any server recorded; else the one this bank copy chooses
/// ([`retrieve::choose_daily`], never a class that is another date's), recorded with `INSERT
/// ... ON CONFLICT DO NOTHING` and read back, so that when two servers choose at once the
/// first recorded is everyone's.
pub(super) async fn daily(
    s: &Arc<Shared>,
    fleet: &Fleet,
    date: crate::calendar::Date,
    (level, within): (&str, Within),
    lv: Arc<Levels>,
) -> Result<Daily, ApiError> {
    let pg = fleet.ready()?;
    let day = date.to_string();
    for _ in 0..DRAW_RETRIES {
        if let Some(key) = pg
            .daily()
            .recorded(&day, level)
            .await
            .map_err(|e| unavailable(s, e))?
        {
            let (s, lv) = (s.clone(), lv.clone());
            let found = blocking(move || Ok(s.read(|c| retrieve::by_key(c, &lv, &key))?)).await?;
            return match found {
                Some(h) => Ok(Daily::Puzzle(Box::new(h))),
                // A server on an older copy, while the fleet is refreshed.
                None => Err(ApiError::Unavailable(format!(
                    "this server's copy of the bank lacks the daily puzzle of {day} (an older \
                     copy: try again)"
                ))),
            };
        }
        let taken = pg.daily().classes().await.map_err(|e| unavailable(s, e))?;
        let chosen = {
            let (s, lv, level) = (s.clone(), lv.clone(), level.to_string());
            blocking(move || {
                let today = crate::calendar::Date::today();
                Ok(s.read(|c| {
                    retrieve::choose_daily(c, &lv, date, (&level, within), today, |k| {
                        Ok(taken.contains(k))
                    })
                })?)
            })
            .await?
        };
        match chosen {
            Ok(h) => {
                let start = std::time::Instant::now();
                let recorded = pg
                    .daily()
                    .record(&day, level, h.id, &h.key)
                    .await
                    .map_err(|e| unavailable(s, e))?;
                s.metrics
                    .observe_write("daily", start.elapsed().as_secs_f64());
                if recorded {
                    return Ok(Daily::Puzzle(Box::new(h)));
                }
                // Another server's puzzle of the date, or this class another date's
                // meanwhile: the next round reads what is recorded.
            }
            Err(none) => return Ok(none),
        }
    }
    Err(ApiError::Conflict)
}
