//! The fonts printed pages and plots use, shipped in the binary so every export and drawing
//! looks the same on every machine: DejaVu Sans, regular and bold, and DejaVu Serif, regular
//! and bold, for a book's cover and title page when asked (Bitstream Vera licence, free to
//! embed and redistribute; `assets/fonts/LICENSE`).

/// DejaVu Sans (TrueType).
pub const SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// DejaVu Sans Bold (TrueType).
pub const SANS_BOLD: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");

/// DejaVu Serif (TrueType).
pub const SERIF: &[u8] = include_bytes!("../assets/fonts/DejaVuSerif.ttf");

/// DejaVu Serif Bold (TrueType).
pub const SERIF_BOLD: &[u8] = include_bytes!("../assets/fonts/DejaVuSerif-Bold.ttf");

/// The font file of a face: sans or serif, regular or bold.
pub fn face(serif: bool, bold: bool) -> &'static [u8] {
    match (serif, bold) {
        (false, false) => SANS,
        (false, true) => SANS_BOLD,
        (true, false) => SERIF,
        (true, true) => SERIF_BOLD,
    }
}

use skrifa::instance::{LocationRef, Size};
use skrifa::MetadataProvider;
use std::ops::Range;
use std::sync::OnceLock;

/// A character set in one of the shipped faces: its glyph, advance and place in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// The glyph id in the face (0, the missing-glyph box, when the face lacks the character).
    pub id: u32,
    /// The advance, in em.
    pub advance: f32,
    /// The character's bytes in the text.
    pub range: Range<usize>,
}

/// The glyph id and advance (em) of `c` in `face`.
fn lookup(face: &[u8], c: char) -> (u32, f32) {
    let Ok(font) = skrifa::FontRef::new(face) else {
        return (0, 0.6);
    };
    let id = font.charmap().map(c).unwrap_or_default();
    let advance = font
        .glyph_metrics(Size::new(1.0), LocationRef::default())
        .advance_width(id)
        .unwrap_or(0.6);
    (id.to_u32(), advance)
}

/// The printable ASCII characters of a face, looked up once.
fn ascii(serif: bool, bold: bool) -> &'static [(u32, f32); 128] {
    static TABLES: [OnceLock<[(u32, f32); 128]>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[2 * usize::from(serif) + usize::from(bold)].get_or_init(|| {
        let face = face(serif, bold);
        std::array::from_fn(|i| lookup(face, char::from(i as u8)))
    })
}

/// `text` set in DejaVu Sans (`bold`: Sans Bold), one glyph per character, left to right, no
/// kerning or ligatures: what printed pages draw, so widths measured here are the widths
/// drawn.
pub fn glyphs(text: &str, bold: bool) -> Vec<Glyph> {
    glyphs_in(text, false, bold)
}

/// [`glyphs`] in DejaVu Serif when `serif`.
pub fn glyphs_in(text: &str, serif: bool, bold: bool) -> Vec<Glyph> {
    let table = ascii(serif, bold);
    text.char_indices()
        .map(|(i, c)| {
            let (id, advance) = if c.is_ascii() {
                table[c as usize]
            } else {
                lookup(face(serif, bold), c)
            };
            Glyph {
                id,
                advance,
                range: i..i + c.len_utf8(),
            }
        })
        .collect()
}

/// The width in points of `text` set in DejaVu Sans (`bold`: Sans Bold) at `size` points.
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    text_width_in(text, size, false, bold)
}

/// [`text_width`] in DejaVu Serif when `serif`.
pub fn text_width_in(text: &str, size: f32, serif: bool, bold: bool) -> f32 {
    glyphs_in(text, serif, bold).iter().map(|g| g.advance).sum::<f32>() * size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_add_up_and_bold_is_wider() {
        // DejaVu Sans digits are 0.636 em wide.
        let one = text_width("8", 10.0, false);
        assert!((one - 6.36).abs() < 0.01, "{one}");
        assert!((text_width("888", 10.0, false) - 3.0 * one).abs() < 1e-3);
        assert!(text_width("Sudoku", 10.0, true) > text_width("Sudoku", 10.0, false));
        assert_eq!(text_width("", 10.0, false), 0.0);
        // The serif faces measure their own glyphs, not the sans's.
        let serif = text_width_in("Sudoku", 10.0, true, false);
        assert!(serif > 0.0 && (serif - text_width("Sudoku", 10.0, false)).abs() > 0.1);
        assert!(glyphs_in("S", true, false)[0].id > 0, "the serif has the glyph");
        assert!(text_width_in("Sudoku", 10.0, true, true) > text_width_in("Sudoku", 10.0, true, false));
        // Beyond ASCII: looked up in the face; a character it lacks is glyph 0.
        let g = glyphs("é\u{10FFFF}", false);
        assert!(g[0].id > 0 && g[0].range == (0..2));
        assert_eq!(g[1].id, 0);
    }
}
