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

/// The identity of the file at `path`, without opening it (`None` when there is none).
fn path_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let meta = std::fs::metadata(path).ok()?;
        Some(FileId((meta.dev(), meta.ino())))
    }
    #[cfg(not(unix))]
    {
        path.canonicalize().ok().map(FileId)
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
        let (id, file) = descriptor(db)?;
        let held = FILES
            .lock()
            .expect("lock table")
            .as_ref()
            .and_then(|f| f.get(&id))
            .is_some_and(|h| h.held);
        if held {
            // This process holds it already (another thread's build).
            return Err(StoreError::Busy {
                db: db.to_path_buf(),
                holder: holder(db),
            });
        }
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

/// The descriptor of the bank file at `db` this process keeps open for its locks (opened for
/// reading and writing, made when missing, on first use), and the file's identity. It is
/// never closed: closing a descriptor of the bank would drop SQLite's locks on it.
fn descriptor(db: &Path) -> Result<(FileId, Arc<File>)> {
    let io = |e: std::io::Error| StoreError::LockFile {
        path: db.to_path_buf(),
        source: e,
    };
    let mut files = FILES.lock().expect("lock table");
    let files = files.get_or_insert_with(HashMap::new);
    if let Some(id) = path_id(db) {
        if let Some(held) = files.get(&id) {
            return Ok((id, held.file.clone()));
        }
    }
    let opened = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(db)
        .map_err(io)?;
    let id = file_id(&opened, db).map_err(io)?;
    match files.get(&id) {
        Some(held) => {
            // The file was in the table under another path: this descriptor is kept open
            // too (closing it would drop SQLite's locks).
            let file = held.file.clone();
            std::mem::forget(opened);
            Ok((id, file))
        }
        None => {
            let file = Arc::new(opened);
            files.insert(
                id.clone(),
                Held {
                    file: file.clone(),
                    held: false,
                },
            );
            Ok((id, file))
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

/// The lock a server holds while it records deliveries in the bank (`serve` without
/// `--history` or `--read-only`), which `history export|import` take while they move the
/// bank's history: a history is never moved while a server goes on recording beside it (its
/// deliveries after the move would never reach the fleet, which would hand them out again),
/// and one server records in a bank at a time.
///
/// An open-file-description lock (Linux `F_OFD_SETLK`) on one byte of the bank file far past
/// the bytes SQLite locks, taken on the descriptor this process keeps for the writer lock: it
/// is independent of SQLite's locks and of the writer lock, goes with the process, and is
/// released by unlocking it, never by closing a descriptor. Where such locks do not exist, it
/// is a lock on nothing (always taken).
#[derive(Debug)]
pub struct DeliveriesLock {
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    file: Arc<File>,
}

/// The byte of the bank file the deliveries lock covers (SQLite's lock bytes sit at 1 GiB).
#[cfg(target_os = "linux")]
const DELIVERIES_BYTE: i64 = 1 << 62;

/// Sets (`F_WRLCK`) or clears (`F_UNLCK`) the deliveries lock on `file`.
#[cfg(target_os = "linux")]
fn deliveries_lock(file: &File, kind: libc::c_int) -> std::io::Result<()> {
    use std::os::fd::AsRawFd as _;
    // SAFETY: `flock` is plain data; zeroed is a valid value, then filled in.
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = kind as _;
    lock.l_whence = libc::SEEK_SET as _;
    lock.l_start = DELIVERIES_BYTE;
    lock.l_len = 1;
    // SAFETY: a valid descriptor and a valid `flock` for F_OFD_SETLK.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_OFD_SETLK, &lock) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

impl DeliveriesLock {
    /// Takes the deliveries lock of the bank at `db`; `None` when another process holds it.
    pub fn try_acquire(db: &Path) -> Result<Option<DeliveriesLock>> {
        let (_, file) = descriptor(db)?;
        #[cfg(target_os = "linux")]
        match deliveries_lock(&file, libc::F_WRLCK) {
            Ok(()) => {}
            Err(e) if matches!(e.raw_os_error(), Some(libc::EAGAIN | libc::EACCES)) => {
                return Ok(None)
            }
            Err(e) => {
                return Err(StoreError::LockFile {
                    path: db.to_path_buf(),
                    source: e,
                })
            }
        }
        Ok(Some(DeliveriesLock { file }))
    }
}

impl Drop for DeliveriesLock {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        let _ = deliveries_lock(&self.file, libc::F_UNLCK);
    }
}
