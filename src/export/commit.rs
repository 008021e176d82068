//! Files written crash-safe, for `export` and `book` alike: one export at a time per folder
//! (a lock file), every file written under a temporary name and recorded with its hash in the
//! export's one transaction, renamed into place only after the commit; what an interrupted
//! export left is settled by the next (renamed when its bytes match the record, else
//! removed), and files of replaced dates that nobody changed are removed.

use super::{formats, ExportError, ExportOptions, ExportReport, Exported, Replaced, Result};
use crate::calendar::Date;
use crate::store::{self, Bank};
use std::path::{Path, PathBuf};

/// The prefix of an export's temporary files (and of its lock file) in the output folder.
pub const TEMP_PREFIX: &str = ".pseudoku-";

/// Runs `work` with the canonical path of the folder `out` (made if missing) while it holds
/// the folder's lock; a folder it made and left empty is removed again, so that a command
/// that writes nothing leaves nothing.
pub(crate) fn in_locked_folder<T>(out: &Path, work: impl FnOnce(&str) -> Result<T>) -> Result<T> {
    let made = !out.exists();
    std::fs::create_dir_all(out).map_err(ExportError::io(out))?;
    let outcome = (|| {
        let dir = std::fs::canonicalize(out)
            .map_err(ExportError::io(out))?
            .display()
            .to_string();
        let lock = FolderLock::take(out)?;
        let outcome = work(&dir);
        lock.release();
        outcome
    })();
    if made && std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none()) {
        let _ = std::fs::remove_dir(out);
    }
    outcome
}

/// The files an earlier export wrote into the folder `out` (canonical `dir`) for the dates
/// (or book) that `replaced` retired and that this export did not write again (another
/// format, one file a day instead of one for the range): removed, each only when its bytes are
/// still those recorded (a file someone changed is kept). Returns the files removed.
fn remove_replaced(
    conn: &Bank,
    out: &Path,
    dir: &str,
    replaced: &[Replaced],
    written: &[formats::Written],
) -> Result<Vec<PathBuf>> {
    if replaced.is_empty() {
        return Ok(Vec::new());
    }
    let stems: Vec<String> = replaced.iter().map(|r| r.edition.to_string()).collect();
    let mut removed = Vec::new();
    for (name, hash) in store::batches::files_in(conn, dir)? {
        let of_replaced = stems.iter().any(|stem| {
            name.strip_prefix(stem)
                .is_some_and(|rest| rest.starts_with(['.', '-', '_']))
        });
        let path = out.join(&name);
        if !of_replaced || written.iter().any(|w| w.fin == path) {
            continue;
        }
        let unchanged =
            std::fs::read(&path).is_ok_and(|bytes| blake3::hash(&bytes).to_hex().as_str() == hash);
        if unchanged {
            std::fs::remove_file(&path).map_err(ExportError::io(&path))?;
            removed.push(path);
        }
    }
    Ok(removed)
}

/// Runs `work` in one write transaction (`synchronous = FULL`) that [`finish`] ends: committed
/// and its files renamed into place, or rolled back.
pub(crate) fn in_transaction(
    conn: &mut Bank,
    opts: &ExportOptions,
    dir: &str,
    work: impl FnOnce(&Bank) -> Result<(ExportReport, Vec<formats::Written>)>,
) -> Result<ExportReport> {
    store::set_full_sync(conn, true)?;
    let write = store::Write::begin(conn)?;
    let result = work(conn);
    let outcome = finish(conn, write, opts, dir, result);
    store::set_full_sync(conn, false)?;
    outcome
}

