//! Leipzig 1813's window (built next).
