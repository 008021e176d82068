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
    /// Each run of text set on it.
    runs: Vec<Run>,
}

/// A run of text: its origin (PDF points, y up) and its size as a reader sees it (the font
/// size times the matrices' vertical scale).
type Run = ((f32, f32), f32);

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

/// The box of every path point and text origin of a page's content, and its runs of text.
fn ink(doc: &Document, page: lopdf::ObjectId) -> (Rect, Vec<Run>) {
    const ID: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let content = doc.get_and_decode_page_content(page).unwrap();
    let mut ctm = ID;
    let mut stack = Vec::new();
    let (mut tm, mut tlm) = (ID, ID);
    let mut size = 0.0;
    let mut runs = Vec::new();
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
            "Tf" => size = n[0],
            "Tj" | "TJ" => {
                let m = times(&tm, &ctm);
                add(&m, 0.0, 0.0);
                runs.push((
                    apply(&m, 0.0, 0.0),
                    size * (m[2] * m[2] + m[3] * m[3]).sqrt(),
                ));
            }
            _ => {}
        }
    }
    (b, runs)
}

fn read(bytes: &[u8]) -> Pdf {
    let doc = Document::load_mem(bytes).expect("a PDF lopdf can read");
    let mut pages = Vec::new();
    let mut embedded = Vec::new();
    for (&n, &id) in &doc.get_pages() {
        let page = doc.get_dictionary(id).unwrap();
        let media = rect(page.get(b"MediaBox").unwrap());
        let (ink, runs) = ink(&doc, id);
        pages.push(PdfPage {
            media,
            trim: page.get(b"TrimBox").map(rect).unwrap_or(media),
            bleed: page.get(b"BleedBox").ok().map(rect),
            text: doc.extract_text(&[n]).unwrap_or_default(),
            ink,
            runs,
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
            // 35 puzzles at up to 4 a page: 9 pages; the week's solutions on one page on A4,
            // at most 16 a page on Letter.
            let compact = if page == "a4" { 1 } else { 3 };
            assert!(
                pdf.pages.len() <= 9 + compact && pdf.pages.len() > 9,
                "{page}"
            );
            if page == "a4" {
                assert_eq!(pdf.pages.len(), 10);
            }
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
        // 5 puzzles at up to 4 a page: 3 + 2, the day's solutions in a strip on the second.
        assert_eq!(pdf.pages.len(), 2);
        let first = 5 * i + 1;
        for (p, numbers) in [(0, first..first + 3), (1, first + 3..first + 5)] {
            let t = &pdf.pages[p].text;
            // The second page's strip labels the day's five solutions too.
            let strip = if p == 1 { 5 } else { 0 };
            assert_eq!(t.matches("No. ").count(), numbers.len() + strip, "{t}");
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
    assert!(
        monday.pages[1].text.contains("Solutions 1-5"),
        "{}",
        monday.pages[1].text
    );
    assert_eq!(
        monday.pages[1].text.matches("No. 1 ").count(),
        1,
        "the strip on the second page"
    );
    assert!(!monday.pages[0].text.contains("Solutions"));
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
    assert_eq!(pdf.title, "60 Sudoku Puzzles");
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
        // The title and copyright pages are not numbered.
        assert_eq!(
            printed_number(page),
            (i > 1).then_some(i + 1),
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
    assert!(pdf.pages[2].text.contains("Contents"));

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
    assert!(c.text.contains("Sudoku") && c.text.contains("60 puzzles"));
}

#[test]
fn the_spine_follows_the_paper_and_carries_the_title_when_wide_enough() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let mut widths = Vec::new();
    // 60 puzzles a page each and their solutions full size: 124 pages; 20 two a page: 16.
    let big = [
        "--mix",
        "easy:30,hard:30",
        "--per-page",
        "1",
        "--solutions",
        "full",
    ];
    let small = ["--mix", "easy:20"];
    for (stock, size) in [
        ("white", &big[..]),
        ("cream", &big[..]),
        ("0.4mm", &big[..]),
        ("white", &small[..]),
    ] {
        // Each its own book, reprinting the bank's puzzles (it holds 30 a level).
        let name = format!("spine-{}-{}", stock.replace('.', "_"), size.len());
        let mut args = vec![
            "--name",
            &name,
            "--reprint",
            "--title",
            "Spine Test",
            "--page",
            "6x9",
            "--cover",
            "--stock",
            stock,
        ];
        args.extend(size);
        let out = dir.path().join(&name);
        let f = run("book", &db, &out, &args);
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
        // The title on the front and the back, and on the spine from 79 pages (KDP's rule)
        // when 6 pt type fits it with 0.0625 in clear of each fold.
        let titles = cover.pages[0].text.matches("Spine Test").count();
        let spined = pages >= 79 && (spine - 9.0) / 0.99 >= 6.0;
        assert_eq!(
            titles,
            if spined { 3 } else { 2 },
            "{stock}: {pages} pages, {spine}"
        );
        assert_eq!(pages >= 79, size.len() > 2, "{pages}");
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

/// Whether `r` holds the point `p` (PDF points).
fn holds(r: Rect, p: (f32, f32)) -> bool {
    p.0 >= r[0] - 0.5 && p.0 <= r[2] + 0.5 && p.1 >= r[1] - 0.5 && p.1 <= r[3] + 0.5
}

#[test]
fn a_book_prints_its_front_matter_and_a_cover_a_printer_takes() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let blurb = dir.path().join("blurb.txt");
    std::fs::write(
        &blurb,
        "Sixty puzzles for quiet evenings,\nfrom easy to hard.\n\nEvery one has a single answer.\n",
    )
    .unwrap();
    // 90 puzzles a page each: over 79 pages, so the spine carries the title.
    let matter = [
        "--mix",
        "easy:30,medium:30,hard:30",
        "--per-page",
        "1",
        "--page",
        "6x9",
        "--bleed",
        "--cover",
        "--title",
        "Sudoku for Quiet Evenings",
        "--subtitle",
        "Ninety puzzles from easy to hard",
        "--author",
        "Ada Setter",
        "--imprint",
        "Quiet Press",
        "--isbn",
        "978-0-306-40615-7",
        "--year",
        "2027",
        "--font",
        "serif",
        "--blurb",
    ];
    let mut args = vec!["--name", "quiet"];
    args.extend(matter);
    args.push(blurb.to_str().unwrap());
    let f = run("book", &db, &dir.path().join("book"), &args);
    let pdf = read(&f[1].1);
    let t: Vec<&str> = pdf.pages.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(pdf.title, "Sudoku for Quiet Evenings");
    // 1: the title page, unnumbered: title, subtitle, what it holds, author, imprint.
    for w in [
        "Evenings",
        "Ninety puzzles from easy to hard",
        "90 puzzles: 30 easy",
        "Ada Setter",
        "Quiet Press",
    ] {
        assert!(t[0].contains(w), "{w:?} on the title page: {}", t[0]);
    }
    assert_eq!(printed_number(&pdf.pages[0]), None);
    // 2: the copyright page, unnumbered.
    for w in [
        "Copyright © 2027 Ada Setter. All rights reserved.",
        "ISBN 978-0-306-40615-7",
        "Published by Quiet Press.",
        "Puzzles made and graded by pseudoku",
    ] {
        assert!(t[1].replace('\n', " ").contains(w), "{w:?}: {}", t[1]);
    }
    assert_eq!(printed_number(&pdf.pages[1]), None);
    // 3: the contents, titled once, pointing at how to play (4), the levels and solutions.
    assert_eq!(t[2].matches("Contents").count(), 1, "{}", t[2]);
    for w in [
        "How to play",
        "Easy",
        "Puzzles 1-30",
        "Hard",
        "Puzzles 61-90",
        "Solutions",
    ] {
        assert!(t[2].contains(w), "{w}: {}", t[2]);
    }
    // 4: how to play, then the puzzles from page 5.
    assert!(
        t[3].contains("How to play")
            && t[3].contains("Getting started")
            && t[3].contains("The levels")
    );
    assert!(t[4].contains("No. 1") && !t[4].contains("Fill the grid so that"));
    assert_eq!(printed_number(&pdf.pages[4]), Some(5));
    // Every run of text at 6 pt or more, inside the page's margins (0.5 in here).
    for (i, p) in pdf.pages.iter().enumerate() {
        for &(at, size) in &p.runs {
            assert!(size >= 6.0, "page {}: text at {size} pt", i + 1);
            let inside = [
                p.trim[0] + 36.0,
                p.trim[1] + 36.0,
                p.trim[2] - 36.0,
                p.trim[3] - 36.0,
            ];
            assert!(holds(inside, at), "page {}: text at {at:?}", i + 1);
        }
    }

    // The cover: ground into the bleed, the blurb on the back, the title on the spine, the
    // barcode's box (2 x 1.2 in at the back's lower right, 0.25 in inside the trim) empty of
    // text; every run of text 0.25 in inside the trims and folds, none under 6 pt.
    let cover = read(&f[0].1);
    let c = &cover.pages[0];
    // The cover in DejaVu Serif (--font serif), its grid's digits in DejaVu Sans; the title
    // page in the serif too, the rest of the interior in the sans.
    for face in ["+DejaVuSerif", "+DejaVuSerif-Bold", "+DejaVuSans"] {
        assert!(
            cover.embedded.iter().any(|f| f.ends_with(face)),
            "{face}: {:?}",
            cover.embedded
        );
        assert!(
            pdf.embedded.iter().any(|f| f.ends_with(face)),
            "{face}: {:?}",
            pdf.embedded
        );
    }
    let text = c.text.replace('\n', " ");
    assert!(
        text.contains("Sixty puzzles for quiet evenings, from easy to hard."),
        "{text}"
    );
    assert!(text.contains("Every one has a single answer."));
    assert_eq!(
        text.matches("Evenings").count(),
        3,
        "front, spine and back: {text}"
    );
    let (w, h) = (432.0, 648.0);
    let spine = c.trim[2] - c.trim[0] - 2.0 * w;
    let barcode = [
        9.0 + w - 18.0 - 144.0,
        9.0 + 18.0,
        9.0 + w - 18.0,
        9.0 + 18.0 + 86.4,
    ];
    let back = [9.0 + 18.0, 9.0 + 18.0, 9.0 + w - 18.0, 9.0 + h - 18.0];
    let front = [
        9.0 + w + spine + 18.0,
        27.0,
        9.0 + 2.0 * w + spine - 18.0,
        9.0 + h - 18.0,
    ];
    let spine_box = [9.0 + w, 9.0 + 18.0, 9.0 + w + spine, 9.0 + h - 18.0];
    for &(at, size) in &c.runs {
        assert!(size >= 6.0, "cover text at {size} pt");
        let in_box =
            at.0 > barcode[0] && at.0 < barcode[2] && at.1 > barcode[1] && at.1 < barcode[3];
        assert!(!in_box, "text in the barcode's box at {at:?}");
        assert!(
            holds(back, at) || holds(front, at) || holds(spine_box, at),
            "cover text at {at:?}"
        );
    }

    // Without a title, the book is titled by what it holds, never by its file's name; the
    // copyright page and how to play may be left out (the rule then on the title page).
    let f = run(
        "book",
        &db,
        &dir.path().join("plain"),
        &[
            "--name",
            "plain-book",
            "--reprint",
            "--mix",
            "easy:4",
            "--page",
            "6x9",
            "--without",
            "copyright,how-to-play",
        ],
    );
    let pdf = read(&f[0].1);
    assert_eq!(pdf.title, "4 Sudoku Puzzles");
    assert!(!pdf.pages.iter().any(|p| p.text.contains("plain-book")));
    assert!(pdf.pages[0].text.contains("Fill the grid so that"));
    assert!(pdf.pages[1].text.contains("Contents") && pdf.pages[2].text.contains("No. 1"));
    assert!(!pdf.pages.iter().any(|p| p.text.contains("Copyright")));
}

#[test]
fn a_newspaper_week_ramps_prints_yesterdays_solutions_and_numbers_its_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let week = |start: &str, out: &str| {
        run(
            "export",
            &db,
            &dir.path().join(out),
            &[
                "--start",
                start,
                "--days",
                "7",
                "--mix",
                "ramp",
                "--format",
                "pdf",
                "--solutions",
                "next-day",
            ],
        )
    };
    // 2-8 November 2026, Monday to Sunday (dates past, so that the server gives them): a
    // file a day, one puzzle a day, No. 1 to No. 7.
    let f = week("2026-11-02", "first");
    assert_eq!(f.len(), 7);
    let levels = ["Easy", "Easy", "Medium", "Medium", "Hard", "Hard", "Expert"];
    for (k, (name, bytes)) in f.iter().enumerate() {
        let pdf = read(bytes);
        let t = pdf
            .pages
            .iter()
            .map(|p| p.text.as_str())
            .collect::<String>();
        assert_eq!(*name, format!("2026-11-{:02}.pdf", 2 + k));
        assert!(
            t.contains(&format!("No. {} ", k + 1)) && t.contains(levels[k]),
            "{name}: {t}"
        );
        // Yesterday's solution with today's puzzle, from the second day on.
        if k == 0 {
            assert!(!t.contains("Yesterday"));
        } else {
            assert!(t.contains("Yesterday's solution, "), "{name}: {t}");
            assert!(t.contains(&format!("No. {} ", k)), "{name}");
        }
        assert!(t.contains("Solution tomorrow"), "{name}");
    }
    // The next week, exported on its own, goes on numbering and prints Sunday's solution
    // (from the record) with Monday's puzzle.
    let f = week("2026-11-09", "second");
    let monday = read(&f[0].1);
    let t = &monday.pages[0].text;
    assert!(
        t.contains("No. 8 ") && t.contains("Yesterday's solution, Sunday 8 November 2026"),
        "{t}"
    );
    assert!(t.contains("No. 7 "), "{t}");
    // The API gives the same number for the same puzzle.
    let (mut child, base) = serve(&db, &[]);
    let r = ureq::get(&format!("{base}/v1/daily?date=2026-11-04&level=medium")).call();
    let (status, body) = reply(r).unwrap();
    let _ = child.kill();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["number"], 3, "{body}");

    // A week in one file puts its 35 solutions on one page.
    let f = run(
        "export",
        &db,
        &dir.path().join("one"),
        &[
            "--start",
            "2027-02-01",
            "--days",
            "7",
            "--mix",
            "easy:2,medium:2,hard:1",
            "--single-file",
            "--format",
            "pdf",
        ],
    );
    let pdf = read(&f[0].1);
    let solutions: Vec<&PdfPage> = pdf
        .pages
        .iter()
        .filter(|p| p.text.contains("Solutions,"))
        .collect();
    assert_eq!(solutions.len(), 1, "{} pages", pdf.pages.len());
    assert_eq!(solutions[0].text.matches("No. ").count(), 35);
}
