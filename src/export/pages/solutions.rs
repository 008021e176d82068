//! The solutions' small grids: compact pages after the puzzles (a week of daily puzzles on
//! one page when it fits, else as many a page as stay legible, spread evenly), and the strip
//! of a day's solutions at the foot of its last page (`--solutions strip`) or of the next
//! day's first (`--solutions next-day`, yesterday's answers as newspapers print them).
//!
//! ```text
//! | No. 12            Medium |   a puzzle page with its strip (the puzzle grids shrink to
//! | +---------+              |   leave the strip's room on every page of the export)
//! | |  9 x 9  |              |
//! | +---------+              |
//! |--------------------------|
//! | Yesterday's solutions, Sunday 3 January 2027
//! | No. 6  No. 7  No. 8 ...  |   small grids in one or two rows, cells of 7-10 pt
//! | [###]  [###]  [###]      |
//! +--------------------------+
//! ```

use super::display::{fit, Align, Colour, Mark, THICK};
use super::options::level_name;
use super::pagination::{balanced, grid, numbers, Draft, Numbered};
use super::super::Exported;
use crate::calendar::{self, Date};

/// Space between small grids across and down.
pub(super) const COMPACT_GAP: (f32, f32) = (16.0, 14.0);

/// The smallest cell of a week's solutions on one page (2.5 mm): smaller than the compact
/// pages' usual, as newspapers print their answers.
const WEEK_CELL: f32 = 7.0;

/// The cells of a strip's grids: at most this, at least the week's.
const STRIP_CELL: f32 = 10.0;

/// The strip's title line and the space above it.
const STRIP_HEAD: f32 = 24.0;

