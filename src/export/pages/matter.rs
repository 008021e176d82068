//! A book's front matter: the title page, the copyright page, the contents and the
//! how-to-play page, each of which a publisher may leave out ([`Part`]). The pages are
//! drawn into the [`Draft`] of the whole book; the contents and how-to-play pages are
//! reserved first and drawn last, once the pages they point to are known.
//!
//! ```text
//!  recto 1: title page    verso 2: copyright    recto 3: contents     verso 4: how to play
//! +----------------+     +----------------+    +----------------+    +----------------+
//! |                |     |                |    | Contents       |    | How to play    |
//! |    TITLE       |     |                |    | How to play  4 |    | the rules ...  |
//! |   subtitle     |     |                |    | Easy 1-100 . 5 |    | Getting started|
//! |   --------     |     |                |    | ...            |    | The levels     |
//! |  300 puzzles   |     | (c) 2026 ...   |    | Solutions .155 |    |                |
//! |    author      |     | ISBN ...       |    |                |    |                |
//! |    imprint     |     | made by ...    |    |              3 |    | 4              |
//! +----------------+     +----------------+    +----------------+    +----------------+
//! ```

use super::display::{fit, fit_in, fit_lines_in, wrap, Align, Colour, Mark, TITLE_LINES};
use super::options::{Part, SolutionLayout, INSTRUCTION};
use super::pagination::{contents_line, Draft, Section, SUBTITLE_LINES};
use crate::fonts::text_width;

/// The rules, as the how-to-play page gives them.
const RULES: &str = "Each puzzle is a grid of 81 cells: nine rows, nine columns and nine \
    3x3 boxes. Some cells hold a digit from the start. Fill every empty cell with a digit \
    from 1 to 9 so that each row, each column and each box holds every digit exactly once.";

/// What the how-to-play page promises.
const ONE_SOLUTION: &str = "Every puzzle has exactly one solution. Work from the digits \
    already in place: each digit you find narrows the choices for the next.";

/// How to start, one tip a paragraph.
const TIPS: [&str; 3] = [
    "Take a digit and a box. If the digit can go in only one of the box's empty cells, \
     because the rows and columns through the others already hold it, write it there.",
    "Take an empty cell. If eight different digits already appear in its row, column and box, \
     the ninth is its digit.",
    "In harder puzzles, pencil the few digits a cell can still take in its corner, and cross \
     them out as the grid fills: a cell left with one digit is solved.",
];

