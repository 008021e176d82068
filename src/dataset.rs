//! `dataset`: a bank, or a part of it (some levels, a number of puzzles a level), written as
//! `train`, `validation` and `test` files for machine learning, with a manifest that lets the
//! same set be made again byte for byte.
//!
//! The split never separates a group: by default a group is a class (the puzzle's canonical
//! form: a bank holds one puzzle a class, and the rows of two banks' datasets of one class
//! land in the same split), or with [`Group::Grid`] every puzzle whose solution grid is the
//! same grid up to symmetry (the pseudo-generator makes many puzzles of one seed's grid, so a
//! model could otherwise meet a test puzzle's solution in training). A group's split is read
//! off a hash of its key and the dataset's seed, so a split is the same whatever else the
//! bank holds and whatever the thread count; with `per_level`, each level's puzzles are chosen
//! the same way (the smallest hashes of their class keys).
//!
//! Two passes over the bank, in id order, a chunk at a time: the first reads each row's level
//! and group and decides the rows' splits; the second writes the chosen rows, in id order, to
//! their split's files. Memory holds a few numbers a row, not the rows. The folder is the set's
//! own: the files are written into a fresh folder beside it, which takes its place in one step
//! once every file is whole (the two folders exchanged), so a set is never part old and part
//! new, and a format not asked for again does not linger; an interrupted dataset leaves the
//! earlier set as it was. A folder holding anything but a set's files is refused.

use crate::canon::{self, Key};
use crate::levels::{Levels, LevelsError, RatingKind};
use crate::retrieve::{self, Handout, RetrieveError};
use crate::store::{self, retrieval::PuzzleRow, StoreError};
use crate::technique::Strategy;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Rows read from the bank at a time.
const CHUNK: u32 = 20_000;

/// The three splits, in the order of their fractions and files.
pub const SPLITS: [&str; 3] = ["train", "validation", "test"];

/// What a split keeps together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Puzzles of one class (canonical form).
    Class,
    /// Puzzles whose solution grids are one grid up to symmetry.
    Grid,
}

impl Group {
    /// Every grouping.
    pub const ALL: [Group; 2] = [Group::Class, Group::Grid];

    /// Its name in options and the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Group::Class => "class",
            Group::Grid => "grid",
        }
    }

    /// What it keeps together, in a line.
    pub fn about(self) -> &'static str {
        match self {
            Group::Class => "the puzzles of one class (canonical form) share a split",
            Group::Grid => "the puzzles of one solution grid (up to symmetry) share a split",
        }
    }
}

/// A file format of a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON object a line.
    Jsonl,
    /// Apache Parquet (the arrow ecosystem's columnar format).
    Parquet,
}

/// The formats written when none is named: every one this program has.
#[cfg(feature = "parquet")]
pub const DEFAULT_FORMATS: &str = "csv,jsonl,parquet";
/// The formats written when none is named: every one this program has.
#[cfg(not(feature = "parquet"))]
pub const DEFAULT_FORMATS: &str = "csv,jsonl";

impl DataFormat {
    /// Every format.
    pub const ALL: [DataFormat; 3] = [DataFormat::Csv, DataFormat::Jsonl, DataFormat::Parquet];

    /// What it is, in a line.
    pub fn about(self) -> &'static str {
        match self {
            DataFormat::Csv => "comma-separated values with a header line",
            DataFormat::Jsonl => "one JSON object a line",
            DataFormat::Parquet => "Apache Parquet, snappy-compressed (arrow, pandas, polars)",
        }
    }

    /// Its name in options, and its files' extension.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Csv => "csv",
            DataFormat::Jsonl => "jsonl",
            DataFormat::Parquet => "parquet",
        }
    }
}

/// What to write.
#[derive(Clone, Debug)]
pub struct DatasetOptions {
    /// The bank.
    pub db: PathBuf,
    /// The set's folder: created if missing, replaced whole if it holds a set (a folder
    /// holding anything else is refused).
    pub out: PathBuf,
    /// The levels to take (none: every level).
    pub levels: Vec<String>,
    /// At most this many puzzles of each level taken.
    pub per_level: Option<u64>,
    /// The shares of train, validation and test (they sum to 1).
    pub split: [f64; 3],
    /// What a split keeps together.
    pub group: Group,
    /// The formats to write (each split in each).
    pub formats: Vec<DataFormat>,
    /// The seed of the split and of the choice of puzzles.
    pub seed: u64,
    /// The command that asked for it, as the manifest records it.
    pub command: Vec<String>,
}

