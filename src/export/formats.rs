//! The export file formats. Every writer is a pure function of the exported puzzles (no
//! clock, no randomness), so exporting the same dates again gives byte-identical files.
//!
//! | format | files | solutions |
//! |---|---|---|
//! | txt | `DATE.txt` | a `# solutions` section at the end |
//! | csv | `DATE.csv` | a `solution` column |
//! | json | `DATE.json` | a `solution` key per puzzle |
//! | sdk | `DATE.sdk` | `DATE-solutions.sdk` |
//! | html | `DATE.html` | pages after the puzzles ([`super::pages`]) |
//! | pdf | `DATE.pdf` (and `DATE-cover.pdf`, `--cover`) | pages after the puzzles |
//! | sdk, pdf `--per-puzzle`; svg, eps | `DATE-SLOT.EXT` | `DATE-SLOT-solution.EXT` |
//!
//! With `--single-file` (and in a `--book`), `DATE` is `FIRST_to_LAST` and the file holds the
//! whole range; a book's files are named after it, its grids by number (`NAME-007.svg`).
//! A daily puzzle is printed with its number in the bank's daily series ("No. N", the
//! `number` of `GET /v1/daily` and of the csv, txt and json files); a book's are numbered 1..N
//! in book order.

use super::{ExportOptions, Exported, Format, OnDay};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// A file an export wrote under its temporary name.
#[derive(Clone, Debug)]
pub struct Written {
    /// The temporary path.
    pub tmp: PathBuf,
    /// The final path, once the export's records are committed.
    pub fin: PathBuf,
    /// The blake3 hash of its bytes, hex.
    pub hash: String,
}

/// Writes the files of an export under temporary names in `dir` (flushed to disk).
/// `progress("writing", done, total)` is called before each group of puzzles (a day, or the
/// whole range in one file).
pub fn write_temporaries(
    dir: &Path,
    opts: &ExportOptions,
    days: &[(String, Vec<Exported>)],
    before: &[Exported],
    progress: &dyn Fn(&'static str, u64, u64),
) -> super::Result<(Vec<Written>, Vec<super::Lone>)> {
    let groups = grouped(opts, days);
    let mut out = Vec::new();
    let mut lone = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        progress("writing", i as u64, groups.len() as u64);
        let before = if i == 0 { before } else { &groups[i - 1].puzzles };
        let Rendered { files, lone: pages } = render(opts, &g.name, &g.puzzles, g.first_number, before)?;
        if let (false, Some((file, _))) = (pages.is_empty(), files.first()) {
            lone.push(super::Lone {
                file: file.clone(),
                pages,
            });
        }
        for (file, bytes) in files {
            let fin = dir.join(&file);
            let tmp = dir.join(format!("{}{file}.tmp", super::TEMP_PREFIX));
            std::fs::File::create(&tmp)
                .and_then(|mut f| {
                    f.write_all(&bytes)?;
                    f.sync_all()
                })
                .map_err(super::ExportError::io(&tmp))?;
            out.push(Written {
                tmp,
                fin,
                hash: blake3::hash(&bytes).to_hex().to_string(),
            });
        }
    }
    Ok((out, lone))
}

/// The files (name, bytes) of one group of puzzles named `name` (a date or a date range), the
/// printed ones numbered from `first_number` (a daily puzzle by its number in the bank's
/// series); `before`: the day before the first's puzzles (yesterday's solutions). With the
/// printed page numbers holding a lone grid.
pub fn render(
    opts: &ExportOptions,
    name: &str,
    puzzles: &[Exported],
    first_number: u32,
    before: &[Exported],
) -> super::Result<Rendered> {
    let ext = opts.format.extension();
    let pages = || super::pages::lay_out_after(&opts.print, puzzles, first_number, before);
    if opts.per_puzzle || opts.format.single_grid() {
        return Ok(Rendered {
            files: single_grids(opts, name, puzzles, first_number)?,
            lone: Vec::new(),
        });
    }
    let mut lone = Vec::new();
    let files = match opts.format {
        Format::Txt => vec![(format!("{name}.{ext}"), txt(name, puzzles).into_bytes())],
        Format::Csv => vec![(format!("{name}.{ext}"), csv(puzzles).into_bytes())],
        Format::Json => vec![(format!("{name}.{ext}"), json(name, puzzles).into_bytes())],
        Format::Sdk => vec![
            (format!("{name}.{ext}"), sdk(puzzles, false).into_bytes()),
            (
                format!("{name}-solutions.{ext}"),
                sdk(puzzles, true).into_bytes(),
            ),
        ],
        Format::Html => {
            let pages = pages();
            lone = pages.lone.clone();
            vec![(format!("{name}.{ext}"), super::html::render(&pages).into_bytes())]
        }
        Format::Pdf => {
            let files = printed(opts, name, puzzles, first_number, before)?;
            if let Some(Drawn::Interior(p)) = files.first().map(|f| &f.drawn) {
                lone = p.lone.clone();
            }
            files.into_iter().map(|p| (p.file, p.bytes)).collect()
        }
        Format::Svg | Format::Eps => unreachable!("one grid per file, written above"),
    };
    Ok(Rendered { files, lone })
}

