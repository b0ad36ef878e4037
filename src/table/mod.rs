//! The 3D table (window build only): the board drawn from the scenario's geometry, pieces and
//! cards on it, the camera, picking and dragging, and the physical dice. It reads the table and
//! sends `Request`s; it never decides a rule.

pub mod app;
pub mod board;
pub mod camera;
pub mod computer;
pub mod dice;
pub mod pieces;
pub mod session;
pub mod vg_table;
