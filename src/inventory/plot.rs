//! `stats --plot`: an [`Inventory`] drawn on one page with plotters, as SVG or PNG by the
//! file's extension, in the shipped fonts (never the system's), byte for byte the same for the
//! same bank. Three panels: the rating histogram of the bank over the reference's with the
//! levels shaded, hsolve's technique families per level (`beyond-wings` past its X-wing and
//! XY-wing, which is no trial), and the clue counts per level.

use super::Inventory;
use crate::technique::Technique;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The picture's size in pixels (width, height): A4's proportions, its text readable when the
/// picture is printed 18 cm wide.
pub const SIZE: (u32, u32) = (1200, 1500);

/// A picture's file format, named by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// SVG (`.svg`): text stays text, in the reader's sans-serif font.
    Svg,
    /// PNG (`.png`).
    Png,
}

impl ImageFormat {
    /// The format `path`'s extension names: `.svg` or `.png`, in any case.
    pub fn of(path: &Path) -> Result<ImageFormat, PlotError> {
        let extension = path.extension().and_then(|e| e.to_str());
        match extension.map(str::to_ascii_lowercase).as_deref() {
            Some("svg") => Ok(ImageFormat::Svg),
            Some("png") => Ok(ImageFormat::Png),
            _ => Err(PlotError::Format {
                path: path.to_path_buf(),
            }),
        }
    }
}

/// Why a plot was not drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The file's extension names no format a plot is drawn in.
    #[error(
        "{}: {}: a plot is drawn as SVG (FILE.svg) or PNG (FILE.png)",
        .path.display(),
        extension_text(.path)
    )]
    Format {
        /// The file.
        path: PathBuf,
    },
    /// The file cannot be written (a missing folder, no permission).
    #[error("{}: cannot write the plot: {source}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The shipped fonts could not be loaded (a broken build).
    #[error("the shipped fonts could not be loaded for drawing")]
    Fonts,
    /// Drawing or writing the file failed.
    #[error("{}: {reason}", .path.display())]
    Draw {
        /// The file.
        path: PathBuf,
        /// What failed.
        reason: String,
    },
}

/// What is wrong with `path`'s extension, for [`PlotError::Format`].
fn extension_text(path: &Path) -> String {
    match path.extension() {
        Some(e) => format!("unknown extension \".{}\"", e.to_string_lossy()),
        None => "no extension".to_string(),
    }
}

