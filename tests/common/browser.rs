//! A real headless browser for the tests (Chromium, installed by `scripts/setup`): opens a page
//! and reads what it shows through the DevTools protocol, waiting as a person would for the page
//! to fill in.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    port: u16,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Opens `url` in a headless Chromium.
    pub fn open(url: &str) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let child = Command::new("chromium")
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium (scripts/setup installs it)");
        // The browser writes the port it chose into its profile.
        let file = profile.path().join("DevToolsActivePort");
        let start = Instant::now();
        let port = loop {
            if let Some(p) = std::fs::read_to_string(&file).ok().and_then(|t| t.lines().next()?.parse().ok()) {
                break p;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "chromium did not start");
            std::thread::sleep(Duration::from_millis(100));
        };
        Browser { child, _profile: profile, port }
    }

    /// The page's DevTools address, once the browser lists it.
    fn page(&self) -> Option<String> {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        write!(s, "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", self.port).ok()?;
        // The browser keeps the connection open: read the head, then as many bytes as it says.
        let mut text = Vec::new();
        let mut byte = [0u8; 1];
        while !text.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut byte).ok()?;
            text.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&text).to_lowercase();
        let len: usize = head.lines().find_map(|l| l.strip_prefix("content-length:"))?.trim().parse().ok()?;
        let mut body = vec![0u8; len];
        s.read_exact(&mut body).ok()?;
        let list: Vec<serde_json::Value> = serde_json::from_slice(&body).ok()?;
        let page = list.iter().find(|t| t["type"] == "page")?;
        Some(format!("ws://127.0.0.1:{}/devtools/page/{}", self.port, page["id"].as_str()?))
    }

    /// The value of a JavaScript expression on the page, once `ready` holds for it (at most 30 s).
    pub fn wait_for(&self, expression: &str, ready: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let start = Instant::now();
            let (mut ws, _) = loop {
                let page = self.page();
                let tried = match &page {
                    Some(p) => tokio_tungstenite::connect_async(p.as_str()).await.map_err(|e| e.to_string()),
                    None => Err("not listed yet".to_string()),
                };
                match tried {
                    Ok(c) => break c,
                    Err(e) => assert!(start.elapsed() < Duration::from_secs(30), "no DevTools page ({page:?}): {e}"),
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            };
            let mut id = 0;
            loop {
                id += 1;
                let ask = serde_json::json!({"id": id, "method": "Runtime.evaluate",
                    "params": {"expression": expression, "returnByValue": true}});
                ws.send(Message::text(ask.to_string())).await.unwrap();
                let value = loop {
                    let Some(Ok(Message::Text(t))) = ws.next().await else { panic!("DevTools closed") };
                    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                    if v["id"] == id {
                        break v["result"]["result"]["value"].clone();
                    }
                };
                if ready(&value) {
                    return value;
                }
                assert!(start.elapsed() < Duration::from_secs(30), "the page never showed it: {expression} = {value}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    }
}
