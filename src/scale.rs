//! The scale a bank measures difficulty on: which rating it uses, the reference distribution,
//! percentiles, bands and level names. Plain values: nothing here generates or rates a puzzle.
//!
//! - The **percentile** of a rating r against a reference of n ratings is
//!   100 (below + equal / 2) / n, where `below` reference ratings are lower than r and `equal`
//!   are the same: 0 below every reference puzzle, 100 above every one, 50 at the median.
//! - **Band k of m** is the percentile interval [100 (k - 1) / m, 100 k / m), the last band
//!   closed at 100.
//! - A **level set** names contiguous ranges of the rating, easiest first, cut at stored cut
//!   points: by default easy / medium / hard / expert, cut where a public labelled scale (the
//!   Sudoku Exchange buckets) lands in its own levels best. Levels are ratings, not
//!   percentiles: a bank's percentiles and bands measure where a puzzle sits in the reference,
//!   its level what people call it.

use crate::technique::Strategy;
use std::fmt;
use std::str::FromStr;

/// Why a rating's name, a band, a percentile range, level names or cut points do not parse.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScaleError {
    /// Not a rating's name.
    #[error("unknown rating {0:?} (difficulty or hsolve)")]
    Rating(String),
    /// Not `K/M`.
    #[error("bad band {0:?}: expected K/M, e.g. 3/4")]
    BandForm(String),
    /// `K` or `M` is not a number.
    #[error("bad band {band:?}: {which} is not a number")]
    BandNumber {
        /// The band as given.
        band: String,
        /// `K` or `M`.
        which: char,
    },
    /// Not 1 <= K <= M <= 100.
    #[error("bad band {0:?}: need 1 <= K <= M <= 100")]
    BandBounds(String),
    /// Not `A..B`.
    #[error("bad percentile range {0:?}: expected A..B, e.g. 90..95")]
    RangeForm(String),
    /// A bound is not a number.
    #[error("bad percentile range {range:?}: {bound:?} is not a number")]
    RangeNumber {
        /// The range as given.
        range: String,
        /// The bound.
        bound: String,
    },
    /// Not 0 <= A < B <= 100.
    #[error("bad percentile range {0:?}: need 0 <= A < B <= 100")]
    RangeBounds(String),
    /// Not 1 to 100 names.
    #[error("bad level names {0:?}: give 1 to 100 names")]
    NameCount(String),
    /// A name with characters other than letters, digits, `-` and `_`, or too long.
    #[error("bad level name {0:?}: use 1 to {MAX_LEVEL_NAME} letters, digits, - and _")]
    Name(String),
    /// A name given twice.
    #[error("level name {name:?} appears twice in {names:?}")]
    NameTwice {
        /// The name.
        name: String,
        /// The names as given.
        names: String,
    },
    /// `extreme` not last, or alone.
    #[error("bad level names {0:?}: {EXTREME} (the puzzles a step of which assumes a value) must be the last of two or more levels")]
    Extreme(String),
    /// Not one cut point fewer than the levels cut by rating (the names but `extreme`).
    #[error("{levels} levels need {} cut points, not {cuts}", .levels - 1)]
    CutCount {
        /// The number of levels.
        levels: usize,
        /// The number of cut points.
        cuts: usize,
    },
    /// Cut points that are not finite and increasing.
    #[error("cut points must be finite and increasing: {0:?}")]
    CutOrder(Vec<f64>),
    /// A cut point that is not a number.
    #[error("bad cut point {cut:?} in {cuts:?}")]
    Cut {
        /// The cut point as given.
        cut: String,
        /// The cut points as given.
        cuts: String,
    },
}

/// The default level names, easiest first.
pub const DEFAULT_LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// The level a user adds by name, last, for the puzzles whose hardest step assumes a value (a
/// forcing chain, backtracking or a trial: `Strategy::assumes`): it shares the rating range of
/// the level below it, which keeps the puzzles solved by patterns alone.
pub const EXTREME: &str = "extreme";

