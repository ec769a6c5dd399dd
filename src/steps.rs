//! Work counting for the linear-time tests (feature `step-count`). Without
//! the feature every function here is empty and compiles away.

#[cfg(feature = "step-count")]
thread_local! {
    static STEPS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// Adds `n` units of work (a DFA byte, a program instruction, a byte moved).
#[inline(always)]
pub(crate) fn add(n: usize) {
    #[cfg(feature = "step-count")]
    STEPS.with(|s| s.set(s.get() + n as u64));
    #[cfg(not(feature = "step-count"))]
    let _ = n;
}

/// Work counted on this thread since the last call, then reset (always 0
/// without the `step-count` feature).
#[doc(hidden)]
pub fn take() -> u64 {
    #[cfg(feature = "step-count")]
    return STEPS.with(|s| s.replace(0));
    #[cfg(not(feature = "step-count"))]
    0
}