impl Draft<'_> {
    /// Whether the book prints `part`.
    fn has(&self, part: Part) -> bool {
        self.opts.book && self.opts.matter.has(part)
    }

    /// Whether the rule of the game is printed in the front matter (else on the first page
    /// of puzzles).
    pub(super) fn front_has_rules(&self) -> bool {
        self.has(Part::TitlePage) || self.has(Part::HowToPlay)
    }

    /// Draws `text` wrapped to `width` from the baseline `y`; the baseline after it.
    #[allow(clippy::too_many_arguments)]
    fn paragraph(&mut self, page: usize, x: f32, y: f32, width: f32, size: f32, bold: bool, text: &str) -> f32 {
        let lines = wrap(text, size, bold, width)
            .unwrap_or_else(|| vec![text.to_string()]);
        let mut y = y;
        for line in lines {
            if !line.is_empty() {
                let s = fit(&line, size, bold, width);
                self.text(page, x, y, s, bold, Align::Left, &line);
            }
            y += size * 1.35;
        }
        y
    }

    /// The front matter's first pages (title and copyright, drawn now) and the pages kept
    /// for the contents and how to play (drawn by [`Draft::finish_front`]).
    pub(super) fn front(&mut self, count: usize) -> (Option<usize>, Option<usize>) {
        if self.has(Part::TitlePage) {
            self.title_page(count);
        }
        if self.has(Part::Copyright) {
            self.copyright_page();
        }
        let contents = self.has(Part::Contents).then(|| self.blank());
        let how = self.has(Part::HowToPlay).then(|| self.blank());
        (contents, how)
    }

    /// Draws the contents and how-to-play pages kept by [`Draft::front`], once the puzzle
    /// sections start at `starts` and the solutions at `solutions` (none past the end).
    pub(super) fn finish_front(
        &mut self,
        (contents, how): (Option<usize>, Option<usize>),
        sections: &[Section],
        starts: &[usize],
        solutions: usize,
    ) {
        let solutions = (solutions < self.pages.len()).then_some(solutions);
        if let Some(page) = contents {
            self.contents(page, how, sections, starts, solutions);
        }
        if let Some(page) = how {
            self.how_to_play(page, sections, solutions);
        }
    }

    /// A book's title page: the title, subtitle, what it holds, author and imprint. Not
    /// numbered.
    fn title_page(&mut self, count: usize) {
        let page = self.blank();
        self.pages[page].number = None;
        let a = self.sheet.inside(page);
        let centre = (a.left + a.right) / 2.0;
        let room = a.width() * 0.92;
        let title = self.title.clone();
        // The title, subtitle, author and imprint in the cover's typeface.
        let serif = self.opts.matter.typeface.serif();
        let mut y = a.top + a.height() * 0.22;
        // A long title in up to three lines (the options were checked: it fits).
        let (size, lines) = fit_lines_in(&title, 30.0, (serif, true), room, TITLE_LINES)
            .unwrap_or_else(|| (fit_in(&title, 30.0, (serif, true), room), vec![title.clone()]));
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                y += size * 1.2;
            }
            self.text_in(page, centre, y, size, (serif, true), Align::Centre, line);
        }
        if let Some(sub) = self.opts.matter.subtitle.clone() {
            let (s, lines) = fit_lines_in(&sub, 15.0, (serif, false), room, SUBTITLE_LINES)
                .unwrap_or_else(|| (fit_in(&sub, 15.0, (serif, false), room), vec![sub.clone()]));
            y += s * 0.6;
            for line in lines {
                y += s * 1.3;
                self.text_in(page, centre, y, s, (serif, false), Align::Centre, &line);
            }
        }
        let rule = room.min(180.0);
        self.mark(
            page,
            Mark::Rule {
                x: centre - rule / 2.0,
                y: y + 20.0,
                length: rule,
                weight: 1.5,
                colour: Colour::BLACK,
            },
        );
        let what = contents_line(count, &self.levels);
        let size = fit(&what, 13.0, false, room);
        self.text(page, centre, y + 50.0, size, false, Align::Centre, &what);
        if !self.has(Part::HowToPlay) {
            let y = a.top + a.height() * 0.58;
            self.text(page, centre, y, 13.0, true, Align::Centre, "How to play");
            let size = fit(INSTRUCTION, 12.0, false, room);
            self.text(page, centre, y + 22.0, size, false, Align::Centre, INSTRUCTION);
        }
        if let Some(author) = self.opts.matter.author.clone() {
            let size = fit_in(&author, 15.0, (serif, false), room);
            let y = a.top + a.height() * 0.82;
            self.text_in(page, centre, y, size, (serif, false), Align::Centre, &author);
        }
        if let Some(imprint) = self.opts.matter.imprint.clone() {
            let size = fit_in(&imprint, 11.0, (serif, true), room);
            let y = a.bottom - 14.0;
            self.text_in(page, centre, y, size, (serif, true), Align::Centre, &imprint);
        }
    }

    /// The copyright page: its lines at the foot of the page. Not numbered.
    fn copyright_page(&mut self) {
        let page = self.blank();
        self.pages[page].number = None;
        let a = self.sheet.inside(page);
        let m = &self.opts.matter;
        let mut lines: Vec<(bool, String)> = Vec::new();
        let head = match &m.subtitle {
            Some(s) => format!("{}: {s}", self.title),
            None => self.title.clone(),
        };
        lines.push((true, head));
        let holder = m.author.as_ref().or(m.imprint.as_ref());
        let mut notice = vec!["Copyright ©".to_string()];
        notice.extend(m.year.map(|y| y.to_string()));
        notice.extend(holder.cloned());
        lines.push((false, format!("{}. All rights reserved.", notice.join(" "))));
        if holder.is_some() {
            lines.push((
                false,
                "No part of this book may be reproduced in any form without the written \
                 permission of the copyright holder, except for brief quotations in reviews."
                    .to_string(),
            ));
        }
        if let Some(isbn) = &m.isbn {
            lines.push((false, format!("ISBN {isbn}")));
        }
        if let Some(imprint) = &m.imprint {
            lines.push((false, format!("Published by {imprint}.")));
        }
        lines.push((
            false,
            format!(
                "Puzzles made and graded by pseudoku {}. Each has exactly one solution.",
                env!("CARGO_PKG_VERSION")
            ),
        ));
        let width = a.width();
        let height = |size: f32| -> f32 {
            lines
                .iter()
                .map(|(bold, t)| {
                    wrap(t, size, *bold, width).map_or(1, |l| l.len()) as f32 * size * 1.35 + 6.0
                })
                .sum()
        };
        let (top, bottom) = self.body(page);
        // 8.5 pt, smaller (to 6 pt) on a page too small for it.
        let mut size = 8.5;
        while size > 6.0 && height(size) > bottom - top {
            size -= 0.5;
        }
        let mut y = bottom - height(size) + size;
        for (bold, t) in lines {
            y = self.paragraph(page, a.left, y, width, size, bold, &t) + 6.0;
        }
    }

    /// The contents on `page`: how to play, each level's numbers and first page, the
    /// solutions, with dot leaders to the page numbers.
    fn contents(
        &mut self,
        page: usize,
        how: Option<usize>,
        sections: &[Section],
        starts: &[usize],
        solutions: Option<usize>,
    ) {
        let a = self.sheet.inside(page);
        let (top, _) = self.body(page);
        let mut y = top + 10.0;
        self.text(page, a.left, y, 20.0, true, Align::Left, "Contents");
        y += 44.0;
        let size = if a.width() < 380.0 { 11.0 } else { 12.5 };
        let mut entries: Vec<(String, String, usize)> = Vec::new();
        if let Some(h) = how {
            entries.push(("How to play".into(), String::new(), h));
        }
        for (s, &start) in sections.iter().zip(starts) {
            let (Some(first), Some(last)) = (s.puzzles.first(), s.puzzles.last()) else {
                continue;
            };
            let name = s.level.clone().unwrap_or_else(|| "Puzzles".into());
            entries.push((name, format!("Puzzles {}-{}", first.number, last.number), start));
        }
        if let Some(s) = solutions {
            entries.push(("Solutions".into(), String::new(), s));
        }
        let middle = a.left + a.width() * 0.38;
        for (name, numbers, start) in entries {
            let n = self.pages[start].number.unwrap_or(start + 1).to_string();
            self.text(page, a.left, y, size, true, Align::Left, &name);
            let mut from = a.left + text_width(&name, size, true);
            if !numbers.is_empty() {
                let s = fit(&numbers, size, false, a.right - middle - 40.0);
                self.text(page, middle, y, s, false, Align::Left, &numbers);
                from = middle + text_width(&numbers, s, false);
            }
            self.text(page, a.right, y, size, false, Align::Right, &n);
            // Dot leaders between the entry and its page number.
            let to = a.right - text_width(&n, size, false) - 6.0;
            let dot = text_width(". ", size, false);
            let dots = ((to - from - 8.0) / dot).floor();
            if dots >= 2.0 {
                let leader = ". ".repeat(dots as usize);
                let leader = leader.trim_end();
                self.text_grey(page, to, y, size, Align::Right, leader, 120);
            }
            y += 2.1 * size;
        }
    }

    /// How to play on `page`: the rules, how to start, the levels and where the solutions
    /// are.
    fn how_to_play(&mut self, page: usize, sections: &[Section], solutions: Option<usize>) {
        let a = self.sheet.inside(page);
        let (_, bottom) = self.body(page);
        // The largest size (12.5 pt at most, less on narrow pages) at which it fits the page.
        let mut size = (a.width() / 32.0).clamp(10.0, 12.5);
        let kept = self.pages[page].marks.len();
        loop {
            let end = self.draw_how_to_play(page, sections, solutions, size);
            if end <= bottom || size <= 7.0 {
                break;
            }
            self.pages[page].marks.truncate(kept);
            size -= 0.5;
        }
    }

    /// Draws how to play at `size` on `page`; the baseline after its last line.
    fn draw_how_to_play(
        &mut self,
        page: usize,
        sections: &[Section],
        solutions: Option<usize>,
        size: f32,
    ) -> f32 {
        let a = self.sheet.inside(page);
        let (top, _) = self.body(page);
        let width = a.width();
        let head = size * 1.2;
        let title = (size * 1.6).min(20.0);
        let mut y = top + 10.0;
        self.text(page, a.left, y, title, true, Align::Left, "How to play");
        y += title * 1.8;
        y = self.paragraph(page, a.left, y, width, size, false, RULES) + size * 0.6;
        y = self.paragraph(page, a.left, y, width, size, false, ONE_SOLUTION) + size * 1.2;
        self.text(page, a.left, y, head, true, Align::Left, "Getting started");
        y += head * 1.6;
        for tip in TIPS {
            self.text(page, a.left, y, size, true, Align::Left, "-");
            let indent = size * 1.2;
            y = self.paragraph(page, a.left + indent, y, width - indent, size, false, tip) + size * 0.5;
        }
        y += size * 0.7;
        self.text(page, a.left, y, head, true, Align::Left, "The levels");
        y += head * 1.6;
        let levels: Vec<String> = sections
            .iter()
            .filter_map(|s| {
                let (first, last) = (s.puzzles.first()?, s.puzzles.last()?);
                Some(format!(
                    "{} {}-{}",
                    s.level.clone().unwrap_or_default().to_lowercase(),
                    first.number,
                    last.number
                ))
            })
            .collect();
        let mut text = format!(
            "The puzzles are numbered from 1 and grow harder through the book ({}). A puzzle's \
             level comes from how a person solves it: the techniques it needs and how many \
             steps they take.",
            levels.join(", ")
        );
        if let Some(s) = solutions {
            let n = self.pages[s].number.unwrap_or(s + 1);
            text.push_str(&format!(
                " Under each puzzle is the page of its solution; the solutions start on page {n}."
            ));
        } else if self.opts.solutions == SolutionLayout::None {
            text.push_str(" This book prints no solutions.");
        }
        // The last line's descent.
        self.paragraph(page, a.left, y, width, size, false, &text) - size * 1.35 + size * 0.3
    }
}
