//! A bank's levels: its rating, reference and level names ([`Levels`]); the default reference
//! stored on first use; `calibrate`, which replaces the reference (rated from a corpus, or the
//! default), the rating or the level names and recomputes every stored percentile in one
//! transaction.

use super::reference;
use crate::input::{PuzzleReader, ReadError};
use crate::scale::{LevelSet, RatingKind, Reference};
use crate::store::{self, ReferenceRow, StoreError};
use std::path::Path;

/// What can go wrong with a bank's levels.
#[derive(Debug, thiserror::Error)]
pub enum LevelsError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank has no reference distribution.
    #[error("the bank has no reference distribution")]
    NoReference,
    /// A new reference has no puzzle.
    #[error("{0}: no puzzle to calibrate with")]
    EmptyCorpus(String),
    /// A build asked for the other rating than the bank's.
    #[error(
        "this bank's percentiles use {}; change that with `pseudoku calibrate --rating {}`",
        .bank.name(), .asked.name()
    )]
    RatingMismatch {
        /// The bank's rating.
        bank: RatingKind,
        /// The rating asked for.
        asked: RatingKind,
    },
    /// The corpus cannot be read.
    #[error(transparent)]
    Read(ReadError),
}

/// What a bank measures percentiles with: its rating, reference and level names.
#[derive(Clone, Debug)]
pub struct Levels {
    /// The rating percentiles use.
    pub rating: RatingKind,
    /// The reference distribution of that rating.
    pub reference: Reference,
    /// The level names.
    pub names: LevelSet,
}

impl Levels {
    /// The percentile of a puzzle rated `difficulty` and `hsolve` (rounded, as stored).
    pub fn percentile(&self, difficulty: f64, hsolve: f64) -> f64 {
        self.reference
            .percentile(self.rating.value(difficulty, hsolve))
    }

    /// The levels of an open bank as they are (no default reference is created).
    pub fn read(conn: &rusqlite::Connection) -> Result<Levels, LevelsError> {
        let (rating, names) = store::settings::levels(conn)?;
        let reference =
            store::settings::reference(conn, rating)?.ok_or(LevelsError::NoReference)?;
        Ok(Levels {
            rating,
            reference,
            names,
        })
    }
}

/// The bank's levels, storing the shipped default reference (and settings) on first use: a new
/// bank takes `rating` (default difficulty); an existing bank must use `rating` if given.
pub fn ensure(
    conn: &mut rusqlite::Connection,
    rating: Option<RatingKind>,
) -> Result<Levels, LevelsError> {
    if store::settings::get(conn, "reference")?.is_none() {
        let tx = conn.transaction().map_err(StoreError::from)?;
        store::settings::replace_reference(&tx, &reference::default_rows())?;
        store::settings::set(&tx, "reference", reference::DESCRIPTION)?;
        if store::settings::get(&tx, "rating")?.is_none() {
            store::settings::set(&tx, "rating", rating.unwrap_or_default().name())?;
        }
        if store::settings::get(&tx, "levels")?.is_none() {
            store::settings::set(&tx, "levels", &LevelSet::default().to_string())?;
        }
        tx.commit().map_err(StoreError::from)?;
    }
    let levels = Levels::read(conn)?;
    if let Some(asked) = rating {
        if asked != levels.rating {
            return Err(LevelsError::RatingMismatch {
                bank: levels.rating,
                asked,
            });
        }
    }
    Ok(levels)
}

/// What `calibrate` changes.
#[derive(Clone, Debug, Default)]
pub struct Calibration {
    /// A new reference: rated rows and their description.
    pub reference: Option<(Vec<ReferenceRow>, String)>,
    /// The rating percentiles use.
    pub rating: Option<RatingKind>,
    /// The level names.
    pub levels: Option<LevelSet>,
}

/// A corpus rated to become a reference, and the lines that could not be used.
#[derive(Debug)]
pub struct Corpus {
    /// The rated puzzles, in input order.
    pub rows: Vec<ReferenceRow>,
    /// The bad lines (`FILE:LINE: reason`), in input order.
    pub bad: Vec<String>,
    /// The corpus's name in messages and in the bank's settings.
    pub name: String,
}

impl Corpus {
    /// Reads and rates (on the current rayon pool) the puzzles of `path` (`-`: standard input);
    /// bad lines and puzzles without one solution are kept as messages and left out.
    pub fn read(path: &Path) -> Result<Corpus, LevelsError> {
        let name = path.display().to_string();
        let mut entries = Vec::new();
        let mut bad = Vec::new();
        for item in PuzzleReader::open(path).map_err(LevelsError::Read)? {
            match item {
                Ok(e) => entries.push(e),
                Err(ReadError::Line(e)) => bad.push((e.line, e.to_string())),
                Err(e) => return Err(LevelsError::Read(e)),
            }
        }
        let puzzles: Vec<(crate::grid::Puzzle, String)> = entries
            .iter()
            .map(|e| (e.puzzle, format!("{name}:{}", e.line)))
            .collect();
        let mut rows = Vec::new();
        for r in reference::rate(&puzzles) {
            match r {
                Ok(row) => rows.push(row),
                Err((i, e)) => {
                    bad.push((entries[i].line, format!("{name}:{}: {e}", entries[i].line)))
                }
            }
        }
        bad.sort_by_key(|b| b.0);
        Ok(Corpus {
            rows,
            bad: bad.into_iter().map(|b| b.1).collect(),
            name,
        })
    }

    /// The new reference this corpus makes, with its description.
    pub fn into_reference(self) -> Result<(Vec<ReferenceRow>, String), LevelsError> {
        if self.rows.is_empty() {
            return Err(LevelsError::EmptyCorpus(self.name));
        }
        let n = self.rows.len();
        Ok((self.rows, format!("user: {} ({n} puzzles)", self.name)))
    }
}

/// The shipped default reference with its description, for [`Calibration::reference`].
pub fn default_reference() -> (Vec<ReferenceRow>, String) {
    (
        reference::default_rows(),
        reference::DESCRIPTION.to_string(),
    )
}

/// Applies a calibration to the bank and recomputes every stored percentile, all in one
/// transaction. Returns the bank's levels afterwards and the number of percentiles
/// recomputed.
pub fn calibrate(
    conn: &mut rusqlite::Connection,
    change: &Calibration,
) -> Result<(Levels, u64), LevelsError> {
    ensure(conn, None)?;
    let tx = conn.transaction().map_err(StoreError::from)?;
    if let Some((rows, description)) = &change.reference {
        if rows.is_empty() {
            return Err(LevelsError::EmptyCorpus(description.clone()));
        }
        store::settings::replace_reference(&tx, rows)?;
        store::settings::set(&tx, "reference", description)?;
    }
    if let Some(r) = change.rating {
        store::settings::set(&tx, "rating", r.name())?;
    }
    if let Some(l) = &change.levels {
        store::settings::set(&tx, "levels", &l.to_string())?;
    }
    let levels = Levels::read(&tx)?;
    let n = store::puzzles::recompute_percentiles(&tx, levels.rating, &levels.reference)?;
    tx.commit().map_err(StoreError::from)?;
    Ok((levels, n))
}