/// The layout rules stored with `extreme` when it is added to the default levels: those of
/// expert without `no-assumptions`.
pub const EXTREME_LAYOUT: &str = "symmetry=rotate180 clues=24..30 clued-houses";

/// The default levels' layout rules (as `build --clues` writes them), stored with the default
/// levels when a bank is made: publishers print more clues the easier the level (32-38 for
/// their easiest, 22-27 for their hardest), while the generators leave about 30-33 whatever
/// the level. The ranges fall by level (medians about 34, 32, 30 and 28) and are wide enough
/// that a default build keeps about four fifths of its speed without them; every row, column
/// and box holds a clue, as in print (an empty box reads as a misprint); every clue pattern is
/// half-turn symmetric, as newspapers and puzzle books print (`--symmetry none` drops that rule
/// alone, about a tenth faster). Expert
/// needs no assumption (its hardest step at most an ALS chain or death blossom, as publishers'
/// hardest everyday levels); the puzzles that do are the `extreme` level's, when a bank has it.
pub const DEFAULT_LAYOUTS: [&str; 4] = [
    "symmetry=rotate180 clues=32..36 clued-houses",
    "symmetry=rotate180 clues=29..34 clued-houses",
    "symmetry=rotate180 clues=27..32 clued-houses",
    "symmetry=rotate180 clues=24..30 clued-houses no-assumptions",
];

/// Which rating a bank's percentiles and bands use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RatingKind {
    /// The project's rating beyond the paper.
    #[default]
    Difficulty,
    /// The hsolve paper's rating.
    Hsolve,
}

impl RatingKind {
    /// Both ratings.
    pub const ALL: [RatingKind; 2] = [RatingKind::Difficulty, RatingKind::Hsolve];

    /// What it is, for people.
    pub fn about(self) -> &'static str {
        match self {
            RatingKind::Difficulty => "The project's rating beyond the paper",
            RatingKind::Hsolve => "The hsolve paper's rating",
        }
    }

    /// The name stored in a bank's settings and shown to users.
    pub fn name(self) -> &'static str {
        match self {
            RatingKind::Difficulty => "difficulty",
            RatingKind::Hsolve => "hsolve",
        }
    }

    /// This rating, of a puzzle rated `difficulty` and `hsolve`.
    pub fn value(self, difficulty: f64, hsolve: f64) -> f64 {
        match self {
            RatingKind::Difficulty => difficulty,
            RatingKind::Hsolve => hsolve,
        }
    }
}

impl FromStr for RatingKind {
    type Err = ScaleError;
    fn from_str(s: &str) -> Result<Self, ScaleError> {
        match s {
            "difficulty" => Ok(RatingKind::Difficulty),
            "hsolve" => Ok(RatingKind::Hsolve),
            other => Err(ScaleError::Rating(other.to_string())),
        }
    }
}

/// A reference distribution: sorted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    sorted: Vec<f64>,
}

impl Reference {
    /// A reference from ratings in any order (finite values; at least one).
    pub fn new(mut values: Vec<f64>) -> Reference {
        assert!(!values.is_empty(), "a reference has at least one rating");
        values.sort_by(f64::total_cmp);
        Reference { sorted: values }
    }

    /// How many reference ratings lie in `[low, high)` (no bound: `None`).
    pub fn count_within(&self, low: Option<f64>, high: Option<f64>) -> usize {
        self.within(low, high).len()
    }

    /// The reference ratings in `[low, high)` (no bound: `None`), ascending.
    pub fn within(&self, low: Option<f64>, high: Option<f64>) -> &[f64] {
        let from = low.map_or(0, |l| self.sorted.partition_point(|&v| v < l));
        let to = high.map_or(self.sorted.len(), |h| self.sorted.partition_point(|&v| v < h));
        &self.sorted[from..to.max(from)]
    }

