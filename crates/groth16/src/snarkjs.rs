//! snarkjs-compatible JSON for Groth16 on BN254 ("bn128" in snarkjs).
//!
//! The shapes follow snarkjs 0.7 (`src/groth16_prove.js`,
//! `src/zkey_export_verificationkey.js`, written by `cli.js` with
//! `bfj.write(..., {space: 1})`):
//!
//! * `proof.json`: `{"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1],
//!   ["1", "0"]], "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bn128"}`;
//! * `public.json`: the public inputs as decimal strings;
//! * `verification_key.json`: `protocol`, `curve`, `nPublic`, `vk_alpha_1`,
//!   `vk_beta_2`, `vk_gamma_2`, `vk_delta_2`, `vk_alphabeta_12` (the pairing
//!   `e(α, β)` in F_p12 as `[[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]]`, each
//!   an `[a, b]` pair of F_p2), `IC` (γ-scaled input commitments, `nPublic + 1`).
//!
//! Field elements are decimal strings; G1 points are affine `[x, y, "1"]`
//! (the point at infinity is `["0", "1", "0"]`); G2 coordinates are
//! `[c0, c1]` with `c0` the real part. Both pairing-equation conventions match
//! (`e(A, B) = e(α, β) · e(Σ IC_i x_i, γ) · e(C, δ)`), so snarkjs verifies
//! arkworks proofs unchanged.

use ark_bn254::{Bn254, Fq, Fq12, Fq2, G1Affine, G2Affine};
use ark_ec::{pairing::Pairing, AffineRepr};
use ark_ff::{Field, PrimeField, Zero};
use ark_groth16::{Proof, VerifyingKey};
use serde_json::{json, Value};
use zkbench_hash::Fr;

use crate::statement::PublicInputs;
use crate::Groth16Error;

fn fq(x: &Fq) -> Value {
    Value::String(x.into_bigint().to_string())
}

fn fq2(x: &Fq2) -> Value {
    json!([fq(&x.c0), fq(&x.c1)])
}

/// A G1 point as snarkjs writes it.
pub fn g1_to_json(p: &G1Affine) -> Value {
    match p.xy() {
        Some((x, y)) => json!([fq(&x), fq(&y), "1"]),
        None => json!(["0", "1", "0"]),
    }
}

/// A G2 point as snarkjs writes it.
pub fn g2_to_json(p: &G2Affine) -> Value {
    match p.xy() {
        Some((x, y)) => json!([fq2(&x), fq2(&y), ["1", "0"]]),
        None => json!([["0", "0"], ["1", "0"], ["0", "0"]]),
    }
}

fn fq12_to_json(x: &Fq12) -> Value {
    json!([
        [fq2(&x.c0.c0), fq2(&x.c0.c1), fq2(&x.c0.c2)],
        [fq2(&x.c1.c0), fq2(&x.c1.c1), fq2(&x.c1.c2)]
    ])
}

/// `proof.json`.
pub fn proof_to_json(proof: &Proof<Bn254>) -> Value {
    json!({
        "pi_a": g1_to_json(&proof.a),
        "pi_b": g2_to_json(&proof.b),
        "pi_c": g1_to_json(&proof.c),
        "protocol": "groth16",
        "curve": "bn128",
    })
}

/// `public.json`.
pub fn public_to_json(public: &PublicInputs) -> Value {
    Value::Array(
        public
            .0
            .iter()
            .map(|x| Value::String(x.into_bigint().to_string()))
            .collect(),
    )
}

/// `verification_key.json`.
pub fn vk_to_json(vk: &VerifyingKey<Bn254>) -> Value {
    let alphabeta = Bn254::pairing(vk.alpha_g1, vk.beta_g2).0;
    json!({
        "protocol": "groth16",
        "curve": "bn128",
        "nPublic": vk.gamma_abc_g1.len() - 1,
        "vk_alpha_1": g1_to_json(&vk.alpha_g1),
        "vk_beta_2": g2_to_json(&vk.beta_g2),
        "vk_gamma_2": g2_to_json(&vk.gamma_g2),
        "vk_delta_2": g2_to_json(&vk.delta_g2),
        "vk_alphabeta_12": fq12_to_json(&alphabeta),
        "IC": vk.gamma_abc_g1.iter().map(g1_to_json).collect::<Vec<_>>(),
    })
}

