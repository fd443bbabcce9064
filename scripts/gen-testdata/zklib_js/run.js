// Runs hanzeG/zklib_circom's own JavaScript reference permutations (the seed-003
// authors' code, NOT vendored here) on the inputs of the permutation and
// zklib_compress2 cases of testdata/{gmimc,neptune}.json and prints their outputs as
// JSON {family: {case_name: [outputs]}} on stdout.
//
// Usage (from the workspace root):
//   git clone https://github.com/hanzeG/zklib_circom /tmp/zklib_circom   # commit 91406afc
//   (cd scripts/gen-testdata/zklib_js && npm ci)
//   node scripts/gen-testdata/zklib_js/run.js /tmp/zklib_circom > /tmp/zklib_js_out.json
//   python3 scripts/gen-testdata/gmimc_neptune.py --zklib /tmp/zklib_circom --js-outputs /tmp/zklib_js_out.json
//
// Classes used: src/gmimc/gmimc.js (GMiMC.Permutation) and src/neptune/neptune.js
// (Neptune.Permutation), with the constants of test/gmimc_constants.js and
// test/neptune_constants.js (identical to circuits/*_constants.circom).
const path = require("path");
const fs = require("fs");
const { getCurveFromName, utils } = require("ffjavascript");

const zk = path.resolve(process.argv[2]);
const root = path.resolve(__dirname, "..", "..", "..");
const GMiMC = require(path.join(zk, "src/gmimc/gmimc.js"));
const Neptune = require(path.join(zk, "src/neptune/neptune.js"));
const gc = utils.unstringifyBigInts(require(path.join(zk, "test/gmimc_constants.js")));
const nc = utils.unstringifyBigInts(require(path.join(zk, "test/neptune_constants.js")));

(async () => {
  const F = (await getCurveFromName("bn128", true)).Fr;
  const perms = {
    gmimc: new GMiMC(F, { t: 3, rounds: 226, round_constants: gc.RC }),
    neptune: new Neptune(F, {
      t: 4, roundsF_beginning: 3, roundsF_end: 3, roundsP: 68,
      round_constants: nc.RC, ABC: nc.ABC, U: nc.U, E: nc.E,
    }),
  };
  const out = {};
  for (const fam of ["gmimc", "neptune"]) {
    const t = fam === "gmimc" ? 3 : 4;
    const cases = JSON.parse(fs.readFileSync(path.join(root, "testdata", fam + ".json"))).cases;
    out[fam] = {};
    for (const c of cases) {
      if (c.mode === "permutation") {
        out[fam][c.name] = perms[fam].Permutation(c.input.map(BigInt)).map(String);
      } else if (c.mode === "zklib_compress2") {
        const st = c.input.map(BigInt).concat(Array(t - 2).fill(0n));
        out[fam][c.name] = [String(perms[fam].Permutation(st)[0])];
      }
    }
  }
  console.log(JSON.stringify(out, null, 1));
  process.exit(0);
})();
