#!/usr/bin/env bash
# Builds the Go peer runners as static binaries (no cgo, stripped) into target/peers/, where
# peers/go-peer.sh runs them instead of `go run`. Static, they can be copied with the release
# zkbench binary to a machine without Go (a 16-core box for `zkbench run scaling`):
#   bash scripts/build-peers.sh && cargo build --release -p zkbench
#   scp target/release/zkbench target/peers/* host:zkbench/ ...
#   ZKBENCH_PEERS_DIR=... zkbench run scaling
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/peers
for name in gnark gnark-crypto-msm; do
  (cd "peers/$name" && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "../../target/peers/$name" .)
  echo "target/peers/$name"
done
