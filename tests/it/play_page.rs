//! The play page in a real browser: chromium (headless, through chromedriver) plays it as a
//! player would, at a phone's width (390x844) and a desktop's (1280x800): the page starts a
//! puzzle by itself, nothing overflows sideways, pencil marks go when a digit is placed in
//! their house (and come back on undo), a hint highlights where to look, then the pattern,
//! then the move, a reload finds the game as it was, and the whole puzzle played through the
//! pad and the keyboard ends on the win panel. The daily puzzle is the same for two players;
//! a server with a token plays with its page token. Skips with a message only when no browser
//! is installed and `PSEUDOKU_REQUIRE_BROWSER` is unset (CI sets it, and installs chromium
//! and chromium-driver). Leaves screenshots in `target/tmp/play-page-WxH.png`.

use crate::browser::Browser;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command};

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

/// The puzzle the page shows: its id and, from the server, its solution.
fn solution(browser: &Browser, base: &str) -> Vec<u8> {
    let id = saved(browser)["id"].as_i64().unwrap();
    let url = format!("{base}/v1/puzzles/{id}?solution=true");
    let body: Value =
        serde_json::from_str(&ureq::get(&url).call().unwrap().into_string().unwrap()).unwrap();
    body["solution"]
        .as_str()
        .unwrap()
        .bytes()
        .map(|b| b - b'0')
        .collect()
}

