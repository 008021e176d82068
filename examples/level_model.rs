//! Levels learned from labelled puzzles, both ways: cut points on one rating against the
//! level model on every feature (the ordinal or the multinomial regression, whichever does
//! better held out) (`calibrate --from FILE --labelled`), held out, on every
//! labelled scale the reference data gives. Writes `docs/level-model.md`.
//!
//! ```text
//! cargo run --release --example level_model
//! ```
//!
//! # Procedure
//!
//! Each scale below is written as a `puzzle<TAB>level` file and given to the same function
//! `calibrate --labelled` calls (`pseudoku::levels::fit_file`, rating `difficulty`), which rates
//! every puzzle, splits them in two halves by class key and fits on one half, counts on the
//! other (both ways): the cut points exactly, the model with its penalty chosen by
//! cross-validation inside the training half. Nothing here is tuned to a scale: the same
//! command, the same features, the same grid of penalties for all.
//!
//! - **SE buckets**: the Sudoku Exchange buckets, 500 puzzles each of easy, medium, hard and
//!   diabolical by Sukaku Explainer rating (< 1.5, < 2.5, < 5.0, >= 5.0).
//! - **SE sample, binned**: the Sudoku Exchange sample rated 2.5-9.3 by Sudoku Explainer,
//!   in four levels (< 4.0, < 6.0, < 7.5, >= 7.5).
//! - **Berthier W, binned**: the controlled-bias sample, levels by whip length W (0 = singles
//!   suffice; 1-2; 3; 4 or more): a scale by technique, not by one rating's ranges.
//! - **Berthier SER, binned**: the same puzzles by SER (< 2.0, < 4.0, < 7.1, >= 7.1).

use pseudoku::dev::refdata;
use pseudoku::levels::{fit_file, Kept, LabelledFit};
use pseudoku::levels::{LevelNames, RatingKind};
use std::fmt::Write as _;
use std::io::Write as _;

/// One labelled scale: its name, the reference file, the level names, and the level of a
/// line's columns (`None`: left out).
struct Scale {
    name: &'static str,
    file: &'static str,
    levels: &'static str,
    label: fn(&[&str]) -> Option<usize>,
}

fn number(s: &str) -> Option<f64> {
    s.trim().parse().ok()
}

const SCALES: [Scale; 4] = [
    Scale {
        name: "SE buckets",
        file: "se-rated/sudoku_exchange_buckets.tsv",
        levels: "easy,medium,hard,diabolical",
        label: |c| {
            let b = c.get(1)?;
            ["easy", "medium", "hard", "diabolical"]
                .iter()
                .position(|n| b.starts_with(n))
        },
    },
    Scale {
        name: "SE sample, binned",
        file: "se-rated/sudoku_exchange_sample500.tsv",
        levels: "moderate,tough,hard,fiendish",
        label: |c| {
            let se = number(c.get(1)?)?;
            Some([4.0, 6.0, 7.5].iter().filter(|&&t| se >= t).count())
        },
    },
    Scale {
        name: "Berthier W, binned",
        file: "berthier-cb000/puzzles.tsv",
        levels: "singles,short,medium,long",
        label: |c| {
            let w = number(c.get(2)?)?;
            Some(match w as u32 {
                0 => 0,
                1 | 2 => 1,
                3 => 2,
                _ => 3,
            })
        },
    },
    Scale {
        name: "Berthier SER, binned",
        file: "berthier-cb000/puzzles.tsv",
        levels: "easy,medium,hard,fiendish",
        label: |c| {
            let ser = number(c.get(1)?)?;
            Some([2.0, 4.0, 7.1].iter().filter(|&&t| ser >= t).count())
        },
    },
];

/// Numeric scales: their name, the reference file and the column of the number.
const NUMBERS: [(&str, &str, usize); 3] = [
    (
        "SE sample: Sudoku Explainer rating",
        "se-rated/sudoku_exchange_sample500.tsv",
        1,
    ),
    ("Berthier: SER", "berthier-cb000/puzzles.tsv", 1),
    ("Berthier: whip length W", "berthier-cb000/puzzles.tsv", 2),
];

/// Per-level agreement of a confusion matrix (`m[label][predicted]`).
fn per_level(m: &[Vec<u64>]) -> Vec<f64> {
    m.iter()
        .enumerate()
        .map(|(i, row)| 100.0 * row[i] as f64 / row.iter().sum::<u64>().max(1) as f64)
        .collect()
}

fn agreement(m: &[Vec<u64>]) -> f64 {
    let right: u64 = (0..m.len()).map(|i| m[i][i]).sum();
    100.0 * right as f64 / m.iter().flatten().sum::<u64>().max(1) as f64
}

