//! Across the internet (issue 30): `grognard host` behind a TLS-terminating proxy, as the README
//! shows with Caddy, and its clients at a `wss://` address. The proxy here is rustls on loopback
//! with the test certificate of `tests/fixtures/tls`; the clients trust its authority through
//! `SSL_CERT_FILE`, as they would trust a public one through the system's store.

mod common;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls").join(name)
}

/// Starts a TLS proxy on loopback, on a thread of its own, relaying each connection's bytes to
/// `to` (HOST:PORT): its port.
fn tls_proxy(to: String) -> u16 {
    let certs: Vec<CertificateDer> =
        CertificateDer::pem_file_iter(fixture("localhost.pem")).unwrap().collect::<Result<_, _>>().unwrap();
    let key = PrivateKeyDer::from_pem_file(fixture("localhost.key")).unwrap();
    let config = rustls::ServerConfig::builder().with_no_client_auth().with_single_cert(certs, key).unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            loop {
                let Ok((tcp, _)) = listener.accept().await else { continue };
                let (acceptor, to) = (acceptor.clone(), to.clone());
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                    let Ok(mut up) = tokio::net::TcpStream::connect(&to).await else { return };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut up).await;
                });
            }
        });
    });
    port
}

fn grognard(args: &[&std::ffi::OsStr], trust: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(args)
        .env("SSL_CERT_FILE", fixture(trust))
        .env_remove("SSL_CERT_DIR")
        .output()
        .unwrap()
}

#[test]
fn whole_games_through_a_tls_proxy_at_a_wss_address_verify_and_an_untrusted_certificate_is_refused() {
    let scenario = common::scenario_path();
    let (mut host, at) = common::grognard_host(&["--port".into(), "0".into(), scenario.clone()]);
    let port = tls_proxy(at);
    let wss = format!("wss://localhost:{port}");
    let saves = std::env::temp_dir().join(format!("grognard-tls-{}", std::process::id()));
    let played = grognard(
        &[
            "simulate".as_ref(),
            "--games".as_ref(),
            "2".as_ref(),
            "--seed".as_ref(),
            "3".as_ref(),
            "--via".as_ref(),
            wss.as_ref(),
            "--save-dir".as_ref(),
            saves.as_os_str(),
            scenario.as_os_str(),
        ],
        "ca.pem",
    );
    let stdout = String::from_utf8_lossy(&played.stdout);
    assert!(played.status.success(), "{stdout}{}", String::from_utf8_lossy(&played.stderr));
    let verified = stdout.lines().filter(|l| l.contains("\"verified\":\"verified: ")).count();
    assert_eq!(verified, 2, "both games played through the proxy and verified: {stdout}");
    // `grognard tables` at the same address (every table private: none listed).
    let listed = grognard(&["tables".as_ref(), wss.as_ref()], "ca.pem");
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    assert_eq!(String::from_utf8_lossy(&listed.stdout).trim(), format!("no tables at {wss}"));
    // A certificate the client's store does not vouch for: no connection, and the error says so.
    let refused = grognard(&["tables".as_ref(), wss.as_ref()], "localhost.pem");
    assert_eq!(refused.status.code(), Some(1));
    let e = String::from_utf8_lossy(&refused.stderr);
    assert!(e.to_lowercase().contains("certificate"), "{e}");
    host.kill().unwrap();
    host.wait().unwrap();
    let _ = std::fs::remove_dir_all(&saves);
}
