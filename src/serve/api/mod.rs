//! The routes of `serve`: the router, and what every request goes through (the origin and the
//! token checked, the play page's pace, the request time). Each route only extracts a typed
//! request (query or body, serde), calls the library (puzzles are handed out through
//! [`crate::retrieve`] and recorded by the server's [`Recorder`](super::recorder::Recorder)),
//! and answers a typed response, or an [`ApiError`] mapped to its status code with a JSON
//! reason (never a panic). Work that takes CPU or the bank runs off the async threads, every
//! request bounded in size and time. One file per resource:
//!
//! - `health`: `/healthz` and `/metrics`;
//! - `levels`: `/v1/levels`;
//! - `puzzles`: deliveries (`/v1/puzzles/next`) and puzzles by id;
//! - `daily`: the daily puzzles (`/v1/daily`) and their archive (`/v1/daily/archive`);
//! - `hint`: `/v1/hint`;
//! - `batch`: lists of puzzles rated, solved or put in canonical form (`/v1/rate`,
//!   `/v1/solve`, `/v1/canon`);
//! - `openapi`: the OpenAPI document (`GET /openapi.json`), generated from these types and
//!   handlers as [`documented`] registers them: each route is listed once, there.

mod batch;
mod daily;
mod health;
mod hint;
mod levels;
mod openapi;
mod players;
mod puzzles;
mod results;

use super::error::ApiError;
use super::{blocking, page, Shared};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use std::sync::Arc;
use utoipa::OpenApi;
use utoipa_axum::{router::OpenApiRouter, routes};

/// The largest request body accepted.
pub const MAX_BODY: usize = 256 * 1024;

type Reply<T> = Result<Json<T>, ApiError>;

/// A query string read into `T`; one that does not read (a field given twice, a value of the
/// wrong kind) is a 400 with a JSON reason, like every other error (axum's own rejection is
/// plain text).
pub struct ApiQuery<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S>
    for ApiQuery<T>
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(q)| ApiQuery(q))
            .map_err(|e| ApiError::BadRequest(format!("bad query: {}", e.body_text())))
    }
}

/// A path parameter read into `T`; one that does not read is a 400 with a JSON reason.
pub struct ApiPath<T>(pub T);

impl<T: serde::de::DeserializeOwned + Send, S: Send + Sync> axum::extract::FromRequestParts<S>
    for ApiPath<T>
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(p)| ApiPath(p))
            .map_err(|e| ApiError::BadRequest(format!("bad path: {}", e.body_text())))
    }
}

/// The routes the OpenAPI document describes, each registered here once with its operation:
/// the router ([`router`]) and the document (`GET /openapi.json`) are both made from this list.
fn documented() -> OpenApiRouter<Arc<Shared>> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(page::index))
        .routes(routes!(health::healthz))
        .routes(routes!(health::metrics))
        .routes(routes!(openapi::openapi))
        .routes(routes!(levels::levels))
        .routes(routes!(puzzles::next, puzzles::next_by_get))
        .routes(routes!(puzzles::puzzle_by_id))
        .routes(routes!(daily::daily))
        .routes(routes!(daily::archive))
        .routes(routes!(results::results))
        .routes(routes!(players::new_player))
        .routes(routes!(players::player))
        .routes(routes!(hint::hint_route))
        .routes(routes!(batch::rate))
        .routes(routes!(batch::solve_route))
        .routes(routes!(batch::canon))
}

/// Every route: the documented ones, and the play page's files (its script, style, icons,
/// manifest and service worker); with `cors` origins, the CORS layer outside them all (a
/// preflight is answered before the token is asked for).
pub fn router(shared: Arc<Shared>, cors: &[String]) -> Router {
    let (routes, _) = documented().split_for_parts();
    let routes = page::FILES.iter().fold(routes, |r, &f| {
        r.route(f.path, get(move || async move { page::file(f) }))
    });
    let routes = routes
        .route("/sw.js", get(page::worker))
        .fallback(|| async { ApiError::NotFound("no such route".into()) })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            ApiError::MethodNotAllowed(format!("this route does not take {method}"))
        })
        .layer(axum::middleware::from_fn_with_state(shared.clone(), guard))
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            super::metrics::track,
        ))
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            super::log::access,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared);
    match cors_layer(cors) {
        Some(layer) => routes.layer(layer),
        None => routes,
    }
}