    /// The number of reference ratings.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Always false: a reference has at least one rating.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// The percentile of `rating` (0-100, see the module docs).
    pub fn percentile(&self, rating: f64) -> f64 {
        let below = self.sorted.partition_point(|&v| v < rating);
        let not_above = self.sorted.partition_point(|&v| v <= rating);
        let equal = not_above - below;
        100.0 * (below as f64 + equal as f64 / 2.0) / self.sorted.len() as f64
    }

    /// The rating at percentile `p` (0-100), by the nearest rank: the inverse of
    /// [`Reference::percentile`] up to ties.
    pub fn quantile(&self, p: f64) -> f64 {
        let n = self.sorted.len();
        let i = ((p / 100.0) * n as f64).floor().clamp(0.0, (n - 1) as f64) as usize;
        self.sorted[i]
    }
}

/// Band k of m.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Band {
    /// The band, 1-based (1 = easiest).
    pub k: u32,
    /// The number of bands.
    pub m: u32,
}

impl Band {
    /// Band `k` of `m`, if 1 <= k <= m <= 100.
    pub fn new(k: u32, m: u32) -> Option<Band> {
        (1..=100).contains(&m).then_some(())?;
        (1..=m).contains(&k).then_some(Band { k, m })
    }

    /// Its percentile interval [low, high); the last band includes 100.
    pub fn range(self) -> PercentileRange {
        PercentileRange {
            low: 100.0 * (self.k - 1) as f64 / self.m as f64,
            high: 100.0 * self.k as f64 / self.m as f64,
            closed: self.k == self.m,
        }
    }

    /// The band of `m` that percentile `p` falls in: the one whose [`Band::range`] contains
    /// it (the first guess from p m / 100 is corrected by the ranges' own arithmetic).
    pub fn of(p: f64, m: u32) -> Band {
        let mut k = ((p / 100.0 * m as f64).floor() as u32 + 1).clamp(1, m);
        while k > 1 && p < (Band { k, m }).range().low {
            k -= 1;
        }
        while k < m && p >= (Band { k, m }).range().high {
            k += 1;
        }
        Band { k, m }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.m)
    }
}

impl FromStr for Band {
    type Err = ScaleError;
    /// `K/M`, e.g. `3/4`.
    fn from_str(s: &str) -> Result<Band, ScaleError> {
        let (k, m) = s
            .split_once('/')
            .ok_or_else(|| ScaleError::BandForm(s.to_string()))?;
        let number = |x: &str, which| {
            x.trim().parse::<u32>().map_err(|_| ScaleError::BandNumber {
                band: s.to_string(),
                which,
            })
        };
        let (k, m) = (number(k, 'K')?, number(m, 'M')?);
        Band::new(k, m).ok_or_else(|| ScaleError::BandBounds(s.to_string()))
    }
}

/// A percentile interval [low, high), or [low, high] when `closed`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PercentileRange {
    /// The lower bound (included).
    pub low: f64,
    /// The upper bound.
    pub high: f64,
    /// Whether `high` is included.
    pub closed: bool,
}

impl PercentileRange {
    /// True when `p` lies in the interval.
    pub fn contains(&self, p: f64) -> bool {
        p >= self.low && (p < self.high || (self.closed && p <= self.high))
    }
}

/// A percentile for people: whole numbers as they are, others to 2 decimals.
fn short(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.2}")
    }
}

impl fmt::Display for PercentileRange {
    /// `[25, 50)`, `[66.67, 100]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let close = if self.closed { ']' } else { ')' };
        write!(f, "[{}, {}{close}", short(self.low), short(self.high))
    }
}

