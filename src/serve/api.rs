//! The routes of `serve`. Each one only extracts a typed request (query or body, serde),
//! calls the library (puzzles are handed out through [`crate::retrieve`]), and answers a typed
//! response, or an [`ApiError`] mapped to its status code with a JSON reason (never a panic).
//! Work that takes CPU or the bank runs off the async threads, every request bounded in size
//! and time. The OpenAPI document ([`ApiDoc`], `GET /openapi.json`) is generated from these
//! types and handlers.

use super::Shared;
use crate::canon::Key;
use crate::grid::{Grid, Puzzle};
use crate::hint::{hint, Board, HintView};
use crate::levels::{Band, PercentileRange};
use crate::rate::Report;
use crate::retrieve::{
    self, Draws, Handout, NamedAsk, Narrowing, Recipient, RetrieveError, Selector,
};
use crate::solve::{solve, Solutions};
use crate::store::{self, retrieval::Selection};
use crate::technique::Strategy;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use utoipa::{IntoParams, OpenApi, ToSchema};

/// The largest request body accepted.
pub const MAX_BODY: usize = 256 * 1024;
/// The most puzzles one `rate`, `solve` or `canon` request may hold.
pub const MAX_PUZZLES: usize = 1000;
/// The most puzzles one `rate` request may hold (rating takes milliseconds each).
pub const MAX_RATE: usize = 50;
/// The longest a request may work.
pub const MAX_TIME: Duration = Duration::from_secs(10);
/// Deliveries tried before a draw gives up (each retry follows a race with another request
/// of the same user).
pub(super) const DRAW_RETRIES: usize = 8;

/// How many `rate`, `solve` or `canon` lists run at once (each can take a thread for a
/// second); the others wait their turn.
const BATCH_PERMITS: usize = 2;

/// The turns of the lists of puzzles.
static BATCHES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(BATCH_PERMITS);

/// Why a request was not answered with what it asked for; each maps to one status code and
/// is answered as an [`ErrorBody`].
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed (400).
    #[error("{0}")]
    BadRequest(String),
    /// The route needs the server's token (401).
    #[error("this route needs Authorization: Bearer <token>")]
    Unauthorized,
    /// Nothing answers the request: no such route, puzzle, or puzzle left (404).
    #[error("{0}")]
    NotFound(String),
    /// The route does not take this method (405).
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The request took longer than the server allows, its body included (408).
    #[error("the request took longer than {0} s (its body included)")]
    Timeout(u64),
    /// The request is not allowed: a cross-site request, or more than the play page's token
    /// opens (403).
    #[error("{0}")]
    Forbidden(String),
    /// The play page's token asked more than its rate allows; try again after the time (429).
    #[error("{0}")]
    TooMany(String, Duration),
    /// Concurrent requests of one user kept taking the puzzles drawn (409).
    #[error("too many concurrent requests for this user; try again")]
    Conflict,
    /// The body was refused before it was read: too large (413), not JSON (415), not the
    /// request's shape (400, 422).
    #[error("{1}")]
    Body(StatusCode, String),
    /// The board has no single solution to hint towards (422).
    #[error("{0}")]
    Unprocessable(String),
    /// The bank or the server cannot answer now (503).
    #[error("{0}")]
    Unavailable(String),
    /// The work failed unexpectedly (500): logged with its cause under the request's id, which
    /// the answer names.
    #[error("the request failed; the server's log has the cause under request {id}", id = super::log::current())]
    Failed,
    /// Something the server relies on failed (the bank's database, a commit, handing a puzzle
    /// over): logged with its cause under the request's id; the answer names what failed and
    /// the id, never the cause (503).
    #[error("{what} failed; the server's log has the cause under request {id}", id = super::log::current())]
    Internal {
        /// What failed, for the client: `the bank`, `recording the delivery`.
        what: &'static str,
        /// The cause, for the log.
        cause: String,
    },
}

impl ApiError {
    /// The writer's refusal (`doing: the reason`, 503) or failure (internal: `what` failed).
    pub(super) fn unwritten(doing: &str, what: &'static str, e: super::Unwritten) -> ApiError {
        match e {
            super::Unwritten::Closed(reason) => ApiError::Unavailable(format!("{doing}: {reason}")),
            super::Unwritten::Failed(cause) => ApiError::internal(what, cause),
        }
    }

    /// An internal error: `what` failed because of `cause`.
    pub(super) fn internal(what: &'static str, cause: impl std::fmt::Display) -> ApiError {
        ApiError::Internal {
            what,
            cause: cause.to_string(),
        }
    }
}

impl ApiError {
    /// The status code it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Conflict => StatusCode::CONFLICT,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Body(status, _) => *status,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Failed => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Internal { .. } => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal { what, cause } = &self {
            tracing::error!(id = %super::log::current(), what, cause = %cause, "internal error");
        }
        let body = ErrorBody {
            error: self.to_string(),
        };
        let mut response = (self.status(), Json(body)).into_response();
        match self {
            ApiError::Unauthorized => {
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    header::HeaderValue::from_static("Bearer"),
                );
            }
            ApiError::TooMany(_, wait) => {
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from(secs.max(1)));
            }
            _ => {}
        }
        response
    }
}

