//! Handing out puzzles: the one path by which `get`, `serve` and `export` give someone a puzzle
//! of the bank. A `Selector` (a band, a percentile range, a level or every puzzle), narrowed
//! when asked to one hardest step (a technique of the `difficulty` ladder), is resolved on the
//! bank's levels; `Draws` draws uniformly among the puzzles the recipient has not had,
//! records what it hands out as the `Recipient` says, names the puzzle's level on the bank's
//! levels, solves it and measures its percentile: a complete `Handout`.

use crate::canon::Key;
use crate::grid::{Grid, Puzzle};
use crate::levels::{Band, LevelSet, Levels, LevelsError, PercentileRange, RatingKind};
use crate::rng::Rng;
pub use crate::store::retrieval::{unserve, Unserved};
use crate::store::retrieval::{Measure, NamedRange, PuzzleRow, Sampler, Selection, Within};
use crate::store::{self, Bank, StoreError};
use crate::technique::{HardestStep, Strategy};

/// What can go wrong in retrieval.
#[derive(Debug, thiserror::Error)]
pub enum RetrieveError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The bank has no level of that name, or its levels cannot be read.
    #[error(transparent)]
    Levels(#[from] LevelsError),
    /// Handing a puzzle over failed (its output could not be written): it and the rest were
    /// not marked served.
    #[error("handing a puzzle over")]
    Deliver(#[source] std::io::Error),
    /// The bank has no named rating of that name.
    #[error("the bank has no rating named {name:?} (its named ratings: {}); `pseudoku calibrate --from FILE --labelled --named NAME` makes one", if names.is_empty() { "none".to_string() } else { names.join(", ") })]
    UnknownRating {
        /// The name asked.
        name: String,
        /// The bank's named ratings.
        names: Vec<String>,
    },
    /// A stored puzzle has not exactly one solution (a damaged row: `verify` lists them).
    #[error("row {0} of the bank does not hold a puzzle with one solution (`pseudoku verify` lists such rows)")]
    Unsolvable(i64),
    /// A user id that is not one.
    #[error("bad user id {0:?}: 1 to 64 characters among letters, digits and - _ . : @")]
    User(String),
    /// A server records deliveries in the bank: a user's puzzles are its to hand out.
    #[error(
        "{}: a server records deliveries in this bank (or its history is being moved): ask it \
         (POST /v1/puzzles/next?user=USER&match=skill), or stop it first",
        .0.display()
    )]
    Held(std::path::PathBuf),
}

/// What to retrieve.
#[derive(Clone, Debug, PartialEq)]
pub enum Selector {
    /// Band k of m.
    Band(Band),
    /// A percentile interval.
    Percentile(PercentileRange),
    /// A level of the bank's level names.
    Level(String),
    /// Every puzzle (with a technique: every puzzle whose hardest step it is).
    All,
}

impl Selector {
    /// The puzzles it stands for in a bank with these levels.
    pub fn within(&self, levels: &LevelSet) -> Result<Within, RetrieveError> {
        Ok(match self {
            Selector::All => Within::All,
            Selector::Band(b) => Within::Percentiles(b.range()),
            Selector::Percentile(r) => Within::Percentiles(*r),
            Selector::Level(name) => {
                Within::Level(
                    levels
                        .index(name)
                        .ok_or_else(|| LevelsError::UnknownLevel {
                            name: name.clone(),
                            levels: levels.names().clone(),
                        })? as u32,
                )
            }
        })
    }

    /// The puzzles it stands for in a bank with the scale `levels`, narrowed as `narrowing`
    /// says (a hardest step, a range of a named rating the bank has).
    pub fn selection(
        &self,
        levels: &Levels,
        narrowing: &Narrowing,
    ) -> Result<Selection, RetrieveError> {
        let named = match &narrowing.named {
            None => None,
            Some(ask) => {
                let rating =
                    levels
                        .named(&ask.name)
                        .ok_or_else(|| RetrieveError::UnknownRating {
                            name: ask.name.clone(),
                            names: levels.named.iter().map(|n| n.name.clone()).collect(),
                        })?;
                Some(NamedRange {
                    id: rating.id,
                    low: ask.low,
                    high: ask.high,
                })
            }
        };
        Ok(Selection {
            within: self.within(&levels.set)?,
            step: narrowing.technique,
            named,
        })
    }

