//! Printed exports opened by machine (lopdf): every trim size's PDF has its MediaBox and
//! TrimBox, every mark inside the margins, bare page numbers, the shipped fonts embedded and
//! the same bytes when exported again; a 6x9 book with a bleed alternates its gutter and its
//! TrimBox, each puzzle names the page its solution is on and that page holds it; large print
//! holds at most two grids a page; the cover's spine follows the page count and the paper;
//! newspapers get one grid per file (svg, eps, pdf, sdk); the HTML has the PDF's pages;
//! misused print options are refused with a reason and leave nothing behind.

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

/// The files in `out` (name, bytes), sorted.
fn files(out: &Path) -> Vec<(String, Vec<u8>)> {
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

/// Runs `pseudoku COMMAND ARGS --db DB --out OUT`, which must succeed; the files written.
fn run(command: &str, db: &Path, out: &Path, args: &[&str]) -> Vec<(String, Vec<u8>)> {
    let o = run_out(command, db, out, args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    files(out)
}

/// Exports the week into `out` with `args`.
fn export(db: &Path, out: &Path, args: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut a = WEEK.to_vec();
    a.extend(args);
    run("export", db, out, &a)
}

/// A rectangle (x0, y0, x1, y1) in PDF points, y up.
type Rect = [f32; 4];

/// What a test reads of one PDF page.
struct PdfPage {
    media: Rect,
    trim: Rect,
    bleed: Option<Rect>,
    /// Its text, in drawing order.
    text: String,
    /// The box holding every path point and text origin drawn on it.
    ink: Rect,
}

/// What a test reads of a PDF.
struct Pdf {
    pages: Vec<PdfPage>,
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

fn rect(o: &Object) -> Rect {
    let a = o.as_array().unwrap();
    [number(&a[0]), number(&a[1]), number(&a[2]), number(&a[3])]
}

/// An affine matrix [a b c d e f] as PDF writes them.
type Matrix = [f32; 6];

fn times(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

fn apply(m: &Matrix, x: f32, y: f32) -> (f32, f32) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

/// The box of every path point and text origin of a page's content.
fn ink(doc: &Document, page: lopdf::ObjectId) -> Rect {
    const ID: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let content = doc.get_and_decode_page_content(page).unwrap();
    let mut ctm = ID;
    let mut stack = Vec::new();
    let (mut tm, mut tlm) = (ID, ID);
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    let mut add = |m: &Matrix, x: f32, y: f32| {
        let (x, y) = apply(m, x, y);
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    };
    for op in &content.operations {
        let n: Vec<f32> = op
            .operands
            .iter()
            .filter_map(|o| match o {
                Object::Integer(_) | Object::Real(_) => Some(number(o)),
                _ => None,
            })
            .collect();
        match op.operator.as_str() {
            "q" => stack.push(ctm),
            "Q" => ctm = stack.pop().unwrap(),
            "cm" => ctm = times(&[n[0], n[1], n[2], n[3], n[4], n[5]], &ctm),
            "m" | "l" => add(&ctm, n[0], n[1]),
            "c" => {
                for k in 0..3 {
                    add(&ctm, n[2 * k], n[2 * k + 1]);
                }
            }
            "re" => {
                add(&ctm, n[0], n[1]);
                add(&ctm, n[0] + n[2], n[1] + n[3]);
            }
            "BT" => (tm, tlm) = (ID, ID),
            "Tm" => {
                tm = [n[0], n[1], n[2], n[3], n[4], n[5]];
                tlm = tm;
            }
            "Td" | "TD" => {
                tlm = times(&[1.0, 0.0, 0.0, 1.0, n[0], n[1]], &tlm);
                tm = tlm;
            }
            "Tj" | "TJ" => add(&times(&tm, &ctm), 0.0, 0.0),
            _ => {}
        }
    }
    b
}

fn read(bytes: &[u8]) -> Pdf {
    let doc = Document::load_mem(bytes).expect("a PDF lopdf can read");
    let mut pages = Vec::new();
    let mut embedded = Vec::new();
    for (&n, &id) in &doc.get_pages() {
        let page = doc.get_dictionary(id).unwrap();
        let media = rect(page.get(b"MediaBox").unwrap());
        pages.push(PdfPage {
            media,
            trim: page.get(b"TrimBox").map(rect).unwrap_or(media),
            bleed: page.get(b"BleedBox").ok().map(rect),
            text: doc.extract_text(&[n]).unwrap_or_default(),
            ink: ink(&doc, id),
        });
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
        pages,
        embedded,
        title,
    }
}

/// The words of a page's text.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// The page number a page prints last, if it prints one.
fn printed_number(page: &PdfPage) -> Option<usize> {
    words(&page.text).last().and_then(|w| w.parse().ok())
}

/// Checks what every layout shares: the trim size (w x h points, no bleed), the fonts, the
/// title, a bare page number on every page but a book's title page (`titled`), every mark
/// inside the margins (`margin` on each side, `facing`: the wider gutter side alternating).
fn check_common(pdf: &Pdf, size: (f32, f32), title: &str, titled: bool, margin: f32) {
    assert_eq!(pdf.title, title);
    assert_eq!(pdf.embedded.len(), 2, "{:?}", pdf.embedded);
    for face in ["+DejaVuSans", "+DejaVuSans-Bold"] {
        assert!(pdf.embedded.iter().any(|f| f.ends_with(face)), "{face}");
    }
    for (i, page) in pdf.pages.iter().enumerate() {
        assert_eq!(page.media, [0.0, 0.0, size.0, size.1], "page {}", i + 1);
        assert_eq!(page.trim, page.media);
        let want = (!(titled && i == 0)).then_some(i + 1);
        assert_eq!(printed_number(page), want, "page {}: {}", i + 1, page.text);
        assert!(!page.text.contains(" of "), "a bare number");
        let [x0, y0, x1, y1] = page.ink;
        let e = 1.0;
        assert!(
            x0 >= margin - e && y0 >= margin - e && x1 <= size.0 - margin + e,
            "page {}: {:?} in {size:?}",
            i + 1,
            page.ink
        );
        assert!(y1 <= size.1 - margin + e, "page {}: {:?}", i + 1, page.ink);
        assert!(
            !page.text.contains("percentile"),
            "ids are hidden by default"
        );
    }
}

#[test]
fn every_trim_size_keeps_its_boxes_and_its_margins() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let title = "Sudoku, 4-10 January 2027";
    for (page, size, margin) in [
        ("a4", (595.0, 842.0), 42.0),
        ("letter", (612.0, 792.0), 42.0),
        ("a5", (420.0, 595.0), 36.0),
        ("6x9", (432.0, 648.0), 36.0),
        ("8x10", (576.0, 720.0), 42.0),
        ("8.5x11", (612.0, 792.0), 42.0),
        ("5.5x8.5in", (396.0, 612.0), 36.0),
    ] {
        let out = dir.path().join(page);
        let f = export(
            &db,
            &out,
            &["--format", "pdf", "--page", page, "--single-file"],
        );
        assert_eq!(f.len(), 1);
        let pdf = read(&f[0].1);
        check_common(&pdf, size, title, false, margin);
        let text: String = pdf.pages.iter().map(|p| p.text.clone()).collect();
        for n in 1..=35 {
            assert!(text.contains(&format!("No. {n} ")), "{page}: No. {n}");
        }
        if page == "a4" || page == "letter" {
            // 35 puzzles at up to 4 a page: 9 pages; compact solutions up to 20 (A4) or 16 a page.
            let compact = if page == "a4" { 2 } else { 3 };
            assert_eq!(pdf.pages.len(), 9 + compact, "{page}");
        }
    }
}

#[test]
fn daily_files_spread_a_day_and_print_its_date_once_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let f = export(&db, &dir.path().join("daily"), &["--format", "pdf"]);
    assert_eq!(f.len(), 7);
    assert_eq!(f[0].0, "2027-01-04.pdf");
    for (i, (_, bytes)) in f.iter().enumerate() {
        let pdf = read(bytes);
        let day = format!("{} January 2027", 4 + i);
        check_common(&pdf, (595.0, 842.0), &format!("Sudoku, {day}"), false, 42.0);
        // 5 puzzles at up to 4 a page: 3 + 2, then the solutions.
        assert_eq!(pdf.pages.len(), 3);
        let first = 5 * i + 1;
        for (p, numbers) in [(0, first..first + 3), (1, first + 3..first + 5)] {
            let t = &pdf.pages[p].text;
            assert_eq!(t.matches("No. ").count(), numbers.len(), "{t}");
            for n in numbers {
                assert!(t.contains(&format!("No. {n} ")));
            }
            assert_eq!(t.matches(&day).count(), 1, "the date once a page: {t}");
        }
    }
    let monday = read(&f[0].1);
    assert!(monday.pages[0].text.contains("Monday 4 January 2027"));
    assert!(monday.pages[0]
        .text
        .contains(pseudoku::export::pages::INSTRUCTION));
    assert!(monday.pages[2]
        .text
        .contains("Solutions, Monday 4 January 2027"));
    // Up to 6 a page: the day on one page.
    let f = export(
        &db,
        &dir.path().join("six"),
        &["--format", "pdf", "--per-page", "6", "--solutions", "none"],
    );
    assert!(f.iter().all(|(_, b)| read(b).pages.len() == 1));
}

/// The "No. K" and "Solution on page N" pairs of a page's text, in order.
fn references(text: &str) -> Vec<(u32, usize)> {
    let w = words(text);
    let mut out = Vec::new();
    let mut current = None;
    for (i, pair) in w.windows(2).enumerate() {
        if pair[0] == "No." {
            current = pair[1].parse().ok();
        }
        if w[i..].starts_with(&["Solution", "on", "page"]) {
            out.push((current.take().unwrap(), w[i + 3].parse().unwrap()));
        }
    }
    out
}

#[test]
fn a_6x9_book_with_a_bleed_alternates_its_gutter_and_names_its_solution_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let f = run(
        "book",
        &db,
        &dir.path().join("book"),
        &[
            "--name",
            "trade",
            "--mix",
            "easy:20,medium:20,hard:20",
            "--page",
            "6x9",
            "--bleed",
            "--cover",
        ],
    );
    let names: Vec<&str> = f.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["trade-cover.pdf", "trade.pdf"]);
    let pdf = read(&f[1].1);
    assert_eq!(pdf.title, "trade");
    assert_eq!(pdf.embedded.len(), 2);
    // Title page, contents, 60 puzzles at 2 a page (30), compact solutions 3 a row.
    let n = pdf.pages.len();
    assert!(n > 32, "{n} pages");
    let mut found = 0;
    for (i, page) in pdf.pages.iter().enumerate() {
        // The sheet is the trim plus 0.125 in on the outer edge, top and bottom.
        assert_eq!(page.media, [0.0, 0.0, 441.0, 666.0]);
        assert_eq!(page.bleed, Some(page.media));
        let recto = i % 2 == 0;
        let trim_left = if recto { 0.0 } else { 9.0 };
        assert_eq!(page.trim, [trim_left, 9.0, trim_left + 432.0, 657.0]);
        // The binding side's margin is the wider: left on a right-hand page.
        let left = page.ink[0] - page.trim[0];
        let right = page.trim[2] - page.ink[2];
        assert!(
            left >= 35.0 && right >= 35.0,
            "page {}: {:?}",
            i + 1,
            page.ink
        );
        if i >= 2 {
            assert_eq!(recto, left > right, "page {}: {left} {right}", i + 1);
        }
        assert_eq!(
            printed_number(page),
            (i > 0).then_some(i + 1),
            "page {}",
            i + 1
        );
        for (k, target) in references(&page.text) {
            found += 1;
            let solutions = &pdf.pages[target - 1].text;
            assert!(solutions.contains("Solutions"), "page {target}");
            assert!(
                references(solutions).is_empty() && solutions.contains(&format!("No. {k} ")),
                "No. {k} says page {target}"
            );
        }
    }
    assert_eq!(found, 60, "every puzzle names its solution's page");
    assert!(pdf.pages[1].text.contains("Contents"));

    // The cover: back, spine and front with a bleed all round; the spine from the page count
    // on white paper.
    let cover = read(&f[0].1);
    assert_eq!(cover.pages.len(), 1);
    let spine = n.div_ceil(2) as f32 * 2.0 * 0.002252 * 72.0;
    let c = &cover.pages[0];
    let width = 2.0 * 432.0 + spine + 18.0;
    assert!((c.media[2] - width).abs() < 0.01, "{:?} {width}", c.media);
    assert_eq!(c.media[3], 666.0);
    assert!((c.trim[0] - 9.0).abs() < 0.01 && (c.trim[2] - (width - 9.0)).abs() < 0.01);
    assert!(c.text.contains("trade") && c.text.contains("60 puzzles"));
}

