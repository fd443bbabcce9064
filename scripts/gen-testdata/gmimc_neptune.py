#!/usr/bin/env python3
"""Independent re-implementation of GMiMC-erf (t=3, 226 rounds, x^5) and Neptune
(t=4, 6 full + 68 partial rounds) over the BN254 scalar field, written from the
specifications (GMiMC: eprint 2019/397; Neptune: eprint 2021/1695) with plain Python
integers. It is NOT derived from the Rust code in crates/hash; it serves as a
second implementation whose outputs the Rust KAT tests must reproduce.

Constants: the seed-003 constants published by hanzeG/zklib_circom
(circuits/gmimc_constants.circom GMIMC_RC(3), circuits/neptune_constants.circom
NEPTUNE_RC/NEPTUNE_U/NEPTUNE_ABC(4), commit 91406afc3872620fda7e9e1cfe2681920d5001e4).
They are read out of a zklib_circom checkout when --zklib DIR is given, otherwise
from the verbatim copies (data arrays) in crates/hash/src/{gmimc,neptune}.rs; when
both are available the script asserts that they agree.

Usage (from the workspace root):
    python3 scripts/gen-testdata/gmimc_neptune.py [--zklib PATH/TO/zklib_circom] [--check]
        [--confirm js=JS_OUT.json] [--confirm circom=CIRCOM_OUT.json]
writes testdata/gmimc.json and testdata/neptune.json (or, with --check, compares
the computed outputs to the files and exits non-zero on any difference).
Regeneration as committed: run once without --confirm (to create the inputs), then
scripts/gen-testdata/zklib_js/run.js and circom_witness.sh (see their headers), then
again with both --confirm files: the permutation and zklib_compress2 cases then cite
the seed authors' JS reference and circom circuits, which must agree with this script.
The "node" (sponge Merkle node) cases have no external reference: the sponge is
zkbench's own construction over the permutation.
"""
import argparse
import json
import os
import re
import sys

P = 21888242871839275222246405745257275088548364400416034343698204186575808495617
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = "scripts/gen-testdata/gmimc_neptune.py"


# ---------------------------------------------------------------- constants
def rust_array(path, name):
    src = open(path).read()
    m = re.search(r"const " + name + r": \[&str; (\d+)\] = \[(.*?)\];", src, re.S)
    vals = [int(x) for x in re.findall(r'"(\d+)"', m.group(2))]
    assert len(vals) == int(m.group(1))
    return vals


def rust_str(path, name):
    src = open(path).read()
    return int(re.search(r"const " + name + r':\s*&str\s*=\s*"(\d+)";', src).group(1))


def circom_fn(text, name, t):
    s = text[text.index("function " + name + "(t)"):]
    s = s[s.index("if (t == %d)" % t):]
    body = s[s.index("return ") + 7:s.index(";")]
    return [int(x) for x in re.findall(r"\d+", body)]


def load_constants(zklib):
    g_rs = os.path.join(ROOT, "crates/hash/src/gmimc.rs")
    n_rs = os.path.join(ROOT, "crates/hash/src/neptune.rs")
    c = {
        "gmimc_rc": rust_array(g_rs, "GMIMC_T3_ROUND_CONSTANTS"),
        "neptune_rc": rust_array(n_rs, "NEPTUNE_T4_ROUND_CONSTANTS"),
        "neptune_u": rust_array(n_rs, "NEPTUNE_T4_INTERNAL_DIAGONAL"),
        "neptune_gamma": rust_str(n_rs, "NEPTUNE_T4_GAMMA"),
    }
    if zklib:
        g = open(os.path.join(zklib, "circuits/gmimc_constants.circom")).read()
        n = open(os.path.join(zklib, "circuits/neptune_constants.circom")).read()
        z = {
            "gmimc_rc": circom_fn(g, "GMIMC_RC", 3),
            "neptune_rc": circom_fn(n, "NEPTUNE_RC", 4),
            "neptune_u": circom_fn(n, "NEPTUNE_U", 4),
            "neptune_gamma": circom_fn(n, "NEPTUNE_ABC", 4)[2],
        }
        assert circom_fn(n, "NEPTUNE_ABC", 4)[:2] == [1, 1]
        assert circom_fn(n, "NEPTUNE_E", 4) == [2, 0, 1, 0, 0, 1, 0, 2, 1, 0, 2, 0, 0, 2, 0, 1]
        for k in c:
            assert c[k] == z[k], "constants %s differ from the zklib_circom checkout" % k
        print("constants match the zklib_circom checkout", file=sys.stderr)
    assert len(c["gmimc_rc"]) == 226 and len(c["neptune_rc"]) == 74 * 4
    return c


