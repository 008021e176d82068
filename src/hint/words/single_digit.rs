//! The words of the single-digit techniques: skyscraper, two-string kite, turbot fish, empty
//! rectangle, X-chain, X-cycle and multi-colouring. Each names the strong links (the only two
//! places of the digit in a house) and the weak links (two places in one house) it uses, and
//! reads the chain as a player follows it.

use super::{
    and_list, capitalized, cells_words, lines_words, removed_cells, unfound_words, Found, Words,
};
use crate::candidates::Candidates;
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit, House};
use crate::strategies::links::{seen_by, shared_house, strong_house};
use crate::strategies::{
    empty_rectangle, multi_colouring, skyscraper, turbot_fish, two_string_kite, x_chain,
    Application, Strategy,
};
use std::fmt::Write as _;

/// The words of `a` (nudge, hint, move) when it is one of the single-digit techniques.
pub(super) fn describe(found: Found) -> Option<Words> {
    let (st, a, effect, elim) = (found.st, found.a, found.effect, found.elim);
    let d = a.digits.first()?;
    let gone = removed_cells(effect, d);
    let words = match a.strategy {
        Strategy::Skyscraper => skyscraper_words(st, a, d, elim),
        Strategy::TwoStringKite => kite_words(st, a, d, elim),
        Strategy::TurbotFish => turbot_fish::pattern(st, a, gone)
            .map(|chain| chain_of_two(st, d, chain, "a turbot fish", elim)),
        Strategy::EmptyRectangle => empty_rectangle_words(st, a, d, elim),
        Strategy::XChain => x_chain_words(st, a, d, elim),
        Strategy::XCycle => x_cycle_words(st, a, d, elim),
        Strategy::MultiColouring => multi_colouring_words(st, a, d, gone, elim),
        _ => return None,
    };
    // A pattern that cannot be recomputed still gets its cells and removals named.
    Some(words.unwrap_or_else(|| unfound_words(a, Some(d), elim)))
}

/// "row 2" for the house where `a` and `b` are the only places of the digit.
fn strong_words(places: CellSet, a: Cell, b: Cell) -> String {
    strong_house(places, a, b).map_or_else(|| "a house".to_string(), |h| h.to_string())
}

/// "column 5" for a house `a` and `b` share.
fn weak_words(a: Cell, b: Cell) -> String {
    shared_house(a, b).map_or_else(|| "a house".to_string(), |h| h.to_string())
}

/// Skyscraper: the two lines, the base and the roof.
fn skyscraper_words(st: &Candidates, a: &Application, d: Digit, elim: &str) -> Option<Words> {
    let (rows, [(b1, r1), (b2, r2)]) = skyscraper::pattern(st, a)?;
    let line = |c: Cell| {
        if rows {
            House::Row(c.row())
        } else {
            House::Col(c.col())
        }
    };
    let mask = if rows {
        1 << b1.row() | 1 << b2.row()
    } else {
        1 << b1.col() | 1 << b2.col()
    };
    let base = if rows {
        House::Col(b1.col())
    } else {
        House::Row(b1.row())
    };
    Some((
        format!("digit {d}, {}", lines_words(mask, rows)),
        format!("There is a skyscraper on {d}."),
        format!(
            "In {}, {d} can only go in {b1} or {r1}, and in {}, only in {b2} or {r2}. {b1} and \
             {b2} are both in {base}, so at most one of them is {d}: one of {r1} and {r2} is \
             {d}, and a cell seeing both cannot be: {elim}.",
            line(b1),
            line(b2),
        ),
    ))
}

/// Two-string kite: the row string, the column string, and the box that ties them.
fn kite_words(st: &Candidates, a: &Application, d: Digit, elim: &str) -> Option<Words> {
    let (rk, rf, ck, cf) = two_string_kite::pattern(st, a)?;
    let (row, col, bx) = (
        House::Row(rk.row()),
        House::Col(ck.col()),
        House::Box(rk.box_index()),
    );
    Some((
        format!("digit {d}, {row} and {col}"),
        format!("There is a two-string kite on {d}."),
        format!(
            "In {row}, {d} can only go in {rk} or {rf}; in {col}, only in {ck} or {cf}. {rk} \
             and {ck} are both in {bx}, so at most one of them is {d}: one of {rf} and {cf} is \
             {d}, and a cell seeing both cannot be: {elim}."
        ),
    ))
}

