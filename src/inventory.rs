//! What a bank holds (`pseudoku stats`): counts per band and tier, the rating histogram next
//! to the reference's, the bank's spread over the reference deciles, build bookkeeping, and
//! an SVG drawing of it.

use crate::levels::{LevelSet, RatingKind};
use crate::store;
use rusqlite::Connection;
use serde::Serialize;
use std::fmt::Write as _;

/// The histogram's number of bins.
pub const BINS: usize = 30;

/// Counts of one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelCount {
    /// Its name.
    pub level: String,
    /// Its rating range, e.g. `5.75 <= difficulty < 10.06`.
    pub range: String,
    /// Where its cut points fall in the reference: the percentiles of its lower and upper
    /// bound (0 and 100 for no bound).
    pub percentiles: (f64, f64),
    /// Puzzles in it.
    pub puzzles: u64,
    /// Of those, served.
    pub served: u64,
    /// Its layout rules (`none`, or e.g. `symmetry=rotate180 clues=22..30 minimal`).
    pub layout: String,
}

/// One histogram bin over the rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    /// Lower edge (included).
    pub low: f64,
    /// Upper edge (excluded, except for the last bin).
    pub high: f64,
    /// Bank puzzles in it.
    pub bank: u64,
    /// Reference puzzles in it.
    pub reference: u64,
}

/// A bank's inventory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Inventory {
    /// Stored puzzles.
    pub puzzles: u64,
    /// Of those, served by `get --mark-served` or exported.
    pub served: u64,
    /// The rating percentiles use.
    pub rating: String,
    /// How the reference was made.
    pub reference: String,
    /// Reference puzzles.
    pub reference_size: u64,
    /// Per level, easiest first.
    pub levels: Vec<LevelCount>,
    /// Puzzles per hardest hsolve tier 0-6.
    pub tiers: Vec<u64>,
    /// The rating histogram, bank and reference.
    pub histogram: Vec<Bin>,
    /// Bank puzzles per reference decile (percentile 0-10, ..., 90-100).
    pub deciles: Vec<u64>,
    /// The cut points between the levels, easiest first.
    pub cuts: Vec<f64>,
    /// Duplicates rejected by all builds.
    pub duplicates: u64,
    /// Generated puzzles without one solution (bugs; never stored).
    pub rejected: u64,
    /// Puzzles dropped for falling outside the bands a targeted build still needed.
    pub off_band: u64,
    /// Builds run.
    pub builds: u64,
    /// Of those, not finished: interrupted (Ctrl-C or a crash; the same command resumes one),
    /// or running now.
    pub unfinished: u64,
    /// Distinct seeds the stored puzzles come from.
    pub seeds_used: u64,
    /// Seeds in the bank's seed table.
    pub seeds_known: u64,
    /// Puzzles from the standard generator (no seed).
    pub standard: u64,
}

/// Reads the inventory of an open bank.
pub fn read(conn: &Connection) -> store::Result<Inventory> {
    let (rating, levels): (RatingKind, LevelSet) = store::settings::levels(conn)?;
    let rows = store::inventory::puzzle_facts(conn, rating)?;
    let reference = store::settings::reference_values(conn, rating)?;
    let r = (!reference.is_empty()).then(|| crate::levels::Reference::new(reference.clone()));
    let mut counts: Vec<LevelCount> = (0..levels.len())
        .map(|i| {
            let (lo, hi) = levels.bounds(i);
            let pct = |b: Option<f64>, none: f64| match (&r, b) {
                (Some(r), Some(c)) => (r.percentile(c) * 100.0).round() / 100.0,
                _ => none,
            };
            LevelCount {
                level: levels.name(i).unwrap_or_default().to_string(),
                range: crate::retrieve::range_text(&levels, i, rating),
                percentiles: (pct(lo, 0.0), pct(hi, 100.0)),
                puzzles: 0,
                served: 0,
                layout: String::new(),
            }
        })
        .collect();
    for l in &mut counts {
        l.layout = store::settings::layout(conn, &l.level)?.unwrap_or_else(|| "none".to_string());
    }
    let mut tiers = vec![0u64; 7];
    let mut deciles = vec![0u64; 10];
    let mut values = Vec::with_capacity(rows.len());
    for r in &rows {
        if let Some(l) = r.level.and_then(|l| counts.get_mut(l as usize)) {
            l.puzzles += 1;
            l.served += u64::from(r.served);
        }
        if let Some(p) = r.percentile {
            deciles[((p / 10.0).floor() as usize).min(9)] += 1;
        }
        tiers[(r.tier as usize).min(6)] += 1;
        if let Some(v) = r.rating {
            values.push(v);
        }
    }
    let totals = store::inventory::build_totals(conn)?;
    Ok(Inventory {
        puzzles: rows.len() as u64,
        served: rows.iter().filter(|r| r.served).count() as u64,
        rating: rating.name().to_string(),
        reference: store::settings::get(conn, "reference")?.unwrap_or_else(|| "none yet".into()),
        reference_size: reference.len() as u64,
        levels: counts,
        tiers,
        histogram: histogram(&values, &reference),
        deciles,
        cuts: levels.cuts().to_vec(),
        duplicates: totals.duplicates,
        rejected: totals.rejected,
        off_band: totals.off_band,
        builds: totals.builds,
        unfinished: totals.unfinished,
        seeds_used: totals.seeds_used,
        seeds_known: totals.seeds_known,
        standard: totals.without_seed,
    })
}

