//! `explain`: a puzzle solved step by step for a player (each step as [`crate::hint`] words
//! it, optionally with the candidate grid before it, or as JSON lines), and, behind
//! `--model`, one rating run written out with the model's internals: every search (also the
//! failed ones), its tier or ladder position, the strategy, p, v, the running d, and the move
//! with its pattern.

use crate::candidates::Effect;
use crate::grid::Puzzle;
use crate::hint::HintError;
use crate::levels::RatingKind;
use crate::rate::hsolve::{RateError, Search};
use std::fmt::Write as _;

/// The steps of [`crate::hint::walkthrough`] as text: the puzzle's grid, one numbered step per
/// line (technique: the move in words), with `grid` the candidate grid before each step, and
/// the techniques used with how often.
pub fn steps_text(puzzle: &Puzzle, grid: bool) -> Result<String, HintError> {
    let walk = crate::hint::walkthrough(puzzle)?;
    let mut out = String::new();
    let _ = writeln!(out, "{puzzle:#}");
    for (i, w) in walk.iter().enumerate() {
        if grid {
            let _ = writeln!(out, "\n{}", crate::hint::candidate_grid(&w.before));
        }
        let _ = writeln!(out, "{:>3}. {}: {}", i + 1, w.hint.kind.name(), w.hint.step);
    }
    let mut used: Vec<(&str, usize)> = Vec::new();
    for w in &walk {
        let name = w.hint.kind.name();
        match used.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => used.push((name, 1)),
        }
    }
    let list: Vec<String> = used.iter().map(|(n, k)| format!("{n} x{k}")).collect();
    let _ = writeln!(out, "solved in {} steps: {}", walk.len(), list.join(", "));
    Ok(out)
}

/// The steps of [`crate::hint::walkthrough`] as JSON lines, one per step, with the keys
/// `step technique nudge hint move placements eliminations` (and, with `grid`, `candidates`:
/// 81 strings, each a filled cell's digit or an empty cell's candidates).
pub fn steps_json(puzzle: &Puzzle, grid: bool) -> Result<String, HintError> {
    let walk = crate::hint::walkthrough(puzzle)?;
    let mut out = String::new();
    for (i, w) in walk.iter().enumerate() {
        let before = grid.then_some(&w.before);
        let _ = writeln!(out, "{}", w.hint.to_step_json(i + 1, before));
    }
    Ok(out)
}

/// One run of `rating`'s model on `puzzle`, as text: the puzzle's grid, a header, one line
/// per search, and the run's total.
pub fn model(puzzle: &Puzzle, rating: RatingKind) -> Result<String, RateError> {
    let (trace, column, value) = match rating {
        RatingKind::Hsolve => {
            let trace = crate::rate::hsolve::explain(puzzle)?;
            let d = trace.last().map_or(0.0, |s| s.d);
            (trace, "tier", d)
        }
        RatingKind::Difficulty => {
            let (trace, value) = crate::rate::difficulty::explain(puzzle)?;
            (trace, "rung", value)
        }
    };
    let mut out = String::new();
    let _ = writeln!(out, "{puzzle:#}");
    let _ = writeln!(
        out,
        "{:>5}  {:>4}  {:<20} {:>10} {:>6} {:>11}  move",
        "step", column, "strategy", "p", "v", "d"
    );
    let mut step = 0;
    for s in &trace {
        let _ = writeln!(out, "{}", search_line(s, &mut step));
    }
    let _ = match rating {
        RatingKind::Hsolve => writeln!(out, "hsolve of this run: {value:.2}"),
        RatingKind::Difficulty => writeln!(
            out,
            "difficulty of this run: {value:.3} (log10 of its checks weighted by rung; the \
             rating is the mean over 10 runs: `pseudoku rate`)"
        ),
    };
    Ok(out)
}

/// One search as a line; `step` counts the moves made so far.
fn search_line(s: &Search, step: &mut u32) -> String {
    let tier = if s.depth > 0 {
        format!("{}.{}", s.tier, s.depth)
    } else {
        s.tier.to_string()
    };
    let (n, strategy, mv) = match &s.applied {
        Some(a) => {
            *step += 1;
            let mut mv = String::new();
            let _ = crate::strategies::write_effect(&mut mv, &a.effect);
            let place = matches!(a.effect, Effect::Place(..));
            let mut pattern = String::new();
            if !a.digits.is_empty() && !place {
                let _ = write!(pattern, "{} in ", a.digits);
            }
            if !place || a.house.is_some() {
                let _ = write!(pattern, "{}", a.cells);
            }
            if let Some(h) = a.house {
                let _ = write!(pattern, " ({h})");
            }
            let mv = if pattern.is_empty() {
                mv
            } else {
                format!("{mv}   [{pattern}]")
            };
            (step.to_string(), a.strategy.name().to_string(), mv)
        }
        None => ("-".to_string(), "(none found)".to_string(), String::new()),
    };
    format!(
        "{n:>5}  {tier:>4}  {strategy:<20} {:>10} {:>6} {:>11.2}  {mv}",
        s.p, s.v, s.d
    )
}
