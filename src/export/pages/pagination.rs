//! Pagination: which puzzles go on which page and where each grid and line sits: sections (a
//! day, a level), runs spread evenly over the fewest pages, the running heads, labels, page
//! numbers, the contents and the solutions.

use super::display::{fit, fit_lines_in, Align, Bookmark, Colour, Mark, Page, Pages, THICK, TITLE_LINES};
use super::options::{default_title, level_name, PrintOptions, SolutionLayout, INSTRUCTION};
use super::super::paper::{default_gutter, Area, Length, Sheet, SAFE};
use super::super::Exported;
use crate::calendar::Date;
use crate::fonts::text_width;
use std::collections::HashMap;

/// Room for the running heading above the body.
const HEAD: f32 = 30.0;
/// The type sizes and the smallest grids of normal and of large print.
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    /// The running heading.
    head: f32,
    /// Labels over grids: smallest and largest.
    label: (f32, f32),
    /// Page numbers, and the line under a grid.
    pub(super) small: f32,
    /// The smallest cell a full-size grid may have, and the largest.
    cell: (f32, f32),
    /// The smallest cell of a compact solution.
    pub(super) compact_cell: f32,
}

/// Normal print: cells of 24-40 pt (8.5-14 mm).
const NORMAL: Style = Style {
    head: 11.0,
    label: (8.0, 11.0),
    small: 8.5,
    cell: (24.0, 40.0),
    compact_cell: 9.0,
};

/// Large print: cells of 28-56 pt (10-20 mm), bigger text.
const LARGE: Style = Style {
    head: 14.0,
    label: (12.0, 16.0),
    small: 11.5,
    cell: (28.0, 56.0),
    compact_cell: 14.0,
};

/// A puzzle with its number in the export.
#[derive(Clone, Copy, Debug)]
pub(super) struct Numbered<'a> {
    pub(super) number: u32,
    pub(super) puzzle: &'a Exported,
}

/// A run of puzzles that starts on a new page: a day (`--page-per-day`), a level (a book) or
/// all of them, with its level's name (a book) and its outline entry.
pub(super) struct Section<'a> {
    pub(super) level: Option<String>,
    bookmark: Option<String>,
    pub(super) puzzles: Vec<Numbered<'a>>,
}

/// The sheet `opts` lays pages out on, with `gutter` on facing pages.
fn sheet(opts: &PrintOptions, gutter: f32) -> Sheet {
    Sheet {
        page: opts.page,
        margin: opts.margin.unwrap_or(opts.page.default_margin()),
        gutter,
        facing: opts.facing(),
        bleed: opts.bleed,
    }
}

/// Lays out `puzzles` (in date and slot order), numbered from `first_number` (a book numbers
/// its own collection from 1). A book's gutter follows its page count: laid out again when
/// the count moves it.
#[cfg_attr(not(any(test, feature = "dev")), allow(dead_code))]
pub fn lay_out(opts: &PrintOptions, puzzles: &[Exported], first_number: u32) -> Pages {
    lay_out_after(opts, puzzles, first_number, &[])
}

/// [`lay_out`] of the days after `before` (the day before the first, whose solutions
/// [`SolutionLayout::NextDay`] prints with the first day's puzzles).
pub fn lay_out_after(
    opts: &PrintOptions,
    puzzles: &[Exported],
    first_number: u32,
    before: &[Exported],
) -> Pages {
    let mut gutter = opts.gutter.unwrap_or(default_gutter(0));
    let mut pages = lay_out_on(opts, sheet(opts, gutter), puzzles, first_number, before);
    for _ in 0..4 {
        if opts.gutter.is_some() || !opts.facing() {
            break;
        }
        let wanted = default_gutter(pages.pages.len());
        if wanted == gutter {
            break;
        }
        gutter = wanted;
        pages = lay_out_on(opts, sheet(opts, gutter), puzzles, first_number, before);
    }
    pages
}

/// [`lay_out`] on a given sheet; `before`: the puzzles of the day before the first, whose
/// solutions [`SolutionLayout::NextDay`] prints with the first day's.
fn lay_out_on(
    opts: &PrintOptions,
    sheet: Sheet,
    puzzles: &[Exported],
    first: u32,
    before: &[Exported],
) -> Pages {
    let mut book = Draft::new(opts, sheet, puzzles);
    let sections = sections(opts, puzzles, first);
    let numbered: Vec<Numbered> = sections.iter().flat_map(|s| s.puzzles.clone()).collect();
    let front = book.front(numbered.len());
    let mut starts = Vec::new();
    let instruction = !book.front_has_rules();
    book.cell = book.cell_size(instruction);
    let mut yesterday: Vec<Numbered> = before
        .iter()
        .zip(first.saturating_sub(before.len() as u32)..)
        .map(|(puzzle, n)| Numbered {
            number: puzzle.number.unwrap_or(n),
            puzzle,
        })
        .collect();
    for (i, s) in sections.iter().enumerate() {
        starts.push(book.pages.len());
        if let Some(b) = &s.bookmark {
            book.bookmarks.push(Bookmark {
                title: b.clone(),
                page: book.pages.len(),
            });
        }
        book.items(s, false, instruction && i == 0);
        match opts.solutions {
            SolutionLayout::Strip => {
                let last = book.pages.len() - 1;
                book.strip_of(last, &s.puzzles, false);
            }
            SolutionLayout::NextDay => {
                let first_page = starts[i];
                let before = std::mem::replace(&mut yesterday, s.puzzles.clone());
                book.strip_of(first_page, &before, true);
            }
            _ => {}
        }
    }
    if numbered.is_empty() {
        let page = book.blank();
        book.heading(page, "No puzzles");
    }
    let solutions_page = book.pages.len();
    match opts.solutions {
        SolutionLayout::None | SolutionLayout::Strip | SolutionLayout::NextDay => {}
        SolutionLayout::Full => {
            for s in &sections {
                book.items(s, true, false);
            }
        }
        SolutionLayout::Compact => book.compact(&numbered),
    }
    if solutions_page < book.pages.len() {
        book.bookmarks.push(Bookmark {
            title: "Solutions".into(),
            page: solutions_page,
        });
    }
    book.finish_front(front, &sections, &starts, solutions_page);
    book.solution_references();
    book.page_numbers();
    debug_assert!(book
        .pages
        .iter()
        .all(|p| p.marks.iter().all(|m| p.inside.holds(&m.extent(), 0.5))));
    Pages {
        title: book.title,
        media: sheet.media(),
        bleed: sheet.bleed,
        lone: book
            .lone
            .iter()
            .map(|&i| book.pages[i].number.unwrap_or(i + 1))
            .collect(),
        pages: book.pages,
        bookmarks: book.bookmarks,
    }
}