impl Draft<'_> {
    /// The label size of a compact solution.
    pub(super) fn compact_label(&self) -> f32 {
        if self.opts.large_print {
            11.0
        } else {
            8.0
        }
    }

    /// The compact solutions' columns, column width and cell: as many columns (2 to 4) as keep
    /// the cell at least the style's smallest, the cell no taller than the body holds.
    pub(super) fn compact_grid(&self) -> (usize, f32, f32) {
        let width = self.inside().width();
        let col_w = |cols: usize| (width - (cols - 1) as f32 * COMPACT_GAP.0) / cols as f32;
        let cols = (2..=4)
            .rev()
            .find(|&c| col_w(c) / 9.0 >= self.style.compact_cell)
            .unwrap_or(2);
        let (top, bottom) = self.body(0);
        let label_h = self.compact_label() + 4.0;
        let cell = ((col_w(cols) - THICK) / 9.0).min((bottom - top - label_h - THICK) / 9.0);
        (cols, col_w(cols), cell)
    }

    /// The largest cell at which `count` small grids fit one page, with its columns, if it is
    /// at least `least`.
    fn one_page(&self, count: usize, least: f32) -> Option<(usize, f32, f32)> {
        let width = self.inside().width();
        let (top, bottom) = self.body(0);
        let label_h = self.compact_label() + 4.0;
        let largest = self.compact_grid().2;
        (2..=8)
            .map(|cols| {
                let col_w = (width - (cols - 1) as f32 * COMPACT_GAP.0) / cols as f32;
                let rows = count.div_ceil(cols);
                let row_h = (bottom - top + COMPACT_GAP.1) / rows as f32 - COMPACT_GAP.1;
                let cell = ((col_w - THICK) / 9.0)
                    .min((row_h - label_h - THICK) / 9.0)
                    .min(largest);
                (cols, col_w, cell)
            })
            .filter(|&(.., cell)| cell >= least)
            .max_by(|a, b| a.2.total_cmp(&b.2))
    }

    /// The compact solutions after the puzzles. Daily puzzles go a week (Monday to Sunday) a
    /// page when the week fits at cells of at least 2.5 mm; the rest as many a page as stay
    /// the style's size, spread evenly over the fewest pages.
    pub(super) fn compact(&mut self, numbered: &[Numbered]) {
        let dated = !self.opts.book && numbered.iter().all(|n| n.puzzle.date.is_some());
        if dated {
            let week = |n: &Numbered| n.puzzle.date.map(|d| (d.days() - i64::from(d.weekday())) / 7);
            for run in numbered.chunk_by(|a, b| week(a) == week(b)) {
                match self.one_page(run.len(), WEEK_CELL.max(self.style.compact_cell * 0.75)) {
                    Some(fit) => self.compact_page(run, fit),
                    None => self.compact_pages(run),
                }
            }
        } else {
            self.compact_pages(numbered);
        }
    }

    /// `numbered` on compact pages of the usual size, spread evenly.
    fn compact_pages(&mut self, numbered: &[Numbered]) {
        let (cols, col_w, cell) = self.compact_grid();
        let label_h = self.compact_label() + 4.0;
        let item_h = label_h + 9.0 * cell + THICK;
        let (top, bottom) = self.body(0);
        let gap_y = COMPACT_GAP.1;
        let rows = (((bottom - top + gap_y) / (item_h + gap_y)).floor() as usize).max(1);
        let mut rest = numbered;
        for count in balanced(numbered.len(), rows * cols) {
            let (chunk, more) = rest.split_at(count);
            rest = more;
            self.compact_page(chunk, (cols, col_w, cell));
        }
    }

    /// One page of compact solutions, `cols` columns `col_w` wide of cells `cell`.
    fn compact_page(&mut self, chunk: &[Numbered], (cols, col_w, cell): (usize, f32, f32)) {
        let page = self.blank();
        let dates: Vec<Date> = chunk.iter().filter_map(|n| n.puzzle.date).collect();
        let title = match (dates.first(), dates.last()) {
            (Some(&a), Some(&b)) if !self.opts.book && dates.len() == chunk.len() => {
                if a == b {
                    format!("Solutions, {}", a.long())
                } else {
                    format!("Solutions, {}", calendar::range_text(a, b))
                }
            }
            _ => numbers("Solutions", chunk),
        };
        self.heading(page, &title);
        let a = self.sheet.inside(page);
        let (top, _) = self.body(page);
        let label_size = self.compact_label();
        let label_h = label_size + 4.0;
        let item_h = label_h + 9.0 * cell + THICK;
        for (i, n) in chunk.iter().enumerate() {
            let (c, r) = (i % cols, i / cols);
            let x = a.left + c as f32 * (col_w + COMPACT_GAP.0);
            let y = top + r as f32 * (item_h + COMPACT_GAP.1);
            self.small_grid(page, x, y, col_w, cell, n);
        }
    }

    /// A small solution grid with its number and level over it, in a column `col_w` wide
    /// from (x, y).
    fn small_grid(&mut self, page: usize, x: f32, y: f32, col_w: f32, cell: f32, n: &Numbered) {
        let label_size = self.compact_label();
        let label_h = label_size + 4.0;
        let number = format!("No. {}", n.number);
        let base = y + label_size + 0.5;
        let width = (9.0 * cell + THICK).min(col_w);
        let s = fit(&number, label_size, true, width * 0.45);
        self.text(page, x, base, s, true, Align::Left, &number);
        let level = level_name(&n.puzzle.level);
        let s = fit(&level, label_size, false, width * 0.5);
        self.text(page, x + width, base, s, false, Align::Right, &level);
        self.mark(page, grid(x + THICK / 2.0, y + label_h, cell, n.puzzle, true));
        self.solved_on.insert(n.number, page);
    }

    /// The strip's shape for `count` grids: (columns, column width, cell) in one or two rows.
    fn strip_shape(&self, count: usize) -> (usize, f32, f32) {
        let width = self.inside().width();
        let shape = |rows: usize| {
            let cols = count.div_ceil(rows).max(1);
            let col_w = (width - (cols - 1) as f32 * COMPACT_GAP.0) / cols as f32;
            (cols, col_w, ((col_w - THICK) / 9.0).min(STRIP_CELL))
        };
        let one = shape(1);
        if one.2 >= WEEK_CELL + 1.0 || count < 2 {
            one
        } else {
            shape(2)
        }
    }

    /// The room a strip of the export's largest day takes at the foot of a page (0 when the
    /// solutions are not printed by day).
    pub(super) fn strip_height(&self, puzzles: &[Exported]) -> f32 {
        if !self.opts.solutions.by_day() || self.opts.book {
            return 0.0;
        }
        let most = puzzles
            .chunk_by(|a, b| a.date == b.date)
            .map(<[Exported]>::len)
            .max()
            .unwrap_or(1);
        let (cols, _, cell) = self.strip_shape(most);
        let rows = most.div_ceil(cols);
        let label_h = self.compact_label() + 4.0;
        STRIP_HEAD + rows as f32 * (label_h + 9.0 * cell + THICK) + (rows - 1) as f32 * COMPACT_GAP.1 + 6.0
    }

    /// The strip of `day`'s solutions at the foot of `page`: titled with its date, and as
    /// yesterday's when `yesterday`.
    pub(super) fn strip_of(&mut self, page: usize, day: &[Numbered], yesterday: bool) {
        if day.is_empty() {
            return;
        }
        let a = self.sheet.inside(page);
        let (_, bottom) = self.body(page);
        let top = bottom + 6.0;
        self.mark(
            page,
            Mark::Rule {
                x: a.left,
                y: top,
                length: a.width(),
                weight: 0.6,
                colour: Colour::grey(120),
            },
        );
        let date = day[0].puzzle.date;
        let what = match (yesterday, day.len()) {
            (true, 1) => "Yesterday's solution",
            (true, _) => "Yesterday's solutions",
            (false, 1) => "Solution",
            (false, _) => "Solutions",
        };
        // Today's carry the numbers (the page's heading has the date); yesterday's its date.
        let title = match date {
            Some(d) if yesterday => format!("{what}, {}", d.long()),
            _ => numbers(what, day),
        };
        let size = fit(&title, 9.5, true, a.width());
        self.text(page, a.left, top + 15.0, size, true, Align::Left, &title);
        let (cols, col_w, cell) = self.strip_shape(day.len());
        let label_h = self.compact_label() + 4.0;
        let item_h = label_h + 9.0 * cell + THICK;
        let y0 = top + STRIP_HEAD - 4.0;
        for (i, n) in day.iter().enumerate() {
            let (c, r) = (i % cols, i / cols);
            let x = a.left + c as f32 * (col_w + COMPACT_GAP.0);
            let y = y0 + r as f32 * (item_h + COMPACT_GAP.1);
            self.small_grid(page, x, y, col_w, cell, n);
        }
    }
}