/// Draws `inv` into `path`, SVG or PNG by its extension ([`ImageFormat::of`], checked before
/// anything is drawn or written).
pub fn draw(inv: &Inventory, path: &Path) -> Result<(), PlotError> {
    let format = ImageFormat::of(path)?;
    // The file is made first, so that a folder that is missing is said in words (the drawing
    // library's own error would be its debug text).
    std::fs::File::create(path).map_err(|source| PlotError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    fonts()?;
    match format {
        ImageFormat::Svg => page(SVGBackend::new(path, SIZE).into_drawing_area(), inv),
        ImageFormat::Png => page(BitMapBackend::new(path, SIZE).into_drawing_area(), inv),
    }
    .map_err(|e| PlotError::Draw {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

/// Registers the shipped fonts as plotters' `sans-serif`, once per process.
fn fonts() -> Result<(), PlotError> {
    static LOADED: OnceLock<bool> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| {
        let normal = register_font(FAMILY, FontStyle::Normal, crate::fonts::SANS);
        let bold = register_font(FAMILY, FontStyle::Bold, crate::fonts::SANS_BOLD);
        normal.is_ok() && bold.is_ok()
    });
    if *loaded {
        Ok(())
    } else {
        Err(PlotError::Fonts)
    }
}

/// Plotters' result, its error boxed whatever the backend.
type Drawn<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// The font family every text uses (the shipped fonts, registered by [`fonts`]).
const FAMILY: &str = "sans-serif";
/// Text sizes in pixels (plotters' size: about 1.2 em): titles, axis names, tick labels and
/// legends, labels inside bars.
const TITLE: f64 = 34.0;
const AXIS: f64 = 29.0;
const TICKS: f64 = 27.0;
const LABEL: f64 = 24.0;

/// Text of `size` in the shipped font, black.
fn style(size: f64, bold: bool) -> TextStyle<'static> {
    let weight = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    TextStyle::from((FAMILY, size, weight).into_font())
}

/// The page's left and right margins, and where a panel's legend row starts below its title.
const SIDE: i32 = 24;
const LEGEND_Y: i32 = 60;
/// A row of level names at the top of the histogram.
const NAME_ROW: i32 = 36;
/// A legend row's height.
const LEGEND_ROW: i32 = 38;

/// The bank's bars and the reference's line.
const BANK: RGBColor = RGBColor(0x2b, 0x57, 0x8c);
const REFERENCE: RGBColor = RGBColor(0x11, 0x11, 0x11);
/// Grid lines, and text that says there is nothing.
const GRID: RGBColor = RGBColor(0xd4, 0xd4, 0xd4);
const MUTED: RGBColor = RGBColor(0x70, 0x70, 0x70);
/// The levels, easiest first (Okabe and Ito's colour-blind safe colours), repeated past the
/// eighth.
const LEVELS: [RGBColor; 8] = [
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xb8, 0xa9, 0x00),
    RGBColor(0x44, 0x44, 0x44),
];
/// hsolve's technique families, easiest first ([`Technique::ALL`]): viridis, light to dark.
const FAMILIES: [RGBColor; 5] = [
    RGBColor(0xfd, 0xe7, 0x25),
    RGBColor(0x5e, 0xc9, 0x62),
    RGBColor(0x21, 0x91, 0x8c),
    RGBColor(0x3b, 0x52, 0x8b),
    RGBColor(0x44, 0x01, 0x54),
];

/// Level `i`'s colour.
fn level_colour(i: usize) -> RGBColor {
    LEVELS[i % LEVELS.len()]
}

/// `c` mixed with white (`white` of 1: white).
fn tint(c: RGBColor, white: f64) -> RGBColor {
    let mix = |v: u8| (f64::from(v) + (255.0 - f64::from(v)) * white).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// `c` darkened, for text in its hue on its tint.
fn dark(c: RGBColor) -> RGBColor {
    let mix = |v: u8| (f64::from(v) * 0.6).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Black or white, whichever reads better on `c`.
fn ink(c: RGBColor) -> RGBColor {
    let luma = 0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2);
    if luma > 140.0 {
        BLACK
    } else {
        WHITE
    }
}

/// `n` with thousands separated by commas.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut s = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(c);
    }
    s
}

/// `part` of `total` in percent (0 for an empty total).
fn share(part: u64, total: u64) -> f64 {
    100.0 * part as f64 / total.max(1) as f64
}

/// The fewest decimals that write the tick labels plotters puts on `range` (at most `labels`
/// of them) exactly, so that all of an axis' labels have as many.
fn decimals(range: Range<f64>, labels: usize) -> usize {
    let points = RangedCoordf64::from(range).key_points(labels);
    (0..6)
        .find(|&d| {
            points.iter().all(|p| {
                let written: f64 = format!("{p:.d$}").parse().unwrap_or(f64::NAN);
                (written - p).abs() <= 1e-9 * p.abs().max(1.0)
            })
        })
        .unwrap_or(6)
}

/// A number with `d` decimals, without a minus sign on zero.
fn number(v: f64, d: usize) -> String {
    let s = format!("{v:.d$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// The whole page: three panels stacked.
fn page<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, inv: &Inventory) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    // The clue panel grows by its legend's extra rows (one per level), the histogram takes
    // what is left.
    let rows = legend(&root, &clue_legend(inv))?.1;
    let (middle, bottom) = (500, 470 + LEGEND_ROW * (rows - 1));
    let (top, rest) = root.split_vertically(SIZE.1 as i32 - middle - bottom);
    let (middle, bottom) = rest.split_vertically(middle);
    histogram(&top, inv)?;
    techniques(&middle, inv)?;
    clues(&bottom, inv)?;
    root.present()?;
    Ok(())
}

