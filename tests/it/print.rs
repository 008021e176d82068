//! Printed exports opened by machine: every layout's PDF (daily files, one file, a day a page
//! with a cover, full and no solutions, a book) on both papers has the expected pages, the
//! paper's size, the shipped font embedded, the title and page numbers in its text, and the
//! same bytes when exported again; the HTML has the same pages; misused print options are
//! refused with a reason; `--sdk-per-puzzle` writes one puzzle per file.

use crate::common::*;
use lopdf::{Document, Object};
use std::path::{Path, PathBuf};

const WEEK: [&str; 6] = [
    "--start",
    "2027-01-04",
    "--days",
    "7",
    "--mix",
    "easy:2,medium:2,hard:1",
];

/// A bank with 30 puzzles per level (a week of the mix needs 14 easy, 14 medium, 7 hard).
fn bank(dir: &Path) -> PathBuf {
    let db = dir.join("bank.db");
    build_levels(&db, 30, 2);
    db
}

/// Exports the week into `out` with `args`; the files written (name, bytes), sorted.
fn export(db: &Path, out: &Path, args: &[&str]) -> Vec<(String, Vec<u8>)> {
    let o = pseudoku()
        .arg("export")
        .args(WEEK)
        .args(args)
        .arg("--db")
        .arg(db)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// What a test reads of a PDF.
struct Pdf {
    /// Width and height of every page's MediaBox.
    sizes: Vec<(f32, f32)>,
    /// The text of every page.
    texts: Vec<String>,
    /// Names of the fonts embedded as TrueType programs (FontFile2).
    embedded: Vec<String>,
    /// The document's Info title.
    title: String,
}

fn number(o: &Object) -> f32 {
    match o {
        Object::Integer(i) => *i as f32,
        Object::Real(r) => *r,
        _ => panic!("not a number: {o:?}"),
    }
}

fn read(bytes: &[u8]) -> Pdf {
    let doc = Document::load_mem(bytes).expect("a PDF lopdf can read");
    let pages = doc.get_pages();
    let mut sizes = Vec::new();
    let mut texts = Vec::new();
    let mut embedded = Vec::new();
    for (&n, &id) in &pages {
        let page = doc.get_dictionary(id).unwrap();
        let b = page.get(b"MediaBox").unwrap().as_array().unwrap();
        sizes.push((number(&b[2]) - number(&b[0]), number(&b[3]) - number(&b[1])));
        texts.push(doc.extract_text(&[n]).unwrap_or_default());
        for font in doc.get_page_fonts(id).unwrap().values() {
            let name = String::from_utf8_lossy(font.get(b"BaseFont").unwrap().as_name().unwrap())
                .into_owned();
            let descendants = doc
                .dereference(font.get(b"DescendantFonts").unwrap())
                .unwrap()
                .1
                .as_array()
                .unwrap()
                .clone();
            let cid = doc
                .dereference(&descendants[0])
                .unwrap()
                .1
                .as_dict()
                .unwrap();
            let descriptor = doc
                .dereference(cid.get(b"FontDescriptor").unwrap())
                .unwrap()
                .1
                .as_dict()
                .unwrap();
            if descriptor.get(b"FontFile2").is_ok() && !embedded.contains(&name) {
                embedded.push(name);
            }
        }
    }
    let info = doc.trailer.get(b"Info").unwrap();
    let info = doc.dereference(info).unwrap().1.as_dict().unwrap();
    let title = lopdf::decode_text_string(info.get(b"Title").unwrap()).unwrap();
    embedded.sort();
    Pdf {
        sizes,
        texts,
        embedded,
        title,
    }
}

/// Checks what every layout shares: the paper, the font, the title, `Page N of M`.
fn check_common(pdf: &Pdf, paper: (f32, f32), title: &str, cover: bool) {
    let n = pdf.texts.len();
    assert!(pdf.sizes.iter().all(|&s| s == paper), "{:?}", pdf.sizes);
    assert_eq!(pdf.title, title);
    assert_eq!(pdf.embedded.len(), 2, "{:?}", pdf.embedded);
    for face in ["+DejaVuSans", "+DejaVuSans-Bold"] {
        assert!(
            pdf.embedded.iter().any(|f| f.ends_with(face)),
            "{face}: {:?}",
            pdf.embedded
        );
    }
    for (i, text) in pdf.texts.iter().enumerate() {
        let flat = text.replace('\n', " ");
        assert!(flat.contains(title), "page {}: {flat}", i + 1);
        if cover && i == 0 {
            assert!(!flat.contains("Page 1 of"));
            assert!(flat.contains(pseudoku::export::pages::INSTRUCTION));
        } else {
            assert!(flat.contains(&format!("Page {} of {n}", i + 1)), "{flat}");
        }
        assert!(!flat.contains("percentile"), "ids are hidden by default");
    }
}

#[test]
fn every_layout_prints_on_both_papers() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let title = "Sudoku, 4-10 January 2027";
    for (paper, size, compact_per_page) in
        [("a4", (595.0, 842.0), 20), ("letter", (612.0, 792.0), 16)]
    {
        let out = |name: &str| dir.path().join(format!("{paper}-{name}"));
        let compact = 35usize.div_ceil(compact_per_page);

        // Daily files: a day of 5 at 4 a page is 2 pages, and its 5 solutions 1 page; the
        // numbers run across the week.
        let f = export(&db, &out("daily"), &["--format", "pdf", "--paper", paper]);
        assert_eq!(f.len(), 7);
        assert_eq!(f[0].0, "2027-01-04.pdf");
        for (i, (_, bytes)) in f.iter().enumerate() {
            let pdf = read(bytes);
            assert_eq!(pdf.texts.len(), 3);
            let day = format!("{} January 2027", 4 + i);
            check_common(&pdf, pdf.sizes[0], &format!("Sudoku, {day}"), false);
            assert_eq!(pdf.sizes[0], size);
            let first = 5 * i + 1;
            assert!(pdf.texts[0].contains(&format!("No. {first}")));
            assert!(pdf.texts[1].contains(&format!("No. {}", first + 4)));
        }
        let monday = read(&f[0].1);
        assert!(monday.texts[0].contains("Monday 4 January 2027"));
        assert!(monday.texts[0].contains("Easy") && monday.texts[1].contains("Hard"));
        assert!(monday.texts[0].contains(pseudoku::export::pages::INSTRUCTION));

        // One file: 35 puzzles at 4 a page, compact solutions.
        let f = export(
            &db,
            &out("one"),
            &["--format", "pdf", "--paper", paper, "--single-file"],
        );
        let pdf = read(&f[0].1);
        assert_eq!(pdf.texts.len(), 9 + compact);
        check_common(&pdf, size, title, false);
        assert!(pdf.texts[8].contains("No. 35"));
        assert!(pdf.texts[9].contains("Solutions 1-"));

        // A day a page, 6 a page, a cover, full solutions, ids shown, a given title.
        let f = export(
            &db,
            &out("days"),
            &[
                "--format",
                "pdf",
                "--paper",
                paper,
                "--single-file",
                "--page-per-day",
                "--per-page",
                "6",
                "--cover",
                "--solutions",
                "full",
                "--title",
                "The Weekly Grid",
            ],
        );
        let pdf = read(&f[0].1);
        assert_eq!(pdf.texts.len(), 1 + 7 + 7);
        assert!(pdf.sizes.iter().all(|&s| s == size));
        assert_eq!(pdf.title, "The Weekly Grid");
        for (i, t) in pdf.texts.iter().enumerate().skip(1) {
            assert!(t.contains(&format!("Page {} of 15", i + 1)));
            assert_eq!(t.matches("No. ").count(), 5, "page {}: a day a page", i + 1);
        }
        assert!(pdf.texts[1].contains("Monday 4 January 2027"));
        assert!(pdf.texts[7].contains("Sunday 10 January 2027"));
        // The ids under each grid (grey 7.5 pt text lopdf's text extraction skips; the HTML
        // draws the same pages).
        let html = export(
            &db,
            &out("days-html"),
            &[
                "--format",
                "html",
                "--single-file",
                "--page-per-day",
                "--show-ids",
            ],
        );
        let html = String::from_utf8(html[0].1.clone()).unwrap();
        assert_eq!(html.matches(" - percentile ").count(), 35);

        // No solutions.
        let f = export(
            &db,
            &out("none"),
            &[
                "--format",
                "pdf",
                "--paper",
                paper,
                "--single-file",
                "--solutions",
                "none",
            ],
        );
        let pdf = read(&f[0].1);
        assert_eq!(pdf.texts.len(), 9);
        check_common(&pdf, size, title, false);

        // A book: cover, contents, easy 14 (4 pages), medium 14 (4), hard 7 (2), solutions.
        let f = export(
            &db,
            &out("book"),
            &["--format", "pdf", "--paper", paper, "--book"],
        );
        assert_eq!(f.len(), 1, "a book is one file");
        let pdf = read(&f[0].1);
        assert_eq!(pdf.texts.len(), 2 + 10 + compact);
        check_common(&pdf, size, title, true);
        let contents = &pdf.texts[1];
        for line in [
            "Contents",
            "Easy",
            "Puzzles 1-14",
            "page 3",
            "Hard",
            "Puzzles 29-35",
        ] {
            assert!(contents.contains(line), "{line}: {contents}");
        }
        assert!(pdf.texts[2].contains("No. 1") && pdf.texts[2].contains("Easy"));
        assert!(pdf.texts[10].contains("No. 29") && pdf.texts[10].contains("Hard"));
        assert!(
            !pdf.texts[2].contains("Monday"),
            "a book's puzzles are not dated"
        );
    }
}

