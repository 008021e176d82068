//! The paper a printed export is laid out on: page (trim) sizes, lengths in mm, in or pt, the
//! margins and the gutter of facing pages, the bleed, and the paper stock that sets a book's
//! spine width. Everything is in points (1/72 inch).
//!
//! ```text
//!  facing pages (a book), bleed on the outer edges when asked
//!  +-bleed--------------------+ +--------------------bleed-+
//!  |  +-------------------+   | |   +-------------------+  |
//!  |  | outer     inner   |   | |   | inner     outer   |  |   inner = margin + gutter
//!  |  |  margin   margin  |   | |   | margin    margin  |  |   (the binding side)
//!  |  |              (2)  |   | |   |  (3)              |  |   page numbers at the
//!  |  +-------------------+   | |   +-------------------+  |   outer corners
//!  +--------------------------+ +--------------------------+
//!        verso (even)                  recto (odd)
//! ```

use std::fmt;
use std::str::FromStr;

/// Points in an inch.
pub const POINTS_PER_INCH: f32 = 72.0;
/// Points in a millimetre.
pub const POINTS_PER_MM: f32 = 72.0 / 25.4;
/// The bleed (`--bleed`): 0.125 in (3.2 mm) past the trim on every outer edge, what
/// print-on-demand services ask for.
pub const BLEED: f32 = 9.0;
/// The space kept clear inside every trim edge and fold: 0.25 in.
pub const SAFE: f32 = 0.25 * POINTS_PER_INCH;
/// The smallest and largest page side: 1 in and 20 in.
const SIDES: (f32, f32) = (72.0, 1440.0);

/// A length in points, written `2in`, `50.8mm` or `144pt`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Length(pub f32);

impl Length {
    /// The length in points.
    pub fn points(self) -> f32 {
        self.0
    }

    /// The length in inches.
    pub fn inches(self) -> f32 {
        self.0 / POINTS_PER_INCH
    }
}

/// The points in one unit (`mm`, `in`, `pt`).
fn unit(u: &str) -> Option<f32> {
    match u {
        "mm" => Some(POINTS_PER_MM),
        "cm" => Some(10.0 * POINTS_PER_MM),
        "in" => Some(POINTS_PER_INCH),
        "pt" => Some(1.0),
        _ => None,
    }
}

/// A non-negative finite number.
fn number(s: &str) -> Option<f32> {
    s.parse::<f32>().ok().filter(|v| v.is_finite() && *v >= 0.0)
}

impl FromStr for Length {
    type Err = String;

    fn from_str(s: &str) -> Result<Length, String> {
        let t = s.trim().to_ascii_lowercase();
        let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
        let (value, u) = t.split_at(split);
        match (number(value.trim()), unit(u.trim())) {
            (Some(v), Some(u)) => Ok(Length(v * u)),
            (Some(_), None) if u.is_empty() => {
                Err(format!("{s:?}: give a unit: mm, cm, in or pt (e.g. 2in, 50mm)"))
            }
            _ => Err(format!(
                "{s:?} is not a length: a number and mm, cm, in or pt (e.g. 2in, 50mm)"
            )),
        }
    }
}

/// Newspaper column widths a grid in a file of its own may take (`--grid-width 1col`): a
/// broadsheet's six-column grid, 11 picas (1.833 in) a column and 1 pica between.
pub const COLUMNS: [(&str, f32, &str); 3] = [
    ("1col", 11.0 * 12.0, "one newspaper column, 11 picas (1.833 in)"),
    ("2col", 23.0 * 12.0, "two columns and the gap between, 23 picas (3.833 in)"),
    ("3col", 35.0 * 12.0, "three columns and the gaps, 35 picas (5.833 in)"),
];

impl Length {
    /// A grid's width: a column preset (`1col`, `2col`, `3col`) or a length.
    pub fn grid_width(s: &str) -> Result<Length, String> {
        let t = s.trim().to_ascii_lowercase();
        match COLUMNS.iter().find(|c| c.0 == t) {
            Some(c) => Ok(Length(c.1)),
            None => s.parse().map_err(|e: String| {
                let names: Vec<&str> = COLUMNS.iter().map(|c| c.0).collect();
                format!("{e}; or a newspaper column: {}", names.join(", "))
            }),
        }
    }
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} in", trimmed(self.inches(), 3))
    }
}

