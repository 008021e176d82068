//! What a printed export is asked for ([`PrintOptions`]: the sheet, print size, title,
//! solutions, pages per day) and the names it prints (levels, the default title).

use super::super::paper::{PageSize, Stock};
use super::super::Exported;
use super::display::Colour;
use crate::calendar::{self, Date};

/// How the solutions are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolutionLayout {
    /// Small grids after the puzzles, as many columns as stay legible.
    #[default]
    Compact,
    /// Full-size grids after the puzzles, in the puzzle pages' layout.
    Full,
    /// Each day's solutions in a strip of small grids under its puzzles, on its last page.
    Strip,
    /// Each day's first page carries the day before's solutions, as newspapers print
    /// yesterday's answers (the day before the first from the bank's record, when it was
    /// exported); the last day's come with the next day's puzzles.
    NextDay,
    /// No solutions.
    None,
}

impl SolutionLayout {
    /// Every way.
    pub const ALL: [SolutionLayout; 5] = [
        SolutionLayout::Compact,
        SolutionLayout::Full,
        SolutionLayout::Strip,
        SolutionLayout::NextDay,
        SolutionLayout::None,
    ];

    /// Its name (`--solutions`).
    pub fn name(self) -> &'static str {
        match self {
            SolutionLayout::Compact => "compact",
            SolutionLayout::Full => "full",
            SolutionLayout::Strip => "strip",
            SolutionLayout::NextDay => "next-day",
            SolutionLayout::None => "none",
        }
    }

    /// Whether it prints each day's solutions with the days' puzzles (each day then starts a
    /// page).
    pub fn by_day(self) -> bool {
        matches!(self, SolutionLayout::Strip | SolutionLayout::NextDay)
    }

    /// What it prints, for people.
    pub fn about(self) -> &'static str {
        match self {
            SolutionLayout::Compact => {
                "Small grids after the puzzles (a week of daily puzzles on one page when it fits)"
            }
            SolutionLayout::Full => "Full-size grids after the puzzles, in the puzzle pages' layout",
            SolutionLayout::Strip => "Each day's solutions in a strip under its puzzles",
            SolutionLayout::NextDay => {
                "Yesterday's solutions in a strip with each day's puzzles, as newspapers print them"
            }
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
    /// A book's front matter and cover text.
    pub matter: Matter,
}

/// A part of a book's front matter, each of which a publisher may leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The title page (title, subtitle, author, imprint).
    TitlePage,
    /// The copyright page (year, holder, ISBN, how the puzzles were made).
    Copyright,
    /// The contents.
    Contents,
    /// How to play: the rules, how to start, the levels.
    HowToPlay,
}

impl Part {
    /// Every part, in the order a book prints them.
    pub const ALL: [Part; 4] = [Part::TitlePage, Part::Copyright, Part::Contents, Part::HowToPlay];

    /// Its name (`--without`).
    pub fn name(self) -> &'static str {
        match self {
            Part::TitlePage => "title-page",
            Part::Copyright => "copyright",
            Part::Contents => "contents",
            Part::HowToPlay => "how-to-play",
        }
    }

    /// What it prints, for people.
    pub fn about(self) -> &'static str {
        match self {
            Part::TitlePage => "The title page: title, subtitle, author and imprint",
            Part::Copyright => "The copyright page: year, holder, ISBN, how the puzzles were made",
            Part::Contents => "The contents: each level's puzzles and first page, the solutions",
            Part::HowToPlay => "How to play: the rules, how to start, what the levels mean",
        }
    }
}

/// The colours of a book's cover: the ground, the ink on it, and an accent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// Deep blue ground, white type, amber accent.
    Navy,
    /// Teal ground, white type, pale yellow accent.
    Teal,
    /// Wine-red ground, white type, gold accent.
    Burgundy,
    /// Dark green ground, white type, light green accent.
    Forest,
    /// Charcoal ground, white type, orange accent.
    Charcoal,
    /// White ground, black type, grey accent (ink-saving; prints as greys).
    Plain,
}

impl Palette {
    /// Every palette.
    pub const ALL: [Palette; 6] = [
        Palette::Navy,
        Palette::Teal,
        Palette::Burgundy,
        Palette::Forest,
        Palette::Charcoal,
        Palette::Plain,
    ];

    /// Its name (`--colours`).
    pub fn name(self) -> &'static str {
        match self {
            Palette::Navy => "navy",
            Palette::Teal => "teal",
            Palette::Burgundy => "burgundy",
            Palette::Forest => "forest",
            Palette::Charcoal => "charcoal",
            Palette::Plain => "plain",
        }
    }

    /// What it looks like, for people.
    pub fn about(self) -> &'static str {
        match self {
            Palette::Navy => "Deep blue, white type, amber accent",
            Palette::Teal => "Teal, white type, pale yellow accent",
            Palette::Burgundy => "Wine red, white type, gold accent",
            Palette::Forest => "Dark green, white type, light green accent",
            Palette::Charcoal => "Charcoal, white type, orange accent",
            Palette::Plain => "White, black type, grey accent",
        }
    }

    /// The ground, the type on it and the accent.
    pub fn colours(self) -> (Colour, Colour, Colour) {
        match self {
            Palette::Navy => (Colour(0x1f, 0x35, 0x5e), Colour::WHITE, Colour(0xf2, 0xb1, 0x34)),
            Palette::Teal => (Colour(0x0f, 0x6e, 0x6e), Colour::WHITE, Colour(0xf7, 0xe8, 0x8b)),
            Palette::Burgundy => (Colour(0x6d, 0x1a, 0x2e), Colour::WHITE, Colour(0xe0, 0xb8, 0x5a)),
            Palette::Forest => (Colour(0x1e, 0x4d, 0x2b), Colour::WHITE, Colour(0xa8, 0xd8, 0x8f)),
            Palette::Charcoal => (Colour(0x2e, 0x2e, 0x33), Colour::WHITE, Colour(0xf0, 0x8a, 0x3c)),
            Palette::Plain => (Colour::WHITE, Colour::BLACK, Colour::grey(110)),
        }
    }
}