/// A chain of two strong links `a = b - c = e` (a turbot fish).
fn chain_of_two(
    st: &Candidates,
    d: Digit,
    [a, b, c, e]: [Cell; 4],
    name: &str,
    elim: &str,
) -> Words {
    let places = st.cells_with(d);
    let (h1, h2) = (strong_words(places, a, b), strong_words(places, c, e));
    (
        format!("digit {d}, {h1} and {h2}"),
        format!("There is {name} on {d}."),
        format!(
            "In {h1}, {d} can only go in {a} or {b}; in {h2}, only in {c} or {e}. {b} and {c} \
             are both in {}, so at most one of them is {d}. If {a} is not {d}, {b} is, so {c} \
             is not, so {e} is: one of {a} and {e} is {d}, and a cell seeing both cannot be: \
             {elim}.",
            weak_words(b, c)
        ),
    )
}

/// Empty rectangle: the box's row and column, the strong link, and why the target would
/// empty the box.
fn empty_rectangle_words(st: &Candidates, a: &Application, d: Digit, elim: &str) -> Option<Words> {
    let e = empty_rectangle::pattern(st, a)?;
    let places = st.cells_with(d);
    let bx = House::Box(e.bx);
    let in_box = places & CellSet::house(bx);
    let (row, col) = (House::Row(e.row), House::Col(e.col));
    // The near end stands on the box's row (a column link) or on its column (a row link).
    let (near_line, target_line) = if e.near.row() == e.row {
        (row, col)
    } else {
        (col, row)
    };
    Some((
        format!("digit {d}, {bx}"),
        format!("There is an empty rectangle on {d} in {bx}."),
        format!(
            "In {bx}, {d} can only go in {}, all in {row} or {col}. In {}, {d} can only go in \
             {} or {}. If {} were {d}, {} would not be, so {} would be; then {bx} could hold \
             {d} neither in {near_line} (which {} sees) nor in {target_line} (which {} sees): \
             it would have no place left. So {elim}.",
            cells_words(in_box, "or"),
            strong_words(places, e.near, e.far),
            e.near,
            e.far,
            e.target,
            e.far,
            e.near,
            e.near,
            e.target,
        ),
    ))
}

/// The forcings along a chain of cells whose links alternate, from the first cell holding the
/// digit (`first_holds`) or not: ", then r1c5 is (row 1), so r4c5 is not (column 5), ...",
/// each with the house of its link; in the conditional when `would`.
fn forcings(places: CellSet, cells: &[Cell], first_holds: bool, would: bool) -> String {
    let mut s = String::new();
    let mut holds = first_holds;
    for (i, w) in cells.windows(2).enumerate() {
        holds = !holds;
        let (house, verb) = if holds {
            (
                strong_words(places, w[0], w[1]),
                if would { "would be" } else { "is" },
            )
        } else {
            (
                weak_words(w[0], w[1]),
                if would { "would not be" } else { "is not" },
            )
        };
        let then = if i == 0 { "then" } else { "so" };
        let _ = write!(s, ", {then} {} {verb} ({house})", w[1]);
    }
    s
}

/// X-chain: each chain from the start to an end that adds removals, read as forcings.
fn x_chain_words(st: &Candidates, a: &Application, d: Digit, elim: &str) -> Option<Words> {
    let chains = x_chain::chains(st, a);
    let start = *chains.first()?.first()?;
    let places = st.cells_with(d);
    let mut text = String::new();
    let mut ends = Vec::new();
    for chain in &chains {
        let end = *chain.last()?;
        let forced = forcings(places, chain, false, false);
        let _ = write!(
            text,
            "If {start} is not {d}{forced}: one of {start} and {end} is {d}. "
        );
        ends.push(end);
    }
    let cells = if ends.len() == 1 {
        format!("{start} and {}", ends[0])
    } else {
        format!("{start} and one of {}", and_list(ends.iter(), "or"))
    };
    let _ = write!(text, "A cell seeing both {cells} cannot be {d}: {elim}.");
    Some((
        format!("{start}, digit {d}"),
        format!("There is an X-chain on {d} starting at {start}."),
        text,
    ))
}

