//! Executes an awk program.

use super::format::sprintf;
use super::parse::{Expr, Func, Pattern, Program, Redir, Stmt};
use super::value::Val;
use crate::regex_posix::translate;
use crate::{fsx, input};
use regex::Regex;
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::rc::Rc;

pub type Array = HashMap<String, Val>;

#[derive(Clone, Debug)]
pub enum Cell {
    Scalar(Val),
    Array(usize),
}

pub enum Flow {
    Normal,
    Next,
    NextFile,
    Exit(i32),
    Return(Val),
    Break,
    Continue,
}

/// Where the main records come from.
pub struct Inputs<'a> {
    pub operands: Vec<String>,
    pub pos: usize,
    pub cur: Option<Box<dyn BufRead + 'a>>,
    pub stdin: Option<&'a mut dyn BufRead>,
    pub used_any_file: bool,
}

pub struct Interp<'p, 'o> {
    pub prog: &'p Program,
    pub globals: HashMap<String, Cell>,
    pub arrays: Vec<Array>,
    frames: Vec<HashMap<String, Cell>>,
    pub record: String,
    fields: Vec<String>,
    nf: usize,
    /// Rc: cloning a Regex would give each clone its own match cache.
    regexes: HashMap<String, Rc<Regex>>,
    pub out: &'o mut dyn Write,
    files: HashMap<String, io::BufWriter<std::fs::File>>,
    readers: HashMap<String, io::BufReader<std::fs::File>>,
    range_on: Vec<bool>,
    rand_state: u64,
    seed: f64,
    pub errors: Vec<String>,
    pub inputs: Inputs<'o>,
}

type R<T> = Result<T, String>;

fn uses_as_array(body: &[Stmt], name: &str) -> bool {
    fn e(x: &Expr, n: &str) -> bool {
        match x {
            Expr::Index(a, idx) => a == n || idx.iter().any(|i| e(i, n)),
            Expr::In(keys, a) => a == n || keys.iter().any(|k| e(k, n)),
            Expr::Builtin(b, args) => (b == "split" && matches!(args.get(1), Some(Expr::Var(v)) if v == n)) || args.iter().any(|a| e(a, n)),
            Expr::Call(_, args) => args.iter().any(|a| e(a, n)),
            Expr::Field(a) | Expr::Neg(a) | Expr::Plus(a) | Expr::Not(a) | Expr::Group(a) | Expr::IncDec(_, _, a) => e(a, n),
            Expr::Assign(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Match(_, a, b) | Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) | Expr::Concat(a, b) => e(a, n) || e(b, n),
            Expr::Cond(a, b, c) => e(a, n) || e(b, n) || e(c, n),
            Expr::Getline(a, b) => a.as_ref().map(|x| e(x, n)).unwrap_or(false) || b.as_ref().map(|x| e(x, n)).unwrap_or(false),
            _ => false,
        }
    }
    fn s(x: &Stmt, n: &str) -> bool {
        match x {
            Stmt::Expr(a) => e(a, n),
            Stmt::Print(v, _) | Stmt::Printf(v, _) => v.iter().any(|a| e(a, n)),
            Stmt::If(c, a, b) => e(c, n) || s(a, n) || b.as_ref().map(|b| s(b, n)).unwrap_or(false),
            Stmt::While(c, b) | Stmt::Do(b, c) => e(c, n) || s(b, n),
            Stmt::For(i, c, st, b) => i.as_ref().map(|x| s(x, n)).unwrap_or(false) || c.as_ref().map(|x| e(x, n)).unwrap_or(false) || st.as_ref().map(|x| s(x, n)).unwrap_or(false) || s(b, n),
            Stmt::ForIn(_, a, b) => a == n || s(b, n),
            Stmt::Block(v) => v.iter().any(|x| s(x, n)),
            Stmt::Delete(a, _) => a == n,
            Stmt::Exit(Some(a)) | Stmt::Return(Some(a)) => e(a, n),
            _ => false,
        }
    }
    body.iter().any(|x| s(x, name))
}

