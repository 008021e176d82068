//! The library's errors in Python's words. The library's reasons are the command line's: some
//! name a flag (`--force`, `--min-results N`) or a command (`pseudoku calibrate --levels`) as
//! the way on. Raised in Python, those reasons name the argument (`force=True`,
//! `min_results=`) or the call (`pseudoku.calibrate(db, levels=[...])`) instead; they are
//! told by the error's type and variant, not by its text. Every other reason is the library's.

use pseudoku::bank::{BankError, StoreError};
use pseudoku::dataset::DatasetError;
use pseudoku::export::ExportError;
use pseudoku::import::ImportError;
use pseudoku::levels::{LevelNames, LevelsError};
use pseudoku::results::LogError;
use pseudoku::retrieve::RetrieveError;
use std::error::Error;

/// The reason of `e` in Python's words when the library's names the command line's way on;
/// `None` when the library's reason serves Python as it is.
pub fn in_python_words(e: &(dyn Error + 'static)) -> Option<String> {
    if let Some(e) = e.downcast_ref::<StoreError>() {
        return store(e);
    }
    if let Some(e) = e.downcast_ref::<LevelsError>() {
        return levels(e);
    }
    if let Some(e) = e.downcast_ref::<RetrieveError>() {
        return retrieve(e);
    }
    if let Some(e) = e.downcast_ref::<BankError>() {
        return match e {
            BankError::Store(e) => store(e),
            BankError::Levels(e) => levels(e),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<ImportError>() {
        return match e {
            ImportError::Store(e) => store(e),
            ImportError::Levels(e) => levels(e),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<DatasetError>() {
        return match e {
            DatasetError::Store(e) => store(e),
            DatasetError::Levels(e) => levels(e),
            DatasetError::Retrieve(e) => retrieve(e),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<ExportError>() {
        return export(e);
    }
    if let Some(e) = e.downcast_ref::<LogError>() {
        return results(e);
    }
    None
}

/// A store's error in Python's words.
fn store(e: &StoreError) -> Option<String> {
    match e {
        StoreError::NoBank(db) => Some(format!(
            "{}: no bank there (make one with pseudoku.build(db) or pseudoku.import_puzzles(db, \
             path))",
            db.display()
        )),
        StoreError::Busy { db, holder } => Some(format!(
            "{}: another process is writing to this bank: {holder}; call again once it is done",
            db.display()
        )),
        _ => None,
    }
}

/// The level names `names` as a Python list.
fn list(names: &LevelNames) -> String {
    format!("{:?}", names.names())
}

/// A levels' error in Python's words.
fn levels(e: &LevelsError) -> Option<String> {
    match e {
        LevelsError::Store(e) => store(e),
        LevelsError::RatingMismatch { bank, asked } => Some(format!(
            "this bank's percentiles use {}; change that with pseudoku.calibrate(db, rating={:?})",
            bank.name(),
            asked.name()
        )),
        LevelsError::UnknownLevel { name, levels } => Some(format!(
            "no level {name:?} in this bank{} (its levels: {}; change them with \
             pseudoku.calibrate(db, levels=[...]))",
            levels.did_you_mean(name),
            list(levels)
        )),
        LevelsError::EmptyLevels { levels, empty } => Some(format!(
            "the levels {} would leave {} without a single puzzle of the reference (its ratings \
             do not spread over every level): give other levels, or force=True",
            list(levels.names()),
            empty.join(", ")
        )),
        LevelsError::Dropped { was, new, dropped } => Some(format!(
            "the levels fitted ({}) would drop the bank's level{} {} (bank.get(level={:?}) \
             would then fail): name the new levels with levels={} to replace the bank's ({})",
            list(new),
            if dropped.len() == 1 { "" } else { "s" },
            dropped.join(", "),
            dropped[0],
            list(new),
            list(was)
        )),
        LevelsError::Emptied {
            levels,
            empty,
            puzzles,
        } => Some(format!(
            "the levels {} would leave {} without a single puzzle of the bank's {puzzles} \
             (bank.get(level={:?}) would find none): nothing was changed; name the levels with \
             levels=[...] (or force=True) to mean it",
            list(levels),
            empty.join(", "),
            empty[0]
        )),
        LevelsError::Model(why) => Some(format!(
            "the bank's level model {why}; go back to cut points with pseudoku.calibrate(db, \
             levels=[...]) or fit it again with pseudoku.calibrate(db, from_play=True)"
        )),
        _ => None,
    }
}

/// A retrieval's error in Python's words.
fn retrieve(e: &RetrieveError) -> Option<String> {
    match e {
        RetrieveError::Store(e) => store(e),
        RetrieveError::Levels(e) => levels(e),
        _ => None,
    }
}

/// An export's (or a book's) error in Python's words.
fn export(e: &ExportError) -> Option<String> {
    match e {
        ExportError::Store(e) => store(e),
        ExportError::Levels(e) => levels(e),
        ExportError::Retrieve(e) => retrieve(e),
        ExportError::MixChanged { date, mix } => Some(format!(
            "{date} was exported with the mix {mix}; export it with that mix, or draw new puzzles \
             with replace=True"
        )),
        ExportError::BookMixChanged { name, mix } => Some(format!(
            "the book {name} was recorded with the mix {mix}; write it with that mix, or draw it \
             anew with replace=True"
        )),
        _ => None,
    }
}

/// A players' results error in Python's words.
fn results(e: &LogError) -> Option<String> {
    match e {
        LogError::Store(e) => store(e),
        LogError::Levels(e) => levels(e),
        LogError::FewPlayed {
            problems,
            min_results,
            played,
        } => Some(format!(
            "{}\nthe puzzles players rated are those with at least {min_results} results each \
             ({played} puzzles); a lower min_results= counts puzzles with fewer",
            problems.join("\n")
        )),
        LogError::Moved { db, moved } => Some(format!(
            "{}: this bank's history was {moved}: results counted in the bank alone would be \
             read by no server; send them to a server of the fleet (POST /v1/results), or bring \
             the history back first (`pseudoku history import URL`)",
            db.display()
        )),
        _ => None,
    }
}