/// Serialises JSON the way snarkjs does (one-space indentation).
pub fn to_snarkjs_string(v: &Value) -> String {
    use serde::Serialize;
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    v.serialize(&mut ser).expect("JSON values always serialise");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

// ---------------------------------------------------------------- parsing

fn dec<F: PrimeField>(v: &Value, what: &str) -> Result<F, Groth16Error> {
    let s = v
        .as_str()
        .ok_or_else(|| Groth16Error::decode(what, "expected a decimal string"))?;
    if s.is_empty() || s.len() > 80 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Groth16Error::decode(
            what,
            format!("{s:?} is not a decimal integer"),
        ));
    }
    let x = F::from_str(s)
        .map_err(|_| Groth16Error::decode(what, format!("{s:?} is not a field element")))?;
    if x.into_bigint().to_string() != s {
        return Err(Groth16Error::decode(
            what,
            format!("{s:?} is not a canonical field element (≥ modulus or leading zeros)"),
        ));
    }
    Ok(x)
}

fn arr<'a>(v: &'a Value, n: usize, what: &str) -> Result<&'a Vec<Value>, Groth16Error> {
    match v.as_array() {
        Some(a) if a.len() == n => Ok(a),
        _ => Err(Groth16Error::decode(
            what,
            format!("expected an array of {n}"),
        )),
    }
}

fn fq2_from(v: &Value, what: &str) -> Result<Fq2, Groth16Error> {
    let a = arr(v, 2, what)?;
    Ok(Fq2::new(dec(&a[0], what)?, dec(&a[1], what)?))
}

/// Parses and validates (on curve, in subgroup) a snarkjs G1 point.
pub fn g1_from_json(v: &Value, what: &str) -> Result<G1Affine, Groth16Error> {
    let a = arr(v, 3, what)?;
    let (x, y, z): (Fq, Fq, Fq) = (dec(&a[0], what)?, dec(&a[1], what)?, dec(&a[2], what)?);
    if z.is_zero() {
        return Ok(G1Affine::zero());
    }
    // Projective (Jacobian as ffjavascript uses) coordinates with z ≠ 1 are
    // normalised: x / z^2, y / z^3.
    let zi = z.inverse().expect("z ≠ 0");
    let (x, y) = if z == Fq::from(1u64) {
        (x, y)
    } else {
        (x * zi.square(), y * zi.square() * zi)
    };
    let p = G1Affine::new_unchecked(x, y);
    if !p.is_on_curve() || !p.is_in_correct_subgroup_assuming_on_curve() {
        return Err(Groth16Error::decode(
            what,
            "point is not on the BN254 G1 curve",
        ));
    }
    Ok(p)
}

/// Parses and validates a snarkjs G2 point.
pub fn g2_from_json(v: &Value, what: &str) -> Result<G2Affine, Groth16Error> {
    let a = arr(v, 3, what)?;
    let (x, y, z) = (
        fq2_from(&a[0], what)?,
        fq2_from(&a[1], what)?,
        fq2_from(&a[2], what)?,
    );
    if z.is_zero() {
        return Ok(G2Affine::zero());
    }
    let zi = z.inverse().expect("z ≠ 0");
    let (x, y) = if z == Fq2::from(1u64) {
        (x, y)
    } else {
        (x * zi.square(), y * zi.square() * zi)
    };
    let p = G2Affine::new_unchecked(x, y);
    if !p.is_on_curve() || !p.is_in_correct_subgroup_assuming_on_curve() {
        return Err(Groth16Error::decode(
            what,
            "point is not on the BN254 G2 twist or not in the subgroup",
        ));
    }
    Ok(p)
}

