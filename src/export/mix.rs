//! A day's mix (`easy:2,medium:2,hard:1`): its entries (a level, a band, a technique, or a
//! level or band with a technique), their counts, the slots they number, and the mix a date
//! or book recorded; an export's [`Schedule`] (the same mix every day, or a newspaper's
//! weekday `ramp`).

use super::{ExportError, Result};
use crate::calendar::Date;
use crate::levels::{Band, LevelSet};
use crate::store::batches::Edition;
use crate::store::retrieval::{Selection, Within};
use crate::store::{self, Bank};
use crate::technique::Strategy;
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

/// The mixes of an export's days: the same every day, or one a weekday (a newspaper's
/// week, `ramp`).
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// One mix for every day, or seven (Monday to Sunday).
    days: Vec<Mix>,
}

/// The named mix of a newspaper's week: each day one level, Monday easiest to Sunday hardest.
pub const RAMP: &str = "ramp";

impl Schedule {
    /// Parses `spec`: a mix (`easy:2,hard:1`, every day), or `ramp` / `ramp:N`: N puzzles a
    /// day (1 unless given) of one level, the bank's levels spread over the week from the
    /// easiest on Monday to the hardest on Sunday (with four levels: Monday and Tuesday the
    /// first, Wednesday and Thursday the second, Friday and Saturday the third, Sunday the
    /// fourth).
    pub fn parse(spec: &str, levels: &LevelSet) -> Result<Schedule> {
        let t = spec.trim().to_lowercase();
        let count = match t.split_once(':') {
            Some((name, n)) if name.trim() == RAMP => Some(
                n.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_PER_DAY).contains(n))
                    .ok_or_else(|| {
                        ExportError::Mix(format!(
                            "bad count in {spec:?}: ramp:N with N from 1 to {MAX_PER_DAY}"
                        ))
                    })?,
            ),
            None if t == RAMP => Some(1),
            _ => None,
        };
        let Some(count) = count else {
            return Ok(Schedule {
                days: vec![Mix::parse(spec, levels)?],
            });
        };
        // The levels cut by rating (not `extreme`, which is a kind of puzzle, not a step).
        let rated = levels.len() - usize::from(levels.extreme().is_some());
        if rated == 0 {
            return Err(ExportError::Mix(
                "the bank has no levels to ramp through".into(),
            ));
        }
        let days = (0..7)
            .map(|w| {
                let level = levels.name(w * rated / 7).expect("a rated level");
                Mix::parse(&format!("{level}:{count}"), levels)
            })
            .collect::<Result<Vec<Mix>>>()?;
        Ok(Schedule { days })
    }

    /// The mix of `date`.
    pub fn for_day(&self, date: Date) -> &Mix {
        if self.days.len() == 7 {
            &self.days[usize::from(date.weekday())]
        } else {
            &self.days[0]
        }
    }

    /// The largest day's puzzles.
    pub fn most(&self) -> usize {
        self.days.iter().map(|m| m.slots().len()).max().unwrap_or(0)
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
    conn: &Bank,
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

#[cfg(test)]
mod schedule_tests {
    use super::*;
    use crate::scale::RatingKind;

    #[test]
    fn the_ramp_climbs_the_levels_from_monday_to_sunday() {
        let levels = LevelSet::default_for(RatingKind::Difficulty);
        let week: Vec<Date> = (4..=10)
            .map(|d| format!("2027-01-{d:02}").parse().unwrap())
            .collect();
        assert_eq!(week[0].weekday(), 0, "4 January 2027 is a Monday");
        for (spec, n) in [("ramp", 1), ("Ramp:3", 3)] {
            let s = Schedule::parse(spec, &levels).unwrap();
            let names: Vec<String> = week.iter().map(|&d| s.for_day(d).text()).collect();
            let want: Vec<String> = ["easy", "easy", "medium", "medium", "hard", "hard", "expert"]
                .iter()
                .map(|l| Mix::parse(&format!("{l}:{n}"), &levels).unwrap().text())
                .collect();
            assert_eq!(names, want, "{spec}");
            assert_eq!(s.most(), n);
        }
        // The same mix every day otherwise; a bad ramp count refused.
        let every = Schedule::parse("easy:2,hard:1", &levels).unwrap();
        assert!(week
            .iter()
            .all(|&d| every.for_day(d).text() == every.for_day(week[0]).text()));
        for bad in ["ramp:0", "ramp:x", "ramp:101"] {
            let e = Schedule::parse(bad, &levels).unwrap_err().to_string();
            assert!(e.contains("ramp:N"), "{bad}: {e}");
        }
    }
}