/// The sections of the puzzle pages, numbered.
fn sections<'a>(opts: &PrintOptions, puzzles: &'a [Exported], first: u32) -> Vec<Section<'a>> {
    if opts.book {
        // By level, in the order the levels first appear (the mix's order), numbered in
        // book order.
        let mut number = 1;
        return level_counts(puzzles)
            .iter()
            .map(|(l, _)| {
                let puzzles: Vec<Numbered> = puzzles
                    .iter()
                    .filter(|p| &p.level == l)
                    .map(|puzzle| {
                        number += 1;
                        Numbered {
                            number: number - 1,
                            puzzle,
                        }
                    })
                    .collect();
                Section {
                    level: Some(level_name(l)),
                    bookmark: Some(level_name(l)),
                    puzzles,
                }
            })
            .collect();
    }
    let numbered: Vec<Numbered> = puzzles
        .iter()
        .zip(first..)
        .map(|(puzzle, number)| Numbered {
            number: puzzle.number.unwrap_or(number),
            puzzle,
        })
        .collect();
    let days: Vec<Vec<Numbered>> = numbered
        .chunk_by(|a, b| a.puzzle.date == b.puzzle.date)
        .map(|c| c.to_vec())
        .collect();
    if opts.page_per_day || days.len() == 1 || opts.solutions.by_day() {
        days.into_iter()
            .map(|puzzles| Section {
                level: None,
                bookmark: puzzles[0].puzzle.date.map(Date::long),
                puzzles,
            })
            .collect()
    } else {
        vec![Section {
            level: None,
            bookmark: None,
            puzzles: numbered,
        }]
    }
}

/// The puzzles with the numbers they are printed with (a book's by level, in book order).
pub fn numbered<'a>(
    opts: &PrintOptions,
    puzzles: &'a [Exported],
    first: u32,
) -> Vec<(u32, &'a Exported)> {
    sections(opts, puzzles, first)
        .into_iter()
        .flat_map(|s| s.puzzles)
        .map(|n| (n.number, n.puzzle))
        .collect()
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

/// `n` puzzles spread evenly over the fewest pages of at most `most`: the count on each page
/// (the fuller pages first).
pub(super) fn balanced(n: usize, most: usize) -> Vec<usize> {
    let pages = n.div_ceil(most.max(1));
    (0..pages)
        .map(|i| n / pages + usize::from(i < n % pages))
        .collect()
}


/// The smallest cell a page may print a puzzle with (4.2 mm), and a compact solution (2.1 mm).
const LEGIBLE: (f32, f32) = (12.0, 6.0);

/// Why pages laid out with `opts` cannot print legible grids (a page too small for its
/// margins), if they cannot.
pub fn unfit(opts: &PrintOptions) -> Option<String> {
    // The widest gutter a book's page count may bring.
    let gutter = opts.gutter.unwrap_or(default_gutter(usize::MAX));
    let book = Draft::new(opts, sheet(opts, gutter), &[]);
    let cell = book.cell_size(!opts.book);
    let compact = book.compact_grid().2;
    let short = cell < LEGIBLE.0 || (opts.solutions == SolutionLayout::Compact && compact < LEGIBLE.1);
    short.then(|| {
        format!(
            "a page of {} by {} leaves too little room inside its margins for a legible grid \
             (cells of at least {} pt, 4.2 mm): give a larger --page or a smaller --margin",
            Length(opts.page.width),
            Length(opts.page.height),
            LEGIBLE.0
        )
    })
}

/// Space between grids across and down, and the label over a grid.
const GAP: (f32, f32) = (28.0, 22.0);

/// A "Solution on page N" line drawn right after its puzzle's grid (its page is known once
/// the solutions are laid out): its page and its mark there, and the puzzle.
struct Reference {
    page: usize,
    mark: usize,
    number: u32,
    /// The grid's width, which the line may not exceed.
    room: f32,
}

/// Pages being laid out.
pub(super) struct Draft<'o> {
    pub(super) opts: &'o PrintOptions,
    pub(super) sheet: Sheet,
    pub(super) style: Style,
    /// The document's title.
    pub(super) title: String,
    /// The running heading's title.
    head: String,
    /// The puzzle pages' grid layout (columns, rows) and cell size.
    layout: (usize, usize),
    cell: f32,
    pub(super) pages: Vec<Page>,
    pub(super) bookmarks: Vec<Bookmark>,
    /// Puzzles per level name, in order, for the title page.
    pub(super) levels: Vec<(String, usize)>,
    /// Where each puzzle says where its solution is.
    references: Vec<Reference>,
    /// The page each puzzle's solution is on, by number.
    pub(super) solved_on: HashMap<u32, usize>,
    /// The room kept at the foot of every puzzle page for a strip of solutions (0: none).
    pub(super) strip: f32,
    /// The sizes of the runs of puzzles that start a page (a level, a day, or all).
    runs: Vec<usize>,
    /// The pages (indices) holding a lone grid where the layout holds more.
    lone: Vec<usize>,
}

