//! jq's value type: JSON with insertion-ordered objects (jq prints keys in
//! the order they were added), cheap clones through Rc, jq's total order
//! (null < false < true < numbers < strings < arrays < objects), and the
//! JSON reader and printer (numbers printed the way jq 1.6 prints them).

use crate::bytescan;
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
    pub color: bool,
}

impl Fmt {
    pub fn compact() -> Fmt {
        Fmt { indent: None, sort_keys: false, ascii: false, color: false }
    }
}

pub fn dump(v: &V, f: &Fmt) -> String {
    let mut s = String::new();
    write_val(&mut s, v, f, 0);
    s
}

/// Appends `v` as JSON text (what `dump` returns) to `s`.
pub fn dump_into(s: &mut String, v: &V, f: &Fmt) {
    write_val(s, v, f, 0);
}

pub fn fmt_num(x: f64) -> String {
    let mut s = String::new();
    write_num(&mut s, x);
    s
}

/// Integers below this print as plain digits whatever the format rules say
/// (those rules only switch to an exponent from 10^17 up, or for 10^16
/// with trailing zeros), so they skip the shortest-digits search.
const PLAIN_INT_LIMIT: f64 = 1e15;

/// A fixed buffer for `{:e}` output: the longest f64 in that form is 24 bytes.
struct Small {
    b: [u8; 32],
    n: usize,
}

impl std::fmt::Write for Small {
    fn write_str(&mut self, t: &str) -> std::fmt::Result {
        let end = self.n + t.len();
        if end > self.b.len() {
            return Err(std::fmt::Error);
        }
        self.b[self.n..end].copy_from_slice(t.as_bytes());
        self.n = end;
        Ok(())
    }
}

/// Appends a number the way jq 1.6 prints it (17 significant digits at
/// most, shortest round-trip form, exponent outside [1e-5, 1e17)).
pub fn write_num(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("null");
        return;
    }
    let x = if x.is_infinite() { if x > 0.0 { f64::MAX } else { -f64::MAX } } else { x };
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    if x.abs() < PLAIN_INT_LIMIT && x.trunc() == x {
        write_int(out, x as i64);
        return;
    }
    // Shortest round-trip digits and decimal exponent, from Rust's `{:e}`.
    let mut e = Small { b: [0; 32], n: 0 };
    let _ = std::fmt::Write::write_fmt(&mut e, format_args!("{:e}", x.abs()));
    let e = std::str::from_utf8(&e.b[..e.n]).unwrap_or("0e0");
    let (mant, exp) = e.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    let mut dbuf = [0u8; 24];
    let mut nd = 0usize;
    for c in mant.bytes().filter(|c| *c != b'.') {
        dbuf[nd] = c;
        nd += 1;
    }
    let digits = std::str::from_utf8(&dbuf[..nd]).unwrap();
    let nd = nd as i32;
    let decpt = exp + 1;
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
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        if e.abs() < 10 {
            out.push('0');
        }
        write_int(out, e.abs() as i64);
    } else if decpt <= 0 {
        out.push_str("0.");
        for _ in 0..-decpt {
            out.push('0');
        }
        out.push_str(digits);
    } else if decpt >= nd {
        out.push_str(digits);
        for _ in 0..decpt - nd {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    }
}

fn write_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut n = n.unsigned_abs();
    let mut b = [0u8; 20];
    let mut i = b.len();
    loop {
        i -= 1;
        b[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&b[i..]).unwrap());
}

/// True for bytes `write_str` cannot copy as they are: quote, backslash,
/// control characters and DEL, and with `ascii` every non-ASCII byte.
#[inline(always)]
fn needs_escape(c: u8, ascii: bool) -> bool {
    c < 0x20 || c == b'"' || c == b'\\' || c == 0x7f || (ascii && c >= 0x80)
}

pub fn write_str(s: &mut String, t: &str, ascii: bool) {
    s.push('"');
    let b = t.as_bytes();
    // Copy the runs that need no escaping whole; escape char by char from
    // the first byte that does (always at a char boundary: all such bytes
    // are ASCII or, with `ascii`, a lead or continuation byte of a char
    // whose run started at its lead byte).
    let mut done = 0;
    let mut i = 0;
    while i < b.len() {
        if !needs_escape(b[i], ascii) {
            i += 1;
            continue;
        }
        s.push_str(&t[done..i]);
        let c = t[i..].chars().next().unwrap();
        escape_char(s, c, ascii);
        i += c.len_utf8();
        done = i;
    }
    s.push_str(&t[done..]);
    s.push('"');
}

