//! The headline of a run with peers: the same statement proved by a zkbench
//! proof system and by a peer (an external runner such as `gnark-groth16`),
//! with the ratio of their median prove times taken in the same run.
//!
//! Two proof records prove the same statement when their hash (and exponent),
//! arity, leaves (or batch depth) and circuit are equal; the peer's `case.hash`
//! uses zkbench's family names for exactly this reason (`poseidon2-gnark` is
//! gnark-crypto's default Poseidon2, docs/external-runners.md).

use zkbench_results::{
    case::{format_leaves, Case, CaseKind, Circuit},
    results::{Record, Status},
};

use crate::Context;

/// One zkbench system against one peer on one statement.
#[derive(Clone, Debug, PartialEq)]
pub struct SameStatement {
    /// `hash / circuit / arity / leaves`, e.g. `poseidon2-gnark membership, arity 2, 2^32 leaves`.
    pub statement: String,
    /// zkbench's proof system (`groth16`, `halo2-kzg`).
    pub ours: String,
    /// The peer's `case.system` (`gnark-groth16`, ...).
    pub peer: String,
    /// Our median warm prove time, seconds.
    pub ours_prove_s: f64,
    /// The peer's median warm prove time, seconds.
    pub peer_prove_s: f64,
    /// Our first proof after loading keys (`prove_cold`), seconds.
    pub ours_cold_s: Option<f64>,
    /// The peer's first proof (`prove_cold`), seconds.
    pub peer_cold_s: Option<f64>,
    /// Our constraint count (R1CS systems).
    pub ours_constraints: Option<f64>,
    /// The peer's constraint count.
    pub peer_constraints: Option<f64>,
}

impl SameStatement {
    /// `ours / peer` warm prove time (below 1: zkbench is faster).
    pub fn ratio(&self) -> f64 {
        self.ours_prove_s / self.peer_prove_s
    }

    /// `ours / peer` cold prove time, when both are measured.
    pub fn cold_ratio(&self) -> Option<f64> {
        Some(self.ours_cold_s? / self.peer_cold_s?)
    }
}

/// hash, arity, leaves, batch depth, circuit, and the threads (`None`: all
/// available): runs at different thread counts are not set against each
/// other, a run on all threads against any.
#[derive(Clone, Debug, PartialEq)]
struct StatementKey {
    statement: (String, usize, Option<u64>, Option<u32>, String),
    threads: Option<usize>,
}

impl StatementKey {
    /// Whether two keys name the same statement at comparable threads.
    fn matches(&self, other: &Self) -> bool {
        self.statement == other.statement
            && (self.threads == other.threads || self.threads.is_none() || other.threads.is_none())
    }
}

/// The hash as statements compare it: a family's default exponent is the same hash whether
/// the record names it (zkbench: `poseidon2`, alpha 5) or not (a peer: `poseidon2`).
fn statement_hash(c: &Case, ctx: &Context) -> String {
    let default = (ctx.default_alpha)(&c.hash);
    match c.alpha {
        Some(a) if Some(a) != default => c.hash_label(),
        _ => c.hash.to_string(),
    }
}

fn statement_key(c: &Case, ctx: &Context) -> Option<StatementKey> {
    Some(StatementKey {
        statement: (
            statement_hash(c, ctx),
            c.arity?,
            c.leaves,
            c.depth,
            c.circuit?.name().to_string(),
        ),
        threads: (c.threads > 0).then_some(c.threads),
    })
}

fn describe(c: &Case) -> String {
    let mut s = format!(
        "{} {}",
        c.hash_label(),
        c.circuit.map(|k| k.name()).unwrap_or("-")
    );
    if let Some(a) = c.arity {
        s += &format!(", arity {a}");
    }
    if let Some(l) = c.leaves {
        s += &format!(", {} leaves", format_leaves(l));
    }
    if let Some(d) = c.depth {
        s += &format!(", depth {d}");
    }
    match c.threads {
        0 => {}
        1 => s += ", 1 thread",
        t => s += &format!(", {t} threads"),
    }
    s
}

/// The median of the successful `phase` record of case `id`.
pub(crate) fn phase_median(recs: &[&Record], id: &str, phase: &str) -> Option<f64> {
    recs.iter()
        .find(|r| r.case_id == id && r.phase == phase && r.status == Status::Ok)
        .and_then(|r| r.median())
}

/// The first value of metric `key` among the records of case `id`.
pub(crate) fn metric(recs: &[&Record], id: &str, key: &str) -> Option<f64> {
    recs.iter()
        .filter(|r| r.case_id == id)
        .find_map(|r| r.metrics.get(key).copied())
}

