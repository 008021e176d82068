//! `GET /v1/daily`: the daily puzzle of a date and level, the same for every user.

use super::super::error::{ApiError, ErrorBody};
use super::super::{blocking, Shared};
use super::puzzles::PuzzleView;
use super::{admit, levels_now, player, wants_solution, ApiQuery, Client, Reply};
use crate::retrieve::{self, Selector};
use crate::store;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// The query of `GET /v1/daily`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DailyQuery {
    /// The date, `YYYY-MM-DD` (the player's own): from the archive of recorded dates to
    /// tomorrow in UTC.
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
/// among the level's unserved puzzles (and marked served) for dates from yesterday to
/// tomorrow in UTC (the players' time zones); earlier dates are an archive of the recorded
/// ones. Asked with `user`, it is recorded as handed to that player (before it is answered),
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
        .parse::<crate::calendar::Date>()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let today = crate::calendar::Date::today();
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
    let within = Selector::Level(level.clone())
        .within(&lv.set)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    // One daily puzzle per level, however a request spells its name (`hard`, `Hard`).
    let level = match within {
        store::retrieval::Within::Level(i) => lv.set.name(i as usize).map_or(level, str::to_string),
        _ => level,
    };
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
            "{date} has no daily puzzle at level {level} (dates before yesterday give only \
             what was recorded)"
        ))),
        retrieve::Daily::Exhausted => Err(ApiError::NotFound(format!(
            "level {level} has no puzzle left for a daily puzzle"
        ))),
    }
}
