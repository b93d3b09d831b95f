//! Time zones as glibc reads the TZ variable: a TZif file under /usr/share/zoneinfo (the session
//! serves Debian's tzdata there), `:NAME`, an absolute file, or a POSIX string such as
//! `EST5EDT,M3.2.0,M11.1.0` or `UTC+3`. TZ unset or empty is UTC (the session's /etc/localtime).
//! A name that is neither a file nor a valid POSIX string gives UTC under the longest leading
//! alphabetic name glibc accepted (`Nowhere/Foo` → `Nowhere`), as Debian's date prints.

use crate::cmd::date::civil_to_days;

#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    /// Seconds east of UTC.
    pub off: i64,
    pub isdst: bool,
    pub abbr: String,
}

/// A POSIX TZ rule's date: Jn (1..365, no Feb 29), n (0..365), or Mm.w.d.
#[derive(Clone, Debug)]
enum Day {
    J1(i64),
    J0(i64),
    M(u32, i64, i64),
}

#[derive(Clone, Debug)]
struct Posix {
    std: Local,
    /// DST name and offset, and the rules (start, its local time; end, its local time).
    dst: Option<(Local, (Day, i64), (Day, i64))>,
}

#[derive(Clone, Debug)]
pub struct Zone {
    trans: Vec<i64>,
    idx: Vec<u8>,
    types: Vec<Local>,
    footer: Option<Posix>,
}

fn utc(name: &str) -> Zone {
    Zone { trans: vec![], idx: vec![], types: vec![Local { off: 0, isdst: false, abbr: name.into() }], footer: None }
}

impl Zone {
    pub fn utc() -> Zone {
        utc("UTC")
    }

    /// The zone the TZ environment variable names, as glibc's tzset reads it.
    pub fn from_env() -> Zone {
        match std::env::var("TZ") {
            Ok(v) => Zone::named(&v),
            Err(_) => Zone::utc(),
        }
    }

    pub fn named(tz: &str) -> Zone {
        let tz = tz.strip_prefix(':').unwrap_or(tz);
        if tz.is_empty() {
            return Zone::utc();
        }
        let path = if tz.starts_with('/') { tz.to_string() } else { format!("/usr/share/zoneinfo/{}", tz) };
        if let Ok(bytes) = std::fs::read(crate::fsx::host(&path)) {
            if let Some(z) = parse_tzif(&bytes) {
                return z;
            }
        }
        let (p, name) = parse_posix(tz);
        match p {
            Some(p) => Zone { trans: vec![], idx: vec![], types: vec![], footer: Some(p) },
            None => utc(&name),
        }
    }

    /// Local time type in force at UTC second `t`.
    pub fn at(&self, t: i64) -> Local {
        if !self.trans.is_empty() && t >= *self.trans.last().unwrap() && self.footer.is_some() {
            return self.footer.as_ref().unwrap().at(t);
        }
        if self.trans.is_empty() || t < self.trans[0] {
            if self.types.is_empty() {
                return self.footer.as_ref().map(|f| f.at(t)).unwrap_or_else(|| Local { off: 0, isdst: false, abbr: "UTC".into() });
            }
            return self.types.iter().find(|l| !l.isdst).unwrap_or(&self.types[0]).clone();
        }
        let i = match self.trans.binary_search(&t) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        self.types[self.idx[i] as usize].clone()
    }

    /// The UTC second of local wall time `local` (seconds since the epoch as if the zone were
    /// UTC), as glibc's mktime with tm_isdst=-1 finds it: from a first guess of offset 0, move by
    /// the offset found until it holds. In a repeated hour that lands on the daylight instance
    /// west of UTC and the standard one east of it, as Debian's date prints; in a skipped hour
    /// nothing holds (None: GNU date calls such a time invalid).
    pub fn to_utc(&self, local: i64) -> Option<i64> {
        let mut t = local;
        for _ in 0..8 {
            let next = local - self.at(t).off;
            if next == t {
                return Some(t);
            }
            t = next;
        }
        None
    }

