//! The printed pages of an export (`--format pdf` and `--format html`): which puzzles go on
//! which page and where every grid and line of text sits, in points (1/72 inch) from the
//! sheet's top-left corner. The PDF and HTML writers draw the same [`Pages`], so both formats
//! follow the same layout rules. The sheet itself (trim size, margins, gutter, bleed) is
//! [`super::paper`]'s.
//!
//! ```text
//!  inside the margins (the gutter on the binding side of facing pages)
//! +---------------------------------------------+
//! | Sudoku                 Monday 4 January 2027|  running heading: the title; the day when
//! |---------------------------------------------|  the page holds one, else "Puzzles 5-8"
//! | Fill the grid so that ... (first page,      |  the instruction, unless there is a
//! |  without a title page)                      |  title page
//! | No. 1                              Easy     |  label: number (1..N across the export),
//! | +-----------+                               |  the date when the heading does not say
//! | |  9 x 9    |   ... up to 1, 2, 4 or 6      |  it (once per day on a page), level
//! | +-----------+       grids, balanced         |
//! | id 12 - ...          Solution on page 9     |  ids (--show-ids), where the solution is
//! |                                          3  |  the page number, at the outer corner
//! +---------------------------------------------+
//! ```
//!
//! Order: a book's title page and contents, the puzzle pages (each day on a new page with
//! `--page-per-day`; each level on a new page in a book), then the solutions: compact (small
//! grids, as many columns as stay legible), full (the puzzle pages' layout) or none. A run of
//! puzzles is spread evenly over the fewest pages that hold it, so no page holds a lone grid
//! unless one grid a page is asked for (5 puzzles at up to 4 a page: 3 + 2).
//!
//! - `options`: what is asked for ([`PrintOptions`]) and the names printed;
//! - `display`: the display list ([`Pages`], [`Mark`]) and text fitting;
//! - `pagination`: puzzles onto pages ([`lay_out`]).

mod display;
mod matter;
mod options;
mod pagination;
mod solutions;

pub(crate) use display::{fit_in, fit_lines_in, wrap_in, TITLE_LINES};
pub(crate) use pagination::SUBTITLE_LINES;
pub use display::{one_grid, Align, Colour, Mark, Page, Pages, THICK, THIN};
pub use options::{
    check_isbn, default_book_title, level_name, Matter, Palette, Part, PrintOptions, SolutionLayout,
    Typeface, INSTRUCTION,
};
pub(crate) use options::thousands;
pub(crate) use pagination::{contents_line, level_counts};
#[cfg_attr(not(any(test, feature = "dev")), allow(unused_imports))]
pub use pagination::lay_out;
pub use pagination::{lay_out_after, numbered, title_unfit, unfit};
