//! The human solving strategies of the hsolve paper's Appendix A (and the project's tier 6),
//! one file per strategy, grouped into difficulty tiers.
//!
//! Every strategy has the same shape: [`search`] takes a candidate state, pushes **every valid
//! application** (one that places a digit or removes at least one candidate) and returns the
//! number **p of possible applications**, the configurations a person checks, counted exactly
//! as Appendix A counts them. The hsolve model charges E(p, v) = (p + 1) / (v + 1) checks to
//! find one of the v valid applications among the p possible ones.
//!
//! | tier | strategies |
//! |---|---|
//! | 0 | naked single, hidden single |
//! | 1 | naked pair, hidden pair, locked candidates |
//! | 2 | naked triple, hidden triple, X-wing |
//! | 3 | naked quad, hidden quad, swordfish |
//! | 4 | jellyfish |
//! | 5 | backtracking on a two-candidate cell with tier-0 propagation |
//! | 6 | trial and error on any candidate, nested as deep as needed (beyond the paper) |
//!
//! XY-wing belongs to no tier: it is used by the technique families of paper 004 (`metrics::technique`). XYZ-wing,
//! W-wing, the unique rectangle (type 1, which assumes a unique solution), simple colouring and
//! XY-chains belong to no hsolve tier either: they are here for the rating beyond the paper.
//!
//! Beyond them, HoDoKu's standard set up to forcing chains, for the next model of that rating:
//! the single-digit patterns (skyscraper, two-string kite, turbot fish, empty rectangle,
//! X-chains and X-cycles, multi-colouring), finned and sashimi fish, unique rectangles of types
//! 2-6, the hidden rectangle and BUG+1 (which assume a unique solution), the WXYZ-wing, remote
//! pairs, alternating inference chains and nice loops with grouped nodes, the almost locked set
//! techniques (ALS-XZ, ALS-XY-wing, ALS chains, death blossom, Sue de Coq) and forcing chains
//! (digit, cell and house). Every one is checked for soundness on hard states by `soundness`.

use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, House};
use std::fmt;

pub mod aic;
pub mod als;
pub mod als_chain;
pub mod als_xy_wing;
pub mod als_xz;
pub mod backtracking;
pub mod bug;
pub mod colouring;
pub mod death_blossom;
pub mod empty_rectangle;
pub mod finned_fish;
pub mod fish;
pub mod forcing_chain;
pub mod hidden_rectangle;
pub mod hidden_single;
pub mod hidden_subset;
#[cfg(test)]
mod library;
pub(crate) mod links;
pub mod locked_candidates;
pub mod multi_colouring;
pub mod naked_single;
pub mod naked_subset;
pub mod remote_pairs;
pub mod skyscraper;
#[cfg(feature = "dev")]
pub mod states;
#[cfg(test)]
pub(crate) mod soundness;
pub mod sue_de_coq;
pub mod tiers;
pub mod trial;
pub mod turbot_fish;
pub mod two_string_kite;
pub mod unique_rectangle;
pub mod w_wing;
pub mod wxyz_wing;
pub mod x_chain;
pub mod xy_chain;
pub mod xy_wing;
pub mod xyz_wing;

pub use crate::technique::Strategy;

/// What a strategy is to the hsolve model: its tier.
impl Strategy {
    /// The strategies of tiers 0 to 6, in tier order.
    pub const TIERS: [&'static [Strategy]; 7] = [
        &[Strategy::NakedSingle, Strategy::HiddenSingle],
        &[
            Strategy::NakedPair,
            Strategy::HiddenPair,
            Strategy::LockedCandidates,
        ],
        &[
            Strategy::NakedTriple,
            Strategy::HiddenTriple,
            Strategy::XWing,
        ],
        &[
            Strategy::NakedQuad,
            Strategy::HiddenQuad,
            Strategy::Swordfish,
        ],
        &[Strategy::Jellyfish],
        &[Strategy::Backtracking],
        &[Strategy::TrialAndError],
    ];

    /// The highest tier.
    pub const MAX_TIER: u8 = 6;

    /// Naked subsets by size: pair, triple, quad.
    pub const NAKED_SUBSETS: [Strategy; 3] = [
        Strategy::NakedPair,
        Strategy::NakedTriple,
        Strategy::NakedQuad,
    ];

    /// Hidden subsets by size: pair, triple, quad.
    pub const HIDDEN_SUBSETS: [Strategy; 3] = [
        Strategy::HiddenPair,
        Strategy::HiddenTriple,
        Strategy::HiddenQuad,
    ];

    /// Fish by size: X-wing, swordfish, jellyfish.
    pub const FISH: [Strategy; 3] = [Strategy::XWing, Strategy::Swordfish, Strategy::Jellyfish];

    /// The forcing chains: digit, cell and house.
    pub const FORCING_CHAINS: [Strategy; 3] = [
        Strategy::DigitForcingChain,
        Strategy::CellForcingChain,
        Strategy::HouseForcingChain,
    ];

    /// True for the forcing chains, whose applications carry their length in waves
    /// (an application's `depth`).
    pub fn is_forcing_chain(self) -> bool {
        Strategy::FORCING_CHAINS.contains(&self)
    }

    /// The strategy's tier, or `None` for XY-wing, which is in no tier.
    pub fn tier(self) -> Option<u8> {
        Strategy::TIERS
            .iter()
            .position(|t| t.contains(&self))
            .map(|t| t as u8)
    }
}

