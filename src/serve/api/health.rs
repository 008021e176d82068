//! `GET /healthz` (readiness, for a load balancer) and `GET /metrics` (Prometheus).

use super::super::{blocking, Shared};
use crate::store;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// `GET /healthz`.
#[derive(Serialize, ToSchema)]
#[schema(as = Health)]
pub struct HealthView {
    /// `ok`, or `unavailable` (answered with 503).
    pub status: &'static str,
    /// Whether the server records deliveries (false: started `--read-only`).
    pub deliveries: bool,
    /// Why it is unavailable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Readiness: 200 when the server can do its job (take deliveries, or, read-only, serve
/// reads), else 503 with the reason (the last commit failed, the bank's indexes are missing,
/// its disk is full). Open without the token.
#[utoipa::path(get, path = "/healthz", responses(
    (status = 200, description = "ready", body = HealthView),
    (status = 503, description = "not ready: the reason says why", body = HealthView)
))]
pub(super) async fn healthz(State(s): State<Arc<Shared>>) -> Response {
    // A fleet's server delivers only while its history answers; one that has not bound to
    // its history yet stays unavailable: its binder says why.
    s.recorder.look(&s).await;
    let found = blocking(move || {
        let deliveries = !s.recorder.read_only();
        Ok((
            s.read(|c| Ok::<_, store::StoreError>(s.recorder.health(&s, c)))?,
            deliveries,
        ))
    })
    .await;
    let (status, health) = match found {
        Ok((Ok(()), deliveries)) => (
            StatusCode::OK,
            HealthView {
                status: "ok",
                deliveries,
                reason: None,
            },
        ),
        Ok((Err(reason), deliveries)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            HealthView {
                status: "unavailable",
                deliveries,
                reason: Some(reason),
            },
        ),
        Err(e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            HealthView {
                status: "unavailable",
                deliveries: false,
                reason: Some(e.to_string()),
            },
        ),
    };
    (status, Json(health)).into_response()
}

/// Requests and latency histograms per route, Prometheus text format.
#[utoipa::path(get, path = "/metrics", responses(
    (status = 200, description = "Prometheus text", content_type = "text/plain", body = String)
))]
pub(super) async fn metrics(State(s): State<Arc<Shared>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        s.metrics.render(),
    )
        .into_response()
}
