//! One job of a build: a seed prepared for the pseudo-generator, the puzzle a job makes
//! (pseudo-generation, the uniqueness check, the canonical form), and the rated result that
//! becomes a stored row.
//!
//! Job j draws every random choice from `Rng::for_job(rng_seed, j)`, so a job's puzzle does not
//! depend on which thread runs it.

use super::layout::Layout;
use crate::canon::{self, Canonical};
use crate::cellset::CellSet;
use crate::generate::Symmetry;
use crate::grid::{Cell, Grid, Puzzle};
use crate::rate::hsolve;
use crate::rate::Graded;
use crate::rng::Rng;
use crate::seeds::{Library, Seed};
use crate::strategies::tiers;
use crate::store::{self, NewPuzzle};
use crate::transform::Transform;
use rayon::prelude::*;

/// A seed ready for the pseudo-generator.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Its row id in the bank's `seeds` table (0 until stored).
    pub id: i64,
    /// The seed.
    pub seed: Seed,
    /// The tier the clue selection solves with: one below the seed's hardest.
    pub k: u8,
    /// Its reserved cells: empty after tier-k solving.
    pub reserved: CellSet,
    /// Its core, made when a symmetric job first needs it ([`Prepared::core`]).
    core: std::sync::OnceLock<CellSet>,
}

impl Prepared {
    /// Computes the reserved cells of `seed` (row id `id`).
    pub fn new(id: i64, seed: Seed) -> Prepared {
        let k = seed.tier.saturating_sub(1);
        let reserved = hsolve::solve_to_tier(&seed.puzzle, k)
            .expect("a seed has a solution")
            .reserved;
        Prepared {
            id,
            seed,
            k,
            reserved,
            core: std::sync::OnceLock::new(),
        }
    }

    /// Its core: a part of the reserved cells, smallest by removal, that tier-k solving still
    /// cannot fill when every other cell is given ([`core_of`]); what a symmetric clue
    /// selection keeps empty.
    pub fn core(&self) -> CellSet {
        *self
            .core
            .get_or_init(|| core_of(&self.seed.solution, self.reserved, self.k))
    }

    /// The seed as the bank stores it.
    pub fn to_row(&self) -> store::seeds::SeedRow {
        store::seeds::SeedRow {
            puzzle: self.seed.puzzle.to_line(),
            solution: self.seed.solution.to_line(),
            canon_key: self.seed.key().to_hex(),
            tier: self.seed.tier,
            hsolve: self.seed.hsolve,
            reserved: Cell::all()
                .map(|c| if self.reserved.contains(c) { '1' } else { '0' })
                .collect(),
            provenance: self.seed.provenance.clone(),
        }
    }
}

/// The cells of `reserved` that tier-`k` solving cannot fill when every other cell of
/// `solution` is given, made smaller one cell at a time (in cell order): a cell is given when
/// tier-`k` solving still stalls without it, and the core becomes what that solving leaves
/// empty. Every cell left is needed: giving any one of them lets tier-`k` solving finish.
fn core_of(solution: &Grid, reserved: CellSet, k: u8) -> CellSet {
    let stalls = |open: CellSet| -> CellSet {
        let mut cells = *solution.as_bytes();
        for c in open.iter() {
            cells[c.index()] = 0;
        }
        let mut st = crate::candidates::Candidates::new(&Puzzle::from_bytes_unchecked(cells));
        tiers::fixpoint(&mut st, k);
        st.empty()
    };
    let mut core = stalls(reserved);
    for c in reserved.iter() {
        if !core.contains(c) {
            continue;
        }
        let left = stalls(core - CellSet::single(c));
        if !left.is_empty() {
            core = left;
        }
    }
    core
}

/// Prepares the library's seeds (in parallel on the current rayon pool).
pub fn prepare(lib: &Library) -> Vec<Prepared> {
    lib.seeds
        .par_iter()
        .map(|s| Prepared::new(0, s.clone()))
        .collect()
}

