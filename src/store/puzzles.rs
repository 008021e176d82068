//! Stored puzzles: the compact row (cells 4 bits each, ratings as whole units, the class key as
//! 32 bytes), the batched inserts of a build, the class keys, levels, and the rows `verify` and
//! the backfill of older banks read.
//!
//! A puzzle's 81 cells pack into 41 bytes, two cells a byte, the earlier cell in the high half:
//!
//! ```text
//! byte     0        1             40
//!       [c0 |c1 ][c2 |c3 ] ... [c80| 0 ]     cell: 0 empty, 1-9 its digit
//! ```
//!
//! so SQLite's `hex(puzzle)` reads as the 81 digits (`0` empty) and a trailing `0`.

use super::builds::Build;
use super::{Result, StoreError};
use crate::canon::Key;
use crate::grid::{ParseError, Puzzle};
use crate::scale::{LevelSet, RatingKind};
use crate::technique::{HardestStep, Strategy, Technique};
use rusqlite::{params, OptionalExtension};
use super::Bank;
use std::collections::HashSet;

/// Bytes of a packed puzzle.
pub const PACKED_LEN: usize = 41;

/// Packs 81 cells (`0` empty, `1`-`9`) into [`PACKED_LEN`] bytes (see the module docs).
pub fn pack(cells: &[u8; 81]) -> [u8; PACKED_LEN] {
    let mut out = [0u8; PACKED_LEN];
    for (i, &c) in cells.iter().enumerate() {
        out[i / 2] |= if i % 2 == 0 { c << 4 } else { c };
    }
    out
}

/// The 81 cells of a packed puzzle; `None` unless it is [`PACKED_LEN`] bytes of cells 0-9 with
/// a zero last half-byte.
pub fn unpack(bytes: &[u8]) -> Option<[u8; 81]> {
    if bytes.len() != PACKED_LEN || bytes[PACKED_LEN - 1] & 0x0f != 0 {
        return None;
    }
    let mut cells = [0u8; 81];
    for (i, c) in cells.iter_mut().enumerate() {
        let b = bytes[i / 2];
        *c = if i % 2 == 0 { b >> 4 } else { b & 0x0f };
        if *c > 9 {
            return None;
        }
    }
    Some(cells)
}

/// Why stored cells are not a puzzle (a damaged row: `verify` lists them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellsError {
    /// The bytes are not [`PACKED_LEN`] bytes of cells 0-9 (see [`unpack`]).
    #[error("stored cells do not unpack")]
    Packing,
    /// The cells unpack but break a rule of Sudoku.
    #[error("puzzle is not a puzzle: {0}")]
    Puzzle(ParseError),
}

/// The puzzle of packed cells.
pub fn puzzle_of(bytes: &[u8]) -> std::result::Result<Puzzle, CellsError> {
    let cells = unpack(bytes).ok_or(CellsError::Packing)?;
    Puzzle::from_bytes(cells).map_err(CellsError::Puzzle)
}

/// The puzzle of a stored `puzzle` value (packed cells; any other value does not unpack).
pub fn stored_puzzle(value: rusqlite::types::ValueRef) -> std::result::Result<Puzzle, CellsError> {
    puzzle_of(value.as_blob().map_err(|_| CellsError::Packing)?)
}

/// How many stored units make one point of `rating`: ratings are stored as whole numbers of
/// the unit `rate` rounds them to (difficulty: thousandths; hsolve: hundredths).
pub fn units(rating: RatingKind) -> f64 {
    match rating {
        RatingKind::Difficulty => 1000.0,
        RatingKind::Hsolve => 100.0,
    }
}

/// `value` in stored units of `rating` (exact for a value `rate` rounded).
pub fn to_units(value: f64, rating: RatingKind) -> i64 {
    (value * units(rating)).round() as i64
}

/// A stored value of `rating` as the rating (the same number `rate` printed).
pub fn from_units(stored: i64, rating: RatingKind) -> f64 {
    stored as f64 / units(rating)
}