/// How a legend entry is drawn.
enum Key {
    /// A filled box (bars).
    Bar(RGBColor),
    /// A line (a step line or a curve), with a dot for its points when `true`.
    Line(RGBColor, bool),
}

/// Where the entries of a legend go on `area`, in rows under a panel's title wrapped to its
/// width: each one's left end and middle height, and the number of rows.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Key, String)],
) -> Drawn<(Vec<(i32, i32)>, i32)>
where
    DB::ErrorType: 'static,
{
    let font = style(TICKS, false);
    let width = area.dim_in_pixel().0 as i32 - SIDE;
    let (mut x, mut y, mut rows) = (SIDE, LEGEND_Y + LEGEND_ROW / 2, 1);
    let mut at = Vec::new();
    for (_, label) in entries {
        let text = area.estimate_text_size(label, &font)?.0 as i32;
        if x > SIDE && x + SWATCH + 10 + text > width {
            (x, y, rows) = (SIDE, y + LEGEND_ROW, rows + 1);
        }
        at.push((x, y));
        x += SWATCH + 10 + text + 36;
    }
    Ok((at, rows))
}

/// A legend entry's swatch width.
const SWATCH: i32 = 40;

/// A panel's title and its legend ([`legend`]) below it; returns how far down the panel they
/// reach.
fn header<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[(Key, String)],
) -> Drawn<i32>
where
    DB::ErrorType: 'static,
{
    area.draw(&Text::new(
        title.to_string(),
        (SIDE, 16),
        style(TITLE, true).pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    let font = style(TICKS, false);
    let (at, rows) = legend(area, entries)?;
    for ((key, label), &(x, y)) in entries.iter().zip(&at) {
        match *key {
            Key::Bar(c) => {
                area.draw(&Rectangle::new(
                    [(x + 6, y - 11), (x + 34, y + 11)],
                    c.filled(),
                ))?;
            }
            Key::Line(c, dot) => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + SWATCH, y)],
                    c.stroke_width(4),
                ))?;
                if dot {
                    area.draw(&Circle::new((x + SWATCH / 2, y), 6, c.filled()))?;
                }
            }
        }
        area.draw(&Text::new(
            label.clone(),
            (x + SWATCH + 10, y),
            font.color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(LEGEND_Y + LEGEND_ROW * rows + 24)
}

/// A chart on `area` below `top`, with room for the axis names and tick labels (`x_labels`
/// pixels high below the x axis).
fn chart_on<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    top: i32,
    x_labels: i32,
) -> ChartBuilder<'a, 'a, DB> {
    let mut chart = ChartBuilder::on(area);
    chart
        .margin_top(top)
        .margin_left(SIDE - 10)
        .margin_right(SIDE + 16)
        .margin_bottom(8)
        .x_label_area_size(x_labels)
        .y_label_area_size(112);
    chart
}

/// Draws the mesh of `chart`: light grid lines at the labelled values only, axis names, tick
/// labels in [`TICKS`].
macro_rules! mesh {
    ($chart:expr, $x:expr, $y:expr) => {
        $chart
            .configure_mesh()
            .x_desc($x)
            .y_desc($y)
            .axis_desc_style((FAMILY, AXIS))
            .label_style((FAMILY, TICKS))
            .bold_line_style(GRID.stroke_width(1))
            .light_line_style(TRANSPARENT)
            .axis_style(BLACK.stroke_width(2))
            .set_all_tick_mark_size(8)
    };
}

