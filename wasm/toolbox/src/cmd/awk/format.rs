//! awk's printf/sprintf.

use super::value::Val;

fn pad(s: String, width: usize, left: bool, zero: bool) -> String {
    let len = s.chars().count();
    if len >= width {
        return s;
    }
    if left {
        format!("{}{}", s, " ".repeat(width - len))
    } else if zero {
        let (sign, digits) = if s.starts_with('-') || s.starts_with('+') || s.starts_with(' ') { s.split_at(1) } else { ("", s.as_str()) };
        format!("{}{}{}", sign, "0".repeat(width - len), digits)
    } else {
        format!("{}{}", " ".repeat(width - len), s)
    }
}

pub fn sprintf(fmt: &str, args: &[Val], convfmt: &str) -> Result<String, String> {
    let f: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut ai = 0;
    // gawk stops with a fatal error when the arguments run out, showing the format with a
    // caret under the character (a conversion or `*`) that wanted one more.
    let next = |ai: &mut usize, at: usize| -> Result<Val, String> {
        let v = args.get(*ai).cloned().ok_or_else(|| {
            let col: usize = f[..at].iter().map(|c| c.len_utf8()).sum();
            format!("not enough arguments to satisfy format string\n\t`{}'\n\t{}^ ran out for this one", fmt, " ".repeat(col))
        })?;
        *ai += 1;
        Ok(v)
    };
    let mut i = 0;
    while i < f.len() {
        if f[i] != '%' {
            out.push(f[i]);
            i += 1;
            continue;
        }
        i += 1;
        if i < f.len() && f[i] == '%' {
            out.push('%');
            i += 1;
            continue;
        }
        let mut flags = String::new();
        while i < f.len() && "-+ #0".contains(f[i]) {
            flags.push(f[i]);
            i += 1;
        }
        let mut left = flags.contains('-');
        let mut width = 0usize;
        if i < f.len() && f[i] == '*' {
            let w = next(&mut ai, i)?.num() as i64;
            if w < 0 {
                left = true;
            }
            width = w.unsigned_abs() as usize;
            i += 1;
        } else {
            while i < f.len() && f[i].is_ascii_digit() {
                width = width * 10 + f[i].to_digit(10).unwrap() as usize;
                i += 1;
            }
        }
        let mut prec: Option<usize> = None;
        if i < f.len() && f[i] == '.' {
            i += 1;
            if i < f.len() && f[i] == '*' {
                let p = next(&mut ai, i)?.num() as i64;
                prec = if p < 0 { None } else { Some(p as usize) };
                i += 1;
            } else {
                let mut p = 0;
                while i < f.len() && f[i].is_ascii_digit() {
                    p = p * 10 + f[i].to_digit(10).unwrap() as usize;
                    i += 1;
                }
                prec = Some(p);
            }
        }
        while i < f.len() && "hlLqjzt".contains(f[i]) {
            i += 1;
        }
        let conv = match f.get(i) {
            Some(c) => *c,
            None => {
                out.push('%');
                out.push_str(&flags);
                break;
            }
        };
        i += 1;
        let zero = flags.contains('0') && !left;
        let s = match conv {
            'd' | 'i' => {
                let v = next(&mut ai, i - 1)?.num();
                let n = if v.is_finite() { v.trunc() as i128 } else { 0 };
                let mut digits = n.unsigned_abs().to_string();
                if let Some(p) = prec {
                    if digits.len() < p {
                        digits = format!("{}{}", "0".repeat(p - digits.len()), digits);
                    }
                    if p == 0 && n == 0 {
                        digits.clear();
                    }
                }
                let sign = if n < 0 { "-" } else if flags.contains('+') { "+" } else if flags.contains(' ') { " " } else { "" };
                pad(format!("{}{}", sign, digits), width, left, zero && prec.is_none())
            }
            'o' | 'x' | 'X' | 'u' => {
                let v = next(&mut ai, i - 1)?.num();
                let n = if v < 0.0 { (v.trunc() as i64) as u64 } else { v.trunc() as u64 };
                let mut s = match conv {
                    'o' => format!("{:o}", n),
                    'x' => format!("{:x}", n),
                    'X' => format!("{:X}", n),
                    _ => n.to_string(),
                };
                if let Some(p) = prec {
                    if s.len() < p {
                        s = format!("{}{}", "0".repeat(p - s.len()), s);
                    }
                }
                if flags.contains('#') && n != 0 {
                    s = match conv {
                        'x' => format!("0x{}", s),
                        'X' => format!("0X{}", s),
                        'o' => format!("0{}", s),
                        _ => s,
                    };
                }
                pad(s, width, left, zero && prec.is_none())
            }
            'c' => {
                let v = next(&mut ai, i - 1)?;
                // a number (or a field that looks like one, as gawk) prints the character with that code
                let code = match &v {
                    Val::Num(n) => Some(*n),
                    Val::StrNum(t) if super::value::looks_numeric(t) => Some(v.num()),
                    _ => None,
                };
                let s = match (code, v) {
                    (Some(n), _) => char::from_u32(n as u32).map(|c| c.to_string()).unwrap_or_default(),
                    (None, other) => other.str_with(convfmt).chars().next().map(|c| c.to_string()).unwrap_or_default(),
                };
                pad(s, width, left, false)
            }
            's' => {
                let mut s = next(&mut ai, i - 1)?.str_with(convfmt);
                if let Some(p) = prec {
                    s = s.chars().take(p).collect();
                }
                pad(s, width, left, false)
            }
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                let v = next(&mut ai, i - 1)?.num();
                let mut spec = String::from("%");
                spec.push_str(&flags.replace('-', ""));
                if let Some(p) = prec {
                    spec.push_str(&format!(".{}", p));
                }
                spec.push(conv);
                let s = crate::cmd::seq::format_float(&spec, v).unwrap_or_default();
                pad(s, width, left, zero)
            }
            other => return Err(format!("invalid format specifier %{}", other)),
        };
        out.push_str(&s);
    }
    Ok(out)
}
