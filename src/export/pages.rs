//! The printed pages of an export (`--format pdf` and `--format html`): which puzzles go on
//! which page and where every grid and line of text sits, in points (1/72 inch) from the
//! page's top-left corner. The PDF and HTML writers draw the same [`Pages`], so both formats
//! follow the same layout rules.
//!
//! ```text
//!  margin 42 pt (15 mm) all round
//! +---------------------------------------------+
//! | Sudoku, 4-10 January 2027     Puzzles 1-4   |  running heading: title, what the page holds
//! |---------------------------------------------|
//! | Fill the grid so that ... (first page,      |  the instruction, unless there is a cover
//! |  without a cover)                           |
//! | No. 1  Monday 4 January 2027    Easy        |  label: number (1..N across the export),
//! | +-----------+                               |  weekday and date, level
//! | |  9 x 9    |   ... 1, 2, 4 or 6 grids      |
//! | +-----------+                               |
//! | id 12 - difficulty 3.1 - percentile 40.2    |  only with --show-ids
//! |                 Page 2 of 9                 |  page number (every page but the cover)
//! +---------------------------------------------+
//! ```
//!
//! Order: the cover (`--cover`, always in a book), the contents (a book), the puzzle pages
//! (each day on a new page with `--page-per-day`; each level on a new page in a book), then the
//! solutions: compact (small grids, 16 or 20 a page), full (the puzzle pages' layout) or none.

use super::Exported;
use crate::calendar::{self, Date};
use crate::fonts::text_width;
use crate::grid::{Grid, Puzzle};

/// A paper size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Every paper size.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// Its name (`--paper`).
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// Its size, for people.
    pub fn about(self) -> &'static str {
        match self {
            Paper::A4 => "ISO A4, 210 x 297 mm",
            Paper::Letter => "US Letter, 8.5 x 11 in",
        }
    }

    /// Width and height in points.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.0, 842.0),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// Its name in CSS (`@page { size: ... }`).
    pub fn css_name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// How the solutions are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solutions {
    /// Small grids after the puzzles, 16 (Letter) or 20 (A4) a page.
    #[default]
    Compact,
    /// Full-size grids after the puzzles, in the puzzle pages' layout.
    Full,
    /// No solutions.
    None,
}

impl Solutions {
    /// Every way.
    pub const ALL: [Solutions; 3] = [Solutions::Compact, Solutions::Full, Solutions::None];

    /// Its name (`--solutions`).
    pub fn name(self) -> &'static str {
        match self {
            Solutions::Compact => "compact",
            Solutions::Full => "full",
            Solutions::None => "none",
        }
    }

    /// What it prints, for people.
    pub fn about(self) -> &'static str {
        match self {
            Solutions::Compact => "Small grids after the puzzles, 16 (Letter) or 20 (A4) a page",
            Solutions::Full => "Full-size grids after the puzzles, in the puzzle pages' layout",
            Solutions::None => "No solutions",
        }
    }
}

/// How printed pages are laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct PrintOptions {
    /// The paper size.
    pub paper: Paper,
    /// The running heading; `None`: `Sudoku, ` and the dates (`Sudoku, 4-10 January 2027`).
    pub title: Option<String>,
    /// Puzzles per page: 1, 2, 4 or 6.
    pub per_page: u8,
    /// Each day starts a new page.
    pub page_per_day: bool,
    /// How the solutions are printed.
    pub solutions: Solutions,
    /// A cover page with the title, what the pages hold and the instruction.
    pub cover: bool,
    /// A numbered collection by level: cover, contents, puzzles by level (easiest first),
    /// solutions. Its puzzles are labelled by number and level (no dates).
    pub book: bool,
    /// Print each puzzle's bank id, rating and percentile under its grid.
    pub show_ids: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            paper: Paper::A4,
            title: None,
            per_page: 4,
            page_per_day: false,
            solutions: Solutions::Compact,
            cover: false,
            book: false,
            show_ids: false,
        }
    }
}