    /// How messages name it on the bank's scale `levels`: `level hard (5.75 <= difficulty <
    /// 10.06)` (`level hard` when a level model names the levels), `band 4/4 (percentiles
    /// [75, 100])`, `percentiles [90, 95)`, `the bank`; with a technique, `..., puzzles whose
    /// hardest step is x-wing`.
    pub fn describe(&self, levels: &Levels, narrowing: &Narrowing) -> String {
        let range = match (self, self.within(&levels.set)) {
            (Selector::Level(l), Ok(Within::Level(i))) if levels.model.is_none() => {
                format!(
                    "level {l} ({})",
                    range_text(&levels.set, i as usize, levels.rating)
                )
            }
            (Selector::Band(b), _) => format!("band {b} (percentiles {})", b.range()),
            (Selector::Percentile(r), _) => format!("percentiles {r}"),
            (Selector::Level(l), _) => format!("level {l}"),
            (Selector::All, _) => "the bank".to_string(),
        };
        let range = match narrowing.technique {
            Some(t) => format!("{range}, puzzles whose hardest step is {t}"),
            None => range,
        };
        match &narrowing.named {
            Some(n) => format!("{range}, {} {}..{}", n.name, n.low, n.high),
            None => range,
        }
    }
}

/// What narrows a [`Selector`]'s puzzles: a hardest step, a range of a named rating.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Narrowing {
    /// Only puzzles whose hardest step is this technique.
    pub technique: Option<Strategy>,
    /// Only puzzles whose value on a named rating lies in a range.
    pub named: Option<NamedAsk>,
}

/// A range of a named rating, as asked (`get --rating se --range 7.0..8.0`).
#[derive(Clone, Debug, PartialEq)]
pub struct NamedAsk {
    /// The named rating.
    pub name: String,
    /// The lowest value (included).
    pub low: f64,
    /// The highest value (included).
    pub high: f64,
}

impl NamedAsk {
    /// The ask for the named rating `name` and a range `A..B` (`A <= B`, both numbers).
    pub fn parse(name: &str, range: &str) -> Result<NamedAsk, String> {
        let bad = || format!("bad range {range:?}: expected A..B with A <= B, e.g. 7.0..8.0");
        let (a, b) = range.split_once("..").ok_or_else(bad)?;
        let (low, high): (f64, f64) = (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        );
        if !(low.is_finite() && high.is_finite() && low <= high) {
            return Err(bad());
        }
        Ok(NamedAsk {
            name: name.trim().to_lowercase(),
            low,
            high,
        })
    }
}

/// Level `i`'s rating range for people: `5.75 <= difficulty < 10.06`, and for the extreme
/// level `difficulty >= 11.09, a step assumes a value`.
pub fn range_text(levels: &LevelSet, i: usize, rating: RatingKind) -> String {
    if levels.extreme() == Some(i) {
        return format!(
            "{}, a step assumes a value",
            range_text(levels, i - 1, rating)
        );
    }
    let name = rating.name();
    match levels.bounds(i) {
        (None, None) => format!("any {name}"),
        (None, Some(h)) => format!("{name} < {h}"),
        (Some(l), None) => format!("{name} >= {l}"),
        (Some(l), Some(h)) => format!("{l} <= {name} < {h}"),
    }
}

/// A puzzle handed out: every value of it, on the bank's scale when it was handed out.
#[derive(Clone, Debug, PartialEq)]
pub struct Handout {
    /// Its row id in the bank.
    pub id: i64,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its solution (the bank does not store it: solving takes microseconds).
    pub solution: Grid,
    /// Its class key.
    pub key: Key,
    /// Its level's name on the bank's levels (`None` for a row an older version stored that
    /// no build has given a level yet).
    pub level: Option<String>,
    /// Its `difficulty` rating (`None` for such a row, too).
    pub difficulty: Option<f64>,
    /// Its hsolve rating.
    pub hsolve: f64,
    /// Its value of the bank's rating.
    pub rating: f64,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
    /// The hardest hsolve tier it needs.
    pub tier: u8,
    /// The hardest step of the `difficulty` ladder it needs (`None` for a row an older
    /// version stored that no build or calibration has re-rated yet).
    pub hardest: Option<HardestStep>,
    /// Its seed's row id (`None` for a puzzle of a generator).
    pub seed_id: Option<i64>,
}

