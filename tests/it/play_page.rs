//! The play page in a real browser: chromium (headless, through chromedriver) plays it as a
//! player would, at the narrowest phone (320x568), a common one (390x844) and a desktop
//! (1280x800). At each width it plays three whole games, one for each way in: cell first
//! (tap a cell, then a digit), number first (pick a digit, then tap its cells) and the keyboard
//! alone; in each, a digit placed twice in a house is flagged at once (colour, a wavy
//! underline and the words a screen reader says), auto notes fill every candidate, the pad
//! counts correct placements, and the game ends on the win panel with the level's statistics.
//! The first game also takes a hint in three steps, from the technique and its house to the
//! move, and survives a reload. Nothing scrolls on a phone, headers keep to one line, every
//! control is reached with Tab, disabled controls look it, and axe-core (from the npm registry,
//! `PSEUDOKU_AXE`) finds no serious or critical violation in any state it is run on, in the
//! light colours and the dark. The page installs (a manifest and a service worker chromium
//! accepts), finishes a game with the server gone and sends its result when the server is
//! back. The daily puzzle is the same for two players; a server with a token plays with its
//! page token.
//!
//! Skips with a message only when no browser is installed and `PSEUDOKU_REQUIRE_BROWSER` is
//! unset (CI sets it, and installs chromium and chromium-driver); the axe checks skip likewise
//! without `PSEUDOKU_AXE` unless `PSEUDOKU_REQUIRE_AXE` is set (CI fetches axe-core and sets
//! both). Leaves screenshots in `target/tmp/play-page-*.png`.

use crate::browser::Browser;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command};

/// WebDriver's codes for the keys the keyboard player uses.
const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";
const ESCAPE: &str = "\u{E00C}";
const LEFT: &str = "\u{E012}";
const UP: &str = "\u{E013}";
const RIGHT: &str = "\u{E014}";
const DOWN: &str = "\u{E015}";

/// A server on a fresh bank of 5 puzzles a level, and the bank's folder.
fn served(extra: &[&str]) -> (tempfile::TempDir, Child, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    crate::common::build_levels(&db, 5, 2);
    let (server, base) = crate::common::serve(&db, extra);
    (dir, server, base)
}

fn stop(mut server: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
}

/// Waits for the page at `base` to show a puzzle (it starts one by itself).
fn open(browser: &Browser, base: &str) {
    browser.goto(base);
    wait_for_puzzle(browser);
}

fn wait_for_puzzle(browser: &Browser) {
    browser.wait_for(
        "document.querySelectorAll('#level option').length === 4 && \
         document.querySelectorAll('.cell.given').length >= 17",
        10,
    );
}

/// The game the page keeps in localStorage.
fn saved(browser: &Browser) -> Value {
    serde_json::from_str(&browser.text("localStorage.getItem('pseudoku-game')")).unwrap()
}

/// The solution of the puzzle the page shows, from the server.
fn solution(browser: &Browser, base: &str) -> Vec<u8> {
    let id = saved(browser)["id"].as_i64().unwrap();
    let url = format!("{base}/v1/puzzles/{id}?solution=true");
    let body: Value =
        serde_json::from_str(&ureq::get(&url).call().unwrap().into_string().unwrap()).unwrap();
    digits(body["solution"].as_str().unwrap())
}

fn digits(text: &str) -> Vec<u8> {
    text.bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

/// What cell `i` shows: its digit, its notes' digits (drawn from their `data-d`), or "".
fn cell(browser: &Browser, i: usize) -> String {
    browser.text(&format!(
        "(c => c.querySelector('.marks') ? [...c.querySelectorAll('.marks span')]\
         .map(s => s.dataset.d || '').join('') : c.textContent)\
         (document.querySelector(\".cell[data-cell='{i}']\"))"
    ))
}

fn label(browser: &Browser, i: usize) -> String {
    browser.text(&format!(
        "document.querySelector(\".cell[data-cell='{i}']\").getAttribute('aria-label')"
    ))
}

/// The cells with class `class`.
fn count(browser: &Browser, class: &str) -> u64 {
    browser
        .eval(&format!(
            "document.querySelectorAll('.cell.{class}').length"
        ))
        .as_u64()
        .unwrap()
}

fn text_of(browser: &Browser, id: &str) -> String {
    browser.text(&format!("document.getElementById('{id}').textContent"))
}

/// The count the pad shows under digit `d` (its correct placements still to make).
fn left(browser: &Browser, d: u8) -> String {
    browser.text(&format!(
        "document.querySelector(\"#pad button[data-digit='{d}'] .left\").dataset.left"
    ))
}

fn is_open(browser: &Browser, dialog: &str) -> bool {
    browser
        .eval(&format!("document.getElementById('{dialog}').open"))
        .as_bool()
        .unwrap()
}

/// The cells of the board without a digit.
fn empties(browser: &Browser) -> Vec<usize> {
    let shown = board(browser);
    (0..81).filter(|&i| shown[i] == 0).collect()
}

/// True when cells `i` and `j` differ and share a row, a column or a box.
fn peers(i: usize, j: usize) -> bool {
    j != i && (j / 9 == i / 9 || j % 9 == i % 9 || (j / 27 == i / 27 && j % 9 / 3 == i % 9 / 3))
}

/// A clash to make: a cell without a digit on `shown` and a given of its row in `puzzle` (whose
/// digit placed in that cell repeats in the row): a given 8 where there is one, else the first.
fn a_clash(shown: &[u8], puzzle: &[u8]) -> (usize, usize) {
    let pairs = || {
        (0..81).filter(|&i| shown[i] == 0).flat_map(|i| {
            (i / 9 * 9..i / 9 * 9 + 9)
                .filter(|&j| puzzle[j] != 0)
                .map(move |j| (i, j))
        })
    };
    // A given 8 where a row has one, so that the words say "an 8".
    pairs()
        .find(|&(_, j)| puzzle[j] == 8)
        .or_else(|| pairs().next())
        .unwrap()
}

/// Moves the page's clock five minutes on (a grid filled in seconds is no human's result,
/// which the server refuses).
fn five_minutes_on(browser: &Browser) {
    browser.eval(
        "(() => { const now = Date.now.bind(Date); Date.now = () => now() + 300000; return 0; })()",
    );
}

/// The digits cell `i` can take on `board` (0 for empty): none in its row, column or box.
fn candidates(board: &[u8], i: usize) -> String {
    (1..=9u8)
        .filter(|&d| !(0..81).any(|j| peers(i, j) && board[j] == d))
        .map(|d| char::from(b'0' + d))
        .collect()
}

/// The board as the page shows it: givens and entries, 0 for empty (or notes only).
fn board(browser: &Browser) -> Vec<u8> {
    let text = browser.text(
        "[...document.querySelectorAll('.cell')].map(c => \
         c.querySelector('.marks') || c.textContent === '' ? '.' : c.textContent).join('')",
    );
    assert_eq!(text.len(), 81, "{text}");
    digits(&text)
}

/// How the player enters digits.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Input {
    /// Tap a cell, then a digit on the pad.
    CellFirst,
    /// Pick a digit on the pad, then tap each cell for it.
    NumberFirst,
    /// The keyboard alone: arrows to the cell, then the digit's key.
    Keyboard,
}

