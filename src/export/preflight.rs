//! The preflight of a printed file (`book --check`, `export --check`): the rules a
//! print-on-demand service (Amazon KDP's paperback rules) holds an interior and a cover to,
//! each passed or failed with what was measured. The page boxes, the fonts and the type
//! sizes are read back from the PDF's bytes (lopdf), so the check is of the file a printer
//! gets; the safe zones are checked on the layout the PDF was drawn from, whose text extents
//! come from the same font metrics.
//!
//! | rule | interior | cover |
//! |---|---|---|
//! | trim size | every TrimBox the trim, a KDP size | TrimBox = 2 x trim + spine |
//! | bleed | MediaBox 0.125 in past top, bottom, outer edge (or none) | 0.125 in all round |
//! | margins / safe zone | outer margins >= 0.25 in (0.375 in with bleed); every mark inside | every mark 0.25 in inside trims and folds |
//! | gutter | inner margin >= KDP's for the page count | - |
//! | page count | 24 to 828 (a book) | spine from the interior's count |
//! | spine text | - | only from 79 pages; 0.0625 in clear of the folds |
//! | barcode | - | 2 x 1.2 in at the back's lower right kept clear |
//! | fonts | every font embedded | every font embedded |
//! | type size | no text under 6 pt | no text under 6 pt |

use super::cover::{Cover, BARCODE, SMALLEST_TYPE, SPINE_CLEAR, SPINE_TEXT_PAGES};
use super::pages::{Mark, Pages, PrintOptions};
use super::paper::{Area, BLEED, POINTS_PER_INCH, SAFE};
use lopdf::{Document, Object};
use std::fmt;

/// KDP paperback trim sizes, in inches (width, height).
const KDP_TRIMS: [(f32, f32); 16] = [
    (5.0, 8.0),
    (5.06, 7.81),
    (5.25, 8.0),
    (5.5, 8.5),
    (6.0, 9.0),
    (6.14, 9.21),
    (6.69, 9.61),
    (7.0, 10.0),
    (7.44, 9.69),
    (7.5, 9.25),
    (8.0, 10.0),
    (8.25, 6.0),
    (8.25, 8.25),
    (8.5, 8.5),
    (8.5, 11.0),
    (8.27, 11.69),
];

/// KDP's page counts for a paperback: at least 24, at most 828.
pub const PAGES: (usize, usize) = (24, 828);

/// KDP's inside margin (gutter side) for a page count, in inches.
pub fn kdp_gutter(pages: usize) -> f32 {
    match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    }
}

/// How a rule came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Met.
    Pass,
    /// Not met: the printer would refuse the file or print it wrong.
    Fail,
    /// Not a rule for this file (a daily file is not a book): said, not counted.
    Note,
}

/// One rule of a preflight and what was measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The rule's name (`trim size`, `gutter`, ...).
    pub name: &'static str,
    /// How it came out.
    pub outcome: Outcome,
    /// What was measured, against what the rule asks.
    pub detail: String,
}

/// A file's preflight.
#[derive(Clone, Debug, PartialEq)]
pub struct Preflight {
    /// The file's name.
    pub file: String,
    /// What it is: `interior` or `cover`.
    pub kind: &'static str,
    /// The rules, in the order above.
    pub rules: Vec<Rule>,
}

impl Outcome {
    /// `Pass` when `ok`, else `Fail`.
    pub fn of(ok: bool) -> Outcome {
        if ok {
            Outcome::Pass
        } else {
            Outcome::Fail
        }
    }
}

impl Preflight {
    /// Whether no rule failed.
    pub fn passed(&self) -> bool {
        self.rules.iter().all(|r| r.outcome != Outcome::Fail)
    }
}

impl fmt::Display for Preflight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.kind, self.file)?;
        for r in &self.rules {
            let o = match r.outcome {
                Outcome::Pass => "pass",
                Outcome::Fail => "FAIL",
                Outcome::Note => "note",
            };
            writeln!(f, "  {o}  {:<15} {}", r.name, r.detail)?;
        }
        Ok(())
    }
}

/// A page's MediaBox, TrimBox and BleedBox (absent: None), [x0 y0 x1 y1] in points.
type Boxes = ([f32; 4], [f32; 4], Option<[f32; 4]>);

