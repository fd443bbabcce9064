// Prints snarkjs's own Solidity Groth16 verifier for a verification_key.json, exactly as
// `snarkjs zkey export solidityverifier` renders it from a zkey (its template, rendered with ejs
// from the key). Used by crates/evm to measure snarkjs's verifier beside zkbench's.
// Usage: node export-verifier.mjs verification_key.json > verifier.sol
import { readFileSync } from "fs";
import ejs from "ejs";

const vk = JSON.parse(readFileSync(process.argv[2], "utf8"));
if (vk.protocol !== "groth16") {
  console.error(`protocol ${vk.protocol}: only groth16 keys are exported here`);
  process.exit(1);
}
const template = readFileSync(
  new URL("./node_modules/snarkjs/templates/verifier_groth16.sol.ejs", import.meta.url),
  "utf8",
);
process.stdout.write(ejs.render(template, vk));
