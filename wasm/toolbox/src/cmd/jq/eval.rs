//! The jq evaluator. Filters are generators, run in continuation-passing
//! style: each output is handed to a callback, so `limit`, `first` and
//! `label/break` can stop a generator early and nothing is materialised
//! unless jq itself collects (`[...]`, `reduce`). Every value may carry the
//! path it was reached by; that is how `path()`, assignments and `del` work.

use super::parse::{Ast, FnDef, Pat, StrPart};
use super::value::{cmp, dump, obj_set, Fmt, V};
use std::cmp::Ordering;
use std::rc::Rc;

pub type Path = Rc<Vec<V>>;

#[derive(Clone)]
pub struct Cur {
    pub v: V,
    /// Some when the value was reached by a path from the root of a
    /// path expression; None for computed values.
    pub p: Option<Path>,
}

impl Cur {
    pub fn val(v: V) -> Cur {
        Cur { v, p: None }
    }
}

pub enum Ctl {
    /// A jq error carrying its value (usually a message string).
    Err(V),
    /// Stops the generator started under the label/limit with this id.
    Break(usize),
    /// An error raised downstream of a `try`, passing through it.
    Pass(usize, Box<Ctl>),
    /// Unknown function or variable: jq reports these at compile time.
    Compile(String),
    Halt(i32),
}

pub type R = Result<(), Ctl>;

/// A filter's outputs gathered in order; zero or one output (the common
/// case for conditions, operands and keys) needs no vector allocation.
pub enum Outs {
    Zero,
    One(V),
    Many(Vec<V>),
}

impl Outs {
    fn push(&mut self, x: V) {
        *self = match std::mem::replace(self, Outs::Zero) {
            Outs::Zero => Outs::One(x),
            Outs::One(a) => Outs::Many(vec![a, x]),
            Outs::Many(mut v) => {
                v.push(x);
                Outs::Many(v)
            }
        };
    }
    pub fn as_slice(&self) -> &[V] {
        match self {
            Outs::Zero => &[],
            Outs::One(x) => std::slice::from_ref(x),
            Outs::Many(v) => v,
        }
    }
}

pub fn err<T>(msg: impl Into<String>) -> Result<T, Ctl> {
    Err(Ctl::Err(V::str(&msg.into())))
}

pub enum Env {
    Nil,
    Var(String, V, Rc<Env>),
    Func(Rc<FnDef>, Rc<Env>),
    /// A filter argument: its body runs in the caller's environment.
    Param(Rc<str>, Rc<Ast>, Rc<Env>, Rc<Env>),
    Label(String, usize, Rc<Env>),
}

impl Env {
    fn parent(&self) -> Option<&Rc<Env>> {
        match self {
            Env::Nil => None,
            Env::Var(_, _, p) | Env::Func(_, p) | Env::Param(_, _, _, p) | Env::Label(_, _, p) => Some(p),
        }
    }
}

pub type Out<'a> = &'a mut dyn FnMut(&mut Interp, Cur) -> R;

/// Where `call` found recent functions (a def's frame, or None for a
/// native) that took a long walk up the
/// environment (user code calling a prelude def walks ~80 frames, once per
/// input item in `.[] | select(f)`). An environment chain never changes, so
/// (calling env, name, arity) always resolves to the same frame; each slot
/// holds its calling env, so that env's address cannot be reused meanwhile.
struct CallCache {
    slots: Vec<Option<(Rc<Env>, String, usize, Option<Rc<Env>>)>>,
}

const CALL_SLOTS: usize = 16;
/// Lookups found within this many frames are cheaper than a cache probe.
const CALL_CACHE_HOPS: usize = 8;

impl CallCache {
    fn slot(env: &Rc<Env>, name: &str, arity: usize) -> usize {
        let b = name.as_bytes();
        ((Rc::as_ptr(env) as usize >> 3) ^ b.len().wrapping_mul(31) ^ b.first().map_or(0, |c| *c as usize) ^ arity.wrapping_mul(7)) % CALL_SLOTS
    }
    fn find(&self, env: &Rc<Env>, name: &str, arity: usize) -> Option<Option<Rc<Env>>> {
        match self.slots.get(Self::slot(env, name, arity)) {
            Some(Some((e, n, a, found))) if Rc::ptr_eq(e, env) && *a == arity && n == name => Some(found.clone()),
            _ => None,
        }
    }
    fn put(&mut self, env: &Rc<Env>, name: &str, arity: usize, found: Option<Rc<Env>>) {
        if self.slots.is_empty() {
            self.slots = vec![None; CALL_SLOTS];
        }
        self.slots[Self::slot(env, name, arity)] = Some((env.clone(), name.to_string(), arity, found));
    }
}

