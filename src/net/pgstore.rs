//! Several hosts, one PostgreSQL (issue 33): the same records as the SQLite store, and for each
//! table a lease naming the one host that serves it now. A host renews its leases together every
//! few seconds; a host that stops renewing (killed, cut off) loses its tables once their leases
//! expire, and any other host takes them, replays their logs and goes on with the same chain and
//! the same dice secret (both in the log's first lines, never anywhere else). An append is fenced
//! by the lease: a host that lost a table can no longer write to it, so two hosts never both
//! accept an action at one table.

use super::store::{Store, Whereabouts};
use postgres::Client;
use std::sync::Mutex;
use std::time::Duration;
use tokio_postgres_rustls::MakeRustlsConnect;

/// How long a lease lasts unless renewed: how long a dead host's tables wait for another.
pub const LEASE: Duration = Duration::from_secs(6);
/// How many connections a host keeps to the database (its tables' threads share them: an
/// append holds one for a round trip and a commit).
const CONNECTIONS: usize = 8;
/// The connection the renewals and the sweeps for stopped hosts' tables use.
const SWEEP: usize = CONNECTIONS - 1;

/// A host's view of the shared database: who it is, where players reach it, its connections.
pub struct PgStore {
    url: String,
    /// This host's name in the leases (fresh each time it starts: a restarted host is another).
    me: String,
    /// Where the other hosts reach this one to serve a seat through it (ws://NAME:PORT).
    address: String,
    lease: Duration,
    conns: Vec<Mutex<Option<Client>>>,
    /// Each table this host took: when the host holding it before last renewed its lease (in
    /// milliseconds since 1970), the last moment it was known alive (issue 63).
    renewed_before: Mutex<std::collections::HashMap<String, u64>>,
    /// TLS when the database offers it (`sslmode=require` in the address: only TLS), its
    /// certificate checked against the system's roots and the CA given.
    tls: MakeRustlsConnect,
}

/// How a host reaches the database over TLS: rustls with ring (as the rest), the system's roots,
/// and `ca`, a PEM file of the private CA a database on a private network is signed by.
fn tls(ca: Option<&std::path::Path>) -> Result<MakeRustlsConnect, String> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    if let Some(ca) = ca {
        let named = |e: &dyn std::fmt::Display| format!("{}: {e}", ca.display());
        let mut found = 0;
        for cert in CertificateDer::pem_file_iter(ca).map_err(|e| named(&e))? {
            roots.add(cert.map_err(|e| named(&e))?).map_err(|e| named(&e))?;
            found += 1;
        }
        if found == 0 {
            return Err(named(&"no certificate in it (a PEM file: -----BEGIN CERTIFICATE-----)"));
        }
    }
    let config =
        rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// A table no live host holds: its lease ran out, or its host was an earlier run of one at this
/// host's own address ($4), gone since this one listens there (a host restarted takes its tables
/// back at once).
const FREE: &str = "(owner IS NULL OR lease_until <= now()
    OR owner IN (SELECT h.id FROM grognard_hosts h WHERE h.address = $4 AND h.id <> $1))";

