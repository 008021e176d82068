//! The words of the chains over several digits: AICs and nice loops (each link in turn, as a
//! player reads it: "if r1c2 is not 3, then r1c7 is 3, so ..."), and forcing chains (each case
//! followed by the singles that lead to the conclusion or to a contradiction).

use super::{capitalized, cells_words, digits_words, Found, Words};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit, House};
use crate::strategies::aic::{self, Node, Step};
use crate::strategies::forcing_chain::{self, End, Placed, Reason};
use crate::strategies::{Application, Strategy};
use std::fmt::Write as _;

/// The words of an AIC, a nice loop or a forcing chain; `None` for other strategies.
pub(super) fn describe(found: Found) -> Option<Words> {
    let (st, a, effect, elim) = (found.st, found.a, found.effect, found.elim);
    match a.strategy {
        Strategy::Aic | Strategy::NiceLoop => Some(aic_words(st, a, elim)),
        s if s.is_forcing_chain() => Some(forcing_words(st, a, effect, elim)),
        _ => None,
    }
}

/// "r1c2 is 3", "r1c2 is not 3", "3 is in r1c7 or r1c8", "3 is not in r1c7 or r1c8".
fn node_words(n: Node, on: bool) -> String {
    let d = n.digit;
    match (n.is_candidate(), on) {
        (true, true) => format!("{} is {d}", n.cells),
        (true, false) => format!("{} is not {d}", n.cells),
        (false, true) => format!("{d} is in {}", cells_words(n.cells, "or")),
        (false, false) => format!("{d} is not in {}", cells_words(n.cells, "or")),
    }
}

/// Why a false node `x` makes `y` true: the cell's only other candidate, or the digit's only
/// other place(s) in a house.
fn strong_reason(st: &Candidates, x: Node, y: Node) -> String {
    if x.cells == y.cells {
        return "its only other candidate".to_string();
    }
    let both = x.cells | y.cells;
    let house = (0..27)
        .find(|&h| {
            let hc = CellSet::house_at(h);
            both.is_subset(hc) && st.cells_with(x.digit) & hc == both
        })
        .and_then(House::from_index);
    match (house, y.is_candidate()) {
        (Some(h), true) => format!("the only other place for {} in {h}", y.digit),
        (Some(h), false) => format!("the only other places for {} in {h}", y.digit),
        (None, _) => "a strong link".to_string(),
    }
}

/// An AIC or nice loop, link by link.
fn aic_words(st: &Candidates, a: &Application, elim: &str) -> Words {
    let name = if a.strategy == Strategy::NiceLoop {
        "nice loop"
    } else {
        "alternating inference chain (AIC)"
    };
    let start = a.cells.first().map(|c| c.to_string()).unwrap_or_default();
    let Some(chain) = aic::chain_of(st, a) else {
        return (
            start,
            format!("There is an {name}."),
            format!("A chain of strong and weak links proves: {elim}."),
        );
    };
    let first = chain[0].node;
    let last = chain[chain.len() - 1].node;
    let grouped = chain.iter().any(|s| !s.node.is_candidate());
    let mut text = format!("If {}", node_words(first, false));
    for w in chain.windows(2) {
        let (Step { node: x, .. }, Step { node: y, on }) = (w[0], w[1]);
        if on {
            let _ = write!(
                text,
                ", then {} ({})",
                node_words(y, true),
                strong_reason(st, x, y)
            );
        } else {
            let _ = write!(text, ", so {}", node_words(y, false));
        }
    }
    text.push('.');
    if first == last {
        let _ = write!(
            text,
            " Assuming it false makes it true, so it is true: {}.",
            node_words(first, true)
        );
    } else {
        let _ = write!(
            text,
            " So {} or {}",
            node_words(first, true),
            node_words(last, true)
        );
        if a.strategy == Strategy::NiceLoop {
            text.push_str(" (and they exclude each other: the chain closes into a loop)");
        }
        let _ = write!(text, ", and what is excluded by both goes: {elim}.");
    }
    let hint = format!(
        "There is {}{name} on {}.",
        if grouped {
            "a grouped "
        } else if name.starts_with('a') {
            "an "
        } else {
            "a "
        },
        digits_words(a.digits, "and")
    );
    (format!("{start}, digit {}", first.digit), hint, text)
}

