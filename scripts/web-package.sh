#!/usr/bin/env bash
# The zkbench-prover npm package (web/package) and its example dapp (web/examples), end to end:
#   bash scripts/web-package.sh [chromium|firefox|chromium,firefox]
#
# 1. wasm-bindgen-cli at Cargo.lock's version when missing (only its wasm-bindgen binary,
#    without TLS: what a build needs; about 3 min of CPU once per machine);
# 2. zkbench-wasm single-threaded (stable, release, target/wasm-st: the module build-web.sh
#    makes too) -> target/web-package/pkg-st (--target web) and node (--target nodejs);
# 3. npm ci of web/ when needed (TypeScript, Vite, puppeteer-core, snarkjs);
# 4. npm pack of web/package -> target/web-package/zkbench-prover-<version>.tgz (with the threaded
#    module too when web/public/pkg-mt exists: scripts/build-web.sh);
# 5. web/examples/test.mjs: installs the tarball into the example, builds it with Vite, proves a
#    membership typed into its form in the headless browser, and snarkjs's groth16.verify
#    accepts the proof (in each browser named; default chromium).
# scripts/test.sh runs it with Chromium, and Firefox ESR too when firefox-esr is installed. Environment: ZKBENCH_WEB_JOBS (cargo -j, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
BROWSER="${1:-chromium}"
JOBS="${ZKBENCH_WEB_JOBS:-2}"
WASM=wasm32-unknown-unknown
OUT=target/web-package
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export PUPPETEER_SKIP_DOWNLOAD=1
step() { echo "== $*"; }
elapsed() { echo "   ($(($(date +%s) - $1)) s)"; }

WB_VERSION=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WB_VERSION" ] || { echo "wasm-bindgen is not in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ]; then
  step "wasm-bindgen-cli $WB_VERSION (the wasm-bindgen binary, no TLS features)"
  t=$(date +%s)
  # not --locked: the lock file it was released with names a crate crates.io no longer serves
  cargo install -j "$JOBS" wasm-bindgen-cli --version "$WB_VERSION" --no-default-features --bin wasm-bindgen
  elapsed "$t"
fi

step "zkbench-wasm, single-threaded (target/wasm-st)"
t=$(date +%s)
cargo build --release --locked -j "$JOBS" --target "$WASM" -p zkbench-wasm --target-dir target/wasm-st
ST=target/wasm-st/$WASM/release/zkbench_wasm.wasm
rm -rf "$OUT/pkg-st" "$OUT/node"
wasm-bindgen --target web --out-dir "$OUT/pkg-st" "$ST"
wasm-bindgen --target nodejs --out-dir "$OUT/node" "$ST"
elapsed "$t"

step "npm packages (web/)"
t=$(date +%s)
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
elapsed "$t"

step "npm pack (web/package)"
t=$(date +%s)
rm -f "$OUT"/zkbench-prover-*.tgz
(cd web/package && ZKBENCH_WASM_ST="$PWD/../../$OUT/pkg-st" npm pack --silent --pack-destination "../../$OUT" >/dev/null)
TGZ=$(ls "$OUT"/zkbench-prover-*.tgz)
echo "   $TGZ ($(du -k "$TGZ" | cut -f1) KiB)"
elapsed "$t"

step "the example (web/examples/membership) in headless $BROWSER"
t=$(date +%s)
node web/examples/test.mjs --tarball "$TGZ" --node-pkg "$OUT/node" --browser "$BROWSER" \
  --screenshot-dir "$OUT"
elapsed "$t"
