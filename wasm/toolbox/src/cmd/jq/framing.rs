//! Input framings other than plain JSON texts: --stream (each text becomes
//! jq's stream events, as `tostream` yields them) and --seq (RFC 7464
//! application/json-seq: texts follow an ASCII RS; as in jq 1.6, text
//! before the first RS, a text an RS cuts short and a number ending the
//! input are dropped with a warning).

use super::value::{Reader, V};
use std::collections::VecDeque;
use std::rc::Rc;

pub const RS: u8 = 0x1e;

/// Appends `v`'s stream events: `[path, leaf]` for every scalar or empty
/// container, and `[path]` (the path of the last child) closing each
/// non-empty container.
pub fn events(v: &V, out: &mut VecDeque<V>) {
    fn walk(path: &mut Vec<V>, v: &V, out: &mut VecDeque<V>) {
        let last = match v {
            V::Arr(a) if !a.is_empty() => {
                for (i, x) in a.iter().enumerate() {
                    path.push(V::Num(i as f64));
                    walk(path, x, out);
                    path.pop();
                }
                V::Num((a.len() - 1) as f64)
            }
            V::Obj(o) if !o.is_empty() => {
                for (k, x) in o.iter() {
                    path.push(V::Str(Rc::clone(k)));
                    walk(path, x, out);
                    path.pop();
                }
                V::Str(Rc::clone(&o[o.len() - 1].0))
            }
            leaf => {
                out.push_back(V::arr(vec![V::arr(path.clone()), leaf.clone()]));
                return;
            }
        };
        let mut closing = path.clone();
        closing.push(last);
        out.push_back(V::arr(vec![V::arr(closing)]));
    }
    walk(&mut Vec::new(), v, out);
}

/// The texts of a json-seq input, and the warnings jq prints for what it drops.
pub fn seq_texts(data: &[u8]) -> (Vec<V>, Vec<String>) {
    let mut texts = Vec::new();
    let mut warnings = Vec::new();
    let mut parts = data.split(|&c| c == RS);
    let before = parts.next().unwrap_or(&[]);
    let parts: Vec<&[u8]> = parts.collect();
    if parts.is_empty() && before.iter().any(|c| !c.is_ascii_whitespace()) {
        warnings.push("ignoring parse error: Unfinished abandoned text at EOF".to_string());
    }
    for (n, part) in parts.iter().enumerate() {
        let at_eof = n + 1 == parts.len();
        let mut r = Reader::new(part);
        while let Some(x) = r.next() {
            match x {
                Ok(V::Num(_)) if at_eof && r.pos == part.len() && part.last().map_or(false, |c| !c.is_ascii_whitespace()) => {
                    warnings.push("ignoring parse error: Potentially truncated top-level numeric value at EOF".to_string());
                }
                Ok(v) => texts.push(v),
                Err(_) => {
                    warnings.push("ignoring parse error: Truncated value".to_string());
                    break;
                }
            }
        }
    }
    (texts, warnings)
}