/// Every (zkbench system, peer) pair that proved the same statement, with
/// both warm prove times measured; `ctx` names zkbench's proof systems,
/// every other proof system is a peer.
pub fn same_statement(recs: &[&Record], ctx: &Context) -> Vec<SameStatement> {
    let ours = ctx.ours();
    let prove: Vec<&&Record> = recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Proof && r.phase == "prove" && r.status == Status::Ok)
        .collect();
    let mut out = vec![];
    for p in prove
        .iter()
        .filter(|r| !ours.contains(&r.case.system.as_str()))
    {
        let Some(key) = statement_key(&p.case, ctx) else {
            continue;
        };
        for o in prove
            .iter()
            .filter(|r| ours.contains(&r.case.system.as_str()))
            .filter(|r| statement_key(&r.case, ctx).is_some_and(|k| k.matches(&key)))
        {
            let (Some(op), Some(pp)) = (o.median(), p.median()) else {
                continue;
            };
            out.push(SameStatement {
                statement: describe(&p.case),
                ours: o.case.system.clone(),
                peer: p.case.system.clone(),
                ours_prove_s: op,
                peer_prove_s: pp,
                ours_cold_s: phase_median(recs, &o.case_id, "prove_cold"),
                peer_cold_s: phase_median(recs, &p.case_id, "prove_cold"),
                ours_constraints: metric(recs, &o.case_id, "constraints"),
                peer_constraints: metric(recs, &p.case_id, "constraints"),
            });
        }
    }
    out
}

/// One peer's result on a statement: its median warm prove time, or why it has none.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerResult {
    /// The peer's `case.system`.
    pub system: String,
    /// Median warm prove time, seconds (`None`: the peer failed).
    pub prove_s: Option<f64>,
    /// The failure (status and reason) when there is no prove time.
    pub failure: Option<String>,
    /// Constraint count the peer reports.
    pub constraints: Option<f64>,
    /// Whether the peer recorded its proof rejected with a changed public input.
    pub rejects_tampered: Option<bool>,
}

/// The headline of one statement: zkbench's fastest system against every peer.
#[derive(Clone, Debug, PartialEq)]
pub struct StatementHeadline {
    /// `hash / circuit / arity / leaves`.
    pub statement: String,
    /// zkbench's fastest proof system on it and its median warm prove time.
    pub best_ours: Option<(String, f64)>,
    /// Every peer that ran it (or failed on it).
    pub peers: Vec<PeerResult>,
}

impl StatementHeadline {
    /// `zkbench best / peer` for one peer (below 1: zkbench is faster).
    pub fn ratio(&self, peer: &PeerResult) -> Option<f64> {
        Some(self.best_ours.as_ref()?.1 / peer.prove_s?)
    }
}

/// One headline per statement that a peer ran (or failed on), in order of first appearance.
pub fn per_statement(recs: &[&Record], ctx: &Context) -> Vec<StatementHeadline> {
    let ours = ctx.ours();
    let proofs: Vec<&&Record> = recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Proof)
        .collect();
    let mut out = vec![];
    for key in peer_statement_keys(&proofs, &ours, ctx) {
        let same: Vec<&&Record> = proofs
            .iter()
            .filter(|r| statement_key(&r.case, ctx).is_some_and(|k| k.matches(&key)))
            .copied()
            .collect();
        let Some(first) = same.first() else { continue };
        let statement = describe(&first.case);
        let best_ours = best_of_ours(&same, &ours);
        let peers = peer_systems(&same, &ours)
            .into_iter()
            .map(|sys| peer_result(&same, sys))
            .collect();
        out.push(StatementHeadline {
            statement,
            best_ours,
            peers,
        });
    }
    out
}

/// The distinct statements of the peers' proof records, in order of first appearance.
fn peer_statement_keys(proofs: &[&&Record], ours: &[&str], ctx: &Context) -> Vec<StatementKey> {
    let mut keys: Vec<StatementKey> = vec![];
    for r in proofs
        .iter()
        .filter(|r| !ours.contains(&r.case.system.as_str()))
    {
        if let Some(k) = statement_key(&r.case, ctx) {
            if !keys.iter().any(|x| x == &k) {
                keys.push(k);
            }
        }
    }
    keys
}

