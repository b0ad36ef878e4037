//! The games Grognard enforces, one module per game.

pub mod austerlitz;
pub mod botn;
pub mod leipzig;
pub mod vg;