/// `v` with at most `decimals` decimals and no trailing zeros.
fn trimmed(v: f32, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// A page's trim size: the finished page, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageSize {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
}

impl Default for PageSize {
    fn default() -> Self {
        PageSize::A4
    }
}

impl PageSize {
    /// ISO A4, 210 x 297 mm.
    pub const A4: PageSize = PageSize::new(595.0, 842.0);
    /// ISO A5, 148 x 210 mm.
    pub const A5: PageSize = PageSize::new(420.0, 595.0);
    /// US Letter, 8.5 x 11 in.
    pub const LETTER: PageSize = PageSize::new(612.0, 792.0);
    /// The US trade paperback, 6 x 9 in.
    pub const TRADE: PageSize = PageSize::new(432.0, 648.0);

    /// The named sizes (`--page`): name, size, what it is.
    pub const NAMED: [(&'static str, PageSize, &'static str); 6] = [
        ("a4", PageSize::A4, "ISO A4, 210 x 297 mm"),
        ("a5", PageSize::A5, "ISO A5, 148 x 210 mm"),
        ("letter", PageSize::LETTER, "US Letter, 8.5 x 11 in"),
        ("6x9", PageSize::TRADE, "trade paperback, 6 x 9 in"),
        ("8x10", PageSize::new(576.0, 720.0), "8 x 10 in"),
        ("8.5x11", PageSize::LETTER, "large workbook, 8.5 x 11 in"),
    ];

    /// A size of `width` x `height` points.
    pub const fn new(width: f32, height: f32) -> PageSize {
        PageSize { width, height }
    }

    /// Its name: a named size's (`a4`, `6x9`), else `WxHmm`.
    pub fn name(self) -> String {
        match PageSize::NAMED.iter().find(|n| n.1 == self) {
            Some(n) => n.0.to_string(),
            None => format!(
                "{}x{}mm",
                trimmed(self.width / POINTS_PER_MM, 1),
                trimmed(self.height / POINTS_PER_MM, 1)
            ),
        }
    }

    /// The margin on the outer edge, the top and the bottom unless given: 0.5 in on pages
    /// narrower than 7 in (trade paperbacks, A5), 15 mm on larger ones.
    pub fn default_margin(self) -> f32 {
        if self.width < 7.0 * POINTS_PER_INCH {
            36.0
        } else {
            42.0
        }
    }
}

impl FromStr for PageSize {
    type Err = String;

    /// A named size (`a4`, `a5`, `letter`, `6x9`, `8x10`, `8.5x11`; `6x9in` too) or `WxH`
    /// with a unit (`150x220mm`, `5.5x8.5in`).
    fn from_str(s: &str) -> Result<PageSize, String> {
        let t = s.trim().to_ascii_lowercase();
        let bare = t.strip_suffix("in").unwrap_or(&t);
        if let Some(n) = PageSize::NAMED.iter().find(|n| n.0 == t || n.0 == bare) {
            return Ok(n.1);
        }
        let names: Vec<&str> = PageSize::NAMED.iter().map(|n| n.0).collect();
        let bad = || {
            format!(
                "{s:?} is not a page size: {} or WxH with a unit (e.g. 150x220mm, 5.5x8.5in)",
                names.join(", ")
            )
        };
        let dims = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let u = &t[dims.len()..];
        if !dims.contains('x') {
            return Err(bad());
        }
        if u.is_empty() {
            return Err(format!(
                "{s:?}: give the unit of a page size that is not named: e.g. {s}in or {s}mm"
            ));
        }
        let u = unit(u.trim()).ok_or_else(bad)?;
        let (w, h) = dims.split_once('x').ok_or_else(bad)?;
        let (Some(w), Some(h)) = (number(w.trim()), number(h.trim())) else {
            return Err(bad());
        };
        let size = PageSize::new(w * u, h * u);
        for side in [size.width, size.height] {
            if !(SIDES.0..=SIDES.1).contains(&side) {
                return Err(format!(
                    "{s:?}: a page's sides must be between 1 and 20 in (25.4 and 508 mm)"
                ));
            }
        }
        Ok(size)
    }
}

/// The gutter added to the inner margin of facing pages unless given, by the number of pages:
/// a thicker book's binding takes more of each page. 0.125 in up to 150 pages, then 0.125 in
/// more for each further 150 (at most 0.625 in), so the inner margin is always above the
/// minimum print-on-demand services ask for (0.375 in to 0.875 in by the same page counts).
pub fn default_gutter(pages: usize) -> f32 {
    let steps = pages.saturating_sub(1) / 150;
    POINTS_PER_INCH * 0.125 * (1 + steps.min(4)) as f32
}