/// A player at one of the pages: the browser, and where the keyboard's selection stands.
struct Player<'a> {
    browser: &'a Browser,
    input: Input,
}

impl Player<'_> {
    /// The selected cell (the one the board's Tab stop is on).
    fn selected(&self) -> usize {
        self.browser
            .eval("Number(document.querySelector('.cell[aria-selected=\"true\"]').dataset.cell)")
            .as_u64()
            .unwrap() as usize
    }

    /// The keyboard player's arrows from the selected cell to cell `i`.
    fn arrows_to(&self, i: usize) {
        let from = self.selected();
        let (dr, dc) = (
            i as i64 / 9 - from as i64 / 9,
            i as i64 % 9 - from as i64 % 9,
        );
        let mut keys = String::new();
        for _ in 0..dr.abs() {
            keys.push_str(if dr > 0 { DOWN } else { UP });
        }
        for _ in 0..dc.abs() {
            keys.push_str(if dc > 0 { RIGHT } else { LEFT });
        }
        if !keys.is_empty() {
            self.browser.keys(&keys);
        }
        assert_eq!(self.selected(), i);
    }

    /// Digit `d` into cell `i`, the player's way (number first: the digit picked unless it
    /// is already).
    fn place(&self, i: usize, d: u8) {
        let b = self.browser;
        match self.input {
            Input::CellFirst => {
                b.click(&format!(".cell[data-cell='{i}']"));
                b.click(&format!("#pad button[data-digit='{d}']"));
            }
            Input::NumberFirst => {
                let pressed = b.text(&format!(
                    "String(document.querySelector(\"#pad button[data-digit='{d}']\").getAttribute('aria-pressed'))"
                ));
                if pressed != "true" {
                    b.click(&format!("#pad button[data-digit='{d}']"));
                }
                b.click(&format!(".cell[data-cell='{i}']"));
            }
            Input::Keyboard => {
                self.arrows_to(i);
                b.keys(&d.to_string());
            }
        }
    }

    /// Undo, the player's way.
    fn undo(&self) {
        match self.input {
            Input::Keyboard => self.browser.keys("\u{E009}z\u{E000}"),
            _ => self.browser.click("#undo"),
        }
    }

    /// Auto notes, the player's way.
    fn auto_notes(&self) {
        match self.input {
            Input::Keyboard => self.browser.keys("a"),
            _ => self.browser.click("#auto-notes"),
        }
    }

    /// Moves the keyboard's focus with Tab until `js` (on `document.activeElement`, as `el`)
    /// holds; panics after 60 presses.
    fn tab_to(&self, js: &str) {
        for _ in 0..60 {
            if self
                .browser
                .eval(&format!("(el => {js})(document.activeElement)"))
                .as_bool()
                .unwrap()
            {
                return;
            }
            self.browser.keys(TAB);
        }
        panic!("Tab never reached {js}");
    }
}

fn no_sideways_overflow(browser: &Browser) {
    let (scroll, inner) = (
        browser.eval("document.documentElement.scrollWidth"),
        browser.eval("window.innerWidth"),
    );
    assert!(
        scroll.as_u64().unwrap() <= inner.as_u64().unwrap(),
        "scrollWidth {scroll} > innerWidth {inner}"
    );
}

/// On a phone the whole game fits the screen: the page does not scroll either way.
fn fits_the_screen(browser: &Browser, width: u32, when: &str) {
    no_sideways_overflow(browser);
    if width < 760 {
        let (scroll, inner) = (
            browser.eval("document.documentElement.scrollHeight"),
            browser.eval("window.innerHeight"),
        );
        assert!(
            scroll.as_u64().unwrap() <= inner.as_u64().unwrap(),
            "{width} px, {when}: scrollHeight {scroll} > innerHeight {inner}"
        );
    }
}

/// Each of the header's and the clock bar's words sits on one line, whole (not cut short).
fn headers_on_one_line(browser: &Browser, width: u32) {
    let wrapped = browser.text(
        "[...document.querySelectorAll('.top button, .top select, .brand, #info, #timer, #mistakes')]\
         .filter(el => el.offsetParent !== null)\
         .filter(el => { const r = document.createRange(); r.selectNodeContents(el); \
            const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top))); \
            return tops.size > 1 || el.scrollWidth > el.clientWidth + 1; })\
         .map(el => el.id || el.className).join(',')",
    );
    assert_eq!(wrapped, "", "{width} px: wrapped or cut short");
    let spread = browser.eval(
        "(cs => Math.max(...cs) - Math.min(...cs))([...document.querySelectorAll('.top .controls > *')]\
         .map(el => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; }))",
    );
    assert!(
        spread.as_f64().unwrap() <= 4.0,
        "{width} px: the header's controls on one line ({spread} px apart)"
    );
}

fn screenshot(browser: &Browser, name: &str) {
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&shot, browser.screenshot()).unwrap();
    eprintln!("screenshot: {}", shot.display());
}

/// axe-core's script: `PSEUDOKU_AXE` (the file `axe.min.js` of the npm package); `None`
/// (the checks skip) when it is unset and `PSEUDOKU_REQUIRE_AXE` is not.
fn axe_script() -> Option<String> {
    match std::env::var_os("PSEUDOKU_AXE") {
        Some(path) => Some(
            std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("PSEUDOKU_AXE={}: {e}", PathBuf::from(&path).display())),
        ),
        None => {
            assert!(
                std::env::var_os("PSEUDOKU_REQUIRE_AXE").is_none(),
                "PSEUDOKU_REQUIRE_AXE is set but PSEUDOKU_AXE names no axe-core script"
            );
            crate::common::skipping("the axe-core checks", "PSEUDOKU_AXE is unset (see .ci/run)");
            None
        }
    }
}

/// axe-core on the page as it is now: fails on any serious or critical violation, and
/// reports every violation it found (with its impact) on stderr.
fn axe(browser: &Browser, axe: &Option<String>, width: u32, state: &str) {
    let Some(script) = axe else {
        return;
    };
    if browser.eval("typeof window.axe === 'undefined'").as_bool() == Some(true) {
        browser.eval(&format!("(() => {{ {script}; return 0; }})()"));
    }
    let found = browser.eval_async(
        "axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations.map(v => \
         ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')) })))).catch(e => done(String(e)))",
    );
    let list = found.as_array().unwrap_or_else(|| panic!("axe: {found}"));
    eprintln!(
        "axe-core at {width} px, {state}: {} violations{}",
        list.len(),
        list.iter()
            .map(|v| format!(" [{} {}: {}]", v["impact"], v["id"], v["nodes"]))
            .collect::<String>()
    );
    let bad: Vec<&Value> = list
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .collect();
    assert!(bad.is_empty(), "{width} px, {state}: {bad:?}");
}