/// Text in the middle of an empty panel.
fn nothing<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, top: i32, what: &str) -> Drawn
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    area.draw(&Text::new(
        what.to_string(),
        (w as i32 / 2, (top + h as i32) / 2),
        style(AXIS, false)
            .color(&MUTED)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    Ok(())
}

/// Panel 1: the rating histogram, the bank's bars over the reference's step line, each as
/// shares of its own total, over the levels shaded between their cut points and named at the
/// top (not when a level model names the levels: they overlap in rating, and the title says
/// so).
fn histogram<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, inv: &Inventory) -> Drawn
where
    DB::ErrorType: 'static,
{
    let top = header(
        area,
        &if inv.learned {
            format!(
                "Rating ({}), bank against reference: learned levels overlap",
                inv.rating
            )
        } else {
            format!("Rating: the bank against the reference ({})", inv.rating)
        },
        &[
            (
                Key::Bar(BANK),
                format!("bank ({} puzzles)", thousands(inv.puzzles)),
            ),
            (
                Key::Line(REFERENCE, false),
                format!("reference ({} puzzles)", thousands(inv.reference_size)),
            ),
        ],
    )?;
    let (Some(first), Some(last)) = (inv.histogram.first(), inv.histogram.last()) else {
        return nothing(
            area,
            top,
            "no ratings: the bank and its reference are empty",
        );
    };
    let (lo, hi) = (first.low, last.high);
    let highest = inv
        .histogram
        .iter()
        .map(|b| share(b.bank, inv.puzzles).max(share(b.reference, inv.reference_size)))
        .fold(0.0, f64::max);
    // The levels' bands, each from its cut point to the next (clipped to the histogram).
    let mut edges = vec![lo];
    if !inv.learned {
        edges.extend(inv.cuts.iter().map(|c| c.clamp(lo, hi)));
    }
    edges.push(hi);
    // The level names go at the top of their bands, each in the first row where it runs into
    // no other; the y axis leaves room for the rows above the highest bar.
    let font = style(AXIS, true);
    let probe = chart_on(area, top + 6, 80).build_cartesian_2d(lo..hi, 0.0..1.0)?;
    let (xs, ys) = probe.plotting_area().get_pixel_range();
    let mut ends: Vec<i32> = Vec::new();
    let mut names = Vec::new();
    for (i, (w, level)) in edges.windows(2).zip(&inv.levels).enumerate() {
        if w[1] <= w[0] || inv.learned {
            continue;
        }
        let text = area.estimate_text_size(&level.level, &font)?.0 as i32;
        let middle = (w[0] + w[1]) / 2.0;
        let centre = probe.backend_coord(&(middle, 0.0)).0;
        let left = (centre - text / 2).clamp(xs.start + 6, (xs.end - 6 - text).max(xs.start));
        let row = match ends.iter().position(|&end| left >= end + 16) {
            Some(row) => row,
            None => {
                ends.push(i32::MIN);
                ends.len() - 1
            }
        };
        ends[row] = left + text;
        names.push((i, middle, left + text / 2 - centre, row as i32));
    }
    let room = f64::from(16 + NAME_ROW * ends.len() as i32) / f64::from(ys.end - ys.start);
    let ymax = if highest > 0.0 {
        highest / (1.0 - room).max(0.3)
    } else {
        1.0
    };
    let (xn, yn) = (12, 8);
    let (xd, yd) = (decimals(lo..hi, xn), decimals(0.0..ymax, yn));
    let mut chart = chart_on(area, top + 6, 80).build_cartesian_2d(lo..hi, 0.0..ymax)?;
    for (i, w) in edges.windows(2).enumerate().take(inv.levels.len()) {
        if w[1] > w[0] && !inv.learned {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(w[0], 0.0), (w[1], ymax)],
                tint(level_colour(i), 0.8).filled(),
            )))?;
        }
    }
    mesh!(chart, inv.rating.as_str(), "share of puzzles (%)")
        .x_labels(xn)
        .y_labels(yn)
        .x_label_formatter(&|v| number(*v, xd))
        .y_label_formatter(&|v| number(*v, yd))
        .draw()?;
    // Bars in bin order (plotters' Histogram series orders them by a hash map).
    let gap = (hi - lo) / inv.histogram.len() as f64 * 0.08;
    chart.draw_series(inv.histogram.iter().filter(|b| b.bank > 0).map(|b| {
        Rectangle::new(
            [
                (b.low + gap, 0.0),
                (b.high - gap, share(b.bank, inv.puzzles)),
            ],
            BANK.filled(),
        )
    }))?;
    if inv.reference_size > 0 {
        let mut steps = vec![(lo, 0.0)];
        for b in &inv.histogram {
            let s = share(b.reference, inv.reference_size);
            steps.extend([(b.low, s), (b.high, s)]);
        }
        steps.push((hi, 0.0));
        chart.draw_series(std::iter::once(PathElement::new(
            steps,
            REFERENCE.stroke_width(3),
        )))?;
    }
    let plot = chart.plotting_area();
    for (i, middle, dx, row) in names {
        plot.draw(
            &(EmptyElement::at((middle, ymax))
                + Text::new(
                    inv.levels[i].level.clone(),
                    (dx, 12 + NAME_ROW * row),
                    font.color(&dark(level_colour(i)))
                        .pos(Pos::new(HPos::Center, VPos::Top)),
                )),
        )?;
    }
    Ok(())
}

