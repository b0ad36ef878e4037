//! Where a host keeps its tables: each table's log, a line at a time, on stable storage before
//! anything the line says is announced. The embedded default is one SQLite file
//! (`SqliteStore`: `DIR/grognard.sqlite`, write-ahead log, synced at every commit); the logs an
//! older host kept (one `TABLE.log` a table) are read once and moved in. The host sees only the
//! `Store` trait, so that another database can stand behind it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A host's tables, kept: each a name and its lines in order (the host writes and reads what a
/// line says; the store keeps the text).
pub trait Store: Send + Sync {
    /// Every table kept, by name, with its lines in order.
    fn load(&self) -> Result<Vec<(String, Vec<String>)>, String>;
    /// Starts table `id` with its first line (refused when a table of that name is kept).
    fn open(&self, id: &str, first: &str) -> Result<(), String>;
    /// Adds a line to table `id`: on stable storage when this returns.
    fn append(&self, id: &str, line: &str) -> Result<(), String>;
    /// Forgets table `id` (a table that expired before it started).
    fn forget(&self, id: &str);
    /// Where the tables are kept, for the messages that name it.
    fn place(&self) -> String;

    // What a store shared by several hosts adds (issue 33): a table is served by the one host
    // holding its lease. A store of one host's own holds every table it keeps for ever.

    /// Whether other hosts keep their tables here too.
    fn shared(&self) -> bool {
        false
    }
    /// Where table `id`, not served by this host now, is.
    fn locate(&self, _id: &str) -> Result<Whereabouts, String> {
        Ok(Whereabouts::Nowhere)
    }
    /// Takes table `id`'s lease if no live host holds it: its lines, or none when another holds it.
    fn take(&self, _id: &str) -> Result<Option<Vec<String>>, String> {
        Ok(None)
    }
    /// Takes up to `most` tables no live host holds (but `except`), with their lines.
    fn take_free(&self, _most: usize, _except: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
        Ok(Vec::new())
    }
    /// Renews every lease this host holds (called well within a lease's length): the tables it
    /// holds.
    fn renew(&self) -> Result<Vec<String>, String> {
        Ok(Vec::new())
    }
    /// How long a lease lasts unless renewed (none: the store is this host's alone).
    fn lease(&self) -> Option<std::time::Duration> {
        None
    }
    /// Gives table `id` up at once, for another host to take (one this host cannot serve).
    fn release(&self, _id: &str) {}
    /// Where the other live hosts sharing the store are reached (ws://NAME:PORT).
    fn peers(&self) -> Result<Vec<String>, String> {
        Ok(Vec::new())
    }
    /// Whether this host still holds table `id` (asked when an append failed).
    fn still_holds(&self, _id: &str) -> bool {
        true
    }

    // Downtime (issue 63, item 5): a host alive while some seat's time runs says so every
    // second; the next run excuses the seats whose time ran for the time nobody was there.

    /// Marks this host alive at `unix_ms`.
    fn mark_alive(&self, _unix_ms: u64) {}
    /// When the host that served table `id` before this one was last known alive (a store of
    /// one host's own: its run before this one; a shared store: the table's last renewal before
    /// this host took it); none: never, or not kept.
    fn last_alive(&self, _id: &str) -> Option<u64> {
        None
    }
}

/// Where a table is, as a shared store knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Whereabouts {
    /// No such table: a seat joining opens it.
    Nowhere,
    /// This host holds it.
    Here,
    /// Another live host holds it, reached at this address (ws://NAME:PORT).
    Owner(String),
    /// Its host stopped renewing its lease: any host may take it.
    Free,
}

/// The host's tables in one SQLite file.
pub struct SqliteStore {
    path: PathBuf,
    db: Mutex<rusqlite::Connection>,
    /// When the run before this one was last alive, read as the store opened.
    previous_alive: Option<u64>,
}

/// The folder the logs of an older host go to once their lines are in the database.
pub const MOVED_IN: &str = "logs-moved-in";

