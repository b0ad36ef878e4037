//! The `grognard` command: opens the table, or validates, replays, simulates and screenshots.

fn main() {
    std::process::exit(grognard::cli::run());
}
