//! Calendar dates without a time-zone library: today's UTC date, and conversions between
//! civil dates and day numbers (days since 1970-01-01), for reports and dated exports.

/// A civil (proleptic Gregorian) date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// The year, e.g. 2026.
    pub year: i32,
    /// The month, 1-12.
    pub month: u8,
    /// The day of the month, 1-31.
    pub day: u8,
}

impl Date {
    /// The date `days` days after 1970-01-01 (negative before), by Howard Hinnant's
    /// `civil_from_days` algorithm.
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// Days since 1970-01-01 (the inverse of [`Date::from_days`]).
    pub fn days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// Today's date in UTC, from the system clock.
    pub fn today() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Date::from_days((secs / 86_400) as i64)
    }
}

/// The current time in UTC, `YYYY-MM-DDTHH:MM:SSZ`, from the system clock.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let s = secs % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date::from_days((secs / 86_400) as i64),
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

impl std::fmt::Display for Date {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates_and_round_trips() {
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_days(20_414).to_string(), "2025-11-22");
        assert_eq!(Date::from_days(-1).to_string(), "1969-12-31");
        let leap = Date {
            year: 2028,
            month: 2,
            day: 29,
        };
        assert_eq!(Date::from_days(leap.days()), leap);
        for d in -800_000..800_000 {
            assert_eq!(Date::from_days(d).days(), d);
        }
    }
}