/// What the PDF's bytes say.
struct Read {
    /// Each page's boxes.
    boxes: Vec<Boxes>,
    /// Every font: its name and whether its program is embedded.
    fonts: Vec<(String, bool)>,
    /// The smallest type size set on any page (the font size times the text and user
    /// matrices' scale), if any text is set.
    smallest: Option<f32>,
}

/// A number of a PDF object.
fn number(o: &Object) -> Option<f32> {
    match o {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) => Some(*r),
        _ => None,
    }
}

/// A rectangle of a PDF object.
fn rect(o: &Object) -> Option<[f32; 4]> {
    let a = o.as_array().ok()?;
    Some([
        number(a.first()?)?,
        number(a.get(1)?)?,
        number(a.get(2)?)?,
        number(a.get(3)?)?,
    ])
}

/// An affine matrix [a b c d e f].
type Matrix = [f32; 6];

/// `m` then `n`.
fn times(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

/// Reads what the rules need from a PDF's bytes.
fn read(bytes: &[u8]) -> Result<Read, String> {
    let doc = Document::load_mem(bytes).map_err(|e| format!("not a PDF lopdf reads: {e}"))?;
    let mut boxes = Vec::new();
    let mut fonts: Vec<(String, bool)> = Vec::new();
    let mut smallest: Option<f32> = None;
    for (_, id) in doc.get_pages() {
        let page = doc.get_dictionary(id).map_err(|e| e.to_string())?;
        let media = page
            .get(b"MediaBox")
            .ok()
            .and_then(rect)
            .ok_or("a page without a MediaBox")?;
        let trim = page.get(b"TrimBox").ok().and_then(rect).unwrap_or(media);
        let bleed = page.get(b"BleedBox").ok().and_then(rect);
        boxes.push((media, trim, bleed));
        for font in doc.get_page_fonts(id).map_err(|e| e.to_string())?.values() {
            let name = font
                .get(b"BaseFont")
                .ok()
                .and_then(|n| n.as_name().ok())
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .unwrap_or_default();
            if fonts.iter().any(|f| f.0 == name) {
                continue;
            }
            // A composite font's program hangs from its descendant's descriptor.
            let descriptor_of = |dict: &lopdf::Dictionary| -> Option<lopdf::Dictionary> {
                let d = dict.get(b"FontDescriptor").ok()?;
                Some(doc.dereference(d).ok()?.1.as_dict().ok()?.clone())
            };
            let descriptor = descriptor_of(font).or_else(|| {
                let ds = doc.dereference(font.get(b"DescendantFonts").ok()?).ok()?.1;
                let first = ds.as_array().ok()?.first()?.clone();
                let cid = doc.dereference(&first).ok()?.1.as_dict().ok()?.clone();
                descriptor_of(&cid)
            });
            let embedded = descriptor.is_some_and(|d| {
                d.get(b"FontFile").is_ok()
                    || d.get(b"FontFile2").is_ok()
                    || d.get(b"FontFile3").is_ok()
            });
            fonts.push((name, embedded));
        }
        let content = doc
            .get_and_decode_page_content(id)
            .map_err(|e| e.to_string())?;
        const ID: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let (mut ctm, mut tm, mut size) = (ID, ID, 0.0f32);
        let mut stack = Vec::new();
        for op in &content.operations {
            let n: Vec<f32> = op.operands.iter().filter_map(number).collect();
            match (op.operator.as_str(), n.len()) {
                ("q", _) => stack.push(ctm),
                ("Q", _) => ctm = stack.pop().unwrap_or(ID),
                ("cm", 6) => ctm = times(&[n[0], n[1], n[2], n[3], n[4], n[5]], &ctm),
                ("BT", _) => tm = ID,
                ("Tm", 6) => tm = [n[0], n[1], n[2], n[3], n[4], n[5]],
                ("Tf", 1) => size = n[0],
                ("Tj" | "TJ" | "'" | "\"", _) => {
                    let m = times(&tm, &ctm);
                    // The size a reader sees: the font size times the matrices' vertical scale.
                    let scale = (m[2] * m[2] + m[3] * m[3]).sqrt();
                    let s = size * scale;
                    smallest = Some(smallest.map_or(s, |v: f32| v.min(s)));
                }
                _ => {}
            }
        }
    }
    Ok(Read {
        boxes,
        fonts,
        smallest,
    })
}

/// Inches, as the rules print them.
fn inches(points: f32) -> String {
    let s = format!("{:.4}", points / POINTS_PER_INCH);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s} in")
}