/// What the searches may assume about the puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Context {
    /// The puzzle's solution, when it is known to be the only one. Then a backtracking trial
    /// that completes the grid proves its value (the paper's rule), and trials skip the
    /// candidates of the solution, which can never end in a contradiction. Without it only
    /// contradictions count, which keeps every deduction sound on puzzles with several
    /// solutions.
    pub solution: Option<crate::grid::Grid>,
}

impl Context {
    /// True when the candidate `d` in `c` is known to be part of the only solution.
    #[inline]
    pub fn is_solution(&self, c: Cell, d: Digit) -> bool {
        self.solution.is_some_and(|g| g.get(c) == d)
    }
}

/// What earlier trials on the same solving path proved. Each fact stays true in every later
/// state of the path, because later states only have fewer candidates and propagation is
/// monotone: a trial that ended in a contradiction still does, and a trial that completed the
/// grid with singles still does. Searches use it to skip trials whose outcome is known; their
/// results do not depend on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// Per digit (index 0-8), the cells where assuming it, followed with singles, ends in a
    /// contradiction.
    pub singles_contradict: [CellSet; 9],
    /// Per digit, the cells where assuming it, followed with singles, fills the grid.
    pub singles_solve: [CellSet; 9],
    /// Per digit, the cells where assuming it, followed with the trial-and-error propagation,
    /// ends in a contradiction (a superset of `singles_contradict`: that propagation includes
    /// singles).
    pub propagation_contradicts: [CellSet; 9],
}

impl Known {
    /// Learns what a valid application of backtracking or trial and error proved.
    pub fn learn(&mut self, a: &Application) {
        let (Some(c), Some(d)) = (a.cells.first(), a.digits.first()) else {
            return;
        };
        match (a.strategy, a.effect) {
            (Strategy::Backtracking, Effect::Place(_, placed)) if placed == d => {
                self.singles_solve[d.index()].insert(c);
            }
            (Strategy::Backtracking, _) => {
                self.singles_contradict[d.index()].insert(c);
                self.propagation_contradicts[d.index()].insert(c);
            }
            (Strategy::TrialAndError, _) if a.depth == 1 => {
                self.propagation_contradicts[d.index()].insert(c);
            }
            _ => {}
        }
    }
}

/// One valid application of a strategy: the pattern found and what it deduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Application {
    /// The strategy.
    pub strategy: Strategy,
    /// The cells that form the pattern (the base cells; for fish, the base-line cells).
    pub cells: CellSet,
    /// The digits of the pattern.
    pub digits: DigitSet,
    /// The house the pattern lives in, for house-based strategies.
    pub house: Option<House>,
    /// For trial and error, the nesting depth of the trial (1 = a single trial); for forcing
    /// chains, the chain's length in waves of singles; else 0.
    pub depth: u8,
    /// The unit the search found it in: the house (0-26) for subsets, the digit index (0-8)
    /// for fish, the line-box intersection (0-53) for locked candidates, the cell (0-80)
    /// otherwise. Searches list applications by strategy, then unit.
    pub unit: u8,
    /// The deduction.
    pub effect: Effect,
}

impl Application {
    /// An application of `strategy` found in `unit` (see [`Application::unit`]), in no house
    /// and outside any trial; [`Application::in_house`] and [`Application::at_depth`] set those.
    #[inline]
    pub fn new(
        strategy: Strategy,
        cells: CellSet,
        digits: DigitSet,
        unit: usize,
        effect: Effect,
    ) -> Application {
        Application {
            strategy,
            cells,
            digits,
            house: None,
            depth: 0,
            unit: unit as u8,
            effect,
        }
    }

    /// An application about one digit `d` in one cell `c` (singles and trials), found in the
    /// unit of that cell.
    #[inline]
    pub fn at_cell(strategy: Strategy, c: Cell, d: Digit, effect: Effect) -> Application {
        Application::new(
            strategy,
            CellSet::single(c),
            DigitSet::single(d),
            c.index(),
            effect,
        )
    }

    /// An application of `strategy` about the one digit `d` (fish, colouring), found in the
    /// unit of that digit.
    #[inline]
    pub fn of_digit(strategy: Strategy, d: Digit, cells: CellSet, effect: Effect) -> Application {
        Application::new(strategy, cells, DigitSet::single(d), d.index(), effect)
    }

    /// An application of `strategy` found in house number `h` (0-26), which is also its unit.
    #[inline]
    pub fn of_house(
        strategy: Strategy,
        h: usize,
        cells: CellSet,
        digits: DigitSet,
        effect: Effect,
    ) -> Application {
        Application::new(strategy, cells, digits, h, effect).in_house(House::from_index(h))
    }

    /// The same application, found in `house`.
    #[inline]
    pub fn in_house(self, house: Option<House>) -> Application {
        Application { house, ..self }
    }

    /// The same application, made by a trial nested `depth` deep.
    #[inline]
    pub fn at_depth(self, depth: u8) -> Application {
        Application { depth, ..self }
    }
}

impl fmt::Display for Application {
    /// For example `naked pair 27 in r1c2 r1c5 (row 1) => r1c7-2 r1c8-27`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.strategy)?;
        if self.strategy.is_forcing_chain() {
            write!(f, " (length {})", self.depth)?;
        } else if self.depth > 1 {
            write!(f, " (depth {})", self.depth)?;
        }
        if !self.digits.is_empty() {
            write!(f, " {}", self.digits)?;
        }
        if !self.cells.is_empty() {
            write!(f, " in {}", self.cells)?;
        }
        if let Some(h) = self.house {
            write!(f, " ({h})")?;
        }
        f.write_str(" => ")?;
        write_effect(f, &self.effect)
    }
}

