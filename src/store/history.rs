//! Per-user history (`serve`): the classes each app user has been given, once per user and
//! class, and draws among the puzzles of a range whose class a user has not had yet. Separate
//! from `served_at`, the publisher's global flag.

use super::retrieval::{first_row, row_columns, Measure, PuzzleRow, Selection, SPAN};
use super::Result;
use crate::canon::Key;
use crate::rng::Rng;
use rusqlite::{params_from_iter, Connection};

/// Random draws by id before the draw lists the range (see [`draw`]).
const TRIES: u32 = 64;

/// A puzzle of `within` (measured by `measure`) whose class `user` has never been given,
/// uniformly among those; `None` only when, as the bank stood at the draw, the user had had
/// every one. Reads only, in one read transaction (one snapshot of the bank): [`record`]
/// makes it the user's, and a delivery of the same class to the same user meanwhile makes that
/// record refuse it (the caller draws again).
///
/// Random ids of the table's span are tried first (a hit is uniform among the puzzles left);
/// after `TRIES` misses the ids left are listed, the range's ids (through the level or rating
/// index, which hold the ids) less the ids the user was given (the user's rows of the
/// history, made into a temporary index), and one is picked uniformly and checked by its
/// class.
pub fn draw(
    conn: &Connection,
    measure: Measure,
    within: impl Into<Selection>,
    user: &str,
    rng: &mut Rng,
) -> Result<Option<PuzzleRow>> {
    // One snapshot for the whole draw: what the listing finds left is still left when it is
    // read back, whatever other requests record meanwhile.
    let snapshot = conn.unchecked_transaction()?;
    let found = draw_in(conn, measure, within.into(), user, rng)?;
    snapshot.finish()?;
    Ok(found)
}

/// [`draw`], on the snapshot its caller holds.
fn draw_in(
    conn: &Connection,
    measure: Measure,
    within: Selection,
    user: &str,
    rng: &mut Rng,
) -> Result<Option<PuzzleRow>> {
    let (cond, params) = within.any_condition(measure);
    let n = params.len();
    let by_id = format!(
        "SELECT {} FROM puzzles p WHERE p.id = ?{} AND {cond} AND NOT EXISTS \
         (SELECT 1 FROM user_history h WHERE h.user = ?{} AND h.canon_key = p.canon_key)",
        row_columns(measure.rating),
        n + 1,
        n + 2
    );
    let with = |id: i64| {
        let mut p = params.clone();
        p.push(id.into());
        p.push(user.to_string().into());
        params_from_iter(p)
    };
    let (lo, hi): (Option<i64>, Option<i64>) =
        conn.query_row(SPAN, [], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached(&by_id)?;
    if let Ok(span) = u32::try_from(hi - lo + 1) {
        for _ in 0..TRIES {
            let id = lo + i64::from(rng.below(span));
            if let Some(found) = first_row(&mut stmt.query(with(id))?, measure.rating)? {
                return Ok(Some(found));
            }
        }
    }
    // A class is stored once in a bank (its key is unique), so the ids a user was given are
    // the classes the user had: the range's ids less those, each checked by its class below.
    let (list_cond, _) = within.any_list_condition(measure);
    let list = format!(
        "SELECT id FROM puzzles WHERE {list_cond} \
         AND id NOT IN (SELECT puzzle_id FROM user_history WHERE user = ?{})",
        n + 1
    );
    let mut list_params = params.clone();
    list_params.push(user.to_string().into());
    let mut ids: Vec<i64> = conn
        .prepare_cached(&list)?
        .query_map(params_from_iter(list_params), |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    while !ids.is_empty() {
        let id = ids.swap_remove(rng.index(ids.len()));
        if let Some(found) = first_row(&mut stmt.query(with(id))?, measure.rating)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// Records that `user` was given puzzle `puzzle_id` of class `canon_key`; false (changing
/// nothing) when the user already had that class.
pub fn record(conn: &Connection, user: &str, canon_key: &Key, puzzle_id: i64) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO user_history (user, canon_key, puzzle_id) VALUES (?1, ?2, ?3)",
        )?
        .execute(rusqlite::params![user, &canon_key.0[..], puzzle_id])?;
    Ok(n == 1)
}
