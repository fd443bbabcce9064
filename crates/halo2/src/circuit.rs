//! The note-spend, membership-only and batch-root circuits on the Poseidon2
//! chip (one region; hashes chained so that a hash's output row is the next
//! hash's input row).
//!
//! # Spend layout
//! | rows | content |
//! |---|---|
//! | `0` | nullifier-hash input `[n, ·]` (lane 1 is the constant `DOMAIN_NULLIFIER` in the gate); `e0` = `ext_data_hash` (copied to instance row 2) |
//! | `T₂` | nullifier hash in `e0` (→ instance row 1); leaf input `[n, s]` (`n` copied from row 0); `e1 = (s − D)⁻¹` with the gate `(s − D)·e1 = 1` |
//! | `2T₂` | leaf in `e0`; level-0 children; membership product; level-0 hash |
//! | `2T₂ + L·T_A` | level `L` (current node in `e0`, the `A` children in the state lanes) |
//! | `2T₂ + h·T_A` | root in `e0` (→ instance row 0) |
//!
//! `T₂`, `T_A`: rows per width-2 / tree hash (`R_F + ⌈R_P / p⌉`).
//!
//! # Position
//! The membership product `Π (child_i − cur) = 0` on the level's input row,
//! exactly as the Groth16 backend (see [`crate::statement`]): it costs no row
//! (the input row exists anyway); a constraint multiplies `m` factors (the
//! S-box gates' degree minus one: 3 with split S-boxes, α unsplit), so above
//! `m` children `⌈(A − m)/(m − 1)⌉` partial-product cells on the same row. A
//! one-hot selector would need `A` boolean cells per level and more gates;
//! position bits would need `⌈log₂ A⌉` cells and a multiplexer of degree
//! `log₂ A` per lane.

use halo2_axiom::{
    circuit::{Cell, Layouter, Region, SimpleFloorPlanner, Value},
    halo2curves::{bn256::Fr, ff::Field},
    plonk::{Circuit, Column, ConstraintSystem, Error, Expression, Instance, Selector},
};
use std::sync::Arc;
use zkbench_hash::poseidon2::{node_width, NodeMode};
use zkbench_hash::HashFamily;

use crate::chip::{ChipLayout, HashSpec, Lane, Poseidon2Config, Poseidon2Instructions};
use crate::params::{fr_from_ark, Poseidon2Params};
use crate::statement::{
    domain_nullifier, BatchWitness, CircuitKind, MembershipWitness, MerklePath, SpendWitness,
    TreeShape, Witness,
};
use crate::Halo2Error;

/// Everything that determines the circuit's shape (its configuration
/// parameters in halo2's sense).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CircuitParams {
    /// Hash family: `poseidon2` or `poseidon` (circomlib).
    pub family: HashFamily,
    /// S-box exponent (Poseidon2: 5 or 7; Poseidon: 5).
    pub alpha: u64,
    /// Tree arity.
    pub arity: usize,
    /// Tree height (batch root: depth).
    pub height: usize,
    /// Which statement.
    pub kind: CircuitKind,
    /// Chip layout.
    pub layout: ChipLayout,
}

impl Default for CircuitParams {
    /// zkOS' shape: α = 7, arity 7, height 13 (spend).
    fn default() -> Self {
        Self {
            family: HashFamily::Poseidon2,
            alpha: 7,
            arity: 7,
            height: 13,
            kind: CircuitKind::Spend,
            layout: ChipLayout::default(),
        }
    }
}

/// Spec indices in the chip for each circuit.
const SPEC_NULLIFIER: usize = 0;
const SPEC_PAIR: usize = 1;

impl CircuitParams {
    /// The tree shape.
    pub fn shape(&self) -> TreeShape {
        TreeShape {
            arity: self.arity,
            height: self.height,
        }
    }

