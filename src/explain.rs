//! `explain`: one rating run of a puzzle written out step by step, as a person would follow
//! it: every search (also the failed ones), its tier or ladder position, the strategy, p, v,
//! the running d, and the move with its pattern.

use crate::candidates::Effect;
use crate::grid::Puzzle;
use crate::hsolve::{RateError, Search};
use crate::levels::RatingKind;
use std::fmt::Write as _;

/// One run of `rating`'s model on `puzzle`, as text: the puzzle's grid, a header, one line
/// per search, and the run's total.
pub fn explain(puzzle: &Puzzle, rating: RatingKind) -> Result<String, RateError> {
    let (trace, column, value) = match rating {
        RatingKind::Hsolve => {
            let trace = crate::hsolve::explain(puzzle)?;
            let d = trace.last().map_or(0.0, |s| s.d);
            (trace, "tier", d)
        }
        RatingKind::Difficulty => {
            let (trace, value) = crate::difficulty::explain(puzzle)?;
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
