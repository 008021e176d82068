//! Levels taught by labelled puzzles (`calibrate --from FILE --labelled`): a publisher's past
//! puzzles with the level names it printed them under. The puzzles are rated and two kinds of
//! levels are fitted: the cut points on one rating that put the most of them in their own
//! level, found exactly ([`super::fit`]), and the ordinal model of the level on every feature
//! the engine computes ([`super::model`]). Each is measured on puzzles it was not fitted on
//! (two halves by class key, each fitted on one and measured on the other), and the better
//! one is kept (the cut points when they are as good).
//!
//! # Input
//!
//! One puzzle per line: `puzzle<TAB>level name` (further columns ignored; blank lines and
//! lines starting with `#` skipped). The level order is `--levels NAMES` (easiest first), or
//! else the order in which names first appear, provided the levels then rank by rating (each
//! level's median rating above the one before).

use super::fit::{self, CrossValidation};
use super::model::{LevelModel, ModelFit, Sample};
use super::{features, LevelsError};
use crate::grid::Puzzle;
use crate::scale::{LevelNames, LevelSet, RatingKind};
use std::path::Path;

/// The fewest puzzles each level needs for a fit.
pub const MIN_PER_LEVEL: usize = 20;

/// A labelled puzzle, rated.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Where it was read (`FILE:LINE`).
    pub at: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its level's index in the level names.
    pub level: usize,
    /// Its rating on the scale fitted.
    pub rating: f64,
    /// Its half for cross-validation (the low bit of its class key's seed).
    pub half: usize,
    /// Its half inside a training half, for choosing the model's penalty (the next bit).
    pub inner: usize,
    /// Its features ([`features::of`]).
    pub features: Vec<f64>,
}

/// Which of the two fits a labelled calibration keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Cut points on one rating: they agree held out as well as the model or better.
    Cuts,
    /// The model on every feature: it agrees better held out.
    Model,
}

/// Levels fitted on labelled puzzles.
#[derive(Clone, Debug)]
pub struct LabelledFit {
    /// The levels: names and the cuts fitted on every example.
    pub set: LevelSet,
    /// The examples.
    pub examples: Vec<Example>,
    /// Each half's cuts measured on the other half.
    pub cross_validation: CrossValidation,
    /// The confusion matrix of [`LabelledFit::set`] on every example (what it was fitted on).
    pub fitted: Vec<Vec<u64>>,
    /// The model fitted on every example, and how the regressions tried did held out.
    pub model: ModelFit,
    /// The one to keep.
    pub kept: Kept,
    /// Lines that repeated a puzzle of an earlier line (up to symmetry), counted once.
    pub repeats: usize,
}

impl LabelledFit {
    /// The model, when it is the one kept.
    pub fn kept_model(&self) -> Option<&LevelModel> {
        (self.kept == Kept::Model).then_some(&self.model.model)
    }

    /// The levels it fitted, as a calibration stores them: the model's levels when the model
    /// is kept, else the cut points.
    pub fn into_change(self) -> super::LevelChange {
        match self.kept_model() {
            Some(model) => super::LevelChange::Learned(self.set.clone(), model.clone()),
            None => super::LevelChange::Set(self.set),
        }
    }
}

/// A labelled line before rating.
struct Line {
    at: String,
    puzzle: Puzzle,
    /// Its class key (which puzzles repeat, and the halves of cross-validation).
    key: crate::canon::Key,
    name: String,
}

/// What a labelled file's second column holds, as messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    /// A level's name (`calibrate --labelled`).
    Level,
    /// A value on a publisher's numeric scale (`calibrate --labelled --named NAME`).
    Value,
}

impl Label {
    fn what(self) -> &'static str {
        match self {
            Label::Level => "level name",
            Label::Value => "value",
        }
    }
}

