//! Layout rules a publisher sets per level (`build --symmetry --clues --minimal --techniques`):
//! the clue pattern's symmetry, a clue-count range, minimality and a technique floor and
//! ceiling. A job aimed at a level generates with its symmetry (and minimality); a rated puzzle
//! counts for a level only when it keeps every rule of that level ([`Layout::keeps`]).
//!
//! - **Symmetry**: every clue's orbit (under the symmetry) is all clues. The pseudo-generator
//!   reveals whole orbits of unreserved cells; an orbit holding a reserved cell stays empty,
//!   unless the puzzle is not unique without it, in which case such orbits are revealed (in
//!   random order) until it is: the price of a seed's reserved cells under symmetry (the seed's
//!   symmetry is chosen, of 64 drawn, to share orbits between reserved and other cells least).
//!   Revealed orbits bring clues the solver would have deduced, so a seed's symmetric puzzle
//!   then loses orbits of clues while it keeps one solution: symmetric puzzles from seeds are
//!   minimal (by orbits). The standard generator's puzzles get their clues' orbits added (and
//!   stay as they are unless the level is minimal); random minimal puzzles are made by orbits.
//! - **Share** `P%` (with a symmetry): P% of the level's puzzles have the symmetry and the
//!   others do not, as a publisher who prints some levels mostly but not only symmetric. A build
//!   splits the level's quota in two ([`Layout::split`]): one generated symmetric, one without
//!   the symmetry, each filled exactly.
//! - **Minimal**: no orbit of clues (a single clue without symmetry) can be removed keeping one
//!   solution, so none can be removed keeping one solution and the level either.
//! - **Clues** `A..B`: between A and B clues, both included.
//! - **Techniques** `MIN..MAX`: hsolve's technique family of the puzzle (the bank's
//!   `technique` column: singles, pairs, locked-candidates, x-wing-or-xy-wing, beyond-wings;
//!   `trial`, the old name of beyond-wings, is still read) lies between MIN and MAX.
//! - **No assumptions** (`no-assumptions`): the hardest step reads a pattern off the grid (at
//!   most an ALS chain or a death blossom); no step assumes a value (a forcing chain,
//!   backtracking or a trial: [`Strategy::assumes`]). The default `expert` level keeps it, so
//!   that its puzzles are solved by the chains and sets club players use; the `extreme` level
//!   holds the others.
//! - **Clued houses** (`clued-houses`): every row, column and box holds a clue, as printed
//!   puzzles do (an empty box reads as a mistake). A job whose puzzle comes out with an empty
//!   house reveals a cell of it (with its orbit, an unreserved cell where the house has one)
//!   and removes clues only while every house keeps one; under a minimal layout, where an added
//!   clue would break minimality, such puzzles are refused instead.

use crate::generate::Symmetry;
use crate::grid::Puzzle;
use crate::technique::{Strategy, Technique};
use std::fmt;
use std::str::FromStr;

/// One level's layout rules; the default has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The clue pattern's symmetry.
    pub symmetry: Symmetry,
    /// With a symmetry: the percentage of the level's puzzles that have it, the others not
    /// (`None`: all of them; `Some(0)`: none).
    pub share: Option<u8>,
    /// The clue-count range, both ends included.
    pub clues: Option<(u32, u32)>,
    /// No orbit of clues removable keeping one solution.
    pub minimal: bool,
    /// The hardest technique family needed: from, to (both included).
    pub techniques: Option<(Technique, Technique)>,
    /// Every row, column and box holds a clue.
    pub clued_houses: bool,
    /// No step of a solve assumes a value ([`Strategy::assumes`]).
    pub no_assumptions: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            symmetry: Symmetry::None,
            share: None,
            clues: None,
            minimal: false,
            techniques: None,
            clued_houses: false,
            no_assumptions: false,
        }
    }
}

impl Layout {
    /// True when it sets no rule.
    pub fn is_free(&self) -> bool {
        *self == Layout::default()
    }

    /// The symmetry a job generates with: the rule's, unless none (or only a share) of the
    /// puzzles are to have it.
    pub fn generated_symmetry(&self) -> Symmetry {
        match self.share {
            None => self.symmetry,
            Some(_) => Symmetry::None,
        }
    }

