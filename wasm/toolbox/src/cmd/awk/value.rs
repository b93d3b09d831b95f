//! awk values: numbers, strings, and "strnums" (input that looks numeric
//! compares as a number).

#[derive(Clone, Debug)]
pub enum Val {
    Uninit,
    Num(f64),
    Str(String),
    StrNum(String),
    /// An array element that is itself an array (gawk's arrays of arrays): the id of the
    /// subarray. The interpreter refuses it in a scalar context before a value is read, so
    /// the scalar views below never see one; they read it as unset.
    Arr(usize),
}

/// Leading numeric prefix of a string, like strtod (hex and inf/nan aside).
pub fn str_to_num(s: &str) -> f64 {
    let t = s.trim_start_matches(|c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c');
    let b = t.as_bytes();
    if let Some(n) = small_int(b) {
        return n;
    }
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let ds = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i == ds || (i == ds + 1 && b[ds] == b'.') {
        return 0.0;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let save = i;
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if i < b.len() && b[i].is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            i = save;
        }
    }
    t[..i].parse().unwrap_or(0.0)
}

/// Fast path of str_to_num for the common field shape: an optional sign and
/// 1..=15 digits, not followed by a fraction or exponent. Such values are
/// exact in an f64, so the result equals what the full parse would give.
fn small_int(b: &[u8]) -> Option<f64> {
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let mut n: u64 = 0;
    let mut len = 0;
    while len < digits.len() && digits[len].is_ascii_digit() {
        n = n * 10 + (digits[len] - b'0') as u64;
        len += 1;
        if len > 15 {
            return None;
        }
    }
    if len == 0 || matches!(digits.get(len), Some(b'.') | Some(b'e') | Some(b'E')) {
        return None;
    }
    let x = n as f64;
    Some(if neg { -x } else { x })
}

/// Does the whole string (blanks around allowed) read as a number?
pub fn looks_numeric(s: &str) -> bool {
    let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r');
    if t.is_empty() {
        return false;
    }
    let b = t.as_bytes();
    let mut i = 0;
    if b[0] == b'+' || b[0] == b'-' {
        i = 1;
    }
    let ds = i;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 || i == ds {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let es = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == es {
            return false;
        }
    }
    i == b.len()
}

/// A number as awk prints it: integers exactly, others through `fmt` (%.6g).
pub fn num_to_str(n: f64, fmt: &str) -> String {
    // gawk's spelling of the special values.
    if n.is_nan() {
        return if n.is_sign_negative() { "-nan".into() } else { "+nan".into() };
    }
    if n.is_infinite() {
        return if n < 0.0 { "-inf".into() } else { "+inf".into() };
    }
    if n == n.trunc() && n.abs() < 1e16 {
        return format!("{}", n as i64);
    }
    // gawk's format_val: an integral value beyond a C long still prints whole, through %.0f
    // (1e20 is 100000000000000000000, not 1e+20).
    if n == n.trunc() {
        return format!("{:.0}", n);
    }
    super::format::sprintf(fmt, &[Val::Num(n)], fmt).unwrap_or_else(|_| n.to_string())
}

thread_local! {
    /// gawk -n: input that reads as hex (0x1F) or octal (017) is that number.
    static NON_DECIMAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub fn set_non_decimal(on: bool) {
    NON_DECIMAL.with(|c| c.set(on));
}

/// Hex or octal input under -n: `0x` and hex digits, or `0` and octal digits only.
fn non_decimal(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let n = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let end = h.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(h.len());
        u64::from_str_radix(&h[..end], 16).ok()? as f64
    } else if t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        u64::from_str_radix(&t[1..], 8).ok()? as f64
    } else {
        return None;
    };
    Some(if neg { -n } else { n })
}

/// A number read from input (a field, getline, -v): hex and octal count under -n.
pub fn input_to_num(s: &str) -> f64 {
    if NON_DECIMAL.with(|c| c.get()) {
        if let Some(n) = non_decimal(s) {
            return n;
        }
    }
    str_to_num(s)
}

