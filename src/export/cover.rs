//! A book's cover file (`--cover`): one sheet holding the back, the spine and the front, as a
//! print-on-demand service takes it, with a bleed all round. The spine's width is the
//! interior's page count on the chosen paper (`Stock::spine`); the ground's colour runs into
//! the bleed on every side.
//!
//! ```text
//!  bleed 0.125 in all round
//! +-----------------------+------+-----------------------+
//! |  back (trim size)     |spine |  front (trim size)    |
//! |  TITLE                | T    |      TITLE            |
//! |  the blurb, in        | I    |     subtitle          |
//! |  paragraphs ...       | T    |     --------          |
//! |                       | L    |   +-----------+       |
//! |                       | E    |   | a puzzle  |       |
//! |  imprint  +---------+ |      |   +-----------+       |
//! |           | barcode | |  A   |  300 puzzles: ...     |
//! |           | 2x1.2in | |      |      author           |
//! +-----------+---------+-+------+-----------------------+
//!  width = 2 x trim width + spine + 2 x bleed; height = trim height + 2 x bleed
//! ```
//!
//! Nothing is printed within 0.25 in of a trim edge or of a fold. The spine carries the title
//! (and the author or imprint) from 79 pages up, as KDP allows, when it is wide enough for
//! type of at least 6 pt with 0.0625 in clear on each side. The barcode's box, 2 x 1.2 in at
//! the back's lower right inside its safe zone, is kept white and empty for the barcode the
//! printer adds.

use super::pages::{
    contents_line, fit_in, fit_lines_in, level_counts, level_name, wrap_in, Align, Colour, Mark, Page, Pages, PrintOptions,
    SolutionLayout, INSTRUCTION, SUBTITLE_LINES, TITLE_LINES,
};
use super::paper::{Area, BLEED, POINTS_PER_INCH, SAFE};
use super::Exported;

/// The fewest interior pages whose spine may carry text (KDP: 79).
pub const SPINE_TEXT_PAGES: usize = 79;

/// The space kept clear between the spine's text and each fold: 0.0625 in.
pub const SPINE_CLEAR: f32 = 0.0625 * POINTS_PER_INCH;

/// The smallest type printed anywhere: 6 pt.
pub const SMALLEST_TYPE: f32 = 6.0;

/// The barcode's box: 2 x 1.2 in.
pub const BARCODE: (f32, f32) = (2.0 * POINTS_PER_INCH, 1.2 * POINTS_PER_INCH);

/// A cover and where its parts are.
#[derive(Clone, Debug)]
pub struct Cover {
    /// The sheet to print.
    pub pages: Pages,
    /// The back's trim.
    pub back: Area,
    /// The spine, fold to fold.
    pub spine: Area,
    /// The front's trim.
    pub front: Area,
    /// The barcode's box, kept clear.
    pub barcode: Area,
    /// The interior's page count it was made for.
    pub interior_pages: usize,
    /// Why the spine has no text, when it has none.
    pub spine_blank: Option<String>,
}

