//! One grid per file, for newspapers that place a grid in a column (`--per-puzzle svg|eps`):
//! the SVG and EPS writers. The file is exactly the grid (the frame's outer edge is the file's
//! box), in the PDF writer's style, with the digits drawn as outlines of the shipped DejaVu
//! Sans, so it needs no font on the designer's machine. Pure: no clock and no randomness, the
//! same grid gives the same bytes.
//!
//! ```text
//! width w, cell c = (w - 1.8) / 9        lines                         digits (0.6 c)
//! +===========+===========+===+          frame and box borders 1.8 pt  puzzle: regular black
//! | 5 | 3 |   |   | 7 |   |   |          black, square caps, last      solution: clues bold
//! |---+---+---|---+---+---|---|          cell lines 0.5 pt grey 100    black, the rest
//! | 6 |   |   | 1 | 9 | 5 |   |          (of 255), butt caps, first    regular grey 90
//! ```

use crate::fonts::{glyphs, SANS, SANS_BOLD};
use super::pages::{THICK, THIN};
use crate::grid::{Grid, Puzzle};
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::pen::PathElement;
use skrifa::outline::DrawSettings;
use skrifa::{GlyphId, MetadataProvider};
use std::fmt::Write;
use std::sync::OnceLock;

/// The grey of the cell lines, and of a solution's solved cells (of 255, 0 = black).
const LINE_GREY: u8 = 100;
const SOLVED_GREY: u8 = 90;
/// The narrowest grid drawn (pt): a quarter inch.
const MIN_WIDTH: f32 = 18.0;

/// A vector format for one grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vector {
    /// Scalable Vector Graphics, sized in points.
    Svg,
    /// Encapsulated PostScript (EPSF-3.0), PostScript level 1.
    Eps,
}

/// A digit's outline in em (y up, origin on the baseline at the left) and its advance.
struct Outline {
    advance: f32,
    path: Vec<PathElement>,
}

/// The outlines of the digits 1-9 in DejaVu Sans (`bold`: Sans Bold), drawn once.
fn digits(bold: bool) -> &'static [Outline; 9] {
    static FACES: [OnceLock<[Outline; 9]>; 2] = [OnceLock::new(), OnceLock::new()];
    FACES[usize::from(bold)].get_or_init(|| {
        let font = skrifa::FontRef::new(if bold { SANS_BOLD } else { SANS })
            .expect("the shipped DejaVu Sans fonts load");
        let outlines = font.outline_glyphs();
        std::array::from_fn(|i| {
            let g = &glyphs(&(i + 1).to_string(), bold)[0];
            let mut path = Vec::new();
            outlines
                .get(GlyphId::new(g.id))
                .expect("the shipped fonts have the digits")
                .draw(
                    DrawSettings::unhinted(Size::new(1.0), LocationRef::default()),
                    &mut path,
                )
                .expect("the shipped fonts' digits draw");
            Outline {
                advance: g.advance,
                path,
            }
        })
    })
}

/// `v` with at most `places` decimals and no trailing zeros.
fn fixed(v: f32, places: usize) -> String {
    let s = format!("{v:.places$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0" } else { s }.to_string()
}

/// Path data in the format's syntax, SVG `M1 2L3 4Z` or PostScript `1 2 m 3 4 l h` (in lines
/// of at most 200 characters, under DSC's 255), with the points mapped x' = sx x and
/// y' = oy + sy y.
struct Pen {
    svg: bool,
    sx: f32,
    oy: f32,
    sy: f32,
    places: usize,
    out: String,
}

impl Pen {
    fn new(svg: bool, sx: f32, (oy, sy): (f32, f32), places: usize) -> Pen {
        let out = String::new();
        Pen {
            svg,
            sx,
            oy,
            sy,
            places,
            out,
        }
    }

    /// One operation: `svg` or `ps` (PostScript's operator follows its operands) on `pts`.
    fn op(&mut self, svg: &str, ps: &str, pts: &[(f32, f32)]) {
        let nums: Vec<String> = pts
            .iter()
            .flat_map(|&(x, y)| [self.sx * x, self.oy + self.sy * y])
            .map(|v| fixed(v, self.places))
            .collect();
        if self.svg {
            self.out.push_str(svg);
            self.out.push_str(&nums.join(" "));
            return;
        }
        let part: String = nums.iter().map(|n| format!("{n} ")).collect::<String>() + ps;
        let line = self.out.len() - self.out.rfind('\n').map_or(0, |i| i + 1);
        if line + part.len() > 200 {
            self.out.push('\n');
        } else if line > 0 {
            self.out.push(' ');
        }
        self.out.push_str(&part);
    }

