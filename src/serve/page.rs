//! The play page at `/` and its files: HTML, JavaScript, CSS, the web app manifest, the icons
//! and the service worker that keeps them for offline play, all compiled into the binary (no
//! build step, nothing fetched from elsewhere).

use super::Shared;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::sync::{Arc, LazyLock};

/// The page's HTML.
const INDEX: &str = include_str!("page/index.html");

/// The service worker, with `{{VERSION}}` where the files' version goes.
const WORKER: &str = include_str!("page/sw.js");

/// A file of the page served as it is: its path, media type and bytes.
#[derive(Clone, Copy, Debug)]
pub struct PageFile {
    /// Its path on the server.
    pub path: &'static str,
    /// Its media type.
    pub media: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

/// The page's files served as they are (the page and the worker are written per server).
pub const FILES: [PageFile; 6] = [
    PageFile {
        path: "/app.js",
        media: "text/javascript; charset=utf-8",
        body: include_bytes!("page/app.js"),
    },
    PageFile {
        path: "/style.css",
        media: "text/css; charset=utf-8",
        body: include_bytes!("page/style.css"),
    },
    PageFile {
        path: "/manifest.webmanifest",
        media: "application/manifest+json",
        body: include_bytes!("page/manifest.webmanifest"),
    },
    PageFile {
        path: "/icon.svg",
        media: "image/svg+xml",
        body: include_bytes!("page/icon.svg"),
    },
    PageFile {
        path: "/icon-192.png",
        media: "image/png",
        body: include_bytes!("page/icon-192.png"),
    },
    PageFile {
        path: "/icon-512.png",
        media: "image/png",
        body: include_bytes!("page/icon-512.png"),
    },
];

/// True for the paths of the page's own files (open without the token).
pub fn is_page_file(path: &str) -> bool {
    matches!(path, "/" | "/sw.js") || FILES.iter().any(|f| f.path == path)
}

/// The version of the page's files: the first 16 hex digits of the blake3 hash of them all,
/// so that a browser's service worker replaces its kept copies when a new build serves others.
fn version() -> String {
    let mut h = blake3::Hasher::new();
    h.update(INDEX.as_bytes());
    h.update(WORKER.as_bytes());
    for f in &FILES {
        h.update(f.path.as_bytes());
        h.update(f.body);
    }
    h.finalize().to_hex()[..16].to_string()
}

/// The service worker as served: its version written in, once per process.
fn worker_source() -> &'static str {
    static SOURCE: LazyLock<String> =
        LazyLock::new(|| WORKER.replacen("{{VERSION}}", &version(), 1));
    &SOURCE
}

/// A file of the page: its media type, and revalidated by the browser on each use (the
/// service worker keeps the offline copies).
fn fresh(media: &'static str, body: impl IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, media),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The play page; with a page token, the token written into it (a `pseudoku-token` meta
/// element the script sends as its bearer token).
#[utoipa::path(get, path = "/", responses(
    (status = 200, description = "HTML", content_type = "text/html", body = String)
))]
pub async fn index(State(s): State<Arc<Shared>>) -> Response {
    let html = match &s.page_token {
        Some(t) => with_token(t),
        None => INDEX.to_string(),
    };
    fresh("text/html; charset=utf-8", html)
}

/// The page with `token` in a meta element after its charset (the token is checked to be
/// printable ASCII without quotes or angle brackets when the server starts).
fn with_token(token: &str) -> String {
    let charset = "<meta charset=\"utf-8\">";
    INDEX.replacen(
        charset,
        &format!("{charset}\n<meta name=\"pseudoku-token\" content=\"{token}\">"),
        1,
    )
}

/// `GET /sw.js`: the service worker with the files' version written in; revalidated on each
/// visit, so a new version is seen on the next one.
pub async fn worker() -> Response {
    fresh("text/javascript; charset=utf-8", worker_source())
}

/// One of [`FILES`].
pub fn file(f: PageFile) -> Response {
    fresh(f.media, f.body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_keeps_every_file_the_page_serves() {
        let kept = WORKER
            .lines()
            .find(|l| l.starts_with("const SHELL"))
            .expect("the worker's list");
        for f in &FILES {
            assert!(kept.contains(&format!("\"{}\"", f.path)), "{}", f.path);
        }
        assert!(kept.contains("\"/\""));
        assert_eq!(WORKER.matches("{{VERSION}}").count(), 1);
        assert_eq!(version().len(), 16);
        assert!(is_page_file("/sw.js") && is_page_file("/icon-512.png"));
        assert!(!is_page_file("/v1/levels"));
    }

    #[test]
    fn the_manifest_names_the_page_and_its_icons() {
        let m: serde_json::Value = serde_json::from_slice(FILES[2].body).unwrap();
        assert_eq!(m["start_url"], "/");
        assert_eq!(m["display"], "standalone");
        for icon in m["icons"].as_array().unwrap() {
            let src = icon["src"].as_str().unwrap();
            assert!(FILES.iter().any(|f| f.path == src), "{src}");
        }
    }
}
