//! The variety rule: no two puzzles from one seed or of one solution grid within any window
//! of days (`--variety-days`), checked against what is recorded around each day and kept by
//! the draw of each slot.

use super::Result;
use crate::calendar::Date;
use crate::canon::Key;
use crate::grid::Grid;
use crate::retrieve::{Draws, Handout, Recipient};
use crate::rng::Rng;
use crate::store::retrieval::Selection;
use crate::store::{self, Bank};
use std::collections::{HashMap, HashSet};

/// The default variety window (`--variety-days`): no two puzzles from one seed or of one
/// solution grid within any this many consecutive days.
pub const VARIETY_DAYS: u32 = 7;

/// The longest variety window.
pub const MAX_VARIETY_DAYS: u32 = 366;

/// A recorded or newly drawn puzzle of a day, with what the variety rule compares.
#[derive(Clone, Debug)]
pub(super) struct DayPuzzle {
    pub(super) slot: u32,
    pub(super) level: String,
    pub(super) grid_key: Key,
    pub(super) seed_id: Option<i64>,
}

/// The class key of a solution grid.
pub(crate) fn grid_key(solution: &Grid) -> Key {
    crate::canon::canonical_grid(solution).key()
}

/// The current records of the days `from..=to` (day numbers), by day, in slot order.
pub(super) fn recorded(conn: &Bank, from: i64, to: i64) -> Result<HashMap<i64, Vec<DayPuzzle>>> {
    let rows = store::batches::recorded(conn, Date::from_days(from), Date::from_days(to))?;
    let mut out: HashMap<i64, Vec<DayPuzzle>> = HashMap::new();
    for r in rows {
        out.entry(r.date.days()).or_default().push(DayPuzzle {
            slot: r.slot,
            level: r.level,
            grid_key: r.grid_key,
            seed_id: r.seed_id,
        });
    }
    Ok(out)
}

/// A puzzle of `within` for `day` that keeps the variety rule against `placed`: drawn
/// uniformly among the unserved puzzles of `within` that keep it (uniform draws without
/// replacement, skipping those the rule excludes), and marked served.
pub(super) fn choose(
    conn: &Bank,
    scale: &crate::levels::Levels,
    within: Selection,
    placed: &HashMap<i64, Vec<DayPuzzle>>,
    (day, window): (i64, i64),
    rng: &mut Rng,
) -> Result<Option<Handout>> {
    let near: Vec<&DayPuzzle> = (day - window..=day + window)
        .filter_map(|d| placed.get(&d))
        .flatten()
        .collect();
    let seeds: HashSet<i64> = near.iter().filter_map(|p| p.seed_id).collect();
    let grids: HashSet<Key> = near.iter().map(|p| p.grid_key).collect();
    let keep = |h: &Handout| {
        Ok(!h.seed_id.is_some_and(|s| seeds.contains(&s))
            && !grids.contains(&grid_key(&h.solution)))
    };
    let mut draws = Draws::new(conn, scale, within, Recipient::Slot { keep: &keep })?;
    Ok(draws.next(rng)?)
}
