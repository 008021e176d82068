//! One writer of a bank's contents at a time: `build`, `merge`, `calibrate` and `seeds import`
//! hold an exclusive lock on the bank's own file while they run (an operating-system file lock,
//! `flock`: a crashed process releases it, and no other file stands in for it, so nothing can
//! be deleted to let a second writer in). Beside the bank, `BANK.lock` says who holds the lock
//! (pid, since when, what), so that a second writer is told whom it waits for; it is only
//! information. Reading and serving (`get`, `export`, `serve`) do not take the lock: SQLite's
//! own locking keeps them safe beside a writer.
//!
//! The lock is taken on a descriptor of the bank file that this process keeps open until it
//! exits, and is released by unlocking it, never by closing it: closing any descriptor of a
//! file drops every POSIX lock the process holds on it, and SQLite's locks on the bank are
//! POSIX locks.

use super::{Result, StoreError};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Seek as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A bank file's descriptor kept for locking, and whether this process holds its lock.
struct Held {
    file: Arc<File>,
    held: bool,
}

/// What tells one file from another: its device and inode (elsewhere, its canonical path).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct FileId(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

/// The identity of the open file `file` at `path`.
fn file_id(file: &File, path: &Path) -> std::io::Result<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let _ = path;
        let meta = file.metadata()?;
        Ok(FileId((meta.dev(), meta.ino())))
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.canonicalize().map(FileId)
    }
}

/// The bank files this process has locked.
static FILES: Mutex<Option<HashMap<FileId, Held>>> = Mutex::new(None);

/// The held writer lock of a bank; released when dropped.
#[derive(Debug)]
pub struct WriterLock {
    id: FileId,
    file: Arc<File>,
    info: PathBuf,
}

/// The file beside the bank at `db` that says who holds its lock.
pub fn path_of(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl WriterLock {
    /// Takes the writer lock of the bank at `db` (creating an empty file there if there is
    /// none, which SQLite then makes a new bank) for `what` (e.g. `build 3`). Another holder:
    /// with `wait`, waits for it; otherwise [`StoreError::Busy`] naming it.
    pub fn acquire(db: &Path, what: &str, wait: bool) -> Result<WriterLock> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |e: std::io::Error| StoreError::LockFile {
                path: path.clone(),
                source: e,
            }
        };
        let opened = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(db)
            .map_err(io(db))?;
        let id = file_id(&opened, db).map_err(io(db))?;
        let file = {
            let mut files = FILES.lock().expect("lock table");
            let files = files.get_or_insert_with(HashMap::new);
            let entry = files.entry(id.clone()).or_insert_with(|| Held {
                file: Arc::new(opened),
                held: false,
            });
            if entry.held {
                // This process holds it already (another thread's build).
                return Err(StoreError::Busy {
                    db: db.to_path_buf(),
                    holder: holder(db),
                });
            }
            entry.file.clone()
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) if wait => file.lock().map_err(io(db))?,
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Busy {
                    db: db.to_path_buf(),
                    holder: holder(db),
                })
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(db)(e)),
        }
        if let Some(h) = FILES
            .lock()
            .expect("lock table")
            .as_mut()
            .and_then(|f| f.get_mut(&id))
        {
            h.held = true;
        }
        let mut lock = WriterLock {
            id,
            file,
            info: path_of(db),
        };
        lock.describe(what).map_err(io(&lock.info.clone()))?;
        Ok(lock)
    }

    /// Rewrites what the information file says the holder is doing.
    pub fn describe(&mut self, what: &str) -> std::io::Result<()> {
        let since = crate::calendar::now_utc();
        let mut info = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&self.info)?;
        info.set_len(0)?;
        info.rewind()?;
        write!(info, "{what} (pid {}, since {since})", std::process::id())?;
        info.flush()
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
        if let Some(h) = FILES
            .lock()
            .expect("lock table")
            .as_mut()
            .and_then(|f| f.get_mut(&self.id))
        {
            h.held = false;
        }
    }
}

/// Who holds the lock of the bank at `db`, as its information file says (or that it does not
/// say).
fn holder(db: &Path) -> String {
    std::fs::read_to_string(path_of(db))
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "a process that did not say which".to_string())
}