/// The smallest stored value `v` of `rating` (within any rating's reach) whose rating
/// `from_units(v)` makes `holds` true, for a `holds` false below some value and true from it
/// on: the exact bound of a range of ratings as a range of stored integers.
pub fn first_unit(rating: RatingKind, holds: impl Fn(f64) -> bool) -> i64 {
    let (mut lo, mut hi) = (-(1i64 << 40), 1i64 << 40);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if holds(from_units(mid, rating)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// The first 16 bytes of a class key, as a build's in-memory duplicate check holds them
/// (16 bytes a puzzle; a false match between distinct classes has probability ~n^2 / 2^129).
pub fn key_prefix(key: &Key) -> u128 {
    u128::from_be_bytes(key.0[..16].try_into().expect("16 bytes"))
}

/// One puzzle row to insert: the values the bank stores.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPuzzle {
    /// The puzzle as generated.
    pub puzzle: Puzzle,
    /// Class key (blake3 of the exact minlex form).
    pub canon_key: Key,
    /// Number of clues.
    pub clues: u32,
    /// The `difficulty` rating (rounded by `rate` to thousandths).
    pub difficulty: f64,
    /// hsolve mean (rounded to hundredths).
    pub hsolve: f64,
    /// hsolve standard deviation (rounded to hundredths).
    pub hsolve_sd: f64,
    /// Hardest hsolve tier used.
    pub tier: u8,
    /// The hardest technique family needed (stored by its rank).
    pub technique: Technique,
    /// The seed's row id, or `None` for a puzzle of a generator.
    pub seed_id: Option<i64>,
    /// Its level on the bank's levels (0 = easiest).
    pub level: u32,
    /// The rank of the symmetry applied to the seed (`None` without one).
    pub transform: Option<u64>,
    /// The job that made it.
    pub job: u64,
    /// The hardest step it needs (`None` only for a row an older version stored and no
    /// build has re-rated).
    pub hardest: Option<HardestStep>,
    /// Its values on the bank's named ratings (name, value).
    pub named: Vec<(String, f64)>,
}

/// Commits a batch: the rows, and the build's progress (next job, counts), in one
/// transaction.
pub fn insert_batch(bank: &mut Bank, build: &Build, rows: &[NewPuzzle]) -> Result<()> {
    super::immediate(bank, || {
        insert_rows(bank, rows.iter().map(|r| (build.id, r)))?;
        super::builds::save_progress(bank, build)
    })
}

/// Inserts rows, each with the build that stored it, inside the caller's transaction;
/// returns their row ids.
pub(crate) fn insert_rows<'a>(
    bank: &Bank,
    rows: impl Iterator<Item = (i64, &'a NewPuzzle)>,
) -> Result<Vec<i64>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "INSERT INTO puzzles (puzzle, canon_key, clues, difficulty, hsolve, hsolve_sd, tier,
            technique, level, seed_id, transform, build_id, job, step, step_count)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?;
    let mut ids = Vec::new();
    let mut added = Vec::new();
    for (build_id, r) in rows {
        stmt.execute(params![
            &pack(r.puzzle.as_bytes())[..],
            &r.canon_key.0[..],
            r.clues,
            to_units(r.difficulty, RatingKind::Difficulty),
            to_units(r.hsolve, RatingKind::Hsolve),
            to_units(r.hsolve_sd, RatingKind::Hsolve),
            r.tier,
            r.technique.rank(),
            r.level,
            r.seed_id,
            r.transform.map(|t| t as i64),
            build_id,
            r.job as i64,
            r.hardest.map(|h| h.strategy.code()),
            r.hardest.map(|h| h.count),
        ])?;
        let id = conn.last_insert_rowid();
        if !r.named.is_empty() {
            super::named::insert(bank, id, &r.named)?;
        }
        ids.push(id);
        added.push((id, r.canon_key));
    }
    super::lineage::extend(bank, &added)?;
    Ok(ids)
}

