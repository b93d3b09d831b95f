//! bc's language: tokens, then statements and expressions (POSIX grammar
//! with the GNU additions agents use: `print`, `else`, `&&`/`||`/`!`,
//! `#` comments, long names, `halt`, `last`).

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(String),
    Name(String),
    Str(String),
    Op(&'static str),
    Newline,
    Eof,
}

const OPS: &[&str] = &[
    "^=", "*=", "/=", "%=", "+=", "-=", "==", "<=", ">=", "!=", "&&", "||", "++", "--", "+", "-", "*", "/", "%", "^", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ";",
];

/// Splits source text into tokens, each with its line number.
pub fn lex(src: &str) -> Result<Vec<(Tok, usize)>, (String, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' && b.get(i + 1) == Some(&b'\n') {
            i += 2;
            line += 1;
            continue;
        }
        if c == b'\n' {
            out.push((Tok::Newline, line));
            line += 1;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = line;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(("comment not terminated".into(), start));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            continue;
        }
        if c == b'"' {
            let start = line;
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                if b[j] == b'\n' {
                    line += 1;
                }
                j += 1;
            }
            if j >= b.len() {
                return Err(("string not terminated".into(), start));
            }
            out.push((Tok::Str(src[i + 1..j].to_string()), start));
            i = j + 1;
            continue;
        }
        let is_digit = |c: u8| c.is_ascii_digit() || c.is_ascii_uppercase();
        if is_digit(c) || (c == b'.' && b.get(i + 1).map_or(false, |&d| is_digit(d))) {
            let mut s = String::new();
            let mut dot = false;
            while i < b.len() {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 2;
                    line += 1;
                    continue;
                }
                if is_digit(b[i]) || (b[i] == b'.' && !dot) {
                    dot |= b[i] == b'.';
                    s.push(b[i] as char);
                    i += 1;
                } else {
                    break;
                }
            }
            out.push((Tok::Num(s), line));
            continue;
        }
        if c == b'.' {
            out.push((Tok::Name("last".into()), line));
            i += 1;
            continue;
        }
        if c.is_ascii_lowercase() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_lowercase() || b[j].is_ascii_digit() || b[j] == b'_') {
                j += 1;
            }
            out.push((Tok::Name(src[i..j].to_string()), line));
            i = j;
            continue;
        }
        match OPS.iter().find(|op| b[i..].starts_with(op.as_bytes())) {
            Some(op) => {
                out.push((Tok::Op(op), line));
                i += op.len();
            }
            None => return Err((format!("illegal character: {}", c as char), line)),
        }
    }
    out.push((Tok::Eof, line));
    Ok(out)
}

#[derive(Clone, Debug)]
pub enum LVal {
    Var(String),
    Elem(String, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Arg {
    Val(Expr),
    Array(String),
}

#[derive(Clone, Debug)]
pub enum Expr {
    Num(String),
    Load(LVal),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Assign(Option<&'static str>, LVal, Box<Expr>),
    /// (prefix?, +1 or -1, target)
    Step(bool, i64, LVal),
    Call(String, Vec<Arg>),
    Builtin(&'static str, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Item {
    Str(String),
    Val(Expr),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Expr(Expr),
    Str(String),
    Print(Vec<Item>),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    For(Option<Expr>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Halt,
    Empty,
}

#[derive(Debug)]
pub struct Func {
    /// (name, is_array)
    pub params: Vec<(String, bool)>,
    pub autos: Vec<(String, bool)>,
    pub body: Vec<Stmt>,
}

/// What one top-level unit turned out to be.
pub enum Unit {
    Stmts(Vec<Stmt>),
    Define(String, Func),
    Quit,
}

pub struct Parser {
    toks: Vec<(Tok, usize)>,
    pub pos: usize,
    loops: usize,
    in_func: bool,
}

type PRes<T> = Result<T, String>;

const KEYWORDS: &[&str] = &["if", "else", "while", "for", "break", "continue", "return", "define", "auto", "print", "quit", "halt", "length", "scale", "sqrt", "ibase", "obase", "last", "read", "limits", "warranty"];

impl Parser {
    pub fn new(toks: Vec<(Tok, usize)>) -> Parser {
        Parser { toks, pos: 0, loops: 0, in_func: false }
    }
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].0
    }
    pub fn line(&self) -> usize {
        self.toks[self.pos.min(self.toks.len() - 1)].1
    }
    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_name(&self, n: &str) -> bool {
        matches!(self.peek(), Tok::Name(x) if x == n)
    }
    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.next();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, op: &str) -> PRes<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err("syntax error".into())
        }
    }
    fn skip_newlines(&mut self) {
        while *self.peek() == Tok::Newline {
            self.next();
        }
    }
    pub fn at_eof(&self) -> bool {
        *self.peek() == Tok::Eof
    }
    /// Skips to just after the next newline (error recovery).
    pub fn recover(&mut self) {
        loop {
            match self.next() {
                Tok::Newline | Tok::Eof => return,
                _ => {}
            }
        }
    }

