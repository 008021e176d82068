//! The display list every writer draws: [`Pages`] of [`Mark`]s (lines of text, grids, rules)
//! at points from the sheet's top-left corner, and the fitting of text into the room it has.

use super::super::paper::Area;
use crate::fonts::text_width_in;
use crate::grid::{Grid, Puzzle};

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

/// A colour of ink, red, green and blue of 255.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// Black.
    pub const BLACK: Colour = Colour(0, 0, 0);
    /// White.
    pub const WHITE: Colour = Colour(255, 255, 255);

    /// A grey of `level` (0 = black, 255 = white).
    pub const fn grey(level: u8) -> Colour {
        Colour(level, level, level)
    }

    /// Whether it is a grey (printed with black ink alone).
    pub fn is_grey(self) -> bool {
        self.0 == self.1 && self.1 == self.2
    }

    /// As CSS and SVG write it: `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Something drawn on a page. Coordinates are points from the sheet's top-left corner, y down.
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
        /// Bold or regular.
        bold: bool,
        /// DejaVu Serif (a book's cover and title page, when asked), else DejaVu Sans.
        serif: bool,
        /// Its colour.
        colour: Colour,
        /// Alignment on `x`.
        align: Align,
        /// The text.
        text: String,
    },
    /// A line of text turned a quarter clockwise (reading top to bottom, as on a spine),
    /// centred on (x, y) both ways.
    Turned {
        /// The centre's x.
        x: f32,
        /// The centre's y.
        y: f32,
        /// Font size in points.
        size: f32,
        /// Bold or regular.
        bold: bool,
        /// DejaVu Serif, else DejaVu Sans.
        serif: bool,
        /// Its colour.
        colour: Colour,
        /// The text.
        text: String,
    },
    /// A filled rectangle (a cover's ground, a panel behind a grid, the barcode's clear box).
    Fill {
        /// Where.
        area: Area,
        /// Its colour.
        colour: Colour,
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
        /// Its colour.
        colour: Colour,
    },
}

impl Mark {
    /// Whether it is text (the marks a preflight holds to the smallest size).
    pub fn text_size(&self) -> Option<f32> {
        match self {
            Mark::Text { size, .. } | Mark::Turned { size, .. } => Some(*size),
            _ => None,
        }
    }

    /// The box its ink may cover (text: capitals rise 0.75 em, descenders drop 0.24 em).
    pub fn extent(&self) -> Area {
        match self {
            Mark::Grid { x, y, cell, .. } => {
                let half = THICK / 2.0;
                Area {
                    left: x - half,
                    top: y - half,
                    right: x + 9.0 * cell + half,
                    bottom: y + 9.0 * cell + half,
                }
            }
            Mark::Rule {
                x,
                y,
                length,
                weight,
                ..
            } => Area {
                left: *x,
                top: y - weight / 2.0,
                right: x + length,
                bottom: y + weight / 2.0,
            },
            Mark::Text {
                x,
                y,
                size,
                bold,
                serif,
                align,
                text,
                ..
            } => {
                let w = text_width_in(text, *size, *serif, *bold);
                let left = align.left(*x, w);
                Area {
                    left,
                    top: y - 0.75 * size,
                    right: left + w,
                    bottom: y + 0.24 * size,
                }
            }
            Mark::Turned {
                x,
                y,
                size,
                bold,
                serif,
                text,
                ..
            } => {
                // The capitals are centred on x: their tops 0.365 em right of it, descenders
                // 0.605 em left of it (the line reads downwards).
                let w = text_width_in(text, *size, *serif, *bold);
                Area {
                    left: x - 0.605 * size,
                    top: y - w / 2.0,
                    right: x + 0.385 * size,
                    bottom: y + w / 2.0,
                }
            }
            Mark::Fill { area, .. } => *area,
        }
    }
}

/// One printed page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    /// What is drawn on it, in drawing order.
    pub marks: Vec<Mark>,
    /// Its trim on the sheet (the PDF's TrimBox).
    pub trim: Area,
    /// Inside its margins: every mark lies here.
    pub inside: Area,
    /// The number printed on it (`None`: a title page or a cover).
    pub number: Option<usize>,
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
    /// The document's title.
    pub title: String,
    /// Every sheet's width and height with its bleed (the PDF's MediaBox).
    pub media: (f32, f32),
    /// Whether the sheets carry a bleed (the PDF's BleedBox is then the whole sheet).
    pub bleed: bool,
    /// The pages, in order.
    pub pages: Vec<Page>,
    /// The outline: days or levels, and the solutions.
    pub bookmarks: Vec<Bookmark>,
    /// The printed numbers of the pages holding a lone grid where the layout holds more (a
    /// run of puzzles that could not be spread otherwise), for a warning.
    pub lone: Vec<usize>,
}