pub struct Interp<'a> {
    next_id: usize,
    calls: CallCache,
    /// Inputs not yet consumed, for `input`/`inputs`.
    pub inputs: Box<dyn FnMut() -> Option<Result<V, String>> + 'a>,
    pub env_obj: V,
    pub named_args: V,
    pub positional: V,
    pub stderr: Vec<u8>,
    /// The file the last input came from (`input_filename`; null before any input).
    pub filename: Rc<std::cell::RefCell<V>>,
}

fn index_err(t: &V, k: &V) -> Ctl {
    let ks = match k {
        V::Str(s) => format!("string \"{}\"", s),
        _ => k.type_name().to_string(),
    };
    Ctl::Err(V::str(&format!("Cannot index {} with {}", t.type_name(), ks)))
}

/// `.[k]` on a value.
pub fn index(t: &V, k: &V) -> Result<V, Ctl> {
    match (t, k) {
        (V::Null, V::Str(_)) | (V::Null, V::Num(_)) | (V::Null, V::Null) => Ok(V::Null),
        (V::Obj(_), V::Str(s)) => Ok(t.get(s).cloned().unwrap_or(V::Null)),
        (V::Arr(a), V::Num(n)) => {
            if n.is_nan() {
                return Ok(V::Null);
            }
            let i = n.floor() as i64;
            let i = if i < 0 { i + a.len() as i64 } else { i };
            Ok(if i < 0 { V::Null } else { a.get(i as usize).cloned().unwrap_or(V::Null) })
        }
        (V::Arr(a), V::Arr(b)) => Ok(indices_arr(a, b)),
        (_, V::Obj(o)) if matches!(t, V::Arr(_) | V::Str(_) | V::Null) => {
            let s = o.iter().find(|(k, _)| &**k == "start").map(|(_, v)| v.clone()).unwrap_or(V::Null);
            let e = o.iter().find(|(k, _)| &**k == "end").map(|(_, v)| v.clone()).unwrap_or(V::Null);
            slice(t, &s, &e)
        }
        _ => Err(index_err(t, k)),
    }
}

pub fn indices_arr(a: &[V], b: &[V]) -> V {
    if b.is_empty() {
        return V::Null;
    }
    let mut out = Vec::new();
    if a.len() >= b.len() {
        for i in 0..=a.len() - b.len() {
            if a[i..i + b.len()] == *b {
                out.push(V::Num(i as f64));
            }
        }
    }
    V::arr(out)
}

fn clamp_range(len: usize, s: &V, e: &V) -> Result<(usize, usize), Ctl> {
    let idx = |v: &V, dflt: f64| -> Result<usize, Ctl> {
        let n = match v {
            V::Null => dflt,
            V::Num(n) => n.floor(),
            _ => return err("Start and end indices of an array slice must be numbers"),
        };
        let n = if n < 0.0 { len as f64 + n } else { n };
        Ok(n.max(0.0).min(len as f64) as usize)
    };
    let a = idx(s, 0.0)?;
    let b = idx(e, len as f64)?;
    Ok((a, b.max(a)))
}

pub fn slice(t: &V, s: &V, e: &V) -> Result<V, Ctl> {
    match t {
        V::Null => Ok(V::Null),
        V::Arr(a) => {
            let (x, y) = clamp_range(a.len(), s, e)?;
            Ok(V::arr(a[x..y].to_vec()))
        }
        V::Str(st) => {
            let cs: Vec<char> = st.chars().collect();
            let (x, y) = clamp_range(cs.len(), s, e)?;
            Ok(V::str(&cs[x..y].iter().collect::<String>()))
        }
        _ => Err(Ctl::Err(V::str(&format!("Cannot index {} with object", t.type_name())))),
    }
}

pub fn getpath(v: &V, p: &[V]) -> Result<V, Ctl> {
    let mut cur = v.clone();
    for k in p {
        if matches!(cur, V::Null) {
            return Ok(V::Null);
        }
        cur = index(&cur, k)?;
    }
    Ok(cur)
}

