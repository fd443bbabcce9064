//! # zkbench-msm
//!
//! BN254 multi-scalar multiplication `Σ sᵢ·Pᵢ` over bases known in advance
//! (a Groth16 proving key's queries), the kernel of zkbench's provers, on its
//! own so that the Groth16 prover, the `primitives` benchmarks and the
//! browser build share one implementation:
//!
//! * [`table`]: fixed-base window tables ([`FixedBaseTable`]) and the MSM of
//!   one range of bases with one bucket set;
//! * `buckets`: affine buckets filled by batched affine additions, one field
//!   inversion per batch (Montgomery's trick);
//! * [`field`]: [`MsmField`], the base-field arithmetic of those additions:
//!   ark-ff's natively, 29-bit-limb Montgomery products on `wasm32` (64-bit
//!   limbs where the build has wide arithmetic), and the
//!   eight-lane AVX-512 IFMA kernel ([`avx512`], x86_64, chosen at run time),
//!   else four lanes of AVX2 and FMA3 doubles ([`avx2`]);
//! * [`simd128`]: the same batched additions four lanes at a time in
//!   WebAssembly SIMD128, tested natively;
//! * [`fma`]: the same batched additions two lanes at a time with relaxed
//!   SIMD's fused multiply-add on doubles (52×52→104-bit products; the
//!   threaded browser build), tested natively;
//! * [`glv`]: the GLV split of a scalar into two halves of 129 bits, for
//!   compact tables that serve `φ(P)` beside `P`;
//! * [`inverse`]: the batches' one inversion (Bernstein–Yang divsteps);
//! * [`points`]: table points as raw Montgomery limbs ([`RawCurve`],
//!   [`PointBytes`]), the same bytes in memory as in a cache file;
//! * [`mod@split`]: how a batch of MSMs is cut into work for a thread pool;
//! * [`fft`]: the radix-2 FFT of the Groth16 prover's H polynomial, cut for
//!   the same pool.
//!
//! References: N. Pippenger, "On the evaluation of powers and monomials",
//! SIAM J. Comput. 9(2), 1980 (bucket method); E. F. Brickell, D. M. Gordon,
//! K. S. McCurley, D. B. Wilson, "Fast exponentiation with precomputation",
//! EUROCRYPT 1992 (fixed-base windows); P. L. Montgomery, "Speeding the
//! Pollard and elliptic curve methods of factorization", Math. Comp. 48, 1987
//! (simultaneous inversion); G. Botrel, Y. El Housni, "Faster Montgomery
//! multiplication and multi-scalar-multiplication for SNARKs", TCHES 2023(3)
//! (batch-affine buckets, gnark-crypto).
#![deny(missing_docs)]

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
mod buckets;
pub mod fft;
pub mod field;
pub mod fma;
pub mod glv;
pub mod inverse;
pub mod points;
pub mod simd128;
pub mod split;
pub mod table;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use field::{add_affine, add_projective, MsmField, VectorKernel};
pub use points::{Backing, PointBytes, RawCurve};
pub use split::{
    on_at_most, on_cores, run_pieces, run_plan, split, threads, threads_for_rows, vector_here,
    vector_workers, Block, Piece, Plan, Shape, ROWS_PER_THREAD,
};
pub use table::{num_windows, Digits, FixedBaseTable, Round, Scalar, SortedDigits};
