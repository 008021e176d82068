//! A day's mix (`easy:2,medium:2,hard:1`): its entries (a level, a band, a technique, or a
//! level or band with a technique), their counts, the slots they number, and the mix a date
//! or book recorded.

use super::{ExportError, Result};
use crate::levels::{Band, LevelSet};
use crate::store;
use crate::store::batches::Edition;
use crate::store::retrieval::{Selection, Within};
use crate::technique::Strategy;
use rusqlite::Connection;
use std::str::FromStr;

/// The most puzzles of one mix entry a day.
pub const MAX_PER_DAY: u32 = 100;

/// One entry of a mix: a level, a band, a technique or a level or band with a technique, and
/// how many puzzles of it per day.
#[derive(Clone, Debug, PartialEq)]
pub struct MixItem {
    /// The entry as the mix names it (`easy`, `1/4`, `x-wing`, `hard+x-wing`).
    pub label: String,
    /// The puzzles it draws from.
    pub within: Selection,
    /// Puzzles per day.
    pub count: u32,
}

/// A day's mix, e.g. `easy:2,medium:2,hard:1`, `1/4:2,4/4:1` or `easy:2,hard+x-wing:1` (a
/// technique, alone or after a level or band and `+`, draws the puzzles whose hardest step it
/// is). Slots are numbered from 1 in the order of the mix.
#[derive(Clone, Debug, PartialEq)]
pub struct Mix {
    /// The entries, in order.
    pub items: Vec<MixItem>,
}

impl Mix {
    /// Parses `spec` with the bank's level names.
    pub fn parse(spec: &str, levels: &LevelSet) -> Result<Mix> {
        Mix::parse_up_to(spec, levels, MAX_PER_DAY)
    }

    /// Parses `spec` with counts of 1 to `most` (a book's counts are per book, not per day).
    pub fn parse_up_to(spec: &str, levels: &LevelSet, most: u32) -> Result<Mix> {
        let bad = |m: String| ExportError::Mix(m);
        let mut items = Vec::new();
        for part in spec.split(',') {
            let (label, count) = part.trim().split_once(':').ok_or_else(|| {
                bad(format!(
                    "bad mix entry {part:?}: expected LEVEL:COUNT, e.g. easy:2"
                ))
            })?;
            let label = label.trim().to_lowercase();
            let count: u32 = count
                .trim()
                .parse()
                .ok()
                .filter(|&n| (1..=most).contains(&n))
                .ok_or_else(|| bad(format!("bad count in mix entry {part:?}: 1 to {most}")))?;
            let within = selection(&label, levels).map_err(bad)?;
            if items.iter().any(|i: &MixItem| i.label == label) {
                return Err(bad(format!("{label:?} appears twice in the mix")));
            }
            items.push(MixItem {
                label,
                within,
                count,
            });
        }
        Ok(Mix { items })
    }

    /// The mix as its slots name it, in slot order (`easy:2,hard:1`): what a date or a book
    /// records, and compares a later request with.
    pub fn text(&self) -> String {
        let slots: Vec<(u32, &str)> = self
            .slots()
            .iter()
            .map(|(s, i)| (*s, i.label.as_str()))
            .collect();
        mix_text(&slots)
    }

    /// The slots of a day: (slot number, entry).
    pub fn slots(&self) -> Vec<(u32, &MixItem)> {
        let mut out = Vec::new();
        for item in &self.items {
            for _ in 0..item.count {
                out.push((out.len() as u32 + 1, item));
            }
        }
        out
    }
}