impl SqliteStore {
    /// The store in `dir/grognard.sqlite` (the folder and the file made if missing, the file its
    /// owner's only: it holds every table's secret and every seat's token), with any `*.log` an
    /// older host left in `dir` moved in. Also returns what could not be moved in, by file.
    pub fn open_in(dir: &Path) -> Result<(SqliteStore, Vec<String>), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join("grognard.sqlite");
        let named = |e: rusqlite::Error| format!("{}: {e}", path.display());
        // SQLite takes an empty file for a new database: a store cut to nothing (a full disk, a
        // copy gone wrong) would start a host with no tables and not a word (issue 63).
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
            return Err(format!(
                "{}: the file is empty (0 bytes), not a store of tables: restore it from a backup, \
                 or move it away to start a host with no tables",
                path.display()
            ));
        }
        let db = rusqlite::Connection::open(&path).map_err(named)?;
        #[cfg(unix)]
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // WAL: readers never wait for the writer; FULL: a commit is on disk when it returns, as
        // the log files' `sync_data` was.
        db.pragma_update(None, "journal_mode", "WAL").map_err(named)?;
        db.pragma_update(None, "synchronous", "FULL").map_err(named)?;
        db.execute_batch(
            "CREATE TABLE IF NOT EXISTS host_tables (id TEXT PRIMARY KEY NOT NULL) STRICT;
             CREATE TABLE IF NOT EXISTS lines (
                 id TEXT NOT NULL,
                 n INTEGER NOT NULL,
                 line TEXT NOT NULL,
                 PRIMARY KEY (id, n)
             ) STRICT;
             CREATE TABLE IF NOT EXISTS host_alive (k INTEGER PRIMARY KEY, unix_ms INTEGER NOT NULL) STRICT;",
        )
        .map_err(named)?;
        let previous_alive = db
            .query_row("SELECT unix_ms FROM host_alive WHERE k = 0", [], |r| r.get::<_, i64>(0))
            .ok()
            .map(|ms| ms.max(0) as u64);
        let store = SqliteStore { path, db: Mutex::new(db), previous_alive };
        let problems = store.move_in_logs(dir)?;
        Ok((store, problems))
    }

    /// Reads each `TABLE.log` of `dir` into the database and moves the file into `MOVED_IN`. A
    /// last line cut short (the host killed while writing it) was never acknowledged and is left
    /// out; a log without one whole line never welcomed anyone and goes. A table already in the
    /// database (moved in before a crash kept the file from moving) is not read twice.
    fn move_in_logs(&self, dir: &Path) -> Result<Vec<String>, String> {
        let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "log"))
            .collect();
        logs.sort();
        let mut problems = Vec::new();
        for log in logs {
            let Some(id) = log.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
            let text = match std::fs::read_to_string(&log) {
                Ok(t) => t,
                Err(e) => {
                    problems.push(format!("{}: {e}", log.display()));
                    continue;
                }
            };
            let lines: Vec<&str> =
                text.split_inclusive('\n').filter(|l| l.ends_with('\n')).map(str::trim_end).collect();
            if lines.is_empty() {
                let _ = std::fs::remove_file(&log);
                continue;
            }
            if let Err(e) = self.insert_table(&id, &lines) {
                problems.push(format!("{}: {e}", log.display()));
                continue;
            }
            let moved = dir.join(MOVED_IN);
            let to = moved.join(log.file_name().expect("a file"));
            if let Err(e) = std::fs::create_dir_all(&moved).and_then(|()| std::fs::rename(&log, &to)) {
                problems.push(format!("{}: moved in, but not out of the way: {e}", log.display()));
            }
        }
        Ok(problems)
    }

    /// Table `id` with all its lines, in one transaction; nothing when it is kept already.
    fn insert_table(&self, id: &str, lines: &[&str]) -> Result<(), String> {
        let mut db = self.db.lock().expect("not poisoned");
        let tx = db.transaction().map_err(|e| e.to_string())?;
        let fresh =
            tx.execute("INSERT OR IGNORE INTO host_tables (id) VALUES (?1)", [id]).map_err(|e| e.to_string())? == 1;
        if fresh {
            for (n, line) in lines.iter().enumerate() {
                tx.execute(
                    "INSERT INTO lines (id, n, line) VALUES (?1, ?2, ?3)",
                    rusqlite::params![id, n as i64, line],
                )
                .map_err(|e| e.to_string())?;
            }
        }
        tx.commit().map_err(|e| e.to_string())
    }

    fn err(&self, e: rusqlite::Error) -> String {
        format!("{}: {e}", self.path.display())
    }
}

impl Store for SqliteStore {
    fn load(&self) -> Result<Vec<(String, Vec<String>)>, String> {
        let db = self.db.lock().expect("not poisoned");
        let mut ids = db.prepare("SELECT id FROM host_tables ORDER BY id").map_err(|e| self.err(e))?;
        let ids: Vec<String> = ids
            .query_map([], |r| r.get(0))
            .map_err(|e| self.err(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(e))?;
        let mut lines = db.prepare("SELECT line FROM lines WHERE id = ?1 ORDER BY n").map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let l: Vec<String> = lines
                .query_map([&id], |r| r.get(0))
                .map_err(|e| self.err(e))?
                .collect::<Result<_, _>>()
                .map_err(|e| self.err(e))?;
            out.push((id, l));
        }
        Ok(out)
    }