    /// The statements up to the end of the current line (a unit bc runs as
    /// one), or a function definition.
    pub fn unit(&mut self) -> PRes<Unit> {
        let mut stmts = Vec::new();
        loop {
            match self.peek() {
                Tok::Eof => return Ok(Unit::Stmts(stmts)),
                Tok::Newline => {
                    self.next();
                    return Ok(Unit::Stmts(stmts));
                }
                Tok::Op(";") => {
                    self.next();
                }
                _ => {
                    if self.is_name("quit") {
                        return Ok(Unit::Quit);
                    }
                    if self.is_name("define") {
                        // Statements before it on the line run first.
                        return if stmts.is_empty() { self.define() } else { Ok(Unit::Stmts(stmts)) };
                    }
                    stmts.push(self.stmt()?);
                    if !(self.is_op(";") || matches!(self.peek(), Tok::Newline | Tok::Eof)) {
                        return Err("syntax error".into());
                    }
                }
            }
        }
    }

    fn define(&mut self) -> PRes<Unit> {
        self.next();
        let name = match self.next() {
            Tok::Name(n) if !KEYWORDS.contains(&n.as_str()) => n,
            _ => return Err("syntax error".into()),
        };
        self.expect("(")?;
        let params = self.name_list(")")?;
        self.expect(")")?;
        self.skip_newlines();
        self.expect("{")?;
        self.skip_newlines();
        let mut autos = Vec::new();
        if self.is_name("auto") {
            self.next();
            autos = self.name_list("")?;
            if !(self.eat_op(";") || *self.peek() == Tok::Newline) {
                return Err("syntax error".into());
            }
        }
        self.in_func = true;
        let body = self.stmts_until("}");
        self.in_func = false;
        let body = body?;
        Ok(Unit::Define(name, Func { params, autos, body }))
    }

    fn name_list(&mut self, end: &str) -> PRes<Vec<(String, bool)>> {
        let mut out = Vec::new();
        if !end.is_empty() && self.is_op(end) {
            return Ok(out);
        }
        loop {
            let n = match self.next() {
                Tok::Name(n) if !KEYWORDS.contains(&n.as_str()) => n,
                _ => return Err("syntax error".into()),
            };
            let arr = if self.eat_op("[") {
                self.expect("]")?;
                true
            } else {
                false
            };
            out.push((n, arr));
            if !self.eat_op(",") {
                return Ok(out);
            }
        }
    }

