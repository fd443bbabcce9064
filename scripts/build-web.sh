#!/usr/bin/env bash
# Builds the browser page (web/dist), which `zkbench serve` serves at /:
#   bash scripts/build-web.sh
#
# Idempotent; installs what it needs when missing: the nightly toolchain with rust-src and
# the wasm32 target (threads need -Z build-std), wasm-bindgen-cli at exactly the version in
# Cargo.lock (`cargo install --locked`), the npm packages of web/ (`npm ci`) and of
# peers/snarkjs. Then:
#   1. zkbench-wasm single-threaded (stable)                 -> web/public/pkg-st, target/wasm-node
#   2. zkbench-wasm threaded (nightly, wasm-bindgen-rayon,
#      +atomics,+bulk-memory,+mutable-globals,+simd128,
#      4 GiB maximum memory, -Z build-std=panic_abort,std)  -> web/public/pkg-mt
#      (simd128: its MSM bucket additions can run in SIMD lanes, zkbench_msm::simd128; the page
#      loads it only where a SIMD probe validates, the single-threaded scalar build otherwise),
#      and the same with +relaxed-simd                      -> web/public/pkg-mt-fma
#      (the MSM's fused multiply-add kernel, zkbench_msm::fma; loaded where the browser
#      validates f64x2.relaxed_madd, pkg-mt elsewhere)
#   3. the browser suite's key files (web/suite.json), made by the module itself in Node
#                                                           -> web/public/keys
#   4. snarkjs's membership circuit (circomlib Poseidon, depth 32), its Groth16 key and input,
#      from peers/snarkjs (needs the native zkbench binary: ZKBENCH_BIN, default
#      target/release/zkbench, built when missing)          -> web/public/snarkjs
#   5. the page (TypeScript, Vite)                           -> web/dist
#
# Environment: ZKBENCH_WEB_JOBS (cargo -j, default 2), ZKBENCH_WEB_SKIP_MT=1 (no threaded
# build: the page then always runs single-threaded), ZKBENCH_WEB_WIDE=1 (also the threaded build
# with the wide-arithmetic proposal, web/public/pkg-mt-wide, for browsers that validate it),
# ZKBENCH_WEB_FMA=0 (no relaxed-SIMD threaded build, pkg-mt-fma: the page then runs pkg-mt
# everywhere). CARGO_TARGET_DIR is not used: each wasm build keeps its own target/wasm-*.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export PUPPETEER_SKIP_DOWNLOAD=1
JOBS="${ZKBENCH_WEB_JOBS:-2}"
WASM=wasm32-unknown-unknown

step() { echo "== $*"; }
elapsed() { echo "   ($(($(date +%s) - $1)) s)"; }

step "toolchains"
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
rustup component list --toolchain nightly --installed | grep -q '^rust-src' \
  || rustup component add rust-src --toolchain nightly
for tc in stable nightly; do
  rustup target list --toolchain "$tc" --installed | grep -qx "$WASM" || rustup target add "$WASM" --toolchain "$tc"
done

WB_VERSION=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WB_VERSION" ] || { echo "wasm-bindgen is not in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ]; then
  step "wasm-bindgen-cli $WB_VERSION (cargo install --locked)"
  t=$(date +%s)
  # --locked first (the versions wasm-bindgen-cli was released with); a registry that no
  # longer serves one of them (a yanked crate) gets a fresh resolution of the same version
  cargo install --locked -j "$JOBS" wasm-bindgen-cli --version "$WB_VERSION" \
    || cargo install -j "$JOBS" wasm-bindgen-cli --version "$WB_VERSION"
  elapsed "$t"
fi

step "zkbench-wasm, single-threaded (target/wasm-st)"
t=$(date +%s)
cargo build --release --locked -j "$JOBS" --target "$WASM" -p zkbench-wasm --target-dir target/wasm-st
elapsed "$t"
ST=target/wasm-st/$WASM/release/zkbench_wasm.wasm
rm -rf web/public/pkg-st target/wasm-node
wasm-bindgen --target web --out-dir web/public/pkg-st "$ST"
wasm-bindgen --target nodejs --out-dir target/wasm-node "$ST"

# build_mt DIR FEATURES WHAT: the threaded zkbench-wasm (nightly, -Z build-std) with the target
# features FEATURES added to the threaded set, in target/wasm-DIR, to web/public/pkg-DIR
MT_BASE=+atomics,+bulk-memory,+mutable-globals,+simd128
build_mt() {
  step "zkbench-wasm, threaded$3 (target/wasm-$1, nightly, -Z build-std)"
  t=$(date +%s)
  RUSTFLAGS="-C target-feature=$MT_BASE$2 -C link-arg=--max-memory=4294967296" \
    cargo +nightly build --release --locked -j "$JOBS" --target "$WASM" -p zkbench-wasm --features parallel \
    --target-dir "target/wasm-$1" -Z build-std=panic_abort,std
  elapsed "$t"
  wasm-bindgen --target web --out-dir "web/public/pkg-$1" "target/wasm-$1/$WASM/release/zkbench_wasm.wasm"
}