/// The rules both kinds of file share, read from the bytes: fonts embedded, type size.
fn font_rules(read: &Read, rules: &mut Vec<Rule>) {
    let missing: Vec<&str> = read
        .fonts
        .iter()
        .filter(|f| !f.1)
        .map(|f| f.0.as_str())
        .collect();
    let names: Vec<&str> = read
        .fonts
        .iter()
        .map(|f| f.0.rsplit('+').next().unwrap_or(&f.0))
        .collect();
    rules.push(Rule {
        name: "fonts embedded",
        outcome: Outcome::of(missing.is_empty()),
        detail: if missing.is_empty() {
            format!(
                "{} font(s), every one embedded: {}",
                read.fonts.len(),
                names.join(", ")
            )
        } else {
            format!("not embedded: {}", missing.join(", "))
        },
    });
    let (outcome, detail) = match read.smallest {
        Some(s) if s + 0.01 < SMALLEST_TYPE => (
            Outcome::Fail,
            format!("text set at {s:.2} pt: the smallest allowed is {SMALLEST_TYPE} pt"),
        ),
        Some(s) => (
            Outcome::Pass,
            format!("the smallest text is {s:.1} pt (at least {SMALLEST_TYPE} pt)"),
        ),
        None => (Outcome::Pass, "no text".to_string()),
    };
    rules.push(Rule {
        name: "type size",
        outcome,
        detail,
    });
}

/// Whether two sizes are equal to a hundredth of a point.
fn same(a: f32, b: f32) -> bool {
    (a - b).abs() < 0.01
}

