//! The play page at `/`: static HTML, JavaScript and CSS compiled into the binary (no build
//! step, nothing fetched from elsewhere).

use super::Shared;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The page's HTML.
const INDEX: &str = include_str!("page/index.html");

/// The play page; with a page token, the token written into it (a `pseudoku-token` meta
/// element the script sends as its bearer token).
#[utoipa::path(get, path = "/", responses(
    (status = 200, description = "HTML", content_type = "text/html", body = String)
))]
pub async fn index(State(s): State<Arc<Shared>>) -> Response {
    let html = match &s.page_token {
        Some(t) => with_token(t),
        None => INDEX.to_string(),
    };
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// The page with `token` in a meta element after its charset (the token is checked to be
/// printable ASCII without quotes or angle brackets when the server starts).
fn with_token(token: &str) -> String {
    let charset = "<meta charset=\"utf-8\">";
    INDEX.replacen(
        charset,
        &format!("{charset}\n<meta name=\"pseudoku-token\" content=\"{token}\">"),
        1,
    )
}

/// `GET /app.js`.
pub async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("page/app.js"),
    )
        .into_response()
}

/// `GET /style.css`.
pub async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page/style.css"),
    )
        .into_response()
}
