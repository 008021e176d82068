//! Request counts and latency histograms per route, and the times of the bank's writes
//! (commits of deliveries, checkpoints of the log), in Prometheus's text format.

use super::Shared;
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 5.0,
];

/// Counts of observations at or under each bucket's bound.
#[derive(Default)]
struct Histogram {
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        for (b, &le) in self.buckets.iter_mut().zip(&BUCKETS) {
            if seconds <= le {
                *b += 1;
            }
        }
        self.count += 1;
        self.sum += seconds;
    }

    /// Writes the histogram's lines for `name` with the label `labels` (`key="value"`).
    fn render(&self, out: &mut String, name: &str, labels: &str) {
        for (n, le) in self.buckets.iter().zip(BUCKETS) {
            let _ = writeln!(out, "{name}_bucket{{{labels},le=\"{le}\"}} {n}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels},le=\"+Inf\"}} {}", self.count);
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.count);
    }
}

/// One route's figures.
#[derive(Default)]
struct Route {
    /// Requests by status code.
    statuses: BTreeMap<u16, u64>,
    latency: Histogram,
}

/// The figures of every route and of the bank's writes.
#[derive(Default)]
pub struct Metrics {
    routes: Mutex<BTreeMap<String, Route>>,
    /// Writes by kind (`commit`, `checkpoint`, `restart`, `daily`).
    writes: Mutex<BTreeMap<&'static str, Histogram>>,
    /// Deliveries committed.
    deliveries: AtomicI64,
    /// The log's length in pages at the last checkpoint.
    pub wal_frames: AtomicI64,
}

impl Metrics {
    fn observe(&self, route: &str, status: u16, seconds: f64) {
        let mut routes = self.routes.lock().expect("metrics");
        let r = routes.entry(route.to_string()).or_default();
        *r.statuses.entry(status).or_default() += 1;
        r.latency.observe(seconds);
    }

    /// Counts one write to the bank of `kind` that took `seconds`.
    pub fn observe_write(&self, kind: &'static str, seconds: f64) {
        let mut writes = self.writes.lock().expect("metrics");
        writes.entry(kind).or_default().observe(seconds);
    }

    /// Counts `n` deliveries committed.
    pub fn delivered(&self, n: usize) {
        self.deliveries.fetch_add(n as i64, Ordering::Relaxed);
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
            r.latency.render(
                &mut out,
                "pseudoku_request_seconds",
                &format!("route=\"{name}\""),
            );
        }
        drop(routes);
        out.push_str(
            "# HELP pseudoku_write_seconds Writes by kind: the bank's commits of deliveries, \
             daily puzzles and checkpoints of the log; a fleet's server's deliveries (history) \
             and daily puzzles in its history.\n",
        );
        out.push_str("# TYPE pseudoku_write_seconds histogram\n");
        for (kind, h) in self.writes.lock().expect("metrics").iter() {
            h.render(
                &mut out,
                "pseudoku_write_seconds",
                &format!("kind=\"{kind}\""),
            );
        }
        out.push_str("# HELP pseudoku_deliveries_total Deliveries committed.\n");
        out.push_str("# TYPE pseudoku_deliveries_total counter\n");
        let _ = writeln!(
            out,
            "pseudoku_deliveries_total {}",
            self.deliveries.load(Ordering::Relaxed)
        );
        out.push_str(
            "# HELP pseudoku_wal_pages The log's length in pages at the last checkpoint.\n",
        );
        out.push_str("# TYPE pseudoku_wal_pages gauge\n");
        let _ = writeln!(
            out,
            "pseudoku_wal_pages {}",
            self.wal_frames.load(Ordering::Relaxed)
        );
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
