//! jq's builtins: the ones jq itself defines in jq (PRELUDE, parsed once per
//! run) and the native ones (`native`), plus the `@format` string filters.

use super::eval::{delpaths, err, getpath, index, indices_arr, setpath, split_str, tostring, Ctl, Cur, Env, Interp, Out, R};
use super::parse::Ast;
use super::value::{cmp, dump, fmt_num, parse_one, Fmt, V};
use std::rc::Rc;

pub const PRELUDE: &str = r#"
def not: if . then false else true end;
def select(f): if f then . else empty end;
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def map(f): [.[] | f];
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type|. == "array" or . == "object");
def scalars: select(type|. != "array" and . != "object");
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: reduce .[] as $x ({}; . + { ($x | if type == "object" then (if has("key") then .key elif has("k") then .k elif has("name") then .name elif has("Name") then .Name elif has("Key") then .Key elif has("K") then .K else null end) else . end | if type == "string" then . elif type == "null" then "null" else tojson end): ($x | if type == "object" then (if has("value") then .value elif has("v") then .v elif has("Value") then .Value elif has("V") then .V else null end) else null end) });
def with_entries(f): to_entries | map(f) | from_entries;
def map_values(f): .[] |= f;
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def isempty(g): first((g | false), true);
def any(g; cond): isempty(first(g | cond or empty)) | not;
def all(g; cond): isempty(first(g | cond and empty));
def any(f): any(.[]; f);
def all(f): all(.[]; f);
def range($x): range(0; $x);
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def del(f): delpaths([path(f)]);
def to_array: if type == "array" then . else [.] end;
def flatten: flatten(1e9);
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def last(f): reduce f as $x (null; $x);
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def unique_by(f): [group_by(f)[] | .[0]];
def max_by(f): _max_by(map([f]));
def min_by(f): _min_by(map([f]));
def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def env: $ENV;
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def capture(re; $flags): match(re; $flags) | [.captures[] | select(.name != null) | {key: .name, value: .string}] | from_entries;
def capture(re): capture(re; null);
def scan(re; $flags): match(re; "g" + ($flags // "")) | if (.captures | length > 0) then [.captures[].string] else .string end;
def scan(re): scan(re; null);
def splits($re; $flags): split($re; $flags) | .[];
def splits($re): splits($re; null);
def sub(re; str): sub(re; str; "");
def gsub(re; str): sub(re; str; "g");
def gsub(re; str; $flags): sub(re; str; $flags + "g");
def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max | [range(0; $max) as $j | [range(0; $in | length) as $i | $in[$i][$j]]] end;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): foreach f as $e ({v: null, done: false};
  (if .done then {v: null, done: false} else . end)
  | if ($e | length) == 2 then
      (if ($e[0] | length) == 0 then {v: $e[1], done: true} else .v |= setpath($e[0]; $e[1]) end)
    elif ($e[0] | length) == 1 then .done = true
    else . end;
  if .done then .v else empty end);
def truncate_stream(stream): . as $n | null | stream | select((.[0] | length) > $n) | .[0] |= .[$n:];
def fromjson: _fromjson;
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def halt_error: halt_error(5);
def error(msg): msg | error;
def add(f): reduce f as $x (null; . + $x);
def getpath_or_null(p): getpath(p);
def abs: if type == "number" and . < 0 then -. else . end;
def trim: ltrimstr_ws | rtrimstr_ws;
def ltrim: ltrimstr_ws;
def rtrim: rtrimstr_ws;
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
def have_literal_numbers: true;
def splits_compat: .;
.
"#;

/// `builtins`: "name/arity" of every function a program can call without defining it, the
/// prelude's and the natives' (names starting with `_` are internal, as in jq).
fn builtin_names() -> Vec<String> {
    let mut names: Vec<String> = super::check::NATIVES.split(' ').map(str::to_string).collect();
    if let Ok(prelude) = super::parse::parse(PRELUDE) {
        let mut node = &prelude;
        while let Ast::Def(d, rest) = node {
            names.push(format!("{}/{}", d.name, d.params.len()));
            node = rest;
        }
    }
    names.retain(|n| !n.starts_with('_'));
    names.sort();
    names.dedup();
    names
}

fn num(v: &V, what: &str) -> Result<f64, Ctl> {
    match v {
        V::Num(n) => Ok(*n),
        _ => err(format!("{} {}", v.desc(), what)),
    }
}

fn need_str<'a>(v: &'a V, msg: &str) -> Result<&'a str, Ctl> {
    match v {
        V::Str(s) => Ok(s),
        _ => err(format!("{} {}", v.desc(), msg)),
    }
}

pub fn length(v: &V) -> Result<V, Ctl> {
    Ok(V::Num(match v {
        V::Null => 0.0,
        V::Bool(_) => return err(format!("{} has no length", v.desc())),
        V::Num(n) => n.abs(),
        V::Str(s) => s.chars().count() as f64,
        V::Arr(a) => a.len() as f64,
        V::Obj(o) => o.len() as f64,
    }))
}

pub fn keys(v: &V, sorted: bool) -> Result<V, Ctl> {
    match v {
        V::Obj(o) => {
            let ks: Vec<V> = if sorted { V::sorted_keys(o).into_iter().map(V::Str).collect() } else { o.iter().map(|(k, _)| V::Str(k.clone())).collect() };
            Ok(V::arr(ks))
        }
        V::Arr(a) => Ok(V::arr((0..a.len()).map(|i| V::Num(i as f64)).collect())),
        _ => err(format!("{} has no keys", v.desc())),
    }
}