/// The records, and the hosts with their leases. Made once, by the first host to start (under a
/// lock of the database's own, so that hosts starting together do not race).
const SCHEMA: &str = "
    SELECT pg_advisory_xact_lock(7813);
    CREATE TABLE IF NOT EXISTS grognard_hosts (
        id TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        seen TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE IF NOT EXISTS grognard_tables (
        id TEXT PRIMARY KEY,
        owner TEXT,
        lease_until TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE IF NOT EXISTS grognard_lines (
        id TEXT NOT NULL REFERENCES grognard_tables (id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (id, n)
    );
    ALTER TABLE grognard_tables ADD COLUMN IF NOT EXISTS renewed TIMESTAMPTZ;
";

impl PgStore {
    /// Connects to the database at `url` (postgres://USER@HOST:PORT/DB, `?sslmode=require` for
    /// TLS only; TLS is used wherever the database offers it), trusting the system's roots and
    /// the CA in the PEM file `ca`; makes its tables if missing and registers this host, reached
    /// by the others at `address`.
    pub fn connect(url: &str, ca: Option<&std::path::Path>, address: &str, lease: Duration) -> Result<PgStore, String> {
        let me = super::chain::to_hex(&super::host::fresh_secret()[..8]);
        let store = PgStore {
            url: url.to_string(),
            me,
            address: address.to_string(),
            lease,
            conns: (0..CONNECTIONS).map(|_| Mutex::new(None)).collect(),
            renewed_before: Mutex::new(std::collections::HashMap::new()),
            tls: tls(ca)?,
        };
        store.with(SWEEP, |c| {
            let mut tx = c.transaction()?;
            tx.batch_execute(SCHEMA)?;
            tx.commit()
        })?;
        store.renew()?;
        Ok(store)
    }

    /// This host's name in the leases.
    pub fn me(&self) -> &str {
        &self.me
    }

    /// The lease's length in seconds, as the database counts time.
    fn lease_secs(&self) -> f64 {
        self.lease.as_secs_f64()
    }

    /// Runs `f` on connection `k` (of the few), connecting first if it is not (or no longer) open.
    fn with<T>(&self, k: usize, f: impl FnOnce(&mut Client) -> Result<T, postgres::Error>) -> Result<T, String> {
        let mut slot = self.conns[k % self.conns.len()].lock().expect("not poisoned");
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(Client::connect(&self.url, self.tls.clone()).map_err(|e| self.err(e))?);
        }
        f(slot.as_mut().expect("connected")).map_err(|e| self.err(e))
    }

    /// The connection a table's statements go through (the same one each time: its appends in
    /// order); the last is the sweep's own, so that renewing the leases waits for no table.
    fn conn_of(id: &str) -> usize {
        id.bytes().fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize)) % (CONNECTIONS - 1)
    }

    fn err(&self, e: postgres::Error) -> String {
        // The address without its password.
        let at = self.url.rsplit_once('@').map_or(self.url.as_str(), |(_, at)| at);
        // With its causes: "error performing TLS handshake" alone does not say the certificate
        // was not trusted.
        let mut said = format!("the database at {at}: {e}");
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            said += &format!(": {c}");
            cause = c.source();
        }
        said
    }

    /// Keeps when table `id`'s holder before this host last renewed its lease (none: never, a
    /// table opened by an older host).
    fn keep_renewed(&self, id: &str, renewed: Option<i64>) {
        let mut kept = self.renewed_before.lock().expect("not poisoned");
        match renewed {
            Some(ms) => kept.insert(id.to_string(), ms.max(0) as u64),
            None => kept.remove(id),
        };
    }

    /// The lines of the tables `ids`, in order.
    fn lines_of(&self, ids: Vec<String>) -> Result<Vec<(String, Vec<String>)>, String> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let rows = self.with(Self::conn_of(&id), |c| {
                c.query("SELECT line FROM grognard_lines WHERE id = $1 ORDER BY n", &[&id])
            })?;
            out.push((id, rows.iter().map(|r| r.get(0)).collect()));
        }
        Ok(out)
    }
}

impl Store for PgStore {
    /// The tables no live host holds, taken (all of them: the first host to start serves every
    /// table; the others take what a host that dies leaves).
    fn load(&self) -> Result<Vec<(String, Vec<String>)>, String> {
        self.take_free(usize::MAX, &[])
    }

