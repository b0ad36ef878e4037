//! A word when it is your turn (issue 32): a seat may leave a webhook address with the host, which
//! posts to it once each time the decision passes to that seat — a Discord or Slack
//! incoming-webhook body, or plain JSON for anything else. Each post runs on its own thread, tried
//! again after a pause that grows, so a slow or dead address never holds up a table; what failed
//! is told to its seat. An address reaching this host's own machine or private network is refused
//! unless the host allows it (`--notify-local`): a stranger could otherwise make the host knock on
//! doors behind its firewall.

use serde::Serialize;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The longest address a seat may leave.
pub const MAX_ADDRESS: usize = 500;
/// The most posts under way at once; beyond them a post is given up at once and its seat told.
pub const MAX_IN_FLIGHT: usize = 64;

/// How the host posts.
#[derive(Clone, Debug)]
pub struct NotifyConfig {
    /// Addresses on this machine or a private network may be posted to (a host for friends on
    /// one network, the tests' receiver).
    pub allow_local: bool,
    /// The pauses before each further try (their count is the number of tries after the first).
    pub backoff: Vec<Duration>,
    /// The longest one try may take, from connecting to the answer.
    pub timeout: Duration,
    /// The host's address as players reach it (ws://HOST:PORT or wss://), for the link to join.
    pub link: Option<String>,
}

impl Default for NotifyConfig {
    fn default() -> Self {
        NotifyConfig {
            allow_local: false,
            backoff: vec![Duration::from_secs(5), Duration::from_secs(30), Duration::from_secs(180)],
            timeout: Duration::from_secs(10),
            link: None,
        }
    }
}

/// The body a webhook takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Discord's incoming webhook: `{"content": …}`.
    Discord,
    /// Slack's incoming webhook: `{"text": …}`.
    Slack,
    /// Every field on its own, for anything else.
    Json,
}

/// An address a seat left: where, and in which body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub url: String,
    pub format: Format,
}

/// Checks an address a seat leaves: http or https, a host, within `MAX_ADDRESS`; its body from
/// where it points (Discord's and Slack's webhook hosts take their own).
pub fn address(url: &str) -> Result<Address, String> {
    if url.len() > MAX_ADDRESS {
        return Err(format!("a notification address is at most {MAX_ADDRESS} characters"));
    }
    let uri: ureq::http::Uri = url.parse().map_err(|e| format!("`{url}` is not an address: {e}"))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        _ => return Err(format!("`{url}`: a notification address begins with https:// (or http://)")),
    }
    let Some(host) = uri.host().filter(|h| !h.is_empty()) else {
        return Err(format!("`{url}`: the address names no host"));
    };
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Err(format!("`{url}`: an address with a user name or password in it is not taken"));
    }
    let host = host.to_ascii_lowercase();
    let format = if (host == "discord.com" || host == "discordapp.com") && uri.path().starts_with("/api/webhooks/") {
        Format::Discord
    } else if host == "hooks.slack.com" {
        Format::Slack
    } else {
        Format::Json
    };
    Ok(Address { url: url.to_string(), format })
}

/// What a post says: only what the seat it goes to may see (the table's name, its game and
/// scenario, whose decision it is, how many actions were taken), and where to join.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Notice {
    pub table: String,
    pub game: String,
    pub scenario: String,
    /// The scenario's own name.
    pub title: String,
    /// The seat whose decision it is, by number and name.
    pub seat: u8,
    pub seat_name: String,
    /// Actions taken so far at the table.
    pub index: u64,
    /// The table's address, to join it (none: the host was not told its public address).
    pub link: Option<String>,
}

impl Notice {
    /// The notice in one line of words.
    pub fn words(&self) -> String {
        let join = self.link.as_ref().map_or(String::new(), |l| format!(" Join: {l}"));
        format!(
            "Your turn at {}: {} to play ({} — {}, after {} actions).{join}",
            self.table, self.seat_name, self.game, self.title, self.index
        )
    }

    /// The body `format` takes.
    pub fn body(&self, format: Format) -> String {
        let v = match format {
            Format::Discord => serde_json::json!({ "content": self.words() }),
            Format::Slack => serde_json::json!({ "text": self.words() }),
            Format::Json => serde_json::json!({ "event": "your_turn", "text": self.words(), "notice": self }),
        };
        v.to_string()
    }
}