/// The solution of a stored puzzle (row `id`); an error when it has not exactly one.
pub(crate) fn solve(puzzle: &Puzzle, id: i64) -> Result<Grid, RetrieveError> {
    crate::solve::solve(puzzle)
        .unique()
        .ok_or(RetrieveError::Unsolvable(id))
}

/// The handout of a stored row on the bank's scale `levels`: its level named, its solution
/// solved, its percentile measured.
pub(crate) fn hand_out(row: PuzzleRow, levels: &Levels) -> Result<Handout, RetrieveError> {
    Ok(Handout {
        solution: solve(&row.puzzle, row.id)?,
        level: row
            .level
            .and_then(|i| levels.set.name(i as usize))
            .map(str::to_string),
        percentile: levels.reference.percentile(row.rating),
        id: row.id,
        puzzle: row.puzzle,
        key: row.key,
        difficulty: row.difficulty,
        hsolve: row.hsolve,
        rating: row.rating,
        tier: row.tier,
        hardest: row.hardest,
        seed_id: row.seed_id,
    })
}

/// Who a puzzle is handed to: which puzzles it is drawn among, and what is recorded.
#[derive(Clone, Copy)]
pub(crate) enum Recipient<'a> {
    /// Whoever asks the bank (`get`): a puzzle no one was handed for good (marking it served,
    /// once it is handed over, is [`get`]'s).
    Anyone,
    /// A user of an app (`serve`): a puzzle of a class the user was never given. Recorded in
    /// the user's history by the caller (the server's writer commits many deliveries at once).
    User(&'a str),
    /// A slot of a publisher's export: an unserved puzzle that `keep` accepts (the variety
    /// rule), marked served; the export records its slot.
    Slot {
        /// Whether a drawn puzzle may fill the slot.
        keep: &'a dyn Fn(&Handout) -> Result<bool, RetrieveError>,
    },
}

/// Draws for one recipient among the puzzles of a selection: uniform, without replacement,
/// each handed out complete ([`Draws::next`]).
pub(crate) struct Draws<'c> {
    conn: &'c Bank,
    levels: &'c Levels,
    within: Selection,
    recipient: Recipient<'c>,
    unserved: Option<Sampler<'c>>,
}

impl<'c> Draws<'c> {
    /// Draws of the puzzles of `within` on the bank `conn` with the scale `levels`, for
    /// `recipient`.
    pub fn new(
        conn: &'c Bank,
        levels: &'c Levels,
        within: impl Into<Selection>,
        recipient: Recipient<'c>,
    ) -> Result<Draws<'c>, RetrieveError> {
        let within = within.into();
        let unserved = match recipient {
            Recipient::User(_) => None,
            Recipient::Anyone | Recipient::Slot { .. } => {
                Some(Sampler::new(conn, levels.measure(), within)?)
            }
        };
        Ok(Draws {
            conn,
            levels,
            within,
            recipient,
            unserved,
        })
    }

    /// The next puzzle, uniformly among those left for the recipient, recorded as the
    /// recipient says and handed out; `None` when none is left.
    pub fn next(&mut self, rng: &mut Rng) -> Result<Option<Handout>, RetrieveError> {
        let measure = self.levels.measure();
        loop {
            let row = match (&mut self.unserved, self.recipient) {
                (_, Recipient::User(user)) => {
                    store::history::draw(self.conn, measure, self.within, user, rng)?
                }
                (Some(sampler), _) => sampler.draw(rng)?,
                (None, _) => None,
            };
            let Some(row) = row else { return Ok(None) };
            let handout = hand_out(row, self.levels)?;
            match self.recipient {
                Recipient::User(_) | Recipient::Anyone => {}
                Recipient::Slot { keep } => {
                    if !keep(&handout)? {
                        continue;
                    }
                    store::retrieval::mark_served(self.conn, handout.id)?;
                }
            }
            return Ok(Some(handout));
        }
    }
}

/// How many days back a daily puzzle can still be drawn (from the server's today in UTC): a
/// player's archive is their last 30 days, today included, in whatever time zone they are;
/// earlier dates give only what was recorded.
pub const ARCHIVE_DAYS: i64 = 30;

/// The daily puzzle of a date and level ([`daily`]), or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Daily {
    /// The puzzle of that date and level.
    Puzzle(Box<Handout>),
    /// A date older than the archive ([`ARCHIVE_DAYS`]) that nothing recorded: older dates
    /// give only what was recorded, so that asking for them cannot use up the bank.
    NotRecorded,
    /// Every puzzle of the level has been handed out for good.
    Exhausted,
}