/// The hint the server gives for the page's board now (with its notes when every empty
/// cell has some, as the page sends them), as the API words it.
fn api_hint(browser: &Browser, base: &str) -> Value {
    let game = saved(browser);
    let puzzle = game["puzzle"].as_str().unwrap();
    let entries: String = (0..81)
        .map(|i| match game["entries"][i].as_u64().unwrap() {
            0 => puzzle.as_bytes()[i] as char,
            d => char::from(b'0' + d as u8),
        })
        .collect();
    let marks: Vec<String> = (0..81)
        .map(|i| game["marks"][i].as_str().unwrap_or("").to_string())
        .collect();
    let noted = (0..81).all(|i| entries.as_bytes()[i] != b'.' || !marks[i].is_empty());
    let mut req = serde_json::json!({ "puzzle": puzzle, "entries": entries });
    if noted {
        req["candidates"] = Value::from(marks);
    }
    let body = ureq::post(&format!("{base}/v1/hint"))
        .set("Content-Type", "application/json")
        .send_string(&req.to_string())
        .unwrap()
        .into_string()
        .unwrap();
    serde_json::from_str(&body).unwrap()
}

/// The API's words as the page shows them: cells in words, each sentence capitalised.
fn as_shown(text: &str) -> String {
    let b = text.as_bytes();
    let mut plain = String::new();
    let mut i = 0;
    while i < b.len() {
        let cell = i + 4 <= b.len()
            && b[i] == b'r'
            && b[i + 1].is_ascii_digit()
            && b[i + 2] == b'c'
            && b[i + 3].is_ascii_digit()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if cell {
            plain.push_str(&format!(
                "row {}, column {}",
                b[i + 1] as char,
                b[i + 3] as char
            ));
            i += 4;
        } else {
            plain.push(b[i] as char);
            i += 1;
        }
    }
    let mut out = String::new();
    let mut start = true;
    for ch in plain.chars() {
        if start && ch.is_ascii_lowercase() {
            out.push(ch.to_ascii_uppercase());
            start = false;
        } else {
            if !ch.is_whitespace() {
                start = matches!(ch, '.' | '!' | '?');
            }
            out.push(ch);
        }
    }
    out
}

/// The three steps of a hint: the technique with its house (never the move's one cell),
/// then where exactly (the digit or cells, the pattern shaded), then the move.
fn a_hint_goes_from_the_general_to_the_particular(
    browser: &Browser,
    base: &str,
    width: u32,
    axe_js: &Option<String>,
) {
    let want = api_hint(browser, base);
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 1 of 3: ')",
        10,
    );
    // A mistake's nudge is a sentence and the general step; a technique's names the place.
    let nudge = want["nudge"].as_str().unwrap();
    let general = if nudge.ends_with('.') {
        nudge
    } else {
        want["hint"].as_str().unwrap()
    };
    assert_eq!(
        text_of(browser, "hint-text"),
        format!("Hint 1 of 3: {}", as_shown(general))
    );
    assert_ne!(count(browser, "focus"), 1, "step 1 never shades one cell");
    browser.click("#hint");
    let two = text_of(browser, "hint-text");
    assert!(two.starts_with("Hint 2 of 3: "), "{two}");
    if general != nudge {
        assert!(two.starts_with("Hint 2 of 3: Look at "), "{two}");
    }
    assert!(count(browser, "pattern") >= 1);
    browser.click("#hint");
    assert_eq!(
        text_of(browser, "hint-text"),
        format!("Hint 3 of 3: {}", as_shown(want["move"].as_str().unwrap()))
    );
    assert!(count(browser, "flag") >= 1);
    let flagged = browser.text(
        "[...document.querySelectorAll('.cell.flag')].map(c => c.getAttribute('aria-label')).join('|')",
    );
    assert!(flagged.contains("highlighted by the hint"), "{flagged}");
    fits_the_screen(browser, width, "a hint's last step shown");
    axe(browser, axe_js, width, "a hint's last step shown");
    screenshot(browser, &format!("play-page-{width}-hint.png"));
}

/// A digit placed where its house already has it: both cells flagged at once, with the
/// words; undone, the flags go. With the setting off, no flag.
fn a_conflict_is_shown_at_once(player: &Player, width: u32, axe_js: &Option<String>) {
    let b = player.browser;
    let shown = board(b);
    let puzzle = digits(saved(b)["puzzle"].as_str().unwrap());
    let (i, j) = a_clash(&shown, &puzzle);
    let r = i / 9;
    let d = puzzle[j];
    let before = left(b, d);
    player.place(i, d);
    assert_eq!(cell(b, i), d.to_string());
    let peers_with_d = (0..81).filter(|&k| peers(i, k) && shown[k] == d).count() as u64;
    assert!(peers_with_d >= 1);
    assert_eq!(
        count(b, "conflict"),
        1 + peers_with_d,
        "the new digit and each it repeats"
    );
    assert_eq!(
        text_of(b, "status"),
        format!(
            "There is already {} {d} in row {}.",
            if d == 8 { "an" } else { "a" },
            r + 1
        )
    );
    assert!(label(b, i).contains("conflict"), "{}", label(b, i));
    assert!(label(b, j).contains(&format!("{d}, given, conflict")));
    // Not by colour alone: the digits are underlined.
    let line = b.text(&format!(
        "getComputedStyle(document.querySelector(\".cell[data-cell='{i}']\")).textDecorationLine"
    ));
    assert_eq!(line, "underline");
    assert_eq!(left(b, d), before, "a wrong digit is no correct placement");
    axe(b, axe_js, width, "a conflict shown");
    screenshot(
        b,
        &format!("play-page-{width}-{:?}-conflict.png", player.input),
    );
    player.undo();
    assert_eq!(cell(b, i), "");
    assert_eq!(count(b, "conflict"), 0);
}

/// Auto notes: every empty cell's notes are the digits it can take; one undo takes them back
/// and a second fill brings them again.
fn auto_notes_fill_every_candidate(player: &Player, width: u32) {
    let b = player.browser;
    let shown = board(b);
    player.auto_notes();
    for i in (0..81).filter(|&i| shown[i] == 0) {
        assert_eq!(cell(b, i), candidates(&shown, i), "cell {i}");
    }
    assert!(text_of(b, "status").starts_with("Notes filled in"));
    let empty = shown.iter().position(|&d| d == 0).unwrap();
    assert!(
        label(b, empty).contains("empty, notes "),
        "{}",
        label(b, empty)
    );
    fits_the_screen(b, width, "auto notes");
    screenshot(
        b,
        &format!("play-page-{width}-{:?}-notes.png", player.input),
    );
    player.undo();
    assert_eq!(cell(b, empty), "");
    player.auto_notes();
    assert_eq!(cell(b, empty), candidates(&shown, empty));
}

