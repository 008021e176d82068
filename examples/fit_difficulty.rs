//! Fits the weights of the `difficulty` rating (see `src/rate/difficulty.rs`) and reports how well
//! they carry over to puzzles they were not fitted on: `docs/difficulty-fit.md`.
//!
//! ```text
//! cargo run --release --example fit_difficulty            # report only
//! cargo run --release --example fit_difficulty -- --write # and rewrite the weights in src/
//! ```
//!
//! # Procedure (2-fold cross-validation)
//!
//! 1. Every puzzle of the Sudoku Explainer sample (SE rating) and of Berthier's controlled-bias
//!    sample (SER and W) is rated once (10 runs, the default); a rating records its feature vector (the
//!    checks per ladder position and the refutation efforts), and is linear in the weights.
//! 2. Each list is split in two halves by its puzzles' class keys (the low bit of the key's
//!    seed): half A and half B, the same for every run of this script.
//! 3. On one half of Berthier's sample the weights maximise the mean of four Spearman
//!    correlations: with SER and with W, over the whole half and over its puzzles of SER >= 5
//!    (the hard end, where a rating must still order the chains). The SE sample is not used
//!    to fit: it is held out whole. The first weight (singles) is fixed at 1, which sets the
//!    scale; the others are searched in log space by pattern search (every weight tried x8
//!    and /8, then x2.8 and /2.8, and so on down to x1.05, keeping a change whenever the
//!    objective rises), from all weights 1.
//! 4. The fitted weights are reported on the other half, against hsolve and the clue count on
//!    the same puzzles. Fold 1 fits on A and reports on B; fold 2 the reverse. The weights of
//!    fold 1 are the ones shipped.

use pseudoku::dev::refdata;
use pseudoku::dev::stats::{gamma, levels, pearson, ranks, spearman};
use pseudoku::input::read_puzzle_file;
use pseudoku::rate::difficulty::{self, weigh, FEATURES, FEATURE_NAMES, WEIGHTS};
use pseudoku::{canon, rate::hsolve, Puzzle};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::time::Instant;

/// One reference puzzle: its features, its hsolve rating, clue count, half and external scales.
struct Row {
    features: [f64; FEATURES],
    hsolve: f64,
    clues: f64,
    half: usize,
    /// SE for the SE sample; SER and W for Berthier's sample.
    scales: Vec<f64>,
}

/// A list with its scale names.
struct List {
    name: &'static str,
    scales: &'static [&'static str],
    rows: Vec<Row>,
}

fn read(rel: &str, columns: &[usize]) -> Vec<Row> {
    let path = refdata::file(rel).unwrap_or_else(|e| panic!("{e}"));
    let puzzles = read_puzzle_file(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let text = std::fs::read_to_string(&path).unwrap();
    let cols: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            columns.iter().map(|&c| f[c].parse().unwrap()).collect()
        })
        .collect();
    puzzles
        .par_iter()
        .zip(cols)
        .map(|(p, scales): (&Puzzle, Vec<f64>)| {
            let d = difficulty::rate(p, difficulty::DEFAULT_RUNS).expect("unique puzzles");
            let h = hsolve::rate(p, hsolve::DEFAULT_RUNS).expect("unique puzzles");
            Row {
                features: d.features,
                hsolve: h.mean,
                clues: -(p.clues() as f64),
                half: (canon::key(p).seed() & 1) as usize,
                scales,
            }
        })
        .collect()
}

/// The rows of `list` in `half`, optionally filtered on the first scale.
fn select<'a>(list: &'a List, half: Option<usize>, keep: &dyn Fn(&Row) -> bool) -> Vec<&'a Row> {
    list.rows
        .iter()
        .filter(|r| half.is_none_or(|h| r.half == h) && keep(r))
        .collect()
}

/// Spearman of a weighted rating against every scale, precomputed scale ranks.
struct Target<'a> {
    rows: Vec<&'a Row>,
    scale_ranks: Vec<Vec<f64>>,
}