impl FromStr for PercentileRange {
    type Err = ScaleError;
    /// `A..B` with 0 <= A < B <= 100: [A, B), closed when B is 100.
    fn from_str(s: &str) -> Result<PercentileRange, ScaleError> {
        let (a, b) = s
            .split_once("..")
            .ok_or_else(|| ScaleError::RangeForm(s.to_string()))?;
        let num = |x: &str| -> Result<f64, ScaleError> {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| ScaleError::RangeNumber {
                    range: s.to_string(),
                    bound: x.to_string(),
                })
        };
        let (low, high) = (num(a)?, num(b)?);
        if !(0.0..100.0).contains(&low) || high <= low || high > 100.0 {
            return Err(ScaleError::RangeBounds(s.to_string()));
        }
        Ok(PercentileRange {
            low,
            high,
            closed: high == 100.0,
        })
    }
}

/// The longest level name.
pub const MAX_LEVEL_NAME: usize = 40;

/// Level names, easiest first: 1 to 100 distinct names of 1 to `MAX_LEVEL_NAME` letters,
/// digits, `-` and `_`, stored lower-case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelNames(Vec<String>);

impl Default for LevelNames {
    fn default() -> LevelNames {
        LevelNames(DEFAULT_LEVELS.iter().map(|s| s.to_string()).collect())
    }
}

impl LevelNames {
    /// The name closest to a mistyped `name` (a typo or two away, or starting the same way),
    /// for "did you mean": none when no name is close.
    pub fn closest(&self, name: &str) -> Option<&str> {
        let name = name.to_lowercase();
        self.0
            .iter()
            .map(|n| (strsim::damerau_levenshtein(&name, &n.to_lowercase()), n))
            .filter(|(d, n)| {
                *d <= (n.chars().count() / 3).max(1)
                    || (name.len() >= 3 && n.to_lowercase().starts_with(&name))
            })
            .min_by_key(|(d, _)| *d)
            .map(|(_, n)| n.as_str())
    }

    /// `; did you mean "hard"?` for a mistyped `name`, or nothing.
    pub fn did_you_mean(&self, name: &str) -> String {
        self.closest(name)
            .map(|n| format!("; did you mean {n:?}?"))
            .unwrap_or_default()
    }

    /// The names, easiest first.
    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// The number of levels.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: there is at least one level.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The index (0 = easiest) of level `name` (case-insensitive).
    pub fn index(&self, name: &str) -> Option<usize> {
        self.0
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name.trim()))
    }

    /// The index of the `extreme` level (always the last), if there is one.
    pub fn extreme(&self) -> Option<usize> {
        (self.0.len() > 1 && self.0.last().is_some_and(|n| n == EXTREME)).then(|| self.0.len() - 1)
    }

    /// The levels cut by rating: every level but `extreme`.
    pub fn rated(&self) -> &[String] {
        &self.0[..self.0.len() - usize::from(self.extreme().is_some())]
    }
}

impl fmt::Display for LevelNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}

impl FromStr for LevelNames {
    type Err = ScaleError;
    /// Comma-separated names, easiest first, e.g. `easy,medium,hard,expert`.
    fn from_str(s: &str) -> Result<LevelNames, ScaleError> {
        let names: Vec<String> = s.split(',').map(|n| n.trim().to_lowercase()).collect();
        if names.is_empty() || names.len() > 100 {
            return Err(ScaleError::NameCount(s.to_string()));
        }
        for (i, n) in names.iter().enumerate() {
            if n.is_empty()
                || n.len() > MAX_LEVEL_NAME
                || !n
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(ScaleError::Name(n.chars().take(MAX_LEVEL_NAME).collect()));
            }
            if names[..i].contains(n) {
                return Err(ScaleError::NameTwice {
                    name: n.clone(),
                    names: s.to_string(),
                });
            }
            if n == EXTREME && (i + 1 != names.len() || i == 0) {
                return Err(ScaleError::Extreme(s.to_string()));
            }
        }
        Ok(LevelNames(names))
    }
}

