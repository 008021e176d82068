//! `merge`: shard banks combined into one bank, by replaying their candidates in job order
//! with the rule of [`super::accept`], so that N shards merged hold, row for row, what one
//! machine builds with the same arguments (see [`super::shard`] for what a shard stores).
//!
//! The merge checks that the shards are the N shards of one build, on one scale (levels,
//! reference, layout rules); copies that scale into a new bank (or checks an existing one has
//! it); stores the seeds by class; then streams the shards' candidates (a k-way merge by job)
//! and stores the accepted ones in job order, each under a build row of its shard (provenance:
//! shard, shard's build, job), committing every few thousand rows with how far it got, so an
//! interrupted merge resumes. A job the rule needs that its shard did not run (a shard stops
//! at its share and a margin) stops the merge with the shard to run again.

use super::accept::{Acceptance, Assignment, Verdict};
use super::shard::Shard;
use super::BankError;
use crate::store::{self, builds::NewBuild, shards::Candidate, shards::ShardRow, Build, NewPuzzle};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// What to merge.
#[derive(Clone, Debug)]
pub struct MergeOptions {
    /// The bank to merge into (created if missing).
    pub out: PathBuf,
    /// The shard banks, in any order.
    pub inputs: Vec<PathBuf>,
    /// When another process is writing to the output, wait for it.
    pub wait: bool,
    /// Rows per transaction.
    pub commit_rows: usize,
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Shards merged.
    pub shards: u64,
    /// Rows stored by this merge (earlier runs of it included).
    pub stored: u64,
    /// Of those, rows stored by an earlier, interrupted run.
    pub at_start: u64,
    /// Candidates dropped as duplicates of an earlier class (across shards, or of the bank).
    pub duplicates: u64,
    /// Candidates of jobs whose target was full when reached.
    pub ignored: u64,
    /// Candidates that fit only full targets.
    pub off: u64,
    /// The job after the last one replayed.
    pub next_job: u64,
    /// True when every target is full (false: stopped by the caller).
    pub complete: bool,
    /// True when the output held this merge, finished, already (nothing was done).
    pub already: bool,
}

/// One input: its file, shard, build row and a buffer of its candidates.
struct Input {
    path: PathBuf,
    conn: store::Bank,
    row: ShardRow,
    /// How its build assigned jobs to targets.
    assignment: Assignment,
    shard: Shard,
    arguments: String,
    rng_seed: u64,
    count: u64,
    buffer: VecDeque<Candidate>,
    after: Option<u64>,
    exhausted: bool,
}

/// Candidates read from a shard at a time.
const CHUNK: usize = 16_384;

impl Input {
    fn open(path: &Path) -> Result<Input, BankError> {
        let conn = store::open_existing(path)?;
        let not_shard = || BankError::NotShard(path.to_path_buf());
        let row = store::shards::read(&conn)?.ok_or_else(not_shard)?;
        let assignment = Assignment::recorded(&row.weights, row.quotas.len());
        let sound = row.cursors.len() == row.quotas.len()
            && row.block >= row.quotas.len() as u64
            && (1..=row.shards).contains(&row.shard);
        let Some(assignment) = assignment.filter(|_| sound) else {
            return Err(not_shard());
        };
        let info = store::builds::info(&conn, row.build_id)?.ok_or_else(not_shard)?;
        let suffix = format!(" shard={}/{} block={}", row.shard, row.shards, row.block);
        let arguments = info
            .arguments
            .strip_suffix(&suffix)
            .ok_or_else(not_shard)?
            .to_string();
        Ok(Input {
            path: path.to_path_buf(),
            shard: Shard {
                k: row.shard,
                n: row.shards,
                margin: 0.0,
            },
            row,
            assignment,
            arguments,
            rng_seed: info.rng_seed,
            count: info.build.count,
            conn,
            buffer: VecDeque::new(),
            after: None,
            exhausted: false,
        })
    }

    /// The next candidate's job, reading more when the buffer is empty.
    fn peek(&mut self) -> Result<Option<u64>, BankError> {
        if self.buffer.is_empty() && !self.exhausted {
            let chunk = store::shards::candidates(&self.conn, self.after, CHUNK)?;
            self.exhausted = chunk.len() < CHUNK;
            self.after = chunk.last().map(|c| c.row.job).or(self.after);
            self.buffer.extend(chunk);
        }
        Ok(self.buffer.front().map(|c| c.row.job))
    }

    /// The first job of target `t` (under `assignment`) this shard did not run.
    fn first_missing(&self, t: usize, assignment: &Assignment) -> u64 {
        let mut j = self.shard.next_own(self.row.cursors[t], self.row.block);
        while assignment.target(j) != t {
            j = self.shard.next_own(j + 1, self.row.block);
        }
        j
    }
}