/// The daily puzzle recorded for `date` at `level`, if one was: the puzzle, or
/// [`Daily::Exhausted`] should its row be gone from the bank. Reads only.
pub(crate) fn recorded_daily(
    conn: &Bank,
    levels: &Levels,
    date: crate::calendar::Date,
    level: &str,
) -> Result<Option<Daily>, RetrieveError> {
    let Some(id) = store::daily::recorded(conn, &date.to_string(), level)? else {
        return Ok(None);
    };
    Ok(Some(
        by_id(conn, levels, id)?.map_or(Daily::Exhausted, |h| Daily::Puzzle(Box::new(h))),
    ))
}

/// The puzzle a daily puzzle of `date` at the level `level` (the puzzles `within` it on
/// `levels`) would be, when none is recorded: the puzzle an export recorded for that date at
/// that level; else, for a date of the archive on ([`ARCHIVE_DAYS`] days before `today`, the
/// server's date: a player's last 30 days, in any time zone), a puzzle
/// drawn among the level's unserved puzzles with a stream seeded by the date and level (the
/// same bank gives the same puzzle); never a class `taken` says is another date's daily
/// puzzle. Reads only: recording it (and marking it served) is the caller's. `Err` is why
/// there is none ([`Daily::NotRecorded`], [`Daily::Exhausted`]).
pub(crate) fn choose_daily(
    conn: &Bank,
    levels: &Levels,
    date: crate::calendar::Date,
    (level, within): (&str, Within),
    today: crate::calendar::Date,
    mut taken: impl FnMut(&Key) -> Result<bool, RetrieveError>,
) -> Result<Result<Handout, Daily>, RetrieveError> {
    let day = date.to_string();
    let published = match store::batches::published(conn, date, level)? {
        Some(id) => by_id(conn, levels, id)?,
        None => None,
    };
    match published {
        Some(h) if !taken(&h.key)? => return Ok(Ok(h)),
        _ if date.days() < today.days() - ARCHIVE_DAYS => return Ok(Err(Daily::NotRecorded)),
        _ => {}
    }
    let seed = blake3::hash(format!("daily {day} {level}").as_bytes());
    let mut rng = Rng::new(u64::from_le_bytes(
        seed.as_bytes()[..8].try_into().expect("8 bytes"),
    ));
    let mut draws = Draws::new(conn, levels, within, Recipient::Anyone)?;
    loop {
        match draws.next(&mut rng)? {
            Some(h) if taken(&h.key)? => continue,
            Some(h) => return Ok(Ok(h)),
            None => return Ok(Err(Daily::Exhausted)),
        }
    }
}

/// The daily puzzle of `date` at the level `level` (the puzzles `within` it on `levels`): the
/// one recorded for them ([`recorded_daily`]); else the one [`choose_daily`] chooses, marked
/// served and recorded as that date's and level's for good; a class is the daily puzzle of
/// one date and level only. The caller holds a write transaction.
pub(crate) fn daily(
    conn: &Bank,
    levels: &Levels,
    date: crate::calendar::Date,
    level: (&str, Within),
    today: crate::calendar::Date,
) -> Result<Daily, RetrieveError> {
    if let Some(recorded) = recorded_daily(conn, levels, date, level.0)? {
        return Ok(recorded);
    }
    let taken = |key: &Key| Ok(store::daily::has_class(conn, key)?);
    match choose_daily(conn, levels, date, level, today, taken)? {
        Ok(h) => {
            store::retrieval::mark_served(conn, h.id)?;
            store::daily::record(conn, &date.to_string(), level.0, h.id, &h.key)?;
            Ok(Daily::Puzzle(Box::new(h)))
        }
        Err(none) => Ok(none),
    }
}

/// Up to `want` distinct puzzles of `within` on `levels`, each uniform among the range,
/// whatever any history says, as rows (not yet handed out): the candidates of a delivery
/// whose history is kept elsewhere ([`store::history::sample`]). Reads only.
pub(crate) fn sample(
    conn: &Bank,
    levels: &Levels,
    within: impl Into<Selection>,
    want: usize,
    rng: &mut Rng,
) -> Result<Vec<PuzzleRow>, RetrieveError> {
    Ok(store::history::sample(
        conn,
        levels.measure(),
        within,
        want,
        rng,
    )?)
}