/// Stores prepared seeds in the bank (once per class) and sets their row ids.
pub fn store_seeds(
    conn: &store::Bank,
    mut prepared: Vec<Prepared>,
) -> store::Result<Vec<Prepared>> {
    let rows: Vec<store::seeds::SeedRow> = prepared.iter().map(Prepared::to_row).collect();
    for (p, id) in prepared.iter_mut().zip(store::seeds::store(conn, &rows)?) {
        p.id = id;
    }
    Ok(prepared)
}

/// A generated puzzle with one solution, before rating.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The job that made it.
    pub job: u64,
    /// Index of its seed in the prepared list, or `None` for a generator.
    pub seed_index: Option<usize>,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// The symmetry applied to the seed (the identity for a generator).
    pub transform: Transform,
    /// Its canonical form.
    pub canon: Canonical,
}

/// What a job produced.
#[derive(Clone, Debug)]
pub enum JobResult {
    /// A puzzle with one solution.
    Puzzle(Box<Generated>),
    /// The pseudo-generator made a puzzle without exactly one solution (a bug: counted,
    /// reported, never stored).
    NotUnique(u64),
}

/// Where a job's puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The pseudo-generator on one of these seeds (indexes into the prepared list), drawn at
    /// random.
    Seeds(Vec<usize>),
    /// The paper's standard generator (for bands too easy for every seed).
    Standard,
    /// Random minimal puzzles (for bands too easy for every seed, where they land more often
    /// than the standard generator's).
    Minimal,
    /// The pseudo-generator on one of these seeds, eased: a random number of the orbits its
    /// clue selection keeps empty revealed (none to all), so that its puzzles reach below the
    /// seed's difficulty; for ranges below every seed (see [`super::targets::choose_sources`]).
    Eased(Vec<usize>),
}

impl Source {
    /// How a build's summary names it.
    pub fn describe(&self) -> String {
        match self {
            Source::Standard => "standard generator".to_string(),
            Source::Minimal => "random minimal puzzles".to_string(),
            Source::Seeds(v) => format!("{} seeds", v.len()),
            Source::Eased(v) => format!("{} seeds eased", v.len()),
        }
    }
}

/// Runs job `job` from `source`, with the symmetry and minimality of `layout` (its other
/// rules are checked when the puzzle is rated).
pub fn generate(
    seeds: &[Prepared],
    source: &Source,
    rng_seed: u64,
    job: u64,
    layout: &Layout,
) -> JobResult {
    match source {
        Source::Seeds(among) => pseudo_generate(seeds, among, rng_seed, job, layout, false),
        Source::Eased(among) => pseudo_generate(seeds, among, rng_seed, job, layout, true),
        Source::Standard | Source::Minimal => {
            let mut rng = Rng::for_job(rng_seed, job);
            let symmetry = layout.generated_symmetry();
            let mut puzzle = if *source == Source::Standard {
                crate::generate::standard(&mut rng)
            } else {
                crate::generate::random_minimal(&mut rng, symmetry)
            };
            let Some(solution) = crate::solve::solve(&puzzle).unique() else {
                return JobResult::NotUnique(job);
            };
            // Clues added from the solution, or removed while it stays unique, keep it.
            if *source == Source::Standard && symmetry != Symmetry::None {
                puzzle = symmetrize(&puzzle, &solution, symmetry);
            }
            let keep = layout.clues_every_house();
            if keep {
                puzzle = clue_every_house(&puzzle, &solution, symmetry, CellSet::EMPTY, &mut rng);
            }
            if layout.minimal && *source == Source::Standard {
                puzzle = minimize(&puzzle, symmetry, false, &mut rng);
            }
            if let Some(range) = layout.clues {
                // A random minimal puzzle, or a standard one just made minimal: none can go.
                let minimized = layout.minimal || *source != Source::Standard;
                let rules = Fit { symmetry, range, minimal: layout.minimal, minimized, keep };
                puzzle = fit_clues(&puzzle, &solution, &rules, &mut rng);
            }
            JobResult::Puzzle(Box::new(Generated {
                job,
                seed_index: None,
                canon: canon::canonical(&puzzle),
                puzzle,
                solution,
                transform: Transform::identity(),
            }))
        }
    }
}

