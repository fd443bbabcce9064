//! Native proving and verification: a statement witness to a trace and
//! public values, a STARK proof of them, and its check.

use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::Matrix;
use zkbench_statement::{
    CircuitKind, MembershipWitness, MerklePath, PublicInputs, SpendWitness, StatementConfig,
    TreeShape, Witness,
};

use crate::air::{AirKind, NoteAir, TraceInput, MIN_HEIGHT};
use crate::native::{
    domain_nullifier, ext_limbs, limbs_of, note_commitment, nullifier_hash, pack_digest,
    path_nodes, unpack_digest, Digest, TreeHash, Val, DIGEST, EXT_LIMBS,
};
use crate::params::{config, Config, SecurityLevel};
use crate::view::AirView;
use crate::StarkError;

/// A STARK proof (Plonky3's uni-STARK proof over [`Config`]).
pub type StarkProof = p3_uni_stark::Proof<Config>;

/// The AIR of a statement configuration: Poseidon2 family (the BabyBear
/// instance stands in for the BN254 one), binary tree, spend or membership.
pub fn air_for(cfg: &StatementConfig) -> Result<NoteAir, StarkError> {
    if cfg.family != zkbench_hash::HashFamily::Poseidon2 {
        return Err(StarkError::Config(format!(
            "the STARK proves the Poseidon2 statement (BabyBear Poseidon2, width 16 or 24); got family {}",
            cfg.family.name()
        )));
    }
    if !matches!(cfg.alpha, None | Some(7)) {
        return Err(StarkError::Config(format!(
            "BabyBear Poseidon2 has S-box x^7; alpha {:?} is not available",
            cfg.alpha
        )));
    }
    let kind = match cfg.circuit {
        CircuitKind::Spend => AirKind::Spend,
        CircuitKind::Membership => AirKind::Membership,
        CircuitKind::BatchRoot => {
            return Err(StarkError::Config(
                "the STARK proves spend and membership; batch-root has no AIR".into(),
            ))
        }
    };
    let shape = cfg.shape()?;
    NoteAir::with_arity(kind, cfg.arity, shape.height, MIN_HEIGHT).map_err(StarkError::Config)
}

/// A witness turned into its trace, with its public values (BabyBear, what
/// the AIR sees) and public inputs (`Fr`, what the trait's callers see).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The execution trace.
    pub trace: RowMajorMatrix<Val>,
    /// The AIR's public values.
    pub public_values: Vec<Val>,
    /// Spend: `[pack(root), pack(nullifier_hash), ext_data_hash]`;
    /// membership: `[pack(root)]`.
    pub public: PublicInputs,
}

/// A path's siblings as limbs (per level, in child order) and its position
/// digits.
fn path_limbs(
    path: &MerklePath,
    shape: &TreeShape,
) -> Result<(Vec<Vec<Digest>>, Vec<usize>), StarkError> {
    shape.check_siblings(&path.siblings)?;
    let digits = shape.position_digits(path.index)?;
    let siblings = path
        .siblings
        .iter()
        .map(|level| level.iter().map(limbs_of).collect())
        .collect();
    Ok((siblings, digits))
}

/// The trace, public values and public inputs of `witness` for `air`.
pub fn prepare(air: &NoteAir, witness: &Witness) -> Result<Prepared, StarkError> {
    let shape = TreeShape {
        arity: air.arity(),
        height: air.depth(),
    };
    let tree = air.tree_hash();
    let (input, nodes, public_values, public) = match (air.kind(), witness) {
        (AirKind::Spend, Witness::Spend(w)) => spend_input(tree, w, &shape)?,
        (AirKind::Membership, Witness::Membership(w)) => membership_input(tree, w, &shape)?,
        (kind, w) => {
            return Err(StarkError::Witness(format!(
                "a {:?} witness for the {kind:?} AIR",
                w.kind()
            )))
        }
    };
    let trace = air.trace(&input, &nodes);
    Ok(Prepared {
        trace,
        public_values,
        public,
    })
}

/// A trace's input, the path nodes entering each level, the public values
/// and the public inputs.
type Parts = (TraceInput, Vec<Digest>, Vec<Val>, PublicInputs);

