// Verifies many Groth16 proofs with snarkjs's own verifier (`groth16.verify`,
// the function behind `snarkjs groth16 verify`) in one process, for the
// randomized differential test crates/groth16/tests/snarkjs_differential.rs.
//
// Usage: node verify-batch.mjs cases.json
//   cases.json: {"vk": <verification_key.json>, "cases": [{"proof": <proof.json>, "public": <public.json>}, ...]}
// Prints one JSON array on stdout: for each case `true` (accepted), `false`
// (rejected) or a string "error: ..." (snarkjs threw: also a rejection).
import { readFileSync } from "fs";
import * as snarkjs from "snarkjs";

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
for (const c of input.cases) {
    try {
        out.push(await snarkjs.groth16.verify(input.vk, c.public, c.proof));
    } catch (e) {
        out.push(`error: ${String(e && e.message ? e.message : e).slice(0, 200)}`);
    }
}
console.log(JSON.stringify(out));
// ffjavascript keeps worker threads alive; the answer is printed, so leave.
process.exit(0);
