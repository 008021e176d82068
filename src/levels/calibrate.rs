//! A bank's scale: its rating, reference and levels ([`Levels`]); the default reference and
//! levels stored on first use; a bank rated by an older `difficulty` model brought to the
//! current one ([`ensure`], [`backfill`]); `calibrate`, which replaces the reference (rated from
//! a corpus, or the default), the rating or the levels and recomputes every stored level in one
//! transaction (percentiles are measured when read).

use super::model::LevelModel;
use super::named::{NamedModel, NamedRating};
use super::{features, reference};
use crate::grid::Puzzle;
use crate::rate::Rating;
use crate::input::{PuzzleReader, ReadError};
use crate::scale::{
    LevelNames, LevelSet, RatingKind, Reference, DEFAULT_LAYOUTS, DEFAULT_LEVELS, EXTREME,
    EXTREME_LAYOUT,
};
use crate::technique::Strategy;
use crate::store::{self, ReferenceRow, StoreError};
use rayon::prelude::*;
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
    /// A stored row cannot be brought up to date.
    #[error("puzzle {id} {reason}")]
    Stale {
        /// Its row id.
        id: i64,
        /// Why.
        reason: String,
    },
    /// A level name the bank does not have.
    #[error(
        "no level {name:?} in this bank{} (its levels: {levels}; change them with \
         `pseudoku calibrate --levels`)",
        .levels.did_you_mean(.name)
    )]
    UnknownLevel {
        /// The name asked for.
        name: String,
        /// The bank's level names.
        levels: LevelNames,
    },
    /// A reference of too few distinct puzzles to measure percentiles against.
    #[error(
        "{name}: {distinct} distinct puzzles (classes) among {rows}: a reference needs at least \
         {MIN_CLASSES} different puzzles to tell percentiles apart (give more, or --force)"
    )]
    FewClasses {
        /// The corpus.
        name: String,
        /// Its distinct classes.
        distinct: usize,
        /// Its puzzles.
        rows: usize,
    },
    /// Levels that would hold no puzzle of the reference.
    #[error(
        "the levels {levels} would leave {} without a single puzzle of the reference (its \
         ratings do not spread over every level): give a reference with more different \
         puzzles, other levels, or --force",
        .empty.join(", ")
    )]
    EmptyLevels {
        /// The levels.
        levels: LevelSet,
        /// The names of those that hold nothing.
        empty: Vec<String>,
    },
    /// Levels fitted on labelled puzzles would drop levels the bank has, and the user did not
    /// name the new levels.
    #[error("{}", dropped_text(.was, .new, .dropped))]
    Dropped {
        /// The bank's levels.
        was: LevelNames,
        /// The fitted levels.
        new: LevelNames,
        /// The bank's levels the fitted ones lack.
        dropped: Vec<String>,
    },
    /// Levels that would hold none of the bank's puzzles.
    #[error(
        "the levels {levels} would leave {} without a single puzzle of the bank's {puzzles} \
         (`get --level {}` would find none): nothing was changed; calibrate with other \
         labelled puzzles, or name the levels with --levels (or --force) to mean it",
        .empty.join(", "),
        .empty[0]
    )]
    Emptied {
        /// The levels.
        levels: LevelNames,
        /// The names of those that would hold none.
        empty: Vec<String>,
        /// The bank's puzzles.
        puzzles: u64,
    },
    /// Labelled puzzles that cannot calibrate the levels: every problem found, one per line.
    #[error("{}", .0.join("\n"))]
    Labelled(Vec<String>),
    /// The bank's level model cannot be used by this program.
    #[error(
        "the bank's level model {0}; fit it again with `pseudoku calibrate --from FILE \
         --labelled`, or go back to cut points with `pseudoku calibrate --levels NAMES`"
    )]
    Model(String),
}