/// A puzzle of `within` on `levels` whose class is not among `given`, uniformly among those;
/// `None` when `given` holds them all. Reads only.
pub(crate) fn pick_except(
    conn: &Bank,
    levels: &Levels,
    within: impl Into<Selection>,
    given: &[Key],
    rng: &mut Rng,
) -> Result<Option<PuzzleRow>, RetrieveError> {
    let given = store::history::ids_of(conn, given)?;
    Ok(store::history::pick_except(
        conn,
        levels.measure(),
        within,
        &given,
        rng,
    )?)
}

/// Hands up to `count` random unserved puzzles of `selector` (narrowed by `narrowing`) from
/// the open bank `conn` to `deliver`, one at a time, uniformly without replacement. With
/// `mark`, they are drawn and marked served first, in one short write transaction (`BEGIN
/// IMMEDIATE`: concurrent callers queue, and no puzzle is handed out twice, while the bank is
/// not held for as long as `deliver` takes); when `deliver` fails (its output cannot be
/// written, or its reader went away before reading it), that puzzle and the rest are marked
/// unserved again, the ones taken before stay served, and the error is
/// [`RetrieveError::Deliver`]. A process killed while delivering leaves the puzzles it had
/// not handed over served: lost to later draws, never handed out twice. Returns the bank's
/// scale and how many puzzles were handed over (fewer than `count` when the selection runs
/// out).
pub fn get(
    conn: &Bank,
    selector: &Selector,
    narrowing: &Narrowing,
    count: usize,
    mark: bool,
    rng: &mut Rng,
    mut deliver: impl FnMut(&Handout) -> std::io::Result<()>,
) -> Result<(Levels, usize), RetrieveError> {
    let levels = Levels::read(conn)?;
    let within = selector.selection(&levels, narrowing)?;
    if !mark {
        let mut draws = Draws::new(conn, &levels, within, Recipient::Anyone)?;
        let mut handed = 0;
        while handed < count {
            let Some(h) = draws.next(rng)? else { break };
            deliver(&h).map_err(RetrieveError::Deliver)?;
            handed += 1;
        }
        return Ok((levels, handed));
    }
    let drawn: Vec<Handout> = store::immediate(conn, || {
        let mut draws = Draws::new(conn, &levels, within, Recipient::Anyone)?;
        let mut drawn = Vec::new();
        while drawn.len() < count {
            let Some(h) = draws.next(rng)? else { break };
            store::retrieval::mark_served(conn, h.id)?;
            drawn.push(h);
        }
        Ok::<_, RetrieveError>(drawn)
    })?;
    for (handed, h) in drawn.iter().enumerate() {
        if let Err(e) = deliver(h) {
            let back: Vec<i64> = drawn[handed..].iter().map(|h| h.id).collect();
            store::immediate(conn, || store::retrieval::unmark_served(conn, &back))?;
            return Err(RetrieveError::Deliver(e));
        }
    }
    Ok((levels, drawn.len()))
}

/// Marks the puzzle `id` served (`get --id N --mark-served`, once it is handed over): neither
/// `get` nor an export hands it out again.
pub fn mark_served(conn: &Bank, id: i64) -> Result<(), RetrieveError> {
    Ok(store::retrieval::mark_served(conn, id)?)
}

/// The puzzle with bank id `id`, served or not (`get --id`, `GET /v1/puzzles/ID`), on the
/// bank's scale `levels`; reads only. `None` when no row has that id.
pub fn by_id(conn: &Bank, levels: &Levels, id: i64) -> Result<Option<Handout>, RetrieveError> {
    let Some(row) = store::retrieval::by_id(conn, levels.rating, id)? else {
        return Ok(None);
    };
    Ok(Some(hand_out(row, levels)?))
}

/// Tries of a matched draw in one window before it is taken as empty for the user.
const MATCH_TRIES: usize = 48;

/// The most played puzzles of a window a matched draw counts to weigh them (a count costs
/// what it counts): past it, the played puzzles of a window weigh as this many.
pub const MATCH_COUNT_CAP: u64 = 1_024;

