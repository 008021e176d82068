//! The fonts printed pages and plots use, shipped in the binary so every export and drawing
//! looks the same on every machine: DejaVu Sans, regular and bold (Bitstream Vera licence,
//! free to embed and redistribute; `assets/fonts/LICENSE`).

/// DejaVu Sans (TrueType).
pub const SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// DejaVu Sans Bold (TrueType).
pub const SANS_BOLD: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");
