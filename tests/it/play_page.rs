//! The play page in a real browser: chromium (headless) loads `/`, gets a puzzle, enters a
//! digit with the keyboard, asks for a hint in three steps, undoes the digit. Skips with a
//! message only when no chromium is installed and `PSEUDOKU_REQUIRE_BROWSER` is unset (CI sets
//! it, and installs chromium). Leaves a screenshot in `target/tmp/play-page.png`.

use headless_chrome::{Browser, LaunchOptions, Tab};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The chromium binary: `$PSEUDOKU_CHROME`, else the first of the usual names on the PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PSEUDOKU_CHROME") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("which").arg(name).output().ok()?;
            let path = String::from_utf8(out.stdout).ok()?;
            let path = path.trim();
            (out.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
        })
}

/// Evaluates `js` in the page until it returns true, or panics after `secs` seconds.
fn wait_for(tab: &Tab, js: &str, secs: u64) {
    let start = Instant::now();
    loop {
        let v = tab.evaluate(js, false).unwrap().value;
        if v == Some(serde_json::Value::Bool(true)) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {js}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn text(tab: &Tab, js: &str) -> String {
    match tab.evaluate(js, false).unwrap().value {
        Some(serde_json::Value::String(s)) => s,
        other => panic!("{js}: {other:?}"),
    }
}

#[test]
fn the_play_page_plays_in_a_real_browser() {
    let Some(chrome) = chromium() else {
        assert!(
            std::env::var_os("PSEUDOKU_REQUIRE_BROWSER").is_none(),
            "no chromium found, and PSEUDOKU_REQUIRE_BROWSER is set"
        );
        eprintln!("skipping: no chromium installed (apt-get install chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    crate::common::build_levels(&db, 5, 2);
    let (mut server, base) = crate::common::serve(&db, &[]);

    let browser = Browser::new(
        LaunchOptions::default_builder()
            .path(Some(chrome))
            .headless(true)
            .sandbox(false)
            .window_size(Some((1100, 800)))
            .build()
            .unwrap(),
    )
    .unwrap();
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&base).unwrap();
    tab.wait_until_navigated().unwrap();
    // The levels arrive, a puzzle is fetched for this browser's user.
    wait_for(
        &tab,
        "document.querySelectorAll('#level option').length === 4",
        10,
    );
    tab.find_element("#new").unwrap().click().unwrap();
    wait_for(
        &tab,
        "document.querySelectorAll('.cell.given').length >= 17",
        10,
    );
    let info = text(&tab, "document.getElementById('info').textContent");
    assert!(info.starts_with("Puzzle #"), "{info}");
    // Enter a digit in the first empty cell, with the mouse and the keyboard.
    let empty = text(
        &tab,
        "String([...document.querySelectorAll('.cell')].findIndex(c => !c.classList.contains('given')))",
    );
    tab.find_element(&format!(".cell[data-cell='{empty}']"))
        .unwrap()
        .click()
        .unwrap();
    tab.press_key("5").unwrap();
    let cell = format!("document.querySelector(\".cell[data-cell='{empty}']\").textContent");
    assert_eq!(text(&tab, &cell), "5");
    // A hint in three steps.
    tab.find_element("#hint").unwrap().click().unwrap();
    wait_for(
        &tab,
        "document.getElementById('hint-text').textContent.startsWith('Hint 1/3: ')",
        10,
    );
    tab.find_element("#hint").unwrap().click().unwrap();
    tab.find_element("#hint").unwrap().click().unwrap();
    wait_for(
        &tab,
        "document.getElementById('hint-text').textContent.startsWith('Hint 3/3: ')",
        10,
    );
    let hint = text(&tab, "document.getElementById('hint-text').textContent");
    assert!(hint.len() > "Hint 3/3: ".len() + 5, "{hint}");
    // Undo takes the digit back.
    tab.find_element("#undo").unwrap().click().unwrap();
    assert_eq!(text(&tab, &cell), "");
    // Pencil marks: two digits in the cell's marks.
    tab.find_element("#pencil").unwrap().click().unwrap();
    tab.press_key("3").unwrap();
    tab.press_key("7").unwrap();
    assert_eq!(text(&tab, &cell), "37");
    let png = tab
        .capture_screenshot(
            headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption::Png,
            None,
            None,
            true,
        )
        .unwrap();
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("play-page.png");
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
}