/// Plays the puzzle on the page to its end the player's way: a conflict, auto notes, then
/// every empty cell; the first game also a hint and a reload. Returns the level played.
fn play_to_the_end(player: &Player, base: &str, width: u32, first: bool, axe_js: &Option<String>) {
    let b = player.browser;
    let solved = solution(b, base);
    a_conflict_is_shown_at_once(player, width, axe_js);
    auto_notes_fill_every_candidate(player, width);
    if first {
        a_hint_goes_from_the_general_to_the_particular(b, base, width, axe_js);
    }
    let empty = empties(b);
    let half = empty.len() / 2;
    for &i in &empty[..half] {
        let d = solved[i];
        let before: u8 = left(b, d).parse().unwrap_or(0);
        player.place(i, d);
        assert_eq!(cell(b, i), d.to_string());
        if before > 0 {
            let after = left(b, d);
            let want = if before == 1 {
                "\u{2713}".to_string()
            } else {
                (before - 1).to_string()
            };
            assert_eq!(after, want, "the pad counts correct placements");
        }
    }
    // A placed digit takes its notes out of its row, column and box.
    let notes = browser_notes(b);
    let shown = board(b);
    for &i in &empty[..half] {
        let d = char::from(b'0' + solved[i]);
        for (j, n) in notes.iter().enumerate() {
            assert!(
                !(peers(i, j) && shown[j] == 0 && n.contains(d)),
                "cell {j} keeps {d} beside {i}"
            );
        }
    }
    if first {
        let shown: Vec<String> = (0..81).map(|i| cell(b, i)).collect();
        b.goto(base);
        wait_for_puzzle(b);
        let again: Vec<String> = (0..81).map(|i| cell(b, i)).collect();
        assert_eq!(again, shown, "the reload restores the board");
        if player.input == Input::Keyboard {
            player.tab_to("el.classList.contains('cell')");
        }
    }
    // The rest, as if five minutes had passed.
    five_minutes_on(b);
    for &i in &empty[half..] {
        player.place(i, solved[i]);
    }
    b.wait_for("document.getElementById('win').open", 5);
}

/// Every cell's notes as the page shows them ("" where a digit stands or none are kept).
fn browser_notes(browser: &Browser) -> Vec<String> {
    let game = saved(browser);
    (0..81)
        .map(|i| game["marks"][i].as_str().unwrap_or("").to_string())
        .collect()
}

/// The win panel, the locked board and the level's statistics after `wins` wins.
fn the_win_is_counted(browser: &Browser, width: u32, wins: u64, axe_js: &Option<String>) {
    browser.wait_for("!document.getElementById('win-rating').hidden", 5);
    let rating = text_of(browser, "win-rating");
    assert!(rating.starts_with("Your rating: "), "{rating}");
    let level = text_of(browser, "win-level");
    assert!(
        level.contains(&format!(": won {wins} of {wins}, best ")),
        "{level}"
    );
    let time = text_of(browser, "win-time");
    assert!(time.contains(':'), "{time}");
    axe(browser, axe_js, width, "the win panel");
    screenshot(browser, &format!("play-page-{width}-won-{wins}.png"));
    browser.click("#win-close");
    // A solved grid: every control that would change it is disabled, and looks it.
    for id in ["pencil", "auto-notes", "hint", "undo", "erase", "pause"] {
        let (disabled, opacity) = (
            browser.eval(&format!("document.getElementById('{id}').disabled")),
            browser.text(&format!(
                "getComputedStyle(document.getElementById('{id}')).opacity"
            )),
        );
        assert_eq!(disabled, Value::Bool(true), "{id}");
        assert!(opacity.parse::<f64>().unwrap() <= 0.5, "{id}: {opacity}");
    }
    let pad = browser.eval("[...document.querySelectorAll('#pad button')].every(b => b.disabled)");
    assert_eq!(pad, Value::Bool(true));
    // The statistics, kept in the browser.
    browser.click("#open-stats");
    browser.wait_for("document.getElementById('stats').open", 5);
    let figures = browser.text(
        "[...document.querySelectorAll('#stats-figures div')].map(d => d.children[0].textContent + '=' + d.children[1].textContent).join(';')",
    );
    assert!(
        figures.contains(&format!(
            "Games played={wins};Games won={wins};Win rate=100%"
        )),
        "{figures}"
    );
    assert!(figures.contains(&format!("Current run of wins={wins}")));
    assert!(!figures.contains("Best time=\u{2013}"), "{figures}");
    axe(browser, axe_js, width, "the statistics");
    screenshot(browser, &format!("play-page-{width}-statistics.png"));
    browser.keys(ESCAPE);
    assert!(!is_open(browser, "stats"));
    assert_eq!(
        browser.text("document.activeElement.id"),
        "open-stats",
        "the focus goes back to the button that opened the dialog"
    );
}

/// Sets the input mode in the settings dialog, by keyboard alone: Tab to the menu, Enter,
/// Tab to the choices, an arrow, Escape.
fn choose_input_by_keyboard(player: &Player, value: &str) {
    let b = player.browser;
    player.tab_to("el.id === 'open-settings'");
    b.keys(ENTER);
    b.wait_for("document.getElementById('settings').open", 5);
    // Tab stops once in a group of radio buttons, on the checked one; the arrows choose.
    player.tab_to("el.name === 'input'");
    b.keys(if value == "cell" { UP } else { DOWN });
    assert_eq!(
        b.eval(&format!("document.getElementById('input-{value}').checked")),
        Value::Bool(true)
    );
    b.keys(ESCAPE);
    assert!(!is_open(b, "settings"));
    assert_eq!(b.text("document.activeElement.id"), "open-settings");
}

/// Every control the page shows enabled is reached with Tab, in one round.
fn every_control_is_reached_with_tab(player: &Player, width: u32) {
    let b = player.browser;
    b.eval("document.activeElement.blur() || 0");
    let want = b.text(
        "[...document.querySelectorAll('button, select, input, [tabindex=\"0\"]')]\
         .filter(el => !el.disabled && !el.closest('dialog') && el.offsetParent !== null)\
         .map(el => el.id || el.dataset.digit || el.dataset.cell || el.className).sort().join(',')",
    );
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        b.keys(TAB);
        let here = b.text(
            "(el => el.id || el.dataset.digit || el.dataset.cell || el.className)(document.activeElement)",
        );
        seen.insert(here);
    }
    let mut want: Vec<&str> = want.split(',').collect();
    want.sort_unstable();
    let missed: Vec<&&str> = want.iter().filter(|w| !seen.contains(**w)).collect();
    assert!(
        missed.is_empty(),
        "{width} px: Tab never reaches {missed:?}"
    );
}

