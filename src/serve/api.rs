//! The routes of `serve` and their JSON: requests checked (a 4xx JSON error with the reason
//! for bad input, never a panic), work that takes CPU or the bank run off the async threads,
//! every request bounded in size and time.

use super::Shared;
use crate::grid::Puzzle;
use crate::hint::{hint, Board};
use crate::levels::{Band, PercentileRange};
use crate::retrieve::Selector;
use crate::solve::{solve, Solutions};
use crate::store::{self, history, retrieval::Within};
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body accepted.
pub const MAX_BODY: usize = 256 * 1024;
/// The most puzzles one `rate`, `solve` or `canon` request may hold.
pub const MAX_PUZZLES: usize = 1000;
/// The most puzzles one `rate` request may hold (rating takes milliseconds each).
pub const MAX_RATE: usize = 50;
/// The longest a request may work.
pub const MAX_TIME: Duration = Duration::from_secs(10);
/// Deliveries tried before a draw gives up (each retry follows a race with another request
/// of the same user).
const DRAW_RETRIES: usize = 8;

/// How many `rate`, `solve` or `canon` lists run at once (each can take a thread for a
/// second); the others wait their turn.
const BATCH_PERMITS: usize = 2;

/// The turns of the lists of puzzles.
static BATCHES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(BATCH_PERMITS);

/// A JSON error with a status.
pub struct ApiError(StatusCode, String);

impl ApiError {
    fn bad(why: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, why.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<store::StoreError> for ApiError {
    fn from(e: store::StoreError) -> ApiError {
        ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("the bank: {e}"))
    }
}

impl From<crate::levels::LevelsError> for ApiError {
    fn from(e: crate::levels::LevelsError) -> ApiError {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the bank's levels: {e}"),
        )
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError(r.status(), r.body_text())
    }
}

type Reply = Result<Response, ApiError>;

/// Every route.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(super::page::index))
        .route("/app.js", get(super::page::script))
        .route("/style.css", get(super::page::style))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        .route("/v1/levels", get(levels))
        .route("/v1/puzzles/next", get(next))
        .route("/v1/puzzles/{id}", get(puzzle_by_id))
        .route("/v1/hint", post(hint_route))
        .route("/v1/rate", post(rate))
        .route("/v1/solve", post(solve_route))
        .route("/v1/canon", post(canon))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such route".into()) })
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            super::metrics::track,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// Runs blocking work (the bank, CPU) off the async threads, within [`MAX_TIME`].
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let work = tokio::task::spawn_blocking(f);
    match tokio::time::timeout(MAX_TIME, work).await {
        Ok(Ok(out)) => out,
        Ok(Err(_)) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed".into(),
        )),
        Err(_) => Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than {} s", MAX_TIME.as_secs()),
        )),
    }
}

fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

async fn healthz() -> Response {
    Json(json!({ "status": "ok" })).into_response()
}

async fn metrics(State(s): State<Arc<Shared>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        s.metrics.render(),
    )
        .into_response()
}

async fn openapi() -> Response {
    json_text(include_str!("openapi.json").to_string())
}

async fn levels(State(s): State<Arc<Shared>>) -> Reply {
    let out = blocking(move || {
        let lv = s.levels()?;
        let (rating, set) = (lv.rating, &lv.set);
        let names = set.names().names();
        let counts = s.read(|c| store::puzzles::level_counts(c, names.len()))?;
        let levels: Vec<Value> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let (from, to) = set.bounds(i);
                json!({ "name": name, "from": from, "to": to, "count": counts[i] })
            })
            .collect();
        Ok(json!({ "rating": rating.name(), "levels": levels }))
    })
    .await?;
    Ok(Json(out).into_response())
}

/// A user id: 1 to 64 characters among letters, digits and `-_.:@`.
fn check_user(user: Option<&String>) -> Result<String, ApiError> {
    let Some(user) = user else {
        return Err(ApiError::bad("give user=ID"));
    };
    let ok = !user.is_empty()
        && user.len() <= 64
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:@".contains(c));
    if ok {
        Ok(user.clone())
    } else {
        Err(ApiError::bad(
            "bad user id: 1 to 64 characters among letters, digits and - _ . : @",
        ))
    }
}

