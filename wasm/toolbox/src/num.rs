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

/// A -B/--block-size argument as df and du read it: (bytes per unit,
/// suffix to print after each number, label for df's "N-blocks" header).
/// `1M` gives ("1M-blocks", no suffix); a bare unit like `M` or `kB` prints
/// the unit after every number, as GNU does.
pub fn block_size(s: &str) -> Option<(u64, String, String)> {
    let bare = s.starts_with(|c: char| c.is_ascii_alphabetic());
    let full = if bare { format!("1{}", s) } else { s.to_string() };
    let n = parse_size(&full).filter(|&n| n > 0)?;
    let unit = full.trim_start_matches(|c: char| c.is_ascii_digit());
    // GNU writes the SI kilo as lowercase k in labels and suffixes.
    let unit = if unit == "KB" { "kB".to_string() } else { unit.to_string() };
    let label = if unit.is_empty() { format!("{}B", full) } else { format!("{}{}", &full[..full.len() - full.trim_start_matches(|c: char| c.is_ascii_digit()).len()], unit) };
    Some((n, if bare { unit } else { String::new() }, label))
}

/// `n` bytes in units of `size`, rounded up.
pub fn in_blocks(n: u64, size: u64) -> u64 {
    (n + size - 1) / size
}