fn check_tags(v: &Value, what: &str) -> Result<(), Groth16Error> {
    if let Some(p) = v.get("protocol") {
        if p != "groth16" {
            return Err(Groth16Error::decode(
                what,
                format!("protocol {p}, expected \"groth16\""),
            ));
        }
    }
    if let Some(c) = v.get("curve") {
        if c != "bn128" && c != "bn254" {
            return Err(Groth16Error::decode(
                what,
                format!("curve {c}, expected \"bn128\""),
            ));
        }
    }
    Ok(())
}

fn field<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a Value, Groth16Error> {
    v.get(key)
        .ok_or_else(|| Groth16Error::decode(what, format!("missing \"{key}\"")))
}

/// Parses `proof.json`.
pub fn proof_from_json(v: &Value) -> Result<Proof<Bn254>, Groth16Error> {
    let what = "proof.json";
    check_tags(v, what)?;
    Ok(Proof {
        a: g1_from_json(field(v, "pi_a", what)?, "proof.json pi_a")?,
        b: g2_from_json(field(v, "pi_b", what)?, "proof.json pi_b")?,
        c: g1_from_json(field(v, "pi_c", what)?, "proof.json pi_c")?,
    })
}

/// Parses `public.json` (decimal strings below r).
pub fn public_from_json(v: &Value) -> Result<PublicInputs, Groth16Error> {
    let what = "public.json";
    let a = v
        .as_array()
        .ok_or_else(|| Groth16Error::decode(what, "expected an array"))?;
    Ok(PublicInputs(
        a.iter()
            .map(|x| dec::<Fr>(x, what))
            .collect::<Result<_, _>>()?,
    ))
}

/// Parses `verification_key.json` (`vk_alphabeta_12` is ignored: it is
/// recomputed from α and β).
pub fn vk_from_json(v: &Value) -> Result<VerifyingKey<Bn254>, Groth16Error> {
    let what = "verification_key.json";
    check_tags(v, what)?;
    let ic = field(v, "IC", what)?
        .as_array()
        .ok_or_else(|| Groth16Error::decode(what, "IC is not an array"))?;
    if let Some(n) = v.get("nPublic") {
        if n.as_u64() != ic.len().checked_sub(1).map(|k| k as u64) {
            return Err(Groth16Error::decode(
                what,
                format!("nPublic {n} does not match {} IC points", ic.len()),
            ));
        }
    }
    if ic.is_empty() {
        return Err(Groth16Error::decode(what, "IC is empty"));
    }
    Ok(VerifyingKey {
        alpha_g1: g1_from_json(field(v, "vk_alpha_1", what)?, "vk_alpha_1")?,
        beta_g2: g2_from_json(field(v, "vk_beta_2", what)?, "vk_beta_2")?,
        gamma_g2: g2_from_json(field(v, "vk_gamma_2", what)?, "vk_gamma_2")?,
        delta_g2: g2_from_json(field(v, "vk_delta_2", what)?, "vk_delta_2")?,
        gamma_abc_g1: ic
            .iter()
            .map(|p| g1_from_json(p, "IC"))
            .collect::<Result<_, _>>()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key with no IC points is refused with an error, whatever its
    /// `nPublic` says (never an arithmetic overflow on the empty list).
    #[test]
    fn vk_without_ic_points_is_an_error() {
        let vk = VerifyingKey::<Bn254> {
            gamma_abc_g1: vec![G1Affine::generator()],
            ..Default::default()
        };
        let good = vk_to_json(&vk);
        assert_eq!(vk_from_json(&good).unwrap(), vk);
        for n_public in [json!(0), json!(u64::MAX), Value::Null] {
            let mut v = good.clone();
            v["IC"] = json!([]);
            if n_public.is_null() {
                v.as_object_mut().unwrap().remove("nPublic");
            } else {
                v["nPublic"] = n_public;
            }
            let err = vk_from_json(&v).unwrap_err().to_string();
            assert!(err.contains("IC"), "{err}");
        }
    }
}