#[test]
fn the_spine_follows_the_paper_and_carries_the_title_when_wide_enough() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let mut widths = Vec::new();
    for stock in ["white", "cream", "0.4mm"] {
        let f = run(
            "book",
            &db,
            &dir.path().join(stock),
            &[
                "--name", "spine", "--mix", "easy:20", "--page", "6x9", "--cover", "--stock", stock,
            ],
        );
        let pages = read(&f[1].1).pages.len();
        let cover = read(&f[0].1);
        let spine = cover.pages[0].media[2] - 2.0 * 432.0 - 18.0;
        widths.push(spine);
        let leaf = match stock {
            "white" => 2.0 * 0.002252 * 72.0,
            "cream" => 2.0 * 0.0025 * 72.0,
            _ => 0.4 / 25.4 * 72.0,
        };
        assert!(
            (spine - pages.div_ceil(2) as f32 * leaf).abs() < 0.01,
            "{stock}"
        );
        // The title on the front, and on the spine once it is 0.25 in wide.
        let titles = cover.pages[0].text.matches("spine").count();
        assert_eq!(
            titles,
            if spine >= 18.0 { 2 } else { 1 },
            "{stock}: {spine}"
        );
    }
    assert!(widths[0] < widths[1] && widths[1] < widths[2]);
}

