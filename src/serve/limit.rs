//! What the play page's token opens (`serve --page-token-file`), beyond which routes
//! ([`super::api`]'s `plays`): the token is public (written into the page), so its requests are
//! rate-limited per client address and its deliveries also per user, in keyed token buckets
//! (GCRA). A request over its limit is answered 429 with `Retry-After`. Requests with the
//! server's own token, or to a server without one, are not limited here ([`PageLimits`]).
//!
//! And the players a client may make ([`NewPlayers`]): with the page's token (a player id
//! asked for, `POST /v1/players`) or on a server without a token (a user never seen before),
//! a new player takes one from its address's budget and one from the server's, so that a
//! crowd of forged players cannot be made at once. The server's own token makes players
//! freely: the app behind it vouches for them.

use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

/// Requests of the page's token an address may make at once, and then one every
/// [`ADDRESS_EVERY`].
pub const ADDRESS_BURST: u32 = 120;
/// The pace an address keeps under its burst (2 requests a second).
pub const ADDRESS_EVERY: Duration = Duration::from_millis(500);
/// Deliveries an address may take at once (a class of players behind one address), then one
/// every [`ADDRESS_DELIVERY_EVERY`].
pub const ADDRESS_DELIVERY_BURST: u32 = 60;
/// The pace of an address's deliveries (30 a minute).
pub const ADDRESS_DELIVERY_EVERY: Duration = Duration::from_secs(2);
/// Deliveries a user may take at once, then one every [`USER_EVERY`].
pub const USER_BURST: u32 = 20;
/// The pace of a user's deliveries (6 a minute: a player starts a puzzle every few minutes).
pub const USER_EVERY: Duration = Duration::from_secs(10);

/// The page token's rate limits.
pub struct PageLimits {
    address: DefaultKeyedRateLimiter<IpAddr>,
    address_deliveries: DefaultKeyedRateLimiter<IpAddr>,
    user: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

/// A quota of `burst` at once, then one every `every`.
fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a period above zero")
        .allow_burst(NonZeroU32::new(burst).expect("a burst above zero"))
}

impl Default for PageLimits {
    fn default() -> PageLimits {
        PageLimits {
            address: DefaultKeyedRateLimiter::keyed(quota(ADDRESS_BURST, ADDRESS_EVERY)),
            address_deliveries: DefaultKeyedRateLimiter::keyed(quota(
                ADDRESS_DELIVERY_BURST,
                ADDRESS_DELIVERY_EVERY,
            )),
            user: DefaultKeyedRateLimiter::keyed(quota(USER_BURST, USER_EVERY)),
            clock: DefaultClock::default(),
        }
    }
}

impl PageLimits {
    /// Takes one request of `address` from its bucket; `Err` is how long to wait.
    pub fn request(&self, address: IpAddr) -> Result<(), Duration> {
        self.forget_idle();
        self.address
            .check_key(&super::listen::address(address))
            .map_err(|n| n.wait_time_from(self.clock.now()))
    }

    /// Takes one delivery of `user` at `address` from their buckets; `Err` is how long to
    /// wait (the user's bucket is charged only when the address's has room).
    pub fn delivery(&self, address: IpAddr, user: &str) -> Result<(), Duration> {
        self.address_deliveries
            .check_key(&super::listen::address(address))
            .map_err(|n| n.wait_time_from(self.clock.now()))?;
        self.user
            .check_key(&user.to_string())
            .map_err(|n| n.wait_time_from(self.clock.now()))
    }

    /// Drops the buckets that are full again (their keys idle long enough), now and then, so
    /// that the tables do not grow with every address and user ever seen.
    fn forget_idle(&self) {
        if self.address.len() > 10_000 {
            self.address.retain_recent();
            self.address_deliveries.retain_recent();
        }
        if self.user.len() > 100_000 {
            self.user.retain_recent();
        }
    }
}

/// The budgets of new players: per address (`serve --new-players-per-address`, an hour's, all
/// of it at once: a class of players behind one address starts together), and the server's
/// as a whole (`serve --new-players-per-day`, a twenty-fourth of it at once).
pub struct NewPlayers {
    address: DefaultKeyedRateLimiter<IpAddr>,
    server: governor::DefaultDirectRateLimiter,
    clock: DefaultClock,
    /// The user ids let in lately (a server without a token): the requests of one new user
    /// that arrive together take one new player, not one each.
    admitted: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl NewPlayers {
    /// The budgets of a server that lets an address make `per_address` new players an hour
    /// and lets in `per_day` in all in a day (each 1 or more).
    pub fn new(per_address: u32, per_day: u32) -> NewPlayers {
        let (per_address, per_day) = (per_address.max(1), per_day.max(1));
        let every = |period: f64, n: u32| Duration::from_secs_f64(period / f64::from(n));
        NewPlayers {
            address: DefaultKeyedRateLimiter::keyed(quota(
                per_address,
                every(3_600.0, per_address),
            )),
            server: governor::RateLimiter::direct(quota(
                (per_day / 24).max(1),
                every(86_400.0, per_day),
            )),
            clock: DefaultClock::default(),
            admitted: Default::default(),
        }
    }

    /// Lets in the user id `user`, first seen, at `address`: a new player taken from the
    /// budgets ([`NewPlayers::admit`]) unless `user` was let in lately.
    pub fn admit_user(&self, address: Option<IpAddr>, user: &str) -> Result<(), Duration> {
        let mut admitted = self.admitted.lock().expect("admitted");
        if admitted.contains(user) {
            return Ok(());
        }
        self.admit(address)?;
        if admitted.len() >= 100_000 {
            admitted.clear();
        }
        admitted.insert(user.to_string());
        Ok(())
    }

    /// Takes one new player of `address` from its budget and the server's; `Err` is how long
    /// to wait (the server's is charged only when the address's has room).
    pub fn admit(&self, address: Option<IpAddr>) -> Result<(), Duration> {
        if let Some(address) = address {
            if self.address.len() > 10_000 {
                self.address.retain_recent();
            }
            self.address
                .check_key(&super::listen::address(address))
                .map_err(|n| n.wait_time_from(self.clock.now()))?;
        }
        self.server
            .check()
            .map_err(|n| n.wait_time_from(self.clock.now()))
    }
}
