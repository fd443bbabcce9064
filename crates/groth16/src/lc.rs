//! A thin R1CS builder: field values carried together with *linear
//! combinations* of circuit variables.
//!
//! Every gadget of this crate works on [`LinVar`]: a linear combination of
//! variables plus its value. Additions, subtractions and multiplications by
//! constants (all linear layers of the permutations) only manipulate the linear
//! combination and cost **no constraint and no witness variable**; only
//! [`Cs::mul`] (and what is built on it) allocates a witness and adds one R1CS
//! constraint. This is how circom counts constraints, and how circomlib
//! Poseidon t = 3 reaches 240 constraints.
//!
//! The builder also knows which synthesis mode it runs in: when the
//! constraint system does not build matrices (witness generation for a proof
//! with matrices cached from the setup), linear combinations are not built at
//! all and only values are computed, which makes witness generation cheap.

use ark_r1cs_std::fields::fp::{AllocatedFp, FpVar};
use ark_relations::r1cs::{ConstraintSystemRef, LinearCombination, SynthesisError, Variable};
use zkbench_hash::rescue_prime::FixedExponent;

use zkbench_hash::Fr;

use ark_ff::{Field, One, Zero};

/// A handle on the constraint system being built, with its mode cached.
#[derive(Clone)]
pub struct Cs {
    cs: ConstraintSystemRef<Fr>,
    build_lc: bool,
}

impl Cs {
    /// Wraps `cs`. The synthesis mode must be set before this call.
    pub fn new(cs: ConstraintSystemRef<Fr>) -> Self {
        let build_lc = cs.should_construct_matrices();
        Self { cs, build_lc }
    }

    /// The wrapped constraint system.
    pub fn inner(&self) -> &ConstraintSystemRef<Fr> {
        &self.cs
    }

    /// Whether linear combinations are being recorded (setup, or proving with
    /// matrices).
    pub fn builds_matrices(&self) -> bool {
        self.build_lc
    }

    /// Number of constraints so far.
    pub fn num_constraints(&self) -> usize {
        self.cs.num_constraints()
    }

    fn var_lc(&self, v: Variable) -> LinearCombination<Fr> {
        if self.build_lc {
            LinearCombination(vec![(Fr::one(), v)])
        } else {
            LinearCombination(Vec::new())
        }
    }

    /// Allocates a private witness variable (value `None` in setup mode).
    pub fn witness(&self, value: Option<Fr>) -> Result<LinVar, SynthesisError> {
        let v = self
            .cs
            .new_witness_variable(|| value.ok_or(SynthesisError::AssignmentMissing))?;
        Ok(LinVar {
            lc: self.var_lc(v),
            value,
            is_const: false,
        })
    }

    /// Allocates a public input variable. Inputs are numbered in call order.
    pub fn input(&self, value: Option<Fr>) -> Result<LinVar, SynthesisError> {
        let v = self
            .cs
            .new_input_variable(|| value.ok_or(SynthesisError::AssignmentMissing))?;
        Ok(LinVar {
            lc: self.var_lc(v),
            value,
            is_const: false,
        })
    }

    /// Enforces `a * b = c` (one constraint).
    pub fn enforce_product(
        &self,
        a: &LinVar,
        b: &LinVar,
        c: &LinVar,
    ) -> Result<(), SynthesisError> {
        self.cs
            .enforce_constraint(a.lc.clone(), b.lc.clone(), c.lc.clone())
    }

    /// Enforces `a = b` (one constraint: `(a - b) * 1 = 0`).
    pub fn enforce_equal(&self, a: &LinVar, b: &LinVar) -> Result<(), SynthesisError> {
        let diff = a.sub(b);
        self.cs.enforce_constraint(
            diff.lc,
            LinearCombination(vec![(Fr::one(), Variable::One)]),
            LinearCombination(Vec::new()),
        )
    }

    /// Enforces `a * b = 0` (one constraint).
    pub fn enforce_product_zero(&self, a: &LinVar, b: &LinVar) -> Result<(), SynthesisError> {
        self.cs
            .enforce_constraint(a.lc.clone(), b.lc.clone(), LinearCombination(Vec::new()))
    }

    /// `a * b` as a new witness (one constraint).
    pub fn mul(&self, a: &LinVar, b: &LinVar) -> Result<LinVar, SynthesisError> {
        // Products with a constant are free.
        if let Some(c) = a.as_constant() {
            return Ok(b.scale(c));
        }
        if let Some(c) = b.as_constant() {
            return Ok(a.scale(c));
        }
        let value = match (a.value, b.value) {
            (Some(x), Some(y)) => Some(x * y),
            _ => None,
        };
        let out = self.witness(value)?;
        self.enforce_product(a, b, &out)?;
        Ok(out)
    }