/// zkbench's fastest system among the records `same` of one statement, with its median.
fn best_of_ours(same: &[&&Record], ours: &[&str]) -> Option<(String, f64)> {
    same.iter()
        .filter(|r| ours.contains(&r.case.system.as_str()))
        .filter(|r| r.phase == "prove" && r.status == Status::Ok)
        .filter_map(|r| Some((r.case.system.clone(), r.median()?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The distinct peer systems among the records `same` of one statement, in order of first appearance.
fn peer_systems(same: &[&&Record], ours: &[&str]) -> Vec<String> {
    let mut systems: Vec<String> = vec![];
    for r in same
        .iter()
        .filter(|r| !ours.contains(&r.case.system.as_str()))
    {
        if !systems.contains(&r.case.system) {
            systems.push(r.case.system.clone());
        }
    }
    systems
}

/// Peer `sys`'s result among the records `same` of one statement.
fn peer_result(same: &[&&Record], sys: String) -> PeerResult {
    let mine: Vec<&&Record> = same
        .iter()
        .filter(|r| r.case.system == sys)
        .copied()
        .collect();
    let prove = mine
        .iter()
        .find(|r| r.phase == "prove" && r.status == Status::Ok)
        .and_then(|r| r.median());
    let failure = mine
        .iter()
        .find(|r| r.status != Status::Ok)
        .map(|r| {
            let status = format!("{:?}", r.status).to_lowercase();
            format!(
                "{status} in {}: {}",
                r.phase,
                r.error.as_deref().unwrap_or("")
            )
        })
        .filter(|_| prove.is_none())
        .or_else(|| prove.is_none().then(|| "no prove record".to_string()));
    let tampered = mine.iter().find(|r| r.phase == "verify-tampered");
    PeerResult {
        constraints: mine
            .iter()
            .find_map(|r| r.metrics.get("constraints").copied()),
        rejects_tampered: tampered
            .map(|r| r.status == Status::Ok && r.metrics.get("rejected").copied() == Some(1.0)),
        system: sys,
        prove_s: prove,
        failure,
    }
}

/// The fastest configuration of one proof system in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Fastest {
    /// `case.system`.
    pub system: String,
    /// The configuration (statement description).
    pub config: String,
    /// Median warm prove time, seconds.
    pub prove_s: f64,
    /// Constraints, when reported.
    pub constraints: Option<f64>,
}

/// For every proof system in the run, its fastest successful configuration (warm prove median).
pub fn fastest_per_system(recs: &[&Record]) -> Vec<Fastest> {
    let mut best: Vec<Fastest> = vec![];
    for r in recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Proof && r.phase == "prove" && r.status == Status::Ok)
    {
        let Some(m) = r.median() else { continue };
        let f = Fastest {
            system: r.case.system.clone(),
            config: describe(&r.case),
            prove_s: m,
            constraints: r.metrics.get("constraints").copied(),
        };
        match best.iter_mut().find(|b| b.system == f.system) {
            Some(b) if b.prove_s > m => *b = f,
            Some(_) => {}
            None => best.push(f),
        }
    }
    best.sort_by(|a, b| a.prove_s.total_cmp(&b.prove_s));
    best
}

/// A proof-system family, as the family headline groups zkbench's systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Pairing-based R1CS SNARK (`groth16*`).
    Groth16,
    /// PLONKish with KZG commitments (`halo2*`).
    Halo2,
    /// Hash-based, transparent (`stark*`).
    Stark,
}

impl Family {
    /// The family of proof system `system`, `None` for others (peers, ...).
    pub fn of(system: &str) -> Option<Family> {
        [
            ("groth16", Family::Groth16),
            ("halo2", Family::Halo2),
            ("stark", Family::Stark),
        ]
        .into_iter()
        .find_map(|(prefix, f)| system.starts_with(prefix).then_some(f))
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Groth16 => "Groth16",
            Family::Halo2 => "Halo2",
            Family::Stark => "STARK",
        }
    }
}

/// The fastest note spend of one family at one thread count, with what a
/// verifier pays for it.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilySpend {
    /// The family.
    pub family: Family,
    /// `case.system` of its fastest spend.
    pub system: String,
    /// The configuration (statement description, threads included).
    pub config: String,
    /// `case.threads`.
    pub threads: usize,
    /// Median warm prove time, seconds.
    pub prove_s: f64,
    /// Median verify time, seconds.
    pub verify_s: Option<f64>,
    /// Proof bytes.
    pub proof_bytes: Option<f64>,
    /// The proof's calldata gas (EIP-2028).
    pub calldata_gas: Option<f64>,
    /// Conjectured security, when the system reports it (the STARKs).
    pub security_bits: Option<f64>,
}