/// The cover of a book titled `title` holding `puzzles` on `pages` interior pages, at the trim
/// size and on the paper of `opts`, with the text and colours of `opts.matter`.
pub fn lay_out(opts: &PrintOptions, title: &str, puzzles: &[Exported], pages: usize) -> Cover {
    let page = opts.page;
    let spine_w = opts.stock.spine(pages);
    let (w, h) = (page.width, page.height);
    let media = (2.0 * w + spine_w + 2.0 * BLEED, h + 2.0 * BLEED);
    let trim = Area {
        left: BLEED,
        top: BLEED,
        right: BLEED + 2.0 * w + spine_w,
        bottom: BLEED + h,
    };
    let back_trim = Area {
        left: BLEED,
        top: BLEED,
        right: BLEED + w,
        bottom: BLEED + h,
    };
    let spine = Area {
        left: BLEED + w,
        top: BLEED,
        right: BLEED + w + spine_w,
        bottom: BLEED + h,
    };
    let front_trim = Area {
        left: spine.right,
        top: BLEED,
        right: spine.right + w,
        bottom: BLEED + h,
    };
    let back = safe(back_trim);
    let front = safe(front_trim);
    let barcode = Area {
        left: back.right - BARCODE.0,
        top: back.bottom - BARCODE.1,
        right: back.right,
        bottom: back.bottom,
    };
    let m = &opts.matter;
    let (ground, ink, accent) = m.palette.colours();
    let mut marks = vec![Mark::Fill {
        area: Area {
            left: 0.0,
            top: 0.0,
            right: media.0,
            bottom: media.1,
        },
        colour: ground,
    }];
    // Every line in the chosen typeface.
    let serif = m.typeface.serif();
    let fit = |t: &str, size: f32, bold: bool, room: f32| fit_in(t, size, (serif, bold), room);
    let text = |marks: &mut Vec<Mark>, x, y, size, bold, colour, align, t: &str| {
        marks.push(Mark::Text {
            x,
            y,
            size,
            bold,
            serif,
            colour,
            align,
            text: t.to_string(),
        })
    };

    // The front: title, subtitle, a rule, a puzzle of the book on a card, what it holds, the
    // author.
    let centre = (front.left + front.right) / 2.0;
    let room = front.width() * 0.86;
    let mut y = front.top + front.height() * 0.1;
    let (size, lines) = fit_lines_in(title, 40.0, (serif, true), room, TITLE_LINES)
        .unwrap_or_else(|| (fit(title, 40.0, true, room), vec![title.to_string()]));
    y += size * 0.75;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            y += size * 1.18;
        }
        text(&mut marks, centre, y, size, true, ink, Align::Centre, line);
    }
    if let Some(sub) = &m.subtitle {
        let (s, lines) = fit_lines_in(sub, 17.0, (serif, false), room, SUBTITLE_LINES)
            .unwrap_or_else(|| (fit(sub, 17.0, false, room), vec![sub.clone()]));
        y += s * 0.5;
        for line in lines {
            y += s * 1.3;
            text(&mut marks, centre, y, s, false, accent, Align::Centre, &line);
        }
    }
    y += 18.0;
    let rule = room * 0.4;
    marks.push(Mark::Rule {
        x: centre - rule / 2.0,
        y,
        length: rule,
        weight: 2.5,
        colour: accent,
    });
    let levels = level_counts(puzzles);
    let what = contents_line(puzzles.len(), &levels);
    // Room under the card: the level line, "with the solutions", the author.
    let below = 30.0 + 20.0 + if m.author.is_some() { 40.0 } else { 0.0 };
    if let Some(p) = motif(puzzles) {
        let pad = 10.0;
        let side = (room * 0.72).min(front.bottom - below - (y + 28.0) - 2.0 * pad);
        if side > 9.0 * 8.0 {
            let left = centre - side / 2.0;
            let top = y + 28.0 + pad;
            // A card in the accent colour behind, offset; the white card; the grid.
            let card = Area {
                left: left - pad,
                top: top - pad,
                right: left + side + pad,
                bottom: top + side + pad,
            };
            let offset = 6.0;
            marks.push(Mark::Fill {
                area: Area {
                    left: card.left + offset,
                    top: card.top + offset,
                    right: card.right + offset,
                    bottom: card.bottom + offset,
                },
                colour: accent,
            });
            marks.push(Mark::Fill {
                area: card,
                colour: Colour::WHITE,
            });
            let cell = (side - super::pages::THICK) / 9.0;
            marks.push(Mark::Grid {
                x: left + super::pages::THICK / 2.0,
                y: top + super::pages::THICK / 2.0,
                cell,
                puzzle: p.puzzle,
                solution: None,
            });
            y = card.bottom + offset;
        }
    }
    let size = fit(&what, 14.0, false, room);
    y += 30.0;
    text(&mut marks, centre, y, size, false, ink, Align::Centre, &what);
    if opts.solutions != SolutionLayout::None {
        y += 20.0;
        text(&mut marks, centre, y, 12.0, false, accent, Align::Centre, "With the solutions");
    }
    if let Some(author) = &m.author {
        let size = fit(author, 16.0, false, room);
        text(&mut marks, centre, front.bottom - 10.0, size, false, ink, Align::Centre, author);
    }

    // The back: the title, the blurb (or what the book holds), what is inside, the imprint;
    // the barcode's box kept clear at the lower right.
    let room = back.width();
    let mut y = back.top + 30.0;
    let head = fit(title, 20.0, true, room);
    text(&mut marks, back.left, y, head, true, accent, Align::Left, title);
    y += 36.0;
    let blurb = m.blurb.clone().unwrap_or_else(|| default_blurb(puzzles.len(), &levels, opts));
    let inside_h = 30.0 + 22.0 * levels.len() as f32;
    let limit = barcode.top - 16.0;
    let mut size = 13.0;
    // The blurb's size: 13 pt, smaller (to 8 pt) when it would reach the barcode's box.
    let lines = loop {
        let lines = wrap_in(&blurb, size, (serif, false), room).unwrap_or_else(|| vec![blurb.clone()]);
        if y + lines.len() as f32 * size * 1.45 <= limit || size <= 8.0 {
            break lines;
        }
        size -= 0.5;
    };
    for line in lines {
        if y + size * 0.25 > limit {
            break;
        }
        if !line.is_empty() {
            let s = fit(&line, size, false, room);
            text(&mut marks, back.left, y, s, false, ink, Align::Left, &line);
        }
        y += size * 1.45;
    }
    // What is inside, a level a line, when there is room above the barcode's box.
    if y + inside_h <= limit && !levels.is_empty() {
        y += 14.0;
        let rule = room * 0.3;
        marks.push(Mark::Rule {
            x: back.left,
            y,
            length: rule,
            weight: 1.5,
            colour: accent,
        });
        y += 26.0;
        for (level, n) in &levels {
            let line = format!("{} {}", super::pages::thousands(*n), level_name(level).to_lowercase());
            marks.push(Mark::Fill {
                area: Area {
                    left: back.left,
                    top: y - 9.0,
                    right: back.left + 9.0,
                    bottom: y,
                },
                colour: accent,
            });
            let s = fit(&line, 13.0, true, room - 18.0);
            text(&mut marks, back.left + 18.0, y, s, true, ink, Align::Left, &line);
            y += 22.0;
        }
    }
    if let Some(imprint) = &m.imprint {
        let room = barcode.left - back.left - 12.0;
        let s = fit(imprint, 11.0, true, room);
        text(&mut marks, back.left, back.bottom - 4.0, s, true, ink, Align::Left, imprint);
    }
    marks.push(Mark::Fill {
        area: barcode,
        colour: Colour::WHITE,
    });

    // The spine: the title (and author or imprint) down its middle, when allowed and wide
    // enough.
    let spine_blank = if pages < SPINE_TEXT_PAGES {
        Some(format!(
            "{pages} pages: KDP prints spine text from {SPINE_TEXT_PAGES} pages"
        ))
    } else {
        let line = match m.author.as_ref().or(m.imprint.as_ref()) {
            Some(by) => format!("{title}   {by}"),
            None => title.to_string(),
        };
        let across = spine.width() - 2.0 * SPINE_CLEAR;
        // The ink across the spine is 0.99 em (capitals and descenders).
        let length = h - 2.0 * SAFE;
        let size = fit(&line, (across / 0.99).min(16.0), true, length);
        if size >= SMALLEST_TYPE {
            let x = (spine.left + spine.right) / 2.0 + 0.11 * size;
            marks.push(Mark::Turned {
                x,
                y: BLEED + h / 2.0,
                size,
                bold: true,
                serif,
                colour: ink,
                text: line,
            });
            None
        } else {
            Some(format!(
                "the spine is {:.3} in: too narrow for 6 pt type with 0.0625 in clear each side",
                spine.width() / POINTS_PER_INCH
            ))
        }
    };
    Cover {
        pages: Pages {
            title: title.to_string(),
            media,
            bleed: true,
            pages: vec![Page {
                marks,
                trim,
                inside: Area {
                    left: trim.left + SAFE,
                    top: trim.top + SAFE,
                    right: trim.right - SAFE,
                    bottom: trim.bottom - SAFE,
                },
                number: None,
            }],
            bookmarks: Vec::new(),
            lone: Vec::new(),
        },
        back: back_trim,
        spine,
        front: front_trim,
        barcode,
        interior_pages: pages,
        spine_blank,
    }
}