/// Whether an address may be posted to from a host on the internet: not this machine, not a
/// private, shared, reserved or link-local network, nothing unspecified or multicast, and no IPv6
/// address that carries one of those IPv4 addresses inside it (mapped, compatible, NAT64, 6to4).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                // Shared address space (carrier-grade NAT), 100.64.0.0/10.
                || (o[0] == 100 && (o[1] & 0xc0) == 64)
                // IETF protocol assignments, 192.0.0.0/24 (issue 63).
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                // Benchmarking, 198.18.0.0/15.
                || (o[0] == 198 && (o[1] & 0xfe) == 18)
                // Reserved for future use, 240.0.0.0/4 (the broadcast address among them).
                || o[0] >= 240)
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            let embedded = |hi: u16, lo: u16| {
                IpAddr::V4(std::net::Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8))
            };
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks to the IPv4
            // address) and NAT64's well-known prefix (64:ff9b::/96): the IPv4 address decides.
            if s[..6] == [0; 6] || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                return is_public(embedded(s[6], s[7]));
            }
            // 6to4 (2002::/16) carries its relay's IPv4 address in the next 32 bits.
            if s[0] == 0x2002 {
                return is_public(embedded(s[1], s[2]));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                // Unique local (fc00::/7) and link-local (fe80::/10).
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                // NAT64 for local use (64:ff9b:1::/48), Teredo (2001::/32, a tunnel to any IPv4
                // address), documentation (2001:db8::/32).
                || (s[0] == 0x64 && s[1] == 0xff9b)
                || (s[0] == 0x2001 && (s[1] == 0 || s[1] == 0xdb8)))
        }
    }
}

/// The system's resolver with every address the host may not reach taken out, checked at the
/// moment of connecting (a name that resolved to a public address when it was left may not later
/// turn into a private one).
#[derive(Debug)]
struct PublicOnly;

impl ureq::unversioned::resolver::Resolver for PublicOnly {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let all = ureq::unversioned::resolver::DefaultResolver::default().resolve(uri, config, timeout)?;
        let mut out = self.empty();
        for a in all.iter().filter(|a| is_public(a.ip())) {
            out.push(*a);
        }
        if out.is_empty() { Err(ureq::Error::HostNotFound) } else { Ok(out) }
    }
}

/// Posts notices, each on its own thread; what failed after every try goes to `failed`.
#[derive(Clone)]
pub struct Notifier {
    config: NotifyConfig,
    agent: ureq::Agent,
    in_flight: Arc<AtomicUsize>,
}

/// What a failed post calls with the reason, to tell its seat.
pub type Failed = Box<dyn FnOnce(String) + Send>;

impl Notifier {
    pub fn new(config: NotifyConfig) -> Notifier {
        let agent_config = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            // A redirect is not followed: it could lead anywhere.
            .max_redirects(0)
            .proxy(None)
            .user_agent("grognard-host")
            .build();
        let connector = ureq::unversioned::transport::DefaultConnector::default();
        let agent = if config.allow_local {
            ureq::Agent::with_parts(agent_config, connector, ureq::unversioned::resolver::DefaultResolver::default())
        } else {
            ureq::Agent::with_parts(agent_config, connector, PublicOnly)
        };
        Notifier { config, agent, in_flight: Arc::new(AtomicUsize::new(0)) }
    }

    /// Checks an address a seat leaves (`address`), and that this host may post to it when it
    /// is a bare IP address.
    pub fn check(&self, url: &str) -> Result<Address, String> {
        let a = address(url)?;
        let uri: ureq::http::Uri = url.parse().map_err(|e| format!("{e}"))?;
        let ip = uri.host().map(|h| h.trim_start_matches('[').trim_end_matches(']')).and_then(|h| h.parse().ok());
        if !self.config.allow_local && ip.is_some_and(|ip| !is_public(ip)) {
            return Err(format!("`{url}`: this host posts only to public addresses"));
        }
        Ok(a)
    }

    /// The host's public address, for the links.
    pub fn link(&self) -> Option<&str> {
        self.config.link.as_deref()
    }