// BEGIN FITTED CUTS (written by examples/fit_levels.rs --write; do not edit by hand)
/// The default cuts between easy, medium, hard and expert on `difficulty`.
pub const DEFAULT_CUTS_DIFFICULTY: [f64; 3] = [2.699, 5.754, 11.0905];
/// The default cuts between easy, medium, hard and expert on hsolve.
pub const DEFAULT_CUTS_HSOLVE: [f64; 3] = [343.79, 883.28, 2717.56];
// END FITTED CUTS

/// A bank's levels: named, contiguous ranges of its rating, easiest first. With cuts
/// c_1 <= ... <= c_(m-1), level 1 holds the ratings below c_1, level i the ratings in
/// [c_(i-1), c_i), level m those from c_(m-1) up:
///
/// ```text
///   easy      medium      hard       expert
/// ------- c1 -------- c2 ------- c3 ---------->  rating
///                                  [ extreme ]   (when added: the top range's puzzles
///                                                 a step of which assumes a value)
/// ```
///
/// A last level named `extreme` is not cut by rating: it takes, from the top range, the
/// puzzles whose hardest step assumes a value (a forcing chain, backtracking, a trial), and
/// the level below it keeps the others.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelSet {
    names: LevelNames,
    cuts: Vec<f64>,
}

impl LevelSet {
    /// Levels named `names` cut at `cuts` (one fewer than the levels cut by rating, finite,
    /// non-decreasing).
    pub fn new(names: LevelNames, cuts: Vec<f64>) -> Result<LevelSet, ScaleError> {
        if cuts.len() + 1 != names.rated().len() {
            return Err(ScaleError::CutCount {
                levels: names.rated().len(),
                cuts: cuts.len(),
            });
        }
        if cuts.iter().any(|c| !c.is_finite()) || cuts.windows(2).any(|w| w[0] > w[1]) {
            return Err(ScaleError::CutOrder(cuts));
        }
        Ok(LevelSet { names, cuts })
    }

    /// The default levels of a bank rated by `rating`: easy, medium, hard and expert, cut
    /// where the Sudoku Exchange buckets fall into their own levels best (see
    /// `docs/levels.md`).
    pub fn default_for(rating: RatingKind) -> LevelSet {
        let cuts = match rating {
            RatingKind::Difficulty => DEFAULT_CUTS_DIFFICULTY,
            RatingKind::Hsolve => DEFAULT_CUTS_HSOLVE,
        };
        LevelSet {
            names: LevelNames::default(),
            cuts: cuts.to_vec(),
        }
    }

    /// Levels named `names` holding equal shares of `reference` (cut at its quantiles; the
    /// `extreme` level shares the top one's).
    pub fn equal_shares(names: LevelNames, reference: &Reference) -> LevelSet {
        let m = names.rated().len();
        let cuts = (1..m)
            .map(|k| reference.quantile(100.0 * k as f64 / m as f64))
            .collect();
        LevelSet { names, cuts }
    }

    /// The level names.
    pub fn names(&self) -> &LevelNames {
        &self.names
    }

    /// The cut points, easiest first.
    pub fn cuts(&self) -> &[f64] {
        &self.cuts
    }

