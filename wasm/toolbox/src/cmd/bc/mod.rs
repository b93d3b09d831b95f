//! bc [-lqsw] [FILE]... — arbitrary-precision calculator (POSIX bc with
//! GNU's extensions). Files run first, then standard input; each line's
//! statements run as soon as the line is read, as in GNU bc.

mod math;
mod num;
mod parse;

use crate::args::{flag, Spec};
use crate::ctx::{Ctx, Res};
use crate::input;
use num::Num;
use parse::{Arg, Expr, Func, Item, LVal, Parser, Stmt, Unit};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::rc::Rc;

const SPECS: &[Spec] = &[
    flag('l', "mathlib", "l"),
    flag('q', "quiet", "q"),
    flag('s', "standard", "s"),
    flag('w', "warn", "w"),
    flag('i', "interactive", "i"),
    flag('h', "", crate::args::HELP),
    flag('v', "", crate::args::VERSION),
];
const HELP: &str = "usage: bc [options] [file ...]\n  -h  --help         print this usage and exit\n  -i  --interactive  force interactive mode\n  -l  --mathlib      use the predefined math routines\n  -q  --quiet        don't print initial banner\n  -s  --standard     non-standard bc constructs are errors\n  -w  --warn         warn about non-standard bc constructs\n  -v  --version      print version information and exit\n";

/// Output lines longer than this are continued with a backslash (GNU's
/// default BC_LINE_LENGTH).
const LINE: usize = 70;
/// Function calls deeper than this stop with an error instead of
/// exhausting the host's stack.
const MAX_DEPTH: usize = 300;

enum Flow {
    Next,
    Break,
    Continue,
    Return(Num),
    Halt,
}

type RRes<T> = Result<T, String>;

struct Bc<'o> {
    vars: HashMap<String, Num>,
    arrays: HashMap<String, HashMap<i64, Num>>,
    funcs: HashMap<String, Rc<Func>>,
    scale: usize,
    ibase: u32,
    obase: u32,
    last: Num,
    mathlib: bool,
    out: &'o mut dyn Write,
    col: usize,
    depth: usize,
    /// A failed write to stdout, which ends the run.
    io_err: Option<std::io::Error>,
    /// Runtime warnings of the current unit, shown once it has run.
    warnings: Vec<String>,
}

const IO_FAILED: &str = "\u{0}io";

impl<'o> Bc<'o> {
    fn write_str(&mut self, s: &str) -> RRes<()> {
        if let Err(e) = self.out.write_all(s.as_bytes()) {
            self.io_err = Some(e);
            return Err(IO_FAILED.into());
        }
        match s.rfind('\n') {
            Some(i) => self.col = s.len() - i - 1,
            None => self.col += s.len(),
        }
        Ok(())
    }
    fn write_num(&mut self, v: &Num) -> RRes<()> {
        let s = v.format(self.obase);
        let mut buf = String::new();
        let mut col = self.col;
        for ch in s.chars() {
            if col >= LINE - 2 {
                buf.push_str("\\\n");
                col = 0;
            }
            buf.push(ch);
            col += 1;
        }
        self.write_str(&buf)
    }

    fn get(&self, lv: &LVal) -> RRes<Num> {
        Ok(match lv {
            LVal::Var(n) => match n.as_str() {
                "scale" => Num::from_i64(self.scale as i64),
                "ibase" => Num::from_i64(self.ibase as i64),
                "obase" => Num::from_i64(self.obase as i64),
                "last" => self.last.clone(),
                _ => self.vars.get(n).cloned().unwrap_or_default(),
            },
            LVal::Elem(..) => Num::zero(),
        })
    }
    fn index(&mut self, e: &Expr) -> RRes<i64> {
        let v = self.eval(e)?;
        match v.to_i64() {
            Some(i) if (0..=16_777_215).contains(&i) => Ok(i),
            _ => Err("Array index out of range".into()),
        }
    }
    fn load(&mut self, lv: &LVal) -> RRes<Num> {
        match lv {
            LVal::Elem(n, i) => {
                let i = self.index(i)?;
                Ok(self.arrays.get(n).and_then(|a| a.get(&i)).cloned().unwrap_or_default())
            }
            _ => self.get(lv),
        }
    }
    fn store(&mut self, lv: &LVal, v: Num) -> RRes<Num> {
        match lv {
            LVal::Elem(n, i) => {
                let i = self.index(i)?;
                self.arrays.entry(n.clone()).or_default().insert(i, v.clone());
            }
            LVal::Var(n) => {
                let int = || v.to_i64().unwrap_or(i64::MAX);
                match n.as_str() {
                    "scale" => {
                        let s = int();
                        if !(0..=100_000).contains(&s) {
                            return Err("negative or too large scale".into());
                        }
                        self.scale = s as usize;
                    }
                    "ibase" => self.ibase = int().clamp(2, 16) as u32,
                    "obase" => {
                        let b = int();
                        if !(2..=999).contains(&b) {
                            return Err("Output base must be between 2 and 999".into());
                        }
                        self.obase = b as u32;
                    }
                    "last" => self.last = v.clone(),
                    _ => {
                        self.vars.insert(n.clone(), v.clone());
                    }
                }
            }
        }
        Ok(v)
    }