/// One candidate of a matched draw in `window`, whoever has had it: a played puzzle whose
/// learned rating lies in the window, or a puzzle whose prior does and whose learned rating
/// (if it has one) too; `None` when the try found none. Each try picks the played puzzles
/// with the chance of their share of the window (their count, to [`MATCH_COUNT_CAP`], against
/// the bank's puzzles of the window's percentiles), then one by a seek of its index at a
/// random point: about uniform among the window's puzzles. Reads only.
pub fn match_candidate(
    conn: &Bank,
    levels: &Levels,
    window: (f64, f64),
    weights: (u64, u64),
    rng: &mut Rng,
) -> Result<Option<Handout>, RetrieveError> {
    match match_set(window, weights, rng) {
        None => return Ok(None),
        Some(MatchSet::Played(at)) => {
            return match store::play::rated_at(conn, window, at)? {
                Some(id) => by_id(conn, levels, id),
                None => Ok(None),
            }
        }
        Some(MatchSet::Priors) => {}
    }
    let Some(h) = prior_candidate(conn, levels, window, rng)? else {
        return Ok(None);
    };
    match store::play::ratings_of(conn, &[h.id])?.first() {
        Some(&(_, r)) if r < window.0 || r > window.1 => Ok(None),
        _ => Ok(Some(h)),
    }
}

/// A puzzle whose prior lies in `window`, by a seek of the rating index at a random point of
/// the window's percentiles (whoever has had it, whatever its learned rating); `None` when
/// the window's percentiles hold no stored value. Reads only.
pub fn prior_candidate(
    conn: &Bank,
    levels: &Levels,
    window: (f64, f64),
    rng: &mut Rng,
) -> Result<Option<Handout>, RetrieveError> {
    let measure = levels.measure();
    let Some((range, from)) = prior_seek(conn, measure, window, rng)? else {
        return Ok(None);
    };
    match store::play::seek(conn, measure, range, from)? {
        Some(row) => Ok(Some(hand_out(row, levels)?)),
        None => Ok(None),
    }
}

/// The stored values `[low, high)` a seek runs among, and the `(value, id)` it starts at.
type SeekStart = ((i64, i64), (i64, i64));

/// Where a seek among the priors of `window` starts: the stored values `[low, high)` of the
/// window's percentiles, and a random point of them (a value, and an id for ties); `None`
/// when the percentiles hold no stored value.
fn prior_seek(
    conn: &Bank,
    measure: Measure,
    window: (f64, f64),
    rng: &mut Rng,
) -> Result<Option<SeekStart>, RetrieveError> {
    let (low, high) = measure.stored_range(window_percentiles(window));
    if high <= low {
        return Ok(None);
    }
    let value = low + rng.next_u64().rem_euclid((high - low) as u64) as i64;
    let id = store::retrieval::span(conn)?.map_or(0, |(lo, n)| lo + i64::from(rng.below(n)));
    Ok(Some(((low, high), (value, id))))
}

/// The percentiles whose priors lie in `window`.
fn window_percentiles(window: (f64, f64)) -> PercentileRange {
    PercentileRange {
        low: crate::play::prior_percentile(window.0),
        high: crate::play::prior_percentile(window.1),
        closed: true,
    }
}

/// Which set of a window a try of a matched draw takes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MatchSet {
    /// The played puzzles, seeking their rating index at this learned rating.
    Played(f64),
    /// The puzzles whose priors lie in the window.
    Priors,
}

/// The set a try of a matched draw in `window` takes from, each with the chance of its share
/// of the window: the played puzzles by their count (`weights.0`, [`match_weights`]), the
/// others by the bank's ids (`weights.1`) times the window's share of the percentiles; `None`
/// when the window holds neither.
pub fn match_set(
    window: (f64, f64),
    (played, bank): (u64, u64),
    rng: &mut Rng,
) -> Option<MatchSet> {
    let range = window_percentiles(window);
    let unplayed = (bank as f64 * (range.high - range.low) / 100.0).ceil();
    if played == 0 && unplayed <= 0.0 {
        return None;
    }
    Some(
        if rng.next_f64() * (played as f64 + unplayed) < played as f64 {
            MatchSet::Played(window.0 + rng.next_f64() * (window.1 - window.0))
        } else {
            MatchSet::Priors
        },
    )
}

/// The counts a matched draw in `window` weighs its two sets by: the played puzzles of the
/// window (to [`MATCH_COUNT_CAP`]) and the ids of the bank.
pub fn match_weights(conn: &Bank, window: (f64, f64)) -> Result<(u64, u64), RetrieveError> {
    let played = store::play::rated_in(conn, window, MATCH_COUNT_CAP)?;
    let bank = store::retrieval::span(conn)?.map_or(0, |(_, n)| u64::from(n));
    Ok((played, bank))
}