impl From<store::StoreError> for ApiError {
    /// SQLite's own errors (and a lock file's) are internal: logged, not said; the store's
    /// own reasons (a damaged row, a bank busy or of another version) are said as before.
    fn from(e: store::StoreError) -> ApiError {
        use store::StoreError as E;
        match e {
            E::Sqlite(_) | E::Row(_) | E::LockFile { .. } | E::Migration { .. } => {
                ApiError::internal("the bank", e)
            }
            e => ApiError::Unavailable(format!("the bank: {e}")),
        }
    }
}

impl From<crate::levels::LevelsError> for ApiError {
    fn from(e: crate::levels::LevelsError) -> ApiError {
        match e {
            crate::levels::LevelsError::Store(e) => e.into(),
            e => ApiError::Unavailable(format!("the bank's levels: {e}")),
        }
    }
}

impl From<RetrieveError> for ApiError {
    fn from(e: RetrieveError) -> ApiError {
        match e {
            RetrieveError::Store(e) => e.into(),
            RetrieveError::Levels(e) => e.into(),
            RetrieveError::Deliver(e) => ApiError::internal("handing the puzzle over", e),
            other => ApiError::Unavailable(format!("the bank: {other}")),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::Body(r.status(), r.body_text())
    }
}

/// Every answer that is not a success: `{"error": reason}`.
#[derive(Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What was wrong, for people.
    pub error: String,
}

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

/// Every route; with `cors` origins, the CORS layer outside them all (a preflight is answered
/// before the token is asked for).
pub fn router(shared: Arc<Shared>, cors: &[String]) -> Router {
    let routes = Router::new()
        .route("/", get(super::page::index))
        .route("/app.js", get(super::page::script))
        .route("/style.css", get(super::page::style))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        .route("/v1/levels", get(levels))
        .route("/v1/puzzles/next", post(next).get(next_by_get))
        .route("/v1/puzzles/{id}", get(puzzle_by_id))
        .route("/v1/daily", get(daily))
        .route("/v1/hint", post(hint_route))
        .route("/v1/rate", post(rate))
        .route("/v1/solve", post(solve_route))
        .route("/v1/canon", post(canon))
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
        .route("/healthz", get(healthz))
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
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok()),
        )
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION])
            .max_age(std::time::Duration::from_secs(600)),
    )
}

/// The API's OpenAPI document, generated from the routes' types.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "pseudoku",
        version = "1",
        description = "Graded Sudoku puzzles for apps: per-user puzzles that never repeat a \
            class for a user, hints, ratings, solving, canonical forms."
    ),
    paths(
        next, next_by_get, puzzle_by_id, daily, hint_route, rate, solve_route, canon, levels, healthz,
        metrics, openapi, super::page::index
    ),
    modifiers(&CommonAnswers)
)]
pub struct ApiDoc;

/// Declares what every route has in common, so that the document says it once: the bearer
/// token (every route but those open without it), the answers the server's layers give
/// (401 without the token, 408 past the request time, 503 when the bank cannot answer) and,
/// for a JSON body, its refusals (413 too large, 415 not JSON, 422 not the request's shape).
struct CommonAnswers;

impl utoipa::Modify for CommonAnswers {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::content::ContentBuilder;
        use utoipa::openapi::response::ResponseBuilder;
        use utoipa::openapi::security::{
            HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
        };
        use utoipa::openapi::Ref;
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        let error = |why: &str| {
            ResponseBuilder::new()
                .description(why)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("Error")))
                        .build(),
                )
                .build()
        };
        for (path, item) in doc.paths.paths.iter_mut() {
            if let Some(op) = &mut item.post {
                let answers = &mut op.responses.responses;
                for (status, why) in [
                    ("403", "a request from a web page of an origin not given to --cors"),
                    ("415", "a form's body (a delivery takes none; the others take JSON)"),
                ] {
                    answers
                        .entry(status.to_string())
                        .or_insert_with(|| error(why).into());
                }
            }
            for (method, op) in [
                (axum::http::Method::GET, &mut item.get),
                (axum::http::Method::POST, &mut item.post),
            ] {
                let Some(op) = op else { continue };
                if plays(&method, path) || path == "/v1/puzzles/{id}" {
                    op.responses.responses.entry("429".to_string()).or_insert_with(|| {
                        error("the play page's token over its pace (Retry-After says when)")
                            .into()
                    });
                }
            }
            for op in [&mut item.get, &mut item.post].into_iter().flatten() {
                let answers = &mut op.responses.responses;
                let mut add = |status: &str, why: &str| {
                    answers
                        .entry(status.to_string())
                        .or_insert_with(|| error(why).into());
                };
                if path.starts_with("/v1/") {
                    add("408", "the request, its body included, took too long");
                    add("503", "the bank or the server cannot answer now");
                }
                if op.request_body.is_some() {
                    add("413", "a body over 256 KiB");
                    add("415", "a body not declared as JSON");
                    add("422", "a body that is not the request's shape");
                }
                if !open_without_token(path) {
                    add("401", "the server has a token and the request does not carry it");
                    op.security = Some(vec![
                        SecurityRequirement::default(),
                        SecurityRequirement::new("bearer", Vec::<String>::new()),
                    ]);
                }
            }
        }
    }
}