impl<'p, 'o> Interp<'p, 'o> {
    pub fn new(prog: &'p Program, out: &'o mut dyn Write, inputs: Inputs<'o>) -> Self {
        let mut g = HashMap::new();
        for (k, v) in [("FS", " "), ("OFS", " "), ("ORS", "\n"), ("RS", "\n"), ("SUBSEP", "\u{1c}"), ("CONVFMT", "%.6g"), ("OFMT", "%.6g"), ("FILENAME", "")] {
            g.insert(k.to_string(), Cell::Scalar(Val::Str(v.to_string())));
        }
        for k in ["NR", "FNR", "RSTART", "RLENGTH"] {
            g.insert(k.to_string(), Cell::Scalar(Val::Num(0.0)));
        }
        g.insert("RLENGTH".into(), Cell::Scalar(Val::Num(-1.0)));
        let n = prog.items.len();
        Interp {
            prog,
            globals: g,
            arrays: Vec::new(),
            frames: Vec::new(),
            record: String::new(),
            fields: Vec::new(),
            nf: 0,
            regexes: HashMap::new(),
            out,
            files: HashMap::new(),
            readers: HashMap::new(),
            range_on: vec![false; n],
            rand_state: 0x2545F4914F6CDD1D,
            seed: 0.0,
            errors: Vec::new(),
            inputs,
        }
    }

    pub fn new_array(&mut self, a: Array) -> usize {
        self.arrays.push(a);
        self.arrays.len() - 1
    }

    fn cell(&mut self, name: &str) -> &mut Cell {
        if let Some(f) = self.frames.last_mut() {
            if f.contains_key(name) {
                return f.get_mut(name).unwrap();
            }
        }
        // Look up before inserting: entry() would allocate the key every time.
        if !self.globals.contains_key(name) {
            self.globals.insert(name.to_string(), Cell::Scalar(Val::Uninit));
        }
        self.globals.get_mut(name).unwrap()
    }

    pub fn get_var(&mut self, name: &str) -> R<Val> {
        if name == "NF" {
            return Ok(Val::Num(self.nf as f64));
        }
        match self.cell(name).clone() {
            Cell::Scalar(v) => Ok(v),
            Cell::Array(_) => Err(format!("can't use array {} in scalar context", name)),
        }
    }

    pub fn set_var(&mut self, name: &str, v: Val) -> R<()> {
        if name == "NF" {
            let n = v.num().max(0.0) as usize;
            self.set_nf(n);
            return Ok(());
        }
        match self.cell(name) {
            c @ Cell::Scalar(_) => {
                *c = Cell::Scalar(v);
                Ok(())
            }
            Cell::Array(_) => Err(format!("can't assign to {}; it's an array name.", name)),
        }
    }

    fn array_id(&mut self, name: &str) -> R<usize> {
        let existing = self.cell(name).clone();
        match existing {
            Cell::Array(id) => Ok(id),
            Cell::Scalar(Val::Uninit) => {
                let id = self.new_array(HashMap::new());
                *self.cell(name) = Cell::Array(id);
                Ok(id)
            }
            Cell::Scalar(_) => Err(format!("can't use scalar {} as array", name)),
        }
    }

    fn sv(&mut self, name: &str) -> String {
        let f = self.get_var(name).unwrap_or(Val::Uninit);
        let c = self.convfmt();
        f.str_with(&c)
    }

    fn convfmt(&self) -> String {
        match self.globals.get("CONVFMT") {
            Some(Cell::Scalar(v)) => v.str_with("%.6g"),
            _ => "%.6g".into(),
        }
    }

    pub fn to_s(&self, v: &Val) -> String {
        v.str_with(&self.convfmt())
    }

    fn regex(&mut self, src: &str) -> R<Rc<Regex>> {
        if let Some(r) = self.regexes.get(src) {
            return Ok(Rc::clone(r));
        }
        let t = translate(src, true).map_err(|m| format!("regular expression /{}/: {}", src, m))?;
        let r = Rc::new(Regex::new(&t).map_err(|e| format!("regular expression /{}/: {}", src, e.to_string().lines().last().unwrap_or("").trim()))?);
        self.regexes.insert(src.to_string(), Rc::clone(&r));
        Ok(r)
    }

    // ---- records and fields ----

    pub fn set_record(&mut self, rec: String) {
        self.record = rec;
        let fs = self.sv("FS");
        let parts = self.split_with(&self.record.clone(), &fs);
        self.nf = parts.len();
        self.fields = parts;
    }

    fn split_with(&mut self, s: &str, fs: &str) -> Vec<String> {
        if fs == " " {
            return s.split(|c| c == ' ' || c == '\t' || c == '\n').filter(|x| !x.is_empty()).map(|x| x.to_string()).collect();
        }
        if s.is_empty() {
            return Vec::new();
        }
        if fs.chars().count() == 1 && fs != "\\" {
            let c = fs.chars().next().unwrap();
            if c == '\t' || !"[](){}.*+?^$|".contains(c) {
                return s.split(c).map(|x| x.to_string()).collect();
            }
        }
        match self.regex(fs) {
            Ok(re) => re.split(s).map(|x| x.to_string()).collect(),
            Err(e) => {
                self.errors.push(e);
                vec![s.to_string()]
            }
        }
    }