/// One row of a dataset: a puzzle with its solution, ratings, hardest step and level.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Record {
    /// Its id in the bank.
    pub id: i64,
    /// The puzzle, 81 characters, `.` for empty.
    pub puzzle: String,
    /// Its solution, 81 digits.
    pub solution: String,
    /// Its level's name.
    pub level: String,
    /// Its `difficulty` rating (empty for a row no build has rated).
    pub difficulty: Option<f64>,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
    /// The hardest hsolve tier it needs (0-6).
    pub tier: u8,
    /// The hardest step of the `difficulty` ladder it needs.
    pub hardest_step: Option<&'static str>,
    /// How many such steps a solve takes.
    pub hardest_steps: Option<u16>,
    /// Its number of clues.
    pub clues: u8,
    /// Its class key: blake3 of its canonical form, hex.
    pub class_key: String,
    /// The class key of its solution grid, hex: equal for puzzles of one grid up to symmetry.
    pub grid_key: String,
}

/// The columns of a [`Record`], in order, with what each holds.
pub const COLUMNS: [(&str, &str); 13] = [
    ("id", "the puzzle's id in the bank"),
    ("puzzle", "81 characters, '.' for empty"),
    ("solution", "81 digits"),
    ("level", "the level's name on the bank's levels"),
    (
        "difficulty",
        "the difficulty rating (empty when the row has none)",
    ),
    ("hsolve", "the hsolve rating"),
    ("percentile", "the percentile against the bank's reference"),
    ("tier", "the hardest hsolve tier needed (0-6)"),
    (
        "hardest_step",
        "the hardest step of the difficulty ladder needed",
    ),
    ("hardest_steps", "how many such steps a solve takes"),
    ("clues", "the number of clues"),
    ("class_key", "blake3 of the canonical form, hex"),
    ("grid_key", "the class key of the solution grid, hex"),
];

impl Record {
    /// The row of a handed-out puzzle, whose solution grid's class key is `grid` when already
    /// known.
    fn of(h: &Handout, grid: Option<Key>) -> Record {
        let grid_key = grid.unwrap_or_else(|| canon::canonical_grid(&h.solution).key());
        Record {
            id: h.id,
            puzzle: h.puzzle.to_string(),
            solution: h.solution.to_string(),
            level: h.level.clone().unwrap_or_default(),
            difficulty: h.difficulty,
            hsolve: h.hsolve,
            percentile: h.percentile,
            tier: h.tier,
            hardest_step: h.hardest.map(|s| Strategy::name(s.strategy)),
            hardest_steps: h.hardest.map(|s| s.count),
            clues: h.puzzle.clues() as u8,
            class_key: h.key.to_hex(),
            grid_key: grid_key.to_hex(),
        }
    }
}

/// What was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// Rows per split.
    pub rows: [u64; 3],
    /// The files, as the manifest lists them (name, rows, blake3 of the bytes), the manifest
    /// last.
    pub files: Vec<(String, u64, String)>,
}

/// What can stop a dataset.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The bank failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank's levels could not be read.
    #[error(transparent)]
    Levels(#[from] LevelsError),
    /// A puzzle could not be handed out.
    #[error(transparent)]
    Retrieve(#[from] RetrieveError),
    /// A level that the bank does not have.
    #[error("the bank has no level {name:?}; its levels are {levels}")]
    NoLevel {
        /// The name asked for.
        name: String,
        /// The bank's levels, listed.
        levels: String,
    },
    /// Shares that are not three non-negative numbers summing to 1.
    #[error("the split's shares must be three numbers from 0 to 1 that sum to 1, not {0:?}")]
    Split([f64; 3]),
    /// No format asked for.
    #[error("no format to write")]
    NoFormat,
    /// The folder holds files that are not a dataset's.
    #[error(
        "{}: the folder holds {found}, which no dataset writes: a dataset is written into a \
         folder of its own (which it replaces whole), so give a new or empty folder",
        .folder.display()
    )]
    NotASet {
        /// The folder.
        folder: PathBuf,
        /// What it holds that a dataset does not write.
        found: String,
    },
    /// A file could not be written.
    #[error("{}: {error}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A Parquet file could not be made.
    #[cfg(feature = "parquet")]
    #[error("{}: {error}", path.display())]
    Parquet {
        /// The file.
        path: PathBuf,
        /// Why.
        error: parquet::errors::ParquetError,
    },
    /// Parquet was asked for from a program built without it.
    #[error("this program was built without Parquet (the cargo feature `parquet`)")]
    NoParquet,
}

