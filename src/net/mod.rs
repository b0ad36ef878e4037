//! Play across machines (issue 13), the parts that need no network: the log as a hash chain, the
//! fair dice (the host's committed secret, each seat's value, the generator reseeded from both
//! and the chain's head before every action), and a hosted table that keeps both and can be
//! verified from its save once the game is over; the host (`host`) that keeps tables and sends
//! each connection only its seat's view, and the client (`client`), over WebSocket (tokio); the
//! host's store (`store`), its word to a seat whose turn it is (`notify`) and the tables' clocks
//! (`clock`); several hosts sharing one PostgreSQL, each table served by the one holding its
//! lease (`pgstore`), and the spectators' streams on NATS (`bus`) served by edges (`edge`).

pub mod bus;
pub mod chain;
pub mod client;
pub mod clock;
pub mod edge;
pub mod fair;
pub mod feed;
pub mod host;
pub mod hosted;
pub mod limits;
pub mod notify;
pub mod pgstore;
pub mod play;
pub mod proto;
pub mod sim;
pub mod store;