/// The one-line rule printed on the cover, or on the first page without a cover.
pub const INSTRUCTION: &str = "Fill the grid so that every row, column and 3x3 box contains 1-9.";

/// Horizontal alignment of a line of text on its anchor point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// The text starts at the anchor.
    Left,
    /// The text is centred on the anchor.
    Centre,
    /// The text ends at the anchor.
    Right,
}

impl Align {
    /// The left edge of a line `width` wide aligned on `x`.
    pub fn left(self, x: f32, width: f32) -> f32 {
        match self {
            Align::Left => x,
            Align::Centre => x - width / 2.0,
            Align::Right => x - width,
        }
    }
}

/// Something drawn on a page. Coordinates are points from the page's top-left corner, y down.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A line of text; `y` is its baseline.
    Text {
        /// The anchor's x.
        x: f32,
        /// The baseline.
        y: f32,
        /// Font size in points.
        size: f32,
        /// Bold (DejaVu Sans Bold) or regular.
        bold: bool,
        /// Grey level, 0 = black.
        grey: u8,
        /// Alignment on `x`.
        align: Align,
        /// The text.
        text: String,
    },
    /// A 9x9 grid with its top-left corner at (x, y).
    Grid {
        /// Left edge.
        x: f32,
        /// Top edge.
        y: f32,
        /// Cell size in points.
        cell: f32,
        /// The puzzle.
        puzzle: Puzzle,
        /// The solution to print in it (the clues bold, the rest grey), or none for the puzzle.
        solution: Option<Grid>,
    },
    /// A horizontal line from (x, y), `length` long and `weight` thick.
    Rule {
        /// Left end.
        x: f32,
        /// Height.
        y: f32,
        /// Length.
        length: f32,
        /// Thickness.
        weight: f32,
    },
}

/// One printed page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    /// What is drawn on it, in drawing order.
    pub marks: Vec<Mark>,
}

/// An entry of the document's outline (PDF bookmarks).
#[derive(Clone, Debug, PartialEq)]
pub struct Bookmark {
    /// Its text.
    pub title: String,
    /// The page it opens, from 0.
    pub page: usize,
}

/// The laid-out pages of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Pages {
    /// The document's title (the running heading).
    pub title: String,
    /// The paper size.
    pub paper: Paper,
    /// The pages, in order.
    pub pages: Vec<Page>,
    /// The outline: days or levels, and the solutions.
    pub bookmarks: Vec<Bookmark>,
}

/// The page margin on every side: 42 pt, about 15 mm, inside what any printer can print.
pub const MARGIN: f32 = 42.0;
/// Room for the running heading above the body.
const HEAD: f32 = 30.0;
/// Room for the page number below the body.
const FOOT: f32 = 20.0;
/// The largest cell size (a puzzle alone on a page: 13 cm wide).
const MAX_CELL: f32 = 40.0;
/// Columns of compact solution grids.
const COMPACT_COLUMNS: usize = 4;

/// A puzzle with its number in the export.
#[derive(Clone, Copy, Debug)]
struct Numbered<'a> {
    number: u32,
    puzzle: &'a Exported,
}

/// A run of puzzles that starts on a new page: a day (`--page-per-day`), a level (a book) or
/// all of them, with what the running heading says of it (`None`: the numbers on the page).
struct Section<'a> {
    heading: Option<String>,
    bookmark: Option<String>,
    puzzles: Vec<Numbered<'a>>,
}

