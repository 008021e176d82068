//! `POST /v1/hint`: the next step on a player's board.

use super::super::error::{ApiError, ErrorBody};
use super::super::{blocking, Shared};
use super::{Access, Client};
use crate::grid::Puzzle;
use crate::hint::{hint, Board, HintView};
use crate::retrieve;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// The body of `POST /v1/hint`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The clues, 81 characters, `.` or `0` for empty.
    pub puzzle: String,
    /// The player's entries, 81 characters, `.` or `0` for empty.
    pub entries: Option<String>,
    /// 81 strings, each a cell's pencil marks (digits); filled cells' strings are ignored.
    pub candidates: Option<Vec<String>>,
}

impl HintRequest {
    /// The board it describes.
    fn board(&self) -> Result<Board, ApiError> {
        let mut board = Board::new(parse_puzzle(&self.puzzle)?);
        if let Some(e) = &self.entries {
            board = board
                .with_entries(e)
                .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        }
        if let Some(c) = &self.candidates {
            if c.len() != 81 {
                return Err(ApiError::BadRequest(format!(
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
                            return Err(ApiError::BadRequest(format!(
                                "candidates: bad character {ch:?} in cell {}",
                                i + 1
                            )))
                        }
                    }
                }
            }
            board.marks = Some(marks);
        }
        Ok(board)
    }
}

fn parse_puzzle(text: &str) -> Result<Puzzle, ApiError> {
    Puzzle::parse_line(text).map_err(|e| ApiError::BadRequest(format!("bad puzzle: {e}")))
}

/// The next step on a player's board: mistakes first, then the easiest technique.
#[utoipa::path(post, path = "/v1/hint", request_body = HintRequest, responses(
    (status = 200, description = "ok", body = HintView),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody),
    (status = 422, description = "the clues have no solution or more than one", body = ErrorBody)
))]
pub(super) async fn hint_route(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    body: Result<Json<HintRequest>, JsonRejection>,
) -> Response {
    let hinted = async {
        let Json(req) = body?;
        let board = req.board()?;
        // The page's token hints on the boards the server hands out: a puzzle of the bank,
        // clue for clue (not a free solver for any puzzle).
        if client.access == Access::Page {
            let (s, clues) = (s.clone(), board.clues);
            let ours = blocking(move || {
                let key = crate::canon::key(&clues);
                let lv = s.levels()?;
                Ok(s.read(|c| retrieve::by_key(c, &lv, &key))?
                    .is_some_and(|h| h.puzzle == clues))
            })
            .await?;
            if !ours {
                return Err(ApiError::Forbidden(
                    "the play page's token gives hints on this server's puzzles only".into(),
                ));
            }
        }
        blocking(move || {
            hint(&board)
                .map(|h| h.to_json())
                .map_err(|e| ApiError::Unprocessable(e.to_string()))
        })
        .await
    };
    match hinted.await {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => e.into_response(),
    }
}
