//! A small PDF writer for printed puzzle pages: A4 portrait, the standard Helvetica fonts (no
//! embedding), vector grid lines. Puzzle pages come first, then solution pages in the same
//! layout (clues in bold there).
//!
//! ```text
//! page (595 x 842 pt, 40 pt margins)        one item
//! +-----------------------------+          2027-01-01 - easy - #1    heading, 11 pt bold
//! | title (first page only)     |          +---+---+---+
//! | [item] [item]     per page: |          |   |   |   |   thin lines 0.5 pt, thick 2 pt
//! | [item] [item]     1, 2, 4, 6|          +---+---+---+   (box borders and frame)
//! | [item] [item]           |   id 12 - difficulty 3.1 - percentile 40.2   7 pt
//! +-----------------------------+
//! ```

use super::Exported;
use std::fmt::Write as _;

const PAGE_W: f64 = 595.0;
const PAGE_H: f64 = 842.0;
const MARGIN: f64 = 40.0;
const TITLE_H: f64 = 30.0;
const GAP: f64 = 24.0;
const HEADING_H: f64 = 18.0;
const FOOTER_H: f64 = 14.0;

/// (columns, rows) of items on a page.
fn layout(per_page: u8) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// Escapes a PDF string literal.
fn esc(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '(' | ')' | '\\' => format!("\\{c}"),
            c if c.is_ascii() => c.to_string(),
            _ => "-".to_string(),
        })
        .collect()
}

/// Text at (x, y) (baseline), font F1 (regular) or F2 (bold).
fn text(s: &mut String, font: &str, size: f64, x: f64, y: f64, t: &str) {
    let _ = writeln!(
        s,
        "BT /{font} {size:.2} Tf {x:.2} {y:.2} Td ({}) Tj ET",
        esc(t)
    );
}

/// One grid with its top-left corner at (x, top), cell size `c`.
fn grid(s: &mut String, x: f64, top: f64, c: f64, cells: &str, givens: &str, solution: bool) {
    let size = 9.0 * c;
    let y0 = top - size;
    // Thin lines (gray, 0.5 pt), then the thick ones (black, 2 pt) over them.
    for (style, lines) in [
        ("0.35 G 0.5 w", [1, 2, 4, 5, 7, 8].as_slice()),
        ("0 G 2 w", &[0, 3, 6, 9]),
    ] {
        let _ = writeln!(s, "{style}");
        for &i in lines {
            let d = i as f64 * c;
            let _ = writeln!(
                s,
                "{:.2} {y0:.2} m {:.2} {top:.2} l S {x:.2} {:.2} m {:.2} {:.2} l S",
                x + d,
                x + d,
                top - d,
                x + size,
                top - d
            );
        }
    }
    let fs = c * 0.6;
    for (i, ch) in cells.chars().enumerate() {
        if ch == '.' {
            continue;
        }
        let (r, col) = ((i / 9) as f64, (i % 9) as f64);
        let cx = x + (col + 0.5) * c;
        let cy = top - (r + 0.5) * c;
        let bold = solution && givens.as_bytes()[i] != b'.';
        // Helvetica digits are 0.556 em wide; the baseline sits 0.35 em below the middle.
        text(
            s,
            if bold { "F2" } else { "F1" },
            fs,
            cx - 0.278 * fs,
            cy - 0.35 * fs,
            &ch.to_string(),
        );
    }
}

