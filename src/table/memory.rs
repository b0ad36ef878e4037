//! The window's memory where the C library is glibc: a software renderer keeps the GPU's memory
//! in the process, and glibc gives each thread that allocates at once a heap of its own (up to
//! eight a core), which keeps what the table's painting freed. Two heaps are enough for a window
//! that draws a frame at a time, and once the table is drawn the freed pages go back to the
//! system. Measured in docs/changes.md (issue 27, memory).

/// Before the app starts its threads: at most two malloc heaps (glibc's `M_ARENA_MAX`, what the
/// `MALLOC_ARENA_MAX=2` environment variable does).
pub fn fewer_heaps() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of the allocator; called before the app's threads.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// Once the table is drawn: the pages the painting and loading freed go back to the system.
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's heaps to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}
