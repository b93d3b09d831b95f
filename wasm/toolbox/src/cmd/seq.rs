//! seq [-w] [-s SEP] [-f FMT] [FIRST [INCREMENT]] LAST
//!
//! Integers are exact (i128); with a fraction the output keeps as many
//! decimals as the widest of FIRST and INCREMENT, like GNU.

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, Ctx, Res};
use std::io::Write;

const SPECS: &[Spec] = &[val('f', "format", "f"), val('s', "separator", "s"), flag('w', "equal-width", "w")];
const HELP: &str = "Usage: seq [OPTION]... LAST\n  or:  seq [OPTION]... FIRST LAST\n  or:  seq [OPTION]... FIRST INCREMENT LAST\nPrint numbers from FIRST to LAST, in steps of INCREMENT.\n\n  -f, --format=FORMAT      use printf style floating-point FORMAT\n  -s, --separator=STRING   use STRING to separate numbers (default: \\n)\n  -w, --equal-width        equalize width by padding with leading zeroes\n";

fn decimals(s: &str) -> usize {
    match s.find('.') {
        Some(i) => s[i + 1..].chars().take_while(|c| c.is_ascii_digit()).count(),
        None => 0,
    }
}

fn is_int(s: &str) -> bool {
    let t = s.strip_prefix(|c| c == '-' || c == '+').unwrap_or(s);
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())
}

/// printf-style formatting of one float with %[flags][width][.prec](f|g|e|F|G|E).
pub fn format_float(fmt: &str, v: f64) -> Option<String> {
    let start = fmt.find('%')?;
    let mut i = start + 1;
    let b = fmt.as_bytes();
    let mut flags = String::new();
    while i < b.len() && b"-+ 0#'".contains(&b[i]) {
        flags.push(b[i] as char);
        i += 1;
    }
    let ws = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let width: usize = fmt[ws..i].parse().unwrap_or(0);
    let mut prec: Option<usize> = None;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let ps = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        prec = Some(fmt[ps..i].parse().unwrap_or(0));
    }
    let conv = *b.get(i)? as char;
    let body = match conv {
        'f' | 'F' => format!("{:.*}", prec.unwrap_or(6), v),
        'e' | 'E' => {
            let s = exp_form(v, prec.unwrap_or(6));
            if conv == 'E' { s.to_uppercase() } else { s }
        }
        'g' | 'G' => {
            let p = prec.unwrap_or(6).max(1);
            let exp = if v == 0.0 { 0 } else { v.abs().log10().floor() as i32 };
            let s = if exp < -4 || exp >= p as i32 {
                let s = exp_form(v, p - 1);
                let (m, e) = s.split_at(s.find('e').unwrap());
                format!("{}{}", trim_zeros(m, flags.contains('#')), e)
            } else {
                let s = format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, v);
                trim_zeros(&s, flags.contains('#')).to_string()
            };
            if conv == 'G' { s.to_uppercase() } else { s }
        }
        _ => return None,
    };
    if fmt[i + 1..].contains('%') && !fmt[i + 1..].contains("%%") {
        return None;
    }
    let body = if flags.contains('+') && v >= 0.0 { format!("+{}", body) } else { body };
    let padded = if body.len() >= width {
        body
    } else if flags.contains('-') {
        format!("{:<w$}", body, w = width)
    } else if flags.contains('0') {
        let (sign, digits) = if body.starts_with('-') || body.starts_with('+') { body.split_at(1) } else { ("", body.as_str()) };
        format!("{}{}{}", sign, "0".repeat(width - body.len()), digits)
    } else {
        format!("{:>w$}", body, w = width)
    };
    Some(format!("{}{}{}", fmt[..start].replace("%%", "%"), padded, fmt[i + 1..].replace("%%", "%")))
}

fn trim_zeros(s: &str, keep: bool) -> &str {
    if keep || !s.contains('.') {
        return s;
    }
    s.trim_end_matches('0').trim_end_matches('.')
}

fn exp_form(v: f64, prec: usize) -> String {
    let s = format!("{:.*e}", prec, v);
    let (m, e) = s.split_at(s.find('e').unwrap());
    let e: i32 = e[1..].parse().unwrap_or(0);
    format!("{}e{}{:02}", m, if e < 0 { '-' } else { '+' }, e.abs())
}

