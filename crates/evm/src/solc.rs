//! Compiling Solidity with the pinned solc-js (`scripts/solc`, npm package
//! `solc`), through `scripts/solc/compile.mjs`. Bytecode is cached by the
//! sha256 of (source, compiler version, settings) under
//! [`crate::node::cache_dir`]`("solc")`, so repeated runs need no compile.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::node::{cache_dir, require_package, run_node, scripts_dir};
use crate::EvmError;

/// Compiler settings every verifier is compiled with (ours and the peers'
/// alike): optimizer on, 200 runs, Cancun.
pub fn settings() -> Value {
    json!({
        "optimizer": { "enabled": true, "runs": 200 },
        "evmVersion": "cancun",
        "outputSelection": { "*": { "*": ["evm.bytecode.object", "evm.deployedBytecode.object"] } }
    })
}

/// Settings for the Halo2 verifier, a Yul object ([`crate::halo2`]): the
/// optimizer on with `runs` 1 (size first) but **without the Yul optimizer**
/// (`details.yul: false`): on snark-verifier's straight-line code it stops
/// with "stack too deep" (its expression splitter and load resolver keep
/// hundreds of values alive at once), while the bytecode optimizer
/// (peephole, deduplication, constant optimizer) works instruction by
/// instruction. The Yul-level savings are made by [`crate::yul`] instead.
pub fn settings_halo2() -> Value {
    let mut s = settings();
    s["optimizer"] = json!({ "enabled": true, "runs": 1, "details": { "yul": false } });
    s
}

/// A compiled contract.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// Contract name.
    pub contract: String,
    /// Creation (init) code.
    pub creation: Vec<u8>,
    /// Runtime code as solc emits it (what the creation code deploys).
    pub runtime: Vec<u8>,
    /// The compiler's version (npm package version).
    pub solc_version: String,
    /// Whether it came from the cache.
    pub cached: bool,
}

/// The pinned solc-js.
#[derive(Clone, Debug)]
pub struct Solc {
    dir: PathBuf,
    version: String,
    cache: PathBuf,
}

