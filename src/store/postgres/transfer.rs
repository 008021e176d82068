//! A bank's history moved to a fleet's PostgreSQL history and back (`history export`,
//! `history import`): the per-user deliveries and the daily puzzles, each row added unless
//! its user and class (or date and level) is there already, so that a move can be run again.
//! Deliveries move a page at a time ([`PAGE`]): a history of millions is never held at once.
//! Neither runs while a server records deliveries in the bank (its deliveries after the move
//! would never reach the fleet): both take the bank's deliveries lock, and a bank whose history
//! was exported says so (`history_moved`), so that `serve` without `--history` refuses it
//! until the history is imported back.

use super::{BankIdentity, Binding, Postgres, Result};
use crate::store;
use std::path::Path;

/// Deliveries read and written at a time.
const PAGE: usize = 10_000;

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// How the bank stood against the history.
    pub binding: Binding,
    /// Deliveries read from the source.
    pub deliveries: u64,
    /// Of those, the ones added (the others were there).
    pub deliveries_added: u64,
    /// Daily puzzles read from the source.
    pub daily: u64,
    /// Of those, the ones added.
    pub daily_added: u64,
    /// Deliveries of classes the bank does not have, left out (`import` of a history that
    /// was recorded against another bank).
    pub lacking: u64,
}

/// The setting a bank's history export leaves (the history's address, its password hidden,
/// and when), cleared by an import: a server recording in the bank alone refuses it.
pub const MOVED_KEY: &str = "history_moved";

/// The bank's deliveries lock, or why it cannot be had: a server records deliveries in the
/// bank.
fn hold(db: &Path) -> Result<store::lock::DeliveriesLock> {
    store::lock::DeliveriesLock::try_acquire(db)?.ok_or_else(|| super::HistoryError::Serving {
        db: db.to_path_buf(),
    })
}

/// A runtime for one command's few requests.
fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

/// Copies the bank `db`'s per-user history and daily puzzles into the history at `url`
/// (creating its schema if needed), after checking the bank against the history's (see
/// [`Postgres::bind`]; `rebind` records this bank as the history's).
pub fn export(db: &Path, url: &str, rebind: bool) -> Result<Moved> {
    let conn = store::open_existing(db)?;
    let _serving = hold(db)?;
    let bank = BankIdentity::of(&conn)?;
    let daily = store::daily::all(&conn)?;
    let lineage = std::sync::Mutex::new(store::open_existing(db)?);
    let at = |last: i64| Ok(store::lineage::at(&lineage.lock().expect("bank"), last)?);
    let moved = runtime()?.block_on(async {
        let pg = Postgres::connect(url, 1)?;
        pg.migrate().await?;
        let binding = pg.bind(&bank, &at, rebind, false).await?;
        let (mut deliveries, mut deliveries_added) = (0, 0);
        let mut after = None;
        loop {
            let page = store::history::page(&conn, after.as_ref(), PAGE)?;
            let Some(last) = page.last() else { break };
            after = Some((last.user.clone(), last.key));
            deliveries += page.len() as u64;
            deliveries_added += pg.history().add(&page).await?;
        }
        let daily_added = pg.daily().add(&daily).await?;
        Ok::<_, super::HistoryError>(Moved {
            binding,
            deliveries,
            deliveries_added,
            daily: daily.len() as u64,
            daily_added,
            lacking: 0,
        })
    })?;
    let note = format!(
        "exported to {} at {}",
        super::redact(url),
        crate::calendar::now_utc()
    );
    store::settings::set(&conn, MOVED_KEY, &note)?;
    Ok(moved)
}

/// Copies the history at `url` (its per-user deliveries and daily puzzles) into the bank
/// `db`, in one transaction, after the same check as [`export`]. A daily puzzle is added only
/// where the bank's puzzle of its id is of its class, and is marked served.
pub fn import(db: &Path, url: &str, rebind: bool) -> Result<Moved> {
    let conn = store::open_existing(db)?;
    let _serving = hold(db)?;
    let bank = BankIdentity::of(&conn)?;
    let runtime = runtime()?;
    let pg = Postgres::connect(url, 1)?;
    let lineage = std::sync::Mutex::new(store::open_existing(db)?);
    let at = |last: i64| Ok(store::lineage::at(&lineage.lock().expect("bank"), last)?);
    let (binding, daily) = runtime.block_on(async {
        pg.migrate().await?;
        let binding = pg.bind(&bank, &at, rebind, false).await?;
        Ok::<_, super::HistoryError>((binding, pg.daily().all().await?))
    })?;
    store::immediate(&conn, || {
        let (mut deliveries, mut deliveries_added, mut lacking) = (0, 0, 0);
        let mut after = None;
        loop {
            let page = runtime.block_on(pg.history().page(after.as_ref(), PAGE))?;
            let Some(last) = page.last() else { break };
            after = Some((last.user.clone(), last.key));
            deliveries += page.len() as u64;
            let (added, left_out) = store::history::add(&conn, &page)?;
            deliveries_added += added;
            lacking += left_out;
        }
        store::settings::remove(&conn, MOVED_KEY)?;
        Ok(Moved {
            binding,
            deliveries,
            deliveries_added,
            daily: daily.len() as u64,
            daily_added: store::daily::add(&conn, &daily)?,
            lacking,
        })
    })
}
