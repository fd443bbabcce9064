//! The x86_64 vector kernel of the MSM's batched affine additions, chosen
//! once per process at run time: eight lanes of AVX-512 IFMA
//! ([`crate::avx512`]) where the CPU has them, else four lanes of AVX2 and
//! FMA3 doubles ([`crate::avx2`]), else none (ark-ff's scalar arithmetic).
//! Both take their groups of eight in one layout, ark-ff's limbs as they
//! are; the AVX2 kernel converts them to its own in its registers.

use ark_bn254::{Fq, Fq2};

use crate::field::VectorKernel;
use crate::{avx2, avx512};

/// The kernel the batches run in on this CPU, chosen once: the environment
/// variables `ZKBENCH_NO_AVX512` and `ZKBENCH_NO_AVX2` take a kernel out of
/// the choice, for before/after measurements in one build.
pub(crate) fn kernel() -> VectorKernel {
    use std::sync::OnceLock;
    static KERNEL: OnceLock<VectorKernel> = OnceLock::new();
    *KERNEL.get_or_init(|| {
        if avx512::available() {
            VectorKernel::Avx512Ifma
        } else if avx2::available() {
            VectorKernel::Avx2Fma
        } else {
            VectorKernel::None
        }
    })
}

/// Whether a vector kernel runs on this CPU.
pub(crate) fn available() -> bool {
    kernel() != VectorKernel::None
}

/// The layout of both kernels' batches: ark-ff's Montgomery limbs as they
/// are ([`avx512::Soa`]), in buffers with room for the AVX2 kernel's own
/// layout, which it rewrites in place ([`avx2::batch_add_g1`]).
pub(crate) struct Soa;

impl Soa {
    /// Words per group of eight `Fq` elements.
    pub(crate) const FQ_GROUP: usize = 40;
    /// Words per group of eight `Fq2` elements.
    pub(crate) const FQ2_GROUP: usize = 80;

    /// Writes `x` as element `k` of an `Fq` array.
    #[inline(always)]
    pub(crate) fn put_fq(soa: &mut [u64], k: usize, x: &Fq) {
        avx512::Soa::put_fq(soa, k, x)
    }

    /// Element `k` of an `Fq` array.
    #[inline(always)]
    pub(crate) fn get_fq(soa: &[u64], k: usize) -> Fq {
        avx512::Soa::get_fq(soa, k)
    }

    /// Writes `x` as element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn put_fq2(soa: &mut [u64], k: usize, x: &Fq2) {
        avx512::Soa::put_fq2(soa, k, x)
    }

    /// Element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn get_fq2(soa: &[u64], k: usize) -> Fq2 {
        avx512::Soa::get_fq2(soa, k)
    }
}

/// The G1 batch in the chosen kernel; `false` (nothing written) without one.
pub(crate) fn batch_add_g1(
    px: &mut [u64],
    py: &mut [u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    match kernel() {
        VectorKernel::Avx512Ifma => avx512::batch_add_g1(px, py, qx, qy, groups),
        VectorKernel::Avx2Fma => avx2::batch_add_g1(px, py, qx, qy, groups),
        _ => false,
    }
}

/// The G2 batch in the chosen kernel, as [`batch_add_g1`].
pub(crate) fn batch_add_g2(
    px: &mut [u64],
    py: &mut [u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    match kernel() {
        VectorKernel::Avx512Ifma => avx512::batch_add_g2(px, py, qx, qy, groups),
        VectorKernel::Avx2Fma => avx2::batch_add_g2(px, py, qx, qy, groups),
        _ => false,
    }
}