    /// The number of levels.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: there is at least one level.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The index (0 = easiest) of level `name` (case-insensitive).
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.index(name)
    }

    /// The name of level `i` (0 = easiest).
    pub fn name(&self, i: usize) -> Option<&str> {
        self.names.0.get(i).map(String::as_str)
    }

    /// The level (0 = easiest) of a puzzle rated `rating` whose hardest step is `hardest`:
    /// the range its rating falls in, or `extreme` for a puzzle of the top range whose
    /// hardest step assumes a value.
    pub fn of(&self, rating: f64, hardest: Strategy) -> usize {
        let i = self.cuts.partition_point(|&c| c <= rating);
        match self.names.extreme() {
            Some(e) if i + 1 == e && hardest.assumes() => e,
            _ => i,
        }
    }

    /// The index of the `extreme` level, if the set has it.
    pub fn extreme(&self) -> Option<usize> {
        self.names.extreme()
    }

    /// The rating range [low, high) of level `i`; `None` for no bound (`extreme` has the
    /// range of the level below it).
    pub fn bounds(&self, i: usize) -> (Option<f64>, Option<f64>) {
        let i = if self.extreme() == Some(i) { i - 1 } else { i };
        (
            i.checked_sub(1).map(|j| self.cuts[j]),
            self.cuts.get(i).copied(),
        )
    }

    /// The cut points as stored in a bank's settings: comma-separated.
    pub fn cuts_text(&self) -> String {
        let v: Vec<String> = self.cuts.iter().map(|c| c.to_string()).collect();
        v.join(",")
    }

    /// Cut points as [`LevelSet::cuts_text`] writes them.
    pub fn parse_cuts(s: &str) -> Result<Vec<f64>, ScaleError> {
        if s.trim().is_empty() {
            return Ok(Vec::new());
        }
        s.split(',')
            .map(|c| {
                c.trim().parse::<f64>().map_err(|_| ScaleError::Cut {
                    cut: c.to_string(),
                    cuts: s.to_string(),
                })
            })
            .collect()
    }
}

