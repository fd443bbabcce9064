//! A throwaway PostgreSQL cluster, for the tests and the load generator.
//!
//! [`TempPostgres::start`] runs `initdb` and `pg_ctl` of the Debian
//! `postgresql` package (installing it with `apt-get install -y postgresql`
//! when it is missing and this process is root) in a fresh temporary
//! directory, on a free port of 127.0.0.1, with trust authentication for the
//! `postgres` user. PostgreSQL refuses to run as root, so as root the
//! directory is handed to the `postgres` user and the commands run as that
//! user (`runuser`, or `su` where `runuser` is missing). Dropping the value
//! stops the cluster (`pg_ctl stop -m immediate`) and deletes the directory.

use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::Mutex,
};

/// Why no cluster could be started.
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    /// PostgreSQL is not installed and could not be installed.
    #[error("PostgreSQL is not available: {0}")]
    Unavailable(String),
    /// It is installed but the cluster did not start.
    #[error("cannot start a PostgreSQL cluster: {0}")]
    Failed(String),
}

/// A running throwaway cluster; stopped and deleted on drop.
#[derive(Debug)]
pub struct TempPostgres {
    dir: tempfile::TempDir,
    bindir: PathBuf,
    port: u16,
    as_postgres_user: bool,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn version_key(p: &Path) -> u32 {
    p.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split('.').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The directory holding `initdb` and `pg_ctl`: `$ZKBENCH_PG_BINDIR`, the
/// newest `/usr/lib/postgresql/*/bin`, or the `PATH`.
pub fn find_bindir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("ZKBENCH_PG_BINDIR") {
        let d = PathBuf::from(d);
        if d.join("initdb").exists() {
            return Some(d);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("bin/initdb").exists() && p.join("bin/pg_ctl").exists())
        .collect();
    versions.sort_by_key(|p| version_key(p));
    if let Some(v) = versions.pop() {
        return Some(v.join("bin"));
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|d| d.join("initdb").exists() && d.join("pg_ctl").exists())
            .map(|d| {
                d.join("initdb")
                    .canonicalize()
                    .ok()
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .unwrap_or(d)
            })
    })
}

static INSTALL: Mutex<()> = Mutex::new(());

/// [`find_bindir`], installing the Debian `postgresql` package first when it
/// is missing and this process is root.
pub fn ensure_installed() -> Result<PathBuf, PgError> {
    let _once = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = find_bindir() {
        return Ok(d);
    }
    if !is_root() {
        return Err(PgError::Unavailable(
            "initdb not found and not root, so `apt-get install -y postgresql` was not tried"
                .into(),
        ));
    }
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    if !apt(&["install", "-y", "-q", "postgresql"]) {
        let _ = apt(&["update", "-q"]);
        if !apt(&["install", "-y", "-q", "postgresql"]) {
            return Err(PgError::Unavailable(
                "initdb not found and `apt-get install -y postgresql` failed".into(),
            ));
        }
    }
    find_bindir().ok_or_else(|| {
        PgError::Unavailable("apt-get installed postgresql but no initdb was found".into())
    })
}

fn free_port() -> Result<u16, PgError> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| PgError::Failed(format!("no free port: {e}")))
}

fn user_id(flag: &str) -> Option<u32> {
    let o = Command::new("id").args([flag, "postgres"]).output().ok()?;
    String::from_utf8_lossy(&o.stdout).trim().parse().ok()
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

impl TempPostgres {
    /// Installs (if needed), initialises and starts a cluster.
    pub fn start() -> Result<Self, PgError> {
        let bindir = ensure_installed()?;
        let as_postgres_user = is_root();
        let dir = tempfile::Builder::new()
            .prefix("zkbench-pg-")
            .tempdir()
            .map_err(|e| PgError::Failed(format!("cannot create a temporary directory: {e}")))?;
        if as_postgres_user {
            let (uid, gid) = user_id("-u").zip(user_id("-g")).ok_or_else(|| {
                PgError::Failed("running as root but there is no `postgres` user".into())
            })?;
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).map_err(|e| {
                PgError::Failed(format!("cannot hand the directory to postgres: {e}"))
            })?;
        }
        let port = free_port()?;
        let pg = Self {
            dir,
            bindir,
            port,
            as_postgres_user,
        };
        let data = pg.data_dir();
        pg.run(
            "initdb",
            &[
                "-D",
                &data,
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )?;
        pg.launch()?;
        Ok(pg)
    }

    /// `pg_ctl start` on the cluster's port; waits until it accepts connections.
    fn launch(&self) -> Result<(), PgError> {
        let data = self.data_dir();
        let opts = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c max_connections=300",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("postgres.log").display().to_string();
        if let Err(e) = self.run(
            "pg_ctl",
            &[
                "-D", &data, "-l", &log, "-w", "-t", "60", "-o", &opts, "start",
            ],
        ) {
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(PgError::Failed(format!("{e}\n{tail}")));
        }
        Ok(())
    }

    /// Stops the server (`pg_ctl stop -m fast`: clients are disconnected),
    /// keeping the cluster, as in a database outage; [`Self::restart`] brings
    /// it back on the same port.
    pub fn stop(&self) -> Result<(), PgError> {
        let data = self.data_dir();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"])
    }

    /// Starts the server again after [`Self::stop`], on the same port.
    pub fn restart(&self) -> Result<(), PgError> {
        self.launch()
    }

    fn data_dir(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<(), PgError> {
        let prog = self.bindir.join(tool).display().to_string();
        let mut cmd = if self.as_postgres_user {
            if Path::new("/usr/sbin/runuser").exists() || Path::new("/sbin/runuser").exists() {
                let mut c = Command::new("runuser");
                c.args(["-u", "postgres", "--", &prog]).args(args);
                c
            } else {
                let line = std::iter::once(prog.as_str())
                    .chain(args.iter().copied())
                    .map(shell_quote)
                    .collect::<Vec<_>>()
                    .join(" ");
                let mut c = Command::new("su");
                c.args(["-s", "/bin/sh", "postgres", "-c", &line]);
                c
            }
        } else {
            let mut c = Command::new(&prog);
            c.args(args);
            c
        };
        cmd.current_dir(self.dir.path());
        let out = cmd
            .output()
            .map_err(|e| PgError::Failed(format!("cannot run {tool}: {e}")))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(PgError::Failed(format!(
                "{tool} failed ({}): {}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )))
        }
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// URL of its `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Version line of the server binaries (`pg_ctl --version`).
    pub fn version(&self) -> String {
        Command::new(self.bindir.join("pg_ctl"))
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let data = self.data_dir();
        let _ = self.run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
    }
}