/// The files of one group of puzzles: (name, bytes), and the printed page numbers holding a
/// lone grid.
pub struct Rendered {
    /// The files, named.
    pub files: Vec<(String, Vec<u8>)>,
    /// The printed pages holding a lone grid.
    pub lone: Vec<usize>,
}

/// The puzzles of one file (or of one file per grid): its name, its puzzles and the number
/// its first is printed with when it has none of its own (1..N across the export).
struct Group {
    name: String,
    puzzles: Vec<Exported>,
    first_number: u32,
}

/// The files' groups of puzzles: one for the range (`--single-file`, a book), else a day each.
fn grouped(opts: &ExportOptions, days: &[(String, Vec<Exported>)]) -> Vec<Group> {
    let named: Vec<(String, Vec<Exported>)> = if (opts.single_file || opts.print.book) && !days.is_empty() {
        let (first, last) = (&days[0].0, &days[days.len() - 1].0);
        let name = if first == last {
            first.clone()
        } else {
            format!("{first}_to_{last}")
        };
        vec![(name, days.iter().flat_map(|d| d.1.clone()).collect())]
    } else {
        days.to_vec()
    };
    let mut first_number = 1;
    named
        .into_iter()
        .map(|(name, puzzles)| {
            let g = Group {
                name,
                first_number,
                puzzles,
            };
            first_number += g.puzzles.len() as u32;
            g
        })
        .collect()
}

/// A printed PDF file with what it was drawn from.
pub struct Printed {
    /// The file's name.
    pub file: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// What it was drawn from: the interior's pages, or the cover.
    pub drawn: Drawn,
}

/// What a printed file was drawn from.
pub enum Drawn {
    /// An interior's pages.
    Interior(super::pages::Pages),
    /// A cover.
    Cover(Box<super::cover::Cover>),
}

/// The PDF files of one group of puzzles (as [`render`]), with what each was drawn from.
pub fn printed(
    opts: &ExportOptions,
    name: &str,
    puzzles: &[Exported],
    first_number: u32,
    before: &[Exported],
) -> super::Result<Vec<Printed>> {
    let pages = super::pages::lay_out_after(&opts.print, puzzles, first_number, before);
    let cover = opts
        .print
        .cover
        .then(|| super::cover::lay_out(&opts.print, &pages.title, puzzles, pages.pages.len()));
    let mut files = vec![Printed {
        file: format!("{name}.pdf"),
        bytes: super::pdf::render(&pages)?,
        drawn: Drawn::Interior(pages),
    }];
    if let Some(cover) = cover {
        files.push(Printed {
            file: format!("{name}-cover.pdf"),
            bytes: super::pdf::render(&cover.pages)?,
            drawn: Drawn::Cover(Box::new(cover)),
        });
    }
    Ok(files)
}

/// The preflight of each printed file `groups` would give (nothing written).
pub fn preflight(
    opts: &ExportOptions,
    groups: &[(String, Vec<Exported>)],
    before: &[Exported],
) -> super::Result<Vec<super::preflight::Preflight>> {
    let mut out = Vec::new();
    let groups = grouped(opts, groups);
    for (i, g) in groups.iter().enumerate() {
        let before = if i == 0 { before } else { &groups[i - 1].puzzles };
        for p in printed(opts, &g.name, &g.puzzles, g.first_number, before)? {
            out.push(match &p.drawn {
                Drawn::Interior(pages) => {
                    super::preflight::interior(&p.file, pages, &p.bytes, &opts.print)
                }
                Drawn::Cover(c) => super::preflight::cover(&p.file, c, &p.bytes),
            });
        }
    }
    Ok(out)
}

