#!/usr/bin/env bash
# zkbench's test suite: the command README.md documents and CI runs.
#   bash scripts/test.sh
# Installs what the tests need (wasm32 target; snarkjs from npm when node is present), then
# runs every Rust test and the wasm32 build check.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== setup"
bash scripts/setup.sh

echo "== cargo test (workspace)"
cargo test --workspace --locked

echo "== wasm32 build (zkbench-hash, zkbench-merkle without threads)"
cargo build --locked --target wasm32-unknown-unknown -p zkbench-hash --no-default-features --features std
cargo build --locked --target wasm32-unknown-unknown -p zkbench-merkle --no-default-features

echo "== all tests passed"