/// Three whole games at `width` x `height`, one per input mode.
fn three_games(width: u32, height: u32) {
    let Some(browser) = Browser::start(width, height) else {
        return;
    };
    let axe_js = axe_script();
    let (_dir, server, base) = served(&[]);
    open(&browser, &base);
    assert_eq!(browser.eval("window.innerWidth"), width);
    fits_the_screen(&browser, width, "the start");
    headers_on_one_line(&browser, width);
    // Names, not the bank's internals.
    let options = browser
        .text("[...document.querySelectorAll('#level option')].map(o => o.textContent).join(',')");
    assert_eq!(options, "Easy,Medium,Hard,Expert");
    let info = text_of(&browser, "info");
    assert!(
        info.starts_with("Puzzle #") && info.ends_with(" \u{b7} Easy"),
        "{info}"
    );
    // A pad key's name starts with its digit and says how many are left.
    let name = browser
        .text("document.querySelector(\"#pad button[data-digit='5']\").getAttribute('aria-label')");
    assert!(name.starts_with("5, ") && name.ends_with(" left"), "{name}");
    axe(&browser, &axe_js, width, "the start");
    screenshot(&browser, &format!("play-page-{width}x{height}.png"));

    // Cell first (the default), with a hint and a reload.
    let player = Player {
        browser: &browser,
        input: Input::CellFirst,
    };
    play_to_the_end(&player, &base, width, true, &axe_js);
    the_win_is_counted(&browser, width, 1, &axe_js);

    // Number first: chosen in the settings; the picked digit's key stays pressed.
    browser.click("#new");
    wait_for_puzzle(&browser);
    browser.wait_for(
        "!document.getElementById('win').open && !document.getElementById('pencil').disabled",
        10,
    );
    browser.click("#open-settings");
    browser.wait_for("document.getElementById('settings').open", 5);
    axe(&browser, &axe_js, width, "the settings");
    screenshot(&browser, &format!("play-page-{width}-settings.png"));
    browser.click("#input-number");
    browser.click("#settings-close");
    let player = Player {
        browser: &browser,
        input: Input::NumberFirst,
    };
    browser.click("#pad button[data-digit='4']");
    assert_eq!(
        browser.text(
            "document.querySelector(\"#pad button[data-digit='4']\").getAttribute('aria-pressed')"
        ),
        "true"
    );
    axe(&browser, &axe_js, width, "number first, 4 picked");
    screenshot(&browser, &format!("play-page-{width}-number-first.png"));
    play_to_the_end(&player, &base, width, false, &axe_js);
    the_win_is_counted(&browser, width, 2, &axe_js);

    // The keyboard alone: back to cell first in the settings, a new puzzle, every control
    // reached with Tab, the game played with arrows and digits.
    let player = Player {
        browser: &browser,
        input: Input::Keyboard,
    };
    choose_input_by_keyboard(&player, "cell");
    player.tab_to("el.id === 'new'");
    browser.keys(ENTER);
    browser.wait_for(
        "document.getElementById('undo').disabled && !document.getElementById('hint').disabled",
        10,
    );
    wait_for_puzzle(&browser);
    every_control_is_reached_with_tab(&player, width);
    player.tab_to("el.classList.contains('cell')");
    play_to_the_end(&player, &base, width, false, &axe_js);
    the_win_is_counted(&browser, width, 3, &axe_js);
    stop(server);
}

#[test]
fn three_games_play_on_the_narrowest_phone() {
    three_games(320, 568);
}

#[test]
fn three_games_play_on_a_phone() {
    three_games(390, 844);
}

#[test]
fn three_games_play_on_a_desktop() {
    three_games(1280, 800);
}

/// Pausing hides the grid and disables every control that would change it; the mistakes
/// counter is neutral at 0 and turns to the mistake colour, with its count, at 1; with
/// conflicts turned off a repeated digit is not flagged.
#[test]
fn settings_and_pause_change_what_the_page_shows() {
    let Some(browser) = Browser::start(390, 844) else {
        return;
    };
    let (_dir, server, base) = served(&[]);
    open(&browser, &base);
    browser.click("#pause");
    for id in ["pencil", "auto-notes", "hint", "erase", "undo"] {
        assert_eq!(
            browser.eval(&format!("document.getElementById('{id}').disabled")),
            Value::Bool(true),
            "{id} while paused"
        );
    }
    browser.click("#resume");
    assert_eq!(
        browser.eval("document.getElementById('pencil').disabled"),
        Value::Bool(false)
    );
    // Mistakes: shown on request, neutral at 0.
    browser.click("#open-settings");
    browser.click("#show-mistakes");
    browser.click("#show-conflicts");
    browser.click("#settings-close");
    let colour = |id: &str| {
        browser.text(&format!(
            "getComputedStyle(document.getElementById('{id}')).color"
        ))
    };
    let neutral = colour("mistakes");
    assert_eq!(text_of(&browser, "mistakes"), "Mistakes: 0");
    assert_eq!(
        browser.text("document.getElementById('mistakes').getAttribute('aria-label')"),
        "0 mistakes"
    );
    assert_eq!(neutral, colour("info"), "0 mistakes in the muted colour");
    let solved = solution(&browser, &base);
    let puzzle = digits(saved(&browser)["puzzle"].as_str().unwrap());
    let (i, clash) = a_clash(&puzzle, &puzzle);
    let player = Player {
        browser: &browser,
        input: Input::CellFirst,
    };
    player.place(i, puzzle[clash]);
    assert_ne!(puzzle[clash], solved[i]);
    assert_eq!(count(&browser, "conflict"), 0, "conflicts are off");
    assert_eq!(count(&browser, "wrong"), 1, "the mistake is marked");
    assert!(label(&browser, i).ends_with("mistake"));
    assert_eq!(text_of(&browser, "mistakes"), "Mistakes: 1");
    assert_ne!(colour("mistakes"), neutral);
    // The corner mark, not only the colour.
    let corner = browser.text(&format!(
        "getComputedStyle(document.querySelector(\".cell[data-cell='{i}']\"), '::before').content"
    ));
    assert_eq!(corner, "\"\"");
    screenshot(&browser, "play-page-390-mistake.png");
    // Kept across a reload.
    browser.goto(&base);
    wait_for_puzzle(&browser);
    assert_eq!(count(&browser, "wrong"), 1);
    assert_eq!(count(&browser, "conflict"), 0);
    stop(server);
}

/// The dark colours (the system's choice, emulated) pass axe-core too: a conflict, notes, a
/// mistake and a hint on the board, then the settings and the statistics.
#[test]
fn the_dark_colours_pass_axe_core() {
    let Some(browser) = Browser::start(390, 844) else {
        return;
    };
    let axe_js = axe_script();
    let (_dir, server, base) = served(&[]);
    browser.devtools(
        "Emulation.setEmulatedMedia",
        serde_json::json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
    );
    open(&browser, &base);
    assert_eq!(
        browser.eval("matchMedia('(prefers-color-scheme: dark)').matches"),
        Value::Bool(true)
    );
    browser.click("#open-settings");
    browser.click("#show-mistakes");
    browser.click("#settings-close");
    let player = Player {
        browser: &browser,
        input: Input::CellFirst,
    };
    player.auto_notes();
    let puzzle = digits(saved(&browser)["puzzle"].as_str().unwrap());
    let (i, clash) = a_clash(&puzzle, &puzzle);
    player.place(i, puzzle[clash]);
    assert!(count(&browser, "conflict") >= 2 && count(&browser, "wrong") == 1);
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 1 of 3: ')",
        10,
    );
    axe(
        &browser,
        &axe_js,
        390,
        "dark colours, a conflict, a mistake and a hint",
    );
    screenshot(&browser, "play-page-390-dark.png");
    browser.click("#open-settings");
    axe(&browser, &axe_js, 390, "dark colours, the settings");
    browser.click("#settings-close");
    browser.click("#open-stats");
    axe(&browser, &axe_js, 390, "dark colours, the statistics");
    stop(server);
}

