//! Where a rating's time goes (`rate --profile`). Owns the profile's counters: per ladder rung
//! of each model, the searches asked for, those answered by the rating's own cache or by the
//! run's shared searches, those that found something, and their seconds; per strategy, the
//! searches made, hits and seconds; per stage of a rating (canonical form, each model, the
//! secondary metrics), the calls and seconds. Counting is off until [`start`] and then costs
//! two clock reads a search; the counters are process-wide atomics, so the threads of a run
//! add into one table.

use crate::rate::hsolve::{Rung, POSITIONS};
use crate::strategies::Strategy;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Whether counting is on.
static ON: AtomicBool = AtomicBool::new(false);

/// The rating models a profile tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    /// The project's `difficulty` ladder.
    Difficulty = 0,
    /// The paper's hsolve tiers.
    Hsolve = 1,
}

/// The stages of one rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The exact canonical form and class key.
    Canonical = 0,
    /// The `difficulty` runs (their uniqueness check included).
    Difficulty = 1,
    /// The hsolve runs (their uniqueness check included).
    Hsolve = 2,
    /// The secondary metrics and the level model's detail.
    Metrics = 3,
}

const STAGES: usize = 4;
const STAGE_NAMES: [&str; STAGES] = ["canonical form", "difficulty", "hsolve", "metrics"];

/// One row's counts: searches, cache answers, shared answers, hits and nanoseconds.
struct Row([AtomicU64; 5]);

impl Row {
    const fn new() -> Row {
        Row([const { AtomicU64::new(0) }; 5])
    }

    fn add(&self, counts: [u64; 5]) {
        for (a, c) in self.0.iter().zip(counts) {
            if c != 0 {
                a.fetch_add(c, Relaxed);
            }
        }
    }

    fn read(&self) -> Counts {
        let v: [u64; 5] = std::array::from_fn(|i| self.0[i].load(Relaxed));
        Counts {
            searches: v[0],
            cached: v[1],
            shared: v[2],
            hits: v[3],
            seconds: Duration::from_nanos(v[4]).as_secs_f64(),
        }
    }

    fn clear(&self) {
        self.0.iter().for_each(|a| a.store(0, Relaxed));
    }
}

static RUNGS: [[Row; POSITIONS]; 2] = [const { [const { Row::new() }; POSITIONS] }; 2];
static STRATEGIES: [[Row; Strategy::COUNT]; 2] =
    [const { [const { Row::new() }; Strategy::COUNT] }; 2];
static STAGE_ROWS: [Row; STAGES] = [const { Row::new() }; STAGES];

/// Turns counting on, from zero.
pub fn start() {
    RUNGS.iter().flatten().for_each(Row::clear);
    STRATEGIES.iter().flatten().for_each(Row::clear);
    STAGE_ROWS.iter().for_each(Row::clear);
    ON.store(true, Relaxed);
}

/// True while counting.
#[inline]
pub(crate) fn on() -> bool {
    ON.load(Relaxed)
}

/// A clock read when counting, for [`rung`], [`strategy`] and [`stage`].
#[inline]
pub(crate) fn clock() -> Option<Instant> {
    on().then(Instant::now)
}

fn nanos(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// How a rung's search was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Searched.
    Searched,
    /// From the rating's own cache (the same state seen by an earlier run).
    Cached,
    /// From the run's shared searches (the same state seen by another rating).
    Shared,
}

/// Counts one search of ladder position `pos` of `model`, begun at `since`.
pub(crate) fn rung(model: Model, pos: usize, answer: Answer, hit: bool, since: Option<Instant>) {
    let Some(since) = since else { return };
    RUNGS[model as usize][pos].add([
        1,
        u64::from(answer == Answer::Cached),
        u64::from(answer == Answer::Shared),
        u64::from(hit),
        nanos(since),
    ]);
}

/// Counts one search of strategy `s` in `model`, begun at `since`.
pub(crate) fn strategy(model: Model, s: Strategy, hit: bool, since: Option<Instant>) {
    let Some(since) = since else { return };
    STRATEGIES[model as usize][s as usize].add([1, 0, 0, u64::from(hit), nanos(since)]);
}

/// Counts one pass of `stage`, begun at `since`.
pub(crate) fn stage(stage: Stage, since: Option<Instant>) {
    let Some(since) = since else { return };
    STAGE_ROWS[stage as usize].add([1, 0, 0, 0, nanos(since)]);
}

/// The counts of one row of a [`Profile`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    /// Searches asked for (a stage: its passes).
    pub searches: u64,
    /// Of them, answered from the rating's own cache.
    pub cached: u64,
    /// Of them, answered from the run's shared searches.
    pub shared: u64,
    /// Searches that found at least one application.
    pub hits: u64,
    /// Seconds spent, summed over threads.
    pub seconds: f64,
}

/// One rung of a model's ladder in a [`Profile`], with the strategies it searches.
#[derive(Clone, Debug, PartialEq)]
pub struct RungRow {
    /// The ladder position (1 is the first rung after singles).
    pub position: usize,
    /// What the rung searches, in words.
    pub name: String,
    /// The rung's counts.
    pub counts: Counts,
    /// Its strategies' counts (those searched one by one).
    pub strategies: Vec<(Strategy, Counts)>,
}

