//! The Halo2-KZG verifier on the EVM.
//!
//! The verifier is generated per verifying key by Axiom's `snark-verifier`
//! (0.2, made for halo2-axiom 0.5.3, the fork zkbench's halo2 backend uses):
//! `compile` turns the verifying key into a PLONK protocol description, the
//! `EvmLoader` runs the SHPLONK (BDFG21) verifier symbolically and emits it as
//! straight-line Yul over the precompiles (ecAdd 0x06, ecMul 0x07, ecPairing
//! 0x08, modexp 0x05). snark-verifier wraps it in a Solidity contract whose
//! `fallback` holds it as inline assembly; zkbench takes the assembly out and
//! emits a **Yul object** `Halo2Verifier` instead (no Solidity around it: the
//! runtime code is the verifier alone), passed through the size and gas passes
//! of [`crate::yul`] and compiled as Yul ([`compile_halo2`]). The call's
//! calldata is `instances ‖ proof` (each instance a 32-byte big-endian word,
//! then the Keccak-transcript proof, [`zkbench_halo2::Transcript::Keccak`]);
//! the verifier **reverts** on an invalid proof (success and no return data on
//! a valid one) — the convention of snark-verifier's and PSE's Halo2
//! verifiers; [`accepted`] reads it.
//!
//! Three checks are added to what snark-verifier emits (the generator itself
//! is not forked; the emitted source is patched at anchors this module checks
//! exist, with a test on the result):
//! * **every scalar read from calldata must be below r** — snark-verifier
//!   reduces public inputs and proof scalars mod r, which makes a public input
//!   `x + r` verify as `x` (a second nullifier hash for one note, in a pool);
//!   native verification rejects such encodings, and so does this verifier;
//! * **the calldata length is exact** — trailing bytes would make a second
//!   byte string verify as the same proof;
//! * **no value** (`callvalue()` is zero), as the Solidity `fallback` without
//!   `payable` required;
//! * **an invalid proof costs no more than a valid one**: snark-verifier
//!   checks every proof point (coordinates < p, on `y² = x³ + 3`) but only
//!   folds the result into a flag and goes on, so a flipped byte in a point
//!   reached an ecMul call that failed and consumed all the gas forwarded to
//!   it (`gas()`: the whole transaction's limit). A point that fails the
//!   check now reverts at once, and every ecAdd, ecMul and ecPairing call is
//!   given exactly its EIP-1108 price (150, 6,000, 45,000 + 34,000·k).
//!
//! The Solidity wrapper's check that the free-memory pointer is 0x80 goes with
//! the wrapper (a Yul object has no free-memory pointer; the verifier's memory
//! is snark-verifier's fixed layout from 0x80 up).

use std::{path::Path, rc::Rc};

use snark_verifier::{
    loader::evm::EvmLoader,
    pcs::kzg::{Bdfg21, KzgAs, KzgDecidingKey},
    system::halo2::{compile, transcript::evm::EvmTranscript, Config},
    verifier::{plonk::PlonkVerifier, SnarkVerifier},
};
use zkbench_halo2::{
    halo2_axiom::{
        halo2curves::bn256::{Bn256, Fq, Fr, G1Affine},
        poly::commitment::ParamsProver,
    },
    statement::PublicInputs,
    Halo2Circuit, Keys, ProofDir, Transcript,
};

use crate::EvmError;

/// The contract name of the generated Halo2 verifier.
pub const HALO2_CONTRACT: &str = "Halo2Verifier";

/// SHPLONK (BDFG21) over KZG, as the halo2 backend proves.
type Verifier = PlonkVerifier<KzgAs<Bn256, Bdfg21>>;

/// The scalar field modulus r of BN254, as the generated Yul spells it.
const R_HEX: &str = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

/// The Yul object `Halo2Verifier` of the verifier for `keys` and
/// `num_instance` public inputs, with the checks of the module documentation
/// (compile it with [`compile_halo2`]: standard JSON, language Yul, the
/// settings of [`crate::solc::settings_halo2`]).
pub fn halo2_verifier(keys: &Keys, num_instance: usize) -> Result<String, EvmError> {
    let params = &keys.params;
    let protocol = compile(
        params,
        keys.vk(),
        Config::kzg().with_num_instance(vec![num_instance]),
    );
    let dk: KzgDecidingKey<Bn256> = (params.get_g()[0], params.g2(), params.s_g2()).into();
    let loader = EvmLoader::new::<Fq, Fr>();
    let protocol = protocol.loaded(&loader);
    let mut transcript = EvmTranscript::<G1Affine, Rc<EvmLoader>, _, _>::new(&loader);
    let instances = transcript.load_instances(vec![num_instance]);
    let proof = Verifier::read_proof(&dk, &protocol, &instances, &mut transcript)
        .map_err(|e| EvmError::UnsupportedKey(format!("snark-verifier read_proof: {e:?}")))?;
    Verifier::verify(&dk, &protocol, &instances, &proof)
        .map_err(|e| EvmError::UnsupportedKey(format!("snark-verifier verify: {e:?}")))?;
    yul_object(&harden(&loader.solidity_code())?)
}

