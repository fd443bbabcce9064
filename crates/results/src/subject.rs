//! What a case's `hash` field names: a hash family, or — for primitive
//! cases — a group, field, curve or polynomial commitment scheme.
//!
//! On the wire (`results.json`, the results server) the field stays one
//! string, as it always was; in code it is a [`Subject`], so that a group
//! is never matched as a hash name and the primitives' dispatch is a
//! `match` over [`Primitive`] rather than over strings.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A group, field, curve or commitment scheme measured by a primitive case
/// (`msm`, `fft`, `pairing`, `field`, `pcs-*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Primitive {
    /// `bn254-g1`: BN254's G1 (MSM).
    Bn254G1,
    /// `bn254-g2`: BN254's G2 over Fq2 (MSM).
    Bn254G2,
    /// `bn254-fr`: BN254's scalar field (FFT, field operations).
    Bn254Fr,
    /// `bn254-fq`: BN254's base field (field operations).
    Bn254Fq,
    /// `bn254`: the curve's optimal ate pairing.
    Bn254,
    /// `kzg-bn254`: KZG commitments on BN254.
    KzgBn254,
    /// `ipa-pasta`: inner-product-argument commitments on the Pasta curves.
    IpaPasta,
    /// `fri-babybear`: FRI over BabyBear.
    FriBabyBear,
    /// `fri-goldilocks`: FRI over Goldilocks.
    FriGoldilocks,
}

/// What sort of object a [`Primitive`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// An elliptic-curve group.
    Group,
    /// A prime field.
    Field,
    /// A pairing-friendly curve (its pairing).
    Curve,
    /// A polynomial commitment scheme.
    Scheme,
}

impl Primitive {
    /// Every primitive object.
    pub const ALL: [Primitive; 9] = [
        Primitive::Bn254G1,
        Primitive::Bn254G2,
        Primitive::Bn254Fr,
        Primitive::Bn254Fq,
        Primitive::Bn254,
        Primitive::KzgBn254,
        Primitive::IpaPasta,
        Primitive::FriBabyBear,
        Primitive::FriGoldilocks,
    ];

    /// The record and suite name (`bn254-g1`, `kzg-bn254`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Primitive::Bn254G1 => "bn254-g1",
            Primitive::Bn254G2 => "bn254-g2",
            Primitive::Bn254Fr => "bn254-fr",
            Primitive::Bn254Fq => "bn254-fq",
            Primitive::Bn254 => "bn254",
            Primitive::KzgBn254 => "kzg-bn254",
            Primitive::IpaPasta => "ipa-pasta",
            Primitive::FriBabyBear => "fri-babybear",
            Primitive::FriGoldilocks => "fri-goldilocks",
        }
    }

    /// Group, field, curve or scheme.
    pub const fn kind(self) -> PrimitiveKind {
        match self {
            Primitive::Bn254G1 | Primitive::Bn254G2 => PrimitiveKind::Group,
            Primitive::Bn254Fr | Primitive::Bn254Fq => PrimitiveKind::Field,
            Primitive::Bn254 => PrimitiveKind::Curve,
            _ => PrimitiveKind::Scheme,
        }
    }

    /// The primitive named `name` (exact, as records write it).
    pub fn from_name(name: &str) -> Option<Primitive> {
        Primitive::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The `hash` field of a case: a hash family's name (zkbench-hash's
/// registry name, or the name a peer gives the same instance, e.g.
/// `poseidon2-gnark`), or a [`Primitive`].
///
/// It reads as the string it is written as (`Deref<Target = str>`,
/// comparisons with strings); equality, ordering and hashing are those of
/// that string, so cases sort as they always did.
#[derive(Clone, Debug)]
pub enum Subject {
    /// A hash family, by name.
    Hash(String),
    /// A group, field, curve or commitment scheme.
    Primitive(Primitive),
}

impl Subject {
    /// The subject written `name`: a [`Primitive`] when `name` is one of
    /// their names, else a hash family.
    pub fn parse(name: &str) -> Subject {
        match Primitive::from_name(name) {
            Some(p) => Subject::Primitive(p),
            None => Subject::Hash(name.to_string()),
        }
    }

    /// The name as records write it.
    pub fn as_str(&self) -> &str {
        match self {
            Subject::Hash(s) => s,
            Subject::Primitive(p) => p.name(),
        }
    }

    /// The primitive, when this names one.
    pub fn primitive(&self) -> Option<Primitive> {
        match self {
            Subject::Primitive(p) => Some(*p),
            Subject::Hash(_) => None,
        }
    }

    /// The hash family's name, when this names one.
    pub fn hash_family(&self) -> Option<&str> {
        match self {
            Subject::Hash(s) => Some(s),
            Subject::Primitive(_) => None,
        }
    }
}

impl Deref for Subject {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Subject {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Subject {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Subject {
    fn from(s: &str) -> Self {
        Subject::parse(s)
    }
}

impl From<String> for Subject {
    fn from(s: String) -> Self {
        match Primitive::from_name(&s) {
            Some(p) => Subject::Primitive(p),
            None => Subject::Hash(s),
        }
    }
}

impl From<&String> for Subject {
    fn from(s: &String) -> Self {
        Subject::parse(s)
    }
}

impl From<Primitive> for Subject {
    fn from(p: Primitive) -> Self {
        Subject::Primitive(p)
    }
}

impl From<Subject> for String {
    fn from(s: Subject) -> String {
        match s {
            Subject::Hash(s) => s,
            Subject::Primitive(p) => p.name().to_string(),
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Subject {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Subject {}

impl PartialOrd for Subject {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Subject {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Subject {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

/// Comparisons with strings: `case.hash == "poseidon2"`.
macro_rules! eq_str {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Subject {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Subject> for $t {
            fn eq(&self, other: &Subject) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_str!(str, &str, String);

impl Serialize for Subject {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Subject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Subject::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_primitives_are_typed() {
        for p in Primitive::ALL {
            let s = Subject::parse(p.name());
            assert_eq!(s.primitive(), Some(p));
            assert_eq!(s.as_str(), p.name());
            assert_eq!(Primitive::from_name(&p.to_string()), Some(p));
        }
        let h = Subject::parse("poseidon2-gnark");
        assert_eq!(h.hash_family(), Some("poseidon2-gnark"));
        assert_eq!(h.primitive(), None);
        assert_eq!(
            Subject::parse("BN254-G1").primitive(),
            None,
            "names are exact"
        );
    }

    #[test]
    fn serialises_as_the_plain_string() {
        let s = Subject::from(Primitive::KzgBn254);
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"kzg-bn254\"");
        let back: Subject = serde_json::from_str("\"griffin\"").unwrap();
        assert_eq!(back, "griffin");
        let g: Subject = serde_json::from_str("\"bn254-g2\"").unwrap();
        assert_eq!(g.primitive(), Some(Primitive::Bn254G2));
    }

    #[test]
    fn orders_and_compares_as_its_string() {
        let mut v: Vec<Subject> = ["poseidon", "bn254-g1", "anemoi", "kzg-bn254"]
            .into_iter()
            .map(Subject::from)
            .collect();
        v.sort();
        let names: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["anemoi", "bn254-g1", "kzg-bn254", "poseidon"]);
        // the comparisons with `str` and `String` are what is tested here
        #[allow(clippy::cmp_owned)]
        let (with_str, with_string) = (
            Subject::from("x") == *"x" && "x" == Subject::from("x"),
            String::from("bn254-fr") == Subject::from(Primitive::Bn254Fr),
        );
        assert!(with_str && with_string);
    }
}