/// A grid's thin cell lines, in points (every writer draws grids with these weights).
pub const THIN: f32 = 0.5;
/// A grid's box borders and frame, in points; half of the frame lies outside the cells.
pub const THICK: f32 = 1.8;

/// The largest size of a title on a title page or cover, the least it may print at, and the
/// most lines it may take there.
pub(crate) const TITLE_LINES: (f32, usize) = (16.0, 3);

/// `text` broken at spaces into at most `lines` lines that each fit in `room` points, at the
/// largest size from `size` down to `least` (in half points) that allows it: the size and
/// the lines; `None` when not even `least` does (a title too long for its page).
/// The face is DejaVu Serif when `serif` (`(serif, bold)`), else DejaVu Sans.
pub(crate) fn fit_lines_in(
    text: &str,
    size: f32,
    (serif, bold): (bool, bool),
    room: f32,
    (least, lines): (f32, usize),
) -> Option<(f32, Vec<String>)> {
    let wrap = |s: f32| wrap_in(text, s, (serif, bold), room).filter(|out| out.len() <= lines);
    let mut s = size;
    while s >= least {
        if let Some(found) = wrap(s) {
            return Some((s, found));
        }
        s -= 0.5;
    }
    None
}

/// `text` broken into lines at most `room` points wide at `size`: words kept whole, a blank
/// line starts a new paragraph (an empty line between), a single newline is a space. `None`
/// when a word alone is wider.
pub(crate) fn wrap(text: &str, size: f32, bold: bool, room: f32) -> Option<Vec<String>> {
    wrap_in(text, size, (false, bold), room)
}

/// [`wrap`] in DejaVu Serif when `serif` (`(serif, bold)`).
pub(crate) fn wrap_in(text: &str, size: f32, (serif, bold): (bool, bool), room: f32) -> Option<Vec<String>> {
    let text_width = |t: &str, s: f32, b: bool| text_width_in(t, s, serif, b);
    let mut out: Vec<String> = Vec::new();
    for (i, paragraph) in text.split("\n\n").filter(|p| !p.trim().is_empty()).enumerate() {
        if i > 0 {
            out.push(String::new());
        }
        {
            let mut line = String::new();
            for word in paragraph.split_whitespace() {
                let longer = if line.is_empty() {
                    word.to_string()
                } else {
                    format!("{line} {word}")
                };
                if text_width(&longer, size, bold) <= room {
                    line = longer;
                } else {
                    if line.is_empty() || text_width(word, size, bold) > room {
                        return None;
                    }
                    out.push(std::mem::replace(&mut line, word.to_string()));
                }
            }
            if !line.is_empty() {
                out.push(line);
            }
        }
    }
    Some(out)
}

/// The font size, at most `size`, at which `text` fits in `room` points.
pub(crate) fn fit(text: &str, size: f32, bold: bool, room: f32) -> f32 {
    fit_in(text, size, (false, bold), room)
}

/// [`fit`] in DejaVu Serif when `serif` (`(serif, bold)`).
pub(crate) fn fit_in(text: &str, size: f32, (serif, bold): (bool, bool), room: f32) -> f32 {
    let w = text_width_in(text, size, serif, bold);
    if w <= room || w == 0.0 {
        size
    } else {
        size * room / w
    }
}

/// One grid alone on a page exactly its size (`--per-puzzle pdf`): `width` points wide
/// including the frame's line.
pub fn one_grid(title: &str, puzzle: Puzzle, solution: Option<Grid>, width: f32) -> Pages {
    let half = THICK / 2.0;
    let cell = (width - 2.0 * half) / 9.0;
    let area = Area {
        left: 0.0,
        top: 0.0,
        right: width,
        bottom: width,
    };
    Pages {
        title: title.to_string(),
        media: (width, width),
        bleed: false,
        pages: vec![Page {
            marks: vec![Mark::Grid {
                x: half,
                y: half,
                cell,
                puzzle,
                solution,
            }],
            trim: area,
            inside: area,
            number: None,
        }],
        bookmarks: Vec::new(),
        lone: Vec::new(),
    }
}