    /// A digit's outline; PostScript has no quadratic curves, so those become cubic.
    fn outline(&mut self, o: &Outline) {
        let mut last = (0.0, 0.0);
        for e in &o.path {
            match *e {
                PathElement::MoveTo { x, y } => self.op("M", "m", &[(x, y)]),
                PathElement::LineTo { x, y } => self.op("L", "l", &[(x, y)]),
                PathElement::QuadTo { cx0, cy0, x, y } if self.svg => {
                    self.op("Q", "", &[(cx0, cy0), (x, y)])
                }
                PathElement::QuadTo { cx0, cy0, x, y } => {
                    let third =
                        |(a, b): (f32, f32)| (a + (cx0 - a) * 2.0 / 3.0, b + (cy0 - b) * 2.0 / 3.0);
                    self.op("", "c", &[third(last), third((x, y)), (x, y)])
                }
                PathElement::CurveTo {
                    cx0,
                    cy0,
                    cx1,
                    cy1,
                    x,
                    y,
                } => self.op("C", "c", &[(cx0, cy0), (cx1, cy1), (x, y)]),
                PathElement::Close => self.op("Z", "h", &[]),
            }
            if let PathElement::MoveTo { x, y }
            | PathElement::LineTo { x, y }
            | PathElement::QuadTo { x, y, .. }
            | PathElement::CurveTo { x, y, .. } = *e
            {
                last = (x, y);
            }
        }
    }

    /// The grid lines `which` (0..=9), vertical then horizontal.
    fn lines(&mut self, l: &Geometry, which: &[usize]) {
        let (a, b) = (l.at[0], l.at[9]);
        for (i, across) in which.iter().flat_map(|&i| [(i, false), (i, true)]) {
            let ends = if across {
                [(a, l.at[i]), (b, l.at[i])]
            } else {
                [(l.at[i], a), (l.at[i], b)]
            };
            self.op("M", "m", &ends[..1]);
            self.op("L", "l", &ends[1..]);
        }
    }

    /// The thin lines, then the box borders and the frame: the two paths' data.
    fn grid(svg: bool, l: &Geometry) -> (String, String) {
        // PostScript's y goes up from the bottom.
        let y = if svg { (0.0, 1.0) } else { (l.width, -1.0) };
        let (mut thin, mut thick) = (Pen::new(svg, 1.0, y, 2), Pen::new(svg, 1.0, y, 2));
        thin.lines(l, &[1, 2, 4, 5, 7, 8]);
        thick.lines(l, &[3, 6]);
        let (a, b) = (l.at[0], l.at[9]);
        thick.op("M", "m", &[(a, a)]);
        for p in [(b, a), (b, b), (a, b)] {
            thick.op("L", "l", &[p]);
        }
        thick.op("Z", "h", &[]);
        (thin.out, thick.out)
    }
}

/// A digit to draw: its place (left end of its baseline, y down from the top) and its look.
struct Digit {
    x: f32,
    y: f32,
    digit: u8,
    bold: bool,
    grey: bool,
}

/// The grid's geometry, in points from the top-left corner.
struct Geometry {
    width: f32,
    /// The centre of grid line `i` (0..=9, 0 and 9 the frame), across or down.
    at: [f32; 10],
    /// The digits' font size.
    size: f32,
    digits: Vec<Digit>,
}

fn layout(puzzle: &Puzzle, solution: Option<&Grid>, width: f32) -> Geometry {
    let width = if width.is_finite() {
        width.max(MIN_WIDTH)
    } else {
        MIN_WIDTH
    };
    let c = (width - THICK) / 9.0;
    let at = std::array::from_fn(|i| THICK / 2.0 + i as f32 * c);
    let size = 0.6 * c;
    let clues = puzzle.as_bytes();
    let shown = solution.map_or(clues, Grid::as_bytes);
    let digits = (0..81)
        .filter(|&i| shown[i] != 0)
        .map(|i| {
            let (bold, grey) = (
                solution.is_some() && clues[i] != 0,
                solution.is_some() && clues[i] == 0,
            );
            let advance = digits(bold)[usize::from(shown[i] - 1)].advance * size;
            Digit {
                x: at[i % 9] + c / 2.0 - advance / 2.0,
                // Digits rise 0.73 em: the baseline 0.365 em below the middle centres them.
                y: at[i / 9] + c / 2.0 + 0.365 * size,
                digit: shown[i],
                bold,
                grey,
            }
        })
        .collect();
    Geometry {
        width,
        at,
        size,
        digits,
    }
}