/// The preflight of an interior: `pdf` drawn from `pages` with `opts` (a book is held to a
/// book's page count).
pub fn interior(file: &str, pages: &Pages, pdf: &[u8], opts: &PrintOptions) -> Preflight {
    let book = opts.book;
    let facing = opts.facing();
    let mut rules = Vec::new();
    let read = match read(pdf) {
        Ok(r) => r,
        Err(e) => return unreadable(file, "interior", e),
    };
    let n = read.boxes.len();
    // Trim size: every TrimBox the same, a KDP size.
    let trims: Vec<(f32, f32)> = read
        .boxes
        .iter()
        .map(|(_, t, _)| (t[2] - t[0], t[3] - t[1]))
        .collect();
    let (w, h) = trims.first().copied().unwrap_or_default();
    let uniform = trims.iter().all(|&(a, b)| same(a, w) && same(b, h));
    let kdp = KDP_TRIMS.iter().any(|&(a, b)| {
        (a * POINTS_PER_INCH - w).abs() < 0.8 && (b * POINTS_PER_INCH - h).abs() < 0.8
    });
    rules.push(Rule {
        name: "trim size",
        outcome: Outcome::of(uniform && kdp),
        detail: format!(
            "{} x {} on {} page{}{}",
            inches(w),
            inches(h),
            if uniform { "all" } else { "not all" },
            if n == 1 { "" } else { "s" },
            if kdp {
                ", a KDP paperback size"
            } else {
                ": not a KDP paperback size"
            }
        ),
    });
    // Bleed: none (MediaBox = TrimBox), or 0.125 in past the top, bottom and outer edge.
    let bled = read.boxes.iter().any(|(m, t, _)| m != t);
    let bleed_ok = read.boxes.iter().enumerate().all(|(i, (m, t, b))| {
        if !bled {
            return m == t;
        }
        // The binding side has none: the left of a recto (odd page), the right of a verso.
        let recto = i % 2 == 0;
        let (left, right) = (t[0] - m[0], m[2] - t[2]);
        let sides_ok = if facing {
            if recto {
                same(left, 0.0) && same(right, BLEED)
            } else {
                same(left, BLEED) && same(right, 0.0)
            }
        } else {
            same(left, BLEED) && same(right, BLEED)
        };
        sides_ok
            && same(t[1] - m[1], BLEED)
            && same(m[3] - t[3], BLEED)
            && b.is_some_and(|b| b == *m)
    });
    rules.push(Rule {
        name: "bleed",
        outcome: Outcome::of(bleed_ok),
        detail: if bled {
            "0.125 in past the top, bottom and outer edge of every page (MediaBox and BleedBox)"
                .into()
        } else {
            "none: nothing is printed past the margins (MediaBox = TrimBox)".into()
        },
    });
    // Margins: the outer, top and bottom at least KDP's; every mark inside them.
    let least = if bled { 0.375 } else { 0.25 } * POINTS_PER_INCH;
    let mut outer = f32::MAX;
    let mut inner = f32::MAX;
    let mut outside_marks = 0;
    for (i, p) in pages.pages.iter().enumerate() {
        let (l, r) = (p.inside.left - p.trim.left, p.trim.right - p.inside.right);
        let (t, b) = (p.inside.top - p.trim.top, p.trim.bottom - p.inside.bottom);
        let recto = i % 2 == 0;
        let (out, inn) = if facing {
            if recto {
                (r, l)
            } else {
                (l, r)
            }
        } else {
            (r.min(l), l)
        };
        outer = outer.min(out).min(t).min(b);
        inner = inner.min(inn);
        outside_marks += p
            .marks
            .iter()
            .filter(|m| !p.inside.holds(&m.extent(), 0.5))
            .count();
    }
    if pages.pages.is_empty() {
        (outer, inner) = (0.0, 0.0);
    }
    rules.push(Rule {
        name: "margins",
        outcome: Outcome::of(outer + 0.01 >= least),
        detail: format!(
            "outer, top and bottom at least {} (KDP: {}{})",
            inches(outer),
            inches(least),
            if bled { " with a bleed" } else { "" }
        ),
    });
    rules.push(Rule {
        name: "safe zone",
        outcome: Outcome::of(outside_marks == 0),
        detail: if outside_marks == 0 {
            "every line of text and every grid inside the margins".into()
        } else {
            format!("{outside_marks} mark(s) outside the margins")
        },
    });
    let wanted = kdp_gutter(n) * POINTS_PER_INCH;
    rules.push(Rule {
        name: "gutter",
        outcome: Outcome::of(inner + 0.01 >= wanted),
        detail: format!(
            "inside margin {} (KDP: {} for {}-{} pages)",
            inches(inner),
            inches(wanted),
            gutter_band(n).0,
            gutter_band(n).1
        ),
    });
    let in_range = (PAGES.0..=PAGES.1).contains(&n);
    rules.push(Rule {
        name: "page count",
        outcome: match (book, in_range) {
            (true, true) => Outcome::Pass,
            (true, false) => Outcome::Fail,
            (false, _) => Outcome::Note,
        },
        detail: if book {
            format!("{n} pages (KDP: {} to {})", PAGES.0, PAGES.1)
        } else {
            format!(
                "{n} pages: not a book, so KDP's {} to {} do not apply",
                PAGES.0, PAGES.1
            )
        },
    });
    font_rules(&read, &mut rules);
    Preflight {
        file: file.to_string(),
        kind: "interior",
        rules,
    }
}

/// The page counts of the gutter band holding `n`.
fn gutter_band(n: usize) -> (usize, usize) {
    match n {
        0..=150 => (24, 150),
        151..=300 => (151, 300),
        301..=500 => (301, 500),
        501..=700 => (501, 700),
        _ => (701, 828),
    }
}