    /// Local time type in force at UTC second `t` in the zone TZ names (read once per process).
    pub fn local(t: i64) -> Local {
        thread_local! {
            static ENV: std::cell::RefCell<Option<(Option<String>, Zone)>> = std::cell::RefCell::new(None);
        }
        let tz = std::env::var("TZ").ok();
        ENV.with(|c| {
            let mut c = c.borrow_mut();
            if c.as_ref().map_or(true, |(k, _)| *k != tz) {
                *c = Some((tz.clone(), Zone::from_env()));
            }
            c.as_ref().unwrap().1.at(t)
        })
    }
}

/// `+hhmm` for an offset east of UTC.
pub fn offset_text(off: i64) -> String {
    let a = off.abs();
    format!("{}{:02}{:02}", if off < 0 { '-' } else { '+' }, a / 3600, a % 3600 / 60)
}

impl Posix {
    fn at(&self, t: i64) -> Local {
        let (dst, (sd, ss), (ed, es)) = match &self.dst {
            None => return self.std.clone(),
            Some(d) => d,
        };
        // The year as standard local time sees it; transitions are in local time (start in
        // standard time, end in daylight time).
        let y = crate::cmd::date::days_to_civil((t + self.std.off).div_euclid(86400)).0;
        let start = day_of(y, sd) * 86400 + ss - self.std.off;
        let end = day_of(y, ed) * 86400 + es - dst.off;
        let in_dst = if start < end { t >= start && t < end } else { !(t >= end && t < start) };
        if in_dst {
            dst.clone()
        } else {
            self.std.clone()
        }
    }
}

/// Days since the epoch of a rule's date in year `y`.
fn day_of(y: i64, d: &Day) -> i64 {
    let jan1 = civil_to_days(y, 1, 1);
    let leap = civil_to_days(y + 1, 1, 1) - jan1 == 366;
    match *d {
        Day::J1(n) => jan1 + n - 1 + i64::from(leap && n >= 60),
        Day::J0(n) => jan1 + n,
        Day::M(m, w, wd) => {
            let first = civil_to_days(y, m, 1);
            let first_wd = (first + 4).rem_euclid(7);
            let mut day = first + (wd - first_wd).rem_euclid(7) + 7 * (w - 1);
            let next = if m == 12 { civil_to_days(y + 1, 1, 1) } else { civil_to_days(y, m + 1, 1) };
            while day >= next {
                day -= 7;
            }
            day
        }
    }
}

fn be32(b: &[u8], i: usize) -> Option<i64> {
    Some(i32::from_be_bytes(b.get(i..i + 4)?.try_into().ok()?) as i64)
}

fn be64(b: &[u8], i: usize) -> Option<i64> {
    Some(i64::from_be_bytes(b.get(i..i + 8)?.try_into().ok()?))
}

/// Reads a TZif file (RFC 8536): version 2+ files by their 64-bit block and footer.
pub fn parse_tzif(b: &[u8]) -> Option<Zone> {
    if b.get(..4)? != b"TZif" {
        return None;
    }
    let counts = |o: usize| -> Option<[usize; 6]> {
        let mut c = [0usize; 6];
        for (k, v) in c.iter_mut().enumerate() {
            *v = be32(b, o + 20 + 4 * k)? as u32 as usize;
        }
        Some(c)
    };
    let v1 = counts(0)?;
    let v1_len = 44 + v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0];
    let (o, c, tsize) = if b[4] >= b'2' { (v1_len, counts(v1_len)?, 8) } else { (0, v1, 4) };
    if o > 0 && b.get(o..o + 4)? != b"TZif" {
        return None;
    }
    let [isut, isstd, leap, timecnt, typecnt, charcnt] = c;
    let mut p = o + 44;
    let mut trans = Vec::with_capacity(timecnt);
    for k in 0..timecnt {
        trans.push(if tsize == 8 { be64(b, p + 8 * k)? } else { be32(b, p + 4 * k)? });
    }
    p += timecnt * tsize;
    let idx = b.get(p..p + timecnt)?.to_vec();
    p += timecnt;
    let tp = p;
    p += typecnt * 6;
    let chars = b.get(p..p + charcnt)?;
    let mut types = Vec::with_capacity(typecnt);
    for k in 0..typecnt {
        let off = be32(b, tp + 6 * k)?;
        let isdst = *b.get(tp + 6 * k + 4)? != 0;
        let ai = *b.get(tp + 6 * k + 5)? as usize;
        let abbr = chars.get(ai..).unwrap_or(&[]);
        let end = abbr.iter().position(|&x| x == 0).unwrap_or(abbr.len());
        types.push(Local { off, isdst, abbr: String::from_utf8_lossy(&abbr[..end]).into_owned() });
    }
    if types.is_empty() || idx.iter().any(|&i| i as usize >= types.len()) {
        return None;
    }
    p += charcnt + leap * (tsize + 4) + isstd + isut;
    let mut footer = None;
    if tsize == 8 && b.get(p) == Some(&b'\n') {
        if let Some(n) = b[p + 1..].iter().position(|&x| x == b'\n') {
            let s = String::from_utf8_lossy(&b[p + 1..p + 1 + n]).into_owned();
            if !s.is_empty() {
                footer = parse_posix(&s).0;
            }
        }
    }
    Some(Zone { trans, idx, types, footer })
}