/// The page content streams for `puzzles` (puzzle pages, then solution pages).
fn pages(name: &str, puzzles: &[Exported], per_page: u8) -> Vec<String> {
    let (cols, rows) = layout(per_page);
    let mut out = Vec::new();
    for (solution, title) in [(false, "Puzzles"), (true, "Solutions")] {
        for (n, chunk) in puzzles.chunks(cols * rows).enumerate() {
            let mut s = String::new();
            let mut top = PAGE_H - MARGIN;
            if n == 0 {
                text(
                    &mut s,
                    "F2",
                    16.0,
                    MARGIN,
                    top - 16.0,
                    &format!("{title} - {name}"),
                );
            }
            top -= TITLE_H;
            let area_w = (PAGE_W - 2.0 * MARGIN - GAP * (cols - 1) as f64) / cols as f64;
            let area_h = (top - MARGIN - GAP * (rows - 1) as f64) / rows as f64;
            let c = (area_w.min(area_h - HEADING_H - FOOTER_H) / 9.0).min(40.0);
            for (k, p) in chunk.iter().enumerate() {
                let (col, row) = (k % cols, k / cols);
                let x = MARGIN + col as f64 * (area_w + GAP) + (area_w - 9.0 * c) / 2.0;
                let y = top - row as f64 * (area_h + GAP);
                text(
                    &mut s,
                    "F2",
                    11.0,
                    x,
                    y - 12.0,
                    &format!("{} - {} - #{}", p.date, p.level, p.slot),
                );
                let cells = if solution { &p.solution } else { &p.puzzle };
                grid(&mut s, x, y - HEADING_H, c, cells, &p.puzzle, solution);
                text(
                    &mut s,
                    "F1",
                    7.0,
                    x,
                    y - HEADING_H - 9.0 * c - 10.0,
                    &format!(
                        "id {} - {} - percentile {}",
                        p.id,
                        super::formats::shown_rating(p),
                        p.percentile
                    ),
                );
            }
            out.push(s);
        }
    }
    if out.is_empty() {
        // Nothing to print (a partial export's empty day): one page that says so.
        let mut s = String::new();
        text(
            &mut s,
            "F2",
            16.0,
            MARGIN,
            PAGE_H - MARGIN - 16.0,
            &format!("Puzzles - {name}"),
        );
        text(
            &mut s,
            "F1",
            11.0,
            MARGIN,
            PAGE_H - MARGIN - 40.0,
            "No puzzles for this date.",
        );
        out.push(s);
    }
    out
}

/// The PDF of `puzzles`, `per_page` (1, 2, 4 or 6) to a page.
pub fn render(name: &str, puzzles: &[Exported], per_page: u8) -> Vec<u8> {
    let streams = pages(name, puzzles, per_page);
    // Objects: 1 catalog, 2 pages, 3 and 4 fonts, then a page and its contents per page.
    let mut objects: Vec<String> = vec![String::new(); 4];
    objects[0] = "<< /Type /Catalog /Pages 2 0 R >>".into();
    objects[2] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into();
    objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>".into();
    let mut kids = Vec::new();
    for stream in &streams {
        let page = objects.len() + 1;
        kids.push(format!("{page} 0 R"));
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] \
             /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
            page + 1
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{stream}endstream",
            stream.len()
        ));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        streams.len()
    );
    let mut pdf = String::from("%PDF-1.4\n");
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, o) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        let _ = write!(pdf, "{} 0 obj\n{o}\nendobj\n", i + 1);
    }
    let xref = pdf.len();
    let _ = write!(pdf, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for off in offsets {
        let _ = writeln!(pdf, "{off:010} 00000 n ");
    }
    let _ = write!(
        pdf,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    );
    pdf.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize) -> Vec<Exported> {
        (0..n)
            .map(|i| Exported {
                date: "2027-01-01".into(),
                slot: i as u32 + 1,
                level: "easy".into(),
                puzzle: "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                    .into(),
                solution: "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
                    .into(),
                difficulty: Some(2.5),
                hsolve: 300.0,
                percentile: 10.0,
                id: i as i64,
            })
            .collect()
    }

    #[test]
    fn pages_and_cross_references() {
        for (n, per, pages) in [(5, 4, 4), (5, 1, 10), (6, 6, 2), (1, 2, 2)] {
            let pdf = String::from_utf8(render("x", &sample(n), per)).unwrap();
            assert!(pdf.contains(&format!("/Count {pages} >>")), "{n} {per}");
            assert_eq!(pdf.matches("/Type /Page ").count(), pages);
            // Every xref offset points at its object.
            let xref = pdf.rfind("xref\n").unwrap();
            for (i, line) in pdf[xref..]
                .lines()
                .skip(3)
                .take_while(|l| l.ends_with(" n "))
                .enumerate()
            {
                let off: usize = line[..10].parse().unwrap();
                assert!(pdf[off..].starts_with(&format!("{} 0 obj", i + 1)));
            }
        }
    }
}