    fn open(&self, id: &str, first: &str) -> Result<(), String> {
        let mut db = self.db.lock().expect("not poisoned");
        let tx = db.transaction().map_err(|e| self.err(e))?;
        tx.execute("INSERT INTO host_tables (id) VALUES (?1)", [id]).map_err(|e| self.err(e))?;
        tx.execute("INSERT INTO lines (id, n, line) VALUES (?1, 0, ?2)", [id, first]).map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }

    fn append(&self, id: &str, line: &str) -> Result<(), String> {
        let db = self.db.lock().expect("not poisoned");
        db.execute(
            "INSERT INTO lines (id, n, line) VALUES (?1, (SELECT COALESCE(MAX(n), -1) + 1 FROM lines WHERE id = ?1), ?2)",
            [id, line],
        )
        .map(|_| ())
        .map_err(|e| self.err(e))
    }

    fn forget(&self, id: &str) {
        let mut db = self.db.lock().expect("not poisoned");
        if let Ok(tx) = db.transaction() {
            let _ = tx.execute("DELETE FROM lines WHERE id = ?1", [id]);
            let _ = tx.execute("DELETE FROM host_tables WHERE id = ?1", [id]);
            let _ = tx.commit();
        }
    }

    fn place(&self) -> String {
        self.path.display().to_string()
    }

    fn mark_alive(&self, unix_ms: u64) {
        let db = self.db.lock().expect("not poisoned");
        let _ = db.execute(
            "INSERT INTO host_alive (k, unix_ms) VALUES (0, ?1) ON CONFLICT (k) DO UPDATE SET unix_ms = ?1",
            [unix_ms.min(i64::MAX as u64) as i64],
        );
    }

    fn last_alive(&self, _id: &str) -> Option<u64> {
        self.previous_alive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grognard-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn lines_come_back_in_order_and_a_forgotten_table_is_gone() {
        let dir = folder("order");
        let (store, problems) = SqliteStore::open_in(&dir).unwrap();
        assert!(problems.is_empty());
        store.open("b", "b0").unwrap();
        store.open("a", "a0").unwrap();
        for k in 1..=12 {
            store.append("a", &format!("a{k}")).unwrap();
        }
        store.append("b", "b1").unwrap();
        assert!(store.open("a", "again").is_err(), "a table is opened once");
        let a: Vec<String> = (0..=12).map(|k| format!("a{k}")).collect();
        let b = vec!["b0".to_string(), "b1".to_string()];
        assert_eq!(store.load().unwrap(), vec![("a".to_string(), a.clone()), ("b".to_string(), b)]);
        store.forget("b");
        drop(store);
        // Kept across a reopening.
        assert_eq!(SqliteStore::open_in(&dir).unwrap().0.load().unwrap(), vec![("a".to_string(), a)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_empty_store_file_is_refused_by_name_and_an_alive_mark_is_read_by_the_next_run() {
        // Issue 63: a 0-byte grognard.sqlite started an empty host without a word.
        let dir = folder("empty");
        std::fs::write(dir.join("grognard.sqlite"), b"").unwrap();
        let e = SqliteStore::open_in(&dir).err().expect("refused");
        assert!(e.contains("grognard.sqlite") && e.contains("empty (0 bytes)"), "{e}");
        std::fs::remove_file(dir.join("grognard.sqlite")).unwrap();
        let (store, _) = SqliteStore::open_in(&dir).unwrap();
        assert_eq!(store.last_alive("t"), None);
        store.mark_alive(1_000);
        store.mark_alive(2_000);
        assert_eq!(store.last_alive("t"), None, "this run's own marks are the next run's");
        drop(store);
        assert_eq!(SqliteStore::open_in(&dir).unwrap().0.last_alive("t"), Some(2_000));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_log_moved_in_before_a_crash_kept_it_in_place_is_not_read_twice() {
        let dir = folder("twice");
        std::fs::write(dir.join("t.log"), "one\ntwo\nthr").unwrap();
        let (store, problems) = SqliteStore::open_in(&dir).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let once = vec![("t".to_string(), vec!["one".to_string(), "two".to_string()])];
        assert_eq!(store.load().unwrap(), once, "the line cut short left out");
        drop(store);
        // The host stopped after the commit, before the file moved: it is found again.
        std::fs::copy(dir.join(MOVED_IN).join("t.log"), dir.join("t.log")).unwrap();
        let (store, problems) = SqliteStore::open_in(&dir).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(store.load().unwrap(), once, "not read twice");
        assert!(!dir.join("t.log").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
