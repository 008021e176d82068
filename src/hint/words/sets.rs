//! The words of the techniques built on almost locked sets (ALS-XZ, ALS-XY-wing, ALS chain,
//! death blossom) and of Sue de Coq: each set named with its cells, house and digits, then the
//! argument as a player follows it ("if this set has no 5, it holds all its other digits,
//! 3 among them; then ..."), ending with the removals.

use super::{and_list, cells_words, digits_words, hold, removed_digits, Found, Words};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::House;
use crate::strategies::als::Als;
use crate::strategies::Strategy;
use crate::strategies::{als_chain, als_xy_wing, als_xz, death_blossom, sue_de_coq};
use std::fmt::Write as _;

/// The words of an ALS-XZ, ALS-XY-wing, ALS chain, death blossom or Sue de Coq; `None` for
/// other strategies, or when the pattern cannot be found again on `st`.
pub(super) fn describe(found: Found) -> Option<Words> {
    let (st, a, effect, elim) = (found.st, found.a, found.effect, found.elim);
    match a.strategy {
        Strategy::AlsXz => xz_words(&als_xz::pattern(st, a)?, effect, elim),
        Strategy::AlsXyWing => Some(wing_words(&als_xy_wing::pattern(st, a)?, effect, elim)),
        Strategy::AlsChain => Some(chain_words(&als_chain::pattern(st, a)?, elim)),
        Strategy::DeathBlossom => Some(blossom_words(
            st,
            &death_blossom::pattern(st, a)?,
            effect,
            elim,
        )),
        Strategy::SueDeCoq => Some(sdc_words(&sue_de_coq::pattern(st, a)?, elim)),
        _ => None,
    }
}