impl<'o> Draft<'o> {
    fn new(opts: &'o PrintOptions, sheet: Sheet, puzzles: &[Exported]) -> Draft<'o> {
        let levels = level_counts(puzzles);
        let style = if opts.large_print { LARGE } else { NORMAL };
        let mut book = Draft {
            opts,
            sheet,
            style,
            title: opts.title.clone().unwrap_or_else(|| default_title(puzzles)),
            head: opts.title.clone().unwrap_or_else(|| "Sudoku".into()),
            layout: (1, 1),
            cell: 0.0,
            pages: Vec::new(),
            bookmarks: Vec::new(),
            levels,
            references: Vec::new(),
            solved_on: HashMap::new(),
            strip: 0.0,
            runs: sections(opts, puzzles, 1).iter().map(|s| s.puzzles.len()).collect(),
            lone: Vec::new(),
        };
        book.strip = book.strip_height(puzzles);
        book.layout = book.choose_layout();
        book
    }

    /// The area inside the margins (the same size on every page).
    pub(super) fn inside(&self) -> Area {
        self.sheet.inside(0)
    }

    /// The body's top and bottom on page `page`, below the heading and above the number.
    pub(super) fn body(&self, page: usize) -> (f32, f32) {
        let a = self.sheet.inside(page);
        (a.top + HEAD, a.bottom - 1.8 * self.style.small - 6.0 - self.strip)
    }

    /// The height of a grid's label, and of the line under it (ids, solution's page; 0 when
    /// there is none).
    fn item_lines(&self) -> (f32, f32) {
        let label = self.style.label.1 + 5.0;
        let under = self.opts.show_ids || self.opts.solutions != SolutionLayout::None;
        (label, if under { self.style.small + 5.0 } else { 0.0 })
    }

    /// The cell of `cols` x `rows` grids on a page (`instruction`: the first page holds it).
    fn cell_for(&self, cols: usize, rows: usize, instruction: bool) -> f32 {
        let (top, bottom) = self.body(0);
        let top = top + if instruction { 20.0 } else { 0.0 };
        let col_w = (self.inside().width() - (cols - 1) as f32 * GAP.0) / cols as f32;
        let row_h = (bottom - top - (rows - 1) as f32 * GAP.1) / rows as f32;
        let (label, under) = self.item_lines();
        // The frame's line is half outside the cells.
        let line = THICK;
        ((col_w - line) / 9.0)
            .min((row_h - label - under - line) / 9.0)
            .min(self.style.cell.1)
    }

    /// The puzzle pages' layout: the one asked for, else the most grids a page whose cells
    /// stay at least the style's smallest (one a page when none does).
    fn choose_layout(&self) -> (usize, usize) {
        if let Some(n) = self.opts.per_page {
            return grid_layout(n);
        }
        let most: &[u8] = if self.opts.large_print {
            &[2, 1]
        } else {
            &[6, 4, 2, 1]
        };
        let fitting: Vec<(usize, usize)> = most
            .iter()
            .map(|&n| grid_layout(n))
            .filter(|&(c, r)| self.cell_for(c, r, !self.front_has_rules()) >= self.style.cell.0)
            .collect();
        // The fewest grids a page that hold the longest run on one page (a day of 2 gets 2
        // large grids, not 4 small ones); else the most grids a page that leaves no run with
        // a lone grid on a page; else the most (the lone grids are named in a warning).
        let longest = self.runs.iter().copied().max().unwrap_or(1);
        if let Some(&l) = fitting.iter().rev().find(|l| l.0 * l.1 >= longest) {
            return l;
        }
        let lone = |(c, r): (usize, usize)| {
            self.runs.iter().any(|&n| n > 1 && balanced(n, c * r).contains(&1) && c * r > 1)
        };
        fitting
            .iter()
            .copied()
            .find(|&l| l.0 * l.1 > 1 && !lone(l))
            .or(fitting.first().copied())
            .unwrap_or((1, 1))
    }

    /// The cell of every full-size grid in the document.
    fn cell_size(&self, instruction: bool) -> f32 {
        let (c, r) = self.layout;
        self.cell_for(c, r, instruction)
    }

    /// A new empty page; its index.
    pub(super) fn blank(&mut self) -> usize {
        let index = self.pages.len();
        self.pages.push(Page {
            marks: Vec::new(),
            trim: self.sheet.trim(index),
            inside: self.sheet.inside(index),
            number: Some(index + 1),
        });
        index
    }

    pub(super) fn mark(&mut self, page: usize, mark: Mark) {
        self.pages[page].marks.push(mark);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn text(&mut self, page: usize, x: f32, y: f32, size: f32, bold: bool, align: Align, t: &str) {
        self.mark(
            page,
            Mark::Text {
                x,
                y,
                size,
                bold,
                serif: false,
                colour: Colour::BLACK,
                align,
                text: t.to_string(),
            },
        );
    }

    /// Black text in DejaVu Serif when `serif` (`(serif, bold)`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn text_in(&mut self, page: usize, x: f32, y: f32, size: f32, (serif, bold): (bool, bool), align: Align, t: &str) {
        self.mark(
            page,
            Mark::Text {
                x,
                y,
                size,
                bold,
                serif,
                colour: Colour::BLACK,
                align,
                text: t.to_string(),
            },
        );
    }

    /// Regular text in a grey (of 255).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn text_grey(&mut self, page: usize, x: f32, y: f32, size: f32, align: Align, t: &str, grey: u8) {
        self.mark(
            page,
            Mark::Text {
                x,
                y,
                size,
                bold: false,
                serif: false,
                colour: Colour::grey(grey),
                align,
                text: t.to_string(),
            },
        );
    }

