//! Named ratings: each puzzle's value on a publisher's numeric scale (`calibrate --labelled
//! --named NAME`), the names' ids, and the models' settings keys. Draws by a named rating
//! go through [`super::retrieval`].

use super::Result;
use rusqlite::{params, OptionalExtension};
use super::Bank;

/// The settings key of the model of the named rating `name` (JSON).
pub fn model_key(name: &str) -> String {
    format!("named_rating:{name}")
}

/// The id of the named rating `name`, if the bank has it.
pub fn id(bank: &Bank, name: &str) -> Result<Option<i64>> {
    let conn = &bank.conn;
    Ok(conn
        .query_row("SELECT id FROM rating_names WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .optional()?)
}

/// The named ratings of the bank, by name, with their ids and models (JSON text).
pub fn all(bank: &Bank) -> Result<Vec<(String, i64, String)>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare(
        "SELECT n.name, n.id, s.value FROM rating_names n
         JOIN settings s ON s.key = 'named_rating:' || n.name ORDER BY n.name",
    )?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Stores the model of `name` and every stored puzzle's value (`values`: (puzzle id, value)),
/// replacing what the bank had under that name, in the caller's transaction. Returns the
/// name's id.
pub fn replace(bank: &Bank, name: &str, model: &str, values: &[(i64, f64)]) -> Result<i64> {
    let conn = &bank.conn;
    conn.execute(
        "INSERT INTO rating_names (name) VALUES (?1) ON CONFLICT (name) DO NOTHING",
        [name],
    )?;
    let id = id(bank, name)?.expect("just inserted");
    super::settings::set(bank, &model_key(name), model)?;
    conn.execute("DELETE FROM named_ratings WHERE rating_id = ?1", [id])?;
    let mut stmt = conn
        .prepare_cached("INSERT INTO named_ratings (rating_id, puzzle_id, value) VALUES (?1, ?2, ?3)")?;
    for &(puzzle, value) in values {
        stmt.execute(params![id, puzzle, value])?;
    }
    Ok(id)
}

/// Stores the values of one new puzzle (`values`: (name, value)), in the caller's
/// transaction; a name the bank does not have is an error.
pub fn insert(bank: &Bank, puzzle: i64, values: &[(String, f64)]) -> Result<()> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "INSERT OR REPLACE INTO named_ratings (rating_id, puzzle_id, value)
         SELECT id, ?2, ?3 FROM rating_names WHERE name = ?1",
    )?;
    for (name, value) in values {
        if stmt.execute(params![name, puzzle, value])? != 1 {
            return Err(super::StoreError::Damaged {
                id: puzzle,
                what: format!("its named rating {name:?} is not one of the bank's"),
            });
        }
    }
    Ok(())
}

/// The values of puzzle `puzzle` (name, value), by name.
pub fn of(bank: &Bank, puzzle: i64) -> Result<Vec<(String, f64)>> {
    let conn = &bank.conn;
    let mut stmt = conn.prepare_cached(
        "SELECT n.name, v.value FROM named_ratings v JOIN rating_names n ON n.id = v.rating_id
         WHERE v.puzzle_id = ?1 ORDER BY n.name",
    )?;
    let rows = stmt
        .query_map([puzzle], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// A named rating's name, the puzzles it values, and their lowest, median and highest value.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Its name.
    pub name: String,
    /// The puzzles valued.
    pub puzzles: u64,
    /// The lowest, median and highest value (0 when none).
    pub values: (f64, f64, f64),
}

/// Per named rating, its [`Summary`] (for `stats`).
pub fn summary(bank: &Bank) -> Result<Vec<Summary>> {
    let conn = &bank.conn;
    let mut out = Vec::new();
    for (name, id, _) in all(bank)? {
        let n: u64 = conn.query_row(
            "SELECT COUNT(*) FROM named_ratings WHERE rating_id = ?1",
            [id],
            |r| r.get(0),
        )?;
        if n == 0 {
            out.push(Summary {
                name,
                puzzles: 0,
                values: (0.0, 0.0, 0.0),
            });
            continue;
        }
        let at = |offset: u64| -> Result<f64> {
            Ok(conn.query_row(
                "SELECT value FROM named_ratings WHERE rating_id = ?1 ORDER BY value
                 LIMIT 1 OFFSET ?2",
                params![id, offset as i64],
                |r| r.get(0),
            )?)
        };
        out.push(Summary {
            name,
            puzzles: n,
            values: (at(0)?, at(n / 2)?, at(n - 1)?),
        });
    }
    Ok(out)
}