/// A mix entry's name as printed: `Easy`, `Band 1/4` for a percentile band, `X-wing` for a
/// technique, `Hard (x-wing)` for a level and a technique.
pub fn level_name(level: &str) -> String {
    if let Some((range, technique)) = level.split_once('+') {
        return format!("{} ({})", level_name(range.trim()), technique.trim());
    }
    if level.contains('/') {
        return format!("Band {level}");
    }
    let mut c = level.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The date of a puzzle (exported dates always parse).
fn date_of(p: &Exported) -> Option<Date> {
    super::parse_date(&p.date).ok()
}

/// The default title: `Sudoku, ` and the range of the puzzles' dates.
pub fn default_title(puzzles: &[Exported]) -> String {
    let dates: Vec<Date> = puzzles.iter().filter_map(date_of).collect();
    match (dates.iter().min(), dates.iter().max()) {
        (Some(&a), Some(&b)) => format!("Sudoku, {}", calendar::range_text(a, b)),
        _ => "Sudoku".to_string(),
    }
}

/// Lays out `puzzles` (in date and slot order), numbered from `first_number` (a book numbers
/// its own collection from 1).
pub fn lay_out(opts: &PrintOptions, puzzles: &[Exported], first_number: u32) -> Pages {
    let mut book = Book::new(opts, puzzles);
    let sections = sections(opts, puzzles, first_number);
    let numbered: Vec<Numbered> = sections.iter().flat_map(|s| s.puzzles.clone()).collect();
    if opts.cover || opts.book {
        book.cover(&numbered);
    }
    let contents_page = opts.book.then(|| book.blank());
    let mut starts = Vec::new();
    let mut instruction = !(opts.cover || opts.book);
    for s in &sections {
        starts.push(book.pages.len());
        if let Some(b) = &s.bookmark {
            book.bookmarks.push(Bookmark {
                title: b.clone(),
                page: book.pages.len(),
            });
        }
        book.items(s, false, instruction);
        instruction = false;
    }
    if numbered.is_empty() {
        let page = book.blank();
        book.heading(page, "No puzzles");
    }
    let solutions_page = book.pages.len();
    match opts.solutions {
        Solutions::None => {}
        Solutions::Full => {
            for s in &sections {
                book.items(s, true, false);
            }
        }
        Solutions::Compact => book.compact(&numbered),
    }
    if solutions_page < book.pages.len() {
        book.bookmarks.push(Bookmark {
            title: "Solutions".into(),
            page: solutions_page,
        });
    }
    if let Some(page) = contents_page {
        book.contents(page, &sections, &starts, solutions_page);
    }
    book.page_numbers();
    Pages {
        title: book.title,
        paper: opts.paper,
        pages: book.pages,
        bookmarks: book.bookmarks,
    }
}

/// The sections of the puzzle pages, numbered.
fn sections<'a>(opts: &PrintOptions, puzzles: &'a [Exported], first: u32) -> Vec<Section<'a>> {
    if opts.book {
        // By level, in the order the levels first appear (the mix's order), numbered in
        // book order.
        let mut levels: Vec<&str> = Vec::new();
        for p in puzzles {
            if !levels.contains(&p.level.as_str()) {
                levels.push(&p.level);
            }
        }
        let mut number = 1;
        return levels
            .iter()
            .map(|&l| {
                let puzzles: Vec<Numbered> = puzzles
                    .iter()
                    .filter(|p| p.level == l)
                    .map(|puzzle| {
                        number += 1;
                        Numbered {
                            number: number - 1,
                            puzzle,
                        }
                    })
                    .collect();
                Section {
                    heading: Some(level_name(l)),
                    bookmark: Some(level_name(l)),
                    puzzles,
                }
            })
            .collect();
    }
    let numbered: Vec<Numbered> = puzzles
        .iter()
        .zip(first..)
        .map(|(puzzle, number)| Numbered { number, puzzle })
        .collect();
    let days: Vec<Vec<Numbered>> = numbered
        .chunk_by(|a, b| a.puzzle.date == b.puzzle.date)
        .map(|c| c.to_vec())
        .collect();
    if opts.page_per_day || days.len() == 1 {
        days.into_iter()
            .map(|puzzles| {
                let day = date_of(puzzles[0].puzzle).map(Date::long);
                Section {
                    heading: day.clone(),
                    bookmark: day,
                    puzzles,
                }
            })
            .collect()
    } else {
        vec![Section {
            heading: None,
            bookmark: None,
            puzzles: numbered,
        }]
    }
}