/// The split (0 train, 1 validation, 2 test) of a group whose hash is `h`.
fn split_of(h: u64, split: &[f64; 3]) -> usize {
    let x = (h >> 11) as f64 / (1u64 << 53) as f64;
    if x < split[0] {
        0
    } else if x < split[0] + split[1] {
        1
    } else {
        2
    }
}

/// The hash of `key` under the dataset's `seed` and a `purpose` (the choice of puzzles, or the
/// split).
fn hash(purpose: &str, seed: u64, key: &Key) -> u64 {
    let mut h = blake3::Hasher::new();
    h.update(purpose.as_bytes());
    h.update(&seed.to_le_bytes());
    h.update(&key.0);
    let b = h.finalize();
    u64::from_le_bytes(b.as_bytes()[..8].try_into().expect("8 bytes"))
}

/// Writes the dataset `opts` asks for.
pub fn write(opts: &DatasetOptions) -> Result<Written, DatasetError> {
    let [a, b, c] = opts.split;
    if opts.split.iter().any(|s| !(0.0..=1.0).contains(s)) || ((a + b + c) - 1.0).abs() > 1e-9 {
        return Err(DatasetError::Split(opts.split));
    }
    if opts.formats.is_empty() {
        return Err(DatasetError::NoFormat);
    }
    #[cfg(not(feature = "parquet"))]
    if opts.formats.contains(&DataFormat::Parquet) {
        return Err(DatasetError::NoParquet);
    }
    let conn = store::open_existing(&opts.db)?;
    let levels = Levels::read(&conn)?;
    let names = levels.set.names().names().to_vec();
    let wanted: Vec<u32> = if opts.levels.is_empty() {
        (0..names.len() as u32).collect()
    } else {
        opts.levels
            .iter()
            .map(|name| {
                levels
                    .set
                    .index(name)
                    .map(|i| i as u32)
                    .ok_or_else(|| DatasetError::NoLevel {
                        name: name.clone(),
                        levels: names.join(", "),
                    })
            })
            .collect::<Result<_, _>>()?
    };
    let mut formats = opts.formats.clone();
    let mut seen = Vec::new();
    formats.retain(|f| {
        let first = !seen.contains(f);
        seen.push(*f);
        first
    });
    let folder = SetFolder::claim(&opts.out)?;
    let chosen = choose(&conn, &levels, opts, &wanted)?;
    let mut sinks = Vec::new();
    for (s, name) in SPLITS.iter().enumerate() {
        for &format in &formats {
            sinks.push((s, Sink::create(&folder.fresh, name, format)?));
        }
    }
    let mut rows = [0u64; 3];
    each_chunk(&conn, levels.rating, |chunk| {
        let records: Vec<(usize, Record)> = chunk
            .into_par_iter()
            .filter_map(|row| chosen.get(&row.id).map(|&(s, grid)| (s, grid, row)))
            .map(|(s, grid, row)| Ok((s, Record::of(&retrieve::hand_out(row, &levels)?, grid))))
            .collect::<Result<_, DatasetError>>()?;
        for (s, record) in &records {
            rows[*s] += 1;
            for (sink_split, sink) in &mut sinks {
                if sink_split == s {
                    sink.push(record)?;
                }
            }
        }
        Ok(())
    })?;
    let mut files = Vec::new();
    for (s, sink) in sinks {
        let (name, digest) = sink.finish()?;
        files.push((name, rows[s], digest));
    }
    let manifest = manifest(&conn, &levels, opts, &wanted, &rows, &files)?;
    let path = folder.fresh.join("manifest.json");
    write_synced(&path, manifest.as_bytes()).map_err(|error| DatasetError::File { path, error })?;
    files.push((
        "manifest.json".into(),
        0,
        blake3::hash(manifest.as_bytes()).to_hex().to_string(),
    ));
    // Every file is whole: the new set takes the old one's place in one step.
    folder.swap()?;
    Ok(Written { rows, files })
}

