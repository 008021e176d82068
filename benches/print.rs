//! Printed pages, single thread: a year of five puzzles a day (1,825) laid out and drawn as one
//! PDF book (A4, and 6x9 with a bleed and its cover file), as 365 daily PDFs, as one HTML book,
//! and as one SVG or EPS file per grid and per solution (3,650 files). The whole command (drawing the puzzles
//! from a bank, recording them, writing the files) is timed in BENCHMARKS.md.
//!
//! Run: `cargo bench --bench print`. The puzzles are made here (a valid solution grid per
//! puzzle, 28 clues picked by the seeded `Rng`): what is measured is the layout and the
//! writers, which do not depend on the puzzles' difficulty.

use divan::Bencher;
use pseudoku::calendar::Date;
use pseudoku::export::pages::{lay_out, PrintOptions};
use pseudoku::export::paper::PageSize;
use pseudoku::export::single::{self, Vector};
use pseudoku::export::{cover, html, pdf, Exported};
use pseudoku::Rng;

fn main() {
    divan::main();
}

/// A year from 2027-01-01, five puzzles a day: easy, easy, medium, medium, hard.
fn year() -> Vec<Exported> {
    let mut rng = Rng::new(19);
    let mut out = Vec::new();
    for day in 0..365 {
        let date = Date::from_days(
            Date {
                year: 2027,
                month: 1,
                day: 1,
            }
            .days()
                + day,
        );
        for (slot, level) in [
            (1, "easy"),
            (2, "easy"),
            (3, "medium"),
            (4, "medium"),
            (5, "hard"),
        ] {
            let shift = rng.below(9) as usize;
            let solution: String = (0..81)
                .map(|i| {
                    let (r, c) = (i / 9, i % 9);
                    char::from(b'1' + ((r * 3 + r / 3 + c + shift) % 9) as u8)
                })
                .collect();
            let mut cells: Vec<usize> = (0..81).collect();
            rng.shuffle(&mut cells);
            let mut puzzle = vec![b'.'; 81];
            for &i in &cells[..28] {
                puzzle[i] = solution.as_bytes()[i];
            }
            out.push(Exported {
                date: Some(date),
                slot,
                level: level.into(),
                puzzle: String::from_utf8(puzzle).unwrap().parse().unwrap(),
                solution: solution.parse().unwrap(),
                difficulty: Some(3.0),
                hsolve: 100.0,
                percentile: 50.0,
                id: out.len() as i64 + 1,
                number: None,
            });
        }
    }
    out
}

/// The year as one PDF book (cover, contents, 1,825 puzzles, compact solutions).
#[divan::bench(sample_count = 5)]
fn pdf_book(b: Bencher) {
    let year = year();
    let opts = PrintOptions {
        book: true,
        ..Default::default()
    };
    b.bench(|| pdf::render(&lay_out(&opts, &year, 1)).unwrap().len());
}

/// The year as 365 daily PDFs.
#[divan::bench(sample_count = 5)]
fn pdf_daily(b: Bencher) {
    let year = year();
    let opts = PrintOptions::default();
    b.bench(|| {
        year.chunks(5)
            .enumerate()
            .map(|(i, day)| {
                pdf::render(&lay_out(&opts, day, 5 * i as u32 + 1))
                    .unwrap()
                    .len()
            })
            .sum::<usize>()
    });
}

/// The year as one HTML book.
#[divan::bench(sample_count = 5)]
fn html_book(b: Bencher) {
    let year = year();
    let opts = PrintOptions {
        book: true,
        ..Default::default()
    };
    b.bench(|| html::render(&lay_out(&opts, &year, 1)).len());
}

/// The year as a 6x9 print-on-demand book with a bleed, and its cover file.
#[divan::bench(sample_count = 5)]
fn pdf_book_6x9_and_cover(b: Bencher) {
    let year = year();
    let opts = PrintOptions {
        book: true,
        page: PageSize::TRADE,
        bleed: true,
        cover: true,
        ..Default::default()
    };
    b.bench(|| {
        let pages = lay_out(&opts, &year, 1);
        let sheet = cover::lay_out(&opts, &pages.title, &year, pages.pages.len());
        pdf::render(&pages).unwrap().len() + pdf::render(&sheet.pages).unwrap().len()
    });
}

/// The year's grids and solutions, one file each, 2 in wide.
fn grids(b: Bencher, format: Vector) {
    let year = year();
    b.bench(|| {
        year.iter()
            .map(|p| {
                single::render(format, &p.puzzle, None, 144.0, "Sudoku").len()
                    + single::render(format, &p.puzzle, Some(&p.solution), 144.0, "Sudoku").len()
            })
            .sum::<usize>()
    });
}

/// The year as 3,650 SVG files.
#[divan::bench(sample_count = 5)]
fn svg_grids(b: Bencher) {
    grids(b, Vector::Svg);
}

/// The year as 3,650 EPS files.
#[divan::bench(sample_count = 5)]
fn eps_grids(b: Bencher) {
    grids(b, Vector::Eps);
}