/// An expert puzzle whose 31st step, as `pseudoku explain` solves it, is an AIC.
const CHAIN_PUZZLE: &str =
    "....3...6..84.....53...6.4.9....8.3...3...7....7.51..8....92..31.5..3...3.46..9..";

/// A chain's hint on the page: a player who has filled and marked the board up to the step
/// where the puzzle needs an alternating inference chain asks for a hint; step 1 names the
/// technique, step 2 shades the chain's cells (the hint's `pattern`), step 3 flags the removal
/// and reads the chain link by link.
#[test]
fn a_chain_hint_shades_the_chain_and_reads_it_link_by_link() {
    let Some(browser) = Browser::start(1280, 800) else {
        return;
    };
    let (_dir, server, base) = served(&[]);
    open(&browser, &base);
    // The board at the AIC step, from the library's own walk through the puzzle.
    let puzzle: pseudoku::grid::Puzzle = CHAIN_PUZZLE.parse().unwrap();
    let steps = pseudoku::explain::steps_json(&puzzle, true).unwrap();
    let step: Value = steps
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|s| s["technique"] == "aic")
        .expect("the puzzle needs an AIC");
    let grid: Vec<String> = step["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    // At a chain's step no single is left, so a cell with one digit is filled.
    let givens = CHAIN_PUZZLE.as_bytes();
    let entries: Vec<u8> = (0..81)
        .map(|i| match (givens[i], grid[i].len()) {
            (b'.', 1) => grid[i].parse().unwrap(),
            _ => 0,
        })
        .collect();
    let marks: Vec<&str> = (0..81)
        .map(|i| match (givens[i], grid[i].len()) {
            (b'.', n) if n > 1 => grid[i].as_str(),
            _ => "",
        })
        .collect();
    let solution = pseudoku::solve::solve(&puzzle)
        .unique()
        .expect("one solution")
        .to_string();
    let mut game = saved(&browser);
    game["puzzle"] = Value::from(CHAIN_PUZZLE);
    game["solution"] = Value::from(solution);
    game["entries"] = Value::from(entries);
    game["marks"] = Value::from(marks);
    game["undo"] = Value::from(Vec::<Value>::new());
    // Written from another page of the server: the play page saves its own game as it goes.
    browser.goto(&format!("{base}/healthz"));
    browser.eval(&format!(
        "localStorage.setItem('pseudoku-game', {})",
        serde_json::to_string(&game.to_string()).unwrap()
    ));
    browser.goto(&base);
    browser.wait_for("document.querySelectorAll('.cell.given').length >= 17", 10);
    let chain: Vec<usize> = step["pattern"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rc| {
            let r = rc[0].as_u64().unwrap() as usize;
            let c = rc[1].as_u64().unwrap() as usize;
            (r - 1) * 9 + c - 1
        })
        .collect();
    assert_eq!(chain.len(), 4, "{step}");

    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 1 of 3: ')",
        10,
    );
    let text = text_of(&browser, "hint-text");
    assert!(text.contains("alternating inference chain"), "{text}");
    assert_eq!(count(&browser, "pattern"), 0, "step 1 shows no chain yet");
    browser.click("#hint");
    let shaded: Vec<usize> = (0..81)
        .filter(|i| {
            browser
                .eval(&format!(
                    "document.querySelector(\".cell[data-cell='{i}']\").classList.contains('pattern')"
                ))
                .as_bool()
                .unwrap()
        })
        .collect();
    let mut want = chain.clone();
    want.sort_unstable();
    assert_eq!(shaded, want, "the chain's cells are shaded");
    screenshot(&browser, "play-page-1280x800-chain.png");
    browser.click("#hint");
    let plain = as_shown(step["move"].as_str().unwrap());
    assert!(plain.starts_with("If row "), "{plain}");
    assert_eq!(
        text_of(&browser, "hint-text"),
        format!("Hint 3 of 3: {plain}")
    );
    assert_eq!(count(&browser, "flag"), 1, "the one cell that loses 7");
    screenshot(&browser, "play-page-1280x800-chain-move.png");
    stop(server);
}

#[test]
fn nothing_overflows_from_the_narrowest_phone_to_a_tablet() {
    let (_dir, server, base) = served(&[]);
    for (width, height) in [(320, 568), (360, 740), (390, 664), (768, 1024)] {
        let Some(browser) = Browser::start(width, height) else {
            return;
        };
        open(&browser, &base);
        assert_eq!(browser.eval("window.innerWidth"), width);
        fits_the_screen(&browser, width, "the start");
        headers_on_one_line(&browser, width);
        // Every header control is a tap target of at least 44 px each way.
        let small = browser.text(
            "[...document.querySelectorAll('.top button, .top select')]\
             .map(e => [e.id, e.getBoundingClientRect()])\
             .filter(([, r]) => r.height < 43.5 || r.width < 43.5)\
             .map(([id, r]) => `${id} ${r.width}x${r.height}`).join(', ')",
        );
        assert!(
            small.is_empty(),
            "{width}: header controls under 44 px: {small}"
        );
        // The board and the pad are on screen, side by side with nothing cut.
        let right = browser.eval(
            "Math.max(...['board', 'pad'].map(id => document.getElementById(id)\
             .getBoundingClientRect().right))",
        );
        assert!(
            right.as_f64().unwrap() <= f64::from(width),
            "{width}: {right}"
        );
        screenshot(&browser, &format!("play-page-{width}x{height}.png"));
    }
    stop(server);
}