# ---------------------------------------------------------------- GMiMC-erf
def gmimc_erf(state, rc):
    """Unbalanced Feistel, expanding round function: per round
    F = (x_0 + c_r)^5 is added to every other word; then the words are
    rotated right by one, except after the last round."""
    x = [v % P for v in state]
    t = len(x)
    for r, c in enumerate(rc):
        f = pow((x[0] + c) % P, 5, P)
        x = [x[0]] + [(x[i] + f) % P for i in range(1, t)]
        if r < len(rc) - 1:
            x = [x[-1]] + x[:-1]
    return x


# ---------------------------------------------------------------- Neptune
ME4 = [[2, 0, 1, 0], [0, 1, 0, 2], [1, 0, 2, 0], [0, 2, 0, 1]]


def matvec(m, v):
    return [sum(a * b for a, b in zip(row, v)) % P for row in m]


def neptune_sprime(x1, x2, gamma, alpha=1, beta=1):
    # Neptune external S-box S'(x1, x2) with z = x1 - x2 (paper, alpha = beta = 1):
    # y1 = 2x1 + x2 + 3*alpha*z^2 + (x1 - 2x2 - beta*z^2 + gamma)^2
    # y2 = x1 + 3x2 + 4*alpha*z^2 + (x1 - 2x2 - beta*z^2 + gamma)^2
    z2 = (x1 - x2) ** 2
    q = (alpha * (x1 - x2) - x2 - beta * z2 + gamma) ** 2
    y1 = 2 * x1 + x2 + 3 * alpha * z2 + q
    y2 = x1 + 3 * x2 + 4 * alpha * z2 + q
    return y1 % P, y2 % P