/// The typeface of a book's cover and title page (the rest is set in DejaVu Sans).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Typeface {
    /// DejaVu Sans, as inside.
    #[default]
    Sans,
    /// DejaVu Serif: a bookish title.
    Serif,
}

impl Typeface {
    /// Every typeface.
    pub const ALL: [Typeface; 2] = [Typeface::Sans, Typeface::Serif];

    /// Its name (`--font`).
    pub fn name(self) -> &'static str {
        match self {
            Typeface::Sans => "sans",
            Typeface::Serif => "serif",
        }
    }

    /// What it looks like, for people.
    pub fn about(self) -> &'static str {
        match self {
            Typeface::Sans => "DejaVu Sans, as the pages inside",
            Typeface::Serif => "DejaVu Serif",
        }
    }

    /// Whether it is the serif.
    pub fn serif(self) -> bool {
        self == Typeface::Serif
    }
}

/// What a book prints about itself: its title page, copyright page, how-to-play page and
/// cover text (the title is [`PrintOptions::title`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Matter {
    /// The subtitle, under the title on the title page and the cover.
    pub subtitle: Option<String>,
    /// The author (or compiler), on the title page, the spine and the copyright line.
    pub author: Option<String>,
    /// The publisher's imprint, on the title page and the spine, and the copyright holder
    /// when there is no author.
    pub imprint: Option<String>,
    /// The ISBN (checked), on the copyright page.
    pub isbn: Option<String>,
    /// The copyright year; `None`: the year the book was first drawn.
    pub year: Option<i32>,
    /// The back cover's text (paragraphs split by blank lines); `None`: what the book holds.
    pub blurb: Option<String>,
    /// The parts of the front matter left out.
    pub without: Vec<Part>,
    /// The cover's colours.
    pub palette: Palette,
    /// The typeface of the cover and the title page.
    pub typeface: Typeface,
}

impl Default for Matter {
    fn default() -> Self {
        Matter {
            subtitle: None,
            author: None,
            imprint: None,
            isbn: None,
            year: None,
            blurb: None,
            without: Vec::new(),
            palette: Palette::Navy,
            typeface: Typeface::Sans,
        }
    }
}

impl Matter {
    /// Whether the book prints `part`.
    pub fn has(&self, part: Part) -> bool {
        !self.without.contains(&part)
    }
}

/// The ISBN `text` checked (ISBN-13, or ISBN-10, hyphens and spaces allowed), as printed:
/// `ISBN 978-...` as given, or why it is not one.
pub fn check_isbn(text: &str) -> Result<String, String> {
    let t = text.trim().trim_start_matches("ISBN").trim_start_matches(':').trim();
    let chars: Vec<char> = t.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    let digit = |c: char, last: bool| match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        'X' | 'x' if last => Some(10),
        _ => None,
    };
    let ok = match chars.len() {
        13 => chars
            .iter()
            .map(|&c| digit(c, false))
            .collect::<Option<Vec<u32>>>()
            .is_some_and(|d| {
                d.iter().enumerate().map(|(i, v)| if i % 2 == 0 { *v } else { 3 * v }).sum::<u32>() % 10 == 0
            }),
        10 => chars
            .iter()
            .enumerate()
            .map(|(i, &c)| digit(c, i == 9))
            .collect::<Option<Vec<u32>>>()
            .is_some_and(|d| d.iter().enumerate().map(|(i, v)| (10 - i as u32) * v).sum::<u32>() % 11 == 0),
        _ => false,
    };
    if ok {
        Ok(t.to_string())
    } else {
        Err(format!(
            "{text:?} is not an ISBN: 13 digits (or 10) whose check digit adds up, e.g. 978-0-306-40615-7"
        ))
    }
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
            matter: Matter::default(),
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

/// A book's title when none is given: `300 Sudoku Puzzles`.
pub fn default_book_title(puzzles: usize) -> String {
    match puzzles {
        1 => "1 Sudoku Puzzle".to_string(),
        n => format!("{} Sudoku Puzzles", thousands(n)),
    }
}

/// `1,000` for 1000.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The default title: `Sudoku, ` and the range of the puzzles' dates.
pub fn default_title(puzzles: &[Exported]) -> String {
    let dates: Vec<Date> = puzzles.iter().filter_map(|p| p.date).collect();
    match (dates.iter().min(), dates.iter().max()) {
        (Some(&a), Some(&b)) => format!("Sudoku, {}", calendar::range_text(a, b)),
        _ => "Sudoku".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isbns_are_checked_by_their_check_digit() {
        for good in ["978-0-306-40615-7", "9780306406157", "ISBN 978 0 306 40615 7", "0-306-40615-2", "0-8044-2957-X"] {
            assert!(check_isbn(good).is_ok(), "{good}");
        }
        assert_eq!(check_isbn("ISBN: 978-0-306-40615-7").unwrap(), "978-0-306-40615-7");
        for bad in ["978-0-306-40615-8", "0-306-40615-3", "12345", "978-0-306-4O615-7", ""] {
            let e = check_isbn(bad).unwrap_err();
            assert!(e.contains("is not an ISBN"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_book_is_titled_by_what_it_holds() {
        assert_eq!(default_book_title(300), "300 Sudoku Puzzles");
        assert_eq!(default_book_title(1), "1 Sudoku Puzzle");
        assert_eq!(default_book_title(10_000), "10,000 Sudoku Puzzles");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
