//! Whether the server can do its job, for `/healthz`: the bank's indexes are in place (without
//! them nothing in the bank stops a second row of a class, and draws by rating scan the table)
//! and, for what the server records, its [`Recorder`](super::recorder::Recorder) says (the
//! last commit did not fail and the bank's disk has room, or a fleet's history answers; a
//! server started `--read-only` records none, by design, and is healthy for reads). Findings
//! are kept for a second.

use crate::store::{self, Bank};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Free space below which the bank's disk counts as full: a commit of deliveries needs a few
/// pages, a checkpoint more.
pub const MIN_FREE_BYTES: u64 = 16 << 20;

/// How long a finding is kept before the bank is looked at again.
const TTL: Duration = Duration::from_secs(1);

/// What `/healthz` finds.
#[derive(Default)]
pub struct Readiness {
    /// Why the last recording failed, until one succeeds.
    last_write: Mutex<Option<String>>,
    /// The last finding, and when it was made.
    found: Mutex<Option<(Instant, Result<(), String>)>>,
}

impl Readiness {
    /// The last recording's outcome (the writer's commit of deliveries; a fleet's server's
    /// delivery or look of `/healthz` at its history): `failed` with why, or done.
    pub fn recorded(&self, failed: Option<String>) {
        let mut last = self.last_write.lock().expect("readiness");
        if *last != failed {
            *last = failed;
            // Seen at the next look, not a second later.
            *self.found.lock().expect("readiness") = None;
        }
    }

    /// Whether the server can do its job, and if not why, as found within the last second
    /// (`conn`: a reading connection to the bank): the bank's indexes, then `recording`, told
    /// why the last recording failed, if it did.
    pub fn check(
        &self,
        conn: &Bank,
        recording: impl FnOnce(Option<&str>) -> Result<(), String>,
    ) -> Result<(), String> {
        if let Some((at, found)) = &*self.found.lock().expect("readiness") {
            if at.elapsed() < TTL {
                return found.clone();
            }
        }
        let found = self.look(conn, recording);
        *self.found.lock().expect("readiness") = Some((Instant::now(), found.clone()));
        found
    }

    fn look(
        &self,
        conn: &Bank,
        recording: impl FnOnce(Option<&str>) -> Result<(), String>,
    ) -> Result<(), String> {
        let missing =
            store::puzzles::missing_indexes(conn).map_err(|e| format!("the bank: {e}"))?;
        if !missing.is_empty() {
            return Err(format!(
                "the bank's indexes {} are missing (a build holds the bank, or one was killed: \
                 the next command that opens it puts them back)",
                missing.join(", ")
            ));
        }
        let last = self.last_write.lock().expect("readiness").clone();
        recording(last.as_deref())
    }
}