    /// The running heading: the title on the left, what the page holds on the right, a rule.
    pub(super) fn heading(&mut self, page: usize, right: &str) {
        let a = self.sheet.inside(page);
        let size = self.style.head;
        let y = a.top + size * 0.9;
        // What the page holds takes at most 60% of the width, the title the rest; a title that
        // would print below 6 pt is left out.
        let right_size = fit(right, size * 0.9, false, a.width() * 0.6);
        let room = a.width() - text_width(right, right_size, false) - 16.0;
        let title_size = fit(&self.head, size, true, room);
        if title_size >= 6.0 {
            let head = self.head.clone();
            self.text(page, a.left, y, title_size, true, Align::Left, &head);
        }
        self.text(page, a.right, y, right_size, false, Align::Right, right);
        self.mark(
            page,
            Mark::Rule {
                x: a.left,
                y: y + 6.0,
                length: a.width(),
                weight: 0.6,
                colour: Colour::BLACK,
            },
        );
    }

    /// The bare page number at the outer corner of every numbered page.
    fn page_numbers(&mut self) {
        for i in 0..self.pages.len() {
            let Some(n) = self.pages[i].number else {
                continue;
            };
            let a = self.pages[i].inside;
            let (x, align) = if self.sheet.recto(i) {
                (a.right, Align::Right)
            } else {
                (a.left, Align::Left)
            };
            let size = self.style.small + 1.0;
            self.text(i, x, a.bottom - 0.3 * size, size, false, align, &n.to_string());
        }
    }

    /// "Solution on page N" under every puzzle whose solution is printed; "Solution tomorrow"
    /// under one whose solution comes with the next day's puzzles in a later file.
    fn solution_references(&mut self) {
        let tomorrow = self.opts.solutions == SolutionLayout::NextDay;
        for r in std::mem::take(&mut self.references) {
            let n = self
                .solved_on
                .get(&r.number)
                .and_then(|&page| self.pages[page].number);
            let said = match n {
                Some(n) => format!("Solution on page {n}"),
                None if tomorrow => "Solution tomorrow".to_string(),
                None => continue,
            };
            if let Mark::Text { text, size, .. } = &mut self.pages[r.page].marks[r.mark] {
                *text = said;
                *size = fit(text, *size, false, r.room);
            }
        }
    }

