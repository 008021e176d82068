//! The scale a bank measures difficulty on: which rating it uses, the reference distribution,
//! percentiles, bands and level names. Plain values: nothing here generates or rates a puzzle.
//!
//! - The **percentile** of a rating r against a reference of n ratings is
//!   100 (below + equal / 2) / n, where `below` reference ratings are lower than r and `equal`
//!   are the same: 0 below every reference puzzle, 100 above every one, 50 at the median.
//! - **Band k of m** is the percentile interval [100 (k - 1) / m, 100 k / m), the last band
//!   closed at 100.
//! - A **level set** names the m bands of a split, easiest first: by default
//!   easy / medium / hard / expert (4 bands).

use std::fmt;
use std::str::FromStr;

/// The default level names, easiest first.
pub const DEFAULT_LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// Which rating a bank's percentiles and bands use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RatingKind {
    /// The project's rating beyond the paper (the default).
    #[default]
    Difficulty,
    /// The hsolve paper's rating.
    Hsolve,
}

impl RatingKind {
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
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "difficulty" => Ok(RatingKind::Difficulty),
            "hsolve" => Ok(RatingKind::Hsolve),
            other => Err(format!("unknown rating {other:?} (difficulty or hsolve)")),
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
    type Err = String;
    /// `K/M`, e.g. `3/4`.
    fn from_str(s: &str) -> Result<Band, String> {
        let (k, m) = s
            .split_once('/')
            .ok_or_else(|| format!("bad band {s:?}: expected K/M, e.g. 3/4"))?;
        let (k, m): (u32, u32) = (
            k.trim()
                .parse()
                .map_err(|_| format!("bad band {s:?}: K is not a number"))?,
            m.trim()
                .parse()
                .map_err(|_| format!("bad band {s:?}: M is not a number"))?,
        );
        Band::new(k, m).ok_or_else(|| format!("bad band {s:?}: need 1 <= K <= M <= 100"))
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
    type Err = String;
    /// `A..B` with 0 <= A < B <= 100: [A, B), closed when B is 100.
    fn from_str(s: &str) -> Result<PercentileRange, String> {
        let (a, b) = s
            .split_once("..")
            .ok_or_else(|| format!("bad percentile range {s:?}: expected A..B, e.g. 90..95"))?;
        let num = |x: &str| -> Result<f64, String> {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("bad percentile range {s:?}: {x:?} is not a number"))
        };
        let (low, high) = (num(a)?, num(b)?);
        if !(0.0..100.0).contains(&low) || high <= low || high > 100.0 {
            return Err(format!(
                "bad percentile range {s:?}: need 0 <= A < B <= 100"
            ));
        }
        Ok(PercentileRange {
            low,
            high,
            closed: high == 100.0,
        })
    }
}

/// Named levels: equal bands, easiest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSet {
    names: Vec<String>,
}

impl Default for LevelSet {
    fn default() -> LevelSet {
        LevelSet {
            names: DEFAULT_LEVELS.iter().map(|s| s.to_string()).collect(),
        }
    }
}

impl LevelSet {
    /// The level names, easiest first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The band of level `name` (case-insensitive).
    pub fn band(&self, name: &str) -> Option<Band> {
        let i = self
            .names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name.trim()))?;
        Band::new(i as u32 + 1, self.names.len() as u32)
    }

    /// The name of band k of this set's split.
    pub fn name(&self, band: Band) -> Option<&str> {
        (band.m as usize == self.names.len())
            .then(|| self.names.get(band.k as usize - 1).map(String::as_str))
            .flatten()
    }
}

impl fmt::Display for LevelSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.names.join(","))
    }
}

impl FromStr for LevelSet {
    type Err = String;
    /// Comma-separated names, easiest first, e.g. `easy,medium,hard,expert`: 1 to 100 distinct
    /// names of letters, digits, `-` and `_`.
    fn from_str(s: &str) -> Result<LevelSet, String> {
        let names: Vec<String> = s.split(',').map(|n| n.trim().to_lowercase()).collect();
        if names.is_empty() || names.len() > 100 {
            return Err(format!("bad level names {s:?}: give 1 to 100 names"));
        }
        for (i, n) in names.iter().enumerate() {
            if n.is_empty()
                || !n
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(format!(
                    "bad level name {n:?} in {s:?}: use letters, digits, - and _"
                ));
            }
            if names[..i].contains(n) {
                return Err(format!("level name {n:?} appears twice in {s:?}"));
            }
        }
        Ok(LevelSet { names })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let l = LevelSet::default();
        assert_eq!(l.band("Hard"), Some(Band { k: 3, m: 4 }));
        assert_eq!(l.name(Band { k: 4, m: 4 }), Some("expert"));
        assert_eq!(l.band("fiendish"), None);
        let l: LevelSet = "gentle, tough".parse().unwrap();
        assert_eq!(l.to_string(), "gentle,tough");
        assert!("a,a".parse::<LevelSet>().is_err());
        assert!("a,,b".parse::<LevelSet>().is_err());
    }
}