impl Solc {
    /// Finds `scripts/solc` with its `node_modules/solc` installed (by
    /// `scripts/setup.sh`); the cache is `cache_dir("solc")`.
    pub fn locate() -> Result<Self, EvmError> {
        let dir = scripts_dir()?.join("solc");
        require_package(&dir, "solc")?;
        let pkg = dir.join("node_modules/solc/package.json");
        let text = std::fs::read_to_string(&pkg).map_err(|e| EvmError::io(&pkg, e))?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| EvmError::decode("solc package.json", e))?;
        let version = v["version"]
            .as_str()
            .ok_or_else(|| EvmError::decode("solc package.json", "no version"))?
            .to_string();
        Ok(Self {
            dir,
            version,
            cache: cache_dir("solc"),
        })
    }

    /// The compiler version (npm package version, e.g. `0.8.37`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The cache key of `source` under [`settings`]: hex sha256 of source,
    /// version and settings.
    pub fn cache_key(&self, source: &str) -> String {
        self.cache_key_with(source, &settings())
    }

    fn cache_key_with(&self, source: &str, settings: &Value) -> String {
        self.cache_key_lang("Solidity", source, settings)
    }

    fn cache_key_lang(&self, language: &str, source: &str, settings: &Value) -> String {
        let mut h = Sha256::new();
        if language != "Solidity" {
            // (Solidity keys are unchanged from before Yul was added)
            h.update(language.as_bytes());
            h.update([0]);
        }
        h.update(source.as_bytes());
        h.update([0]);
        h.update(self.version.as_bytes());
        h.update([0]);
        h.update(settings.to_string().as_bytes());
        hex::encode(h.finalize())
    }

    /// Compiles `contract` from `source` with [`settings`] (or loads it from
    /// the cache).
    pub fn compile(&self, source: &str, contract: &str) -> Result<Compiled, EvmError> {
        self.compile_with(source, contract, &settings())
    }

    /// Compiles `contract` from `source` with the given standard-JSON
    /// `settings` (or loads it from the cache, keyed by them too).
    pub fn compile_with(
        &self,
        source: &str,
        contract: &str,
        settings: &Value,
    ) -> Result<Compiled, EvmError> {
        self.compile_lang("Solidity", source, contract, settings)
    }

    /// Compiles the Yul object `object` (the outermost object's name; its
    /// creation code deploys the sub-object it names) from `source` with the
    /// given settings (or loads it from the cache).
    pub fn compile_yul(
        &self,
        source: &str,
        object: &str,
        settings: &Value,
    ) -> Result<Compiled, EvmError> {
        self.compile_lang("Yul", source, object, settings)
    }

    /// Compiles `contract` from `source` in `language` (`Solidity` or `Yul`)
    /// with `settings`, or loads it from the cache; caches what it compiles.
    fn compile_lang(
        &self,
        language: &str,
        source: &str,
        contract: &str,
        settings: &Value,
    ) -> Result<Compiled, EvmError> {
        let key = self.cache_key_lang(language, source, settings);
        let path = self.cache.join(format!("{key}-{contract}.json"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            if let Ok(c) = parse_cached(&text, contract) {
                return Ok(c);
            }
        }
        let file = if language == "Yul" {
            "verifier.yul"
        } else {
            "verifier.sol"
        };
        let out = self.run_solc(language, file, source, settings)?;
        let evm = &out["contracts"][file][contract]["evm"];
        let creation = hex_field(&evm["bytecode"]["object"], "creation bytecode")?;
        let runtime = hex_field(&evm["deployedBytecode"]["object"], "runtime bytecode")?;
        if creation.is_empty() {
            return Err(EvmError::Compile(format!(
                "no contract {contract} in the source"
            )));
        }
        self.write_cache(&path, contract, &creation, &runtime)?;
        Ok(Compiled {
            contract: contract.into(),
            creation,
            runtime,
            solc_version: self.version.clone(),
            cached: false,
        })
    }

    /// Runs solc-js on `source` (as `file`, in `language`) with `settings`
    /// and returns its standard-JSON output; an error if it reports any.
    fn run_solc(
        &self,
        language: &str,
        file: &str,
        source: &str,
        settings: &Value,
    ) -> Result<Value, EvmError> {
        let input = json!({
            "language": language,
            "sources": { file: { "content": source } },
            "settings": settings,
        });
        let out = run_node(
            &self.dir.join("compile.mjs"),
            &[],
            input.to_string().as_bytes(),
        )?;
        let out: Value =
            serde_json::from_slice(&out).map_err(|e| EvmError::decode("solc output", e))?;
        let errors = solc_errors(&out);
        if !errors.is_empty() {
            return Err(EvmError::Compile(errors.join("\n")));
        }
        Ok(out)
    }

    /// Writes the compiled `contract` to the cache file `path` (through a
    /// temporary file renamed into place, so that readers never see half of
    /// it).
    fn write_cache(
        &self,
        path: &Path,
        contract: &str,
        creation: &[u8],
        runtime: &[u8],
    ) -> Result<(), EvmError> {
        let cached = json!({
            "contract": contract,
            "solc": self.version,
            "creation": hex::encode(creation),
            "runtime": hex::encode(runtime),
        });
        std::fs::create_dir_all(&self.cache).map_err(|e| EvmError::io(&self.cache, e))?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, cached.to_string()).map_err(|e| EvmError::io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| EvmError::io(path, e))
    }
}

/// The formatted messages of the errors (not the warnings) in solc's
/// standard-JSON output `out`.
fn solc_errors(out: &Value) -> Vec<String> {
    out["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|e| e["severity"] == "error")
                .map(|e| {
                    e["formattedMessage"]
                        .as_str()
                        .unwrap_or("unknown error")
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn hex_field(v: &Value, what: &str) -> Result<Vec<u8>, EvmError> {
    let s = v
        .as_str()
        .ok_or_else(|| EvmError::decode(what, "missing from solc output"))?;
    hex::decode(s).map_err(|e| EvmError::decode(what, e))
}

fn parse_cached(text: &str, contract: &str) -> Result<Compiled, EvmError> {
    let v: Value = serde_json::from_str(text).map_err(|e| EvmError::decode("solc cache", e))?;
    if v["contract"] != contract {
        return Err(EvmError::decode("solc cache", "other contract"));
    }
    Ok(Compiled {
        contract: contract.into(),
        creation: hex_field(&v["creation"], "cached creation bytecode")?,
        runtime: hex_field(&v["runtime"], "cached runtime bytecode")?,
        solc_version: v["solc"].as_str().unwrap_or_default().to_string(),
        cached: true,
    })
}