/// X-cycle: the loop, and what its kind proves.
fn x_cycle_words(st: &Candidates, a: &Application, d: Digit, elim: &str) -> Option<Words> {
    let (kind, cells) = x_chain::cycle(st, a)?;
    let places = st.cells_with(d);
    let s = *cells.first()?;
    let last = *cells.last()?;
    let hint = format!("There is an X-cycle (a loop of strong and weak links) on {d}.");
    let text = match kind {
        x_chain::Kind::Continuous => {
            let mut round = s.to_string();
            let mut weak = Vec::new();
            // The first link, from the start, is strong; they alternate round to the start.
            for i in 1..=cells.len() {
                let (prev, c) = (cells[i - 1], cells[i % cells.len()]);
                if i % 2 == 1 {
                    let _ = write!(round, " = {c}");
                } else {
                    let _ = write!(round, " - {c}");
                    weak.push(format!("{prev} and {c} in {}", weak_words(prev, c)));
                }
            }
            format!(
                "Going round {round} (= joins the only two places of {d} in a house, - two \
                 places in one house), the links alternate all the way, so either every other \
                 cell holds {d} or the others do. So each weak link holds {d} exactly once \
                 ({}), and the other cells seeing both its cells lose it: {elim}.",
                weak.join("; ")
            )
        }
        x_chain::Kind::Strong => format!(
            "If {s} were not {d}{}, and {s} would be {d} after all ({}): {s} is {d}.",
            forcings(places, &cells, false, true),
            strong_words(places, last, s)
        ),
        x_chain::Kind::Weak => format!(
            "If {s} were {d}{}, but {last} sees {s} ({}), so {s} cannot be {d}: {elim}.",
            forcings(places, &cells, true, true),
            weak_words(last, s)
        ),
    };
    Some((format!("{s}, digit {d}"), hint, text))
}

/// Multi-colouring: the two chains' colours, and the sightings that prove the removals.
fn multi_colouring_words(
    st: &Candidates,
    a: &Application,
    d: Digit,
    gone: CellSet,
    elim: &str,
) -> Option<Words> {
    let [x, y] = multi_colouring::pattern(st, a)?;
    let places = st.cells_with(d);
    let name = |s: CellSet| {
        let cells: Vec<String> = s.iter().map(|c| c.to_string()).collect();
        format!("{{{}}}", cells.join(", "))
    };
    let pair = |p: CellSet, q: CellSet| -> Option<(Cell, Cell)> {
        p.iter()
            .find_map(|u| (q & CellSet::peers(u)).first().map(|v| (u, v)))
    };
    let mut reasons = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for colour in a {
            // A colour seeing both colours of the other chain is false.
            if colour.intersects(gone) {
                if let (Some((u, v)), Some((w, z))) = (pair(colour, b[0]), pair(colour, b[1])) {
                    reasons.push(format!(
                        "as {u} sees {v} and {w} sees {z}, {} holding {d} would leave neither \
                         colour of the other chain holding it: {} is false",
                        name(colour),
                        name(colour)
                    ));
                }
            }
        }
    }
    for i in 0..2 {
        for j in 0..2 {
            let Some((u, v)) = pair(x[i], y[j]) else {
                continue;
            };
            let hit = places & seen_by(x[1 - i]) & seen_by(y[1 - j]);
            if hit.intersects(gone) {
                reasons.push(format!(
                    "as {u} sees {v}, {} and {} are not both true, so one of {} and {} holds \
                     {d}: a cell seeing a cell of each cannot be {d}",
                    name(x[i]),
                    name(y[j]),
                    name(x[1 - i]),
                    name(y[1 - j])
                ));
            }
        }
    }
    let reasons = if reasons.is_empty() {
        "so".to_string()
    } else {
        capitalized(&reasons.join("; "))
    };
    Some((
        format!("digit {d}"),
        format!("Colour two chains of strong links on {d}."),
        format!(
            "Link the places of {d} in houses where it has exactly two, and colour each chain \
             of links alternately: in each chain one colour holds {d} in all its cells, the \
             other in none. One chain has colours {} and {}, another {} and {}. {reasons}. So \
             {elim}.",
            name(x[0]),
            name(x[1]),
            name(y[0]),
            name(y[1])
        ),
    ))
}

#[cfg(test)]
mod tests {
    use crate::candidates::{Candidates, Effect};
    use crate::strategies::testing::{dg, only, rc, run, set};
    use crate::strategies::{
        empty_rectangle, multi_colouring, skyscraper, turbot_fish, two_string_kite, x_chain,
        Application,
    };

    /// The move's words for the first application `search` finds in `st` (or the one
    /// `pick` chooses).
    fn words(
        st: &Candidates,
        search: impl FnOnce(&Candidates, &mut Vec<Application>) -> u64,
        pick: impl Fn(&Application) -> bool,
    ) -> String {
        let (_, out) = run(search, st);
        let a = out.iter().find(|a| pick(a)).expect("an application");
        let h = super::super::describe(st, a, false);
        assert!(!h.nudge.is_empty() && !h.hint.is_empty());
        h.step
    }

    /// Asserts that `text` names every one of `names`.
    fn names(text: &str, names: &str) {
        for n in names.split_whitespace() {
            assert!(text.contains(n), "{n} missing from: {text}");
        }
    }

    #[test]
    fn skyscraper_words() {
        let st = only(1, "r1c6 r5c6 r3c9 r5c9 r1c7 r1c8 r3c4 r3c5");
        let text = words(&st, skyscraper::search, |_| true);
        names(&text, "column 6 column 9 r1c6 r5c6 r3c9 r5c9 row 5");
        assert!(
            text.ends_with("1 is not in r1c7, r1c8, r3c4 or r3c5."),
            "{text}"
        );
    }