/// The routes open without the token: the health check, and the play page's own files.
fn open_without_token(path: &str) -> bool {
    matches!(path, "/healthz" | "/" | "/app.js" | "/style.css")
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
    /// Everything: the server's token, or a server without one.
    Full,
    /// What one player needs ([`plays`], and [`super::limit`]): the play page's public token.
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
        Access::Full
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
fn same_site(origins: &[String], method: &axum::http::Method, headers: &HeaderMap) -> Result<(), ApiError> {
    use axum::http::Method;
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    if let Some(kind) = headers.get(header::CONTENT_TYPE) {
        let kind = kind.to_str().unwrap_or_default();
        let kind = kind.split(';').next().unwrap_or_default().trim();
        if ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]
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

/// Runs blocking work (the bank, CPU) off the async threads, within [`MAX_TIME`].
pub(super) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let work = tokio::task::spawn_blocking(f);
    match tokio::time::timeout(MAX_TIME, work).await {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            tracing::error!(id = %super::log::current(), cause = %e, "a request's worker failed");
            Err(ApiError::Failed)
        }
        Err(_) => Err(ApiError::Unavailable(format!(
            "the request took longer than {} s",
            MAX_TIME.as_secs()
        ))),
    }
}

/// `GET /healthz`.
#[derive(Serialize, ToSchema)]
#[schema(as = Health)]
pub struct HealthView {
    /// `ok`, or `unavailable` (answered with 503).
    pub status: &'static str,
    /// Whether the server records deliveries (false: started `--read-only`).
    pub deliveries: bool,
    /// Why it is unavailable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Readiness: 200 when the server can do its job (take deliveries, or, read-only, serve
/// reads), else 503 with the reason (the last commit failed, the bank's indexes are missing,
/// its disk is full). Open without the token.
#[utoipa::path(get, path = "/healthz", responses(
    (status = 200, description = "ready", body = HealthView),
    (status = 503, description = "not ready: the reason says why", body = HealthView)
))]
async fn healthz(State(s): State<Arc<Shared>>) -> Response {
    // A fleet's server delivers only while its history answers; one that answers again clears
    // an earlier failure (a server taken out of the balancer gets no delivery to clear it).
    // A server that has not bound to its history yet stays unavailable: its binder says why.
    if let Some(fleet) = s.fleet.clone().filter(super::fleet::Fleet::bound) {
        let answered = fleet.pg.ping().await.err().map(|e| e.reason());
        s.health.recorded(answered);
    }
    let found = blocking(move || {
        let deliveries = !s.health.read_only();
        Ok((s.read(|c| Ok::<_, store::StoreError>(s.health.check(c)))?, deliveries))
    })
    .await;
    let (status, health) = match found {
        Ok((Ok(()), deliveries)) => (
            StatusCode::OK,
            HealthView {
                status: "ok",
                deliveries,
                reason: None,
            },
        ),
        Ok((Err(reason), deliveries)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            HealthView {
                status: "unavailable",
                deliveries,
                reason: Some(reason),
            },
        ),
        Err(e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            HealthView {
                status: "unavailable",
                deliveries: false,
                reason: Some(e.to_string()),
            },
        ),
    };
    (status, Json(health)).into_response()
}

/// Requests and latency histograms per route, Prometheus text format.
#[utoipa::path(get, path = "/metrics", responses(
    (status = 200, description = "Prometheus text", content_type = "text/plain", body = String)
))]
async fn metrics(State(s): State<Arc<Shared>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        s.metrics.render(),
    )
        .into_response()
}

/// This description.
#[utoipa::path(get, path = "/openapi.json", responses(
    (status = 200, description = "OpenAPI 3", body = Object)
))]
async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// One level of `GET /v1/levels`.
#[derive(Serialize, ToSchema)]
pub struct LevelView {
    /// Its name.
    pub name: String,
    /// The rating it starts at (`null` for the easiest).
    pub from: Option<f64>,
    /// The rating it ends before (`null` for the hardest).
    pub to: Option<f64>,
    /// How many puzzles of the bank it holds.
    pub count: u64,
}

/// `GET /v1/levels`.
#[derive(Serialize, ToSchema)]
#[schema(as = Levels)]
pub struct LevelsView {
    /// The rating the levels cut: `difficulty` or `hsolve`.
    pub rating: &'static str,
    /// The levels, easiest first.
    pub levels: Vec<LevelView>,
}