/// (columns, rows) of grids on a page.
fn grid_layout(per_page: u8) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// Pages being laid out.
struct Book<'o> {
    opts: &'o PrintOptions,
    title: String,
    width: f32,
    height: f32,
    pages: Vec<Page>,
    bookmarks: Vec<Bookmark>,
    /// Pages without a page number (the cover).
    unnumbered: Vec<usize>,
    /// Puzzles per level name, in order, for the cover.
    levels: Vec<(String, usize)>,
}

impl<'o> Book<'o> {
    fn new(opts: &'o PrintOptions, puzzles: &[Exported]) -> Book<'o> {
        let (width, height) = opts.paper.size();
        let mut levels: Vec<(String, usize)> = Vec::new();
        for p in puzzles {
            match levels.iter_mut().find(|l| l.0 == p.level) {
                Some(l) => l.1 += 1,
                None => levels.push((p.level.clone(), 1)),
            }
        }
        Book {
            opts,
            title: opts.title.clone().unwrap_or_else(|| default_title(puzzles)),
            width,
            height,
            pages: Vec::new(),
            bookmarks: Vec::new(),
            unnumbered: Vec::new(),
            levels,
        }
    }

    /// The body's top and bottom.
    fn body(&self) -> (f32, f32) {
        (MARGIN + HEAD, self.height - MARGIN - FOOT)
    }

    /// The body's width.
    fn body_width(&self) -> f32 {
        self.width - 2.0 * MARGIN
    }

    /// A new empty page; its index.
    fn blank(&mut self) -> usize {
        self.pages.push(Page::default());
        self.pages.len() - 1
    }

    fn mark(&mut self, page: usize, mark: Mark) {
        self.pages[page].marks.push(mark);
    }

    #[allow(clippy::too_many_arguments)]
    fn text(&mut self, page: usize, x: f32, y: f32, size: f32, bold: bool, align: Align, t: &str) {
        self.mark(
            page,
            Mark::Text {
                x,
                y,
                size,
                bold,
                grey: 0,
                align,
                text: t.to_string(),
            },
        );
    }

    /// The running heading: the title on the left, what the page holds on the right, a rule.
    fn heading(&mut self, page: usize, right: &str) {
        let y = MARGIN + 10.0;
        let room = self.body_width() - text_width(right, 10.0, false) - 16.0;
        let size = fit(&self.title, 11.0, true, room).max(6.0);
        let title = self.title.clone();
        self.text(page, MARGIN, y, size, true, Align::Left, &title);
        self.text(
            page,
            self.width - MARGIN,
            y,
            10.0,
            false,
            Align::Right,
            right,
        );
        self.mark(
            page,
            Mark::Rule {
                x: MARGIN,
                y: MARGIN + 16.0,
                length: self.body_width(),
                weight: 0.6,
            },
        );
    }

    /// `Page N of M` under every page but the cover.
    fn page_numbers(&mut self) {
        let n = self.pages.len();
        for i in 0..n {
            if self.unnumbered.contains(&i) {
                continue;
            }
            let t = format!("Page {} of {n}", i + 1);
            let (x, y) = (self.width / 2.0, self.height - MARGIN - 3.0);
            self.text(i, x, y, 9.0, false, Align::Centre, &t);
        }
    }

    /// The cover: the title, what the pages hold, the instruction.
    fn cover(&mut self, numbered: &[Numbered]) {
        let page = self.blank();
        self.unnumbered.push(page);
        let centre = self.width / 2.0;
        let room = self.body_width();
        let title = self.title.clone();
        let y = self.height * 0.3;
        let size = fit(&title, 32.0, true, room);
        self.text(page, centre, y, size, true, Align::Centre, &title);
        self.mark(
            page,
            Mark::Rule {
                x: centre - 90.0,
                y: y + 20.0,
                length: 180.0,
                weight: 1.5,
            },
        );
        let n = numbered.len();
        let counts: Vec<String> = self
            .levels
            .iter()
            .map(|(l, c)| format!("{c} {}", level_name(l).to_lowercase()))
            .collect();
        let what = format!(
            "{n} puzzle{}{}",
            if n == 1 { "" } else { "s" },
            if counts.is_empty() {
                String::new()
            } else {
                format!(": {}", counts.join(", "))
            }
        );
        let size = fit(&what, 14.0, false, room);
        self.text(page, centre, y + 52.0, size, false, Align::Centre, &what);
        let order = if self.opts.book {
            "Numbered from 1, easiest first"
        } else {
            "Numbered from 1, in date order"
        };
        let order = match self.opts.solutions {
            Solutions::None => format!("{order}."),
            _ => format!("{order}; the solutions are at the back."),
        };
        let size = fit(&order, 12.0, false, room);
        self.text(page, centre, y + 74.0, size, false, Align::Centre, &order);
        let y = self.height * 0.62;
        self.text(page, centre, y, 13.0, true, Align::Centre, "How to play");
        let size = fit(INSTRUCTION, 12.0, false, room);
        self.text(
            page,
            centre,
            y + 22.0,
            size,
            false,
            Align::Centre,
            INSTRUCTION,
        );
    }

    /// The contents of a book on `page`: each level's numbers and first page, the solutions.
    fn contents(&mut self, page: usize, sections: &[Section], starts: &[usize], solutions: usize) {
        self.heading(page, "Contents");
        let (top, _) = self.body();
        let mut y = top + 30.0;
        self.text(page, MARGIN, y, 18.0, true, Align::Left, "Contents");
        y += 36.0;
        let right = self.width - MARGIN;
        for (s, &start) in sections.iter().zip(starts) {
            let (Some(first), Some(last)) = (s.puzzles.first(), s.puzzles.last()) else {
                continue;
            };
            let name = s.heading.clone().unwrap_or_default();
            let numbers = format!("Puzzles {}-{}", first.number, last.number);
            self.text(page, MARGIN, y, 13.0, true, Align::Left, &name);
            self.text(page, MARGIN + 150.0, y, 12.0, false, Align::Left, &numbers);
            let p = format!("page {}", start + 1);
            self.text(page, right, y, 12.0, false, Align::Right, &p);
            y += 26.0;
        }
        if solutions < self.pages.len() {
            self.text(page, MARGIN, y, 13.0, true, Align::Left, "Solutions");
            let p = format!("page {}", solutions + 1);
            self.text(page, right, y, 12.0, false, Align::Right, &p);
        }
    }

    /// The full-size pages of a section: its puzzles (or their solutions), `per_page` a page.
    fn items(&mut self, section: &Section, solutions: bool, mut instruction: bool) {
        let (cols, rows) = grid_layout(self.opts.per_page);
        let per_page = cols * rows;
        for chunk in section.puzzles.chunks(per_page) {
            let page = self.blank();
            let right = match (&section.heading, solutions) {
                (Some(h), false) => h.clone(),
                (Some(h), true) => format!("Solutions, {h}"),
                (None, s) => numbers(if s { "Solutions" } else { "Puzzles" }, chunk),
            };
            self.heading(page, &right);
            let (mut top, bottom) = self.body();
            if instruction {
                self.text(
                    page,
                    MARGIN,
                    top + 4.0,
                    10.0,
                    false,
                    Align::Left,
                    INSTRUCTION,
                );
                top += 20.0;
                instruction = false;
            }
            let (gap_x, gap_y) = (28.0, 22.0);
            let col_w = (self.body_width() - (cols - 1) as f32 * gap_x) / cols as f32;
            let row_h = (bottom - top - (rows - 1) as f32 * gap_y) / rows as f32;
            let label_h = 16.0;
            let ids_h = if self.opts.show_ids { 14.0 } else { 0.0 };
            let cell = (col_w / 9.0)
                .min((row_h - label_h - ids_h) / 9.0)
                .min(MAX_CELL);
            let size = 9.0 * cell;
            let item_h = label_h + size + ids_h;
            for (i, n) in chunk.iter().enumerate() {
                let (c, r) = (i % cols, i / cols);
                let x = MARGIN + c as f32 * (col_w + gap_x) + (col_w - size) / 2.0;
                let y = top + r as f32 * (row_h + gap_y) + (row_h - item_h) / 2.0;
                self.label(page, x, y + 11.0, size, n, (cell * 0.42).clamp(8.0, 11.0));
                self.mark(page, grid(x, y + label_h, cell, n.puzzle, solutions));
                if self.opts.show_ids {
                    let p = n.puzzle;
                    let t = format!(
                        "id {} - {} - percentile {}",
                        p.id,
                        p.shown_rating(),
                        p.percentile
                    );
                    let size = fit(&t, 7.5, false, size);
                    self.mark(
                        page,
                        Mark::Text {
                            x,
                            y: y + label_h + 9.0 * cell + 11.0,
                            size,
                            bold: false,
                            grey: 80,
                            align: Align::Left,
                            text: t,
                        },
                    );
                }
            }
        }
    }

    /// A grid's label over `width` at baseline `y`: `No. 12`, the weekday and date (not in a
    /// book; shortened when the full date does not fit), the level on the right.
    fn label(&mut self, page: usize, x: f32, y: f32, width: f32, n: &Numbered, size: f32) {
        let number = format!("No. {}", n.number);
        let level = level_name(&n.puzzle.level);
        self.text(page, x, y, size, true, Align::Left, &number);
        self.text(page, x + width, y, size, true, Align::Right, &level);
        if self.opts.book {
            return;
        }
        let Some(date) = date_of(n.puzzle) else {
            return;
        };
        let start = x + text_width(&number, size, true) + size * 0.8;
        let room = width - (start - x) - text_width(&level, size, true) - size;
        for t in [date.long(), date.short()] {
            if text_width(&t, size, false) <= room {
                self.text(page, start, y, size, false, Align::Left, &t);
                return;
            }
        }
    }

    /// The compact solutions: small grids, four across, as many rows as fit.
    fn compact(&mut self, numbered: &[Numbered]) {
        let (top, bottom) = self.body();
        let gap_x = 16.0;
        let gap_y = 14.0;
        let label_h = 12.0;
        let col_w =
            (self.body_width() - (COMPACT_COLUMNS - 1) as f32 * gap_x) / COMPACT_COLUMNS as f32;
        let cell = col_w / 9.0;
        let item_h = label_h + 9.0 * cell;
        let rows = (((bottom - top + gap_y) / (item_h + gap_y)).floor() as usize).max(1);
        for chunk in numbered.chunks(rows * COMPACT_COLUMNS) {
            let page = self.blank();
            self.heading(page, &numbers("Solutions", chunk));
            for (i, n) in chunk.iter().enumerate() {
                let (c, r) = (i % COMPACT_COLUMNS, i / COMPACT_COLUMNS);
                let x = MARGIN + c as f32 * (col_w + gap_x);
                let y = top + r as f32 * (item_h + gap_y);
                let number = format!("No. {}", n.number);
                self.text(page, x, y + 8.5, 8.0, true, Align::Left, &number);
                let level = level_name(&n.puzzle.level);
                self.text(page, x + col_w, y + 8.5, 8.0, false, Align::Right, &level);
                self.mark(page, grid(x, y + label_h, cell, n.puzzle, true));
            }
        }
    }
}

/// The grid of `p` at (x, y): the puzzle, or its solution when `solved`.
fn grid(x: f32, y: f32, cell: f32, p: &Exported, solved: bool) -> Mark {
    Mark::Grid {
        x,
        y,
        cell,
        puzzle: p.puzzle,
        solution: solved.then_some(p.solution),
    }
}

/// `Puzzles 5-8` (or `Puzzle 5`) for the numbers on a page.
fn numbers(what: &str, chunk: &[Numbered]) -> String {
    match (chunk.first(), chunk.last()) {
        (Some(a), Some(b)) if a.number == b.number => {
            format!("{} {}", what.trim_end_matches('s'), a.number)
        }
        (Some(a), Some(b)) => format!("{what} {}-{}", a.number, b.number),
        _ => what.to_string(),
    }
}

/// The font size, at most `size`, at which `text` fits in `room` points.
fn fit(text: &str, size: f32, bold: bool, room: f32) -> f32 {
    let w = text_width(text, size, bold);
    if w <= room || w == 0.0 {
        size
    } else {
        size * room / w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn puzzle(date: &str, slot: u32, level: &str) -> Exported {
        Exported {
            date: date.into(),
            slot,
            level: level.into(),
            puzzle: SOLUTION.parse().unwrap(),
            solution: SOLUTION.parse().unwrap(),
            difficulty: Some(2.5),
            hsolve: 100.0,
            percentile: 50.0,
            id: 7,
        }
    }

    fn week() -> Vec<Exported> {
        let mut v = Vec::new();
        for d in 4..=10 {
            for (slot, level) in [(1, "easy"), (2, "easy"), (3, "medium"), (4, "medium")] {
                v.push(puzzle(&format!("2027-01-{d:02}"), slot, level));
            }
            v.push(puzzle(&format!("2027-01-{d:02}"), 5, "hard"));
        }
        v
    }

    fn texts(pages: &Pages) -> Vec<Vec<String>> {
        pages
            .pages
            .iter()
            .map(|p| {
                p.marks
                    .iter()
                    .filter_map(|m| match m {
                        Mark::Text { text, .. } => Some(text.clone()),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    fn grids(page: &Page) -> usize {
        page.marks
            .iter()
            .filter(|m| matches!(m, Mark::Grid { .. }))
            .count()
    }

    #[test]
    fn a_week_numbered_across_with_compact_solutions() {
        let week = week();
        let opts = PrintOptions::default();
        let p = lay_out(&opts, &week, 1);
        assert_eq!(p.title, "Sudoku, 4-10 January 2027");
        // 35 puzzles at 4 a page: 9 pages; 35 solutions at 20 a page (A4): 2 pages.
        assert_eq!(p.pages.len(), 11);
        let t = texts(&p);
        assert!(t[0].contains(&INSTRUCTION.to_string()));
        assert!(t[0].contains(&"Puzzles 1-4".to_string()));
        assert!(t[0].contains(&"Monday 4 January 2027".to_string()));
        assert!(t[8].contains(&"No. 35".to_string()));
        assert!(t[9].contains(&"Solutions 1-20".to_string()));
        for (i, page) in t.iter().enumerate() {
            assert!(page.contains(&format!("Page {} of 11", i + 1)));
            assert!(!page.iter().any(|s| s.contains("percentile")));
        }
        assert_eq!(grids(&p.pages[9]), 20);
        // Letter: 16 compact solutions a page.
        let letter = PrintOptions {
            paper: Paper::Letter,
            ..opts.clone()
        };
        let p = lay_out(&letter, &week, 1);
        assert_eq!(grids(&p.pages[9]), 16);
        assert_eq!(p.pages.len(), 9 + 3);
    }

    #[test]
    fn every_mark_is_inside_the_margins() {
        let week = week();
        for paper in [Paper::A4, Paper::Letter] {
            for per_page in [1, 2, 4, 6] {
                for book in [false, true] {
                    for solutions in [Solutions::Compact, Solutions::Full] {
                        let opts = PrintOptions {
                            paper,
                            per_page,
                            book,
                            solutions,
                            show_ids: true,
                            ..Default::default()
                        };
                        let p = lay_out(&opts, &week, 1);
                        let (w, h) = paper.size();
                        for m in p.pages.iter().flat_map(|p| &p.marks) {
                            let (x0, y0, x1, y1) = match m {
                                Mark::Grid { x, y, cell, .. } => {
                                    (*x, *y, x + 9.0 * cell, y + 9.0 * cell)
                                }
                                Mark::Rule { x, y, length, .. } => (*x, *y, x + length, *y),
                                Mark::Text {
                                    x,
                                    y,
                                    size,
                                    bold,
                                    align,
                                    text,
                                    ..
                                } => {
                                    let tw = text_width(text, *size, *bold);
                                    let left = align.left(*x, tw);
                                    // Capitals rise 0.73 em, descenders drop 0.24 em.
                                    (left, y - 0.75 * size, left + tw, y + 0.24 * size)
                                }
                            };
                            let e = 0.5;
                            assert!(
                                x0 >= MARGIN - e
                                    && y0 >= MARGIN - e
                                    && x1 <= w - MARGIN + e
                                    && y1 <= h - MARGIN + e,
                                "{paper:?} {per_page} {m:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_book_has_a_cover_contents_and_levels_in_order() {
        let week = week();
        let opts = PrintOptions {
            book: true,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        let t = texts(&p);
        // Cover, contents, easy 14 (4 pages), medium 14 (4), hard 7 (2), solutions 2.
        assert_eq!(p.pages.len(), 1 + 1 + 4 + 4 + 2 + 2);
        assert!(t[0].contains(&INSTRUCTION.to_string()));
        assert!(t[0].contains(&"35 puzzles: 14 easy, 14 medium, 7 hard".to_string()));
        assert!(!t[0].iter().any(|s| s.starts_with("Page ")));
        assert!(t[1].contains(&"Puzzles 1-14".to_string()));
        assert!(t[1].contains(&"page 3".to_string()));
        assert!(t[1].contains(&"Puzzles 29-35".to_string()));
        assert!(t[1].contains(&"page 11".to_string()));
        assert!(t[1].contains(&"page 13".to_string()), "solutions");
        assert!(t[2].contains(&"Easy".to_string()) && t[2].contains(&"No. 1".to_string()));
        assert!(t[10].contains(&"Hard".to_string()) && t[10].contains(&"No. 29".to_string()));
        // No dates in a book's labels.
        assert!(!t[2]
            .iter()
            .any(|s| s.contains("Monday") || s.contains("Mon ")));
        let titles: Vec<&str> = p.bookmarks.iter().map(|b| b.title.as_str()).collect();
        assert_eq!(titles, ["Easy", "Medium", "Hard", "Solutions"]);
    }

    #[test]
    fn page_per_day_starts_each_day_on_a_new_page() {
        let week = week();
        let opts = PrintOptions {
            per_page: 6,
            page_per_day: true,
            solutions: Solutions::None,
            cover: true,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 36);
        assert_eq!(p.pages.len(), 1 + 7);
        let t = texts(&p);
        assert!(t[1].contains(&"Monday 4 January 2027".to_string()));
        assert!(t[7].contains(&"Sunday 10 January 2027".to_string()));
        assert!(t[7].contains(&"No. 70".to_string()));
        assert!(t[1].contains(&"No. 36".to_string()));
        // With a cover, the instruction is on the cover only.
        assert!(!t[1].contains(&INSTRUCTION.to_string()));
        assert!(t[1..]
            .iter()
            .all(|p| p.iter().filter(|s| s.starts_with("No.")).count() == 5));
        assert_eq!(p.bookmarks.len(), 7);
    }

    #[test]
    fn ids_only_when_asked_and_a_given_title() {
        let week = week();
        let opts = PrintOptions {
            show_ids: true,
            title: Some("The Daily Grid".into()),
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        let t = texts(&p);
        assert!(t[0].contains(&"The Daily Grid".to_string()));
        assert!(t[0].contains(&"id 7 - difficulty 2.5 - percentile 50".to_string()));
    }
}