impl fmt::Display for LevelSet {
    /// `easy < 2.69 <= medium < 5.75 <= hard < 10.06 <= expert`, and `, extreme (a step
    /// assumes a value)` when the set has it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.names.rated().iter().enumerate() {
            if i > 0 {
                write!(f, " < {} <= ", self.cuts[i - 1])?;
            }
            f.write_str(n)?;
        }
        if self.extreme().is_some() {
            write!(f, ", {EXTREME} (a step assumes a value)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_level_gets_the_closest_name() {
        let names = LevelNames::default();
        assert_eq!(names.closest("hrad"), Some("hard"));
        assert_eq!(names.closest("Medum"), Some("medium"));
        assert_eq!(names.closest("expet"), Some("expert"));
        assert_eq!(names.closest("exp"), Some("expert"));
        assert_eq!(names.closest("insane"), None);
        assert_eq!(names.closest("x"), None);
        assert_eq!(names.did_you_mean("esay"), "; did you mean \"easy\"?");
        assert_eq!(names.did_you_mean("insane"), "");
    }

    #[test]
    fn percentiles_of_a_small_reference() {
        let r = Reference::new(vec![4.0, 1.0, 2.0, 2.0, 3.0]);
        assert_eq!(r.percentile(0.5), 0.0);
        assert_eq!(r.percentile(1.0), 10.0);
        assert_eq!(r.percentile(2.0), 40.0); // 1 below, 2 equal
        assert_eq!(r.percentile(2.5), 60.0);
        assert_eq!(r.percentile(9.0), 100.0);
        assert_eq!(r.quantile(0.0), 1.0);
        assert_eq!(r.quantile(100.0), 4.0);
    }

    #[test]
    fn bands_partition_the_percentiles() {
        let b: Band = "3/4".parse().unwrap();
        assert_eq!(b, Band { k: 3, m: 4 });
        assert_eq!(b.to_string(), "3/4");
        let r = b.range();
        assert!(r.contains(50.0) && r.contains(74.99) && !r.contains(75.0) && !r.contains(49.9));
        assert!(Band { k: 4, m: 4 }.range().contains(100.0));
        for m in [1, 3, 4, 7, 50, 90, 100] {
            for i in 0..=10_000 {
                let p = i as f64 / 100.0;
                let inside: Vec<u32> = (1..=m)
                    .filter(|&k| Band { k, m }.range().contains(p))
                    .collect();
                assert_eq!(inside, vec![Band::of(p, m).k], "{p} of {m}");
            }
        }
        for bad in ["0/4", "5/4", "3", "a/4", "1/0", "1/101"] {
            assert!(bad.parse::<Band>().is_err(), "{bad}");
        }
    }

    #[test]
    fn percentile_ranges_and_levels_parse() {
        let r: PercentileRange = "90..95".parse().unwrap();
        assert!(r.contains(90.0) && !r.contains(95.0));
        assert!("95..100"
            .parse::<PercentileRange>()
            .unwrap()
            .contains(100.0));
        for bad in ["95..90", "-1..5", "5..101", "5", "a..b", "5..5"] {
            assert!(bad.parse::<PercentileRange>().is_err(), "{bad}");
        }
        let l = LevelSet::default_for(RatingKind::Difficulty);
        assert_eq!(l.index("Hard"), Some(2));
        assert_eq!(l.name(3), Some("expert"));
        assert_eq!(l.index("fiendish"), None);
        let n: LevelNames = "gentle, tough".parse().unwrap();
        assert_eq!(n.to_string(), "gentle,tough");
        assert!("a,a".parse::<LevelNames>().is_err());
        assert!("a,,b".parse::<LevelNames>().is_err());
    }

    #[test]
    fn levels_are_contiguous_rating_ranges() {
        let l = LevelSet::new("a,b,c".parse().unwrap(), vec![2.0, 5.0]).unwrap();
        assert_eq!(l.to_string(), "a < 2 <= b < 5 <= c");
        for (r, want) in [
            (-1.0, 0),
            (1.99, 0),
            (2.0, 1),
            (4.99, 1),
            (5.0, 2),
            (1e9, 2),
        ] {
            assert_eq!(l.of(r, Strategy::AlsChain), want, "{r}");
            assert_eq!(l.of(r, Strategy::DigitForcingChain), want, "{r}");
            let (lo, hi) = l.bounds(want);
            assert!(lo.is_none_or(|c| c <= r) && hi.is_none_or(|c| r < c));
        }
        assert_eq!(LevelSet::parse_cuts(&l.cuts_text()).unwrap(), l.cuts());
        assert!(LevelSet::new("a,b".parse().unwrap(), vec![]).is_err());
        assert!(LevelSet::new("a,b,c".parse().unwrap(), vec![3.0, 2.0]).is_err());
        let r = Reference::new((0..100).map(f64::from).collect());
        let e = LevelSet::equal_shares("a,b,c,d".parse().unwrap(), &r);
        assert_eq!(e.cuts(), &[25.0, 50.0, 75.0]);
    }

    #[test]
    fn extreme_takes_the_top_range_puzzles_that_assume_a_value() {
        let names: LevelNames = "a,b,c,extreme".parse().unwrap();
        assert_eq!(names.extreme(), Some(3));
        assert_eq!(names.rated().len(), 3);
        assert!(LevelSet::new(names.clone(), vec![2.0, 5.0, 9.0]).is_err());
        let l = LevelSet::new(names.clone(), vec![2.0, 5.0]).unwrap();
        assert_eq!(l.to_string(), "a < 2 <= b < 5 <= c, extreme (a step assumes a value)");
        assert_eq!(l.bounds(3), l.bounds(2));
        assert_eq!(l.bounds(2), (Some(5.0), None));
        for s in Strategy::ALL {
            // Below the top range, the rating alone decides.
            assert_eq!(l.of(1.0, s), 0);
            assert_eq!(l.of(4.0, s), 1);
            assert_eq!(l.of(7.0, s), if s.assumes() { 3 } else { 2 }, "{s:?}");
        }
        let r = Reference::new((0..100).map(f64::from).collect());
        let e = LevelSet::equal_shares(names, &r);
        assert_eq!(e.cuts().len(), 2);
        // Extreme is the last of two or more levels; a set without it is unchanged.
        for bad in ["extreme", "extreme,a", "a,extreme,b"] {
            assert!(bad.parse::<LevelNames>().is_err(), "{bad}");
        }
        let plain: LevelNames = "a,extreme-ish".parse().unwrap();
        assert_eq!((plain.extreme(), plain.rated().len()), (None, 2));
    }
}