    /// The hash specs of the circuit: spend `[nullifier, pair, level]`,
    /// membership `[level]`, batch root `[node]`.
    pub fn specs(&self) -> Result<Vec<HashSpec>, Halo2Error> {
        match self.family {
            HashFamily::Poseidon2 => self.poseidon2_specs(),
            HashFamily::Poseidon => self.poseidon_specs(),
            f => Err(Halo2Error::Config(format!(
                "the halo2 backend has chips for poseidon2 and poseidon, not {}",
                f.name()
            ))),
        }
    }

    /// circomlib Poseidon: every hash is `perm_{n+1}([0, inputs…])[0]`.
    fn poseidon_specs(&self) -> Result<Vec<HashSpec>, Halo2Error> {
        if self.alpha != 5 {
            return Err(Halo2Error::Config("poseidon has alpha 5 only".into()));
        }
        let sponge = |params: &Arc<Poseidon2Params>, lanes: Vec<Lane>, membership| HashSpec {
            params: params.clone(),
            lanes,
            feed_forward: false,
            membership,
        };
        let node = Arc::new(Poseidon2Params::poseidon_native(self.arity + 1)?);
        let mut level_lanes = vec![Lane::Const(Fr::ZERO)];
        level_lanes.extend(std::iter::repeat_n(Lane::Cell, self.arity));
        Ok(match self.kind {
            CircuitKind::Spend => {
                let pair = Arc::new(Poseidon2Params::poseidon_native(3)?);
                let d = fr_from_ark(&domain_nullifier());
                vec![
                    sponge(
                        &pair,
                        vec![Lane::Const(Fr::ZERO), Lane::Cell, Lane::Const(d)],
                        false,
                    ),
                    sponge(
                        &pair,
                        vec![Lane::Const(Fr::ZERO), Lane::Cell, Lane::Cell],
                        false,
                    ),
                    sponge(&node, level_lanes, true),
                ]
            }
            CircuitKind::Membership => vec![sponge(&node, level_lanes, true)],
            CircuitKind::BatchRoot => vec![sponge(&node, level_lanes, false)],
        })
    }

    fn poseidon2_specs(&self) -> Result<Vec<HashSpec>, Halo2Error> {
        let (w, mode) = node_width(self.arity);
        let node = Arc::new(Poseidon2Params::native(w, self.alpha)?);
        let level = |membership: bool| match mode {
            NodeMode::Compression => HashSpec {
                params: node.clone(),
                lanes: vec![Lane::Cell; w],
                feed_forward: true,
                membership,
            },
            NodeMode::Sponge => HashSpec {
                params: node.clone(),
                lanes: (0..w)
                    .map(|i| {
                        if (1..=self.arity).contains(&i) {
                            Lane::Cell
                        } else {
                            Lane::Const(Fr::ZERO)
                        }
                    })
                    .collect(),
                feed_forward: false,
                membership,
            },
        };
        Ok(match self.kind {
            CircuitKind::Spend => {
                let pair = Arc::new(Poseidon2Params::native(2, self.alpha)?);
                vec![
                    HashSpec {
                        params: pair.clone(),
                        lanes: vec![Lane::Cell, Lane::Const(fr_from_ark(&domain_nullifier()))],
                        feed_forward: true,
                        membership: false,
                    },
                    HashSpec {
                        params: pair,
                        lanes: vec![Lane::Cell, Lane::Cell],
                        feed_forward: true,
                        membership: false,
                    },
                    level(true),
                ]
            }
            CircuitKind::Membership => vec![level(true)],
            CircuitKind::BatchRoot => vec![level(false)],
        })
    }
}

/// Columns and gates of a statement circuit.
#[derive(Clone, Debug)]
pub struct StatementConfig {
    /// The Poseidon2 chip.
    pub chip: Poseidon2Config,
    /// Public inputs.
    pub instance: Column<Instance>,
    /// `(s − D)·e1 = 1` on the leaf input row (spend only).
    pub q_secret_ne: Option<Selector>,
}

