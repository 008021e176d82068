//! Levels from play (`calibrate --from-play`): the puzzles players have rated, each labelled
//! by its learned rating, for the labelled fit ([`super::labelled::fit_examples`]). The
//! played puzzles keep their levels' sizes (as many of each level as the bank's levels give
//! them now) but are ordered by human time: the easiest by learned rating fill the first
//! level, and so on. The levels fitted on them (cut points on the bank's rating, or the level
//! model on every feature) then level every puzzle of the bank, played or not, as players
//! found them.

use super::{Levels, LevelsError};
use crate::grid::Puzzle;
use crate::play::Rated;
use crate::store::Bank;

/// The fewest results a puzzle needs to label a level by default.
pub const MIN_RESULTS: u64 = 5;

/// The labelled examples of the played puzzles `learned` (id and learned rating, each with
/// enough results) of the bank `conn`: `(where, puzzle, level name)`.
pub fn examples(
    conn: &Bank,
    learned: &[(i64, Rated)],
) -> Result<Vec<(String, Puzzle, String)>, LevelsError> {
    let levels = Levels::read(conn)?;
    let mut found = Vec::with_capacity(learned.len());
    for &(id, rated) in learned {
        let row = crate::store::retrieval::by_id(conn, levels.rating, id)?;
        if let Some(row) = row {
            if let Some(level) = row.level {
                found.push((id, rated.glicko.rating, row.puzzle, level));
            }
        }
    }
    // Each level's size among them, now.
    let k = levels.set.len();
    let mut sizes = vec![0usize; k];
    for &(_, _, _, level) in &found {
        sizes[(level as usize).min(k - 1)] += 1;
    }
    found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let mut out = Vec::with_capacity(found.len());
    let mut level = 0;
    let mut filled = 0;
    for (id, rating, puzzle, _) in found {
        while level + 1 < k && filled >= sizes[level] {
            level += 1;
            filled = 0;
        }
        filled += 1;
        let name = levels.set.name(level).unwrap_or_default().to_string();
        out.push((format!("puzzle {id} (learned rating {rating:.0})"), puzzle, name));
    }
    Ok(out)
}