/// The bank's levels: names, rating ranges, counts.
#[utoipa::path(get, path = "/v1/levels", responses(
    (status = 200, description = "ok", body = LevelsView),
    (status = 503, description = "the bank is unavailable", body = ErrorBody)
))]
async fn levels(State(s): State<Arc<Shared>>) -> Reply<LevelsView> {
    let view = blocking(move || {
        let lv = s.levels()?;
        let names = lv.set.names().names();
        let counts = s.read(|c| store::puzzles::level_counts(c, names.len()))?;
        let levels = names
            .iter()
            .zip(counts)
            .enumerate()
            .map(|(i, (name, count))| {
                let (from, to) = lv.set.bounds(i);
                LevelView {
                    name: name.clone(),
                    from,
                    to,
                    count,
                }
            })
            .collect();
        Ok(LevelsView {
            rating: lv.rating.name(),
            levels,
        })
    })
    .await?;
    Ok(Json(view))
}

/// A puzzle as the API gives it.
#[derive(Serialize, ToSchema)]
#[schema(as = Puzzle)]
pub struct PuzzleView {
    /// Its id in the bank.
    pub id: i64,
    /// The puzzle, 81 characters, `.` for empty.
    #[schema(value_type = String)]
    pub puzzle: Puzzle,
    /// Its level's name on the bank's levels.
    pub level: String,
    /// Its `difficulty` rating.
    pub difficulty: Option<f64>,
    /// Its percentile against the bank's reference.
    pub percentile: f64,
    /// Its number of clues.
    pub clues: usize,
    /// The hardest step of the `difficulty` ladder it needs, e.g. `x-wing` (null for a row
    /// an older version stored that no build has re-rated).
    #[schema(value_type = Option<String>)]
    pub hardest_step: Option<Strategy>,
    /// How many such steps a solve takes.
    pub hardest_steps: Option<u16>,
    /// Its solution, 81 digits (with `solution=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub solution: Option<Grid>,
}

impl PuzzleView {
    /// The view of a handout, with its solution when asked.
    fn of(h: Handout, solution: bool) -> PuzzleView {
        PuzzleView {
            id: h.id,
            clues: h.puzzle.clues(),
            puzzle: h.puzzle,
            level: h.level.unwrap_or_default(),
            difficulty: h.difficulty,
            percentile: h.percentile,
            hardest_step: h.hardest.map(|x| x.strategy),
            hardest_steps: h.hardest.map(|x| x.count),
            solution: solution.then_some(h.solution),
        }
    }
}

/// The query of `POST /v1/puzzles/next`: a user and one of `level`, `band`, `percentile`,
/// `technique`, or a technique with one of the other three.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NextQuery {
    /// The app's id of the user: 1 to 64 characters among letters, digits and `-_.:@`.
    #[param(required = true)]
    pub user: Option<String>,
    /// A level's name.
    pub level: Option<String>,
    /// A band, `K/M`.
    pub band: Option<String>,
    /// A percentile range, `A..B`.
    pub percentile: Option<String>,
    /// Only puzzles whose hardest step is this technique of the `difficulty` ladder, e.g.
    /// `x-wing` (alone, or with one of the three above).
    pub technique: Option<String>,
    /// A named rating of the bank (`calibrate --labelled --named NAME`), e.g. `se`, with
    /// `range` (alone, or with one of level, band, percentile).
    pub rating: Option<String>,
    /// The range of the named rating, `A..B` (both included), e.g. `7.0..8.0`.
    pub range: Option<String>,
    /// `true` to include the solution.
    pub solution: Option<String>,
}

/// The query of `GET /v1/puzzles/{id}`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SolutionQuery {
    /// `true` to include the solution.
    pub solution: Option<String>,
    /// The user asking (with the play page's token, a solution is given only to a user the
    /// puzzle was handed to).
    pub user: Option<String>,
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
    let ok = !user.is_empty()
        && user.len() <= 64
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:@".contains(c));
    if ok {
        Ok(user)
    } else {
        Err(ApiError::BadRequest(
            "bad user id: 1 to 64 characters among letters, digits and - _ . : @".into(),
        ))
    }
}

/// What narrows a query's puzzles: its technique and its named rating's range, if it names
/// them.
fn narrowing(q: &NextQuery) -> Result<Narrowing, ApiError> {
    let technique = q
        .technique
        .as_deref()
        .map(|name| Strategy::parse(name).map_err(|e| ApiError::BadRequest(e.to_string())))
        .transpose()?;
    let named = match (&q.rating, &q.range) {
        (None, None) => None,
        (Some(name), Some(range)) => {
            Some(NamedAsk::parse(name, range).map_err(ApiError::BadRequest)?)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "rating=NAME and range=A..B go together".into(),
            ))
        }
    };
    Ok(Narrowing { technique, named })
}