/// One file per grid and one per solution: `DATE-SLOT.EXT` and `DATE-SLOT-solution.EXT`, a
/// book's `NAME-NUMBER.EXT` (numbers zero-padded to the same width).
fn single_grids(
    opts: &ExportOptions,
    name: &str,
    puzzles: &[Exported],
    first_number: u32,
) -> super::Result<Vec<(String, Vec<u8>)>> {
    use super::single::{self, Vector};
    let ext = opts.format.extension();
    let numbered = super::pages::numbered(&opts.print, puzzles, first_number);
    let digits = numbered.len().to_string().len().max(3);
    let width = opts.print.grid_width;
    let mut files = Vec::new();
    for (number, p) in numbered {
        let stem = match p.date {
            None => format!("{name}-{number:0digits$}"),
            Some(d) => format!("{d}-{}", p.slot),
        };
        for (suffix, solution) in [("", None), ("-solution", Some(p.solution))] {
            let title = format!("Sudoku No. {number}{}", if solution.is_some() { ", solution" } else { "" });
            let bytes = match opts.format {
                Format::Sdk => sdk(std::slice::from_ref(p), solution.is_some()).into_bytes(),
                Format::Svg => single::render(Vector::Svg, &p.puzzle, solution.as_ref(), width, &title),
                Format::Eps => single::render(Vector::Eps, &p.puzzle, solution.as_ref(), width, &title),
                _ => super::pdf::render(&super::pages::one_grid(&title, p.puzzle, solution, width))?,
            };
            files.push((format!("{stem}{suffix}.{ext}"), bytes));
        }
    }
    Ok(files)
}

fn txt(name: &str, puzzles: &[Exported]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# pseudoku puzzles {name}");
    let _ = writeln!(
        s,
        "# date\tslot\tlevel\tpuzzle\tdifficulty\thsolve\tpercentile\tid\tnumber"
    );
    for p in puzzles {
        let _ = writeln!(s, "{}", columns(p, false).join("\t"));
    }
    let _ = writeln!(s, "\n# solutions");
    let _ = writeln!(s, "# date\tslot\tlevel\tsolution\tid");
    for p in puzzles {
        let _ = writeln!(
            s,
            "{}\t{}\t{}\t{}\t{}",
            OnDay(p.date), p.slot, p.level, p.solution, p.id
        );
    }
    s
}

fn csv(puzzles: &[Exported]) -> String {
    let mut s =
        String::from("date,slot,level,puzzle,solution,difficulty,hsolve,percentile,id,number\n");
    for p in puzzles {
        let _ = writeln!(s, "{}", columns(p, true).join(","));
    }
    s
}

/// A puzzle's columns in the files' order: date, slot, level, puzzle, its solution when
/// `solution`, difficulty (empty when it has none), hsolve, percentile, id and number in the
/// daily series (empty for a book's).
fn columns(p: &Exported, solution: bool) -> Vec<String> {
    let mut c = vec![
        OnDay(p.date).to_string(),
        p.slot.to_string(),
        p.level.clone(),
        p.puzzle.to_string(),
    ];
    if solution {
        c.push(p.solution.to_string());
    }
    c.extend([
        optional(p.difficulty),
        p.hsolve.to_string(),
        p.percentile.to_string(),
        p.id.to_string(),
        p.number.map_or(String::new(), |n| n.to_string()),
    ]);
    c
}

/// An optional rating as text: empty when there is none.
fn optional(v: Option<f64>) -> String {
    v.map_or(String::new(), |d| d.to_string())
}

fn json(name: &str, puzzles: &[Exported]) -> String {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        name: &'a str,
        puzzles: &'a [Exported],
    }
    let mut s = serde_json::to_string_pretty(&Doc { name, puzzles }).expect("serializable");
    s.push('\n');
    s
}

/// The nine rows of a grid, `.` for empty.
fn rows(cells: &str) -> impl Iterator<Item = &str> {
    (0..9).map(move |r| &cells[9 * r..9 * r + 9])
}

fn sdk(puzzles: &[Exported], solutions: bool) -> String {
    let mut s = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let _ = writeln!(s, "#S pseudoku");
        let _ = writeln!(s, "#B {}", OnDay(p.date));
        let _ = writeln!(s, "#L {}", p.level);
        let _ = writeln!(
            s,
            "#C {}slot {}, id {}, {}, percentile {}{}",
            p.number.map_or(String::new(), |n| format!("No. {n}, ")),
            p.slot,
            p.id,
            p.shown_rating(),
            p.percentile,
            if solutions { ", solution" } else { "" }
        );
        let cells = if solutions {
            p.solution.to_line()
        } else {
            p.puzzle.to_line()
        };
        for row in rows(&cells) {
            let _ = writeln!(s, "{row}");
        }
    }
    s
}