/// Reads the labelled puzzles of `path`, each line `puzzle<TAB>label`: every problem (bad
/// lines as `FILE:LINE: reason`) at once.
fn read_lines(path: &Path, label: Label) -> Result<Vec<Line>, LevelsError> {
    let file = path.display().to_string();
    let failed = |source| {
        LevelsError::Read(crate::input::ReadError::Io {
            name: file.clone(),
            source,
        })
    };
    let mut reader = crate::input::Lines::new(std::io::BufReader::new(
        std::fs::File::open(path).map_err(failed)?,
    ));
    let mut lines = Vec::new();
    let mut bad = Vec::new();
    let mut raw = Vec::new();
    let mut n = 0;
    while let Some(read) = reader.next_into(&mut raw).map_err(failed)? {
        n += 1;
        let at = format!("{file}:{n}");
        if read == crate::input::Line::Long {
            bad.push(format!(
                "{at}: {}",
                crate::grid::ParseError::TooLong {
                    limit: crate::input::MAX_LINE
                }
            ));
            continue;
        }
        let Ok(l) = std::str::from_utf8(&raw) else {
            bad.push(format!("{at}: not valid UTF-8 text"));
            continue;
        };
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let mut fields = l.split('\t');
        let p = fields.next().unwrap_or_default().trim();
        let Some(name) = fields.next().map(|n| n.trim().to_lowercase()) else {
            bad.push(format!(
                "{at}: expected puzzle<TAB>{}, found no tab",
                label.what()
            ));
            continue;
        };
        if name.is_empty() {
            bad.push(format!("{at}: the {} is empty", label.what()));
            continue;
        }
        match Puzzle::parse_line(p) {
            Ok(puzzle) => lines.push(Line {
                at,
                key: crate::canon::key(&puzzle),
                puzzle,
                name,
            }),
            Err(e) => bad.push(format!("{at}: {e}")),
        }
    }
    if bad.is_empty() {
        Ok(lines)
    } else {
        Err(LevelsError::Labelled(bad))
    }
}

/// The lines of distinct puzzles (up to symmetry), the first of each class kept, and how many
/// lines repeated one; a class labelled twice with different labels is a problem naming both
/// lines (a puzzle has one level, one value).
fn distinct(lines: Vec<Line>, label: Label) -> Result<(Vec<Line>, usize), LevelsError> {
    let mut first: std::collections::HashMap<crate::canon::Key, usize> =
        std::collections::HashMap::new();
    let mut kept: Vec<Line> = Vec::new();
    let mut problems = Vec::new();
    let mut repeats = 0;
    for l in lines {
        match first.get(&l.key) {
            Some(&i) if kept[i].name != l.name => problems.push(format!(
                "{} and {} label the same puzzle (up to symmetry) {:?} and {:?}: a puzzle has \
                 one {}",
                kept[i].at,
                l.at,
                kept[i].name,
                l.name,
                match label {
                    Label::Level => "level",
                    Label::Value => "value",
                }
            )),
            Some(_) => repeats += 1,
            None => {
                first.insert(l.key, kept.len());
                kept.push(l);
            }
        }
    }
    if problems.is_empty() {
        Ok((kept, repeats))
    } else {
        Err(LevelsError::Labelled(problems))
    }
}

/// Checks that both halves by class key, and both inner halves of each, hold puzzles: the
/// fits are measured on one half after fitting on the other (a file of very few distinct
/// puzzles may leave a half empty).
fn check_halves(path: &Path, halves: &[(usize, usize)]) -> Result<(), LevelsError> {
    for fold in 0..2 {
        let train: Vec<usize> = halves
            .iter()
            .filter(|h| h.0 != fold)
            .map(|h| h.1)
            .collect();
        let split = train.contains(&0) && train.contains(&1);
        if !split || halves.iter().all(|h| h.0 != fold) {
            return Err(LevelsError::Labelled(vec![format!(
                "{}: the {} distinct puzzles do not fill both halves by class key that a fit \
                 is measured on: give more different puzzles",
                path.display(),
                halves.len()
            )]));
        }
    }
    Ok(())
}

/// The median of some ratings (0 for none).
fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Rates every line's puzzle (on the current rayon pool) and computes its features; every
/// puzzle that cannot be rated is named at once.
fn rate_lines(lines: &[Line]) -> Result<Vec<(crate::rate::Rating, Vec<f64>)>, LevelsError> {
    use rayon::prelude::*;
    let rated: Vec<_> = lines
        .par_iter()
        .map(|l| {
            crate::rate::rate(&l.puzzle, None).map(|r| {
                let x = features::of(&l.puzzle, &r);
                (r, x)
            })
        })
        .collect();
    let problems: Vec<String> = lines
        .iter()
        .zip(&rated)
        .filter_map(|(l, r)| r.as_ref().err().map(|e| format!("{}: {e}", l.at)))
        .collect();
    if !problems.is_empty() {
        return Err(LevelsError::Labelled(problems));
    }
    Ok(rated.into_iter().map(|r| r.expect("checked above")).collect())
}

