//! hsolve: the human-solver difficulty model of the hsolve paper (sections 3.1-3.2), and
//! solving limited to a tier (the pseudo-generator's reserved cells, section 4.2).
//!
//! # The model
//!
//! A person searches the strategies tier by tier, easiest first, checking possible
//! applications in random order until one is valid. If a tier has p possible and v valid
//! applications, the expected number of checks is E(p, v) = (p + 1) / (v + 1). One **run**:
//!
//! ```text
//! d = 0
//! until solved:
//!     for tier in 0, 1, ..., 5, 6 (depth 1), 6 (depth 2), ...:
//!         p, V = possible and valid applications of the tier's strategies (summed)
//!         d += E(p, |V|)            # a search that finds nothing costs p + 1
//!         if V is not empty: apply one application of V, drawn uniformly; next step
//! ```
//!
//! A search that finds nothing is charged too: the paper's hsolve increments d at every
//! search, and a person who finds no single has still looked at every cell before turning
//! to pairs. The **rating** is the mean of d over R runs (20 by default), with its standard
//! deviation, the hardest tier used and the steps per tier.
//!
//! Runs are reproducible: they are made on the puzzle's canonical form, run i drawing from
//! `Rng::for_job(seed, i)` with the seed taken from the class key, so every symmetry of a
//! puzzle gets the identical rating.
//!
//! # Speed
//!
//! Tier 0 is tracked incrementally: singles only disappear when their cell is filled, so after
//! a placement or a removal only the cells that lost candidates, and the houses that lost
//! places of a digit, are examined for new ones. The searches of tiers 1-6 are cached per
//! candidate state across the runs of one rating: every run reaches the same states whenever
//! tier 0 stalls (the singles fixpoint does not depend on their order), so most searches are
//! made once per puzzle rather than once per run. Once every empty cell is a naked single,
//! every remaining search is known (each costs exactly 1), so the run adds them up without
//! placing the cells (`Run::finish_singles`).

use crate::candidates::{alone_by_kind, alone_in_a_house, Candidates, Effect};
use crate::cellset::{CellSet, DigitSet, HOUSES_OF_CELL};
use crate::grid::{Digit, Grid, Puzzle};
use crate::rate::profile::{self, Model};
use crate::rate::shared_searches::SharedSearches;
use crate::rng::Rng;
use crate::solve::{solve, Solutions, TrialMemo};
use crate::strategies::tiers::fixpoint;
use crate::strategies::{self, backtracking, trial, Application, Context, Known, Strategy, Units};
use std::collections::HashMap;
use std::rc::Rc;

/// The default number of runs per rating (the paper's choice: sigma / mu is about 1/10).
pub const DEFAULT_RUNS: u32 = 20;


/// Why a puzzle cannot be rated or solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has more than one solution.
    #[error("the puzzle has more than one solution")]
    NotUnique,
    /// Trial and error at the deepest depth found nothing (no known puzzle comes close).
    #[error("trial and error found nothing at depth {}", trial::MAX_DEPTH)]
    TooDeep,
}

/// E(p, v) = (p + 1) / (v + 1): the expected number of checks to find one of v valid
/// applications among p possible ones in random order.
#[inline]
pub fn expected_checks(p: u64, v: u64) -> f64 {
    (p as f64 + 1.0) / (v as f64 + 1.0)
}

/// The hsolve rating of a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Hsolve {
    /// Mean difficulty d over the runs.
    pub mean: f64,
    /// Standard deviation of d over the runs (0 for a single run).
    pub sd: f64,
    /// The hardest tier any run used (0-6).
    pub tier: u8,
    /// The deepest trial-and-error nesting any run used (0 when tier 6 was not needed).
    pub depth: u8,
    /// Mean number of steps (applications made) per run.
    pub steps: f64,
    /// Mean number of steps per run at each tier.
    pub steps_per_tier: [f64; 7],
    /// Number of runs.
    pub runs: u32,
}

/// One search made during a run, for [`explain`].
#[derive(Clone, Debug)]
pub struct Search {
    /// The tier searched.
    pub tier: u8,
    /// Its position on the ladder searched (0 = singles; for hsolve, tiers 0-5 are positions
    /// 0-5 and tier 6 at depth n is position 5 + n).
    pub rung: u8,
    /// Trial depth for tier 6, else 0.
    pub depth: u8,
    /// Possible applications.
    pub p: u64,
    /// Valid applications.
    pub v: u64,
    /// The application made, or `None` when the search found nothing.
    pub applied: Option<Application>,
    /// The running difficulty after this search.
    pub d: f64,
}

/// Where a puzzle's runs draw their random numbers from: the first 8 bytes of its class key
/// (the blake3 hash of its canonical form), so every member of a class gets the same seed.
pub fn seed_of(puzzle: &Puzzle) -> u64 {
    crate::canon::key(puzzle).seed()
}

/// Checks that `puzzle` has exactly one solution.
pub(crate) fn check_unique(puzzle: &Puzzle) -> Result<Grid, RateError> {
    match solve(puzzle) {
        Solutions::None => Err(RateError::NoSolution),
        Solutions::Multiple(_) => Err(RateError::NotUnique),
        Solutions::Unique(g) => Ok(g),
    }
}

/// Rates `puzzle` with `runs` runs (at least 1): the runs are made on its canonical form,
/// seeded from its class key, so every puzzle of a class (every symmetry of it) gets the
/// identical rating.
pub fn rate(puzzle: &Puzzle, runs: u32) -> Result<Hsolve, RateError> {
    let c = crate::canon::canonical(puzzle);
    rate_seeded(&c.puzzle(), runs, c.key().seed())
}

/// Rates `puzzle` with `runs` runs (at least 1), run i drawing from `Rng::for_job(seed, i)`.
pub fn rate_seeded(puzzle: &Puzzle, runs: u32, seed: u64) -> Result<Hsolve, RateError> {
    let solution = check_unique(puzzle)?;
    rate_from(&Candidates::new(puzzle), solution, runs, seed)
}

