//! The play page in a real browser: chromium (headless, through chromedriver) loads `/`,
//! gets a puzzle, enters a digit with the keyboard, asks for a hint in three steps, undoes the
//! digit; the same page on a server with a token plays with its page token. Skips with a message only when no browser is installed and
//! `PSEUDOKU_REQUIRE_BROWSER` is unset (CI sets it, and installs chromium and
//! chromium-driver). Leaves a screenshot in `target/tmp/play-page.png`.

use crate::browser::Browser;
use std::path::PathBuf;
use std::process::Command;

/// Opens the page at `base`: the levels arrive, a puzzle is fetched for this browser's user.
fn open_a_puzzle(browser: &Browser, base: &str) {
    browser.goto(base);
    browser.wait_for(
        "document.querySelectorAll('#level option').length === 4",
        10,
    );
    browser.click("#new");
    browser.wait_for("document.querySelectorAll('.cell.given').length >= 17", 10);
}

#[test]
fn the_play_page_plays_in_a_real_browser() {
    let Some(browser) = Browser::start(1100, 800) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    crate::common::build_levels(&db, 5, 2);
    let (mut server, base) = crate::common::serve(&db, &[]);
    open_a_puzzle(&browser, &base);
    // Players see names, not the bank's internals: levels without counts, the puzzle's number
    // and level, the figures only behind "About this puzzle".
    let options = browser
        .text("[...document.querySelectorAll('#level option')].map(o => o.textContent).join(',')");
    assert_eq!(options, "Easy,Medium,Hard,Expert");
    let info = browser.text("document.getElementById('info').textContent");
    assert!(
        info.starts_with("Puzzle #") && info.ends_with(" \u{b7} Easy"),
        "{info}"
    );
    let about = browser.text("document.getElementById('about-text').textContent");
    assert!(
        about.contains(" clues") && about.contains("rating "),
        "{about}"
    );
    assert_eq!(
        browser.text("String(document.getElementById('about').open)"),
        "false"
    );
    // Enter a digit in the first empty cell, with the mouse and the keyboard.
    let empty = browser.text(
        "String([...document.querySelectorAll('.cell')].findIndex(c => !c.classList.contains('given')))",
    );
    browser.click(&format!(".cell[data-cell='{empty}']"));
    browser.keys("5");
    let cell = format!("document.querySelector(\".cell[data-cell='{empty}']\").textContent");
    assert_eq!(browser.text(&cell), "5");
    // A hint in three steps.
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 1/3: ')",
        10,
    );
    browser.click("#hint");
    browser.click("#hint");
    browser.wait_for(
        "document.getElementById('hint-text').textContent.startsWith('Hint 3/3: ')",
        10,
    );
    let hint = browser.text("document.getElementById('hint-text').textContent");
    assert!(hint.len() > "Hint 3/3: ".len() + 5, "{hint}");
    // Undo takes the digit back.
    browser.click("#undo");
    assert_eq!(browser.text(&cell), "");
    // Pencil marks: two digits in the cell's marks.
    browser.click("#pencil");
    browser.click(&format!(".cell[data-cell='{empty}']"));
    browser.keys("3");
    browser.keys("7");
    assert_eq!(browser.text(&cell), "37");
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("play-page.png");
    std::fs::write(&shot, browser.screenshot()).unwrap();
    eprintln!("screenshot: {}", shot.display());
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();

    // A server with a token: the page plays with the page token the server wrote into it.
    let token = dir.path().join("token");
    let page = dir.path().join("page-token");
    std::fs::write(&token, "s3cret").unwrap();
    std::fs::write(&page, "pl4y").unwrap();
    let (mut server, base) = crate::common::serve(
        &db,
        &[
            "--token-file",
            token.to_str().unwrap(),
            "--page-token-file",
            page.to_str().unwrap(),
        ],
    );
    open_a_puzzle(&browser, &base);
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
}
