//! awk values: numbers, strings, and "strnums" (input that looks numeric
//! compares as a number).

#[derive(Clone, Debug)]
pub enum Val {
    Uninit,
    Num(f64),
    Str(String),
    StrNum(String),
}

/// Leading numeric prefix of a string, like strtod (hex and inf/nan aside).
pub fn str_to_num(s: &str) -> f64 {
    let t = s.trim_start_matches(|c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c');
    let b = t.as_bytes();
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
    super::format::sprintf(fmt, &[Val::Num(n)], fmt).unwrap_or_else(|_| n.to_string())
}

impl Val {
    pub fn num(&self) -> f64 {
        match self {
            Val::Uninit => 0.0,
            Val::Num(n) => *n,
            Val::Str(s) | Val::StrNum(s) => str_to_num(s),
        }
    }
    pub fn str_with(&self, convfmt: &str) -> String {
        match self {
            Val::Uninit => String::new(),
            Val::Num(n) => num_to_str(*n, convfmt),
            Val::Str(s) | Val::StrNum(s) => s.clone(),
        }
    }
    pub fn truthy(&self) -> bool {
        match self {
            Val::Uninit => false,
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
    /// Compares as numbers when both sides are numeric, else as strings.
    pub fn is_numeric(&self) -> bool {
        match self {
            Val::Uninit | Val::Num(_) => true,
            Val::StrNum(s) => looks_numeric(s),
            Val::Str(_) => false,
        }
    }
}
