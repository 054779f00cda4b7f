//! Binomial coefficients for the combinatorial number system that both
//! generations' indexes number placements with.

/// `BINOM[n][k] = C(n, k)` for `n, k ≤ 32` (all of them, so that ranking a placement
/// with too many pieces cannot index out of bounds).
pub(crate) const BINOM: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 32 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};
