//! The server's connections: accepted under a cap on open connections and a cap per client
//! address, each served by hyper with a deadline for its request headers and a bound on their
//! size, and drained within a bounded time when the server stops. A silent or slow client
//! holds a connection for at most the header deadline, and at most its share of them, so it
//! cannot starve `/healthz` or the other clients.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

/// The bounds of the connections.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Open connections at most; one more is closed at once.
    pub connections: usize,
    /// Open connections from one address at most.
    pub per_client: usize,
    /// The longest a client may take to send a request's headers (a silent connection is
    /// closed after it).
    pub header_time: Duration,
    /// The largest request head (request line and headers), in bytes.
    pub header_bytes: usize,
    /// How long a stopping server waits for the requests it is answering.
    pub drain: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 1024,
            per_client: 64,
            header_time: Duration::from_secs(10),
            header_bytes: 64 * 1024,
            drain: Duration::from_secs(10),
        }
    }
}

/// How many connections each client address holds.
#[derive(Default)]
struct Clients(Mutex<HashMap<IpAddr, usize>>);

impl Clients {
    /// Counts a new connection of `ip`, unless it holds `max` already.
    fn enter(&self, ip: IpAddr, max: usize) -> bool {
        let mut open = self.0.lock().expect("clients");
        let n = open.entry(ip).or_insert(0);
        if *n >= max {
            return false;
        }
        *n += 1;
        true
    }

    /// A connection of `ip` closed.
    fn leave(&self, ip: IpAddr) {
        let mut open = self.0.lock().expect("clients");
        if let Some(n) = open.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&ip);
            }
        }
    }
}

/// Serves `app` on `listener` within `limits` until `stop` resolves; then stops accepting,
/// lets every connection finish the request it is on (idle ones close at once), and returns
/// when they are done or `limits.drain` has passed, whichever is first (the requests still
/// running then are abandoned).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.connections));
    let clients = Arc::new(Clients::default());
    let (stopping, stopped) = watch::channel(false);
    let mut open: JoinSet<()> = JoinSet::new();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of descriptors, a connection reset before it was accepted: the
                // listener goes on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            // Reap finished connections as they go.
            Some(_) = open.join_next(), if !open.is_empty() => continue,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            continue;
        };
        let ip = peer.ip();
        if !clients.enter(ip, limits.per_client) {
            continue;
        }
        let (app, clients, mut stopped) = (app.clone(), clients.clone(), stopped.clone());
        open.spawn(async move {
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_time)
                .max_buf_size(limits.header_bytes)
                .keep_alive(true);
            let conn = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopped.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            clients.leave(ip);
            drop(slot);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let drained = async {
        while open.join_next().await.is_some() {}
    };
    if tokio::time::timeout(limits.drain, drained).await.is_err() {
        open.abort_all();
    }
    Ok(())
}
