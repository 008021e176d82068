//! The integration tests, one module per subject, in one test binary (one link instead of one
//! per file). `common` holds the fixtures they share: the binary, bank builds, queries.

#[macro_use]
mod common;

mod bank;
mod batch;
mod book;
mod browser;
mod canon;
mod cli;
mod dataset;
mod difficulty;
mod docs;
mod export;
mod fleet;
mod golden;
mod grid;
mod hint;
mod hint_examples;
mod import;
mod large_bank;
mod layout;
mod levels;
mod play;
mod play_page;
mod print;
mod python;
mod rating;
mod reference;
mod reference_data;
mod retrieval;
mod scheduler;
mod seeds;
mod serve;
mod shards;
mod solve;
mod stats;
mod transform;