/// Writes an effect as `r3c4=7` or `r1c7-2 r1c8-27` (cell minus the removed digits).
pub fn write_effect(f: &mut impl fmt::Write, effect: &Effect) -> fmt::Result {
    match effect {
        Effect::Place(c, d) => write!(f, "{c}={d}"),
        Effect::Remove(r) => {
            let mut cells = CellSet::EMPTY;
            for s in r {
                cells |= *s;
            }
            for (i, c) in cells.iter().enumerate() {
                let ds: DigitSet = (0..9)
                    .filter(|&d| r[d].contains(c))
                    .map(Digit::from_index)
                    .collect();
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}-{ds}")?;
            }
            Ok(())
        }
    }
}

/// The units a search enumerates applications in; p always counts every unit. Searching only
/// the units a change touched, and keeping the applications of the others, gives exactly the
/// applications a full search would find (see `hsolve`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Units {
    /// Houses 0-26, for naked and hidden subsets.
    pub houses: u32,
    /// Digit indexes 0-8, for fish.
    pub digits: u16,
    /// Line-box intersections 0-53, for locked candidates.
    pub intersections: u64,
}

impl Units {
    /// Every unit.
    pub const ALL: Units = Units {
        houses: ALL_HOUSES,
        digits: 0x1FF,
        intersections: (1 << 54) - 1,
    };

    /// The units whose applications may differ between the states with candidate masks `a`
    /// and `b` (a state reached from `a` by removing candidates): those that contain a cell
    /// whose candidates changed.
    pub fn changed(a: &[u16; 81], b: &[u16; 81]) -> Units {
        // Branch-free over the cells, in two words, so that the loops vectorize.
        let (mut lo, mut hi, mut digits) = (0u64, 0u64, 0u16);
        for i in 0..64 {
            let x = a[i] ^ b[i];
            digits |= x;
            lo |= u64::from(x != 0) << i;
        }
        for i in 64..81 {
            let x = a[i] ^ b[i];
            digits |= x;
            hi |= u64::from(x != 0) << (i - 64);
        }
        let cells = CellSet::from_bits(u128::from(lo) | u128::from(hi) << 64);
        let mut units = Units {
            houses: 0,
            digits,
            intersections: 0,
        };
        for h in 0..27 {
            if cells.intersects(CellSet::house_at(h)) {
                units.houses |= 1 << h;
            }
        }
        for (i, reach) in locked_candidates::REACH.iter().enumerate() {
            if reach.intersects(cells) {
                units.intersections |= 1 << i;
            }
        }
        units
    }

    /// True when `unit` of `strategy` is one of these units.
    pub fn contains(&self, strategy: Strategy, unit: u8) -> bool {
        match strategy {
            Strategy::NakedPair
            | Strategy::NakedTriple
            | Strategy::NakedQuad
            | Strategy::HiddenPair
            | Strategy::HiddenTriple
            | Strategy::HiddenQuad => self.houses >> unit & 1 != 0,
            Strategy::XWing | Strategy::Swordfish | Strategy::Jellyfish => {
                self.digits >> unit & 1 != 0
            }
            Strategy::LockedCandidates => self.intersections >> unit & 1 != 0,
            _ => true,
        }
    }
}

/// Searches `strategies` (subsets, fish and locked candidates) in the given units only;
/// returns the summed p over all units.
pub(crate) fn search_in(
    strategies: &[Strategy],
    state: &Candidates,
    units: &Units,
    out: &mut Vec<Application>,
) -> u64 {
    strategies
        .iter()
        .map(|&s| match s {
            Strategy::NakedPair => naked_subset::search_in(state, 2, units.houses, out),
            Strategy::NakedTriple => naked_subset::search_in(state, 3, units.houses, out),
            Strategy::NakedQuad => naked_subset::search_in(state, 4, units.houses, out),
            Strategy::HiddenPair => hidden_subset::search_in(state, 2, units.houses, out),
            Strategy::HiddenTriple => hidden_subset::search_in(state, 3, units.houses, out),
            Strategy::HiddenQuad => hidden_subset::search_in(state, 4, units.houses, out),
            Strategy::LockedCandidates => {
                locked_candidates::search_in(state, units.intersections, out)
            }
            Strategy::XWing => fish::search_in(state, 2, units.digits, out),
            Strategy::Swordfish => fish::search_in(state, 3, units.digits, out),
            Strategy::Jellyfish => fish::search_in(state, 4, units.digits, out),
            other => panic!("{other} is not searched by units"),
        })
        .sum()
}

/// Pushes the valid applications of `strategies` (subsets, fish and locked candidates) in the
/// given units only, like [`search_in`] but without counting p, which lets it skip the houses
/// that cannot hold a subset of the size searched (`houses`, made from `state`).
pub(crate) fn apps_in(
    strategies: &[Strategy],
    state: &Candidates,
    houses: &SubsetHouses,
    units: &Units,
    out: &mut Vec<Application>,
) {
    for &s in strategies {
        let only = |houses: u32| Units { houses, ..*units };
        match s {
            Strategy::NakedPair | Strategy::NakedTriple | Strategy::NakedQuad => {
                let k = subset_size(s);
                search_in(&[s], state, &only(units.houses & houses.naked(k)), out);
            }
            Strategy::HiddenPair | Strategy::HiddenTriple | Strategy::HiddenQuad => {
                let k = subset_size(s);
                search_in(&[s], state, &only(units.houses & houses.hidden(k)), out);
            }
            Strategy::XWing => fish::apps_in(state, 2, units.digits, out),
            Strategy::Swordfish => fish::apps_in(state, 3, units.digits, out),
            Strategy::Jellyfish => fish::apps_in(state, 4, units.digits, out),
            other => {
                search_in(&[other], state, units, out);
            }
        }
    }
}

