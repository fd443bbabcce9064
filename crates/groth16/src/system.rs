//! [`Groth16`]: this crate as a [`ProofSystem`] (the trait the harness, the
//! CLI and the other front ends program against).

use std::path::{Path, PathBuf};

use ark_serialize::CanonicalSerialize;
use rand::RngCore;
use zkbench_core::{AuditReport, Metrics, ProofSystem};

use crate::api::{self, Assignment, Circuit, Keys, SpendConfig};
use crate::statement::{PublicInputs, Witness};
use crate::{keys, Groth16Error, Proof};

/// Groth16 on BN254 (arkworks) with the fixed-base-table prover of
/// [`crate::prover`]; keys from a circuit-specific **test setup**.
#[derive(Clone, Copy, Debug, Default)]
pub struct Groth16;

impl ProofSystem for Groth16 {
    type Circuit = Circuit;
    type Keys = Keys;
    type Witness = Assignment;
    type Proof = Proof;
    type Error = Groth16Error;

    fn name(&self) -> &'static str {
        "groth16"
    }

    fn description(&self) -> &'static str {
        "Groth16 on BN254 (ark-groth16 0.5); circuit-specific TEST setup with known toxic waste"
    }

    fn circuit(&self, cfg: &SpendConfig) -> Result<Circuit, Groth16Error> {
        Circuit::new(cfg)
    }

    fn circuit_metrics(&self, circuit: &Circuit) -> Result<Metrics, Groth16Error> {
        let c = circuit.num_constraints()?;
        Ok(Metrics::from([
            ("constraints".into(), c.constraints as f64),
            ("public_inputs".into(), c.public_inputs as f64),
            ("witness_variables".into(), c.witness_variables as f64),
            ("height".into(), circuit.shape().height as f64),
        ]))
    }

    fn setup(&self, circuit: &Circuit, seed: u64) -> Result<Keys, Groth16Error> {
        circuit.setup(seed)
    }

    fn is_test_setup(&self, keys: &Keys) -> bool {
        keys.test_setup
    }

    fn key_metrics(&self, keys: &Keys) -> Metrics {
        Metrics::from([
            ("pk_bytes".into(), keys.pk_size() as f64),
            ("vk_bytes".into(), keys.vk_size() as f64),
        ])
    }

    fn write_keys(
        &self,
        circuit: &Circuit,
        keys: &Keys,
        dir: &Path,
        seed: u64,
    ) -> Result<PathBuf, Groth16Error> {
        std::fs::create_dir_all(dir).map_err(|e| Groth16Error::io(dir, e))?;
        let path = circuit.key_path(dir, seed)?;
        keys.write(&path)?;
        Ok(path)
    }

    fn read_keys(&self, circuit: &Circuit, dir: &Path, seed: u64) -> Result<Keys, Groth16Error> {
        let path = circuit.key_path(dir, seed)?;
        if !path.exists() {
            return Err(Groth16Error::io(
                &path,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no cached proving key"),
            ));
        }
        Ok(circuit.load_or_setup(dir, seed)?.0)
    }

    fn witness(&self, circuit: &Circuit, witness: &Witness) -> Result<Assignment, Groth16Error> {
        circuit.witness(witness)
    }

    /// Reads the keys (proving key and prover cache, themselves read side
    /// by side) while the witness is generated, on the rayon pool.
    fn read_keys_and_witness(
        &self,
        circuit: &Circuit,
        dir: &Path,
        seed: u64,
        witness: &Witness,
    ) -> Result<(Keys, Assignment), Groth16Error> {
        let (keys, prepared) = crate::join(
            || self.read_keys(circuit, dir, seed),
            || circuit.witness(witness),
        );
        Ok((keys?, prepared?))
    }

    fn public_inputs(&self, _circuit: &Circuit, witness: &Assignment) -> PublicInputs {
        witness.public_inputs()
    }

    fn prove(
        &self,
        circuit: &Circuit,
        keys: &Keys,
        witness: &Assignment,
        mut rng: &mut dyn RngCore,
    ) -> Result<Proof, Groth16Error> {
        circuit.prove_assignment(keys, witness, &mut rng)
    }

    /// The fixed-base prover's parts ([`crate::prover::ProveTimings`]); no
    /// parts when the keys have no prover tables.
    fn prove_with_phases(
        &self,
        circuit: &Circuit,
        keys: &Keys,
        witness: &Assignment,
        mut rng: &mut dyn RngCore,
    ) -> Result<(Proof, zkbench_core::PhaseParts), Groth16Error> {
        let (proof, t) = circuit.prove_assignment_timed(keys, witness, &mut rng)?;
        let parts = if t == crate::prover::ProveTimings::default() {
            Vec::new()
        } else {
            t.parts().to_vec()
        };
        Ok((proof, parts))
    }

    fn verify(
        &self,
        _circuit: &Circuit,
        keys: &Keys,
        public: &PublicInputs,
        proof: &Proof,
    ) -> Result<bool, Groth16Error> {
        api::verify(&keys.pvk, public, proof)
    }

    fn proof_to_bytes(&self, proof: &Proof) -> Vec<u8> {
        keys::proof_to_bytes(proof)
    }

    fn proof_from_bytes(&self, bytes: &[u8]) -> Result<Proof, Groth16Error> {
        keys::proof_from_bytes(bytes)
    }

    /// Off-curve and identity G1 points for `A` and `C`, a point on the G2
    /// twist outside the prime-order subgroup for `B`, and `−A`.
    fn malformed_proofs(&self, proof: &Proof, rng: &mut dyn RngCore) -> Vec<(String, Vec<u8>)> {
        use ark_bn254::{Fq, Fq2, G1Affine, G2Affine};
        use ark_ec::AffineRepr;
        use ark_ff::UniformRand;
        let enc = |p: &Proof| self.proof_to_bytes(p);
        let mut out = Vec::new();
        // x with no point on the curve: the 32-byte encoding of A replaced by it
        let off_curve_x = loop {
            let x = Fq::rand(rng);
            if G1Affine::get_point_from_x_unchecked(x, false).is_none() {
                break x;
            }
        };
        let mut b = enc(proof);
        let mut x_bytes = Vec::new();
        off_curve_x
            .serialize_compressed(&mut x_bytes)
            .expect("writing to a Vec cannot fail");
        b[..31].copy_from_slice(&x_bytes[..31]);
        b[31] = (b[31] & 0xc0) | (x_bytes[31] & 0x3f);
        out.push(("g1-off-curve".into(), b));
        // B on the twist but not in the r-order subgroup
        let not_in_subgroup = loop {
            if let Some(p) =
                G2Affine::get_point_from_x_unchecked(Fq2::rand(rng), rng.next_u32() & 1 == 1)
            {
                if !p.is_in_correct_subgroup_assuming_on_curve() {
                    break p;
                }
            }
        };
        out.push((
            "g2-outside-subgroup".into(),
            enc(&Proof {
                b: not_in_subgroup,
                ..*proof
            }),
        ));
        out.push((
            "g1-identity".into(),
            enc(&Proof {
                a: G1Affine::zero(),
                c: G1Affine::zero(),
                ..*proof
            }),
        ));
        out.push((
            "g2-identity".into(),
            enc(&Proof {
                b: G2Affine::zero(),
                ..*proof
            }),
        ));
        out.push((
            "negated-a".into(),
            enc(&Proof {
                a: -proof.a,
                ..*proof
            }),
        ));
        out
    }

    fn audit(
        &self,
        circuit: &Circuit,
        witness: &Witness,
        rng: &mut dyn RngCore,
    ) -> Result<Option<AuditReport>, Groth16Error> {
        Ok(Some(crate::audit::mutation_audit(circuit, witness, rng)?))
    }
}
