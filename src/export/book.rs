//! Books without dates (`pseudoku book`): a number of puzzles of each level, band or technique
//! drawn from the unserved puzzles and recorded under the book's name, so that the same command
//! writes the same book again, byte for byte. A book's puzzles are recorded beside the daily
//! exports (the `batches` table, under the key `book:NAME` in place of a date), so a class is
//! used once, by one date or one book, ever; they are marked served like any export's.

use super::{
    grid_key, in_transaction, recorded_mix, recorded_puzzles, settle_temporaries, write_recorded,
    ExportError, ExportOptions, ExportReport, Format, Mix, Replaced, Result, Shortage,
};
use crate::calendar::Date;
use crate::store::batches::Edition;
use crate::export::pages::PrintOptions;
use crate::canon::Key;
use crate::retrieve::{Draws, Handout, Recipient, RetrieveError};
use crate::rng::Rng;
use crate::store::{self, Bank};
use std::cell::RefCell;
use std::collections::HashSet;
use std::path::PathBuf;

/// Whether a drawn puzzle may fill a book's slot.
type Keep<'a> = dyn Fn(&Handout) -> std::result::Result<bool, RetrieveError> + 'a;

/// The most puzzles of one mix entry in a book.
pub const MAX_PER_BOOK: u32 = 10_000;

/// What `pseudoku book` is asked for.
#[derive(Clone, Debug)]
pub struct BookOptions {
    /// The book's name: its record's key and its file's name.
    pub name: String,
    /// The puzzles of each level, band or technique, e.g. `easy:300,medium:300,hard:300`.
    pub mix: String,
    /// The format (a printed one gets the book's layout: cover, contents, numbered puzzles by
    /// level, solutions at the back).
    pub format: Format,
    /// The output folder.
    pub out: PathBuf,
    /// Draw the book anew (its old puzzles stay retired, never used again).
    pub replace: bool,
    /// Draw among every puzzle of each entry, those an earlier book or an export dated up to
    /// today used included (a collection of published puzzles); each class still once in the
    /// book, never one of its earlier versions, one retired by `--replace` or one to come.
    pub reprint: bool,
    /// One file per grid and per solution (`NAME-001.svg`): sdk, pdf; svg and eps always are.
    pub per_puzzle: bool,
    /// How printed pages are laid out.
    pub print: PrintOptions,
    /// The seed of the random choices.
    pub rng_seed: u64,
    /// Only check the book's files against the print-on-demand rules
    /// ([`ExportReport::preflight`]): drawn if it was not, but nothing recorded or written.
    pub check: bool,
}

/// What a book's puzzles are recorded under.
pub fn key(name: &str) -> Edition {
    Edition::Book(name.to_string())
}