/// The size of a naked or hidden subset strategy.
fn subset_size(s: Strategy) -> u32 {
    match s {
        Strategy::NakedPair | Strategy::HiddenPair => 2,
        Strategy::NakedTriple | Strategy::HiddenTriple => 3,
        _ => 4,
    }
}

/// Which houses can hold a naked or hidden subset of each size: a necessary condition read
/// from the number of candidates of each cell, so that a search can skip the other houses.
///
/// A naked k-subset is k cells of at most k candidates each. A hidden k-subset in a house
/// with n empty cells leaves the other n - k cells with only the n - k other digits the house
/// lacks: n - k cells of at most n - k candidates each.
pub(crate) struct SubsetHouses {
    /// The empty cells of each house.
    empty: [u32; 27],
    /// `at_most[m]`: the empty cells with at most m candidates (m = 0-8).
    at_most: [CellSet; 9],
}

impl SubsetHouses {
    /// What the candidates of `st` allow.
    pub(crate) fn new(st: &Candidates) -> SubsetHouses {
        // at_least[j]: the cells with at least j + 1 candidates, counted over the digits'
        // places like a column of bit counters.
        let mut at_least = [CellSet::EMPTY; 9];
        for d in crate::grid::Digit::all() {
            let s = st.cells_with(d);
            for j in (1..9).rev() {
                at_least[j] |= at_least[j - 1] & s;
            }
            at_least[0] |= s;
        }
        let empty = st.empty();
        let mut at_most = [CellSet::EMPTY; 9];
        for (m, set) in at_most.iter_mut().enumerate() {
            *set = empty - at_least[m];
        }
        SubsetHouses {
            empty: std::array::from_fn(|h| (empty & CellSet::house_at(h)).len()),
            at_most,
        }
    }

    /// The houses (bit h = house h) with k cells of at most k candidates.
    fn naked(&self, k: u32) -> u32 {
        let small = self.at_most[k as usize];
        (0..27)
            .filter(|&h| (small & CellSet::house_at(h)).len() >= k)
            .fold(0, |m, h| m | 1 << h)
    }

    /// The houses (bit h = house h) with n empty cells, more than k, of which n - k have at
    /// most n - k candidates.
    fn hidden(&self, k: u32) -> u32 {
        (0..27)
            .filter(|&h| {
                let n = self.empty[h];
                n > k && (self.at_most[(n - k) as usize] & CellSet::house_at(h)).len() >= n - k
            })
            .fold(0, |m, h| m | 1 << h)
    }
}

/// Searches `state` for `strategy`: pushes every valid application onto `out` and returns the
/// number p of possible applications. Trial and error searches at depth 1 (see
/// [`trial::search`] for deeper levels).
pub fn search(
    strategy: Strategy,
    state: &Candidates,
    ctx: &Context,
    out: &mut Vec<Application>,
) -> u64 {
    search_with(strategy, state, ctx, &mut Caches::default(), out)
}

/// [`search`], keeping in `caches` what the next searches can reuse: a caller that searches
/// many states of one puzzle (a rating) owns one [`Caches`] for all of them. The result is
/// [`search`]'s, whatever the caches hold.
pub fn search_with(
    strategy: Strategy,
    state: &Candidates,
    ctx: &Context,
    caches: &mut Caches,
    out: &mut Vec<Application>,
) -> u64 {
    match strategy {
        Strategy::NakedSingle => naked_single::search(state, out),
        Strategy::HiddenSingle => hidden_single::search(state, out),
        Strategy::NakedPair => naked_subset::search(state, 2, out),
        Strategy::NakedTriple => naked_subset::search(state, 3, out),
        Strategy::NakedQuad => naked_subset::search(state, 4, out),
        Strategy::HiddenPair => hidden_subset::search(state, 2, out),
        Strategy::HiddenTriple => hidden_subset::search(state, 3, out),
        Strategy::HiddenQuad => hidden_subset::search(state, 4, out),
        Strategy::LockedCandidates => locked_candidates::search(state, out),
        Strategy::XWing => fish::search(state, 2, out),
        Strategy::Swordfish => fish::search(state, 3, out),
        Strategy::Jellyfish => fish::search(state, 4, out),
        Strategy::Backtracking => backtracking::search(state, ctx, &mut Known::default(), out),
        Strategy::TrialAndError => trial::search(state, ctx, 1, &mut Known::default(), out),
        Strategy::XyWing => xy_wing::search(state, out),
        Strategy::XyzWing => xyz_wing::search(state, out),
        Strategy::WWing => w_wing::search(state, out),
        Strategy::UniqueRectangle => unique_rectangle::search(state, out),
        Strategy::Colouring => colouring::search(state, out),
        Strategy::XyChain => xy_chain::search(state, out),
        Strategy::Skyscraper => skyscraper::search(state, out),
        Strategy::TwoStringKite => two_string_kite::search(state, out),
        Strategy::TurbotFish => turbot_fish::search(state, out),
        Strategy::EmptyRectangle => empty_rectangle::search(state, out),
        Strategy::XChain => x_chain::search(state, out),
        Strategy::XCycle => x_chain::search_cycles_kept(state, &mut caches.cycles, out),
        Strategy::MultiColouring => multi_colouring::search(state, out),
        Strategy::FinnedXWing => finned_fish::search_kept(state, 2, &mut caches.fins, out),
        Strategy::FinnedSwordfish => finned_fish::search_kept(state, 3, &mut caches.fins, out),
        Strategy::FinnedJellyfish => finned_fish::search_kept(state, 4, &mut caches.fins, out),
        Strategy::UniqueRectangle2 => unique_rectangle::search_type(state, 2, out),
        Strategy::UniqueRectangle3 => unique_rectangle::search_type(state, 3, out),
        Strategy::UniqueRectangle4 => unique_rectangle::search_type(state, 4, out),
        Strategy::UniqueRectangle5 => unique_rectangle::search_type(state, 5, out),
        Strategy::UniqueRectangle6 => unique_rectangle::search_type(state, 6, out),
        Strategy::HiddenRectangle => hidden_rectangle::search(state, out),
        Strategy::BugPlusOne => bug::search(state, out),
        Strategy::WxyzWing => wxyz_wing::search(state, out),
        Strategy::RemotePairs => remote_pairs::search(state, out),
        Strategy::Aic => aic::search_kept(state, false, &mut caches.walk, out),
        Strategy::NiceLoop => aic::search_kept(state, true, &mut caches.walk, out),
        Strategy::AlsXz => als_xz::search_sets(caches.sets(state), out),
        Strategy::AlsXyWing => als_xy_wing::search_sets(caches.sets(state), out),
        Strategy::AlsChain => als_chain::search_sets(caches.sets(state), out),
        Strategy::DeathBlossom => death_blossom::search_sets(state, caches.sets(state), out),
        Strategy::SueDeCoq => sue_de_coq::search(state, out),
        Strategy::CellForcingChain => forcing_chain::search(state, forcing_chain::Start::Cell, out),
        Strategy::HouseForcingChain => {
            forcing_chain::search(state, forcing_chain::Start::House, out)
        }
        Strategy::DigitForcingChain => {
            forcing_chain::search(state, forcing_chain::Start::Digit, out)
        }
    }
}

