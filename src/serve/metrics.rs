//! Request counts and latency histograms per route, in Prometheus's text format.

use super::Shared;
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 5.0,
];

/// One route's figures.
#[derive(Default)]
struct Route {
    /// Requests by status code.
    statuses: BTreeMap<u16, u64>,
    /// Requests at or under each bucket's bound.
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// The figures of every route.
#[derive(Default)]
pub struct Metrics {
    routes: Mutex<BTreeMap<String, Route>>,
}

impl Metrics {
    fn observe(&self, route: &str, status: u16, seconds: f64) {
        let mut routes = self.routes.lock().expect("metrics");
        let r = routes.entry(route.to_string()).or_default();
        *r.statuses.entry(status).or_default() += 1;
        for (b, &le) in r.buckets.iter_mut().zip(&BUCKETS) {
            if seconds <= le {
                *b += 1;
            }
        }
        r.count += 1;
        r.sum += seconds;
    }

    /// The figures in Prometheus's text format.
    pub fn render(&self) -> String {
        let routes = self.routes.lock().expect("metrics");
        let mut out = String::new();
        out.push_str("# HELP pseudoku_requests_total Requests by route and status.\n");
        out.push_str("# TYPE pseudoku_requests_total counter\n");
        for (name, r) in routes.iter() {
            for (status, n) in &r.statuses {
                let _ = writeln!(
                    out,
                    "pseudoku_requests_total{{route=\"{name}\",status=\"{status}\"}} {n}"
                );
            }
        }
        out.push_str("# HELP pseudoku_request_seconds Request latency by route.\n");
        out.push_str("# TYPE pseudoku_request_seconds histogram\n");
        for (name, r) in routes.iter() {
            for (n, le) in r.buckets.iter().zip(BUCKETS) {
                let _ = writeln!(
                    out,
                    "pseudoku_request_seconds_bucket{{route=\"{name}\",le=\"{le}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "pseudoku_request_seconds_bucket{{route=\"{name}\",le=\"+Inf\"}} {}",
                r.count
            );
            let _ = writeln!(
                out,
                "pseudoku_request_seconds_sum{{route=\"{name}\"}} {}",
                r.sum
            );
            let _ = writeln!(
                out,
                "pseudoku_request_seconds_count{{route=\"{name}\"}} {}",
                r.count
            );
        }
        out
    }
}

/// Middleware: times every request and counts it under its route's pattern.
pub async fn track(State(s): State<Arc<Shared>>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("(unmatched)".to_string(), |m| m.as_str().to_string());
    let start = Instant::now();
    let response = next.run(req).await;
    s.metrics.observe(
        &route,
        response.status().as_u16(),
        start.elapsed().as_secs_f64(),
    );
    response
}
