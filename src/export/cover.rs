//! A book's cover file (`--cover`): one sheet holding the back, the spine and the front, as a
//! print-on-demand service takes it, with a bleed all round. The spine's width is the
//! interior's page count on the chosen paper (`Stock::spine`).
//!
//! ```text
//!  bleed 0.125 in all round
//! +-----------------------+------+-----------------------+
//! |  back (trim size)     |spine |  front (trim size)    |
//! |  How to play          | T    |      TITLE            |
//! |  the rule             | I    |  -----------          |
//! |  what the book holds  | T    |   +-----------+       |
//! |                       | L    |   | a puzzle  |       |
//! |                       | E    |   +-----------+       |
//! |             (barcode  |      |  35 puzzles: ...      |
//! |               space)  |      |                       |
//! +-----------------------+------+-----------------------+
//!  width = 2 x trim width + spine + 2 x bleed; height = trim height + 2 x bleed
//! ```
//!
//! Nothing is printed within 0.25 in of a trim edge or of a fold, and the spine carries its
//! title only when it is at least 0.25 in wide (about 110 pages of white paper): thinner
//! spines are not reliably folded within the text.

use super::pages::{
    contents_line, fit, fit_lines, level_counts, TITLE_LINES, level_name, Align, Mark, Page, Pages, PrintOptions, SolutionLayout, INSTRUCTION,
};
use super::paper::{Area, BLEED, POINTS_PER_INCH, SAFE};
use super::Exported;

/// The narrowest spine that carries its title: 0.25 in.
pub const SPINE_TEXT: f32 = 0.25 * POINTS_PER_INCH;

/// The cover of a book titled `title` holding `puzzles` on `pages` interior pages, at the trim
/// size and on the paper of `opts`.
pub fn lay_out(opts: &PrintOptions, title: &str, puzzles: &[Exported], pages: usize) -> Pages {
    let page = opts.page;
    let spine = opts.stock.spine(pages);
    let (w, h) = (page.width, page.height);
    let media = (2.0 * w + spine + 2.0 * BLEED, h + 2.0 * BLEED);
    let trim = Area {
        left: BLEED,
        top: BLEED,
        right: BLEED + 2.0 * w + spine,
        bottom: BLEED + h,
    };
    let back = panel(BLEED, w, h);
    let front = panel(BLEED + w + spine, w, h);
    let mut marks = Vec::new();
    let text = |marks: &mut Vec<Mark>, x, y, size, bold, align, t: &str| {
        marks.push(Mark::Text {
            x,
            y,
            size,
            bold,
            grey: 0,
            align,
            text: t.to_string(),
        })
    };

    // The front: the title, a rule, a puzzle of the book, what it holds.
    let centre = (front.left + front.right) / 2.0;
    let room = front.width();
    let mut y = front.top + front.height() * 0.14;
    // A long title in up to three lines (the options were checked: it fits).
    let (size, lines) = fit_lines(title, 40.0, true, room, TITLE_LINES)
        .unwrap_or_else(|| (fit(title, 40.0, true, room), vec![title.to_string()]));
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            y += size * 1.2;
        }
        text(&mut marks, centre, y, size, true, Align::Centre, line);
    }
    y += 22.0;
    let rule = room * 0.5;
    marks.push(Mark::Rule {
        x: centre - rule / 2.0,
        y,
        length: rule,
        weight: 2.0,
    });
    let levels = level_counts(puzzles);
    let what = contents_line(puzzles.len(), &levels);
    if let Some(p) = puzzles.first() {
        let side = (room * 0.62).min(front.height() * 0.45);
        let cell = side / 9.0;
        marks.push(Mark::Grid {
            x: centre - side / 2.0,
            y: y + 36.0,
            cell,
            puzzle: p.puzzle,
            solution: None,
        });
        y += 36.0 + side;
    }
    let size = fit(&what, 15.0, false, room);
    text(&mut marks, centre, y + 40.0, size, false, Align::Centre, &what);
    if opts.solutions != SolutionLayout::None {
        let with = "With the solutions";
        text(&mut marks, centre, y + 62.0, 12.0, false, Align::Centre, with);
    }

    // The back: how to play and what the book holds, each level on a line.
    let mut y = back.top + 40.0;
    text(&mut marks, back.left, y, 16.0, true, Align::Left, "How to play");
    y += 24.0;
    let size = fit(INSTRUCTION, 12.0, false, back.width());
    text(&mut marks, back.left, y, size, false, Align::Left, INSTRUCTION);
    y += 40.0;
    let inside = format!("Inside: {} puzzles", puzzles.len());
    text(&mut marks, back.left, y, 14.0, true, Align::Left, &inside);
    for (level, n) in &levels {
        y += 20.0;
        let line = format!("{n} {}", level_name(level));
        let size = fit(&line, 12.0, false, back.width());
        text(&mut marks, back.left, y, size, false, Align::Left, &line);
    }

    // The spine: the title down its middle, when it is wide enough.
    if spine >= SPINE_TEXT {
        let x = BLEED + w + spine / 2.0;
        let length = h - 2.0 * SAFE;
        let size = fit(title, (spine * 0.5).min(16.0), true, length);
        marks.push(Mark::Turned {
            x,
            y: BLEED + h / 2.0,
            size,
            bold: true,
            text: title.to_string(),
        });
    }
    Pages {
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
    }
}

/// A panel (back or front) starting at `left`, inside its safe margin.
fn panel(left: f32, w: f32, h: f32) -> Area {
    Area {
        left: left + SAFE,
        top: BLEED + SAFE,
        right: left + w - SAFE,
        bottom: BLEED + h - SAFE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::paper::{PageSize, Stock};

    fn book(n: usize) -> Vec<Exported> {
        let solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        (0..n)
            .map(|i| Exported {
                date: None,
                slot: i as u32 + 1,
                level: ["easy", "hard"][i % 2].into(),
                puzzle: solution.parse().unwrap(),
                solution: solution.parse().unwrap(),
                difficulty: None,
                hsolve: 1.0,
                percentile: 1.0,
                id: i as i64,
            })
            .collect()
    }

    #[test]
    fn the_cover_spans_back_spine_and_front_with_a_bleed() {
        let puzzles = book(10);
        for (pages, titled) in [(24, false), (300, true)] {
            let opts = PrintOptions {
                page: PageSize::TRADE,
                ..Default::default()
            };
            let c = lay_out(&opts, "Sudoku for All", &puzzles, pages);
            let spine = Stock::White.spine(pages);
            assert_eq!(c.media, (2.0 * 432.0 + spine + 18.0, 648.0 + 18.0));
            let p = &c.pages[0];
            assert_eq!(p.trim.width(), 2.0 * 432.0 + spine);
            assert_eq!(p.trim.height(), 648.0);
            let turned = p.marks.iter().any(|m| matches!(m, Mark::Turned { .. }));
            assert_eq!(turned, titled, "{pages} pages");
            for m in &p.marks {
                let e = m.extent();
                assert!(p.inside.holds(&e, 0.5), "{m:?}");
                // Nothing within the safe margin of a fold, except the spine's title.
                let spine_left = BLEED + 432.0;
                let crosses = e.left < spine_left + spine + SAFE && e.right > spine_left - SAFE;
                if !matches!(m, Mark::Turned { .. }) {
                    assert!(!crosses, "{m:?}");
                } else {
                    assert!(e.left >= spine_left && e.right <= spine_left + spine);
                }
            }
        }
    }
}