#[test]
fn large_print_holds_at_most_two_grids_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let f = run(
        "book",
        &db,
        &dir.path().join("large"),
        &[
            "--name",
            "large",
            "--mix",
            "easy:9,hard:9",
            "--page",
            "8.5x11",
            "--large-print",
        ],
    );
    let pdf = read(&f[0].1);
    let puzzle_pages: Vec<&PdfPage> = pdf.pages[2..]
        .iter()
        .filter(|p| p.text.contains("Solution on page"))
        .collect();
    // 9 of each level at 2 a page: 5 pages each (2+2+2+2+1: one grid alone only where a
    // level has an odd count).
    assert_eq!(puzzle_pages.len(), 10);
    for p in &puzzle_pages {
        assert!(p.text.matches("No. ").count() <= 2);
    }
    let normal = run(
        "book",
        &db,
        &dir.path().join("normal"),
        &[
            "--name",
            "normal",
            "--mix",
            "easy:9,hard:9",
            "--page",
            "8.5x11",
        ],
    );
    assert!(read(&normal[0].1).pages.len() < pdf.pages.len());
}

#[test]
fn newspapers_get_one_grid_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let f = export(&db, &dir.path().join("svg"), &["--per-puzzle", "svg"]);
    assert_eq!(f.len(), 2 * 35);
    assert_eq!(f[0].0, "2027-01-04-1-solution.svg");
    assert_eq!(f[1].0, "2027-01-04-1.svg");
    for (name, bytes) in &f {
        let svg = String::from_utf8(bytes.clone()).unwrap();
        assert!(
            svg.contains("width=\"144pt\"") && svg.contains("height=\"144pt\""),
            "{name}"
        );
        assert!(!svg.contains("<text"), "{name}: digits are outlines");
    }
    // The same with --format svg, at a given width.
    let g = export(
        &db,
        &dir.path().join("svg50"),
        &["--format", "svg", "--grid-width", "50mm"],
    );
    assert_eq!(g.len(), 70);
    assert!(String::from_utf8_lossy(&g[1].1).contains("width=\"141.73pt\""));
    let e = export(&db, &dir.path().join("eps"), &["--per-puzzle", "eps"]);
    assert_eq!(e.len(), 70);
    let eps = String::from_utf8(e[1].1.clone()).unwrap();
    assert!(eps.starts_with("%!PS-Adobe-3.0 EPSF-3.0"));
    assert!(eps.contains("%%BoundingBox: 0 0 144 144"));
    let p = export(&db, &dir.path().join("pdf"), &["--per-puzzle", "pdf"]);
    assert_eq!(p.len(), 70);
    let one = read(&p[1].1);
    assert_eq!(one.pages.len(), 1);
    assert_eq!(one.pages[0].media, [0.0, 0.0, 144.0, 144.0]);
    let s = export(&db, &dir.path().join("sdk"), &["--per-puzzle", "sdk"]);
    assert_eq!(s.len(), 70);
    for (name, bytes) in &s {
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
    // A book's grids are named by number.
    let b = run(
        "book",
        &db,
        &dir.path().join("book"),
        &["--name", "news", "--mix", "easy:12", "--per-puzzle", "svg"],
    );
    assert_eq!(b.len(), 24);
    assert_eq!(b[0].0, "news-001-solution.svg");
    assert_eq!(b[23].0, "news-012.svg");
}

