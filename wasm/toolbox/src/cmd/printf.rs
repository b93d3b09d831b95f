//! printf FORMAT [ARGUMENT]...  (coreutils semantics: the format is reused
//! until all arguments are consumed; %b expands escapes in its argument)

use crate::ctx::{q, Ctx, Res};
use std::io::Write;

const HELP: &str = "Usage: printf FORMAT [ARGUMENT]...\nPrint ARGUMENT(s) according to FORMAT.\n\nFORMAT controls the output as in C printf.  Interpreted sequences are:\n  \\\" \\\\ \\a \\b \\c \\e \\f \\n \\r \\t \\v \\NNN \\xHH \\uHHHH\n  %%      a single %\n  %b      ARGUMENT as a string with '\\' escapes interpreted\n  %q      ARGUMENT quoted for the shell\nand all C conversions %c %d %i %o %u %x %X %e %E %f %F %g %G %s,\nwith flags, width and precision (also given as *).\n";

struct Args<'a> {
    v: &'a [String],
    i: usize,
    bad: Vec<String>,
}

impl<'a> Args<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let r = self.v.get(self.i).map(|s| s.as_str());
        if r.is_some() {
            self.i += 1;
        }
        r
    }
    fn int(&mut self) -> i128 {
        let s = match self.next() {
            Some(s) => s,
            None => return 0,
        };
        let t = s.trim_start();
        if let Some(c) = t.strip_prefix('\'').or_else(|| t.strip_prefix('"')) {
            return c.chars().next().map(|c| c as i128).unwrap_or(0);
        }
        let (neg, body) = match t.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let parsed = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            i128::from_str_radix(h, 16).ok()
        } else if body.len() > 1 && body.starts_with('0') {
            i128::from_str_radix(&body[1..], 8).ok()
        } else {
            body.parse::<i128>().ok()
        };
        match parsed {
            Some(v) => {
                if neg {
                    -v
                } else {
                    v
                }
            }
            None => {
                // GNU keeps the leading digits it could read.
                let digits: String = body.chars().take_while(|c| c.is_ascii_digit()).collect();
                if digits.is_empty() {
                    self.bad.push(format!("{}: expected a numeric value", q(s)));
                } else {
                    self.bad.push(format!("{}: value not completely converted", q(s)));
                }
                let v = digits.parse::<i128>().unwrap_or(0);
                if neg {
                    -v
                } else {
                    v
                }
            }
        }
    }
    fn float(&mut self) -> f64 {
        match self.next() {
            None => 0.0,
            Some(s) => {
                let t = s.trim();
                if let Some(c) = t.strip_prefix('\'').or_else(|| t.strip_prefix('"')) {
                    return c.chars().next().map(|c| c as u32 as f64).unwrap_or(0.0);
                }
                match t.parse::<f64>() {
                    Ok(v) => v,
                    Err(_) => {
                        self.bad.push(format!("{}: expected a numeric value", q(s)));
                        0.0
                    }
                }
            }
        }
    }
}

/// Appends one escape starting after the backslash; returns bytes consumed
/// and whether output must stop (`\c`).
fn escape(b: &[u8], out: &mut Vec<u8>, in_b: bool) -> (usize, bool) {
    if b.is_empty() {
        out.push(b'\\');
        return (0, false);
    }
    let c = b[0];
    let simple = match c {
        b'"' => Some(b'"'),
        b'\\' => Some(b'\\'),
        b'a' => Some(7),
        b'b' => Some(8),
        b'e' => Some(27),
        b'f' => Some(12),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'v' => Some(11),
        _ => None,
    };
    if let Some(s) = simple {
        out.push(s);
        return (1, false);
    }
    match c {
        b'c' => (1, true),
        b'0'..=b'7' => {
            // %b takes \0NNN (up to 3 digits after the 0); the format takes \NNN.
            let start = if in_b && c == b'0' { 1 } else { 0 };
            let mut v = 0u32;
            let mut n = start;
            while n < start + 3 && n < b.len() && (b'0'..=b'7').contains(&b[n]) {
                v = v * 8 + (b[n] - b'0') as u32;
                n += 1;
            }
            out.push(v as u8);
            (n.max(1), false)
        }
        b'x' => {
            let mut v = 0u32;
            let mut n = 1;
            while n < 3 && n < b.len() && b[n].is_ascii_hexdigit() {
                v = v * 16 + (b[n] as char).to_digit(16).unwrap();
                n += 1;
            }
            if n == 1 {
                out.extend_from_slice(b"\\x");
            } else {
                out.push(v as u8);
            }
            (n, false)
        }
        b'u' | b'U' => {
            let want = if c == b'u' { 4 } else { 8 };
            let mut v = 0u32;
            let mut n = 1;
            while n <= want && n < b.len() && b[n].is_ascii_hexdigit() {
                v = v * 16 + (b[n] as char).to_digit(16).unwrap();
                n += 1;
            }
            let ch = char::from_u32(v).unwrap_or('\u{fffd}');
            let mut tmp = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
            (n, false)
        }
        other => {
            out.push(b'\\');
            out.push(other);
            (1, false)
        }
    }
}