/// The puzzle on the front: the book's middle one (a fixed choice, so a reprint is the same).
fn motif(puzzles: &[Exported]) -> Option<&Exported> {
    puzzles.get(puzzles.len() / 2)
}

/// The back's text when the publisher gives none: what the book holds and how to play.
fn default_blurb(count: usize, levels: &[(String, usize)], opts: &PrintOptions) -> String {
    let range = match (levels.first(), levels.last()) {
        (Some(a), Some(b)) if levels.len() > 1 => format!(
            ", from {} to {}",
            level_name(&a.0).to_lowercase(),
            level_name(&b.0).to_lowercase()
        ),
        _ => String::new(),
    };
    let mut s = format!(
        "{} Sudoku puzzles{range}, each with exactly one solution.\n\nThe puzzles are numbered and grow harder through the book, \
         each graded by how a person solves it: the techniques it needs and how many steps \
         they take.",
        super::pages::thousands(count),
    );
    if opts.solutions != SolutionLayout::None {
        s.push_str(" Every solution is at the back.");
    }
    s.push_str(&format!("\n\nHow to play: {INSTRUCTION}"));
    s
}

/// A panel's safe area: 0.25 in inside its trim.
fn safe(trim: Area) -> Area {
    Area {
        left: trim.left + SAFE,
        top: trim.top + SAFE,
        right: trim.right - SAFE,
        bottom: trim.bottom - SAFE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::paper::{PageSize, Stock};

    fn book(n: usize) -> Vec<Exported> {
        crate::export::book_of(n, &["easy", "hard"])
    }

    #[test]
    fn the_cover_spans_back_spine_and_front_with_a_bleed() {
        let puzzles = book(10);
        for (pages, titled) in [(24, false), (78, false), (79, false), (110, true), (300, true)] {
            let mut opts = PrintOptions {
                page: PageSize::TRADE,
                ..Default::default()
            };
            opts.matter.author = Some("A. Setter".into());
            opts.matter.blurb = Some("A blurb. ".repeat(120));
            let c = lay_out(&opts, "Sudoku for All", &puzzles, pages);
            let spine = Stock::White.spine(pages);
            assert_eq!(c.pages.media, (2.0 * 432.0 + spine + 18.0, 648.0 + 18.0));
            let p = &c.pages.pages[0];
            assert_eq!(p.trim.width(), 2.0 * 432.0 + spine);
            assert_eq!(p.trim.height(), 648.0);
            let turned = p.marks.iter().any(|m| matches!(m, Mark::Turned { .. }));
            assert_eq!(turned, titled, "{pages} pages");
            assert_eq!(c.spine_blank.is_none(), titled);
            assert_eq!(c.barcode.width(), 144.0);
            assert!((c.barcode.height() - 86.4).abs() < 1e-3);
            for m in &p.marks {
                if let Some(size) = m.text_size() {
                    assert!(size >= SMALLEST_TYPE, "{m:?}");
                }
                if matches!(m, Mark::Fill { .. }) {
                    continue;
                }
                let e = m.extent();
                assert!(p.inside.holds(&e, 0.5), "{m:?}");
                // Nothing within the safe margin of a fold, except the spine's text, which
                // keeps 0.0625 in from each fold; nothing in the barcode's box.
                let crosses = e.left < c.spine.right + SAFE && e.right > c.spine.left - SAFE;
                if let Mark::Turned { .. } = m {
                    assert!(e.left >= c.spine.left + SPINE_CLEAR - 0.01, "{e:?} {:?}", c.spine);
                    assert!(e.right <= c.spine.right - SPINE_CLEAR + 0.01, "{e:?} {:?}", c.spine);
                } else {
                    assert!(!crosses, "{m:?}");
                }
                let b = c.barcode;
                let overlaps = e.left < b.right && e.right > b.left && e.top < b.bottom && e.bottom > b.top;
                assert!(!overlaps, "{m:?} in the barcode's box");
            }
        }
    }
}