/// The columns [`new_puzzle_of`] reads, in its order (prefix `p.`).
pub(crate) const NEW_PUZZLE_COLUMNS: &str = "p.puzzle, p.canon_key, p.clues, p.difficulty, \
    p.hsolve, p.hsolve_sd, p.tier, p.technique, p.level, p.seed_id, p.transform, p.job, \
    p.step, p.step_count";

/// A stored row read back as the values that inserted it (columns [`NEW_PUZZLE_COLUMNS`]
/// from `first`), without its named ratings (another table: [`super::named::of`]).
pub(crate) fn new_puzzle_of(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<NewPuzzle> {
    let bad = |i: usize, what: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            first + i,
            rusqlite::types::Type::Blob,
            format!("bad {what}").into(),
        )
    };
    let puzzle = puzzle_of(r.get_ref(first)?.as_blob()?).map_err(|_| bad(0, "puzzle"))?;
    let canon_key = r
        .get_ref(first + 1)?
        .as_blob()?
        .try_into()
        .map(Key)
        .map_err(|_| bad(1, "class key"))?;
    let technique =
        Technique::from_rank(r.get(first + 7)?).ok_or_else(|| bad(7, "technique"))?;
    let units = |i: usize, rating: RatingKind| -> rusqlite::Result<f64> {
        Ok(r.get::<_, Option<i64>>(first + i)?
            .map_or(0.0, |v| from_units(v, rating)))
    };
    Ok(NewPuzzle {
        puzzle,
        canon_key,
        clues: r.get(first + 2)?,
        difficulty: units(3, RatingKind::Difficulty)?,
        hsolve: units(4, RatingKind::Hsolve)?,
        hsolve_sd: units(5, RatingKind::Hsolve)?,
        tier: r.get(first + 6)?,
        technique,
        level: r.get::<_, Option<u32>>(first + 8)?.unwrap_or(0),
        seed_id: r.get(first + 9)?,
        transform: r.get::<_, Option<i64>>(first + 10)?.map(|t| t as u64),
        job: r.get::<_, i64>(first + 11)? as u64,
        hardest: hardest_of(r.get(first + 12)?, r.get(first + 13)?)
            .map_err(|what| bad(12, what))?,
        named: Vec::new(),
    })
}

/// The hardest step stored as `step` and `step_count` (both NULL for a row not re-rated yet).
pub(crate) fn hardest_of(
    step: Option<u8>,
    count: Option<u16>,
) -> std::result::Result<Option<HardestStep>, &'static str> {
    match (step, count) {
        (None, _) => Ok(None),
        (Some(code), count) => Ok(Some(HardestStep {
            strategy: Strategy::from_code(code).ok_or("hardest step")?,
            count: count.ok_or("hardest step count")?,
        })),
    }
}

/// The class keys already in the bank, as [`key_prefix`]es.
pub fn keys(bank: &Bank) -> Result<HashSet<u128>> {
    keys_outside(bank, &[])
}

/// The class keys of the rows not stored by these builds, as [`key_prefix`]es.
pub fn keys_outside(bank: &Bank, builds: &[i64]) -> Result<HashSet<u128>> {
    let conn = &bank.conn;
    let n = count(bank)? as usize;
    let mut keys = HashSet::with_capacity(n);
    let list = builds
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let mut stmt = conn.prepare(&format!(
        "SELECT substr(canon_key, 1, 16) FROM puzzles WHERE build_id NOT IN ({list})"
    ))?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let b = r.get_ref(0)?.as_blob().map_err(rusqlite::Error::from)?;
        let mut k = [0u8; 16];
        k.copy_from_slice(&b[..16.min(b.len())]);
        keys.insert(u128::from_be_bytes(k));
    }
    Ok(keys)
}