    /// The parts a build fills for `n` puzzles of a level with these rules: with a share
    /// strictly between 0 and 100, the share of `n` (rounded) symmetric and the rest without
    /// the symmetry; otherwise `n` with these rules.
    pub fn split(&self, n: u64) -> Vec<(u64, Layout)> {
        match self.share {
            Some(p) if p > 0 && self.symmetry != Symmetry::None => {
                let symmetric = (n * u64::from(p) + 50) / 100;
                vec![
                    (
                        symmetric,
                        Layout {
                            share: None,
                            ..*self
                        },
                    ),
                    (
                        n - symmetric,
                        Layout {
                            share: Some(0),
                            ..*self
                        },
                    ),
                ]
            }
            _ => vec![(n, *self)],
        }
    }

    /// True when a job adds clues to give every house one (and removes clues only while every
    /// house keeps one): the clued-houses rule, outside a minimal layout, where an added clue
    /// would break minimality and such puzzles are refused instead.
    pub fn clues_every_house(&self) -> bool {
        self.clued_houses && !self.minimal
    }

    /// True when `puzzle` (whose hardest technique family is `technique` and hardest step
    /// `hardest`) keeps every rule.
    pub fn keeps(&self, puzzle: &Puzzle, technique: Technique, hardest: Strategy) -> bool {
        if !self.admits(puzzle) {
            return false;
        }
        if self.no_assumptions && hardest.assumes() {
            return false;
        }
        if let Some((lo, hi)) = self.techniques {
            if technique < lo || technique > hi {
                return false;
            }
        }
        !self.minimal || is_minimal(puzzle, self.generated_symmetry())
    }

    /// True when `puzzle` keeps the rules its clues alone decide (the clue range and the
    /// symmetry): a build does not rate a puzzle that no open level's rules admit.
    pub fn admits(&self, puzzle: &Puzzle) -> bool {
        let n = puzzle.clues() as u32;
        if self.clues.is_some_and(|(a, b)| n < a || n > b) {
            return false;
        }
        if self.clued_houses && has_empty_house(puzzle) {
            return false;
        }
        if self.symmetry == Symmetry::None {
            return true;
        }
        let symmetric = self.symmetry.holds_for(puzzle);
        match self.share {
            None => symmetric,
            Some(0) => !symmetric,
            Some(_) => true,
        }
    }
}

/// The layout options a build was given (`build --symmetry --clues ...`). By default each
/// changes its own rule of a level's stored rules and leaves the others as they were, so that
/// `--symmetry none` on the default levels keeps their clue ranges, clued houses and expert's
/// `no-assumptions`; with `replace`, the options given are the level's whole rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutChange {
    /// The clue pattern's symmetry (`none` drops it, and its share).
    pub symmetry: Option<Symmetry>,
    /// With a symmetry: the percentage of the level's puzzles that have it (`Some(None)`: all).
    pub share: Option<Option<u8>>,
    /// The clue-count range.
    pub clues: Option<(u32, u32)>,
    /// Minimal puzzles (only ever turned on by an option).
    pub minimal: bool,
    /// The hardest technique family's range.
    pub techniques: Option<(Technique, Technique)>,
    /// Every house clued (`Some(false)`: empty houses allowed).
    pub clued_houses: Option<bool>,
    /// No step assumes a value (only ever turned on by an option).
    pub no_assumptions: bool,
    /// The options are the whole rules: a rule not given is not kept (except clued houses,
    /// which a layout given has unless empty houses are allowed).
    pub replace: bool,
}

impl LayoutChange {
    /// The rules of a level whose stored rules are `stored` once the options are applied.
    pub fn apply(&self, stored: Layout) -> Layout {
        let base = if self.replace {
            Layout {
                clued_houses: true,
                ..Layout::default()
            }
        } else {
            stored
        };
        let symmetry = self.symmetry.unwrap_or(base.symmetry);
        let share = match (self.share, self.symmetry) {
            (Some(share), _) => share,
            // A symmetry given anew is every puzzle's unless a share comes with it.
            (None, Some(_)) => None,
            (None, None) => base.share,
        };
        Layout {
            symmetry,
            share: share.filter(|_| symmetry != Symmetry::None),
            clues: self.clues.or(base.clues),
            minimal: self.minimal || base.minimal,
            techniques: self.techniques.or(base.techniques),
            clued_houses: self.clued_houses.unwrap_or(base.clued_houses),
            no_assumptions: self.no_assumptions || base.no_assumptions,
        }
    }
}

