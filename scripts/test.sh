#!/usr/bin/env bash
# zkbench's test suite: the command README.md documents and CI runs.
#   bash scripts/test.sh
# Installs what the tests need (wasm32 target; snarkjs from npm when node is present), then
# runs every Rust test and the wasm32 build check.
set -euo pipefail
cd "$(dirname "$0")/.."
# CI builds from a cold cache: incremental artefacts would only fill its disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
# every step says when it starts (seconds since the start): where CI's time goes
step() { echo "== $* (at ${SECONDS}s)"; }

step "setup"
bash scripts/setup.sh

step "the documentation book (mdbook build docs: a missing chapter fails) and its links"
mdbook build docs
# mdBook does not check links: every relative link in README.md and docs/*.md must name a file
# that exists (anchors are not checked)
bad=0
for f in README.md docs/*.md; do
  d=$(dirname "$f")
  for l in $(grep -oE '\]\([^)#[:space:]]+' "$f" | sed 's/^](//' | grep -vE '^(https?|mailto):' || true); do
    [ -e "$d/$l" ] || { echo "broken link in $f: $l" >&2; bad=1; }
  done
done
[ "$bad" = 0 ]

if [ "${ZKBENCH_TEST_WEB:-0}" = 1 ]; then
  # the browser page (wasm threaded + single-threaded, keys, snarkjs artifacts, Vite): the
  # interop and end-to-end browser tests below then run instead of skipping (docs/browser.md)
  step "browser page (ZKBENCH_TEST_WEB=1)"
  bash scripts/build-web.sh
fi

step "cargo test (workspace)"
cargo test --workspace --locked

step "API docs in the background (cargo doc --no-deps, warnings denied: every intra-doc link resolves and names a public item)"
# about 10 min from a cold cache on 2 cores (its dependencies' metadata), seconds when warm. The
# audits below run on one thread: the docs take the other core meanwhile (CI's wall time).
doc_log="${CARGO_TARGET_DIR:-target}/api-docs.log"
RUSTDOCFLAGS="${RUSTDOCFLAGS:-} -D warnings" cargo doc --workspace --no-deps --locked >"$doc_log" 2>&1 &
doc_pid=$!
# a failing audit must not leave the docs' build running
trap 'kill "$doc_pid" 2>/dev/null || true' EXIT

step "soundness: mutation audit of every circuit (small trees) and 2 x 100,000 malformed proofs"
# the binary `cargo test` just built for the CLI tests (test profile, opt-level 2; a dev-profile
# `cargo run` would be unoptimised and far slower)
"${CARGO_TARGET_DIR:-target}/debug/zkbench" audit --arity 2 --fuzz 100000
# Halo2's chips lay out wider arities differently (more lanes a row): audit them too
"${CARGO_TARGET_DIR:-target}/debug/zkbench" audit --system halo2-kzg --arity 4
"${CARGO_TARGET_DIR:-target}/debug/zkbench" audit --system halo2-kzg --arity 7
# the Keccak (EVM) transcript's verifier on malformed proofs (its circuits are halo2-kzg's folded
# 4 rows deep, ChipLayout::evm; the first audit above mutates them at arity 2)
"${CARGO_TARGET_DIR:-target}/debug/zkbench" audit --system halo2-kzg-keccak --arity 2 --circuit membership --hash poseidon2 --fuzz 20000
# the STARK's AIR (every trace cell) and its verifier on malformed proofs: a verification opens
# dozens of Merkle paths (tens of ms), so a few hundred here (about 20 s)
"${CARGO_TARGET_DIR:-target}/debug/zkbench" audit --system stark-babybear --fuzz 300

step "API docs: waiting for cargo doc (started before the audits)"
if ! wait "$doc_pid"; then
  cat "$doc_log" >&2
  echo "cargo doc failed (its output above)" >&2
  exit 1
fi
trap - EXIT
tail -n 3 "$doc_log"

step "cargo-fuzz targets compile (stable check; run them with: cd fuzz && cargo +nightly fuzz run <target>)"
# fuzz/Cargo.lock is kept in step with Cargo.lock; without --locked a workspace dependency
# added later updates it instead of failing the check. The workspace's target directory (and
# fuzz/Cargo.toml's copy of its dev profile): the dependencies `cargo doc` checked above are
# reused, not checked again into a second directory.
cargo check --manifest-path fuzz/Cargo.toml --bins --target-dir "${CARGO_TARGET_DIR:-$PWD/target}"

if [ "${ZKBENCH_TEST_PRUNE:-0}" = 1 ]; then
  # CI's disk (.ci/run sets this): nothing below uses the debug build (test binaries some 70 MB
  # each, the libraries they link), about 2 GB to free before the browser builds. Locally it is
  # kept: the next `cargo test` would build it again.
  step "delete the spent debug build (ZKBENCH_TEST_PRUNE=1)"
  rm -rf "${CARGO_TARGET_DIR:-target}/debug"
  df -h . | tail -1
fi

step "the zkbench-prover npm package and its example dapp in a headless browser (scripts/web-package.sh)"
# builds the browser module (provers, verifiers, hashes; single-threaded, stable, release), packs
# web/package with it (npm pack), installs the tarball into web/examples/membership, builds that
# with Vite, proves a membership typed into its form in headless Chromium (and Firefox ESR when
# installed) and checks the proof with snarkjs's groth16.verify (docs/browser.md). The threaded
# build (nightly, -Z build-std, ~10 min on 2 cores) and the benchmark page are built by
# scripts/build-web.sh (ZKBENCH_TEST_WEB=1 above runs it and the browser tests).
browsers=chromium
if command -v firefox-esr >/dev/null 2>&1; then browsers=chromium,firefox; fi
bash scripts/web-package.sh "$browsers"

step "wasm32 builds (zkbench-hash, zkbench-merkle on their own)"
# release, in the browser module's target directory: the dependencies it compiled are reused
cargo build --release --locked --target wasm32-unknown-unknown --target-dir target/wasm-st -p zkbench-hash --no-default-features --features std
cargo build --release --locked --target wasm32-unknown-unknown --target-dir target/wasm-st -p zkbench-merkle --no-default-features

step "all tests passed"