/// The rating (`rating`) and level of each puzzle a build stored.
pub fn build_scale(
    bank: &Bank,
    rating: RatingKind,
    build_id: i64,
) -> Result<Vec<(Option<f64>, Option<u32>)>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare(&format!(
            "SELECT {}, level FROM puzzles WHERE build_id = ?1",
            column(rating)
        ))?
        .query_map([build_id], |r| {
            Ok((
                r.get::<_, Option<i64>>(0)?.map(|v| from_units(v, rating)),
                r.get(1)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?)
}

/// The SQL expression of a row's level on `levels` for `rating`: the number of cut points at
/// or below its rating, each cut as the first stored value at or above it (NULL without a
/// rating), plus one for a row of the top range whose hardest step assumes a value when the
/// levels have the extreme one.
fn level_expression(rating: RatingKind, levels: &LevelSet) -> String {
    let col = column(rating);
    let mut terms: Vec<String> = levels
        .cuts()
        .iter()
        .map(|&c| format!("({col} >= {})", first_unit(rating, |v| v >= c)))
        .collect();
    if levels.extreme().is_some() {
        let assuming: Vec<String> = Strategy::ALL
            .iter()
            .filter(|s| s.assumes())
            .map(|s| s.code().to_string())
            .collect();
        // The top range: at or above the last cut.
        let top = terms.last().cloned().unwrap_or_else(|| "1".to_string());
        terms.push(format!(
            "IFNULL(step IN ({}) AND {top}, 0)",
            assuming.join(", ")
        ));
    }
    if terms.is_empty() {
        terms.push("0".into());
    }
    format!(
        "CASE WHEN {col} IS NULL THEN NULL ELSE {} END",
        terms.join(" + ")
    )
}

/// Recomputes every stored puzzle's level on `levels` for `rating` in one statement, and
/// indexes that rating (inside the caller's transaction). Returns how many rows were updated.
pub fn recompute_scale(bank: &Bank, rating: RatingKind, levels: &LevelSet) -> Result<u64> {
    let conn = &bank.conn;
    index_rating(bank, rating)?;
    Ok(conn.execute(
        &format!(
            "UPDATE puzzles SET level = {}",
            level_expression(rating, levels)
        ),
        [],
    )? as u64)
}

/// Makes `puzzles_rating` index the column of `rating` (draws by percentile search it).
pub fn index_rating(bank: &Bank, rating: RatingKind) -> Result<()> {
    let conn = &bank.conn;
    let want = format!("CREATE INDEX puzzles_rating ON puzzles({})", column(rating));
    let have: Option<String> = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'puzzles_rating'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if have.as_deref() != Some(want.as_str()) {
        conn.execute_batch(&format!("DROP INDEX IF EXISTS puzzles_rating; {want};"))?;
    }
    Ok(())
}

/// Drops the indexes a bulk load would insert into at random places (the class key's and the
/// rating's), so that a build that at least doubles the bank appends rows and little else;
/// [`ensure_indexes`] builds them again, packed, when it ends. While they are away, draws by
/// percentile scan the table and the build's in-memory key set keeps the classes unique.
pub fn defer_indexes(bank: &Bank) -> Result<()> {
    let conn = &bank.conn;
    Ok(conn
        .execute_batch("DROP INDEX IF EXISTS puzzles_key; DROP INDEX IF EXISTS puzzles_rating;")?)
}

/// Creates the class key's and the rating's indexes if they are missing (after a bulk build,
/// or one that was killed before it could).
pub fn ensure_indexes(bank: &Bank, rating: RatingKind) -> Result<()> {
    let conn = &bank.conn;
    conn.execute_batch("CREATE UNIQUE INDEX IF NOT EXISTS puzzles_key ON puzzles(canon_key);")?;
    index_rating(bank, rating)
}

/// The indexes a build defers ([`defer_indexes`]) that the bank lacks now, by name.
pub fn missing_indexes(bank: &Bank) -> Result<Vec<&'static str>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'puzzles' \
         AND name = ?1",
    )?;
    let mut missing = Vec::new();
    for name in ["puzzles_key", "puzzles_rating"] {
        if stmt.query_row([name], |r| r.get::<_, i64>(0))? == 0 {
            missing.push(name);
        }
    }
    Ok(missing)
}