/// Panel 2: per level, the shares of hsolve's technique families, stacked to 100%.
fn techniques<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, inv: &Inventory) -> Drawn
where
    DB::ErrorType: 'static,
{
    let entries: Vec<(Key, String)> = Technique::ALL
        .iter()
        .zip(FAMILIES)
        .map(|(t, c)| (Key::Bar(c), t.name().to_string()))
        .collect();
    let top = header(area, "hsolve's technique family, per level", &entries)?;
    let n = inv.levels.len();
    if n == 0 {
        return nothing(area, top, "no levels");
    }
    let mut chart = chart_on(area, top, 112).build_cartesian_2d(Slots(n), 0.0..100.0)?;
    mesh!(chart, "level (puzzles)", "share of the level (%)")
        .disable_x_mesh()
        .y_labels(6)
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|v| number(*v, 0))
        .draw()?;
    // Under each bar its level's name and puzzles, on two lines, the names smaller when the
    // widest does not fit its slot.
    let widest = inv.levels.iter().try_fold(0u32, |w, l| {
        Ok::<_, Box<dyn std::error::Error>>(
            w.max(area.estimate_text_size(&l.level, &style(TICKS, false))?.0),
        )
    })?;
    let base = area.get_base_pixel();
    let (slot, axis) = {
        let (a, b) = (
            chart.backend_coord(&(0.0, 0.0)),
            chart.backend_coord(&(1.0, 0.0)),
        );
        (b.0 - a.0, a.1 - base.1)
    };
    let size = (TICKS * f64::from(slot - 14) / f64::from(widest.max(1))).clamp(16.0, TICKS);
    for (i, l) in inv.levels.iter().enumerate() {
        let x = chart.backend_coord(&(i as f64 + 0.5, 0.0)).0 - base.0;
        for (line, text, size) in [
            (0, l.level.clone(), size),
            (1, format!("({})", thousands(l.puzzles)), TICKS),
        ] {
            area.draw(&Text::new(
                text,
                (x, axis + 14 + line * (TICKS as i32 + 4)),
                style(size, false).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
    }
    let font = style(LABEL, false);
    for i in 0..n {
        let counts: Vec<u64> = inv
            .techniques
            .iter()
            .map(|t| t.per_level.get(i).copied().unwrap_or(0))
            .collect();
        let total: u64 = counts.iter().sum();
        let x = i as f64;
        if total == 0 {
            chart.draw_series(std::iter::once(Text::new(
                "no puzzles",
                (x + 0.5, 50.0),
                font.color(&MUTED).pos(Pos::new(HPos::Center, VPos::Center)),
            )))?;
            continue;
        }
        let mut below = 0u64;
        for (&count, colour) in counts.iter().zip(FAMILIES) {
            if count == 0 {
                continue;
            }
            let (y0, y1) = (share(below, total), share(below + count, total));
            below += count;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.2, y0), (x + 0.8, y1)],
                colour.filled(),
            )))?;
            if y1 - y0 >= 9.0 {
                chart.draw_series(std::iter::once(Text::new(
                    format!("{:.0}%", y1 - y0),
                    (x + 0.5, (y0 + y1) / 2.0),
                    font.color(&ink(colour))
                        .pos(Pos::new(HPos::Center, VPos::Center)),
                )))?;
            }
        }
    }
    Ok(())
}

