//! The `Date` tag: today's date in PDN form (`2026.11.23`), from the system clock
//! (UTC), and the unknown date `????.??.??`.

use std::time::{SystemTime, UNIX_EPOCH};

/// The `Date` value of an unknown date.
pub const UNKNOWN_DATE: &str = "????.??.??";

/// Today's date (UTC) as PDN writes it, `YYYY.MM.DD`; [`UNKNOWN_DATE`] when the clock
/// is before 1970.
pub fn today() -> String {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => date_of_day((d.as_secs() / 86_400) as i64),
        Err(_) => UNKNOWN_DATE.to_string(),
    }
}

/// The PDN date of day `days` after 1970-01-01 (the civil-from-days algorithm of
/// H. Hinnant).
pub fn date_of_day(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_calendar_dates() {
        assert_eq!(date_of_day(0), "1970.01.01");
        assert_eq!(date_of_day(59), "1970.03.01");
        assert_eq!(date_of_day(11_016), "2000.02.29");
        assert_eq!(date_of_day(20_415), "2025.11.23");
        assert_eq!(today().len(), 10);
    }
}
