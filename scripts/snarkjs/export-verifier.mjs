// Prints snarkjs's own Solidity Groth16 verifier for a verification_key.json, exactly as
// `snarkjs zkey export solidityverifier` renders it from a zkey (its template, rendered with ejs
// from the key). Used by crates/evm to measure snarkjs's verifier beside zkbench's.
// Usage: node export-verifier.mjs verification_key.json > verifier.sol
import { readFileSync } from "fs";
import { createRequire } from "module";
import path from "path";
import ejs from "ejs";

const require = createRequire(import.meta.url);
const snarkjsDir = path.dirname(require.resolve("snarkjs/package.json"));
const vk = JSON.parse(readFileSync(process.argv[2], "utf8"));
if (vk.protocol !== "groth16") {
  console.error(`protocol ${vk.protocol}: only groth16 keys are exported here`);
  process.exit(1);
}
const template = readFileSync(path.join(snarkjsDir, "templates", "verifier_groth16.sol.ejs"), "utf8");
process.stdout.write(ejs.render(template, vk));
