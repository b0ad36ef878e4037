//! The game-independent engine: geometry, seeded chance, seats, the action log, saves and the
//! Bevy plugin that runs a game's rules as systems.

pub mod autoplay;
pub mod conformance;
pub mod digest;
pub mod entry;
pub mod geometry;
pub mod journal;
pub mod kit;
pub mod ladder;
pub mod log;
pub mod orders;
pub mod plugin;
pub mod rng;
pub mod roll;
pub mod rules;
pub mod sandbox;
pub mod save;
pub mod scenario;
pub mod search;
pub mod seats;
pub mod seen;
pub mod standing;
pub mod table;
pub mod tablemap;