/// The patches of the module documentation, applied to snark-verifier's
/// output; an error if an anchor is missing (a snark-verifier change this
/// module has not seen).
fn harden(code: &str) -> Result<String, EvmError> {
    let missing = |what: &str| {
        EvmError::UnsupportedKey(format!(
            "snark-verifier's output changed: {what} not found; the range checks cannot be added"
        ))
    };
    // the calldata it reads: the largest offset loaded, plus one word
    let mut max_end = 0usize;
    let mut rest = code;
    while let Some(i) = rest.find("calldataload(0x") {
        let hex: String = rest[i + 15..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect();
        let off = usize::from_str_radix(&hex, 16).map_err(|_| missing("a calldata offset"))?;
        max_end = max_end.max(off + 32);
        rest = &rest[i + 15 + hex.len()..];
    }
    if max_end == 0 {
        return Err(missing("calldataload"));
    }
    let reduced = "mod(calldataload(";
    let n_scalars = code.matches(reduced).count();
    if n_scalars == 0 {
        return Err(missing("the scalar loads"));
    }
    let mut out = String::with_capacity(code.len() + 64 * n_scalars);
    let mut rest = code;
    // `mod(calldataload(X), f_q)` → `checked_scalar(calldataload(X))`
    while let Some(i) = rest.find(reduced) {
        out.push_str(&rest[..i]);
        let after = &rest[i + reduced.len()..];
        let close = after
            .find("), f_q)")
            .ok_or_else(|| missing("`), f_q)` after a scalar load"))?;
        out.push_str("checked_scalar(calldataload(");
        out.push_str(&after[..close]);
        out.push_str("))");
        rest = &after[close + "), f_q)".len()..];
    }
    out.push_str(rest);
    // a point that is not canonical or not on the curve: revert at once,
    // before any precompile call sees it
    let point = "success := and(validate_ec_point(x, y), success)";
    if !out.contains(point) {
        return Err(missing(point));
    }
    let out = out.replace(point, "if iszero(validate_ec_point(x, y)) { revert(0, 0) }");
    let anchor = "let success := true";
    if !out.contains(anchor) {
        return Err(missing(anchor));
    }
    let prelude = format!(
        "if iszero(eq(calldatasize(), {max_end:#x})) {{ revert(0, 0) }}
            function checked_scalar(v) -> w {{
                if iszero(lt(v, {R_HEX})) {{ revert(0, 0) }}
                w := v
            }}
            {anchor}"
    );
    Ok(out.replacen(anchor, &prelude, 1))
}

/// The assembly block of snark-verifier's Solidity wrapper as a Yul object:
/// creation code that deploys the constants contract (see
/// [`constants_to_data`]) and the runtime object, whose code is the block,
/// without the free-memory-pointer check, with a `callvalue()` check, through
/// [`crate::yul::inplace_msm`], [`crate::yul::optimize_body`],
/// [`priced_calls`] and [`valid_path_last`].
fn yul_object(sol: &str) -> Result<String, EvmError> {
    let body = crate::yul::inplace_msm(&assembly_block(sol)?)?;
    let (body, stats) = crate::yul::optimize_body(&body, 1)?;
    let body = valid_path_last(&priced_calls(&body)?)?;
    let (body, constants_init) = constants_to_data(&body, stats.constants_base)?;
    let mut code = String::with_capacity(body.len() + 1024);
    for line in body.lines() {
        code.push_str("            ");
        code.push_str(line);
        code.push('\n');
    }
    let init: String = constants_init.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!(
        "// SPDX-License-Identifier: MIT
// zkbench's Halo2-KZG (SHPLONK, Keccak transcript) verifier: snark-verifier's Yul, hardened
// (scalars below r, exact calldata length, no value, points checked before any precompile call,
// precompiles given only their price) and passed through zkbench-evm's Yul passes.
// Call: instances (32-byte words) || proof; returns nothing when valid, reverts otherwise.
// The verifying key's constants live in a data contract the constructor creates
// (code: 0x00 || 32-byte words); the runtime copies them to memory with one extcodecopy.
object \"{HALO2_CONTRACT}\" {{
    code {{
        datacopy(0, dataoffset(\"constants\"), datasize(\"constants\"))
        let constants := create(0, 0, datasize(\"constants\"))
        if iszero(constants) {{ revert(0, 0) }}
        datacopy(0, dataoffset(\"runtime\"), datasize(\"runtime\"))
        setimmutable(0, \"constants\", constants)
        return(0, datasize(\"runtime\"))
    }}
    object \"runtime\" {{
        code {{
{code}        }}
    }}
    data \"constants\" hex\"{init}\"
}}
"
    ))
}

/// The body of the `assembly ("memory-safe") { … }` block of snark-verifier's
/// Solidity, its free-memory-pointer check replaced by a `callvalue()` check.
fn assembly_block(sol: &str) -> Result<String, EvmError> {
    let missing = |what: &str| {
        EvmError::UnsupportedKey(format!(
            "snark-verifier's output changed: {what} not found; cannot make the Yul object"
        ))
    };
    let open = "assembly (\"memory-safe\") {";
    let start = sol.find(open).ok_or_else(|| missing(open))? + open.len();
    let mut depth = 1usize;
    let mut end = None;
    for (i, c) in sol[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(start + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let body = &sol[start..end.ok_or_else(|| missing("the end of the assembly block"))?];
    let layout = "// Enforce that Solidity memory layout is respected
            let data := mload(0x40)
            if iszero(eq(data, 0x80)) {
                revert(0, 0)
            }";
    if !body.contains(layout) {
        return Err(missing("the free-memory-pointer check"));
    }
    Ok(body.replacen(layout, "if callvalue() { revert(0, 0) }", 1))
}

/// The leading `mstore(SLOT, 0xHEX)` lines of `body` (every constant, at
/// consecutive words from `base`: [`crate::yul::optimize_body`] with
/// `min_uses` 1) replaced by one `extcodecopy` from the constants contract;
/// returns the body and that contract's creation code. The runtime code then
/// holds 4 bytes (`mload(SLOT)`) per use of a constant instead of 33, which
/// keeps the widest verifier far under EIP-170, for one cold account access
/// (2,600 gas) and 3 gas per word copied.
fn constants_to_data(body: &str, base: u64) -> Result<(String, Vec<u8>), EvmError> {
    let mut words: Vec<u8> = vec![0x00]; // STOP: a call to the contract does nothing
    let mut rest = body;
    while let Some(line) = rest.strip_prefix("mstore(") {
        let (stmt, tail) = line.split_once('\n').unwrap_or((line, ""));
        let Some((slot, value)) = stmt.strip_suffix(')').and_then(|x| x.split_once(", 0x")) else {
            break;
        };
        let want = base + 32 * ((words.len() as u64 - 1) / 32);
        if u64::from_str_radix(slot.trim_start_matches("0x"), 16).ok() != Some(want) {
            break;
        }
        let hex = format!("{value:0>64}");
        let bytes = (0..32)
            .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| EvmError::UnsupportedKey(format!("a constant 0x{value} is not hex")))?;
        words.extend_from_slice(&bytes);
        rest = tail;
    }
    let len = words.len();
    if len > 0xffff {
        return Err(EvmError::UnsupportedKey(format!(
            "{len} bytes of constants: more than one contract may hold"
        )));
    }
    // creation code: codecopy(0, 12, len) return(0, len), then the runtime
    let [hi, lo] = (len as u16).to_be_bytes();
    let mut init = vec![
        0x61, hi, lo, 0x60, 0x0c, 0x5f, 0x39, 0x61, hi, lo, 0x5f, 0xf3,
    ];
    init.extend_from_slice(&words);
    let copy = format!(
        "extcodecopy(loadimmutable(\"constants\"), {base:#x}, 1, {:#x})\n",
        len - 1
    );
    Ok((format!("{copy}{rest}"), init))
}

/// The end of the program, `if iszero(success) { revert(0, 0) } return(0, 0)`,
/// turned round (`if success { return(0, 0) } revert(0, 0)`): the path of a
/// rejected proof is then no longer than that of a valid one.
fn valid_path_last(body: &str) -> Result<String, EvmError> {
    let end = "if iszero(success) { revert(0, 0) }\nreturn(0, 0)\n";
    let Some(head) = body.strip_suffix(end) else {
        return Err(EvmError::UnsupportedKey(
            "snark-verifier's output changed: the final success check not found".into(),
        ));
    };
    Ok(format!(
        "{head}if success {{ return(0, 0) }}\nrevert(0, 0)\n"
    ))
}

/// Every ecAdd, ecMul and ecPairing call given exactly its EIP-1108 price
/// instead of `gas()` (a failing precompile call consumes all the gas it was
/// given). modexp (0x05) keeps `gas()`: its inputs (lengths 32, 32, 32) are
/// always valid, so it cannot fail, and its price changes between forks.
fn priced_calls(body: &str) -> Result<String, EvmError> {
    use crate::groth16::{ECADD_GAS, ECMUL_GAS, PAIRING_BASE_GAS, PAIRING_PER_PAIR_GAS};
    let call = "staticcall(gas(), ";
    let mut out = String::with_capacity(body.len() + 1024);
    let mut rest = body;
    while let Some(i) = rest.find(call) {
        out.push_str(&rest[..i]);
        let after = &rest[i + call.len()..];
        let args: Vec<&str> = after.splitn(4, ", ").take(3).collect();
        let gas = match args.first().copied() {
            Some("0x6") => ECADD_GAS,
            Some("0x7") => ECMUL_GAS,
            Some("0x8") => {
                let len = args
                    .get(2)
                    .and_then(|l| u64::from_str_radix(l.strip_prefix("0x")?, 16).ok())
                    .filter(|l| l % 192 == 0)
                    .ok_or_else(|| {
                        EvmError::UnsupportedKey(
                            "snark-verifier's output changed: an ecPairing call without a literal \
                             input length (a multiple of 192)"
                                .into(),
                        )
                    })?;
                PAIRING_BASE_GAS + PAIRING_PER_PAIR_GAS * (len / 192)
            }
            _ => {
                out.push_str(call);
                rest = after;
                continue;
            }
        };
        out.push_str(&format!("staticcall({gas}, "));
        rest = after;
    }
    out.push_str(rest);
    Ok(out)
}

/// Compiles a verifier of [`halo2_verifier`] (a Yul object; settings
/// [`crate::solc::settings_halo2`]).
pub fn compile_halo2(solc: &crate::Solc, source: &str) -> Result<crate::Compiled, EvmError> {
    solc.compile_yul(source, HALO2_CONTRACT, &crate::solc::settings_halo2())
}

/// The calldata of a Halo2 verifier call: the public inputs as 32-byte
/// big-endian words, then the Keccak-transcript proof.
pub fn halo2_calldata(public: &PublicInputs, proof: &[u8]) -> Vec<u8> {
    use ark_ff::{BigInteger, PrimeField};
    let mut out = Vec::with_capacity(32 * public.0.len() + proof.len());
    for x in &public.0 {
        out.extend_from_slice(&x.into_bigint().to_bytes_be());
    }
    out.extend_from_slice(proof);
    out
}

/// Whether a call to the generated verifier accepted (returned, did not
/// revert or halt).
pub fn accepted(out: &crate::CallOutcome) -> bool {
    matches!(out.status, crate::CallStatus::Returned(_))
}

/// A Halo2 proof directory (`zkbench prove --system halo2-kzg`) read back
/// with its keys (from the key cache `key_dir`, generated when absent).
pub struct Halo2Dir {
    /// The circuit, with the transcript the proof was made with.
    pub circuit: Halo2Circuit,
    /// Its keys.
    pub keys: Keys,
    /// The public inputs.
    pub public: PublicInputs,
    /// The proof bytes.
    pub proof: Vec<u8>,
}

impl Halo2Dir {
    /// Reads `dir` (`meta.json`, `public.json`, `proof.bin`) and loads the keys.
    pub fn read(dir: &Path, key_dir: &Path) -> Result<Self, EvmError> {
        let d = ProofDir::open(dir, key_dir)?;
        Ok(Self {
            circuit: d.circuit,
            keys: d.keys,
            public: d.out.public,
            proof: d.out.proof,
        })
    }

    /// The verifier's source (a Yul object).
    pub fn verifier(&self) -> Result<String, EvmError> {
        halo2_verifier(&self.keys, self.circuit.num_public_inputs())
    }

    /// The call's calldata; an error when the proof was not made with the
    /// Keccak transcript (the only one the EVM verifier reads).
    pub fn calldata(&self) -> Result<Vec<u8>, EvmError> {
        if self.circuit.transcript() != Transcript::Keccak {
            return Err(EvmError::UnsupportedKey(format!(
                "this proof uses the {} transcript; the EVM verifier reads Keccak-transcript proofs \
                 (zkbench prove --system halo2-kzg --transcript keccak)",
                self.circuit.transcript()
            )));
        }
        Ok(halo2_calldata(&self.public, &self.proof))
    }
}