/// A statement circuit with an optional witness.
#[derive(Clone, Debug)]
pub struct StatementCircuit {
    /// Shape.
    pub params: CircuitParams,
    /// Witness (`None` for key generation).
    pub witness: Option<Witness>,
}

impl StatementCircuit {
    /// Rows the layout uses (last used physical row + 1).
    pub fn rows(config: &Poseidon2Config, params: &CircuitParams) -> usize {
        config
            .columns
            .physical_rows(Self::logical_rows(config, params))
    }

    /// Logical rows the layout uses (see [`ChipLayout::fold`]).
    fn logical_rows(config: &Poseidon2Config, params: &CircuitParams) -> usize {
        match params.kind {
            CircuitKind::Spend => {
                2 * config.hash_rows(SPEC_NULLIFIER) + params.height * config.hash_rows(2) + 1
            }
            CircuitKind::Membership => params.height * config.hash_rows(0) + 1,
            CircuitKind::BatchRoot => {
                let a = params.arity as u128;
                let hashes = (a.pow(params.height as u32) - 1) / (a - 1);
                hashes as usize * config.hash_rows(0) + 1
            }
        }
    }
}

fn known<T: Clone>(w: &Option<T>) -> Value<T> {
    match w {
        Some(v) => Value::known(v.clone()),
        None => Value::unknown(),
    }
}

impl Circuit<Fr> for StatementCircuit {
    type Config = StatementConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = CircuitParams;

    fn without_witnesses(&self) -> Self {
        Self {
            params: self.params.clone(),
            witness: None,
        }
    }

    fn params(&self) -> Self::Params {
        self.params.clone()
    }

    fn configure_with_params(
        meta: &mut ConstraintSystem<Fr>,
        params: CircuitParams,
    ) -> StatementConfig {
        let specs = params.specs().expect("circuit parameters were validated");
        let spend = params.kind == CircuitKind::Spend;
        let chip =
            Poseidon2Config::configure(meta, specs, params.layout, if spend { 2 } else { 1 });
        let instance = meta.instance_column();
        meta.enable_equality(instance);
        meta.enable_equality(chip.columns.extra[0].column);
        meta.enable_equality(chip.columns.state[0].column);
        // Spend: the pair hash's cell lanes are (n, s).
        let (n_col, s_col) = if spend {
            let lanes = chip.spec(SPEC_PAIR).cell_lanes();
            (lanes[0], lanes[1])
        } else {
            (0, 1)
        };
        meta.enable_equality(chip.columns.state[n_col].column);
        if params.kind == CircuitKind::BatchRoot {
            for c in &chip.columns.state {
                meta.enable_equality(c.column);
            }
        }
        let q_secret_ne = spend.then(|| {
            let q = meta.selector();
            let d = fr_from_ark(&domain_nullifier());
            let cols = chip.columns.clone();
            meta.create_gate("secret differs from the nullifier domain", |vc| {
                let q = vc.query_selector(q);
                let s = cols.query(vc, cols.state[s_col], 0);
                let inv = cols.query(vc, cols.extra[1], 0);
                vec![q * ((s - Expression::Constant(d)) * inv - Expression::Constant(Fr::ONE))]
            });
            q
        });
        // halo2-axiom caps `cs.degree()` at the MAX_DEGREE environment
        // variable (default 5); a higher-degree gate would then get a too
        // small extended domain. Pin the true degree instead.
        let gate_degree = meta
            .gates()
            .iter()
            .flat_map(|g| g.polynomials().iter().map(|p| p.degree()))
            .max()
            .unwrap_or(1);
        meta.set_minimum_degree(gate_degree.max(3).max(params.layout.degree));
        StatementConfig {
            chip,
            instance,
            q_secret_ne,
        }
    }

    fn configure(meta: &mut ConstraintSystem<Fr>) -> StatementConfig {
        Self::configure_with_params(meta, CircuitParams::default())
    }