/// The placements of `log` that `target` needs (by the causes of each removal), in order.
struct Causes<'a> {
    st: &'a Candidates,
    log: &'a [Placed],
    /// The candidate removed by the assumption (a branch that assumes a candidate false).
    root_off: Option<(Cell, Digit)>,
}

impl Causes<'_> {
    /// The earliest placement of the log that removes `d` from `c` (a peer given `d`, or `c`
    /// given another digit), by index; `None` when the assumption removed it.
    fn remover(&self, c: Cell, d: Digit, before: usize) -> Option<usize> {
        if self.root_off == Some((c, d)) {
            return None;
        }
        self.log[..before].iter().position(|p| {
            (p.cell == c && p.digit != d) || (p.digit == d && CellSet::peers(c).contains(p.cell))
        })
    }

    /// Marks in `need` the placements placement `i` depends on, recursively.
    fn need(&self, i: usize, need: &mut Vec<bool>) {
        if need[i] {
            return;
        }
        need[i] = true;
        let p = self.log[i];
        match p.reason {
            Reason::Assumed => {}
            Reason::Naked => {
                for e in self.st.candidates(p.cell).iter().filter(|&e| e != p.digit) {
                    if let Some(j) = self.remover(p.cell, e, i) {
                        self.need(j, need);
                    }
                }
            }
            Reason::Hidden(h) => {
                for y in self.st.cells_with(p.digit) & CellSet::house(h) {
                    if y != p.cell {
                        if let Some(j) = self.remover(y, p.digit, i) {
                            self.need(j, need);
                        }
                    }
                }
            }
        }
    }

    /// Marks what removing `d` from `c` needs.
    fn need_off(&self, c: Cell, d: Digit, need: &mut Vec<bool>) {
        if let Some(j) = self.remover(c, d, self.log.len()) {
            self.need(j, need);
        }
    }
}

/// "r4c7 is 3 (the only place for 3 in column 7)".
fn placed_words(p: &Placed) -> String {
    match p.reason {
        Reason::Assumed => format!("{} is {}", p.cell, p.digit),
        Reason::Naked => format!("{} is {} (its only candidate left)", p.cell, p.digit),
        Reason::Hidden(h) => format!(
            "{} is {} (the only place for {} in {h})",
            p.cell, p.digit, p.digit
        ),
    }
}

/// What a branch shows: the singles leading to `target` (a candidate made false), or to the
/// branch's contradiction when it breaks.
fn branch_words(
    st: &Candidates,
    c: Cell,
    d: Digit,
    on: bool,
    waves: u8,
    target: Option<(Cell, Digit)>,
) -> String {
    let (log, end) = forcing_chain::branch_log(st, c, d, on, waves);
    let causes = Causes {
        st,
        log: &log,
        root_off: (!on).then_some((c, d)),
    };
    let mut need = vec![false; log.len()];
    let broken = !matches!(end, End::Stalled);
    let ending = if broken {
        match end {
            End::NoCandidate(x) => {
                for e in st.candidates(x).iter() {
                    causes.need_off(x, e, &mut need);
                }
                format!("{x} has no candidate left")
            }
            End::NoPlace(e, h) => {
                for y in st.cells_with(e) & CellSet::house(h) {
                    causes.need_off(y, e, &mut need);
                }
                format!("{e} has no place left in {h}")
            }
            End::Twice(e, h) => {
                for (i, p) in log.iter().enumerate() {
                    if p.digit == e && CellSet::house(h).contains(p.cell) {
                        causes.need(i, &mut need);
                    }
                }
                format!("{e} would be twice in {h}")
            }
            End::Stalled => unreachable!("broken"),
        }
    } else if let Some((x, e)) = target {
        causes.need_off(x, e, &mut need);
        format!("{x} is not {e}")
    } else {
        String::new()
    };
    let steps: Vec<String> = log
        .iter()
        .zip(&need)
        .filter(|(p, &n)| n && p.reason != Reason::Assumed)
        .map(|(p, _)| placed_words(p))
        .collect();
    let assumption = if on {
        format!("If {c} is {d}")
    } else {
        format!("If {c} is not {d}")
    };
    let mut text = assumption;
    if !steps.is_empty() {
        let _ = write!(text, ", then {}", steps.join(", then "));
    }
    if broken {
        let _ = write!(text, ", and then {ending}: impossible.");
    } else if !ending.is_empty() {
        let _ = write!(text, ", so {ending}.");
    } else {
        text.push('.');
    }
    text
}