/// `bytes` written to a new file at `path`, on the disk before it returns.
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Whether `name` is a file a dataset writes (a split in a format, or the manifest), or one an
/// earlier version left while writing.
fn set_file(name: &str) -> bool {
    if name == "manifest.json" || (name.starts_with(".pseudoku-") && name.ends_with(".partial")) {
        return true;
    }
    name.split_once('.').is_some_and(|(split, ext)| {
        SPLITS.contains(&split) && DataFormat::ALL.iter().any(|f| f.name() == ext)
    })
}

/// The folder a set goes to (`out`) and the fresh one beside it that the new set is written
/// into, until [`SetFolder::swap`] puts it in `out`'s place; dropped before, the fresh folder
/// is removed and `out` is as it was.
struct SetFolder {
    out: PathBuf,
    fresh: PathBuf,
    swapped: bool,
}

impl SetFolder {
    /// Checks that `out` is missing or holds a set's files only, and makes the fresh folder
    /// beside it (a leftover of an interrupted dataset removed first).
    fn claim(out: &Path) -> Result<SetFolder, DatasetError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| DatasetError::File { path, error }
        };
        match std::fs::read_dir(out) {
            Ok(entries) => {
                let mut foreign = Vec::new();
                for entry in entries {
                    let name = entry.map_err(io(out))?.file_name();
                    let name = name.to_string_lossy();
                    if !set_file(&name) {
                        foreign.push(name.into_owned());
                    }
                }
                if !foreign.is_empty() {
                    foreign.sort();
                    let more = foreign.len().saturating_sub(3);
                    foreign.truncate(3);
                    let mut found = foreign.join(", ");
                    if more > 0 {
                        found.push_str(&format!(" and {more} more"));
                    }
                    return Err(DatasetError::NotASet {
                        folder: out.to_path_buf(),
                        found,
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(out)(e)),
        }
        let name = out
            .file_name()
            .map_or_else(|| "set".into(), |n| n.to_string_lossy().into_owned());
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let fresh = parent.join(format!(".{name}.pseudoku-new"));
        if fresh.exists() {
            std::fs::remove_dir_all(&fresh).map_err(io(&fresh))?;
        }
        std::fs::create_dir(&fresh).map_err(io(&fresh))?;
        Ok(SetFolder {
            out: out.to_path_buf(),
            fresh,
            swapped: false,
        })
    }

    /// Puts the fresh folder in `out`'s place in one step (on Linux the two folders are
    /// exchanged; elsewhere the old one is moved aside first), then removes the old set.
    fn swap(mut self) -> Result<(), DatasetError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| DatasetError::File { path, error }
        };
        if !self.out.exists() {
            std::fs::rename(&self.fresh, &self.out).map_err(io(&self.out))?;
            self.swapped = true;
            return Ok(());
        }
        #[cfg(target_os = "linux")]
        rustix::fs::renameat_with(
            rustix::fs::CWD,
            &self.fresh,
            rustix::fs::CWD,
            &self.out,
            rustix::fs::RenameFlags::EXCHANGE,
        )
        .map_err(|e| io(&self.out)(e.into()))?;
        #[cfg(not(target_os = "linux"))]
        {
            let aside = self.fresh.with_extension("old");
            std::fs::rename(&self.out, &aside).map_err(io(&self.out))?;
            std::fs::rename(&self.fresh, &self.out).map_err(io(&self.out))?;
            std::fs::rename(&aside, &self.fresh).map_err(io(&self.fresh))?;
        }
        self.swapped = true;
        // The fresh folder's name now holds the old set.
        std::fs::remove_dir_all(&self.fresh).map_err(io(&self.fresh))
    }
}

impl Drop for SetFolder {
    fn drop(&mut self) {
        if !self.swapped {
            let _ = std::fs::remove_dir_all(&self.fresh);
        }
    }
}

/// Calls `f` on every row of the bank, in id order, [`CHUNK`] rows at a time.
fn each_chunk(
    conn: &store::Bank,
    rating: RatingKind,
    mut f: impl FnMut(Vec<PuzzleRow>) -> Result<(), DatasetError>,
) -> Result<(), DatasetError> {
    let mut after = 0;
    loop {
        let chunk = store::retrieval::rows_after(conn, rating, after, CHUNK)?;
        let Some(last) = chunk.last() else {
            return Ok(());
        };
        after = last.id;
        f(chunk)?;
    }
}

