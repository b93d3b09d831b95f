//! jq's value type: JSON with insertion-ordered objects (jq prints keys in
//! the order they were added), cheap clones through Rc, jq's total order
//! (null < false < true < numbers < strings < arrays < objects), and the
//! JSON reader and printer (numbers printed the way jq 1.6 prints them).

use std::cmp::Ordering;
use std::rc::Rc;

#[derive(Clone, Debug)]
pub enum V {
    Null,
    Bool(bool),
    Num(f64),
    Str(Rc<str>),
    Arr(Rc<Vec<V>>),
    Obj(Rc<Vec<(Rc<str>, V)>>),
}

impl V {
    pub fn str(s: &str) -> V {
        V::Str(Rc::from(s))
    }
    pub fn arr(v: Vec<V>) -> V {
        V::Arr(Rc::new(v))
    }
    pub fn obj(v: Vec<(Rc<str>, V)>) -> V {
        V::Obj(Rc::new(v))
    }
    pub fn type_name(&self) -> &'static str {
        match self {
            V::Null => "null",
            V::Bool(_) => "boolean",
            V::Num(_) => "number",
            V::Str(_) => "string",
            V::Arr(_) => "array",
            V::Obj(_) => "object",
        }
    }
    pub fn truthy(&self) -> bool {
        !matches!(self, V::Null | V::Bool(false))
    }
    fn rank(&self) -> u8 {
        match self {
            V::Null => 0,
            V::Bool(false) => 1,
            V::Bool(true) => 2,
            V::Num(_) => 3,
            V::Str(_) => 4,
            V::Arr(_) => 5,
            V::Obj(_) => 6,
        }
    }
    /// Object field lookup (last duplicate cannot exist: inserts replace).
    pub fn get(&self, k: &str) -> Option<&V> {
        match self {
            V::Obj(o) => o.iter().find(|(kk, _)| &**kk == k).map(|(_, v)| v),
            _ => None,
        }
    }
    /// Keys in jq's sorted order (codepoint order).
    pub fn sorted_keys(o: &[(Rc<str>, V)]) -> Vec<Rc<str>> {
        let mut ks: Vec<Rc<str>> = o.iter().map(|(k, _)| k.clone()).collect();
        ks.sort();
        ks
    }
    /// Error text for a value: `type (dump)` with the dump cut to 11 chars.
    pub fn desc(&self) -> String {
        format!("{} ({})", self.type_name(), trunc(&dump(self, &Fmt::compact())))
    }
}

pub fn trunc(s: &str) -> String {
    if s.len() <= 14 {
        return s.to_string();
    }
    let mut cut = 11;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &s[..cut])
}

/// Sets `k` in an object vector, keeping the position of an existing key.
pub fn obj_set(o: &mut Vec<(Rc<str>, V)>, k: Rc<str>, v: V) {
    match o.iter_mut().find(|(kk, _)| *kk == k) {
        Some(slot) => slot.1 = v,
        None => o.push((k, v)),
    }
}