/// The x axis of one bar per level: level `i` from `i` to `i + 1`, labelled at the middle.
struct Slots(usize);

impl Ranged for Slots {
    type ValueType = f64;
    type FormatOption = DefaultFormatting;

    fn range(&self) -> Range<f64> {
        0.0..self.0 as f64
    }

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        RangedCoordf64::from(self.range()).map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            (0..self.0).map(|i| i as f64 + 0.5).collect()
        }
    }
}

/// The clue panel's legend: each level's line, its name and its puzzles.
fn clue_legend(inv: &Inventory) -> Vec<(Key, String)> {
    inv.levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let n = if l.puzzles == 0 {
                "none".to_string()
            } else {
                thousands(l.puzzles)
            };
            (
                Key::Line(level_colour(i), true),
                format!("{} ({n})", l.level),
            )
        })
        .collect()
}

/// Panel 3: per level, the share of its puzzles with each number of clues, one line each.
fn clues<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, inv: &Inventory) -> Drawn
where
    DB::ErrorType: 'static,
{
    let entries = clue_legend(inv);
    let top = header(area, "Clues per puzzle, per level", &entries)?;
    let (Some(first), Some(last)) = (inv.clues.first(), inv.clues.last()) else {
        return nothing(area, top, "no puzzles");
    };
    let totals: Vec<u64> = (0..inv.levels.len())
        .map(|i| inv.clues.iter().map(|c| c.per_level[i]).sum())
        .collect();
    let highest = inv
        .clues
        .iter()
        .flat_map(|c| c.per_level.iter().zip(&totals).map(|(&n, &t)| share(n, t)))
        .fold(0.0, f64::max);
    let ymax = if highest > 0.0 { highest / 0.92 } else { 1.0 };
    let (lo, hi) = (f64::from(first.clues) - 0.5, f64::from(last.clues) + 0.5);
    let yn = 6;
    let yd = decimals(0.0..ymax, yn);
    let mut chart = chart_on(area, top, 80).build_cartesian_2d(lo..hi, 0.0..ymax)?;
    // Whole clue counts only: at most one label a count (20 at most; plotters then steps by 2
    // or 5), never the half-counts that rounding would print twice.
    let counts = (last.clues - first.clues) as usize + 1;
    mesh!(chart, "clues", "share of the level (%)")
        .x_labels(counts.min(20))
        .y_labels(yn)
        .x_label_formatter(&|v| number(*v, 0))
        .y_label_formatter(&|v| number(*v, yd))
        .draw()?;
    for (i, &total) in totals.iter().enumerate() {
        if total == 0 {
            continue;
        }
        let colour = level_colour(i);
        let points: Vec<(f64, f64)> = inv
            .clues
            .iter()
            .map(|c| (f64::from(c.clues), share(c.per_level[i], total)))
            .collect();
        chart.draw_series(std::iter::once(PathElement::new(
            points.clone(),
            colour.stroke_width(3),
        )))?;
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 5, colour.filled())),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_extension() {
        assert_eq!(
            ImageFormat::of(Path::new("a/b.svg")).unwrap(),
            ImageFormat::Svg
        );
        assert_eq!(
            ImageFormat::of(Path::new("B.SVG")).unwrap(),
            ImageFormat::Svg
        );
        assert_eq!(
            ImageFormat::of(Path::new("bank.Png")).unwrap(),
            ImageFormat::Png
        );
        let e = ImageFormat::of(Path::new("x.jpg")).unwrap_err().to_string();
        assert!(
            e.contains("x.jpg") && e.contains("\".jpg\"") && e.contains(".svg"),
            "{e}"
        );
        let e = ImageFormat::of(Path::new("plot")).unwrap_err().to_string();
        assert!(e.contains("no extension") && e.contains(".png"), "{e}");
    }

    #[test]
    fn tick_labels_have_as_many_decimals_as_needed() {
        assert_eq!(decimals(0.0..40.0, 8), 0);
        assert_eq!(decimals(0.0..3.2, 8), 1);
        assert_eq!(decimals(0.0..0.3, 8), 2);
        assert_eq!(number(-0.0, 1), "0.0");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
