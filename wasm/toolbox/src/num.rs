//! Numbers as coreutils read and print them.

/// Parses a count with an optional GNU size suffix: b (512), kB (1000),
/// K/KiB (1024), MB, M, GB, G, ... up to E. Returns None when invalid.
pub fn parse_size(s: &str) -> Option<u64> {
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if digits_end == 0 {
        return None;
    }
    let n: u64 = s[..digits_end].parse().ok()?;
    let suf = &s[digits_end..];
    let mult: u64 = match suf {
        "" => 1,
        "b" => 512,
        "c" => 1,
        "w" => 2,
        _ => {
            let mut cs = suf.chars();
            let p = match cs.next()? {
                'k' | 'K' => 1,
                'M' => 2,
                'G' => 3,
                'T' => 4,
                'P' => 5,
                'E' => 6,
                _ => return None,
            };
            let base: u64 = match cs.as_str() {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return None,
            };
            base.checked_pow(p)?
        }
    };
    n.checked_mul(mult)
}

/// ls -h / du -h style: one decimal below 10, rounded up, powers of 1024.
pub fn human(n: u64) -> String {
    const UNITS: [&str; 7] = ["", "K", "M", "G", "T", "P", "E"];
    if n < 1024 {
        return n.to_string();
    }
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if v < 10.0 {
        let r = (v * 10.0).ceil() / 10.0;
        if r >= 10.0 {
            return format!("{}{}", r as u64, UNITS[u]);
        }
        format!("{:.1}{}", r, UNITS[u])
    } else {
        let r = v.ceil();
        if r >= 1024.0 && u < UNITS.len() - 1 {
            return format!("1.0{}", UNITS[u + 1]);
        }
        format!("{}{}", r as u64, UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let cases: &[(&str, Option<u64>)] = &[
            ("10", Some(10)),
            ("2K", Some(2048)),
            ("2kB", Some(2000)),
            ("1M", Some(1 << 20)),
            ("1MiB", Some(1 << 20)),
            ("3b", Some(1536)),
            ("x", None),
            ("5Q", None),
            ("", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_size(s), *want, "{}", s);
        }
    }

    #[test]
    fn human_sizes() {
        let cases: &[(u64, &str)] = &[(0, "0"), (1023, "1023"), (1024, "1.0K"), (1025, "1.1K"), (10 * 1024, "10K"), (10 * 1024 + 1, "11K"), (1536 * 1024, "1.5M"), (1024 * 1024 - 1, "1.0M")];
        for (n, want) in cases {
            assert_eq!(human(*n), *want, "{}", n);
        }
    }
}
