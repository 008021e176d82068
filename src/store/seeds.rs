//! The seeds a bank was built from, one row per class, so every stored puzzle can name its
//! seed.

use super::Result;
use rusqlite::{params, Connection};

/// A seed as the bank stores it: plain values.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRow {
    /// The seed puzzle (81 characters).
    pub puzzle: String,
    /// Its solution (81 digits).
    pub solution: String,
    /// Its class key, hex.
    pub canon_key: String,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// Its reserved cells: 81 characters, `1` reserved, `0` not.
    pub reserved: String,
    /// How it was made.
    pub provenance: String,
}

/// Stores seeds (once per class key) in one transaction and returns their row ids, in order.
pub fn store(conn: &Connection, seeds: &[SeedRow]) -> Result<Vec<i64>> {
    let tx = conn.unchecked_transaction()?;
    let mut ids = Vec::with_capacity(seeds.len());
    {
        let mut insert = tx.prepare_cached(
            "INSERT OR IGNORE INTO seeds (puzzle, solution, canon_key, tier, rating, reserved, provenance)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut id = tx.prepare_cached("SELECT id FROM seeds WHERE canon_key = ?1")?;
        for s in seeds {
            insert.execute(params![
                s.puzzle,
                s.solution,
                s.canon_key,
                s.tier,
                s.hsolve,
                s.reserved,
                s.provenance
            ])?;
            ids.push(id.query_row([&s.canon_key], |r| r.get(0))?);
        }
    }
    tx.commit()?;
    Ok(ids)
}