    fn synthesize(
        &self,
        config: StatementConfig,
        mut layouter: impl Layouter<Fr>,
    ) -> Result<(), Error> {
        let mut publics: Publics = vec![];
        layouter.assign_region(
            || "statement",
            |mut region| {
                publics.clear();
                let step = Step(&config, &mut region, &mut publics);
                match (self.params.kind, &self.witness) {
                    (CircuitKind::Spend, None) => self.assign_spend(step, None),
                    (CircuitKind::Spend, Some(Witness::Spend(w))) => {
                        self.assign_spend(step, Some(w))
                    }
                    (CircuitKind::Membership, None) => self.assign_membership(step, None),
                    (CircuitKind::Membership, Some(Witness::Membership(w))) => {
                        self.assign_membership(step, Some(w))
                    }
                    (CircuitKind::BatchRoot, None) => self.assign_batch_root(step, None),
                    (CircuitKind::BatchRoot, Some(Witness::BatchRoot(w))) => {
                        self.assign_batch_root(step, Some(w))
                    }
                    // a witness of another kind
                    _ => Err(Error::Synthesis),
                }
            },
        )?;
        for (cell, row) in publics {
            layouter.constrain_instance(cell, config.instance, row);
        }
        Ok(())
    }
}

/// Cells to copy into the instance column, with their instance rows.
type Publics = Vec<(Cell, usize)>;

/// The witness's path: its position digits (base arity) and its siblings;
/// `None` without a witness (key generation).
type PathWitness<'a> = Option<(Vec<usize>, &'a Vec<Vec<zkbench_hash::Fr>>)>;

/// What a statement's step works on: the configuration, the region, and
/// the cells that become public inputs.
struct Step<'a, 'r>(&'a StatementConfig, &'a mut Region<'r, Fr>, &'a mut Publics);