fn escape_char(s: &mut String, c: char, ascii: bool) {
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

fn newline(s: &mut String, f: &Fmt, depth: usize) {
    if let Some(ind) = &f.indent {
        s.push('\n');
        for _ in 0..depth {
            s.push_str(ind);
        }
    }
}

/// jq 1.6's default colors (null, false, true, numbers, strings, arrays, objects) and object keys.
const COLORS: [&str; 7] = ["\x1b[1;30m", "\x1b[0;39m", "\x1b[0;39m", "\x1b[0;39m", "\x1b[0;32m", "\x1b[1;39m", "\x1b[1;39m"];
const FIELD_COLOR: &str = "\x1b[34;1m";
const COLRESET: &str = "\x1b[0m";

/// -C: the escapes jq 1.6 writes, in its order (a container's color is repeated after each member).
fn write_color(s: &mut String, v: &V, f: &Fmt, depth: usize) {
    // jq's colours follow its kind order, the order `rank` gives.
    let color = COLORS[v.rank() as usize];
    s.push_str(color);
    match v {
        V::Arr(a) if !a.is_empty() => {
            s.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                newline(s, f, depth + 1);
                write_color(s, x, f, depth + 1);
                s.push_str(color);
            }
            newline(s, f, depth);
            s.push_str(color);
            s.push(']');
        }
        V::Obj(o) if !o.is_empty() => {
            s.push('{');
            let keys: Vec<Rc<str>> = if f.sort_keys { V::sorted_keys(o) } else { o.iter().map(|(k, _)| k.clone()).collect() };
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                newline(s, f, depth + 1);
                s.push_str(COLRESET);
                s.push_str(FIELD_COLOR);
                write_str(s, k, f.ascii);
                s.push_str(COLRESET);
                s.push_str(color);
                s.push(':');
                if f.indent.is_some() {
                    s.push(' ');
                }
                s.push_str(COLRESET);
                write_color(s, v.get(k).unwrap(), f, depth + 1);
                s.push_str(color);
            }
            newline(s, f, depth);
            s.push_str(color);
            s.push('}');
        }
        _ => write_val(s, v, &Fmt { color: false, ..f.clone() }, depth),
    }
    s.push_str(COLRESET);
}

fn write_val(s: &mut String, v: &V, f: &Fmt, depth: usize) {
    if f.color {
        return write_color(s, v, f, depth);
    }
    match v {
        V::Null => s.push_str("null"),
        V::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        V::Num(x) => write_num(s, *x),
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
            let entry = |s: &mut String, i: usize, k: &str, x: &V| {
                if i > 0 {
                    s.push(',');
                }
                newline(s, f, depth + 1);
                write_str(s, k, f.ascii);
                s.push(':');
                if f.indent.is_some() {
                    s.push(' ');
                }
                write_val(s, x, f, depth + 1);
            };
            if f.sort_keys {
                for (i, k) in V::sorted_keys(o).iter().enumerate() {
                    entry(s, i, k, v.get(k).unwrap());
                }
            } else {
                for (i, (k, x)) in o.iter().enumerate() {
                    entry(s, i, k, x);
                }
            }
            newline(s, f, depth);
            s.push('}');
        }
    }
}

// ---- reading ----

/// Recently seen object keys, so the same key in thousands of objects is
/// one shared allocation (and a refcount bump) instead of one each.
/// Direct-mapped: a slot holds the last key that hashed to it.
pub struct KeyCache {
    slots: Vec<Option<Rc<str>>>,
}

/// What a Reader keeps from one value to the next (the key cache and
/// buffers whose capacity is worth reusing); `Inputs` hands it from one
/// Reader to the next so NDJSON lines share it too.
#[derive(Default)]
pub struct Scratch {
    keys: KeyCache,
    /// Members of the objects being read, innermost last; each object is
    /// copied out into a vector of exactly its size when it closes (one
    /// allocation instead of a series of regrowths).
    members: Vec<(Rc<str>, V)>,
    /// Elements of the arrays being read, the same way.
    items: Vec<V>,
    /// Decoded bytes of a string with escapes.
    buf: Vec<u8>,
}