    /// The full-size pages of a section: its puzzles (or their solutions), spread evenly over
    /// the fewest pages of the layout.
    fn items(&mut self, section: &Section, solutions: bool, mut instruction: bool) {
        let (cols, rows) = self.layout;
        let cell = self.cell;
        let size = 9.0 * cell;
        let (label_h, under_h) = self.item_lines();
        let item_h = label_h + size + under_h;
        let label_size = (cell * 0.42).clamp(self.style.label.0, self.style.label.1);
        let mut rest = &section.puzzles[..];
        for count in balanced(rest.len(), cols * rows) {
            let (chunk, more) = rest.split_at(count);
            rest = more;
            let page = self.blank();
            if count == 1 && section.puzzles.len() > 1 && cols * rows > 1 && !solutions {
                self.lone.push(page);
            }
            // The date once on the page: in the heading when the page holds one day, else in
            // the label of each day's first puzzle on it.
            let dates: Vec<Option<Date>> = chunk.iter().map(|n| n.puzzle.date).collect();
            let one_day = !self.opts.book && dates.iter().all(|d| *d == dates[0]);
            let right = match (&section.level, one_day, dates[0]) {
                (Some(l), _, _) if solutions => format!("Solutions, {l}"),
                (Some(l), _, _) => l.clone(),
                (None, true, Some(d)) if solutions => format!("Solutions, {}", d.long()),
                (None, true, Some(d)) => d.long(),
                (None, _, _) => numbers(if solutions { "Solutions" } else { "Puzzles" }, chunk),
            };
            self.heading(page, &right);
            let a = self.sheet.inside(page);
            let (mut top, bottom) = self.body(page);
            if instruction {
                let s = self.style.label.0 + 2.0;
                let t = fit(INSTRUCTION, s, false, a.width());
                self.text(page, a.left, top + 4.0, t, false, Align::Left, INSTRUCTION);
                top += 20.0;
                instruction = false;
            }
            let col_w = (a.width() - (cols - 1) as f32 * GAP.0) / cols as f32;
            let used_rows = count.div_ceil(cols);
            let row_h = (bottom - top - (used_rows - 1) as f32 * GAP.1) / used_rows as f32;
            for (i, n) in chunk.iter().enumerate() {
                let (c, r) = (i % cols, i / cols);
                let in_row = cols.min(count - r * cols);
                let row_w = in_row as f32 * col_w + (in_row - 1) as f32 * GAP.0;
                let row_left = a.left + (a.width() - row_w) / 2.0;
                let x = row_left + c as f32 * (col_w + GAP.0) + (col_w - size) / 2.0;
                let y = top + r as f32 * (row_h + GAP.1) + (row_h - item_h) / 2.0;
                let dated = !one_day && (i == 0 || dates[i] != dates[i - 1]);
                self.label(page, x, y + label_size + 1.0, size, n, label_size, dated);
                self.mark(page, grid(x, y + label_h, cell, n.puzzle, solutions));
                let under = y + label_h + size + self.style.small + 3.0;
                if solutions {
                    self.solved_on.insert(n.number, page);
                } else if self.opts.solutions != SolutionLayout::None {
                    self.references.push(Reference {
                        page,
                        mark: self.pages[page].marks.len(),
                        number: n.number,
                        room: size,
                    });
                    let small = self.style.small;
                    self.text(page, x + size, under, small, false, Align::Right, "");
                }
                if self.opts.show_ids {
                    let p = n.puzzle;
                    let t = format!(
                        "id {} - {} - percentile {}",
                        p.id,
                        p.shown_rating(),
                        p.percentile
                    );
                    let reference = if solutions || self.opts.solutions == SolutionLayout::None {
                        0.0
                    } else {
                        text_width("Solution on page 0000", self.style.small, false) + 6.0
                    };
                    let s = fit(&t, self.style.small, false, size - reference);
                    self.mark(
                        page,
                        Mark::Text {
                            x,
                            y: under,
                            size: s,
                            bold: false,
                            serif: false,
                            colour: Colour::grey(80),
                            align: Align::Left,
                            text: t,
                        },
                    );
                }
            }
        }
    }