/// The puzzles a mix entry names: a level of the bank, a band `K/M`, a technique of the
/// `difficulty` ladder (when no level has that name), or a level or band and a technique
/// joined by `+`.
fn selection(label: &str, levels: &LevelSet) -> std::result::Result<Selection, String> {
    let range = |part: &str| -> std::result::Result<Option<Within>, String> {
        if part.contains('/') {
            return Band::from_str(part)
                .map(|b| Some(Within::Percentiles(b.range())))
                .map_err(|e| e.to_string());
        }
        Ok(levels.index(part).map(|i| Within::Level(i as u32)))
    };
    let technique = |part: &str| Strategy::from_name(part);
    let unknown = |part: &str| {
        format!(
            "no level {part:?} in this bank{} (its levels: {}), and no technique of that name",
            levels.names().did_you_mean(part),
            levels.names()
        )
    };
    match label.split_once('+') {
        Some((r, t)) => {
            let within = range(r.trim())?.ok_or_else(|| unknown(r.trim()))?;
            let step = technique(t.trim())
                .ok_or_else(|| format!("no technique is called {:?} (in {label:?})", t.trim()))?;
            Ok(Selection {
                within,
                step: Some(step),
                named: None,
            })
        }
        None => match (range(label)?, technique(label)) {
            (Some(within), _) => Ok(within.into()),
            (None, Some(step)) => Ok(Selection {
                within: Within::All,
                step: Some(step),
                named: None,
            }),
            (None, None) => Err(unknown(label)),
        },
    }
}

/// The mix recorded for `edition`, whose current records hold `slots`: the one stored with
/// it, or for one recorded before mixes were, its slots'.
pub(crate) fn recorded_mix<'a>(
    conn: &Connection,
    edition: &Edition,
    slots: impl Iterator<Item = (u32, &'a str)>,
) -> Result<String> {
    Ok(match store::batches::day_mix(conn, edition)? {
        Some(mix) => mix,
        None => mix_text(&slots.collect::<Vec<_>>()),
    })
}

/// A day's slots (in slot order) as a mix that names them in that order: runs of one level
/// counted (`easy:2,hard:1,easy:1`), so that the text parses back to the same slots.
fn mix_text(slots: &[(u32, &str)]) -> String {
    let mut runs: Vec<(&str, u32)> = Vec::new();
    for &(_, l) in slots {
        match runs.last_mut() {
            Some(r) if r.0 == l => r.1 += 1,
            _ => runs.push((l, 1)),
        }
    }
    runs.iter()
        .map(|(l, n)| format!("{l}:{n}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::RatingKind;

    #[test]
    fn a_mix_names_levels_bands_and_techniques() {
        let levels = LevelSet::default_for(RatingKind::Difficulty);
        let mix = Mix::parse(
            "easy:2, hard+x-wing:1, X_Wing:1, 1/4 + hidden pair:1, 4/4:1",
            &levels,
        )
        .unwrap();
        let got: Vec<(&str, Selection, u32)> = mix
            .items
            .iter()
            .map(|i| (i.label.as_str(), i.within, i.count))
            .collect();
        let band = |k| Within::Percentiles(Band::new(k, 4).unwrap().range());
        assert_eq!(
            got,
            vec![
                ("easy", Within::Level(0).into(), 2),
                (
                    "hard+x-wing",
                    Selection {
                        within: Within::Level(2),
                        step: Some(Strategy::XWing),
                        named: None,
                    },
                    1
                ),
                (
                    "x_wing",
                    Selection {
                        within: Within::All,
                        step: Some(Strategy::XWing),
                        named: None,
                    },
                    1
                ),
                (
                    "1/4 + hidden pair",
                    Selection {
                        within: band(1),
                        step: Some(Strategy::HiddenPair),
                        named: None,
                    },
                    1
                ),
                ("4/4", band(4).into(), 1),
            ]
        );
        for (spec, error) in [
            ("hard+x-wung:1", "no technique is called \"x-wung\""),
            ("hrad+x-wing:1", "no level \"hrad\""),
            ("swordfsh:1", "no technique of that name"),
            ("easy:1,easy:2", "appears twice"),
        ] {
            let e = Mix::parse(spec, &levels).unwrap_err().to_string();
            assert!(e.contains(error), "{spec}: {e}");
        }
        // As pages print them.
        for (label, printed) in [
            ("easy", "Easy"),
            ("1/4", "Band 1/4"),
            ("x-wing", "X-wing"),
            ("hard+x-wing", "Hard (x-wing)"),
            ("1/4 + hidden pair", "Band 1/4 (hidden pair)"),
        ] {
            assert_eq!(super::super::pages::level_name(label), printed);
        }
    }
}