/// One row the first pass takes: its id, level, choice hash, split, and its solution grid's
/// class key when the grouping needed it (the second pass then need not make it again).
type Taken = (i64, u32, u64, usize, Option<Key>);

/// The first pass: the split of every row the dataset takes (and its grid's key when made),
/// by id.
fn choose(
    conn: &store::Bank,
    levels: &Levels,
    opts: &DatasetOptions,
    wanted: &[u32],
) -> Result<HashMap<i64, (usize, Option<Key>)>, DatasetError> {
    let mut all: Vec<Taken> = Vec::new();
    each_chunk(conn, levels.rating, |chunk| {
        let part: Vec<Taken> = chunk
            .into_par_iter()
            .filter_map(|row| {
                let level = row.level.filter(|l| wanted.contains(l))?;
                Some((row, level))
            })
            .map(|(row, level)| {
                let grid = match opts.group {
                    Group::Class => None,
                    Group::Grid => {
                        let solution = retrieve::solve(&row.puzzle, row.id)?;
                        Some(canon::canonical_grid(&solution).key())
                    }
                };
                let group = grid.unwrap_or(row.key);
                let split = split_of(hash("split", opts.seed, &group), &opts.split);
                Ok((
                    row.id,
                    level,
                    hash("choice", opts.seed, &row.key),
                    split,
                    grid,
                ))
            })
            .collect::<Result<_, DatasetError>>()?;
        all.extend(part);
        Ok(())
    })?;
    if let Some(n) = opts.per_level {
        all.sort_by_key(|&(id, level, h, _, _)| (level, h, id));
        let mut kept = Vec::with_capacity(all.len());
        let mut taken: HashMap<u32, u64> = HashMap::new();
        for item in all {
            let t = taken.entry(item.1).or_default();
            if *t < n {
                *t += 1;
                kept.push(item);
            }
        }
        all = kept;
    }
    Ok(all
        .into_iter()
        .map(|(id, _, _, s, grid)| (id, (s, grid)))
        .collect())
}

/// The manifest: what the set is, how to make it again, and what it holds.
fn manifest(
    conn: &store::Bank,
    levels: &Levels,
    opts: &DatasetOptions,
    wanted: &[u32],
    rows: &[u64; 3],
    files: &[(String, u64, String)],
) -> Result<String, DatasetError> {
    let names = levels.set.names().names();
    let lineage = store::lineage::latest(conn)?;
    let value = serde_json::json!({
        "dataset": "pseudoku dataset 1",
        "command": opts.command,
        "bank": {
            "id": store::settings::get(conn, "bank_id")?,
            "puzzles_to_id": lineage.as_ref().map(|l| l.0),
            "lineage": lineage.map(|l| l.1.iter().map(|b| format!("{b:02x}")).collect::<String>()),
        },
        "rater": crate::rate::RATER,
        "rating": levels.rating.name(),
        "levels": wanted.iter().map(|&i| names[i as usize].as_str()).collect::<Vec<_>>(),
        "per_level": opts.per_level,
        "seed": opts.seed,
        "group": opts.group.name(),
        "split": SPLITS.iter().zip(opts.split).map(|(n, s)| (n.to_string(), serde_json::json!(s))).collect::<serde_json::Map<_, _>>(),
        "rows": SPLITS.iter().zip(rows).map(|(n, r)| (n.to_string(), serde_json::json!(r))).collect::<serde_json::Map<_, _>>(),
        "columns": COLUMNS.iter().map(|(n, d)| serde_json::json!({"name": n, "holds": d})).collect::<Vec<_>>(),
        "files": files.iter().map(|(n, r, d)| serde_json::json!({"name": n, "rows": r, "blake3": d})).collect::<Vec<_>>(),
    });
    Ok(serde_json::to_string_pretty(&value).expect("a manifest serializes") + "\n")
}

/// A split's text file being written, and the digest of its bytes so far.
struct TextSink {
    name: String,
    path: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    csv: bool,
    hasher: blake3::Hasher,
}

/// Where one split's rows go in one format.
enum Sink {
    /// A text format: CSV or JSON lines.
    Text(Box<TextSink>),
    /// A Parquet file.
    #[cfg(feature = "parquet")]
    Parquet(Box<parquet_sink::ParquetSink>),
}