impl Default for KeyCache {
    fn default() -> Self {
        KeyCache::new()
    }
}

const KEY_SLOTS: usize = 64;
/// Longer keys are rarely repeated field names; not worth caching.
const KEY_MAX: usize = 32;

impl KeyCache {
    pub fn new() -> KeyCache {
        KeyCache { slots: Vec::new() }
    }
    fn get(&mut self, b: &[u8], s: &str) -> Rc<str> {
        if b.is_empty() || b.len() > KEY_MAX {
            return Rc::from(s);
        }
        if self.slots.is_empty() {
            self.slots = vec![None; KEY_SLOTS];
        }
        let h = (b.len() * 31 + b[0] as usize * 7 + b[b.len() - 1] as usize + b[b.len() / 2] as usize * 3) % KEY_SLOTS;
        match &self.slots[h] {
            Some(k) if k.as_bytes() == b => k.clone(),
            _ => {
                let k: Rc<str> = Rc::from(s);
                self.slots[h] = Some(k.clone());
                k
            }
        }
    }
}

/// Offset of the first `"` or `\` in `b` (a string body's end or first
/// escape), scanning 8 bytes at a time.
fn find_quote_or_escape(b: &[u8]) -> Option<usize> {
    let (q, e) = (bytescan::splat(b'"'), bytescan::splat(b'\\'));
    let mut i = 0;
    while i + 8 <= b.len() {
        let w = bytescan::load(&b[i..]);
        let m = bytescan::eq_lanes(w, q) | bytescan::eq_lanes(w, e);
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b[i..].iter().position(|&c| c == b'"' || c == b'\\').map(|p| i + p)
}

/// A JSON number made only of digits with an optional fraction and no
/// exponent, at most 15 digits in all, read without the general float
/// parser. Exact: the digits fit in 2^53 and 10^frac (frac <= 15) is exact,
/// so one division is correctly rounded, the same value `str::parse` gives.
/// None when the text is anything else (the caller takes the general path).
fn simple_num(w: &[u8]) -> Option<f64> {
    let (neg, body) = match w.first() {
        Some(b'-') => (true, &w[1..]),
        _ => (false, w),
    };
    let mut mant: u64 = 0;
    let mut digits = 0;
    let mut frac = 0;
    let mut seen_dot = false;
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c.is_ascii_digit() {
            mant = mant * 10 + (c - b'0') as u64;
            digits += 1;
            if seen_dot {
                frac += 1;
            }
        } else if c == b'.' && !seen_dot && digits > 0 {
            seen_dot = true;
        } else {
            return None;
        }
        i += 1;
        if digits > 15 {
            return None;
        }
    }
    if digits == 0 || (seen_dot && frac == 0) {
        return None;
    }
    const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    let x = mant as f64 / POW10[frac];
    Some(if neg { -x } else { x })
}

fn is_delim(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b':' | b'[' | b'{' | b'"')
}

