//! The techniques a puzzle needs, as plain values that ratings compute, the bank stores and
//! users name: hsolve's technique family (paper 004's grade, [`Technique`], found by
//! [`crate::rate::metrics::technique`]), each solving [`Strategy`] by name (how one is searched for
//! is `crate::strategies`), and the hardest step of the `difficulty` ladder a puzzle needs
//! ([`HardestStep`]: what output shows as a puzzle's technique). It knows nothing of how any of
//! them is found.

use std::fmt;

/// hsolve's technique family: the hardest of the few families paper 004's grade models that a
/// puzzle needs (the paper called its levels easy, medium, hard, insane and computer). Its top
/// family, [`Technique::BeyondWings`], says only that the model stops short, not that the
/// puzzle needs an assumption: the ladder's [`HardestStep`] says what it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// Naked and hidden singles suffice (paper 004: easy).
    Singles,
    /// Naked or hidden pairs are needed (medium).
    Pairs,
    /// Intersection removal (locked candidates) is needed (hard).
    LockedCandidates,
    /// X-wing or XY-wing is needed (insane).
    XWingOrXyWing,
    /// None of those suffice (computer): the puzzle needs a technique past X-wing and XY-wing,
    /// which the ladder's hardest step names (a pattern such as a swordfish or an ALS chain as
    /// often as an assumption). Named `beyond-wings`; `trial` before, still read.
    BeyondWings,
}

impl Technique {
    /// Every family, easiest first.
    pub const ALL: [Technique; 5] = [
        Technique::Singles,
        Technique::Pairs,
        Technique::LockedCandidates,
        Technique::XWingOrXyWing,
        Technique::BeyondWings,
    ];

    /// The name the top family had before it was [`Technique::BeyondWings`], still read.
    pub const OLD_BEYOND_WINGS: &'static str = "trial";

    /// The family of a name ([`Technique::name`]), surrounding spaces ignored; `trial`, the
    /// top family's old name ([`Technique::OLD_BEYOND_WINGS`]), names it still, so that
    /// layouts, scripts and old banks' text rows keep working.
    pub fn from_name(name: &str) -> Option<Technique> {
        let name = name.trim();
        if name == Technique::OLD_BEYOND_WINGS {
            return Some(Technique::BeyondWings);
        }
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The family's name, as `rate` (`hsolve_family`) and `stats` print it (the bank stores
    /// its [`Technique::rank`]).
    pub fn name(self) -> &'static str {
        match self {
            Technique::Singles => "singles",
            Technique::Pairs => "pairs",
            Technique::LockedCandidates => "locked-candidates",
            Technique::XWingOrXyWing => "x-wing-or-xy-wing",
            Technique::BeyondWings => "beyond-wings",
        }
    }

    /// The family of rank `rank` (1 = singles .. 5 = beyond-wings).
    pub fn from_rank(rank: u8) -> Option<Technique> {
        Technique::ALL
            .get(usize::from(rank).checked_sub(1)?)
            .copied()
    }

    /// Its rank, 1 (singles) to 5 (beyond-wings).
    pub fn rank(self) -> u8 {
        self as u8 + 1
    }
}

/// A family serializes as its name ([`Technique::name`]).
impl serde::Serialize for Technique {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The hardest step a puzzle needs: a technique of the `difficulty` ladder and how many times
/// a solve applies it (the runs' mean, rounded, at least 1). The bank stores it, and draws by
/// it (`get --technique`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HardestStep {
    /// The technique.
    pub strategy: Strategy,
    /// How many such steps a solve takes.
    pub count: u16,
}

/// Declares [`Strategy`], [`Strategy::ALL`] and [`Strategy::name`] from one list, so that
/// they cannot disagree.
macro_rules! strategies {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// A solving strategy. The bank stores one as its [`Strategy::code`] (its place in this
        /// list), so the list is append-only: never reorder or remove a variant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Strategy {
            $($(#[$doc])* $variant,)*
        }

        impl Strategy {
            /// Every strategy, by code.
            pub const ALL: [Strategy; Strategy::COUNT] = [$(Strategy::$variant,)*];

            /// The strategy's name in lower case, e.g. `hidden pair`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Strategy::$variant => $name,)*
                }
            }
        }
    };
}

