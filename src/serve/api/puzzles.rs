//! Puzzles: a delivery (`POST /v1/puzzles/next`: a puzzle the user has never been given,
//! recorded as theirs before it is answered) and a puzzle by its id.

use super::super::error::{ApiError, ErrorBody};
use super::super::{blocking, Shared};
use super::{admit, levels_now, player, wants_solution, Access, ApiPath, ApiQuery, Client, Reply};
use crate::grid::{Grid, Puzzle};
use crate::levels::{Band, PercentileRange};
use crate::play::Learned;
use crate::retrieve::{self, Handout, NamedAsk, Narrowing, Provenance, Selector};
use crate::store::retrieval::Selection;
use crate::technique::Strategy;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// A puzzle as the API gives it.
#[derive(Serialize, ToSchema)]
#[schema(as = Puzzle)]
pub struct PuzzleView {
    /// Its id in the bank.
    pub id: i64,
    /// The puzzle, 81 characters, `.` for empty.
    #[schema(value_type = String)]
    pub puzzle: Puzzle,
    /// Its level's name on the bank's levels.
    pub level: String,
    /// Its `difficulty` rating.
    pub difficulty: Option<f64>,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
    /// Its number of clues.
    pub clues: usize,
    /// The hardest step of the `difficulty` ladder it needs, e.g. `x-wing` (null for a row
    /// an older version stored that no build has re-rated).
    #[schema(value_type = Option<String>)]
    pub hardest_step: Option<Strategy>,
    /// How many such steps a solve takes.
    pub hardest_steps: Option<u16>,
    /// Its solution, 81 digits (with `solution=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub solution: Option<Grid>,
    /// Where an imported puzzle came from (`GET /v1/puzzles/{id}` only; absent for a puzzle
    /// a build made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Provenance>,
    /// Its learned rating: what players' results taught the bank, or its prior from its
    /// `difficulty` with `results` 0 (`GET /v1/puzzles/{id}`, and a delivery matched to the
    /// player's skill).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learned: Option<Learned>,
}

impl PuzzleView {
    /// The view of a handout, with its solution when asked.
    pub(super) fn of(h: Handout, solution: bool) -> PuzzleView {
        PuzzleView {
            id: h.id,
            clues: h.puzzle.clues(),
            puzzle: h.puzzle,
            level: h.level.unwrap_or_default(),
            difficulty: h.difficulty,
            percentile: h.percentile,
            hardest_step: h.hardest.map(|x| x.strategy),
            hardest_steps: h.hardest.map(|x| x.count),
            solution: solution.then_some(h.solution),
            source: None,
            learned: None,
        }
    }
}

/// The query of `POST /v1/puzzles/next`: a user and one of `level`, `band`, `percentile`,
/// `technique`, or a technique with one of the other three.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NextQuery {
    /// The app's id of the user: 1 to 64 characters among letters, digits and `-_.:@`.
    #[param(required = true)]
    pub user: Option<String>,
    /// A level's name.
    pub level: Option<String>,
    /// A band, `K/M`.
    pub band: Option<String>,
    /// A percentile range, `A..B`.
    pub percentile: Option<String>,
    /// Only puzzles whose hardest step is this technique of the `difficulty` ladder, e.g.
    /// `x-wing` (alone, or with one of the three above).
    pub technique: Option<String>,
    /// A named rating of the bank (`calibrate --labelled --named NAME`), e.g. `se`, with
    /// `range` (alone, or with one of level, band, percentile).
    pub rating: Option<String>,
    /// The range of the named rating, `A..B` (both included), e.g. `7.0..8.0`.
    pub range: Option<String>,
    /// `true` to include the solution.
    pub solution: Option<String>,
    /// `skill`: a puzzle whose learned rating is near the user's (alone: no level, band,
    /// percentile, technique or rating).
    #[serde(rename = "match")]
    #[param(rename = "match")]
    pub matching: Option<String>,
}

/// The query of `GET /v1/puzzles/{id}`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SolutionQuery {
    /// `true` to include the solution.
    pub solution: Option<String>,
    /// The user asking (with the play page's token, a solution is given only to a user the
    /// puzzle was handed to).
    pub user: Option<String>,
}

