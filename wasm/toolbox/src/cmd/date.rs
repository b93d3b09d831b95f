//! date [-u] [-d STRING | -r FILE] [+FORMAT | -I[FMT] | -R | --rfc-3339=FMT]
//! Time comes from the WASI clock; the zone is TZ's as glibc reads it (crate::tz: Debian's
//! tzdata files the session serves, POSIX strings; UTC when unset). -d accepts the
//! forms agents use: @EPOCH, ISO dates and date-times (with Z or ±hh:mm),
//! MM/DD/YYYY, "Mon DD YYYY", HH:MM[:SS], now/today/yesterday/tomorrow and
//! relative items ("2 days ago", "+3 hours", "next week", "last month"), days
//! of the week ("monday", "next monday", "last fri"; ignored next to a date,
//! as GNU does) and meridians ("3pm", "3:30 pm", "tomorrow 9am").

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use std::io::Write;

const SPECS: &[Spec] = &[
    val('d', "date", "d"),
    val('r', "reference", "r"),
    flag('u', "utc", "u"),
    flag('u', "universal", "u"),
    optval('I', "iso-8601", "I"),
    flag('R', "rfc-email", "R"),
    val('\0', "rfc-3339", "rfc3339"),
    val('s', "set", "s"),
    val('f', "file", "f"),
    flag('\0', "debug", "debug"),
    flag('\0', "resolution", "resolution"),
];

/// The realtime clock's resolution in nanoseconds, as the host reports it (clock_getres).
fn clock_resolution() -> u64 {
    #[cfg(target_os = "wasi")]
    {
        #[link(wasm_import_module = "wasi_snapshot_preview1")]
        extern "C" {
            fn clock_res_get(id: u32, res: *mut u64) -> u16;
        }
        let mut res = 0u64;
        // SAFETY: the host writes the resolution into `res`, which lives through the call.
        if unsafe { clock_res_get(0, &mut res) } == 0 {
            return res;
        }
    }
    1
}
const HELP: &str = "Usage: date [OPTION]... [+FORMAT]\nDisplay the current time in the given FORMAT.\n\n  -d, --date=STRING          display time described by STRING, not 'now'\n      --debug                annotate the parsed date on stderr\n  -f, --file=DATEFILE        like --date; once for each line of DATEFILE\n  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.\n                               FMT='date' (default), 'hours', 'minutes',\n                               'seconds', or 'ns'\n  -R, --rfc-email            output date and time in RFC 5322 format\n      --rfc-3339=FMT         output date/time in RFC 3339 format (date, seconds, ns)\n  -r, --reference=FILE       display the last modification time of FILE\n      --resolution           output the available resolution of timestamps\n  -s, --set=STRING           set time described by STRING (not permitted here)\n  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)\n\nFORMAT codes: %% %a %A %b %B %c %C %d %D %e %F %G %g %h %H %I %j %k %l %m %M %n\n%N %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %:z %Z; flags - _ 0 ^.\n";

const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

pub fn days_to_civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

pub fn civil_to_days(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 } as i64;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    (civil_to_days(ny, nm, 1) - civil_to_days(y, m, 1)) as u32
}

/// Broken-down UTC time.
struct Tm {
    y: i64,
    mo: u32,
    d: u32,
    h: i64,
    mi: i64,
    s: i64,
    ns: u32,
    wd: i64,
    yd: i64,
    secs: i64,
    /// The zone's offset east of UTC and abbreviation at this time.
    off: i64,
    abbr: String,
}

fn tm(secs: i64, ns: u32) -> Tm {
    tm_in(secs, ns, &crate::tz::Zone::utc())
}

/// Broken-down local time of `secs` in `zone`.
fn tm_in(secs: i64, ns: u32, zone: &crate::tz::Zone) -> Tm {
    let l = zone.at(secs);
    let local = secs + l.off;
    let days = local.div_euclid(86400);
    let rem = local.rem_euclid(86400);
    let (y, mo, d) = days_to_civil(days);
    Tm { y, mo, d, h: rem / 3600, mi: rem % 3600 / 60, s: rem % 60, ns, wd: (days + 4).rem_euclid(7), yd: days - civil_to_days(y, 1, 1), secs, off: l.off, abbr: l.abbr }
}