fn contains(a: &V, b: &V) -> Result<bool, Ctl> {
    match (a, b) {
        (V::Obj(x), V::Obj(y)) => {
            for (k, bv) in y.iter() {
                match x.iter().find(|(kk, _)| kk == k) {
                    Some((_, av)) => {
                        if !contains(av, bv)? {
                            return Ok(false);
                        }
                    }
                    None => return Ok(false),
                }
            }
            Ok(true)
        }
        (V::Arr(x), V::Arr(y)) => {
            for bv in y.iter() {
                let mut found = false;
                for av in x.iter() {
                    if contains(av, bv)? {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (V::Str(x), V::Str(y)) => Ok(x.contains(&**y)),
        _ if a.type_name() == b.type_name() => Ok(a == b),
        _ => err(format!("{} and {} cannot have their containment checked", a.desc(), b.desc())),
    }
}

fn flatten(v: &V, depth: f64, out: &mut Vec<V>) -> Result<(), Ctl> {
    match v {
        V::Arr(a) => {
            for x in a.iter() {
                match x {
                    V::Arr(_) if depth > 0.0 => flatten(x, depth - 1.0, out)?,
                    _ => out.push(x.clone()),
                }
            }
            Ok(())
        }
        _ => err(format!("Cannot iterate over {}", v.desc())),
    }
}

fn implode(v: &V) -> Result<V, Ctl> {
    match v {
        V::Arr(a) => {
            let mut s = String::new();
            for x in a.iter() {
                match x {
                    V::Num(n) => s.push(char::from_u32(*n as u32).unwrap_or('\u{fffd}')),
                    _ => return err("Unicode codepoint must be numeric"),
                }
            }
            Ok(V::str(&s))
        }
        _ => err(format!("{} cannot be imploded, must be an array of codepoints", v.desc())),
    }
}

// ---- regex ----

fn build_re(re: &V, flags: &V) -> Result<(regex::Regex, bool), Ctl> {
    let pat = need_str(re, "cannot be matched, as it is not a string")?;
    let fl = match flags {
        V::Null => "",
        V::Str(s) => s,
        _ => return err(format!("{} is not a string", flags.desc())),
    };
    let mut prefix = String::new();
    let mut global = false;
    for c in fl.chars() {
        match c {
            'g' => global = true,
            'i' => prefix.push('i'),
            'x' => prefix.push('x'),
            's' => prefix.push('s'),
            'p' => prefix.push_str("ms"),
            'n' | 'l' => {}
            _ => return err(format!("{} is not a valid modifier string", fl)),
        }
    }
    // Oniguruma spells named groups `(?<name>...)`; this regex crate wants `(?P<name>...)`.
    let mut pat2 = String::with_capacity(pat.len());
    let mut rest = pat;
    while let Some(i) = rest.find("(?<") {
        let esc = rest[..i].chars().rev().take_while(|c| *c == '\\').count() % 2 == 1;
        let after = &rest[i + 3..];
        pat2.push_str(&rest[..i]);
        if !esc && !after.starts_with('=') && !after.starts_with('!') {
            pat2.push_str("(?P<");
        } else {
            pat2.push_str("(?<");
        }
        rest = after;
    }
    pat2.push_str(rest);
    let full = if prefix.is_empty() { pat2 } else { format!("(?{}){}", prefix, pat2) };
    match regex::Regex::new(&full) {
        Ok(r) => Ok((r, global)),
        Err(e) => err(format!("{} (at offset 0) is not a valid regex: {}", pat, e)),
    }
}

/// jq's match objects; offsets and lengths count codepoints.
fn matches(s: &str, re: &regex::Regex, global: bool) -> Vec<V> {
    let cp = |byte: usize| s[..byte].chars().count() as f64;
    let names: Vec<Option<String>> = re.capture_names().map(|n| n.map(|s| s.to_string())).collect();
    let mut out = Vec::new();
    for caps in re.captures_iter(s) {
        let m = caps.get(0).unwrap();
        let mut cv = Vec::new();
        for (i, name) in names.iter().enumerate().skip(1) {
            let nm = match name {
                Some(n) => V::str(n),
                None => V::Null,
            };
            let o = match caps.get(i) {
                Some(g) => vec![
                    (Rc::from("offset"), V::Num(cp(g.start()))),
                    (Rc::from("length"), V::Num(g.as_str().chars().count() as f64)),
                    (Rc::from("string"), V::str(g.as_str())),
                    (Rc::from("name"), nm),
                ],
                None => vec![(Rc::from("offset"), V::Num(-1.0)), (Rc::from("length"), V::Num(0.0)), (Rc::from("string"), V::Null), (Rc::from("name"), nm)],
            };
            cv.push(V::obj(o));
        }
        out.push(V::obj(vec![
            (Rc::from("offset"), V::Num(cp(m.start()))),
            (Rc::from("length"), V::Num(m.as_str().chars().count() as f64)),
            (Rc::from("string"), V::str(m.as_str())),
            (Rc::from("captures"), V::arr(cv)),
        ]));
        if !global {
            break;
        }
    }
    out
}

// ---- formats ----

fn b64_encode(b: &[u8]) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for ch in b.chunks(3) {
        let n = (ch[0] as u32) << 16 | (*ch.get(1).unwrap_or(&0) as u32) << 8 | *ch.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= ch.len() {
                s.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

fn b64_decode(s: &str) -> Result<Vec<u8>, Ctl> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => return err(format!("{} is not valid base64 data", V::str(s).desc())),
        };
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

fn sh_quote(v: &V) -> Result<String, Ctl> {
    match v {
        V::Str(s) => Ok(format!("'{}'", s.replace('\'', "'\\''"))),
        V::Arr(_) | V::Obj(_) => err(format!("{} can not be escaped for shell", v.desc())),
        _ => Ok(dump(v, &Fmt::compact())),
    }
}

pub fn format(name: &str, v: &V) -> Result<String, Ctl> {
    match name {
        "text" => Ok(tostring(v)),
        "json" => Ok(dump(v, &Fmt::compact())),
        "html" => Ok(tostring(v).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('\'', "&#39;").replace('"', "&quot;")),
        "uri" => {
            let mut o = String::new();
            for b in tostring(v).bytes() {
                if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                    o.push(b as char);
                } else {
                    o.push_str(&format!("%{:02X}", b));
                }
            }
            Ok(o)
        }
        "base64" => Ok(b64_encode(tostring(v).as_bytes())),
        "base64d" => Ok(String::from_utf8_lossy(&b64_decode(&tostring(v))?).into_owned()),
        "sh" => match v {
            V::Arr(a) => Ok(a.iter().map(sh_quote).collect::<Result<Vec<_>, _>>()?.join(" ")),
            _ => sh_quote(v),
        },
        "csv" | "tsv" => {
            let a = match v {
                V::Arr(a) => a,
                _ => return err(format!("{} cannot be {}-formatted, only an array can be", v.desc(), name)),
            };
            let mut cells = Vec::new();
            for x in a.iter() {
                cells.push(match x {
                    V::Num(n) => fmt_num(*n),
                    V::Bool(b) => b.to_string(),
                    V::Null => String::new(),
                    V::Str(s) if name == "csv" => format!("\"{}\"", s.replace('"', "\"\"")),
                    V::Str(s) => s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r"),
                    _ => return err(format!("{} is not valid in a csv row", x.desc())),
                });
            }
            Ok(cells.join(if name == "csv" { "," } else { "\t" }))
        }
        // jq 1.6 finds out when the format runs (exit 5), as for @base32, which it lacks.
        _ => err(format!("{} is not a valid format", name)),
    }
}

// ---- dates (UTC only) ----

pub use crate::cmd::date::{civil_to_days, days_to_civil};

fn strftime(t: f64, f: &str) -> String {
    let secs = t.floor() as i64;
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let (y, m, d) = days_to_civil(days);
    let (hh, mm, ss) = (rem / 3600, rem % 3600 / 60, rem % 60);
    let wd = (days + 4).rem_euclid(7);
    const DN: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
    const MN: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    let mut o = String::new();
    let mut it = f.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            o.push(c);
            continue;
        }
        match it.next() {
            Some('Y') => o.push_str(&y.to_string()),
            Some('m') => o.push_str(&format!("{:02}", m)),
            Some('d') => o.push_str(&format!("{:02}", d)),
            Some('H') => o.push_str(&format!("{:02}", hh)),
            Some('M') => o.push_str(&format!("{:02}", mm)),
            Some('S') => o.push_str(&format!("{:02}", ss)),
            Some('Z') => o.push_str("UTC"),
            Some('z') => o.push_str("+0000"),
            Some('s') => o.push_str(&secs.to_string()),
            Some('a') => o.push_str(&DN[wd as usize][..3]),
            Some('A') => o.push_str(DN[wd as usize]),
            Some('b') => o.push_str(&MN[m as usize - 1][..3]),
            Some('B') => o.push_str(MN[m as usize - 1]),
            Some('e') => o.push_str(&format!("{:2}", d)),
            Some('j') => {
                let (y0, _, _) = (y, 1, 1);
                let start = civil_to_days(y0, 1, 1);
                o.push_str(&format!("{:03}", days - start + 1));
            }
            Some('%') => o.push('%'),
            Some(x) => {
                o.push('%');
                o.push(x);
            }
            None => o.push('%'),
        }
    }
    o
}


/// jq's broken-down time: [year, month 0-11, day, hours, minutes, seconds, weekday, day of year].
fn broken_down(t: f64) -> V {
    let secs = t.floor() as i64;
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let (y, m, d) = days_to_civil(days);
    let yday = days - civil_to_days(y, 1, 1);
    let wday = (days + 4).rem_euclid(7);
    let parts = [y as f64, m as f64 - 1.0, d as f64, (rem / 3600) as f64, (rem % 3600 / 60) as f64, (rem % 60) as f64 + (t - t.floor()), wday as f64, yday as f64];
    V::arr(parts.iter().map(|n| V::Num(*n)).collect())
}

/// Seconds since the epoch of a broken-down time (UTC, as timegm).
fn mktime(v: &V) -> Result<f64, Ctl> {
    let n = |i: usize| match v {
        V::Arr(a) => match a.get(i) {
            Some(V::Num(x)) => Some(*x),
            _ => None,
        },
        _ => None,
    };
    match (n(0), n(1), n(2), n(3), n(4), n(5)) {
        (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(se)) => {
            // months past 11 roll into the next years, as timegm normalizes them
            let months = y as i64 * 12 + mo as i64;
            let days = civil_to_days(months.div_euclid(12), (months.rem_euclid(12) + 1) as u32, 1) + d as i64 - 1;
            Ok((days * 86400) as f64 + h * 3600.0 + mi * 60.0 + se)
        }
        _ => err("mktime requires array of 6 numbers".to_string()),
    }
}

/// The time a number or a broken-down array stands for (strftime takes either).
fn time_of(v: &V, what: &str) -> Result<f64, Ctl> {
    match v {
        V::Arr(_) => mktime(v),
        _ => num(v, what),
    }
}

/// strptime(3) for the conversions scripts use (%Y %m %d %e %H %M %S %y %j %b %B %a %A %T %F %D
/// %R %z %Z %s %%), in UTC; anything else fails as a date that does not match.
fn strptime(s: &str, f: &str) -> Result<f64, Ctl> {
    const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
    let fail = || err::<f64>(format!("date \"{}\" does not match format \"{}\"", s, f));
    let expanded = f.replace("%T", "%H:%M:%S").replace("%F", "%Y-%m-%d").replace("%D", "%m/%d/%y").replace("%R", "%H:%M");
    let (b, fb) = (s.as_bytes(), expanded.as_bytes());
    let (mut i, mut j) = (0usize, 0usize);
    let (mut y, mut mo, mut d, mut h, mut mi, mut se, mut off, mut epoch, mut yday) = (1900i64, 1i64, 1i64, 0i64, 0i64, 0i64, 0i64, None, None);
    let digits = |i: &mut usize, max: usize| -> Option<i64> {
        let start = *i;
        let neg = *i < b.len() && (b[*i] == b'-' || b[*i] == b'+') && max > 4;
        if neg {
            *i += 1;
        }
        while *i < b.len() && *i - start < max && b[*i].is_ascii_digit() {
            *i += 1;
        }
        let t = std::str::from_utf8(&b[start..*i]).ok()?;
        if t.is_empty() || t == "-" || t == "+" {
            return None;
        }
        t.parse().ok()
    };
    while j < fb.len() {
        let c = fb[j];
        if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            j += 1;
            continue;
        }
        if c != b'%' || j + 1 >= fb.len() {
            if i >= b.len() || b[i] != c {
                return fail();
            }
            i += 1;
            j += 1;
            continue;
        }
        let conv = fb[j + 1];
        j += 2;
        if conv != b'%' && conv != b'n' && conv != b't' {
            while i < b.len() && b[i] == b' ' && matches!(conv, b'e' | b'd' | b'H' | b'M' | b'S' | b'm') {
                i += 1;
            }
        }
        let ok = match conv {
            b'Y' => digits(&mut i, 4).map(|v| y = v).is_some(),
            b'm' => digits(&mut i, 2).map(|v| mo = v).is_some(),
            b'd' | b'e' => digits(&mut i, 2).map(|v| d = v).is_some(),
            b'H' => digits(&mut i, 2).map(|v| h = v).is_some(),
            b'M' => digits(&mut i, 2).map(|v| mi = v).is_some(),
            b'S' => digits(&mut i, 2).map(|v| se = v).is_some(),
            b'y' => digits(&mut i, 2).map(|v| y = if v < 69 { 2000 + v } else { 1900 + v }).is_some(),
            b'j' => digits(&mut i, 3).map(|v| yday = Some(v)).is_some(),
            b's' => digits(&mut i, 20).map(|v| epoch = Some(v)).is_some(),
            b'b' | b'B' | b'h' | b'a' | b'A' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let w = s[start..i].to_ascii_lowercase();
                if w.len() < 3 {
                    false
                } else if conv == b'a' || conv == b'A' {
                    DAYS.iter().any(|n| w.starts_with(n))
                } else {
                    MONTHS.iter().position(|n| w.starts_with(n)).map(|k| mo = k as i64 + 1).is_some()
                }
            }
            b'z' => {
                if s[i..].starts_with('Z') {
                    i += 1;
                    true
                } else {
                    let sign = match b.get(i) {
                        Some(b'+') => 1,
                        Some(b'-') => -1,
                        _ => return fail(),
                    };
                    i += 1;
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b':') {
                        i += 1;
                    }
                    let t: String = s[start..i].chars().filter(|c| *c != ':').collect();
                    match (sign, t.len(), t.parse::<i64>()) {
                        (1 | -1, 4, Ok(v)) => {
                            off = sign * ((v / 100) * 3600 + (v % 100) * 60);
                            true
                        }
                        _ => false,
                    }
                }
            }
            b'Z' => {
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                true
            }
            b'%' => i < b.len() && b[i] == b'%' && {
                i += 1;
                true
            },
            b'n' | b't' => {
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                true
            }
            _ => false,
        };
        if !ok {
            return fail();
        }
    }
    if i != b.len() {
        return fail();
    }
    if let Some(e) = epoch {
        return Ok(e as f64);
    }
    let days = match yday {
        Some(j) => civil_to_days(y, 1, 1) + j - 1,
        None => civil_to_days(y, mo as u32, d as u32),
    };
    Ok((days * 86400 + h * 3600 + mi * 60 + se - off) as f64)
}