    fn rebuild(&mut self) {
        let ofs = self.sv("OFS");
        self.record = self.fields[..self.nf].join(&ofs);
    }

    fn set_nf(&mut self, n: usize) {
        self.fields.resize(n, String::new());
        self.nf = n;
        self.rebuild();
    }

    fn get_field(&self, i: usize) -> Val {
        if i == 0 {
            return Val::StrNum(self.record.clone());
        }
        match self.fields.get(i - 1) {
            Some(f) if i <= self.nf => Val::StrNum(f.clone()),
            _ => Val::Uninit,
        }
    }

    fn set_field(&mut self, i: usize, v: String) {
        if i == 0 {
            self.set_record(v);
            return;
        }
        if i > self.nf {
            self.fields.resize(i, String::new());
            self.nf = i;
        }
        self.fields[i - 1] = v;
        self.rebuild();
    }

    // ---- evaluation ----

    fn assign(&mut self, target: &Expr, v: Val) -> R<()> {
        match target {
            Expr::Var(n) => self.set_var(n, v),
            Expr::Field(e) => {
                let i = self.eval(e)?.num();
                if i < 0.0 {
                    return Err(format!("trying to access out of range field {}", i as i64));
                }
                let s = self.to_s(&v);
                self.set_field(i as usize, s);
                Ok(())
            }
            Expr::Index(n, idx) => {
                let k = self.key(idx)?;
                let id = self.array_id(n)?;
                self.arrays[id].insert(k, v);
                Ok(())
            }
            Expr::Group(e) => self.assign(e, v),
            _ => Err("assignment to a non-variable".into()),
        }
    }

    fn key(&mut self, idx: &[Expr]) -> R<String> {
        let mut parts = Vec::new();
        for e in idx {
            let v = self.eval(e)?;
            parts.push(self.to_s(&v));
        }
        let sep = self.sv("SUBSEP");
        Ok(parts.join(&sep))
    }

    fn match_re(&mut self, re: &Expr, s: &str) -> R<bool> {
        let src = match re {
            Expr::Regex(r) => r.clone(),
            other => {
                let v = self.eval(other)?;
                self.to_s(&v)
            }
        };
        Ok(self.regex(&src)?.is_match(s))
    }