/// Why levels fitted on labelled puzzles that drop the bank's `dropped` are refused.
fn dropped_text(was: &LevelNames, new: &LevelNames, dropped: &[String]) -> String {
    if dropped.len() == was.len() {
        format!(
            "the labelled puzzles' levels ({new}) would replace all of the bank's ({was}): name \
             them with --levels {new} to mean it"
        )
    } else {
        format!(
            "the labelled puzzles' levels ({new}) would drop the bank's level{} {} (`get \
             --level {}` would then fail): label puzzles of {} too, or name the new levels with \
             --levels {new} to replace the bank's ({was})",
            if dropped.len() == 1 { "" } else { "s" },
            dropped.join(", "),
            dropped[0],
            if dropped.len() == 1 { "it" } else { "them" }
        )
    }
}

/// What a bank measures puzzles with: its rating, reference and levels.
#[derive(Clone, Debug, PartialEq)]
pub struct Levels {
    /// The rating percentiles and levels use.
    pub rating: RatingKind,
    /// The reference distribution of that rating.
    pub reference: Reference,
    /// The levels: their names, and the ranges of that rating that are the levels when the
    /// bank has no model.
    pub set: LevelSet,
    /// The level model, when the levels were learned from labelled puzzles' features: then a
    /// puzzle's level is the model's, not the range its rating falls in.
    pub model: Option<LevelModel>,
    /// The bank's named ratings (publishers' numeric scales), by name.
    pub named: Vec<NamedRating>,
}

impl Levels {
    /// The percentile of a puzzle rated `difficulty` and `hsolve` (rounded, as stored).
    pub fn percentile(&self, difficulty: f64, hsolve: f64) -> f64 {
        self.reference
            .percentile(self.rating.value(difficulty, hsolve))
    }

    /// The level (0 = easiest) of a rated puzzle: the model's when the bank has one, else
    /// the range its rating falls in.
    pub fn level(&self, puzzle: &Puzzle, rating: &Rating) -> u32 {
        grade(puzzle, rating, self.rating, &self.set, self.model.as_ref(), &[]).0
    }

    /// The level of a puzzle from its rating on the bank's scale and its hardest step alone:
    /// `None` when the bank has a model (which reads every feature).
    pub fn level_of_value(&self, value: f64, hardest: Strategy) -> Option<u32> {
        self.model
            .is_none()
            .then(|| self.set.of(value, hardest) as u32)
    }

    /// How puzzles are measured when read from the bank (percentiles are not stored).
    pub fn measure(&self) -> store::retrieval::Measure<'_> {
        store::retrieval::Measure {
            rating: self.rating,
            reference: &self.reference,
        }
    }

    /// The levels of an open bank as they are (no default reference is created).
    pub fn read(conn: &store::Bank) -> Result<Levels, LevelsError> {
        let (rating, set) = store::settings::levels(conn)?;
        let reference =
            store::settings::reference(conn, rating)?.ok_or(LevelsError::NoReference)?;
        let model = read_model(conn)?;
        if let Some(m) = &model {
            if m.levels() != set.len() {
                return Err(LevelsError::Model(format!(
                    "has {} levels and the bank {}",
                    m.levels(),
                    set.len()
                )));
            }
        }
        Ok(Levels {
            rating,
            reference,
            set,
            model,
            named: read_named(conn)?,
        })
    }

    /// The level of `puzzle`, rated `rating`, and its values on the bank's named ratings
    /// (name, value), its features read once.
    pub fn grade(&self, puzzle: &Puzzle, rating: &Rating) -> (u32, Vec<(String, f64)>) {
        grade(
            puzzle,
            rating,
            self.rating,
            &self.set,
            self.model.as_ref(),
            &self.named,
        )
    }

    /// The named rating `name`, if the bank has it.
    pub fn named(&self, name: &str) -> Option<&NamedRating> {
        self.named.iter().find(|n| n.name == name)
    }
}

