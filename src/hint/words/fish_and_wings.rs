//! The words of the finned and sashimi fish, the WXYZ-wing and remote pairs. A finned fish is
//! read as its base lines, cover lines and fins, and the two cases (a fin holds the digit or
//! none does); a WXYZ-wing as its pivot, wings and restricted digits; remote pairs as a chain
//! of equal pairs and its two colours.

use super::{
    and_list, cells_words, digits_words, lines_words, unfound_words, with_candidates, Found, Words,
};
use crate::candidates::Candidates;
use crate::cellset::CellSet;
use crate::grid::{Cell, House};
use crate::strategies::{finned_fish, remote_pairs, wxyz_wing, Application, Strategy};

/// The words of `a` (nudge, hint, move) when it is a finned fish, a WXYZ-wing or remote pairs.
pub(super) fn describe(found: Found) -> Option<Words> {
    let (st, a, elim) = (found.st, found.a, found.elim);
    let words = match a.strategy {
        Strategy::FinnedXWing | Strategy::FinnedSwordfish | Strategy::FinnedJellyfish => {
            finned_fish_words(st, a, elim)
        }
        Strategy::WxyzWing => wxyz_words(st, a, elim),
        Strategy::RemotePairs => remote_pairs_words(st, a, elim),
        _ => return None,
    };
    // A pattern that cannot be recomputed still gets its cells and removals named.
    Some(words.unwrap_or_else(|| unfound_words(a, None, elim)))
}

/// Finned fish: the base lines and their places, the fins, and the two cases.
fn finned_fish_words(st: &Candidates, a: &Application, elim: &str) -> Option<Words> {
    let f = finned_fish::pattern(st, a)?;
    let d = f.digit;
    let base = lines_words(f.base, f.by_rows);
    let cover = lines_words(f.cover, !f.by_rows);
    let line_of = |c: Cell| if f.by_rows { c.row() } else { c.col() };
    let per_line: Vec<String> = (0..9u8)
        .filter(|&i| f.base >> i & 1 != 0)
        .map(|i| and_list(f.cells.iter().filter(|&c| line_of(c) == i), "or"))
        .collect();
    let fin_box = House::Box(f.fins.first()?.box_index());
    let fins = cells_words(f.fins, "and");
    let (fin_words, fin_true, fin_false) = if f.fins.len() == 1 {
        (
            format!("the fin {fins}"),
            "if it is".to_string(),
            "If the fin is not",
        )
    } else {
        (
            format!("the fins {fins}"),
            "if one of them is".to_string(),
            "If no fin is",
        )
    };
    let size = match f.size {
        2 => "X-wing",
        3 => "swordfish",
        _ => "jellyfish",
    };
    let kind = if f.sashimi { "sashimi" } else { "finned" };
    let lone = (0..9u8).find(|&i| {
        f.base >> i & 1 != 0
            && f.cells
                .iter()
                .filter(|&c| line_of(c) == i && !f.fins.contains(c))
                .count()
                == 1
    });
    let sashimi = match lone {
        Some(i) if f.sashimi => {
            let line = if f.by_rows {
                House::Row(i)
            } else {
                House::Col(i)
            };
            format!(" ({line} keeps a single place in {cover}: the fish is sashimi)")
        }
        _ => String::new(),
    };
    Some((
        format!("digit {d}, {base}"),
        format!("There is a {kind} {size} on {d}."),
        format!(
            "In {base}, {d} can only go in {cover}, except for {fin_words} in {fin_box}: {d} \
             must be in {}{sashimi}. {fin_false} {d}, {base} form a plain {size}, and {cover} \
             get their {d} in {base}; {fin_true}, {fin_box} has its {d} there. Either way the cells of {cover} inside {fin_box} and outside {base} cannot \
             be {d}: {elim}.",
            per_line.join(" and in ")
        ),
    ))
}

