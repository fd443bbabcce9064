#!/usr/bin/env bash
# Installs the tools zkbench's tests and peers need on a fresh machine. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v rustup >/dev/null 2>&1; then
  rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' \
    || rustup target add wasm32-unknown-unknown
fi

# snarkjs (npm) verifies our Groth16 artifacts in crates/groth16/tests/snarkjs.rs.
if [ -f scripts/snarkjs/package.json ]; then
  if command -v npm >/dev/null 2>&1; then
    (cd scripts/snarkjs && { [ -d node_modules/snarkjs ] || npm ci --no-audit --no-fund --loglevel=error; })
  else
    echo "setup: npm not found; the snarkjs interoperability test will be skipped" >&2
  fi
fi
