//! `GET /v1/daily`: the daily puzzle of a date and level, the same for every user.

use super::super::error::{ApiError, ErrorBody};
use super::super::{blocking, Shared};
use super::puzzles::PuzzleView;
use super::{admit, levels_now, player, wants_solution, ApiQuery, Client, Reply};
use crate::calendar::Date;
use crate::retrieve::{self, Selector};
use crate::store;
use crate::store::play::PlayedGame;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// The query of `GET /v1/daily`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DailyQuery {
    /// The date, `YYYY-MM-DD` (the player's own): at most tomorrow in UTC; before 30 days ago,
    /// only a recorded one.
    #[param(required = true)]
    pub date: Option<String>,
    /// A level's name.
    #[param(required = true)]
    pub level: Option<String>,
    /// `true` to include the solution.
    pub solution: Option<String>,
    /// The player asking: the puzzle is recorded as handed to them (asking is the daily
    /// puzzle's delivery), which a result for it needs.
    pub user: Option<String>,
}

/// A daily puzzle as the API gives it: the puzzle and its date.
#[derive(Serialize, ToSchema)]
pub struct DailyView {
    /// The date it is the daily puzzle of, `YYYY-MM-DD`.
    pub date: String,
    /// Its number in the bank's daily series, as the export that published it printed it
    /// ("No. 42"); absent for a daily puzzle no export published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// The puzzle.
    #[serde(flatten)]
    pub puzzle: PuzzleView,
}

/// The daily puzzle of a date and level: the same for every user, recorded the first time it
/// is asked for and never changed; a class is the daily puzzle of one date and level only. A
/// date an export recorded gives the export's puzzle of that level; otherwise one is drawn
/// among the level's unserved puzzles (and marked served) for dates from 30 days ago to
/// tomorrow in UTC (a player's last 30 days, in any time zone); earlier dates give only the
/// recorded ones. Asked with `user`, it is recorded as handed to that player (before it is answered),
/// so that the player's result counts.
#[utoipa::path(get, path = "/v1/daily", params(DailyQuery),
    responses(
        (status = 200, description = "ok", body = DailyView),
        (status = 400, description = "bad request, or a date after tomorrow", body = ErrorBody),
        (status = 403, description = "with the play page's token: a user id the server did not hand out", body = ErrorBody),
        (status = 404, description = "an earlier date that has no daily puzzle, or a level with no puzzle left", body = ErrorBody),
        (status = 503, description = "the bank is unavailable, or the server read-only", body = ErrorBody)
    )
)]
pub(super) async fn daily(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiQuery(q): ApiQuery<DailyQuery>,
) -> Reply<DailyView> {
    let user = q.user.map(|u| player(&s, &client, Some(u))).transpose()?;
    if let Some(user) = &user {
        admit(&s, &client, user).await?;
    }
    let text = q
        .date
        .ok_or_else(|| ApiError::BadRequest("a daily puzzle needs date=YYYY-MM-DD".into()))?;
    let date = text
        .parse::<Date>()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let today = Date::today();
    if date.days() > today.days() + 1 {
        return Err(ApiError::BadRequest(format!(
            "the daily puzzle of {date} is not out yet (today is {today} in UTC)"
        )));
    }
    let level = q
        .level
        .ok_or_else(|| ApiError::BadRequest("a daily puzzle needs level=NAME".into()))?;
    let solution = wants_solution(q.solution.as_deref())?;
    let lv = levels_now(&s).await?;
    let (level, within) = level_named(&lv, level)?;
    let daily = s.recorder.daily(&s, date, (&level, within), lv).await?;
    match daily {
        retrieve::Daily::Puzzle(h) => {
            if let Some(user) = &user {
                s.recorder.hand_daily(&s, user, &h).await?;
            }
            // The number an export printed it with, so print and online agree.
            let id = h.id;
            let number = blocking(move || {
                s.read(|c| Ok::<_, ApiError>(store::batches::daily_number(c, date, id)?))
            })
            .await?;
            Ok(Json(DailyView {
                date: date.to_string(),
                number,
                puzzle: PuzzleView::of(*h, solution),
            }))
        }
        retrieve::Daily::NotRecorded => Err(ApiError::NotFound(format!(
            "{date} has no daily puzzle at level {level} (dates more than 30 days back give \
             only what was recorded)"
        ))),
        retrieve::Daily::Exhausted => Err(ApiError::NotFound(format!(
            "level {level} has no puzzle left for a daily puzzle"
        ))),
    }
}

