#!/bin/sh
# Runs one of the Go peer runners (peers/gnark, peers/gnark-crypto-msm) from the repository
# root: the prebuilt static binary target/peers/<name> when scripts/build-peers.sh made one
# (or $ZKBENCH_PEERS_DIR/<name>: runners copied to another machine with the zkbench binary),
# else `go run` from its source (needs Go; compiles on first use).
#   sh peers/go-peer.sh gnark --depth 32
set -eu
name=$1
shift
bin="${ZKBENCH_PEERS_DIR:-target/peers}/$name"
if [ -x "$bin" ]; then
  exec "$bin" "$@"
fi
exec go -C "peers/$name" run . "$@"
