#!/usr/bin/env bash
# Computes, with the seed-003 authors' own circom templates, the outputs of the
# permutation and zklib_compress2 cases of testdata/{gmimc,neptune}.json, as
# JSON {family: {case_name: [outputs]}} on stdout.
#
# Usage (from the workspace root; needs node + python3):
#   git clone https://github.com/hanzeG/zklib_circom /tmp/zklib_circom   # commit 91406afc
#   (cd scripts/gen-testdata/zklib_js && npm ci)
#   bash scripts/gen-testdata/zklib_js/circom_witness.sh /tmp/zklib_circom > /tmp/circom_out.json
#
# circom2 (circom 2.2.3 compiled to WASI) only sees the current directory, so the
# circuits and circomlib are copied into a scratch directory first. Main components:
# GMiMC(3,3) and Neptune(4,4) of circuits/gmimc.circom and circuits/neptune.circom,
# exactly as test/circuits/{gmimc,neptune}_test.circom. The witness is computed with
# `snarkjs wtns calculate`; witness[1..=t] are the outputs, witness[t+1..=2t] the inputs.
set -euo pipefail
ZK=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BIN="$HERE/node_modules/.bin"
W=$(mktemp -d)
mkdir -p "$W/circuits" "$W/node_modules" "$W/w"
cp "$ZK"/circuits/{utils,gmimc,gmimc_constants,neptune,neptune_constants}.circom "$W/circuits/"
cp -r "$HERE/node_modules/circomlib" "$W/node_modules/"
printf 'pragma circom 2.0.0;\ninclude "../circuits/gmimc.circom";\ncomponent main = GMiMC(3,3);\n' > "$W/w/gmimc_test.circom"
printf 'pragma circom 2.0.0;\ninclude "../circuits/neptune.circom";\ncomponent main = Neptune(4,4);\n' > "$W/w/neptune_test.circom"
cd "$W"
for fam in gmimc neptune; do
  "$BIN/circom2" "w/${fam}_test.circom" --wasm -o w >&2
done
python3 - "$ROOT" > w/list.txt <<'PY'
import json, sys
for fam in ("gmimc", "neptune"):
    for c in json.load(open("%s/testdata/%s.json" % (sys.argv[1], fam)))["cases"]:
        t = c["width"]
        if c["mode"] == "permutation":
            inp = c["input"]
        elif c["mode"] == "zklib_compress2":
            inp = c["input"] + ["0"] * (t - 2)
        else:
            continue
        print(fam, c["name"], t, c["mode"], json.dumps({"inputs": inp}).replace(" ", ""))
PY
while read -r fam name t mode inp; do
  echo "$inp" > w/in.json
  "$BIN/snarkjs" wtns calculate "w/${fam}_test_js/${fam}_test.wasm" w/in.json w/x.wtns >&2
  "$BIN/snarkjs" wtns export json w/x.wtns "w/$fam.$name.json" >&2
done < w/list.txt
python3 - <<'PY'
import json
out = {}
for line in open("w/list.txt"):
    fam, name, t, mode, inp = line.split()
    t = int(t)
    w = json.load(open("w/%s.%s.json" % (fam, name)))
    assert w[0] == "1" and w[1 + t:1 + 2 * t] == json.loads(inp)["inputs"]
    outs = w[1:1 + t]
    out.setdefault(fam, {})[name] = outs if mode == "permutation" else outs[:1]
print(json.dumps(out, indent=1))
PY
rm -rf "$W"