    fn binary(&mut self, op: &str, a: &Num, b: &Num) -> RRes<Num> {
        let s = self.scale;
        let t = |c: bool| Num::from_i64(c as i64);
        Ok(match op {
            "+" => a.add(b),
            "-" => a.sub(b),
            "*" => a.mul(b, s),
            "/" => a.div(b, s).ok_or("Divide by zero")?,
            "%" => a.rem(b, s).ok_or("Modulo by zero")?,
            "^" => {
                if b.scale > 0 {
                    self.warnings.push("non-zero scale in exponent".into());
                }
                let e = b.to_i64().ok_or("exponent too large")?;
                if e.unsigned_abs() > 1_000_000 {
                    return Err("exponent too large".into());
                }
                if a.is_zero() && e < 0 {
                    return Err("divide by zero".into());
                }
                a.pow(e, s).ok_or("divide by zero")?
            }
            "==" => t(a.cmp(b).is_eq()),
            "!=" => t(!a.cmp(b).is_eq()),
            "<" => t(a.cmp(b).is_lt()),
            "<=" => t(a.cmp(b).is_le()),
            ">" => t(a.cmp(b).is_gt()),
            ">=" => t(a.cmp(b).is_ge()),
            _ => return Err(format!("unknown operator {}", op)),
        })
    }

    fn eval(&mut self, e: &Expr) -> RRes<Num> {
        match e {
            Expr::Num(s) => Ok(Num::parse(s, self.ibase)),
            Expr::Load(lv) => self.load(lv),
            Expr::Neg(x) => Ok(self.eval(x)?.neg()),
            Expr::Not(x) => Ok(Num::from_i64(self.eval(x)?.is_zero() as i64)),
            Expr::Bin("&&", a, b) => {
                let r = !self.eval(a)?.is_zero() && !self.eval(b)?.is_zero();
                Ok(Num::from_i64(r as i64))
            }
            Expr::Bin("||", a, b) => {
                let r = !self.eval(a)?.is_zero() || !self.eval(b)?.is_zero();
                Ok(Num::from_i64(r as i64))
            }
            Expr::Bin(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                self.binary(op, &x, &y)
            }
            Expr::Assign(op, lv, r) => {
                let v = self.eval(r)?;
                let v = match op {
                    Some(op) => {
                        let old = self.load(lv)?;
                        self.binary(op, &old, &v)?
                    }
                    None => v,
                };
                self.store(lv, v)
            }
            Expr::Step(prefix, d, lv) => {
                let old = self.load(lv)?;
                let new = old.add(&Num::from_i64(*d));
                self.store(lv, new.clone())?;
                Ok(if *prefix { new } else { old })
            }
            Expr::Builtin(name, x) => {
                let v = self.eval(x)?;
                Ok(match *name {
                    "length" => Num::from_i64(v.length() as i64),
                    "scale" => Num::from_i64(v.scale as i64),
                    _ => v.sqrt(self.scale).ok_or("Square root of a negative number")?,
                })
            }
            Expr::Call(name, args) => self.call(name, args),
        }
    }

