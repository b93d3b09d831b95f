//! touch [-acm] [-d DATE|-t STAMP|-r FILE] FILE...
//!
//! Dates: `@SECONDS`, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` (also with `T`),
//! all UTC; `now`. -t takes [[CC]YY]MMDDhhmm[.ss].

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use std::fs::OpenOptions;

const SPECS: &[Spec] = &[
    flag('a', "", "a"),
    flag('m', "", "m"),
    flag('c', "no-create", "c"),
    val('d', "date", "d"),
    val('t', "", "t"),
    val('r', "reference", "r"),
    flag('h', "no-dereference", "h"),
    flag('f', "", "f"),
    val('\0', "time", "time"),
];
const HELP: &str = "Usage: touch [OPTION]... FILE...\nUpdate the access and modification times of each FILE to the current time.\nA FILE argument that does not exist is created empty, unless -c is supplied.\n\n  -a                     change only the access time\n  -c, --no-create        do not create any files\n  -d, --date=STRING      parse STRING and use it instead of current time\n                         (@SECONDS, YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]', UTC)\n  -m                     change only the modification time\n  -r, --reference=FILE   use this file's times instead of current time\n  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time\n      --time=WORD        change the specified time: access, atime, use, modify, mtime\n";

/// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's method).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn num(s: &str, lo: i64, hi: i64) -> Option<i64> {
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v: i64 = s.parse().ok()?;
    if v < lo || v > hi {
        return None;
    }
    Some(v)
}

pub fn parse_date(s: &str) -> Option<i64> {
    let s = s.trim();
    if s == "now" {
        return Some(fsx::now().0);
    }
    if let Some(n) = s.strip_prefix('@') {
        return n.parse().ok();
    }
    let (date, time) = match s.find(|c| c == ' ' || c == 'T') {
        Some(i) => (&s[..i], s[i + 1..].trim()),
        None => (s, ""),
    };
    let time = time.trim_end_matches('Z');
    let dp: Vec<&str> = date.split('-').collect();
    if dp.len() != 3 {
        return None;
    }
    let (y, m, d) = (num(dp[0], 0, 9999)?, num(dp[1], 1, 12)?, num(dp[2], 1, 31)?);
    let mut secs = 0;
    if !time.is_empty() {
        let tp: Vec<&str> = time.split(':').collect();
        if tp.len() < 2 || tp.len() > 3 {
            return None;
        }
        secs = num(tp[0], 0, 23)? * 3600 + num(tp[1], 0, 59)? * 60;
        if tp.len() == 3 {
            secs += num(tp[2].split('.').next()?, 0, 60)?;
        }
    }
    Some(days_from_civil(y, m, d) * 86400 + secs)
}