/// A puzzle's halves for cross-validation: the low bit of its class key's seed (measuring)
/// and the next (choosing a penalty inside a training half).
fn halves(key: &crate::canon::Key) -> (usize, usize) {
    let seed = key.seed();
    ((seed & 1) as usize, (seed >> 1 & 1) as usize)
}

/// Reads, rates (on the current rayon pool, with `rating`) and fits the labelled puzzles of
/// `path` on the level names `names` (or the names in order of first appearance). Nothing is
/// fitted when a line is bad, a name unknown, a puzzle has not one solution, a level has fewer
/// than `MIN_PER_LEVEL` examples, or (without `names`) the levels do not rank by rating:
/// the error lists every problem.
pub fn fit_file(
    path: &Path,
    names: Option<&LevelNames>,
    rating: RatingKind,
) -> Result<LabelledFit, LevelsError> {
    fit_lines(path, read_lines(path, Label::Level)?, names, rating)
}

/// [`fit_file`] on labelled puzzles already read: each `(where, puzzle, level name)`, `where`
/// naming it in messages; `source` names them all (`calibrate --from-play`: the puzzles the
/// bank's players rated, each labelled by its learned rating).
pub fn fit_examples(
    source: &Path,
    examples: Vec<(String, Puzzle, String)>,
    names: Option<&LevelNames>,
    rating: RatingKind,
) -> Result<LabelledFit, LevelsError> {
    let lines = examples
        .into_iter()
        .map(|(at, puzzle, name)| Line {
            at,
            key: crate::canon::key(&puzzle),
            puzzle,
            name,
        })
        .collect();
    fit_lines(source, lines, names, rating)
}

/// [`fit_file`]'s fit of the lines read from `path`.
fn fit_lines(
    path: &Path,
    lines: Vec<Line>,
    names: Option<&LevelNames>,
    rating: RatingKind,
) -> Result<LabelledFit, LevelsError> {
    let names: LevelNames = match names {
        Some(n) => n.clone(),
        None => {
            let mut order: Vec<String> = Vec::new();
            for l in &lines {
                if !order.contains(&l.name) {
                    order.push(l.name.clone());
                }
            }
            if order.is_empty() {
                return Err(LevelsError::EmptyCorpus(path.display().to_string()));
            }
            order
                .join(",")
                .parse()
                .map_err(|e: crate::scale::ScaleError| LevelsError::Labelled(vec![e.to_string()]))?
        }
    };
    if names.len() < 2 {
        return Err(LevelsError::Labelled(vec![format!(
            "{}: only one level ({names}): levels are fitted between two or more, so label \
             puzzles of at least two levels",
            path.display()
        )]));
    }
    let problems: Vec<String> = lines
        .iter()
        .filter(|l| names.index(&l.name).is_none())
        .map(|l| format!("{}: unknown level {:?} (levels: {names})", l.at, l.name))
        .collect();
    if !problems.is_empty() {
        return Err(LevelsError::Labelled(problems));
    }
    // One puzzle, one level; a puzzle repeated (up to symmetry) counts once.
    let read = lines.len();
    let (lines, repeats) = distinct(lines, Label::Level)?;
    let k = names.len();
    let mut counts = vec![0usize; k];
    for l in &lines {
        counts[names.index(&l.name).expect("checked above")] += 1;
    }
    let few: Vec<String> = (0..k)
        .filter(|&j| counts[j] < MIN_PER_LEVEL)
        .map(|j| {
            let n = counts[j];
            format!(
                "{}: level {:?} has {}; a fit needs at least {MIN_PER_LEVEL} different puzzles \
                 per level",
                path.display(),
                names.names()[j],
                if repeats > 0 {
                    format!(
                        "{n} different puzzle{} (lines that repeat a puzzle, up to symmetry, \
                         count once: {repeats} of the file's {read} lines do)",
                        if n == 1 { "" } else { "s" }
                    )
                } else {
                    format!("{n} puzzles")
                }
            )
        })
        .collect();
    if !few.is_empty() {
        return Err(LevelsError::Labelled(few));
    }
    let halves_of: Vec<(usize, usize)> = lines.iter().map(|l| halves(&l.key)).collect();
    check_halves(path, &halves_of)?;
    let examples: Vec<Example> = rate_lines(&lines)?
        .into_iter()
        .zip(&lines)
        .zip(halves_of)
        .map(|(((r, x), l), (half, inner))| {
            Example {
                at: l.at.clone(),
                puzzle: l.puzzle,
                level: names.index(&l.name).expect("checked above"),
                rating: r.value(rating),
                half,
                inner,
                features: x,
            }
        })
        .collect();
    let medians: Vec<f64> = (0..k)
        .map(|j| {
            median(
                examples
                    .iter()
                    .filter(|e| e.level == j)
                    .map(|e| e.rating)
                    .collect(),
            )
        })
        .collect();
    if let Some(j) = (1..k).find(|&j| medians[j] < medians[j - 1]) {
        let mut by_median: Vec<usize> = (0..k).collect();
        by_median.sort_by(|&a, &b| medians[a].total_cmp(&medians[b]));
        let order: Vec<&str> = by_median
            .iter()
            .map(|&i| names.names()[i].as_str())
            .collect();
        return Err(LevelsError::Labelled(vec![format!(
            "{}: the levels {names} do not rank by rating (median {} of {:?} is below {} of \
             {:?}); give their order with --levels, e.g. --levels {}",
            path.display(),
            medians[j],
            names.names()[j],
            medians[j - 1],
            names.names()[j - 1],
            order.join(",")
        )]));
    }
    let samples: Vec<(f64, usize)> = examples.iter().map(|e| (e.rating, e.level)).collect();
    let cuts = fit::fit(&samples, k);
    let fitted = fit::confusion(&samples, &cuts);
    let cross_validation = fit::cross_validate(
        &examples
            .iter()
            .map(|e| (e.rating, e.level, e.half))
            .collect::<Vec<_>>(),
        k,
    );
    let set = LevelSet::new(names, cuts.0).expect("a fit has one cut fewer than levels");
    let samples: Vec<Sample> = examples
        .iter()
        .map(|e| Sample {
            features: e.features.clone(),
            level: e.level,
            half: e.half,
            inner: e.inner,
        })
        .collect();
    let model = LevelModel::fit(&samples, k);
    let kept = if fit::agreement(&model.held_out) > cross_validation.agreement() {
        Kept::Model
    } else {
        Kept::Cuts
    };
    Ok(LabelledFit {
        set,
        examples,
        cross_validation,
        fitted,
        model,
        kept,
        repeats,
    })
}