/// WXYZ-wing: the pivot, the wings, the restricted digits and the one that is not.
fn wxyz_words(st: &Candidates, a: &Application, elim: &str) -> Option<Words> {
    let w = wxyz_wing::pattern(st, a)?;
    let z = w.z;
    let cells = w.cells();
    let holders = cells & st.cells_with(z);
    let restricted = and_list(w.digits.iter().filter(|&d| d != z), "and");
    let wings = and_list(w.wings.iter().map(|&c| with_candidates(st, c)), "and");
    Some((
        w.pivot.to_string(),
        format!("There is a WXYZ-wing with its pivot in {}.", w.pivot),
        format!(
            "The pivot {} sees {wings}: four cells holding only {} between them. The cells \
             holding each of {restricted} see each other, so each of these digits is in at \
             most one of the four cells; three digits cannot fill four cells, so one of {} is \
             {z}, and a cell seeing all of them cannot be {z}: {elim}.",
            with_candidates(st, w.pivot),
            digits_words(w.digits, "and"),
            cells_words(holders, "and"),
        ),
    ))
}

/// Remote pairs: a chain of equal pairs to a target, and the two colours.
fn remote_pairs_words(st: &Candidates, a: &Application, elim: &str) -> Option<Words> {
    let g = remote_pairs::pattern(st, a)?;
    let ds = digits_words(g.xy, "and");
    let target = g.targets.first()?;
    let (u, v) = g.ends_for(target)?;
    let chain = g.chain(u, v)?;
    let chain_words = chain
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" - ");
    let others = g.targets - CellSet::single(target);
    let likewise = match others.len() {
        0 => String::new(),
        1 => format!(
            ". The same holds for {}, which also sees both colours",
            cells_words(others, "and")
        ),
        _ => format!(
            ". The same holds for {}, which also see both colours",
            cells_words(others, "and")
        ),
    };
    Some((
        format!("digits {ds}, {}", cells_words(g.cells(), "and")),
        format!("There are remote pairs on {ds}."),
        format!(
            "{} all hold only {ds}, and each sees the next along {chain_words}, so neighbours \
             hold different digits: {} hold one of {ds}, {} the other. {target} sees {u} and \
             {v}, which hold different digits, so it holds neither {}{likewise}: {elim}.",
            cells_words(g.cells(), "and"),
            cells_words(g.colours[0], "and"),
            cells_words(g.colours[1], "and"),
            digits_words(g.xy, "nor"),
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::testing::first_words;
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn a_finned_x_wing_in_words() {
        let mut st = empty();
        confine(&mut st, 5, &[2], &[3, 8]);
        confine(&mut st, 5, &[7], &[3, 8, 9]);
        let (nudge, hint, step) =
            first_words(describe, &st, |st, out| finned_fish::search(st, 2, out));
        assert_eq!(nudge, "digit 5, rows 2 and 7");
        assert!(!step.contains("sashimi"), "{step}");
        assert_eq!(hint, "There is a finned X-wing on 5.");
        assert!(step.contains("the fin r7c9 in box 9"), "{step}");
        assert!(step.contains("r2c3 or r2c8"), "{step}");
        assert!(step.ends_with("5 is not in r8c8 or r9c8."), "{step}");
        // Without r7c3 the fish is sashimi.
        remove(&mut st, 5, &[rc(7, 3)]);
        let (_, hint, step) = first_words(describe, &st, |st, out| finned_fish::search(st, 2, out));
        assert_eq!(hint, "There is a sashimi X-wing on 5.");
        assert!(
            step.contains("(row 7 keeps a single place in columns 3 and 8"),
            "{step}"
        );
    }

    #[test]
    fn a_wxyz_wing_in_words() {
        let st = board("r1c1=1234 r1c2=14 r2c3=24 r1c7=34");
        let (nudge, hint, step) = first_words(describe, &st, wxyz_wing::search);
        assert_eq!(nudge, "r1c1");
        assert!(hint.contains("WXYZ-wing"), "{hint}");
        assert!(
            step.contains("r1c2 (1 or 4), r1c7 (3 or 4) and r2c3 (2 or 4)"),
            "{step}"
        );
        assert!(step.ends_with("4 is not in r1c3."), "{step}");
    }

    #[test]
    fn remote_pairs_in_words() {
        let st = board("r1c1=27 r1c5=27 r5c5=27 r5c9=27");
        let (_, hint, step) = first_words(describe, &st, remote_pairs::search);
        assert_eq!(hint, "There are remote pairs on 2 and 7.");
        assert!(step.contains("r1c1 - r1c5 - r5c5 - r5c9"), "{step}");
        assert!(step.contains("r1c9 sees r1c1 and r5c9"), "{step}");
        assert!(
            step.ends_with("r1c9 is not 2 or 7; r5c1 is not 2 or 7."),
            "{step}"
        );
    }
}
