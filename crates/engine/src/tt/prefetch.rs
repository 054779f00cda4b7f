//! A cache hint: ask for the line holding a value before it is read, so that a
//! transposition table's slot arrives while other work goes on.

/// Prefetch the cache line of `p` into all cache levels. A hint only: it never
/// faults and does nothing on targets without the instruction.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint and never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
