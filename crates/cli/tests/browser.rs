//! End to end in a browser: `zkbench serve` (this crate's binary) serves the built page
//! (web/dist), headless Chromium opens `/?autorun=1` with the page's small `smoke` profile
//! through `web/scripts/browser.mjs` (puppeteer-core, the system's Chromium), and the
//! test checks the page's results document and that its Groth16 proof verifies natively
//! and with the snarkjs CLI.
//!
//! Skipped, loudly on stderr, only when Chromium or the built page is absent (building
//! the page takes minutes: `bash scripts/build-web.sh`).

use std::process::Command;

use zkbench_core::{ResultsFile, Status};

use crate::common::{chromium, repo};

#[test]
fn autorun_page_records_and_groth16_proof_verify_natively_and_with_snarkjs() {
    let r = repo();
    let built = r.join("web/dist/index.html").is_file()
        && r.join("web/node_modules/puppeteer-core").is_dir()
        && r.join("web/node_modules/snarkjs").is_dir();
    let Some(_browser) = chromium() else {
        eprintln!(
            "\n!!! SKIPPED browser end-to-end test: no Chromium (apt-get install chromium)\n"
        );
        return;
    };
    if !built {
        eprintln!(
            "\n!!! SKIPPED browser end-to-end test: the page is not built \
             (web/dist, web/node_modules); run `bash scripts/build-web.sh`\n"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.json");
    let proofs = dir.path().join("proofs.json");
    let form = dir.path().join("form.json");
    let out = Command::new("node")
        .arg(r.join("web/scripts/browser.mjs"))
        .args(["--profile", "smoke", "--timeout-s", "900", "--out"])
        .arg(&results)
        .arg("--proofs")
        .arg(&proofs)
        .arg("--form-check")
        .arg(&form)
        .env("ZKBENCH_BIN", env!("CARGO_BIN_EXE_zkbench"))
        // as `zkbench run browser --threads 3` sets it: the page's pool has 3 workers
        .env("ZKBENCH_THREADS", "3")
        .output()
        .expect("node runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "page did not reach `done`:\n{stderr}");

    // the page's document is a results file zkbench reads
    let doc = ResultsFile::read(&results).expect("results schema v1");
    assert_eq!(doc.suite, "browser");
    assert!(doc.env.user_agent.as_deref().is_some_and(|u| !u.is_empty()));
    assert_eq!(
        doc.env.cross_origin_isolated,
        Some(true),
        "zkbench serve isolates the page"
    );
    // which module ran, and the MSM's arithmetic in it
    let build = doc.env.wasm_build.as_deref().unwrap_or_default();
    assert!(
        build.starts_with("threads (") && build.contains(", MSM "),
        "env.wasm_build: {build:?}"
    );
    // a later visit: the key file read back from the origin-private file system (Chromium has
    // it in workers), decoded, and a first proof
    let cached = doc
        .records
        .iter()
        .find(|r| r.case.system == "groth16" && r.phase == "prove_cold_cached")
        .expect("a prove_cold_cached record");
    assert_eq!(cached.status, Status::Ok);
    assert_eq!(cached.metrics.get("key_cache_opfs"), Some(&1.0));
    assert!(cached.metrics["key_cache_read_s"] > 0.0);
    // a first visit: the compact Groth16 key file for the first proof, then the full one
    let cold = doc
        .records
        .iter()
        .find(|r| {
            r.case.system == "groth16"
                && r.case.circuit.map(|c| c.name()) == Some("spend")
                && r.phase == "prove_cold"
        })
        .expect("a groth16 spend prove_cold record");
    assert_eq!(cold.status, Status::Ok);
    assert_eq!(
        cold.metrics.get("key_compact"),
        Some(&1.0),
        "first proof from the compact key file"
    );
    assert!(cold.metrics["key_file_bytes"] < cold.metrics["full_key_file_bytes"] / 2.0);
    assert!(cold.metrics["prove_cold_full_key_s"] > 0.0);
    // streamed into the first proof: the proof came after the last byte
    assert_eq!(cold.metrics.get("key_streamed"), Some(&1.0));
    let proved = cold.summary.as_ref().expect("a summary").median;
    assert!(proved >= cold.metrics["key_fetch_s"], "{proved}");
    // the thread count asked for, even above this machine's cores
    for r in doc.records.iter().filter(|r| r.case.system == "groth16") {
        assert_eq!(r.threads, 3, "{} {}", r.case_id, r.phase);
    }
    let ok = |system: &str, hash: &str, circuit: &str, phase: &str| {
        doc.records.iter().any(|r| {
            r.case.system == system
                && r.case.hash == hash
                && r.case.circuit.map(|c| c.name()) == Some(circuit)
                && r.phase == phase
                && r.status == Status::Ok
                && !r.samples_s.is_empty()
        })
    };
    for phase in ["prove_cold", "prove", "verify"] {
        assert!(
            ok("groth16", "griffin", "spend", phase),
            "groth16 spend {phase}"
        );
        assert!(
            ok("halo2-kzg", "poseidon2", "spend", phase),
            "halo2 spend {phase}"
        );
    }
    for system in ["groth16", "snarkjs"] {
        let same = doc.records.iter().any(|r| {
            r.case.system == system
                && r.case.hash == "poseidon"
                && r.case.arity == Some(2)
                && r.case.leaves == Some(1 << 32)
                && r.phase == "prove"
                && r.status == Status::Ok
        });
        assert!(same, "{system}: poseidon membership, arity 2, 2^32 leaves");
    }
    let hashes: Vec<_> = doc.records.iter().filter(|r| r.phase == "hash").collect();
    assert!(
        !hashes.is_empty()
            && hashes.iter().all(|r| r.status == Status::Ok
                && r.metrics
                    .get("permutations_per_s")
                    .is_some_and(|p| *p > 0.0))
    );

    // a bad configuration in the form: a visible error naming the problem
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&form).unwrap()).unwrap();
    assert_eq!(f["visible"], true);
    let text = f["text"].as_str().unwrap();
    assert!(text.contains("sha256"), "form error: {text}");

    // the Groth16 proof made in the page: native verifier and snarkjs
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&proofs).unwrap()).unwrap();
    let g = &p["groth16"];
    let vk = zkbench_groth16::snarkjs::vk_from_json(&g["verification_key"]).unwrap();
    let proof = zkbench_groth16::snarkjs::proof_from_json(&g["proof"]).unwrap();
    let public = zkbench_groth16::snarkjs::public_from_json(&g["public"]).unwrap();
    let pvk = ark_groth16_pvk(&vk);
    assert!(
        zkbench_groth16::verify(&pvk, &public, &proof).unwrap(),
        "native verifier rejects the page's proof"
    );

    for (name, key) in [
        ("vk.json", "verification_key"),
        ("public.json", "public"),
        ("proof.json", "proof"),
    ] {
        std::fs::write(dir.path().join(name), g[key].to_string()).unwrap();
    }
    let sj = Command::new("node")
        .arg(r.join("web/node_modules/snarkjs/cli.js"))
        .args(["groth16", "verify", "vk.json", "public.json", "proof.json"])
        .current_dir(dir.path())
        .output()
        .expect("node runs snarkjs");
    let text = String::from_utf8_lossy(&sj.stdout);
    assert!(
        sj.status.success() && text.contains("OK"),
        "snarkjs CLI: {text}"
    );
}

fn ark_groth16_pvk(
    vk: &zkbench_groth16::VerifyingKey,
) -> ark_groth16::PreparedVerifyingKey<zkbench_groth16::Bn254> {
    ark_groth16::prepare_verifying_key(vk)
}
