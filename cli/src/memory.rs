//! How the C library's allocator returns memory to the kernel.
//!
//! Every chunk's rows are built in fresh buffers (Arrow arrays, text) that
//! are freed once written. glibc gives memory at the top of its heap back
//! to the kernel as soon as more than 128 KiB lies free there, and serves
//! a block larger than its mmap threshold with an mmap of its own, unmapped
//! when freed: so the next chunk's buffers are new pages, each faulted in
//! and zeroed by the kernel again. For Arrow output that was half the
//! system time (`urilex parse --format arrow` on 200 MB, one thread: 0.36–0.43
//! s of system time, 0.19–0.24 s with the thresholds below).
//!
//! The thresholds are raised once, first thing: up to 256 MiB free at the
//! heap's top is kept, and blocks up to 32 MiB (the most glibc takes) come
//! from the heap. A run's memory then stays at what its busiest moment
//! needed until it ends, which the chunked pipeline bounds.

/// Raises glibc's trim and mmap thresholds (see the module's text); a
/// no-op with any other C library.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: mallopt takes a parameter number and a value, both plain
    // integers; it changes only the allocator's settings (under its own
    // lock) and answers 0 for a value it refuses, which leaves the default
    // in place. Nothing is read or written through a pointer.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}