strategies! {
    /// An empty cell with one candidate.
    NakedSingle => "naked single",
    /// A digit with one possible cell in a house.
    HiddenSingle => "hidden single",
    /// Two cells of a house whose candidates are two digits.
    NakedPair => "naked pair",
    /// Two digits whose only places in a house are the same two cells.
    HiddenPair => "hidden pair",
    /// A digit confined to the intersection of a line and a box (pointing or claiming).
    LockedCandidates => "locked candidates",
    /// Three cells of a house whose candidates are three digits.
    NakedTriple => "naked triple",
    /// Three digits confined to three cells of a house.
    HiddenTriple => "hidden triple",
    /// A digit confined to the same two columns in two rows (or the transpose).
    XWing => "x-wing",
    /// Four cells of a house whose candidates are four digits.
    NakedQuad => "naked quad",
    /// Four digits confined to four cells of a house.
    HiddenQuad => "hidden quad",
    /// A digit confined to the same three columns in three rows (or the transpose).
    Swordfish => "swordfish",
    /// A digit confined to the same four columns in four rows (or the transpose).
    Jellyfish => "jellyfish",
    /// A trial value in a two-candidate cell, followed with singles, ends in a contradiction.
    Backtracking => "backtracking",
    /// A trial value in any cell, followed with propagation and nested trials, ends in a
    /// contradiction.
    TrialAndError => "trial and error",
    /// A two-candidate pivot and two pincers (for `metrics::technique` only).
    XyWing => "xy-wing",
    /// A three-candidate pivot and two pincers (no hsolve tier).
    XyzWing => "xyz-wing",
    /// Two equal two-candidate cells joined by a strong link (no hsolve tier).
    WWing => "w-wing",
    /// Unique rectangle, type 1; assumes a unique solution (no hsolve tier).
    UniqueRectangle => "unique rectangle",
    /// Simple colouring of a digit's strong links (no hsolve tier).
    Colouring => "simple colouring",
    /// A chain of two-candidate cells (no hsolve tier).
    XyChain => "xy-chain",
    /// Two strong links of one digit on parallel lines, joined at one end by a shared cross line (no hsolve tier).
    Skyscraper => "skyscraper",
    /// A row and a column strong link of one digit whose ends meet in one box (no hsolve tier).
    TwoStringKite => "two-string kite",
    /// Two strong links of one digit joined by a weak link, one of them in a box (no hsolve tier).
    TurbotFish => "turbot fish",
    /// A box whose places for a digit lie on one row and one column, with a strong link outside it (no hsolve tier).
    EmptyRectangle => "empty rectangle",
    /// An alternating chain of strong and weak links on one digit (no hsolve tier).
    XChain => "x-chain",
    /// A closed alternating chain (nice loop) on one digit (no hsolve tier).
    XCycle => "x-cycle",
    /// Two colour chains of one digit joined by a weak link (no hsolve tier).
    MultiColouring => "multi-colouring",
    /// An X-wing with extra places (a fin) in one box; sashimi when a corner is missing (no hsolve tier).
    FinnedXWing => "finned x-wing",
    /// A swordfish with a fin (no hsolve tier).
    FinnedSwordfish => "finned swordfish",
    /// A jellyfish with a fin (no hsolve tier).
    FinnedJellyfish => "finned jellyfish",
    /// Unique rectangle, type 2: two corners share one extra digit; assumes a unique solution (no hsolve tier).
    UniqueRectangle2 => "unique rectangle type 2",
    /// Unique rectangle, type 3: the extra digits form a subset with other cells; assumes a unique solution (no hsolve tier).
    UniqueRectangle3 => "unique rectangle type 3",
    /// Unique rectangle, type 4: a strong link on one digit of the pair; assumes a unique solution (no hsolve tier).
    UniqueRectangle4 => "unique rectangle type 4",
    /// Unique rectangle, type 5: diagonal corners share one extra digit; assumes a unique solution (no hsolve tier).
    UniqueRectangle5 => "unique rectangle type 5",
    /// Unique rectangle, type 6: X-wing-like strong links on one digit; assumes a unique solution (no hsolve tier).
    UniqueRectangle6 => "unique rectangle type 6",
    /// A rectangle with strong links on one digit of its pair; assumes a unique solution (no hsolve tier).
    HiddenRectangle => "hidden rectangle",
    /// All cells but one have two candidates (binary universal grave plus one); assumes a unique solution (no hsolve tier).
    BugPlusOne => "bug+1",
    /// Four cells holding four digits between them, one digit restricted (no hsolve tier).
    WxyzWing => "wxyz-wing",
    /// A chain of cells with the same two candidates (no hsolve tier).
    RemotePairs => "remote pairs",
    /// An alternating inference chain over candidates and groups (no hsolve tier).
    Aic => "aic",
    /// A closed alternating inference chain (no hsolve tier).
    NiceLoop => "nice loop",
    /// Two almost locked sets joined by a restricted common digit (no hsolve tier).
    AlsXz => "als-xz",
    /// Three almost locked sets joined by two restricted common digits (no hsolve tier).
    AlsXyWing => "als-xy-wing",
    /// A chain of almost locked sets joined by restricted common digits (no hsolve tier).
    AlsChain => "als chain",
    /// A stem cell whose every candidate leads into an almost locked set (no hsolve tier).
    DeathBlossom => "death blossom",
    /// A line-box intersection with two almost locked sets around it (no hsolve tier).
    SueDeCoq => "sue de coq",
    /// Every candidate of one cell forces the same conclusion (no hsolve tier).
    CellForcingChain => "cell forcing chain",
    /// Every place of a digit in a house forces the same conclusion (no hsolve tier).
    HouseForcingChain => "house forcing chain",
    /// Assuming one candidate forces a contradiction, or both of its states force the same conclusion (no hsolve tier).
    DigitForcingChain => "digit forcing chain",
}

