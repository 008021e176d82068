//! Seeds in the bank: the seeds it was built from (`seeds`, one row per class, so every
//! stored puzzle can name its seed), and the seeds a user imported into it (`seed_imports`),
//! which every build on the bank uses beside its seed library.

use super::Result;
use rusqlite::params;
use super::Bank;

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
pub fn store(bank: &Bank, seeds: &[SeedRow]) -> Result<Vec<i64>> {
    let conn = &bank.conn;
    let tx = conn.unchecked_transaction()?;
    let mut ids = Vec::with_capacity(seeds.len());
    {
        let mut insert = tx.prepare_cached(
            "INSERT OR IGNORE INTO seeds (puzzle, solution, canon_key, tier, hsolve, reserved, provenance)
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

/// A seed imported into the bank: the fields of a line of the seed format.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct ImportRow {
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
    /// The number of cells tiers 0 to tier - 1 leave empty.
    pub reserved: u32,
    /// Where it came from (`import:FILE:LINE`).
    pub provenance: String,
}

/// Adds imported seeds (a class already imported is skipped), in one transaction; returns how
/// many were added.
pub fn import(bank: &Bank, rows: &[ImportRow]) -> Result<usize> {
    let conn = &bank.conn;
    let tx = conn.unchecked_transaction()?;
    let mut added = 0;
    {
        let mut insert = tx.prepare_cached(
            "INSERT OR IGNORE INTO seed_imports
                (puzzle, solution, canon_key, tier, hsolve, reserved, provenance)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for r in rows {
            added += insert.execute(params![
                r.puzzle,
                r.solution,
                r.canon_key,
                r.tier,
                r.hsolve,
                r.reserved,
                r.provenance
            ])?;
        }
    }
    tx.commit()?;
    Ok(added)
}

/// The seeds imported into the bank, in import order.
pub fn imports(bank: &Bank) -> Result<Vec<ImportRow>> {
    let conn = &bank.conn;
    super::rows(
        &mut conn.prepare(
            "SELECT puzzle, solution, canon_key, tier, hsolve, reserved, provenance
             FROM seed_imports ORDER BY id",
        )?,
        [],
    )
}

/// Every seed of the bank with its row id.
pub fn all(bank: &Bank) -> Result<Vec<(i64, SeedRow)>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT id, puzzle, solution, canon_key, tier, hsolve, reserved, provenance
         FROM seeds ORDER BY id",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                SeedRow {
                    puzzle: r.get(1)?,
                    solution: r.get(2)?,
                    canon_key: r.get(3)?,
                    tier: r.get(4)?,
                    hsolve: r.get(5)?,
                    reserved: r.get(6)?,
                    provenance: r.get(7)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}
