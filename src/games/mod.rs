//! The games Grognard enforces, one module per game.

pub mod botn;