/// How many states the exact solver may propagate looking for a solution of the clues that
/// leaves a cell open, before the pseudo-generator solves by tiers instead (either answers
/// exactly; this only trades one cost for the other).
/// `p` with the orbits of its clues (under `symmetry`) filled from its solution: symmetric,
/// and still of one solution.
fn symmetrize(p: &Puzzle, solution: &Grid, symmetry: Symmetry) -> Puzzle {
    let mut cells = *p.as_bytes();
    for c in Cell::all().filter(|&c| p.get(c).is_some()) {
        for x in symmetry.orbit(c) {
            cells[x.index()] = solution.get(x).get();
        }
    }
    Puzzle::from_bytes_unchecked(cells)
}

/// `p` (symmetric under `symmetry`, one solution) made minimal by removing orbits of clues in
/// random order while the solution stays unique (and, with `clued_houses`, while every house
/// keeps a clue).
fn minimize(p: &Puzzle, symmetry: Symmetry, clued_houses: bool, rng: &mut Rng) -> Puzzle {
    let mut orbits: Vec<Vec<Cell>> = symmetry
        .orbits()
        .into_iter()
        .filter(|o| o.iter().any(|&c| p.get(c).is_some()))
        .collect();
    crate::generate::mask_with(p.as_bytes(), &mut orbits, clued_houses, rng)
}

/// `p` (symmetric under `symmetry`, one solution `solution`) with a clue in every house: for
/// each house without one, in order, a random cell of it outside `reserved` (any of its cells
/// when all are reserved) is revealed with its orbit. Clues added from the solution keep it
/// the only one.
fn clue_every_house(
    p: &Puzzle,
    solution: &Grid,
    symmetry: Symmetry,
    reserved: CellSet,
    rng: &mut Rng,
) -> Puzzle {
    let mut cells = *p.as_bytes();
    loop {
        let empty = crate::generate::empty_houses(&cells);
        if empty == 0 {
            return Puzzle::from_bytes_unchecked(cells);
        }
        let house = CellSet::house_at(empty.trailing_zeros() as usize);
        let open = house - reserved;
        let among = if open.is_empty() { house } else { open };
        let c = among.nth(rng.below(among.len())).expect("a cell of the house");
        for x in symmetry.orbit(c) {
            cells[x.index()] = solution.get(x).get();
        }
    }
}

/// What [`fit_clues`] keeps to: the symmetry, the clue range, whether the layout is minimal
/// (no orbit may be added), whether the puzzle was just made minimal by orbits (none can be
/// removed) and whether every house must keep a clue.
struct Fit {
    symmetry: Symmetry,
    range: (u32, u32),
    minimal: bool,
    minimized: bool,
    keep: bool,
}

