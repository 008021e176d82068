//! The play page at `/`: static HTML, JavaScript and CSS compiled into the binary (no build
//! step, nothing fetched from elsewhere).

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The play page.
#[utoipa::path(get, path = "/", responses(
    (status = 200, description = "HTML", content_type = "text/html", body = String)
))]
pub async fn index() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page/index.html"),
    )
        .into_response()
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