/// Writes the book `opts.name`: drawn and recorded the first time, written from its record
/// after; a mix other than the recorded one is refused ([`ExportError::BookMixChanged`])
/// unless `replace`. Nothing is recorded or written when a mix entry runs short.
pub fn book(conn: &mut Bank, opts: &BookOptions) -> Result<ExportReport> {
    let name = opts.name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        || name.starts_with('.')
    {
        return Err(ExportError::Option(format!(
            "bad book name {:?}: letters, digits, '-', '_' and '.' (it names the file)",
            opts.name
        )));
    }
    super::check_print(&opts.print)?;
    let scale = crate::levels::Levels::read(conn)?;
    let mix = Mix::parse_up_to(&opts.mix, &scale.set, MAX_PER_BOOK)?;
    let wanted = mix.text();
    // Its title on its title page, running heads and cover: the one given, else what it holds
    // ("300 Sudoku Puzzles"), never its file's name.
    let count: u32 = mix.items.iter().map(|i| i.count).sum();
    let title = match opts.print.title.as_deref().map(str::trim) {
        Some(t) if !t.is_empty() => t.to_string(),
        _ => super::pages::default_book_title(count as usize),
    };
    let mut matter = opts.print.matter.clone();
    if let Some(isbn) = &matter.isbn {
        matter.isbn = Some(super::pages::check_isbn(isbn).map_err(ExportError::Option)?);
    }
    for (what, text) in [("--subtitle", &matter.subtitle), ("--author", &matter.author), ("--imprint", &matter.imprint)] {
        if let Some(t) = text {
            if t.trim().is_empty() || t.chars().count() > 200 {
                return Err(ExportError::Option(format!(
                    "{what} must be 1 to 200 characters, got {}",
                    t.chars().count()
                )));
            }
        }
    }
    if matter.year.is_none() {
        // The year it was first drawn, so that the same book prints the same year.
        let first = store::batches::first_recorded(conn, &key(name))?;
        matter.year = Some(first.map_or(Date::today().year, |d| d.year));
    }
    let as_book = PrintOptions {
        book: true,
        title: Some(title.clone()),
        matter,
        ..opts.print.clone()
    };
    if let Some(why) = super::pages::title_unfit(&title, &as_book) {
        return Err(ExportError::Option(why));
    }
    // The writer's options: one file named after the book, in the book's layout.
    let writer = ExportOptions {
        start: Date::from_days(0),
        days: 1,
        mix: opts.mix.clone(),
        format: opts.format,
        out: opts.out.clone(),
        single_file: !opts.per_puzzle && !opts.format.single_grid(),
        replace: opts.replace,
        allow_partial: false,
        // A book's layout, and its grids numbered in book order.
        print: as_book,
        per_puzzle: opts.per_puzzle,
        rng_seed: opts.rng_seed,
        variety_days: 1,
        check: opts.check,
    };
    if opts.check {
        // Drawn in a transaction rolled back: no folder, no lock, no record.
        return write_locked(conn, opts, &writer, &scale, &mix.items, &wanted, "", name);
    }
    super::in_locked_folder(&opts.out, |dir| {
        write_locked(conn, opts, &writer, &scale, &mix.items, &wanted, dir, name)
    })
}