    #[test]
    fn kite_words() {
        let st = only(5, "r1c3 r1c7 r3c1 r7c1 r7c7 r7c5 r5c7");
        let text = words(&st, two_string_kite::search, |_| true);
        names(&text, "row 1 column 1 box 1 r1c3 r1c7 r3c1 r7c1");
        assert!(text.ends_with("5 is not in r7c7."), "{text}");
    }

    #[test]
    fn turbot_fish_words() {
        let st = only(8, "r2c6 r7c6 r7c9 r9c8 r2c8 r7c2 r2c2 r5c8 r4c2");
        let text = words(&st, turbot_fish::search, |_| true);
        names(&text, "column 6 box 9 row 7 r2c6 r7c6 r7c9 r9c8");
        assert!(text.ends_with("8 is not in r2c8."), "{text}");
    }

    #[test]
    fn empty_rectangle_words() {
        let st = only(1, "r4c5 r4c6 r5c5 r6c5 r7c5 r7c9 r4c9 r1c9");
        let text = words(&st, empty_rectangle::search, |_| true);
        names(
            &text,
            "box 5 row 4 column 5 row 7 r4c5 r4c6 r5c5 r6c5 r7c5 r7c9",
        );
        assert!(text.ends_with("1 is not in r4c9."), "{text}");
    }

    #[test]
    fn x_chain_words() {
        let st = only(6, "r1c1 r1c5 r4c5 r4c8 r8c8 r8c2 r2c2 r3c2 r7c5");
        let start = rc(1, 1).index();
        let text = words(&st, x_chain::search, |a| a.unit as usize == start);
        names(
            &text,
            "r1c1 r1c5 r4c5 r4c8 r8c8 r8c2 row 1 column 5 row 4 row 8",
        );
        assert!(
            text.starts_with("If r1c1 is not 6, then r1c5 is (row 1), so r4c5 is not"),
            "{text}"
        );
        assert!(text.ends_with("6 is not in r2c2 or r3c2."), "{text}");
    }

    #[test]
    fn x_cycle_words() {
        // Continuous: Jeff's loop on 3.
        let st = only(
            3,
            "r2c1 r9c1 r7c3 r7c8 r5c8 r5c6 r3c6 r2c4 r5c1 r7c5 r5c3 r1c5",
        );
        let lp = set("r2c1 r9c1 r7c3 r7c8 r5c8 r5c6 r3c6 r2c4");
        let text = words(&st, x_chain::search_cycles, |a| a.cells == lp);
        names(
            &text,
            "r2c1 r9c1 r7c3 r7c8 r5c8 r5c6 r3c6 r2c4 box 2 row 5 row 7 column 1",
        );
        assert!(
            text.ends_with("3 is not in r1c5, r5c1, r5c3 or r7c5."),
            "{text}"
        );
        // Two strong links meeting at r8c8.
        let st = only(7, "r8c8 r3c8 r3c1 r1c3 r8c3 r3c5 r6c3");
        let place = Effect::Place(rc(8, 8), dg(7));
        let text = words(&st, x_chain::search_cycles, |a| a.effect == place);
        names(&text, "r8c8 r3c8 r3c1 r1c3 r8c3 column 8 box 1 row 8");
        assert!(
            text.starts_with("If r8c8 were not 7, then r3c8 would be"),
            "{text}"
        );
        assert!(text.ends_with("r8c8 is 7."), "{text}");
        // Two weak links meeting at r2c2, which sees both ends of an X-chain.
        let st = only(6, "r1c1 r1c5 r4c5 r4c8 r8c8 r8c2 r2c2 r3c2 r7c5");
        let at = rc(2, 2).index();
        let text = words(&st, x_chain::search_cycles, |a| a.unit as usize == at);
        names(&text, "r2c2 r1c1 r1c5 r4c5 r4c8 r8c8 r8c2");
        assert!(text.starts_with("If r2c2 were 6, then"), "{text}");
        assert!(text.ends_with("6 is not in r2c2."), "{text}");
    }

    #[test]
    fn multi_colouring_words() {
        let st = only(2, "r1c1 r1c5 r2c2 r7c2 r7c5 r7c8 r4c5 r3c3");
        let text = words(&st, multi_colouring::search, |_| true);
        names(&text, "r1c1 r1c5 r2c2 r7c2");
        assert!(text.contains("r1c1 sees r2c2"), "{text}");
        assert!(text.ends_with("2 is not in r7c5."), "{text}");
    }
}
