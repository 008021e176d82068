//! `GET /v1/levels`: the bank's levels, their rating ranges and counts.

use super::super::error::ErrorBody;
use super::super::{blocking, Shared};
use super::Reply;
use crate::store;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

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
pub(super) async fn levels(State(s): State<Arc<Shared>>) -> Reply<LevelsView> {
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