    fn open(&self, id: &str, first: &str) -> Result<(), String> {
        let lease = self.lease_secs();
        self.with(Self::conn_of(id), |c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "INSERT INTO grognard_tables (id, owner, lease_until, renewed)
                 VALUES ($1, $2, now() + make_interval(secs => $3::float8), now())",
                &[&id, &self.me, &lease],
            )?;
            tx.execute("INSERT INTO grognard_lines (id, n, line) VALUES ($1, 0, $2)", &[&id, &first])?;
            tx.commit()
        })
    }

    fn append(&self, id: &str, line: &str) -> Result<(), String> {
        // The table's row locked for the statement: a host taking the table over waits for this
        // line (and then reads it), or this line finds the table taken and is not written. The
        // owner is the fence, not the lease's time: a lease that ran out while nobody took the
        // table (a renewal late on a busy machine) leaves nothing written by another.
        let written = self.with(Self::conn_of(id), |c| {
            c.execute(
                "WITH held AS (
                     SELECT id FROM grognard_tables WHERE id = $1 AND owner = $2 FOR UPDATE
                 )
                 INSERT INTO grognard_lines (id, n, line)
                 SELECT held.id, (SELECT COALESCE(MAX(n), -1) + 1 FROM grognard_lines WHERE id = $1), $3
                 FROM held",
                &[&id, &self.me, &line],
            )
        })?;
        if written == 1 {
            Ok(())
        } else {
            Err(format!("this host no longer holds the table `{id}` (its lease expired or another host took it)"))
        }
    }

    fn forget(&self, id: &str) {
        let _ = self.with(Self::conn_of(id), |c| {
            c.execute("DELETE FROM grognard_tables WHERE id = $1 AND owner = $2", &[&id, &self.me])
        });
    }

    fn place(&self) -> String {
        let at = self.url.rsplit_once('@').map_or(self.url.as_str(), |(_, at)| at);
        format!("the database at {at}")
    }

    fn shared(&self) -> bool {
        true
    }

    fn locate(&self, id: &str) -> Result<Whereabouts, String> {
        let row = self.with(Self::conn_of(id), |c| {
            c.query_opt(
                "SELECT t.owner = $2, t.lease_until > now(), h.address
                 FROM grognard_tables t LEFT JOIN grognard_hosts h ON h.id = t.owner
                 WHERE t.id = $1",
                &[&id, &self.me],
            )
        })?;
        Ok(match row {
            None => Whereabouts::Nowhere,
            Some(r) => match (r.get::<_, Option<bool>>(0), r.get::<_, bool>(1), r.get::<_, Option<String>>(2)) {
                (Some(true), true, _) => Whereabouts::Here,
                // An earlier run of a host at this host's own address is gone: this one listens there.
                (_, true, Some(address)) if address != self.address => Whereabouts::Owner(address),
                _ => Whereabouts::Free,
            },
        })
    }

    fn take(&self, id: &str) -> Result<Option<Vec<String>>, String> {
        let lease = self.lease_secs();
        // The row as it was (its holder's last renewal) read in the same statement as it is taken.
        let taken = self.with(Self::conn_of(id), |c| {
            c.query(
                &format!(
                    "WITH old AS (SELECT id, renewed FROM grognard_tables WHERE id = $2 FOR UPDATE)
                     UPDATE grognard_tables t
                     SET owner = $1, lease_until = now() + make_interval(secs => $3::float8), renewed = now()
                     FROM old WHERE t.id = old.id AND (owner = $1 OR {FREE})
                     RETURNING (extract(epoch FROM old.renewed) * 1000)::bigint"
                ),
                &[&self.me, &id, &lease, &self.address],
            )
        })?;
        let Some(row) = taken.first() else { return Ok(None) };
        self.keep_renewed(id, row.get(0));
        Ok(self.lines_of(vec![id.to_string()])?.pop().map(|(_, l)| l))
    }

    fn take_free(&self, most: usize, except: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
        let lease = self.lease_secs();
        let most = most.min(i64::MAX as usize) as i64;
        let except: Vec<String> = except.to_vec();
        // SKIP LOCKED: hosts sweeping at once share out what they find instead of queueing.
        let rows = self.with(SWEEP, |c| {
            c.query(
                &format!(
                    "WITH old AS (
                         SELECT id, renewed FROM grognard_tables
                         WHERE {FREE} AND NOT (id = ANY($5))
                         LIMIT $3 FOR UPDATE SKIP LOCKED
                     )
                     UPDATE grognard_tables t
                     SET owner = $1, lease_until = now() + make_interval(secs => $2::float8), renewed = now()
                     FROM old WHERE t.id = old.id
                     RETURNING t.id, (extract(epoch FROM old.renewed) * 1000)::bigint"
                ),
                &[&self.me, &lease, &most, &self.address, &except],
            )
        })?;
        for r in &rows {
            self.keep_renewed(r.get::<_, String>(0).as_str(), r.get(1));
        }
        let mut ids: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        ids.sort();
        self.lines_of(ids)
    }

    fn renew(&self) -> Result<Vec<String>, String> {
        let lease = self.lease_secs();
        let rows = self.with(SWEEP, |c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "INSERT INTO grognard_hosts (id, address, seen) VALUES ($1, $2, now())
                 ON CONFLICT (id) DO UPDATE SET seen = now(), address = $2",
                &[&self.me, &self.address],
            )?;
            let rows = tx.query(
                "UPDATE grognard_tables SET lease_until = now() + make_interval(secs => $2::float8), renewed = now()
                 WHERE owner = $1 RETURNING id",
                &[&self.me, &lease],
            )?;
            tx.commit()?;
            Ok(rows)
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn lease(&self) -> Option<Duration> {
        Some(self.lease)
    }

    fn last_alive(&self, id: &str) -> Option<u64> {
        self.renewed_before.lock().expect("not poisoned").get(id).copied()
    }

    fn release(&self, id: &str) {
        let _ = self.with(Self::conn_of(id), |c| {
            c.execute(
                "UPDATE grognard_tables SET owner = NULL, lease_until = now() WHERE id = $1 AND owner = $2",
                &[&id, &self.me],
            )
        });
    }

    fn peers(&self) -> Result<Vec<String>, String> {
        let lease = self.lease_secs();
        let rows = self.with(SWEEP, |c| {
            c.query(
                "SELECT DISTINCT address FROM grognard_hosts
                 WHERE id <> $1 AND address <> $2 AND seen > now() - make_interval(secs => $3::float8)
                 ORDER BY address",
                &[&self.me, &self.address, &lease],
            )
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Whether this host is still table `id`'s owner (the owner, not the lease's time, is the
    /// fence: see `append`).
    fn still_holds(&self, id: &str) -> bool {
        self.with(Self::conn_of(id), |c| {
            c.query_opt("SELECT 1 FROM grognard_tables WHERE id = $1 AND owner = $2", &[&id, &self.me])
        })
        .is_ok_and(|r| r.is_some())
    }
}