/// A POSIX TZ string as glibc's __tzset_parse_tz reads it. On failure, the standard-time name it
/// had accepted (or "") for an unnamed UTC.
fn parse_posix(s: &str) -> (Option<Posix>, String) {
    let b = s.as_bytes();
    let mut i = 0;
    let std_name = match name(b, &mut i) {
        Some(n) => n,
        None => return (None, String::new()),
    };
    let std_off = match offset(b, &mut i) {
        Some(o) => -o,
        None => return (None, std_name),
    };
    let std = Local { off: std_off, isdst: false, abbr: std_name.clone() };
    if i >= b.len() {
        return (Some(Posix { std, dst: None }), std_name);
    }
    let dst_name = match name(b, &mut i) {
        Some(n) => n,
        // glibc keeps the standard time it parsed; rules never start.
        None => return (Some(Posix { std, dst: None }), std_name),
    };
    let dst_off = match offset(b, &mut i) {
        Some(o) => -o,
        None => std_off + 3600,
    };
    let dst = Local { off: dst_off, isdst: true, abbr: dst_name };
    let start = rule(b, &mut i, true);
    let end = start.as_ref().and_then(|_| rule(b, &mut i, false));
    match (start, end) {
        (Some(s), Some(e)) => (Some(Posix { std, dst: Some((dst, s, e)) }), std_name),
        _ => (Some(Posix { std, dst: None }), std_name),
    }
}

/// A zone name: `<...>` or three or more letters.
fn name(b: &[u8], i: &mut usize) -> Option<String> {
    let start = *i;
    if b.get(*i) == Some(&b'<') {
        let end = b[start + 1..].iter().position(|&c| c == b'>')? + start + 1;
        let n = &b[start + 1..end];
        if n.len() < 3 || !n.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'-') {
            return None;
        }
        *i = end + 1;
        return Some(String::from_utf8_lossy(n).into_owned());
    }
    let mut j = start;
    while j < b.len() && b[j].is_ascii_alphabetic() {
        j += 1;
    }
    if j - start < 3 {
        return None;
    }
    *i = j;
    Some(String::from_utf8_lossy(&b[start..j]).into_owned())
}

/// `[+-]hh[:mm[:ss]]` as seconds (west of UTC positive, as written).
fn offset(b: &[u8], i: &mut usize) -> Option<i64> {
    let mut j = *i;
    let sign = match b.get(j) {
        Some(b'-') => {
            j += 1;
            -1
        }
        Some(b'+') => {
            j += 1;
            1
        }
        _ => 1,
    };
    let v = hms(b, &mut j)?;
    *i = j;
    Some(sign * v)
}

fn number(b: &[u8], j: &mut usize) -> Option<i64> {
    let s = *j;
    while *j < b.len() && b[*j].is_ascii_digit() {
        *j += 1;
    }
    if *j == s {
        return None;
    }
    std::str::from_utf8(&b[s..*j]).ok()?.parse().ok()
}