fn hex_to_decimal(o: &str) -> Option<String> {
    let (sign, rest) = match o.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", o.strip_prefix('+').unwrap_or(o)),
    };
    let digits = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X"))?;
    let n = u64::from_str_radix(digits, 16).ok()?;
    Some(format!("{}{}", sign, n))
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // Negative numbers are operands, not options: `seq 5 -1 1`.
    let mut fixed = Vec::new();
    let mut rest = false;
    for a in args {
        if !rest && a.len() > 1 && a.starts_with('-') && (a.as_bytes()[1].is_ascii_digit() || a.as_bytes()[1] == b'.') {
            if fixed.last().map(|l: &String| l != "--").unwrap_or(true) {
                fixed.push("--".to_string());
            }
            rest = true;
        }
        fixed.push(a.clone());
    }
    let p = getopt!(ctx, &fixed, SPECS, HELP, 1);
    // Hexadecimal integers (`seq 0x10 0x12`) read as GNU's strtold reads them.
    let ops: &Vec<String> = &p.operands.iter().map(|o| hex_to_decimal(o).unwrap_or_else(|| o.clone())).collect();
    if ops.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    if ops.len() > 3 {
        super::extra_operand(ctx, &ops[3]);
        return Ok(1);
    }
    for o in ops {
        if o.parse::<f64>().is_err() || o.eq_ignore_ascii_case("nan") || o.contains("inf") {
            ctx.diag.usage(format!("invalid floating point argument: {}", lq(o)));
            return Ok(1);
        }
    }
    let (first, incr, last) = match ops.len() {
        1 => ("1", "1", ops[0].as_str()),
        2 => (ops[0].as_str(), "1", ops[1].as_str()),
        _ => (ops[0].as_str(), ops[1].as_str(), ops[2].as_str()),
    };
    if incr.parse::<f64>().unwrap() == 0.0 {
        ctx.diag.usage(format!("invalid Zero increment value: {}", lq(incr)));
        return Ok(1);
    }
    let sep = p.last("s").unwrap_or("\n").to_string();
    let fmt = p.last("f").map(|s| s.to_string());
    if let Some(f) = &fmt {
        if format_float(f, 1.0).is_none() {
            ctx.diag.error(format!("format {} has no % directive or an unsupported one", q(f)));
            return Ok(1);
        }
    }
    let mut items: Vec<String> = Vec::new();
    let emit = |ctx: &mut Ctx, s: String, items: &mut Vec<String>, w: bool| -> std::io::Result<()> {
        if w {
            items.push(s);
            return Ok(());
        }
        ctx.out.write_all(s.as_bytes())?;
        Ok(())
    };
    let equal = p.has("w") && fmt.is_none();
    let mut count = 0u64;
    if is_int(first) && is_int(incr) && is_int(last) && fmt.is_none() {
        let (a, s, b): (i128, i128, i128) = (first.parse().unwrap(), incr.parse().unwrap(), last.parse().unwrap());
        let mut x = a;
        while (s > 0 && x <= b) || (s < 0 && x >= b) {
            let txt = if count > 0 && !equal { format!("{}{}", sep, x) } else { x.to_string() };
            emit(ctx, txt, &mut items, equal)?;
            count += 1;
            x += s;
        }
    } else {
        let (a, s, b): (f64, f64, f64) = (first.parse().unwrap(), incr.parse().unwrap(), last.parse().unwrap());
        let prec = decimals(first).max(decimals(incr));
        let mut i = 0u64;
        loop {
            // Multiply rather than accumulate, so error does not build up.
            let x = a + s * i as f64;
            let beyond = if s > 0.0 { x > b + s.abs() * 1e-10 } else { x < b - s.abs() * 1e-10 };
            if beyond {
                break;
            }
            let body = match &fmt {
                Some(f) => format_float(f, x).unwrap_or_default(),
                None => format!("{:.*}", prec, x),
            };
            let txt = if count > 0 && !equal { format!("{}{}", sep, body) } else { body };
            emit(ctx, txt, &mut items, equal)?;
            count += 1;
            i += 1;
        }
    }
    if equal {
        let w = items.iter().map(|s| s.len()).max().unwrap_or(0);
        for (i, it) in items.iter().enumerate() {
            let (sign, digits) = if let Some(d) = it.strip_prefix('-') { ("-", d) } else { ("", it.as_str()) };
            let pad = "0".repeat(w - it.len());
            if i > 0 {
                ctx.out.write_all(sep.as_bytes())?;
            }
            write!(ctx.out, "{}{}{}", sign, pad, digits)?;
        }
    }
    if count > 0 {
        ctx.out.write_all(b"\n")?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str)] = &[
            (&["3"], "1\n2\n3\n"),
            (&["2", "4"], "2\n3\n4\n"),
            (&["5", "-2", "1"], "5\n3\n1\n"),
            (&["-1", "1"], "-1\n0\n1\n"),
            (&["0"], ""),
            (&["-s", ",", "3"], "1,2,3\n"),
            (&["-w", "8", "10"], "08\n09\n10\n"),
            (&["-w", "-1", "1"], "-1\n00\n01\n"),
            (&["0", "0.5", "2"], "0.0\n0.5\n1.0\n1.5\n2.0\n"),
            (&["0.1", "0.1", "0.3"], "0.1\n0.2\n0.3\n"),
            (&["-f", "%03g", "3"], "001\n002\n003\n"),
            (&["-f", "x%.2fy", "1", "2"], "x1.00y\nx2.00y\n"),
            (&["-f", "%e", "1"], "1.000000e+00\n"),
            (&["-f", "%g", "1000000", "1000000"], "1e+06\n"),
        ];
        for (args, out) in cases {
            check("seq", args, "", out, 0);
        }
        check_err("seq", &["x"], "", "seq: invalid floating point argument: ‘x’\nTry 'seq --help' for more information.\n", 1);
        check_err("seq", &["1", "0", "2"], "", "seq: invalid Zero increment value: ‘0’\nTry 'seq --help' for more information.\n", 1);
    }
}