/// `p` (symmetric under `symmetry`, one solution `solution`) brought into the clue range
/// `(low, high)` where it can be, to a count drawn uniformly in the range, by whole orbits in
/// random order: too few clues, orbits of empty cells filled from the solution (not for a
/// minimal layout, which that would break) without passing `high`; too many, orbits of clues
/// removed while the solution stays unique (not when it was just made minimal by orbits,
/// `minimized`: none can go).
/// A level's clue range is so generated, not only filtered: a publisher's easy puzzles have
/// more clues than the generators leave, their hardest fewer. What still falls outside is
/// left to the level's filter.
fn fit_clues(p: &Puzzle, solution: &Grid, rules: &Fit, rng: &mut Rng) -> Puzzle {
    let Fit {
        symmetry,
        range: (low, high),
        minimal,
        minimized,
        keep,
    } = *rules;
    let mut cells = *p.as_bytes();
    let mut n = p.clues() as u32;
    if (low..=high).contains(&n) || low > high {
        return *p;
    }
    let target = low + rng.below(high - low + 1);
    if n < low && !minimal {
        let mut empty: Vec<Vec<Cell>> = symmetry
            .orbits()
            .into_iter()
            .filter(|o| o.iter().all(|&c| cells[c.index()] == 0))
            .collect();
        rng.shuffle(&mut empty);
        for orbit in empty {
            if n >= target {
                break;
            }
            if n + orbit.len() as u32 > high {
                continue;
            }
            for c in &orbit {
                cells[c.index()] = solution.get(*c).get();
            }
            n += orbit.len() as u32;
        }
    } else if n > high && !minimized {
        let mut full: Vec<Vec<Cell>> = symmetry
            .orbits()
            .into_iter()
            .filter(|o| o.iter().all(|&c| cells[c.index()] != 0))
            .collect();
        rng.shuffle(&mut full);
        for orbit in full {
            if n <= target {
                break;
            }
            if n < low + orbit.len() as u32 {
                continue;
            }
            let mut fewer = cells;
            for c in &orbit {
                fewer[c.index()] = 0;
            }
            if keep && crate::generate::empty_houses(&fewer) != 0 {
                continue;
            }
            if crate::solve::is_unique(&Puzzle::from_bytes_unchecked(fewer)) {
                cells = fewer;
                n -= orbit.len() as u32;
            }
        }
    }
    Puzzle::from_bytes_unchecked(cells)
}

