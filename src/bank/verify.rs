//! `verify`: stored rows re-checked from scratch: the packed cells, a unique solution, the
//! class key of the canonical form, both ratings and the level recomputed. (The solution,
//! canonical form and percentile are not stored: they are computed when read.)

use super::BankError;
use crate::canon;
use crate::store;
use crate::technique::Technique;
use rayon::prelude::*;
use std::path::Path;

/// A row that `verify` found wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The row id.
    pub id: i64,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for Mismatch {
    /// `row ID: what`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "row {}: {}", self.id, self.what)
    }
}

/// What `verify` found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verified {
    /// Rows checked.
    pub checked: u64,
    /// The wrong ones.
    pub mismatches: Vec<Mismatch>,
    /// What is wrong with the bank as a whole: SQLite's integrity check, missing indexes,
    /// counts by hardest step that differ from the rows.
    pub bank: Vec<String>,
}

impl Verified {
    /// True when nothing was found wrong.
    pub fn is_clean(&self) -> bool {
        self.mismatches.is_empty() && self.bank.is_empty()
    }
}

/// Checks the bank as a whole (SQLite's quick integrity check, or with `sample` 0 its full
/// one; the indexes that keep classes unique and draws fast; the counts by hardest step that
/// draws by technique read), then re-checks up to `sample`
/// rows (spread over the table; all when `sample` is 0), on the current rayon pool.
pub fn verify(db: &Path, sample: u64) -> Result<Verified, BankError> {
    verify_with_progress(db, sample, &|_, _| {})
}

/// [`verify`], calling `progress(done, total)` as rows are checked (from the worker threads).
pub fn verify_with_progress(
    db: &Path,
    sample: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Verified, BankError> {
    let conn = store::open_existing(db)?;
    let model = store::settings::get(&conn, "difficulty_model")?;
    if model.is_some() && model != Some(crate::rate::difficulty::MODEL.to_string()) {
        return Err(BankError::OlderModel(model.unwrap_or_default()));
    }
    let mut bank: Vec<String> = store::integrity(&conn, sample == 0)?
        .into_iter()
        .map(|problem| format!("SQLite's integrity check: {problem}"))
        .collect();
    bank.extend(
        store::puzzles::missing_indexes(&conn)?
            .into_iter()
            .map(|name| format!("the index {name} is missing (a build holds the bank, or could not put it back)")),
    );
    bank.extend(store::puzzles::step_count_errors(&conn)?);
    let (kind, levels) = store::settings::levels(&conn)?;
    let model = crate::levels::calibrate::read_model(&conn)?;
    let total = store::puzzles::count(&conn)?;
    let step = if sample == 0 || sample >= total {
        1
    } else {
        total.div_ceil(sample)
    };
    let rows = store::puzzles::every_nth(&conn, step)?;
    // Each sampled row's named ratings, read before the rows are checked in parallel.
    let named = crate::levels::calibrate::read_named(&conn)?;
    let stored_named: Vec<Vec<(String, f64)>> = if named.is_empty() {
        vec![Vec::new(); rows.len()]
    } else {
        rows.iter()
            .map(|r| store::named::of(&conn, r.id))
            .collect::<Result<_, _>>()?
    };
    let done = std::sync::atomic::AtomicU64::new(0);
    let total = rows.len() as u64;
    progress(0, total);
    let mismatches: Vec<Mismatch> = rows
        .par_iter()
        .zip(&stored_named)
        .flat_map_iter(|(row, stored_named)| {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n.is_multiple_of(256) || n == total {
                progress(n, total);
            }
            let mut out = Vec::new();
            let mut bad = |what: String| out.push(Mismatch { id: row.id, what });
            let p = match &row.puzzle {
                Ok(p) => *p,
                Err(e) => {
                    bad(e.to_string());
                    return out;
                }
            };
            if crate::solve::solve(&p).unique().is_none() {
                bad("not exactly one solution".into());
            }
            if row.canon_key != Some(canon::canonical(&p).key()) {
                bad("key does not match the canonical form".into());
            }
            let stored_technique = row.technique;
            match crate::rate::rate(&p, None) {
                Ok(rating) => {
                    if rating.hsolve != row.hsolve
                        || rating.hsolve_sd != row.hsolve_sd
                        || rating.tier != row.tier
                        || Some(rating.technique) != stored_technique
                    {
                        bad(format!(
                            "hsolve {} sd {} tier {} technique {} != stored {} {} {} {}",
                            rating.hsolve,
                            rating.hsolve_sd,
                            rating.tier,
                            rating.technique,
                            row.hsolve,
                            row.hsolve_sd,
                            row.tier,
                            stored_technique.map_or("?", Technique::name)
                        ));
                    }
                    if row.difficulty != Some(rating.difficulty) {
                        bad(format!(
                            "difficulty {} != stored {}",
                            rating.difficulty,
                            row.difficulty.map_or("NULL".to_string(), |d| d.to_string())
                        ));
                    }
                    let (level, expected) = crate::levels::calibrate::grade(
                        &p,
                        &rating,
                        kind,
                        &levels,
                        model.as_ref(),
                        &named,
                    );
                    if row.level != Some(level) {
                        bad(format!("level {level} != stored {:?}", row.level));
                    }
                    match row.hardest {
                        Ok(Some(h)) if h == rating.hardest => {}
                        Ok(Some(h)) => bad(format!(
                            "hardest step {} x{} != stored {} x{}",
                            rating.hardest.strategy,
                            rating.hardest.count,
                            h.strategy,
                            h.count
                        )),
                        Ok(None) => bad("no hardest step stored (the next build or calibrate \
                                         re-rates it)"
                            .into()),
                        Err(what) => bad(format!("the stored {what} names no technique")),
                    }
                    if &expected != stored_named {
                        bad(format!(
                            "named ratings {expected:?} != stored {stored_named:?}"
                        ));
                    }
                }
                Err(e) => bad(format!("cannot rate: {e}")),
            }
            out
        })
        .collect();
    Ok(Verified {
        checked: rows.len() as u64,
        mismatches,
        bank,
    })
}
