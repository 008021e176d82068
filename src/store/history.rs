//! Per-user history (`serve`): the classes each app user has been given, once per user and
//! class, and draws among the puzzles of a range whose class a user has not had yet. Separate
//! from `served_at`, the publisher's global flag.

use super::retrieval::{first_row, row_columns, span, Measure, PuzzleRow, Selection};
use super::Result;
use crate::canon::Key;
use crate::rng::Rng;
use rusqlite::{params_from_iter, OptionalExtension};
use super::Bank;

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
    bank: &Bank,
    measure: Measure,
    within: impl Into<Selection>,
    user: &str,
    rng: &mut Rng,
) -> Result<Option<PuzzleRow>> {
    let conn = &bank.conn;
    // One snapshot for the whole draw: what the listing finds left is still left when it is
    // read back, whatever other requests record meanwhile.
    let snapshot = conn.unchecked_transaction()?;
    let found = draw_in(bank, measure, within.into(), user, rng)?;
    snapshot.finish()?;
    Ok(found)
}

/// The SQL condition that the puzzle `p` is not taken by the user named by parameter
/// `?{user}`: never given to them, and not a daily puzzle (everyone's, handed out by the daily
/// route only).
pub(super) fn untaken(user: usize) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM user_history h WHERE h.user = ?{user} \
         AND h.canon_key = p.canon_key) \
         AND NOT EXISTS (SELECT 1 FROM daily d WHERE d.canon_key = p.canon_key)"
    )
}

/// [`draw`], on the snapshot its caller holds.
fn draw_in(
    bank: &Bank,
    measure: Measure,
    within: Selection,
    user: &str,
    rng: &mut Rng,
) -> Result<Option<PuzzleRow>> {
    let conn = &bank.conn;
    let (cond, params) = within.any_condition(measure);
    let n = params.len();
    // A daily puzzle is everyone's: it is handed out by the daily route only, never as a
    // user's new puzzle (a user who played it would be given it again).
    let by_id = format!(
        "SELECT {} FROM puzzles p WHERE p.id = ?{} AND {cond} AND {}",
        row_columns(measure.rating),
        n + 1,
        untaken(n + 2)
    );
    let with = |id: i64| {
        let mut p = params.clone();
        p.push(id.into());
        p.push(user.to_string().into());
        params_from_iter(p)
    };
    let mut stmt = conn.prepare_cached(&by_id)?;
    // An empty table lists nothing below; a span too wide for random ids goes straight there.
    if let Some((lo, span)) = span(bank)? {
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
         AND id NOT IN (SELECT puzzle_id FROM user_history WHERE user = ?{}) \
         AND id NOT IN (SELECT puzzle_id FROM daily)",
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
pub fn record(bank: &Bank, user: &str, canon_key: &Key, puzzle_id: i64) -> Result<bool> {
    let conn = &bank.conn;
    let n = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO user_history (user, canon_key, puzzle_id) VALUES (?1, ?2, ?3)",
        )?
        .execute(rusqlite::params![user, &canon_key.0[..], puzzle_id])?;
    Ok(n == 1)
}

/// Whether `user` was given the class `key`: a delivery, or the daily puzzle the user asked
/// for (asking is its delivery). What a result and a solution need.
pub fn given(bank: &Bank, user: &str, key: &Key) -> Result<bool> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached("SELECT 1 FROM user_history WHERE user = ?1 AND canon_key = ?2")?
        .query_row(rusqlite::params![user, &key.0[..]], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Whether the class `key` is not to be drawn for `user`: the user was given it, or it is a
/// daily puzzle (everyone's, handed out by date only).
pub fn taken(bank: &Bank, user: &str, key: &Key) -> Result<bool> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM user_history WHERE user = ?1 AND canon_key = ?2) \
             OR EXISTS (SELECT 1 FROM daily WHERE canon_key = ?2)",
        )?
        .query_row(rusqlite::params![user, &key.0[..]], |r| r.get(0))?)
}

/// Whether `user` has been given anything: a user the bank knows.
pub fn known(bank: &Bank, user: &str) -> Result<bool> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached("SELECT 1 FROM user_history WHERE user = ?1 LIMIT 1")?
        .query_row([user], |_| Ok(()))
        .optional()?
        .is_some())
}

/// One delivery of the per-user history, as the bank and a fleet's history keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The app's user id.
    pub user: String,
    /// The class given.
    pub key: Key,
    /// The puzzle's id in the bank.
    pub puzzle_id: i64,
    /// When, `YYYY-MM-DDTHH:MM:SS.SSSZ` in UTC.
    pub given_at: String,
}