/// The routes of a connection past the connection cap (the overflow lane): `/healthz` as
/// usual, so that a load balancer sees the server's health under a flood, and anything else
/// 503 with the reason.
pub fn busy_router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/healthz", get(health::healthz))
        .fallback(|| async {
            ApiError::Unavailable(
                "the server is at its connection limit: try again in a moment".into(),
            )
        })
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            super::log::access,
        ))
        .with_state(shared)
}

/// The CORS layer for `origins` (`*`: any origin), if any: GET and POST with JSON bodies and
/// a bearer token, preflights cached for 10 minutes.
fn cors_layer(origins: &[String]) -> Option<tower_http::cors::CorsLayer> {
    use axum::http::{HeaderValue, Method};
    use tower_http::cors::{AllowOrigin, CorsLayer};
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION])
            .max_age(std::time::Duration::from_secs(600)),
    )
}

/// The routes open without the token: the health check, and the play page's own files.
fn open_without_token(path: &str) -> bool {
    path == "/healthz" || page::is_page_file(path)
}

/// How a request was let in, and from where: what the handlers may give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// What its token opens.
    pub access: Access,
    /// Its address (absent only for a request that did not come over a connection).
    pub ip: Option<std::net::IpAddr>,
}

/// What a request's token opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Everything: the server's token (the app behind it vouches for its users).
    App,
    /// Everything, to any client: a server without a token (new players budgeted, see
    /// [`admit`]); also the routes open without a token on any server.
    Open,
    /// What one player needs ([`plays`], and [`super::limit`]): the play page's public token,
    /// as a player id the server handed out ([`player`]).
    Page,
}

/// Every request: a cross-site form or a post from another web origin refused ([`same_site`]);
/// the token checked (every route but [`open_without_token`]'s, when the server has one), and
/// the play page's token limited to its pace; then the whole request, its body read included,
/// within the server's request time.
async fn guard(
    State(s): State<Arc<Shared>>,
    mut req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if let Err(e) = same_site(&s.origins, req.method(), req.headers()) {
        return e.into_response();
    }
    let access = if open_without_token(req.uri().path()) {
        Access::Open
    } else {
        match authorize(&s, req.method(), req.uri().path(), req.headers()) {
            Ok(access) => access,
            Err(e) => return e.into_response(),
        }
    };
    let ip = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    if let (Access::Page, Some(ip)) = (access, ip) {
        if let Err(wait) = s.page_limits.request(ip) {
            return ApiError::TooMany(
                "too many requests from this address for the play page: slow down".into(),
                wait,
            )
            .into_response();
        }
    }
    req.extensions_mut().insert(Client { access, ip });
    match tokio::time::timeout(s.request_time, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(s.request_time.as_secs()).into_response(),
    }
}

/// Refuses what a web page of another site could make a browser send without asking (no
/// preflight): a POST with a form's body type (`application/x-www-form-urlencoded`,
/// `multipart/form-data`, `text/plain`: 415; this API takes JSON, and a delivery no body),
/// and a POST whose `Origin` is neither the server's own (its `Host`, or the
/// `X-Forwarded-Host` of a proxy in front) nor one of `origins` (`--cors`; `*` allows any):
/// 403. Requests without `Origin` (not from a browser page) pass.
fn same_site(
    origins: &[String],
    method: &axum::http::Method,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    use axum::http::Method;
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    if let Some(kind) = headers.get(header::CONTENT_TYPE) {
        let kind = kind.to_str().unwrap_or_default();
        let kind = kind.split(';').next().unwrap_or_default().trim();
        if [
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "text/plain",
        ]
        .iter()
        .any(|form| kind.eq_ignore_ascii_case(form))
        {
            return Err(ApiError::Body(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "a {kind} body is refused: this API takes JSON (Content-Type: \
                     application/json), and a delivery takes no body"
                ),
            ));
        }
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    if origins
        .iter()
        .any(|o| o == "*" || o.eq_ignore_ascii_case(origin))
    {
        return Ok(());
    }
    // The server's own pages: the origin's host and port are the request's, as the client
    // sent it or as a reverse proxy in front says it did (`X-Forwarded-Host`, which a page of
    // another site cannot make a browser send without a preflight).
    let authority = origin
        .split_once("://")
        .map(|(_, rest)| rest.trim_end_matches('/'));
    let hosts = [header::HOST.as_str(), "x-forwarded-host"]
        .into_iter()
        .filter_map(|name| headers.get(name)?.to_str().ok())
        .filter_map(|value| value.split(',').next().map(str::trim));
    for host in hosts {
        if authority.is_some_and(|a| a.eq_ignore_ascii_case(host)) {
            return Ok(());
        }
    }
    Err(ApiError::Forbidden(format!(
        "a request from a page of {origin:?} is refused: this server takes such requests from \
         its own pages and from the origins it was given with --cors"
    )))
}