    fn call(&mut self, name: &str, args: &[Arg]) -> RRes<Num> {
        let f = match self.funcs.get(name) {
            Some(f) => f.clone(),
            None => return self.library(name, args),
        };
        if f.params.len() != args.len() {
            return Err(format!("Parameter number mismatch calling {}", name));
        }
        if self.depth >= MAX_DEPTH {
            return Err(format!("function calls nested deeper than {} (runaway recursion in {}?)", MAX_DEPTH, name));
        }
        // Arguments are evaluated in the caller's scope, then params and
        // autos shadow the globals until the call returns (dynamic scope).
        let mut vals = Vec::new();
        for ((pname, is_arr), a) in f.params.iter().zip(args) {
            match (a, is_arr) {
                (Arg::Val(e), false) => vals.push((Some(self.eval(e)?), None)),
                (Arg::Array(n), true) => vals.push((None, Some(self.arrays.get(n).cloned().unwrap_or_default()))),
                _ => return Err(format!("Parameter type mismatch calling {} (parameter {})", name, pname)),
            }
        }
        let mut saved = Vec::new();
        for ((pname, is_arr), (v, a)) in f.params.iter().zip(vals) {
            saved.push(self.shadow(pname, *is_arr));
            if *is_arr {
                self.arrays.insert(pname.clone(), a.unwrap_or_default());
            } else {
                self.vars.insert(pname.clone(), v.unwrap_or_default());
            }
        }
        for (aname, is_arr) in &f.autos {
            saved.push(self.shadow(aname, *is_arr));
        }
        self.depth += 1;
        let r = self.block(&f.body);
        self.depth -= 1;
        for (n, is_arr, v, a) in saved.into_iter().rev() {
            if is_arr {
                match a {
                    Some(a) => self.arrays.insert(n, a),
                    None => self.arrays.remove(&n),
                };
            } else {
                match v {
                    Some(v) => self.vars.insert(n, v),
                    None => self.vars.remove(&n),
                };
            }
        }
        match r? {
            Flow::Return(v) => Ok(v),
            Flow::Halt => Err("\u{0}halt".into()),
            _ => Ok(Num::zero()),
        }
    }

    #[allow(clippy::type_complexity)]
    fn shadow(&mut self, name: &str, is_arr: bool) -> (String, bool, Option<Num>, Option<HashMap<i64, Num>>) {
        if is_arr {
            (name.to_string(), true, None, self.arrays.remove(name))
        } else {
            (name.to_string(), false, self.vars.remove(name), None)
        }
    }

    fn library(&mut self, name: &str, args: &[Arg]) -> RRes<Num> {
        let want = if name == "j" { 2 } else { 1 };
        if !self.mathlib || !["s", "c", "a", "l", "e", "j"].contains(&name) {
            return Err(format!("Function {} not defined.{}", name, if ["s", "c", "a", "l", "e", "j"].contains(&name) { " (the math library needs bc -l)" } else { "" }));
        }
        if args.len() != want {
            return Err(format!("Parameter number mismatch calling {}", name));
        }
        let mut v = Vec::new();
        for a in args {
            match a {
                Arg::Val(e) => v.push(self.eval(e)?),
                Arg::Array(_) => return Err(format!("Parameter type mismatch calling {}", name)),
            }
        }
        let s = self.scale;
        Ok(match name {
            "s" => math::sin(&v[0], s),
            "c" => math::cos(&v[0], s),
            "a" => math::atan(&v[0], s),
            "l" => math::ln(&v[0], s),
            "e" => math::exp(&v[0], s),
            _ => math::bessel(&v[0], &v[1], s),
        })
    }

    fn block(&mut self, stmts: &[Stmt]) -> RRes<Flow> {
        for s in stmts {
            match self.exec(s)? {
                Flow::Next => {}
                f => return Ok(f),
            }
        }
        Ok(Flow::Next)
    }

    fn truth(&mut self, e: &Expr) -> RRes<bool> {
        Ok(!self.eval(e)?.is_zero())
    }

