//! The hardest technique family a puzzle needs (paper 004's grade): a plain value that ratings
//! compute ([`crate::metrics::technique`]), the bank stores by rank and layouts name. It knows
//! nothing of how the family is found.

use std::fmt;

/// The hardest technique family a puzzle needs (paper 004's grade, whose levels it called
/// easy, medium, hard, insane and computer).
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
    /// None of those suffice: trial and error (computer).
    Trial,
}

impl Technique {
    /// Every family, easiest first.
    pub const ALL: [Technique; 5] = [
        Technique::Singles,
        Technique::Pairs,
        Technique::LockedCandidates,
        Technique::XWingOrXyWing,
        Technique::Trial,
    ];

    /// The family of a stored name ([`Technique::name`]), surrounding spaces ignored.
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name.trim())
    }

    /// The family's name, as `rate` prints it (the bank stores its [`Technique::rank`]).
    pub fn name(self) -> &'static str {
        match self {
            Technique::Singles => "singles",
            Technique::Pairs => "pairs",
            Technique::LockedCandidates => "locked-candidates",
            Technique::XWingOrXyWing => "x-wing-or-xy-wing",
            Technique::Trial => "trial",
        }
    }

    /// The family of rank `rank` (1 = singles .. 5 = trial).
    pub fn from_rank(rank: u8) -> Option<Technique> {
        Technique::ALL
            .get(usize::from(rank).checked_sub(1)?)
            .copied()
    }

    /// Its rank, 1 (singles) to 5 (trial).
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