/// ISO 8601 week-based year and week number.
fn iso_week(t: &Tm) -> (i64, i64) {
    let weeks_in = |y: i64| {
        let jan1 = (civil_to_days(y, 1, 1) + 4).rem_euclid(7); // 0 = Sunday
        let leap = civil_to_days(y + 1, 1, 1) - civil_to_days(y, 1, 1) == 366;
        if jan1 == 4 || (leap && jan1 == 3) {
            53
        } else {
            52
        }
    };
    let wd_mon = (t.wd + 6) % 7;
    let w = (t.yd - wd_mon + 10) / 7;
    if w < 1 {
        (t.y - 1, weeks_in(t.y - 1))
    } else if w > weeks_in(t.y) {
        (t.y + 1, 1)
    } else {
        (t.y, w)
    }
}

/// `fmt` (date's +FORMAT) applied to a UTC time, for `ls --time-style=+FORMAT`.
pub fn format_utc(fmt: &str, secs: i64, ns: u32) -> String {
    format(fmt, &tm(secs, ns))
}

/// `fmt` applied to the local time of TZ (as the environment sets it).
pub fn format_local(fmt: &str, secs: i64, ns: u32) -> String {
    format(fmt, &tm_in(secs, ns, &crate::tz::Zone::from_env()))
}

fn format(fmt: &str, t: &Tm) -> String {
    let mut o = String::new();
    let cs: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        if c != '%' || i >= cs.len() {
            o.push(c);
            continue;
        }
        let mut pad: Option<char> = None;
        let mut upper = false;
        while i < cs.len() && matches!(cs[i], '-' | '_' | '0' | '^' | '#') {
            match cs[i] {
                '-' => pad = Some('-'),
                '_' => pad = Some(' '),
                '0' => pad = Some('0'),
                '^' => upper = true,
                _ => {}
            }
            i += 1;
        }
        let mut colon = false;
        if i < cs.len() && cs[i] == ':' && cs.get(i + 1) == Some(&'z') {
            colon = true;
            i += 1;
        }
        if i >= cs.len() {
            o.push('%');
            break;
        }
        let k = cs[i];
        i += 1;
        let num = |v: i64, width: usize, dflt: char| -> String {
            match pad.unwrap_or(dflt) {
                '-' => v.to_string(),
                ' ' => format!("{:>w$}", v, w = width),
                _ => format!("{:0>w$}", v, w = width),
            }
        };
        let h12 = if t.h % 12 == 0 { 12 } else { t.h % 12 };
        let s = match k {
            '%' => "%".into(),
            'a' => DAYS[t.wd as usize][..3].into(),
            'A' => DAYS[t.wd as usize].into(),
            'b' | 'h' => MONTHS[t.mo as usize - 1][..3].into(),
            'B' => MONTHS[t.mo as usize - 1].into(),
            'c' => format!("{} {} {:>2} {:02}:{:02}:{:02} {}", &DAYS[t.wd as usize][..3], &MONTHS[t.mo as usize - 1][..3], t.d, t.h, t.mi, t.s, t.y),
            'C' => num(t.y.div_euclid(100), 2, '0'),
            'd' => num(t.d as i64, 2, '0'),
            'D' => format!("{:02}/{:02}/{:02}", t.mo, t.d, t.y.rem_euclid(100)),
            'e' => num(t.d as i64, 2, ' '),
            'F' => format!("{}-{:02}-{:02}", t.y, t.mo, t.d),
            'G' => iso_week(t).0.to_string(),
            'g' => num(iso_week(t).0.rem_euclid(100), 2, '0'),
            'H' => num(t.h, 2, '0'),
            'I' => num(h12, 2, '0'),
            'j' => num(t.yd + 1, 3, '0'),
            'q' => ((t.mo as i64 - 1) / 3 + 1).to_string(),
            'k' => num(t.h, 2, ' '),
            'l' => num(h12, 2, ' '),
            'm' => num(t.mo as i64, 2, '0'),
            'M' => num(t.mi, 2, '0'),
            'n' => "\n".into(),
            'N' => format!("{:09}", t.ns),
            'p' => (if t.h < 12 { "AM" } else { "PM" }).into(),
            'P' => (if t.h < 12 { "am" } else { "pm" }).into(),
            'r' => format!("{:02}:{:02}:{:02} {}", h12, t.mi, t.s, if t.h < 12 { "AM" } else { "PM" }),
            'R' => format!("{:02}:{:02}", t.h, t.mi),
            's' => t.secs.to_string(),
            'S' => num(t.s, 2, '0'),
            't' => "\t".into(),
            'T' => format!("{:02}:{:02}:{:02}", t.h, t.mi, t.s),
            'u' => (if t.wd == 0 { 7 } else { t.wd }).to_string(),
            'U' => num((t.yd + 7 - t.wd) / 7, 2, '0'),
            'W' => num((t.yd + 7 - (t.wd + 6) % 7) / 7, 2, '0'),
            'V' => num(iso_week(t).1, 2, '0'),
            'w' => t.wd.to_string(),
            'x' => format!("{:02}/{:02}/{:02}", t.mo, t.d, t.y.rem_euclid(100)),
            'X' => format!("{:02}:{:02}:{:02}", t.h, t.mi, t.s),
            'y' => num(t.y.rem_euclid(100), 2, '0'),
            'Y' => t.y.to_string(),
            'z' => {
                let a = t.off.abs();
                let sign = if t.off < 0 { '-' } else { '+' };
                if colon {
                    format!("{}{:02}:{:02}", sign, a / 3600, a % 3600 / 60)
                } else {
                    format!("{}{:02}{:02}", sign, a / 3600, a % 3600 / 60)
                }
            }
            'Z' => t.abbr.clone(),
            other => format!("%{}", other),
        };
        if upper {
            o.push_str(&s.to_uppercase());
        } else {
            o.push_str(&s);
        }
    }
    o
}

