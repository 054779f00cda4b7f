//! Fallible allocation of table storage: a size that cannot be had is a typed error
//! for the caller to report, not an abort of the process.

use thiserror::Error;

/// A table whose memory could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("cannot allocate a table of {} MB: not enough memory", .bytes.div_ceil(1 << 20))]
pub struct TableAllocError {
    /// The size asked for, in bytes.
    pub bytes: usize,
}

/// `n` values made by `make`, on the heap, or the error when the memory is not there.
pub(crate) fn try_heap<T>(n: usize, make: impl Fn() -> T) -> Result<Box<[T]>, TableAllocError> {
    let bytes = n.saturating_mul(std::mem::size_of::<T>());
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| TableAllocError { bytes })?;
    v.extend((0..n).map(|_| make()));
    Ok(v.into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_past_the_address_space_is_an_error() {
        let e = try_heap(usize::MAX / 16, || 0u64).unwrap_err();
        assert!(e.to_string().contains("not enough memory"), "{e}");
        assert_eq!(try_heap(3, || 7u64).unwrap().as_ref(), &[7, 7, 7]);
    }
}
