//! The `grognard` command: opens the table, or validates, replays, simulates and screenshots.

fn main() {
    // A reader that stops early (`grognard simulate … | head`) closes the pipe: the command ends
    // there, quietly, as other command-line tools do, instead of a panic and its backtrace.
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload.downcast_ref::<String>().map(String::as_str).or(payload.downcast_ref::<&str>().copied());
        if msg.is_some_and(|m| m.starts_with("failed printing to stdout") && m.contains("Broken pipe")) {
            std::process::exit(0);
        }
        default(info);
    }));
    std::process::exit(grognard::cli::run());
}
