//! The server's connections: accepted under a cap on open connections and a cap per client
//! address, each served by hyper with a deadline for its request headers and a bound on their
//! size, and drained within a bounded time when the server stops. A silent or slow client
//! holds a connection for at most the header deadline, and at most its share of them. At the
//! cap, a newcomer takes the place of the oldest connection of the address holding the most
//! (closed gracefully: at once when idle, after its request otherwise), so a flood from many
//! addresses, each holding its share, cannot shut out a client that holds few: a load
//! balancer's health checks and new clients are answered whoever holds the rest. When no
//! address holds more than the newcomer would, a small overflow lane answers one request a
//! connection, quickly: `/healthz` as usual, anything else 503.
//!
//! An address is an IPv4 address or an IPv6 /64 network (one host's share of IPv6 addresses).

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};
use tokio::task::JoinSet;

/// The bounds of the connections.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Open connections at most (past it, a newcomer takes the place of a connection of the
    /// address holding the most, or the overflow lane answers it once).
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

/// Connections of the overflow lane at most, and per address.
pub const OVERFLOW: usize = 64;
const OVERFLOW_PER_CLIENT: usize = 2;

/// The header deadline of a connection of the overflow lane.
const OVERFLOW_HEADER_TIME: Duration = Duration::from_secs(2);

/// Which lane a connection was let into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Under the cap: served as usual.
    Main,
    /// Past the cap: one request, `/healthz` answered, anything else 503.
    Overflow,
}