/// True when no orbit of clues of `puzzle` (which has one solution) can be removed keeping one
/// solution.
pub fn is_minimal(puzzle: &Puzzle, symmetry: Symmetry) -> bool {
    let Some(solution) = crate::solve::solve(puzzle).unique() else {
        return false;
    };
    symmetry.orbits().into_iter().all(|orbit| {
        let clues: Vec<_> = orbit
            .iter()
            .copied()
            .filter(|&c| puzzle.get(c).is_some())
            .collect();
        if clues.is_empty() {
            return true;
        }
        let mut cells = *puzzle.as_bytes();
        for c in &clues {
            cells[c.index()] = 0;
        }
        crate::solve::has_other_solution(&Puzzle::from_bytes_unchecked(cells), &solution, &clues)
    })
}

/// A share of a publisher's puzzles that makes a rule: a symmetry or minimality that at least
/// this share of a level's puzzles has becomes the level's rule.
pub const RULE_SHARE: f64 = 0.9;

/// The share of a level's puzzles with a symmetry below which a profile's rules leave the
/// symmetry out (a few symmetric puzzles are chance, not a style).
pub const SHARE_RULE: f64 = 0.1;

/// The symmetries a profile measures, in the order a rule prefers them on a tie.
const MEASURED: [Symmetry; 4] = [
    Symmetry::Rotate180,
    Symmetry::Rotate90,
    Symmetry::Mirror,
    Symmetry::Diagonal,
];

/// How a publisher lays out one level's puzzles: what `calibrate --labelled` measures and
/// turns into layout rules ([`Profile::rules`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Its puzzles.
    pub puzzles: usize,
    /// Clue counts: the 10th percentile, the median and the 90th percentile.
    pub clues: (u32, u32, u32),
    /// The share of its puzzles whose clue pattern has each symmetry (`rotate180`, `rotate90`,
    /// `mirror`, `diagonal`).
    pub symmetric: [(Symmetry, f64); 4],
    /// The share that is minimal by the orbits of [`Profile::symmetry`] (no orbit of clues
    /// can be removed keeping one solution).
    pub minimal: f64,
    /// The share with an empty row, column or box.
    pub empty_house: f64,
    /// The symmetry at least [`RULE_SHARE`] of them have (the first of rotate180, rotate90,
    /// mirror, diagonal), or none.
    pub symmetry: Symmetry,
}