/// The selector of a query: at most one of `level`, `band`, `percentile`, and one of them
/// unless the query names a technique or a named rating.
fn selector(q: &NextQuery) -> Result<Selector, ApiError> {
    match (&q.level, &q.band, &q.percentile) {
        (None, None, None) if q.technique.is_some() || q.rating.is_some() => Ok(Selector::All),
        (Some(level), None, None) => Ok(Selector::Level(level.clone())),
        (None, Some(band), None) => band
            .parse::<Band>()
            .map(Selector::Band)
            .map_err(|e| ApiError::BadRequest(e.to_string())),
        (None, None, Some(range)) => range
            .parse::<PercentileRange>()
            .map(Selector::Percentile)
            .map_err(|e| ApiError::BadRequest(e.to_string())),
        _ => Err(ApiError::BadRequest(
            "give exactly one of level=NAME, band=K/M, percentile=A..B, or technique=NAME or \
             rating=NAME&range=A..B (which may go with one of them)"
                .into(),
        )),
    }
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
        return Ok(Access::Full);
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, given)| given.trim());
    if given == Some(token.as_str()) {
        Ok(Access::Full)
    } else if given.is_some() && given == s.page_token.as_deref() && plays(method, path) {
        Ok(Access::Page)
    } else {
        Err(ApiError::Unauthorized)
    }
}

/// Whether a request is one the play page makes (what its token opens): the levels, a
/// delivery, a puzzle by id, the daily puzzle, a hint.
fn plays(method: &axum::http::Method, path: &str) -> bool {
    use axum::http::Method;
    match *method {
        Method::GET => {
            matches!(path, "/v1/levels" | "/v1/daily")
                || path
                    .strip_prefix("/v1/puzzles/")
                    .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        }
        Method::POST => matches!(path, "/v1/puzzles/next" | "/v1/hint"),
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

/// A delivery: a puzzle of a level, band or percentile range this user has never been given,
/// recorded as the user's before it is answered. A POST (a GET changes nothing: 405). A
/// request whose client closes the connection before the delivery is committed is not
/// charged.
#[utoipa::path(post, path = "/v1/puzzles/next", params(NextQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "ok", body = PuzzleView),
        (status = 400, description = "bad request", body = ErrorBody),
        (status = 401, description = "a token is required", body = ErrorBody),
        (status = 404, description = "the user has had every puzzle of the range", body = ErrorBody),
        (status = 408, description = "the request took too long", body = ErrorBody),
        (status = 409, description = "too many concurrent requests for this user", body = ErrorBody),
        (status = 503, description = "the bank is unavailable, or the server read-only", body = ErrorBody)
    )
)]
async fn next(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiQuery(q): ApiQuery<NextQuery>,
) -> Reply<PuzzleView> {
    let user = check_user(q.user.clone())?;
    if let (Access::Page, Some(ip)) = (client.access, client.ip) {
        s.page_limits.delivery(ip, &user).map_err(|wait| {
            ApiError::TooMany(
                format!("too many new puzzles for user {user} or this address: slow down"),
                wait,
            )
        })?;
    }
    let sel = selector(&q)?;
    let narrowing = narrowing(&q)?;
    let solution = wants_solution(q.solution.as_deref())?;
    let lv = levels_now(&s).await?;
    let within: Selection = sel
        .selection(&lv, &narrowing)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let drawn = match s.fleet.clone() {
        Some(fleet) => super::fleet::deliver(&s, &fleet, &user, lv.clone(), within).await?,
        None => deliver(&s, &user, lv.clone(), within).await?,
    };
    match drawn {
        Some(h) => Ok(Json(PuzzleView::of(h, solution))),
        None => Err(ApiError::NotFound(format!(
            "user {user} has had every puzzle of {}",
            sel.describe(&lv, &narrowing)
        ))),
    }
}

/// A puzzle of `within` whose class `user` has never been given, recorded in the bank's
/// history by the writer before it is answered; `None` when the user has had them all.
async fn deliver(
    s: &Arc<Shared>,
    user: &str,
    lv: Arc<crate::levels::Levels>,
    within: Selection,
) -> Result<Option<Handout>, ApiError> {
    for _ in 0..DRAW_RETRIES {
        let drawn = {
            let (s, user, lv) = (s.clone(), user.to_string(), lv.clone());
            blocking(move || {
                let mut rng = s.rng();
                Ok(s.read(|c| {
                    Draws::new(c, &lv, within, Recipient::User(&user))?.next(&mut rng)
                })?)
            })
            .await?
        };
        let Some(h) = drawn else {
            return Ok(None);
        };
        if s.record(user, h.key, h.id)
            .await
            .map_err(|e| ApiError::unwritten("recording", "recording the delivery", e))?
        {
            return Ok(Some(h));
        }
    }
    Err(ApiError::Conflict)
}

/// `GET /v1/puzzles/next`: refused, since a delivery changes the user's history and a GET
/// must not (browsers prefetch GETs, HEAD runs them).
#[utoipa::path(get, path = "/v1/puzzles/next", responses(
    (status = 405, description = "deliveries are POST requests", body = ErrorBody)
))]
async fn next_by_get() -> Response {
    let mut response = ApiError::MethodNotAllowed(
        "a delivery is POST /v1/puzzles/next (with the same query): a GET changes nothing"
            .into(),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static("POST"));
    response
}

