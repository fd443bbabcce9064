//! A throwaway Hardhat node (npm `hardhat`, pinned in `scripts/hardhat`,
//! installed by `scripts/setup.sh`) for the tests that run the pool on a
//! real JSON-RPC node: `hardhat node` on a free local port, Cancun rules
//! (`scripts/hardhat/hardhat.config.js`), stopped when dropped.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use zkbench_evm::EvmError;

use crate::PoolError;

/// A running `hardhat node`; killed on drop.
#[derive(Debug)]
pub struct HardhatNode {
    child: Child,
    url: String,
}

/// How long the node may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(90);

impl HardhatNode {
    /// Starts a node on a free port of 127.0.0.1 and waits until it answers
    /// `eth_chainId`. A missing `node` or `scripts/hardhat/node_modules` is
    /// [`EvmError::ToolMissing`] (tests skip on it, saying why).
    pub fn start() -> Result<Self, PoolError> {
        let dir = zkbench_evm::node::scripts_dir()?.join("hardhat");
        zkbench_evm::node::require_package(&dir, "hardhat")?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| PoolError::io("127.0.0.1:0", e))?
            .port();
        let log = std::env::temp_dir().join(format!("zkbench-hardhat-{port}.log"));
        let err_file = std::fs::File::create(&log).map_err(|e| PoolError::io(&log, e))?;
        let mut child = Command::new("node")
            .arg("node_modules/hardhat/internal/cli/bootstrap.js")
            .args(["node", "--hostname", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err_file)
            .spawn()
            .map_err(|e| PoolError::io(&dir, e))?;
        let url = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                let err = std::fs::read_to_string(&log).unwrap_or_default();
                return Err(PoolError::Evm(EvmError::ToolMissing {
                    what: "hardhat node".into(),
                    why: format!("exited with {status}: {}", err.trim()),
                }));
            }
            if TcpStream::connect(("127.0.0.1", port)).is_ok()
                && crate::chain::RpcChain::connect(&url).is_ok()
            {
                return Ok(Self { child, url });
            }
            if start.elapsed() > START_TIMEOUT {
                let _ = child.kill();
                let _ = child.wait();
                return Err(PoolError::Rpc {
                    url,
                    what: "hardhat node".into(),
                    reason: format!("did not answer within {START_TIMEOUT:?}"),
                });
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Its JSON-RPC URL (`http://127.0.0.1:<port>`).
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for HardhatNode {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