/// The paper a book is printed on, which sets its spine width.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Stock {
    /// White paper, 0.002252 in a page (0.0572 mm).
    #[default]
    White,
    /// Cream paper, 0.0025 in a page (0.0635 mm).
    Cream,
    /// A leaf (two pages) of the given thickness.
    Leaf(Length),
}

impl Stock {
    /// The thickness of one leaf (two pages), in inches.
    pub fn leaf_inches(self) -> f32 {
        match self {
            Stock::White => 2.0 * 0.002252,
            Stock::Cream => 2.0 * 0.0025,
            Stock::Leaf(l) => l.inches(),
        }
    }

    /// The spine width of a book of `pages` interior pages, in points: the leaves (pages / 2,
    /// rounded up) times a leaf's thickness.
    pub fn spine(self, pages: usize) -> f32 {
        pages.div_ceil(2) as f32 * self.leaf_inches() * POINTS_PER_INCH
    }
}

impl FromStr for Stock {
    type Err = String;

    /// `white`, `cream`, or a leaf's thickness (`0.1mm`).
    fn from_str(s: &str) -> Result<Stock, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white" => Ok(Stock::White),
            "cream" => Ok(Stock::Cream),
            _ => match s.parse::<Length>() {
                Ok(l) if l.points() > 0.0 && l.inches() <= 0.05 => Ok(Stock::Leaf(l)),
                Ok(_) => Err(format!(
                    "{s:?}: a leaf's thickness is above 0 and at most 0.05 in (1.27 mm)"
                )),
                Err(_) => Err(format!(
                    "{s:?} is not a paper: white, cream or a leaf's thickness (e.g. 0.1mm)"
                )),
            },
        }
    }
}

/// A rectangle on a page, in points from the page's top-left corner, y down.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Area {
    /// Left edge.
    pub left: f32,
    /// Top edge.
    pub top: f32,
    /// Right edge.
    pub right: f32,
    /// Bottom edge.
    pub bottom: f32,
}

impl Area {
    /// Its width.
    pub fn width(&self) -> f32 {
        self.right - self.left
    }

    /// Its height.
    pub fn height(&self) -> f32 {
        self.bottom - self.top
    }

    /// Whether `other` lies inside it (within `slack` points).
    pub fn holds(&self, other: &Area, slack: f32) -> bool {
        other.left >= self.left - slack
            && other.top >= self.top - slack
            && other.right <= self.right + slack
            && other.bottom <= self.bottom + slack
    }
}

/// Where the pages of a document sit on their sheets: the trim size, the bleed, the margins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sheet {
    /// The trim size.
    pub page: PageSize,
    /// The margin on the outer edge, the top and the bottom.
    pub margin: f32,
    /// Added to the inner margin (facing pages only).
    pub gutter: f32,
    /// Facing pages: odd pages are right-hand pages (binding on the left), even pages left-hand.
    pub facing: bool,
    /// Printed past the trim by [`BLEED`] on the outer edges.
    pub bleed: bool,
}

impl Sheet {
    /// The sheet's size with its bleed (the PDF's MediaBox): the trim plus the bleed on the
    /// outer edge (facing pages) or both sides, and top and bottom.
    pub fn media(&self) -> (f32, f32) {
        let b = if self.bleed { BLEED } else { 0.0 };
        let sides = if self.facing { 1.0 } else { 2.0 };
        (self.page.width + sides * b, self.page.height + 2.0 * b)
    }

    /// Whether page `index` (from 0) is a right-hand page (binding on its left).
    pub fn recto(&self, index: usize) -> bool {
        !self.facing || index.is_multiple_of(2)
    }

    /// The trim of page `index` on its sheet.
    pub fn trim(&self, index: usize) -> Area {
        let b = if self.bleed { BLEED } else { 0.0 };
        // Facing pages bleed only on the outer edge: a right-hand page's trim starts at the
        // sheet's left edge.
        let left = if self.facing && self.recto(index) {
            0.0
        } else {
            b
        };
        Area {
            left,
            top: b,
            right: left + self.page.width,
            bottom: b + self.page.height,
        }
    }