/// A puzzle by its id.
#[utoipa::path(get, path = "/v1/puzzles/{id}",
    params(("id" = i64, Path, description = "The puzzle's id in the bank"), SolutionQuery),
    responses(
        (status = 200, description = "ok", body = PuzzleView),
        (status = 400, description = "bad request", body = ErrorBody),
        (status = 404, description = "no such puzzle", body = ErrorBody),
        (status = 503, description = "the bank is unavailable", body = ErrorBody)
    )
)]
async fn puzzle_by_id(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<SolutionQuery>,
) -> Reply<PuzzleView> {
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::BadRequest(format!("bad puzzle id {id:?}: a whole number")))?;
    let solution = wants_solution(q.solution.as_deref())?;
    let user = q.user.map(|u| check_user(Some(u))).transpose()?;
    let handout = {
        let s = s.clone();
        blocking(move || {
            let lv = s.levels()?;
            match s.read(|c| retrieve::by_id(c, &lv, id))? {
                Some(h) => Ok(h),
                None => Err(ApiError::NotFound(format!("no puzzle with id {id}"))),
            }
        })
        .await?
    };
    // The page's token gives a solution only with a puzzle its user was handed (or a daily
    // puzzle, everyone's): the bank's solutions are not a download.
    if solution && client.access == Access::Page {
        let Some(user) = user else {
            return Err(ApiError::Forbidden(
                "the play page's token gives a puzzle's solution only to the user it was \
                 handed to: give user=ID"
                    .into(),
            ));
        };
        if !received(&s, &user, handout.key).await? {
            return Err(ApiError::Forbidden(format!(
                "user {user} was not handed puzzle {id}: the play page's token gives its \
                 solution only to a user who was"
            )));
        }
    }
    Ok(Json(PuzzleView::of(handout, solution)))
}

/// Whether `user` was handed the class `key`, or it is a daily puzzle (everyone's): from the
/// fleet's history, or the bank's.
async fn received(s: &Arc<Shared>, user: &str, key: Key) -> Result<bool, ApiError> {
    if let Some(fleet) = s.fleet.clone() {
        return fleet
            .pg
            .received(user, &key)
            .await
            .map_err(|e| ApiError::Unavailable(e.reason()));
    }
    let (s, user) = (s.clone(), user.to_string());
    blocking(move || Ok(s.read(|c| store::history::received(c, &user, &key))?)).await
}

/// The query of `GET /v1/daily`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DailyQuery {
    /// The date, `YYYY-MM-DD` (the player's own): from the archive of recorded dates to
    /// tomorrow in UTC.
    #[param(required = true)]
    pub date: Option<String>,
    /// A level's name.
    #[param(required = true)]
    pub level: Option<String>,
    /// `true` to include the solution.
    pub solution: Option<String>,
}

/// A daily puzzle as the API gives it: the puzzle and its date.
#[derive(Serialize, ToSchema)]
pub struct DailyView {
    /// The date it is the daily puzzle of, `YYYY-MM-DD`.
    pub date: String,
    /// The puzzle.
    #[serde(flatten)]
    pub puzzle: PuzzleView,
}

/// The daily puzzle of a date and level: the same for every user, recorded the first time it
/// is asked for and never changed; a class is the daily puzzle of one date and level only. A
/// date an export recorded gives the export's puzzle of that level; otherwise one is drawn
/// among the level's unserved puzzles (and marked served) for dates from yesterday to
/// tomorrow in UTC (the players' time zones); earlier dates are an archive of the recorded
/// ones.
#[utoipa::path(get, path = "/v1/daily", params(DailyQuery),
    responses(
        (status = 200, description = "ok", body = DailyView),
        (status = 400, description = "bad request, or a date after tomorrow", body = ErrorBody),
        (status = 404, description = "an earlier date that has no daily puzzle, or a level with no puzzle left", body = ErrorBody),
        (status = 503, description = "the bank is unavailable, or the server read-only", body = ErrorBody)
    )
)]
async fn daily(
    State(s): State<Arc<Shared>>,
    ApiQuery(q): ApiQuery<DailyQuery>,
) -> Reply<DailyView> {
    let text = q
        .date
        .ok_or_else(|| ApiError::BadRequest("a daily puzzle needs date=YYYY-MM-DD".into()))?;
    let date =
        text
            .parse::<crate::calendar::Date>()
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let today = crate::calendar::Date::today();
    if date.days() > today.days() + 1 {
        return Err(ApiError::BadRequest(format!(
            "the daily puzzle of {date} is not out yet (today is {today} in UTC)"
        )));
    }
    let level = q
        .level
        .ok_or_else(|| ApiError::BadRequest("a daily puzzle needs level=NAME".into()))?;
    let solution = wants_solution(q.solution.as_deref())?;
    let lv = levels_now(&s).await?;
    let within = Selector::Level(level.clone())
        .within(&lv.set)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    // One daily puzzle per level, however a request spells its name (`hard`, `Hard`).
    let level = match within {
        store::retrieval::Within::Level(i) => lv.set.name(i as usize).map_or(level, str::to_string),
        _ => level,
    };
    // Recorded already (every request but the first of a date and level): a read. A fleet's
    // daily puzzles are in its history.
    let found = match s.fleet {
        Some(_) => None,
        None => {
            let (s, level, lv) = (s.clone(), level.clone(), lv.clone());
            blocking(move || Ok(s.read(|c| retrieve::recorded_daily(c, &lv, date, &level))?))
                .await?
        }
    };
    let daily = match (found, s.fleet.clone()) {
        (Some(recorded), _) => recorded,
        (None, Some(fleet)) => {
            super::fleet::daily(&s, &fleet, date, (&level, within), lv).await?
        }
        (None, None) => s
            .daily(date, (&level, within), lv)
            .await
            .map_err(|e| ApiError::unwritten("the daily puzzle", "recording the daily puzzle", e))?,
    };
    match daily {
        retrieve::Daily::Puzzle(h) => Ok(Json(DailyView {
            date: date.to_string(),
            puzzle: PuzzleView::of(*h, solution),
        })),
        retrieve::Daily::NotRecorded => Err(ApiError::NotFound(format!(
            "{date} has no daily puzzle at level {level} (dates before yesterday give only \
             what was recorded)"
        ))),
        retrieve::Daily::Exhausted => Err(ApiError::NotFound(format!(
            "level {level} has no puzzle left for a daily puzzle"
        ))),
    }
}

