//! A build's writer thread: it owns the bank's connection and commits the accepted batches
//! in order while the next ones run; batches that queued while it committed go into one
//! transaction, with the latest progress.

use super::BankError;
use crate::store::{self, Build, NewPuzzle};
use std::time::{Duration, Instant};

/// Batches the build may queue for the writer while it commits.
const QUEUED_BATCHES: usize = 8;

/// Rows the writer commits in one transaction at most (batches that queued meanwhile).
const WRITE_ROWS: usize = 4096;

/// The writer's page cache, MiB (SQLite's default is 2).
const WRITER_CACHE_MIB: u32 = 64;

/// What the writer thread commits.
pub(super) enum Commit {
    /// A batch of a build: rows, and the build's progress.
    Rows(Build, Vec<NewPuzzle>),
    /// A batch of a shard: candidates, the build's progress and the shard's cursors.
    Shard(
        Build,
        store::shards::ShardRow,
        Vec<store::shards::Candidate>,
    ),
}

impl Commit {
    fn len(&self) -> usize {
        match self {
            Commit::Rows(_, r) => r.len(),
            Commit::Shard(_, _, r) => r.len(),
        }
    }

    /// Takes a later batch into this one (its progress replaces this one's).
    fn absorb(&mut self, later: Commit) {
        match (self, later) {
            (Commit::Rows(b, rows), Commit::Rows(lb, more)) => {
                *b = lb;
                rows.extend(more);
            }
            (Commit::Shard(b, s, rows), Commit::Shard(lb, ls, more)) => {
                *b = lb;
                *s = ls;
                rows.extend(more);
            }
            _ => unreachable!("one build writes one kind of batch"),
        }
    }

    fn commit(&self, conn: &mut store::Bank) -> store::Result<()> {
        match self {
            Commit::Rows(b, rows) => store::puzzles::insert_batch(conn, b, rows),
            Commit::Shard(b, s, rows) => store::shards::insert_batch(conn, b, s, rows),
        }
    }
}

/// The writer thread: owns the connection, commits batches in order; batches that queued
/// while it committed go into one transaction (up to WRITE_ROWS rows), with the latest
/// progress. Returns the time it spent and the connection.
pub(super) struct Writer {
    tx: Option<std::sync::mpsc::SyncSender<Commit>>,
    thread: std::thread::JoinHandle<Result<(Duration, store::Bank), BankError>>,
}

impl Writer {
    pub(super) fn spawn(conn: store::Bank) -> Result<Writer, BankError> {
        store::set_cache_mib(&conn, WRITER_CACHE_MIB)?;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Commit>(QUEUED_BATCHES);
        let thread = std::thread::spawn(move || -> Result<(Duration, store::Bank), BankError> {
            let mut conn = conn;
            let mut spent = Duration::ZERO;
            while let Ok(mut w) = rx.recv() {
                while w.len() < WRITE_ROWS {
                    match rx.try_recv() {
                        Ok(later) => w.absorb(later),
                        Err(_) => break,
                    }
                }
                let t = Instant::now();
                w.commit(&mut conn)?;
                spent += t.elapsed();
            }
            Ok((spent, conn))
        });
        Ok(Writer {
            tx: Some(tx),
            thread,
        })
    }

    /// Queues a batch; when the writer stopped on an error, returns that error.
    pub(super) fn send(self, w: Commit) -> Result<Writer, BankError> {
        if self
            .tx
            .as_ref()
            .expect("the writer is open")
            .send(w)
            .is_ok()
        {
            return Ok(self);
        }
        Err(match self.finish() {
            Err(e) => e,
            Ok(_) => BankError::Writer,
        })
    }

    /// Waits for every queued batch to be committed.
    pub(super) fn finish(mut self) -> Result<(Duration, store::Bank), BankError> {
        self.tx = None;
        self.thread.join().map_err(|_| BankError::Writer)?
    }
}