fn pad(s: String, width: usize, left: bool, zero: bool) -> String {
    if s.len() >= width {
        return s;
    }
    if left {
        format!("{:<w$}", s, w = width)
    } else if zero {
        let (sign, digits) = if s.starts_with('-') || s.starts_with('+') || s.starts_with(' ') { s.split_at(1) } else { ("", s.as_str()) };
        let (pfx, rest) = if digits.starts_with("0x") || digits.starts_with("0X") { digits.split_at(2) } else { ("", digits) };
        format!("{}{}{}{}", sign, pfx, "0".repeat(width - s.len()), rest)
    } else {
        format!("{:>w$}", s, w = width)
    }
}

/// Formats once through `fmt`; returns true when `\c` asked to stop.
fn once(fmt: &[u8], a: &mut Args, out: &mut Vec<u8>) -> Result<bool, String> {
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c == b'\\' {
            let (n, stop) = escape(&fmt[i + 1..], out, false);
            if stop {
                return Ok(true);
            }
            i += 1 + n;
            continue;
        }
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        if i < fmt.len() && fmt[i] == b'%' {
            out.push(b'%');
            i += 1;
            continue;
        }
        let spec_start = i - 1;
        let mut flags = String::new();
        while i < fmt.len() && b"-+ #0'".contains(&fmt[i]) {
            flags.push(fmt[i] as char);
            i += 1;
        }
        let mut width: Option<usize> = None;
        let mut left = flags.contains('-');
        if i < fmt.len() && fmt[i] == b'*' {
            let w = a.int();
            if w < 0 {
                left = true;
            }
            width = Some(w.unsigned_abs() as usize);
            i += 1;
        } else {
            let s = i;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                i += 1;
            }
            if i > s {
                width = std::str::from_utf8(&fmt[s..i]).ok().and_then(|x| x.parse().ok());
            }
        }
        let mut prec: Option<usize> = None;
        if i < fmt.len() && fmt[i] == b'.' {
            i += 1;
            if i < fmt.len() && fmt[i] == b'*' {
                let p = a.int();
                prec = if p < 0 { None } else { Some(p as usize) };
                i += 1;
            } else {
                let s = i;
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    i += 1;
                }
                prec = Some(std::str::from_utf8(&fmt[s..i]).ok().and_then(|x| x.parse().ok()).unwrap_or(0));
            }
        }
        // Length modifiers are accepted and ignored.
        while i < fmt.len() && b"hlL".contains(&fmt[i]) {
            i += 1;
        }
        let conv = match fmt.get(i) {
            Some(c) => *c as char,
            None => return Err(format!("{}: missing conversion specifier", q(&String::from_utf8_lossy(&fmt[spec_start..])))),
        };
        i += 1;
        let w = width.unwrap_or(0);
        let zero = flags.contains('0') && !left;
        let s = match conv {
            's' => {
                let mut s = a.next().unwrap_or("").to_string();
                if let Some(p) = prec {
                    s = s.chars().take(p).collect();
                }
                pad(s, w, left, false)
            }
            'b' => {
                let arg = a.next().unwrap_or("").as_bytes().to_vec();
                let mut tmp = Vec::new();
                let mut k = 0;
                let mut stop = false;
                while k < arg.len() {
                    if arg[k] == b'\\' {
                        let (n, st) = escape(&arg[k + 1..], &mut tmp, true);
                        if st {
                            stop = true;
                            break;
                        }
                        k += 1 + n;
                    } else {
                        tmp.push(arg[k]);
                        k += 1;
                    }
                }
                let s = String::from_utf8_lossy(&tmp).into_owned();
                out.extend_from_slice(pad(s, w, left, false).as_bytes());
                if stop {
                    return Ok(true);
                }
                continue;
            }
            'q' => {
                let s = a.next().unwrap_or("");
                let quoted = if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "._-/=+:,@%".contains(c)) { s.to_string() } else { format!("'{}'", s.replace('\'', "'\\''")) };
                pad(quoted, w, left, false)
            }
            'c' => {
                // An empty argument prints a NUL byte, as in C.
                let s: String = a.next().unwrap_or("").chars().next().unwrap_or('\0').to_string();
                pad(s, w, left, false)
            }
            'd' | 'i' => {
                let v = a.int();
                let mut s = v.unsigned_abs().to_string();
                if let Some(p) = prec {
                    if s.len() < p {
                        s = format!("{}{}", "0".repeat(p - s.len()), s);
                    }
                }
                let sign = if v < 0 { "-" } else if flags.contains('+') { "+" } else if flags.contains(' ') { " " } else { "" };
                pad(format!("{}{}", sign, s), w, left, zero && prec.is_none())
            }
            'u' | 'x' | 'X' | 'o' => {
                let v = a.int();
                let u = if v < 0 { (v as i64) as u64 as u128 } else { v as u128 };
                let mut s = match conv {
                    'u' => u.to_string(),
                    'x' => format!("{:x}", u),
                    'X' => format!("{:X}", u),
                    _ => format!("{:o}", u),
                };
                if let Some(p) = prec {
                    if s.len() < p {
                        s = format!("{}{}", "0".repeat(p - s.len()), s);
                    }
                }
                if flags.contains('#') && u != 0 {
                    s = match conv {
                        'x' => format!("0x{}", s),
                        'X' => format!("0X{}", s),
                        'o' if !s.starts_with('0') => format!("0{}", s),
                        _ => s,
                    };
                }
                pad(s, w, left, zero && prec.is_none())
            }
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                let v = a.float();
                let mut spec = String::from("%");
                spec.push_str(&flags.replace('\'', ""));
                if let Some(ww) = width {
                    spec.push_str(&ww.to_string());
                }
                if let Some(p) = prec {
                    spec.push_str(&format!(".{}", p));
                }
                spec.push(if conv == 'a' || conv == 'A' { 'e' } else { conv });
                let s = super::seq::format_float(&spec, v).unwrap_or_default();
                if left {
                    format!("{:<w$}", s.trim_start(), w = w)
                } else {
                    s
                }
            }
            other => return Err(format!("%{}: invalid conversion specification", other)),
        };
        out.extend_from_slice(s.as_bytes());
    }
    Ok(false)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    if args.first().map(|a| a == "--help").unwrap_or(false) {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    let args: &[String] = if args.first().map(|a| a == "--").unwrap_or(false) { &args[1..] } else { args };
    let fmt = match args.first() {
        Some(f) => f.as_bytes().to_vec(),
        None => {
            ctx.diag.usage("missing operand");
            return Ok(1);
        }
    };
    let mut a = Args { v: &args[1..], i: 0, bad: Vec::new() };
    let mut out = Vec::new();
    loop {
        let before = a.i;
        match once(&fmt, &mut a, &mut out) {
            Ok(true) => break,
            Ok(false) => {}
            Err(m) => {
                ctx.out.write_all(&out)?;
                ctx.diag.error(m);
                return Ok(1);
            }
        }
        // Reuse the format only while it consumes arguments.
        if a.i >= a.v.len() || a.i == before {
            break;
        }
    }
    ctx.out.write_all(&out)?;
    let bad = std::mem::take(&mut a.bad);
    for m in &bad {
        ctx.diag.error(m);
    }
    Ok(if bad.is_empty() { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, i32)] = &[
            (&["%s\\n", "a", "b"], "a\nb\n", 0),
            (&["%d-%d\\n", "1", "2", "3"], "1-2\n3-0\n", 0),
            (&["%5s|%-5s|\\n", "ab", "cd"], "   ab|cd   |\n", 0),
            (&["%05d %x %o %X\\n", "42", "255", "8", "255"], "00042 ff 10 FF\n", 0),
            (&["%.2f %e\\n", "3.14159", "1000"], "3.14 1.000000e+03\n", 0),
            (&["%b", "a\\tb\\n"], "a\tb\n", 0),
            (&["%c%c\\n", "xyz", "q"], "xq\n", 0),
            (&["100%%\\n"], "100%\n", 0),
            (&["%*d|\\n", "4", "7"], "   7|\n", 0),
            (&["%s", "a\\nb"], "a\\nb", 0),
            (&["a\\cb"], "a", 0),
            (&["%d\\n", "'A"], "65\n", 0),
            (&["%d\\n", "0x10"], "16\n", 0),
            (&["%d\\n", "abc"], "0\n", 1),
            (&["%q\\n", "a b"], "'a b'\n", 0),
            (&["%.3s\\n", "abcdef"], "abc\n", 0),
            (&["\\x41\\101\\u00e9\\n"], "AA\u{e9}\n", 0),
        ];
        for (args, out, code) in cases {
            check("printf", args, "", out, *code);
        }
    }
}