    /// Posts `notice` to `to` off this thread, trying again after each pause of the back-off;
    /// `failed` hears why once every try has failed, always on the post's own thread. Never waits,
    /// and never calls `failed` itself: a post refused at once (too many under way) is an error
    /// here, for the caller to handle under the locks it already holds (issue 63: the callback
    /// locked the table its caller held, and the table froze for good).
    pub fn post(&self, to: &Address, notice: &Notice, failed: Failed) -> Result<(), String> {
        if self.in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            return Err(format!("the host has {MAX_IN_FLIGHT} notifications under way: this one was not sent"));
        }
        let (agent, backoff, in_flight) = (self.agent.clone(), self.config.backoff.clone(), self.in_flight.clone());
        let (url, body) = (to.url.clone(), notice.body(to.format));
        let spawned = std::thread::Builder::new().name("notify".into()).spawn(move || {
            let mut last = String::new();
            for pause in std::iter::once(Duration::ZERO).chain(backoff.iter().copied()) {
                std::thread::sleep(pause);
                match agent.post(&url).header("Content-Type", "application/json").send(&body) {
                    // A redirect is not followed, so it did not deliver (issue 63): only 2xx did.
                    Ok(r) if r.status().is_success() => {
                        in_flight.fetch_sub(1, Ordering::SeqCst);
                        return;
                    }
                    Ok(r) => last = format!("answered {} without taking it", r.status()),
                    Err(e) => last = e.to_string(),
                }
            }
            in_flight.fetch_sub(1, Ordering::SeqCst);
            let tries = backoff.len() + 1;
            failed(format!("your notification address {url} failed {tries} times (the last: {last})"));
        });
        if spawned.is_err() {
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            return Err("the host could not start a notification: this one was not sent".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_http_with_a_host_and_its_body_follows_where_it_points() {
        assert_eq!(address("https://discord.com/api/webhooks/1/abc").unwrap().format, Format::Discord);
        assert_eq!(address("https://hooks.slack.com/services/T/B/x").unwrap().format, Format::Slack);
        assert_eq!(address("https://example.org/hook").unwrap().format, Format::Json);
        // Discord's host outside its webhooks is anything else.
        assert_eq!(address("https://discord.com/other").unwrap().format, Format::Json);
        for bad in ["ftp://example.org/x", "file:///etc/passwd", "example.org/hook", "https://user:pw@example.org/"] {
            assert!(address(bad).is_err(), "{bad}");
        }
        assert!(address(&format!("https://example.org/{}", "a".repeat(MAX_ADDRESS))).is_err());
    }

    #[test]
    fn the_host_posts_only_to_public_addresses_unless_told_otherwise() {
        for local in ["127.0.0.1", "10.1.2.3", "192.168.0.1", "172.16.5.5", "169.254.169.254", "100.64.0.1", "0.0.0.0"]
        {
            assert!(!is_public(local.parse().unwrap()), "{local}");
        }
        for local in ["::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "::"] {
            assert!(!is_public(local.parse().unwrap()), "{local}");
        }
        // Issue 63: IPv4's other reserved blocks, and IPv6 addresses that carry a private IPv4
        // address (NAT64, IPv4-compatible, 6to4) or tunnel to any (Teredo).
        for local in [
            "198.18.0.1",
            "198.19.255.1",
            "240.0.0.1",
            "255.255.255.254",
            "192.0.0.8",
            "64:ff9b::7f00:1",
            "64:ff9b::a00:1",
            "64:ff9b:1::1",
            "::127.0.0.1",
            "::10.0.0.1",
            "2002:7f00:1::1",
            "2002:c0a8:101::1",
            "2001:0:4136:e378::1",
            "2001:db8::1",
        ] {
            assert!(!is_public(local.parse().unwrap()), "{local}");
        }
        // The same wrappers around a public IPv4 address reach the internet.
        for public in ["64:ff9b::5db8:d822", "2002:5db8:d822::1", "198.20.0.1"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
        for public in ["93.184.216.34", "1.1.1.1", "2606:4700::1111"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[test]
    fn each_body_says_whose_turn_and_where_to_join() {
        let n = Notice {
            table: "friday".into(),
            game: "leipzig-1813".into(),
            scenario: "leipzig-1813/1-historical-situation".into(),
            title: "The historical situation".into(),
            seat: 1,
            seat_name: "Allied".into(),
            index: 42,
            link: Some("wss://example.org/friday".into()),
        };
        let discord: serde_json::Value = serde_json::from_str(&n.body(Format::Discord)).unwrap();
        let words = discord["content"].as_str().unwrap();
        assert!(
            words.contains("friday") && words.contains("Allied to play") && words.contains("wss://example.org/friday")
        );
        let slack: serde_json::Value = serde_json::from_str(&n.body(Format::Slack)).unwrap();
        assert_eq!(slack["text"], discord["content"]);
        let json: serde_json::Value = serde_json::from_str(&n.body(Format::Json)).unwrap();
        assert_eq!(json["notice"]["seat"], 1);
        assert_eq!(json["notice"]["index"], 42);
        assert_eq!(json["event"], "your_turn");
    }
}