impl<'a> Target<'a> {
    fn new(rows: Vec<&'a Row>, scales: usize) -> Target<'a> {
        let scale_ranks = (0..scales)
            .map(|s| ranks(&rows.iter().map(|r| r.scales[s]).collect::<Vec<_>>()))
            .collect();
        Target { rows, scale_ranks }
    }

    /// Spearman of the weighted rating against each scale (Pearson on ranks).
    fn rhos(&self, w: &[f64; FEATURES]) -> Vec<f64> {
        let x: Vec<f64> = self.rows.iter().map(|r| weigh(&r.features, w)).collect();
        let rx = ranks(&x);
        self.scale_ranks.iter().map(|ry| pearson(&rx, ry)).collect()
    }
}

/// The objective: the mean Spearman over every scale of every target.
fn objective(targets: &[Target], w: &[f64; FEATURES]) -> f64 {
    let rhos: Vec<f64> = targets.iter().flat_map(|t| t.rhos(w)).collect();
    rhos.iter().sum::<f64>() / rhos.len() as f64
}

/// The weights from the search parameters `theta`. The check weights grow along the ladder (a
/// check of a harder strategy costs at least as much as one of an easier), from 1 for
/// singles: w_i = w_(i-1) e^theta_i, theta_i >= 0. The effort weights are counted from the
/// weight of a forcing-chain check (at theta = 0 a wave of a forcing chain costs as much as
/// checking one start) and grow from forcing chains to backtracking and with the trial depth.
fn weights(theta: &[f64; FEATURES]) -> [f64; FEATURES] {
    let mut w = [1.0f64; FEATURES];
    for j in 1..FEATURES {
        let base = if j == EFFORT_START {
            w[FORCING_CHECKS]
        } else {
            w[j - 1]
        };
        w[j] = base * theta[j].exp();
    }
    w
}

/// The feature of the forcing chains' checks.
const FORCING_CHECKS: usize = 11;

/// The smallest rise of the objective a move must bring to be taken: about half the standard
/// error of a Spearman correlation on one half of the data, so the search stops before it
/// fits noise, and weights stay at the smallest values that order the puzzles.
const MIN_GAIN: f64 = 0.0001;

/// The first effort feature.
const EFFORT_START: usize = 15;

/// Pattern search over the parameters (see [`weights`]): each tried up and down by a step in
/// log space, the step shrinking when nothing improves.
fn fit(targets: &[Target]) -> ([f64; FEATURES], f64) {
    let mut theta = [0.0f64; FEATURES];
    let mut best = objective(targets, &weights(&theta));
    let mut step = 8f64.ln();
    while step > 1.05f64.ln() {
        let mut improved = false;
        for j in 1..FEATURES {
            for dir in [1.0, -1.0] {
                let mut t = theta;
                let low = if j == EFFORT_START { -20.0 } else { 0.0 };
                t[j] = (t[j] + dir * step).clamp(low, 20.0);
                if t[j] == theta[j] {
                    continue;
                }
                let v = objective(targets, &weights(&t));
                if v > best + MIN_GAIN {
                    best = v;
                    theta = t;
                    improved = true;
                    break;
                }
            }
        }
        if !improved {
            step /= 2.0f64.sqrt();
        }
    }
    (weights(&theta), best)
}

/// Spearman and 8-level gamma of a measure against one scale.
fn agreement(x: &[f64], y: &[f64]) -> (f64, f64) {
    (spearman(x, y), gamma(&levels(x, 8), &levels(y, 8)))
}

/// Report rows for one set of puzzles: difficulty (with `w`), hsolve and clue count.
fn report(out: &mut String, label: &str, rows: &[&Row], scales: &[&str], w: &[f64; FEATURES]) {
    let d: Vec<f64> = rows.iter().map(|r| weigh(&r.features, w)).collect();
    let h: Vec<f64> = rows.iter().map(|r| r.hsolve).collect();
    let c: Vec<f64> = rows.iter().map(|r| r.clues).collect();
    for (s, name) in scales.iter().enumerate() {
        let y: Vec<f64> = rows.iter().map(|r| r.scales[s]).collect();
        let (dr, dg) = agreement(&d, &y);
        let (hr, hg) = agreement(&h, &y);
        let (cr, cg) = agreement(&c, &y);
        writeln!(
            out,
            "| {label} | {name} | {} | {dr:.3} / {dg:.3} | {hr:.3} / {hg:.3} | {cr:.3} / {cg:.3} |",
            rows.len()
        )
        .unwrap();
    }
}

fn main() {
    let write = std::env::args().any(|a| a == "--write");
    if let Err(why) = refdata::dir() {
        eprintln!("fit_difficulty: {why}");
        std::process::exit(2);
    }
    let start = Instant::now();
    let lists = [
        List {
            name: "SE sample",
            scales: &["SE"],
            rows: read("se-rated/sudoku_exchange_sample500.tsv", &[1]),
        },
        List {
            name: "Berthier cb000",
            scales: &["SER", "W"],
            rows: read("berthier-cb000/puzzles.tsv", &[1, 2]),
        },
    ];
    let rated = start.elapsed();
    eprintln!("rated in {rated:.1?}");

    let mut doc = String::new();
    writeln!(doc, "# Fitting the `difficulty` weights\n").unwrap();
    writeln!(
        doc,
        "Generated by `cargo run --release --example fit_difficulty` on {} ({} puzzles rated \
         in {:.0} s on {} threads). The procedure is documented at the top of \
         `examples/fit_difficulty.rs`; the model in `src/rate/difficulty.rs`.\n",
        pseudoku::calendar::Date::today(),
        lists.iter().map(|l| l.rows.len()).sum::<usize>(),
        rated.as_secs_f64(),
        rayon::current_num_threads()
    )
    .unwrap();
    let all = |_: &Row| true;
    let hard = |r: &Row| r.scales[0] >= 5.0;
    let mut folds = Vec::new();
    for (fold, (train, test)) in [(0usize, 1usize), (1, 0)].into_iter().enumerate() {
        // Berthier's sample only (the SE sample is held out whole), all of the half and its
        // hard end (SER >= 5), so the fit orders the hard puzzles as well as the range.
        let berthier = &lists[1];
        let targets = vec![
            Target::new(select(berthier, Some(train), &all), berthier.scales.len()),
            Target::new(select(berthier, Some(train), &hard), berthier.scales.len()),
        ];
        let (w, obj) = fit(&targets);
        eprintln!("fold {}: objective {obj:.4} weights {w:?}", fold + 1);
        folds.push((train, test, w, obj));
    }
    writeln!(doc, "## Fitted weights\n").unwrap();
    writeln!(
        doc,
        "| feature | fold 1 (fit on A, shipped) | fold 2 (fit on B) |"
    )
    .unwrap();
    writeln!(doc, "|---|---:|---:|").unwrap();
    for (j, name) in FEATURE_NAMES.iter().enumerate() {
        writeln!(
            doc,
            "| {name} | {:.4} | {:.4} |",
            folds[0].2[j], folds[1].2[j]
        )
        .unwrap();
    }
    writeln!(
        doc,
        "| *objective on the training half (mean Spearman)* | {:.4} | {:.4} |\n",
        folds[0].3, folds[1].3
    )
    .unwrap();
    writeln!(doc, "## Held-out agreement\n").unwrap();
    writeln!(
        doc,
        "Each fold's weights on the half they were not fitted on. Cells are Spearman rho / \
         Goodman-Kruskal gamma over 8 x 8 equal-count levels; hsolve (the paper's model, 20 \
         runs) and the clue count (negated) are baselines on the same puzzles. SE >= 5 and \
         SE < 5 split the SE sample into its hard and easy ranges.\n"
    )
    .unwrap();
    writeln!(
        doc,
        "| fold, puzzles | against | n | difficulty | hsolve | clue count |"
    )
    .unwrap();
    writeln!(doc, "|---|---|---:|---:|---:|---:|").unwrap();
    for (fold, (_, test, w, _)) in folds.iter().enumerate() {
        let half = ["A", "B"][*test];
        for l in &lists {
            let rows = select(l, Some(*test), &all);
            report(
                &mut doc,
                &format!("{}, {} half {half}", fold + 1, l.name),
                &rows,
                l.scales,
                w,
            );
        }
        let b_hard = select(&lists[1], Some(*test), &hard);
        report(
            &mut doc,
            &format!("{}, Berthier SER >= 5, half {half}", fold + 1),
            &b_hard,
            lists[1].scales,
            w,
        );
        let se = &lists[0];
        let hard = select(se, Some(*test), &hard);
        report(
            &mut doc,
            &format!("{}, SE >= 5, half {half}", fold + 1),
            &hard,
            se.scales,
            w,
        );
        let easy = select(se, Some(*test), &|r: &Row| r.scales[0] < 5.0);
        report(
            &mut doc,
            &format!("{}, SE < 5, half {half}", fold + 1),
            &easy,
            se.scales,
            w,
        );
    }
    writeln!(doc).unwrap();
    let shipped = folds[0].2;
    if shipped
        .iter()
        .zip(WEIGHTS)
        .any(|(a, b)| (a - b).abs() > 1e-5 * a.abs())
    {
        writeln!(
            doc,
            "The weights in `src/rate/difficulty.rs` differ from fold 1's: rerun with `--write`.\n"
        )
        .unwrap();
    }
    std::fs::create_dir_all("docs").unwrap();
    std::fs::write("docs/difficulty-fit.md", doc).unwrap();
    eprintln!("wrote docs/difficulty-fit.md");
    if write {
        let path = "src/rate/difficulty.rs";
        let src = std::fs::read_to_string(path).unwrap();
        let (a, b) = (
            src.find("// BEGIN FITTED WEIGHTS").expect("begin marker"),
            src.find("// END FITTED WEIGHTS").expect("end marker"),
        );
        let list: Vec<String> = shipped.iter().map(|w| format!("{w:.6e}")).collect();
        let block = format!(
            "// BEGIN FITTED WEIGHTS (written by examples/fit_difficulty.rs; do not edit by hand)\n\
             /// The weight of each feature (see [`FEATURE_NAMES`]).\n\
             pub const WEIGHTS: [f64; FEATURES] = [\n    {},\n];\n",
            list.join(",\n    ")
        );
        std::fs::write(path, format!("{}{}{}", &src[..a], block, &src[b..])).unwrap();
        eprintln!("rewrote the weights in {path}");
    }
}