/// Where the bank's counts by hardest step and level (`step_counts`, kept by triggers for
/// draws by technique) differ from its rows, one line each: the step's code, the level (-1:
/// none), the counts and what the rows hold.
pub fn step_count_errors(bank: &Bank) -> Result<Vec<String>> {
    let conn = &bank.conn;
    use std::collections::BTreeMap;
    let read = |sql: &str| -> Result<BTreeMap<(i64, i64), (i64, i64)>> {
        let mut stmt = conn.prepare(sql)?;
        let rows = stmt.query_map([], |r| Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?))))?;
        Ok(rows
            .collect::<rusqlite::Result<BTreeMap<_, _>>>()?
            .into_iter()
            .filter(|(_, n)| *n != (0, 0))
            .collect())
    };
    let counted = read("SELECT step, level, puzzles, unserved FROM step_counts")?;
    let held = read(
        "SELECT step, IFNULL(level, -1), COUNT(*), SUM(served_at IS NULL) FROM puzzles \
         WHERE step IS NOT NULL GROUP BY step, IFNULL(level, -1)",
    )?;
    let mut keys: Vec<&(i64, i64)> = counted.keys().chain(held.keys()).collect();
    keys.sort_unstable();
    keys.dedup();
    Ok(keys
        .into_iter()
        .filter(|k| counted.get(k) != held.get(k))
        .map(|k| {
            let (a, b) = counted.get(k).copied().unwrap_or_default();
            let (c, d) = held.get(k).copied().unwrap_or_default();
            format!(
                "hardest step {} level {}: counted {a} puzzles ({b} unserved), the rows hold {c} ({d})",
                k.0, k.1
            )
        })
        .collect())
}

/// [`ensure_indexes`] for a shard's bank, where a class may be stored once per target that
/// made it (see `src/bank/accept.rs`): the key's index is not unique there.
pub fn ensure_shard_indexes(bank: &Bank, rating: RatingKind) -> Result<()> {
    let conn = &bank.conn;
    conn.execute_batch("CREATE INDEX IF NOT EXISTS puzzles_key ON puzzles(canon_key);")?;
    index_rating(bank, rating)
}

/// Forgets every stored `difficulty` (and the level measured from it) when the bank's ratings
/// were made by another model: the rows become stale and the next backfill re-rates them.
pub fn forget_difficulty(bank: &Bank) -> Result<u64> {
    let conn = &bank.conn;
    Ok(conn.execute("UPDATE puzzles SET difficulty = NULL, level = NULL", [])? as u64)
}

/// The `puzzles` column holding a rating.
pub(crate) fn column(rating: RatingKind) -> &'static str {
    match rating {
        RatingKind::Difficulty => "difficulty",
        RatingKind::Hsolve => "hsolve",
    }
}

/// A row stored by an older version that needs bringing up to date.
#[derive(Clone, Debug, PartialEq)]
pub struct Stale {
    /// Row id.
    pub id: i64,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// The rows without a `difficulty` (migration 0003 leaves them NULL, a new difficulty model
/// forgets them), a level or a hardest step (migration 0018), in id order; a row whose cells
/// cannot be read is an error ([`StoreError::Damaged`]).
pub fn stale(bank: &Bank) -> Result<Vec<Stale>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT id, puzzle FROM puzzles
         WHERE difficulty IS NULL OR level IS NULL OR step IS NULL ORDER BY id",
    )?;
    let rows = id_and_puzzle(stmt.query([])?)?;
    Ok(rows
        .into_iter()
        .map(|(id, puzzle)| Stale { id, puzzle })
        .collect())
}