/// The body of `POST /v1/hint`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The clues, 81 characters, `.` or `0` for empty.
    pub puzzle: String,
    /// The player's entries, 81 characters, `.` or `0` for empty.
    pub entries: Option<String>,
    /// 81 strings, each a cell's pencil marks (digits); filled cells' strings are ignored.
    pub candidates: Option<Vec<String>>,
}

impl HintRequest {
    /// The board it describes.
    fn board(&self) -> Result<Board, ApiError> {
        let mut board = Board::new(parse_puzzle(&self.puzzle)?);
        if let Some(e) = &self.entries {
            board = board
                .with_entries(e)
                .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        }
        if let Some(c) = &self.candidates {
            if c.len() != 81 {
                return Err(ApiError::BadRequest(format!(
                    "candidates: expected 81 cells, found {}",
                    c.len()
                )));
            }
            let mut marks = [0u16; 81];
            for (i, cell) in c.iter().enumerate() {
                for ch in cell.chars() {
                    match ch.to_digit(10) {
                        Some(d @ 1..=9) => marks[i] |= 1 << (d - 1),
                        _ => {
                            return Err(ApiError::BadRequest(format!(
                                "candidates: bad character {ch:?} in cell {}",
                                i + 1
                            )))
                        }
                    }
                }
            }
            board.marks = Some(marks);
        }
        Ok(board)
    }
}

fn parse_puzzle(text: &str) -> Result<Puzzle, ApiError> {
    Puzzle::parse_line(text).map_err(|e| ApiError::BadRequest(format!("bad puzzle: {e}")))
}

/// The next step on a player's board: mistakes first, then the easiest technique.
#[utoipa::path(post, path = "/v1/hint", request_body = HintRequest, responses(
    (status = 200, description = "ok", body = HintView),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody),
    (status = 422, description = "the clues have no solution or more than one", body = ErrorBody)
))]
async fn hint_route(
    State(s): State<Arc<Shared>>,
    axum::Extension(client): axum::Extension<Client>,
    body: Result<Json<HintRequest>, JsonRejection>,
) -> Response {
    let hinted = async {
        let Json(req) = body?;
        let board = req.board()?;
        // The page's token hints on the boards the server hands out: a puzzle of the bank,
        // clue for clue (not a free solver for any puzzle).
        if client.access == Access::Page {
            let (s, clues) = (s.clone(), board.clues);
            let ours = blocking(move || {
                let key = crate::canon::key(&clues);
                let lv = s.levels()?;
                Ok(s.read(|c| retrieve::by_key(c, &lv, &key))?
                    .is_some_and(|h| h.puzzle == clues))
            })
            .await?;
            if !ours {
                return Err(ApiError::Forbidden(
                    "the play page's token gives hints on this server's puzzles only".into(),
                ));
            }
        }
        blocking(move || {
            hint(&board)
                .map(|h| h.to_json())
                .map_err(|e| ApiError::Unprocessable(e.to_string()))
        })
        .await
    };
    match hinted.await {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The body of `POST /v1/rate`, `/v1/solve` and `/v1/canon`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Puzzles)]
pub struct PuzzlesRequest {
    /// The puzzles, 81 characters each, `.` or `0` for empty.
    pub puzzles: Vec<String>,
}

impl PuzzlesRequest {
    /// Its puzzles, at most `max`; a bad one is an error naming its position.
    fn parse(self, max: usize) -> Result<Vec<Puzzle>, ApiError> {
        if self.puzzles.is_empty() || self.puzzles.len() > max {
            return Err(ApiError::BadRequest(format!(
                "puzzles: give 1 to {max}, not {}",
                self.puzzles.len()
            )));
        }
        self.puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                Puzzle::parse_line(p)
                    .map_err(|e| ApiError::BadRequest(format!("puzzles[{i}]: {e}")))
            })
            .collect()
    }
}