#[cfg(feature = "dev")]
/// Searches every strategy of `tier` (0-5, or 6 at depth 1): pushes all valid applications
/// and returns the summed p.
pub fn search_tier(tier: u8, state: &Candidates, ctx: &Context, out: &mut Vec<Application>) -> u64 {
    Strategy::TIERS[tier as usize]
        .iter()
        .map(|&s| search(s, state, ctx, out))
        .sum()
}

/// The members of a set of small numbers kept as 64-bit words (bit i of word k: number
/// 64k + i), in increasing order.
pub(crate) fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                k * 64 + b
            })
        })
    })
}

/// C(n, k) for n <= 9 and k <= 4, the values house and line counts need (Pascal's triangle).
const SMALL_CHOOSE: [[u64; 5]; 10] = {
    let mut t = [[0u64; 5]; 10];
    let mut n = 0;
    while n < 10 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            if n > 0 {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            }
            k += 1;
        }
        n += 1;
    }
    t
};

/// Binomial coefficient C(n, k) for the small values the enumerations use.
#[inline]
pub(crate) fn choose(n: u32, k: u32) -> u64 {
    if n < 10 && k < 5 {
        return SMALL_CHOOSE[n as usize][k as usize];
    }
    if k > n {
        return 0;
    }
    let (n, k) = (n as u64, k as u64);
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// Calls `f(chosen, union)` for every choice of `k` of the `masks` (at most 9 items) whose
/// masks together have at most `k` bits: `chosen` has bit i set for each chosen item i,
/// `union` is the OR of their masks. Items whose own mask has more than `k` bits never take
/// part. This one enumeration serves naked subsets (items: cells, masks: their digits), hidden
/// subsets (items: digits, masks: their places in the house) and fish (items: base lines,
/// masks: the cross lines of their places).
#[inline]
pub(crate) fn for_each_subset(masks: &[u16], k: u32, mut f: impl FnMut(u16, u16)) {
    // The eligible items, in order.
    let mut items = [(0u8, 0u16); 9];
    let mut n = 0;
    for (i, &m) in masks.iter().enumerate() {
        if m.count_ones() <= k {
            items[n] = (i as u8, m);
            n += 1;
        }
    }
    let k = k as usize;
    if n < k {
        return;
    }
    // Depth-first over increasing item positions, with the union pruned at each level.
    let mut pos = [0usize; 5];
    let mut unions = [0u16; 5];
    let mut chosen = [0u16; 5];
    let mut depth = 0;
    pos[0] = 0;
    loop {
        if pos[depth] + (k - depth) > n {
            // Not enough items left at this level: back up.
            if depth == 0 {
                return;
            }
            depth -= 1;
            pos[depth] += 1;
            continue;
        }
        let (id, m) = items[pos[depth]];
        let u = unions[depth] | m;
        if u.count_ones() as usize > k {
            pos[depth] += 1;
            continue;
        }
        let c = chosen[depth] | 1 << id;
        if depth + 1 == k {
            f(c, u);
            pos[depth] += 1;
        } else {
            depth += 1;
            unions[depth] = u;
            chosen[depth] = c;
            pos[depth] = pos[depth - 1] + 1;
        }
    }
}

/// The member of a family of sizes (pair, triple, quad; or X-wing, swordfish, jellyfish) with
/// `k` (2-4) cells or lines.
#[inline]
pub(crate) fn sized(family: [Strategy; 3], k: u32) -> Strategy {
    match k {
        2..=4 => family[k as usize - 2],
        _ => panic!("{} and its family have sizes 2 to 4, not {k}", family[0]),
    }
}

/// Every house, as a mask of house numbers (bit h = house h).
pub(crate) const ALL_HOUSES: u32 = (1 << 27) - 1;

/// The house scan of naked and hidden subsets of size `k`: returns p, the sum over the 27
/// houses of C(n, k) for the n empty cells of each, and calls `f(h, empty)` with the empty
/// cells of each house `h` of the mask `houses` that has more than `k` of them (a subset
/// needs another empty cell to act on).
#[inline]
pub(crate) fn scan_houses(
    state: &Candidates,
    k: u32,
    houses: u32,
    mut f: impl FnMut(usize, CellSet),
) -> u64 {
    let mut p = 0;
    for h in 0..27 {
        let empty = state.empty() & CellSet::house_at(h);
        let n = empty.len();
        p += choose(n, k);
        if n > k && houses >> h & 1 != 0 {
            f(h, empty);
        }
    }
    p
}

/// Searches that depend on one digit's places alone, kept by the digit's places, the digit
/// and a size (0 where the search has none). A rating meets the same places of a digit again
/// and again as the other digits move.
pub(crate) type DigitMemo<V> =
    std::collections::HashMap<(u128, u8, u8), V, rustc_hash::FxBuildHasher>;

/// The most digit patterns a [`DigitMemo`] keeps before it starts again.
const DIGIT_MEMO_MAX: usize = 1 << 14;

/// The value `memo` keeps for the places `places` of digit `d` (and `size`), made by `make`
/// the first time.
pub(crate) fn per_digit<V>(
    memo: &mut DigitMemo<V>,
    places: CellSet,
    d: Digit,
    size: u8,
    make: impl FnOnce() -> V,
) -> &V {
    let key = (places.bits(), d.index() as u8, size);
    if memo.len() >= DIGIT_MEMO_MAX && !memo.contains_key(&key) {
        memo.clear();
    }
    memo.entry(key).or_insert_with(make)
}

/// What searches keep from one call to the next, owned by the caller that makes them (a
/// rating owns one for all the states it searches): the ALS sets of the last state asked for
/// (the four ALS techniques are searched one after the other on one state), the AIC walk of
/// the last state (one walk finds both AICs and nice loops), and per digit pattern the X-cycles
/// and finned fish (which read one digit's places alone). What it holds never changes what
/// a search finds, only how soon.
#[derive(Default)]
pub struct Caches {
    sets: Option<([u16; 81], als::Sets)>,
    walk: Option<aic::Kept>,
    cycles: DigitMemo<Vec<Application>>,
    fins: DigitMemo<finned_fish::Kept>,
}

impl Caches {
    /// The ALS sets of `st` and their links, made when `st` is not the last state asked for.
    fn sets(&mut self, st: &Candidates) -> &als::Sets {
        if self.sets.as_ref().is_none_or(|(masks, _)| masks != st.masks()) {
            self.sets = Some((*st.masks(), als::Sets::of(st)));
        }
        &self.sets.as_ref().expect("just made").1
    }
}

/// The pattern behind `a`, found again: runs `search`, which reports every pattern it finds
/// with its application (what it returns is ignored), and keeps the first pattern whose
/// application is `a`. The words of a hint use it to recover what a search saw from the
/// application alone.
pub(crate) fn find_again<T: Clone, R>(
    a: &Application,
    search: impl FnOnce(&mut dyn FnMut(&T, Application)) -> R,
) -> Option<T> {
    let mut found = None;
    search(&mut |pattern: &T, b: Application| {
        if found.is_none() && b == *a {
            found = Some(pattern.clone());
        }
    });
    found
}

/// Every pair of `items`, each pair once, in the order of the slice.
#[inline]
pub(crate) fn pairs<T: Copy>(items: &[T]) -> impl Iterator<Item = (T, T)> + '_ {
    items
        .iter()
        .enumerate()
        .flat_map(move |(i, &a)| items[i + 1..].iter().map(move |&b| (a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_binomials_match_the_product_formula() {
        for n in 0..10u64 {
            for k in 0..5u64 {
                let want = if k > n {
                    0
                } else {
                    (0..k).fold(1, |r, i| r * (n - i) / (i + 1))
                };
                assert_eq!(choose(n as u32, k as u32), want, "C({n}, {k})");
            }
        }
        assert_eq!(choose(81, 4), 1_663_740);
    }

    /// One [`Caches`] kept across many states of three hard puzzles and every search that
    /// keeps something (searched in both orders, and twice on a state) finds what a search
    /// without it finds.
    #[test]
    fn searches_keeping_caches_find_what_fresh_searches_find() {
        use crate::strategies::testing::{solution, DEEP, HARD, TOP};
        const KEPT: [Strategy; 10] = [
            Strategy::FinnedXWing,
            Strategy::FinnedSwordfish,
            Strategy::FinnedJellyfish,
            Strategy::XCycle,
            Strategy::Aic,
            Strategy::NiceLoop,
            Strategy::AlsXz,
            Strategy::AlsXyWing,
            Strategy::AlsChain,
            Strategy::DeathBlossom,
        ];
        let mut caches = Caches::default();
        let mut rng = crate::rng::Rng::new(73);
        let mut found = [0usize; KEPT.len()];
        for text in [TOP, DEEP, HARD] {
            let puzzle: crate::grid::Puzzle = text.parse().expect("a test puzzle");
            let grid = solution(text);
            let ctx = Context {
                solution: Some(grid),
            };
            for _ in 0..12 {
                // A state some way in: a few cells of the solution placed, then the tiers up
                // to a random one applied until they stall.
                let mut st = Candidates::new(&puzzle);
                for _ in 0..rng.below(16) {
                    let empty = st.empty();
                    let c = empty.nth(rng.below(empty.len())).expect("below len");
                    st.apply(&Effect::Place(c, grid.get(c)));
                }
                crate::strategies::tiers::fixpoint(&mut st, rng.below(5) as u8);
                if st.is_solved() {
                    continue;
                }
                let order: Vec<usize> = if rng.coin() {
                    (0..KEPT.len()).collect()
                } else {
                    (0..KEPT.len()).rev().collect()
                };
                for k in order.iter().chain(&order[..3]).copied() {
                    let (mut kept, mut fresh) = (Vec::new(), Vec::new());
                    let p = search_with(KEPT[k], &st, &ctx, &mut caches, &mut kept);
                    assert_eq!(p, search(KEPT[k], &st, &ctx, &mut fresh), "{}", KEPT[k]);
                    assert_eq!(kept, fresh, "{} on {}", KEPT[k], st.to_puzzle());
                    found[k] += kept.len();
                }
            }
        }
        for (s, n) in KEPT.iter().zip(found) {
            assert!(n > 0, "{s} never found");
        }
    }

    #[test]
    fn subsets_enumerate_exactly_the_small_unions() {
        // Brute force over all k-subsets of random-looking masks.
        let masks = [
            0b011,
            0b110,
            0b101,
            0b1000_0001,
            0b11,
            0b1_1000_0000,
            0b100,
            0b1,
            0b111,
        ];
        for k in 2..=4u32 {
            let mut got = Vec::new();
            for_each_subset(&masks, k, |c, u| got.push((c, u)));
            let mut want = Vec::new();
            for c in 0u16..512 {
                if c.count_ones() != k {
                    continue;
                }
                let u = (0..9)
                    .filter(|i| c >> i & 1 != 0)
                    .fold(0, |a, i| a | masks[i]);
                if u.count_ones() <= k {
                    want.push((c, u));
                }
            }
            got.sort();
            want.sort();
            assert_eq!(got, want, "k = {k}");
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for building hand-made positions in the strategy tests, positions of HoDoKu's
    //! regression library and candidate grids, and test puzzles.
    use super::Application;
    use crate::candidates::{Candidates, Effect};
    use crate::cellset::CellSet;
    use crate::grid::{Cell, Digit, Grid, Puzzle};


    /// A puzzle singles solve.
    pub const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    /// A puzzle that singles alone cannot finish (it needs tier 5 or more).
    pub const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    /// The first puzzle of top1465: depth-1 trials find removals at the start.
    pub const TOP: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    /// From the forum's hardest list: after tiers 0-5, depth-1 trials find nothing.
    pub const DEEP: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    /// Row 1 misses 8 and 9, and column 8 has its 9 in row 5: r1c8 must be 8, so assuming 8
    /// in r1c9 leaves r1c8 with nothing, and assuming 9 there places 8 in r1c8 and stalls.
    pub const ROW_ONE_MISSES_8_9: &str = concat!(
        "1234567..",
        ".........",
        ".........",
        ".........",
        ".......9.",
        ".........",
        ".........",
        ".........",
        ".........",
    );

    /// The state of an empty board.
    pub fn empty() -> Candidates {
        Candidates::new(&Puzzle::EMPTY)
    }

    /// The state of `puzzle` (81 characters).
    pub fn state(puzzle: &str) -> Candidates {
        Candidates::new(&puzzle.parse::<Puzzle>().unwrap())
    }

    /// The solution of `puzzle` (81 characters), which has only one.
    pub fn solution(puzzle: &str) -> Grid {
        crate::solve::solve(&puzzle.parse().unwrap())
            .unique()
            .unwrap()
    }

    /// The state of `puzzle` (81 characters, one solution) once singles stall, and its
    /// solution.
    pub fn after_singles(puzzle: &str) -> (Candidates, Grid) {
        let mut st = state(puzzle);
        crate::propagate::propagate(&mut st);
        (st, solution(puzzle))
    }

    /// Cell from one-based row and column.
    pub fn rc(r: u8, c: u8) -> Cell {
        Cell::at(r - 1, c - 1).unwrap()
    }

    /// Digit from its value.
    pub fn dg(d: u8) -> Digit {
        Digit::new(d).unwrap()
    }

    /// Removes digit `d` from the given cells.
    pub fn remove(st: &mut Candidates, d: u8, cells: &[Cell]) {
        st.remove(dg(d), cells.iter().copied().collect::<CellSet>());
    }

    /// Restricts `cell` to the digits in `keep` (e.g. "12").
    pub fn keep(st: &mut Candidates, cell: Cell, keep: &str) {
        for d in 1..=9u8 {
            if !keep.contains(char::from(b'0' + d)) {
                st.remove(dg(d), CellSet::single(cell));
            }
        }
    }

    /// Leaves digit `d` in the given rows (one-based) only in the given columns.
    pub fn confine(st: &mut Candidates, d: u8, rows: &[u8], cols: &[u8]) {
        for &r in rows {
            let cells: Vec<_> = (1..=9)
                .filter(|c| !cols.contains(c))
                .map(|c| rc(r, c))
                .collect();
            remove(st, d, &cells);
        }
    }

    /// The cells written as in `r1c7 r5c1`, one-based.
    pub fn cells(names: &str) -> Vec<Cell> {
        names
            .split_whitespace()
            .map(|name| {
                let (r, c) = name[1..].split_once('c').expect("r<row>c<col>");
                rc(r.parse().unwrap(), c.parse().unwrap())
            })
            .collect()
    }

    /// The cells written as `r1c2 r5c7 ...`, as a set.
    pub fn set(names: &str) -> CellSet {
        cells(names).into_iter().collect()
    }

    /// An empty board where digit `d` is possible only in the listed cells (`r1c2 r5c7 ...`).
    pub fn only(d: u8, places: &str) -> Candidates {
        let mut st = empty();
        st.remove(dg(d), CellSet::ALL - set(places));
        st
    }

    /// An empty board whose listed cells keep only the listed digits, written as in
    /// `r1c1=12 r1c7=13`.
    pub fn board(spec: &str) -> Candidates {
        let mut st = empty();
        for item in spec.split_whitespace() {
            let (name, digits) = item.split_once('=').expect("cell=digits");
            keep(&mut st, cells(name)[0], digits);
        }
        st
    }

    /// Runs `search` on `st`: its p and the applications it found.
    pub fn run(
        search: impl FnOnce(&Candidates, &mut Vec<Application>) -> u64,
        st: &Candidates,
    ) -> (u64, Vec<Application>) {
        let mut out = Vec::new();
        let p = search(st, &mut out);
        (p, out)
    }

    /// The cells from which `a` removes the digit `d` (none when it places one).
    pub fn removed(a: &Application, d: u8) -> CellSet {
        match a.effect {
            Effect::Remove(r) => r[usize::from(d) - 1],
            Effect::Place(..) => CellSet::EMPTY,
        }
    }

    /// Every cell the applications remove digit `d` from.
    pub fn removed_all(out: &[Application], d: u8) -> CellSet {
        out.iter().fold(CellSet::EMPTY, |s, a| s | removed(a, d))
    }

    /// The applications `search` finds on `st` about digit `d`, and every cell they remove `d`
    /// from.
    pub fn digit_removals(
        search: impl FnOnce(&Candidates, &mut Vec<Application>) -> u64,
        st: &Candidates,
        d: u8,
    ) -> (CellSet, Vec<Application>) {
        let (_, out) = run(search, st);
        let of_d: Vec<Application> = out
            .into_iter()
            .filter(|a| a.digits.contains(dg(d)))
            .collect();
        (removed_all(&of_d, d), of_d)
    }

    /// The applications of `out` whose cells are those written as `r1c2 r5c7 ...`.
    pub fn on_cells<'a>(out: &'a [Application], names: &str) -> Vec<&'a Application> {
        let cells = set(names);
        out.iter().filter(|a| a.cells == cells).collect()
    }

    /// The candidates written as `dRC dRC ...` (digit, row, column), as HoDoKu's regression
    /// library writes them.
    pub fn candidates(list: &str) -> Vec<(Cell, Digit)> {
        list.split_whitespace()
            .map(|t| {
                let b = t.as_bytes();
                (rc(b[1] - b'0', b[2] - b'0'), dg(b[0] - b'0'))
            })
            .collect()
    }

    /// The cells of the candidates of `list` (`dRC ...`) that have digit `d`.
    pub fn cells_of(list: &str, d: u8) -> CellSet {
        candidates(list)
            .into_iter()
            .filter(|&(_, x)| x == dg(d))
            .map(|(c, _)| c)
            .collect()
    }

    /// A position of HoDoKu's regression library (`reglib-1.3.txt`, by Bernhard Hobiger):
    /// `givens` is the grid, a '+' marking a digit placed while solving (placed here like a
    /// given), and `deleted` lists the candidates removed from the plain pencilmarks, as
    /// `dRC ...`.
    pub fn library(givens: &str, deleted: &str) -> Candidates {
        let line: String = givens.chars().filter(|&ch| ch != '+').collect();
        let puzzle: Puzzle = line.parse().expect("81 cells");
        let mut st = Candidates::new(&puzzle);
        for (c, d) in candidates(deleted) {
            st.remove(d, CellSet::single(c));
        }
        st
    }

    /// A whole line of HoDoKu's regression library, which reads
    /// `:technique:digits:givens:deleted:eliminations:...`: its position (see [`library`]) and
    /// the eliminations of the technique, per digit index.
    pub fn library_line(line: &str) -> (Candidates, [CellSet; 9]) {
        let fields: Vec<&str> = line.split(':').collect();
        let mut want = [CellSet::EMPTY; 9];
        for (c, d) in candidates(fields[5]) {
            want[d.index()].insert(c);
        }
        (library(fields[3], fields[4]), want)
    }

    /// The state written as a candidate grid: 81 groups of digits in row order (any other
    /// characters separate them); a group of one digit is a filled cell.
    pub fn grid(text: &str) -> Candidates {
        let groups: Vec<&str> = text
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|g| !g.is_empty())
            .collect();
        assert_eq!(groups.len(), 81, "81 cells");
        let line: String = groups
            .iter()
            .map(|g| {
                if g.len() == 1 {
                    g.chars().next().unwrap()
                } else {
                    '.'
                }
            })
            .collect();
        let mut st = Candidates::new(&line.parse().expect("a grid"));
        for (i, g) in groups.iter().enumerate() {
            if g.len() > 1 {
                let c = Cell::from_index(i);
                keep(&mut st, c, g);
                let want: String = st.candidates(c).iter().map(|d| d.to_string()).collect();
                assert_eq!(&want, g, "{c} keeps its candidates");
            }
        }
        st
    }
}
