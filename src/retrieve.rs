//! Retrieval: random unserved puzzles of a band, a percentile range or a named level, for the
//! app that asks the bank for "a puzzle in band 3 of 4" (`pseudoku get`).

use crate::levels::{Band, LevelSet, PercentileRange, RatingKind};
use crate::rng::Rng;
use crate::store::{self, Served, StoreError};

/// What can go wrong in retrieval.
#[derive(Debug, thiserror::Error)]
pub enum RetrieveError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank has no level of that name.
    #[error(
        "no level {name:?} in this bank (its levels: {levels}; change them with \
         `pseudoku calibrate --levels`)"
    )]
    UnknownLevel {
        /// The name asked for.
        name: String,
        /// The bank's level names.
        levels: LevelSet,
    },
}

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
    pub fn range(&self, levels: &LevelSet) -> Result<PercentileRange, RetrieveError> {
        Ok(match self {
            Selector::Band(b) => b.range(),
            Selector::Percentile(r) => *r,
            Selector::Level(name) => levels
                .band(name)
                .ok_or_else(|| RetrieveError::UnknownLevel {
                    name: name.clone(),
                    levels: levels.clone(),
                })?
                .range(),
        })
    }

    /// How messages name it: `level hard [50, 75)` or `percentiles [90, 95)`.
    pub fn describe(&self, range: PercentileRange) -> String {
        match self {
            Selector::Level(l) => format!("level {l} {range}"),
            _ => format!("percentiles {range}"),
        }
    }
}

/// Up to `count` random unserved puzzles of `selector` from the open bank `conn` (see
/// [`store::retrieval::take`]); with `mark`, recorded as served atomically. Returns the
/// interval used, the bank's rating and the puzzles (fewer than `count` when the range runs
/// out).
pub fn get(
    conn: &rusqlite::Connection,
    selector: &Selector,
    count: usize,
    mark: bool,
    rng: &mut Rng,
) -> Result<(PercentileRange, RatingKind, Vec<Served>), RetrieveError> {
    let (rating, levels) = store::settings::levels(conn)?;
    let range = selector.range(&levels)?;
    let mut puzzles = store::retrieval::take(conn, rating, range, count, mark, rng)?;
    let m = levels.names().len() as u32;
    for p in &mut puzzles {
        p.level = levels
            .name(Band::of(p.percentile, m))
            .unwrap_or_default()
            .to_string();
    }
    Ok((range, rating, puzzles))
}

/// Writes handed-out puzzles as `get` prints them: `puzzle level difficulty hsolve
/// percentile id` per line, tab-separated, or one JSON object per line (keys `id puzzle
/// solution level difficulty hsolve percentile tier`).
pub fn write(out: &mut impl std::io::Write, puzzles: &[Served], json: bool) -> std::io::Result<()> {
    for p in puzzles {
        if json {
            let line = serde_json::to_string(p).expect("a served puzzle serializes");
            writeln!(out, "{line}")?;
        } else {
            let difficulty = p.difficulty.map_or("-".to_string(), |d| d.to_string());
            writeln!(
                out,
                "{}\t{}\t{difficulty}\t{}\t{:.3}\t{}",
                p.puzzle, p.level, p.hsolve, p.percentile, p.id
            )?;
        }
    }
    Ok(())
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