/// `f` of each puzzle of the request (at most `max`), in its order, off the async threads.
async fn each_puzzle<T: Send + 'static>(
    body: Result<Json<PuzzlesRequest>, JsonRejection>,
    max: usize,
    f: fn(&Puzzle) -> T,
) -> Result<Vec<T>, ApiError> {
    let Json(req) = body?;
    let list = req.parse(max)?;
    // At most BATCH_PERMITS lists at once, so that draws and hints always find a thread.
    let _permit = tokio::time::timeout(MAX_TIME, BATCHES.acquire())
        .await
        .map_err(|_| ApiError::Unavailable("too many lists of puzzles at once; try again".into()))?
        .map_err(|_| ApiError::Unavailable("the server is stopping".into()))?;
    blocking(move || Ok(list.iter().map(f).collect())).await
}

/// The answer of `POST /v1/rate`: a result per puzzle, in the request's order.
#[derive(Serialize, ToSchema)]
pub struct RateResults {
    /// The results.
    pub results: Vec<RateResult>,
}

/// The answer of `POST /v1/solve`: a result per puzzle, in the request's order.
#[derive(Serialize, ToSchema)]
pub struct SolveResults {
    /// The results.
    pub results: Vec<Solved>,
}

/// The answer of `POST /v1/canon`: a result per puzzle, in the request's order.
#[derive(Serialize, ToSchema)]
pub struct CanonResults {
    /// The results.
    pub results: Vec<Canonized>,
}

/// One result of `POST /v1/rate`: the puzzle's report, or why it cannot be rated.
#[derive(Serialize, ToSchema)]
#[schema(as = Rated)]
#[serde(untagged)]
pub enum RateResult {
    /// Its rating, as `rate --json` prints it.
    Report(Report),
    /// Why it cannot be rated.
    Unrated {
        /// The puzzle.
        #[schema(value_type = String)]
        puzzle: Puzzle,
        /// Why.
        error: String,
    },
}

/// Ratings and metrics of up to 50 puzzles.
#[utoipa::path(post, path = "/v1/rate", request_body = PuzzlesRequest, responses(
    (status = 200, description = "ok", body = RateResults),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody)
))]
async fn rate(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply<RateResults> {
    let results = each_puzzle(body, MAX_RATE, |p| match crate::rate::rate(p, None) {
        Ok(r) => RateResult::Report(Report::new(p, &r, r.default_level())),
        Err(e) => RateResult::Unrated {
            puzzle: *p,
            error: e.to_string(),
        },
    })
    .await?;
    Ok(Json(RateResults { results }))
}

/// One result of `POST /v1/solve`.
#[derive(Serialize, ToSchema)]
pub struct Solved {
    /// The puzzle.
    #[schema(value_type = String)]
    pub puzzle: Puzzle,
    /// 0, 1, or 2 for two or more.
    pub solutions: u8,
    /// The solution when there is exactly one.
    #[schema(value_type = Option<String>)]
    pub solution: Option<Grid>,
}

/// Solutions of up to 1000 puzzles.
#[utoipa::path(post, path = "/v1/solve", request_body = PuzzlesRequest, responses(
    (status = 200, description = "ok", body = SolveResults),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody)
))]
async fn solve_route(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply<SolveResults> {
    let results = each_puzzle(body, MAX_PUZZLES, |p| {
        let (solutions, solution) = match solve(p) {
            Solutions::None => (0, None),
            Solutions::Unique(g) => (1, Some(g)),
            Solutions::Multiple(_) => (2, None),
        };
        Solved {
            puzzle: *p,
            solutions,
            solution,
        }
    })
    .await?;
    Ok(Json(SolveResults { results }))
}

/// One result of `POST /v1/canon`.
#[derive(Serialize, ToSchema)]
pub struct Canonized {
    /// The puzzle as given.
    #[schema(value_type = String)]
    pub input: Puzzle,
    /// Its exact canonical (minlex) form, `0` for empty.
    pub canonical: String,
    /// Its class key, 64 hex digits.
    #[schema(value_type = String)]
    pub key: Key,
    /// How many symmetries map it onto itself.
    pub automorphisms: u64,
}

/// Canonical forms and class keys of up to 1000 puzzles.
#[utoipa::path(post, path = "/v1/canon", request_body = PuzzlesRequest, responses(
    (status = 200, description = "ok", body = CanonResults),
    (status = 400, description = "bad request", body = ErrorBody),
    (status = 413, description = "body too large", body = ErrorBody)
))]
async fn canon(body: Result<Json<PuzzlesRequest>, JsonRejection>) -> Reply<CanonResults> {
    let results = each_puzzle(body, MAX_PUZZLES, |p| {
        let c = crate::canon::canonical(p);
        Canonized {
            input: *p,
            canonical: c.to_line(),
            key: c.key(),
            automorphisms: c.automorphisms,
        }
    })
    .await?;
    Ok(Json(CanonResults { results }))
}