/// What `calibrate --labelled` prints: the puzzles per level, the cut points fitted on all of
/// them, the held-out confusion matrices of the cut points and of the model (each half
/// classified by a fit on the other, both ways, added up) side by side, and which is kept.
pub fn summary(fit: &LabelledFit, rating: RatingKind) -> String {
    use std::fmt::Write as _;
    let names = fit.set.names().names();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} labelled puzzles{}; cut points on {}: {}",
        fit.examples.len(),
        match fit.repeats {
            0 => String::new(),
            r => format!(" ({r} more lines repeated one of them and counted once)"),
        },
        rating.name(),
        fit.set
    );
    let cuts = fit.cross_validation.agreement();
    let model = fit::agreement(&fit.model.held_out);
    let _ = writeln!(
        s,
        "held out (fitted on one half by class key, counted on the other, both ways):"
    );
    let left = fit::text(&fit.cross_validation.confusion(), names);
    let right = fit::text(&fit.model.held_out, names);
    let width = left.lines().map(str::len).max().unwrap_or(0);
    let heading = format!("cut points on {}", rating.name());
    let _ = writeln!(
        s,
        "{heading:<width$}   {} model on {} features",
        fit.model.model.fitted.name(),
        features::COUNT
    );
    for (a, b) in left.lines().zip(right.lines()) {
        let _ = writeln!(s, "{a:<width$}   {b}");
    }
    let cut_agreement = format!(
        "agreement {:.1}% (on the puzzles fitted: {:.1}%)",
        100.0 * cuts,
        100.0 * fit::agreement(&fit.fitted)
    );
    let _ = writeln!(
        s,
        "{cut_agreement:<width$}   agreement {:.1}%",
        100.0 * model
    );
    let tried: Vec<String> = fit
        .model
        .tried
        .iter()
        .map(|(name, a)| format!("{name} {:.1}%", 100.0 * a))
        .collect();
    let _ = writeln!(s, "models held out: {}", tried.join(", "));
    let _ = writeln!(
        s,
        "{}",
        match fit.kept {
            Kept::Model => format!(
                "kept: the model ({:.1}% of held-out puzzles in their own level, cut points \
                 {:.1}%); levels may overlap in rating",
                100.0 * model,
                100.0 * cuts
            ),
            Kept::Cuts => format!(
                "kept: the cut points ({:.1}% of held-out puzzles in their own level, the model \
                 {:.1}%)",
                100.0 * cuts,
                100.0 * model
            ),
        }
    );
    s
}

