//! A bank's settings (the rating its percentiles use, its levels, how its reference was
//! made, the difficulty model it was rated with) and its reference distribution.

use super::{Result, StoreError};
use crate::scale::{LevelNames, LevelSet, RatingKind, Reference, ScaleError};
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// A bank setting, if set.
pub fn get(bank: &Bank, key: &str) -> Result<Option<String>> {
    let conn = &bank.conn;
    Ok(conn
        .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Removes a bank setting.
pub fn remove(bank: &Bank, key: &str) -> Result<()> {
    let conn = &bank.conn;
    conn.execute("DELETE FROM settings WHERE key = ?1", [key])?;
    Ok(())
}

/// Sets a bank setting.
pub fn set(bank: &Bank, key: &str, value: &str) -> Result<()> {
    let conn = &bank.conn;
    conn.execute(
        "INSERT INTO settings (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [key, value],
    )?;
    Ok(())
}

/// A setting parsed with `FromStr`, or `default` when unset.
fn parsed<T: std::str::FromStr<Err = ScaleError>>(
    bank: &Bank,
    key: &'static str,
    default: T,
) -> Result<T> {
    match get(bank, key)? {
        Some(value) => value
            .parse()
            .map_err(|reason| StoreError::Setting { key, value, reason }),
        None => Ok(default),
    }
}

/// How the bank's reference distribution was made (the description `calibrate` stored), if
/// it has one.
pub fn reference_description(bank: &Bank) -> Result<Option<String>> {
    get(bank, "reference")
}

/// A bank's level settings: the rating its percentiles and levels use, and its levels. A
/// bank without stored cut points (made before levels were rating ranges) has the default
/// levels of its rating when its names are the default ones, or else equal shares of its
/// reference (what its levels were then).
pub fn levels(bank: &Bank) -> Result<(RatingKind, LevelSet)> {
    let rating = parsed(bank, "rating", RatingKind::default())?;
    let names: LevelNames = parsed(bank, "levels", LevelNames::default())?;
    let set = match get(bank, "cuts")? {
        Some(value) => LevelSet::parse_cuts(&value)
            .and_then(|cuts| LevelSet::new(names, cuts))
            .map_err(|reason| StoreError::Setting {
                key: "cuts",
                value,
                reason,
            })?,
        None if names == LevelNames::default() => LevelSet::default_for(rating),
        None => match reference(bank, rating)? {
            Some(r) => LevelSet::equal_shares(names, &r),
            None => LevelSet::default_for(rating),
        },
    };
    Ok((rating, set))
}

/// The stored layout rules of level `level`, as text (`None`: no rules).
pub fn layout(bank: &Bank, level: &str) -> Result<Option<String>> {
    get(bank, &format!("layout:{level}"))
}

/// Stores the layout rules of level `level`, as text.
pub fn set_layout(bank: &Bank, level: &str, rules: &str) -> Result<()> {
    set(bank, &format!("layout:{level}"), rules)
}

/// Stores a bank's levels (names and cut points).
pub fn set_levels(bank: &Bank, levels: &LevelSet) -> Result<()> {
    set(bank, "levels", &levels.names().to_string())?;
    set(bank, "cuts", &levels.cuts_text())
}

/// The `reference` column holding a rating.
fn reference_column(rating: RatingKind) -> &'static str {
    match rating {
        RatingKind::Difficulty => "difficulty",
        RatingKind::Hsolve => "hsolve",
    }
}

/// The ratings (for `rating`) of the bank's reference puzzles, in row order.
pub fn reference_values(bank: &Bank, rating: RatingKind) -> Result<Vec<f64>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare(&format!(
            "SELECT {} FROM reference ORDER BY id",
            reference_column(rating)
        ))?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?)
}

/// The bank's reference distribution for `rating`, or `None` when it has none yet.
pub fn reference(bank: &Bank, rating: RatingKind) -> Result<Option<Reference>> {
    let values = reference_values(bank, rating)?;
    Ok((!values.is_empty()).then(|| Reference::new(values)))
}

/// The reference's ratings (for `rating`) with the source of each puzzle.
pub fn reference_by_source(bank: &Bank, rating: RatingKind) -> Result<Vec<(String, f64)>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare(&format!(
            "SELECT source, {} FROM reference",
            reference_column(rating)
        ))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// One reference puzzle with both its ratings.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct ReferenceRow {
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// Its `difficulty` rating.
    pub difficulty: f64,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// Where it came from.
    pub source: String,
}

/// The bank's reference rows, in row order.
pub fn reference_rows(bank: &Bank) -> Result<Vec<ReferenceRow>> {
    let conn = &bank.conn;
    super::rows(
        &mut conn
            .prepare("SELECT puzzle, difficulty, hsolve, source FROM reference ORDER BY id")?,
        [],
    )
}

/// Replaces the reference distribution (inside the caller's transaction).
pub fn replace_reference(bank: &Bank, rows: &[ReferenceRow]) -> Result<()> {
    let conn = &bank.conn;
    conn.execute("DELETE FROM reference", [])?;
    let mut stmt = conn.prepare_cached(
        "INSERT INTO reference (puzzle, difficulty, hsolve, source) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for r in rows {
        stmt.execute(params![r.puzzle, r.difficulty, r.hsolve, r.source])?;
    }
    Ok(())
}

/// What decides a stored puzzle's level and whether it fits a level's rules: the settings (the
/// rating, levels, cut points, reference, level model, layout rules and named ratings' models,
/// as key and value) and the reference rows. Banks whose scales are equal hold comparable rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    /// The settings, by key.
    pub settings: Vec<(String, String)>,
    /// The reference rows, in row order.
    pub reference: Vec<ReferenceRow>,
}

/// The bank's [`Scale`].
pub fn scale(bank: &Bank) -> Result<Scale> {
    let conn = &bank.conn;
    let settings = conn
        .prepare(
            "SELECT key, value FROM settings
             WHERE key IN ('rating', 'levels', 'cuts', 'reference', 'difficulty_model',
                           'level_model')
                OR key LIKE 'layout:%' OR key LIKE 'named_rating:%'
             ORDER BY key",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Scale {
        settings,
        reference: reference_rows(bank)?,
    })
}

/// Gives the bank another bank's [`Scale`] (inside the caller's transaction).
pub fn set_scale(bank: &Bank, scale: &Scale) -> Result<()> {
    let conn = &bank.conn;
    for (key, value) in &scale.settings {
        set(bank, key, value)?;
        if let Some(name) = key.strip_prefix("named_rating:") {
            conn.execute(
                "INSERT INTO rating_names (name) VALUES (?1) ON CONFLICT (name) DO NOTHING",
                [name],
            )?;
        }
    }
    replace_reference(bank, &scale.reference)
}
