//! The servers the tests of several hosts need, from the distribution's packages (`scripts/setup`
//! installs them): PostgreSQL and nats-server, each started on loopback in a temporary folder of
//! its own and stopped (with the folder gone) when the test lets go of it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A port free on loopback now (the server started next binds it).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A program of the distribution: on the PATH, or in one of `dirs` (the newest first).
fn program(name: &str, dirs: &[PathBuf]) -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|p| p.is_file()))
        .unwrap_or_default();
    on_path.or_else(|| dirs.iter().map(|d| d.join(name)).find(|p| p.is_file())).unwrap_or_else(|| {
        panic!("{name} is not installed: scripts/setup installs it (Debian's postgresql and nats-server packages)")
    })
}

/// PostgreSQL's programs: the PATH's, or the newest of /usr/lib/postgresql/*/bin.
fn postgres_bin(name: &str) -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path().join("bin"))).collect())
        .unwrap_or_default();
    versions.sort_by_key(|p| {
        p.parent().and_then(|v| v.file_name()).and_then(|v| v.to_str()).and_then(|v| v.parse::<u32>().ok())
    });
    versions.reverse();
    program(name, &versions)
}

/// The `postgres` account's user and group, when this test runs as root (PostgreSQL refuses to
/// run as root).
fn postgres_account() -> Option<(u32, u32)> {
    // SAFETY: geteuid reads this process's effective user.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let line =
        passwd.lines().find(|l| l.starts_with("postgres:")).expect("the postgres account (Debian's package makes it)");
    let f: Vec<&str> = line.split(':').collect();
    Some((f[2].parse().unwrap(), f[3].parse().unwrap()))
}

/// A command run as the postgres account when this test is root.
fn as_postgres(program: &Path) -> Command {
    match postgres_account() {
        Some((uid, gid)) => {
            let mut c = Command::new(program);
            std::os::unix::process::CommandExt::uid(&mut c, uid);
            std::os::unix::process::CommandExt::gid(&mut c, gid);
            c
        }
        None => Command::new(program),
    }
}

/// A PostgreSQL of its own, on loopback, in a temporary folder.
pub struct Postgres {
    dir: tempfile::TempDir,
    port: u16,
}

impl Postgres {
    pub fn start() -> Postgres {
        Self::start_with(false)
    }

    /// A PostgreSQL that speaks TLS, its certificate (for 127.0.0.1) signed by a CA of the test's
    /// own (`ca`), made with the openssl command.
    pub fn start_tls() -> Postgres {
        Self::start_with(true)
    }

    /// The PEM file of the CA a TLS PostgreSQL's certificate is signed by.
    pub fn ca(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    fn start_with(tls: bool) -> Postgres {
        let dir = tempfile::Builder::new().prefix("grognard-pg-").tempdir().unwrap();
        if let Some((uid, gid)) = postgres_account() {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).unwrap();
        }
        let data = dir.path().join("data");
        let out = as_postgres(&postgres_bin("initdb"))
            .args(["-U", "grognard", "-A", "trust", "-E", "UTF8", "--no-sync", "-D"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        let port = free_port();
        let mut options =
            format!("-c listen_addresses=127.0.0.1 -p {port} -k {} -c max_connections=200", dir.path().display());
        if tls {
            certificates(dir.path());
            let (cert, key) = (dir.path().join("server.pem"), dir.path().join("server.key"));
            options += &format!(" -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}", cert.display(), key.display());
        }
        let out = as_postgres(&postgres_bin("pg_ctl"))
            .args(["-w", "-t", "60", "-D"])
            .arg(&data)
            .arg("-l")
            .arg(dir.path().join("log"))
            .args(["-o", &options, "start"])
            .stdout(Stdio::null())
            .output()
            .unwrap();
        let log = std::fs::read_to_string(dir.path().join("log")).unwrap_or_default();
        assert!(out.status.success(), "pg_ctl start: {}{log}", String::from_utf8_lossy(&out.stderr));
        Postgres { dir, port }
    }

    /// postgres://grognard@127.0.0.1:PORT/postgres
    pub fn url(&self) -> String {
        format!("postgres://grognard@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = as_postgres(&postgres_bin("pg_ctl"))
            .args(["-m", "immediate", "-D"])
            .arg(self.dir.path().join("data"))
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// A CA and a certificate for 127.0.0.1 signed by it, in `dir` (ca.pem; server.pem and
/// server.key, the key readable by PostgreSQL's account alone, as it demands).
fn certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl").args(args).current_dir(dir).output().expect("the openssl command");
        assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let ca = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2"];
    openssl(&[&ca[..], &["-subj", "/CN=grognard test CA"]].concat());
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ]);
    for file in ["server.pem", "server.key"] {
        let path = dir.join(file);
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        if let Some((uid, gid)) = postgres_account() {
            std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
        }
    }
}

/// A nats-server of its own, on loopback.
pub struct Nats {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Nats {
    pub fn start() -> Nats {
        let dir = tempfile::Builder::new().prefix("grognard-nats-").tempdir().unwrap();
        let port = free_port();
        let child = Command::new(program("nats-server", &[PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")]))
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(20), "nats-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Nats { child, port, _dir: dir }
    }

    /// nats://127.0.0.1:PORT
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Processes a test started (hosts, edges), killed when it lets go of them, a failing test too.
#[derive(Default)]
pub struct Killing(pub Vec<Option<Child>>);

impl Killing {
    /// Kills process `k` now (SIGKILL), as a machine lost would be.
    pub fn kill(&mut self, k: usize) {
        if let Some(mut c) = self.0[k].take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Killing {
    fn drop(&mut self) {
        for k in 0..self.0.len() {
            self.kill(k);
        }
    }
}
