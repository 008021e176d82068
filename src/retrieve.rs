//! Retrieval: random unserved puzzles of a band, a percentile range or a named level, for the
//! app that asks the bank for "a puzzle in band 3 of 4" (`pseudoku get`).

use crate::levels::{Band, LevelSet, PercentileRange, RatingKind};
use crate::rng::Rng;
use crate::store::{self, Served};

/// What to retrieve.
#[derive(Clone, Debug, PartialEq)]
pub enum Selector {
    /// Band k of m.
    Band(Band),
    /// A percentile interval.
    Percentile(PercentileRange),
    /// A level of the bank's level names.
    Level(String),
}

impl Selector {
    /// The percentile interval it stands for in a bank with these level names.
    pub fn range(&self, levels: &LevelSet) -> anyhow::Result<PercentileRange> {
        Ok(match self {
            Selector::Band(b) => b.range(),
            Selector::Percentile(r) => *r,
            Selector::Level(name) => levels
                .band(name)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "no level {name:?} in this bank (its levels: {levels}; change them with \
                         `pseudoku calibrate --levels`)"
                    )
                })?
                .range(),
        })
    }
}

/// Up to `count` random unserved puzzles of `selector` from the open bank `conn` (see
/// [`store::take`]); with `mark`, recorded as served atomically. Returns the interval used,
/// the bank's rating and the puzzles (fewer than `count` when the range runs out).
pub fn get(
    conn: &rusqlite::Connection,
    selector: &Selector,
    count: usize,
    mark: bool,
    rng: &mut Rng,
) -> anyhow::Result<(PercentileRange, RatingKind, Vec<Served>)> {
    let (rating, levels) = store::level_settings(conn)?;
    let range = selector.range(&levels)?;
    let puzzles = store::take(conn, rating, range, count, mark, rng)?;
    Ok((range, rating, puzzles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_resolve_to_ranges() {
        let l = LevelSet::default();
        let band = Selector::Band("2/4".parse().unwrap());
        assert_eq!(
            band.range(&l).unwrap(),
            Selector::Level("medium".into()).range(&l).unwrap()
        );
        assert!(Selector::Level("insane".into()).range(&l).is_err());
        let p: PercentileRange = "90..95".parse().unwrap();
        assert_eq!(Selector::Percentile(p).range(&l).unwrap(), p);
    }
}
