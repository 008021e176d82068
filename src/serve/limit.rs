//! What the play page's token opens (`serve --page-token-file`), beyond which routes
//! ([`super::api`]'s `plays`): the token is public (written into the page), so its requests are
//! rate-limited per client address and its deliveries also per user, in keyed token buckets
//! (GCRA). A request over its limit is answered 429 with `Retry-After`. Requests with the
//! server's own token, or to a server without one, are not limited here.

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