def neptune(state, rc, u, gamma, rounds_full=6, rounds_partial=68):
    t = len(state)
    mi = [[(1 + (u[i] if i == j else 0)) % P for j in range(t)] for i in range(t)]
    x = matvec(ME4, [v % P for v in state])
    half = rounds_full // 2
    for r in range(rounds_full + rounds_partial):
        k = rc[r * t:(r + 1) * t]
        if r < half or r >= half + rounds_partial:
            y = []
            for i in range(t // 2):
                y.extend(neptune_sprime(x[2 * i], x[2 * i + 1], gamma))
            x = matvec(ME4, y)
        else:
            x = matvec(mi, [pow(x[0], 5, P)] + x[1:])
        x = [(a + b) % P for a, b in zip(x, k)]
    return x


# ---------------------------------------------------------------- sponge node hash
def sponge(perm, t, inputs):
    """crates/hash sponge: capacity 1 at index 0 (iv 0), rate t-1 absorbed by addition,
    one permutation per chunk, output state[0]."""
    s = [0] * t
    for i in range(0, len(inputs), t - 1):
        chunk = inputs[i:i + t - 1]
        for j, v in enumerate(chunk):
            s[1 + j] = (s[1 + j] + v) % P
        s = perm(s)
    return s[0]


# ---------------------------------------------------------------- cases
def dec(xs):
    return [str(v) for v in xs]


def build(c):
    gperm = lambda s: gmimc_erf(s, c["gmimc_rc"])
    nperm = lambda s: neptune(s, c["neptune_rc"], c["neptune_u"], c["neptune_gamma"])
    src_perm = ("%s (independent Python re-implementation from the papers, constants of "
                "hanzeG/zklib_circom @91406afc; self-generated: no published output vector "
                "exists for these constants)" % SCRIPT)
    zk_g_in = [21155829957722357464390155308839862997858020023166902334429567144095139153087,
               10712979148478103124883713801454257711869590356686325834712887222913173040627,
               16103916301700800472539073060664555415890331015680925551197759284562399937798]
    zk_n_in = [18760637753128112318735283812312404680033976627771379502001831522413105500534,
               876601669562826214509668860197953608048826865027005593420954541703925559393,
               13875711461188939787036568869127908802397891188529784132980608231047511788211,
               954735858296744895287169959207944447565690197469663798379217241921380187598]
    out = {}
    for fam, perm, t, zin in (("gmimc", gperm, 3, zk_g_in), ("neptune", nperm, 4, zk_n_in)):
        cases = []
        perm_inputs = [("zeros", [0] * t), ("one_to_t", list(range(1, t + 1))),
                       ("zero_to_t_minus_1", list(range(t))), ("minus_one", [P - 1] * t),
                       ("zklib_test_input", zin)]
        for name, inp in perm_inputs:
            cases.append({"name": "perm_t%d_%s" % (t, name), "mode": "permutation", "width": t,
                          "alpha": 5, "input": dec(inp), "output": dec(perm(inp)),
                          "source": src_perm})
        for arity in (2, 3, 4, 8, 16):
            inp = list(range(1, arity + 1))
            cases.append({"name": "node_arity%d_1_to_%d" % (arity, arity), "mode": "node",
                          "width": t, "alpha": 5, "arity": arity, "input": dec(inp),
                          "output": [str(sponge(perm, t, inp))],
                          "source": src_perm + "; SpongeNodeHasher: perm([0, rate chunk...])[0] "
                                               "chained, capacity 1 at index 0"})
        for name, (l, r) in (("1_2", (1, 2)), ("0_0", (0, 0))):
            st = [l, r] + [0] * (t - 2)
            cases.append({"name": "zklib_compress2_%s" % name, "mode": "zklib_compress2",
                          "width": t, "alpha": 5, "input": dec([l, r]),
                          "output": [str(perm(st)[0])],
                          "source": src_perm + "; node shape perm([l, r, 0..])[0] of "
                                               "bench/circuits/%s_merkle_tree.circom" % fam})
        out[fam] = {"family": fam, "cases": cases}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zklib", help="path to a hanzeG/zklib_circom checkout (cross-check constants)")
    ap.add_argument("--check", action="store_true", help="compare against testdata/ instead of writing")
    ap.add_argument("--confirm", action="append", default=[], metavar="LABEL=FILE",
                    help="outputs {family: {case: output}} of a reference run; LABEL is 'js' "
                         "(zklib_js/run.js) or 'circom' (zklib_js/circom_witness.sh); every "
                         "case found there must be equal and then cites that reference")
    a = ap.parse_args()
    c = load_constants(a.zklib)
    data = build(c)
    labels = {
        "js": "hanzeG/zklib_circom @91406afc src/{fam}/{fam}.js ({cls}.Permutation, the seed "
              "authors' own JS reference, constants test/{fam}_constants.js) run with node 20 + "
              "ffjavascript@0.3.0 (scripts/gen-testdata/zklib_js/run.js)",
        "circom": "hanzeG/zklib_circom @91406afc circuits/{fam}.circom ({cls}(t,t) main, as "
                  "test/circuits/{fam}_test.circom) compiled with npm circom2@0.2.23 (circom 2.2.3), "
                  "witness by snarkjs@0.7.6 wtns calculate "
                  "(scripts/gen-testdata/zklib_js/circom_witness.sh)",
    }
    confirmed = {}
    for spec in a.confirm:
        label, path = spec.split("=", 1)
        other = json.load(open(path))
        for fam, d in data.items():
            for case in d["cases"]:
                if case["name"] in other.get(fam, {}):
                    assert other[fam][case["name"]] == case["output"], (label, fam, case["name"])
                    confirmed.setdefault((fam, case["name"]), []).append(label)
    for fam, d in data.items():
        cls = "GMiMC" if fam == "gmimc" else "Neptune"
        for case in d["cases"]:
            got = confirmed.get((fam, case["name"]))
            if got:
                case["source"] = "; ".join(
                    [labels[l].format(fam=fam, cls=cls) for l in got]
                    + ["equal to %s (independent Python from the papers)" % SCRIPT])
    bad = 0
    for fam, d in data.items():
        path = os.path.join(ROOT, "testdata", fam + ".json")
        if a.check:
            old = json.load(open(path))
            mine = {x["name"]: x["output"] for x in d["cases"]}
            for case in old["cases"]:
                if case["name"] in mine and mine[case["name"]] != case["output"]:
                    print("MISMATCH", fam, case["name"], file=sys.stderr)
                    bad += 1
        else:
            with open(path, "w") as f:
                json.dump(d, f, indent=1)
                f.write("\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
