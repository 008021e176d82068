//! The bank's lineage (`lineage`): a digest chained over its puzzles in id order, each link
//! the puzzle's id and class key, with the point (last id, digest) stored after every commit
//! that adds puzzles. Two copies of a bank are of one lineage up to a point when both have
//! that point's digest: their puzzles up to that id are the same rows. A fleet's history
//! records the point of the copies it serves and refuses a copy that lacks it (one that grew
//! apart).

use super::Result;
use crate::canon::Key;
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// A digest of the puzzles up to some id.
pub type Digest = [u8; 32];

/// The digest of an empty bank, where every chain starts.
pub const EMPTY: Digest = [0; 32];

/// The digest after the puzzle `id` of class `key`, from the digest of those before it.
pub fn chain(before: &Digest, id: i64, key: &Key) -> Digest {
    let mut h = blake3::Hasher::new();
    h.update(before);
    h.update(&id.to_le_bytes());
    h.update(&key.0);
    *h.finalize().as_bytes()
}

/// A digest read from the table.
fn digest_of(bytes: Vec<u8>) -> rusqlite::Result<Digest> {
    bytes
        .try_into()
        .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(1, 0))
}

/// The digest of the puzzles with ids up to `last_id`: the stored point, or the nearest
/// stored point below chained over the puzzles between; `None` when the bank's puzzles end
/// before `last_id` (a copy older than that point).
pub fn at(bank: &Bank, last_id: i64) -> Result<Option<Digest>> {
    let conn = &bank.conn;
    let max: i64 = conn.query_row("SELECT IFNULL(MAX(id), 0) FROM puzzles", [], |r| r.get(0))?;
    if last_id > max {
        return Ok(None);
    }
    if last_id <= 0 {
        return Ok(Some(EMPTY));
    }
    let stored = conn
        .prepare_cached("SELECT digest FROM lineage WHERE last_id = ?1")?
        .query_row([last_id], |r| digest_of(r.get(0)?))
        .optional()?;
    if let Some(d) = stored {
        return Ok(Some(d));
    }
    let (from, mut digest) = conn
        .prepare_cached(
            "SELECT last_id, digest FROM lineage WHERE last_id < ?1 ORDER BY last_id DESC LIMIT 1",
        )?
        .query_row([last_id], |r| Ok((r.get::<_, i64>(0)?, digest_of(r.get(1)?)?)))
        .optional()?
        .unwrap_or((0, EMPTY));
    let mut stmt = conn.prepare_cached(
        "SELECT id, canon_key FROM puzzles WHERE id > ?1 AND id <= ?2 ORDER BY id",
    )?;
    let mut rows = stmt.query(params![from, last_id])?;
    while let Some(r) = rows.next()? {
        let key: Vec<u8> = r.get(1)?;
        let key = Key(key
            .try_into()
            .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(1, 0))?);
        digest = chain(&digest, r.get(0)?, &key);
    }
    Ok(Some(digest))
}

/// The bank's point: its last puzzle id and the digest up to it (`None` for a bank without
/// puzzles).
pub fn latest(bank: &Bank) -> Result<Option<(i64, Digest)>> {
    let conn = &bank.conn;
    let max: i64 = conn.query_row("SELECT IFNULL(MAX(id), 0) FROM puzzles", [], |r| r.get(0))?;
    if max == 0 {
        return Ok(None);
    }
    Ok(at(bank, max)?.map(|d| (max, d)))
}

/// Records the point after `added` (ids and classes, in id order, each above every puzzle
/// stored before them), inside the caller's transaction.
pub fn extend(bank: &Bank, added: &[(i64, Key)]) -> Result<()> {
    let Some(&(first, _)) = added.first() else {
        return Ok(());
    };
    let mut digest = at(bank, first - 1)?.unwrap_or(EMPTY);
    for (id, key) in added {
        digest = chain(&digest, *id, key);
    }
    let last = added.last().expect("not empty").0;
    record(bank, last, &digest)?;
    Ok(())
}

/// Stores the point (`last_id`, `digest`).
fn record(bank: &Bank, last_id: i64, digest: &Digest) -> rusqlite::Result<()> {
    let conn = &bank.conn;
    conn.prepare_cached("INSERT OR REPLACE INTO lineage (last_id, digest) VALUES (?1, ?2)")?
        .execute(params![last_id, &digest[..]])?;
    Ok(())
}

/// Stores the point of every puzzle a bank held before it kept its lineage (migration 0026:
/// the table is empty, so the chain runs over every puzzle).
pub(super) fn record_existing(bank: &Bank) -> rusqlite::Result<()> {
    let point = latest(bank).map_err(|e| match e {
        super::StoreError::Sqlite(e) => e,
        other => rusqlite::Error::ToSqlConversionFailure(other.into()),
    })?;
    match point {
        Some((last_id, digest)) => record(bank, last_id, &digest),
        None => Ok(()),
    }
}
