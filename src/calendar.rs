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

    /// How many days the month of this date has (28 to 31).
    pub fn days_in_month(self) -> u32 {
        let first = Date { day: 1, ..self };
        let next = if self.month >= 12 {
            Date {
                year: self.year + 1,
                month: 1,
                day: 1,
            }
        } else {
            Date {
                month: self.month + 1,
                ..first
            }
        };
        (next.days() - first.days()) as u32
    }

    /// The day of the week, 0 = Monday ... 6 = Sunday (1970-01-01 was a Thursday).
    pub fn weekday(self) -> u8 {
        (self.days() + 3).rem_euclid(7) as u8
    }

    /// The English name of the weekday, e.g. `Monday`.
    pub fn weekday_name(self) -> &'static str {
        WEEKDAYS[self.weekday() as usize]
    }

    /// The English name of the month, e.g. `January`.
    pub fn month_name(self) -> &'static str {
        MONTHS[(self.month as usize).clamp(1, 12) - 1]
    }

    /// The date as people write it: `Monday 4 January 2027`.
    pub fn long(self) -> String {
        format!(
            "{} {} {} {}",
            self.weekday_name(),
            self.day,
            self.month_name(),
            self.year
        )
    }

    /// The date in short: `Mon 4 Jan 2027`.
    pub fn short(self) -> String {
        format!(
            "{} {} {} {}",
            &self.weekday_name()[..3],
            self.day,
            &self.month_name()[..3],
            self.year
        )
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

/// The English weekday names, Monday first.
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The English month names.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A range of dates as a title writes it, the shared parts once: `4 January 2027`,
/// `4-10 January 2027`, `28 January - 3 February 2027`, `28 December 2026 - 3 January 2027`.
pub fn range_text(first: Date, last: Date) -> String {
    let (m1, m2) = (first.month_name(), last.month_name());
    if first == last {
        format!("{} {m1} {}", first.day, first.year)
    } else if first.year != last.year {
        format!(
            "{} {m1} {} - {} {m2} {}",
            first.day, first.year, last.day, last.year
        )
    } else if first.month != last.month {
        format!("{} {m1} - {} {m2} {}", first.day, last.day, last.year)
    } else {
        format!("{}-{} {m1} {}", first.day, last.day, last.year)
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

/// Why a text is not a date.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    /// Not of the form `YYYY-MM-DD` (the text as given).
    #[error("bad date {0:?}: expected YYYY-MM-DD")]
    Malformed(String),
    /// Of the right form, a day the calendar does not have.
    #[error("{date:?} is not a day of the calendar: {month} has {days} days")]
    NoSuchDay {
        /// The date as given.
        date: String,
        /// Its month and year, in words.
        month: String,
        /// How many days that month has.
        days: u32,
    },
}

impl std::str::FromStr for Date {
    type Err = DateError;

    /// Parses `YYYY-MM-DD` (surrounding whitespace ignored): four digits of year, two of
    /// month and two of day, a day the calendar has.
    fn from_str(s: &str) -> Result<Date, DateError> {
        let bad = || DateError::Malformed(s.to_string());
        let mut it = s.trim().split('-');
        let (y, m, d) = (
            it.next().ok_or_else(bad)?,
            it.next().ok_or_else(bad)?,
            it.next().ok_or_else(bad)?,
        );
        if it.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let date = Date {
            year: y.parse().map_err(|_| bad())?,
            month: m.parse().map_err(|_| bad())?,
            day: d.parse().map_err(|_| bad())?,
        };
        if !(1..=12).contains(&date.month) {
            return Err(bad());
        }
        // Round trip: rejects 2027-02-30 and the like.
        if date.day == 0 || Date::from_days(date.days()) != date {
            return Err(DateError::NoSuchDay {
                date: s.trim().to_string(),
                month: format!("{} {}", date.month_name(), date.year),
                days: date.days_in_month(),
            });
        }
        Ok(date)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekdays_names_and_ranges() {
        let d = |y, m, day| Date {
            year: y,
            month: m,
            day,
        };
        assert_eq!(d(2027, 1, 4).long(), "Monday 4 January 2027");
        assert_eq!(d(2027, 1, 10).short(), "Sun 10 Jan 2027");
        assert_eq!(d(1970, 1, 1).weekday_name(), "Thursday");
        assert_eq!(d(2000, 2, 29).weekday_name(), "Tuesday");
        assert_eq!(d(1969, 12, 31).weekday_name(), "Wednesday");
        // Seven days in a row are the seven weekdays.
        let days: Vec<u8> = (0..7)
            .map(|i| Date::from_days(20_000 + i).weekday())
            .collect();
        let mut sorted = days.clone();
        sorted.sort();
        assert_eq!(sorted, (0..7).collect::<Vec<u8>>());
        assert_eq!(range_text(d(2027, 1, 4), d(2027, 1, 4)), "4 January 2027");
        assert_eq!(
            range_text(d(2027, 1, 4), d(2027, 1, 10)),
            "4-10 January 2027"
        );
        assert_eq!(
            range_text(d(2027, 1, 28), d(2027, 2, 3)),
            "28 January - 3 February 2027"
        );
        assert_eq!(
            range_text(d(2026, 12, 28), d(2027, 1, 3)),
            "28 December 2026 - 3 January 2027"
        );
    }

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