/// The selector of a query: exactly one of `level`, `band`, `percentile`.
fn selector(q: &HashMap<String, String>) -> Result<Selector, ApiError> {
    let given: Vec<&str> = ["level", "band", "percentile"]
        .into_iter()
        .filter(|k| q.contains_key(*k))
        .collect();
    if given.len() != 1 {
        return Err(ApiError::bad(
            "give exactly one of level=NAME, band=K/M, percentile=A..B",
        ));
    }
    Ok(match given[0] {
        "level" => Selector::Level(q["level"].clone()),
        "band" => Selector::Band(
            q["band"]
                .parse::<Band>()
                .map_err(|e| ApiError::bad(format!("bad band: {e}")))?,
        ),
        _ => Selector::Percentile(
            q["percentile"]
                .parse::<PercentileRange>()
                .map_err(|e| ApiError::bad(format!("bad percentile range: {e}")))?,
        ),
    })
}

/// Checks the bearer token of the writing routes, when the server has one.
fn authorize(s: &Shared, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(token) = &s.token else {
        return Ok(());
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if given == Some(token.as_str()) {
        Ok(())
    } else {
        Err(ApiError(
            StatusCode::UNAUTHORIZED,
            "this route needs Authorization: Bearer <token>".into(),
        ))
    }
}

/// A puzzle as the API gives it, its level named on the bank's levels `set`.
fn puzzle_json(p: &store::Served, set: &crate::levels::LevelSet, solution: bool) -> Value {
    let level = p
        .level_index
        .and_then(|i| set.names().names().get(i as usize).cloned())
        .unwrap_or_default();
    let clues = p
        .puzzle
        .bytes()
        .filter(|b| b.is_ascii_digit() && *b != b'0')
        .count();
    let mut v = json!({
        "id": p.id,
        "puzzle": p.puzzle,
        "level": level,
        "difficulty": p.difficulty,
        "percentile": p.percentile,
        "clues": clues,
    });
    if solution {
        v["solution"] = json!(crate::retrieve::solution_of(&p.puzzle));
    }
    v
}

fn wants_solution(q: &HashMap<String, String>) -> Result<bool, ApiError> {
    match q.get("solution").map(String::as_str) {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::bad(format!(
            "solution must be true or false, not {other:?}"
        ))),
    }
}

async fn next(
    State(s): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    authorize(&s, &headers)?;
    let user = check_user(q.get("user"))?;
    let sel = selector(&q)?;
    let solution = wants_solution(&q)?;
    let lv = match s.cached_levels() {
        Some(cached) => cached,
        None => {
            let s = s.clone();
            blocking(move || Ok(s.levels()?)).await?
        }
    };
    let (rating, set) = (lv.rating, &lv.set);
    let within: Within = sel.within(set).map_err(|e| ApiError::bad(e.to_string()))?;
    for _ in 0..DRAW_RETRIES {
        let drawn = {
            let (s, user, lv) = (s.clone(), user.clone(), lv.clone());
            blocking(move || {
                let mut rng = s.rng();
                Ok(s.read(|c| history::draw(c, lv.measure(), within, &user, &mut rng))?)
            })
            .await?
        };
        let Some((p, key)) = drawn else {
            return Err(ApiError(
                StatusCode::NOT_FOUND,
                format!(
                    "user {user} has had every puzzle of {}",
                    sel.describe(set, rating)
                ),
            ));
        };
        if s.record(&user, &key, p.id)
            .await
            .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("recording: {e}")))?
        {
            return Ok(Json(puzzle_json(&p, set, solution)).into_response());
        }
    }
    Err(ApiError(
        StatusCode::CONFLICT,
        "too many concurrent requests for this user; try again".into(),
    ))
}

async fn puzzle_by_id(
    State(s): State<Arc<Shared>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::bad(format!("bad puzzle id {id:?}: a whole number")))?;
    let solution = wants_solution(&q)?;
    let out = blocking(move || {
        let lv = s.levels()?;
        let Some(p) = s.read(|c| store::retrieval::by_id(c, lv.measure(), id))? else {
            return Err(ApiError(
                StatusCode::NOT_FOUND,
                format!("no puzzle with id {id}"),
            ));
        };
        Ok(puzzle_json(&p, &lv.set, solution))
    })
    .await?;
    Ok(Json(out).into_response())
}