fn unit_secs(u: &str) -> Option<(i64, bool)> {
    // (seconds, is_month_based: months/years shift the calendar, not seconds)
    let u = u.trim_end_matches('s');
    Some(match u {
        "sec" | "second" => (1, false),
        "min" | "minute" => (60, false),
        "hour" => (3600, false),
        "day" => (86400, false),
        "week" => (7 * 86400, false),
        "fortnight" => (14 * 86400, false),
        "month" => (1, true),
        "year" => (12, true),
        _ => return None,
    })
}

fn add_months(secs: i64, n: i64) -> i64 {
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let (y, m, d) = days_to_civil(days);
    let total = y * 12 + (m as i64 - 1) + n;
    let (ny, nm) = (total.div_euclid(12), (total.rem_euclid(12) + 1) as u32);
    // GNU lets the day overflow into the next month (Jan 31 + 1 month = Mar 3).
    let base = civil_to_days(ny, nm, 1) + d as i64 - 1;
    base * 86400 + rem
}

fn month_index(w: &str) -> Option<u32> {
    let w = w.to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS.iter().position(|m| m.to_ascii_lowercase().starts_with(&w[..3]) && m.to_ascii_lowercase().starts_with(&w)).map(|i| i as u32 + 1)
}

/// Parses a time of day `HH:MM[:SS[.frac]]`; returns seconds and nanos.
fn parse_hms(s: &str) -> Option<(i64, u32)> {
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let h: i64 = parts[0].parse().ok()?;
    let m: i64 = parts[1].parse().ok()?;
    let (sec, ns) = match parts.get(2) {
        Some(p) => {
            let (w, f) = p.split_once(|c| c == '.' || c == ',').unwrap_or((p, ""));
            let s: i64 = w.parse().ok()?;
            let mut frac = f.to_string();
            if !frac.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            frac.truncate(9);
            while frac.len() < 9 {
                frac.push('0');
            }
            (s, frac.parse().ok()?)
        }
        None => (0, 0),
    };
    if h > 24 || m > 59 || sec > 60 {
        return None;
    }
    Some((h * 3600 + m * 60 + sec, ns))
}

fn parse_zone(s: &str) -> Option<i64> {
    if s == "Z" || s.eq_ignore_ascii_case("utc") || s.eq_ignore_ascii_case("gmt") {
        return Some(0);
    }
    let sign = match s.chars().next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let body: String = s[1..].chars().filter(|c| *c != ':').collect();
    if !body.chars().all(|c| c.is_ascii_digit()) || !(body.len() == 2 || body.len() == 4) {
        return None;
    }
    let h: i64 = body[..2].parse().ok()?;
    let m: i64 = if body.len() == 4 { body[2..].parse().ok()? } else { 0 };
    Some(sign * (h * 3600 + m * 60))
}

