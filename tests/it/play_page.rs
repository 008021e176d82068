//! The play page in a real browser: chromium (headless, through chromedriver) plays it as a
//! player would, at a phone's width (390x844) and a desktop's (1280x800): the page starts a
//! puzzle by itself, nothing overflows sideways, pencil marks go when a digit is placed in
//! their house (and come back on undo), a hint highlights where to look, then the pattern,
//! then the move, a reload finds the game as it was, and the whole puzzle played through the
//! pad and the keyboard ends on the win panel. A chain's hint, on a board marked up to it,
//! shades the chain's cells and reads it link by link. The daily puzzle is the same for two
//! players; a server with a token plays with its page token. Skips with a message only when
//! no browser is installed and `PSEUDOKU_REQUIRE_BROWSER` is unset (CI sets it, and installs
//! chromium and chromium-driver). Leaves screenshots in `target/tmp/play-page-WxH*.png`.

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

    // The rest, as if five minutes had passed (a grid filled in seconds is no human's
    // result, which the server refuses): the page sees the solved grid and says so.
    browser.eval(
        "(() => { const now = Date.now.bind(Date); Date.now = () => now() + 300000; return 0; })()",
    );
    for &i in &rest[half..] {
        place(&browser, i, solved[i], by_pad);
    }
    browser.wait_for("!document.getElementById('win').hidden", 5);
    // The result sent: the player's first rating, still settling, shown after the game.
    browser.wait_for("!document.getElementById('win-rating').hidden", 5);
    let rating = browser.text("document.getElementById('win-rating').textContent");
    assert!(
        rating.starts_with("Your rating: ")
            && rating.ends_with(" after 1 game (it settles as you play)."),
        "{rating}"
    );
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

/// An expert puzzle whose 31st step, as `pseudoku explain` solves it, is an AIC.
const CHAIN_PUZZLE: &str =
    "....3...6..84.....53...6.4.9....8.3...3...7....7.51..8....92..31.5..3...3.46..9..";

/// A chain's hint on the page: a player who has filled and marked the board up to the step
/// where the puzzle needs an alternating inference chain asks for a hint; step 1 shows where
/// to look, step 2 shades the chain's cells (the hint's `pattern`), step 3 flags the removal
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
        "document.getElementById('hint-text').textContent.startsWith('Hint 1/3: ')",
        10,
    );
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 2/3: ')",
        10,
    );
    let text = browser.text("document.getElementById('hint-text').textContent");
    assert!(text.contains("alternating inference chain"), "{text}");
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
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 3/3: ')",
        10,
    );
    // The move as the API words it, with its cells in words as the page shows them.
    let mut plain = String::new();
    let coded = step["move"].as_str().unwrap();
    let b = coded.as_bytes();
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
    assert!(plain.starts_with("If row "), "{plain}");
    assert_eq!(
        browser.text("document.getElementById('hint-text').textContent"),
        format!("Hint 3/3: {plain}")
    );
    assert_eq!(count(&browser, "flag"), 1, "the one cell that loses 7");
    screenshot(&browser, "play-page-1280x800-chain-move.png");
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
