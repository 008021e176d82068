//! Players: a new player's id (`POST /v1/players`), and a player's learned rating and last
//! games (`GET /v1/players/{user}`).

use super::super::error::ErrorBody;
use super::super::Shared;
use super::{new_player_of, player as named, Access, ApiPath, Client, Reply};
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
    /// Their learned rating (a new player's, about 1132 with deviation 350, before any rated game: see `play::newcomer`).
    pub learned: Learned,
    /// Their games counted.
    pub games: u64,
    /// Their last games (up to 50), the latest first.
    pub history: Vec<PlayedGame>,
}

/// A new player, as `POST /v1/players` answers.
#[derive(Serialize, ToSchema)]
pub struct NewPlayer {
    /// The player's id, made and signed by the server: the `user` of the player's deliveries,
    /// daily puzzles and results (with the play page's token, the only ids it takes).
    pub user: String,
}

/// A new player's id. With the play page's token (or on a server without a token), each
/// address and the server have budgets of new players (429 past them); the server's token
/// makes players freely.
#[utoipa::path(post, path = "/v1/players",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "a new player's id", body = NewPlayer),
        (status = 429, description = "too many new players from this address or on this server", body = ErrorBody)
    )
)]
pub(super) async fn new_player(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
) -> Reply<NewPlayer> {
    if client.access != Access::App {
        new_player_of(&s, &client)?;
    }
    Ok(Json(NewPlayer {
        user: s.player_ids.issue(&mut s.rng()),
    }))
}

/// A player's learned rating and last games (with the play page's token, only the player the
/// page was handed).
#[utoipa::path(get, path = "/v1/players/{user}",
    params(("user" = String, Path, description = "The app's id of the user")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "ok (a user with no game: the starting rating)", body = PlayerView),
        (status = 400, description = "bad user id", body = ErrorBody),
        (status = 403, description = "with the play page's token: not a player id this server handed out", body = ErrorBody),
        (status = 503, description = "the bank or the history is unavailable", body = ErrorBody)
    )
)]
pub(super) async fn player(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiPath(user): ApiPath<String>,
) -> Reply<PlayerView> {
    let user = named(&s, &client, Some(user))?;
    let (rated, history, games) = s.recorder.player(&s, &user, GAMES).await?;
    let rated = rated.unwrap_or(crate::play::Rated::fresh(crate::play::newcomer()));
    Ok(Json(PlayerView {
        learned: rated.view(),
        user,
        games,
        history,
    }))
}