/// Merges the shard banks `opts.inputs` into `opts.out`; calls `progress` after every commit
/// with what it has done. Stops early, keeping what it committed, when `stop` is set; the
/// same command resumes it.
pub fn merge(
    opts: &MergeOptions,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Merged),
) -> Result<Merged, BankError> {
    let mut inputs: Vec<Input> = opts
        .inputs
        .iter()
        .map(|p| Input::open(p))
        .collect::<Result<_, _>>()?;
    inputs.sort_by_key(|i| i.row.shard);
    check_inputs(&inputs)?;
    let first = &inputs[0];
    let scale = store::settings::scale(&first.conn)?;
    for i in &inputs[1..] {
        if store::settings::scale(&i.conn)? != scale {
            return Err(BankError::OtherScale(i.path.clone()));
        }
    }
    let mut lock = store::lock::WriterLock::acquire(&opts.out, "merge", opts.wait)?;
    let _ = lock.describe("merge");
    let mut out = store::open(&opts.out)?;
    if let Some(row) = store::shards::read(&out)? {
        return Err(BankError::IsShard(row.shard, row.shards));
    }
    let fresh =
        store::puzzles::count(&out)? == 0 && store::settings::get(&out, "reference")?.is_none();
    if fresh {
        store::immediate(&out, || store::settings::set_scale(&out, &scale))?;
    } else if store::settings::scale(&out)? != scale {
        return Err(BankError::OtherScale(opts.out.clone()));
    }
    let levels = crate::levels::Levels::read(&out)?;
    // Seeds by class: a shard's seed id -> the output's.
    let mut seed_ids: Vec<HashMap<i64, i64>> = Vec::new();
    for i in &inputs {
        let seeds = store::seeds::all(&i.conn)?;
        let rows: Vec<_> = seeds.iter().map(|(_, r)| r.clone()).collect();
        let ids = store::seeds::store(&out, &rows)?;
        seed_ids.push(seeds.iter().map(|(id, _)| *id).zip(ids).collect());
    }
    // One build row per shard, resumed when an interrupted merge of the same shards left it
    // (named by the shard and the build, not by the file's path, which may change).
    let names: Vec<String> = inputs
        .iter()
        .map(|i| {
            format!(
                "merge of shard {} (build {}): {}",
                i.shard, i.row.build_id, i.arguments
            )
        })
        .collect();
    if let Some(done) = store::builds::finished(&out, &names[0])? {
        // The same merge again: nothing to do.
        return Ok(Merged {
            shards: inputs.len() as u64,
            stored: store::builds::stored_by_arguments(&out, &names)?,
            next_job: done.next_job,
            complete: true,
            already: true,
            ..Merged::default()
        });
    }
    let mut builds: Vec<Build> = names
        .iter()
        .zip(&inputs)
        .map(|(name, i)| {
            let new = NewBuild {
                arguments: name,
                rng_seed: i.rng_seed,
                count: i.count,
                rater: crate::rate::RATER,
            };
            store::builds::start_merge(&out, &new)
        })
        .collect::<Result<_, _>>()?;
    let ids: Vec<i64> = builds.iter().map(|b| b.id).collect();
    // What an interrupted run of this merge committed: each shard's rows below its next job.
    let committed: Vec<u64> = builds.iter().map(|b| b.next_job).collect();
    let resume_at = committed.iter().copied().min().unwrap_or(0);
    let seen = store::puzzles::keys_outside(&out, &ids)?;
    // A merge that at least doubles the bank appends without the key and rating indexes.
    if (seen.len() as u64) < first.count {
        store::puzzles::defer_indexes(&out)?;
    }
    let quotas = first.row.quotas.clone();
    let assignment = first.assignment.clone();
    let mut acc = Acceptance::new(
        assignment.clone(),
        quotas.clone(),
        vec![0; quotas.len()],
        seen,
    );
    // Jobs the rule may need that a shard did not run: (job, input, target), earliest first.
    let mut missing: Vec<(u64, usize, usize)> = (0..inputs.len())
        .flat_map(|i| (0..quotas.len()).map(move |t| (i, t)))
        .map(|(i, t)| (inputs[i].first_missing(t, &assignment), i, t))
        .collect();
    missing.sort_unstable();
    let mut missing = missing.into_iter().peekable();
    let mut done = Merged {
        shards: inputs.len() as u64,
        next_job: resume_at,
        ..Merged::default()
    };
    let mut heap: BinaryHeap<std::cmp::Reverse<(u64, usize)>> = BinaryHeap::new();
    for (i, input) in inputs.iter_mut().enumerate() {
        if let Some(j) = input.peek()? {
            heap.push(std::cmp::Reverse((j, i)));
        }
    }
    let mut rows: Vec<(i64, NewPuzzle)> = Vec::new();
    let commit = |out: &mut store::Bank,
                  rows: &mut Vec<(i64, NewPuzzle)>,
                  builds: &mut [Build],
                  next_job: u64|
     -> Result<(), BankError> {
        for b in builds.iter_mut() {
            b.next_job = b.next_job.max(next_job);
        }
        store::shards::insert_merged(out, rows, builds)?;
        rows.clear();
        Ok(())
    };
    while !acc.done() {
        // Every job below the next candidate's that the rule needed has run.
        let next = heap.peek().map(|r| r.0 .0);
        while let Some(&(j, i, t)) = missing.peek() {
            if next.is_some_and(|n| j >= n) {
                break;
            }
            if acc.open(t) {
                return Err(short(&inputs[i], t, j, quotas.len()));
            }
            missing.next();
        }
        let Some(std::cmp::Reverse((j, i))) = heap.pop() else {
            unreachable!("a shard's missing job stops the merge first")
        };
        let c = inputs[i].buffer.pop_front().expect("peeked");
        if let Some(next) = inputs[i].peek()? {
            heap.push(std::cmp::Reverse((next, i)));
        }
        let key = store::puzzles::key_prefix(&c.row.canon_key);
        let b = &mut builds[i];
        match acc.offer(j, key, c.fits) {
            Verdict::Stored(_) => {
                if j >= committed[i] {
                    let mut row = c.row;
                    row.seed_id = row.seed_id.and_then(|s| seed_ids[i].get(&s).copied());
                    rows.push((b.id, row));
                    b.stored += 1;
                } else {
                    done.at_start += 1;
                }
                done.stored += 1;
            }
            Verdict::Duplicate => {
                done.duplicates += 1;
                if j >= committed[i] {
                    b.duplicates += 1;
                }
            }
            Verdict::Off => {
                done.off += 1;
                if j >= committed[i] {
                    b.off_band += 1;
                }
            }
            Verdict::Ignored => done.ignored += 1,
        }
        done.next_job = j + 1;
        if rows.len() >= opts.commit_rows {
            commit(&mut out, &mut rows, &mut builds, j + 1)?;
            progress(&done);
            if stop.load(Ordering::Relaxed) {
                return Ok(done);
            }
        }
    }
    commit(&mut out, &mut rows, &mut builds, done.next_job)?;
    progress(&done);
    store::puzzles::ensure_indexes(&out, levels.rating)?;
    for b in &builds {
        store::builds::finish(&out, b.id)?;
    }
    done.complete = true;
    Ok(done)
}