#[test]
fn printed_exports_are_the_same_bytes_again_and_html_has_the_same_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    for format in ["pdf", "html"] {
        for extra in [
            &["--single-file"][..],
            &["--book"],
            &["--page-per-day", "--cover"],
        ] {
            let mut args = vec!["--format", format];
            args.extend(extra);
            let a = export(&db, &dir.path().join("a"), &args);
            let b = export(&db, &dir.path().join("b"), &args);
            assert_eq!(a, b, "{args:?}");
            std::fs::remove_dir_all(dir.path().join("a")).unwrap();
            std::fs::remove_dir_all(dir.path().join("b")).unwrap();
        }
    }
    // The HTML holds the PDF's pages: as many sheets, the same texts, A4 print CSS.
    let pdf = export(
        &db,
        &dir.path().join("p"),
        &["--format", "pdf", "--single-file"],
    );
    let html = export(
        &db,
        &dir.path().join("h"),
        &["--format", "html", "--single-file"],
    );
    let pdf = read(&pdf[0].1);
    let html = String::from_utf8(html[0].1.clone()).unwrap();
    assert_eq!(
        html.matches("<section class=\"sheet\">").count(),
        pdf.texts.len()
    );
    assert_eq!(html.matches("<table class=\"grid\"").count(), 2 * 35);
    assert!(html.contains("@page { size: A4; margin: 0; }"));
    assert!(html.contains("<title>Sudoku, 4-10 January 2027</title>"));
    assert!(html.contains(&format!("Page 11 of {}", pdf.texts.len())));
    assert!(html.contains("break-after: page"));
}

