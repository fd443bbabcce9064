//! Serde helpers writing BN254 scalars [`Fr`] as decimal strings (the
//! circom/snarkjs convention) and reading decimal or `0x`-hex strings.
//!
//! Use with `#[serde(with = "zkbench_merkle::serde_fr")]` on an `Fr` field,
//! `serde_fr::vec` on `Vec<Fr>`, `serde_fr::vec_vec` on `Vec<Vec<Fr>>` and
//! `serde_fr::option` on `Option<Fr>`.

use serde::{de::Error as _, Deserialize, Deserializer, Serialize, Serializer};
use zkbench_hash::{field::fr_to_decimal, parse_fr, Fr};

/// Serialises one field element as a decimal string.
pub fn serialize<S: Serializer>(x: &Fr, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&fr_to_decimal(x))
}

/// Deserialises one field element from a decimal or `0x`-hex string.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fr, D::Error> {
    let text = String::deserialize(d)?;
    parse_fr(&text).map_err(D::Error::custom)
}

/// A field element wrapped for serde (decimal-string form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrStr(pub Fr);

impl Serialize for FrStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for FrStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d).map(FrStr)
    }
}

/// `Vec<Fr>` as a list of decimal strings.
pub mod vec {
    use super::*;

    /// Serialises a list of field elements.
    pub fn serialize<S: Serializer>(xs: &[Fr], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(xs.iter().map(|x| FrStr(*x)))
    }

    /// Deserialises a list of field elements.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Fr>, D::Error> {
        let v = Vec::<FrStr>::deserialize(d)?;
        Ok(v.into_iter().map(|x| x.0).collect())
    }
}

/// `Vec<Vec<Fr>>` as a list of lists of decimal strings.
pub mod vec_vec {
    use super::*;

    /// Serialises a list of lists of field elements.
    pub fn serialize<S: Serializer>(xs: &[Vec<Fr>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            xs.iter()
                .map(|row| row.iter().map(|x| FrStr(*x)).collect::<Vec<_>>()),
        )
    }

    /// Deserialises a list of lists of field elements.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<Fr>>, D::Error> {
        let v = Vec::<Vec<FrStr>>::deserialize(d)?;
        Ok(v.into_iter()
            .map(|row| row.into_iter().map(|x| x.0).collect())
            .collect())
    }
}

/// `Option<Fr>` as a decimal string or `null`.
pub mod option {
    use super::*;

    /// Serialises an optional field element.
    pub fn serialize<S: Serializer>(x: &Option<Fr>, s: S) -> Result<S::Ok, S::Error> {
        x.map(FrStr).serialize(s)
    }

    /// Deserialises an optional field element.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Fr>, D::Error> {
        Ok(Option::<FrStr>::deserialize(d)?.map(|x| x.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct T {
        #[serde(with = "crate::serde_fr")]
        a: Fr,
        #[serde(with = "crate::serde_fr::vec")]
        b: Vec<Fr>,
        #[serde(with = "crate::serde_fr::vec_vec")]
        c: Vec<Vec<Fr>>,
        #[serde(with = "crate::serde_fr::option")]
        d: Option<Fr>,
    }

    #[test]
    fn round_trip_decimal() {
        let t = T {
            a: Fr::from(5u64),
            b: vec![Fr::from(1u64), -Fr::from(1u64)],
            c: vec![vec![], vec![Fr::from(7u64)]],
            d: None,
        };
        let j = serde_json::to_string(&t).unwrap();
        assert!(j.contains("\"5\""));
        assert!(j.contains(
            "\"21888242871839275222246405745257275088548364400416034343698204186575808495616\""
        ));
        assert_eq!(serde_json::from_str::<T>(&j).unwrap(), t);
        let hex = r#"{"a":"0x05","b":[],"c":[],"d":"9"}"#;
        let t2: T = serde_json::from_str(hex).unwrap();
        assert_eq!(t2.a, Fr::from(5u64));
        assert_eq!(t2.d, Some(Fr::from(9u64)));
        assert!(serde_json::from_str::<T>(r#"{"a":"abc","b":[],"c":[],"d":null}"#).is_err());
    }
}