/// `text` for SVG character data: `&`, `<` and `>` escaped (a level's range reads
/// `5.754 <= difficulty < 10.063`).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// [`BINS`] equal bins over the range of both lists.
fn histogram(bank: &[f64], reference: &[f64]) -> Vec<Bin> {
    let all = bank.iter().chain(reference);
    let lo = all.clone().copied().fold(f64::INFINITY, f64::min);
    let hi = all.copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return Vec::new();
    }
    let width = ((hi - lo) / BINS as f64).max(1e-9);
    let mut bins: Vec<Bin> = (0..BINS)
        .map(|i| Bin {
            low: lo + i as f64 * width,
            high: lo + (i + 1) as f64 * width,
            bank: 0,
            reference: 0,
        })
        .collect();
    let at = |v: f64| (((v - lo) / width) as usize).min(BINS - 1);
    for &v in bank {
        bins[at(v)].bank += 1;
    }
    for &v in reference {
        bins[at(v)].reference += 1;
    }
    bins
}

impl Inventory {
    /// The inventory as readable tables.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let _ = writeln!(
            s,
            "{} puzzles ({} served); percentiles by {} against the reference ({}, {} puzzles)",
            self.puzzles, self.served, self.rating, self.reference, self.reference_size
        );
        let _ = writeln!(
            s,
            "\nlevel\t{}\treference percentiles\tpuzzles\tshare\tserved\tlayout",
            self.rating
        );
        for l in &self.levels {
            let _ = writeln!(
                s,
                "{}\t{}\t{}-{}\t{}\t{:.1}%\t{}\t{}",
                l.level,
                l.range,
                l.percentiles.0,
                l.percentiles.1,
                l.puzzles,
                pct(l.puzzles, self.puzzles),
                l.served,
                l.layout
            );
        }
        let _ = writeln!(s, "\nhsolve tier\tpuzzles");
        for (t, n) in self.tiers.iter().enumerate() {
            let _ = writeln!(s, "{t}\t{n}");
        }
        let _ = writeln!(s, "\nreference decile\tbank puzzles\tshare");
        for (i, n) in self.deciles.iter().enumerate() {
            let _ = writeln!(
                s,
                "{}-{}\t{n}\t{:.1}%",
                10 * i,
                10 * (i + 1),
                pct(*n, self.puzzles)
            );
        }
        let _ = writeln!(
            s,
            "\n{} from\t{} to\tbank\treference",
            self.rating, self.rating
        );
        for b in &self.histogram {
            let _ = writeln!(
                s,
                "{:.3}\t{:.3}\t{}\t{}",
                b.low, b.high, b.bank, b.reference
            );
        }
        let _ = writeln!(
            s,
            "\nbuilds {} ({} unfinished: interrupted, or running now); duplicates rejected {}; off band {}; not unique {}; seeds used {} of {}; standard generator {}",
            self.builds,
            self.unfinished,
            self.duplicates,
            self.off_band,
            self.rejected,
            self.seeds_used,
            self.seeds_known,
            self.standard
        );
        s
    }

    /// An SVG drawing: the rating histogram of the bank (bars) over the reference's (outline),
    /// and the puzzles per level.
    pub fn to_svg(&self) -> String {
        let (w, h) = (900.0, 640.0);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        // Panel 1: histogram.
        let (x0, y0, pw, ph) = (70.0, 50.0, 800.0, 300.0);
        let _ = writeln!(
            s,
            r#"<text x="{x0}" y="30" font-size="18" font-weight="bold">{} histogram: bank ({} puzzles) and reference ({} puzzles)</text>"#,
            self.rating, self.puzzles, self.reference_size
        );
        let share = |n: u64, total: u64| n as f64 / total.max(1) as f64;
        let max = self
            .histogram
            .iter()
            .map(|b| share(b.bank, self.puzzles).max(share(b.reference, self.reference_size)))
            .fold(0.0, f64::max)
            .max(1e-9);
        let bw = pw / self.histogram.len().max(1) as f64;
        for (i, b) in self.histogram.iter().enumerate() {
            let bh = ph * share(b.bank, self.puzzles) / max;
            let _ = writeln!(
                s,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#4878b0"/>"##,
                x0 + i as f64 * bw + 1.0,
                y0 + ph - bh,
                bw - 2.0,
                bh
            );
        }
        let mut path = String::new();
        for (i, b) in self.histogram.iter().enumerate() {
            let y = y0 + ph - ph * share(b.reference, self.reference_size) / max;
            let (xa, xb) = (x0 + i as f64 * bw, x0 + (i + 1) as f64 * bw);
            let _ = write!(
                path,
                "{}{xa:.1},{y:.1} L{xb:.1},{y:.1} ",
                if i == 0 { "M" } else { "L" }
            );
        }
        let _ = writeln!(
            s,
            r##"<path d="{path}" fill="none" stroke="#d0542c" stroke-width="2.5"/>"##
        );
        if let (Some(first), Some(last)) = (self.histogram.first(), self.histogram.last()) {
            let span = (last.high - first.low).max(1e-9);
            for (i, &e) in self.cuts.iter().enumerate() {
                let x = x0 + pw * (e - first.low) / span;
                let name = self.levels.get(i + 1).map_or("", |l| l.level.as_str());
                let _ = writeln!(
                    s,
                    r##"<line x1="{x:.1}" y1="{y0}" x2="{x:.1}" y2="{}" stroke="#555" stroke-dasharray="5,4"/><text x="{:.1}" y="{}" font-size="12" fill="#333">{name} from {e}</text>"##,
                    y0 + ph,
                    x + 3.0,
                    y0 + 40.0 + 15.0 * i as f64
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="end">{:.0}%</text><text x="{}" y="{}" font-size="12" text-anchor="end">0</text>"#,
            x0 - 6.0,
            y0 + 4.0,
            100.0 * max,
            x0 - 6.0,
            y0 + ph + 4.0
        );
        let _ = writeln!(
            s,
            r##"<line x1="{x0}" y1="{}" x2="{}" y2="{}" stroke="black"/><line x1="{x0}" y1="{y0}" x2="{x0}" y2="{}" stroke="black"/>"##,
            y0 + ph,
            x0 + pw,
            y0 + ph,
            y0 + ph
        );
        if let (Some(first), Some(last)) = (self.histogram.first(), self.histogram.last()) {
            for k in 0..=5 {
                let v = first.low + (last.high - first.low) * k as f64 / 5.0;
                let x = x0 + pw * k as f64 / 5.0;
                let _ = writeln!(
                    s,
                    r#"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="black"/><text x="{x:.1}" y="{}" font-size="13" text-anchor="middle">{v:.1}</text>"#,
                    y0 + ph,
                    y0 + ph + 5.0,
                    y0 + ph + 20.0
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="14" text-anchor="middle">{} (share of each set per bin; dashed: where each level starts)</text>"#,
            x0 + pw / 2.0,
            y0 + ph + 40.0,
            self.rating
        );
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="14" height="14" fill="#4878b0"/><text x="{}" y="{}" font-size="13">bank</text><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#d0542c" stroke-width="2.5"/><text x="{}" y="{}" font-size="13">reference</text>"##,
            x0 + pw - 160.0,
            y0 + 5.0,
            x0 + pw - 140.0,
            y0 + 17.0,
            x0 + pw - 90.0,
            y0 + 12.0,
            x0 + pw - 70.0,
            y0 + 12.0,
            x0 + pw - 64.0,
            y0 + 17.0
        );
        // Panel 2: puzzles per level.
        let (x1, y1, qw, qh) = (70.0, 450.0, 800.0, 130.0);
        let _ = writeln!(
            s,
            r#"<text x="{x1}" y="{}" font-size="18" font-weight="bold">Puzzles per level</text>"#,
            y1 - 25.0
        );
        let most = self
            .levels
            .iter()
            .map(|b| b.puzzles)
            .max()
            .unwrap_or(0)
            .max(1);
        let slot = qw / self.levels.len().max(1) as f64;
        for (i, b) in self.levels.iter().enumerate() {
            let bh = qh * b.puzzles as f64 / most as f64;
            let x = x1 + i as f64 * slot;
            let _ = writeln!(
                s,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#5a9e6f"/>"##,
                x + slot * 0.15,
                y1 + qh - bh,
                slot * 0.7,
                bh
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">{}</text><text x="{:.1}" y="{:.1}" font-size="13" font-weight="bold" text-anchor="middle">{}</text><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
                x + slot / 2.0,
                y1 + qh - bh - 6.0,
                b.puzzles,
                x + slot / 2.0,
                y1 + qh + 18.0,
                escape(&b.level),
                x + slot / 2.0,
                y1 + qh + 33.0,
                escape(&b.range)
            );
        }
        let _ = writeln!(
            s,
            r#"<line x1="{x1}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
            y1 + qh,
            x1 + qw,
            y1 + qh
        );
        s.push_str("</svg>\n");
        s
    }
}