    /// The area inside the margins of page `index`: nothing is printed outside it.
    pub fn inside(&self, index: usize) -> Area {
        let t = self.trim(index);
        let inner = self.margin + if self.facing { self.gutter } else { 0.0 };
        let (l, r) = if self.recto(index) {
            (inner, self.margin)
        } else {
            (self.margin, inner)
        };
        Area {
            left: t.left + l,
            top: t.top + self.margin,
            right: t.right - r,
            bottom: t.bottom - self.margin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_sizes_parse_in_every_unit() {
        assert_eq!("2in".parse::<Length>().unwrap().points(), 144.0);
        assert!(("25.4mm".parse::<Length>().unwrap().points() - 72.0).abs() < 1e-3);
        assert_eq!(" 10 PT ".parse::<Length>().unwrap().points(), 10.0);
        assert!("2".parse::<Length>().unwrap_err().contains("unit"));
        assert!("-2in".parse::<Length>().is_err());
        assert!("2ft".parse::<Length>().is_err());
        assert_eq!("6x9".parse::<PageSize>().unwrap(), PageSize::TRADE);
        assert_eq!("6X9in".parse::<PageSize>().unwrap(), PageSize::TRADE);
        assert_eq!("Letter".parse::<PageSize>().unwrap(), PageSize::LETTER);
        let a5 = "148x210mm".parse::<PageSize>().unwrap();
        assert!((a5.width - 419.5).abs() < 0.1 && (a5.height - 595.3).abs() < 0.1);
        let custom = "5.5x8.5in".parse::<PageSize>().unwrap();
        assert_eq!(custom, PageSize::new(396.0, 612.0));
        assert_eq!(custom.name(), "139.7x215.9mm");
        assert!("5x7".parse::<PageSize>().unwrap_err().contains("unit"));
        assert!("0.5x9in".parse::<PageSize>().unwrap_err().contains("between"));
        assert!("a3".parse::<PageSize>().unwrap_err().contains("a4, a5"));
        for (name, size, _) in PageSize::NAMED {
            assert_eq!(name.parse::<PageSize>().unwrap(), size);
        }
    }

    #[test]
    fn spines_grow_with_the_leaves() {
        // 300 pages of white paper: 0.6756 in (a print-on-demand service's own figure).
        assert!((Stock::White.spine(300) / 72.0 - 0.6756).abs() < 1e-4);
        assert!((Stock::Cream.spine(300) / 72.0 - 0.75).abs() < 1e-4);
        // An odd page count is printed on whole leaves.
        assert_eq!(Stock::White.spine(301), Stock::White.spine(302));
        let leaf: Stock = "0.1mm".parse().unwrap();
        assert!((leaf.spine(200) - 100.0 * 0.1 * POINTS_PER_MM).abs() < 1e-3);
        assert!("0mm".parse::<Stock>().is_err() && "2mm".parse::<Stock>().is_err());
        assert!("glossy".parse::<Stock>().unwrap_err().contains("white, cream"));
    }

    #[test]
    fn facing_pages_alternate_their_gutter_and_bleed_outward() {
        let sheet = Sheet {
            page: PageSize::TRADE,
            margin: 36.0,
            gutter: 18.0,
            facing: true,
            bleed: true,
        };
        assert_eq!(sheet.media(), (432.0 + 9.0, 648.0 + 18.0));
        let (recto, verso) = (sheet.inside(0), sheet.inside(1));
        assert_eq!(recto.left - sheet.trim(0).left, 54.0);
        assert_eq!(sheet.trim(0).right - recto.right, 36.0);
        assert_eq!(verso.left - sheet.trim(1).left, 36.0);
        assert_eq!(sheet.trim(1).right - verso.right, 54.0);
        // The bleed is on the outer edge: right of a recto, left of a verso.
        assert_eq!(sheet.trim(0).left, 0.0);
        assert_eq!(sheet.trim(1).left, 9.0);
        assert_eq!(recto.width(), verso.width());
        let single = Sheet {
            facing: false,
            ..sheet
        };
        assert_eq!(single.media(), (450.0, 666.0));
        assert_eq!(single.inside(0), single.inside(1));
        assert_eq!(default_gutter(24), 9.0);
        assert_eq!(default_gutter(150), 9.0);
        assert_eq!(default_gutter(151), 18.0);
        assert_eq!(default_gutter(5000), 45.0);
    }
}
