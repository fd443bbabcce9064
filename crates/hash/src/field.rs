//! The BN254 scalar field `Fr` and conversions to and from text, integers and bytes.

use ark_ff::{BigInteger, PrimeField};
use num_bigint::BigUint;
use num_traits::Num;

use crate::HashError;

/// The BN254 (alt_bn128, "bn128" in circom) scalar field,
/// r = 21888242871839275222246405745257275088548364400416034343698204186575808495617.
pub type Fr = ark_bn254::Fr;

/// The modulus r of [`Fr`] as a [`BigUint`].
pub fn modulus() -> BigUint {
    BigUint::from_bytes_le(&Fr::MODULUS.to_bytes_le())
}

/// Parses a canonical field element from decimal or `0x`-prefixed hexadecimal text.
///
/// Values `>= r`, negative numbers, empty strings and non-digits are rejected with
/// [`HashError::InvalidFieldElement`]; nothing is silently reduced.
pub fn parse_fr(text: &str) -> Result<Fr, HashError> {
    let err = |reason: &str| HashError::InvalidFieldElement {
        input: text.to_string(),
        reason: reason.to_string(),
        modulus: modulus().to_string(),
    };
    let t = text.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (t, 10),
    };
    if digits.is_empty() {
        return Err(err("empty number"));
    }
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(err(if radix == 16 {
            "not a hexadecimal number"
        } else {
            "not a decimal number"
        }));
    }
    let v = BigUint::from_str_radix(digits, radix).map_err(|_| err("not a number"))?;
    if v >= modulus() {
        return Err(err("value is not below the field modulus"));
    }
    Ok(fr_from_biguint(&v))
}

/// Converts an integer to a field element, reducing modulo r.
pub fn fr_from_biguint(v: &BigUint) -> Fr {
    Fr::from_le_bytes_mod_order(&v.to_bytes_le())
}

/// Converts a field element to its canonical integer representative.
pub fn fr_to_biguint(x: &Fr) -> BigUint {
    BigUint::from_bytes_le(&x.into_bigint().to_bytes_le())
}

/// Decimal text of the canonical representative (the format circom/snarkjs use).
pub fn fr_to_decimal(x: &Fr) -> String {
    fr_to_biguint(x).to_string()
}

/// `0x`-prefixed, 64-digit lower-case hexadecimal text of the canonical representative.
pub fn fr_to_hex(x: &Fr) -> String {
    format!("0x{}", hex::encode(x.into_bigint().to_bytes_be()))
}

/// Parses a field element from trusted constant text (decimal or 0x-hex).
///
/// # Panics
/// Panics if the text is not a canonical field element: only for constants
/// compiled into this crate, where that is a programmer error.
pub fn fr_const(text: &str) -> Fr {
    parse_fr(text).unwrap_or_else(|e| panic!("bad built-in constant: {e}"))
}

/// Reads big-endian bytes as an integer and reduces it modulo r
/// (as `keccak256(...) mod r` in circomlib and tornado-core).
pub fn fr_from_be_bytes_mod_order(bytes: &[u8]) -> Fr {
    Fr::from_be_bytes_mod_order(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decimal_and_hex() {
        assert_eq!(parse_fr("0").unwrap(), Fr::from(0u64));
        assert_eq!(parse_fr("255").unwrap(), Fr::from(255u64));
        assert_eq!(parse_fr("0xff").unwrap(), Fr::from(255u64));
        assert_eq!(parse_fr(" 0XFF ").unwrap(), Fr::from(255u64));
        let r_minus_1 = (modulus() - 1u32).to_string();
        assert_eq!(parse_fr(&r_minus_1).unwrap(), -Fr::from(1u64));
    }

    #[test]
    fn rejects_bad_text() {
        let r = modulus().to_string();
        for bad in ["", "0x", "-1", "12a", "0xfg", "1.5", r.as_str()] {
            let e = parse_fr(bad).unwrap_err();
            assert!(
                matches!(e, HashError::InvalidFieldElement { .. }),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn round_trips() {
        let x = parse_fr("12345678901234567890123456789").unwrap();
        assert_eq!(parse_fr(&fr_to_decimal(&x)).unwrap(), x);
        assert_eq!(parse_fr(&fr_to_hex(&x)).unwrap(), x);
        assert_eq!(fr_to_hex(&Fr::from(1u64)).len(), 66);
    }
}