pub fn cmp(a: &V, b: &V) -> Ordering {
    let (ra, rb) = (a.rank(), b.rank());
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (V::Num(x), V::Num(y)) => x.partial_cmp(y).unwrap_or_else(|| x.is_nan().cmp(&y.is_nan()).reverse()),
        (V::Str(x), V::Str(y)) => x.cmp(y),
        (V::Arr(x), V::Arr(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                let c = cmp(p, q);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (V::Obj(x), V::Obj(y)) => {
            let (kx, ky) = (V::sorted_keys(x), V::sorted_keys(y));
            let c = kx.cmp(&ky);
            if c != Ordering::Equal {
                return c;
            }
            for k in &kx {
                let c = cmp(a.get(k).unwrap(), b.get(k).unwrap());
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        }
        _ => Ordering::Equal,
    }
}

impl PartialEq for V {
    fn eq(&self, o: &V) -> bool {
        cmp(self, o) == Ordering::Equal
    }
}

// ---- printing ----

#[derive(Clone)]
pub struct Fmt {
    /// None: compact; Some(s): pretty with `s` as one indent step.
    pub indent: Option<String>,
    pub sort_keys: bool,
    pub ascii: bool,
}

impl Fmt {
    pub fn compact() -> Fmt {
        Fmt { indent: None, sort_keys: false, ascii: false }
    }
}

pub fn dump(v: &V, f: &Fmt) -> String {
    let mut s = String::new();
    write_val(&mut s, v, f, 0);
    s
}

pub fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        return "null".into();
    }
    let x = if x.is_infinite() { if x > 0.0 { f64::MAX } else { -f64::MAX } } else { x };
    if x == 0.0 {
        return if x.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // Shortest round-trip digits and decimal exponent, from Rust's `{:e}`.
    let e = format!("{:e}", x.abs());
    let (mant, exp) = e.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let nd = digits.len() as i32;
    let decpt = exp + 1;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if decpt <= -4 || decpt > nd + 15 {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = decpt - 1;
        out.push_str(&format!("e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        for _ in 0..-decpt {
            out.push('0');
        }
        out.push_str(&digits);
    } else if decpt >= nd {
        out.push_str(&digits);
        for _ in 0..decpt - nd {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    }
    out
}

pub fn write_str(s: &mut String, t: &str, ascii: bool) {
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            '\r' => s.push_str("\\r"),
            '\u{8}' => s.push_str("\\b"),
            '\u{c}' => s.push_str("\\f"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => s.push_str(&format!("\\u{:04x}", c as u32)),
            c if ascii && (c as u32) > 0x7e => {
                let mut b = [0u16; 2];
                for u in c.encode_utf16(&mut b) {
                    s.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

fn newline(s: &mut String, f: &Fmt, depth: usize) {
    if let Some(ind) = &f.indent {
        s.push('\n');
        for _ in 0..depth {
            s.push_str(ind);
        }
    }
}

fn write_val(s: &mut String, v: &V, f: &Fmt, depth: usize) {
    match v {
        V::Null => s.push_str("null"),
        V::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        V::Num(x) => s.push_str(&fmt_num(*x)),
        V::Str(t) => write_str(s, t, f.ascii),
        V::Arr(a) => {
            if a.is_empty() {
                s.push_str("[]");
                return;
            }
            s.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                newline(s, f, depth + 1);
                write_val(s, x, f, depth + 1);
            }
            newline(s, f, depth);
            s.push(']');
        }
        V::Obj(o) => {
            if o.is_empty() {
                s.push_str("{}");
                return;
            }
            s.push('{');
            let keys: Vec<Rc<str>> = if f.sort_keys { V::sorted_keys(o) } else { o.iter().map(|(k, _)| k.clone()).collect() };
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                newline(s, f, depth + 1);
                write_str(s, k, f.ascii);
                s.push(':');
                if f.indent.is_some() {
                    s.push(' ');
                }
                write_val(s, v.get(k).unwrap(), f, depth + 1);
            }
            newline(s, f, depth);
            s.push('}');
        }
    }
}

// ---- reading ----

/// A JSON text reader over a whole buffer that yields one value after
/// another (jq accepts any whitespace-separated sequence).
pub struct Reader<'a> {
    b: &'a [u8],
    pub pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Reader { b, pos: 0 }
    }
    fn ws(&mut self) {
        while self.pos < self.b.len() && matches!(self.b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }
    /// Line and column of the current position, for messages.
    pub fn where_(&self) -> (usize, usize) {
        let done = &self.b[..self.pos.min(self.b.len())];
        let line = done.iter().filter(|c| **c == b'\n').count() + 1;
        let col = done.iter().rev().take_while(|c| **c != b'\n').count();
        (line, col)
    }
    pub fn err(&self, m: &str) -> String {
        let (l, c) = self.where_();
        format!("{} at line {}, column {}", m, l, c)
    }
    /// Next value, None at the end of input.
    pub fn next(&mut self) -> Option<Result<V, String>> {
        self.ws();
        if self.pos >= self.b.len() {
            return None;
        }
        Some(self.value(0))
    }
    fn value(&mut self, depth: usize) -> Result<V, String> {
        // jq allows 10000; the host's call stack (V8 bounds wasm recursion)
        // holds about 3000 levels of printing and `..`, so stop cleanly there.
        if depth > 3000 {
            return Err(self.err("Exceeds depth limit for parsing"));
        }
        self.ws();
        let c = match self.b.get(self.pos) {
            Some(c) => *c,
            None => return Err(self.err("Unfinished JSON term at EOF")),
        };
        match c {
            b'{' => {
                self.pos += 1;
                let mut o: Vec<(Rc<str>, V)> = Vec::new();
                self.ws();
                if self.b.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(V::obj(o));
                }
                loop {
                    self.ws();
                    if self.b.get(self.pos) != Some(&b'"') {
                        return Err(self.err(if self.pos >= self.b.len() { "Unfinished JSON term at EOF" } else { "Object keys must be strings" }));
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.b.get(self.pos) != Some(&b':') {
                        return Err(self.err("Objects must consist of key:value pairs"));
                    }
                    self.pos += 1;
                    let v = self.value(depth + 1)?;
                    obj_set(&mut o, Rc::from(k.as_str()), v);
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(V::obj(o));
                        }
                        None => return Err(self.err("Unfinished JSON term at EOF")),
                        _ => return Err(self.err("Expected separator between values")),
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                let mut a = Vec::new();
                self.ws();
                if self.b.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(V::arr(a));
                }
                loop {
                    a.push(self.value(depth + 1)?);
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(V::arr(a));
                        }
                        None => return Err(self.err("Unfinished JSON term at EOF")),
                        _ => return Err(self.err("Expected separator between values")),
                    }
                }
            }
            b'"' => Ok(V::str(&self.string()?)),
            _ => {
                let start = self.pos;
                while self.pos < self.b.len() && !matches!(self.b[self.pos], b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b':' | b'[' | b'{' | b'"') {
                    self.pos += 1;
                }
                let word = std::str::from_utf8(&self.b[start..self.pos]).unwrap_or("");
                match word {
                    "null" => Ok(V::Null),
                    "true" => Ok(V::Bool(true)),
                    "false" => Ok(V::Bool(false)),
                    "nan" => Ok(V::Num(f64::NAN)),
                    _ => match parse_num(word) {
                        Some(x) => Ok(V::Num(x)),
                        None if word.is_empty() => {
                            self.pos += 1;
                            Err(self.err("Unmatched or unexpected character"))
                        }
                        None => Err(self.err("Invalid numeric literal")),
                    },
                }
            }
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = match self.b.get(self.pos) {
                Some(c) => *c,
                None => return Err(self.err("Unfinished JSON term at EOF")),
            };
            self.pos += 1;
            match c {
                b'"' => return Ok(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => {
                    let e = *self.b.get(self.pos).ok_or_else(|| self.err("Unfinished JSON term at EOF"))?;
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'/' | b'\\' | b'"' => out.push(e),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xd800..0xdc00).contains(&cp) && self.b.get(self.pos) == Some(&b'\\') && self.b.get(self.pos + 1) == Some(&b'u') {
                                self.pos += 2;
                                let lo = self.hex4()?;
                                cp = if (0xdc00..0xe000).contains(&lo) { 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00) } else { 0xfffd };
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return Err(self.err("Invalid escape")),
                    }
                }
                _ => out.push(c),
            }
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.b.get(self.pos..self.pos + 4).and_then(|s| std::str::from_utf8(s).ok()).and_then(|s| u32::from_str_radix(s, 16).ok());
        match h {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => Err(self.err("Invalid escape")),
        }
    }
}

/// A JSON number (also used by tonumber); None when not one.
pub fn parse_num(w: &str) -> Option<f64> {
    let b = w.as_bytes();
    if b.is_empty() {
        return None;
    }
    let body = if b[0] == b'-' { &w[1..] } else { w };
    let first = body.as_bytes().first()?;
    if !(first.is_ascii_digit() || *first == b'.') {
        return None;
    }
    if !body.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return None;
    }
    w.parse::<f64>().ok()
}

pub fn parse_one(s: &str) -> Result<V, String> {
    let mut r = Reader::new(s.as_bytes());
    let v = match r.next() {
        Some(v) => v?,
        None => return Err("Expected JSON value".into()),
    };
    r.ws();
    if r.pos < s.len() {
        return Err(r.err("Unexpected extra JSON values"));
    }
    Ok(v)
}