/// Checks the bearer token (`Authorization: Bearer TOKEN`, the scheme in any case), when
/// the server has one: what it opens.
fn authorize(
    s: &Shared,
    method: &axum::http::Method,
    path: &str,
    headers: &HeaderMap,
) -> Result<Access, ApiError> {
    let Some(token) = &s.token else {
        return Ok(Access::Open);
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, given)| given.trim());
    if given == Some(token.as_str()) {
        Ok(Access::App)
    } else if given.is_some() && given == s.page_token.as_deref() && plays(method, path) {
        Ok(Access::Page)
    } else {
        Err(ApiError::Unauthorized)
    }
}

/// Whether a request is one the play page makes (what its token opens): the levels, a
/// delivery, a puzzle by id, the daily puzzle and its archive, a hint, a game's result, a new player's id, a
/// player's rating.
fn plays(method: &axum::http::Method, path: &str) -> bool {
    use axum::http::Method;
    match *method {
        Method::GET => {
            matches!(path, "/v1/levels" | "/v1/daily" | "/v1/daily/archive")
                || path
                    .strip_prefix("/v1/players/")
                    .is_some_and(crate::play::is_user_id)
                || path
                    .strip_prefix("/v1/puzzles/")
                    .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        }
        Method::POST => matches!(
            path,
            "/v1/puzzles/next" | "/v1/hint" | "/v1/results" | "/v1/players"
        ),
        _ => false,
    }
}

/// The bank's levels: the cached ones, else read off the async threads.
async fn levels_now(s: &Arc<Shared>) -> Result<Arc<crate::levels::Levels>, ApiError> {
    match s.cached_levels() {
        Some(cached) => Ok(cached),
        None => {
            let s = s.clone();
            blocking(move || Ok(s.levels()?)).await
        }
    }
}

/// `solution=true|false` (absent: false).
fn wants_solution(solution: Option<&str>) -> Result<bool, ApiError> {
    match solution {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::BadRequest(format!(
            "solution must be true or false, not {other:?}"
        ))),
    }
}

/// A user id: 1 to 64 characters among letters, digits and `-_.:@`.
fn check_user(user: Option<String>) -> Result<String, ApiError> {
    let Some(user) = user else {
        return Err(ApiError::BadRequest("give user=ID".into()));
    };
    if crate::play::is_user_id(&user) {
        Ok(user)
    } else {
        Err(ApiError::BadRequest(
            "bad user id: 1 to 64 characters among letters, digits and - _ . : @".into(),
        ))
    }
}

/// The player a request names, as its client may name one: a user id ([`check_user`]); with
/// the play page's token, one this server handed out (`POST /v1/players`), so that a page's
/// client reads and writes its own player's games only.
fn player(s: &Shared, client: &Client, user: Option<String>) -> Result<String, ApiError> {
    let user = check_user(user)?;
    if client.access == Access::Page && !s.player_ids.verify(&user) {
        return Err(ApiError::Forbidden(format!(
            "user {user:?} is not a player id of this server: the play page's token acts only as \
             a player the server handed out (POST /v1/players)"
        )));
    }
    Ok(user)
}

/// Lets `user` in on a server without a token: a user never given anything takes one new
/// player from its address's budget and the server's (429 past them). The server's token and
/// the page's (whose players were budgeted when their ids were handed out) pass.
async fn admit(s: &Arc<Shared>, client: &Client, user: &str) -> Result<(), ApiError> {
    if client.access != Access::Open || s.recorder.known(s, user).await? {
        return Ok(());
    }
    s.new_players
        .admit_user(client.ip, user)
        .map_err(too_many_players)
}

/// One new player taken from the budget of `client`'s address and the server's (429 past
/// them).
fn new_player_of(s: &Shared, client: &Client) -> Result<(), ApiError> {
    s.new_players.admit(client.ip).map_err(too_many_players)
}

/// The answer past the budgets of new players, to try again after `wait`.
fn too_many_players(wait: std::time::Duration) -> ApiError {
    ApiError::TooMany(
        "too many new players from this address or on this server: try again later".into(),
        wait,
    )
}
