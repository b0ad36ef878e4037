//! Grognard: a virtual tabletop for Napoleonic board wargames, with their rules enforced.
//!
//! The rules (`engine`, `games`) build and run without any renderer; the game-neutral 3D table
//! (`table`), the shared egui panels (`ui`) and each game's `view` are behind the default `gui`
//! feature.

pub mod cli;
pub mod engine;
pub mod games;
pub mod net;
pub mod registered;
pub mod registry;

#[cfg(feature = "gui")]
pub mod table;
#[cfg(feature = "gui")]
pub mod ui;