impl Sink {
    fn create(dir: &Path, split: &str, format: DataFormat) -> Result<Sink, DatasetError> {
        let name = format!("{split}.{}", format.name());
        let path = dir.join(&name);
        let io = |error| DatasetError::File {
            path: path.clone(),
            error,
        };
        match format {
            DataFormat::Csv | DataFormat::Jsonl => {
                let file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(io)?);
                let mut sink = Sink::Text(Box::new(TextSink {
                    name,
                    path: path.clone(),
                    file,
                    csv: format == DataFormat::Csv,
                    hasher: blake3::Hasher::new(),
                }));
                if format == DataFormat::Csv {
                    let header = COLUMNS.map(|c| c.0).join(",") + "\n";
                    sink.write_text(header.as_bytes())?;
                }
                Ok(sink)
            }
            #[cfg(feature = "parquet")]
            DataFormat::Parquet => Ok(Sink::Parquet(Box::new(parquet_sink::ParquetSink::create(
                name, path,
            )?))),
            #[cfg(not(feature = "parquet"))]
            DataFormat::Parquet => Err(DatasetError::NoParquet),
        }
    }

    fn write_text(&mut self, bytes: &[u8]) -> Result<(), DatasetError> {
        match self {
            Sink::Text(s) => {
                s.hasher.update(bytes);
                s.file.write_all(bytes).map_err(|error| DatasetError::File {
                    path: s.path.clone(),
                    error,
                })
            }
            #[cfg(feature = "parquet")]
            Sink::Parquet(_) => unreachable!("text into a Parquet file"),
        }
    }

    fn push(&mut self, r: &Record) -> Result<(), DatasetError> {
        match self {
            Sink::Text(s) => {
                let line = match s.csv {
                    true => csv_line(r),
                    false => serde_json::to_string(r).expect("a record serializes") + "\n",
                };
                self.write_text(line.as_bytes())
            }
            #[cfg(feature = "parquet")]
            Sink::Parquet(p) => p.push(r),
        }
    }

    /// Closes the file: its name and the blake3 of its bytes.
    fn finish(self) -> Result<(String, String), DatasetError> {
        match self {
            Sink::Text(s) => {
                let TextSink {
                    name,
                    path,
                    mut file,
                    hasher,
                    ..
                } = *s;
                file.flush()
                    .and_then(|()| file.get_ref().sync_all())
                    .map_err(|error| DatasetError::File { path, error })?;
                Ok((name, hasher.finalize().to_hex().to_string()))
            }
            #[cfg(feature = "parquet")]
            Sink::Parquet(p) => p.finish(),
        }
    }
}

/// A record as a CSV line (no field holds a comma, a quote or a line break).
fn csv_line(r: &Record) -> String {
    let opt = |v: Option<String>| v.unwrap_or_default();
    [
        r.id.to_string(),
        r.puzzle.clone(),
        r.solution.clone(),
        r.level.clone(),
        opt(r.difficulty.map(|d| d.to_string())),
        r.hsolve.to_string(),
        r.percentile.to_string(),
        r.tier.to_string(),
        opt(r.hardest_step.map(str::to_string)),
        opt(r.hardest_steps.map(|n| n.to_string())),
        r.clues.to_string(),
        r.class_key.clone(),
        r.grid_key.clone(),
    ]
    .join(",")
        + "\n"
}

#[cfg(feature = "parquet")]
mod parquet_sink {
    //! A split's Parquet file: its rows gathered into row groups of [`GROUP`] rows, written
    //! with arrow's columns.