/// The body of `POST /v1/hint`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    puzzle: String,
    entries: Option<String>,
    /// 81 strings, each a cell's pencil marks (digits); filled cells' strings are ignored.
    candidates: Option<Vec<String>>,
}

fn parse_puzzle(text: &str) -> Result<Puzzle, ApiError> {
    Puzzle::parse_line(text).map_err(|e| ApiError::bad(format!("bad puzzle: {e}")))
}

async fn hint_route(
    State(_s): State<Arc<Shared>>,
    body: Result<Json<HintRequest>, JsonRejection>,
) -> Reply {
    let Json(req) = body?;
    let mut board = Board::new(parse_puzzle(&req.puzzle)?);
    if let Some(e) = &req.entries {
        board = board
            .with_entries(e)
            .map_err(|e| ApiError::bad(e.to_string()))?;
    }
    if let Some(c) = &req.candidates {
        if c.len() != 81 {
            return Err(ApiError::bad(format!(
                "candidates: expected 81 cells, found {}",
                c.len()
            )));
        }
        let mut marks = [0u16; 81];
        for (i, cell) in c.iter().enumerate() {
            for ch in cell.chars() {
                match ch.to_digit(10) {
                    Some(d @ 1..=9) => marks[i] |= 1 << (d - 1),
                    _ => {
                        return Err(ApiError::bad(format!(
                            "candidates: bad character {ch:?} in cell {}",
                            i + 1
                        )))
                    }
                }
            }
        }
        board.marks = Some(marks);
    }
    let out = blocking(move || {
        hint(&board)
            .map(|h| h.to_json())
            .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))
    })
    .await?;
    Ok(json_text(out))
}

/// The body of `POST /v1/rate`, `/v1/solve` and `/v1/canon`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzlesRequest {
    puzzles: Vec<String>,
}

/// The puzzles of a request, at most `max`; a bad one is an error naming its position.
fn puzzles(
    body: Result<Json<PuzzlesRequest>, JsonRejection>,
    max: usize,
) -> Result<Vec<Puzzle>, ApiError> {
    let Json(req) = body?;
    if req.puzzles.is_empty() || req.puzzles.len() > max {
        return Err(ApiError::bad(format!(
            "puzzles: give 1 to {max}, not {}",
            req.puzzles.len()
        )));
    }
    req.puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Puzzle::parse_line(p).map_err(|e| ApiError::bad(format!("puzzles[{i}]: {e}")))
        })
        .collect()
}

/// `{"results": [...]}`: `f` of each puzzle of the request (at most `max`), off the async
/// threads.
async fn each_puzzle(
    body: Result<Json<PuzzlesRequest>, JsonRejection>,
    max: usize,
    f: fn(&Puzzle) -> Value,
) -> Reply {
    let list = puzzles(body, max)?;
    // At most BATCH_PERMITS lists at once, so that draws and hints always find a thread.
    let _permit = tokio::time::timeout(MAX_TIME, BATCHES.acquire())
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many lists of puzzles at once; try again".into(),
            )
        })?
        .map_err(|_| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping".into(),
            )
        })?;
    let results = blocking(move || Ok(list.iter().map(f).collect::<Vec<Value>>())).await?;
    Ok(Json(json!({ "results": results })).into_response())
}

async fn rate(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply {
    each_puzzle(body, MAX_RATE, |p| match crate::rate::report(p, None) {
        Ok(r) => serde_json::from_str(&r.to_json()).expect("a report is JSON"),
        Err(e) => json!({ "puzzle": p.to_line(), "error": e.to_string() }),
    })
    .await
}

async fn solve_route(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply {
    each_puzzle(body, MAX_PUZZLES, |p| {
        let (n, grid) = match solve(p) {
            Solutions::None => (0, None),
            Solutions::Unique(g) => (1, Some(g.to_line())),
            Solutions::Multiple(_) => (2, None),
        };
        json!({ "puzzle": p.to_line(), "solutions": n, "solution": grid })
    })
    .await
}

async fn canon(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply {
    each_puzzle(body, MAX_PUZZLES, |p| {
        let c = crate::canon::canonical(p);
        json!({
            "input": p.to_line(),
            "canonical": c.to_line(),
            "key": c.key().to_hex(),
            "automorphisms": c.automorphisms,
        })
    })
    .await
}