impl Profile {
    /// The profile of one level's puzzles (each with one solution), on the current rayon pool.
    pub fn of(puzzles: &[Puzzle]) -> Profile {
        use rayon::prelude::*;
        let n = puzzles.len().max(1) as f64;
        let mut clues: Vec<u32> = puzzles.iter().map(|p| p.clues() as u32).collect();
        clues.sort_unstable();
        let at = |q: f64| {
            clues
                .get(((clues.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        let share = |f: &(dyn Fn(&Puzzle) -> bool + Sync)| {
            puzzles.par_iter().filter(|p| f(p)).count() as f64 / n
        };
        let symmetric = MEASURED.map(|s| (s, share(&|p| s.holds_for(p))));
        let symmetry = symmetric
            .iter()
            .find(|(_, x)| *x >= RULE_SHARE)
            .map_or(Symmetry::None, |(s, _)| *s);
        Profile {
            puzzles: puzzles.len(),
            clues: (at(0.1), at(0.5), at(0.9)),
            symmetric,
            minimal: share(&|p| is_minimal(p, symmetry)),
            empty_house: share(&has_empty_house),
            symmetry,
        }
    }

    /// The layout rules that reproduce it: clues from its 10th to its 90th percentile, its
    /// symmetry (below [`RULE_SHARE`], the most common one with its share, when at least
    /// [`SHARE_RULE`] of the puzzles have it), minimal when at least [`RULE_SHARE`] of its
    /// puzzles are, and clued houses when at least [`RULE_SHARE`] of them have no empty house.
    pub fn rules(&self) -> Layout {
        let (symmetry, share) = if self.symmetry != Symmetry::None {
            (self.symmetry, None)
        } else {
            let (s, x) = self
                .symmetric
                .iter()
                .copied()
                .fold((Symmetry::None, 0.0), |best, (s, x)| if x > best.1 { (s, x) } else { best });
            if x >= SHARE_RULE {
                (s, Some((100.0 * x).round() as u8))
            } else {
                (Symmetry::None, None)
            }
        };
        Layout {
            symmetry,
            share,
            clues: Some((self.clues.0, self.clues.2)),
            minimal: self.minimal >= RULE_SHARE,
            techniques: None,
            clued_houses: 1.0 - self.empty_house >= RULE_SHARE,
            no_assumptions: false,
        }
    }
}

/// True when a row, column or box of `p` holds no clue.
pub fn has_empty_house(p: &Puzzle) -> bool {
    crate::generate::empty_houses(p.as_bytes()) != 0
}

/// The profile of each level of labelled puzzles, easiest first, with the level's name (on the
/// current rayon pool).
pub fn profiles(fit: &crate::levels::labelled::LabelledFit) -> Vec<(String, Profile)> {
    let names = fit.set.names().names();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let puzzles: Vec<Puzzle> = fit
                .examples
                .iter()
                .filter(|e| e.level == i)
                .map(|e| e.puzzle)
                .collect();
            (name.clone(), Profile::of(&puzzles))
        })
        .collect()
}

/// The profiles of a publisher's levels beside the rules chosen, as `calibrate --labelled`
/// prints them: one line per level.
pub fn profiles_text(profiles: &[(String, Profile)]) -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "layout\tpuzzles\tclues p10/median/p90\trotate180\trotate90\tmirror\tdiagonal\tminimal\tempty house\trules\n",
    );
    let pct = |x: f64| format!("{:.0}%", 100.0 * x);
    for (name, p) in profiles {
        let _ = writeln!(
            s,
            "{name}\t{}\t{}/{}/{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            p.puzzles,
            p.clues.0,
            p.clues.1,
            p.clues.2,
            pct(p.symmetric[0].1),
            pct(p.symmetric[1].1),
            pct(p.symmetric[2].1),
            pct(p.symmetric[3].1),
            pct(p.minimal),
            pct(p.empty_house),
            p.rules()
        );
    }
    s
}

/// Why a layout rule does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// Not `MIN..MAX`.
    #[error("bad techniques {0:?}: expected MIN..MAX, e.g. pairs..beyond-wings")]
    TechniquesForm(String),
    /// Not a technique family's name.
    #[error(
        "bad technique {name:?} in {range:?}: one of singles, pairs, locked-candidates, \
         x-wing-or-xy-wing, beyond-wings (or trial, its old name)"
    )]
    Technique {
        /// The name as given.
        name: String,
        /// The range as given.
        range: String,
    },
    /// MIN harder than MAX.
    #[error("bad techniques {range:?}: {min} is harder than {max}")]
    TechniquesOrder {
        /// The range as given.
        range: String,
        /// Its first family.
        min: Technique,
        /// Its second.
        max: Technique,
    },
    /// Not `A..B`.
    #[error("bad clue range {0:?}: expected A..B, e.g. 22..30")]
    CluesForm(String),
    /// A bound is not a number.
    #[error("bad clue range {range:?}: {bound:?} is not a number")]
    CluesNumber {
        /// The range as given.
        range: String,
        /// The bound.
        bound: String,
    },
    /// Not 17 <= A <= B <= 81.
    #[error("bad clue range {0:?}: need 17 <= A <= B <= 81")]
    CluesBounds(String),
    /// Not a symmetry's name.
    #[error("unknown symmetry {0:?}: none, rotate180, rotate90, mirror or diagonal")]
    Symmetry(String),
    /// Not a percentage.
    #[error("bad share {0:?}: expected a percentage from 0 to 100, e.g. 60%")]
    Share(String),
    /// A share without a symmetry to share.
    #[error("a share needs a symmetry, in {0:?}: e.g. symmetry=rotate180 share=60%")]
    ShareWithoutSymmetry(String),
    /// Not a rule.
    #[error("bad layout rule {rule:?} in {layout:?}")]
    Rule {
        /// The rule as given.
        rule: String,
        /// The rules as given.
        layout: String,
    },
}