/// The bank's named ratings (an error when this program cannot use one).
pub fn read_named(conn: &store::Bank) -> Result<Vec<NamedRating>, LevelsError> {
    store::named::all(conn)?
        .into_iter()
        .map(|(name, id, text)| {
            let model: NamedModel = serde_json::from_str(&text).map_err(|e| {
                LevelsError::Model(format!("for the named rating {name} cannot be read ({e})"))
            })?;
            if model.features != features::VERSION {
                return Err(LevelsError::Model(format!(
                    "for the named rating {name} was fitted on features version {} and this \
                     program computes version {}",
                    model.features,
                    features::VERSION
                )));
            }
            Ok(NamedRating { name, id, model })
        })
        .collect()
}

/// The level (0 = easiest) of a rated puzzle in a bank rated by `kind` with the levels `set`
/// and the level model `model` (the model's when there is one, else the range of `set` its
/// rating falls in), and its values on the named ratings `named` (name, value). The features
/// both models read are computed once, and only when one of them is there.
pub fn grade(
    puzzle: &Puzzle,
    rating: &Rating,
    kind: RatingKind,
    set: &LevelSet,
    model: Option<&LevelModel>,
    named: &[NamedRating],
) -> (u32, Vec<(String, f64)>) {
    let x = (model.is_some() || !named.is_empty()).then(|| features::of(puzzle, rating));
    let level = match (model, &x) {
        (Some(m), Some(x)) => m.fitted.level(x) as u32,
        _ => set.of(rating.value(kind), rating.hardest.strategy) as u32,
    };
    let values = match &x {
        Some(x) => named
            .iter()
            .map(|n| (n.name.clone(), n.model.value_of(x)))
            .collect(),
        None => Vec::new(),
    };
    (level, values)
}

/// The settings key of a bank's level model (JSON).
pub(crate) const MODEL_KEY: &str = "level_model";

/// The bank's level model, if any (an error when this program cannot use it).
pub fn read_model(conn: &store::Bank) -> Result<Option<LevelModel>, LevelsError> {
    let Some(text) = store::settings::get(conn, MODEL_KEY)? else {
        return Ok(None);
    };
    // The version first: a model fitted on other features may be stored in another shape.
    #[derive(serde::Deserialize)]
    struct Version {
        features: u32,
    }
    let unreadable = |e: serde_json::Error| LevelsError::Model(format!("cannot be read ({e})"));
    let version: Version = serde_json::from_str(&text).map_err(unreadable)?;
    if version.features != features::VERSION {
        return Err(LevelsError::Model(format!(
            "was fitted on features version {} and this program computes version {}",
            version.features,
            features::VERSION
        )));
    }
    let model: LevelModel = serde_json::from_str(&text).map_err(unreadable)?;
    Ok(Some(model))
}