/// Where a run's time went: the counts since [`start`].
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Per stage of a rating: its name and counts.
    pub stages: Vec<(&'static str, Counts)>,
    /// Per model (`difficulty`, then hsolve): its name and rungs.
    pub models: Vec<(&'static str, Vec<RungRow>)>,
}

/// The rungs of `model`'s ladder.
fn ladder(model: Model) -> &'static [Rung] {
    match model {
        Model::Difficulty => &crate::rate::difficulty::LADDER,
        Model::Hsolve => &crate::rate::hsolve::PAPER_LADDER,
    }
}

/// A rung in words.
fn rung_name(model: Model, pos: usize, rung: Rung) -> String {
    match (model, rung) {
        (Model::Hsolve, Rung::Strategies(_)) => format!("tier {pos}"),
        (Model::Hsolve, Rung::Backtracking) => "tier 5: backtracking".into(),
        (Model::Hsolve, Rung::Trial(n)) => format!("tier 6: trial, depth {n}"),
        (_, Rung::Strategies(list)) => {
            let names: Vec<&str> = list.iter().map(|s| s.name()).collect();
            let mut name = names.join(", ");
            if name.len() > 48 {
                name = format!("{} .. {}", names[0], names[names.len() - 1]);
            }
            name
        }
        (_, Rung::Forcing) => "forcing chains".into(),
        (_, Rung::Backtracking) => "backtracking".into(),
        (_, Rung::Trial(n)) => format!("trial and error, depth {n}"),
    }
}

/// The counts since [`start`] (counting goes on).
pub fn read() -> Profile {
    let stages = STAGE_NAMES
        .iter()
        .zip(&STAGE_ROWS)
        .map(|(&n, r)| (n, r.read()))
        .collect();
    let models = [Model::Difficulty, Model::Hsolve]
        .into_iter()
        .map(|model| {
            let rungs = ladder(model)
                .iter()
                .enumerate()
                .map(|(i, &rung)| {
                    let strategies = match rung {
                        Rung::Strategies(list) => list
                            .iter()
                            .map(|&s| (s, STRATEGIES[model as usize][s as usize].read()))
                            .filter(|(_, c)| c.searches > 0)
                            .collect(),
                        _ => Vec::new(),
                    };
                    RungRow {
                        position: i + 1,
                        name: rung_name(model, i + 1, rung),
                        counts: RUNGS[model as usize][i + 1].read(),
                        strategies,
                    }
                })
                .collect();
            let name = match model {
                Model::Difficulty => "difficulty",
                Model::Hsolve => "hsolve",
            };
            (name, rungs)
        })
        .collect();
    Profile { stages, models }
}

impl fmt::Display for Profile {
    /// The profile as tables: the stages, then each model's rungs with their strategies
    /// indented beneath (those searched one by one). Seconds are summed over threads; a
    /// model's share is of its stage's seconds, the rest of which is singles and steps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total: f64 = self.stages.iter().map(|(_, c)| c.seconds).sum();
        writeln!(
            f,
            "{:<44} {:>10} {:>10} {:>7}",
            "stage", "ratings", "seconds", "share"
        )?;
        for (name, c) in &self.stages {
            writeln!(
                f,
                "{name:<44} {:>10} {:>10.3} {:>6.1}%",
                c.searches,
                c.seconds,
                percent(c.seconds, total)
            )?;
        }
        for (i, (model, rungs)) in self.models.iter().enumerate() {
            let own = self.stages[1 + i].1.seconds;
            writeln!(f)?;
            writeln!(
                f,
                "{:<44} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}",
                format!("{model}: rung / strategy"),
                "searches",
                "cached",
                "shared",
                "hits",
                "seconds",
                "share"
            )?;
            let mut searched = 0.0;
            for r in rungs {
                let c = r.counts;
                searched += c.seconds;
                writeln!(
                    f,
                    "{:<44} {:>10} {:>10} {:>10} {:>10} {:>10.3} {:>6.1}%",
                    clip(&format!("{:>2} {}", r.position, r.name), 44),
                    c.searches,
                    c.cached,
                    c.shared,
                    c.hits,
                    c.seconds,
                    percent(c.seconds, own)
                )?;
                for (s, c) in &r.strategies {
                    writeln!(
                        f,
                        "{:<44} {:>10} {:>10} {:>10} {:>10} {:>10.3} {:>6.1}%",
                        clip(&format!("     {}", s.name()), 44),
                        c.searches,
                        "",
                        "",
                        c.hits,
                        c.seconds,
                        percent(c.seconds, own)
                    )?;
                }
            }
            writeln!(
                f,
                "{:<44} {:>10} {:>10} {:>10} {:>10} {:>10.3} {:>6.1}%",
                "   singles, steps and the rest",
                "",
                "",
                "",
                "",
                (own - searched).max(0.0),
                percent((own - searched).max(0.0), own)
            )?;
        }
        Ok(())
    }
}

fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        0.0
    }
}

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
