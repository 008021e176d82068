//! Results: a player's game (`POST /v1/results`), counted once per puzzle handed out, which
//! moves the player's and the puzzle's learned ratings before it is answered.

use super::super::error::{ApiError, ErrorBody};
use super::super::{blocking, Shared};
use super::{player, Client, Reply};
use crate::play::{Counted, Game};
use crate::retrieve;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use std::sync::Arc;

/// Counts a player's game: the user must have been handed the puzzle (a delivery, or the daily
/// puzzle asked for with the user), and a puzzle handed out is counted once. The game moves
/// the player as a whole game and the puzzle in proportion to how established the player is
/// (a new player's first games not at all), new players moving one puzzle by a bounded amount
/// a day. With the play page's token, the user is a player id the server handed out. Answered
/// once committed: the game's score against the par time, the share of a game it taught the
/// puzzle, and both ratings after it.
#[utoipa::path(post, path = "/v1/results", request_body = Game,
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "counted", body = Counted),
        (status = 400, description = "a game out of reason: a bad user or puzzle id, an absurd time, too many hints or mistakes", body = ErrorBody),
        (status = 403, description = "the user was not handed the puzzle; with the play page's token, a user id the server did not hand out", body = ErrorBody),
        (status = 404, description = "no such puzzle", body = ErrorBody),
        (status = 409, description = "the user's result for the puzzle was counted already", body = ErrorBody),
        (status = 503, description = "the bank or the history is unavailable, or the server read-only", body = ErrorBody)
    )
)]
pub(super) async fn results(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    body: Result<Json<Game>, JsonRejection>,
) -> Reply<Counted> {
    let Json(game) = body?;
    game.check()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    player(&s, &client, Some(game.user.clone()))?;
    let id = game.puzzle;
    let handout = {
        let s = s.clone();
        blocking(move || {
            let lv = s.levels()?;
            Ok(s.read(|c| retrieve::by_id(c, &lv, id))?)
        })
        .await?
    };
    let Some(h) = handout else {
        return Err(ApiError::NotFound(format!("no puzzle with id {id}")));
    };
    let prior = crate::play::prior(h.percentile);
    match s.recorder.count(&s, game, h.key, prior).await? {
        Ok(counted) => Ok(Json(counted)),
        Err(refused @ crate::play::Refused::NotGiven { .. }) => {
            Err(ApiError::Forbidden(refused.to_string()))
        }
        Err(refused) => Err(ApiError::Again(refused.to_string())),
    }
}