impl Val {
    pub fn num(&self) -> f64 {
        match self {
            Val::Uninit | Val::Arr(_) => 0.0,
            Val::Num(n) => *n,
            Val::StrNum(s) => input_to_num(s),
            Val::Str(s) => str_to_num(s),
        }
    }
    pub fn str_with(&self, convfmt: &str) -> String {
        match self {
            Val::Uninit | Val::Arr(_) => String::new(),
            Val::Num(n) => num_to_str(*n, convfmt),
            Val::Str(s) | Val::StrNum(s) => s.clone(),
        }
    }
    /// Like str_with, but hands over an owned string instead of copying it.
    pub fn into_str_with(self, convfmt: &str) -> String {
        match self {
            Val::Str(s) | Val::StrNum(s) => s,
            other => other.str_with(convfmt),
        }
    }
    pub fn truthy(&self) -> bool {
        match self {
            Val::Uninit | Val::Arr(_) => false,
            Val::Num(n) => *n != 0.0,
            Val::Str(s) => !s.is_empty(),
            Val::StrNum(s) => {
                if looks_numeric(s) {
                    str_to_num(s) != 0.0
                } else {
                    !s.is_empty()
                }
            }
        }
    }
    pub fn as_ref(&self) -> ValRef<'_> {
        match self {
            Val::Uninit | Val::Arr(_) => ValRef::Uninit,
            Val::Num(n) => ValRef::Num(*n),
            Val::Str(s) => ValRef::Str(s),
            Val::StrNum(s) => ValRef::StrNum(s),
        }
    }
}

/// A borrowed view of a value, so comparisons can look at a field in place
/// instead of copying it into a `Val` first.
#[derive(Clone, Copy)]
pub enum ValRef<'a> {
    Uninit,
    Num(f64),
    Str(&'a str),
    StrNum(&'a str),
}

impl<'a> ValRef<'a> {
    fn is_numeric(self) -> bool {
        match self {
            ValRef::Uninit | ValRef::Num(_) => true,
            ValRef::StrNum(s) => looks_numeric(s),
            ValRef::Str(_) => false,
        }
    }
    fn num(self) -> f64 {
        match self {
            ValRef::Uninit => 0.0,
            ValRef::Num(n) => n,
            ValRef::Str(s) | ValRef::StrNum(s) => str_to_num(s),
        }
    }
    fn text(self, convfmt: &str) -> std::borrow::Cow<'a, str> {
        match self {
            ValRef::Uninit => "".into(),
            ValRef::Num(n) => num_to_str(n, convfmt).into(),
            ValRef::Str(s) | ValRef::StrNum(s) => s.into(),
        }
    }
}

/// awk comparison: numeric when both sides are numeric, else as strings.
pub fn compare(x: ValRef, y: ValRef, convfmt: &str) -> std::cmp::Ordering {
    if x.is_numeric() && y.is_numeric() {
        x.num().partial_cmp(&y.num()).unwrap_or(std::cmp::Ordering::Equal)
    } else {
        x.text(convfmt).cmp(&y.text(convfmt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_text() {
        // The small-integer fast path must agree with the general parse.
        let cases: &[(&str, f64)] = &[
            ("", 0.0), ("0", 0.0), ("-0", -0.0), ("+7", 7.0), ("42", 42.0), ("  \t12abc", 12.0),
            ("999999999999999", 999999999999999.0), ("1234567890123456789", 1234567890123456789.0),
            ("12.5", 12.5), ("3e2", 300.0), ("3e", 3.0), ("-", 0.0), ("+", 0.0), (".", 0.0), (".5", 0.5),
            ("5.", 5.0), ("1x2", 1.0), ("007", 7.0), ("-12 ", -12.0), ("1E3", 1000.0),
        ];
        for (s, want) in cases {
            let got = str_to_num(s);
            assert_eq!(got.to_bits(), want.to_bits(), "{:?}", s);
        }
    }
}