/// A puzzle for `user` whose learned rating lies in `window` (`[low, high]`, rating points)
/// and whose class the user was never given (nor a daily puzzle), drawn about uniformly among
/// those ([`match_candidate`], 48 tries, then an exact walk of the window); `None` when the
/// window holds none left for the user.
/// Reads only: recording it is the caller's.
pub fn matched(
    conn: &Bank,
    levels: &Levels,
    user: &str,
    window: (f64, f64),
    rng: &mut Rng,
) -> Result<Option<Handout>, RetrieveError> {
    let weights = match_weights(conn, window)?;
    for _ in 0..MATCH_TRIES {
        if let Some(h) = match_candidate(conn, levels, window, weights, rng)? {
            if !store::history::taken(conn, user, &h.key)? {
                return Ok(Some(h));
            }
        }
    }
    untaken_in(conn, levels, user, window, rng)
}

/// The exact walk a matched draw ends with when its tries kept landing on taken puzzles: from
/// a random point of the window, the first played puzzle and the first prior the user may
/// still be given (one of the two sets at random first); `None` only when the window holds
/// nothing left for the user. A seek lands on a puzzle with the chance of the gap before it, so
/// the last few puzzles of a window, close behind taken ones, would otherwise be missed.
fn untaken_in(
    conn: &Bank,
    levels: &Levels,
    user: &str,
    window: (f64, f64),
    rng: &mut Rng,
) -> Result<Option<Handout>, RetrieveError> {
    let played_first = rng.next_u64() & 1 == 0;
    let at = window.0 + rng.next_f64() * (window.1 - window.0);
    let measure = levels.measure();
    let priors = prior_seek(conn, measure, window, rng)?;
    for played in [played_first, !played_first] {
        let found = if played {
            match store::play::untaken_rated_at(conn, window, user, at)? {
                Some(id) => by_id(conn, levels, id)?,
                None => None,
            }
        } else if let Some((range, from)) = priors {
            match store::play::untaken_seek(conn, measure, range, from, user, window)? {
                Some(row) => Some(hand_out(row, levels)?),
                None => None,
            }
        } else {
            None
        };
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// Up to `count` puzzles for the app user `user` matched to their learned rating (`get
/// --for-user`): each drawn near it ([`matched`], windows that widen, then any puzzle), a
/// class the user was never given, recorded as theirs and committed before `deliver` is
/// handed it, as a server records a delivery; how many were handed out (fewer when the user
/// has had every puzzle), each with its learned rating ([`learned`]). Takes the bank's
/// deliveries lock: a server recording in the bank is asked instead.
pub fn for_user(
    conn: &Bank,
    db: &std::path::Path,
    user: &str,
    count: usize,
    rng: &mut Rng,
    mut deliver: impl FnMut(&Handout, &crate::play::Learned) -> std::io::Result<()>,
) -> Result<usize, RetrieveError> {
    if !crate::play::is_user_id(user) {
        return Err(RetrieveError::User(user.to_string()));
    }
    let _held = store::lock::DeliveriesLock::try_acquire(db)?
        .ok_or_else(|| RetrieveError::Held(db.to_path_buf()))?;
    let levels = Levels::read(conn)?;
    let rating = store::play::player(conn, user)?
        .map_or(crate::play::newcomer(), |r| r.glicko)
        .rating;
    let mut handed = 0;
    while handed < count {
        let mut near = None;
        for window in crate::play::windows(rating) {
            near = matched(conn, &levels, user, window, rng)?;
            if near.is_some() {
                break;
            }
        }
        let drawn = match near {
            Some(h) => Some(h),
            None => Draws::new(conn, &levels, Within::All, Recipient::User(user))?.next(rng)?,
        };
        let Some(h) = drawn else { break };
        store::immediate(conn, || store::history::record(conn, user, &h.key, h.id))?;
        let learned = learned(conn, &h)?.view();
        deliver(&h, &learned).map_err(RetrieveError::Deliver)?;
        handed += 1;
    }
    Ok(handed)
}

/// Where an imported puzzle came from: the file and the line (`pseudoku import`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Provenance {
    /// The file, as the import named it.
    pub file: String,
    /// The line (1-based; a grid's first line).
    pub line: u64,
}

/// The provenance of row `id` when an import stored it; `None` for a puzzle a build made.
pub fn provenance(conn: &Bank, id: i64) -> Result<Option<Provenance>, RetrieveError> {
    Ok(store::builds::provenance(conn, id)?.map(|(file, line)| Provenance { file, line }))
}

/// The puzzle of class `key`, served or not, on the bank's scale `levels`; reads only.
/// `None` when the bank has no puzzle of that class.
pub(crate) fn by_key(
    conn: &Bank,
    levels: &Levels,
    key: &Key,
) -> Result<Option<Handout>, RetrieveError> {
    match store::history::id_of(conn, key)? {
        Some(id) => by_id(conn, levels, id),
        None => Ok(None),
    }
}

/// The puzzle of row `id`, served or not (`hint --id`, `explain --id`); reads only.
pub fn puzzle(conn: &Bank, id: i64) -> Result<Option<Puzzle>, RetrieveError> {
    let levels = Levels::read(conn)?;
    Ok(store::retrieval::by_id(conn, levels.rating, id)?.map(|row| row.puzzle))
}

/// The learned rating of handout `h` of the bank `conn`: what players' results taught it, or
/// its prior from its percentile with no result (what `get` and a server on the bank show).
pub fn learned(conn: &Bank, h: &Handout) -> Result<crate::play::Rated, RetrieveError> {
    let found = store::play::puzzle(conn, h.id)?;
    Ok(found.unwrap_or_else(|| crate::play::Rated::fresh(crate::play::prior(h.percentile))))
}

/// One handout as `get --json` prints it: the keys `id puzzle solution level difficulty
/// hsolve percentile tier hardest_step hardest_steps`, in that order (`level` empty and the
/// hardest step null for a row without one), then `learned` where it is given.
#[derive(serde::Serialize)]
struct GetLine<'a> {
    id: i64,
    puzzle: &'a Puzzle,
    solution: &'a Grid,
    level: &'a str,
    difficulty: Option<f64>,
    hsolve: f64,
    percentile: f64,
    tier: u8,
    hardest_step: Option<Strategy>,
    hardest_steps: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    learned: Option<&'a crate::play::Learned>,
}