/// The pseudo-generator for one job: a seed drawn from `among`, a random symmetry of its
/// solution and reserved cells, then random unreserved cells revealed, each followed by tier-k
/// solving, until every unreserved cell is filled. Reserved cells never get a clue, unless
/// `eased` ([`Source::Eased`]): then a random number of the empty orbits holding one (none to
/// all, uniformly) are revealed once the puzzle has one solution, before the layout's rules.
///
/// With a layout symmetry, only the seed's core ([`Prepared::core`]) stays empty, and the
/// seed's symmetry is one whose core cells share orbits with the fewest other cells
/// ([`super::orient`]: of all transforms for a half-turn or a mirror). Every orbit without a
/// core cell is revealed, and the orbits holding one stay empty; when the puzzle then has more
/// than one solution, those orbits are revealed in random order until it has one. Then orbits
/// of clues are removed in random order while the solution stays unique (as with minimality
/// alone): without that a seed's symmetric puzzles come out far easier than the seed. A
/// puzzle whose core orbits all stay empty still needs more than tier k, as the core stalls
/// tier-k solving even when every other cell is given; tier-k solving after each reveal would
/// only choose the clues the removal starts from. (Keeping all the reserved cells empty, 35-50
/// cells for the hardest seeds, left so many other cells empty in their orbits that most
/// puzzles needed several of those orbits revealed, which undoes the seed's hard step: 11% of
/// a `rotate180` expert level's jobs landed in it, 18% with the core.)
pub fn pseudo_generate(
    seeds: &[Prepared],
    among: &[usize],
    rng_seed: u64,
    job: u64,
    layout: &Layout,
    eased: bool,
) -> JobResult {
    let mut rng = Rng::for_job(rng_seed, job);
    let si = among[rng.index(among.len())];
    let s = &seeds[si];
    let symmetry = layout.generated_symmetry();
    // A symmetric clue selection keeps the seed's core empty, not all its reserved cells.
    let kept = if symmetry == Symmetry::None {
        s.reserved
    } else {
        s.core()
    };
    let t = super::orient::orient(kept, symmetry, &mut rng);
    let reserved: CellSet = Cell::all()
        .filter(|&c| kept.contains(t.source_of(c)))
        .collect();
    let solution = t.apply_grid(&s.seed.solution);
    let (mut open, mut blocked): (Vec<Vec<Cell>>, Vec<Vec<Cell>>) = symmetry
        .orbits()
        .into_iter()
        .partition(|o| o.iter().all(|c| !reserved.contains(*c)));
    let mut clues = [0u8; 81];
    if symmetry == Symmetry::None {
        rng.shuffle(&mut open);
        let mut st = crate::candidates::Candidates::new(&Puzzle::EMPTY);
        let mut solver = tiers::TierSolver::new(s.k);
        for orbit in open {
            if orbit.iter().all(|&c| st.value(c).is_some()) {
                continue; // already deduced
            }
            for c in orbit {
                let d = solution.get(c);
                clues[c.index()] = d.get();
                if st.value(c).is_none() && st.place(c, d).is_none() {
                    return JobResult::NotUnique(job);
                }
            }
            solver.run(&mut st);
        }
    } else {
        // Every open orbit at once: orbits of clues are removed below while the solution
        // stays unique, so solving after each reveal would only choose the clues that removal
        // starts from, at half a symmetric job's cost.
        for &c in open.iter().flatten() {
            clues[c.index()] = solution.get(c).get();
        }
    }
    let mut puzzle = Puzzle::from_bytes_unchecked(clues);
    if symmetry != Symmetry::None {
        rng.shuffle(&mut blocked);
        let mut rest = blocked.into_iter();
        while !crate::solve::is_unique(&puzzle) {
            let Some(orbit) = rest.next() else {
                return JobResult::NotUnique(job);
            };
            for c in orbit {
                clues[c.index()] = solution.get(c).get();
            }
            puzzle = Puzzle::from_bytes_unchecked(clues);
        }
    } else if !crate::solve::is_unique(&puzzle) {
        return JobResult::NotUnique(job);
    }
    // Eased: a random number of the orbits left empty with a reserved cell revealed (none
    // to all), so the seed's puzzles reach below the seed's difficulty.
    if eased {
        let mut empty: Vec<Vec<Cell>> = symmetry
            .orbits()
            .into_iter()
            .filter(|o| {
                o.iter().all(|&c| puzzle.get(c).is_none()) && o.iter().any(|&c| reserved.contains(c))
            })
            .collect();
        rng.shuffle(&mut empty);
        let r = rng.below(empty.len() as u32 + 1) as usize;
        for orbit in empty.into_iter().take(r) {
            for c in orbit {
                clues[c.index()] = solution.get(c).get();
            }
        }
        puzzle = Puzzle::from_bytes_unchecked(clues);
    }
    let keep = layout.clues_every_house();
    if keep {
        puzzle = clue_every_house(&puzzle, &solution, symmetry, reserved, &mut rng);
    }
    if layout.minimal || symmetry != Symmetry::None {
        puzzle = minimize(&puzzle, symmetry, keep, &mut rng);
    }
    if let Some(range) = layout.clues {
        let minimized = layout.minimal || symmetry != Symmetry::None;
        let rules = Fit { symmetry, range, minimal: layout.minimal, minimized, keep };
        puzzle = fit_clues(&puzzle, &solution, &rules, &mut rng);
    }
    let canon = canon::canonical(&puzzle);
    JobResult::Puzzle(Box::new(Generated {
        job,
        seed_index: Some(si),
        puzzle,
        solution,
        transform: t,
        canon,
    }))
}

/// A job's puzzle, rated, with its percentile and provenance: a row to store.
#[derive(Clone, Debug)]
pub struct Rated {
    /// The job that made it.
    pub job: u64,
    /// Its seed's row id, or `None` for a generator.
    pub seed_id: Option<i64>,
    /// The symmetry applied to the seed (`None` for a generator).
    pub transform: Option<Transform>,
    /// The puzzle and its rating.
    pub graded: Graded,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
    /// Its level on the bank's levels (0 = easiest).
    pub level: u32,
    /// Its values on the bank's named ratings (name, value).
    pub named: Vec<(String, f64)>,
}