rm -rf web/public/pkg-mt web/public/pkg-mt-fma web/public/pkg-mt-wide
if [ "${ZKBENCH_WEB_SKIP_MT:-0}" != 1 ]; then
  build_mt mt "" ""
  # relaxed SIMD (f64x2.relaxed_madd): the MSM's fused multiply-add kernel, zkbench_msm::fma,
  # faster than the scalar path in Chromium 156; the page and zkbench-prover load it where the
  # browser validates relaxed_madd (Chromium 114+; this machine's Firefox ESR 153), pkg-mt elsewhere (Safari,
  # Node 20). ZKBENCH_WEB_FMA=0 skips it.
  if [ "${ZKBENCH_WEB_FMA:-1}" != 0 ]; then build_mt mt-fma ",+relaxed-simd" " with relaxed SIMD"; fi
  # ZKBENCH_WEB_WIDE=1: the wide-arithmetic proposal (i64.mul_wide_u: 64x64->128-bit products
  # without compiler-rt's __multi3); loaded where the browser validates that instruction
  # (Chromium 156: --js-flags=--wasm-wide_arithmetic), before the two above
  if [ "${ZKBENCH_WEB_WIDE:-0}" = 1 ]; then build_mt mt-wide ",+wide-arithmetic" " with wide-arithmetic"; fi
else
  echo "   ZKBENCH_WEB_SKIP_MT=1: no threaded build; the page runs single-threaded"
fi

step "npm packages (web/, peers/snarkjs)"
t=$(date +%s)
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund)
fi
if [ ! -d peers/snarkjs/node_modules ] || [ peers/snarkjs/package-lock.json -nt peers/snarkjs/node_modules/.package-lock.json ]; then
  (cd peers/snarkjs && npm ci --no-audit --no-fund)
fi
elapsed "$t"

step "key files of the browser suite (web/public/keys)"
t=$(date +%s)
# keys depend on the circuits: a new module remakes them
if [ -d web/public/keys ] && [ "$ST" -nt web/public/keys ]; then rm -rf web/public/keys; fi
node web/scripts/make-keys.mjs target/wasm-node web/public/keys
touch web/public/keys
elapsed "$t"

step "snarkjs artifacts: membership, circomlib Poseidon, depth 32 (web/public/snarkjs)"
t=$(date +%s)
ZKBENCH_BIN="${ZKBENCH_BIN:-$ROOT/target/release/zkbench}"
if ! "$ZKBENCH_BIN" ptau --help >/dev/null 2>&1; then
  # missing, or older than `zkbench ptau`
  step "native zkbench (release) for test .ptau files and the native tree"
  cargo build --release --locked -j "$JOBS" -p zkbench
  ZKBENCH_BIN="$ROOT/target/release/zkbench"
fi
export ZKBENCH_BIN
CACHE="${ZKBENCH_SNARKJS_CACHE:-$ROOT/target/snarkjs-peer}"
export ZKBENCH_SNARKJS_CACHE="$CACHE"
node peers/snarkjs/run.mjs --child '{"circuit":"membership","hash":"poseidon","system":"groth16","depth":32,"phase":"setup"}' >/dev/null
# run.mjs writes input.json when it proves; the same input, from zkbench's native tree
node -e '
  const { execFileSync } = require("node:child_process");
  const out = JSON.parse(execFileSync(process.env.ZKBENCH_BIN, ["merkle", "path", "--hash", "poseidon", "--arity", "2",
    "--leaves", "2^32", "--index", "1", "--json", "11", "22"], { encoding: "utf8" }));
  const input = { root: String(out.root), leaf: String(out.leaf),
    siblings: out.path.siblings.map((s) => String(s[0])), bits: out.path.positions.map(String) };
  require("node:fs").writeFileSync(process.argv[1], JSON.stringify(input));
' "$CACHE/membership-poseidon-d32/input.json"
SJ=web/public/snarkjs
mkdir -p "$SJ"
cp "$CACHE/membership-poseidon-d32/main_js/main.wasm" "$SJ/membership.wasm"
cp "$CACHE/membership-poseidon-d32/groth16.zkey" "$SJ/groth16.zkey"
cp "$CACHE/membership-poseidon-d32/input.json" "$SJ/input.json"
node peers/snarkjs/node_modules/snarkjs/cli.js zkey export verificationkey "$SJ/groth16.zkey" "$SJ/verification_key.json" >/dev/null
elapsed "$t"

step "the page (web/dist)"
t=$(date +%s)
(cd web && npx tsc --noEmit && VITE_GIT_COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" npx vite build --logLevel warn)
elapsed "$t"
echo "== built web/dist: serve it with  zkbench serve  and open http://127.0.0.1:8080/"