#[test]
fn printed_exports_are_the_same_bytes_again_and_html_has_the_same_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    for format in ["pdf", "html"] {
        for extra in [
            &["--single-file"][..],
            &["--book"],
            &[
                "--page-per-day",
                "--page",
                "6x9",
                "--gutter",
                "0.25in",
                "--bleed",
            ],
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
    // The HTML holds the PDF's pages: as many sheets, the same texts, the page's print CSS.
    let pdf = export(
        &db,
        &dir.path().join("p"),
        &["--format", "pdf", "--single-file"],
    );
    let html = export(
        &db,
        &dir.path().join("h"),
        &["--format", "html", "--single-file", "--show-ids"],
    );
    let pdf = read(&pdf[0].1);
    let html = String::from_utf8(html[0].1.clone()).unwrap();
    assert_eq!(
        html.matches("<section class=\"sheet\">").count(),
        pdf.pages.len()
    );
    assert_eq!(html.matches("<table class=\"grid\"").count(), 2 * 35);
    assert!(html.contains("@page { size: 595pt 842pt; margin: 0; }"));
    assert!(html.contains("<title>Sudoku, 4-10 January 2027</title>"));
    assert!(html.contains(">Solution on page 10<"));
    assert_eq!(html.matches(" - percentile ").count(), 35);
    assert!(html.contains("break-after: page"));
}

#[test]
fn print_options_belong_to_printed_formats() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    for (args, message) in [
        (
            vec!["--format", "csv", "--page", "letter"],
            "--page is for printed pages",
        ),
        (
            vec!["--format", "csv", "--paper", "letter"],
            "--page is for printed pages",
        ),
        (vec!["--book"], "--book is for printed pages"),
        (vec!["--format", "pdf", "--title", " "], "--title is empty"),
        (vec!["--format", "pdf", "--page", "a3"], "a3"),
        (vec!["--format", "pdf", "--page", "5x7"], "give the unit"),
        (vec!["--format", "pdf", "--margin", "3in"], "less than half"),
        (
            vec!["--format", "pdf", "--page", "5x2in"],
            "too little room",
        ),
        (vec!["--format", "pdf", "--margin", "2"], "give a unit"),
        (vec!["--format", "pdf", "--solutions", "tiny"], "tiny"),
        (
            vec!["--format", "html", "--cover", "--book"],
            "--cover writes a PDF cover",
        ),
        (
            vec!["--format", "pdf", "--cover"],
            "--cover is the cover of one file",
        ),
        (
            vec!["--format", "pdf", "--stock", "cream"],
            "--stock sets the cover's spine",
        ),
        (
            vec!["--format", "pdf", "--book", "--cover", "--stock", "glossy"],
            "white, cream",
        ),
        (
            vec!["--format", "pdf", "--large-print", "--per-page", "4"],
            "at most 2",
        ),
        (
            vec!["--format", "pdf", "--grid-width", "2in"],
            "--grid-width is for one grid",
        ),
        (
            vec!["--per-puzzle", "svg", "--grid-width", "20in"],
            "between 0.5 in and 10 in",
        ),
        (
            vec!["--per-puzzle", "svg", "--single-file"],
            "cannot be one file",
        ),
        (
            vec!["--per-puzzle", "svg", "--page", "6x9"],
            "one grid per file",
        ),
        (
            vec!["--per-puzzle", "txt"],
            "one grid per file is written as",
        ),
        (
            vec!["--per-puzzle", "svg", "--format", "pdf"],
            "cannot be used with",
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
        assert!(!out.exists(), "{args:?}: nothing is left behind");
    }
}