/// [`rate_seeded`] from the puzzle's start state `start` when its (only) solution is known.
pub(crate) fn rate_from(
    start: &Candidates,
    solution: Grid,
    runs: u32,
    seed: u64,
) -> Result<Hsolve, RateError> {
    let runs = runs.max(1);
    let mut engine = Engine::new(solution, &PAPER_LADDER, Model::Hsolve);
    let mut results = Vec::with_capacity(runs as usize);
    for i in 0..runs {
        let mut rng = Rng::for_job(seed, i as u64);
        results.push(engine.run(start, &mut rng, None)?);
    }
    // Positions 0-5 are tiers 0-5; position 5 + n is tier 6 at depth n.
    let tier_of = |pos: usize| pos.min(6);
    let n = runs as f64;
    let mean = results.iter().map(|r| r.d).sum::<f64>() / n;
    let sd = if runs > 1 {
        (results.iter().map(|r| (r.d - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let mut steps_per_tier = [0.0; 7];
    for r in &results {
        for (pos, &s) in r.steps.iter().enumerate() {
            steps_per_tier[tier_of(pos)] += s as f64 / n;
        }
    }
    let hardest = results.iter().map(|r| r.hardest).max().unwrap_or(0);
    Ok(Hsolve {
        mean,
        sd,
        tier: tier_of(hardest) as u8,
        depth: hardest.saturating_sub(5) as u8,
        steps: results
            .iter()
            .map(|r| r.steps.iter().sum::<u32>() as f64)
            .sum::<f64>()
            / n,
        steps_per_tier,
        runs,
    })
}

/// One run on `puzzle` as given (seeded from its class key), with every search it made in
/// order. (Ratings are made on the canonical form, so this run is an illustration of the
/// model on the puzzle as the reader sees it, not one of the rating's runs.)
pub fn explain(puzzle: &Puzzle) -> Result<Vec<Search>, RateError> {
    let solution = check_unique(puzzle)?;
    let mut trace = Vec::new();
    let mut rng = Rng::for_job(seed_of(puzzle), 0);
    Engine::new(solution, &PAPER_LADDER, Model::Hsolve).run(
        &Candidates::new(puzzle),
        &mut rng,
        Some(&mut trace),
    )?;
    Ok(trace)
}

/// One search of a ladder: what a person looks for, in order, once singles stall. Each
/// search is charged one E(p, v).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rung {
    /// These strategies, searched together.
    Strategies(&'static [Strategy]),
    /// The forcing chains, digit, cell and house, searched together (each candidate's branch
    /// followed once for the three).
    Forcing,
    /// Backtracking on two-candidate cells (hsolve's tier 5).
    Backtracking,
    /// Trial and error at this depth (tier 6).
    Trial(u8),
}

impl Rung {
    /// True when every strategy of the rung is searched unit by unit (subsets, fish, locked
    /// candidates), so its searches can be incremental.
    fn by_units(self) -> bool {
        match self {
            Rung::Strategies(list) => list.iter().all(|s| {
                matches!(
                    s,
                    Strategy::NakedPair
                        | Strategy::NakedTriple
                        | Strategy::NakedQuad
                        | Strategy::HiddenPair
                        | Strategy::HiddenTriple
                        | Strategy::HiddenQuad
                        | Strategy::LockedCandidates
                        | Strategy::XWing
                        | Strategy::Swordfish
                        | Strategy::Jellyfish
                )
            }),
            _ => false,
        }
    }

    /// The hsolve tier and trial depth this rung reports in [`Search`] (for the paper's
    /// ladder, position i of the strategy rungs is tier i).
    fn tier_and_depth(self, position: usize) -> (u8, u8) {
        match self {
            Rung::Strategies(_) | Rung::Forcing => (position as u8, 0),
            Rung::Backtracking => (5, 0),
            Rung::Trial(n) => (6, n),
        }
    }
}

/// hsolve's ladder: tiers 1 to 4, tier 5, then tier 6 at depths 1 to [`trial::MAX_DEPTH`].
pub(crate) const PAPER_LADDER: [Rung; 4 + 1 + trial::MAX_DEPTH as usize] = [
    Rung::Strategies(Strategy::TIERS[1]),
    Rung::Strategies(Strategy::TIERS[2]),
    Rung::Strategies(Strategy::TIERS[3]),
    Rung::Strategies(Strategy::TIERS[4]),
    Rung::Backtracking,
    Rung::Trial(1),
    Rung::Trial(2),
    Rung::Trial(3),
    Rung::Trial(4),
];

/// The most positions a ladder has: singles, then at most 14 rungs.
pub(crate) const POSITIONS: usize = 15;

/// The outcome of one search: p and the valid applications (and, for trial and error, the
/// end states of its stalled trials, to warm-start later searches).
struct Found {
    p: u64,
    apps: Vec<Application>,
    memo: Option<Rc<TrialMemo>>,
}

/// The search of `list` (strategies searched by units) in `st`, from the same search of
/// `prev`, a state `st` was reached from by removing candidates. Only the units (houses,
/// digits, intersections) with a changed cell are searched again; the other units'
/// applications are the same as in `prev`. Merging by unit gives exactly the list a full
/// search makes.
fn incremental(
    list: &[Strategy],
    st: &Candidates,
    prev: &[u16; 81],
    prev_found: &Found,
    model: Model,
) -> Found {
    let units = Units::changed(prev, st.masks());
    let mut fresh = Vec::new();
    let p = if profile::on() {
        list.iter()
            .map(|&s| {
                let (since, before) = (profile::clock(), fresh.len());
                let p = strategies::search_in(&[s], st, &units, &mut fresh);
                profile::strategy(model, s, fresh.len() > before, since);
                p
            })
            .sum()
    } else {
        strategies::search_in(list, st, &units, &mut fresh)
    };
    let mut apps = Vec::with_capacity(prev_found.apps.len() + fresh.len());
    for &s in list {
        let mut old = prev_found
            .apps
            .iter()
            .filter(|a| a.strategy == s && !units.contains(s, a.unit))
            .peekable();
        let mut new = fresh.iter().filter(|a| a.strategy == s).peekable();
        loop {
            let take_old = match (old.peek(), new.peek()) {
                (Some(a), Some(b)) => a.unit < b.unit,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let a = if take_old { old.next() } else { new.next() };
            apps.push(*a.expect("peeked"));
        }
    }
    Found {
        p,
        apps,
        memo: None,
    }
}

/// The search of the strategies `list` in `st`, together: their valid applications pushed
/// onto `apps`, and their possible ones counted.
fn search_list(
    list: &[Strategy],
    st: &Candidates,
    ctx: &Context,
    caches: &mut strategies::Caches,
    apps: &mut Vec<Application>,
    model: Model,
) -> u64 {
    if profile::on() {
        return list
            .iter()
            .map(|&s| {
                let (since, before) = (profile::clock(), apps.len());
                let p = strategies::search_with(s, st, ctx, caches, apps);
                profile::strategy(model, s, apps.len() > before, since);
                p
            })
            .sum();
    }
    list.iter()
        .map(|&s| strategies::search_with(s, st, ctx, caches, apps))
        .sum()
}

/// The result of one run.
#[derive(Clone, Debug)]
pub(crate) struct RunResult {
    /// The run's difficulty d: every search's E(p, v), summed in order.
    pub d: f64,
    /// Per position (0 = singles, i + 1 = rung i of the ladder): its searches' E(p, v).
    pub checks: [f64; POSITIONS],
    /// Per position: the refutation effort of the trials it applied (when measured).
    pub refutation: [f64; POSITIONS],
    /// Per position: the applications made.
    pub steps: [u32; POSITIONS],
    /// Per strategy (`Strategy as usize`): the applications made.
    pub strategies: [u32; Strategy::COUNT],
    /// The hardest position used.
    pub hardest: usize,
    /// With split singles: the checks of (a) full houses and hidden singles in boxes,
    /// (b) hidden singles in rows and columns, (c) naked singles.
    pub singles3: [f64; 3],
}

impl Default for RunResult {
    fn default() -> RunResult {
        RunResult {
            d: 0.0,
            checks: [0.0; POSITIONS],
            refutation: [0.0; POSITIONS],
            steps: [0; POSITIONS],
            strategies: [0; Strategy::COUNT],
            hardest: 0,
            singles3: [0.0; 3],
        }
    }
}

/// The candidate states one rating has searched, numbered in the order first met.
type StateIndex = HashMap<[u16; 81], u32, rustc_hash::FxBuildHasher>;

/// One state a rating's runs stalled in: its candidates and each rung's search of it (made
/// once, whichever run asks first).
struct Stall {
    masks: [u16; 81],
    found: [Option<Rc<Found>>; POSITIONS - 1],
}

/// The refutation efforts of one rating, by candidate state, cell, digit and trial depth.
type EffortCache = HashMap<([u16; 81], u8, u8, u8), u32, rustc_hash::FxBuildHasher>;

/// Runs a ladder, caching searches (and refutation efforts) by candidate state.
pub(crate) struct Engine<'s> {
    ctx: Context,
    ladder: &'static [Rung],
    /// The model the ladder is (for the profile).
    model: Model,
    /// Measure the refutation effort of every trial applied.
    refute: bool,
    /// Search singles in three steps (box/full house, row/column hidden, naked).
    pub(crate) split_singles: bool,
    /// With `(position, order)`: from this ladder position on, a run applies, in one step,
    /// every application of the simplest technique a search found (the first in `order`; see
    /// [`simplest`]) instead of one application drawn at random. `None` in hsolve.
    pub(crate) simplest: Option<(usize, &'static [Strategy])>,
    /// Share the hard searches with other ratings ([`crate::rate::shared_searches`]) through
    /// these, in the frame `frame` (found when first needed).
    pub(crate) shared: Option<&'s SharedSearches>,
    frame: Option<crate::rate::shared_searches::Frame>,
    /// The states searched, and where each is in `stalls` (looked up once per stall, not
    /// once per rung).
    index: StateIndex,
    stalls: Vec<Stall>,
    /// The singles of the state the runs start from (every run of a rating starts there).
    start_singles: Option<([u16; 81], Singles)>,
    efforts: EffortCache,
    /// What the strategies' searches keep from one state to the next.
    caches: strategies::Caches,
}

/// The singles available in a state: the cells that are naked singles and the cells that are
/// hidden singles (a cell may be both); for split singles, the hidden singles in their box
/// and the last empty cells of a house (the latter kept up to date by split singles only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Singles {
    naked: CellSet,
    hidden: CellSet,
    hidden_in_box: CellSet,
    last_empty: CellSet,
}

/// The houses of `c` as bits (row r is bit r, column c bit 9 + c, box b bit 18 + b).
#[inline]
fn house_bits(c: crate::grid::Cell) -> u32 {
    let [r, k, b] = HOUSES_OF_CELL[c.index()];
    1 << r | 1 << k | 1 << b
}

impl Singles {
    fn of(st: &Candidates) -> Singles {
        let mut hidden = CellSet::EMPTY;
        let mut hidden_in_box = CellSet::EMPTY;
        for d in Digit::all() {
            let (lines, boxes) = alone_by_kind(st.cells_with(d));
            hidden |= lines | boxes;
            hidden_in_box |= boxes;
        }
        Singles {
            naked: st.naked_single_cells(),
            hidden,
            hidden_in_box,
            last_empty: alone_in_a_house(st.empty()),
        }
    }

    /// Places `d` in `c` (a single) and updates. Singles only disappear when their cell is
    /// filled (every deduction is sound), so only new ones need finding: naked singles among
    /// the peers that lost `d`; hidden singles of `d` in their houses (a house that lost a
    /// place of `d` and does not hold `c`, where `d` is now placed); and hidden singles of
    /// `c`'s other candidates in `c`'s houses.
    #[inline]
    fn place(&mut self, st: &mut Candidates, c: crate::grid::Cell, d: Digit) {
        let old = st.candidates(c);
        self.naked.remove(c);
        self.hidden.remove(c);
        self.hidden_in_box.remove(c);
        let mut houses = 0u32;
        let mut naked = CellSet::EMPTY;
        st.place_with(c, d, |p, left| {
            if left.count_ones() == 1 {
                naked.insert(p);
            }
            houses |= house_bits(p);
        })
        .expect("singles are candidates");
        self.naked |= naked;
        let houses_of_c = HOUSES_OF_CELL[c.index()];
        let places = st.cells_with(d);
        houses &= !house_bits(c);
        while houses != 0 {
            let h = houses.trailing_zeros() as usize;
            houses &= houses - 1;
            self.note_alone(places & CellSet::house_at(h), h >= 18);
        }
        for e in (old - DigitSet::single(d)).iter() {
            let places = st.cells_with(e);
            for (kind, &h) in houses_of_c.iter().enumerate() {
                self.note_alone(places & CellSet::house_at(h as usize), kind == 2);
            }
        }
    }

    /// Applies a strategy's deduction `effect` to `st`, updating the singles.
    fn apply(&mut self, st: &mut Candidates, effect: &Effect) {
        match st.restrict(effect) {
            Effect::Remove(removed) => {
                st.apply(&Effect::Remove(removed));
                self.after_remove(st, &removed);
            }
            place => {
                st.apply(&place);
                *self = Singles::of(st);
            }
        }
    }

    /// Updates after the candidates `removed` (per digit, the cells that lost it) were
    /// removed. As after a placement, singles only appear: naked singles among the cells that
    /// lost a candidate, and hidden singles of a digit in the houses of the cells that lost it.
    fn after_remove(&mut self, st: &Candidates, removed: &[CellSet; 9]) {
        let mut touched = CellSet::EMPTY;
        for (e, &cells) in removed.iter().enumerate() {
            touched |= cells;
            let places = st.cells_with(Digit::from_index(e));
            let mut houses = 0u32;
            for p in cells {
                houses |= house_bits(p);
            }
            while houses != 0 {
                let h = houses.trailing_zeros() as usize;
                houses &= houses - 1;
                self.note_alone(places & CellSet::house_at(h), h >= 18);
            }
        }
        for p in touched {
            if st.candidates(p).len() == 1 {
                self.naked.insert(p);
            }
        }
    }

    /// Updates the last empty cells of the houses after `c` was filled (split singles only).
    #[inline]
    fn after_fill(&mut self, st: &Candidates, c: crate::grid::Cell) {
        self.last_empty.remove(c);
        for &h in &HOUSES_OF_CELL[c.index()] {
            let x = st.empty() & CellSet::house_at(h as usize);
            if x.len() == 1 {
                self.last_empty |= x;
            }
        }
    }

    /// Notes the places `x` of a digit in one house as a hidden single when there is one.
    #[inline]
    fn note_alone(&mut self, x: CellSet, in_box: bool) {
        if x.len() == 1 {
            self.hidden |= x;
            if in_box {
                self.hidden_in_box |= x;
            }
        }
    }
}

impl<'s> Engine<'s> {
    /// An engine for `ladder`, the ladder of `model`, on a puzzle with this (only) solution.
    /// The `difficulty` model measures the refutation effort of every trial it applies.
    pub(crate) fn new(solution: Grid, ladder: &'static [Rung], model: Model) -> Engine<'s> {
        assert!(ladder.len() < POSITIONS, "a ladder has at most 14 rungs");
        Engine {
            ctx: Context {
                solution: Some(solution),
            },
            ladder,
            model,
            refute: model == Model::Difficulty,
            split_singles: false,
            simplest: None,
            shared: None,
            frame: None,
            index: HashMap::default(),
            stalls: Vec::new(),
            start_singles: None,
            efforts: HashMap::default(),
            caches: strategies::Caches::default(),
        }
    }

    /// The search of rung `i` in `st`, cached. `known` carries what the run's earlier trials
    /// proved, `last` the run's previous search of each incremental rung and `warm` the end
    /// states of its last depth-1 trial-and-error search; all three only save work.
    fn search(
        &mut self,
        st: &Candidates,
        at: u32,
        i: usize,
        known: &mut Known,
        last: &mut [Option<(u32, Rc<Found>)>],
        warm: &mut Option<Rc<TrialMemo>>,
    ) -> Rc<Found> {
        let rung = self.ladder[i];
        let since = profile::clock();
        let mut answer = profile::Answer::Cached;
        let found = if let Some(f) = &self.stalls[at as usize].found[i] {
            if matches!(rung, Rung::Backtracking | Rung::Trial(_)) {
                f.apps.iter().for_each(|a| known.learn(a));
            }
            if let Some(m) = &f.memo {
                *warm = Some(m.clone());
            }
            f.clone()
        } else {
            let f = Rc::new(match (rung, &last[i]) {
                (Rung::Strategies(list), Some((prev, prev_found))) if rung.by_units() => {
                    answer = profile::Answer::Searched;
                    let prev = &self.stalls[*prev as usize].masks;
                    incremental(list, st, prev, prev_found, self.model)
                }
                (Rung::Strategies(list), _) if self.keeps(i, rung) => {
                    let solution = self.ctx.solution.expect("a rating knows its solution");
                    let frame = self
                        .frame
                        .get_or_insert_with(|| crate::rate::shared_searches::Frame::of(&solution));
                    let (ctx, caches, model) = (&self.ctx, &mut self.caches, self.model);
                    let kept = self.shared.expect("kept only when shared");
                    answer = profile::Answer::Shared;
                    let (p, apps) =
                        crate::rate::shared_searches::search(kept, frame, st, i as u8, || {
                            answer = profile::Answer::Searched;
                            let mut apps = Vec::new();
                            (search_list(list, st, ctx, caches, &mut apps, model), apps)
                        });
                    Found {
                        p,
                        apps,
                        memo: None,
                    }
                }
                _ => {
                    answer = profile::Answer::Searched;
                    let mut apps = Vec::new();
                    let mut memo = None;
                    let p = match rung {
                        Rung::Strategies(list) => search_list(
                            list,
                            st,
                            &self.ctx,
                            &mut self.caches,
                            &mut apps,
                            self.model,
                        ),
                        Rung::Forcing => strategies::forcing_chain::search_all(st, &mut apps),
                        Rung::Backtracking => backtracking::search(st, &self.ctx, known, &mut apps),
                        Rung::Trial(1) => {
                            let (p, m) = trial::search_warm(
                                st,
                                &self.ctx,
                                1,
                                known,
                                warm.as_deref(),
                                &mut apps,
                            );
                            memo = m.map(Rc::new);
                            warm.clone_from(&memo);
                            p
                        }
                        Rung::Trial(n) => trial::search(st, &self.ctx, n, known, &mut apps),
                    };
                    Found { p, apps, memo }
                }
            });
            self.stalls[at as usize].found[i] = Some(f.clone());
            f
        };
        if rung.by_units() {
            last[i] = Some((at, found.clone()));
        }
        profile::rung(self.model, i + 1, answer, !found.apps.is_empty(), since);
        found
    }

    /// The number of the stalled state `st` in `stalls`, added when first met.
    fn stall(&mut self, st: &Candidates) -> u32 {
        let next = self.stalls.len() as u32;
        let at = *self.index.entry(*st.masks()).or_insert(next);
        if at == next {
            self.stalls.push(Stall {
                masks: *st.masks(),
                found: Default::default(),
            });
        }
        at
    }

    /// True when rung `i` is searched through the shared searches: the engine has some, a
    /// run applies the simplest technique at this position (so the order of the applications
    /// found does not matter), the rung is not searched incrementally (which reads the units
    /// applications were found in, a frame's own numbering) and no search of it is cut short
    /// by a budget.
    fn keeps(&self, i: usize, rung: Rung) -> bool {
        let Rung::Strategies(list) = rung else {
            return false;
        };
        self.shared.is_some()
            && self.simplest.is_some_and(|(from, _)| i + 1 >= from)
            && !rung.by_units()
            && crate::rate::shared_searches::can_keep(list)
    }

    /// The refutation effort of the trial `a` (found by `rung`) in `st`, cached.
    fn effort(&mut self, st: &Candidates, a: &Application, rung: Rung) -> u32 {
        let (Some(c), Some(d)) = (a.cells.first(), a.digits.first()) else {
            return 0;
        };
        let depth = match rung {
            Rung::Trial(n) => n,
            _ => 0,
        };
        let key = (*st.masks(), c.index() as u8, d.index() as u8, depth);
        if let Some(&e) = self.efforts.get(&key) {
            return e;
        }
        let e = crate::rate::refutation::effort(st, c, d, depth, u32::MAX).1;
        self.efforts.insert(key, e);
        e
    }

    /// One run from `start`: singles while there are some, else the ladder's searches, easiest
    /// first, until one applies; until the grid is full.
    pub(crate) fn run(
        &mut self,
        start: &Candidates,
        rng: &mut Rng,
        trace: Option<&mut Vec<Search>>,
    ) -> Result<RunResult, RateError> {
        let mut run = Run {
            solution: self.ctx.solution.expect("a rating knows its solution"),
            st: start.clone(),
            singles: self.start_singles(start),
            res: RunResult::default(),
            known: Known::default(),
            last: Default::default(),
            warm: None,
            trace,
        };
        while !run.st.is_solved() {
            if run.trace.is_none() && run.singles.naked == run.st.empty() {
                run.finish_singles(self.split_singles, rng);
                break;
            }
            let placed = if self.split_singles {
                run.split_single(rng)
            } else {
                run.single(rng)
            };
            if !placed {
                self.climb(&mut run, rng)?;
            }
        }
        Ok(run.res)
    }

    /// The singles of `start`, the state every run of the rating starts from (made once).
    fn start_singles(&mut self, start: &Candidates) -> Singles {
        match &self.start_singles {
            Some((masks, singles)) if masks == start.masks() => *singles,
            _ => {
                let singles = Singles::of(start);
                self.start_singles = Some((*start.masks(), singles));
                singles
            }
        }
    }

    /// One step of the ladder in a state where singles stall: its rungs searched in order
    /// until one finds something, which is applied (an application drawn at random, or, from
    /// the position the engine's `simplest` names, every application of the simplest
    /// technique).
    fn climb(&mut self, run: &mut Run, rng: &mut Rng) -> Result<(), RateError> {
        let at = self.stall(&run.st);
        for i in 0..self.ladder.len() {
            let rung = self.ladder[i];
            let pos = i + 1;
            let found = self.search(&run.st, at, i, &mut run.known, &mut run.last, &mut run.warm);
            let v = found.apps.len() as u64;
            let e = expected_checks(found.p, v);
            let res = &mut run.res;
            res.d += e;
            res.checks[pos] += e;
            let applied = (v > 0).then(|| self.apply(run, &found, rung, pos, rng));
            if let Some(t) = run.trace.as_deref_mut() {
                let (tier, depth) = rung.tier_and_depth(pos);
                t.push(Search {
                    tier,
                    rung: pos as u8,
                    depth,
                    p: found.p,
                    v,
                    applied,
                    d: run.res.d,
                });
            }
            if applied.is_some() {
                return Ok(());
            }
        }
        Err(RateError::TooDeep)
    }

    /// Applies what the search of `rung` (at ladder position `pos`) found, and returns the
    /// application made (with the effect it had when the run is traced or batched).
    fn apply(
        &mut self,
        run: &mut Run,
        found: &Found,
        rung: Rung,
        pos: usize,
        rng: &mut Rng,
    ) -> Application {
        let order = self
            .simplest
            .filter(|&(from, _)| pos >= from)
            .filter(|_| matches!(rung, Rung::Strategies(_) | Rung::Forcing))
            .map(|(_, order)| order);
        let mut a = if let Some(order) = order {
            simplest(&found.apps, order)
        } else {
            found.apps[rng.index(found.apps.len())]
        };
        let st = &mut run.st;
        if rung == Rung::Forcing {
            // A forcing chain's length, in waves of singles (see its module).
            run.res.refutation[pos] += f64::from(a.depth);
        } else if self.refute && !matches!(rung, Rung::Strategies(_)) {
            run.res.refutation[pos] += self.effort(st, &a, rung) as f64;
        }
        if order.is_some() {
            // Every application of the same technique, in one step: what they remove
            // together, a placement read as the removal of the cell's other candidates (the
            // naked single follows).
            let mut all = [CellSet::EMPTY; 9];
            for b in found.apps.iter().filter(|b| b.strategy == a.strategy) {
                match b.effect {
                    Effect::Remove(r) => {
                        for (x, r) in all.iter_mut().zip(r) {
                            *x |= r;
                        }
                    }
                    Effect::Place(c, d) => {
                        for e in (st.candidates(c) - DigitSet::single(d)).iter() {
                            all[e.index()].insert(c);
                        }
                    }
                }
            }
            a.effect = st.restrict(&Effect::Remove(all));
        } else if run.trace.is_some() {
            a.effect = st.restrict(&a.effect); // show what it removes
        }
        run.singles.apply(st, &a.effect);
        let res = &mut run.res;
        res.steps[pos] += 1;
        res.strategies[a.strategy as usize] += 1;
        res.hardest = res.hardest.max(pos);
        a
    }
}

/// The state of one run: its candidates and their singles, what it measured so far, what its
/// searches carry from one state to the next (what trials proved, each incremental rung's
/// last search, the end states of the last depth-1 trials) and the trace it writes, if any.
struct Run<'t> {
    /// The puzzle's solution: every single places its cell's digit.
    solution: Grid,
    st: Candidates,
    singles: Singles,
    res: RunResult,
    known: Known,
    last: [Option<(u32, Rc<Found>)>; POSITIONS],
    warm: Option<Rc<TrialMemo>>,
    trace: Option<&'t mut Vec<Search>>,
}

impl Run<'_> {
    /// Ends a run whose every empty cell is a naked single, without placing them. Each is then
    /// also the only place of its digit in each of its houses (a hidden single in its box
    /// too), and stays so until the grid is full, so every remaining search is known: with
    /// m empty cells, hsolve's finds 2m singles among 2m possible, and split singles find m
    /// in their first group among m. Each is charged E = 1, in order, and the singles drawn
    /// are counted as the walk would count them (hsolve draws whether a naked or a hidden
    /// single is placed; split singles place hidden singles). The numbers are the walk's.
    fn finish_singles(&mut self, split: bool, rng: &mut Rng) {
        let (empty, singles, res) = (self.st.empty(), &self.singles, &mut self.res);
        debug_assert!((empty - singles.hidden).is_empty());
        debug_assert!(!split || (empty - singles.hidden_in_box).is_empty());
        for m in (1..=empty.len()).rev() {
            // What the search looks at, all of which it finds.
            let seen = if split { m } else { 2 * m };
            let e = expected_checks(seen.into(), seen.into());
            res.d += e;
            res.checks[0] += e;
            let strategy = if split {
                res.singles3[0] += e;
                Strategy::HiddenSingle
            } else if rng.below(seen) < m {
                Strategy::NakedSingle
            } else {
                Strategy::HiddenSingle
            };
            res.strategies[strategy as usize] += 1;
            res.steps[0] += 1;
        }
    }

    /// One search for singles as hsolve makes it: every naked and hidden single together (a
    /// cell that is both counted twice), one drawn at random and placed. False when there
    /// is none (the search is charged all the same).
    fn single(&mut self, rng: &mut Rng) -> bool {
        let (st, singles, res) = (&mut self.st, &mut self.singles, &mut self.res);
        let p0 = 2 * st.empty().len() as u64;
        let (nn, nh) = (singles.naked.len(), singles.hidden.len());
        let v0 = (nn + nh) as u64;
        let e0 = expected_checks(p0, v0);
        res.d += e0;
        res.checks[0] += e0;
        let placed = (v0 > 0).then(|| {
            let k = rng.below(nn + nh);
            let (c, strategy) = if k < nn {
                (singles.naked.nth(k), Strategy::NakedSingle)
            } else {
                (singles.hidden.nth(k - nn), Strategy::HiddenSingle)
            };
            let c = c.expect("k < count");
            // A single is a sound deduction: its digit is the solution's.
            let d = self.solution.get(c);
            let house = match (&self.trace, strategy) {
                (Some(_), Strategy::HiddenSingle) => {
                    Some(st.hidden_single_at(c).expect("a hidden single").1)
                }
                _ => None,
            };
            singles.place(st, c, d);
            res.steps[0] += 1;
            res.strategies[strategy as usize] += 1;
            (c, d, strategy, house)
        });
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(Search {
                tier: 0,
                rung: 0,
                depth: 0,
                p: p0,
                v: v0,
                applied: placed.map(|(c, d, strategy, house)| {
                    Application::at_cell(strategy, c, d, Effect::Place(c, d)).in_house(house)
                }),
                d: res.d,
            });
        }
        placed.is_some()
    }

    /// One search for singles in three groups, as `difficulty` makes it: (a) the last empty
    /// cells of a house and hidden singles in a box; only when there are none, (b) hidden
    /// singles in a row or column, then (c) naked singles; each group searched is charged, and
    /// one single of the first group with any is drawn and placed. False when there is none.
    fn split_single(&mut self, rng: &mut Rng) -> bool {
        let (st, singles, res) = (&mut self.st, &mut self.singles, &mut self.res);
        let empty = st.empty();
        let all = singles.naked | singles.hidden;
        let sa = (singles.last_empty & all) | singles.hidden_in_box;
        let (sb, sc) = if sa.is_empty() {
            (singles.hidden, all - singles.hidden)
        } else {
            (CellSet::EMPTY, CellSet::EMPTY)
        };
        let p = empty.len() as u64;
        let mut pick = None;
        for (k, set) in [sa, sb, sc].into_iter().enumerate() {
            let e = expected_checks(p, set.len() as u64);
            res.d += e;
            res.checks[0] += e;
            res.singles3[k] += e;
            if !set.is_empty() {
                let c = set.nth(rng.below(set.len())).expect("k < count");
                // A single is a sound deduction: its digit is the solution's.
                let d = self.solution.get(c);
                let house = match (&self.trace, k) {
                    (Some(_), 1) => Some(st.hidden_single_at(c).expect("a hidden single").1),
                    _ => None,
                };
                pick = Some((c, d, house, set.len() as u64));
                break;
            }
        }
        let Some((c, d, house, v)) = pick else {
            return false;
        };
        let strategy = if singles.hidden.contains(c) {
            Strategy::HiddenSingle
        } else {
            Strategy::NakedSingle
        };
        res.strategies[strategy as usize] += 1;
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(Search {
                tier: 0,
                rung: 0,
                depth: 0,
                p,
                v,
                applied: Some(
                    Application::at_cell(strategy, c, d, Effect::Place(c, d)).in_house(house),
                ),
                d: res.d,
            });
        }
        singles.place(st, c, d);
        singles.after_fill(st, c);
        res.steps[0] += 1;
        true
    }
}

/// The simplest of `apps` (not empty): the first of the easiest technique in `order`, then
/// of the shortest (forcing chain length, then cells).
fn simplest(apps: &[Application], order: &[Strategy]) -> Application {
    let rank = |s: Strategy| {
        order
            .iter()
            .position(|&x| x == s)
            .unwrap_or(usize::MAX)
    };
    *apps
        .iter()
        .min_by_key(|a| (rank(a.strategy), a.depth, a.cells.len()))
        .expect("a search that found something")
}

/// The highest tier.
pub const HARDEST_TIER: u8 = 6;

/// The hardest tier `puzzle` needs: the smallest k for which tiers 0 to k solve it (the
/// fixpoints do not depend on the order of moves, so this is a property of the puzzle).
pub fn hardest_tier(puzzle: &Puzzle) -> Result<u8, RateError> {
    check_unique(puzzle)?;
    let mut st = Candidates::new(puzzle);
    for k in 0..=HARDEST_TIER {
        fixpoint(&mut st, k);
        if st.is_solved() {
            return Ok(k);
        }
    }
    Err(RateError::TooDeep)
}

/// The result of solving with the strategies of tiers 0 to k only.
#[derive(Clone, Debug)]
pub struct Fixpoint {
    /// The candidate state when no strategy of tiers 0-k applies any more (what the crate's
    /// tests look at).
    #[cfg_attr(not(feature = "dev"), allow(dead_code))]
    pub state: Candidates,
    /// The cells still empty: the pseudo-generator's reserved cells.
    pub reserved: CellSet,
}

/// Solves `puzzle` with the strategies of tiers 0 to `k` (0-6) until none applies.
///
/// Only contradictions count as proof (the puzzle may have several solutions), so every step
/// is sound. The fixpoint does not depend on the order in which applications are made.
pub fn solve_to_tier(puzzle: &Puzzle, k: u8) -> Result<Fixpoint, RateError> {
    if crate::solve::count_solutions(puzzle, 1) == 0 {
        return Err(RateError::NoSolution);
    }
    let mut state = Candidates::new(puzzle);
    fixpoint(&mut state, k);
    Ok(Fixpoint {
        reserved: state.empty(),
        state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::{EASY, HARD};

    #[test]
    fn expected_checks_formula() {
        assert_eq!(expected_checks(9, 0), 10.0);
        assert_eq!(expected_checks(9, 4), 2.0);
        assert_eq!(expected_checks(0, 0), 1.0);
    }

    #[test]
    fn easy_puzzle_uses_tier_zero_only() {
        let p: Puzzle = EASY.parse().unwrap();
        let r = rate(&p, 20).unwrap();
        assert_eq!(r.tier, 0);
        assert_eq!(
            r.steps,
            p.as_bytes().iter().filter(|&&v| v == 0).count() as f64
        );
        assert!(r.mean > 0.0);
        // Reproducible.
        assert_eq!(rate(&p, 20).unwrap(), r);
    }

    #[test]
    fn hard_puzzle_rates_higher_and_needs_tier_six() {
        let easy = rate(&EASY.parse().unwrap(), 5).unwrap();
        let hard = rate(&HARD.parse().unwrap(), 5).unwrap();
        assert!(hard.mean > 10.0 * easy.mean, "{hard:?} vs {easy:?}");
        assert_eq!(hard.tier, 6);
    }

    /// A run that ends its walk once every empty cell is a naked single measures what the
    /// walk would: a traced run (which always walks to the end) gives the same numbers, for
    /// hsolve's singles and for the split singles of `difficulty`, run after run.
    #[test]
    fn finished_singles_measure_what_the_walk_measures() {
        use crate::strategies::testing::{DEEP, TOP};
        for puzzle in [EASY, HARD, TOP, DEEP] {
            let p: Puzzle = puzzle.parse().unwrap();
            let solution = check_unique(&p).unwrap();
            let start = Candidates::new(&p);
            for split in [false, true] {
                let mut engine = if split {
                    let ladder = &crate::rate::difficulty::LADDER;
                    let mut e = Engine::new(solution, ladder, Model::Difficulty);
                    e.split_singles = true;
                    e
                } else {
                    Engine::new(solution, &PAPER_LADDER, Model::Hsolve)
                };
                for i in 0..6 {
                    let quick = engine.run(&start, &mut Rng::for_job(7, i), None).unwrap();
                    let mut trace = Vec::new();
                    let walked = engine
                        .run(&start, &mut Rng::for_job(7, i), Some(&mut trace))
                        .unwrap();
                    assert_eq!(quick.d.to_bits(), walked.d.to_bits(), "{puzzle} {split} {i}");
                    assert_eq!(quick.checks, walked.checks);
                    assert_eq!(quick.singles3, walked.singles3);
                    assert_eq!(quick.steps, walked.steps);
                    assert_eq!(quick.strategies, walked.strategies);
                    assert_eq!(quick.hardest, walked.hardest);
                }
            }
        }
    }

    #[test]
    fn rejects_puzzles_without_one_solution() {
        assert_eq!(rate(&Puzzle::EMPTY, 1), Err(RateError::NotUnique));
    }

    #[test]
    fn incremental_searches_equal_full_ones() {
        // Walk random paths of applications from several puzzles; at every state compare each
        // tier's incremental search (from the previous state) with a full search.
        let mut rng = Rng::new(11);
        let ctx = Context::default();
        for s in [
            EASY,
            HARD,
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ] {
            let p: Puzzle = s.parse().unwrap();
            for _ in 0..5 {
                let mut st = Candidates::new(&p);
                // hsolve's tiers 1-4 and the difficulty ladder's rungs searched by units.
                let lists: Vec<&[Strategy]> = PAPER_LADDER
                    .iter()
                    .chain(crate::rate::difficulty::LADDER.iter())
                    .filter(|r| r.by_units())
                    .map(|r| match r {
                        Rung::Strategies(list) => *list,
                        _ => unreachable!(),
                    })
                    .collect();
                assert_eq!(lists.len(), 7);
                let mut prev: Vec<Option<([u16; 81], Found)>> =
                    lists.iter().map(|_| None).collect();
                for _ in 0..200 {
                    let mut all = Vec::new();
                    for tier in 0..=4 {
                        strategies::search_tier(tier, &st, &ctx, &mut all);
                    }
                    for (i, list) in lists.iter().enumerate() {
                        let mut apps = Vec::new();
                        let p: u64 = list
                            .iter()
                            .map(|&s| strategies::search(s, &st, &ctx, &mut apps))
                            .sum();
                        if let Some((ps, pf)) = &prev[i] {
                            let inc = incremental(list, &st, ps, pf, Model::Difficulty);
                            assert_eq!(inc.p, p);
                            assert_eq!(inc.apps, apps);
                        }
                        // Without p, skipping the houses that cannot hold a subset.
                        let mut fewer = Vec::new();
                        let houses = strategies::SubsetHouses::new(&st);
                        strategies::apps_in(list, &st, &houses, &Units::ALL, &mut fewer);
                        assert_eq!(fewer, apps);
                        prev[i] = Some((
                            *st.masks(),
                            Found {
                                p,
                                apps,
                                memo: None,
                            },
                        ));
                    }
                    if all.is_empty() {
                        break;
                    }
                    let a = all[rng.index(all.len())];
                    st.apply(&a.effect);
                }
            }
        }
    }

    #[test]
    fn singles_tracked_incrementally_equal_singles_found_afresh() {
        // Random solving paths (singles when there are any, else an application of tiers
        // 1-5, or of trial and error, with the solution known, as the rating's runs make them): after every step the
        // singles kept up to date equal those of a fresh look at the state.
        let mut rng = Rng::new(5);
        for s in [
            EASY,
            HARD,
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ] {
            let p: Puzzle = s.parse().unwrap();
            let ctx = Context {
                solution: Some(check_unique(&p).unwrap()),
            };
            for _ in 0..10 {
                let mut st = Candidates::new(&p);
                let mut singles = Singles::of(&st);
                let mut steps = 0;
                while !st.is_solved() {
                    let all = singles.naked | singles.hidden;
                    if !all.is_empty() {
                        let c = all.nth(rng.below(all.len())).unwrap();
                        let d = match st.hidden_single_at(c) {
                            Some((d, _)) if !singles.naked.contains(c) => d,
                            _ => st.candidates(c).first().unwrap(),
                        };
                        singles.place(&mut st, c, d);
                        singles.after_fill(&st, c);
                    } else {
                        let mut apps = Vec::new();
                        for tier in 1..=5 {
                            strategies::search_tier(tier, &st, &ctx, &mut apps);
                        }
                        for depth in 1..=trial::MAX_DEPTH {
                            if apps.is_empty() {
                                trial::search(&st, &ctx, depth, &mut Known::default(), &mut apps);
                            }
                        }
                        let a = apps[rng.index(apps.len())];
                        singles.apply(&mut st, &a.effect);
                    }
                    assert_eq!(singles, Singles::of(&st), "{s}, step {steps}");
                    steps += 1;
                }
            }
        }
    }

    #[test]
    fn fixpoint_of_tier_six_solves() {
        let f = solve_to_tier(&HARD.parse().unwrap(), 6).unwrap();
        assert!(f.reserved.is_empty());
        let f0 = solve_to_tier(&HARD.parse().unwrap(), 0).unwrap();
        assert!(!f0.reserved.is_empty());
        assert!(f0.reserved.len() > 40);
    }
}