/// Parses `MIN..MAX` technique families, e.g. `pairs..x-wing-or-xy-wing`.
pub fn parse_techniques(s: &str) -> Result<(Technique, Technique), LayoutError> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| LayoutError::TechniquesForm(s.to_string()))?;
    let one = |x: &str| {
        Technique::from_name(x).ok_or_else(|| LayoutError::Technique {
            name: x.to_string(),
            range: s.to_string(),
        })
    };
    let (lo, hi) = (one(a)?, one(b)?);
    if lo > hi {
        return Err(LayoutError::TechniquesOrder {
            range: s.to_string(),
            min: lo,
            max: hi,
        });
    }
    Ok((lo, hi))
}

/// Parses a clue range `A..B` (17 <= A <= B <= 81).
pub fn parse_clues(s: &str) -> Result<(u32, u32), LayoutError> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| LayoutError::CluesForm(s.to_string()))?;
    let num = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| LayoutError::CluesNumber {
                range: s.to_string(),
                bound: x.to_string(),
            })
    };
    let (a, b) = (num(a)?, num(b)?);
    if !(17..=81).contains(&a) || b < a || b > 81 {
        return Err(LayoutError::CluesBounds(s.to_string()));
    }
    Ok((a, b))
}

/// Parses a symmetry name: none, rotate180, rotate90, mirror or diagonal.
pub fn parse_symmetry(s: &str) -> Result<Symmetry, LayoutError> {
    [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ]
    .into_iter()
    .find(|y| y.to_string() == s.trim().to_lowercase())
    .ok_or_else(|| LayoutError::Symmetry(s.to_string()))
}

impl fmt::Display for Layout {
    /// As stored and shown: `symmetry=rotate180 clues=22..30 minimal
    /// techniques=pairs..beyond-wings clued-houses` (only the rules set; `none` for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.symmetry != Symmetry::None {
            parts.push(format!("symmetry={}", self.symmetry));
            if let Some(p) = self.share {
                parts.push(format!("share={p}%"));
            }
        }
        if let Some((a, b)) = self.clues {
            parts.push(format!("clues={a}..{b}"));
        }
        if self.minimal {
            parts.push("minimal".to_string());
        }
        if let Some((a, b)) = self.techniques {
            parts.push(format!("techniques={a}..{b}"));
        }
        if self.clued_houses {
            parts.push("clued-houses".to_string());
        }
        if self.no_assumptions {
            parts.push("no-assumptions".to_string());
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}

impl FromStr for Layout {
    type Err = LayoutError;
    /// What [`Layout`]'s `Display` writes.
    fn from_str(s: &str) -> Result<Layout, LayoutError> {
        let mut l = Layout::default();
        for part in s.split_whitespace() {
            match part.split_once('=') {
                None if part == "none" => {}
                None if part == "minimal" => l.minimal = true,
                None if part == "clued-houses" => l.clued_houses = true,
                None if part == "no-assumptions" => l.no_assumptions = true,
                Some(("symmetry", v)) => l.symmetry = parse_symmetry(v)?,
                Some(("share", v)) => l.share = parse_share(v)?,
                Some(("clues", v)) => l.clues = Some(parse_clues(v)?),
                Some(("techniques", v)) => l.techniques = Some(parse_techniques(v)?),
                _ => {
                    return Err(LayoutError::Rule {
                        rule: part.to_string(),
                        layout: s.to_string(),
                    })
                }
            }
        }
        if l.share.is_some() && l.symmetry == Symmetry::None {
            return Err(LayoutError::ShareWithoutSymmetry(s.to_string()));
        }
        Ok(l)
    }
}