    pub fn eval(&mut self, e: &Expr) -> R<Val> {
        Ok(match e {
            Expr::Num(n) => Val::Num(*n),
            Expr::Str(s) => Val::Str(s.clone()),
            Expr::Regex(r) => {
                let rec = self.record.clone();
                Val::Num(if self.regex(r)?.is_match(&rec) { 1.0 } else { 0.0 })
            }
            Expr::Var(n) => self.get_var(n)?,
            Expr::Group(x) => self.eval(x)?,
            Expr::Field(x) => {
                let i = self.eval(x)?.num();
                if i < 0.0 {
                    return Err(format!("trying to access out of range field {}", i as i64));
                }
                self.get_field(i as usize)
            }
            Expr::Index(n, idx) => {
                let k = self.key(idx)?;
                let id = self.array_id(n)?;
                self.arrays[id].entry(k).or_insert(Val::Uninit).clone()
            }
            Expr::In(keys, n) => {
                let k = self.key(keys)?;
                let id = self.array_id(n)?;
                Val::Num(if self.arrays[id].contains_key(&k) { 1.0 } else { 0.0 })
            }
            Expr::Assign(op, t, rhs) => {
                let r = self.eval(rhs)?;
                let v = if *op == "=" {
                    match r {
                        Val::Uninit => Val::Uninit,
                        other => other,
                    }
                } else {
                    let cur = self.eval(t)?.num();
                    let b = r.num();
                    Val::Num(arith(&op[..1], cur, b)?)
                };
                self.assign(t, v.clone())?;
                v
            }
            Expr::Cond(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::And(a, b) => Val::Num(if self.eval(a)?.truthy() && self.eval(b)?.truthy() { 1.0 } else { 0.0 }),
            Expr::Or(a, b) => Val::Num(if self.eval(a)?.truthy() || self.eval(b)?.truthy() { 1.0 } else { 0.0 }),
            Expr::Not(a) => Val::Num(if self.eval(a)?.truthy() { 0.0 } else { 1.0 }),
            Expr::Neg(a) => Val::Num(-self.eval(a)?.num()),
            Expr::Plus(a) => Val::Num(self.eval(a)?.num()),
            Expr::Match(neg, l, r) => {
                let lv = self.eval(l)?;
                let s = self.to_s(&lv);
                let m = self.match_re(r, &s)?;
                Val::Num(if m != *neg { 1.0 } else { 0.0 })
            }
            Expr::Bin(op, a, b) => {
                let x = self.eval(a)?.num();
                let y = self.eval(b)?.num();
                Val::Num(arith(op, x, y)?)
            }
            Expr::Cmp(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                let ord = if x.is_numeric() && y.is_numeric() {
                    x.num().partial_cmp(&y.num()).unwrap_or(std::cmp::Ordering::Equal)
                } else {
                    self.to_s(&x).cmp(&self.to_s(&y))
                };
                use std::cmp::Ordering::*;
                let t = match *op {
                    "<" => ord == Less,
                    "<=" => ord != Greater,
                    ">" => ord == Greater,
                    ">=" => ord != Less,
                    "==" => ord == Equal,
                    _ => ord != Equal,
                };
                Val::Num(if t { 1.0 } else { 0.0 })
            }
            Expr::Concat(a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                Val::Str(format!("{}{}", self.to_s(&x), self.to_s(&y)))
            }
            Expr::IncDec(pre, d, t) => {
                let old = self.eval(t)?.num();
                let new = old + *d as f64;
                self.assign(t, Val::Num(new))?;
                Val::Num(if *pre { new } else { old })
            }
            Expr::Call(name, args) => self.call(name, args)?,
            Expr::Builtin(name, args) => self.builtin(name, args)?,
            Expr::Getline(var, src) => self.getline(var.as_deref(), src.as_deref())?,
        })
    }

    fn call(&mut self, name: &str, args: &[Expr]) -> R<Val> {
        let f: &'p Func = match self.prog.funcs.get(name) {
            Some(f) => f,
            None => return Err(format!("calling undefined function {}", name)),
        };
        if args.len() > f.params.len() {
            return Err(format!("function {} called with {} args, accepts only {}", name, args.len(), f.params.len()));
        }
        let mut frame = HashMap::new();
        for (i, p) in f.params.iter().enumerate() {
            let cell = match args.get(i) {
                Some(Expr::Var(v)) => {
                    let c = self.cell(v).clone();
                    match c {
                        Cell::Array(id) => Cell::Array(id),
                        Cell::Scalar(Val::Uninit) if uses_as_array(&f.body, p) => {
                            // The callee fills an array the caller names: share it.
                            let id = self.new_array(HashMap::new());
                            *self.cell(v) = Cell::Array(id);
                            Cell::Array(id)
                        }
                        Cell::Scalar(_) => Cell::Scalar(self.get_var(v)?),
                    }
                }
                Some(e) => Cell::Scalar(self.eval(e)?),
                None => Cell::Scalar(Val::Uninit),
            };
            frame.insert(p.clone(), cell);
        }
        if self.frames.len() > 1000 {
            return Err("function call nesting too deep".into());
        }
        self.frames.push(frame);
        let r = self.block(&f.body);
        self.frames.pop();
        match r? {
            Flow::Return(v) => Ok(v),
            Flow::Exit(c) => Err(format!("\u{0}exit {}", c)),
            Flow::Next => Err("\u{0}next".into()),
            _ => Ok(Val::Uninit),
        }
    }