/// Parses a -d STRING relative to `now`; None when it is not understood.
/// A day of the week as GNU date reads it (full name or its first three letters or more),
/// 0 for Sunday.
fn weekday_index(w: &str) -> Option<i64> {
    DAYS.iter().position(|d| w.len() >= 3 && d.to_ascii_lowercase().starts_with(w)).map(|i| i as i64)
}

pub fn parse_date(input: &str, now: (i64, u32)) -> Option<(i64, u32)> {
    parse_date_in(input, now, &crate::tz::Zone::from_env())
}

/// Parses a -d STRING in the local time of `zone` (or of a leading `TZ="Zone"`, as GNU allows).
pub fn parse_date_in(input: &str, now: (i64, u32), zone: &crate::tz::Zone) -> Option<(i64, u32)> {
    let s = input.trim();
    let own;
    let (s, zone) = match s.get(..4).filter(|p| p.eq_ignore_ascii_case("tz=\"")) {
        Some(_) => {
            let end = s[4..].find('"')? + 4;
            own = crate::tz::Zone::named(&s[4..end]);
            (s[end + 1..].trim(), &own)
        }
        None => (s, zone),
    };
    if let Some(e) = s.strip_prefix('@') {
        let v: f64 = e.trim().parse().ok()?;
        let secs = v.floor();
        return Some((secs as i64, ((v - secs) * 1e9).round() as u32));
    }
    let lower = s.to_ascii_lowercase();
    // Split off a trailing time zone word glued to an ISO time (…T10:00:00Z / +02:00).
    let mut toks: Vec<String> = Vec::new();
    for w in lower.replace(',', " ").split_whitespace() {
        // 2024-01-02T03:04:05Z → date, time, zone
        if let Some((d, t)) = w.split_once('t').filter(|(d, _)| d.len() == 10 && d.as_bytes()[4] == b'-') {
            toks.push(d.to_string());
            let zi = t.find(|c| c == 'z' || c == '+' || c == '-');
            match zi {
                Some(i) => {
                    toks.push(t[..i].to_string());
                    toks.push(t[i..].to_string());
                }
                None => toks.push(t.to_string()),
            }
        } else {
            toks.push(w.to_string());
        }
    }
    // "+ 1 day": a lone sign belongs to the number after it.
    let mut joined: Vec<String> = Vec::new();
    let mut sign: Option<String> = None;
    for t in toks {
        if t == "+" || t == "-" {
            sign = Some(t);
            continue;
        }
        joined.push(match sign.take() {
            Some(sg) => format!("{}{}", sg, t),
            None => t,
        });
    }
    // "3pm", "3:30pm": the hour, then the meridian as its own word.
    let mut toks: Vec<String> = Vec::new();
    for t in joined {
        let split = ["am", "pm"].iter().find(|m| t.len() > 2 && t.ends_with(*m) && t[..t.len() - 2].bytes().all(|c| c.is_ascii_digit() || c == b':'));
        match split {
            Some(m) => {
                toks.push(t[..t.len() - 2].to_string());
                toks.push(m.to_string());
            }
            None => toks.push(t),
        }
    }
    // Calendar work happens in local wall-clock seconds; mktime's step turns them back.
    let (mut secs, mut ns) = (now.0 + zone.at(now.0).off, now.1);
    // Days and weeks move the calendar (keeping the wall-clock time across a DST change);
    // hours, minutes and seconds move the absolute time, as GNU's parser does.
    let mut rel_days: i64 = 0;
    // A day of the week and its ordinal (next 1, last -1, this or none 0), as GNU's parser keeps them.
    let mut weekday: Option<(i64, i64)> = None;
    let mut date_set = false;
    let mut time_set = false;
    let mut explicit: Option<i64> = None;
    let mut rel_secs: i64 = 0;
    let mut rel_months: i64 = 0;
    let mut i = 0;
    let day0 = |secs: i64| secs.div_euclid(86400) * 86400;
    while i < toks.len() {
        let t = toks[i].as_str();
        i += 1;
        match t {
            "now" => continue,
            "today" => continue,
            "yesterday" => {
                rel_days -= 86400;
                continue;
            }
            "tomorrow" => {
                rel_days += 86400;
                continue;
            }
            "midnight" => {
                secs = day0(secs);
                ns = 0;
                time_set = true;
                continue;
            }
            "noon" => {
                secs = day0(secs) + 12 * 3600;
                ns = 0;
                time_set = true;
                continue;
            }
            "ago" => {
                rel_secs = -rel_secs;
                rel_days = -rel_days;
                rel_months = -rel_months;
                continue;
            }
            "utc" | "gmt" | "z" => {
                explicit = Some(0);
                continue;
            }
            "next" | "last" | "this" => {
                let n = match t {
                    "next" => 1,
                    "last" => -1,
                    _ => 0,
                };
                if let Some(dn) = toks.get(i).and_then(|w| weekday_index(w)) {
                    i += 1;
                    weekday = Some((dn, n));
                    continue;
                }
                let u = toks.get(i)?;
                i += 1;
                let (mul, months) = unit_secs(u)?;
                if months {
                    rel_months += n * mul;
                } else if mul % 86400 == 0 {
                    rel_days += n * mul;
                } else {
                    rel_secs += n * mul;
                }
                continue;
            }
            _ => {}
        }
        // ISO date
        let b = t.as_bytes();
        if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
            let y: i64 = t[..4].parse().ok()?;
            let m: u32 = t[5..7].parse().ok()?;
            let d: u32 = t[8..].parse().ok()?;
            if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
                return None;
            }
            secs = civil_to_days(y, m, d) * 86400 + if time_set { secs.rem_euclid(86400) } else { 0 };
            if !time_set {
                ns = 0;
            }
            date_set = true;
            continue;
        }
        if t.matches('/').count() == 2 {
            let p: Vec<&str> = t.split('/').collect();
            let (m, d, y): (u32, u32, i64) = (p[0].parse().ok()?, p[1].parse().ok()?, p[2].parse().ok()?);
            let y = if p[2].len() == 2 { 2000 + y } else { y };
            if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
                return None;
            }
            secs = civil_to_days(y, m, d) * 86400 + if time_set { secs.rem_euclid(86400) } else { 0 };
            date_set = true;
            continue;
        }
        if t.contains(':') && t.chars().next().map_or(false, |c| c.is_ascii_digit()) {
            let (hms, rest) = match t.find(|c| c == '+' || c == '-' || c == 'z') {
                Some(i) => (&t[..i], Some(&t[i..])),
                None => (t, None),
            };
            let (sod, n) = parse_hms(hms)?;
            secs = day0(secs) + sod;
            ns = n;
            time_set = true;
            if let Some(z) = rest {
                explicit = Some(parse_zone(&z.to_uppercase())?);
            }
            // am/pm
            if let Some(ap) = toks.get(i).map(|s| s.as_str()) {
                if ap == "am" || ap == "pm" {
                    i += 1;
                    let h = sod / 3600;
                    let adj = match (ap, h) {
                        ("am", 12) => -12 * 3600,
                        ("pm", h) if h < 12 => 12 * 3600,
                        _ => 0,
                    };
                    secs += adj;
                }
            }
            continue;
        }
        if t.starts_with('+') || t.starts_with('-') {
            if let Some(z) = parse_zone(&t.to_uppercase()).filter(|_| time_set && t.len() >= 3 && explicit.is_none() && !toks.get(i).map_or(false, |u| unit_secs(u).is_some())) {
                explicit = Some(z);
                continue;
            }
        }
        if let Some(m) = month_index(t) {
            // "Jan 2 2024" or "2 Jan 2024"
            let d: u32 = toks.get(i)?.parse().ok()?;
            i += 1;
            let y: i64 = match toks.get(i).and_then(|s| s.parse().ok()) {
                Some(y) => {
                    i += 1;
                    y
                }
                None => days_to_civil(secs.div_euclid(86400)).0,
            };
            if d < 1 || d > days_in_month(y, m) {
                return None;
            }
            secs = civil_to_days(y, m, d) * 86400 + if time_set { secs.rem_euclid(86400) } else { 0 };
            date_set = true;
            continue;
        }
        if let Ok(n) = t.parse::<i64>() {
            // "3 pm": an hour from 1 to 12 and its meridian
            if let Some(ap) = toks.get(i).map(|w| w.as_str()).filter(|w| *w == "am" || *w == "pm") {
                if !(1..=12).contains(&n) || t.len() > 2 {
                    return None;
                }
                i += 1;
                let h = n % 12 + if ap == "pm" { 12 } else { 0 };
                secs = day0(secs) + h * 3600;
                ns = 0;
                time_set = true;
                continue;
            }
            if let Some(m) = toks.get(i).and_then(|w| month_index(w)) {
                i += 1;
                let y: i64 = match toks.get(i).and_then(|s| s.parse().ok()) {
                    Some(y) => {
                        i += 1;
                        y
                    }
                    None => days_to_civil(secs.div_euclid(86400)).0,
                };
                let d = n as u32;
                if d < 1 || d > days_in_month(y, m) {
                    return None;
                }
                secs = civil_to_days(y, m, d) * 86400 + if time_set { secs.rem_euclid(86400) } else { 0 };
                date_set = true;
                continue;
            }
            let u = toks.get(i)?;
            i += 1;
            let (mul, months) = unit_secs(u)?;
            if months {
                rel_months += n * mul;
            } else if mul % 86400 == 0 {
                rel_days += n * mul;
            } else {
                rel_secs += n * mul;
            }
            continue;
        }
        if let Some(dn) = weekday_index(t) {
            weekday = Some((dn, 0));
            continue;
        }
        if let Some((mul, months)) = unit_secs(t) {
            // "day" alone means "1 day"
            if months {
                rel_months += mul;
            } else if mul % 86400 == 0 {
                rel_days += mul;
            } else {
                rel_secs += mul;
            }
            continue;
        }
        return None;
    }
    // GNU ignores a day of the week next to a date; alone it moves to that day (at midnight
    // unless a time is given): this or none → the coming one (today counts), next → the coming
    // one after today, last → the one before today.
    if let (Some((dn, ord)), false) = (weekday, date_set) {
        let days = secs.div_euclid(86400);
        let wday = (days + 4).rem_euclid(7); // 1970-01-01 was a Thursday
        let add = (dn - wday + 7) % 7 + 7 * (ord - i64::from(ord > 0 && wday != dn));
        secs = (days + add) * 86400 + if time_set { secs.rem_euclid(86400) } else { 0 };
        if !time_set {
            ns = 0;
        }
    }
    if (date_set || time_set) && !time_set {
        ns = 0;
    }
    if !date_set && !time_set && weekday.is_none() && rel_months == 0 && rel_days == 0 {
        return Some((now.0 + rel_secs, ns));
    }
    let local = add_months(secs, rel_months) + rel_days;
    let secs = match explicit {
        Some(z) => local - z,
        None => zone.to_utc(local)?,
    };
    Some((secs + rel_secs, ns))
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("resolution") {
        let ns = clock_resolution();
        writeln!(ctx.out, "{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)?;
        return Ok(0);
    }
    let mut fmt: Option<String> = None;
    for op in &p.operands {
        match op.strip_prefix('+') {
            Some(f) if fmt.is_none() => fmt = Some(f.to_string()),
            _ => {
                if fmt.is_some() || !op.starts_with('+') {
                    ctx.diag.usage(format!("invalid date {}", lq(op)).replacen("invalid date", "extra operand", 1));
                    return Ok(1);
                }
            }
        }
    }
    let styles = [p.has("I"), p.has("R"), p.has("rfc3339"), fmt.is_some()].iter().filter(|x| **x).count();
    if styles > 1 {
        ctx.diag.usage("multiple output formats specified");
        return Ok(1);
    }
    if let Some(i) = p.opts.iter().rev().find(|o| o.key == "I") {
        let f = i.val.as_deref().unwrap_or("date");
        let f = match ["date", "hours", "minutes", "seconds", "ns"].iter().find(|k| !f.is_empty() && k.starts_with(f)) {
            Some(k) => *k,
            None => {
                ctx.diag.error(format!("invalid argument {} for '--iso-8601'", lq(f)));
                let _ = writeln!(ctx.diag.raw(), "Valid arguments are:");
                for k in ["hours", "minutes", "date", "seconds", "ns"] {
                    let _ = writeln!(ctx.diag.raw(), "  - {}", lq(k));
                }
                ctx.diag.try_help();
                return Ok(1);
            }
        };
        fmt = Some(match f {
            "date" => "%Y-%m-%d".into(),
            "hours" => "%Y-%m-%dT%H%:z".into(),
            "minutes" => "%Y-%m-%dT%H:%M%:z".into(),
            "seconds" => "%Y-%m-%dT%H:%M:%S%:z".into(),
            _ => "%Y-%m-%dT%H:%M:%S,%N%:z".into(),
        });
    }
    if p.has("R") {
        fmt = Some("%a, %d %b %Y %H:%M:%S %z".into());
    }
    if let Some(f) = p.last("rfc3339") {
        fmt = Some(match f {
            "date" => "%Y-%m-%d".into(),
            "seconds" => "%Y-%m-%d %H:%M:%S%:z".into(),
            "ns" => "%Y-%m-%d %H:%M:%S.%N%:z".into(),
            _ => {
                ctx.diag.error(format!("invalid argument {} for '--rfc-3339'", lq(f)));
                return Ok(1);
            }
        });
    }
    let fmt = fmt.unwrap_or_else(|| "%a %b %e %H:%M:%S %Z %Y".into());
    let now = crate::fsx::now();
    // -u is TZ=UTC0 for parsing and printing alike.
    let zone = if p.has("u") { crate::tz::Zone::utc() } else { crate::tz::Zone::from_env() };
    let mut whens: Vec<Option<(i64, u32)>> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    if let Some(r) = p.last("r") {
        match crate::fsx::metadata(r) {
            Ok(m) => whens.push(Some(crate::fsx::mtime(&m))),
            Err(e) => {
                ctx.diag.error(format!("{}: {}", r, reason(&e)));
                return Ok(1);
            }
        }
        labels.push(r.to_string());
    } else if let Some(f) = p.last("f") {
        let text = match std::fs::read_to_string(crate::fsx::host(f)) {
            Ok(t) => t,
            Err(e) => {
                ctx.diag.error(format!("{}: {}", f, reason(&e)));
                return Ok(1);
            }
        };
        for l in text.lines() {
            whens.push(parse_date_in(l, now, &zone));
            labels.push(l.to_string());
        }
    } else if let Some(d) = p.last("s").or(p.last("d")) {
        whens.push(parse_date_in(d, now, &zone));
        labels.push(d.to_string());
    } else {
        whens.push(Some(now));
        labels.push(String::new());
    }
    if p.has("debug") {
        ctx.diag.warn(format!("output format: {}", q(&fmt)));
    }
    let mut status = 0;
    for (w, l) in whens.iter().zip(labels.iter()) {
        match w {
            Some((s, ns)) => {
                // As for a user without CAP_SYS_TIME: the clock is the host's, and stays.
                if p.has("s") {
                    ctx.diag.error("cannot set date: Operation not permitted");
                    status = 1;
                }
                writeln!(ctx.out, "{}", format(&fmt, &tm_in(*s, *ns, &zone)))?
            }
            None => {
                ctx.diag.error(format!("invalid date {}", lq(l)));
                status = 1;
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{check, check_err};

    #[test]
    fn formats_and_parses() {
        let cases: &[(&[&str], &str, i32)] = &[
            (&["-d", "@0"], "Thu Jan  1 00:00:00 UTC 1970\n", 0),
            (&["-u", "-d", "@1700000000", "+%Y-%m-%d %H:%M:%S %a %A %b %B %j %u %w %s %Z %z"], "2023-11-14 22:13:20 Tue Tuesday Nov November 318 2 2 1700000000 UTC +0000\n", 0),
            (&["-d", "2024-02-29", "+%F %T"], "2024-02-29 00:00:00\n", 0),
            (&["-d", "2024-01-31 + 1 month", "+%F"], "2024-03-02\n", 0),
            (&["-d", "2024-03-10 10:20:30", "+%s"], "1710066030\n", 0),
            (&["-d", "2024-03-10T10:20:30Z", "+%s"], "1710066030\n", 0),
            (&["-d", "2024-03-10T12:20:30+02:00", "+%s"], "1710066030\n", 0),
            (&["-d", "2024-01-01 2 days ago", "+%F"], "2023-12-30\n", 0),
            (&["-d", "2024-01-01 +3 hours", "+%F %H"], "2024-01-01 03\n", 0),
            (&["-d", "Jan 5 2024", "+%F"], "2024-01-05\n", 0),
            (&["-d", "5 Jan 2024", "+%F"], "2024-01-05\n", 0),
            (&["-d", "12/25/2023", "+%D %x"], "12/25/23 12/25/23\n", 0),
            (&["-d", "@1700000000", "-I"], "2023-11-14\n", 0),
            (&["-d", "@1700000000", "-Iseconds"], "2023-11-14T22:13:20+00:00\n", 0),
            (&["-d", "@1700000000", "-R"], "Tue, 14 Nov 2023 22:13:20 +0000\n", 0),
            (&["-d", "@1700000000", "--rfc-3339=seconds"], "2023-11-14 22:13:20+00:00\n", 0),
            (&["-d", "@1700000000", "+%-d/%-m %e %k %I %p %r %V %G %U %W %C %y"], "14/11 14 22 10 PM 10:13:20 PM 46 2023 46 46 20 23\n", 0),
            (&["-d", "@1704067200", "+%V %G %u"], "01 2024 1\n", 0),
            (&["-d", "@1735516800", "+%F %V %G"], "2024-12-30 01 2025\n", 0),
            (&["-d", "2021-01-03", "+%V %G"], "53 2020\n", 0),
        ];
        for (args, out, code) in cases {
            check("date", args, "", out, *code);
        }
        check_err("date", &["-d", "blah"], "", "date: invalid date ‘blah’\n", 1);
        check_err("date", &["-d", "2023-02-30"], "", "date: invalid date ‘2023-02-30’\n", 1);
        check_err("date", &["-s", "2020-01-01"], "", "date: cannot set date: Operation not permitted\n", 1);
        assert!(parse_date("yesterday", (86400 * 10, 0)) == Some((86400 * 9, 0)));
        assert!(parse_date("now", (5, 7)) == Some((5, 7)));
    }

    /// Days of the week and meridians, from a fixed "now" (Saturday 2026-11-28 14:46:50 UTC);
    /// each result is what GNU date 9.1 printed at that moment.
    #[test]
    fn weekdays_and_meridians() {
        let now = (1795877210, 0);
        let cases: &[(&str, &str)] = &[
            ("next monday", "2026-11-30 00:00:00"),
            ("last friday", "2026-11-27 00:00:00"),
            ("monday", "2026-11-30 00:00:00"),
            ("this saturday", "2026-11-28 00:00:00"),
            ("next saturday", "2026-12-05 00:00:00"),
            ("last saturday", "2026-11-21 00:00:00"),
            ("fri", "2026-12-04 00:00:00"),
            ("monday next week", "2026-12-07 00:00:00"),
            ("next week monday", "2026-12-07 00:00:00"),
            ("3pm", "2026-11-28 15:00:00"),
            ("3 pm", "2026-11-28 15:00:00"),
            ("3:30pm", "2026-11-28 15:30:00"),
            ("12am", "2026-11-28 00:00:00"),
            ("12pm", "2026-11-28 12:00:00"),
            ("tomorrow 9am", "2026-11-29 09:00:00"),
            ("next monday 10:00", "2026-11-30 10:00:00"),
            ("monday 9am", "2026-11-30 09:00:00"),
            ("+2 weeks", "2026-12-12 14:46:50"),
            ("2024-01-31 next monday", "2024-01-31 00:00:00"),
            ("2024-01-31 sunday 10:00", "2024-01-31 10:00:00"),
            ("Jan 15 2024 3pm", "2024-01-15 15:00:00"),
            ("2024-01-15 9am +2 hours", "2024-01-15 11:00:00"),
        ];
        for (text, want) in cases {
            let got = parse_date(text, now).map(|(t, _)| format_utc("%F %T", t, 0));
            assert_eq!(got.as_deref(), Some(*want), "{}", text);
        }
        assert!(parse_date("13pm", now).is_none());
    }
}
