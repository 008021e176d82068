//! The fonts printed pages and plots use, shipped in the binary so every export and drawing
//! looks the same on every machine: DejaVu Sans, regular and bold (Bitstream Vera licence,
//! free to embed and redistribute; `assets/fonts/LICENSE`).

/// DejaVu Sans (TrueType).
pub const SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// DejaVu Sans Bold (TrueType).
pub const SANS_BOLD: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");

use skrifa::instance::{LocationRef, Size};
use skrifa::MetadataProvider;

/// The width in points of `text` set in DejaVu Sans (`bold`: Sans Bold) at `size` points:
/// the sum of its glyphs' advances (no kerning), to centre, right-align and fit printed text.
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    let Ok(font) = skrifa::FontRef::new(if bold { SANS_BOLD } else { SANS }) else {
        return 0.0;
    };
    let charmap = font.charmap();
    let metrics = font.glyph_metrics(Size::new(size), LocationRef::default());
    text.chars()
        .map(|c| {
            charmap
                .map(c)
                .and_then(|g| metrics.advance_width(g))
                .unwrap_or(size * 0.6)
        })
        .sum()
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
    }
}