    /// `a^2` (one constraint).
    pub fn square(&self, a: &LinVar) -> Result<LinVar, SynthesisError> {
        self.mul(a, a)
    }

    /// `x^alpha` for the S-box exponents used here: 3 → 2 constraints,
    /// 5 → 3, 7 → 4; other exponents by square-and-multiply.
    pub fn pow(&self, x: &LinVar, alpha: u64) -> Result<LinVar, SynthesisError> {
        match alpha {
            1 => Ok(x.clone()),
            2 => self.square(x),
            3 => {
                let x2 = self.square(x)?;
                self.mul(&x2, x)
            }
            5 => {
                let x2 = self.square(x)?;
                let x4 = self.square(&x2)?;
                self.mul(&x4, x)
            }
            7 => {
                let x2 = self.square(x)?;
                let x3 = self.mul(&x2, x)?;
                let x6 = self.square(&x3)?;
                self.mul(&x6, x)
            }
            _ => {
                // Left-to-right square-and-multiply.
                let bits = 64 - alpha.leading_zeros();
                let mut acc = x.clone();
                for i in (0..bits - 1).rev() {
                    acc = self.square(&acc)?;
                    if (alpha >> i) & 1 == 1 {
                        acc = self.mul(&acc, x)?;
                    }
                }
                Ok(acc)
            }
        }
    }

    /// Number of constraints [`Cs::pow`] spends on exponent `alpha`.
    pub fn pow_cost(alpha: u64) -> usize {
        match alpha {
            1 => 0,
            2 => 1,
            3 => 2,
            5 => 3,
            7 => 4,
            _ => {
                let bits = 64 - alpha.leading_zeros() as usize;
                bits - 1 + alpha.count_ones() as usize - 1
            }
        }
    }

    /// `y` with `y^alpha = x` (the inverse S-box `x^(1/alpha)`, computed with
    /// the exponent `inv_exp = alpha^-1 mod (r - 1)`): the root is a witness
    /// and `y^alpha = x` is enforced, which costs the same as `x^alpha`. The
    /// exponent's digits are precomputed (fixed 4-bit windows: 4.1 µs a root
    /// against 5.0 µs for ark-ff's `pow`; the roots are most of an Anemoi or
    /// Griffin witness).
    pub fn root(
        &self,
        x: &LinVar,
        alpha: u64,
        inv_exp: &FixedExponent,
    ) -> Result<LinVar, SynthesisError> {
        let y = self.witness(x.value.map(|v| inv_exp.pow(&v)))?;
        self.enforce_pow_eq(&y, alpha, x)?;
        Ok(y)
    }

    /// Enforces `y^alpha = x` without allocating the result.
    pub fn enforce_pow_eq(&self, y: &LinVar, alpha: u64, x: &LinVar) -> Result<(), SynthesisError> {
        match alpha {
            5 => {
                let y2 = self.square(y)?;
                let y4 = self.square(&y2)?;
                self.enforce_product(&y4, y, x)
            }
            7 => {
                let y2 = self.square(y)?;
                let y3 = self.mul(&y2, y)?;
                let y6 = self.square(&y3)?;
                self.enforce_product(&y6, y, x)
            }
            3 => {
                let y2 = self.square(y)?;
                self.enforce_product(&y2, y, x)
            }
            _ => {
                let p = self.pow(y, alpha)?;
                self.enforce_equal(&p, x)
            }
        }
    }

    /// The inverse of `x` as a witness, with `x * inv = 1` enforced (so `x ≠ 0`).
    pub fn inverse(&self, x: &LinVar) -> Result<LinVar, SynthesisError> {
        let inv = self.witness(x.value.map(|v| v.inverse().unwrap_or_else(Fr::zero)))?;
        self.enforce_product(x, &inv, &LinVar::constant(Fr::one()))?;
        Ok(inv)
    }
}

/// A linear combination of circuit variables together with its value (`None`
/// during setup). Linear operations on it are free.
#[derive(Clone, Debug)]
pub struct LinVar {
    lc: LinearCombination<Fr>,
    value: Option<Fr>,
    is_const: bool,
}

