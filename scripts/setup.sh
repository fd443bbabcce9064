#!/usr/bin/env bash
# Installs the tools zkbench's tests and peers need on a fresh machine. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v rustup >/dev/null 2>&1; then
  rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' \
    || rustup target add wasm32-unknown-unknown
fi

# snarkjs (npm) verifies our Groth16 artifacts in crates/groth16/tests/snarkjs.rs and exports
# its Solidity verifier for crates/evm; solc-js (npm) compiles the Solidity verifiers (crates/evm).
# circomlibjs (npm) generates the MiMCSponge hasher contract of the Tornado Cash baseline
# (crates/pool/src/tornado.rs, scripts/circomlibjs/mimcsponge.mjs).
# hardhat (npm, 2.x: runs on Node 20) is the JSON-RPC node the pool's tests start
# (crates/pool/tests/rpc.rs, crates/cli/tests/pool.rs; scripts/hardhat/hardhat.config.js).
# Each is (re)installed when a package its package.json pins is missing.
# peers/snarkjs (npm: snarkjs, circom2 — circom's WebAssembly build — and circomlib) is the snarkjs
# peer of the `peers` and `hash-grid` suites (docs/external-runners.md).
for pkg in scripts/snarkjs:snarkjs scripts/snarkjs:ejs scripts/solc:solc scripts/circomlibjs:circomlibjs scripts/hardhat:hardhat peers/snarkjs:circom2 peers/snarkjs:circomlib peers/snarkjs:snarkjs; do
  dir="${pkg%%:*}" name="${pkg##*:}"
  [ -f "$dir/package.json" ] || continue
  if command -v npm >/dev/null 2>&1; then
    (cd "$dir" && { [ -d "node_modules/$name" ] || npm ci --no-audit --no-fund --loglevel=error; })
  else
    echo "setup: npm not found; the tests that need $dir/node_modules/$name will be skipped" >&2
  fi
done

# mdBook builds docs/ as a book (`mdbook build docs`, run by scripts/test.sh so that a broken
# link or a missing chapter fails). Pinned: 0.5.4 builds with the workspace's stable Rust.
MDBOOK_VERSION=0.5.4
if ! command -v mdbook >/dev/null 2>&1 || [ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
  cargo install mdbook --locked --version "$MDBOOK_VERSION" \
    || echo "setup: could not install mdbook $MDBOOK_VERSION; scripts/test.sh's book build will fail" >&2
fi

# PostgreSQL (Debian package): the results server's tests and load generator start a throwaway
# cluster with its initdb + pg_ctl (crates/server/src/pgtemp.rs).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null; } \
      || echo "setup: could not install postgresql; the results server's PostgreSQL tests will say so and not run" >&2
  else
    echo "setup: PostgreSQL (initdb) not found and not root; the results server's PostgreSQL tests will say so and not run" >&2
  fi
fi

# Chromium (Debian package): the zkbench-prover example's test (scripts/web-package.sh, run by
# scripts/test.sh) and the browser suite drive it headless through puppeteer-core; no browser is
# ever downloaded. Firefox ESR (apt-get install firefox-esr) is optional: with it, test.sh runs the
# example in Firefox too, and `zkbench run browser --browser firefox` works.
if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; } \
      || echo "setup: could not install chromium; scripts/test.sh's browser test will fail" >&2
  else
    echo "setup: Chromium not found and not root (apt-get install chromium, or set CHROMIUM)" >&2
  fi
fi