/// Checks that the inputs are shards 1..N of one build.
fn check_inputs(inputs: &[Input]) -> Result<(), BankError> {
    let Some(first) = inputs.first() else {
        return Err(BankError::NoShards);
    };
    for i in inputs {
        let same = i.arguments == first.arguments
            && i.rng_seed == first.rng_seed
            && i.row.shards == first.row.shards
            && i.row.block == first.row.block
            && i.row.quotas == first.row.quotas
            && i.row.weights == first.row.weights;
        if !same {
            return Err(BankError::OtherBuild {
                path: i.path.clone(),
                first: first.path.clone(),
            });
        }
    }
    let n = first.row.shards;
    for (k, i) in (1..).zip(inputs) {
        if i.row.shard != k {
            return Err(BankError::ShardsMissing {
                n,
                have: inputs.iter().map(|i| i.shard.to_string()).collect(),
            });
        }
    }
    if inputs.len() as u64 != n {
        return Err(BankError::ShardsMissing {
            n,
            have: inputs.iter().map(|i| i.shard.to_string()).collect(),
        });
    }
    Ok(())
}

/// The error for a job the rule needed that its shard did not run.
fn short(input: &Input, t: usize, job: u64, targets: usize) -> BankError {
    // The build's arguments name its targets in order: `level=hard:1000`, `band=2/4:50[...]`.
    let aim = input
        .arguments
        .split_whitespace()
        .filter(|w| w.starts_with("level=") || w.starts_with("band="))
        .nth(t)
        .and_then(|w| w.split(':').next())
        .map(|w| w.replacen('=', " ", 1));
    let target = match (targets, aim) {
        (1, None) => "its puzzles".to_string(),
        (_, Some(aim)) => format!("the {aim}"),
        (n, None) => format!("target {} of {n}", t + 1),
    };
    BankError::ShardShort {
        path: input.path.clone(),
        shard: input.shard.to_string(),
        target,
        job,
    }
}
