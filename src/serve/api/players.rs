//! Players: a player's learned rating and last games (`GET /v1/players/{user}`).

use super::super::error::ErrorBody;
use super::super::Shared;
use super::{check_user, ApiPath, Reply};
use crate::play::Learned;
use crate::store::play::PlayedGame;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// The games a player's view lists at most.
const GAMES: usize = 50;

/// A player as the API shows them.
#[derive(Serialize, ToSchema)]
#[schema(as = Player)]
pub struct PlayerView {
    /// The app's id of the user.
    pub user: String,
    /// Their learned rating (a new player's, 1500 with deviation 350, before any rated game).
    pub learned: Learned,
    /// Their games counted.
    pub games: u64,
    /// Their last games (up to 50), the latest first.
    pub history: Vec<PlayedGame>,
}

/// A player's learned rating and last games.
#[utoipa::path(get, path = "/v1/players/{user}",
    params(("user" = String, Path, description = "The app's id of the user")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "ok (a user with no game: the starting rating)", body = PlayerView),
        (status = 400, description = "bad user id", body = ErrorBody),
        (status = 503, description = "the bank or the history is unavailable", body = ErrorBody)
    )
)]
pub(super) async fn player(
    State(s): State<Arc<Shared>>,
    ApiPath(user): ApiPath<String>,
) -> Reply<PlayerView> {
    let user = check_user(Some(user))?;
    let (rated, history, games) = s.recorder.player(&s, &user, GAMES).await?;
    let rated = rated.unwrap_or(crate::play::Rated::fresh(crate::play::newcomer()));
    Ok(Json(PlayerView {
        learned: rated.view(),
        user,
        games,
        history,
    }))
}
