//! Whether the server can do its job, for `/healthz`: it can take deliveries only when its last
//! commit did not fail, the bank's indexes are in place (without them nothing in the bank
//! stops a second row of a class, and draws by rating scan the table) and the bank's disk has
//! room (or, for a fleet's server, its history answers). A server started `--read-only` takes
//! none, by design, and is healthy for reads.

use crate::store;
use rusqlite::Connection;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Free space below which the bank's disk counts as full: a commit of deliveries needs a few
/// pages, a checkpoint more.
pub const MIN_FREE_BYTES: u64 = 16 << 20;

/// How long a finding is kept before the bank is looked at again.
const TTL: Duration = Duration::from_secs(1);

/// What `/healthz` finds.
pub struct Health {
    db: PathBuf,
    read_only: bool,
    /// Whether deliveries are written to the bank (not to a fleet's history).
    in_bank: bool,
    /// Why the last commit of deliveries failed, until one succeeds.
    last_write: Mutex<Option<String>>,
    /// The last finding, and when it was made.
    found: Mutex<Option<(Instant, Result<(), String>)>>,
}

impl Health {
    /// The health of a server of the bank `db` (`read_only`: one that records nothing;
    /// `in_bank`: one that records deliveries in the bank, not in a fleet's history).
    pub fn new(db: PathBuf, read_only: bool, in_bank: bool) -> Health {
        Health {
            db,
            read_only,
            in_bank,
            last_write: Mutex::new(None),
            found: Mutex::new(None),
        }
    }

    /// True for a server that records no delivery.
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// The last recording's outcome (the writer's commit of deliveries; a fleet's server's
    /// delivery or look of `/healthz` at its history): `failed` with why, or done.
    pub fn recorded(&self, failed: Option<String>) {
        let mut last = self.last_write.lock().expect("health");
        if *last != failed {
            *last = failed;
            // Seen at the next look, not a second later.
            *self.found.lock().expect("health") = None;
        }
    }

    /// Whether the server can take deliveries (read-only: serve reads), and if not why, as
    /// found within the last second (`conn`: a reading connection to the bank).
    pub fn check(&self, conn: &Connection) -> Result<(), String> {
        if let Some((at, found)) = &*self.found.lock().expect("health") {
            if at.elapsed() < TTL {
                return found.clone();
            }
        }
        let found = self.look(conn);
        *self.found.lock().expect("health") = Some((Instant::now(), found.clone()));
        found
    }

    fn look(&self, conn: &Connection) -> Result<(), String> {
        let missing = store::puzzles::missing_indexes(conn).map_err(|e| format!("the bank: {e}"))?;
        if !missing.is_empty() {
            return Err(format!(
                "the bank's indexes {} are missing (a build holds the bank, or one was killed: \
                 the next command that opens it puts them back)",
                missing.join(", ")
            ));
        }
        if self.read_only {
            return Ok(());
        }
        if let Some(e) = &*self.last_write.lock().expect("health") {
            return Err(if self.in_bank {
                format!("the last deliveries could not be recorded: {e}")
            } else {
                e.clone()
            });
        }
        if !self.in_bank {
            return Ok(());
        }
        match store::free_bytes(&self.db) {
            Some(free) if free < MIN_FREE_BYTES => Err(format!(
                "the bank's disk is full ({free} bytes free): deliveries cannot be recorded"
            )),
            _ => Ok(()),
        }
    }
}