    /// A grid's label over `width` at baseline `y`: `No. 12`, the weekday and date when
    /// `dated` (shortened when the full date does not fit), the level on the right.
    #[allow(clippy::too_many_arguments)]
    fn label(&mut self, page: usize, x: f32, y: f32, width: f32, n: &Numbered, size: f32, dated: bool) {
        let number = format!("No. {}", n.number);
        let level = level_name(&n.puzzle.level);
        self.text(page, x, y, size, true, Align::Left, &number);
        self.text(page, x + width, y, size, true, Align::Right, &level);
        let date = n.puzzle.date.filter(|_| dated && !self.opts.book);
        let Some(date) = date else {
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

}

/// The puzzles of each level, in the order the levels first appear (the mix's order).
pub(crate) fn level_counts(puzzles: &[Exported]) -> Vec<(String, usize)> {
    let mut levels: Vec<(String, usize)> = Vec::new();
    for p in puzzles {
        match levels.iter_mut().find(|l| l.0 == p.level) {
            Some(l) => l.1 += 1,
            None => levels.push((p.level.clone(), 1)),
        }
    }
    levels
}

/// `35 puzzles: 14 easy, 14 medium, 7 hard`.
pub(crate) fn contents_line(n: usize, levels: &[(String, usize)]) -> String {
    let counts: Vec<String> = levels
        .iter()
        .map(|(l, c)| format!("{c} {}", level_name(l).to_lowercase()))
        .collect();
    format!(
        "{n} puzzle{}{}",
        if n == 1 { "" } else { "s" },
        if counts.is_empty() {
            String::new()
        } else {
            format!(": {}", counts.join(", "))
        }
    )
}

/// `Puzzles 5-8` (or `Puzzle 5`) for the numbers on a page.
pub(super) fn numbers(what: &str, chunk: &[Numbered]) -> String {
    match (chunk.first(), chunk.last()) {
        (Some(a), Some(b)) if a.number == b.number => {
            format!("{} {}", what.trim_end_matches('s'), a.number)
        }
        (Some(a), Some(b)) => format!("{what} {}-{}", a.number, b.number),
        _ => what.to_string(),
    }
}

/// The grid of `p` at (x, y): the puzzle, or its solution when `solved`.
pub(super) fn grid(x: f32, y: f32, cell: f32, p: &Exported, solved: bool) -> Mark {
    Mark::Grid {
        x,
        y,
        cell,
        puzzle: p.puzzle,
        solution: solved.then_some(p.solution),
    }
}

/// Why `title` cannot be printed on a book's title page and cover at these options (in at
/// most [`TITLE_LINES`] lines of at least its size), if it cannot.
pub fn title_unfit(title: &str, opts: &PrintOptions) -> Option<String> {
    let gutter = opts.gutter.unwrap_or(default_gutter(usize::MAX));
    let book = Draft::new(opts, sheet(opts, gutter), &[]);
    // The narrower of the title page's room and the cover's.
    let room = (book.sheet.inside(0).width() * 0.92).min((opts.page.width - 2.0 * SAFE) * 0.86);
    let (least, lines) = TITLE_LINES;
    let serif = opts.matter.typeface.serif();
    if fit_lines_in(title, 32.0, (serif, true), room, TITLE_LINES).is_none() {
        return Some(format!(
            "the title is too long for a title page and cover {} wide: it must fit in {lines} \
             lines of at least {least} pt (about {} characters); give a shorter --title",
            Length(opts.page.width),
            (room / (0.55 * least)) as usize * lines
        ));
    }
    let sub = opts.matter.subtitle.as_deref()?;
    fit_lines_in(sub, 15.0, (serif, false), room, SUBTITLE_LINES).is_none().then(|| {
        format!(
            "the subtitle is too long for a cover {} wide: it must fit in {} lines of at least \
             {} pt (about {} characters); give a shorter --subtitle",
            Length(opts.page.width),
            SUBTITLE_LINES.1,
            SUBTITLE_LINES.0,
            (room / (0.5 * SUBTITLE_LINES.0)) as usize * SUBTITLE_LINES.1
        )
    })
}

/// A subtitle's smallest size and most lines (title page and cover).
pub(crate) const SUBTITLE_LINES: (f32, usize) = (10.0, 2);

#[cfg(test)]
mod tests {
    use super::super::super::paper::{PageSize, BLEED};
    use super::super::*;
    use super::*;
    use crate::grid::Grid;
    use crate::export::pages::Part;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn puzzle(date: &str, slot: u32, level: &str) -> Exported {
        Exported {
            date: Some(date.parse().unwrap()),
            slot,
            level: level.into(),
            puzzle: PUZZLE.parse().unwrap(),
            solution: SOLUTION.parse().unwrap(),
            difficulty: Some(2.5),
            hsolve: 100.0,
            percentile: 50.0,
            id: 7,
            number: None,
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

    /// Asserts that `page` (its texts) holds each of `wanted`.
    fn holds(page: &[String], wanted: &[&str]) {
        for w in wanted {
            assert!(page.iter().any(|s| s == w), "no {w:?} on the page: {page:?}");
        }
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

    fn grids(page: &Page) -> Vec<(f32, Option<Grid>)> {
        page.marks
            .iter()
            .filter_map(|m| match m {
                Mark::Grid { cell, solution, .. } => Some((*cell, *solution)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_week_numbered_across_with_compact_solutions() {
        let week = week();
        let opts = PrintOptions::default();
        let p = lay_out(&opts, &week, 1);
        assert_eq!(p.title, "Sudoku, 4-10 January 2027");
        // 35 puzzles at up to 4 a page on A4: 9 pages (8 of 4, one of 3); the week's 35
        // solutions (Monday to Sunday) on one page.
        assert_eq!(p.pages.len(), 10);
        let counts: Vec<usize> = p.pages[..9].iter().map(|p| grids(p).len()).collect();
        assert_eq!(counts, [4, 4, 4, 4, 4, 4, 4, 4, 3]);
        let t = texts(&p);
        holds(&t[0], &[INSTRUCTION, "Sudoku"]);
        // Page 1 holds one day: its date once, in the heading; page 2 two days: the heading
        // says the numbers and each day's first label its date.
        holds(&t[0], &["Monday 4 January 2027"]);
        holds(&t[1], &["Puzzles 5-8", "Monday 4 January 2027", "Tuesday 5 January 2027"]);
        holds(&t[8], &["No. 35"]);
        holds(&t[9], &["Solutions, 4-10 January 2027", "No. 1", "No. 35"]);
        for (i, page) in t.iter().enumerate() {
            assert!(page.contains(&format!("{}", i + 1)), "a bare page number");
            assert!(!page.iter().any(|s| s.contains("percentile") || s.contains(" of ")));
        }
        assert_eq!(grids(&p.pages[9]).len(), 35);
        // Cells of at least 2.5 mm.
        assert!(grids(&p.pages[9]).iter().all(|g| g.0 >= 7.0));
        // Two weeks from a Wednesday: each calendar week (Monday to Sunday) its own page.
        let mut more = week.clone();
        for (i, mut p) in week.iter().cloned().enumerate() {
            p.date = p.date.map(|d| Date::from_days(d.days() + 7));
            p.slot = i as u32 + 1;
            more.push(p);
        }
        let p = lay_out(&opts, &more[10..], 1);
        let solution_pages: Vec<usize> = p
            .pages
            .iter()
            .map(|pg| grids(pg).iter().filter(|g| g.1.is_some()).count())
            .filter(|&n| n > 0)
            .collect();
        // From Wednesday 6 January: 25 that week (Wednesday to Sunday), 35 the next.
        assert_eq!(solution_pages, [25, 35]);
        // A book's compact solutions: up to 20 a page on A4, spread evenly (18 + 17).
        let book = lay_out(&PrintOptions { book: true, ..opts.clone() }, &week, 1);
        let n = book.pages.len();
        assert_eq!(grids(&book.pages[n - 2]).len(), 18);
        assert_eq!(grids(&book.pages[n - 1]).len(), 17);
    }

    #[test]
    fn runs_are_spread_evenly_so_no_page_holds_a_lone_grid() {
        for n in 1..60 {
            for most in 1..=6 {
                let b = balanced(n, most);
                assert_eq!(b.iter().sum::<usize>(), n);
                assert_eq!(b.len(), n.div_ceil(most));
                assert!(b.iter().all(|&c| c <= most && c >= n / b.len()));
                assert!(b.windows(2).all(|w| w[0] >= w[1] && w[0] - w[1] <= 1));
                if most >= 2 && n >= 2 && n.div_ceil(most) * 2 <= n {
                    assert!(b.iter().all(|&c| c >= 2), "{n} at {most}: {b:?}");
                }
            }
        }
        // A day of 5 a page: 3 + 2 at up to 4; all 5 on one page at up to 6.
        let week = week();
        for (per_page, counts) in [(Some(4), vec![3, 2]), (Some(6), vec![5]), (None, vec![3, 2])] {
            let opts = PrintOptions {
                per_page,
                page_per_day: true,
                solutions: SolutionLayout::None,
                ..Default::default()
            };
            let p = lay_out(&opts, &week, 1);
            let got: Vec<usize> = p.pages.iter().map(|p| grids(p).len()).collect();
            let want: Vec<usize> = (0..7).flat_map(|_| counts.clone()).collect();
            assert_eq!(got, want, "{per_page:?}");
        }
    }

    #[test]
    fn the_date_is_printed_once_a_page() {
        let week = week();
        for page_per_day in [false, true] {
            for per_page in [2, 4, 6] {
                let opts = PrintOptions {
                    per_page: Some(per_page),
                    page_per_day,
                    ..Default::default()
                };
                let p = lay_out(&opts, &week, 1);
                for page in texts(&p) {
                    for d in 4..=10 {
                        let day = format!("2027-01-{d:02}").parse::<Date>().unwrap();
                        let n = page
                            .iter()
                            .filter(|s| **s == day.long() || **s == day.short() || s.ends_with(&day.long()))
                            .count();
                        assert!(n <= 1, "{page:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_puzzle_names_the_page_of_its_solution() {
        let week = week();
        for solutions in [SolutionLayout::Compact, SolutionLayout::Full] {
            for book in [false, true] {
                let opts = PrintOptions {
                    solutions,
                    book,
                    show_ids: true,
                    ..Default::default()
                };
                let p = lay_out(&opts, &week, 1);
                let t = texts(&p);
                let mut seen = 0;
                for page in &p.pages {
                    for m in &page.marks {
                        let Mark::Text { x, y, text, .. } = m else {
                            continue;
                        };
                        let Some(n) = text.strip_prefix("Solution on page ") else {
                            continue;
                        };
                        seen += 1;
                        // Its grid ends at its right end just above it; the grid's label is
                        // the "No. K" at the grid's left just above the grid.
                        let (gx, gy) = page
                            .marks
                            .iter()
                            .find_map(|g| match g {
                                Mark::Grid { x: gx, y: gy, cell, .. }
                                    if (gx + 9.0 * cell - x).abs() < 0.01
                                        && *y > gy + 9.0 * cell
                                        && *y < gy + 9.0 * cell + 30.0 =>
                                {
                                    Some((*gx, *gy))
                                }
                                _ => None,
                            })
                            .unwrap();
                        let k = page
                            .marks
                            .iter()
                            .find_map(|l| match l {
                                Mark::Text { x, y, text, .. }
                                    if *x == gx && *y < gy && *y > gy - 30.0 =>
                                {
                                    text.starts_with("No. ").then_some(text.clone())
                                }
                                _ => None,
                            })
                            .unwrap();
                        let target: usize = n.parse().unwrap();
                        let on = &p.pages[target - 1];
                        assert_eq!(on.number, Some(target));
                        assert!(t[target - 1].contains(&k), "{k} says page {target}");
                        assert!(grids(on).iter().all(|g| g.1.is_some()));
                    }
                }
                assert_eq!(seen, 35, "{solutions:?} book {book}");
            }
        }
        let none = PrintOptions {
            solutions: SolutionLayout::None,
            ..Default::default()
        };
        let t = texts(&lay_out(&none, &week, 1));
        assert!(!t.iter().flatten().any(|s| s.starts_with("Solution on")));
    }

    #[test]
    fn every_mark_is_inside_the_margins_on_every_sheet() {
        let week = week();
        let mut sizes: Vec<PageSize> = PageSize::NAMED.iter().map(|n| n.1).collect();
        for small in ["5x8in", "4x6in", "4.25x6.87in"] {
            sizes.push(small.parse().unwrap());
        }
        for page in sizes {
            for per_page in [None, Some(1), Some(2), Some(4), Some(6)] {
                for (book, large_print, bleed) in
                    [(false, false, false), (true, false, true), (true, true, false), (false, true, true)]
                {
                    if large_print && per_page.is_some_and(|n| n > 2) {
                        continue;
                    }
                    for solutions in [SolutionLayout::Compact, SolutionLayout::Full] {
                        let opts = PrintOptions {
                            page,
                            per_page,
                            book,
                            large_print,
                            bleed,
                            solutions,
                            show_ids: true,
                            ..Default::default()
                        };
                        if unfit(&opts).is_some() {
                            // Refused before anything is laid out.
                            assert!(per_page.is_some(), "{opts:?}");
                            continue;
                        }
                        let p = lay_out(&opts, &week, 1);
                        let (w, h) = p.media;
                        let b = if bleed { BLEED } else { 0.0 };
                        let sides = if book { 1.0 } else { 2.0 };
                        assert_eq!((w, h), (page.width + sides * b, page.height + 2.0 * b));
                        for (i, pg) in p.pages.iter().enumerate() {
                            assert_eq!(pg.trim.width(), page.width);
                            for m in &pg.marks {
                                assert!(pg.inside.holds(&m.extent(), 0.5), "{page:?} {per_page:?} {m:?}");
                            }
                            if book {
                                // The gutter alternates: the wider margin is on the binding side.
                                let left = pg.inside.left - pg.trim.left;
                                let right = pg.trim.right - pg.inside.right;
                                if i % 2 == 0 {
                                    assert!(left > right, "recto {i}");
                                } else {
                                    assert!(right > left, "verso {i}");
                                }
                            }
                            if large_print {
                                assert!(grids(pg).len() <= 2 || grids(pg)[0].1.is_some());
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn page_numbers_are_bare_at_the_outer_corner() {
        let week = week();
        let opts = PrintOptions {
            book: true,
            page: PageSize::TRADE,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        assert_eq!(p.pages[0].number, None, "the title page is not numbered");
        assert_eq!(p.pages[1].number, None, "nor the copyright page");
        for (i, page) in p.pages.iter().enumerate().skip(2) {
            let n = (i + 1).to_string();
            let mark = page
                .marks
                .iter()
                .rev()
                .find_map(|m| match m {
                    Mark::Text { x, align, text, .. } if *text == n => Some((*x, *align)),
                    _ => None,
                })
                .unwrap();
            if i % 2 == 0 {
                assert_eq!(mark, (page.inside.right, Align::Right));
            } else {
                assert_eq!(mark, (page.inside.left, Align::Left));
            }
        }
        // A 6x9 book fits two grids a page, in large print one.
        assert!(p.pages.iter().all(|p| grids(p).len() <= 2 || grids(p)[0].1.is_some()));
        let large = lay_out(&PrintOptions { large_print: true, ..opts }, &week, 1);
        let cells: Vec<f32> = large
            .pages
            .iter()
            .flat_map(grids)
            .filter(|g| g.1.is_none())
            .map(|g| g.0)
            .collect();
        assert_eq!(cells.len(), 35);
        assert!(cells.iter().all(|&c| c >= 28.0), "{cells:?}");
    }

    #[test]
    fn a_book_has_a_title_page_contents_and_levels_in_order() {
        let week = week();
        let opts = PrintOptions {
            book: true,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        let t = texts(&p);
        // Title page, copyright, contents, how to play, easy 14 (4 pages), medium 14 (4),
        // hard 7 (2), solutions 2.
        assert_eq!(p.pages.len(), 4 + 4 + 4 + 2 + 2);
        holds(&t[0], &["Sudoku, 4-10 January 2027", "35 puzzles: 14 easy, 14 medium, 7 hard"]);
        assert!(!t[0].contains(&INSTRUCTION.to_string()), "the rules are on their own page");
        assert!(t[1].iter().any(|s| s.starts_with("Copyright ©")));
        // The contents, titled once: how to play, each level's first page, the solutions'.
        assert_eq!(t[2].iter().filter(|s| s.contains("Contents")).count(), 1);
        holds(&t[2], &["How to play", "4", "Puzzles 1-14", "5", "Puzzles 29-35", "13", "Solutions", "15"]);
        holds(&t[3], &["How to play", "Getting started", "The levels"]);
        holds(&t[4], &["Easy", "No. 1"]);
        holds(&t[12], &["Hard", "No. 29"]);
        // No dates in a book's labels.
        assert!(!t[4]
            .iter()
            .any(|s| s.contains("Monday") || s.contains("Mon ")));
        // Without a title page and how to play, the rule heads the first puzzle page.
        let mut bare = opts.clone();
        bare.matter.without = vec![Part::TitlePage, Part::HowToPlay, Part::Copyright];
        let t = texts(&lay_out(&bare, &week, 1));
        holds(&t[0], &["Contents"]);
        holds(&t[1], &[INSTRUCTION, "No. 1"]);
        let titles: Vec<&str> = p.bookmarks.iter().map(|b| b.title.as_str()).collect();
        assert_eq!(titles, ["Easy", "Medium", "Hard", "Solutions"]);
    }

    #[test]
    fn page_per_day_starts_each_day_on_a_new_page() {
        let week = week();
        let opts = PrintOptions {
            per_page: Some(6),
            page_per_day: true,
            solutions: SolutionLayout::None,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 36);
        assert_eq!(p.pages.len(), 7);
        let t = texts(&p);
        holds(&t[0], &["Monday 4 January 2027"]);
        holds(&t[6], &["Sunday 10 January 2027", "No. 70"]);
        holds(&t[0], &["No. 36", INSTRUCTION]);
        assert!(!t[1].contains(&INSTRUCTION.to_string()));
        assert!(t
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
        assert_eq!(p.title, "The Daily Grid");
        holds(&t[0], &["The Daily Grid", "id 7 - difficulty 2.5 - percentile 50"]);
    }

    #[test]
    fn one_grid_fills_its_page() {
        let p = one_grid("x", PUZZLE.parse().unwrap(), None, 144.0);
        assert_eq!(p.media, (144.0, 144.0));
        let e = p.pages[0].marks[0].extent();
        assert!((e.left).abs() < 1e-4 && (e.right - 144.0).abs() < 1e-3);
    }
}