fn fromdateiso(s: &str) -> Result<f64, Ctl> {
    let b = s.as_bytes();
    let n = |r: std::ops::Range<usize>| -> Option<i64> { s.get(r)?.parse().ok() };
    let ok = b.len() == 20 && b[4] == b'-' && b[7] == b'-' && b[10] == b'T' && b[13] == b':' && b[16] == b':' && b[19] == b'Z';
    match (ok, n(0..4), n(5..7), n(8..10), n(11..13), n(14..16), n(17..19)) {
        (true, Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(se)) => Ok((civil_to_days(y, mo as u32, d as u32) * 86400 + h * 3600 + mi * 60 + se) as f64),
        _ => err(format!("date \"{}\" does not match format \"%Y-%m-%dT%H:%M:%SZ\"", s)),
    }
}

// ---- natives ----

fn sort_key_pairs(it: &mut Interp, f: &Ast, env: &Rc<Env>, v: &V) -> Result<Vec<(V, V)>, Ctl> {
    let a = match v {
        V::Arr(a) => a.clone(),
        _ => return err(format!("Cannot index {} with number", v.type_name())),
    };
    let mut pairs = Vec::with_capacity(a.len());
    for x in a.iter() {
        let k = V::arr(it.collect(f, env, x)?);
        pairs.push((k, x.clone()));
    }
    pairs.sort_by(|a, b| cmp(&a.0, &b.0));
    Ok(pairs)
}