/// The text of cell `i`.
fn cell(browser: &Browser, i: usize) -> String {
    browser.text(&format!(
        "document.querySelector(\".cell[data-cell='{i}']\").textContent"
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

/// The empty cells of the board.
fn empties(browser: &Browser) -> Vec<usize> {
    (0..81).filter(|&i| cell(browser, i).is_empty()).collect()
}

/// Places digit `d` in cell `i`: a tap and the pad, or a click and the key.
fn place(browser: &Browser, i: usize, d: u8, by_pad: bool) {
    browser.click(&format!(".cell[data-cell='{i}']"));
    if by_pad {
        browser.click(&format!("#pad button[data-digit='{d}']"));
    } else {
        browser.keys(&d.to_string());
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

fn screenshot(browser: &Browser, name: &str) {
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&shot, browser.screenshot()).unwrap();
    eprintln!("screenshot: {}", shot.display());
}

/// One whole game at `width` x `height`.
fn play_a_game(width: u32, height: u32) {
    let Some(browser) = Browser::start(width, height) else {
        return;
    };
    let (_dir, server, base) = served(&[]);
    open(&browser, &base);
    assert_eq!(browser.eval("window.innerWidth"), width);
    no_sideways_overflow(&browser);
    // Names, not the bank's internals.
    let options = browser
        .text("[...document.querySelectorAll('#level option')].map(o => o.textContent).join(',')");
    assert_eq!(options, "Easy,Medium,Hard,Expert");
    let info = browser.text("document.getElementById('info').textContent");
    assert!(
        info.starts_with("Puzzle #") && info.ends_with(" \u{b7} Easy"),
        "{info}"
    );
    assert_eq!(
        browser.text("String(document.getElementById('about').open)"),
        "false"
    );
    let solved = solution(&browser, &base);
    let empty = empties(&browser);
    let by_pad = width < 760;

    // A pencil mark goes when its digit is placed in its house, and comes back on undo.
    let (e, d) = (empty[0], solved[empty[0]]);
    let peer = *empty[1..]
        .iter()
        .find(|&&f| f / 9 == e / 9 || f % 9 == e % 9)
        .expect("an empty peer");
    browser.click("#pencil");
    browser.click(&format!(".cell[data-cell='{peer}']"));
    browser.click(&format!("#pad button[data-digit='{d}']"));
    let other = if d == 9 { 1 } else { d + 1 };
    browser.click(&format!("#pad button[data-digit='{other}']"));
    let mut marks = [d, other];
    marks.sort();
    let both = format!("{}{}", marks[0], marks[1]);
    assert_eq!(cell(&browser, peer), both);
    browser.click("#pencil");
    place(&browser, e, d, by_pad);
    assert_eq!(cell(&browser, e), d.to_string());
    assert_eq!(cell(&browser, peer), other.to_string());
    browser.click("#undo");
    assert_eq!(cell(&browser, e), "");
    assert_eq!(cell(&browser, peer), both);
    place(&browser, e, d, by_pad);
    // The same digit lights up wherever it stands.
    let same = browser
        .eval(&format!(
            "[...document.querySelectorAll('.cell')].filter(c => c.textContent === '{d}').length"
        ))
        .as_u64()
        .unwrap();
    assert_eq!(count(&browser, "same"), same);

    // A hint in three steps: where to look, the pattern, the move; its text is gone once
    // the board changes.
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 1/3: ')",
        10,
    );
    assert!(count(&browser, "focus") >= 1);
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 2/3: ')",
        10,
    );
    assert!(count(&browser, "pattern") >= 1);
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 3/3: ')",
        10,
    );
    assert!(count(&browser, "flag") >= 1);
    let hint = browser.text("document.getElementById('hint-text').textContent");
    // Cells in words ("row 3, column 5"), not as the API names them (r3c5).
    let coded = hint
        .as_bytes()
        .windows(4)
        .any(|w| w[0] == b'r' && w[1].is_ascii_digit() && w[2] == b'c' && w[3].is_ascii_digit());
    assert!(!coded, "{hint}");
    screenshot(&browser, &format!("play-page-{width}x{height}-hint.png"));

    // Half the puzzle, then a reload: the game is as it was, and undo still works.
    let rest: Vec<usize> = empty.iter().copied().filter(|&i| i != e).collect();
    let half = rest.len() / 2;
    for &i in &rest[..half] {
        place(&browser, i, solved[i], by_pad);
    }
    assert_eq!(
        browser.text("document.getElementById('hint-text').textContent"),
        ""
    );
    let board: Vec<String> = (0..81).map(|i| cell(&browser, i)).collect();
    no_sideways_overflow(&browser);
    screenshot(&browser, &format!("play-page-{width}x{height}.png"));
    browser.goto(&base);
    browser.wait_for("document.querySelectorAll('.cell.given').length >= 17", 10);
    let again: Vec<String> = (0..81).map(|i| cell(&browser, i)).collect();
    assert_eq!(again, board, "the reload restores the board");
    let last = rest[half - 1];
    browser.click("#undo");
    assert_eq!(cell(&browser, last), "");
    place(&browser, last, solved[last], by_pad);

    // The rest: the page sees the solved grid and says so.
    for &i in &rest[half..] {
        place(&browser, i, solved[i], by_pad);
    }
    browser.wait_for("!document.getElementById('win').hidden", 5);
    assert_eq!(
        browser.text("document.getElementById('win-hints').textContent"),
        "1"
    );
    assert_eq!(
        browser.text("document.getElementById('win-mistakes').textContent"),
        "0"
    );
    let time = browser.text("document.getElementById('win-time').textContent");
    assert!(time.contains(':'), "{time}");
    no_sideways_overflow(&browser);
    screenshot(&browser, &format!("play-page-{width}x{height}-solved.png"));
    stop(server);
}

#[test]
fn a_whole_game_plays_on_a_phone() {
    play_a_game(390, 844);
}

#[test]
fn a_whole_game_plays_on_a_desktop() {
    play_a_game(1280, 800);
}

#[test]
fn nothing_overflows_sideways_from_the_narrowest_phone_to_a_tablet() {
    let (_dir, server, base) = served(&[]);
    for (width, height) in [(320, 568), (360, 740), (768, 1024)] {
        let Some(browser) = Browser::start(width, height) else {
            return;
        };
        open(&browser, &base);
        assert_eq!(browser.eval("window.innerWidth"), width);
        no_sideways_overflow(&browser);
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
    let (_dir, server, base) = served(&[]);
    let mut boards = Vec::new();
    let mut users = Vec::new();
    for _ in 0..2 {
        // A fresh browser profile: another player.
        let Some(browser) = Browser::start(390, 844) else {
            return;
        };
        open(&browser, &base);
        browser.click("#daily");
        browser.wait_for(
            "document.getElementById('info').textContent.startsWith('Daily')",
            10,
        );
        no_sideways_overflow(&browser);
        boards.push((0..81).map(|i| cell(&browser, i)).collect::<Vec<_>>());
        users.push(browser.text("localStorage.getItem('pseudoku-user')"));
        // The first player solves it: a streak of one day.
        if boards.len() == 1 {
            let solved = solution(&browser, &base);
            for i in empties(&browser) {
                place(&browser, i, solved[i], false);
            }
            browser.wait_for("!document.getElementById('win').hidden", 5);
            let streak = browser.text("document.getElementById('win-streak').textContent");
            assert!(streak.contains("1 day"), "{streak}");
            // Daily again the same day: no replay.
            browser.click("#win-close");
            browser.click("#daily");
            let status = browser.text("document.getElementById('status').textContent");
            assert!(status.contains("solved today's daily"), "{status}");
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
    browser.click("#daily");
    browser.wait_for(
        "document.getElementById('info').textContent.startsWith('Daily')",
        10,
    );
    stop(server);
}