/// A small count in words ("two" to "nine"; digits beyond).
fn number(n: u32) -> String {
    const WORDS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// The house of a set, as words.
fn house_words(h: u8) -> String {
    House::from_index(usize::from(h)).map_or_else(String::new, |h| h.to_string())
}

/// Where a set is, for the nudge: its cell when it has one, else its house.
fn place(s: &Als) -> String {
    match s.cells.first() {
        Some(c) if s.size() == 1 => c.to_string(),
        _ => house_words(s.house),
    }
}

/// A set in words: "r1c1 (1 or 2)" for one cell, else "r7c1, r7c5 and r7c6 in row 7 (3, 6, 7
/// and 8 in three cells)".
fn set_words(s: &Als) -> String {
    if s.size() == 1 {
        let c = s.cells.first().expect("a cell");
        return format!("{c} ({})", digits_words(s.digits, "or"));
    }
    format!(
        "{} in {} ({} in {} cells)",
        cells_words(s.cells, "and"),
        house_words(s.house),
        digits_words(s.digits, "and"),
        number(s.size())
    )
}

/// The places of several sets for the nudge, without repeats.
fn places(sets: &[&Als]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for s in sets {
        let p = place(s);
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    and_list(seen, "and")
}

/// What an almost locked set is, in a sentence.
const ALS_MEANING: &str =
    "each holds one digit more than it has cells, so if it loses a digit it holds all the others";

/// "So z is in (holders), and a cell seeing every z of (all) cannot be z", for one removed
/// digit or several.
fn conclusion(zs: DigitSet, holders: &str, all: &str, elim: &str) -> String {
    if zs.len() == 1 {
        let z = zs.first().expect("one digit");
        format!(
            "So {z} is in {holders}, and a cell seeing every {z} of {all} cannot be {z}: {elim}."
        )
    } else {
        format!(
            "So each of {} is in {holders}, and a cell seeing every place of one of them in \
             {all} cannot hold it: {elim}.",
            digits_words(zs, "and")
        )
    }
}

/// ALS-XZ: the two sets, the restricted common(s), and the digits they force.
fn xz_words(p: &als_xz::Pattern, effect: &Effect, elim: &str) -> Option<Words> {
    let (a, b) = (&p.a, &p.b);
    let nudge = places(&[a, b]);
    let sets = format!(
        "Two almost locked sets ({ALS_MEANING}): A = {} and B = {}.",
        set_words(a),
        set_words(b)
    );
    if p.rc.len() == 1 {
        let x = p.rc.first()?;
        let zs = removed_digits(effect);
        Some((
            nudge,
            format!(
                "There is an ALS-XZ: two almost locked sets linked by {x}, removing {}.",
                digits_words(zs, "and")
            ),
            format!(
                "{sets} Every {x} of A sees every {x} of B, so at most one of them holds {x}, \
                 and the other holds all its other digits. {}",
                conclusion(zs, "A or B", "both", elim)
            ),
        ))
    } else {
        let rc = digits_words(p.rc, "and");
        let cells = a.size() + b.size();
        Some((
            nudge,
            format!("There is a doubly linked ALS-XZ on {rc}."),
            format!(
                "{sets} Each of {rc} has every place in A seeing every place in B, so each is \
                 in at most one of them. The {} cells need {} digits, \
                 and the two sets hold {} and {} digits of which {rc} count once at most: so \
                 {rc} are each in one of the sets, and every other digit is in its own set. \
                 Cells seeing every place of such a digit lose it: {elim}.",
                number(cells),
                number(cells),
                number(a.digits.len()),
                number(b.digits.len())
            ),
        ))
    }
}

/// ALS-XY-wing: the three sets, the two links, and the digit one of the wings holds.
fn wing_words(p: &als_xy_wing::Pattern, effect: &Effect, elim: &str) -> Words {
    let (x, y) = (p.x, p.y);
    let zs = removed_digits(effect);
    let z = digits_words(zs, "or");
    (
        places(&[&p.a, &p.b, &p.c]),
        format!("There is an ALS-XY-wing: three almost locked sets linked by {x} and {y}."),
        format!(
            "Three almost locked sets ({ALS_MEANING}): A = {}, B = {} and C = {}. Every {x} of \
             A sees every {x} of B, and every {y} of B sees every {y} of C. If A had no {z}, it \
             would hold all its other digits, {x} among them; then B could not hold {x} and \
             would hold {y}; then C could not hold {y} and would hold {z}. {}",
            set_words(&p.a),
            set_words(&p.b),
            set_words(&p.c),
            conclusion(zs, "A or C", "both", elim)
        ),
    )
}

/// ALS chain: the sets in order, each link, and the forcing from the first set to the last.
fn chain_words(p: &als_chain::Pattern, elim: &str) -> Words {
    let n = p.sets.len();
    let z = p.z;
    let names: Vec<String> = (1..=n).map(|i| format!("A{i}")).collect();
    let mut s = format!("Almost locked sets ({ALS_MEANING}): ");
    let list: Vec<String> = p
        .sets
        .iter()
        .zip(&names)
        .map(|(set, name)| format!("{name} = {}", set_words(set)))
        .collect();
    s.push_str(&and_list(list, "and"));
    s.push_str(". Each shares a digit with the next, every place of it in one seeing every place in the other: ");
    let links: Vec<String> = p
        .links
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{r} links {} and {}", names[i], names[i + 1]))
        .collect();
    s.push_str(&and_list(links, "and"));
    let _ = write!(
        s,
        ". If A1 had no {z}, it would hold all its other digits, {} among them",
        p.links[0]
    );
    for (i, name) in names.iter().enumerate().skip(1) {
        let entered = p.links[i - 1];
        // Each set but the last passes the next link on; the last holds z.
        let holds = p.links.get(i).map_or(z, |&r| r);
        let _ = write!(
            s,
            "; then {name} could not hold {entered} and would hold {holds}"
        );
    }
    let _ = write!(
        s,
        ". So {z} is in A1 or {}, and a cell seeing every {z} of both cannot be {z}: {elim}.",
        names[n - 1]
    );
    let (first, last) = (&p.sets[0], &p.sets[n - 1]);
    (
        places(&[first, last]),
        format!(
            "There is an ALS chain of {} almost locked sets on {z}.",
            number(n as u32)
        ),
        s,
    )
}

/// Death blossom: the stem, a petal per candidate, and the digit every petal then holds.
fn blossom_words(
    st: &Candidates,
    p: &death_blossom::Pattern,
    effect: &Effect,
    elim: &str,
) -> Words {
    let stem = p.stem;
    let ds = st.candidates(stem);
    let zs = removed_digits(effect);
    let z = digits_words(zs, "or");
    let petals: Vec<String> = p
        .petals
        .iter()
        .map(|(d, s)| format!("for {d}, {}", set_words(s)))
        .collect();
    let in_stem = !(zs & ds).is_empty();
    let (holders, all) = if in_stem {
        (
            "one of the petals or in the stem itself",
            "the petals and the stem",
        )
    } else {
        ("one of the petals", "every petal")
    };
    (
        format!("{stem}"),
        format!("There is a death blossom with its stem in {stem}."),
        format!(
            "The stem {stem} holds {}. Each of its digits has a petal whose every place of that \
             digit sees the stem: {}; the petals are almost locked sets ({ALS_MEANING}). \
             Whichever digit the stem holds, its petal loses it and holds all its other \
             digits, {z} among them. {}",
            digits_words(ds, "or"),
            and_list(petals, "and"),
            conclusion(zs, holders, all, elim)
        ),
    )
}

/// Sue de Coq: the crossing cells, the cells added from the line and the box, and the count.
fn sdc_words(p: &sue_de_coq::Pattern, elim: &str) -> Words {
    let line = house_words(p.line as u8);
    let bx = house_words(p.bx as u8);
    let total = p.cross.len() + p.line_cells.len() + p.box_cells.len();
    let rest = p.v - p.line_digits - p.box_digits;
    let all: CellSet = p.cross | p.line_cells | p.box_cells;
    let mut once = format!(
        "{} once at most in the {line} cells, {} once at most in the {bx} cells",
        digits_words(p.line_digits, "and"),
        digits_words(p.box_digits, "and")
    );
    if !rest.is_empty() {
        let _ = write!(
            once,
            ", {} once at most in the crossing",
            digits_words(rest, "and")
        );
    }
    (
        format!("{line} and {bx}"),
        format!("There is a Sue de Coq where {line} crosses {bx}."),
        format!(
            "Where {line} crosses {bx}, {} hold {} ({} digits in {} cells). In {line}, {} {} \
             {}; in {bx}, {} {} {}, no digit in both. The {} cells {} hold {} digits between \
             them, and none can be placed twice: {once}. So each is placed exactly once: {} \
             leave the rest of {line}, {} the rest of {bx}{}: {elim}.",
            cells_words(p.cross, "and"),
            digits_words(p.v, "and"),
            number(p.v.len()),
            number(p.cross.len()),
            cells_words(p.line_cells, "and"),
            hold(p.line_cells),
            digits_words(p.line_digits, "and"),
            cells_words(p.box_cells, "and"),
            hold(p.box_cells),
            digits_words(p.box_digits, "and"),
            number(total),
            cells_words(all, "and"),
            number(total),
            digits_words(p.line_digits, "and"),
            digits_words(p.box_digits, "and"),
            if rest.is_empty() {
                String::new()
            } else {
                format!(", and {} both", digits_words(rest, "and"))
            }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::words_for;
    use super::*;
    use crate::strategies::testing::*;

    /// The words of the first application of `strategy` on `st` whose cells are `shape`.
    fn words(strategy: Strategy, st: &Candidates, shape: &str) -> Words {
        let mut out = Vec::new();
        crate::strategies::search(
            strategy,
            st,
            &crate::strategies::Context::default(),
            &mut out,
        );
        let a = *on_cells(&out, shape).first().expect("the test pattern");
        words_for(describe, st, a)
    }

    #[test]
    fn als_xz_words() {
        let st = board("r1c1=12 r1c5=13 r2c5=23");
        let (nudge, hint, step) = words(Strategy::AlsXz, &st, "r1c1 r1c5 r2c5");
        assert!(hint.contains("ALS-XZ"), "{hint}");
        assert!(!nudge.is_empty());
        for name in ["r1c1", "r1c5", "r2c5", "2 is not in r1c4"] {
            assert!(step.contains(name), "{step}");
        }
    }

    #[test]
    fn als_xy_wing_words() {
        let st = board("r1c1=13 r1c5=12 r5c5=23");
        let (_, hint, step) = words(Strategy::AlsXyWing, &st, "r1c1 r1c5 r5c5");
        assert!(hint.contains("ALS-XY-wing"), "{hint}");
        for name in ["A = r1c1", "B = r1c5", "C = r5c5", "3 is not in r5c1"] {
            assert!(step.contains(name), "{step}");
        }
    }

    #[test]
    fn als_chain_words() {
        let st = board("r1c1=12 r1c5=23 r5c5=34 r5c9=14");
        let (_, hint, step) = words(Strategy::AlsChain, &st, "r1c1 r1c5 r5c5 r5c9");
        assert!(hint.contains("four almost locked sets on 1"), "{hint}");
        for name in [
            "A1 = r1c1",
            "A4 = r5c9",
            "then A4 could not hold",
            "1 is not in r1c9",
        ] {
            assert!(step.contains(name), "{step}");
        }
    }

    #[test]
    fn death_blossom_words() {
        let st = board("r1c1=12 r1c5=13 r5c1=23");
        let (nudge, hint, step) = words(Strategy::DeathBlossom, &st, "r1c1 r1c5 r5c1");
        assert_eq!(nudge, "r1c1");
        assert!(hint.contains("death blossom"), "{hint}");
        for name in ["for 1, r1c5", "for 2, r5c1", "3 is not in r5c5"] {
            assert!(step.contains(name), "{step}");
        }
    }

    #[test]
    fn sue_de_coq_words() {
        let st = board("r1c7=12345 r1c8=12345 r1c9=12345 r1c2=12 r3c9=34");
        let (nudge, hint, step) = words(Strategy::SueDeCoq, &st, "r1c7 r1c8 r1c9 r1c2 r3c9");
        assert_eq!(nudge, "row 1 and box 3");
        assert!(hint.contains("Sue de Coq"), "{hint}");
        for name in [
            "r1c7, r1c8 and r1c9",
            "r1c2 holds 1 and 2",
            "r3c9 holds 3 and 4",
            "r1c1 is not",
        ] {
            assert!(step.contains(name), "{step}");
        }
    }
}