/// Rows of `(id, puzzle)` read as such; a row whose cells cannot be read is an error that
/// names it ([`StoreError::Damaged`]).
fn id_and_puzzle(mut rows: rusqlite::Rows<'_>) -> Result<Vec<(i64, Puzzle)>> {
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let id = r.get(0)?;
        let puzzle = stored_puzzle(r.get_ref(1)?).map_err(|e| StoreError::Damaged {
            id,
            what: e.to_string(),
        })?;
        out.push((id, puzzle));
    }
    Ok(out)
}

/// A stale row brought up to date.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refreshed {
    /// Row id.
    pub id: i64,
    /// Its `difficulty`.
    pub difficulty: f64,
    /// Its level (0 = easiest).
    pub level: u32,
    /// Its hardest step.
    pub hardest: HardestStep,
}

/// Writes refreshed rows (their difficulty, level and hardest step) in one transaction.
pub fn refresh(bank: &mut Bank, rows: &[Refreshed]) -> Result<()> {
    let conn = &bank.conn;
    super::immediate(bank, || {
        let mut stmt = conn.prepare_cached(
            "UPDATE puzzles SET difficulty = ?2, level = ?3, step = ?4, step_count = ?5
             WHERE id = ?1",
        )?;
        for r in rows {
            stmt.execute(params![
                r.id,
                to_units(r.difficulty, RatingKind::Difficulty),
                r.level,
                r.hardest.strategy.code(),
                r.hardest.count
            ])?;
        }
        Ok(())
    })
}

/// Up to `limit` rows after id `after`, in id order, as (id, puzzle): the bank read in chunks
/// (a level model re-rates every row); a row whose cells cannot be read is an error.
pub fn chunk_after(bank: &Bank, after: i64, limit: u32) -> Result<Vec<(i64, Puzzle)>> {
    let conn = &bank.conn;
    let mut stmt =
        conn.prepare_cached("SELECT id, puzzle FROM puzzles WHERE id > ?1 ORDER BY id LIMIT ?2")?;
    let rows = id_and_puzzle(stmt.query(params![after, limit])?)?;
    Ok(rows)
}

/// Sets the level of each row `(id, level)` inside the caller's transaction.
pub fn set_levels(bank: &Bank, rows: &[(i64, u32)]) -> Result<()> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached("UPDATE puzzles SET level = ?2 WHERE id = ?1")?;
    for (id, level) in rows {
        stmt.execute(params![id, level])?;
    }
    Ok(())
}

/// A stored puzzle as `verify` re-checks it: each value as stored, or why it cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// Row id.
    pub id: i64,
    /// The puzzle, or why its stored cells are not one.
    pub puzzle: std::result::Result<Puzzle, CellsError>,
    /// Its stored class key (`None` when it is not 32 bytes).
    pub canon_key: Option<Key>,
    /// hsolve mean.
    pub hsolve: f64,
    /// hsolve standard deviation.
    pub hsolve_sd: f64,
    /// Hardest hsolve tier.
    pub tier: u8,
    /// The hardest technique family needed (`None` for a rank that names none).
    pub technique: Option<Technique>,
    /// Its `difficulty` (NULL before the backfill).
    pub difficulty: Option<f64>,
    /// Its level (0 = easiest).
    pub level: Option<u32>,
    /// Its hardest step (`Err` when the stored code names no technique).
    pub hardest: std::result::Result<Option<HardestStep>, &'static str>,
}

/// The number of stored puzzles.
pub fn count(bank: &Bank) -> Result<u64> {
    let conn = &bank.conn;
    Ok(conn.query_row("SELECT COUNT(*) FROM puzzles", [], |r| r.get::<_, i64>(0))? as u64)
}

