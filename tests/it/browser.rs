//! A real browser for the page tests: Debian's chromium, headless, driven over WebDriver by its
//! chromedriver (`apt-get install chromium chromium-driver`; CI installs both). A test gets
//! `None` and skips with a message when they are missing, unless `PSEUDOKU_REQUIRE_BROWSER`
//! is set (as CI sets it), which makes a missing browser a failure.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A headless chromium window of a given size, and the chromedriver that drives it; both go
/// when it is dropped.
pub struct Browser {
    driver: Child,
    client: Option<Client>,
    runtime: tokio::runtime::Runtime,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// A viewport of exactly `width` x `height` CSS pixels (chromium's device emulation: a
    /// headless window is never narrower than 500 px), a phone's (touch, mobile) below
    /// 760 px; `None` (the test skips) when chromium or chromedriver is missing and
    /// `PSEUDOKU_REQUIRE_BROWSER` is unset.
    pub fn start(width: u32, height: u32) -> Option<Browser> {
        let chrome = std::env::var_os("PSEUDOKU_CHROME")
            .map(PathBuf::from)
            .or_else(|| {
                crate::common::find_program(&[
                    "/usr/lib/chromium/chromium",
                    "chromium",
                    "google-chrome",
                ])
            });
        let driver = crate::common::find_program(&["chromedriver"]);
        let (Some(chrome), Some(driver)) = (chrome, driver) else {
            assert!(
                std::env::var_os("PSEUDOKU_REQUIRE_BROWSER").is_none(),
                "no chromium or chromedriver found, and PSEUDOKU_REQUIRE_BROWSER is set"
            );
            crate::common::skipping(
                "the browser tests",
                "no chromium (apt-get install chromium chromium-driver)",
            );
            return None;
        };
        let port = crate::common::free_port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": chrome,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    format!("--window-size={},{}", width.max(800), height + 200),
                    format!("--user-data-dir={}", profile.path().display()),
                ],
                "mobileEmulation": {
                    "deviceMetrics": {
                        "width": width, "height": height, "pixelRatio": 1.0,
                        "touch": width < 760, "mobile": width < 760,
                    },
                },
            }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            let attempt = runtime.block_on(
                ClientBuilder::new(connector)
                    .capabilities(caps.clone())
                    .connect(&url),
            );
            match attempt {
                Ok(c) => break c,
                Err(e) if started.elapsed() > Duration::from_secs(20) => {
                    panic!("chromedriver did not start a browser: {e}")
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        Some(Browser {
            driver,
            client: Some(client),
            runtime,
            _profile: profile,
        })
    }

    fn client(&self) -> &Client {
        self.client.as_ref().expect("open")
    }

    /// Opens `url` and waits for it to load.
    pub fn goto(&self, url: &str) {
        self.runtime.block_on(self.client().goto(url)).unwrap();
    }

    /// The value of the JavaScript expression `js` in the page.
    pub fn eval(&self, js: &str) -> Value {
        self.runtime
            .block_on(self.client().execute(&format!("return ({js});"), vec![]))
            .unwrap_or_else(|e| panic!("{js}: {e}"))
    }

    /// The value the asynchronous JavaScript `body` passes to its callback `done` (the
    /// script's last argument), as `axe.run(...).then(done)`.
    pub fn eval_async(&self, body: &str) -> Value {
        let script = format!("const done = arguments[arguments.length - 1]; {body}");
        self.runtime
            .block_on(self.client().execute_async(&script, vec![]))
            .unwrap_or_else(|e| panic!("{body}: {e}"))
    }

    /// Waits until the asynchronous JavaScript `body` passes true to `done`; panics after
    /// `secs` seconds.
    pub fn wait_for_async(&self, body: &str, secs: u64) {
        wait_until(body, secs, || self.eval_async(body) == Value::Bool(true));
    }

    /// The result of the Chrome DevTools command `cmd` with `params`, through chromedriver.
    pub fn devtools(&self, cmd: &str, params: Value) -> Value {
        let command = DevTools {
            cmd: cmd.to_string(),
            params,
        };
        let answer = self
            .runtime
            .block_on(self.client().issue_cmd(command))
            .unwrap_or_else(|e| panic!("{cmd}: {e}"));
        answer.get("value").cloned().unwrap_or(answer)
    }

    /// The text the JavaScript expression `js` gives.
    pub fn text(&self, js: &str) -> String {
        match self.eval(js) {
            Value::String(s) => s,
            other => panic!("{js}: {other}"),
        }
    }

    /// Waits until the JavaScript expression `js` is true; panics after `secs` seconds.
    pub fn wait_for(&self, js: &str, secs: u64) {
        wait_until(js, secs, || self.eval(js) == Value::Bool(true));
    }

    /// Clicks the element `css` selects.
    pub fn click(&self, css: &str) {
        self.runtime
            .block_on(async { self.client().find(Locator::Css(css)).await?.click().await })
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Types `keys` into the element that has the focus.
    pub fn keys(&self, keys: &str) {
        self.runtime
            .block_on(async { self.client().active_element().await?.send_keys(keys).await })
            .unwrap_or_else(|e| panic!("keys {keys:?}: {e}"));
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        self.runtime.block_on(self.client().screenshot()).unwrap()
    }
}

/// Asks `ready` every 50 ms until it says yes; panics naming `what` after `secs` seconds.
fn wait_until(what: &str, secs: u64, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// chromedriver's `goog/cdp/execute`: one DevTools command in the session's page.
#[derive(Debug)]
struct DevTools {
    cmd: String,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for DevTools {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.runtime.block_on(client.close());
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
