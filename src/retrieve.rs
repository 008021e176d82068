//! Retrieval: random unserved puzzles of a band, a percentile range or a named level, for the
//! app that asks the bank for "a hard puzzle" (`pseudoku get`).

use crate::levels::{Band, LevelSet, Levels, LevelsError, PercentileRange, RatingKind};
use crate::rng::Rng;
use crate::store::retrieval::Within;
use crate::store::{self, Served, StoreError};

/// What can go wrong in retrieval.
#[derive(Debug, thiserror::Error)]
pub enum RetrieveError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank has no level of that name.
    #[error(transparent)]
    Levels(#[from] LevelsError),
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
    /// The puzzles it stands for in a bank with these levels.
    pub fn within(&self, levels: &LevelSet) -> Result<Within, RetrieveError> {
        Ok(match self {
            Selector::Band(b) => Within::Percentiles(b.range()),
            Selector::Percentile(r) => Within::Percentiles(*r),
            Selector::Level(name) => {
                Within::Level(
                    levels
                        .index(name)
                        .ok_or_else(|| LevelsError::UnknownLevel {
                            name: name.clone(),
                            levels: levels.names().clone(),
                        })? as u32,
                )
            }
        })
    }

    /// How messages name it: `level hard (5.75 <= difficulty < 10.06)` or `percentiles
    /// [90, 95)`.
    pub fn describe(&self, levels: &LevelSet, rating: RatingKind) -> String {
        match (self, self.within(levels)) {
            (Selector::Level(l), Ok(Within::Level(i))) => {
                format!("level {l} ({})", range_text(levels, i as usize, rating))
            }
            (Selector::Band(b), _) => format!("band {b} (percentiles {})", b.range()),
            (Selector::Percentile(r), _) => format!("percentiles {r}"),
            (Selector::Level(l), _) => format!("level {l}"),
        }
    }
}

/// Level `i`'s rating range for people: `5.75 <= difficulty < 10.06`.
pub fn range_text(levels: &LevelSet, i: usize, rating: RatingKind) -> String {
    let name = rating.name();
    match levels.bounds(i) {
        (None, None) => format!("any {name}"),
        (None, Some(h)) => format!("{name} < {h}"),
        (Some(l), None) => format!("{name} >= {l}"),
        (Some(l), Some(h)) => format!("{l} <= {name} < {h}"),
    }
}

/// Up to `count` random unserved puzzles of `selector` from the open bank `conn` (see
/// [`store::retrieval::take`]); with `mark`, recorded as served atomically. Returns the
/// bank's levels and rating and the puzzles (fewer than `count` when the selection runs out).
pub fn get(
    conn: &rusqlite::Connection,
    selector: &Selector,
    count: usize,
    mark: bool,
    rng: &mut Rng,
) -> Result<(LevelSet, RatingKind, Vec<Served>), RetrieveError> {
    let scale = Levels::read(conn)?;
    let within = selector.within(&scale.set)?;
    let mut puzzles = store::retrieval::take(conn, scale.measure(), within, count, mark, rng)?;
    for p in &mut puzzles {
        name_level(p, &scale.set);
        solve(p);
    }
    Ok((scale.set, scale.rating, puzzles))
}

/// Fills in a handed-out puzzle's solution (the bank does not store it: solving takes a few
/// microseconds).
pub fn solve(p: &mut Served) {
    p.solution = solution_of(&p.puzzle);
}

/// The solution (81 digits) of a stored puzzle's line; empty if it has not exactly one (which
/// `verify` reports).
pub fn solution_of(puzzle: &str) -> String {
    crate::grid::Puzzle::parse_line(puzzle)
        .ok()
        .and_then(|q| crate::solve::solve(&q).unique())
        .map(|g| g.to_line())
        .unwrap_or_default()
}

/// Names a handed-out puzzle's level on the bank's `levels`.
fn name_level(p: &mut Served, levels: &LevelSet) {
    p.level = p
        .level_index
        .and_then(|i| levels.name(i as usize))
        .unwrap_or_default()
        .to_string();
}

/// The puzzle with bank id `id`, served or not, with its level's name (`get --id`); marked
/// served when `mark`. `None` when no row has that id.
pub fn by_id(
    conn: &rusqlite::Connection,
    id: i64,
    mark: bool,
) -> Result<Option<Served>, RetrieveError> {
    let scale = Levels::read(conn)?;
    let Some(mut p) = store::retrieval::by_id(conn, scale.measure(), id)? else {
        return Ok(None);
    };
    name_level(&mut p, &scale.set);
    solve(&mut p);
    if mark {
        store::retrieval::mark_served(conn, id)?;
    }
    Ok(Some(p))
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
    fn selectors_resolve() {
        let l = LevelSet::default_for(RatingKind::Difficulty);
        let band = Selector::Band("2/4".parse().unwrap());
        assert_eq!(
            band.within(&l).unwrap(),
            Within::Percentiles("25..50".parse().unwrap())
        );
        assert_eq!(
            Selector::Level("Hard".into()).within(&l).unwrap(),
            Within::Level(2)
        );
        assert!(Selector::Level("insane".into()).within(&l).is_err());
        let p: PercentileRange = "90..95".parse().unwrap();
        assert_eq!(
            Selector::Percentile(p).within(&l).unwrap(),
            Within::Percentiles(p)
        );
        let easy = Selector::Level("easy".into()).describe(&l, RatingKind::Difficulty);
        assert!(easy.starts_with("level easy (difficulty < "), "{easy}");
    }
}