/// Writes a handed-out puzzle as `get` prints it: `puzzle level difficulty hsolve percentile
/// id`, tab-separated, or one JSON object (keys `id puzzle solution level difficulty hsolve
/// percentile tier hardest_step hardest_steps`, and `learned`, its learned rating, when
/// given); one line.
pub fn write(
    out: &mut impl std::io::Write,
    p: &Handout,
    learned: Option<&crate::play::Learned>,
    json: bool,
) -> std::io::Result<()> {
    let level = p.level.as_deref().unwrap_or("");
    if json {
        let line = serde_json::to_string(&GetLine {
            id: p.id,
            puzzle: &p.puzzle,
            solution: &p.solution,
            level,
            difficulty: p.difficulty,
            hsolve: p.hsolve,
            percentile: p.percentile,
            tier: p.tier,
            hardest_step: p.hardest.map(|h| h.strategy),
            hardest_steps: p.hardest.map(|h| h.count),
            learned,
        })
        .expect("a handout serializes");
        writeln!(out, "{line}")
    } else {
        let difficulty = p.difficulty.map_or("-".to_string(), |d| d.to_string());
        writeln!(
            out,
            "{}\t{level}\t{difficulty}\t{}\t{:.3}\t{}",
            p.puzzle, p.hsolve, p.percentile, p.id
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_resolve() {
        let l = LevelSet::default_for(RatingKind::Difficulty);
        let band = Selector::Band("2/4".parse().unwrap());
        assert_eq!(
            band.within(&l).unwrap(),
            Within::Percentiles("25..50".parse().unwrap())
        );
        assert_eq!(
            Selector::Level("Hard".into()).within(&l).unwrap(),
            Within::Level(2)
        );
        assert!(Selector::Level("insane".into()).within(&l).is_err());
        let p: PercentileRange = "90..95".parse().unwrap();
        assert_eq!(
            Selector::Percentile(p).within(&l).unwrap(),
            Within::Percentiles(p)
        );
        let levels = Levels {
            rating: RatingKind::Difficulty,
            reference: crate::levels::Reference::new(vec![1.0, 2.0]),
            set: l.clone(),
            model: None,
            named: Vec::new(),
        };
        let easy = Selector::Level("easy".into()).describe(&levels, &Narrowing::default());
        assert!(easy.starts_with("level easy (difficulty < "), "{easy}");
    }
}
