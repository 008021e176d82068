//! Support for the tests, benchmarks and reports, not part of the library's API: where the
//! external reference data lives, and rank statistics for validation reports. Built only with
//! the `dev` feature, which the crate's own tests, benchmarks and examples turn on.

pub mod refdata;
pub mod stats;