/// Every `step`-th row (ids 1, 1 + step, ...), in id order: one lookup by id each, so a
/// sample reads what it checks and not the table.
pub fn every_nth(bank: &Bank, step: u64) -> Result<Vec<Stored>> {
    let conn = &bank.conn;
    let max: i64 = conn.query_row("SELECT IFNULL(MAX(id), 0) FROM puzzles", [], |r| r.get(0))?;
    let mut stmt = conn.prepare(
        "SELECT id, puzzle, canon_key, hsolve, hsolve_sd, tier, technique, difficulty, level,
            step, step_count
         FROM puzzles WHERE id = ?1",
    )?;
    let mut out = Vec::new();
    for id in (1..=max).step_by(step.max(1) as usize) {
        let row = stmt
            .query_row([id], |r| {
                Ok(Stored {
                    id: r.get(0)?,
                    puzzle: stored_puzzle(r.get_ref(1)?),
                    canon_key: r.get_ref(2)?.as_blob()?.try_into().ok().map(Key),
                    hsolve: from_units(r.get(3)?, RatingKind::Hsolve),
                    hsolve_sd: from_units(r.get(4)?, RatingKind::Hsolve),
                    tier: r.get(5)?,
                    technique: Technique::from_rank(r.get(6)?),
                    difficulty: r
                        .get::<_, Option<i64>>(7)?
                        .map(|v| from_units(v, RatingKind::Difficulty)),
                    level: r.get(8)?,
                    hardest: hardest_of(r.get(9)?, r.get(10)?),
                })
            })
            .optional()?;
        out.extend(row);
    }
    Ok(out)
}

/// How many puzzles each level holds, by level index (0 = easiest), for `levels` levels.
pub fn level_counts(bank: &Bank, levels: usize) -> Result<Vec<u64>> {
    let conn = &bank.conn;
    let mut counts = vec![0u64; levels];
    let mut stmt = conn.prepare_cached(
        "SELECT level, COUNT(*) FROM puzzles WHERE level IS NOT NULL GROUP BY level",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u64>(1)?)))?;
    for row in rows {
        let (level, n) = row?;
        if let Some(c) = usize::try_from(level).ok().and_then(|l| counts.get_mut(l)) {
            *c = n;
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_and_reads_as_hex() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let mut cells = [0u8; 81];
        for (c, b) in cells.iter_mut().zip(line.bytes()) {
            *c = if b == b'.' { 0 } else { b - b'0' };
        }
        let packed = pack(&cells);
        assert_eq!(unpack(&packed), Some(cells));
        assert_eq!(puzzle_of(&packed), Ok(line.parse().unwrap()));
        let hex: String = packed.iter().map(|b| format!("{b:02X}")).collect();
        assert_eq!(&hex[..81], line.replace('.', "0"));
        assert!(hex.ends_with('0'));
        // Too short, a half-byte above 9, a non-zero last half-byte: not a puzzle.
        assert_eq!(unpack(&packed[..40]), None);
        let mut bad = packed;
        bad[3] = 0xa1;
        assert_eq!(unpack(&bad), None);
        let mut bad = packed;
        bad[40] |= 1;
        assert_eq!(unpack(&bad), None);
        assert_eq!(puzzle_of(&bad), Err(CellsError::Packing));
        // Cells that unpack but repeat a digit in a row.
        let mut twice = cells;
        twice[1] = twice[0];
        assert!(matches!(
            puzzle_of(&pack(&twice)),
            Err(CellsError::Puzzle(_))
        ));
    }

    #[test]
    fn units_are_exact_for_rounded_ratings_and_bounds_are_exact() {
        for v in [0.0, 2.163, 5.549, 10.062, 12.999] {
            let s = to_units(v, RatingKind::Difficulty);
            assert_eq!(from_units(s, RatingKind::Difficulty), v);
        }
        for v in [123.16, 601.09, 1533.4, 0.01] {
            assert_eq!(
                from_units(to_units(v, RatingKind::Hsolve), RatingKind::Hsolve),
                v
            );
        }
        // The first stored value at or above a cut that is not on the grid, and one that is.
        assert_eq!(first_unit(RatingKind::Difficulty, |v| v >= 5.7505), 5751);
        assert_eq!(first_unit(RatingKind::Difficulty, |v| v >= 5.75), 5750);
        assert_eq!(first_unit(RatingKind::Hsolve, |v| v > 100.0), 10001);
    }
}
