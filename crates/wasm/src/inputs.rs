//! A proof's inputs as a dapp gives them: JSON with decimal strings (or
//! small numbers), the way snarkjs takes `input.json`, turned into a
//! statement [`Witness`]; and the Merkle path of a leaf in a tree of given
//! leaves, so that a page can prove membership from a list of members.
//!
//! The statements are zkbench's (`zkbench-statement`): a note spend
//! (Tornado Cash's, Pertsev–Semenov–Storm 2019), membership in an `A`-ary
//! Merkle tree (Merkle 1987), and a batch root.
//!
//! | circuit | fields |
//! |---|---|
//! | `membership` | `leaf`, `index`, `siblings` |
//! | `spend` | `nullifier`, `secret`, `index`, `siblings`, `extDataHash` |
//! | `batch-root` | `leaves` (all `A^d` of them) |
//!
//! `siblings` lists the tree's levels bottom-up, each level's `A − 1`
//! siblings in child order; for a binary tree a level may be one value
//! instead of a one-element array.

use ark_ff::PrimeField;
use serde_json::{Map, Value};
use zkbench_hash::Fr;
use zkbench_statement::{
    BatchWitness, CircuitKind, MembershipWitness, MerklePath, NativeHashes, SpendWitness,
    TreeShape, Witness,
};

use crate::session::fr_to_decimal;
use crate::WasmError;

fn bad(msg: impl Into<String>) -> WasmError {
    WasmError::Config(msg.into())
}

/// A field element from a JSON string (decimal, or hexadecimal with `0x`) or
/// a non-negative integer; `what` names it in the error.
pub fn field(what: &str, v: &Value) -> Result<Fr, WasmError> {
    let modulus = num_bigint::BigUint::from(Fr::MODULUS);
    let n: Option<num_bigint::BigUint> = match v {
        Value::String(s) => match s.trim().strip_prefix("0x") {
            Some(hex) => num_bigint::BigUint::parse_bytes(hex.as_bytes(), 16),
            None => s.trim().parse().ok(),
        },
        Value::Number(n) => n.as_u64().map(Into::into),
        _ => None,
    };
    let n = n.ok_or_else(|| {
        bad(format!(
            "{what}: {v} is not a field element (a decimal string, a 0x-hex string or a non-negative integer)"
        ))
    })?;
    if n >= modulus {
        return Err(bad(format!("{what} is not below the BN254 scalar modulus")));
    }
    Ok(Fr::from(n))
}

fn get<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    circuit: CircuitKind,
) -> Result<&'a Value, WasmError> {
    obj.get(key)
        .ok_or_else(|| bad(format!("inputs of a {} proof need `{key}`", circuit.name())))
}

fn index(v: &Value, shape: &TreeShape) -> Result<u64, WasmError> {
    let i = match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| bad(format!("index: {v} is not a non-negative integer")))?;
    if u128::from(i) >= shape.capacity() {
        return Err(bad(format!(
            "index {i} is outside the tree ({} leaves)",
            shape.capacity()
        )));
    }
    Ok(i)
}

fn siblings(v: &Value, shape: &TreeShape) -> Result<Vec<Vec<Fr>>, WasmError> {
    let levels = v
        .as_array()
        .ok_or_else(|| bad("siblings: expected an array of the tree's levels, bottom-up"))?;
    if levels.len() != shape.height {
        return Err(bad(format!(
            "siblings: a tree of {} levels needs {} levels of siblings; got {}",
            shape.height,
            shape.height,
            levels.len()
        )));
    }
    let per = shape.arity - 1;
    levels
        .iter()
        .enumerate()
        .map(|(l, level)| {
            let values: Vec<&Value> = match level {
                Value::Array(a) => a.iter().collect(),
                one if per == 1 => vec![one],
                _ => {
                    return Err(bad(format!(
                        "siblings[{l}]: expected an array of {per} values"
                    )))
                }
            };
            if values.len() != per {
                return Err(bad(format!(
                    "siblings[{l}]: arity {} has {per} siblings a level; got {}",
                    shape.arity,
                    values.len()
                )));
            }
            values
                .iter()
                .enumerate()
                .map(|(j, s)| field(&format!("siblings[{l}][{j}]"), s))
                .collect()
        })
        .collect()
}

fn path(
    obj: &Map<String, Value>,
    kind: CircuitKind,
    shape: &TreeShape,
) -> Result<MerklePath, WasmError> {
    Ok(MerklePath {
        index: index(get(obj, "index", kind)?, shape)?,
        siblings: siblings(get(obj, "siblings", kind)?, shape)?,
    })
}

