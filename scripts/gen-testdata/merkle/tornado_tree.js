// Generates testdata/merkle_tornado.json: Tornado Cash Merkle roots and paths
// computed by the reference off-chain tree tornado-core's tests compare the
// contract against, fixed-merkle-tree@0.7.3 (npm), hashing with
// circomlibjs@0.1.7 MiMCSponge multiHash([left, right], key 0, 1 output)
// (= tornado-core MerkleTreeWithHistory.hashLeftRight) and the zero leaf
// keccak256("tornado") mod r (tornado-core ZERO_VALUE).
//
//   cd scripts/gen-testdata/merkle && npm install && node tornado_tree.js [out dir, default ../../../testdata]

const ZERO_VALUE = "21663839004416932945382355908790599225266501822907911457504978515578255421292";

async function main() {
  const fs = await import("fs");
  const path = await import("path");
  const circomlibjs = await import("circomlibjs");
  const fmt = await import("fixed-merkle-tree");
  const MerkleTree = fmt.MerkleTree || fmt.default.MerkleTree || fmt.default;
  const ver = (p) => JSON.parse(fs.readFileSync(path.resolve("node_modules", p, "package.json"), "utf8")).version;
  if (ver("circomlibjs") !== "0.1.7") throw new Error("expected circomlibjs 0.1.7");
  if (ver("fixed-merkle-tree") !== "0.7.3") throw new Error("expected fixed-merkle-tree 0.7.3");

  const sponge = await circomlibjs.buildMimcSponge();
  const F = sponge.F;
  const hashFunction = (l, r) => F.toString(sponge.multiHash([BigInt(l), BigInt(r)], 0, 1), 10);
  const src = "fixed-merkle-tree@0.7.3 (npm) MerkleTree(levels, leaves, {hashFunction: circomlibjs@0.1.7 " +
    "buildMimcSponge().multiHash([l, r], 0, 1), zeroElement: keccak256(\"tornado\") mod r}), " +
    "run by scripts/gen-testdata/merkle/tornado_tree.js";

  const cases = [];
  for (const [levels, n] of [[20, 0], [20, 1], [20, 2], [20, 3], [20, 12], [5, 32], [31, 5]]) {
    // Leaves 1..n, as in tornado-core test/MerkleTreeWithHistory.test.js "should insert".
    const leaves = Array.from({ length: n }, (_, i) => String(i + 1));
    const tree = new MerkleTree(levels, leaves, { hashFunction, zeroElement: ZERO_VALUE });
    const paths = [];
    for (const index of [0, 1, n - 1].filter((i, k, a) => i >= 0 && i < n && a.indexOf(i) === k)) {
      const p = tree.path(index);
      paths.push({
        index,
        path_elements: p.pathElements.map(String),
        path_indices: p.pathIndices.map(Number),
      });
    }
    cases.push({
      name: `tornado_levels${levels}_leaves${n}`,
      mode: "tree",
      arity: 2,
      levels,
      zero_value: ZERO_VALUE,
      leaves,
      root: String(tree.root),
      paths,
      source: src,
    });
  }
  const out = { family: "mimc-sponge", description: "Tornado Cash Merkle trees (MiMCSponge, binary)", cases };
  const outDir = path.resolve(process.argv[2] || "../../../testdata");
  fs.writeFileSync(path.join(outDir, "merkle_tornado.json"), JSON.stringify(out, null, 2) + "\n");
  console.log("wrote", cases.length, "cases");
}

main().catch((e) => { console.error(e); process.exit(1); });