#[test]
fn the_daily_puzzle_is_the_same_for_two_players_and_a_token_server_plays() {
    let axe_js = axe_script();
    let (_dir, server, base) = served(&[]);
    let mut boards = Vec::new();
    let mut users = Vec::new();
    for width in [320, 390] {
        // A fresh browser profile: another player.
        let Some(browser) = Browser::start(width, 700) else {
            return;
        };
        open(&browser, &base);
        let days = open_archive(&browser);
        assert_eq!(days.len(), 30, "{days:?}");
        assert!(days[0].starts_with("Today"), "{days:?}");
        assert!(days[1].starts_with("Yesterday"), "{days:?}");
        assert!(days.iter().all(|d| d.ends_with("Not played")), "{days:?}");
        fits_the_screen(&browser, width, "the daily puzzles");
        screenshot(&browser, &format!("play-page-{width}-archive.png"));
        axe(&browser, &axe_js, width, "the daily puzzles");
        browser.click("#archive-days li:nth-child(1) button");
        browser.wait_for(
            "document.getElementById('info').textContent.startsWith('Daily')",
            10,
        );
        // The daily's title, the clock and the mistakes counter on one line, whole.
        browser.click("#open-settings");
        browser.click("#show-mistakes");
        browser.click("#settings-close");
        headers_on_one_line(&browser, width);
        fits_the_screen(&browser, width, "the daily puzzle");
        screenshot(&browser, &format!("play-page-{width}-daily.png"));
        boards.push((0..81).map(|i| cell(&browser, i)).collect::<Vec<_>>());
        users.push(browser.text("localStorage.getItem('pseudoku-user')"));
        // The first player solves it: a streak of one day.
        if boards.len() == 1 {
            solve_to_the_win(&browser, &base);
            let streak = text_of(&browser, "win-streak");
            assert!(streak.contains("1 day"), "{streak}");
            // Daily again the same day: no replay; the archive shows the solve, as the server
            // counted it.
            // The server's answer to the result (the rating), which a loaded machine can delay.
            browser.wait_for("!document.getElementById('win-rating').hidden", 30);
            browser.click("#win-close");
            let days = open_archive(&browser);
            assert!(days[0].starts_with("TodaySolved in "), "{days:?}");
            browser.click("#archive-days li:nth-child(1) button");
            let status = text_of(&browser, "status");
            assert!(status.contains("solved today's daily"), "{status}");
            // The day before yesterday's, from the archive: its own puzzle, shown as being
            // played; the streak is left alone.
            let before = browser.text(
                "document.querySelector('#archive-days li:nth-child(3) button').dataset.date",
            );
            open_archive(&browser);
            browser.click("#archive-days li:nth-child(3) button");
            let rest = &before[4..];
            let month = [
                "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
            ][rest[1..3].parse::<usize>().unwrap() - 1];
            let title = format!(
                "Daily \u{b7} {} {month}",
                rest[4..6].parse::<u32>().unwrap()
            );
            browser.wait_for(
                &format!("document.getElementById('info').textContent.startsWith('{title}')"),
                10,
            );
            let other: Vec<String> = (0..81).map(|i| cell(&browser, i)).collect();
            assert_ne!(other, boards[0]);
            let days = open_archive(&browser);
            assert!(days[2].ends_with("Playing"), "{days:?}");
            assert!(days[0].starts_with("TodaySolved in "), "{days:?}");
            screenshot(&browser, &format!("play-page-{width}-archive-played.png"));
            axe(&browser, &axe_js, width, "the daily puzzles, two played");
            browser.click("#archive-close");
            solve_to_the_win(&browser, &base);
            assert!(browser
                .eval("document.getElementById('win-streak').hidden")
                .as_bool()
                .unwrap());
            let best = browser.text("localStorage.getItem('pseudoku-streak')");
            assert!(best.contains("\"count\":1"), "{best}");
            browser.click("#win-close");
        }
    }
    assert_ne!(users[0], users[1]);
    assert_eq!(boards[0], boards[1]);
    stop(server);

    // A server with a token: the page plays with the page token the server wrote into it.
    let Some(browser) = Browser::start(1280, 800) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (token, page) = (dir.path().join("token"), dir.path().join("page-token"));
    std::fs::write(&token, "s3cret").unwrap();
    std::fs::write(&page, "pl4y").unwrap();
    let db = _dir.path().join("b.db");
    let (server, base) = crate::common::serve(
        &db,
        &[
            "--token-file",
            token.to_str().unwrap(),
            "--page-token-file",
            page.to_str().unwrap(),
        ],
    );
    open(&browser, &base);
    open_archive(&browser);
    screenshot(&browser, "play-page-1280-archive.png");
    browser.click("#archive-days li:nth-child(1) button");
    browser.wait_for(
        "document.getElementById('info').textContent.startsWith('Daily')",
        10,
    );
    stop(server);
}

/// Fills every empty cell of the page's puzzle with its solution, cell first, and waits for
/// the win panel.
fn solve_to_the_win(browser: &Browser, base: &str) {
    let solved = solution(browser, base);
    let player = Player {
        browser,
        input: Input::CellFirst,
    };
    for i in empties(browser) {
        player.place(i, solved[i]);
    }
    browser.wait_for("document.getElementById('win').open", 5);
}

/// Opens the daily puzzles (the Daily button) and waits for the server's answer: each day's
/// button as it reads ("TodayNot played", "Wed 2 DecSolved in 4:12").
fn open_archive(browser: &Browser) -> Vec<String> {
    browser.click("#daily");
    browser.wait_for(
        "document.getElementById('archive').open && \
         document.getElementById('archive-status').textContent === '' && \
         document.querySelectorAll('#archive-days button').length === 30",
        10,
    );
    let days = browser
        .eval("[...document.querySelectorAll('#archive-days button')].map((b) => b.textContent)");
    days.as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect()
}

/// A server for the bank `db` on `port` of localhost.
fn serve_on(db: &std::path::Path, port: u16) -> (Child, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pseudoku"));
    cmd.args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--db"])
        .arg(db);
    crate::common::started(cmd)
}

