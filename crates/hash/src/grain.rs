//! The Grain LFSR in self-shrinking mode, the pseudo-random source that
//! generates Poseidon's and Poseidon2's round constants (and their matrices).
//!
//! Reference: Poseidon paper (eprint 2019/458), Appendix F, and
//! `generate_parameters_grain.sage` in the hadeshash repository (the same
//! generator is embedded in HorizenLabs' `poseidon2_rust_params.sage`).
//!
//! The 80-bit state is initialised with
//! `field (2 bits) ‖ sbox (4) ‖ n (12) ‖ t (12) ‖ R_F (10) ‖ R_P (10) ‖ 1^30`,
//! clocked 160 times and then used in self-shrinking mode: bits are drawn in
//! pairs `(b1, b2)` and `b2` is output when `b1 = 1`.

use num_bigint::BigUint;

use crate::field::{fr_from_biguint, modulus, Fr};

/// Grain LFSR instance.
#[derive(Clone, Debug)]
pub struct Grain {
    /// 80-bit state, index 0 is the oldest bit.
    bits: [bool; 80],
    head: usize,
}

impl Grain {
    /// Initialises the generator for the given parameters.
    ///
    /// `field`: 1 for a prime field; `sbox`: 0 for `x^alpha`, 1 for `x^-1`;
    /// `n`: field size in bits; `t`: state width; `rounds_full`, `rounds_partial`: round numbers.
    pub fn new(
        field: u64,
        sbox: u64,
        n: u64,
        t: u64,
        rounds_full: u64,
        rounds_partial: u64,
    ) -> Self {
        let mut init = Vec::with_capacity(80);
        let mut push = |v: u64, width: u32| {
            assert!(
                v < (1u64 << width),
                "Grain parameter {v} does not fit in {width} bits"
            );
            for i in (0..width).rev() {
                init.push((v >> i) & 1 == 1);
            }
        };
        push(field, 2);
        push(sbox, 4);
        push(n, 12);
        push(t, 12);
        push(rounds_full, 10);
        push(rounds_partial, 10);
        let mut bits = [true; 80];
        bits[..init.len()].copy_from_slice(&init);
        let mut g = Self { bits, head: 0 };
        for _ in 0..160 {
            g.clock();
        }
        g
    }

    /// The instance used for BN254 (`field = 1`, `n = 254`) with an `x^alpha` S-box.
    pub fn bn254(t: usize, rounds_full: usize, rounds_partial: usize) -> Self {
        Self::new(
            1,
            0,
            254,
            t as u64,
            rounds_full as u64,
            rounds_partial as u64,
        )
    }

    fn at(&self, i: usize) -> bool {
        self.bits[(self.head + i) % 80]
    }

    /// One LFSR step: computes the feedback bit, shifts it in and returns it.
    fn clock(&mut self) -> bool {
        let b = self.at(62) ^ self.at(51) ^ self.at(38) ^ self.at(23) ^ self.at(13) ^ self.at(0);
        self.bits[self.head] = b;
        self.head = (self.head + 1) % 80;
        b
    }

    /// Next output bit of the self-shrinking generator.
    pub fn next_bit(&mut self) -> bool {
        loop {
            let b1 = self.clock();
            let b2 = self.clock();
            if b1 {
                return b2;
            }
        }
    }

    /// Next `num_bits` output bits read as a big-endian integer.
    pub fn next_bits(&mut self, num_bits: usize) -> BigUint {
        let mut v = BigUint::from(0u32);
        for _ in 0..num_bits {
            v <<= 1;
            if self.next_bit() {
                v += 1u32;
            }
        }
        v
    }

    /// Next field element by rejection sampling 254-bit integers below r
    /// (how the reference scripts draw round constants).
    pub fn next_field_element(&mut self) -> Fr {
        let r = modulus();
        loop {
            let v = self.next_bits(254);
            if v < r {
                return fr_from_biguint(&v);
            }
        }
    }

    /// Next 254 bits reduced modulo r without rejection (used by scripts that
    /// draw matrix entries as `F(bits)`).
    pub fn next_field_element_mod_r(&mut self) -> Fr {
        fr_from_biguint(&self.next_bits(254))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::fr_const;

    /// First round constants of circomlib's Poseidon t=3 (R_F=8, R_P=57) and t=2
    /// (R_P=56), from iden3/circomlib `circuits/poseidon_constants.circom`
    /// (the unoptimised C table begins with these values).
    #[test]
    fn first_constants_match_circomlib() {
        let mut g = Grain::bn254(3, 8, 57);
        assert_eq!(
            g.next_field_element(),
            fr_const("0x0ee9a592ba9a9518d05986d656f40c2114c4993c11bb29938d21d47304cd8e6e")
        );
    }
}
