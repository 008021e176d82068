//! What the server tells its operator, through `tracing`: every request gets an id (answered
//! in the `x-request-id` header) and one access line (method, route pattern, status, time,
//! id; never a query, header or body, so never a token); an internal error is logged with its
//! cause under the request's id, which its answer names instead of the cause.

use super::Shared;
use axum::extract::{MatchedPath, Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The header a request's id is answered in.
pub const REQUEST_ID: &str = "x-request-id";

tokio::task_local! {
    /// The id of the request being answered.
    static CURRENT: String;
}

/// Request ids: a prefix drawn when the server starts (ids of two runs differ) and a count.
pub struct Ids {
    prefix: u32,
    next: AtomicU64,
}

impl Ids {
    /// Ids of a server starting now.
    pub fn new() -> Ids {
        Ids {
            prefix: crate::rng::splitmix64(crate::rng::Rng::clock_seed()) as u32,
            next: AtomicU64::new(1),
        }
    }

    /// The next id: 8 hex digits of prefix, a dash and the count.
    fn next(&self) -> String {
        format!(
            "{:08x}-{}",
            self.prefix,
            self.next.fetch_add(1, Ordering::Relaxed)
        )
    }
}

/// The id of the request being answered (`-` outside one).
pub fn current() -> String {
    CURRENT
        .try_with(Clone::clone)
        .unwrap_or_else(|_| "-".to_string())
}

/// Middleware: gives the request its id, answers it in [`REQUEST_ID`] and logs the access line.
pub async fn access(State(s): State<Arc<Shared>>, req: Request, next: Next) -> Response {
    let id = s.ids.next();
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("(unmatched)".to_string(), |m| m.as_str().to_string());
    let start = Instant::now();
    let mut response = CURRENT.scope(id.clone(), next.run(req)).await;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let status = response.status().as_u16();
    tracing::info!(
        target: "pseudoku::access",
        id = %id,
        method = %method,
        route = %route,
        status,
        ms = (ms * 10.0).round() / 10.0,
        "request"
    );
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, v);
    }
    response
}