/// A JSON text reader over a whole buffer that yields one value after
/// another (jq accepts any whitespace-separated sequence).
pub struct Reader<'a> {
    b: &'a [u8],
    pub pos: usize,
    pub scratch: Scratch,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Reader { b, pos: 0, scratch: Scratch::default() }
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
        let r = self.value(0);
        // An error leaves partly read containers behind.
        self.scratch.members.clear();
        self.scratch.items.clear();
        Some(r)
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
                self.ws();
                if self.b.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(V::obj(Vec::new()));
                }
                let base = self.scratch.members.len();
                loop {
                    self.ws();
                    if self.b.get(self.pos) != Some(&b'"') {
                        if self.pos >= self.b.len() {
                            return Err(self.err("Unfinished JSON term at EOF"));
                        }
                        // jq 1.6 reads a key that is not a string as a value first (a bad word
                        // fails as any value does: `{bad` is an invalid numeric literal), then
                        // refuses it at the colon.
                        if !matches!(self.b[self.pos], b',' | b'}' | b':') {
                            self.value(depth + 1)?;
                            self.ws();
                            if self.b.get(self.pos) == Some(&b':') {
                                self.pos += 1;
                            }
                        }
                        return Err(self.err("Object keys must be strings"));
                    }
                    let k = self.string(true)?;
                    self.ws();
                    if self.b.get(self.pos) != Some(&b':') {
                        return Err(self.err("Objects must consist of key:value pairs"));
                    }
                    self.pos += 1;
                    let v = self.value(depth + 1)?;
                    // A repeated key keeps its first place and takes the new value.
                    let members = &mut self.scratch.members;
                    match members[base..].iter_mut().find(|(kk, _)| *kk == k) {
                        Some(slot) => slot.1 = v,
                        None => members.push((k, v)),
                    }
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            let o: Vec<(Rc<str>, V)> = self.scratch.members.drain(base..).collect();
                            return Ok(V::obj(o));
                        }
                        None => return Err(self.err("Unfinished JSON term at EOF")),
                        _ => return Err(self.err("Expected separator between values")),
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                self.ws();
                if self.b.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(V::arr(Vec::new()));
                }
                let base = self.scratch.items.len();
                loop {
                    let x = self.value(depth + 1)?;
                    self.scratch.items.push(x);
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            let a: Vec<V> = self.scratch.items.drain(base..).collect();
                            return Ok(V::arr(a));
                        }
                        None => return Err(self.err("Unfinished JSON term at EOF")),
                        _ => return Err(self.err("Expected separator between values")),
                    }
                }
            }
            b'"' => Ok(V::Str(self.string(false)?)),
            _ => {
                let start = self.pos;
                while self.pos < self.b.len() && !is_delim(self.b[self.pos]) {
                    self.pos += 1;
                }
                let wb = &self.b[start..self.pos];
                if let Some(x) = simple_num(wb) {
                    return Ok(V::Num(x));
                }
                let word = std::str::from_utf8(wb).unwrap_or("");
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
                        // jq 1.6 checks a word starting like true, false or null against that
                        // literal, any other as a number; it names a word the input ends in "at EOF".
                        None if matches!(wb[0], b't' | b'f' | b'n') && self.pos >= self.b.len() => Err(self.err("Invalid literal at EOF")),
                        // Otherwise the delimiter that ended the word has been read too.
                        None if matches!(wb[0], b't' | b'f' | b'n') => {
                            self.pos += 1;
                            Err(self.err("Invalid literal"))
                        }
                        None if self.pos >= self.b.len() => Err(self.err("Invalid numeric literal at EOF")),
                        None => {
                            self.pos += 1;
                            Err(self.err("Invalid numeric literal"))
                        }
                    },
                }
            }
        }
    }
    /// A string starting at the opening quote. Invalid UTF-8 becomes U+FFFD.
    /// `key`: share the allocation with earlier equal keys.
    fn string(&mut self, key: bool) -> Result<Rc<str>, String> {
        self.pos += 1;
        let start = self.pos;
        let run = match find_quote_or_escape(&self.b[start..]) {
            Some(n) => n,
            None => {
                self.pos = self.b.len();
                return Err(self.err("Unfinished JSON term at EOF"));
            }
        };
        if self.b[start + run] == b'"' {
            // No escapes: the text is the bytes as they stand.
            self.pos = start + run + 1;
            let raw = &self.b[start..start + run];
            return Ok(match std::str::from_utf8(raw) {
                Ok(s) if key => self.scratch.keys.get(raw, s),
                Ok(s) => Rc::from(s),
                Err(_) => Rc::from(String::from_utf8_lossy(raw).as_ref()),
            });
        }
        let mut out = std::mem::take(&mut self.scratch.buf);
        out.clear();
        let r = self.escaped(&mut out);
        let res = r.map(|()| Rc::from(String::from_utf8_lossy(&out).as_ref()));
        self.scratch.buf = out;
        res
    }
    /// The rest of a string with escapes into `out`, from `self.pos` to past
    /// the closing quote; runs without escapes are copied whole.
    fn escaped(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        loop {
            let run = match find_quote_or_escape(&self.b[self.pos..]) {
                Some(n) => n,
                None => {
                    self.pos = self.b.len();
                    return Err(self.err("Unfinished JSON term at EOF"));
                }
            };
            out.extend_from_slice(&self.b[self.pos..self.pos + run]);
            self.pos += run;
            let c = self.b[self.pos];
            self.pos += 1;
            if c == b'"' {
                return Ok(());
            }
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