/// [[CC]YY]MMDDhhmm[.ss]
pub fn parse_stamp(s: &str) -> Option<i64> {
    let (main, ss) = match s.split_once('.') {
        Some((a, b)) => (a, num(b, 0, 60)?),
        None => (s, 0),
    };
    if !main.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (y, rest) = match main.len() {
        8 => (1970 + (fsx::now().0 / 31_556_952), main),
        10 => {
            let yy = num(&main[..2], 0, 99)?;
            (if yy < 69 { 2000 + yy } else { 1900 + yy }, &main[2..])
        }
        12 => (num(&main[..4], 0, 9999)?, &main[4..]),
        _ => return None,
    };
    let (mo, d, h, mi) = (num(&rest[0..2], 1, 12)?, num(&rest[2..4], 1, 31)?, num(&rest[4..6], 0, 23)?, num(&rest[6..8], 0, 59)?);
    Some(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + ss)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        ctx.diag.usage("missing file operand");
        return Ok(1);
    }
    let (mut only_a, mut only_m) = (p.has("a"), p.has("m"));
    if let Some(w) = p.last("time") {
        match w {
            "access" | "atime" | "use" => only_a = true,
            "modify" | "mtime" => only_m = true,
            _ => {
                ctx.diag.error(format!("invalid argument {} for '--time'", lq(w)));
                let _ = write!(ctx.diag.raw(), "Valid arguments are:\n  - {}, {}, {}\n  - {}, {}\n", lq("atime"), lq("access"), lq("use"), lq("mtime"), lq("modify"));
                ctx.diag.try_help();
                return Ok(1);
            }
        }
    }
    let (set_a, set_m) = if only_a || only_m { (only_a, only_m) } else { (true, true) };
    let mut times = (fsx::now(), fsx::now());
    if let Some(r) = p.last("r") {
        match fsx::metadata(r) {
            Ok(m) => {
                times = (fsx::atime(&m), fsx::mtime(&m));
            }
            Err(e) => {
                ctx.diag.error(format!("failed to get attributes of {}: {}", q(r), reason(&e)));
                return Ok(1);
            }
        }
    }
    if let Some(d) = p.last("d") {
        match parse_date(d) {
            Some(t) => times = ((t, 0), (t, 0)),
            None => {
                ctx.diag.error(format!("invalid date format {}", lq(d)));
                return Ok(1);
            }
        }
    }
    if let Some(t) = p.last("t") {
        match parse_stamp(t) {
            Some(t) => times = ((t, 0), (t, 0)),
            None => {
                ctx.diag.error(format!("invalid date format {}", lq(t)));
                return Ok(1);
            }
        }
    }
    let explicit = p.has("r") || p.has("d") || p.has("t");
    for f in &p.operands {
        let mut created = false;
        if fsx::metadata(f).is_err() {
            if p.has("c") {
                continue;
            }
            if let Err(e) = OpenOptions::new().create(true).append(true).open(fsx::host(f)) {
                ctx.diag.error(format!("cannot touch {}: {}", q(f), reason(&e)));
                continue;
            }
            created = true;
        }
        // A file just created already carries the current time.
        if created && !explicit {
            continue;
        }
        let a = if set_a { Some(times.0) } else { None };
        let m = if set_m { Some(times.1) } else { None };
        if let Err(e) = fsx::set_times(&fsx::host(f), a, m) {
            // Hosts without set-times support: "now" can still be had by
            // rewriting the size, which stamps the modification time.
            let unsupported = e.raw_os_error() == Some(libc::ENOTSUP);
            let bumped = unsupported
                && !explicit
                && OpenOptions::new().write(true).open(fsx::host(f)).and_then(|h| {
                    let len = h.metadata()?.len();
                    h.set_len(len)
                }).is_ok();
            if !bumped {
                ctx.diag.error(format!("setting times of {}: {}", q(f), reason(&e)));
            }
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::{parse_date, parse_stamp};
    use crate::testutil::{check, check_err, tmpdir};

    #[test]
    fn dates() {
        let cases: &[(&str, Option<i64>)] = &[
            ("@0", Some(0)),
            ("@1700000000", Some(1_700_000_000)),
            ("2000-01-01", Some(946_684_800)),
            ("2000-01-01 00:00:10", Some(946_684_810)),
            ("2024-02-29T12:30", Some(1_709_209_800)),
            ("2024-13-01", None),
            ("yesterday", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_date(s), *want, "{}", s);
        }
        assert_eq!(parse_stamp("200001010000.10"), Some(946_684_810));
        assert_eq!(parse_stamp("0001010000"), Some(946_684_800));
    }

    #[test]
    fn files() {
        let d = tmpdir();
        let f = format!("{}/new", d);
        check("touch", &[&f], "", "", 0);
        assert!(std::path::Path::new(&f).exists());
        check("touch", &["-d", "@1000", &f], "", "", 0);
        assert_eq!(crate::fsx::mtime(&std::fs::metadata(&f).unwrap()).0, 1000);
        let g = format!("{}/g", d);
        check("touch", &["-r", &f, &g], "", "", 0);
        assert_eq!(crate::fsx::mtime(&std::fs::metadata(&g).unwrap()).0, 1000);
        let c = format!("{}/c", d);
        check("touch", &["-c", &c], "", "", 0);
        assert!(!std::path::Path::new(&c).exists());
        check_err("touch", &["-d", "bogus", &f], "", "touch: invalid date format ‘bogus’\n", 1);
        check_err("touch", &[&format!("{}/no/such", d)], "", &format!("touch: cannot touch '{}/no/such': No such file or directory\n", d), 1);
    }
}