/// For each family of zkbench's systems (named by `ctx`) and thread count,
/// its fastest successful spend proof, in family order.
pub fn fastest_spend_per_family(recs: &[&Record], ctx: &Context) -> Vec<FamilySpend> {
    let ours = ctx.ours();
    let mut best: Vec<FamilySpend> = vec![];
    for r in recs.iter().filter(|r| {
        r.case.kind == CaseKind::Proof
            && r.case.circuit == Some(Circuit::Spend)
            && r.phase == "prove"
            && r.status == Status::Ok
            && ours.contains(&r.case.system.as_str())
    }) {
        let (Some(family), Some(prove_s)) = (Family::of(&r.case.system), r.median()) else {
            continue;
        };
        let m = |k: &str| metric(recs, &r.case_id, k);
        let f = FamilySpend {
            family,
            system: r.case.system.clone(),
            config: describe(&r.case),
            threads: r.case.threads,
            prove_s,
            verify_s: phase_median(recs, &r.case_id, "verify"),
            proof_bytes: m("proof_bytes"),
            calldata_gas: m("proof_calldata_gas"),
            security_bits: m("security_bits"),
        };
        match best
            .iter_mut()
            .find(|b| b.family == family && b.threads == f.threads)
        {
            Some(b) if b.prove_s > prove_s => *b = f,
            Some(_) => {}
            None => best.push(f),
        }
    }
    best.sort_by_key(|a| (a.threads, a.family));
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::env::Environment;

    /// `ours` are zkbench's systems; poseidon2's default exponent is 5.
    fn ctx(ours: &[&str]) -> Context {
        Context::new(ours, |h| (h == "poseidon2").then_some(5))
    }

    fn rec(system: &str, hash: &str, phase: &str, s: f64, constraints: f64) -> Record {
        let case = crate::fixtures::membership_case(system, hash);
        let mut r = Record::new(&case, phase, 2, &Environment::default());
        r.status = Status::Ok;
        r.samples_s = vec![s, s];
        r.summary = zkbench_results::stats::Summary::of(&r.samples_s);
        r.metrics.insert("constraints".into(), constraints);
        r
    }

    /// Runs at different thread counts are not set against each other.
    #[test]
    fn pairs_runs_at_the_same_threads_only() {
        let at = |system: &str, t: usize, s: f64| {
            let mut r = rec(system, "poseidon2-gnark", "prove", s, 6000.0);
            r.case.threads = t;
            r.case_id = format!("{system}/threads{t}");
            r
        };
        let recs = [
            at("groth16", 1, 0.10),
            at("groth16", 16, 0.03),
            at("gnark-groth16", 1, 0.30),
            at("gnark-groth16", 16, 0.04),
        ];
        let refs: Vec<&Record> = recs.iter().collect();
        let rows = same_statement(&refs, &ctx(&["groth16"]));
        assert_eq!(rows.len(), 2, "{rows:?}");
        let mut ratios: Vec<f64> = rows.iter().map(|r| r.ratio()).collect();
        ratios.sort_by(f64::total_cmp);
        assert!((ratios[0] - 1.0 / 3.0).abs() < 1e-9 && (ratios[1] - 0.75).abs() < 1e-9);
        assert!(rows.iter().any(|r| r.statement.ends_with(", 16 threads")));
    }

    #[test]
    fn pairs_the_same_statement_only() {
        let recs = [
            rec("groth16", "poseidon2-gnark", "prove", 0.06, 5985.0),
            rec("groth16", "poseidon2-gnark", "prove_cold", 0.07, 5985.0),
            rec("groth16", "poseidon2", "prove", 0.09, 6945.0),
            rec("gnark-groth16", "poseidon2-gnark", "prove", 0.12, 6049.0),
            rec(
                "gnark-groth16",
                "poseidon2-gnark",
                "prove_cold",
                0.14,
                6049.0,
            ),
        ];
        let refs: Vec<&Record> = recs.iter().collect();
        let rows = same_statement(&refs, &ctx(&["groth16", "halo2-kzg"]));
        assert_eq!(rows.len(), 1, "{rows:?}");
        let r = &rows[0];
        assert_eq!(
            (r.ours.as_str(), r.peer.as_str()),
            ("groth16", "gnark-groth16")
        );
        assert!((r.ratio() - 0.5).abs() < 1e-12);
        assert!((r.cold_ratio().unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(r.ours_constraints, Some(5985.0));
        assert_eq!(r.peer_constraints, Some(6049.0));
        assert!(r.statement.starts_with("poseidon2-gnark membership"));
    }

    #[test]
    fn default_alpha_pairs_with_a_peer_that_names_none() {
        let mut ours = rec("groth16", "poseidon2", "prove", 0.05, 216.0);
        ours.case.alpha = Some(5);
        let mut other = rec("groth16", "poseidon2", "prove", 0.01, 200.0);
        other.case.alpha = Some(7);
        let peer = rec("snarkjs-groth16", "poseidon2", "prove", 0.2, 216.0);
        let refs = [&ours, &other, &peer];
        let rows = same_statement(&refs, &ctx(&["groth16"]));
        assert_eq!(rows.len(), 1, "{rows:?}");
        // paired with the alpha-5 record, not the (faster) alpha-7 one
        assert!((rows[0].ratio() - 0.25).abs() < 1e-12);
    }

    #[test]
    fn headline_per_statement_shows_best_and_failures() {
        let mut failed = rec("snarkjs-fflonk", "poseidon2-gnark", "setup", 1.0, 0.0);
        failed.status = Status::Timeout;
        failed.error = Some("timed out".into());
        let mut tampered = rec(
            "gnark-groth16",
            "poseidon2-gnark",
            "verify-tampered",
            0.001,
            0.0,
        );
        tampered.metrics.insert("rejected".into(), 1.0);
        let recs = [
            rec("groth16", "poseidon2-gnark", "prove", 0.06, 5985.0),
            rec("halo2-kzg", "poseidon2-gnark", "prove", 0.04, 0.0),
            rec("gnark-groth16", "poseidon2-gnark", "prove", 0.12, 6049.0),
            tampered,
            failed,
            rec("groth16", "poseidon", "prove", 0.2, 7000.0),
        ];
        let refs: Vec<&Record> = recs.iter().collect();
        let h = per_statement(&refs, &ctx(&["groth16", "halo2-kzg"]));
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].best_ours, Some(("halo2-kzg".to_string(), 0.04)));
        assert_eq!(h[0].peers.len(), 2);
        let g = &h[0].peers[0];
        assert_eq!(g.system, "gnark-groth16");
        assert!((h[0].ratio(g).unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(g.rejects_tampered, Some(true));
        let f = &h[0].peers[1];
        assert_eq!(f.prove_s, None);
        assert!(f.failure.as_deref().unwrap().contains("timeout"), "{f:?}");
        let fast = fastest_per_system(&refs);
        assert_eq!(fast[0].system, "halo2-kzg");
        assert_eq!(
            fast.iter().find(|f| f.system == "groth16").unwrap().prove_s,
            0.06
        );
    }

    /// Each family's fastest spend, with its verify time, size and (STARK) security;
    /// membership proofs and peers stay out.
    #[test]
    fn fastest_spend_per_family_takes_each_familys_best_spend() {
        let spend = |system: &str, phase: &str, s: f64| {
            let mut r = rec(system, "poseidon2", phase, s, 1.0);
            r.case.circuit = Some(Circuit::Spend);
            r.case_id = format!("{system}/spend");
            r.metrics.insert("proof_bytes".into(), 100.0 * s);
            if system.starts_with("stark") {
                r.metrics.insert("security_bits".into(), 102.0);
            }
            r
        };
        let recs = [
            spend("groth16", "prove", 0.03),
            spend("groth16", "verify", 0.002),
            spend("halo2-kzg", "prove", 0.08),
            spend("stark-babybear", "prove", 0.02),
            spend("stark-babybear", "verify", 0.009),
            spend("stark-babybear-128", "prove", 0.04),
            spend("gnark-groth16", "prove", 0.01),
            rec("groth16", "poseidon2", "prove", 0.001, 1.0),
        ];
        let refs: Vec<&Record> = recs.iter().collect();
        let ctx = ctx(&[
            "groth16",
            "halo2-kzg",
            "stark-babybear",
            "stark-babybear-128",
        ]);
        let rows = fastest_spend_per_family(&refs, &ctx);
        let got: Vec<(Family, &str, f64)> = rows
            .iter()
            .map(|r| (r.family, r.system.as_str(), r.prove_s))
            .collect();
        assert_eq!(
            got,
            [
                (Family::Groth16, "groth16", 0.03),
                (Family::Halo2, "halo2-kzg", 0.08),
                (Family::Stark, "stark-babybear", 0.02)
            ]
        );
        assert_eq!(rows[2].verify_s, Some(0.009));
        assert_eq!(rows[2].security_bits, Some(102.0));
        assert_eq!(rows[1].verify_s, None);
        assert_eq!(rows[0].proof_bytes, Some(3.0));
    }
}