impl Geometry {
    /// The outlines drawn, once each in a fixed order: (name, path data).
    fn outlines(&self, svg: bool) -> Vec<(String, String)> {
        let mut used: Vec<(bool, u8)> = self.digits.iter().map(|d| (d.bold, d.digit)).collect();
        used.sort_unstable();
        used.dedup();
        let y = (0.0, if svg { -self.size } else { self.size });
        used.into_iter()
            .map(|(bold, d)| {
                let mut pen = Pen::new(svg, self.size, y, 3);
                pen.outline(&digits(bold)[usize::from(d - 1)]);
                (name(bold, d), pen.out)
            })
            .collect()
    }

    /// The digits in black, then those in grey, with their grey (of 255).
    fn groups(&self) -> impl Iterator<Item = (u8, Vec<&Digit>)> {
        [(false, 0), (true, SOLVED_GREY)]
            .into_iter()
            .filter_map(|(grey, level)| {
                let group: Vec<&Digit> = self.digits.iter().filter(|d| d.grey == grey).collect();
                (!group.is_empty()).then_some((level, group))
            })
    }
}

/// The name of a digit's outline in the file: `r5` (regular) or `b5` (bold).
fn name(bold: bool, digit: u8) -> String {
    format!("{}{digit}", if bold { 'b' } else { 'r' })
}

/// The file of one grid `width` points wide (1 pt = 1/72 in; a width below 18 pt, or not a
/// number, is drawn 18 pt wide): the puzzle, or with `solution` the solved grid (clues bold
/// black, solved cells regular grey). `title` goes into the file's metadata (SVG `<title>`,
/// EPS `%%Title`, where characters beyond printable ASCII become `?`).
pub fn render(
    format: Vector,
    puzzle: &Puzzle,
    solution: Option<&Grid>,
    width: f32,
    title: &str,
) -> Vec<u8> {
    let l = layout(puzzle, solution, width);
    match format {
        Vector::Svg => svg(&l, title),
        Vector::Eps => eps(&l, title),
    }
    .into_bytes()
}

fn svg(l: &Geometry, title: &str) -> String {
    let w = fixed(l.width, 2);
    let title: String = title
        .chars()
        .filter(|&c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            c => c.to_string(),
        })
        .collect();
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{w}pt\" height=\"{w}pt\" \
         viewBox=\"0 0 {w} {w}\">\n<title>{title}</title>\n<defs>\n"
    );
    for (name, path) in l.outlines(true) {
        let _ = writeln!(s, "<path id=\"{name}\" d=\"{path}\"/>");
    }
    let (thin, thick) = Pen::grid(true, l);
    let _ = write!(
        s,
        "</defs>\n<path d=\"{thin}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{THIN}\"/>\n\
         <path d=\"{thick}\" fill=\"none\" stroke=\"#000\" stroke-width=\"{THICK}\" \
         stroke-linecap=\"square\" stroke-linejoin=\"miter\"/>\n",
        hex(LINE_GREY)
    );
    for (grey, group) in l.groups() {
        let _ = writeln!(s, "<g fill=\"{}\">", hex(grey));
        for d in group {
            let (x, y) = (fixed(d.x, 2), fixed(d.y, 2));
            let _ = writeln!(
                s,
                "<use xlink:href=\"#{}\" x=\"{x}\" y=\"{y}\"/>",
                name(d.bold, d.digit)
            );
        }
        s.push_str("</g>\n");
    }
    s + "</svg>\n"
}

/// A grey (of 255) as an SVG colour.
fn hex(grey: u8) -> String {
    format!("#{grey:02x}{grey:02x}{grey:02x}")
}