/// [`book`] once the folder `dir` (canonical) is locked, in one transaction.
#[allow(clippy::too_many_arguments)]
fn write_locked(
    conn: &mut Bank,
    opts: &BookOptions,
    writer: &ExportOptions,
    scale: &crate::levels::Levels,
    items: &[super::MixItem],
    wanted: &str,
    dir: &str,
    name: &str,
) -> Result<ExportReport> {
    let key = key(name);
    in_transaction(conn, writer, dir, |conn| {
        if !opts.check {
            settle_temporaries(conn, &opts.out, dir)?;
        }
        let mut report = ExportReport {
            asked: items.iter().map(|i| i.count as usize).sum(),
            ..ExportReport::default()
        };
        let held = recorded_puzzles(conn, &key)?;
        let mut draw = held.is_empty();
        if !held.is_empty() {
            let was = recorded_mix(conn, &key, held.iter().map(|p| (p.slot, p.level.as_str())))?;
            if opts.replace {
                store::batches::retire(conn, &key)?;
                report.replaced.push(Replaced {
                    edition: key.clone(),
                    mix: was,
                    puzzles: held.len(),
                });
                draw = true;
            } else if was != wanted {
                return Err(ExportError::BookMixChanged {
                    name: name.to_string(),
                    mix: was,
                });
            }
        }
        if draw {
            store::batches::record_day_mix(conn, &key, wanted)?;
            let mut rng = Rng::new(opts.rng_seed ^ u64::from_le_bytes(
                blake3::hash(key.stored().as_bytes()).as_bytes()[..8]
                    .try_into()
                    .expect("8 bytes"),
            ));
            let mut missing: Vec<(String, u64, u32, store::retrieval::Selection)> = Vec::new();
            let mut first_slot = 1;
            // The puzzles of the book's earlier versions stay out of it, reprinted or not; a
            // reprint takes no puzzle before its date, nor one retired by --replace.
            let mut in_book: HashSet<i64> =
                store::batches::ever_recorded(conn, &key)?.into_iter().collect();
            if opts.reprint {
                in_book.extend(store::batches::not_reprintable(conn, Date::today())?);
            }
            // No two puzzles of one solution grid in the book while an entry has a puzzle of a
            // grid the book does not hold yet; past that, repeats rather than a shortage.
            let grids: RefCell<HashSet<Key>> = RefCell::default();
            let new_grid = |p: &Handout| !grids.borrow().contains(&grid_key(&p.solution));
            for entry in items {
                let mut drawn = 0;
                let take = |p: &Handout, drawn: &mut u32| -> Result<()> {
                    grids.borrow_mut().insert(grid_key(&p.solution));
                    record(conn, &key, first_slot + *drawn, &entry.label, p, opts.reprint)?;
                    *drawn += 1;
                    Ok(())
                };
                if opts.reprint {
                    // Every puzzle of the entry, served or not, in a shuffled order: uniform
                    // without replacement, each class once in the book.
                    let mut ids = store::retrieval::ids_within(conn, scale.measure(), entry.within)?;
                    rng.shuffle(&mut ids);
                    let mut repeats = Vec::new();
                    for id in ids {
                        if drawn == entry.count {
                            break;
                        }
                        if in_book.contains(&id) {
                            continue;
                        }
                        let Some(p) = crate::retrieve::by_id(conn, scale, id)? else {
                            continue;
                        };
                        if !new_grid(&p) {
                            repeats.push(p);
                            continue;
                        }
                        in_book.insert(id);
                        // Marked served if it was not (its first publication).
                        store::retrieval::mark_served(conn, p.id)?;
                        take(&p, &mut drawn)?;
                    }
                    for p in repeats {
                        if drawn == entry.count {
                            break;
                        }
                        in_book.insert(p.id);
                        store::retrieval::mark_served(conn, p.id)?;
                        report.repeated_grids += 1;
                        take(&p, &mut drawn)?;
                    }
                } else {
                    // Any unserved puzzle of the entry of a new grid, then of any grid.
                    let fresh = |p: &Handout| Ok(new_grid(p));
                    let any = |_: &Handout| Ok(true);
                    for (keep, repeat) in [(&fresh as &Keep, false), (&any, true)] {
                        let mut draws =
                            Draws::new(conn, scale, entry.within, Recipient::Slot { keep })?;
                        while drawn < entry.count {
                            let Some(p) = draws.next(&mut rng)? else {
                                break;
                            };
                            in_book.insert(p.id);
                            report.repeated_grids += usize::from(repeat);
                            take(&p, &mut drawn)?;
                        }
                    }
                }
                report.new += drawn as usize;
                if drawn < entry.count {
                    missing.push((
                        entry.label.clone(),
                        u64::from(entry.count - drawn),
                        entry.count,
                        entry.within,
                    ));
                }
                first_slot += entry.count;
            }
            for (level, n, per_book, within) in missing {
                let (unserved, seeds) =
                    store::retrieval::unserved_sources(conn, scale.measure(), within)?;
                report.shortages.push(Shortage {
                    level,
                    missing: n,
                    from: key.clone(),
                    per_day: per_book,
                    unserved,
                    seeds,
                });
            }
            if !report.shortages.is_empty() {
                return Ok((report, Vec::new()));
            }
        }
        let puzzles = recorded_puzzles(conn, &key)?;
        report.puzzles = puzzles.len();
        let groups = [(name.to_string(), puzzles)];
        if opts.check {
            if writer.format == Format::Pdf && !writer.per_puzzle {
                report.preflight = super::formats::preflight(writer, &groups, &[])?;
            }
            return Ok((report, Vec::new()));
        }
        let (files, lone) = write_recorded(conn, writer, &groups, dir, &|_, _, _| {})?;
        report.lone = lone;
        report.files = files.iter().map(|w| w.fin.clone()).collect();
        Ok((report, files))
    })
}

/// Records `p` in the book `key` at `slot`.
fn record(
    conn: &Bank,
    key: &Edition,
    slot: u32,
    level: &str,
    p: &Handout,
    reprint: bool,
) -> Result<()> {
    store::batches::record(
        conn,
        &store::batches::NewRecord {
            edition: key,
            slot,
            level,
            puzzle_id: p.id,
            grid_key: &grid_key(&p.solution),
            bank_rating: p.rating,
            percentile: p.percentile,
            reprint,
        },
    )?;
    Ok(())
}