impl LinVar {
    /// The constant `c` (no variable).
    pub fn constant(c: Fr) -> Self {
        let lc = if c.is_zero() {
            LinearCombination(Vec::new())
        } else {
            LinearCombination(vec![(c, Variable::One)])
        };
        Self {
            lc,
            value: Some(c),
            is_const: true,
        }
    }

    /// The constant zero.
    pub fn zero() -> Self {
        Self::constant(Fr::zero())
    }

    /// Its value, if known (always known outside setup mode).
    pub fn value(&self) -> Option<Fr> {
        self.value
    }

    /// Its value, or `AssignmentMissing` in setup mode.
    pub fn value_or_err(&self) -> Result<Fr, SynthesisError> {
        self.value.ok_or(SynthesisError::AssignmentMissing)
    }

    /// The linear combination (variables are left out when matrices are not
    /// built).
    pub fn lc(&self) -> &LinearCombination<Fr> {
        &self.lc
    }

    /// Number of terms of the linear combination.
    pub fn num_terms(&self) -> usize {
        self.lc.0.len()
    }

    /// `Some(c)` if this is a constant (built from constants only).
    pub fn as_constant(&self) -> Option<Fr> {
        if self.is_const {
            self.value
        } else {
            None
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &LinVar) -> LinVar {
        LinVar {
            lc: &self.lc + &other.lc,
            value: add_opt(self.value, other.value),
            is_const: self.is_const && other.is_const,
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &LinVar) -> LinVar {
        LinVar {
            lc: &self.lc - &other.lc,
            value: sub_opt(self.value, other.value),
            is_const: self.is_const && other.is_const,
        }
    }

    /// `self + c` for a constant `c`.
    pub fn add_const(&self, c: Fr) -> LinVar {
        if c.is_zero() {
            return self.clone();
        }
        let lc = &self.lc + &LinearCombination(vec![(c, Variable::One)]);
        LinVar {
            lc,
            value: self.value.map(|v| v + c),
            is_const: self.is_const,
        }
    }

    /// `c * self` for a constant `c`.
    pub fn scale(&self, c: Fr) -> LinVar {
        if c.is_zero() {
            return LinVar::zero();
        }
        let mut lc = self.lc.clone();
        if !c.is_one() {
            for (coeff, _) in lc.0.iter_mut() {
                *coeff *= c;
            }
        }
        LinVar {
            lc,
            value: self.value.map(|v| v * c),
            is_const: self.is_const,
        }
    }

    /// `Σ coeffs[i] * vars[i]` (free).
    pub fn lincomb(coeffs: &[Fr], vars: &[LinVar]) -> LinVar {
        debug_assert_eq!(coeffs.len(), vars.len());
        let mut acc = LinVar::zero();
        for (c, v) in coeffs.iter().zip(vars) {
            if c.is_zero() {
                continue;
            }
            acc = acc.add(&v.scale(*c));
        }
        acc
    }

    /// Sum of `vars` (free).
    pub fn sum(vars: &[LinVar]) -> LinVar {
        let mut acc = LinVar::zero();
        for v in vars {
            acc = acc.add(v);
        }
        acc
    }

    /// Converts to an arkworks [`FpVar`] (a symbolic linear-combination
    /// variable; no constraint).
    pub fn to_fpvar(&self, cs: &Cs) -> Result<FpVar<Fr>, SynthesisError> {
        let var = if cs.builds_matrices() {
            cs.inner().new_lc(self.lc.clone())?
        } else {
            // Value-only mode: the variable index is never used.
            Variable::One
        };
        Ok(FpVar::Var(AllocatedFp::new(
            self.value,
            var,
            cs.inner().clone(),
        )))
    }

    /// Converts an arkworks [`FpVar`] (free).
    pub fn from_fpvar(v: &FpVar<Fr>) -> Result<LinVar, SynthesisError> {
        match v {
            FpVar::Constant(c) => Ok(LinVar::constant(*c)),
            FpVar::Var(a) => {
                let value = a.value().ok();
                let cs = a.cs.clone();
                let lc = if cs.should_construct_matrices() {
                    LinearCombination(vec![(Fr::one(), a.variable)])
                } else {
                    LinearCombination(Vec::new())
                };
                Ok(LinVar {
                    lc,
                    value,
                    is_const: false,
                })
            }
        }
    }
}

fn add_opt(a: Option<Fr>, b: Option<Fr>) -> Option<Fr> {
    Some(a? + b?)
}

fn sub_opt(a: Option<Fr>, b: Option<Fr>) -> Option<Fr> {
    Some(a? - b?)
}