/// A numeric scale fitted on puzzles labelled with numbers ([`fit_numbers_file`]).
#[derive(Clone, Debug)]
pub struct NumericFit {
    /// The puzzles' labels, in file order.
    pub labels: Vec<f64>,
    /// Each puzzle's value by the regression on every feature fitted on the other half.
    pub held_out: Vec<f64>,
    /// Each puzzle's value by the regression on `difficulty` alone (isotonic) fitted on the
    /// other half: what one rating does.
    pub one_rating: Vec<f64>,
    /// The regression on every feature, fitted on every puzzle.
    pub regression: super::regression::Regression,
}

/// Reads, rates (on the current rayon pool) and fits the puzzles of `path`, each labelled with
/// a number on a publisher's scale (`puzzle<TAB>number`): the monotone regression on every
/// feature and, to compare, on `difficulty` alone, each measured on the half by class key it
/// was not fitted on (both ways). Every bad line is named at once.
pub fn fit_numbers_file(path: &Path) -> Result<NumericFit, LevelsError> {
    use super::regression;
    let lines = read_lines(path, Label::Value)?;
    let mut bad = Vec::new();
    for l in &lines {
        if !l.name.parse::<f64>().is_ok_and(f64::is_finite) {
            bad.push(format!("{}: {:?} is not a number", l.at, l.name));
        }
    }
    if !bad.is_empty() {
        return Err(LevelsError::Labelled(bad));
    }
    // A puzzle repeated (up to symmetry) with the same value counts once; with another
    // value, it is a problem. Values compare as numbers (`7` and `7.0` are one value).
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| Line {
            name: l.name.parse::<f64>().expect("checked above").to_string(),
            ..l
        })
        .collect();
    let (lines, _) = distinct(lines, Label::Value)?;
    let labels: Vec<f64> = lines
        .iter()
        .map(|l| l.name.parse().expect("checked above"))
        .collect();
    if lines.len() < 2 * MIN_PER_LEVEL {
        return Err(LevelsError::Labelled(vec![format!(
            "{}: {} different labelled puzzles (up to symmetry); a scale needs {} or more",
            path.display(),
            lines.len(),
            2 * MIN_PER_LEVEL
        )]));
    }
    let halves_of: Vec<(usize, usize)> = lines.iter().map(|l| halves(&l.key)).collect();
    check_halves(path, &halves_of)?;
    let (d, x): (Vec<Vec<f64>>, Vec<Vec<f64>>) = rate_lines(&lines)?
        .into_iter()
        .map(|(r, x)| (vec![r.difficulty], x))
        .unzip();
    let (half, inner_half): (Vec<usize>, Vec<usize>) = halves_of.into_iter().unzip();
    let inner = |train: &[usize]| -> Vec<usize> { train.iter().map(|&i| inner_half[i]).collect() };
    let (held_out, one_rating) = rayon::join(
        || {
            regression::held_out(&x, &labels, &half, |tx, ty, train| {
                regression::fit_tuned(tx, ty, &inner(train))
            })
        },
        || {
            regression::held_out(&d, &labels, &half, |tx, ty, train| {
                regression::fit_tuned(tx, ty, &inner(train))
            })
        },
    );
    Ok(NumericFit {
        regression: regression::fit_tuned(&x, &labels, &half),
        labels,
        held_out,
        one_rating,
    })
}

/// What `calibrate --labelled --named NAME` prints of a numeric fit: the puzzles, and held out
/// (each half valued by a fit on the other), Spearman's correlation and the mean absolute error
/// of `difficulty` alone (isotonic) and of the regression on every feature.
pub fn numbers_summary(fit: &NumericFit, name: &str) -> String {
    use super::regression::agreement;
    let one = agreement(&fit.one_rating, &fit.labels);
    let all = agreement(&fit.held_out, &fit.labels);
    format!(
        "{} puzzles labelled on the scale {name}; held out (fitted on one half by class key, \
         valued on the other, both ways):\n\
         difficulty alone (isotonic)           Spearman {:.3}   mean absolute error {:.3}\n\
         monotone regression on {} features   Spearman {:.3}   mean absolute error {:.3}\n",
        fit.labels.len(),
        one.spearman,
        one.mae,
        features::COUNT,
        all.spearman,
        all.mae
    )
}
