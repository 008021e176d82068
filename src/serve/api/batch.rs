//! Lists of puzzles: `POST /v1/rate`, `/v1/solve` and `/v1/canon`, a result per puzzle in
//! the request's order; a few lists at a time, so that draws and hints always find a thread.

use super::super::error::{ApiError, ErrorBody};
use super::super::{blocking, MAX_TIME};
use super::Reply;
use crate::canon::Key;
use crate::grid::{Grid, Puzzle};
use crate::rate::Report;
use crate::solve::{solve, Solutions};
use axum::extract::rejection::JsonRejection;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The most puzzles one `rate`, `solve` or `canon` request may hold.
pub const MAX_PUZZLES: usize = 1000;
/// The most puzzles one `rate` request may hold (rating takes milliseconds each).
pub const MAX_RATE: usize = 50;

/// How many `rate`, `solve` or `canon` lists run at once (each can take a thread for a
/// second); the others wait their turn.
const BATCH_PERMITS: usize = 2;

/// The turns of the lists of puzzles.
static BATCHES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(BATCH_PERMITS);

/// The body of `POST /v1/rate`, `/v1/solve` and `/v1/canon`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Puzzles)]
pub struct PuzzlesRequest {
    /// The puzzles, 81 characters each, `.` or `0` for empty.
    pub puzzles: Vec<String>,
}

impl PuzzlesRequest {
    /// Its puzzles, at most `max`; a bad one is an error naming its position.
    fn parse(self, max: usize) -> Result<Vec<Puzzle>, ApiError> {
        if self.puzzles.is_empty() || self.puzzles.len() > max {
            return Err(ApiError::BadRequest(format!(
                "puzzles: give 1 to {max}, not {}",
                self.puzzles.len()
            )));
        }
        self.puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                Puzzle::parse_line(p)
                    .map_err(|e| ApiError::BadRequest(format!("puzzles[{i}]: {e}")))
            })
            .collect()
    }
}

/// `f` of each puzzle of the request (at most `max`), in its order, off the async threads.
async fn each_puzzle<T: Send + 'static>(
    body: Result<Json<PuzzlesRequest>, JsonRejection>,
    max: usize,
    f: fn(&Puzzle) -> T,
) -> Result<Vec<T>, ApiError> {
    let Json(req) = body?;
    let list = req.parse(max)?;
    // At most BATCH_PERMITS lists at once, so that draws and hints always find a thread.
    let _permit = tokio::time::timeout(MAX_TIME, BATCHES.acquire())
        .await
        .map_err(|_| ApiError::Unavailable("too many lists of puzzles at once; try again".into()))?
        .map_err(|_| ApiError::Unavailable("the server is stopping".into()))?;
    blocking(move || Ok(list.iter().map(f).collect())).await
}

/// The answer of `POST /v1/rate`: a result per puzzle, in the request's order.
#[derive(Serialize, ToSchema)]
pub struct RateResults {
    /// The results.
    pub results: Vec<RateResult>,
}

/// The answer of `POST /v1/solve`: a result per puzzle, in the request's order.
#[derive(Serialize, ToSchema)]
pub struct SolveResults {
    /// The results.
    pub results: Vec<Solved>,
}

/// The answer of `POST /v1/canon`: a result per puzzle, in the request's order.
#[derive(Serialize, ToSchema)]
pub struct CanonResults {
    /// The results.
    pub results: Vec<Canonized>,
}

/// One result of `POST /v1/rate`: the puzzle's report, or why it cannot be rated.
#[derive(Serialize, ToSchema)]
#[schema(as = Rated)]
#[serde(untagged)]
pub enum RateResult {
    /// Its rating, as `rate --json` prints it.
    Report(Report),
    /// Why it cannot be rated.
    Unrated {
        /// The puzzle.
        #[schema(value_type = String)]
        puzzle: Puzzle,
        /// Why.
        error: String,
    },
}

/// Ratings and metrics of up to 50 puzzles.
#[utoipa::path(post, path = "/v1/rate", request_body = PuzzlesRequest, responses(
    (status = 200, description = "ok", body = RateResults),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody)
))]
pub(super) async fn rate(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply<RateResults> {
    let results = each_puzzle(body, MAX_RATE, |p| match crate::rate::rate(p, None) {
        Ok(r) => RateResult::Report(Report::new(p, &r, r.default_level())),
        Err(e) => RateResult::Unrated {
            puzzle: *p,
            error: e.to_string(),
        },
    })
    .await?;
    Ok(Json(RateResults { results }))
}

/// One result of `POST /v1/solve`.
#[derive(Serialize, ToSchema)]
pub struct Solved {
    /// The puzzle.
    #[schema(value_type = String)]
    pub puzzle: Puzzle,
    /// 0, 1, or 2 for two or more.
    pub solutions: u8,
    /// The solution when there is exactly one.
    #[schema(value_type = Option<String>)]
    pub solution: Option<Grid>,
}

/// Solutions of up to 1000 puzzles.
#[utoipa::path(post, path = "/v1/solve", request_body = PuzzlesRequest, responses(
    (status = 200, description = "ok", body = SolveResults),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody)
))]
pub(super) async fn solve_route(
    body: Result<Json<PuzzlesRequest>, JsonRejection>,
) -> Reply<SolveResults> {
    let results = each_puzzle(body, MAX_PUZZLES, |p| {
        let (solutions, solution) = match solve(p) {
            Solutions::None => (0, None),
            Solutions::Unique(g) => (1, Some(g)),
            Solutions::Multiple(_) => (2, None),
        };
        Solved {
            puzzle: *p,
            solutions,
            solution,
        }
    })
    .await?;
    Ok(Json(SolveResults { results }))
}

/// One result of `POST /v1/canon`.
#[derive(Serialize, ToSchema)]
pub struct Canonized {
    /// The puzzle as given.
    #[schema(value_type = String)]
    pub input: Puzzle,
    /// Its exact canonical (minlex) form, `0` for empty.
    pub canonical: String,
    /// Its class key, 64 hex digits.
    #[schema(value_type = String)]
    pub key: Key,
    /// How many symmetries map it onto itself.
    pub automorphisms: u64,
}

/// Canonical forms and class keys of up to 1000 puzzles.
#[utoipa::path(post, path = "/v1/canon", request_body = PuzzlesRequest, responses(
    (status = 200, description = "ok", body = CanonResults),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody)
))]
pub(super) async fn canon(
    body: Result<Json<PuzzlesRequest>, JsonRejection>,
) -> Reply<CanonResults> {
    let results = each_puzzle(body, MAX_PUZZLES, |p| {
        let c = crate::canon::canonical(p);
        Canonized {
            input: *p,
            canonical: c.to_line(),
            key: c.key(),
            automorphisms: c.automorphisms,
        }
    })
    .await?;
    Ok(Json(CanonResults { results }))
}