/// The preflight of a cover: `pdf` drawn from `cover`.
pub fn cover(file: &str, cover: &Cover, pdf: &[u8]) -> Preflight {
    let mut rules = Vec::new();
    let read = match read(pdf) {
        Ok(r) => r,
        Err(e) => return unreadable(file, "cover", e),
    };
    let Some(&(media, trim, bleed)) = read.boxes.first() else {
        return unreadable(file, "cover", "no page".into());
    };
    let want_w = cover.back.width() + cover.spine.width() + cover.front.width();
    let want_h = cover.back.height();
    let (tw, th) = (trim[2] - trim[0], trim[3] - trim[1]);
    rules.push(Rule {
        name: "trim size",
        outcome: Outcome::of(same(tw, want_w) && same(th, want_h) && read.boxes.len() == 1),
        detail: format!(
            "{} x {}: back and front {} wide, spine {} for {} pages",
            inches(tw),
            inches(th),
            inches(cover.front.width()),
            inches(cover.spine.width()),
            cover.interior_pages
        ),
    });
    let bleed_ok = [
        trim[0] - media[0],
        trim[1] - media[1],
        media[2] - trim[2],
        media[3] - trim[3],
    ]
    .iter()
    .all(|&b| same(b, BLEED))
        && bleed == Some(media);
    rules.push(Rule {
        name: "bleed",
        outcome: Outcome::of(bleed_ok),
        detail: "0.125 in past the trim on every side, the ground's colour into it".into(),
    });
    // Safe zone: text and grids 0.25 in inside the trims and the folds; the spine's text
    // 0.0625 in clear of the folds.
    let page = &cover.pages.pages[0];
    let spine = cover.spine;
    let mut outside = 0;
    let mut spine_text = false;
    let mut in_barcode = 0;
    let b = cover.barcode;
    for m in &page.marks {
        if let Mark::Fill { area, .. } = m {
            // A fill is ground: it may run into the bleed; only the barcode's own box may
            // touch the barcode's.
            if *area != b && !area.holds(&b, 0.0) && overlaps(area, &b) {
                in_barcode += 1;
            }
            continue;
        }
        let e = m.extent();
        if overlaps(&e, &b) {
            in_barcode += 1;
        }
        if let Mark::Turned { .. } = m {
            spine_text = true;
            let inside = e.left >= spine.left + SPINE_CLEAR - 0.01
                && e.right <= spine.right - SPINE_CLEAR + 0.01
                && e.top >= spine.top + SAFE - 0.01
                && e.bottom <= spine.bottom - SAFE + 0.01;
            if !inside {
                outside += 1;
            }
            continue;
        }
        let panels = [cover.back, cover.front].map(|p| Area {
            left: p.left + SAFE,
            top: p.top + SAFE,
            right: p.right - SAFE,
            bottom: p.bottom - SAFE,
        });
        if !panels.iter().any(|p| p.holds(&e, 0.5)) {
            outside += 1;
        }
    }
    rules.push(Rule {
        name: "safe zone",
        outcome: Outcome::of(outside == 0),
        detail: if outside == 0 {
            "text and grids 0.25 in inside the trims and the folds".into()
        } else {
            format!("{outside} mark(s) within 0.25 in of a trim or fold")
        },
    });
    let allowed = cover.interior_pages >= SPINE_TEXT_PAGES;
    rules.push(Rule {
        name: "spine text",
        outcome: if spine_text && !allowed { Outcome::Fail } else { Outcome::Pass },
        detail: match (&cover.spine_blank, spine_text) {
            (_, true) => format!(
                "the title on a {} spine ({} pages; KDP: from {SPINE_TEXT_PAGES}), {} clear of each fold",
                inches(spine.width()),
                cover.interior_pages,
                inches(SPINE_CLEAR)
            ),
            (Some(why), false) => format!("none: {why}"),
            (None, false) => "none".into(),
        },
    });
    let placed = same(b.width(), BARCODE.0)
        && same(b.height(), BARCODE.1)
        && same(b.right, cover.back.right - SAFE)
        && same(b.bottom, cover.back.bottom - SAFE);
    rules.push(Rule {
        name: "barcode area",
        outcome: Outcome::of(placed && in_barcode == 0),
        detail: if in_barcode == 0 {
            format!(
                "{} x {} at the back's lower right, inside its safe zone, kept clear",
                inches(BARCODE.0),
                inches(BARCODE.1)
            )
        } else {
            format!("{in_barcode} mark(s) in the barcode's box")
        },
    });
    let count_ok = (PAGES.0..=PAGES.1).contains(&cover.interior_pages);
    rules.push(Rule {
        name: "page count",
        outcome: Outcome::of(count_ok),
        detail: format!(
            "the spine made for {} interior pages (KDP: {} to {})",
            cover.interior_pages, PAGES.0, PAGES.1
        ),
    });
    font_rules(&read, &mut rules);
    Preflight {
        file: file.to_string(),
        kind: "cover",
        rules,
    }
}

/// Whether two areas overlap.
fn overlaps(a: &Area, b: &Area) -> bool {
    a.left < b.right - 0.01
        && a.right > b.left + 0.01
        && a.top < b.bottom - 0.01
        && a.bottom > b.top + 0.01
}

