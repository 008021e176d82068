//! The counts `stats` shows: per stored puzzle its rating, percentile, tier and whether it was
//! served; puzzles per level and hardest technique family, and per level and clue count; the
//! builds' bookkeeping summed; the seeds used.

use super::Result;
use crate::scale::RatingKind;
use rusqlite::Connection;

/// What `stats` reads of one stored puzzle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleFacts {
    /// Its rating (the bank's rating), NULL before the backfill.
    pub rating: Option<f64>,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// Whether it was served.
    pub served: bool,
    /// Its level (0 = easiest), NULL before the backfill.
    pub level: Option<u32>,
}

/// Every stored puzzle's facts for `rating`.
pub fn puzzle_facts(conn: &Connection, rating: RatingKind) -> Result<Vec<PuzzleFacts>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {}, tier, served_at IS NOT NULL, level FROM puzzles",
        super::puzzles::column(rating)
    ))?;
    let rows = stmt.query_map([], |r| {
        Ok(PuzzleFacts {
            rating: r
                .get::<_, Option<i64>>(0)?
                .map(|v| super::puzzles::from_units(v, rating)),
            tier: r.get(1)?,
            served: r.get(2)?,
            level: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Puzzles of one level sharing one value of a column (`stats`' counts per level).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct LevelGroup<T> {
    /// The level (0 = easiest).
    pub level: u32,
    /// The column's value.
    pub value: T,
    /// How many puzzles.
    pub puzzles: u64,
}

/// Puzzles per level and hardest technique family (by rank, 1 = singles), by level then rank;
/// puzzles without a level (before the backfill) are left out.
pub fn technique_counts(conn: &Connection) -> Result<Vec<LevelGroup<u8>>> {
    super::rows(
        &mut conn.prepare(
            "SELECT level, technique AS value, COUNT(*) AS puzzles FROM puzzles
             WHERE level IS NOT NULL GROUP BY level, technique ORDER BY level, technique",
        )?,
        [],
    )
}

/// Puzzles per level and clue count, by level then clues; puzzles without a level (before the
/// backfill) are left out.
pub fn clue_counts(conn: &Connection) -> Result<Vec<LevelGroup<u32>>> {
    super::rows(
        &mut conn.prepare(
            "SELECT level, clues AS value, COUNT(*) AS puzzles FROM puzzles
             WHERE level IS NOT NULL GROUP BY level, clues ORDER BY level, clues",
        )?,
        [],
    )
}

/// The builds' bookkeeping summed over every build, and what the puzzles come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildTotals {
    /// Builds run.
    pub builds: u64,
    /// Builds not finished: interrupted (stopped or crashed), or running now.
    pub unfinished: u64,
    /// Duplicates rejected.
    pub duplicates: u64,
    /// Generated puzzles without one solution.
    pub rejected: u64,
    /// Puzzles dropped for falling outside the bands still open.
    pub off_band: u64,
    /// Distinct seeds the stored puzzles come from.
    pub seeds_used: u64,
    /// Seeds in the bank's seed table.
    pub seeds_known: u64,
    /// Puzzles made by a generator (no seed).
    pub without_seed: u64,
}

/// The totals of [`BuildTotals`].
pub fn build_totals(conn: &Connection) -> Result<BuildTotals> {
    let count = |sql: &str| -> Result<u64> {
        Ok(conn
            .query_row(sql, [], |r| r.get::<_, Option<i64>>(0))?
            .unwrap_or(0) as u64)
    };
    Ok(BuildTotals {
        builds: count("SELECT COUNT(*) FROM builds")?,
        unfinished: count("SELECT COUNT(*) FROM builds WHERE status <> 'done'")?,
        duplicates: count("SELECT SUM(duplicates) FROM builds")?,
        rejected: count("SELECT SUM(rejected) FROM builds")?,
        off_band: count("SELECT SUM(off_band) FROM builds")?,
        seeds_used: count("SELECT COUNT(DISTINCT seed_id) FROM puzzles")?,
        seeds_known: count("SELECT COUNT(*) FROM seeds")?,
        without_seed: count("SELECT COUNT(*) FROM puzzles WHERE seed_id IS NULL")?,
    })
}