fn eps(l: &Geometry, title: &str) -> String {
    let (w, h) = (fixed(l.width, 2), l.width.ceil() as u32);
    let title: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    let mut s = format!(
        "%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 {h} {h}\n%%HiResBoundingBox: 0 0 {w} {w}\n\
         %%Title: {title}\n%%Creator: pseudoku\n%%Pages: 1\n%%DocumentData: Clean7Bit\n\
         %%LanguageLevel: 1\n%%EndComments\n%%Page: 1 1\n24 dict begin\n/m {{moveto}} bind def \
         /l {{lineto}} bind def /c {{curveto}} bind def /h {{closepath}} bind def\n"
    );
    for (name, path) in l.outlines(false) {
        let _ = writeln!(s, "/{name} {{\n{path}\n}} def");
    }
    let gray = |g: u8| fixed(f32::from(g) / 255.0, 3);
    let (thin, thick) = Pen::grid(false, l);
    let _ = write!(
        s,
        "gsave\n0 setlinejoin 0 setlinecap {} setgray {THIN} setlinewidth\nnewpath\n{thin}\n\
         stroke\n2 setlinecap 0 setgray {THICK} setlinewidth\nnewpath\n{thick}\nstroke\n",
        gray(LINE_GREY)
    );
    for (grey, group) in l.groups() {
        let _ = writeln!(s, "{} setgray", gray(grey));
        for d in group {
            let (x, y) = (fixed(d.x, 2), fixed(l.width - d.y, 2));
            let _ = writeln!(
                s,
                "gsave {x} {y} translate {} fill grestore",
                name(d.bold, d.digit)
            );
        }
    }
    s + "grestore\nend\nshowpage\n%%Trailer\n%%EOF\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// The solution with the cells whose index is not a multiple of 3 emptied: 27 clues.
    fn puzzle() -> Puzzle {
        let line: String = SOLUTION
            .char_indices()
            .map(|(i, c)| if i % 3 == 0 { c } else { '.' })
            .collect();
        line.parse().unwrap()
    }

    fn text(format: Vector, solution: Option<&Grid>, width: f32, title: &str) -> String {
        String::from_utf8(render(format, &puzzle(), solution, width, title)).unwrap()
    }

    /// The value of attribute `name` in `tag`.
    fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
        let from = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        &tag[from..from + tag[from..].find('"').unwrap()]
    }

    /// The names of the elements, in order, checking each is closed in order.
    fn balanced(xml: &str) -> Vec<String> {
        let (mut open, mut seen) = (Vec::new(), Vec::new());
        for tag in xml.split('<').skip(1) {
            let tag = &tag[..tag.find('>').expect("every < closes")];
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            if let Some(closed) = tag.strip_prefix('/') {
                assert_eq!(open.pop().as_deref(), Some(closed));
            } else if !tag.starts_with('?') && !tag.ends_with('/') {
                open.push(name.clone());
            }
            seen.push(name);
        }
        assert!(open.is_empty(), "unclosed {open:?}");
        seen
    }

    /// The digits an SVG places: (grey, bold, digit, cell).
    fn uses(svg: &str, width: f32) -> Vec<(bool, bool, u8, usize)> {
        let cell = |v: &str| {
            ((v.parse::<f32>().unwrap() - THICK / 2.0) / ((width - THICK) / 9.0)) as usize
        };
        let mut grey = false;
        let mut out = Vec::new();
        for line in svg.lines() {
            if line.starts_with("<g ") {
                grey = attr(line, "fill") != "#000000";
            } else if line.starts_with("<use ") {
                let href = attr(line, "xlink:href").as_bytes();
                let at = cell(attr(line, "y")) * 9 + cell(attr(line, "x"));
                out.push((grey, href[1] == b'b', href[2] - b'0', at));
            }
        }
        out
    }

    #[test]
    fn an_svg_is_balanced_sized_and_draws_each_clue() {
        let svg = text(Vector::Svg, None, 144.0, "Sudoku <4 January> & more");
        assert_eq!(balanced(&svg)[..3], ["?xml", "svg", "title"]);
        let root = svg.lines().nth(1).unwrap();
        assert_eq!(attr(root, "width"), "144pt");
        assert_eq!(attr(root, "height"), "144pt");
        assert_eq!(attr(root, "viewBox"), "0 0 144 144");
        assert!(svg.contains("<title>Sudoku &lt;4 January&gt; &amp; more</title>"));
        let used = uses(&svg, 144.0);
        assert_eq!(used.len(), puzzle().clues());
        for (grey, bold, digit, cell) in used {
            assert!(!grey && !bold);
            assert_eq!(puzzle().as_bytes()[cell], digit, "cell {cell}");
        }
        // Each digit's outline once: the clues hold all nine digits.
        assert_eq!(svg.matches("<path id=\"r").count(), 9);
        assert!(!svg.contains("#5a5a5a") && !svg.contains("<path id=\"b"));
    }

    #[test]
    fn a_solution_has_bold_clues_and_grey_solved_cells() {
        let grid: Grid = SOLUTION.parse().unwrap();
        let svg = text(Vector::Svg, Some(&grid), 144.0, "Solution");
        balanced(&svg);
        let used = uses(&svg, 144.0);
        assert_eq!(used.len(), 81);
        for (grey, bold, digit, cell) in used {
            let clue = puzzle().as_bytes()[cell] != 0;
            assert_eq!((grey, bold), (!clue, clue), "cell {cell}");
            assert_eq!(grid.as_bytes()[cell], digit);
        }
        assert_eq!(svg.matches("<g fill=\"#5a5a5a\">").count(), 1);
        assert_eq!(svg.matches("<path id=").count(), 18);
    }

    #[test]
    fn an_eps_is_a_clean_epsf_file() {
        let grid: Grid = SOLUTION.parse().unwrap();
        for (solution, width, fills) in [(None, 100.5, 27), (Some(&grid), 144.0, 81)] {
            let eps = text(Vector::Eps, solution, width, "Sudoku — 4 January");
            let head: Vec<&str> = eps.lines().take(5).collect();
            let bbox = format!("%%BoundingBox: 0 0 {0} {0}", width.ceil());
            let hires = format!("%%HiResBoundingBox: 0 0 {width} {width}");
            let title = "%%Title: Sudoku ? 4 January";
            assert_eq!(
                head,
                [
                    "%!PS-Adobe-3.0 EPSF-3.0",
                    &bbox,
                    &hires,
                    title,
                    "%%Creator: pseudoku"
                ]
            );
            assert!(
                eps.contains("\n%%EndComments\n") && eps.ends_with("showpage\n%%Trailer\n%%EOF\n")
            );
            assert!(eps
                .bytes()
                .all(|b| b == b'\n' || (b' '..=b'~').contains(&b)));
            assert!(eps.lines().all(|line| line.len() <= 255));
            let mut depth = 0;
            for word in eps.split_whitespace() {
                depth += match word {
                    "gsave" | "begin" => 1,
                    "grestore" | "end" => -1,
                    _ => 0,
                };
                assert!(depth >= 0);
            }
            assert_eq!(depth, 0);
            assert_eq!(eps.matches(" fill grestore\n").count(), fills);
            assert_eq!(
                eps.split_whitespace().filter(|w| *w == "fill").count(),
                fills
            );
        }
    }

    #[test]
    fn the_same_grid_gives_the_same_bytes_and_the_width_scales_it() {
        for format in [Vector::Svg, Vector::Eps] {
            let a = render(format, &puzzle(), None, 144.0, "t");
            assert_eq!(a, render(format, &puzzle(), None, 144.0, "t"));
            assert_ne!(a, render(format, &puzzle(), None, 200.0, "t"));
        }
        for width in [144.0, 200.0, 57.6] {
            // The frame's centre line spans the width less the frame's weight.
            let far = fixed(width - THICK / 2.0, 2);
            let svg = text(Vector::Svg, None, width, "t");
            assert!(svg.contains(&format!("M0.9 0.9L{far} 0.9L{far} {far}L0.9 {far}Z\"")));
            let eps = text(Vector::Eps, None, width, "t")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(eps.contains(&format!(
                "0.9 {far} m {far} {far} l {far} 0.9 l 0.9 0.9 l h stroke"
            )));
        }
        assert!(text(Vector::Svg, None, f32::NAN, "t").contains(" width=\"18pt\""));
    }

    #[test]
    fn digits_are_upright_and_fit_their_advance() {
        for bold in [false, true] {
            for (i, o) in digits(bold).iter().enumerate() {
                let ys: Vec<f32> = o
                    .path
                    .iter()
                    .filter_map(|e| match *e {
                        PathElement::MoveTo { x, y } | PathElement::LineTo { x, y } => Some((x, y)),
                        PathElement::QuadTo { x, y, .. } | PathElement::CurveTo { x, y, .. } => {
                            Some((x, y))
                        }
                        PathElement::Close => None,
                    })
                    .inspect(|p| assert!((0.0..=o.advance).contains(&p.0), "{} {p:?}", i + 1))
                    .map(|p| p.1)
                    .collect();
                let (low, top) = ys
                    .iter()
                    .fold((0f32, 0f32), |(l, t), &y| (l.min(y), t.max(y)));
                // Digits stand on the baseline and rise 0.73 em: what the centring assumes.
                assert!(
                    (top - 0.73).abs() < 0.03 && low > -0.03,
                    "{}: {low}..{top}",
                    i + 1
                );
            }
        }
        // In the SVG, y points down: a digit's outline lies above its baseline.
        let svg = text(Vector::Svg, None, 144.0, "t");
        let seven = svg.split("id=\"r7\" d=\"").nth(1).unwrap();
        let numbers: Vec<f32> = seven[..seven.find('"').unwrap()]
            .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
            .filter_map(|n| n.parse().ok())
            .collect();
        assert!(
            numbers.len() > 10 && numbers.chunks(2).all(|p| p[1] <= 0.0),
            "{numbers:?}"
        );
    }
}