/// Up to `limit` deliveries of the bank's per-user history after `after` (a user and class),
/// in the order of user and class: a page of a history too large to hold at once.
pub fn page(bank: &Bank, after: Option<&(String, Key)>, limit: usize) -> Result<Vec<Delivery>> {
    let conn = &bank.conn;
    let (user, key) = match after {
        Some((user, key)) => (user.as_str(), &key.0[..]),
        None => ("", &[][..]),
    };
    let mut stmt = conn.prepare_cached(
        "SELECT user, canon_key, puzzle_id, given_at FROM user_history \
         WHERE (user, canon_key) > (?1, ?2) ORDER BY user, canon_key LIMIT ?3",
    )?;
    let rows = stmt.query_map(rusqlite::params![user, key, limit as i64], |r| {
        let key: Vec<u8> = r.get(1)?;
        Ok(Delivery {
            user: r.get(0)?,
            key: Key(key
                .try_into()
                .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(1, 0))?),
            puzzle_id: r.get(2)?,
            given_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds `rows` to the bank's per-user history, keeping any row there for a user and class:
/// how many were added, and how many were left out because the bank has no puzzle of their
/// class (a history recorded against another bank). A row's puzzle id is this bank's puzzle
/// of its class. The caller holds a write transaction.
pub fn add(bank: &Bank, rows: &[Delivery]) -> Result<(u64, u64)> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "INSERT OR IGNORE INTO user_history (user, canon_key, puzzle_id, given_at) \
         SELECT ?1, canon_key, id, ?3 FROM puzzles WHERE canon_key = ?2",
    )?;
    let (mut added, mut lacking) = (0, 0);
    for d in rows {
        // Nothing inserted: the user had the class already, or the bank lacks it.
        match stmt.execute(rusqlite::params![d.user, &d.key.0[..], d.given_at])? {
            0 if id_of(bank, &d.key)?.is_none() && !given(bank, &d.user, &d.key)? => {
                lacking += 1
            }
            n => added += n as u64,
        }
    }
    Ok((added, lacking))
}

/// Up to `want` distinct puzzles of `within` (measured by `measure`), each uniform among the
/// range, from at most `TRIES` random ids of the table's span, whatever any history says:
/// the candidates of a draw whose history is kept elsewhere (a fleet's), which keeps the
/// first its history has not given. Reads only.
pub fn sample(
    bank: &Bank,
    measure: Measure,
    within: impl Into<Selection>,
    want: usize,
    rng: &mut Rng,
) -> Result<Vec<PuzzleRow>> {
    let conn = &bank.conn;
    let within = within.into();
    let (cond, params) = within.any_condition(measure);
    let by_id = format!(
        "SELECT {} FROM puzzles p WHERE p.id = ?{} AND {cond}",
        row_columns(measure.rating),
        params.len() + 1
    );
    let Some((lo, span)) = span(bank)? else {
        return Ok(Vec::new());
    };
    let mut stmt = conn.prepare_cached(&by_id)?;
    let mut found: Vec<PuzzleRow> = Vec::with_capacity(want);
    for _ in 0..TRIES {
        if found.len() >= want {
            break;
        }
        let id = lo + i64::from(rng.below(span));
        if found.iter().any(|r| r.id == id) {
            continue;
        }
        let mut p = params.clone();
        p.push(id.into());
        if let Some(row) = first_row(&mut stmt.query(params_from_iter(p))?, measure.rating)? {
            found.push(row);
        }
    }
    Ok(found)
}

/// A puzzle of `within` whose id is not among `given`, uniformly among those (the range's
/// ids listed through its index, less `given`); `None` when `given` holds them all. Reads
/// only.
pub fn pick_except(
    bank: &Bank,
    measure: Measure,
    within: impl Into<Selection>,
    given: &std::collections::HashSet<i64>,
    rng: &mut Rng,
) -> Result<Option<PuzzleRow>> {
    let conn = &bank.conn;
    let within = within.into();
    let (list_cond, params) = within.any_list_condition(measure);
    let ids: Vec<i64> = conn
        .prepare_cached(&format!("SELECT id FROM puzzles WHERE {list_cond}"))?
        .query_map(params_from_iter(params), |r| r.get(0))?
        .filter(|id| id.as_ref().map_or(true, |id| !given.contains(id)))
        .collect::<rusqlite::Result<_>>()?;
    if ids.is_empty() {
        return Ok(None);
    }
    super::retrieval::by_id(bank, measure.rating, ids[rng.index(ids.len())])
}

/// The id of this bank's puzzle of class `key`, if it has one.
pub fn id_of(bank: &Bank, key: &Key) -> Result<Option<i64>> {
    let conn = &bank.conn;
    Ok(conn
        .prepare_cached("SELECT id FROM puzzles WHERE canon_key = ?1")?
        .query_row([&key.0[..]], |r| r.get(0))
        .optional()?)
}

/// The ids of this bank's puzzles of the classes `keys` (those it has).
pub fn ids_of(bank: &Bank, keys: &[Key]) -> Result<std::collections::HashSet<i64>> {
    let mut ids = std::collections::HashSet::with_capacity(keys.len());
    for key in keys {
        ids.extend(id_of(bank, key)?);
    }
    Ok(ids)
}