pub fn setpath(v: &V, p: &[V], new: V) -> Result<V, Ctl> {
    let k = match p.first() {
        None => return Ok(new),
        Some(k) => k,
    };
    match (v, k) {
        (V::Obj(_), V::Str(s)) | (V::Null, V::Str(s)) => {
            let child = v.get(s).cloned().unwrap_or(V::Null);
            let nv = setpath(&child, &p[1..], new)?;
            let mut o = match v {
                V::Obj(o) => (**o).clone(),
                _ => Vec::new(),
            };
            obj_set(&mut o, s.clone(), nv);
            Ok(V::obj(o))
        }
        (V::Arr(_), V::Num(n)) | (V::Null, V::Num(n)) => {
            let mut a = match v {
                V::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            let mut i = n.floor() as i64;
            if i < 0 {
                i += a.len() as i64;
                if i < 0 {
                    return err("Out of bounds negative array index");
                }
            }
            let i = i as usize;
            if i > 100_000_000 {
                return err("Array index too large");
            }
            let child = a.get(i).cloned().unwrap_or(V::Null);
            let nv = setpath(&child, &p[1..], new)?;
            if i >= a.len() {
                a.resize(i + 1, V::Null);
            }
            a[i] = nv;
            Ok(V::arr(a))
        }
        (V::Arr(_), V::Obj(o)) | (V::Null, V::Obj(o)) => {
            let a: Vec<V> = match v {
                V::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            let s = o.iter().find(|(k, _)| &**k == "start").map(|(_, v)| v.clone()).unwrap_or(V::Null);
            let e = o.iter().find(|(k, _)| &**k == "end").map(|(_, v)| v.clone()).unwrap_or(V::Null);
            let (x, y) = clamp_range(a.len(), &s, &e)?;
            let cur = V::arr(a[x..y].to_vec());
            let nv = setpath(&cur, &p[1..], new)?;
            match nv {
                V::Arr(ins) => {
                    let mut out = a[..x].to_vec();
                    out.extend(ins.iter().cloned());
                    out.extend_from_slice(&a[y..]);
                    Ok(V::arr(out))
                }
                _ => err("A slice of an array can only be assigned another array"),
            }
        }
        _ => Err(index_err(v, k)),
    }
}

fn delpath(v: &V, p: &[V]) -> Result<V, Ctl> {
    if p.is_empty() {
        return Ok(V::Null);
    }
    if matches!(v, V::Null) {
        return Ok(V::Null);
    }
    if p.len() > 1 {
        let child = index(v, &p[0])?;
        if matches!(child, V::Null) {
            return Ok(v.clone());
        }
        let nc = delpath(&child, &p[1..])?;
        return setpath(v, &p[..1], nc);
    }
    match (v, &p[0]) {
        (V::Obj(o), V::Str(s)) => Ok(V::obj(o.iter().filter(|(k, _)| k != s).cloned().collect())),
        (V::Arr(a), V::Num(n)) => {
            let mut i = n.floor() as i64;
            if i < 0 {
                i += a.len() as i64;
                if i < 0 {
                    return err("Out of bounds negative array index");
                }
            }
            let mut a = (**a).clone();
            if (i as usize) < a.len() {
                a.remove(i as usize);
            }
            Ok(V::arr(a))
        }
        (V::Arr(a), V::Obj(o)) => {
            let s = o.iter().find(|(k, _)| &**k == "start").map(|(_, v)| v.clone()).unwrap_or(V::Null);
            let e = o.iter().find(|(k, _)| &**k == "end").map(|(_, v)| v.clone()).unwrap_or(V::Null);
            let (x, y) = clamp_range(a.len(), &s, &e)?;
            let mut out = a[..x].to_vec();
            out.extend_from_slice(&a[y..]);
            Ok(V::arr(out))
        }
        (t, k) => Err(Ctl::Err(V::str(&format!("Cannot delete field at {} index of {}", k.type_name(), t.type_name())))),
    }
}

pub fn delpaths(v: &V, paths: &[V]) -> Result<V, Ctl> {
    let mut ps: Vec<V> = paths.to_vec();
    ps.sort_by(cmp);
    let mut cur = v.clone();
    for p in ps.iter().rev() {
        match p {
            V::Arr(a) => cur = delpath(&cur, a)?,
            _ => return err("Path must be specified as an array"),
        }
    }
    Ok(cur)
}

pub fn binop(op: &str, l: &V, r: &V) -> Result<V, Ctl> {
    use V::*;
    let fail = |what: &str| Err(Ctl::Err(V::str(&format!("{} and {} cannot be {}", l.desc(), r.desc(), what))));
    match op {
        "+" => match (l, r) {
            (Null, x) | (x, Null) => Ok(x.clone()),
            (Num(a), Num(b)) => Ok(Num(a + b)),
            (Str(a), Str(b)) => Ok(V::str(&format!("{}{}", a, b))),
            (Arr(a), Arr(b)) => {
                let mut v = (**a).clone();
                v.extend(b.iter().cloned());
                Ok(V::arr(v))
            }
            (Obj(a), Obj(b)) => {
                let mut o = (**a).clone();
                for (k, v) in b.iter() {
                    obj_set(&mut o, k.clone(), v.clone());
                }
                Ok(V::obj(o))
            }
            _ => fail("added"),
        },
        "-" => match (l, r) {
            (Num(a), Num(b)) => Ok(Num(a - b)),
            (Arr(a), Arr(b)) => Ok(V::arr(a.iter().filter(|x| !b.contains(x)).cloned().collect())),
            _ => fail("subtracted"),
        },
        "*" => match (l, r) {
            (Num(a), Num(b)) => Ok(Num(a * b)),
            (Str(s), Num(n)) | (Num(n), Str(s)) => {
                if *n <= 0.0 {
                    Ok(Null)
                } else {
                    let times = if *n < 1.0 { 1 } else { *n as usize };
                    Ok(V::str(&s.repeat(times)))
                }
            }
            (Obj(_), Obj(_)) => Ok(deep_merge(l, r)),
            _ => fail("multiplied"),
        },
        "/" => match (l, r) {
            (Num(_), Num(b)) if *b == 0.0 => Err(Ctl::Err(V::str(&format!("{} and {} cannot be divided because the divisor is zero", l.desc(), r.desc())))),
            (Num(a), Num(b)) => Ok(Num(a / b)),
            (Str(a), Str(b)) => Ok(split_str(a, b)),
            _ => fail("divided"),
        },
        "%" => match (l, r) {
            (Num(a), Num(b)) => {
                let (a, b) = (*a as i64, *b as i64);
                if b == 0 {
                    return Err(Ctl::Err(V::str(&format!("{} and {} cannot be divided because the divisor is zero", l.desc(), r.desc()))));
                }
                Ok(Num((a.wrapping_abs() % b.wrapping_abs()) as f64 * if a < 0 { -1.0 } else { 1.0 }))
            }
            _ => fail("divided"),
        },
        _ => {
            let c = cmp(l, r);
            Ok(Bool(match op {
                "==" => c == Ordering::Equal,
                "!=" => c != Ordering::Equal,
                "<" => c == Ordering::Less,
                "<=" => c != Ordering::Greater,
                ">" => c == Ordering::Greater,
                _ => c != Ordering::Less,
            }))
        }
    }
}

pub fn split_str(a: &str, sep: &str) -> V {
    if a.is_empty() {
        return V::arr(vec![]);
    }
    if sep.is_empty() {
        return V::arr(a.chars().map(|c| V::str(&c.to_string())).collect());
    }
    V::arr(a.split(sep).map(V::str).collect())
}

fn deep_merge(a: &V, b: &V) -> V {
    match (a, b) {
        (V::Obj(x), V::Obj(y)) => {
            let mut o = (**x).clone();
            for (k, v) in y.iter() {
                let nv = match o.iter().find(|(kk, _)| kk == k) {
                    Some((_, old)) if matches!(old, V::Obj(_)) && matches!(v, V::Obj(_)) => deep_merge(old, v),
                    _ => v.clone(),
                };
                obj_set(&mut o, k.clone(), nv);
            }
            V::obj(o)
        }
        _ => b.clone(),
    }
}

/// tostring: strings as they are, everything else as compact JSON.
pub fn tostring(v: &V) -> String {
    match v {
        V::Str(s) => s.to_string(),
        _ => dump(v, &Fmt::compact()),
    }
}

fn with_path(p: &Option<Path>, k: V) -> Option<Path> {
    p.as_ref().map(|p| {
        let mut v = (**p).clone();
        v.push(k);
        Rc::new(v)
    })
}

impl<'a> Interp<'a> {
    pub fn new(inputs: Box<dyn FnMut() -> Option<Result<V, String>> + 'a>) -> Interp<'a> {
        Interp { next_id: 0, calls: CallCache { slots: Vec::new() }, inputs, env_obj: V::Null, named_args: V::Null, positional: V::arr(vec![]), stderr: Vec::new(), filename: Rc::new(std::cell::RefCell::new(V::Null)) }
    }

    pub fn id(&mut self) -> usize {
        self.next_id += 1;
        self.next_id
    }

    /// Runs `f` on `cur` in value mode and collects its outputs.
    pub fn collect(&mut self, f: &Ast, env: &Rc<Env>, v: &V) -> Result<Vec<V>, Ctl> {
        let mut out = Vec::new();
        self.eval(f, env, Cur::val(v.clone()), &mut |_, x| {
            out.push(x.v);
            Ok(())
        })?;
        Ok(out)
    }

    /// Like `collect`, without allocating for zero or one output.
    pub fn outs(&mut self, f: &Ast, env: &Rc<Env>, v: &V) -> Result<Outs, Ctl> {
        if let Ast::Lit(x) = f {
            return Ok(Outs::One(x.clone()));
        }
        let mut out = Outs::Zero;
        self.eval(f, env, Cur::val(v.clone()), &mut |_, x| {
            out.push(x.v);
            Ok(())
        })?;
        Ok(out)
    }

    /// All paths `f` produces from `v`; a computed value is an error.
    pub fn paths(&mut self, f: &Ast, env: &Rc<Env>, v: &V) -> Result<Vec<V>, Ctl> {
        let mut out = Vec::new();
        self.eval(f, env, Cur { v: v.clone(), p: Some(Rc::new(vec![])) }, &mut |_, x| match x.p {
            Some(p) => {
                out.push(V::arr((*p).clone()));
                Ok(())
            }
            None => err(format!("Invalid path expression with result {}", super::value::trunc(&dump(&x.v, &Fmt::compact())))),
        })?;
        Ok(out)
    }

    /// Binds a destructuring pattern, calling `k` with the extended env.
    fn bind(&mut self, pat: &Pat, v: &V, env: &Rc<Env>, k: &mut dyn FnMut(&mut Interp, Rc<Env>) -> R) -> R {
        match pat {
            Pat::Var(n) => k(self, Rc::new(Env::Var(n.clone(), v.clone(), env.clone()))),
            Pat::Arr(ps) => {
                if !matches!(v, V::Arr(_) | V::Null) {
                    return err(format!("Cannot index {} with number", v.type_name()));
                }
                self.bind_seq(ps, 0, v, env, k)
            }
            Pat::Obj(ps) => self.bind_obj(ps, 0, v, env, k),
        }
    }

    fn bind_seq(&mut self, ps: &[Pat], i: usize, v: &V, env: &Rc<Env>, k: &mut dyn FnMut(&mut Interp, Rc<Env>) -> R) -> R {
        if i == ps.len() {
            return k(self, env.clone());
        }
        let item = index(v, &V::Num(i as f64))?;
        self.bind(&ps[i], &item, env, &mut |it, e| it.bind_seq(ps, i + 1, v, &e, k))
    }

    fn bind_obj(&mut self, ps: &[(Ast, Option<Pat>)], i: usize, v: &V, env: &Rc<Env>, k: &mut dyn FnMut(&mut Interp, Rc<Env>) -> R) -> R {
        if i == ps.len() {
            return k(self, env.clone());
        }
        let (key, sub) = &ps[i];
        let env0 = env.clone();
        self.eval(key, env, Cur::val(v.clone()), &mut |it, kv| {
            if !matches!(kv.v, V::Str(_)) {
                return err(format!("Cannot index {} with {}", v.type_name(), kv.v.type_name()));
            }
            let item = index(v, &kv.v)?;
            match sub {
                Some(p) => it.bind(p, &item, &env0, &mut |it2, e| it2.bind_obj(ps, i + 1, v, &e, k)),
                None => it.bind_obj(ps, i + 1, v, &env0, k),
            }
        })
    }

    pub fn eval(&mut self, ast: &Ast, env: &Rc<Env>, cur: Cur, out: Out) -> R {
        match ast {
            Ast::Identity => out(self, cur),
            Ast::Lit(v) => out(self, Cur::val(v.clone())),
            Ast::Index(t, k) => {
                // Keys are collected first: running one generator inside another's
                // callback would make the stack grow with the work done, not the nesting.
                let keys = self.outs(k, env, &cur.v)?;
                self.eval(t, env, cur, &mut |it, tv| {
                    for kv in keys.as_slice() {
                        let r = index(&tv.v, kv)?;
                        out(it, Cur { v: r, p: with_path(&tv.p, kv.clone()) })?;
                    }
                    Ok(())
                })
            }
            Ast::Slice(t, s, e) => {
                let base = cur.v.clone();
                self.eval(t, env, cur, &mut |it, tv| {
                    let ss = match s {
                        Some(s) => it.collect(s, env, &base)?,
                        None => vec![V::Null],
                    };
                    let es = match e {
                        Some(e) => it.collect(e, env, &base)?,
                        None => vec![V::Null],
                    };
                    for ev in &es {
                        for sv in &ss {
                            let r = slice(&tv.v, sv, ev)?;
                            let key = V::obj(vec![(Rc::from("start"), sv.clone()), (Rc::from("end"), ev.clone())]);
                            out(it, Cur { v: r, p: with_path(&tv.p, key) })?;
                        }
                    }
                    Ok(())
                })
            }
            Ast::Iter(t) => self.eval(t, env, cur, &mut |it, tv| match &tv.v {
                V::Arr(a) => {
                    for (i, x) in a.iter().enumerate() {
                        out(it, Cur { v: x.clone(), p: with_path(&tv.p, V::Num(i as f64)) })?;
                    }
                    Ok(())
                }
                V::Obj(o) => {
                    for (k, x) in o.iter() {
                        out(it, Cur { v: x.clone(), p: with_path(&tv.p, V::Str(k.clone())) })?;
                    }
                    Ok(())
                }
                V::Null => err("Cannot iterate over null"),
                v => err(format!("Cannot iterate over {}", v.desc())),
            }),
            Ast::Str(fmt, parts) => self.interp(fmt.as_deref(), parts, 0, String::new(), env, &cur.v, out),
            Ast::Format(f) => {
                let s = super::builtins::format(f, &cur.v)?;
                out(self, Cur::val(V::str(&s)))
            }
            Ast::Array(body) => {
                let items = match body {
                    Some(b) => self.collect(b, env, &cur.v)?,
                    None => vec![],
                };
                out(self, Cur::val(V::arr(items)))
            }
            Ast::Object(entries) => self.object(entries, 0, Vec::new(), env, &cur.v, out),
            Ast::Neg(a) => self.eval(a, env, Cur::val(cur.v), &mut |it, x| match x.v {
                V::Num(n) => out(it, Cur::val(V::Num(-n))),
                v => err(format!("{} cannot be negated", v.desc())),
            }),
            Ast::Pipe(a, b) => self.eval(a, env, cur, &mut |it, x| it.eval(b, env, x, out)),
            Ast::Comma(a, b) => {
                self.eval(a, env, cur.clone(), out)?;
                self.eval(b, env, cur, out)
            }
            Ast::Bin(op, a, b) => {
                let rs = self.outs(b, env, &cur.v)?;
                for r in rs.as_slice() {
                    for l in self.outs(a, env, &cur.v)?.as_slice() {
                        let res = binop(op, l, r)?;
                        out(self, Cur::val(res))?;
                    }
                }
                Ok(())
            }
            Ast::And(a, b) | Ast::Or(a, b) => {
                let is_and = matches!(ast, Ast::And(..));
                for l in self.collect(a, env, &cur.v)? {
                    if l.truthy() != is_and {
                        out(self, Cur::val(V::Bool(!is_and)))?;
                        continue;
                    }
                    for r in self.collect(b, env, &cur.v)? {
                        out(self, Cur::val(V::Bool(r.truthy())))?;
                    }
                }
                Ok(())
            }
            Ast::Alt(a, b) => {
                let mut any = false;
                let id = self.id();
                let r = self.eval(a, env, cur.clone(), &mut |it, x| {
                    if x.v.truthy() {
                        any = true;
                        out(it, x).map_err(|e| Ctl::Pass(id, Box::new(e)))
                    } else {
                        Ok(())
                    }
                });
                match r {
                    Ok(()) | Err(Ctl::Err(_)) => {}
                    Err(Ctl::Pass(i, e)) if i == id => return Err(*e),
                    Err(e) => return Err(e),
                }
                if any {
                    Ok(())
                } else {
                    self.eval(b, env, cur, out)
                }
            }
            Ast::If(arms, els) => self.if_arm(arms, 0, els.as_deref(), env, cur, out),
            Ast::Try(body, catch) => {
                let id = self.id();
                let r = self.eval(body, env, cur, &mut |it, x| out(it, x).map_err(|e| Ctl::Pass(id, Box::new(e))));
                match r {
                    Ok(()) => Ok(()),
                    Err(Ctl::Pass(i, e)) if i == id => Err(*e),
                    Err(Ctl::Err(v)) => match catch {
                        // `error(null)` is caught as null by jq 1.6.
                        Some(c) => self.eval(c, env, Cur::val(v), out),
                        None => Ok(()),
                    },
                    Err(e) => Err(e),
                }
            }
            Ast::Reduce(src, pat, init, upd) => {
                let v = cur.v;
                self.eval(init, env, Cur::val(v.clone()), &mut |it, init_v| {
                    let mut acc = Some(init_v.v);
                    it.eval(src, env, Cur::val(v.clone()), &mut |it2, x| {
                        let state = acc.take().unwrap_or(V::Null);
                        let mut last = None;
                        it2.bind(pat, &x.v, env, &mut |it3, e| {
                            it3.eval(upd, &e, Cur::val(state.clone()), &mut |_, u| {
                                last = Some(u.v);
                                Ok(())
                            })
                        })?;
                        acc = last;
                        Ok(())
                    })?;
                    out(it, Cur::val(acc.take().unwrap_or(V::Null)))
                })
            }
            Ast::Foreach(src, pat, init, upd, ext) => {
                let v = cur.v;
                self.eval(init, env, Cur::val(v.clone()), &mut |it, init_v| {
                    let mut acc = init_v.v;
                    it.eval(src, env, Cur::val(v.clone()), &mut |it2, x| {
                        it2.bind(pat, &x.v, env, &mut |it3, e| {
                            let state = acc.clone();
                            it3.eval(upd, &e, Cur::val(state), &mut |it4, u| {
                                acc = u.v.clone();
                                match ext {
                                    Some(ex) => it4.eval(ex, &e, u, out),
                                    None => out(it4, u),
                                }
                            })
                        })
                    })
                })
            }
            Ast::Def(d, rest) => {
                let e = Rc::new(Env::Func(d.clone(), env.clone()));
                self.eval(rest, &e, cur, out)
            }
            Ast::Var(name) => {
                let mut e = env;
                loop {
                    match &**e {
                        Env::Var(n, v, _) if n == name => return out(self, Cur::val(v.clone())),
                        Env::Nil => break,
                        other => e = other.parent().unwrap(),
                    }
                }
                match name.as_str() {
                    "ENV" => {
                        let v = self.env_obj.clone();
                        out(self, Cur::val(v))
                    }
                    "__prog_args" | "ARGS" => {
                        let v = V::obj(vec![(Rc::from("positional"), self.positional.clone()), (Rc::from("named"), self.named_args.clone())]);
                        out(self, Cur::val(v))
                    }
                    "__loc__" => out(self, Cur::val(V::obj(vec![(Rc::from("file"), V::str("<top-level>")), (Rc::from("line"), V::Num(1.0))]))),
                    _ => Err(Ctl::Compile(format!("${} is not defined", name))),
                }
            }
            Ast::As(src, pat, body) => {
                let v = cur.v.clone();
                self.eval(src, env, Cur::val(v), &mut |it, x| it.bind(pat, &x.v, env, &mut |it2, e| it2.eval(body, &e, cur.clone(), out)))
            }
            Ast::Label(name, body) => {
                let id = self.id();
                let e = Rc::new(Env::Label(name.clone(), id, env.clone()));
                match self.eval(body, &e, cur, out) {
                    Err(Ctl::Break(i)) if i == id => Ok(()),
                    r => r,
                }
            }
            Ast::Break(name) => {
                let mut e = env;
                loop {
                    match &**e {
                        Env::Label(n, id, _) if n == name => return Err(Ctl::Break(*id)),
                        Env::Nil => return Err(Ctl::Compile(format!("$*label-{} is not defined", name))),
                        other => e = other.parent().unwrap(),
                    }
                }
            }
            Ast::Assign(op, lhs, rhs) => self.assign(op, lhs, rhs, env, cur, out),
            Ast::Call(name, args) => self.call(name, args, env, cur, out),
        }
    }

    fn if_arm(&mut self, arms: &[(Ast, Ast)], i: usize, els: Option<&Ast>, env: &Rc<Env>, cur: Cur, out: Out) -> R {
        if i == arms.len() {
            return match els {
                Some(e) => self.eval(e, env, cur, out),
                None => out(self, cur),
            };
        }
        let (c, t) = &arms[i];
        for cv in self.outs(c, env, &cur.v)?.as_slice() {
            if cv.truthy() {
                self.eval(t, env, cur.clone(), out)?;
            } else {
                self.if_arm(arms, i + 1, els, env, cur.clone(), out)?;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn interp(&mut self, fmt: Option<&str>, parts: &[StrPart], i: usize, acc: String, env: &Rc<Env>, v: &V, out: Out) -> R {
        if i == parts.len() {
            return out(self, Cur::val(V::str(&acc)));
        }
        match &parts[i] {
            StrPart::Lit(s) => {
                let a = acc + s;
                self.interp(fmt, parts, i + 1, a, env, v, out)
            }
            StrPart::Interp(e) => {
                for x in self.collect(e, env, v)? {
                    let s = match fmt {
                        Some(f) => super::builtins::format(f, &x)?,
                        None => tostring(&x),
                    };
                    self.interp(fmt, parts, i + 1, format!("{}{}", acc, s), env, v, out)?;
                }
                Ok(())
            }
        }
    }

    fn object(&mut self, entries: &[(Ast, Option<Ast>)], i: usize, mut acc: Vec<(Rc<str>, V)>, env: &Rc<Env>, v: &V, out: Out) -> R {
        if i == entries.len() {
            return out(self, Cur::val(V::obj(acc)));
        }
        let (k, val) = &entries[i];
        let ks = self.outs(k, env, v)?;
        for kv in ks.as_slice() {
            let key: Rc<str> = match kv {
                V::Str(s) => s.clone(),
                other => return err(format!("Object keys must be strings, not {}", other.type_name())),
            };
            let vals = match val {
                Some(e) => self.outs(e, env, v)?,
                None => Outs::One(index(v, kv)?),
            };
            // One key and one value: the only object built from `acc`, so
            // it can be extended in place instead of copied.
            if let (1, Outs::One(x)) = (ks.as_slice().len(), &vals) {
                obj_set(&mut acc, key, x.clone());
                return self.object(entries, i + 1, acc, env, v, out);
            }
            for x in vals.as_slice().iter().cloned() {
                let mut a = acc.clone();
                obj_set(&mut a, key.clone(), x);
                self.object(entries, i + 1, a, env, v, out)?;
            }
        }
        Ok(())
    }

    fn assign(&mut self, op: &str, lhs: &Ast, rhs: &Ast, env: &Rc<Env>, cur: Cur, out: Out) -> R {
        let root = cur.v.clone();
        let paths = self.paths(lhs, env, &root)?;
        if op == "|=" {
            let mut v = root;
            for p in &paths {
                let pa = match p {
                    V::Arr(a) => a.clone(),
                    _ => unreachable!(),
                };
                let old = getpath(&v, &pa)?;
                let mut first = None;
                let id = self.id();
                let r = self.eval(rhs, env, Cur::val(old), &mut |_, x| {
                    first = Some(x.v);
                    Err(Ctl::Break(id))
                });
                match r {
                    Ok(()) => {}
                    Err(Ctl::Break(i)) if i == id => {}
                    Err(e) => return Err(e),
                }
                v = match first {
                    Some(n) => setpath(&v, &pa, n)?,
                    None => delpaths(&v, &[p.clone()])?,
                };
            }
            return out(self, Cur::val(v));
        }
        self.eval(rhs, env, Cur::val(root.clone()), &mut |it, rv| {
            let mut v = root.clone();
            for p in &paths {
                let pa = match p {
                    V::Arr(a) => a.clone(),
                    _ => unreachable!(),
                };
                let nv = match op {
                    "=" => rv.v.clone(),
                    "//=" => {
                        let old = getpath(&v, &pa)?;
                        if old.truthy() {
                            old
                        } else {
                            rv.v.clone()
                        }
                    }
                    _ => binop(&op[..op.len() - 1], &getpath(&v, &pa)?, &rv.v)?,
                };
                v = setpath(&v, &pa, nv)?;
            }
            out(it, Cur::val(v))
        })
    }

    fn call(&mut self, name: &str, args: &[Rc<Ast>], env: &Rc<Env>, cur: Cur, out: Out) -> R {
        match self.calls.find(env, name, args.len()) {
            Some(Some(fenv)) => {
                if let Env::Func(d, _) = &*fenv {
                    let d = d.clone();
                    return self.call_def(&d, 0, fenv, args, env, cur, out);
                }
            }
            Some(None) => return super::builtins::native(self, name, args, env, cur, out),
            None => {}
        }
        let mut e = env;
        let mut hops = 0;
        loop {
            match &**e {
                // Arity first: it is cheaper than the name and usually differs.
                Env::Func(d, _) if d.params.len() == args.len() && d.name == name => {
                    let d = d.clone();
                    let fenv = e.clone();
                    if hops > CALL_CACHE_HOPS {
                        self.calls.put(env, name, args.len(), Some(fenv.clone()));
                    }
                    return self.call_def(&d, 0, fenv, args, env, cur, out);
                }
                Env::Param(n, body, cenv, _) if args.is_empty() && &**n == name => {
                    let (body, cenv) = (body.clone(), cenv.clone());
                    return self.eval(&body, &cenv, cur, out);
                }
                Env::Nil => break,
                other => {
                    e = other.parent().unwrap();
                    hops += 1;
                }
            }
        }
        if hops > CALL_CACHE_HOPS {
            self.calls.put(env, name, args.len(), None);
        }
        super::builtins::native(self, name, args, env, cur, out)
    }

    /// Binds parameters one by one; `$name` params evaluate their argument
    /// (each output in turn) and bind both `$name` and `name`.
    #[allow(clippy::too_many_arguments)]
    fn call_def(&mut self, d: &Rc<FnDef>, i: usize, fenv: Rc<Env>, args: &[Rc<Ast>], caller: &Rc<Env>, cur: Cur, out: Out) -> R {
        if i == d.params.len() {
            return self.eval(&d.body, &fenv, cur, out);
        }
        let p = &d.params[i];
        match p.strip_prefix('$') {
            Some(vn) => {
                for x in self.collect(&args[i], caller, &cur.v)? {
                    let e1 = Rc::new(Env::Var(vn.to_string(), x.clone(), fenv.clone()));
                    let e2 = Rc::new(Env::Param(Rc::from(vn), Rc::new(Ast::Lit(x)), Rc::new(Env::Nil), e1));
                    self.call_def(d, i + 1, e2, args, caller, cur.clone(), out)?;
                }
                Ok(())
            }
            None => {
                let e = Rc::new(Env::Param(p.clone(), args[i].clone(), caller.clone(), fenv));
                self.call_def(d, i + 1, e, args, caller, cur, out)
            }
        }
    }
}