/// What narrows a query's puzzles: its technique and its named rating's range, if it names
/// them.
fn narrowing(q: &NextQuery) -> Result<Narrowing, ApiError> {
    let technique = q
        .technique
        .as_deref()
        .map(|name| Strategy::parse(name).map_err(|e| ApiError::BadRequest(e.to_string())))
        .transpose()?;
    let named = match (&q.rating, &q.range) {
        (None, None) => None,
        (Some(name), Some(range)) => {
            Some(NamedAsk::parse(name, range).map_err(ApiError::BadRequest)?)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "rating=NAME and range=A..B go together".into(),
            ))
        }
    };
    Ok(Narrowing { technique, named })
}

/// The selector of a query: at most one of `level`, `band`, `percentile`, and one of them
/// unless the query names a technique or a named rating.
fn selector(q: &NextQuery) -> Result<Selector, ApiError> {
    match (&q.level, &q.band, &q.percentile) {
        (None, None, None) if q.technique.is_some() || q.rating.is_some() => Ok(Selector::All),
        (Some(level), None, None) => Ok(Selector::Level(level.clone())),
        (None, Some(band), None) => band
            .parse::<Band>()
            .map(Selector::Band)
            .map_err(|e| ApiError::BadRequest(e.to_string())),
        (None, None, Some(range)) => range
            .parse::<PercentileRange>()
            .map(Selector::Percentile)
            .map_err(|e| ApiError::BadRequest(e.to_string())),
        _ => Err(ApiError::BadRequest(
            "give exactly one of level=NAME, band=K/M, percentile=A..B, or technique=NAME or \
             rating=NAME&range=A..B (which may go with one of them)"
                .into(),
        )),
    }
}

/// A delivery: a puzzle of a level, band or percentile range this user has never been given,
/// recorded as the user's before it is answered. A POST (a GET changes nothing: 405). A
/// request whose client closes the connection before the delivery is committed is not
/// charged.
#[utoipa::path(post, path = "/v1/puzzles/next", params(NextQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "ok", body = PuzzleView),
        (status = 400, description = "bad request", body = ErrorBody),
        (status = 401, description = "a token is required", body = ErrorBody),
        (status = 403, description = "with the play page's token: a user id the server did not hand out, or a draw by more than level or match=skill", body = ErrorBody),
        (status = 404, description = "the user has had every puzzle of the range", body = ErrorBody),
        (status = 408, description = "the request took too long", body = ErrorBody),
        (status = 409, description = "too many concurrent requests for this user", body = ErrorBody),
        (status = 429, description = "too many new puzzles for this user or address, or too many new players", body = ErrorBody),
        (status = 503, description = "the bank is unavailable, or the server read-only", body = ErrorBody)
    )
)]
pub(super) async fn next(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiQuery(q): ApiQuery<NextQuery>,
) -> Reply<PuzzleView> {
    let user = player(&s, &client, q.user.clone())?;
    if client.access == Access::Page {
        // The page draws by level or by skill: no range narrow enough to pick one puzzle.
        if q.band.is_some()
            || q.percentile.is_some()
            || q.technique.is_some()
            || q.rating.is_some()
            || q.range.is_some()
        {
            return Err(ApiError::Forbidden(
                "the play page's token draws by level=NAME or match=skill only".into(),
            ));
        }
        if let Some(ip) = client.ip {
            s.page_limits.delivery(ip, &user).map_err(|wait| {
                ApiError::TooMany(
                    format!("too many new puzzles for user {user} or this address: slow down"),
                    wait,
                )
            })?;
        }
    }
    admit(&s, &client, &user).await?;
    if let Some(matching) = &q.matching {
        return matched(&s, &q, &user, matching).await;
    }
    let sel = selector(&q)?;
    let narrowing = narrowing(&q)?;
    let solution = wants_solution(q.solution.as_deref())?;
    let lv = levels_now(&s).await?;
    let within: Selection = sel
        .selection(&lv, &narrowing)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let drawn = s.recorder.deliver(&s, &user, lv.clone(), within).await?;
    match drawn {
        Some(h) => Ok(Json(PuzzleView::of(h, solution))),
        None => Err(ApiError::NotFound(format!(
            "user {user} has had every puzzle of {}",
            sel.describe(&lv, &narrowing)
        ))),
    }
}