/// A generated puzzle with the one rating its bank's scale reads (its percentile and level
/// known), before the other: what a build needs to tell whether a puzzle can land anywhere
/// before it pays for the second rating.
#[derive(Clone, Debug)]
pub struct Measured {
    generated: Generated,
    difficulty: Option<crate::rate::difficulty::Difficulty>,
    /// Its percentile against the bank's reference, when the bank's rating is made.
    pub percentile: Option<f64>,
    /// Its level, when the bank's rating is made.
    pub level: Option<u32>,
}

impl Measured {
    /// Makes the bank's rating of `g` first when that is `difficulty` (the cheaper one, and
    /// the default); for a bank rated by hsolve nothing is made yet. `g` back, unrated, when
    /// `far` says of the values of the first runs (see
    /// [`crate::rate::difficulty_of_class_unless`]) that no one wants the puzzle. The rating
    /// shares its hard searches through `shared` (a worker's, for the puzzles it rates).
    pub fn new(
        g: Generated,
        levels: &crate::levels::Levels,
        far: impl Fn(f64, f64) -> bool,
        shared: &crate::rate::SharedSearches,
    ) -> Result<Measured, Box<Generated>> {
        Ok(match levels.rating {
            crate::levels::RatingKind::Difficulty => {
                let (canon, solution) = (&g.canon, &g.solution);
                let Some(d) = crate::rate::difficulty_of_class_unless(canon, solution, far, shared)
                else {
                    return Err(Box::new(g));
                };
                let value = crate::rate::round(d.value, 3);
                Measured {
                    percentile: Some(levels.percentile(value, 0.0)),
                    level: levels.level_of_value(value, d.hardest_step),
                    difficulty: Some(d),
                    generated: g,
                }
            }
            crate::levels::RatingKind::Hsolve => Measured {
                generated: g,
                difficulty: None,
                percentile: None,
                level: None,
            },
        })
    }

    /// The job that made it.
    pub fn job(&self) -> u64 {
        self.generated.job
    }

    /// Its class key.
    pub fn key(&self) -> crate::canon::Key {
        self.generated.canon.key()
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.generated.puzzle
    }

    /// Makes the other rating and the metrics: the row to store.
    pub fn rate(self, seeds: &[Prepared], levels: &crate::levels::Levels) -> Rated {
        let g = self.generated;
        let seed_id = g.seed_index.map(|i| seeds[i].id);
        let transform = g.seed_index.map(|_| g.transform);
        let graded = match self.difficulty {
            Some(d) => Graded::with_difficulty(g.puzzle, g.solution, g.canon, &d),
            None => Graded::new(g.puzzle, g.solution, g.canon),
        }
        .expect("a generated puzzle is unique");
        let (d, h) = (graded.rating.difficulty, graded.rating.hsolve);
        let (level, named) = levels.grade(&graded.puzzle, &graded.rating);
        Rated {
            job: g.job,
            seed_id,
            transform,
            percentile: levels.percentile(d, h),
            level,
            named,
            graded,
        }
    }
}