/// The first candidate an effect removes, as the conclusion a hint follows in each case.
fn first_removal(effect: &Effect) -> Option<(Cell, Digit)> {
    let Effect::Remove(r) = effect else {
        return None;
    };
    Cell::all().find_map(|c| {
        (0..9)
            .find(|&d| r[d].contains(c))
            .map(|d| (c, Digit::from_index(d)))
    })
}

/// The cases of a cell or house forcing chain after `intro`: the branch of each candidate of
/// `cases` assumed true (see [`branch_words`]), then what they all force, `conclusion`.
fn every_case(
    st: &Candidates,
    intro: String,
    cases: impl Iterator<Item = (Cell, Digit)>,
    waves: u8,
    target: Option<(Cell, Digit)>,
    conclusion: &str,
) -> String {
    let mut text = intro;
    for (c, d) in cases {
        let _ = write!(text, " {}", branch_words(st, c, d, true, waves, target));
    }
    let _ = write!(text, " In every case: {conclusion}.");
    text
}

/// A forcing chain: each case in turn, then what they all force.
fn forcing_words(st: &Candidates, a: &Application, effect: &Effect, elim: &str) -> Words {
    let waves = a.depth.max(1) + 1;
    let target = first_removal(effect);
    let conclusion = match a.effect {
        Effect::Place(c, d) => format!("{c} is {d}"),
        Effect::Remove(_) => elim.to_string(),
    };
    match a.strategy {
        Strategy::DigitForcingChain => {
            let c = a.cells.first().expect("a cell");
            let d = a.digits.first().expect("a digit");
            let on = branch_words(st, c, d, true, waves, target);
            let text = match a.effect {
                Effect::Remove(r)
                    if r[d.index()].contains(c) && first_removal(&a.effect) == Some((c, d)) =>
                {
                    format!("{on} So {c} is not {d}.")
                }
                Effect::Place(..) => {
                    let off = branch_words(st, c, d, false, waves, None);
                    format!("{off} So {c} is {d}.")
                }
                _ => {
                    let off = branch_words(st, c, d, false, waves, target);
                    format!("{on} {off} Either way: {conclusion}.")
                }
            };
            (
                format!("{c}, digit {d}"),
                format!("There is a digit forcing chain from {d} in {c}."),
                text,
            )
        }
        Strategy::CellForcingChain => {
            let c = a.cells.first().expect("a cell");
            let ds = digits_words(a.digits, "or");
            let cases = a.digits.iter().map(|d| (c, d));
            let text = every_case(
                st,
                format!("{c} is {ds}."),
                cases,
                waves,
                target,
                &conclusion,
            );
            (
                format!("{c}"),
                format!("There is a cell forcing chain from {c}."),
                text,
            )
        }
        _ => {
            let d = a.digits.first().expect("a digit");
            let h = a.house.expect("a house");
            let intro = format!("In {h}, {d} goes in {}.", cells_words(a.cells, "or"));
            let cases = a.cells.iter().map(|c| (c, d));
            let text = every_case(st, intro, cases, waves, target, &conclusion);
            (
                format!("{h}, digit {d}"),
                format!("There is a house forcing chain from {d} in {h}."),
                capitalized(&text),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::words_for;
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn an_aic_reads_link_by_link() {
        let st = board("r1c7=13 r1c1=12 r5c1=23");
        let mut out = Vec::new();
        aic::search(&st, &mut out);
        let a = out
            .iter()
            .find(|a| !removed(a, 3).is_empty())
            .expect("an AIC");
        let (_, hint, text) = words_for(describe, &st, a);
        assert!(hint.contains("alternating inference chain"), "{hint}");
        assert!(text.starts_with("If r"), "{text}");
        assert!(text.contains("its only other candidate"), "{text}");
        assert!(text.contains("3 is not in r5c7"), "{text}");
    }

    #[test]
    fn a_contradiction_reads_as_its_singles() {
        let st = state(ROW_ONE_MISSES_8_9);
        let mut out = Vec::new();
        forcing_chain::search(&st, forcing_chain::Start::Digit, &mut out);
        let a = out
            .iter()
            .find(|a| a.cells == CellSet::single(rc(1, 9)) && a.digits.contains(dg(8)))
            .expect("found");
        let (_, _, text) = words_for(describe, &st, a);
        assert!(text.starts_with("If r1c9 is 8"), "{text}");
        assert!(text.contains("impossible"), "{text}");
        assert!(text.ends_with("So r1c9 is not 8."), "{text}");
    }
}