/// The page as an installed app: chromium finds it installable (a manifest with its icons,
/// a service worker), and with the server gone it opens from the worker's copies, restores
/// the game and plays it to the end; the result waits in the browser and reaches the server
/// once it is back.
#[test]
fn the_page_installs_and_finishes_a_game_offline() {
    let Some(browser) = Browser::start(390, 844) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    crate::common::build_levels(&db, 5, 2);
    let port = crate::common::free_port();
    let (server, base) = serve_on(&db, port);
    open(&browser, &base);
    browser.wait_for("navigator.serviceWorker.controller !== null", 20);
    browser.wait_for_async(
        "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys())))).then(all => done(all.flat().length >= 8))",
        20,
    );
    let errors = browser.devtools("Page.getInstallabilityErrors", serde_json::json!({}));
    assert_eq!(
        errors["installabilityErrors"],
        serde_json::json!([]),
        "{errors}"
    );
    let manifest = browser.devtools("Page.getAppManifest", serde_json::json!({}));
    assert_eq!(manifest["errors"], serde_json::json!([]), "{manifest}");
    let user = browser.text("localStorage.getItem('pseudoku-user')");
    let solved = solution(&browser, &base);
    let empty = empties(&browser);
    let player = Player {
        browser: &browser,
        input: Input::CellFirst,
    };
    let half = empty.len() / 2;
    for &i in &empty[..half] {
        player.place(i, solved[i]);
    }
    let shown: Vec<String> = (0..81).map(|i| cell(&browser, i)).collect();

    // The server goes: the page opens from the worker's copies, with the game as it was.
    stop(server);
    browser.goto(&base);
    browser.wait_for("document.querySelectorAll('.cell.given').length >= 17", 20);
    let again: Vec<String> = (0..81).map(|i| cell(&browser, i)).collect();
    assert_eq!(again, shown, "the game restored offline");
    browser.wait_for(
        "document.querySelectorAll('#level option').length === 4",
        10,
    );
    screenshot(&browser, "play-page-390-offline.png");
    five_minutes_on(&browser);
    for &i in &empty[half..] {
        player.place(i, solved[i]);
    }
    browser.wait_for("document.getElementById('win').open", 5);
    browser.wait_for(
        "JSON.parse(localStorage.getItem('pseudoku-outbox') || '[]').length === 1",
        10,
    );
    let stats = browser.text("localStorage.getItem('pseudoku-stats')");
    assert!(stats.contains("\"won\":1"), "{stats}");

    // The server is back: the next visit sends the result.
    let (server, base) = serve_on(&db, port);
    browser.goto(&base);
    browser.wait_for(
        "JSON.parse(localStorage.getItem('pseudoku-outbox') || '[]').length === 0",
        20,
    );
    let body: Value = serde_json::from_str(
        &ureq::get(&format!("{base}/v1/players/{user}"))
            .call()
            .unwrap()
            .into_string()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(body["games"], 1, "{body}");
    stop(server);
}

/// Starts a new puzzle of the level the menu names `name` (no game in progress).
fn choose_level(browser: &Browser, name: &str) {
    browser.eval(&format!(
        "(s => {{ s.value = [...s.options].find(o => o.textContent === '{name}').value; \
         s.dispatchEvent(new Event('change')); }})(document.getElementById('level'))"
    ));
    browser.wait_for(
        &format!(
            "document.getElementById('info').textContent.endsWith(' \u{b7} {name}') && \
             document.querySelectorAll('.cell.given').length >= 17 && !document.getElementById('hint').disabled"
        ),
        10,
    );
}

/// A player who takes every hint to its last step and does what it says (enters its digits;
/// with notes, takes its candidates out of them) until the puzzle is solved: every hint moves
/// the board on. Returns the hints taken.
fn follow_the_pages_hints(player: &Player, base: &str, notes: bool) -> u64 {
    let b = player.browser;
    if notes {
        player.auto_notes();
    }
    let mut taken = 0;
    while !is_open(b, "win") {
        assert!(taken < 200, "more hints than the puzzle has steps");
        let before = (board(b), browser_notes(b));
        let want = api_hint(b, base);
        for step in 1..=3 {
            b.click("#hint");
            b.wait_for(
                &format!("document.getElementById('hint-text').textContent.startsWith('Hint {step} of 3: ')"),
                10,
            );
        }
        taken += 1;
        assert_eq!(
            text_of(b, "hint-text"),
            format!("Hint 3 of 3: {}", as_shown(want["move"].as_str().unwrap()))
        );
        let triples = |key: &str| -> Vec<(usize, u8)> {
            want[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    let n = |k: usize| t[k].as_u64().unwrap() as usize;
                    ((n(0) - 1) * 9 + n(1) - 1, n(2) as u8)
                })
                .collect()
        };
        let eliminations = triples("eliminations");
        assert!(
            notes || eliminations.is_empty(),
            "without notes, a hint places: {want}"
        );
        if !eliminations.is_empty() {
            b.click("#pencil");
            for (i, d) in eliminations {
                player.place(i, d);
            }
            b.click("#pencil");
        }
        for (i, d) in triples("placements") {
            player.place(i, d);
        }
        assert_ne!(
            (board(b), browser_notes(b)),
            before,
            "hint {taken} left the board as it was: {want}"
        );
    }
    assert_eq!(saved(b)["hints"].as_u64(), Some(taken));
    b.click("#win-close");
    taken
}

/// A hard and an expert game played on hints alone, with notes and without: every hint
/// moves the player on, to the end. Then Check marks the wrong digits and Reveal fills a
/// cell, each counted as a hint; and with a mistake limit of 3, the third mistake ends the
/// game.
#[test]
fn hints_alone_solve_hard_and_expert_games_and_check_reveal_and_the_limit_help() {
    let Some(browser) = Browser::start(390, 844) else {
        return;
    };
    let (_dir, server, base) = served(&[]);
    open(&browser, &base);
    let player = Player {
        browser: &browser,
        input: Input::CellFirst,
    };
    choose_level(&browser, "Expert");
    let with_notes = follow_the_pages_hints(&player, &base, true);
    choose_level(&browser, "Hard");
    let without = follow_the_pages_hints(&player, &base, false);
    choose_level(&browser, "Expert");
    let expert_without = follow_the_pages_hints(&player, &base, false);
    eprintln!("hints taken: expert with notes {with_notes}, hard {without}, expert {expert_without} without");

    // Check and Reveal, in the settings' "This puzzle".
    browser.click("#new");
    wait_for_puzzle(&browser);
    browser.wait_for("!document.getElementById('hint').disabled", 10);
    let solved = solution(&browser, &base);
    let puzzle = digits(saved(&browser)["puzzle"].as_str().unwrap());
    let open_cells: Vec<usize> = (0..81).filter(|&i| puzzle[i] == 0).collect();
    let wrong_at = open_cells[0];
    player.place(wrong_at, solved[wrong_at] % 9 + 1);
    assert_eq!(
        count(&browser, "wrong"),
        0,
        "mistakes are not shown by default"
    );
    browser.click("#open-settings");
    browser.wait_for("document.getElementById('settings').open", 5);
    screenshot(&browser, "play-page-390-settings-help.png");
    browser.click("#check");
    assert_eq!(
        text_of(&browser, "hint-text"),
        "Checked: 1 of your digits is wrong, marked on the grid."
    );
    assert_eq!(count(&browser, "wrong"), 1);
    assert!(label(&browser, wrong_at).ends_with("mistake"));
    assert_eq!(saved(&browser)["hints"].as_u64(), Some(1));
    screenshot(&browser, "play-page-390-checked.png");
    let target = open_cells[1];
    browser.click(&format!(".cell[data-cell='{target}']"));
    browser.click("#open-settings");
    browser.click("#reveal");
    assert_eq!(cell(&browser, target), solved[target].to_string());
    assert_eq!(
        text_of(&browser, "status"),
        format!(
            "Revealed: row {}, column {} is {}.",
            target / 9 + 1,
            target % 9 + 1,
            solved[target]
        )
    );
    assert_eq!(saved(&browser)["hints"].as_u64(), Some(2));
    assert_eq!(
        count(&browser, "wrong"),
        0,
        "the check's marks go with the next change"
    );

    // A mistake limit of 3: the count shows, and the third mistake ends the game.
    browser.click("#open-settings");
    browser.eval(
        "(s => { s.value = '3'; s.dispatchEvent(new Event('change')); })(document.getElementById('mistake-limit'))",
    );
    browser.click("#settings-close");
    assert_eq!(text_of(&browser, "mistakes"), "Mistakes: 1");
    for &i in &open_cells[2..4] {
        player.place(i, solved[i] % 9 + 1);
    }
    assert_eq!(text_of(&browser, "mistakes"), "Mistakes: 3");
    assert_eq!(
        text_of(&browser, "status"),
        "That is 3 mistakes, the limit you set: this game is over. Press New for another puzzle."
    );
    assert_eq!(
        browser.eval("document.getElementById('hint').disabled"),
        Value::Bool(true)
    );
    assert_eq!(saved(&browser)["over"], Value::Bool(true));
    screenshot(&browser, "play-page-390-limit.png");
    stop(server);
}
