// Recomputes vk_alphabeta_12 = e(vk_alpha_1, vk_beta_2) of a snarkjs
// verification_key.json with ffjavascript (the library snarkjs uses) and
// prints "MATCH" if it equals the value stored in the file, "MISMATCH" otherwise.
// Usage: node alphabeta.mjs verification_key.json
import { readFileSync } from "fs";
import { buildBn128, utils } from "ffjavascript";

const vk = utils.unstringifyBigInts(JSON.parse(readFileSync(process.argv[2], "utf8")));
const curve = await buildBn128(true);
const a = curve.G1.fromObject(vk.vk_alpha_1);
const b = curve.G2.fromObject(vk.vk_beta_2);
const ab = curve.Gt.toObject(await curve.pairing(a, b));
const same = JSON.stringify(utils.stringifyBigInts(ab)) === JSON.stringify(utils.stringifyBigInts(vk.vk_alphabeta_12));
console.log(same ? "MATCH" : "MISMATCH");
await curve.terminate();
process.exit(same ? 0 : 1);
