//! Why a request of `serve` was not answered with what it asked for: [`ApiError`], each variant
//! one status code, answered as a JSON [`ErrorBody`]; an internal failure is logged with its
//! cause under the request's id and answered with what failed and the id, never the cause.

use crate::retrieve::RetrieveError;
use crate::store;
use axum::extract::rejection::JsonRejection;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::time::Duration;
use utoipa::ToSchema;

/// Why a request was not answered with what it asked for; each maps to one status code and
/// is answered as an [`ErrorBody`].
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed (400).
    #[error("{0}")]
    BadRequest(String),
    /// The route needs the server's token (401).
    #[error("this route needs Authorization: Bearer <token>")]
    Unauthorized,
    /// Nothing answers the request: no such route, puzzle, or puzzle left (404).
    #[error("{0}")]
    NotFound(String),
    /// The route does not take this method (405).
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The request took longer than the server allows, its body included (408).
    #[error("the request took longer than {0} s (its body included)")]
    Timeout(u64),
    /// The request is not allowed: a cross-site request, or more than the play page's token
    /// opens (403).
    #[error("{0}")]
    Forbidden(String),
    /// The play page's token asked more than its rate allows; try again after the time (429).
    #[error("{0}")]
    TooMany(String, Duration),
    /// The request repeats one counted already: a second result for a puzzle handed out
    /// (409).
    #[error("{0}")]
    Again(String),
    /// Concurrent requests of one user kept taking the puzzles drawn (409).
    #[error("too many concurrent requests for this user; try again")]
    Conflict,
    /// The body was refused before it was read: too large (413), not JSON (415), not the
    /// request's shape (400, 422).
    #[error("{1}")]
    Body(StatusCode, String),
    /// The board has no single solution to hint towards (422).
    #[error("{0}")]
    Unprocessable(String),
    /// The bank or the server cannot answer now (503).
    #[error("{0}")]
    Unavailable(String),
    /// The work failed unexpectedly (500): logged with its cause under the request's id, which
    /// the answer names.
    #[error("the request failed; the server's log has the cause under request {id}", id = super::log::current())]
    Failed,
    /// Something the server relies on failed (the bank's database, a commit, handing a puzzle
    /// over): logged with its cause under the request's id; the answer names what failed and
    /// the id, never the cause (503).
    #[error("{what} failed; the server's log has the cause under request {id}", id = super::log::current())]
    Internal {
        /// What failed, for the client: `the bank`, `recording the delivery`.
        what: &'static str,
        /// The cause, for the log.
        cause: String,
    },
}

impl ApiError {
    /// The writer's refusal (`doing: the reason`, 503) or failure (internal: `what` failed).
    pub(super) fn unwritten(
        doing: &str,
        what: &'static str,
        e: super::writer::Unwritten,
    ) -> ApiError {
        match e {
            super::writer::Unwritten::Closed(reason) => {
                ApiError::Unavailable(format!("{doing}: {reason}"))
            }
            super::writer::Unwritten::Failed(cause) => ApiError::internal(what, cause),
        }
    }

    /// An internal error: `what` failed because of `cause`.
    pub(super) fn internal(what: &'static str, cause: impl std::fmt::Display) -> ApiError {
        ApiError::Internal {
            what,
            cause: cause.to_string(),
        }
    }
}

impl ApiError {
    /// The status code it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Conflict | ApiError::Again(_) => StatusCode::CONFLICT,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Body(status, _) => *status,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Failed => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Internal { .. } => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal { what, cause } = &self {
            tracing::error!(id = %super::log::current(), what, cause = %cause, "internal error");
        }
        let body = ErrorBody {
            error: self.to_string(),
        };
        let mut response = (self.status(), Json(body)).into_response();
        match self {
            ApiError::Unauthorized => {
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    header::HeaderValue::from_static("Bearer"),
                );
            }
            ApiError::TooMany(_, wait) => {
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from(secs.max(1)));
            }
            _ => {}
        }
        response
    }
}

impl From<store::StoreError> for ApiError {
    /// SQLite's own errors (and a lock file's) are internal: logged, not said; the store's
    /// own reasons (a damaged row, a bank busy or of another version) are said as before.
    fn from(e: store::StoreError) -> ApiError {
        use store::StoreError as E;
        match e {
            E::Sqlite(_) | E::Row(_) | E::LockFile { .. } | E::Migration { .. } => {
                ApiError::internal("the bank", e)
            }
            e => ApiError::Unavailable(format!("the bank: {e}")),
        }
    }
}

impl From<crate::levels::LevelsError> for ApiError {
    fn from(e: crate::levels::LevelsError) -> ApiError {
        match e {
            crate::levels::LevelsError::Store(e) => e.into(),
            e => ApiError::Unavailable(format!("the bank's levels: {e}")),
        }
    }
}

impl From<RetrieveError> for ApiError {
    fn from(e: RetrieveError) -> ApiError {
        match e {
            RetrieveError::Store(e) => e.into(),
            RetrieveError::Levels(e) => e.into(),
            RetrieveError::Deliver(e) => ApiError::internal("handing the puzzle over", e),
            other => ApiError::Unavailable(format!("the bank: {other}")),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::Body(r.status(), r.body_text())
    }
}

/// Every answer that is not a success: `{"error": reason}`.
#[derive(Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What was wrong, for people.
    pub error: String,
}