impl Strategy {
    /// True when the step assumes a value and follows it (a forcing chain, backtracking or a
    /// trial: the ladder's rungs 9 and up) rather than reading a pattern off the grid. The
    /// default `expert` level has no such puzzle; the `extreme` level holds them.
    pub fn assumes(self) -> bool {
        matches!(
            self,
            Strategy::CellForcingChain
                | Strategy::HouseForcingChain
                | Strategy::DigitForcingChain
                | Strategy::Backtracking
                | Strategy::TrialAndError
        )
    }

    /// How many strategies there are (their `as usize` runs from 0 to this, excluded).
    pub const COUNT: usize = Strategy::DigitForcingChain as usize + 1;

    /// The number the bank stores for it (its place in the enum).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The strategy stored as `code`.
    pub fn from_code(code: u8) -> Option<Strategy> {
        Strategy::ALL.get(usize::from(code)).copied()
    }

    /// The strategy named `name` as [`Strategy::from_name`] reads it, or an error that lists
    /// every name.
    pub fn parse(name: &str) -> Result<Strategy, UnknownTechnique> {
        Strategy::from_name(name).ok_or_else(|| UnknownTechnique(name.to_string()))
    }

    /// The strategy named `name` ([`Strategy::name`]), ignoring case, spaces, hyphens and
    /// underscores (`x-wing`, `XWing`, `x_wing`); `coloring` and `colouring` name simple
    /// colouring, `trial` trial and error.
    pub fn from_name(name: &str) -> Option<Strategy> {
        let squash = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, ' ' | '-' | '_'))
                .flat_map(char::to_lowercase)
                .collect()
        };
        let wanted = squash(name);
        let wanted = match wanted.as_str() {
            "coloring" | "colouring" | "simplecoloring" => "simplecolouring".to_string(),
            "trial" | "trialanderror" => "trialanderror".to_string(),
            _ => wanted,
        };
        Strategy::ALL
            .into_iter()
            .find(|s| squash(s.name()) == wanted)
    }
}

/// A strategy serializes as its name ([`Strategy::name`]).
impl serde::Serialize for Strategy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no technique of the `difficulty` ladder ([`Strategy::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no technique is called {0:?}; the techniques are: {names}", names = Strategy::ALL.map(Strategy::name).join(", "))]
pub struct UnknownTechnique(pub String);