    fn exec(&mut self, s: &Stmt) -> RRes<Flow> {
        match s {
            Stmt::Expr(e) => {
                let v = self.eval(e)?;
                if !matches!(e, Expr::Assign(..)) {
                    self.write_num(&v)?;
                    self.write_str("\n")?;
                    self.last = v;
                }
            }
            Stmt::Str(t) => self.write_str(t)?,
            Stmt::Print(items) => {
                for it in items {
                    match it {
                        Item::Str(t) => self.write_str(&unescape(t))?,
                        Item::Val(e) => {
                            let v = self.eval(e)?;
                            self.write_num(&v)?;
                            self.last = v;
                        }
                    }
                }
            }
            Stmt::Block(b) => return self.block(b),
            Stmt::If(c, t, e) => {
                if self.truth(c)? {
                    return self.exec(t);
                } else if let Some(e) = e {
                    return self.exec(e);
                }
            }
            Stmt::While(c, b) => {
                while self.truth(c)? {
                    match self.exec(b)? {
                        Flow::Break => break,
                        Flow::Next | Flow::Continue => {}
                        f => return Ok(f),
                    }
                }
            }
            Stmt::For(init, c, step, b) => {
                if let Some(i) = init {
                    self.eval(i)?;
                }
                loop {
                    if let Some(c) = c {
                        if !self.truth(c)? {
                            break;
                        }
                    }
                    match self.exec(b)? {
                        Flow::Break => break,
                        Flow::Next | Flow::Continue => {}
                        f => return Ok(f),
                    }
                    if let Some(s) = step {
                        self.eval(s)?;
                    }
                }
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Num::zero(),
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Halt => return Ok(Flow::Halt),
            Stmt::Empty => {}
        }
        Ok(Flow::Next)
    }
}

/// Escapes `print` understands.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('r') => out.push('\r'),
            Some('q') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Runs one source text; returns false once quit/halt ended the program.
fn run_source(bc: &mut Bc, diag: &mut crate::ctx::Diag, src: &str, file: &str) -> Result<bool, std::io::Error> {
    let toks = match parse::lex(src) {
        Ok(t) => t,
        Err((m, line)) => {
            let _ = writeln!(diag.raw(), "{} {}: {}", file, line, m);
            return Ok(true);
        }
    };
    let mut p = Parser::new(toks);
    while !p.at_eof() {
        let line = p.line();
        match p.unit() {
            Ok(Unit::Quit) => return Ok(false),
            Ok(Unit::Define(name, f)) => {
                bc.funcs.insert(name, Rc::new(f));
            }
            Ok(Unit::Stmts(stmts)) => match bc.block(&stmts).map(|f| {
                for w in bc.warnings.drain(..) {
                    let _ = writeln!(diag.raw(), "Runtime warning (line {}): {}", line, w);
                }
                f
            }) {
                Ok(Flow::Halt) => return Ok(false),
                Ok(_) => {}
                Err(m) if m == "\u{0}halt" => return Ok(false),
                Err(m) if m == IO_FAILED => return Err(bc.io_err.take().unwrap_or_else(|| std::io::ErrorKind::BrokenPipe.into())),
                Err(m) => {
                    let _ = writeln!(diag.raw(), "Runtime error (line {}): {}", line, m);
                }
            },
            Err(m) if m == "\u{0}quit" => return Ok(false),
            Err(m) => {
                let _ = writeln!(diag.raw(), "{} {}: {}", file, p.line(), m);
                p.recover();
            }
        }
    }
    Ok(true)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut status = 0;
    {
        let mut bc = Bc {
            vars: HashMap::new(),
            arrays: HashMap::new(),
            funcs: HashMap::new(),
            scale: if p.has("l") { 20 } else { 0 },
            ibase: 10,
            obase: 10,
            last: Num::zero(),
            mathlib: p.has("l"),
            out: &mut ctx.out,
            col: 0,
            depth: 0,
            io_err: None,
            warnings: Vec::new(),
        };
        let mut sources: Vec<String> = p.operands.clone();
        sources.push("-".into());
        for name in &sources {
            let mut text = String::new();
            let r = input::open(ctx.stdin, name).and_then(|mut r| r.read_to_string(&mut text));
            if let Err(e) = r {
                ctx.diag.error(format!("File {} is unavailable: {}", name, crate::ctx::reason(&e)));
                status = 1;
                break;
            }
            let label = if name == "-" { "(standard_in)".to_string() } else { name.clone() };
            if !run_source(&mut bc, &mut ctx.diag, &text, &label)? {
                break;
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests;