fn main() {
    let dir = match refdata::dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    let tmp = std::env::temp_dir().join(format!("pseudoku-level-model-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut report = String::new();
    let mut table = String::from(
        "| scale | puzzles | cut points on difficulty | model | kept |\n|---|---:|---:|---:|---|\n",
    );
    for scale in &SCALES {
        let text = std::fs::read_to_string(dir.join(scale.file)).unwrap();
        let names: LevelNames = scale.levels.parse().unwrap();
        let file = tmp.join(format!("{}.tsv", scale.name.replace([' ', ','], "_")));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            if let Some(level) = (scale.label)(&cols) {
                writeln!(out, "{}\t{}", cols[0], names.names()[level]).unwrap();
            }
        }
        drop(out);
        let started = std::time::Instant::now();
        let fit: LabelledFit = fit_file(&file, Some(&names), RatingKind::Difficulty)
            .unwrap_or_else(|e| panic!("{}: {e}", scale.name));
        let seconds = started.elapsed().as_secs_f64();
        let cuts = fit.cross_validation.confusion();
        let model = &fit.model.held_out;
        let kept = match fit.kept {
            Kept::Model => "model",
            Kept::Cuts => "cut points",
        };
        let _ = writeln!(
            table,
            "| {} | {} | {:.1}% | **{:.1}%** | {kept} |",
            scale.name,
            fit.examples.len(),
            agreement(&cuts),
            agreement(model)
        );
        let _ = writeln!(
            report,
            "\n## {}\n\n`{}`, levels {} ({} puzzles, rated and fitted in {seconds:.1} s; the \
             model: {}, its penalty on all of them: {}).\n\n```text\n{}```",
            scale.name,
            scale.file,
            scale.levels,
            fit.examples.len(),
            fit.model.model.fitted.name(),
            fit.model.model.fitted.lambda(),
            pseudoku::levels::summary(&fit, RatingKind::Difficulty)
        );
        let fmt = |v: Vec<f64>| {
            v.iter()
                .map(|x| format!("{x:.1}%"))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        println!(
            "{}: cut points {:.1}% ({}), model {:.1}% ({}), kept {kept}",
            scale.name,
            agreement(&cuts),
            fmt(per_level(&cuts)),
            agreement(model),
            fmt(per_level(model))
        );
    }
    let mut numbers = String::from(
        "\n## Numeric scales\n\nEach file written as `puzzle<TAB>number` and fitted by the \
         monotone regression (`levels::regression`: ridge on every feature, then isotonic on \
         its score), held out the same way; beside it the isotonic regression on `difficulty` \
         alone (what one rating does). Spearman's rank correlation and the mean absolute \
         error, in the scale's units, on the held-out values.\n\n\
         | scale | puzzles | `difficulty` alone: Spearman | MAE | every feature: Spearman | MAE | penalty |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, path, column) in NUMBERS {
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let file = tmp.join("numbers.tsv");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            if let Some(v) = cols.get(column).and_then(|c| number(c)) {
                writeln!(out, "{}\t{v}", cols[0]).unwrap();
            }
        }
        drop(out);
        let started = std::time::Instant::now();
        let fit = pseudoku::levels::labelled::fit_numbers_file(&file)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let seconds = started.elapsed().as_secs_f64();
        let one = pseudoku::levels::regression::agreement(&fit.one_rating, &fit.labels);
        let all = pseudoku::levels::regression::agreement(&fit.held_out, &fit.labels);
        let _ = writeln!(
            numbers,
            "| {name} | {} | {:.3} | {:.3} | **{:.3}** | **{:.3}** | {} |",
            fit.labels.len(),
            one.spearman,
            one.mae,
            all.spearman,
            all.mae,
            fit.regression.lambda
        );
        println!(
            "{name}: difficulty alone Spearman {:.3} MAE {:.3}; every feature Spearman {:.3} \
             MAE {:.3} ({seconds:.1} s)",
            one.spearman, one.mae, all.spearman, all.mae
        );
    }
    std::fs::remove_dir_all(&tmp).ok();
    let doc = format!(
        "# Levels learned from labelled puzzles: cut points against the model\n\n\
         Written by `cargo run --release --example level_model` (`examples/level_model.rs` \
         says how). Each scale is given to `calibrate --from FILE --labelled` as it would be \
         by a publisher; the figures are the share of puzzles put in their own level by a fit \
         made without them (two halves by class key, both ways). The model is the \
         ordinal or the multinomial regression on {} features of the rating and of a player's \
         path, whichever does better held out ([levels](guide/levels.md)); \
         the cut points are the exact best cuts on `difficulty`. `calibrate` keeps the better.\n\n\
         {table}{report}{numbers}",
        pseudoku::levels::FEATURE_COUNT
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/level-model.md");
    std::fs::write(&path, doc).unwrap();
    println!("wrote {}", path.display());
}