fn spend_input(tree: TreeHash, w: &SpendWitness, shape: &TreeShape) -> Result<Parts, StarkError> {
    let (n, s) = (limbs_of(&w.nullifier), limbs_of(&w.secret));
    if s == domain_nullifier() {
        return Err(StarkError::Witness(
            "the secret must differ from DOMAIN_NULLIFIER".into(),
        ));
    }
    let (siblings, digits) = path_limbs(&w.path, shape)?;
    let leaf = note_commitment(tree, &n, &s);
    let (nodes, root) = path_nodes(tree, &leaf, &siblings, &digits);
    let nf = nullifier_hash(tree, &n);
    let ext = ext_limbs(&w.ext_data_hash);
    let mut pv = root.to_vec();
    pv.extend_from_slice(&nf);
    pv.extend_from_slice(&ext);
    let public = PublicInputs(vec![pack_digest(&root), pack_digest(&nf), w.ext_data_hash]);
    let input = TraceInput {
        note: Some((n, s)),
        leaf,
        siblings,
        digits,
        ext,
    };
    Ok((input, nodes, pv, public))
}

fn membership_input(
    tree: TreeHash,
    w: &MembershipWitness,
    shape: &TreeShape,
) -> Result<Parts, StarkError> {
    let (siblings, digits) = path_limbs(&w.path, shape)?;
    let leaf = limbs_of(&w.leaf);
    let (nodes, root) = path_nodes(tree, &leaf, &siblings, &digits);
    let input = TraceInput {
        note: None,
        leaf,
        siblings,
        digits,
        ext: [Val::default(); EXT_LIMBS],
    };
    let public = PublicInputs(vec![pack_digest(&root)]);
    Ok((input, nodes, root.to_vec(), public))
}

/// The AIR's public values for the trait's public inputs: `Ok(None)` when
/// they are of the right number but no encoding of this backend's values
/// (a root that is no packed digest), an error for a wrong number.
pub fn public_values(air: &NoteAir, public: &PublicInputs) -> Result<Option<Vec<Val>>, StarkError> {
    let want = match air.kind() {
        AirKind::Spend => 3,
        AirKind::Membership => 1,
    };
    if public.0.len() != want {
        return Err(StarkError::Witness(format!(
            "the {:?} statement has {want} public inputs; got {}",
            air.kind(),
            public.0.len()
        )));
    }
    let mut pv = Vec::with_capacity(2 * DIGEST + EXT_LIMBS);
    for x in public.0.iter().take(want.min(2)) {
        match unpack_digest(x) {
            Some(d) => pv.extend_from_slice(&d),
            None => return Ok(None),
        }
    }
    if air.kind() == AirKind::Spend {
        pv.extend_from_slice(&ext_limbs(&public.0[2]));
    }
    Ok(Some(pv))
}

/// Proves `prepared` with zero-knowledge randomness from `seed`, through the
/// view of `air` ([`AirView`]: its constraint degree and count
/// inferred once, not at every proof).
pub fn prove(
    level: SecurityLevel,
    air: &NoteAir,
    prepared: &Prepared,
    seed: u64,
) -> Result<StarkProof, StarkError> {
    let cfg = config(level, seed);
    let (trace, pv) = (prepared.trace.clone(), &prepared.public_values);
    // One job on a worker of a pool sized for the trace: Plonky3 opens a
    // parallel region per DFT, Merkle layer and quotient chunk, and each one
    // opened from outside the pool is handed to a worker and waited for (a
    // wake-up and a sleep each); from a worker they run in place. The trace
    // is small (128 rows), so those hand-offs were a quarter of the CPU time
    // at one thread (`perf`: the scheduler's functions, 25%).
    zkbench_msm::on_at_most(max_threads(trace.height()), move || {
        // The view's degree and count are the AIR's at its own height, the
        // only one `prepare` makes; any other trace is proved through the AIR.
        let proof = if trace.height() == air.height() {
            p3_uni_stark::prove(&cfg, &AirView::new(air), trace, pv)
        } else {
            p3_uni_stark::prove(&cfg, air, trace, pv)
        };
        proof.map_err(|e| StarkError::Prove(format!("{e:?}")))
    })
}

/// The most threads [`prove`] uses for a trace of `height` rows: one per
/// `zkbench_msm::ROWS_PER_THREAD` (four for the 2^36-leaf spend's 128 rows).
pub use zkbench_msm::threads_for_rows as max_threads;

pub use crate::verifier::verify;

/// The proof's bytes (postcard).
pub fn proof_to_bytes(proof: &StarkProof) -> Vec<u8> {
    postcard::to_allocvec(proof).unwrap_or_default()
}

/// A proof from [`proof_to_bytes`]' output; an error for anything else
/// (bytes that do not decode, or trailing bytes after a proof).
pub fn proof_from_bytes(bytes: &[u8]) -> Result<StarkProof, StarkError> {
    let (proof, rest) = postcard::take_from_bytes(bytes)
        .map_err(|e| StarkError::Decode(format!("not a STARK proof: {e}")))?;
    if !rest.is_empty() {
        return Err(StarkError::Decode(format!(
            "not a STARK proof: {} bytes after the proof",
            rest.len()
        )));
    }
    Ok(proof)
}
