//! `get` and `unserve`: puzzles drawn from a bank, and drawn ones put back.

use super::*;

/// Runs `unserve`.
pub(super) fn run_unserve(args: &UnserveArgs) -> anyhow::Result<Outcome> {
    use pseudoku::retrieve::Unserved;
    let conn = bank::open_existing(&args.db)?;
    let mut kept = 0;
    for &id in &args.ids {
        match pseudoku::retrieve::unserve(&conn, id)? {
            Unserved::Back { was_served: true } => say!("{id}\tunserved"),
            Unserved::Back { was_served: false } => say!("{id}\tnot served"),
            Unserved::Missing => {
                kept += 1;
                warn!("pseudoku: {}: no puzzle with id {id}", args.db.display());
            }
            Unserved::Exported { edition, slot } => {
                kept += 1;
                match edition {
                    pseudoku::export::Edition::Book(name) => warn!(
                        "pseudoku: puzzle {id} is number {slot} of the book {name}: left served \
                         (write that book with --replace first)"
                    ),
                    pseudoku::export::Edition::Day(date) => warn!(
                        "pseudoku: puzzle {id} is in the export of {date}, slot {slot}: left \
                         served (export that date with --replace first)"
                    ),
                }
            }
        }
    }
    Ok(Outcome::Mismatch.when(kept > 0))
}

/// Runs `get`.
pub(super) fn run_get(args: &GetArgs) -> anyhow::Result<Outcome> {
    use pseudoku::retrieve::Selector;
    if let Some(user) = &args.for_user {
        return get_for_user(args, user);
    }
    if let Some(id) = args.id {
        let conn = bank::open_existing(&args.db)?;
        let levels = pseudoku::levels::Levels::read(&conn)?;
        let Some(p) = pseudoku::retrieve::by_id(&conn, &levels, id)? else {
            warn!("pseudoku: {}: no puzzle with id {id}", args.db.display());
            return Ok(Outcome::Short);
        };
        let learned = pseudoku::retrieve::learned(&conn, &p)?.view();
        let mut out = io::stdout().lock();
        pseudoku::retrieve::write(&mut out, &p, Some(&learned), args.json)?;
        out.flush()?;
        // Marked once it is out: a puzzle that could not be written, or that the reader of a
        // pipe went away without reading, stays unserved.
        if args.mark_served {
            read_by_reader()?;
            pseudoku::retrieve::mark_served(&conn, id)?;
        }
        return Ok(Outcome::Success);
    }
    let selector = match (&args.band, &args.percentile, &args.level) {
        (Some(b), _, _) => Selector::Band(*b),
        (_, Some(p), _) => Selector::Percentile(*p),
        (_, _, Some(l)) => Selector::Level(l.clone()),
        // clap requires --technique without any of them.
        _ => Selector::All,
    };
    let narrowing = pseudoku::retrieve::Narrowing {
        technique: args.technique,
        named: match (&args.rating, &args.range) {
            (Some(name), Some(range)) => {
                Some(pseudoku::retrieve::NamedAsk::parse(name, range).map_err(anyhow::Error::msg)?)
            }
            _ => None,
        },
    };
    let conn = bank::open_existing(&args.db)?;
    let rng_seed = args.rng_seed.unwrap_or_else(pseudoku::Rng::clock_seed);
    let mut rng = pseudoku::Rng::new(rng_seed);
    // With --mark-served, each puzzle is written, flushed, and (into a pipe) read by the
    // reader before the next: one that cannot be written (a closed pipe, a full disk) or that
    // the reader went away without reading stays unserved, and so do the rest.
    let mut out = BufWriter::new(io::stdout().lock());
    let mark = args.mark_served;
    let (levels, handed) = pseudoku::retrieve::get(
        &conn,
        &selector,
        &narrowing,
        args.count as usize,
        mark,
        &mut rng,
        |p| {
            pseudoku::retrieve::write(&mut out, p, None, args.json)?;
            if mark {
                out.flush()?;
                read_by_reader()?;
            }
            Ok(())
        },
    )?;
    out.flush()?;
    if (handed as u64) < args.count {
        let what = selector.describe(&levels, &narrowing);
        if handed == 0 {
            warn!("pseudoku: no unserved puzzle left in {what}");
        } else {
            warn!(
                "pseudoku: only {handed} unserved puzzles left in {what} ({} asked)",
                args.count
            );
        }
        return Ok(Outcome::Short);
    }
    Ok(Outcome::Success)
}

/// Runs `get --for-user`: puzzles matched to the user's learned rating, each recorded as the
/// user's (committed before it is written, as a server's delivery).
fn get_for_user(args: &GetArgs, user: &str) -> anyhow::Result<Outcome> {
    let conn = bank::open_existing(&args.db)?;
    let rng_seed = args.rng_seed.unwrap_or_else(pseudoku::Rng::clock_seed);
    let mut rng = pseudoku::Rng::new(rng_seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let handed = pseudoku::retrieve::for_user(
        &conn,
        &args.db,
        user,
        args.count as usize,
        &mut rng,
        |p, learned| pseudoku::retrieve::write(&mut out, p, Some(learned), args.json),
    )?;
    out.flush()?;
    if (handed as u64) < args.count {
        warn!(
            "pseudoku: user {user} has had every puzzle of the bank ({handed} of {} handed out)",
            args.count
        );
        return Ok(Outcome::Short);
    }
    Ok(Outcome::Success)
}

/// Waits until what was written to standard output has been read, when it is a pipe: a
/// line written into a pipe is the reader's only once it has read it (a pipe holds 64 KiB the
/// reader may never read). An error (a broken pipe) when the reader goes away first. Standard
/// output that is a file or a terminal has a line once it is flushed.
pub(super) fn read_by_reader() -> io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::event::{poll, PollFd, PollFlags};
        use rustix::fs::FileType;
        let stdout = io::stdout();
        let is_pipe = rustix::fs::fstat(&stdout)
            .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Fifo);
        if !is_pipe {
            return Ok(());
        }
        let mut pause = std::time::Duration::from_micros(20);
        loop {
            match rustix::io::ioctl_fionread(&stdout) {
                Ok(0) | Err(_) => return Ok(()),
                Ok(_) => {}
            }
            // A pipe whose reader is gone polls as an error.
            let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
            let _ = poll(&mut fds, Some(&rustix::event::Timespec::default()));
            if fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP) {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(5));
        }
    }
    #[cfg(not(unix))]
    Ok(())
}