fn hms(b: &[u8], j: &mut usize) -> Option<i64> {
    let h = number(b, j)?.min(24);
    let mut m = 0;
    let mut s = 0;
    if b.get(*j) == Some(&b':') {
        let mut k = *j + 1;
        if let Some(v) = number(b, &mut k) {
            m = v.min(59);
            *j = k;
            if b.get(*j) == Some(&b':') {
                let mut k = *j + 1;
                if let Some(v) = number(b, &mut k) {
                    s = v.min(59);
                    *j = k;
                }
            }
        }
    }
    Some(h * 3600 + m * 60 + s)
}

/// `,date[/time]`; glibc's default when absent is the US rule (M3.2.0 and M11.1.0 at 02:00).
fn rule(b: &[u8], i: &mut usize, first: bool) -> Option<(Day, i64)> {
    let mut j = *i;
    if b.get(j) == Some(&b',') {
        j += 1;
    }
    let day = match b.get(j) {
        Some(b'J') => {
            j += 1;
            let d = number(b, &mut j)?;
            if !(1..=365).contains(&d) {
                return None;
            }
            Day::J1(d)
        }
        Some(c) if c.is_ascii_digit() => {
            let d = number(b, &mut j)?;
            if d > 365 {
                return None;
            }
            Day::J0(d)
        }
        Some(b'M') => {
            j += 1;
            let m = number(b, &mut j)?;
            if b.get(j) != Some(&b'.') {
                return None;
            }
            j += 1;
            let w = number(b, &mut j)?;
            if b.get(j) != Some(&b'.') {
                return None;
            }
            j += 1;
            let d = number(b, &mut j)?;
            if !(1..=12).contains(&m) || !(1..=5).contains(&w) || d > 6 {
                return None;
            }
            Day::M(m as u32, w, d)
        }
        None => {
            if first {
                Day::M(3, 2, 0)
            } else {
                Day::M(11, 1, 0)
            }
        }
        _ => return None,
    };
    let secs = if b.get(j) == Some(&b'/') {
        j += 1;
        let neg = b.get(j) == Some(&b'-');
        if neg || b.get(j) == Some(&b'+') {
            j += 1;
        }
        let v = hms(b, &mut j)?;
        if neg {
            -v
        } else {
            v
        }
    } else {
        7200
    };
    if j < b.len() && b[j] != b',' {
        return None;
    }
    *i = j;
    Some((day, secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_strings() {
        let z = Zone::named("EST5EDT,M3.2.0,M11.1.0");
        assert_eq!(z.at(1720000000).abbr, "EDT");
        assert_eq!(z.at(1720000000).off, -4 * 3600);
        assert_eq!(z.at(1700000000).abbr, "EST");
        assert_eq!(Zone::named("UTC+3").at(0).off, -3 * 3600);
        assert_eq!(Zone::named("<+0330>-3:30").at(0), Local { off: 12600, isdst: false, abbr: "+0330".into() });
        assert_eq!(Zone::named("Nowhere/Foo").at(0).abbr, "Nowhere");
        assert_eq!(Zone::named("AB").at(0).abbr, "");
        assert_eq!(Zone::named("").at(0).abbr, "UTC");
        let z = Zone::named("Foo1Bar2");
        assert_eq!(z.at(1720000000), Local { off: -7200, isdst: true, abbr: "Bar".into() });
    }

    #[test]
    fn tzif_files() {
        // Debian's tzdata, as the session serves it.
        let z = Zone::named("America/New_York");
        assert_eq!(z.at(0).abbr, "EST");
        assert_eq!(z.at(1720000000).abbr, "EDT");
        // Past the table: the footer's rule.
        assert_eq!(z.at(4_102_444_800 + 200 * 86400).abbr, "EDT");
        assert_eq!(z.to_utc(civil_to_days(2024, 3, 10) * 86400 + 9000), None);
        assert_eq!(z.to_utc(civil_to_days(2024, 11, 3) * 86400 + 5400), Some(1730611800));
        assert_eq!(Zone::named(":Asia/Tokyo").at(0).off, 9 * 3600);
        // The repeated hour: standard time east of UTC (Sydney), as Debian's date.
        assert_eq!(Zone::named("Australia/Sydney").to_utc(civil_to_days(2024, 4, 7) * 86400 + 9000), Some(1712421000));
    }
}