impl From<Rated> for NewPuzzle {
    fn from(r: Rated) -> NewPuzzle {
        let (g, rating) = (&r.graded, &r.graded.rating);
        NewPuzzle {
            puzzle: g.puzzle,
            canon_key: g.key(),
            clues: u32::from(rating.clues),
            difficulty: rating.difficulty,
            hsolve: rating.hsolve,
            hsolve_sd: rating.hsolve_sd,
            tier: rating.tier,
            technique: rating.technique,
            seed_id: r.seed_id,
            level: r.level,
            transform: r.transform.map(|t| t.rank()),
            job: r.job,
            hardest: Some(rating.hardest),
            named: r.named,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells tier-`k` solving leaves empty when every cell of `solution` outside `open`
    /// is given.
    fn left_open(solution: &Grid, open: CellSet, k: u8) -> CellSet {
        let mut cells = *solution.as_bytes();
        for c in open.iter() {
            cells[c.index()] = 0;
        }
        hsolve::solve_to_tier(&Puzzle::from_bytes_unchecked(cells), k)
            .expect("a solution's cells")
            .reserved
    }

    /// A seed's core lies in its reserved cells, is exactly what tier-k solving leaves empty
    /// when every other cell is given, and no cell of it can be given: giving any one lets
    /// tier-k solving finish. Checked on every tenth seed of the shipped library.
    #[test]
    fn a_seed_core_stalls_tier_k_and_every_cell_of_it_is_needed() {
        let lib = crate::seeds::Library::shipped();
        let mut smaller = 0;
        let mut seen = 0;
        for s in lib.seeds.iter().step_by(10) {
            let p = Prepared::new(0, s.clone());
            seen += 1;
            let core = p.core();
            assert!(!core.is_empty());
            assert!(core.iter().all(|c| p.reserved.contains(c)));
            assert_eq!(left_open(&s.solution, core, p.k), core);
            for c in core.iter() {
                let fewer = core - CellSet::single(c);
                assert!(left_open(&s.solution, fewer, p.k).is_empty(), "{} cell {c:?}", s.puzzle);
            }
            smaller += usize::from(core.len() < p.reserved.len());
        }
        assert!(smaller * 2 > seen, "{smaller} of {seen} cores smaller than the reserved cells");
    }

    /// An eased job reveals a random number of its seed's reserved cells (in the frame of
    /// the job's transform), from none to all: its puzzle keeps the seed's solution and one
    /// solution, and some eased puzzles need no more than tier k where every plain one stalls
    /// it.
    #[test]
    fn an_eased_job_reveals_part_of_its_seed_reserved_cells() {
        let lib = crate::seeds::Library::shipped();
        let s = lib.seeds.iter().find(|s| s.tier >= 3).expect("a seed of tier 3 or more");
        let seeds = [Prepared::new(0, s.clone())];
        let free = Layout::default();
        let mut revealed = std::collections::BTreeSet::new();
        let (mut finished, mut stalled) = (0, 0);
        for job in 0..60 {
            for eased in [false, true] {
                let JobResult::Puzzle(g) = pseudo_generate(&seeds, &[0], 7, job, &free, eased)
                else {
                    panic!("job {job} made a puzzle without one solution");
                };
                assert_eq!(crate::solve::solve(&g.puzzle).unique(), Some(g.solution));
                let t = g.transform;
                assert_eq!(g.solution, t.apply_grid(&s.solution));
                let reserved: CellSet = Cell::all()
                    .filter(|&c| seeds[0].reserved.contains(t.source_of(c)))
                    .collect();
                let given = reserved.iter().filter(|&c| g.puzzle.get(c).is_some()).count();
                let open = hsolve::solve_to_tier(&g.puzzle, seeds[0].k).unwrap().reserved;
                if !eased {
                    assert_eq!(given, 0, "a plain job keeps every reserved cell empty");
                    assert!(!open.is_empty(), "a plain job's puzzle stalls tier k");
                } else {
                    revealed.insert(given);
                    if open.is_empty() {
                        finished += 1;
                    } else {
                        stalled += 1;
                    }
                }
            }
        }
        assert!(revealed.len() > 10, "{revealed:?}");
        assert!(finished > 0 && stalled > 0, "{finished} finished, {stalled} stalled");
    }

    /// The rules of [`fit_clues`] for a range, free of the house rule.
    fn fit(symmetry: Symmetry, range: (u32, u32), minimal: bool, minimized: bool) -> Fit {
        Fit {
            symmetry,
            range,
            minimal,
            minimized,
            keep: false,
        }
    }

    #[test]
    fn a_clue_range_is_reached_by_orbits_keeping_the_solution() {
        let mut rng = Rng::new(11);
        for round in 0..40 {
            let symmetry = [Symmetry::None, Symmetry::Rotate180][round % 2];
            let p = crate::generate::random_minimal(&mut rng, symmetry);
            let solution = crate::solve::solve(&p).unique().unwrap();
            let n = p.clues() as u32;
            // More clues: added from the solution, by orbits, into the range.
            let more = fit_clues(&p, &solution, &fit(symmetry, (n + 6, n + 9), false, false), &mut rng);
            assert!((n + 6..=n + 9).contains(&(more.clues() as u32)), "{more}");
            assert!(symmetry.holds_for(&more));
            assert_eq!(crate::solve::solve(&more).unique(), Some(solution));
            // Fewer: removed while unique, from the richer puzzle back into a lower range.
            let fewer = fit_clues(&more, &solution, &fit(symmetry, (n, n + 3), false, false), &mut rng);
            let m = fewer.clues() as u32;
            assert!(m <= more.clues() as u32 && m >= n, "{m} from {}", more.clues());
            assert!(symmetry.holds_for(&fewer));
            assert_eq!(crate::solve::solve(&fewer).unique(), Some(solution));
            // A minimal layout gets no clue added; a puzzle in range is left as it is.
            assert_eq!(fit_clues(&p, &solution, &fit(symmetry, (n + 6, n + 9), true, true), &mut rng), p);
            assert_eq!(fit_clues(&p, &solution, &fit(symmetry, (n - 2, n + 2), false, false), &mut rng), p);
            // With the house rule, clues go only while every house keeps one.
            let clued = clue_every_house(&more, &solution, symmetry, CellSet::EMPTY, &mut rng);
            let rules = Fit { keep: true, ..fit(symmetry, (17, n), false, false) };
            let fewer = fit_clues(&clued, &solution, &rules, &mut rng);
            assert!(!crate::bank::layout::has_empty_house(&fewer), "{fewer}");
            assert_eq!(crate::solve::solve(&fewer).unique(), Some(solution));
        }
    }

    /// Every house gets a clue, by orbits, from the solution: the solution stays the only one,
    /// the symmetry holds, nothing changes in a puzzle without an empty house, and a house with
    /// a cell outside the reserved cells gets its clue there.
    #[test]
    fn every_house_gets_a_clue_outside_the_reserved_cells() {
        let mut rng = Rng::new(12);
        let mut filled = 0;
        for round in 0..60 {
            let symmetry = [Symmetry::None, Symmetry::Rotate180, Symmetry::Mirror][round % 3];
            let p = crate::generate::random_minimal(&mut rng, symmetry);
            let solution = crate::solve::solve(&p).unique().unwrap();
            // Reserve a random third of the empty cells.
            let reserved: CellSet = Cell::all()
                .filter(|&c| p.get(c).is_none() && rng.below(3) == 0)
                .collect();
            let q = clue_every_house(&p, &solution, symmetry, reserved, &mut rng);
            assert_eq!(crate::generate::empty_houses(q.as_bytes()), 0, "{q}");
            assert!(symmetry.holds_for(&q));
            assert_eq!(crate::solve::solve(&q).unique(), Some(solution));
            let empty = crate::generate::empty_houses(p.as_bytes());
            if empty == 0 {
                assert_eq!(q, p);
                continue;
            }
            filled += 1;
            // Only cells the puzzle left empty were revealed, each with its solution digit.
            for c in Cell::all().filter(|&c| q.get(c) != p.get(c)) {
                assert_eq!(p.get(c), None);
                assert_eq!(q.get(c), Some(solution.get(c)));
            }
            // The first empty house's clue is outside the reserved cells when it can be.
            let house = CellSet::house_at(empty.trailing_zeros() as usize);
            if !(house - reserved).is_empty() {
                assert!(house.iter().any(|c| q.get(c).is_some() && !reserved.contains(c)));
            }
        }
        assert!(filled >= 10, "{filled} puzzles had an empty house");
    }
}
