#!/usr/bin/env node
// WebAssembly side of crates/wasm/tests/interop.rs (run by Node with the wasm-bindgen
// `nodejs` build of zkbench-wasm):
//
//   node web/scripts/interop.mjs prove <pkg dir> <out dir>
//       Groth16 (Griffin spend, arity 7, 2^12 leaves) and Halo2-KZG (Poseidon2 a7 spend,
//       arity 7, 2^12 leaves): test setup, keys, a proof, written to <out dir>/<system>/:
//       keys.bin, proof.bin, public.json (decimals) and, for Groth16, snarkjs's
//       proof.json and verification_key.json.
//   node web/scripts/interop.mjs verify <pkg dir> <dir>
//       Verifies <dir>/verification_key.json, proof.json, public.json (snarkjs JSON,
//       e.g. a native proof) with zkbench-wasm's Groth16 verifier; prints true or false.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [cmd, pkgDir, dir] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const wasm = require(path.resolve(pkgDir, "zkbench_wasm.js"));
const read = (f) => fs.readFileSync(path.join(dir, f), "utf8");

if (cmd === "prove") {
  const cfgs = {
    groth16: { system: "groth16", hash: "griffin", arity: 7, leaves: 4096, circuit: "spend" },
    "halo2-kzg": { system: "halo2-kzg", hash: "poseidon2", alpha: 7, arity: 7, leaves: 4096, circuit: "spend" },
  };
  for (const [name, cfg] of Object.entries(cfgs)) {
    const out = path.join(dir, name);
    fs.mkdirSync(out, { recursive: true });
    const p = new wasm.Prover(JSON.stringify(cfg));
    p.setup(5);
    fs.writeFileSync(path.join(out, "keys.bin"), p.keysToBytes());
    p.witness(9);
    fs.writeFileSync(path.join(out, "proof.bin"), p.prove());
    if (!p.verify()) throw new Error(`${name}: the wasm proof does not verify in wasm`);
    fs.writeFileSync(path.join(out, "public.json"), p.publicInputsJson());
    fs.writeFileSync(path.join(out, "config.json"), JSON.stringify(cfg));
    if (name === "groth16") {
      const j = JSON.parse(p.snarkjsJson());
      fs.writeFileSync(path.join(out, "proof.json"), JSON.stringify(j.proof));
      fs.writeFileSync(path.join(out, "verification_key.json"), JSON.stringify(j.verification_key));
    }
    p.free();
  }
  console.log("ok");
} else if (cmd === "verify") {
  console.log(String(wasm.verifySnarkjs(read("verification_key.json"), read("proof.json"), read("public.json"))));
} else {
  console.error("usage: node web/scripts/interop.mjs prove|verify <pkg dir> <dir>");
  process.exit(2);
}