/// Parses a share of symmetric puzzles, `P%` or `P` (0 to 100; 100 is every puzzle, `None`).
pub fn parse_share(s: &str) -> Result<Option<u8>, LayoutError> {
    match s.trim().trim_end_matches('%').parse::<u8>() {
        Ok(100) => Ok(None),
        Ok(p) if p < 100 => Ok(Some(p)),
        _ => Err(LayoutError::Share(s.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_option_changes_its_own_rule_and_keeps_the_others() {
        let expert: Layout = "symmetry=rotate180 clues=24..30 clued-houses no-assumptions"
            .parse()
            .unwrap();
        let change = |f: fn(&mut LayoutChange)| {
            let mut c = LayoutChange::default();
            f(&mut c);
            c.apply(expert).to_string()
        };
        assert_eq!(
            change(|c| c.symmetry = Some(Symmetry::None)),
            "clues=24..30 clued-houses no-assumptions"
        );
        assert_eq!(
            change(|c| c.clues = Some((22, 26))),
            "symmetry=rotate180 clues=22..26 clued-houses no-assumptions"
        );
        assert_eq!(
            change(|c| c.share = Some(Some(60))),
            "symmetry=rotate180 share=60% clues=24..30 clued-houses no-assumptions"
        );
        assert_eq!(
            change(|c| c.clued_houses = Some(false)),
            "symmetry=rotate180 clues=24..30 no-assumptions"
        );
        assert_eq!(
            change(|c| {
                c.minimal = true;
                c.symmetry = Some(Symmetry::Mirror);
            }),
            "symmetry=mirror clues=24..30 minimal clued-houses no-assumptions"
        );
        // A symmetry given anew is every puzzle's, unless a share comes with it.
        let shared: Layout = "symmetry=rotate180 share=40%".parse().unwrap();
        let again = LayoutChange {
            symmetry: Some(Symmetry::Rotate180),
            ..LayoutChange::default()
        };
        assert_eq!(again.apply(shared).to_string(), "symmetry=rotate180");
        // Replacing: the options given, every house clued unless empty houses are allowed.
        assert_eq!(
            change(|c| {
                c.replace = true;
                c.clues = Some((22, 30));
            }),
            "clues=22..30 clued-houses"
        );
        assert_eq!(
            change(|c| {
                c.replace = true;
                c.clued_houses = Some(false);
            }),
            "none"
        );
        // No option changes nothing.
        assert_eq!(LayoutChange::default().apply(expert), expert);
    }

    #[test]
    fn layouts_round_trip_and_check_puzzles() {
        for text in [
            "none",
            "symmetry=rotate180",
            "symmetry=mirror clues=22..30 minimal techniques=pairs..x-wing-or-xy-wing",
            "symmetry=rotate180 share=60% clues=24..30",
            "minimal",
            "clues=32..36 clued-houses",
            "symmetry=rotate180 minimal clued-houses",
            "clues=24..30 clued-houses no-assumptions",
        ] {
            let l: Layout = text.parse().unwrap();
            assert_eq!(l.to_string(), text);
        }
        assert!("clues=10..30".parse::<Layout>().is_err());
        assert!("techniques=beyond-wings..pairs".parse::<Layout>().is_err());
        // `trial`, beyond-wings' old name, still reads (stored layouts, scripts) and is
        // shown by its new name.
        assert!("techniques=trial..pairs".parse::<Layout>().is_err());
        assert_eq!(
            "techniques=pairs..trial".parse::<Layout>().unwrap().to_string(),
            "techniques=pairs..beyond-wings"
        );
        assert!("symmetry=spiral".parse::<Layout>().is_err());
        assert!("share=50%".parse::<Layout>().is_err());
        assert!("symmetry=mirror share=101%".parse::<Layout>().is_err());
        assert_eq!(
            "symmetry=mirror share=100%".parse::<Layout>().unwrap(),
            "symmetry=mirror".parse::<Layout>().unwrap()
        );
        // A share splits a quota into a symmetric part and one without the symmetry.
        let shared: Layout = "symmetry=rotate180 share=60%".parse().unwrap();
        let parts = shared.split(25);
        assert_eq!(parts.len(), 2);
        assert_eq!((parts[0].0, parts[1].0), (15, 10));
        assert_eq!(parts[0].1.generated_symmetry(), Symmetry::Rotate180);
        assert_eq!(parts[1].1.generated_symmetry(), Symmetry::None);
        assert_eq!(parts[1].1.to_string(), "symmetry=rotate180 share=0%");
        assert_eq!(Layout::default().split(7), vec![(7, Layout::default())]);
        // A 180-degree symmetric minimal puzzle, 24 clues, singles.
        let mut rng = crate::rng::Rng::new(5);
        let p = crate::generate::random_minimal(&mut rng, Symmetry::Rotate180);
        assert!(is_minimal(&p, Symmetry::Rotate180));
        let t = crate::rate::metrics::technique(&p);
        let n = p.clues() as u32;
        let l: Layout = format!("symmetry=rotate180 clues={n}..{n} minimal")
            .parse()
            .unwrap();
        assert!(l.keeps(&p, t, Strategy::HiddenSingle));
        let l: Layout = format!("clues={}..81", n + 1).parse().unwrap();
        assert!(!l.keeps(&p, t, Strategy::HiddenSingle));
        // Adding a clue orbit breaks minimality but keeps the symmetry.
        let sol = crate::solve::solve(&p).unique().unwrap();
        let mut cells = *p.as_bytes();
        let empty = crate::grid::Cell::all()
            .find(|&c| p.get(c).is_none())
            .unwrap();
        for c in Symmetry::Rotate180.orbit(empty) {
            cells[c.index()] = sol.get(c).get();
        }
        let q = Puzzle::from_bytes_unchecked(cells);
        assert!(Symmetry::Rotate180.holds_for(&q));
        assert!(!is_minimal(&q, Symmetry::Rotate180));
        // The symmetric part keeps a symmetric puzzle, the other part refuses it.
        assert!(parts[0].1.keeps(&p, t, Strategy::HiddenSingle) && !parts[1].1.keeps(&p, t, Strategy::HiddenSingle));
        assert!(shared.keeps(&p, t, Strategy::HiddenSingle));
        // Clued houses: a puzzle with an empty house is refused before rating, one with a
        // clue in every house is admitted.
        let clued: Layout = "clued-houses".parse().unwrap();
        let mut rng = crate::rng::Rng::new(6);
        let (mut refused, mut admitted) = (0, 0);
        for _ in 0..40 {
            let p = crate::generate::random_minimal(&mut rng, Symmetry::None);
            assert_eq!(clued.admits(&p), !has_empty_house(&p));
            assert!(Layout::default().admits(&p));
            if has_empty_house(&p) {
                refused += 1;
            } else {
                admitted += 1;
            }
        }
        assert!(refused > 0 && admitted > 0, "{refused} {admitted}");
        // No assumptions: a puzzle whose hardest step assumes a value is refused, one solved
        // by patterns alone (up to an ALS chain) is kept.
        let logic: Layout = "no-assumptions".parse().unwrap();
        let p = crate::generate::random_minimal(&mut rng, Symmetry::None);
        for s in Strategy::ALL {
            assert_eq!(logic.keeps(&p, Technique::BeyondWings, s), !s.assumes(), "{s:?}");
            assert!(Layout::default().keeps(&p, Technique::BeyondWings, s));
        }
        let assuming: Vec<Strategy> = Strategy::ALL.into_iter().filter(|s| s.assumes()).collect();
        assert_eq!(
            assuming,
            [
                Strategy::Backtracking,
                Strategy::TrialAndError,
                Strategy::CellForcingChain,
                Strategy::HouseForcingChain,
                Strategy::DigitForcingChain
            ]
        );
    }

    /// What a build refuses before rating ([`Layout::admits`]) no level's rules keep: a puzzle
    /// kept is admitted, and one admitted is kept when the rules read nothing else.
    #[test]
    fn a_puzzle_refused_by_its_clues_is_kept_by_no_rule() {
        let mut rng = crate::rng::Rng::new(21);
        let layouts: Vec<Layout> = [
            "none",
            "symmetry=rotate180",
            "symmetry=mirror clues=24..28",
            "symmetry=rotate180 share=0% clues=22..27",
            "symmetry=diagonal share=40%",
            "clues=25..26 minimal",
            "symmetry=rotate90 techniques=singles..pairs",
        ]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
        let symmetries = [Symmetry::None, Symmetry::Rotate180, Symmetry::Mirror, Symmetry::Diagonal, Symmetry::Rotate90];
        for round in 0..60 {
            let p = crate::generate::random_minimal(&mut rng, symmetries[round % symmetries.len()]);
            let t = crate::rate::metrics::technique(&p);
            for l in &layouts {
                if l.keeps(&p, t, Strategy::HiddenSingle) {
                    assert!(l.admits(&p), "{l} keeps {p} but refuses it");
                }
                if !l.minimal && l.techniques.is_none() {
                    assert_eq!(l.admits(&p), l.keeps(&p, t, Strategy::HiddenSingle), "{l} on {p}");
                }
            }
        }
    }
}
