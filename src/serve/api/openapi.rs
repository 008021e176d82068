//! The API's OpenAPI document, generated from the routes' types and handlers, with what every
//! route has in common said once (the token, the answers of the server's layers).

use super::{open_without_token, plays};
use axum::Json;
use std::sync::LazyLock;
use utoipa::openapi::OpenApi;
use utoipa::Modify;

/// The document's own part: its title, version and description. The paths are the routes'
/// operations, added as `super::documented` registers them.
#[derive(utoipa::OpenApi)]
#[openapi(info(
    title = "pseudoku",
    version = "1",
    description = "Graded Sudoku puzzles for apps: per-user puzzles that never repeat a \
        class for a user, hints, ratings, solving, canonical forms."
))]
pub(super) struct ApiDoc;

/// The API's OpenAPI document: the documented routes' operations, with what every route has
/// in common ([`CommonAnswers`]); made once.
fn document() -> &'static OpenApi {
    static DOCUMENT: LazyLock<OpenApi> = LazyLock::new(|| {
        let (_, mut doc) = super::documented().split_for_parts();
        CommonAnswers.modify(&mut doc);
        doc
    });
    &DOCUMENT
}

/// Declares what every route has in common, so that the document says it once: the bearer
/// token (every route but those open without it), the answers the server's layers give
/// (401 without the token, 408 past the request time, 503 when the bank cannot answer) and,
/// for a JSON body, its refusals (413 too large, 415 not JSON, 422 not the request's shape).
struct CommonAnswers;

impl Modify for CommonAnswers {
    fn modify(&self, doc: &mut OpenApi) {
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
                    (
                        "403",
                        "a request from a web page of an origin not given to --cors",
                    ),
                    (
                        "415",
                        "a form's body (a delivery takes none; the others take JSON)",
                    ),
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
                    op.responses
                        .responses
                        .entry("429".to_string())
                        .or_insert_with(|| {
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
                    add(
                        "401",
                        "the server has a token and the request does not carry it",
                    );
                    op.security = Some(vec![
                        SecurityRequirement::default(),
                        SecurityRequirement::new("bearer", Vec::<String>::new()),
                    ]);
                }
            }
        }
    }
}

/// This description.
#[utoipa::path(get, path = "/openapi.json", responses(
    (status = 200, description = "OpenAPI 3", body = Object)
))]
pub(super) async fn openapi() -> Json<&'static OpenApi> {
    Json(document())
}