/// Writes `groups` (each a file's name and its puzzles) under temporary names in the folder
/// `dir` (canonical) and records each file's name and hash, for [`finish`] to rename; with
/// the printed pages holding a lone grid, by file.
pub(crate) fn write_recorded(
    conn: &Bank,
    opts: &ExportOptions,
    groups: &[(String, Vec<Exported>)],
    dir: &str,
    progress: &dyn Fn(&'static str, u64, u64),
) -> Result<(Vec<formats::Written>, Vec<super::Lone>)> {
    let before = day_before(conn, opts, groups)?;
    let (files, lone) = formats::write_temporaries(&opts.out, opts, groups, &before, progress)?;
    for w in &files {
        let name = w
            .fin
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        store::batches::record_file(conn, dir, name, &w.hash)?;
    }
    Ok((files, lone))
}

/// The puzzles of the day before the first of `groups`, as recorded, when its solutions are
/// printed with the first day's (`--solutions next-day`); else none.
pub(crate) fn day_before(
    conn: &Bank,
    opts: &ExportOptions,
    groups: &[(String, Vec<Exported>)],
) -> Result<Vec<Exported>> {
    let first_date = groups.iter().flat_map(|g| g.1.first()).find_map(|p| p.date);
    match first_date {
        Some(d) if opts.print.solutions == super::SolutionLayout::NextDay => {
            super::recorded_puzzles(conn, &super::Edition::Day(Date::from_days(d.days() - 1)))
        }
        _ => Ok(Vec::new()),
    }
}

/// The lock that lets one export at a time write into a folder: an operating-system lock on
/// a file in it, which the export removes when it ends, so that it leaves nothing behind. An
/// export that waited on a file removed meanwhile takes the lock again on the file now there.
struct FolderLock {
    path: PathBuf,
    file: std::fs::File,
}

impl FolderLock {
    /// Waits for and takes the lock of the folder `out`.
    fn take(out: &Path) -> Result<FolderLock> {
        let path = out.join(format!("{TEMP_PREFIX}export.lock"));
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(ExportError::io(&path))?;
            file.lock().map_err(ExportError::io(&path))?;
            if same_file(&file, &path) {
                return Ok(FolderLock { path, file });
            }
        }
    }

    /// Removes the lock's file while it is held, then releases it.
    fn release(self) {
        #[cfg(unix)]
        let _ = std::fs::remove_file(&self.path);
        drop(self.file);
    }
}

/// True when `file` is the file at `path` (not one removed from there).
#[cfg(unix)]
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// True when `file` is the file at `path` (not one removed from there).
#[cfg(not(unix))]
fn same_file(_: &std::fs::File, _: &Path) -> bool {
    true
}

/// Commits (then renames the files into place) or rolls back an export.
fn finish(
    conn: &Bank,
    write: store::Write,
    opts: &ExportOptions,
    dir: &str,
    result: Result<(ExportReport, Vec<formats::Written>)>,
) -> Result<ExportReport> {
    match result {
        Ok((report, files))
            if !opts.check && (report.shortages.is_empty() || opts.allow_partial) =>
        {
            sync_dir(&opts.out)?;
            write.commit()?;
            #[cfg(feature = "fault-injection")]
            if std::env::var_os(CRASH_AFTER_COMMIT).is_some() {
                // Fault injection for the tests: die between the commit and the renames.
                std::process::abort();
            }
            for w in &files {
                std::fs::rename(&w.tmp, &w.fin).map_err(ExportError::io(&w.fin))?;
            }
            let mut report = report;
            report.removed = remove_replaced(conn, &opts.out, dir, &report.replaced, &files)?;
            Ok(report)
        }
        Ok((report, _)) => {
            drop(write); // rolled back
            Ok(report)
        }
        Err(e) => {
            drop(write); // rolled back
            if !opts.check {
                settle_temporaries(conn, &opts.out, dir)?;
            }
            Err(e)
        }
    }
}

/// Flushes a folder's entries (new and renamed files) to disk.
fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(ExportError::io(dir))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The environment variable that makes an export abort right after its commit, before
/// renaming its files: how the tests play a crash at the worst moment. Read only by a binary
/// built with the `fault-injection` feature (the tests enable it; the product does not).
#[cfg(any(feature = "dev", feature = "fault-injection"))]
pub const CRASH_AFTER_COMMIT: &str = "PSEUDOKU_TEST_CRASH_AFTER_COMMIT";

/// Settles the temporary files an interrupted export left in `out` (canonical path `dir`):
/// renames into place those whose bytes match the latest record of their name, removes the
/// others.
pub(crate) fn settle_temporaries(conn: &Bank, out: &Path, dir: &str) -> Result<()> {
    for entry in std::fs::read_dir(out).map_err(ExportError::io(out))? {
        let path = entry.map_err(ExportError::io(out))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(fin) = name
            .strip_prefix(TEMP_PREFIX)
            .and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let recorded = store::batches::file_hash(conn, dir, fin)?;
        let bytes = std::fs::read(&path).map_err(ExportError::io(&path))?;
        if recorded.as_deref() == Some(blake3::hash(&bytes).to_hex().as_str()) {
            std::fs::rename(&path, out.join(fin)).map_err(ExportError::io(&path))?;
        } else {
            std::fs::remove_file(&path).map_err(ExportError::io(&path))?;
        }
    }
    Ok(())
}