/// The bank's levels, storing the shipped default reference and the default levels on first
/// use: a new bank takes `rating` (default difficulty); an existing bank must use `rating` if
/// given. A bank whose `difficulty` ratings were made by an older model gets a reference rated
/// by the current one and its stored ratings forgotten (one transaction), so that
/// [`backfill`] re-rates them.
pub fn ensure(
    conn: &mut store::Bank,
    rating: Option<RatingKind>,
) -> Result<Levels, LevelsError> {
    let model = crate::rate::difficulty::MODEL.to_string();
    if store::settings::get(conn, "reference")?.is_none() {
        let tx = store::Write::begin(conn)?;
        store::settings::replace_reference(&tx, &reference::default_rows())?;
        store::settings::set(&tx, "reference", reference::DESCRIPTION)?;
        store::settings::set(&tx, "difficulty_model", &model)?;
        if store::settings::get(&tx, "rating")?.is_none() {
            store::settings::set(&tx, "rating", rating.unwrap_or_default().name())?;
        }
        // The levels are stored, so that later defaults do not move a bank's levels; the
        // default levels with their default layouts, unless the bank already has layouts.
        let (_, set) = store::settings::levels(&tx)?;
        store::settings::set_levels(&tx, &set)?;
        if set.names().rated().iter().eq(DEFAULT_LEVELS.iter()) {
            for (name, rules) in default_layouts().filter(|(name, _)| set.index(name).is_some()) {
                if store::settings::layout(&tx, name)?.is_none() {
                    store::settings::set_layout(&tx, name, rules)?;
                }
            }
        }
        tx.commit()?;
    } else if store::settings::get(conn, "difficulty_model")?.as_deref() != Some(model.as_str()) {
        upgrade(conn)?;
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

/// Brings a bank rated by an older `difficulty` model to the current one: the reference
/// re-rated (the shipped default taken as it is), stored `difficulty` ratings forgotten, cut
/// points on `difficulty` dropped (the levels fall back to the defaults, or equal shares of
/// the reference for other names; labelled calibrations must be run again), the model
/// recorded. One transaction, so an interrupted upgrade is not half done.
fn upgrade(conn: &mut store::Bank) -> Result<(), LevelsError> {
    let description = store::settings::get(conn, "reference")?.unwrap_or_default();
    let rows = if description == reference::DESCRIPTION {
        reference::default_rows()
    } else {
        let old = store::settings::reference_rows(conn)?;
        let puzzles: Vec<(Puzzle, String)> = old
            .iter()
            .filter_map(|r| Some((Puzzle::parse_line(&r.puzzle).ok()?, r.source.clone())))
            .collect();
        reference::rate(&puzzles)
            .into_iter()
            .filter_map(Result::ok)
            .collect()
    };
    if rows.is_empty() {
        return Err(LevelsError::EmptyCorpus(description));
    }
    let tx = store::Write::begin(conn)?;
    store::settings::replace_reference(&tx, &rows)?;
    store::puzzles::forget_difficulty(&tx)?;
    if store::settings::levels(&tx)?.0 == RatingKind::Difficulty {
        store::settings::remove(&tx, "cuts")?;
    }
    let (_, set) = store::settings::levels(&tx)?;
    store::settings::set_levels(&tx, &set)?;
    store::settings::set(
        &tx,
        "difficulty_model",
        &crate::rate::difficulty::MODEL.to_string(),
    )?;
    tx.commit()?;
    Ok(())
}

/// Brings stored rows up to date: re-rates the rows without a `difficulty` (migration 0003
/// leaves them NULL, a new model forgets them), a level or a hardest step (migration 0018)
/// and gives each its level on `levels`. 1,000 rows per transaction, on the current rayon
/// pool, so an interrupted backfill keeps what it did. Returns how many rows were touched.
pub fn backfill(conn: &mut store::Bank, levels: &Levels) -> Result<u64, LevelsError> {
    let todo = store::puzzles::stale(conn)?;
    for chunk in todo.chunks(1000) {
        let done: Vec<store::puzzles::Refreshed> = chunk
            .par_iter()
            .map(|row| -> Result<_, LevelsError> {
                let rating =
                    crate::rate::rate(&row.puzzle, None).map_err(|e| LevelsError::Stale {
                        id: row.id,
                        reason: format!("cannot be rated: {e}"),
                    })?;
                Ok(store::puzzles::Refreshed {
                    id: row.id,
                    difficulty: rating.difficulty,
                    level: levels.level(&row.puzzle, &rating),
                    hardest: rating.hardest,
                })
            })
            .collect::<Result<_, _>>()?;
        store::puzzles::refresh(conn, &done)?;
    }
    Ok(todo.len() as u64)
}

/// The level of every stored row under the level model `model` (see [`every_row`]).
fn model_levels(
    conn: &store::Bank,
    model: &LevelModel,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<(i64, u32)>, LevelsError> {
    every_row(conn, |p, r| model.level(p, r), progress)
}

/// `f` of every stored row, re-rating each (the models read every feature, which the bank
/// does not store), in chunks on the current rayon pool, calling `progress(done)`: (id, value)
/// pairs, written by the caller in one transaction.
fn every_row<T: Send>(
    conn: &store::Bank,
    f: impl Fn(&Puzzle, &Rating) -> T + Sync,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<(i64, T)>, LevelsError> {
    let mut out = Vec::new();
    let mut after = 0;
    loop {
        let chunk = store::puzzles::chunk_after(conn, after, 10_000)?;
        let Some(&(last, _)) = chunk.last() else {
            break;
        };
        after = last;
        let values: Vec<(i64, T)> = chunk
            .par_iter()
            .map(|&(id, p)| {
                crate::rate::rate(&p, None)
                    .map(|r| (id, f(&p, &r)))
                    .map_err(|e| LevelsError::Stale {
                        id,
                        reason: format!("cannot be rated: {e}"),
                    })
            })
            .collect::<Result<_, _>>()?;
        out.extend(values);
        progress(out.len() as u64);
    }
    Ok(out)
}

/// Stores the named rating `name` fitted as `regression`: the model in the bank's settings and
/// every stored puzzle's value (re-rating each, on the current rayon pool, calling
/// `progress(done)`), replacing a rating of that name, in one transaction. Returns how many
/// puzzles were valued.
pub fn store_named(
    conn: &mut store::Bank,
    name: &str,
    regression: &super::regression::Regression,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64, LevelsError> {
    let model = NamedModel {
        features: features::VERSION,
        regression: regression.clone(),
    };
    let values = every_row(conn, |p, r| model.value(p, r), progress)?;
    let json = serde_json::to_string(&model).expect("a model serializes");
    let tx = store::Write::begin(conn)?;
    store::named::replace(&tx, name, &json, &values)?;
    tx.commit()?;
    Ok(values.len() as u64)
}

/// How `calibrate` changes the levels.
#[derive(Clone, Debug)]
pub enum LevelChange {
    /// New names: with as many levels as now, a renaming (the cut points stay); otherwise
    /// equal shares of the reference.
    Names(LevelNames),
    /// These levels exactly (e.g. cut points fitted on labelled puzzles).
    Set(LevelSet),
    /// Levels learned by a model (their names, the cut points fitted beside it, the model).
    Learned(LevelSet, LevelModel),
}

/// What `calibrate` changes.
#[derive(Clone, Debug, Default)]
pub struct Calibration {
    /// A new reference: rated rows and their description.
    pub reference: Option<(Vec<ReferenceRow>, String)>,
    /// The rating percentiles and levels use.
    pub rating: Option<RatingKind>,
    /// The levels.
    pub levels: Option<LevelChange>,
    /// Layout rules to store, by level name (as `Layout` writes them).
    pub layouts: Vec<(String, String)>,
    /// Apply it even when a level would hold no puzzle of the reference, or (levels fitted
    /// on labelled puzzles) none of the bank.
    pub force: bool,
    /// The user named the new levels (`--levels`): levels fitted on labelled puzzles may
    /// drop levels the bank has, or hold none of its puzzles. Without it (or `force`) they are
    /// refused ([`LevelsError::Dropped`], [`LevelsError::Emptied`]).
    pub names_given: bool,
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

    /// The new reference this corpus makes, with its description: refused when it holds
    /// fewer than `MIN_CLASSES` distinct puzzles (up to symmetry) unless `force`.
    pub fn into_reference(self, force: bool) -> Result<(Vec<ReferenceRow>, String), LevelsError> {
        if self.rows.is_empty() {
            return Err(LevelsError::EmptyCorpus(self.name));
        }
        let n = self.rows.len();
        let distinct = self
            .rows
            .iter()
            .filter_map(|r| r.puzzle.parse::<crate::grid::Puzzle>().ok())
            .map(|p| crate::canon::key(&p))
            .collect::<std::collections::HashSet<_>>()
            .len();
        if distinct < MIN_CLASSES && !force {
            return Err(LevelsError::FewClasses {
                name: self.name,
                distinct,
                rows: n,
            });
        }
        Ok((self.rows, format!("user: {} ({n} puzzles)", self.name)))
    }
}

/// The fewest puzzles a reference should have: with fewer, each puzzle moves a percentile by
/// more than 0.1 point and the sampling error of a median percentile passes 1.6 points
/// (`50 / sqrt(n)`); `calibrate` warns below it.
pub const MIN_REFERENCE: usize = 1000;

/// The fewest distinct puzzles (classes) a reference must hold (without `--force`): fewer
/// cannot place a percentile to better than five points (and [`MIN_REFERENCE`] is what a
/// reference should have).
pub const MIN_CLASSES: usize = 20;

/// Each of the bank's levels, by name, with the number of its puzzles (easiest first).
pub fn level_counts(conn: &store::Bank) -> Result<Vec<(String, u64)>, LevelsError> {
    let (_, set) = store::settings::levels(conn)?;
    let counts = store::puzzles::level_counts(conn, set.len())?;
    Ok(set.names().names().iter().cloned().zip(counts).collect())
}

/// The shipped default reference with its description, for [`Calibration::reference`].
pub fn default_reference() -> (Vec<ReferenceRow>, String) {
    (
        reference::default_rows(),
        reference::DESCRIPTION.to_string(),
    )
}

/// The levels named `names` on a new scale (another reference or rating): the default
/// levels of the rating for the default names on the default reference, else equal shares of
/// the reference.
fn derived(
    names: LevelNames,
    rating: RatingKind,
    reference: &Reference,
    default: bool,
) -> LevelSet {
    if default && names.rated().iter().eq(DEFAULT_LEVELS.iter()) {
        LevelSet::new(names, LevelSet::default_for(rating).cuts().to_vec())
            .expect("the default levels' cuts")
    } else {
        LevelSet::equal_shares(names, reference)
    }
}

/// Every default layout rule by level name: each default level's, and [`EXTREME_LAYOUT`] for
/// the extreme level when it is added to them.
fn default_layouts() -> impl Iterator<Item = (&'static str, &'static str)> {
    DEFAULT_LEVELS
        .into_iter()
        .zip(DEFAULT_LAYOUTS)
        .chain([(EXTREME, EXTREME_LAYOUT)])
}

/// Applies a calibration to the bank and recomputes every stored level, all in one
/// transaction (first bringing a bank rated by an older model up to date). Returns the bank's
/// levels afterwards and the number of rows recomputed.
pub fn calibrate(
    conn: &mut store::Bank,
    change: &Calibration,
) -> Result<(Levels, u64), LevelsError> {
    calibrate_with_progress(conn, change, &|_| {})
}

/// [`calibrate`], calling `progress(rows)` as a level model re-rates the stored rows.
pub fn calibrate_with_progress(
    conn: &mut store::Bank,
    change: &Calibration,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Levels, u64), LevelsError> {
    let before = match ensure(conn, None) {
        // A model this program cannot use is being replaced.
        Err(LevelsError::Model(_)) if change.levels.is_some() => {
            store::settings::remove(conn, MODEL_KEY)?;
            ensure(conn, None)?
        }
        other => other?,
    };
    backfill(conn, &before)?;
    if let Some(LevelChange::Set(set) | LevelChange::Learned(set, _)) = &change.levels {
        let dropped: Vec<String> = before
            .set
            .names()
            .names()
            .iter()
            .filter(|n| set.names().index(n).is_none())
            .cloned()
            .collect();
        if !dropped.is_empty() && !change.names_given {
            return Err(LevelsError::Dropped {
                was: before.set.names().clone(),
                new: set.names().clone(),
                dropped,
            });
        }
    }
    let learned = match &change.levels {
        Some(LevelChange::Learned(_, model)) => Some((model, model_levels(conn, model, progress)?)),
        _ => None,
    };
    let tx = store::Write::begin(conn)?;
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
    let rating = change.rating.unwrap_or(before.rating);
    let reference = store::settings::reference(&tx, rating)?.ok_or(LevelsError::NoReference)?;
    let default_reference =
        store::settings::get(&tx, "reference")?.as_deref() == Some(reference::DESCRIPTION);
    let new_scale = change.reference.is_some() || rating != before.rating;
    let set = match &change.levels {
        Some(LevelChange::Set(set)) | Some(LevelChange::Learned(set, _)) => set.clone(),
        // A renaming, or the extreme level added or taken away: the cut points stay.
        Some(LevelChange::Names(names))
            if names.rated().len() == before.set.names().rated().len() && !new_scale =>
        {
            LevelSet::new(names.clone(), before.set.cuts().to_vec())
                .expect("as many cuts as before")
        }
        Some(LevelChange::Names(names)) => {
            derived(names.clone(), rating, &reference, default_reference)
        }
        None if new_scale => derived(
            before.set.names().clone(),
            rating,
            &reference,
            default_reference,
        ),
        None => before.set.clone(),
    };
    // Levels that can hold nothing: a range whose cut points meet, or, for levels cut from the
    // reference, one that holds none of it (its cut points did not spread). A model's levels
    // are not ranges.
    let from_reference = matches!(change.levels, Some(LevelChange::Names(_)) | None)
        && set != before.set;
    let empty: Vec<String> = (0..set.len())
        .filter(|&i| {
            let (low, high) = set.bounds(i);
            learned.is_none()
                && (matches!((low, high), (Some(l), Some(h)) if l >= h)
                    || (from_reference && reference.count_within(low, high) == 0))
        })
        .filter_map(|i| set.name(i).map(str::to_string))
        .collect();
    if !empty.is_empty() && !change.force {
        return Err(LevelsError::EmptyLevels { levels: set, empty });
    }
    store::settings::set_levels(&tx, &set)?;
    // The default layouts go with the default levels (and extreme's with extreme added to
    // them): levels learned from a publisher's puzzles, or other names, drop the default rules
    // still as they were stored.
    let default_names = set.names().rated().iter().eq(DEFAULT_LEVELS.iter());
    let labelled = matches!(
        change.levels,
        Some(LevelChange::Set(_) | LevelChange::Learned(..))
    );
    for (name, rules) in default_layouts() {
        let stored = store::settings::layout(&tx, name)?;
        let applies = default_names && set.index(name).is_some();
        if (labelled || !applies) && stored.as_deref() == Some(rules) {
            store::settings::remove(&tx, &format!("layout:{name}"))?;
        } else if applies && !labelled && change.levels.is_some() && stored.is_none() {
            store::settings::set_layout(&tx, name, rules)?;
        }
    }
    for (level, rules) in &change.layouts {
        store::settings::set_layout(&tx, level, rules)?;
    }
    // A bank keeps its model until its levels change (a new reference or rating, or new
    // names for as many levels, leave it: it reads neither).
    let keep_model = before.model.is_some()
        && match &change.levels {
            None => true,
            Some(LevelChange::Names(names)) => names.len() == before.set.len(),
            Some(_) => false,
        };
    let n = match &learned {
        Some((model, levels)) => {
            let json = serde_json::to_string(model).expect("a model serializes");
            store::settings::set(&tx, MODEL_KEY, &json)?;
            store::puzzles::index_rating(&tx, rating)?;
            store::puzzles::set_levels(&tx, levels)?;
            levels.len() as u64
        }
        None if keep_model => {
            store::puzzles::index_rating(&tx, rating)?;
            0
        }
        None => {
            store::settings::remove(&tx, MODEL_KEY)?;
            store::puzzles::recompute_scale(&tx, rating, &set)?
        }
    };
    // Levels fitted on labelled puzzles must each hold some of the bank's puzzles, unless the
    // user named the new levels or forces them.
    if labelled && !change.force && !change.names_given {
        let counts = store::puzzles::level_counts(&tx, set.len())?;
        let puzzles = store::puzzles::count(&tx)?;
        let empty: Vec<String> = (0..set.len())
            .filter(|&i| counts[i] == 0)
            .filter_map(|i| set.name(i).map(str::to_string))
            .collect();
        if puzzles > 0 && !empty.is_empty() {
            return Err(LevelsError::Emptied {
                levels: set.names().clone(),
                empty,
                puzzles,
            });
        }
    }
    let levels = Levels::read(&tx)?;
    tx.commit()?;
    Ok((levels, n))
}
