//! Counts in words with the right number: `1 game`, `2 games`, `1 ply`, `3 plies`.

/// `n` followed by `one` when it is 1, else by `many`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n` plies: `1 ply`, `4 plies`.
pub fn plies(n: usize) -> String {
    count(n as u64, "ply", "plies")
}

/// `n` games: `1 game`, `4 games`.
pub fn games(n: usize) -> String {
    count(n as u64, "game", "games")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(0), "0 plies");
        assert_eq!(games(1), "1 game");
        assert_eq!(games(12), "12 games");
        assert_eq!(count(1u32, "move", "moves"), "1 move");
    }
}
