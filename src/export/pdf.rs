//! The PDF writer: draws laid-out [`Pages`] with krilla, DejaVu Sans embedded and subset (so
//! every viewer and printer shows the same page), vector grid lines, the title in the
//! document's metadata and the days or levels in its outline. No clock and no random ids: the
//! same pages give the same bytes.
//!
//! ```text
//! a grid (cell c)             lines                          digits
//! +===========+===========+   frame and box borders: 1.8 pt  clues: regular, 0.6 c, black
//! |   |   |   |   |   |   |   black, drawn last              a solution's clues: bold
//! |---+---+---|---+---+---|   cell lines: 0.5 pt, grey 40%   solved cells: regular, grey
//! ```

use super::pages::{Colour, Mark, Pages, THICK, THIN};
use crate::fonts::{text_width, text_width_in, SANS, SANS_BOLD, SERIF, SERIF_BOLD};
use crate::grid::{Grid, Puzzle};
use krilla::color::{luma, rgb};
use krilla::geom::{PathBuilder, Point, Rect, Transform};
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::{Fill, LineCap, LineJoin, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::{Document, SerializeSettings};


/// Why the PDF could not be made (none of these happens with the shipped fonts and papers).
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// A shipped font does not load.
    #[error("the shipped font {0} does not load")]
    Font(&'static str),
    /// A page size krilla refuses.
    #[error("bad paper size")]
    Paper,
    /// krilla could not write the document.
    #[error("writing the PDF: {0}")]
    Write(String),
}

/// The PDF of `pages`.
pub fn render(pages: &Pages) -> Result<Vec<u8>, PdfError> {
    let mut doc = Document::new_with(SerializeSettings {
        xmp_metadata: false,
        ..Default::default()
    });
    doc.set_metadata(
        Metadata::new()
            .title(pages.title.clone())
            .creator("pseudoku".to_string())
            .language("en".to_string()),
    );
    let regular = Font::new(SANS.into(), 0).ok_or(PdfError::Font("DejaVu Sans"))?;
    let bold = Font::new(SANS_BOLD.into(), 0).ok_or(PdfError::Font("DejaVu Sans Bold"))?;
    // The serif faces are loaded only for pages that set text in them (a cover or a title
    // page asked for it): a daily file never pays for them.
    let serif = pages.pages.iter().flat_map(|p| &p.marks).any(|m| {
        matches!(m, Mark::Text { serif: true, .. } | Mark::Turned { serif: true, .. })
    });
    let fonts = Fonts {
        serif: match serif {
            true => Font::new(SERIF.into(), 0).ok_or(PdfError::Font("DejaVu Serif"))?,
            false => regular.clone(),
        },
        serif_bold: match serif {
            true => Font::new(SERIF_BOLD.into(), 0).ok_or(PdfError::Font("DejaVu Serif Bold"))?,
            false => bold.clone(),
        },
        regular,
        bold,
    };
    let (w, h) = pages.media;
    for page in &pages.pages {
        let t = page.trim;
        let trim = Rect::from_ltrb(t.left, t.top, t.right, t.bottom);
        let settings = PageSettings::from_wh(w, h)
            .ok_or(PdfError::Paper)?
            .with_trim_box(trim)
            .with_bleed_box(Rect::from_xywh(0.0, 0.0, w, h).filter(|_| pages.bleed));
        let mut p = doc.start_page_with(settings);
        let mut surface = p.surface();
        for mark in &page.marks {
            draw(&mut surface, &fonts, mark);
        }
        surface.finish();
        p.finish();
    }
    let mut outline = Outline::new();
    for b in &pages.bookmarks {
        outline.push_child(OutlineNode::new(
            b.title.clone(),
            krilla::destination::XyzDestination::new(b.page, Point::from_xy(0.0, 0.0)),
        ));
    }
    doc.set_outline(outline);
    doc.finish().map_err(|e| PdfError::Write(format!("{e:?}")))
}

/// The faces: DejaVu Sans and (a cover's or title page's, when asked) DejaVu Serif, the sans
/// again in its place when no mark asks for it; a face no mark uses is not written.
struct Fonts {
    regular: Font,
    bold: Font,
    serif: Font,
    serif_bold: Font,
}

/// A colour as krilla paints it: a grey in the grey colour space (black ink alone), else RGB.
fn paint(c: Colour) -> krilla::paint::Paint {
    if c.is_grey() {
        luma::Color::new(c.0).into()
    } else {
        rgb::Color::new(c.0, c.1, c.2).into()
    }
}

/// A fill of colour `c`.
fn fill(c: Colour) -> Fill {
    Fill {
        paint: paint(c),
        ..Default::default()
    }
}

/// A stroke of colour `c`, `width` thick.
fn stroke(c: Colour, width: f32) -> Stroke {
    Stroke {
        paint: paint(c),
        width,
        line_cap: LineCap::Square,
        line_join: LineJoin::Miter,
        ..Default::default()
    }
}

/// Text with its baseline at `y`, aligned on `x`.
#[allow(clippy::too_many_arguments)]
fn text(s: &mut Surface, fonts: &Fonts, x: f32, y: f32, size: f32, (serif, bold): (bool, bool), c: Colour, t: &str) {
    s.set_stroke(None);
    s.set_fill(Some(fill(c)));
    let font = match (serif, bold) {
        (false, false) => &fonts.regular,
        (false, true) => &fonts.bold,
        (true, false) => &fonts.serif,
        (true, true) => &fonts.serif_bold,
    };
    // Glyphs placed one per character as `fonts` measured them (no shaping: the same widths
    // the layout used, and a tenth of the time).
    let glyphs: Vec<KrillaGlyph> = crate::fonts::glyphs_in(t, serif, bold)
        .into_iter()
        .map(|g| KrillaGlyph {
            glyph_id: GlyphId::new(g.id),
            text_range: g.range,
            x_advance: g.advance,
            x_offset: 0.0,
            y_offset: 0.0,
            y_advance: 0.0,
            location: None,
        })
        .collect();
    s.draw_glyphs(Point::from_xy(x, y), &glyphs, font.clone(), t, size, false);
}

fn draw(s: &mut Surface, fonts: &Fonts, mark: &Mark) {
    match mark {
        Mark::Text {
            x,
            y,
            size,
            bold,
            serif,
            colour,
            align,
            text: t,
        } => {
            let left = align.left(*x, text_width_in(t, *size, *serif, *bold));
            text(s, fonts, left, *y, *size, (*serif, *bold), *colour, t);
        }
        Mark::Fill { area, colour } => {
            let mut pb = PathBuilder::new();
            if let Some(r) = Rect::from_ltrb(area.left, area.top, area.right, area.bottom) {
                pb.push_rect(r);
            }
            if let Some(path) = pb.finish() {
                s.set_stroke(None);
                s.set_fill(Some(fill(*colour)));
                s.draw_path(&path);
            }
        }
        Mark::Rule {
            x,
            y,
            length,
            weight,
            colour,
        } => {
            let mut pb = PathBuilder::new();
            pb.move_to(*x, *y);
            pb.line_to(x + length, *y);
            if let Some(path) = pb.finish() {
                s.set_fill(None);
                s.set_stroke(Some(Stroke {
                    line_cap: LineCap::Butt,
                    ..stroke(*colour, *weight)
                }));
                s.draw_path(&path);
            }
        }
        Mark::Grid {
            x,
            y,
            cell,
            puzzle,
            solution,
        } => grid(s, fonts, *x, *y, *cell, puzzle, solution.as_ref()),
        Mark::Turned {
            x,
            y,
            size,
            bold,
            serif,
            colour,
            text: t,
        } => {
            // Turned a quarter clockwise about the centre: the line runs down the page.
            let w = text_width_in(t, *size, *serif, *bold);
            s.push_transform(&Transform::from_row(0.0, 1.0, -1.0, 0.0, *x, *y));
            text(s, fonts, -w / 2.0, 0.365 * size, *size, (*serif, *bold), *colour, t);
            s.pop();
        }
    }
}

/// A grid with its top-left corner at (x, y).
fn grid(
    s: &mut Surface,
    fonts: &Fonts,
    x: f32,
    y: f32,
    c: f32,
    puzzle: &Puzzle,
    solution: Option<&Grid>,
) {
    let size = 9.0 * c;
    s.set_fill(None);
    let lines = |pb: &mut PathBuilder, which: &[usize]| {
        for &i in which {
            let d = i as f32 * c;
            pb.move_to(x + d, y);
            pb.line_to(x + d, y + size);
            pb.move_to(x, y + d);
            pb.line_to(x + size, y + d);
        }
    };
    let mut thin = PathBuilder::new();
    lines(&mut thin, &[1, 2, 4, 5, 7, 8]);
    if let Some(path) = thin.finish() {
        s.set_stroke(Some(Stroke {
            line_cap: LineCap::Butt,
            ..stroke(Colour::grey(100), THIN)
        }));
        s.draw_path(&path);
    }
    let mut thick = PathBuilder::new();
    lines(&mut thick, &[3, 6]);
    if let Some(frame) = Rect::from_xywh(x, y, size, size) {
        thick.push_rect(frame);
    }
    if let Some(path) = thick.finish() {
        s.set_stroke(Some(stroke(Colour::BLACK, THICK)));
        s.draw_path(&path);
    }
    let fs = c * 0.6;
    let shown = solution.map_or(puzzle.as_bytes(), Grid::as_bytes);
    let clues = puzzle.as_bytes();
    for (i, &digit) in shown.iter().enumerate() {
        if digit == 0 {
            continue;
        }
        let (bold, grey) = match solution {
            Some(_) if clues[i] != 0 => (true, Colour::BLACK),
            Some(_) => (false, Colour::grey(90)),
            None => (false, Colour::BLACK),
        };
        let t = char::from(b'0' + digit).to_string();
        let (r, col) = ((i / 9) as f32, (i % 9) as f32);
        let w = text_width(&t, fs, bold);
        // Digits rise 0.73 em: the baseline 0.365 em below the cell's middle centres them.
        let cx = x + (col + 0.5) * c - w / 2.0;
        let cy = y + (r + 0.5) * c + 0.365 * fs;
        text(s, fonts, cx, cy, fs, (false, bold), grey, &t);
    }
}