/// `..`: the value, then every value below it, depth first, with paths.
/// Native because the jq definition costs many stack frames per level and
/// the host's stack bounds how deep nesting may be.
fn recurse_all(it: &mut Interp, cur: Cur, out: Out) -> R {
    out(it, cur.clone())?;
    let child = |k: V| {
        cur.p.as_ref().map(|p| {
            let mut v = (**p).clone();
            v.push(k);
            Rc::new(v)
        })
    };
    match &cur.v {
        V::Arr(a) => {
            for (i, x) in a.iter().enumerate() {
                recurse_all(it, Cur { v: x.clone(), p: child(V::Num(i as f64)) }, out)?;
            }
        }
        V::Obj(o) => {
            for (k, x) in o.iter() {
                recurse_all(it, Cur { v: x.clone(), p: child(V::Str(k.clone())) }, out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// until/while/repeat as loops while the update yields one value (the jq
/// definitions recurse once per step, and the host's stack is small);
/// several values branch by recursion, as in jq.
fn iterate(it: &mut Interp, name: &str, args: &[Rc<Ast>], env: &Rc<Env>, mut v: V, out: Out) -> R {
    loop {
        let upd = if name == "repeat" { &args[0] } else { &args[1] };
        // jq 1.7's repeat: `def repeat(f): def _r: ., (f | _r); _r;`
        if name == "repeat" {
            out(it, Cur::val(v.clone()))?;
        } else {
            let conds = it.collect(&args[0], env, &v)?;
            if conds.len() != 1 {
                for c in conds {
                    step(it, name, args, env, &v, c.truthy(), out)?;
                }
                return Ok(());
            }
            let c = conds[0].truthy();
            match (name, c) {
                ("until", true) => return out(it, Cur::val(v)),
                ("while", false) => return Ok(()),
                ("while", true) => out(it, Cur::val(v.clone()))?,
                _ => {}
            }
        }
        let mut ups = it.collect(upd, env, &v)?;
        if ups.len() != 1 {
            for u in ups {
                iterate(it, name, args, env, u, out)?;
            }
            return Ok(());
        }
        v = ups.pop().unwrap();
    }
}

/// One step of until/while for one of several condition values.
fn step(it: &mut Interp, name: &str, args: &[Rc<Ast>], env: &Rc<Env>, v: &V, c: bool, out: Out) -> R {
    match (name, c) {
        ("until", true) => return out(it, Cur::val(v.clone())),
        ("while", false) => return Ok(()),
        ("while", true) => out(it, Cur::val(v.clone()))?,
        _ => {}
    }
    for u in it.collect(&args[1], env, v)? {
        iterate(it, name, args, env, u, out)?;
    }
    Ok(())
}

/// Evaluates the native `name/arity`; unknown names are compile errors.
pub fn native(it: &mut Interp, name: &str, args: &[Rc<Ast>], env: &Rc<Env>, cur: Cur, out: Out) -> R {
    let v = cur.v.clone();
    let emit = |it: &mut Interp, out: Out, x: V| out(it, Cur::val(x));
    // Path-preserving natives first.
    match (name, args.len()) {
        ("empty", 0) => return Ok(()),
        ("error", 0) => return Err(Ctl::Err(v)),
        ("getpath", 1) => {
            for p in it.collect(&args[0], env, &v)? {
                let pa = match &p {
                    V::Arr(a) => a.clone(),
                    _ => return err("Path must be specified as an array"),
                };
                let r = getpath(&v, &pa).or_else(|_| Ok::<V, Ctl>(V::Null))?;
                let np = cur.p.as_ref().map(|base| {
                    let mut b = (**base).clone();
                    b.extend(pa.iter().cloned());
                    Rc::new(b)
                });
                out(it, Cur { v: r, p: np })?;
            }
            return Ok(());
        }
        ("first", 1) | ("limit", 2) => {
            let (n, f) = if name == "first" { (1.0, &args[0]) } else { (f64::NAN, &args[1]) };
            let ns = if name == "limit" { it.collect(&args[0], env, &v)? } else { vec![V::Num(n)] };
            for nv in ns {
                let n = num(&nv, "limit count must be a number")?;
                if n <= 0.0 {
                    continue;
                }
                let id = it.id();
                let mut count = 0.0;
                let r = it.eval(f, env, cur.clone(), &mut |it2, x| {
                    count += 1.0;
                    out(it2, x)?;
                    if count >= n {
                        Err(Ctl::Break(id))
                    } else {
                        Ok(())
                    }
                });
                match r {
                    Err(Ctl::Break(i)) if i == id => {}
                    r => r?,
                }
            }
            return Ok(());
        }
        ("recurse", 0) => return recurse_all(it, cur, out),
        ("until", 2) | ("while", 2) | ("repeat", 1) => return iterate(it, name, args, env, cur.v, out),
        ("path", 1) => {
            for p in it.paths(&args[0], env, &v)? {
                emit(it, out, p)?;
            }
            return Ok(());
        }
        _ => {}
    }
    // Value natives with their arguments' values (cartesian product).
    let mut argv: Vec<Vec<V>> = Vec::new();
    let lazy = matches!(name, "sort_by" | "group_by" | "_min_by" | "_max_by" | "sub" | "input" | "inputs" | "range" | "debug" | "stderr" | "halt_error" | "min_by" | "max_by");
    if !lazy {
        for a in args {
            argv.push(it.collect(a, env, &v)?);
        }
    }
    let a0 = |i: usize| -> &[V] { &argv[i] };
    macro_rules! each1 {
        (|$x:ident| $body:expr) => {{
            for $x in a0(0).iter() {
                let r: V = $body;
                emit(it, out, r)?;
            }
            return Ok(());
        }};
    }
    macro_rules! each2 {
        (|$x:ident, $y:ident| $body:expr) => {{
            for $y in a0(1).iter() {
                for $x in a0(0).iter() {
                    let r: V = $body;
                    emit(it, out, r)?;
                }
            }
            return Ok(());
        }};
    }
    let math = |f: fn(f64) -> f64| -> Result<V, Ctl> {
        match &v {
            V::Num(n) => Ok(V::Num(f(*n))),
            _ => err(format!("{} number required", v.desc())),
        }
    };
    let r: V = match (name, args.len()) {
        ("length", 0) => length(&v)?,
        ("utf8bytelength", 0) => V::Num(need_str(&v, "only strings have UTF-8 byte length")?.len() as f64),
        ("keys", 0) => keys(&v, true)?,
        ("keys_unsorted", 0) => keys(&v, false)?,
        ("type", 0) => V::str(v.type_name()),
        ("tostring", 0) => V::str(&tostring(&v)),
        ("tojson", 0) => V::str(&dump(&v, &Fmt::compact())),
        ("_fromjson", 0) => {
            let s = need_str(&v, "cannot be parsed as JSON")?;
            parse_one(s).or_else(|e| err(format!("{} (while parsing '{}')", e, s)))?
        }
        ("tonumber", 0) => match &v {
            V::Num(_) => v.clone(),
            // jq 1.6 parses the string as JSON text: its parser's message, then the text.
            V::Str(s) => match super::value::parse_num(s.trim()) {
                Some(n) => V::Num(n),
                None => match parse_one(s) {
                    Ok(V::Num(n)) => V::Num(n),
                    Ok(x) => return err(format!("{} cannot be parsed as a number", x.desc())),
                    Err(e) => return err(format!("{} (while parsing '{}')", e, s)),
                },
            },
            _ => return err(format!("{} cannot be parsed as a number", v.desc())),
        },
        ("ascii_downcase", 0) => V::str(&need_str(&v, "cannot be ascii_downcased")?.to_ascii_lowercase()),
        ("ascii_upcase", 0) => V::str(&need_str(&v, "cannot be ascii_upcased")?.to_ascii_uppercase()),
        ("ltrimstr_ws", 0) => V::str(need_str(&v, "cannot be trimmed")?.trim_start()),
        ("rtrimstr_ws", 0) => V::str(need_str(&v, "cannot be trimmed")?.trim_end()),
        ("explode", 0) => V::arr(need_str(&v, "cannot be exploded")?.chars().map(|c| V::Num(c as u32 as f64)).collect()),
        ("implode", 0) => implode(&v)?,
        ("floor", 0) => math(f64::floor)?,
        ("ceil", 0) => math(f64::ceil)?,
        ("round", 0) => math(f64::round)?,
        ("sqrt", 0) => math(f64::sqrt)?,
        ("fabs", 0) => math(f64::abs)?,
        ("log", 0) => math(f64::ln)?,
        ("log2", 0) => math(f64::log2)?,
        ("log10", 0) => math(f64::log10)?,
        ("exp", 0) => math(f64::exp)?,
        ("exp10", 0) => math(|x| 10f64.powf(x))?,
        ("trunc", 0) => math(f64::trunc)?,
        ("significand", 0) => math(|x| if x == 0.0 { 0.0 } else { x / 2f64.powf(x.abs().log2().floor()) })?,
        ("infinite", 0) => V::Num(f64::INFINITY),
        ("nan", 0) => V::Num(f64::NAN),
        ("isinfinite", 0) => V::Bool(num(&v, "number required")?.is_infinite()),
        ("isnan", 0) => V::Bool(num(&v, "number required")?.is_nan()),
        ("isnormal", 0) => V::Bool(num(&v, "number required")?.is_normal()),
        ("now", 0) => {
            let (s, ns) = crate::fsx::now();
            V::Num(s as f64 + ns as f64 / 1e9)
        }
        ("sort", 0) => match &v {
            V::Arr(a) => {
                let mut b = (**a).clone();
                b.sort_by(cmp);
                V::arr(b)
            }
            _ => return err(format!("{} cannot be sorted, as it is not an array", v.desc())),
        },
        ("reverse", 0) => match &v {
            V::Arr(a) => V::arr(a.iter().rev().cloned().collect()),
            V::Str(s) => V::str(&s.chars().rev().collect::<String>()),
            V::Null => V::arr(vec![]),
            _ => return err(format!("Cannot index {} with number", v.type_name())),
        },
        ("unique", 0) => match &v {
            V::Arr(a) => {
                let mut b = (**a).clone();
                b.sort_by(cmp);
                b.dedup();
                V::arr(b)
            }
            _ => return err(format!("{} cannot be sorted, as it is not an array", v.desc())),
        },
        ("min", 0) | ("max", 0) => match &v {
            V::Arr(a) => {
                let mut best: Option<&V> = None;
                for x in a.iter() {
                    best = match best {
                        None => Some(x),
                        Some(b) => {
                            let c = cmp(x, b);
                            if (name == "min" && c == std::cmp::Ordering::Less) || (name == "max" && c != std::cmp::Ordering::Less) {
                                Some(x)
                            } else {
                                Some(b)
                            }
                        }
                    };
                }
                best.cloned().unwrap_or(V::Null)
            }
            _ => return err(format!("{} cannot be sorted, as it is not an array", v.desc())),
        },
        ("add", 0) => match &v {
            V::Arr(a) => {
                let mut acc = V::Null;
                for x in a.iter() {
                    acc = super::eval::binop("+", &acc, x)?;
                }
                acc
            }
            V::Obj(o) => {
                let mut acc = V::Null;
                for (_, x) in o.iter() {
                    acc = super::eval::binop("+", &acc, x)?;
                }
                acc
            }
            V::Null => V::Null,
            _ => return err(format!("Cannot iterate over {}", v.desc())),
        },
        ("not", 0) => V::Bool(!v.truthy()),
        ("input_filename", 0) => it.filename.borrow().clone(),
        ("builtins", 0) => V::arr(builtin_names().into_iter().map(|n| V::str(&n)).collect()),
        ("halt", 0) => return Err(Ctl::Halt(0)),
        ("todateiso8601", 0) | ("todate", 0) => V::str(&strftime(num(&v, "strftime/1 requires parsed datetime inputs")?, "%Y-%m-%dT%H:%M:%SZ")),
        ("fromdateiso8601", 0) | ("fromdate", 0) => V::Num(fromdateiso(need_str(&v, "cannot be parsed as a date")?)?),
        ("strftime", 1) => each1!(|f| V::str(&strftime(time_of(&v, "strftime/1 requires parsed datetime inputs")?, need_str(f, "is not a string")?))),
        ("gmtime", 0) => broken_down(num(&v, "gmtime() requires a number")?),
        ("mktime", 0) => V::Num(mktime(&v)?.floor()),
        ("strptime", 1) => each1!(|f| broken_down(strptime(need_str(&v, "strptime/1 requires string inputs and arguments")?, need_str(f, "is not a string")?)?)),
        ("has", 1) => each1!(|k| match (&v, k) {
            (V::Obj(_), V::Str(s)) => V::Bool(v.get(s).is_some()),
            (V::Arr(a), V::Num(n)) => V::Bool(*n >= 0.0 && (*n as usize) < a.len()),
            _ => return err(format!("Cannot check whether {} has a {} key", v.type_name(), k.type_name())),
        }),
        ("contains", 1) => each1!(|b| V::Bool(contains(&v, b)?)),
        ("setpath", 2) => each2!(|p, x| match p {
            V::Arr(pa) => setpath(&v, pa, x.clone())?,
            _ => return err("Path must be specified as an array"),
        }),
        ("delpaths", 1) => each1!(|ps| match ps {
            V::Arr(a) => delpaths(&v, a)?,
            _ => return err("Paths must be specified as an array"),
        }),
        ("split", 1) => each1!(|sep| {
            let s = need_str(&v, "cannot be split, as it is not a string")?;
            split_str(s, need_str(sep, "is not a string")?)
        }),
        ("split", 2) => each2!(|re, fl| {
            let s = need_str(&v, "cannot be matched, as it is not a string")?;
            let (r, _) = build_re(re, fl)?;
            V::arr(r.split(s).map(V::str).collect())
        }),
        ("join", 1) => each1!(|sep| {
            let sep = need_str(sep, "is not a string")?;
            let a = match &v {
                V::Arr(a) => a.clone(),
                _ => return err(format!("Cannot iterate over {}", v.desc())),
            };
            let mut s = String::new();
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    s.push_str(sep);
                }
                match x {
                    V::Null => {}
                    V::Str(t) => s.push_str(t),
                    V::Num(_) | V::Bool(_) => s.push_str(&tostring(x)),
                    _ => return err(format!("Cannot join with {}", x.type_name())),
                }
            }
            V::str(&s)
        }),
        ("ltrimstr", 1) => each1!(|p| match (&v, p) {
            (V::Str(s), V::Str(p)) => V::str(s.strip_prefix(&**p).unwrap_or(s)),
            _ => v.clone(),
        }),
        ("rtrimstr", 1) => each1!(|p| match (&v, p) {
            (V::Str(s), V::Str(p)) => V::str(s.strip_suffix(&**p).unwrap_or(s)),
            _ => v.clone(),
        }),
        ("startswith", 1) => each1!(|p| match (&v, p) {
            (V::Str(s), V::Str(p)) => V::Bool(s.starts_with(&**p)),
            _ => return err("startswith() requires string inputs"),
        }),
        ("endswith", 1) => each1!(|p| match (&v, p) {
            (V::Str(s), V::Str(p)) => V::Bool(s.ends_with(&**p)),
            _ => return err("endswith() requires string inputs"),
        }),
        ("indices", 1) => each1!(|x| match (&v, x) {
            (V::Null, _) | (_, V::Null) => V::Null,
            (V::Str(s), V::Str(t)) => {
                if t.is_empty() {
                    V::Null
                } else {
                    let mut out = Vec::new();
                    let mut start = 0;
                    while let Some(i) = s[start..].find(&**t) {
                        out.push(V::Num((start + i) as f64));
                        start += i + 1;
                        while !s.is_char_boundary(start) {
                            start += 1;
                        }
                        if start > s.len() {
                            break;
                        }
                    }
                    V::arr(out)
                }
            }
            (V::Arr(a), V::Arr(b)) => indices_arr(a, b),
            (V::Arr(a), y) => indices_arr(a, &[y.clone()]),
            _ => index(&v, x)?,
        }),
        ("flatten", 1) => each1!(|d| {
            let d = num(d, "flatten depth must not be negative")?;
            if d < 0.0 {
                return err("flatten depth must not be negative");
            }
            let mut o = Vec::new();
            flatten(&v, d, &mut o)?;
            V::arr(o)
        }),
        ("test", 1) | ("test", 2) | ("match", 1) | ("match", 2) => {
            let s = need_str(&v, "cannot be matched, as it is not a string")?.to_string();
            let flags = if args.len() == 2 { argv[1].clone() } else { vec![V::Null] };
            for fl in &flags {
                for re in &argv[0] {
                    let (re, fl) = match (re, args.len()) {
                        (V::Arr(a), 1) => (a.first().cloned().unwrap_or(V::Null), a.get(1).cloned().unwrap_or(V::Null)),
                        _ => (re.clone(), fl.clone()),
                    };
                    let (r, global) = build_re(&re, &fl)?;
                    if name == "test" {
                        emit(it, out, V::Bool(r.is_match(&s)))?;
                    } else {
                        for m in matches(&s, &r, global) {
                            emit(it, out, m)?;
                        }
                    }
                }
            }
            return Ok(());
        }
        ("sub", 3) => {
            let s = need_str(&v, "cannot be matched, as it is not a string")?.to_string();
            for fl in it.collect(&args[2], env, &v)? {
                for re in it.collect(&args[0], env, &v)? {
                    let (r, global) = build_re(&re, &fl)?;
                    let mut res = String::new();
                    let mut last = 0;
                    let names: Vec<Option<String>> = r.capture_names().map(|n| n.map(|s| s.to_string())).collect();
                    for caps in r.captures_iter(&s) {
                        let m = caps.get(0).unwrap();
                        let mut obj = Vec::new();
                        for (i, n) in names.iter().enumerate() {
                            if let Some(n) = n {
                                obj.push((Rc::from(n.as_str()), caps.get(i).map(|g| V::str(g.as_str())).unwrap_or(V::Null)));
                            }
                        }
                        let reps = it.collect(&args[1], env, &V::obj(obj))?;
                        let rep = match reps.first() {
                            Some(V::Str(t)) => t.to_string(),
                            Some(other) => return err(format!("{} cannot be added to a string", other.desc())),
                            None => String::new(),
                        };
                        res.push_str(&s[last..m.start()]);
                        res.push_str(&rep);
                        last = m.end();
                        if !global {
                            break;
                        }
                    }
                    res.push_str(&s[last..]);
                    emit(it, out, V::str(&res))?;
                }
            }
            return Ok(());
        }
        ("range", 2) | ("range", 3) => {
            let froms = it.collect(&args[0], env, &v)?;
            let tos = it.collect(&args[1], env, &v)?;
            let bys = if args.len() == 3 { it.collect(&args[2], env, &v)? } else { vec![V::Num(1.0)] };
            for f in &froms {
                for t in &tos {
                    for by in &bys {
                        let (mut x, t, by) = (num(f, "Range bounds must be numeric")?, num(t, "Range bounds must be numeric")?, num(by, "Range bounds must be numeric")?);
                        if by > 0.0 {
                            while x < t {
                                emit(it, out, V::Num(x))?;
                                x += by;
                            }
                        } else if by < 0.0 {
                            while x > t {
                                emit(it, out, V::Num(x))?;
                                x += by;
                            }
                        }
                    }
                }
            }
            return Ok(());
        }
        ("sort_by", 1) => V::arr(sort_key_pairs(it, &args[0], env, &v)?.into_iter().map(|p| p.1).collect()),
        ("group_by", 1) => {
            let pairs = sort_key_pairs(it, &args[0], env, &v)?;
            let mut groups: Vec<V> = Vec::new();
            let mut cur_key: Option<V> = None;
            let mut cur_g: Vec<V> = Vec::new();
            for (k, x) in pairs {
                if cur_key.as_ref().map_or(false, |c| *c != k) {
                    groups.push(V::arr(std::mem::take(&mut cur_g)));
                }
                cur_key = Some(k);
                cur_g.push(x);
            }
            if cur_key.is_some() {
                groups.push(V::arr(cur_g));
            }
            V::arr(groups)
        }
        ("_min_by", 1) | ("_max_by", 1) => {
            let keys = it.collect(&args[0], env, &v)?;
            let (a, ks) = match (&v, keys.first()) {
                (V::Arr(a), Some(V::Arr(k))) => (a.clone(), k.clone()),
                _ => return err(format!("Cannot index {} with number", v.type_name())),
            };
            let mut best: Option<usize> = None;
            for i in 0..a.len() {
                best = match best {
                    None => Some(i),
                    Some(b) => {
                        let c = cmp(&ks[i], &ks[b]);
                        if (name == "_min_by" && c == std::cmp::Ordering::Less) || (name == "_max_by" && c != std::cmp::Ordering::Less) {
                            Some(i)
                        } else {
                            Some(b)
                        }
                    }
                };
            }
            best.map(|i| a[i].clone()).unwrap_or(V::Null)
        }
        ("input", 0) => match (it.inputs)() {
            Some(Ok(x)) => x,
            Some(Err(e)) => return err(e),
            // jq 1.6's `input` ends with a bare error its main loop prints as "break".
            None => return err("break"),
        },
        ("inputs", 0) => {
            loop {
                match (it.inputs)() {
                    Some(Ok(x)) => emit(it, out, x)?,
                    Some(Err(e)) => return err(e),
                    None => return Ok(()),
                }
            }
        }
        ("debug", 0) => {
            let line = format!("[\"DEBUG:\",{}]\n", dump(&v, &Fmt::compact()));
            it.stderr.extend_from_slice(line.as_bytes());
            v.clone()
        }
        ("stderr", 0) => {
            let s = dump(&v, &Fmt::compact());
            it.stderr.extend_from_slice(s.as_bytes());
            v.clone()
        }
        ("halt_error", 1) => {
            let codes = it.collect(&args[0], env, &v)?;
            let code = match codes.first() {
                Some(V::Num(n)) => *n as i32,
                _ => return err("halt_error/1: number required"),
            };
            let s = match &v {
                V::Str(s) => s.to_string(),
                _ => format!("{}\n", dump(&v, &Fmt::compact())),
            };
            it.stderr.extend_from_slice(s.as_bytes());
            return Err(Ctl::Halt(code));
        }
        ("pow", 2) => each2!(|a, b| V::Num(num(a, "number required")?.powf(num(b, "number required")?))),
        ("atan2", 2) => each2!(|a, b| V::Num(num(a, "number required")?.atan2(num(b, "number required")?))),
        ("min_by", _) | ("max_by", _) | ("sort_by", _) | ("group_by", _) | ("sub", _) | ("range", _) | ("debug", _) | ("stderr", _) | ("halt_error", _) | ("input", _) | ("inputs", _) => {
            return Err(Ctl::Compile(format!("{}/{} is not defined", name, args.len())))
        }
        _ => return Err(Ctl::Compile(format!("{}/{} is not defined", name, args.len()))),
    };
    emit(it, out, r)
}