#[test]
fn print_options_belong_to_printed_formats() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    for (args, message) in [
        (
            vec!["--format", "csv", "--paper", "letter"],
            "--paper is for printed pages",
        ),
        (vec!["--book"], "--book is for printed pages"),
        (vec!["--format", "pdf", "--title", " "], "--title is empty"),
        (vec!["--format", "pdf", "--paper", "a3"], "a3"),
        (vec!["--format", "pdf", "--solutions", "tiny"], "tiny"),
        (
            vec!["--format", "txt", "--sdk-per-puzzle"],
            "--sdk-per-puzzle is for --format sdk",
        ),
    ] {
        let out = dir.path().join("refused");
        let o = pseudoku()
            .arg("export")
            .args(WEEK)
            .args(&args)
            .arg("--db")
            .arg(&db)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
        let written = std::fs::read_dir(&out)
            .map(|d| {
                d.filter(|e| {
                    !e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .starts_with('.')
                })
                .count()
            })
            .unwrap_or(0);
        assert_eq!(written, 0, "{args:?}");
    }
}

#[test]
fn sdk_per_puzzle_writes_one_puzzle_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let f = export(
        &db,
        &dir.path().join("sdk"),
        &["--format", "sdk", "--sdk-per-puzzle"],
    );
    assert_eq!(f.len(), 2 * 35);
    assert_eq!(f[0].0, "2027-01-04-1-solution.sdk");
    assert_eq!(f[1].0, "2027-01-04-1.sdk");
    for (name, bytes) in &f {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows.len(), 9, "{name}: one grid");
        let p: pseudoku::Puzzle = rows.concat().parse().unwrap();
        if name.ends_with("-solution.sdk") {
            assert_eq!(p.clues(), 81);
        } else {
            assert!(pseudoku::solve::is_unique(&p), "{name}");
        }
    }
}
