//! The export file formats. Every writer is a pure function of the exported puzzles (no
//! clock, no randomness), so exporting the same dates again gives byte-identical files.
//!
//! | format | files | solutions |
//! |---|---|---|
//! | txt | `DATE.txt` | a `# solutions` section at the end |
//! | csv | `DATE.csv` | a `solution` column |
//! | json | `DATE.json` | a `solution` key per puzzle |
//! | sdk | `DATE.sdk` | `DATE-solutions.sdk` |
//! | html | `DATE.html` | pages after the puzzles |
//! | pdf | `DATE.pdf` | pages after the puzzles |
//!
//! With `--single-file`, `DATE` is `FIRST_to_LAST` and the file holds the whole range.

use super::{ExportOptions, Exported, Format};
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
pub fn write_temporaries(
    dir: &Path,
    opts: &ExportOptions,
    days: &[(String, Vec<Exported>)],
) -> super::Result<Vec<Written>> {
    let groups: Vec<(String, Vec<Exported>)> = if opts.single_file {
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
    let mut out = Vec::new();
    for (name, puzzles) in &groups {
        for (file, bytes) in render(opts.format, name, puzzles, opts.per_page) {
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
    Ok(out)
}

/// The files (name, bytes) of one group of puzzles named `name` (a date or a date range).
pub fn render(
    format: Format,
    name: &str,
    puzzles: &[Exported],
    per_page: u8,
) -> Vec<(String, Vec<u8>)> {
    let ext = format.extension();
    match format {
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
        Format::Html => vec![(
            format!("{name}.{ext}"),
            html(name, puzzles, per_page).into_bytes(),
        )],
        Format::Pdf => vec![(
            format!("{name}.{ext}"),
            super::pdf::render(name, puzzles, per_page),
        )],
    }
}

fn txt(name: &str, puzzles: &[Exported]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# pseudoku puzzles {name}");
    let _ = writeln!(
        s,
        "# date\tslot\tlevel\tpuzzle\tdifficulty\thsolve\tpercentile\tid"
    );
    for p in puzzles {
        let _ = writeln!(
            s,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            p.date,
            p.slot,
            p.level,
            p.puzzle,
            optional(p.difficulty),
            p.hsolve,
            p.percentile,
            p.id
        );
    }
    let _ = writeln!(s, "\n# solutions");
    let _ = writeln!(s, "# date\tslot\tlevel\tsolution\tid");
    for p in puzzles {
        let _ = writeln!(
            s,
            "{}\t{}\t{}\t{}\t{}",
            p.date, p.slot, p.level, p.solution, p.id
        );
    }
    s
}

fn csv(puzzles: &[Exported]) -> String {
    let mut s = String::from("date,slot,level,puzzle,solution,difficulty,hsolve,percentile,id\n");
    for p in puzzles {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{}",
            p.date,
            p.slot,
            p.level,
            p.puzzle,
            p.solution,
            optional(p.difficulty),
            p.hsolve,
            p.percentile,
            p.id
        );
    }
    s
}

/// An optional rating as text: empty when there is none.
fn optional(v: Option<f64>) -> String {
    v.map_or(String::new(), |d| d.to_string())
}

/// The rating a printed page shows: `difficulty 3.1`, or `hsolve 250` for a puzzle exported
/// before it had a `difficulty`.
pub(crate) fn shown_rating(p: &Exported) -> String {
    match p.difficulty {
        Some(d) => format!("difficulty {d}"),
        None => format!("hsolve {}", p.hsolve),
    }
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
        let _ = writeln!(s, "#B {}", p.date);
        let _ = writeln!(s, "#L {}", p.level);
        let _ = writeln!(
            s,
            "#C slot {}, id {}, {}, percentile {}{}",
            p.slot,
            p.id,
            shown_rating(p),
            p.percentile,
            if solutions { ", solution" } else { "" }
        );
        for row in rows(if solutions { &p.solution } else { &p.puzzle }) {
            let _ = writeln!(s, "{row}");
        }
    }
    s
}

/// One printed grid as an HTML table: `given` marks the clues (bold in the solution pages).
fn html_grid(s: &mut String, cells: &str, givens: &str) {
    s.push_str("<table class=\"grid\">");
    for r in 0..9 {
        s.push_str("<tr>");
        for c in 0..9 {
            let i = 9 * r + c;
            let v = &cells[i..i + 1];
            let given = &givens[i..i + 1] != ".";
            let mut class = String::new();
            if c % 3 == 0 {
                class.push_str(" l");
            }
            if r % 3 == 0 {
                class.push_str(" t");
            }
            if given && cells != givens {
                class.push_str(" g");
            }
            let v = if v == "." { "" } else { v };
            let _ = write!(s, "<td class=\"{}\">{v}</td>", class.trim());
        }
        s.push_str("</tr>");
    }
    s.push_str("</table>");
}

fn html(name: &str, puzzles: &[Exported], per_page: u8) -> String {
    let cols = if per_page == 1 { 1 } else { 2 };
    let cell_mm = match per_page {
        1 => 16.0,
        2 => 11.0,
        _ => 8.5,
    };
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pseudoku {name}</title>\n<style>\n\
@page {{ size: A4; margin: 14mm; }}\n\
body {{ font-family: Helvetica, Arial, sans-serif; margin: 0; }}\n\
.page {{ display: grid; grid-template-columns: repeat({cols}, 1fr); gap: 10mm 8mm; page-break-after: always; break-after: page; padding: 4mm 0; }}\n\
.page:last-child {{ page-break-after: auto; break-after: auto; }}\n\
.item h2 {{ font-size: 13pt; margin: 0 0 2mm 0; }}\n\
.item p {{ font-size: 8pt; margin: 1.5mm 0 0 0; color: #444; }}\n\
table.grid {{ border-collapse: collapse; border: 2.4px solid #000; }}\n\
table.grid td {{ width: {cell_mm}mm; height: {cell_mm}mm; border: 0.6px solid #555; text-align: center; vertical-align: middle; font-size: {:.1}mm; padding: 0; }}\n\
table.grid td.l {{ border-left: 2.4px solid #000; }}\n\
table.grid td.t {{ border-top: 2.4px solid #000; }}\n\
table.grid td.g {{ font-weight: bold; }}\n\
h1 {{ font-size: 15pt; margin: 0 0 2mm 0; }}\n\
</style>\n</head>\n<body>\n",
        cell_mm * 0.62
    );
    for (solutions, title) in [(false, "Puzzles"), (true, "Solutions")] {
        for (page, chunk) in puzzles.chunks(per_page as usize).enumerate() {
            s.push_str("<section class=\"page\">\n");
            if page == 0 {
                let _ = writeln!(
                    s,
                    "<h1 style=\"grid-column: 1 / -1\">{title} &middot; {name}</h1>"
                );
            }
            for p in chunk {
                let _ = write!(
                    s,
                    "<div class=\"item\"><h2>{} &middot; {} &middot; #{}</h2>",
                    p.date, p.level, p.slot
                );
                if solutions {
                    html_grid(&mut s, &p.solution, &p.puzzle);
                } else {
                    html_grid(&mut s, &p.puzzle, &p.puzzle);
                }
                let _ = writeln!(
                    s,
                    "<p>id {} &middot; {} &middot; percentile {}</p></div>",
                    p.id,
                    shown_rating(p),
                    p.percentile
                );
            }
            s.push_str("</section>\n");
        }
    }
    s.push_str("</body>\n</html>\n");
    s
}