/// The query of `GET /v1/daily/archive`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ArchiveQuery {
    /// The player's today, `YYYY-MM-DD` (today in UTC when absent, at most tomorrow): the
    /// archive is the 30 days that end on it.
    pub date: Option<String>,
    /// A level's name.
    #[param(required = true)]
    pub level: Option<String>,
    /// The player asking: each day carries their game of its puzzle, when they have a result
    /// for it.
    pub user: Option<String>,
}

/// The daily puzzles of a level's last 30 days, the latest first.
#[derive(Serialize, ToSchema)]
pub struct ArchiveView {
    /// The level, as the bank spells it.
    pub level: String,
    /// The 30 days, from the date asked back.
    pub days: Vec<ArchiveDay>,
}

/// One day of the archive.
#[derive(Serialize, ToSchema)]
pub struct ArchiveDay {
    /// The date, `YYYY-MM-DD`.
    pub date: String,
    /// Whether `GET /v1/daily` gives its puzzle: recorded, or a date recent enough to draw
    /// one (false only for an old date nobody asked for, or an ask before any was recorded).
    pub playable: bool,
    /// Its puzzle's id, once recorded (the first ask records it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Its number in the bank's daily series, when an export published it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// The player's game of it, asked with `user` and when they have a result for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<PlayedGame>,
}

/// The daily puzzles of a level's 30 days that end on `date` (the player's today), the
/// latest first, with the player's game of each: a day recorded gives its puzzle's id (and
/// its number, when an export published it); a day of the last 30 in UTC not yet recorded is
/// still playable (`GET /v1/daily` draws its puzzle at the first ask). Reads only.
#[utoipa::path(get, path = "/v1/daily/archive", params(ArchiveQuery),
    responses(
        (status = 200, description = "ok", body = ArchiveView),
        (status = 400, description = "bad request, or a date after tomorrow", body = ErrorBody),
        (status = 403, description = "with the play page's token: a user id the server did not hand out", body = ErrorBody),
        (status = 503, description = "the bank is unavailable", body = ErrorBody)
    )
)]
pub(super) async fn archive(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiQuery(q): ApiQuery<ArchiveQuery>,
) -> Reply<ArchiveView> {
    let user = q.user.map(|u| player(&s, &client, Some(u))).transpose()?;
    if let Some(user) = &user {
        admit(&s, &client, user).await?;
    }
    let today = Date::today();
    let until = match q.date {
        Some(text) => text
            .parse::<Date>()
            .map_err(|e| ApiError::BadRequest(e.to_string()))?,
        None => today,
    };
    if until.days() > today.days() + 1 {
        return Err(ApiError::BadRequest(format!(
            "{until} is after tomorrow (today is {today} in UTC): the archive ends on the \
             player's today"
        )));
    }
    let level = q
        .level
        .ok_or_else(|| ApiError::BadRequest("the archive needs level=NAME".into()))?;
    let lv = levels_now(&s).await?;
    let (level, _) = level_named(&lv, level)?;
    let from = Date::from_days(until.days() - (ARCHIVE_LENGTH - 1));
    let mut recorded = s
        .recorder
        .archive(&s, (from, until), &level, user.as_deref())
        .await?
        .into_iter()
        .peekable();
    let days = (0..ARCHIVE_LENGTH)
        .map(|back| {
            let date = Date::from_days(until.days() - back);
            match recorded.next_if(|d| d.date == date) {
                Some(past) => ArchiveDay {
                    date: date.to_string(),
                    playable: true,
                    id: Some(past.id),
                    number: past.number,
                    game: past.game,
                },
                None => ArchiveDay {
                    date: date.to_string(),
                    playable: date.days() >= today.days() - retrieve::ARCHIVE_DAYS,
                    id: None,
                    number: None,
                    game: None,
                },
            }
        })
        .collect();
    Ok(Json(ArchiveView { level, days }))
}

/// The level a request names (in any case), as the bank spells it, and its puzzles on `lv`:
/// one daily puzzle and one archive per level, however a request spells its name (`hard`,
/// `Hard`).
fn level_named(
    lv: &crate::levels::Levels,
    level: String,
) -> Result<(String, store::retrieval::Within), ApiError> {
    let within = Selector::Level(level.clone())
        .within(&lv.set)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let level = match within {
        store::retrieval::Within::Level(i) => lv.set.name(i as usize).map_or(level, str::to_string),
        _ => level,
    };
    Ok((level, within))
}

/// How many days the archive lists: a player's last 30, today included.
const ARCHIVE_LENGTH: i64 = 30;
