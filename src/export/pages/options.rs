//! What a printed export is asked for ([`PrintOptions`]: the sheet, print size, title,
//! solutions, pages per day) and the names it prints (levels, the default title).

use super::super::paper::{PageSize, Stock};
use super::super::Exported;
use crate::calendar::{self, Date};

/// How the solutions are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolutionLayout {
    /// Small grids after the puzzles, as many columns as stay legible.
    #[default]
    Compact,
    /// Full-size grids after the puzzles, in the puzzle pages' layout.
    Full,
    /// No solutions.
    None,
}

impl SolutionLayout {
    /// Every way.
    pub const ALL: [SolutionLayout; 3] = [SolutionLayout::Compact, SolutionLayout::Full, SolutionLayout::None];

    /// Its name (`--solutions`).
    pub fn name(self) -> &'static str {
        match self {
            SolutionLayout::Compact => "compact",
            SolutionLayout::Full => "full",
            SolutionLayout::None => "none",
        }
    }

    /// What it prints, for people.
    pub fn about(self) -> &'static str {
        match self {
            SolutionLayout::Compact => "Small grids after the puzzles (up to 20 a page on A4)",
            SolutionLayout::Full => "Full-size grids after the puzzles, in the puzzle pages' layout",
            SolutionLayout::None => "No solutions",
        }
    }
}

/// How printed pages are laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct PrintOptions {
    /// The trim size.
    pub page: PageSize,
    /// The outer, top and bottom margin in points; `None`: the page size's default.
    pub margin: Option<f32>,
    /// Added to the inner margin of facing pages, in points; given, the pages face each other
    /// (page numbers and gutter alternate). `None`: a book's grows with its page count
    /// (0.125 in more a 150 pages), other exports are single-sided.
    pub gutter: Option<f32>,
    /// Print 0.125 in past the trim on the outer edges (MediaBox larger than TrimBox).
    pub bleed: bool,
    /// The title: the running heading and the document's; `None`: `Sudoku` in the heading,
    /// `Sudoku, ` and the dates as the document's (`Sudoku, 4-10 January 2027`).
    pub title: Option<String>,
    /// The most puzzles a page: 1, 2, 4 or 6; `None`: as many as stay a readable size.
    pub per_page: Option<u8>,
    /// Each day starts a new page.
    pub page_per_day: bool,
    /// How the solutions are printed.
    pub solutions: SolutionLayout,
    /// Write a separate cover file (front, spine and back) beside the PDF.
    pub cover: bool,
    /// The paper the book is printed on (the cover's spine width).
    pub stock: Stock,
    /// A numbered collection by level: title page, contents, puzzles by level (easiest first),
    /// solutions, on facing pages. Its puzzles are labelled by number and level (no dates).
    pub book: bool,
    /// Large print: at most two grids a page, bigger cells, digits and labels.
    pub large_print: bool,
    /// Print each puzzle's bank id, rating and percentile under its grid.
    pub show_ids: bool,
    /// The width of a grid in a file of its own (`--per-puzzle`), in points.
    pub grid_width: f32,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            page: PageSize::A4,
            margin: None,
            gutter: None,
            bleed: false,
            title: None,
            per_page: None,
            page_per_day: false,
            solutions: SolutionLayout::Compact,
            cover: false,
            stock: Stock::White,
            book: false,
            large_print: false,
            show_ids: false,
            grid_width: 144.0,
        }
    }
}

impl PrintOptions {
    /// Whether the pages face each other (a book, or a gutter given).
    pub fn facing(&self) -> bool {
        self.book || self.gutter.is_some()
    }
}

/// The one-line rule printed on the title page, or on the first page without one.
pub const INSTRUCTION: &str = "Fill the grid so that every row, column and 3x3 box contains 1-9.";

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

/// The default title: `Sudoku, ` and the range of the puzzles' dates.
pub fn default_title(puzzles: &[Exported]) -> String {
    let dates: Vec<Date> = puzzles.iter().filter_map(|p| p.date).collect();
    match (dates.iter().min(), dates.iter().max()) {
        (Some(&a), Some(&b)) => format!("Sudoku, {}", calendar::range_text(a, b)),
        _ => "Sudoku".to_string(),
    }
}
