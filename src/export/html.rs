//! The HTML writer: draws laid-out [`Pages`] as one printable page: each printed page a sheet of
//! the paper's size with its marks placed in points, as in the PDF. Print CSS: `@page` with the
//! paper size and no browser margin (the sheets carry the print-safe margins), a page break
//! after every sheet (so each day or level starts a page where the layout says). On screen the
//! sheets are shown one under another. No clock: the same pages give the same bytes.

use super::pages::{Align, Colour, Mark, Pages};
use crate::grid::Grid;
use std::fmt::Write as _;

/// `&`, `<`, `>` and `"` escaped for HTML text and attributes.
fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The HTML of `pages`.
pub fn render(pages: &Pages) -> String {
    let (w, h) = pages.media;
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<title>{title}</title>\n<style>\n\
@page {{ size: {w}pt {h}pt; margin: 0; }}\n\
html, body {{ margin: 0; padding: 0; }}\n\
body {{ font-family: \"DejaVu Sans\", Verdana, sans-serif; color: #000; background: #e8e8e8; }}\n\
.sheet {{ position: relative; width: {w}pt; height: {h}pt; overflow: hidden; background: #fff; \
margin: 12pt auto; box-shadow: 0 1pt 4pt rgba(0,0,0,.3); break-after: page; page-break-after: always; }}\n\
.sheet:last-child {{ break-after: auto; page-break-after: auto; }}\n\
.tx {{ position: absolute; white-space: nowrap; line-height: 1; }}\n\
.turned {{ transform: translate(-50%, -50%) rotate(90deg); }}\n\
.c {{ text-align: center; }}\n\
.r {{ text-align: right; }}\n\
.b {{ font-weight: bold; }}\n\
.serif {{ font-family: \"DejaVu Serif\", Georgia, serif; }}\n\
.rule {{ position: absolute; background: #000; }}\n\
table.grid {{ position: absolute; border-collapse: collapse; table-layout: fixed; border: 1.8pt solid #000; }}\n\
table.grid tr {{ height: var(--c); }}\n\
table.grid td {{ box-sizing: border-box; width: var(--c); height: var(--c); line-height: 1; border: 0.5pt solid #666; padding: 0; text-align: center; vertical-align: middle; }}\n\
table.grid td.bl {{ border-left: 1.8pt solid #000; }}\n\
table.grid td.bt {{ border-top: 1.8pt solid #000; }}\n\
table.grid td.s {{ color: #5a5a5a; }}\n\
table.grid td.g {{ font-weight: bold; }}\n\
@media print {{ body {{ background: none; }} .sheet {{ margin: 0; box-shadow: none; }} }}\n\
</style>\n</head>\n<body>\n",
        title = esc(&pages.title),
    );
    for page in &pages.pages {
        s.push_str("<section class=\"sheet\">\n");
        for m in &page.marks {
            mark(&mut s, m, w);
        }
        s.push_str("</section>\n");
    }
    s.push_str("</body>\n</html>\n");
    s
}

fn mark(s: &mut String, m: &Mark, page_w: f32) {
    match m {
        Mark::Text {
            x,
            y,
            size,
            bold,
            serif,
            colour,
            align,
            text,
        } => {
            // The box's top sits one ascent (0.93 em in DejaVu Sans, line height 1) above the
            // baseline; centred and right-aligned text get a box ending or centred on x.
            let top = y - 0.93 * size;
            let (class, pos) = match align {
                Align::Left => ("", format!("left:{x:.2}pt")),
                Align::Centre => (" c", format!("left:{:.2}pt;width:400pt", x - 200.0)),
                Align::Right => (" r", format!("right:{:.2}pt", page_w - x)),
            };
            let colour = if *colour == Colour::BLACK {
                String::new()
            } else {
                format!(";color:{}", colour.hex())
            };
            let _ = writeln!(
                s,
                "<div class=\"tx{class}{}{}\" style=\"{pos};top:{top:.2}pt;font-size:{size:.2}pt{colour}\">{}</div>",
                if *bold { " b" } else { "" },
                if *serif { " serif" } else { "" },
                esc(text)
            );
        }
        Mark::Turned {
            x,
            y,
            size,
            bold,
            serif,
            colour,
            text,
        } => {
            let _ = writeln!(
                s,
                "<div class=\"tx turned{}{}\" style=\"left:{x:.2}pt;top:{y:.2}pt;font-size:{size:.2}pt;color:{}\">{}</div>",
                if *bold { " b" } else { "" },
                if *serif { " serif" } else { "" },
                colour.hex(),
                esc(text)
            );
        }
        Mark::Fill { area, colour } => {
            let _ = writeln!(
                s,
                "<div class=\"rule\" style=\"left:{:.2}pt;top:{:.2}pt;width:{:.2}pt;height:{:.2}pt;background:{}\"></div>",
                area.left,
                area.top,
                area.width(),
                area.height(),
                colour.hex()
            );
        }
        Mark::Rule {
            x,
            y,
            length,
            weight,
            colour,
        } => {
            let background = if *colour == Colour::BLACK {
                String::new()
            } else {
                format!(";background:{}", colour.hex())
            };
            let _ = writeln!(
                s,
                "<div class=\"rule\" style=\"left:{x:.2}pt;top:{:.2}pt;width:{length:.2}pt;height:{weight:.2}pt{background}\"></div>",
                y - weight / 2.0
            );
        }
        Mark::Grid {
            x,
            y,
            cell,
            puzzle,
            solution,
        } => {
            let _ = write!(
                s,
                "<table class=\"grid\" style=\"left:{x:.2}pt;top:{y:.2}pt;--c:{cell:.2}pt;font-size:{:.2}pt\">",
                0.6 * cell
            );
            let shown = solution.as_ref().map_or(puzzle.as_bytes(), Grid::as_bytes);
            let clues = puzzle.as_bytes();
            for r in 0..9 {
                s.push_str("<tr>");
                for c in 0..9 {
                    let i = 9 * r + c;
                    let v = shown[i];
                    let clue = clues[i] != 0;
                    let mut class = String::new();
                    if c % 3 == 0 && c > 0 {
                        class.push_str(" bl");
                    }
                    if r % 3 == 0 && r > 0 {
                        class.push_str(" bt");
                    }
                    if solution.is_some() {
                        class.push_str(if clue { " g" } else { " s" });
                    }
                    let v = if v != 0 {
                        char::from(b'0' + v).to_string()
                    } else {
                        String::new()
                    };
                    if class.is_empty() {
                        let _ = write!(s, "<td>{v}</td>");
                    } else {
                        let _ = write!(s, "<td class=\"{}\">{v}</td>", class.trim());
                    }
                }
                s.push_str("</tr>");
            }
            s.push_str("</table>\n");
        }
    }
}
