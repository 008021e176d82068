//! One writer of a bank's contents at a time: `build`, `calibrate` and `seeds import` hold an
//! exclusive lock on the file `BANK.lock` beside the bank while they run (an operating-system
//! file lock: a crashed process releases it). The file says who holds it (pid, since when,
//! what), so a second writer is told whom it waits for. Reading and serving (`get`, `export`)
//! do not take it: SQLite's own locking keeps them safe beside a build.

use super::{Result, StoreError};
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};

/// The held writer lock of a bank; released when dropped.
#[derive(Debug)]
pub struct WriterLock {
    file: File,
}

/// The lock file of the bank at `db`.
pub fn path_of(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl WriterLock {
    /// Takes the writer lock of the bank at `db` for `what` (e.g. `build 3`). Another holder:
    /// with `wait`, waits for it; otherwise [`StoreError::Busy`] naming it.
    pub fn acquire(db: &Path, what: &str, wait: bool) -> Result<WriterLock> {
        let path = path_of(db);
        let io = |e: std::io::Error| StoreError::LockFile {
            path: path.clone(),
            source: e,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) if wait => file.lock().map_err(io)?,
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(StoreError::Busy {
                    db: db.to_path_buf(),
                    holder: holder.trim().to_string(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        let mut lock = WriterLock { file };
        lock.describe(what).map_err(io)?;
        Ok(lock)
    }

    /// Rewrites what the lock file says the holder is doing.
    pub fn describe(&mut self, what: &str) -> std::io::Result<()> {
        let since = crate::calendar::now_utc();
        self.file.set_len(0)?;
        self.file.rewind()?;
        write!(
            self.file,
            "{what} (pid {}, since {since})",
            std::process::id()
        )?;
        self.file.flush()
    }
}