/// A delivery matched to the user's skill (`match=skill`): a puzzle whose learned rating is
/// near the user's, with its learned rating.
async fn matched(s: &Arc<Shared>, q: &NextQuery, user: &str, matching: &str) -> Reply<PuzzleView> {
    if matching != "skill" {
        return Err(ApiError::BadRequest(format!(
            "match={matching:?}: the one match is skill"
        )));
    }
    if q.level.is_some()
        || q.band.is_some()
        || q.percentile.is_some()
        || q.technique.is_some()
        || q.rating.is_some()
        || q.range.is_some()
    {
        return Err(ApiError::BadRequest(
            "match=skill chooses by the user's rating: give no level, band, percentile, \
             technique or rating with it"
                .into(),
        ));
    }
    let solution = wants_solution(q.solution.as_deref())?;
    let lv = levels_now(s).await?;
    let Some(h) = s.recorder.deliver_matched(s, user, lv).await? else {
        return Err(ApiError::NotFound(format!(
            "user {user} has had every puzzle of the bank"
        )));
    };
    let learned = s.recorder.learned(s, &h).await?;
    Ok(Json(PuzzleView {
        learned: Some(learned.view()),
        ..PuzzleView::of(h, solution)
    }))
}

/// `GET /v1/puzzles/next`: refused, since a delivery changes the user's history and a GET
/// must not (browsers prefetch GETs, HEAD runs them).
#[utoipa::path(get, path = "/v1/puzzles/next", responses(
    (status = 405, description = "deliveries are POST requests", body = ErrorBody)
))]
pub(super) async fn next_by_get() -> Response {
    let mut response = ApiError::MethodNotAllowed(
        "a delivery is POST /v1/puzzles/next (with the same query): a GET changes nothing".into(),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static("POST"));
    response
}

/// A puzzle by its id.
#[utoipa::path(get, path = "/v1/puzzles/{id}",
    params(("id" = i64, Path, description = "The puzzle's id in the bank"), SolutionQuery),
    responses(
        (status = 200, description = "ok", body = PuzzleView),
        (status = 400, description = "bad request", body = ErrorBody),
        (status = 404, description = "no such puzzle", body = ErrorBody),
        (status = 503, description = "the bank is unavailable", body = ErrorBody)
    )
)]
pub(super) async fn puzzle_by_id(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<SolutionQuery>,
) -> Reply<PuzzleView> {
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::BadRequest(format!("bad puzzle id {id:?}: a whole number")))?;
    let solution = wants_solution(q.solution.as_deref())?;
    let user = q.user.map(|u| player(&s, &client, Some(u))).transpose()?;
    let (handout, source) = {
        let s = s.clone();
        blocking(move || {
            let lv = s.levels()?;
            let read = |c: &crate::store::Bank| -> Result<_, ApiError> {
                Ok((retrieve::by_id(c, &lv, id)?, retrieve::provenance(c, id)?))
            };
            match s.read(read)? {
                (Some(h), source) => Ok((h, source)),
                (None, _) => Err(ApiError::NotFound(format!("no puzzle with id {id}"))),
            }
        })
        .await?
    };
    // The page's token gives a solution only with a puzzle its user was handed (a delivery,
    // or a daily puzzle the user asked for): the bank's solutions are not a download.
    if solution && client.access == Access::Page {
        let Some(user) = user else {
            return Err(ApiError::Forbidden(
                "the play page's token gives a puzzle's solution only to the user it was \
                 handed to: give user=ID"
                    .into(),
            ));
        };
        if !s.recorder.given(&s, &user, handout.key).await? {
            return Err(ApiError::Forbidden(format!(
                "user {user} was not handed puzzle {id}: the play page's token gives its \
                 solution only to a user who was"
            )));
        }
    }
    let learned = s.recorder.learned(&s, &handout).await?;
    Ok(Json(PuzzleView {
        source,
        learned: Some(learned.view()),
        ..PuzzleView::of(handout, solution)
    }))
}