/// An address as the caps count it: an IPv4 address, or an IPv6 /64 network.
pub(super) fn address(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// A connection let in: its lane, its number, and what tells it to close.
struct Admitted {
    lane: Lane,
    id: u64,
    close: Arc<Notify>,
}

/// What one address holds: its main connections, oldest first, and its overflow ones.
#[derive(Default)]
struct Held {
    main: VecDeque<(u64, Arc<Notify>)>,
    overflow: usize,
}

/// The connections open.
#[derive(Default)]
struct Open {
    main: usize,
    overflow: usize,
    next: u64,
    by_address: HashMap<IpAddr, Held>,
}

/// The connections open, shared by the accepting loop and the connections' tasks.
#[derive(Default)]
struct Clients(Mutex<Open>);

impl Clients {
    /// Lets a new connection of `ip` in within `limits`, counted: into the main lane while
    /// there is room and the address holds less than its share; at the cap, in place of the
    /// oldest connection of the address holding the most (told to close) when that address
    /// holds more than this one would; else into the overflow lane while it has room. `None`:
    /// closed at once.
    fn enter(&self, ip: IpAddr, limits: &Limits) -> Option<Admitted> {
        let mut open = self.0.lock().expect("clients");
        let open = &mut *open;
        let key = address(ip);
        let mine = open.by_address.get(&key).map_or(0, |h| h.main.len());
        let id = open.next;
        open.next += 1;
        let close = Arc::new(Notify::new());
        let lane = if mine < limits.per_client {
            if open.main >= limits.connections {
                // The address holding the most; of those, the one whose oldest is oldest.
                let heaviest = open
                    .by_address
                    .iter()
                    .max_by_key(|(_, h)| {
                        let oldest = h.main.front().map_or(u64::MAX, |c| c.0);
                        (h.main.len(), std::cmp::Reverse(oldest))
                    })
                    .filter(|(_, h)| h.main.len() > mine + 1)
                    .map(|(a, _)| *a);
                if let Some(victim) = heaviest {
                    let held = open.by_address.get_mut(&victim).expect("found above");
                    if let Some((_, close)) = held.main.pop_front() {
                        close.notify_one();
                        open.main -= 1;
                    }
                }
            }
            (open.main < limits.connections).then_some(Lane::Main)
        } else {
            None
        };
        let held = open.by_address.entry(key).or_default();
        let lane = match lane {
            Some(Lane::Main) => {
                held.main.push_back((id, close.clone()));
                open.main += 1;
                Lane::Main
            }
            _ if open.overflow < OVERFLOW && held.overflow < OVERFLOW_PER_CLIENT => {
                held.overflow += 1;
                open.overflow += 1;
                Lane::Overflow
            }
            _ => {
                if held.main.is_empty() && held.overflow == 0 {
                    open.by_address.remove(&key);
                }
                return None;
            }
        };
        Some(Admitted { lane, id, close })
    }

    /// The connection `id` of `ip` in `lane` closed (one that gave its place to a newcomer
    /// was counted out then).
    fn leave(&self, ip: IpAddr, lane: Lane, id: u64) {
        let mut open = self.0.lock().expect("clients");
        let open = &mut *open;
        let key = address(ip);
        let Some(held) = open.by_address.get_mut(&key) else {
            return;
        };
        match lane {
            Lane::Main => {
                if let Some(at) = held.main.iter().position(|(c, _)| *c == id) {
                    held.main.remove(at);
                    open.main -= 1;
                }
            }
            Lane::Overflow => {
                held.overflow -= 1;
                open.overflow -= 1;
            }
        }
        if held.main.is_empty() && held.overflow == 0 {
            open.by_address.remove(&key);
        }
    }
}

/// Serves `app` on `listener` within `limits` (`busy` on the overflow lane) until `stop`
/// resolves; then stops accepting,
/// lets every connection finish the request it is on (idle ones close at once), and returns
/// when they are done or `limits.drain` has passed, whichever is first (the requests still
/// running then are abandoned).
pub async fn serve(
    listener: TcpListener,
    (app, busy): (Router, Router),
    limits: Limits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
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
        let ip = peer.ip();
        let Some(Admitted { lane, id, close }) = clients.enter(ip, &limits) else {
            continue;
        };
        let app = match lane {
            Lane::Main => app.clone(),
            Lane::Overflow => busy.clone(),
        };
        let (clients, mut stopped) = (clients.clone(), stopped.clone());
        open.spawn(async move {
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .max_buf_size(limits.header_bytes);
            match lane {
                Lane::Main => builder
                    .header_read_timeout(limits.header_time)
                    .keep_alive(true),
                Lane::Overflow => builder
                    .header_read_timeout(OVERFLOW_HEADER_TIME.min(limits.header_time))
                    .keep_alive(false),
            };
            // Each request knows its client's address (rate limits of the page's token).
            let app = tower::ServiceExt::map_request(app, move |mut r: hyper::Request<_>| {
                r.extensions_mut().insert(axum::extract::ConnectInfo(peer));
                r
            });
            let conn =
                builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopped.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
                // Its place given to a newcomer: closed at once when idle, else after its
                // request.
                () = close.notified() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            clients.leave(ip, lane, id);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    tracing::info!(
        target: "pseudoku::lifecycle",
        connections = open.len(),
        drain_s = limits.drain.as_secs_f64(),
        "stopping: no new connection; draining the open ones"
    );
    let drained = async { while open.join_next().await.is_some() {} };
    if tokio::time::timeout(limits.drain, drained).await.is_err() {
        tracing::warn!(
            target: "pseudoku::lifecycle",
            connections = open.len(),
            "the drain's time is up: the requests still open are abandoned"
        );
        open.abort_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(connections: usize, per_client: usize) -> Limits {
        Limits {
            connections,
            per_client,
            ..Limits::default()
        }
    }

    #[test]
    fn a_newcomer_takes_the_place_of_the_heaviest_address_at_the_cap() {
        let clients = Clients::default();
        let lim = limits(8, 4);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let c: IpAddr = "10.0.0.3".parse().unwrap();
        let first: Vec<Admitted> = (0..4).map(|_| clients.enter(a, &lim).unwrap()).collect();
        assert!(first.iter().all(|x| x.lane == Lane::Main));
        // Past its share: refused the main lane, twice into the overflow, then closed.
        assert_eq!(clients.enter(a, &lim).unwrap().lane, Lane::Overflow);
        assert_eq!(clients.enter(a, &lim).unwrap().lane, Lane::Overflow);
        assert!(clients.enter(a, &lim).is_none());
        for _ in 0..4 {
            assert_eq!(clients.enter(b, &lim).unwrap().lane, Lane::Main);
        }
        // At the cap: c takes the place of a's oldest, which is told to close.
        let x = clients.enter(c, &lim).unwrap();
        assert_eq!(x.lane, Lane::Main);
        assert_eq!(clients.0.lock().unwrap().main, 8);
        let woken = std::sync::atomic::AtomicBool::new(false);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            if tokio::time::timeout(Duration::from_millis(50), first[0].close.notified())
                .await
                .is_ok()
            {
                woken.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        });
        assert!(
            woken.into_inner(),
            "the oldest of the heaviest is told to close"
        );
        // Its end counts nothing twice.
        clients.leave(a, Lane::Main, first[0].id);
        assert_eq!(clients.0.lock().unwrap().main, 8);
        // c's next takes b's oldest; then a and b hold 3, c 2: no place is taken from an
        // address holding at most one more than the newcomer, which goes to the overflow.
        assert_eq!(clients.enter(c, &lim).unwrap().lane, Lane::Main);
        assert_eq!(clients.enter(c, &lim).unwrap().lane, Lane::Overflow);
        let counts = |ip: IpAddr| clients.0.lock().unwrap().by_address[&ip].main.len();
        assert_eq!((counts(a), counts(b), counts(c)), (3, 3, 2));
        clients.leave(c, Lane::Main, x.id);
        assert_eq!(clients.0.lock().unwrap().main, 7);
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_bit_network() {
        let one: IpAddr = "2001:db8::1".parse().unwrap();
        let two: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        let other: IpAddr = "2001:db8:0:1::1".parse().unwrap();
        assert_eq!(address(one), address(two));
        assert_ne!(address(one), address(other));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(address(mapped), "10.0.0.1".parse::<IpAddr>().unwrap());
    }
}