    use super::{DatasetError, Record, COLUMNS};
    use arrow_array::builder::{
        Float64Builder, Int64Builder, StringBuilder, UInt16Builder, UInt8Builder,
    };
    use arrow_array::{ArrayRef, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;
    use std::path::PathBuf;
    use std::sync::Arc;

    /// Rows per row group.
    const GROUP: usize = 65_536;

    /// The rows of a row group in the making, a builder a column.
    #[derive(Default)]
    struct Columns {
        id: Int64Builder,
        puzzle: StringBuilder,
        solution: StringBuilder,
        level: StringBuilder,
        difficulty: Float64Builder,
        hsolve: Float64Builder,
        percentile: Float64Builder,
        tier: UInt8Builder,
        hardest_step: StringBuilder,
        hardest_steps: UInt16Builder,
        clues: UInt8Builder,
        class_key: StringBuilder,
        grid_key: StringBuilder,
        rows: usize,
    }

    /// A Parquet file being written.
    pub(super) struct ParquetSink {
        name: String,
        path: PathBuf,
        writer: ArrowWriter<std::fs::File>,
        schema: Arc<Schema>,
        columns: Columns,
    }

    fn schema() -> Schema {
        let types = [
            (DataType::Int64, false),
            (DataType::Utf8, false),
            (DataType::Utf8, false),
            (DataType::Utf8, false),
            (DataType::Float64, true),
            (DataType::Float64, false),
            (DataType::Float64, false),
            (DataType::UInt8, false),
            (DataType::Utf8, true),
            (DataType::UInt16, true),
            (DataType::UInt8, false),
            (DataType::Utf8, false),
            (DataType::Utf8, false),
        ];
        Schema::new(
            COLUMNS
                .iter()
                .zip(types)
                .map(|((name, _), (t, nullable))| Field::new(*name, t, nullable))
                .collect::<Vec<_>>(),
        )
    }

    impl ParquetSink {
        pub(super) fn create(name: String, path: PathBuf) -> Result<ParquetSink, DatasetError> {
            let file = std::fs::File::create(&path).map_err(|error| DatasetError::File {
                path: path.clone(),
                error,
            })?;
            let schema = Arc::new(schema());
            let props = parquet::file::properties::WriterProperties::builder()
                .set_compression(parquet::basic::Compression::SNAPPY)
                .set_created_by(format!("pseudoku {}", env!("CARGO_PKG_VERSION")))
                .build();
            let writer =
                ArrowWriter::try_new(file, schema.clone(), Some(props)).map_err(|error| {
                    DatasetError::Parquet {
                        path: path.clone(),
                        error,
                    }
                })?;
            Ok(ParquetSink {
                name,
                path,
                writer,
                schema,
                columns: Columns::default(),
            })
        }

        pub(super) fn push(&mut self, r: &Record) -> Result<(), DatasetError> {
            let c = &mut self.columns;
            c.id.append_value(r.id);
            c.puzzle.append_value(&r.puzzle);
            c.solution.append_value(&r.solution);
            c.level.append_value(&r.level);
            c.difficulty.append_option(r.difficulty);
            c.hsolve.append_value(r.hsolve);
            c.percentile.append_value(r.percentile);
            c.tier.append_value(r.tier);
            c.hardest_step.append_option(r.hardest_step);
            c.hardest_steps.append_option(r.hardest_steps);
            c.clues.append_value(r.clues);
            c.class_key.append_value(&r.class_key);
            c.grid_key.append_value(&r.grid_key);
            c.rows += 1;
            if c.rows == GROUP {
                self.flush()?;
            }
            Ok(())
        }

        fn flush(&mut self) -> Result<(), DatasetError> {
            let mut c = std::mem::take(&mut self.columns);
            if c.rows == 0 {
                return Ok(());
            }
            let arrays: Vec<ArrayRef> = vec![
                Arc::new(c.id.finish()),
                Arc::new(c.puzzle.finish()),
                Arc::new(c.solution.finish()),
                Arc::new(c.level.finish()),
                Arc::new(c.difficulty.finish()),
                Arc::new(c.hsolve.finish()),
                Arc::new(c.percentile.finish()),
                Arc::new(c.tier.finish()),
                Arc::new(c.hardest_step.finish()),
                Arc::new(c.hardest_steps.finish()),
                Arc::new(c.clues.finish()),
                Arc::new(c.class_key.finish()),
                Arc::new(c.grid_key.finish()),
            ];
            let batch = RecordBatch::try_new(self.schema.clone(), arrays)
                .map_err(|e| self.error(e.into()))?;
            self.writer.write(&batch).map_err(|e| self.error(e))?;
            self.writer.flush().map_err(|e| self.error(e))
        }

        fn error(&self, error: parquet::errors::ParquetError) -> DatasetError {
            DatasetError::Parquet {
                path: self.path.clone(),
                error,
            }
        }

        /// Closes the file: its name and the blake3 of its bytes.
        pub(super) fn finish(mut self) -> Result<(String, String), DatasetError> {
            self.flush()?;
            let path = self.path.clone();
            self.writer.close().map_err(|error| DatasetError::Parquet {
                path: path.clone(),
                error,
            })?;
            let bytes = std::fs::read(&path).map_err(|error| DatasetError::File {
                path: path.clone(),
                error,
            })?;
            Ok((self.name, blake3::hash(&bytes).to_hex().to_string()))
        }
    }
}