/// A file the reader could not read: one failed rule.
fn unreadable(file: &str, kind: &'static str, why: String) -> Preflight {
    Preflight {
        file: file.to_string(),
        kind,
        rules: vec![Rule {
            name: "readable",
            outcome: Outcome::Fail,
            detail: why,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::pages::{lay_out, Colour, Mark};
    use crate::export::paper::PageSize;
    use crate::export::Exported;

    fn puzzles(n: usize) -> Vec<Exported> {
        crate::export::book_of(n, &["easy"])
    }

    fn outcome(p: &Preflight, rule: &str) -> Outcome {
        p.rules.iter().find(|r| r.name == rule).unwrap().outcome
    }

    #[test]
    fn a_6x9_book_passes_and_each_broken_rule_fails() {
        let opts = PrintOptions {
            book: true,
            page: PageSize::TRADE,
            bleed: true,
            ..Default::default()
        };
        let pages = lay_out(&opts, &puzzles(60), 1);
        let pdf = crate::export::pdf::render(&pages).unwrap();
        let p = interior("b.pdf", &pages, &pdf, &opts);
        assert!(p.passed(), "{p}");
        let names: Vec<&str> = p.rules.iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            [
                "trim size",
                "bleed",
                "margins",
                "safe zone",
                "gutter",
                "page count",
                "fonts embedded",
                "type size"
            ]
        );
        // Text under 6 pt, a mark past the margins: each fails its rule, read back from the
        // bytes or the layout.
        let mut small = pages.clone();
        let inside = small.pages[5].inside;
        small.pages[5].marks.push(Mark::Text {
            x: inside.left,
            y: inside.bottom - 20.0,
            size: 5.0,
            bold: false,
            serif: false,
            colour: Colour::BLACK,
            align: crate::export::pages::Align::Left,
            text: "tiny".into(),
        });
        let pdf = crate::export::pdf::render(&small).unwrap();
        let p = interior("b.pdf", &small, &pdf, &opts);
        assert_eq!(outcome(&p, "type size"), Outcome::Fail, "{p}");
        assert_eq!(outcome(&p, "safe zone"), Outcome::Pass);
        let mut outside = pages.clone();
        let trim = outside.pages[5].trim;
        outside.pages[5].marks.push(Mark::Rule {
            x: trim.left + 2.0,
            y: trim.top + 2.0,
            length: 40.0,
            weight: 1.0,
            colour: Colour::BLACK,
        });
        let pdf = crate::export::pdf::render(&outside).unwrap();
        assert_eq!(
            outcome(&interior("b.pdf", &outside, &pdf, &opts), "safe zone"),
            Outcome::Fail
        );
        // A4 is a KDP size; a 4x6 page is not; ten puzzles are under 24 pages.
        let small_page = PrintOptions {
            page: "4x6in".parse().unwrap(),
            ..opts.clone()
        };
        let pages = lay_out(&small_page, &puzzles(10), 1);
        let pdf = crate::export::pdf::render(&pages).unwrap();
        let p = interior("s.pdf", &pages, &pdf, &small_page);
        assert_eq!(outcome(&p, "trim size"), Outcome::Fail, "{p}");
        assert_eq!(outcome(&p, "page count"), Outcome::Fail, "{p}");
        // Not a book: the page count is a note, not a rule.
        let daily = PrintOptions::default();
        let pages = lay_out(&daily, &puzzles(5), 1);
        let pdf = crate::export::pdf::render(&pages).unwrap();
        let p = interior("d.pdf", &pages, &pdf, &daily);
        assert_eq!(outcome(&p, "page count"), Outcome::Note);
        assert!(p.passed(), "{p}");
        // Garbage is one failed rule.
        assert!(!interior("x.pdf", &pages, b"not a pdf", &daily).passed());
    }

    #[test]
    fn kdp_gutters_grow_with_the_page_count() {
        for (pages, inches) in [
            (24, 0.375),
            (150, 0.375),
            (151, 0.5),
            (300, 0.5),
            (301, 0.625),
            (500, 0.625),
            (700, 0.75),
            (828, 0.875),
        ] {
            assert_eq!(kdp_gutter(pages), inches, "{pages}");
        }
        // Ours, margin 0.5 in plus the default gutter, is at least KDP's at every count.
        for pages in [24, 150, 151, 300, 301, 500, 501, 700, 701, 828] {
            let ours = 36.0 + crate::export::paper::default_gutter(pages);
            assert!(ours >= kdp_gutter(pages) * POINTS_PER_INCH, "{pages}");
        }
    }
}