/// The region's steps, one per statement (each with its witness, `None`
/// for key generation).
impl StatementCircuit {
    /// The position digits and siblings of `path`, if any.
    fn path_witness<'a>(&self, path: Option<&'a MerklePath>) -> Result<PathWitness<'a>, Error> {
        match path {
            Some(path) => {
                let digits = self
                    .params
                    .shape()
                    .position_digits(path.index)
                    .map_err(|_| Error::Synthesis)?;
                Ok(Some((digits, &path.siblings)))
            }
            None => Ok(None),
        }
    }

    /// Spend: nullifier hash (→ instance row 1), leaf `H(n, s)` with
    /// `s ≠ D`, the path from the leaf (root → row 0); `ext_data_hash` in
    /// `e0` of row 0 (→ row 2).
    fn assign_spend(&self, step: Step<'_, '_>, w: Option<&SpendWitness>) -> Result<(), Error> {
        let Step(config, region, publics) = step;
        let chip = &config.chip;
        let cols = &chip.columns;
        let n = known(&w.map(|w| fr_from_ark(&w.nullifier)));
        let s = known(&w.map(|w| fr_from_ark(&w.secret)));
        let ext = known(&w.map(|w| fr_from_ark(&w.ext_data_hash)));
        let ext_cell = cols.assign(region, cols.extra[0], 0, ext).cell();
        publics.push((ext_cell, 2));
        let null = chip.assign_hash(region, 0, SPEC_NULLIFIER, n.map(|n| vec![n]))?;
        publics.push((null.output.cell, 1));
        let o1 = null.rows;
        let leaf = chip.assign_hash(region, o1, SPEC_PAIR, n.zip(s).map(|(n, s)| vec![n, s]))?;
        region.constrain_equal(null.inputs[0].cell, leaf.inputs[0].cell);
        let d = fr_from_ark(&domain_nullifier());
        let inv = s.map(|s| (s - d).invert().unwrap_or(Fr::ZERO));
        cols.assign(region, cols.extra[1], o1, inv);
        cols.enable(region, config.q_secret_ne.expect("spend gate"), o1)?;
        let o2 = o1 + leaf.rows;
        let path = self.path_witness(w.map(|w| &w.path))?;
        let root = self.path_levels(chip, region, o2, leaf.output.value, 2, path)?;
        publics.push((root, 0));
        Ok(())
    }

    /// Membership: the leaf in `e0` of row 0, the path from it (root →
    /// instance row 0).
    fn assign_membership(
        &self,
        step: Step<'_, '_>,
        w: Option<&MembershipWitness>,
    ) -> Result<(), Error> {
        let Step(config, region, publics) = step;
        let chip = &config.chip;
        let leaf = known(&w.map(|w| fr_from_ark(&w.leaf)));
        chip.columns.assign(region, chip.columns.extra[0], 0, leaf);
        let path = self.path_witness(w.map(|w| &w.path))?;
        let root = self.path_levels(chip, region, 0, leaf, 0, path)?;
        publics.push((root, 0));
        Ok(())
    }

    /// Levels of a path, starting at `offset` with the current node `cur`
    /// already in `e0`: one hash of spec `spec` per level, with the
    /// membership helpers. Returns the root's cell.
    fn path_levels(
        &self,
        chip: &Poseidon2Config,
        region: &mut Region<'_, Fr>,
        mut offset: usize,
        mut cur: Value<Fr>,
        spec: usize,
        path: PathWitness<'_>,
    ) -> Result<Cell, Error> {
        let mut out = None;
        for level in 0..self.params.height {
            let children = cur
                .zip(known(
                    &path.as_ref().map(|(d, s)| (d[level], s[level].clone())),
                ))
                .map(|(c, (digit, sib))| {
                    let sib: Vec<Fr> = sib.iter().map(fr_from_ark).collect();
                    let mut ch = sib[..digit].to_vec();
                    ch.push(c);
                    ch.extend_from_slice(&sib[digit..]);
                    ch
                });
            let cells = chip.assign_hash(region, offset, spec, children.clone())?;
            chip.assign_member_helpers(region, offset, spec, children, cur);
            offset += cells.rows;
            cur = cells.output.value;
            out = Some(cells.output.cell);
        }
        Ok(out.expect("height ≥ 1"))
    }

    /// Batch root: the tree over the leaves (→ instance rows 1..), level
    /// by level, each hash's children copied from the level below; the root
    /// → row 0 (height 0: the single leaf, in `e0` of row 0, is both).
    fn assign_batch_root(&self, step: Step<'_, '_>, w: Option<&BatchWitness>) -> Result<(), Error> {
        let Step(config, region, publics) = step;
        let p = &self.params;
        let a = p.arity;
        let chip = &config.chip;
        let n_leaves = a.pow(p.height as u32);
        let mut level: Vec<(Option<Cell>, Value<Fr>)> = (0..n_leaves)
            .map(|i| (None, known(&w.map(|w| fr_from_ark(&w.leaves[i])))))
            .collect();
        let mut offset = 0;
        if p.height == 0 {
            let c = (chip.columns)
                .assign(region, chip.columns.extra[0], 0, level[0].1)
                .cell();
            publics.push((c, 0));
            publics.push((c, 1));
        }
        let mut first = true;
        while level.len() > 1 {
            let mut next = vec![];
            for chunk in level.chunks(a) {
                let vals = chunk.iter().fold(Value::known(vec![]), |acc, (_, v)| {
                    acc.zip(*v).map(|(mut acc, v)| {
                        acc.push(v);
                        acc
                    })
                });
                let cells = chip.assign_hash(region, offset, 0, vals)?;
                for (j, (src, _)) in chunk.iter().enumerate() {
                    if let Some(src) = src {
                        region.constrain_equal(*src, cells.inputs[j].cell);
                    }
                    if first {
                        // Leaves: public inputs 1..
                        let idx = next.len() * a + j;
                        publics.push((cells.inputs[j].cell, 1 + idx));
                    }
                }
                offset += cells.rows;
                next.push((Some(cells.output.cell), cells.output.value));
            }
            first = false;
            level = next;
        }
        if p.height > 0 {
            publics.push((level[0].0.expect("root cell"), 0));
        }
        Ok(())
    }
}