/// The witness of a `kind` circuit of `shape` from `inputs` (the table in the
/// module docs); an error names the missing, unknown or malformed field.
pub fn witness(kind: CircuitKind, shape: &TreeShape, inputs: &Value) -> Result<Witness, WasmError> {
    let obj = inputs
        .as_object()
        .ok_or_else(|| bad("inputs: expected a JSON object"))?;
    let known: &[&str] = match kind {
        CircuitKind::Membership => &["leaf", "index", "siblings"],
        CircuitKind::Spend => &["nullifier", "secret", "index", "siblings", "extDataHash"],
        CircuitKind::BatchRoot => &["leaves"],
    };
    if let Some(k) = obj.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(bad(format!(
            "inputs of a {} proof: unknown field `{k}`; accepted: {}",
            kind.name(),
            known.join(", ")
        )));
    }
    Ok(match kind {
        CircuitKind::Membership => Witness::Membership(MembershipWitness {
            leaf: field("leaf", get(obj, "leaf", kind)?)?,
            path: path(obj, kind, shape)?,
        }),
        CircuitKind::Spend => Witness::Spend(SpendWitness {
            nullifier: field("nullifier", get(obj, "nullifier", kind)?)?,
            secret: field("secret", get(obj, "secret", kind)?)?,
            path: path(obj, kind, shape)?,
            ext_data_hash: field("extDataHash", get(obj, "extDataHash", kind)?)?,
        }),
        CircuitKind::BatchRoot => {
            let leaves = get(obj, "leaves", kind)?
                .as_array()
                .ok_or_else(|| bad("leaves: expected an array"))?;
            if leaves.len() as u128 != shape.capacity() {
                return Err(bad(format!(
                    "leaves: a batch of this tree has {} leaves; got {}",
                    shape.capacity(),
                    leaves.len()
                )));
            }
            Witness::BatchRoot(BatchWitness {
                leaves: leaves
                    .iter()
                    .enumerate()
                    .map(|(i, v)| field(&format!("leaves[{i}]"), v))
                    .collect::<Result<_, _>>()?,
            })
        }
    })
}

/// The levels of a tree of `shape` whose first leaves are `leaves` and the
/// rest zero, bottom-up, each cut after its last non-empty node; and, per
/// level, the node of an empty subtree.
fn levels(hashes: &NativeHashes, shape: &TreeShape, leaves: Vec<Fr>) -> (Vec<Vec<Fr>>, Vec<Fr>) {
    let h = hashes.native_node();
    let mut zero = vec![Fr::from(0u64)];
    let mut levels = vec![leaves];
    for l in 0..shape.height {
        let below = &levels[l];
        let up = below
            .chunks(shape.arity)
            .map(|c| {
                let mut children = c.to_vec();
                children.resize(shape.arity, zero[l]);
                h.hash_node(&children)
            })
            .collect();
        zero.push(h.hash_node(&vec![zero[l]; shape.arity]));
        levels.push(up);
    }
    (levels, zero)
}

/// Membership inputs for leaf `index` of a tree whose first leaves are
/// `leaves` (the others zero), and the tree's root: `{root, inputs: {leaf,
/// index, siblings}}` with decimal strings, ready for a membership proof.
pub fn membership_inputs(
    hashes: &NativeHashes,
    shape: &TreeShape,
    leaves: &[Value],
    index: u64,
) -> Result<Value, WasmError> {
    if leaves.is_empty() || leaves.len() as u128 > shape.capacity() {
        return Err(bad(format!(
            "leaves: between 1 and {} leaves; got {}",
            shape.capacity(),
            leaves.len()
        )));
    }
    if index >= leaves.len() as u64 {
        return Err(bad(format!(
            "index {index} is not one of the {} leaves given",
            leaves.len()
        )));
    }
    let values = leaves
        .iter()
        .enumerate()
        .map(|(i, v)| field(&format!("leaves[{i}]"), v))
        .collect::<Result<Vec<_>, _>>()?;
    let leaf = values[index as usize];
    let (levels, zero) = levels(hashes, shape, values);
    let mut pos = index as usize;
    let mut siblings = Vec::with_capacity(shape.height);
    for (l, level) in levels.iter().take(shape.height).enumerate() {
        let first = pos - pos % shape.arity;
        let node = |i: usize| level.get(i).copied().unwrap_or(zero[l]);
        siblings.push(
            (first..first + shape.arity)
                .filter(|&i| i != pos)
                .map(node)
                .collect::<Vec<_>>(),
        );
        pos /= shape.arity;
    }
    let root = levels[shape.height][0];
    let dec = |x: &Fr| Value::String(fr_to_decimal(x));
    Ok(serde_json::json!({
        "root": dec(&root),
        "inputs": {
            "leaf": dec(&leaf),
            "index": index,
            "siblings": siblings.iter().map(|l| l.iter().map(dec).collect::<Vec<_>>()).collect::<Vec<_>>(),
        }
    }))
}