    /// Statements separated by `;`/newlines up to the closing `}` (eaten).
    fn stmts_until(&mut self, end: &str) -> PRes<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            while self.eat_op(";") || *self.peek() == Tok::Newline {
                self.next_if_newline();
            }
            if self.eat_op(end) {
                return Ok(out);
            }
            if self.at_eof() {
                return Err("syntax error".into());
            }
            if self.is_name("quit") {
                return Err("\u{0}quit".into());
            }
            out.push(self.stmt()?);
            if !(self.is_op(";") || self.is_op(end) || *self.peek() == Tok::Newline) {
                return Err("syntax error".into());
            }
        }
    }
    fn next_if_newline(&mut self) {
        if *self.peek() == Tok::Newline {
            self.next();
        }
    }

    fn body(&mut self) -> PRes<Stmt> {
        self.skip_newlines();
        if self.is_op(";") {
            self.next();
            return Ok(Stmt::Empty);
        }
        if self.is_name("quit") {
            return Err("\u{0}quit".into());
        }
        self.stmt()
    }

    fn stmt(&mut self) -> PRes<Stmt> {
        if self.eat_op("{") {
            return Ok(Stmt::Block(self.stmts_until("}")?));
        }
        if let Tok::Str(s) = self.peek().clone() {
            self.next();
            return Ok(Stmt::Str(s));
        }
        let word = match self.peek() {
            Tok::Name(n) => n.clone(),
            _ => String::new(),
        };
        match word.as_str() {
            "if" => {
                self.next();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                let then = self.body()?;
                // `else` may follow on a later line.
                let save = self.pos;
                self.skip_newlines();
                let els = if self.is_name("else") {
                    self.next();
                    Some(Box::new(self.body()?))
                } else {
                    self.pos = save;
                    None
                };
                Ok(Stmt::If(c, Box::new(then), els))
            }
            "while" => {
                self.next();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                self.loops += 1;
                let b = self.body();
                self.loops -= 1;
                Ok(Stmt::While(c, Box::new(b?)))
            }
            "for" => {
                self.next();
                self.expect("(")?;
                let a = if self.is_op(";") { None } else { Some(self.expr()?) };
                self.expect(";")?;
                let c = if self.is_op(";") { None } else { Some(self.expr()?) };
                self.expect(";")?;
                let s = if self.is_op(")") { None } else { Some(self.expr()?) };
                self.expect(")")?;
                self.loops += 1;
                let b = self.body();
                self.loops -= 1;
                Ok(Stmt::For(a, c, s, Box::new(b?)))
            }
            "break" | "continue" => {
                self.next();
                if self.loops == 0 {
                    return Err(format!("{} outside a for/while", word));
                }
                Ok(if word == "break" { Stmt::Break } else { Stmt::Continue })
            }
            "return" => {
                self.next();
                if !self.in_func {
                    return Err("return outside of a function".into());
                }
                if self.is_op(";") || self.is_op("}") || matches!(self.peek(), Tok::Newline | Tok::Eof) {
                    return Ok(Stmt::Return(None));
                }
                Ok(Stmt::Return(Some(self.expr()?)))
            }
            "halt" => {
                self.next();
                Ok(Stmt::Halt)
            }
            "print" => {
                self.next();
                let mut items = Vec::new();
                loop {
                    if let Tok::Str(s) = self.peek().clone() {
                        self.next();
                        items.push(Item::Str(s));
                    } else {
                        items.push(Item::Val(self.expr()?));
                    }
                    if !self.eat_op(",") {
                        return Ok(Stmt::Print(items));
                    }
                }
            }
            "limits" | "warranty" | "read" | "auto" | "define" | "else" => Err(format!("'{}' is not supported here", word)),
            _ => Ok(Stmt::Expr(self.expr()?)),
        }
    }

    pub fn expr(&mut self) -> PRes<Expr> {
        self.or()
    }
    fn or(&mut self) -> PRes<Expr> {
        let mut l = self.and()?;
        while self.eat_op("||") {
            l = Expr::Bin("||", Box::new(l), Box::new(self.and()?));
        }
        Ok(l)
    }
    fn and(&mut self) -> PRes<Expr> {
        let mut l = self.not()?;
        while self.eat_op("&&") {
            l = Expr::Bin("&&", Box::new(l), Box::new(self.not()?));
        }
        Ok(l)
    }
    fn not(&mut self) -> PRes<Expr> {
        if self.eat_op("!") {
            return Ok(Expr::Not(Box::new(self.not()?)));
        }
        self.rel()
    }
    fn rel(&mut self) -> PRes<Expr> {
        let mut l = self.assign()?;
        loop {
            let op = match self.peek() {
                Tok::Op(o) if ["==", "!=", "<", ">", "<=", ">="].contains(o) => *o,
                _ => return Ok(l),
            };
            self.next();
            l = Expr::Bin(op, Box::new(l), Box::new(self.assign()?));
        }
    }
    fn assign(&mut self) -> PRes<Expr> {
        let l = self.add()?;
        let op = match self.peek() {
            Tok::Op(o) if ["=", "+=", "-=", "*=", "/=", "%=", "^="].contains(o) => *o,
            _ => return Ok(l),
        };
        let lv = match l {
            Expr::Load(lv) => lv,
            _ => return Err("syntax error".into()),
        };
        self.next();
        let r = self.assign()?;
        let bin = if op == "=" { None } else { Some(&op[..1]) };
        let bin = bin.map(|b| *["+", "-", "*", "/", "%", "^"].iter().find(|x| **x == b).unwrap_or(&"+"));
        Ok(Expr::Assign(bin, lv, Box::new(r)))
    }
    fn add(&mut self) -> PRes<Expr> {
        let mut l = self.mul()?;
        loop {
            let op = if self.is_op("+") { "+" } else if self.is_op("-") { "-" } else { return Ok(l) };
            self.next();
            l = Expr::Bin(op, Box::new(l), Box::new(self.mul()?));
        }
    }
    fn mul(&mut self) -> PRes<Expr> {
        let mut l = self.pow()?;
        loop {
            let op = if self.is_op("*") { "*" } else if self.is_op("/") { "/" } else if self.is_op("%") { "%" } else { return Ok(l) };
            self.next();
            l = Expr::Bin(op, Box::new(l), Box::new(self.pow()?));
        }
    }
    fn pow(&mut self) -> PRes<Expr> {
        let l = self.unary()?;
        if self.eat_op("^") {
            return Ok(Expr::Bin("^", Box::new(l), Box::new(self.pow()?)));
        }
        Ok(l)
    }
    fn unary(&mut self) -> PRes<Expr> {
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        for (op, d) in [("++", 1), ("--", -1)] {
            if self.eat_op(op) {
                return Ok(Expr::Step(true, d, self.lvalue()?));
            }
        }
        let e = self.primary()?;
        if let Expr::Load(lv) = &e {
            for (op, d) in [("++", 1), ("--", -1)] {
                if self.eat_op(op) {
                    return Ok(Expr::Step(false, d, lv.clone()));
                }
            }
        }
        Ok(e)
    }
    fn lvalue(&mut self) -> PRes<LVal> {
        match self.primary()? {
            Expr::Load(lv) => Ok(lv),
            _ => Err("syntax error".into()),
        }
    }
    fn primary(&mut self) -> PRes<Expr> {
        match self.next() {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Op("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Name(n) => {
                if ["length", "sqrt", "scale"].contains(&n.as_str()) && self.is_op("(") {
                    self.next();
                    let e = self.expr()?;
                    self.expect(")")?;
                    let b = if n == "length" { "length" } else if n == "sqrt" { "sqrt" } else { "scale" };
                    return Ok(Expr::Builtin(b, Box::new(e)));
                }
                if n == "read" {
                    return Err("read() is not supported: bc reads its program from standard input here".into());
                }
                if KEYWORDS.contains(&n.as_str()) && !["scale", "ibase", "obase", "last"].contains(&n.as_str()) {
                    return Err("syntax error".into());
                }
                if self.eat_op("(") {
                    let mut args = Vec::new();
                    if !self.eat_op(")") {
                        loop {
                            // `name[]` passes a whole array.
                            if let (Tok::Name(a), Some((Tok::Op("["), _)), Some((Tok::Op("]"), _))) = (self.peek().clone(), self.toks.get(self.pos + 1), self.toks.get(self.pos + 2)) {
                                self.pos += 3;
                                args.push(Arg::Array(a));
                            } else {
                                args.push(Arg::Val(self.expr()?));
                            }
                            if self.eat_op(")") {
                                break;
                            }
                            self.expect(",")?;
                        }
                    }
                    return Ok(Expr::Call(n, args));
                }
                if self.eat_op("[") {
                    let i = self.expr()?;
                    self.expect("]")?;
                    return Ok(Expr::Load(LVal::Elem(n, Box::new(i))));
                }
                Ok(Expr::Load(LVal::Var(n)))
            }
            _ => Err("syntax error".into()),
        }
    }
}
