//! Benchmark harness (placeholder: being implemented).