    fn builtin(&mut self, name: &str, args: &[Expr]) -> R<Val> {
        let argn = |i: usize| -> Option<&Expr> { args.get(i) };
        let num_arg = |me: &mut Self, i: usize| -> R<f64> { Ok(match argn(i) { Some(e) => me.eval(e)?.num(), None => 0.0 }) };
        Ok(match name {
            "length" => match args.first() {
                None => Val::Num(self.record.chars().count() as f64),
                Some(Expr::Var(v)) if matches!(self.cell(v), Cell::Array(_)) => {
                    let id = self.array_id(v)?;
                    Val::Num(self.arrays[id].len() as f64)
                }
                Some(e) => {
                    let v = self.eval(e)?;
                    Val::Num(self.to_s(&v).chars().count() as f64)
                }
            },
            "substr" => {
                let s: Vec<char> = {
                    let v = self.eval(argn(0).ok_or("substr: missing argument")?)?;
                    self.to_s(&v).chars().collect()
                };
                let m = num_arg(self, 1)?;
                let m = round_half_even(m);
                let n = if args.len() > 2 { round_half_even(num_arg(self, 2)?) } else { f64::INFINITY };
                let start = m.max(1.0);
                let end = if n.is_infinite() { s.len() as f64 + 1.0 } else { (m + n).min(s.len() as f64 + 1.0) };
                if end <= start {
                    Val::Str(String::new())
                } else {
                    Val::Str(s[(start as usize - 1).min(s.len())..(end as usize - 1).min(s.len())].iter().collect())
                }
            }
            "index" => {
                let a = self.eval(argn(0).ok_or("index: missing argument")?)?;
                let b = self.eval(argn(1).ok_or("index: missing argument")?)?;
                let (a, b) = (self.to_s(&a), self.to_s(&b));
                Val::Num(match a.find(&b) {
                    Some(p) => (a[..p].chars().count() + 1) as f64,
                    None => 0.0,
                })
            }
            "split" => {
                let s = self.eval(argn(0).ok_or("split: missing argument")?)?;
                let s = self.to_s(&s);
                let arr = match argn(1) {
                    Some(Expr::Var(n)) => n.clone(),
                    _ => return Err("split: second argument must be an array name".into()),
                };
                let fs = match argn(2) {
                    Some(Expr::Regex(r)) => r.clone(),
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                    None => self.sv("FS"),
                };
                let parts = self.split_with(&s, &fs);
                let id = self.array_id(&arr)?;
                self.arrays[id].clear();
                for (i, p) in parts.iter().enumerate() {
                    self.arrays[id].insert((i + 1).to_string(), Val::StrNum(p.clone()));
                }
                Val::Num(parts.len() as f64)
            }
            "sub" | "gsub" => {
                let re_src = match argn(0) {
                    Some(Expr::Regex(r)) => r.clone(),
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                    None => return Err(format!("{}: missing argument", name)),
                };
                let repl = {
                    let v = self.eval(argn(1).ok_or("sub: missing replacement")?)?;
                    self.to_s(&v)
                };
                let target = argn(2).cloned().unwrap_or(Expr::Field(Box::new(Expr::Num(0.0))));
                let cur = {
                    let v = self.eval(&target)?;
                    self.to_s(&v)
                };
                let re = self.regex(&re_src)?;
                let mut out = String::new();
                let mut last = 0;
                let mut count = 0;
                for m in re.find_iter(&cur) {
                    out.push_str(&cur[last..m.start()]);
                    let mut chars = repl.chars().peekable();
                    while let Some(c) = chars.next() {
                        if c == '\\' && matches!(chars.peek(), Some('&')) {
                            out.push('&');
                            chars.next();
                        } else if c == '\\' && matches!(chars.peek(), Some('\\')) {
                            out.push('\\');
                            chars.next();
                        } else if c == '&' {
                            out.push_str(m.as_str());
                        } else {
                            out.push(c);
                        }
                    }
                    last = m.end();
                    count += 1;
                    if name == "sub" {
                        break;
                    }
                }
                if count > 0 {
                    out.push_str(&cur[last..]);
                    self.assign(&target, Val::Str(out))?;
                }
                Val::Num(count as f64)
            }
            "match" => {
                let s = self.eval(argn(0).ok_or("match: missing argument")?)?;
                let s = self.to_s(&s);
                let re = argn(1).ok_or("match: missing regex")?.clone();
                let src = match &re {
                    Expr::Regex(r) => r.clone(),
                    e => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                };
                let r = self.regex(&src)?;
                let (start, len) = match r.find(&s) {
                    Some(m) => (s[..m.start()].chars().count() as f64 + 1.0, m.as_str().chars().count() as f64),
                    None => (0.0, -1.0),
                };
                self.set_var("RSTART", Val::Num(start))?;
                self.set_var("RLENGTH", Val::Num(len))?;
                Val::Num(start)
            }
            "sprintf" => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(a)?);
                }
                if vals.is_empty() {
                    return Err("sprintf: no format".into());
                }
                let f = self.to_s(&vals[0]);
                let c = self.convfmt();
                Val::Str(sprintf(&f, &vals[1..], &c)?)
            }
            "tolower" | "toupper" => {
                let v = self.eval(argn(0).ok_or("missing argument")?)?;
                let s = self.to_s(&v);
                Val::Str(if name == "tolower" { s.to_lowercase() } else { s.to_uppercase() })
            }
            "int" => Val::Num(num_arg(self, 0)?.trunc()),
            "sqrt" => Val::Num(num_arg(self, 0)?.sqrt()),
            "exp" => Val::Num(num_arg(self, 0)?.exp()),
            "log" => Val::Num(num_arg(self, 0)?.ln()),
            "sin" => Val::Num(num_arg(self, 0)?.sin()),
            "cos" => Val::Num(num_arg(self, 0)?.cos()),
            "atan2" => {
                let y = num_arg(self, 0)?;
                let x = num_arg(self, 1)?;
                Val::Num(y.atan2(x))
            }
            "rand" => {
                // xorshift64*: deterministic for a given srand seed, as in awk.
                let mut x = self.rand_state;
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                self.rand_state = x;
                Val::Num((x.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64)
            }
            "srand" => {
                let prev = self.seed;
                self.seed = if args.is_empty() { fsx::now().0 as f64 } else { num_arg(self, 0)? };
                self.rand_state = (self.seed as i64 as u64) ^ 0x2545F4914F6CDD1D;
                if self.rand_state == 0 {
                    self.rand_state = 1;
                }
                Val::Num(prev)
            }
            "system" => return Err("system() is not available in this sandbox".into()),
            "close" => {
                let v = self.eval(argn(0).ok_or("close: missing argument")?)?;
                let k = self.to_s(&v);
                let mut found = false;
                if let Some(mut f) = self.files.remove(&k) {
                    let _ = f.flush();
                    found = true;
                }
                found |= self.readers.remove(&k).is_some();
                Val::Num(if found { 0.0 } else { -1.0 })
            }
            "fflush" => {
                let _ = self.out.flush();
                Val::Num(0.0)
            }
            other => return Err(format!("unknown function {}", other)),
        })
    }

    fn getline(&mut self, var: Option<&Expr>, src: Option<&Expr>) -> R<Val> {
        let src = match src {
            Some(s) => s,
            None => {
                // Plain getline reads the next main-input record.
                return match self.next_record()? {
                    None => Ok(Val::Num(0.0)),
                    Some(rec) => {
                        self.bump_nr();
                        match var {
                            Some(t) => self.assign(t, Val::StrNum(rec))?,
                            None => self.set_record(rec),
                        }
                        Ok(Val::Num(1.0))
                    }
                };
            }
        };
        let v = self.eval(src)?;
        let name = self.to_s(&v);
        if !self.readers.contains_key(&name) {
            match std::fs::File::open(fsx::host(&name)) {
                Ok(f) => {
                    self.readers.insert(name.clone(), io::BufReader::new(f));
                }
                Err(_) => return Ok(Val::Num(-1.0)),
            }
        }
        let mut buf = Vec::new();
        let r = self.readers.get_mut(&name).unwrap();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) => Ok(Val::Num(0.0)),
            Ok(_) => {
                let (body, _) = input::chomp(&buf, b'\n');
                let line = String::from_utf8_lossy(body).into_owned();
                match var {
                    Some(t) => self.assign(t, Val::StrNum(line))?,
                    None => {
                        self.set_record(line);
                    }
                }
                Ok(Val::Num(1.0))
            }
            Err(_) => Ok(Val::Num(-1.0)),
        }
    }

    pub fn bump_nr(&mut self) {
        for k in ["NR", "FNR"] {
            let n = self.get_var(k).map(|v| v.num()).unwrap_or(0.0);
            let _ = self.set_var(k, Val::Num(n + 1.0));
        }
    }

    /// Next record of the main input, walking the operands (files, `-`,
    /// and `var=value` assignments) as awk does.
    pub fn next_record(&mut self) -> R<Option<String>> {
        loop {
            if self.inputs.cur.is_none() {
                let ops_len = self.inputs.operands.len();
                if self.inputs.pos >= ops_len {
                    if self.inputs.used_any_file {
                        return Ok(None);
                    }
                    // No file operands: read standard input once.
                    self.inputs.used_any_file = true;
                    match self.inputs.stdin.take() {
                        Some(s) => self.inputs.cur = Some(Box::new(s)),
                        None => return Ok(None),
                    }
                } else {
                    let op = self.inputs.operands[self.inputs.pos].clone();
                    self.inputs.pos += 1;
                    if let Some(eq) = op.find('=') {
                        let name = &op[..eq];
                        if !name.is_empty() && name.chars().next().map(|c| c.is_alphabetic() || c == '_').unwrap_or(false) && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                            let v = super::unescape(&op[eq + 1..]);
                            self.set_var(name, Val::StrNum(v))?;
                            continue;
                        }
                    }
                    self.inputs.used_any_file = true;
                    self.set_var("FNR", Val::Num(0.0))?;
                    self.set_var("FILENAME", Val::Str(op.clone()))?;
                    if op == "-" || op == "/dev/stdin" {
                        match self.inputs.stdin.take() {
                            Some(s) => self.inputs.cur = Some(Box::new(s)),
                            None => continue,
                        }
                    } else {
                        match std::fs::File::open(fsx::host(&op)) {
                            Ok(f) if f.metadata().map(|m| m.is_dir()).unwrap_or(false) => {
                                self.errors.push(format!("warning: command line argument `{}' is a directory: skipped", op));
                                continue;
                            }
                            Ok(f) => self.inputs.cur = Some(Box::new(io::BufReader::with_capacity(input::BUF, f))),
                            Err(e) => return Err(format!("cannot open \"{}\" ({})", op, crate::ctx::reason(&e))),
                        }
                    }
                }
            }
            let rs = self.sv("RS");
            let r = self.inputs.cur.as_mut().unwrap();
            let mut buf = Vec::new();
            let got = if rs.is_empty() {
                // Paragraph mode: records are separated by blank lines.
                let mut lines: Vec<Vec<u8>> = Vec::new();
                loop {
                    let mut l = Vec::new();
                    let n = r.read_until(b'\n', &mut l).map_err(|e| e.to_string())?;
                    if n == 0 {
                        break;
                    }
                    let body = input::chomp(&l, b'\n').0.to_vec();
                    if body.is_empty() {
                        if lines.is_empty() {
                            continue;
                        }
                        break;
                    }
                    lines.push(body);
                }
                if lines.is_empty() {
                    false
                } else {
                    buf = lines.join(&b'\n');
                    true
                }
            } else {
                let d = rs.as_bytes()[0];
                let n = r.read_until(d, &mut buf).map_err(|e| e.to_string())?;
                if n > 0 && buf.last() == Some(&d) {
                    buf.pop();
                }
                n > 0
            };
            if got {
                return Ok(Some(String::from_utf8_lossy(&buf).into_owned()));
            }
            self.inputs.cur = None;
        }
    }

    /// Skips the rest of the current input file (nextfile).
    pub fn skip_file(&mut self) {
        self.inputs.cur = None;
    }

    // ---- statements ----

    pub fn block(&mut self, stmts: &[Stmt]) -> R<Flow> {
        for s in stmts {
            match self.stmt(s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn output(&mut self, redir: &Redir, text: &str) -> R<()> {
        match redir {
            Redir::None => self.out.write_all(text.as_bytes()).map_err(|e| format!("\u{0}io {}", e)),
            Redir::Pipe(_) => Err("output to a pipe (print | \"cmd\") is not available in this sandbox".into()),
            Redir::File(e) | Redir::Append(e) => {
                let v = self.eval(e)?;
                let name = self.to_s(&v);
                if name == "/dev/stdout" || name == "-" {
                    return self.out.write_all(text.as_bytes()).map_err(|e| format!("\u{0}io {}", e));
                }
                if name == "/dev/stderr" {
                    self.errors.push(format!("\u{0}raw{}", text));
                    return Ok(());
                }
                if !self.files.contains_key(&name) {
                    let f = if matches!(redir, Redir::Append(_)) {
                        std::fs::OpenOptions::new().create(true).append(true).open(fsx::host(&name))
                    } else {
                        std::fs::File::create(fsx::host(&name))
                    };
                    let f = f.map_err(|e| format!("can't redirect to {}: {}", name, crate::ctx::reason(&e)))?;
                    self.files.insert(name.clone(), io::BufWriter::new(f));
                }
                self.files.get_mut(&name).unwrap().write_all(text.as_bytes()).map_err(|e| format!("write to {}: {}", name, e))
            }
        }
    }

    pub fn close_all(&mut self) {
        for (_, mut f) in self.files.drain() {
            let _ = f.flush();
        }
    }

    fn stmt(&mut self, s: &Stmt) -> R<Flow> {
        match s {
            Stmt::Expr(e) => {
                self.eval(e)?;
            }
            Stmt::Print(args, redir) => {
                let ofmt = self.sv("OFMT");
                let text = if args.is_empty() {
                    self.record.clone()
                } else {
                    let mut parts = Vec::new();
                    for a in args {
                        let v = self.eval(a)?;
                        parts.push(match v {
                            Val::Num(n) => super::value::num_to_str(n, &ofmt),
                            other => self.to_s(&other),
                        });
                    }
                    let ofs = self.sv("OFS");
                    parts.join(&ofs)
                };
                let ors = self.sv("ORS");
                self.output(redir, &format!("{}{}", text, ors))?;
            }
            Stmt::Printf(args, redir) => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(a)?);
                }
                let f = self.to_s(&vals[0]);
                let c = self.convfmt();
                let text = sprintf(&f, &vals[1..], &c)?;
                self.output(redir, &text)?;
            }
            Stmt::If(c, a, b) => {
                if self.eval(c)?.truthy() {
                    return self.stmt(a);
                } else if let Some(b) = b {
                    return self.stmt(b);
                }
            }
            Stmt::While(c, body) => {
                while self.eval(c)?.truthy() {
                    match self.stmt(body)? {
                        Flow::Break => break,
                        Flow::Continue | Flow::Normal => {}
                        other => return Ok(other),
                    }
                }
            }
            Stmt::Do(body, c) => loop {
                match self.stmt(body)? {
                    Flow::Break => break,
                    Flow::Continue | Flow::Normal => {}
                    other => return Ok(other),
                }
                if !self.eval(c)?.truthy() {
                    break;
                }
            },
            Stmt::For(init, cond, step, body) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                loop {
                    if let Some(c) = cond {
                        if !self.eval(c)?.truthy() {
                            break;
                        }
                    }
                    match self.stmt(body)? {
                        Flow::Break => break,
                        Flow::Continue | Flow::Normal => {}
                        other => return Ok(other),
                    }
                    if let Some(st) = step {
                        self.stmt(st)?;
                    }
                }
            }
            Stmt::ForIn(k, arr, body) => {
                let id = self.array_id(arr)?;
                let mut keys: Vec<String> = self.arrays[id].keys().cloned().collect();
                // Deterministic order: numeric keys by value, then the rest.
                keys.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
                    (Ok(_), Err(_)) => std::cmp::Ordering::Less,
                    (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
                    _ => a.cmp(b),
                });
                for key in keys {
                    if !self.arrays[id].contains_key(&key) {
                        continue;
                    }
                    self.set_var(k, Val::StrNum(key))?;
                    match self.stmt(body)? {
                        Flow::Break => break,
                        Flow::Continue | Flow::Normal => {}
                        other => return Ok(other),
                    }
                }
            }
            Stmt::Block(v) => return self.block(v),
            Stmt::Next => return Ok(Flow::Next),
            Stmt::NextFile => return Ok(Flow::NextFile),
            Stmt::Exit(e) => {
                let code = match e {
                    Some(e) => self.eval(e)?.num() as i32,
                    None => 0,
                };
                return Ok(Flow::Exit(code));
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Val::Uninit,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Delete(n, idx) => {
                let id = self.array_id(n)?;
                match idx {
                    Some(i) => {
                        let k = self.key(i)?;
                        self.arrays[id].remove(&k);
                    }
                    None => self.arrays[id].clear(),
                }
            }
        }
        Ok(Flow::Normal)
    }

    /// Runs the pattern-action items for the current record.
    pub fn record_items(&mut self) -> R<Flow> {
        let prog = self.prog;
        for (i, (pat, action)) in prog.items.iter().enumerate() {
            let hit = match pat {
                Pattern::Begin | Pattern::End => continue,
                Pattern::All => true,
                Pattern::Expr(e) => self.eval(e)?.truthy(),
                Pattern::Range(a, b) => {
                    if self.range_on[i] {
                        if self.eval(b)?.truthy() {
                            self.range_on[i] = false;
                        }
                        true
                    } else if self.eval(a)?.truthy() {
                        self.range_on[i] = !self.eval(b)?.truthy();
                        true
                    } else {
                        false
                    }
                }
            };
            if !hit {
                continue;
            }
            let flow = match action {
                Some(stmts) => self.block(stmts)?,
                None => {
                    let ors = self.sv("ORS");
                    let rec = self.record.clone();
                    self.output(&Redir::None, &format!("{}{}", rec, ors))?;
                    Flow::Normal
                }
            };
            match flow {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

fn arith(op: &str, x: f64, y: f64) -> R<f64> {
    Ok(match op {
        "+" => x + y,
        "-" => x - y,
        "*" => x * y,
        "/" => {
            if y == 0.0 {
                return Err("division by zero".into());
            }
            x / y
        }
        "%" => {
            if y == 0.0 {
                return Err("division by zero in %".into());
            }
            x % y
        }
        _ => x.powf(y),
    })
}