/// Size and shape of a configured circuit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CircuitStats {
    /// `log2` of the number of rows of the evaluation domain.
    pub k: u32,
    /// Rows the layout uses.
    pub rows: usize,
    /// Rows available at this `k` (`2^k − blinding − 1`).
    pub usable_rows: usize,
    /// Advice columns.
    pub advice_columns: usize,
    /// Fixed columns before selector compression (round constants).
    pub fixed_columns: usize,
    /// Selectors (halo2 compresses them into fixed columns at key generation).
    pub selectors: usize,
    /// Fixed columns after key generation (round constants + compressed selectors), if known.
    pub fixed_columns_compressed: Option<usize>,
    /// Instance columns.
    pub instance_columns: usize,
    /// Lookup arguments.
    pub lookups: usize,
    /// Columns in the permutation (copy-constraint) argument.
    pub permutation_columns: usize,
    /// Maximum gate degree (halo2's `cs.degree()`, permutation argument included).
    pub max_degree: usize,
    /// Number of polynomial constraints in all gates.
    pub constraints: usize,
    /// Rows per hash of each spec, in spec order.
    pub rows_per_hash: Vec<usize>,
    /// Public inputs.
    pub public_inputs: usize,
}

impl std::fmt::Display for CircuitStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "k={} rows={}/{} advice={} fixed={}{} (selectors {}) instance={} lookups={} \
             permutation-columns={} max-degree={} constraints={} rows/hash={:?}",
            self.k,
            self.rows,
            self.usable_rows,
            self.advice_columns,
            self.fixed_columns,
            self.fixed_columns_compressed
                .map(|c| format!(" ({c} after selector compression)"))
                .unwrap_or_default(),
            self.selectors,
            self.instance_columns,
            self.lookups,
            self.permutation_columns,
            self.max_degree,
            self.constraints,
            self.rows_per_hash
        )
    }
}

/// Configures the circuit of `params` on a fresh constraint system and
/// returns its statistics (with the smallest `k` that fits).
pub fn circuit_stats(params: &CircuitParams) -> Result<CircuitStats, Halo2Error> {
    params.specs()?;
    let mut cs = ConstraintSystem::<Fr>::default();
    let config = StatementCircuit::configure_with_params(&mut cs, params.clone());
    let rows = StatementCircuit::rows(&config.chip, params);
    let blinding = cs.blinding_factors();
    let mut k = 4u32;
    while (1usize << k) < rows + blinding + 1 {
        k += 1;
    }
    let n_specs = match params.kind {
        CircuitKind::Spend => 3,
        _ => 1,
    };
    let public_inputs = match params.kind {
        CircuitKind::Spend => 3,
        CircuitKind::Membership => 1,
        CircuitKind::BatchRoot => 1 + params.arity.pow(params.height as u32),
    };
    Ok(CircuitStats {
        k,
        rows,
        usable_rows: (1usize << k) - blinding - 1,
        advice_columns: cs.num_advice_columns(),
        fixed_columns: cs.num_fixed_columns(),
        selectors: cs.num_selectors(),
        fixed_columns_compressed: None,
        instance_columns: cs.num_instance_columns(),
        lookups: cs.lookups().len(),
        permutation_columns: cs.permutation().get_columns().len(),
        max_degree: cs.degree(),
        constraints: cs.gates().iter().map(|g| g.polynomials().len()).sum(),
        rows_per_hash: (0..n_specs).map(|i| config.chip.hash_rows(i)).collect(),
        public_inputs,
    })
}
