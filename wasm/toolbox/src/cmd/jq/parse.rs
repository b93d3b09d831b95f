//! jq program text to AST: a tokenizer (strings keep their `\(...)`
//! interpolations as nested token lists) and a precedence-climbing parser
//! following jq's grammar: `|` < `,` < `//` < assignments < `or` < `and` <
//! comparisons < `+ -` < `* / %` < postfix (`.a`, `[i]`, `[]`, `?`, `as`).

use super::value::{parse_num, V};
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Str(Vec<Part>),
    Ident(String),
    Field(String),
    Var(String),
    Format(String),
    Op(&'static str),
    /// A character jq's lexer has no token for, or a closing bracket that closes nothing open
    /// (jq 1.6's INVALID_CHARACTER).
    Invalid,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Lit(String),
    Interp(Vec<Tok>),
}

#[derive(Debug)]
pub enum StrPart {
    Lit(String),
    Interp(Ast),
}

#[derive(Debug)]
pub enum Pat {
    Var(String),
    Arr(Vec<Pat>),
    Obj(Vec<(Ast, Option<Pat>)>),
}

#[derive(Debug)]
pub struct FnDef {
    pub name: String,
    /// Shared with every call's environment frame (no copy per call).
    pub params: Vec<Rc<str>>,
    pub body: Rc<Ast>,
}

#[derive(Debug)]
pub enum Ast {
    Identity,
    Index(Box<Ast>, Box<Ast>),
    Slice(Box<Ast>, Option<Box<Ast>>, Option<Box<Ast>>),
    Iter(Box<Ast>),
    Lit(V),
    Str(Option<String>, Vec<StrPart>),
    Format(String),
    Array(Option<Box<Ast>>),
    Object(Vec<(Ast, Option<Ast>)>),
    Neg(Box<Ast>),
    Pipe(Box<Ast>, Box<Ast>),
    Comma(Box<Ast>, Box<Ast>),
    Bin(&'static str, Box<Ast>, Box<Ast>),
    And(Box<Ast>, Box<Ast>),
    Or(Box<Ast>, Box<Ast>),
    Alt(Box<Ast>, Box<Ast>),
    Assign(&'static str, Box<Ast>, Box<Ast>),
    If(Vec<(Ast, Ast)>, Option<Box<Ast>>),
    Try(Box<Ast>, Option<Box<Ast>>),
    Reduce(Box<Ast>, Pat, Box<Ast>, Box<Ast>),
    Foreach(Box<Ast>, Pat, Box<Ast>, Box<Ast>, Option<Box<Ast>>),
    Def(Rc<FnDef>, Box<Ast>),
    Call(String, Vec<Rc<Ast>>),
    Var(String),
    As(Box<Ast>, Pat, Box<Ast>),
    Label(String, Box<Ast>),
    Break(String),
}

const OPS: &[&str] = &[
    "?//", "//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "//", "..", "|", ",", ".", "[", "]", "{", "}", "(", ")", ":", ";", "=", "<", ">", "+", "-", "*", "/", "%", "?",
];

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

struct Lexer<'a> {
    s: &'a [char],
    i: usize,
    /// Where each top-level token starts (a char index), for messages that point into the program.
    starts: Vec<usize>,
    /// Where the last token read starts, string pieces included: jq 1.6 points there when the
    /// program ends inside a string.
    last: usize,
}

impl<'a> Lexer<'a> {
    fn ident(&mut self) -> String {
        let st = self.i;
        while self.i < self.s.len() && (is_ident(self.s[self.i]) || (self.s[self.i] == ':' && self.s.get(self.i + 1) == Some(&':'))) {
            if self.s[self.i] == ':' {
                self.i += 1;
            }
            self.i += 1;
        }
        self.s[st..self.i].iter().collect()
    }

    /// Tokens until end of text, or until the `)` closing an interpolation.
    fn tokens(&mut self, nested: bool) -> Result<Vec<Tok>, String> {
        let mut out = Vec::new();
        // The brackets open here, as jq's lexer keeps them: a closer that does not match the
        // innermost is INVALID_CHARACTER; in an interpolation, `)` with none open ends it.
        let mut open: Vec<&'static str> = Vec::new();
        let mut tok_at = 0;
        while self.i < self.s.len() {
            if !nested {
                self.starts.resize(out.len(), tok_at);
            }
            let c = self.s[self.i];
            if c.is_whitespace() {
                self.i += 1;
                continue;
            }
            if c == '#' {
                while self.i < self.s.len() && self.s[self.i] != '\n' {
                    self.i += 1;
                }
                continue;
            }
            tok_at = self.i;
            self.last = self.i;
            if c == '"' {
                self.i += 1;
                out.push(Tok::Str(self.string()?));
                continue;
            }
            if c.is_ascii_digit() || (c == '.' && self.s.get(self.i + 1).map_or(false, |d| d.is_ascii_digit())) {
                let st = self.i;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || self.s[self.i] == '.') {
                    self.i += 1;
                }
                if self.i < self.s.len() && (self.s[self.i] == 'e' || self.s[self.i] == 'E') {
                    let save = self.i;
                    self.i += 1;
                    if self.i < self.s.len() && (self.s[self.i] == '+' || self.s[self.i] == '-') {
                        self.i += 1;
                    }
                    if self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                            self.i += 1;
                        }
                    } else {
                        self.i = save;
                    }
                }
                let w: String = self.s[st..self.i].iter().collect();
                let w2 = if w.starts_with('.') { format!("0{}", w) } else { w.clone() };
                out.push(Tok::Num(parse_num(&w2).ok_or_else(|| format!("invalid numeric literal {}", w))?));
                continue;
            }
            if is_ident_start(c) {
                out.push(Tok::Ident(self.ident()));
                continue;
            }
            if c == '$' && self.s.get(self.i + 1).map_or(false, |d| is_ident_start(*d)) {
                self.i += 1;
                out.push(Tok::Var(self.ident()));
                continue;
            }
            if c == '@' && self.s.get(self.i + 1).map_or(false, |d| is_ident_start(*d)) {
                self.i += 1;
                out.push(Tok::Format(self.ident()));
                continue;
            }
            if c == '.' && self.s.get(self.i + 1).map_or(false, |d| is_ident_start(*d)) {
                self.i += 1;
                let mut name = String::new();
                while self.i < self.s.len() && is_ident(self.s[self.i]) {
                    name.push(self.s[self.i]);
                    self.i += 1;
                }
                out.push(Tok::Field(name));
                continue;
            }
            let op = OPS.iter().find(|op| {
                let n = op.chars().count();
                self.i + n <= self.s.len() && self.s[self.i..self.i + n].iter().copied().eq(op.chars())
            });
            match op {
                Some(op) => {
                    self.i += op.chars().count();
                    match *op {
                        "(" | "[" | "{" => open.push(op),
                        ")" | "]" | "}" => {
                            let opener = match *op {
                                ")" => "(",
                                "]" => "[",
                                _ => "{",
                            };
                            if open.last() == Some(&opener) {
                                open.pop();
                            } else if nested && open.is_empty() && *op == ")" {
                                return Ok(out);
                            } else {
                                out.push(Tok::Invalid);
                                continue;
                            }
                        }
                        _ => {}
                    }
                    out.push(Tok::Op(op));
                }
                None => {
                    self.i += 1;
                    out.push(Tok::Invalid);
                }
            }
        }
        if !nested {
            self.starts.resize(out.len(), tok_at);
        }
        if nested {
            return Err("syntax error, unexpected $end".into());
        }
        Ok(out)
    }

    fn string(&mut self) -> Result<Vec<Part>, String> {
        let mut parts = Vec::new();
        let mut cur = String::new();
        const OPEN: &str = "syntax error, unexpected $end, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END";
        // jq's lexer reads a string as pieces: runs of plain text, runs of escapes, interpolations.
        let mut piece = 0u8;
        loop {
            let c = *self.s.get(self.i).ok_or(OPEN)?;
            let kind = match c {
                '\\' if self.s.get(self.i + 1) == Some(&'(') => 0,
                '\\' => 2,
                _ => 1,
            };
            if kind != piece || kind == 0 {
                self.last = self.i;
            }
            piece = kind;
            self.i += 1;
            match c {
                '"' => break,
                '\\' => {
                    let e = *self.s.get(self.i).ok_or(OPEN)?;
                    self.i += 1;
                    match e {
                        'n' => cur.push('\n'),
                        't' => cur.push('\t'),
                        'r' => cur.push('\r'),
                        'b' => cur.push('\u{8}'),
                        'f' => cur.push('\u{c}'),
                        '"' | '\\' | '/' => cur.push(e),
                        'u' => {
                            let h: String = self.s.get(self.i..self.i + 4).ok_or("invalid \\u escape")?.iter().collect();
                            self.i += 4;
                            let mut cp = u32::from_str_radix(&h, 16).map_err(|_| "invalid \\u escape")?;
                            if (0xd800..0xdc00).contains(&cp) && self.s.get(self.i) == Some(&'\\') && self.s.get(self.i + 1) == Some(&'u') {
                                let h2: String = self.s.get(self.i + 2..self.i + 6).ok_or("invalid \\u escape")?.iter().collect();
                                if let Ok(lo) = u32::from_str_radix(&h2, 16) {
                                    self.i += 6;
                                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff);
                                }
                            }
                            cur.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                        }
                        '(' => {
                            if !cur.is_empty() {
                                parts.push(Part::Lit(std::mem::take(&mut cur)));
                            }
                            parts.push(Part::Interp(self.tokens(true)?));
                            // The `)` that ended it is a token of its own.
                            self.last = self.i - 1;
                            piece = 0;
                        }
                        _ => return Err(format!("invalid escape '\\{}' in string literal", e)),
                    }
                }
                _ => cur.push(c),
            }
        }
        if !cur.is_empty() || parts.is_empty() {
            parts.push(Part::Lit(cur));
        }
        Ok(parts)
    }
}

pub fn parse(src: &str) -> Result<Ast, String> {
    parse_at(src).map_err(|(m, _)| m)
}

/// Parses a program; an error may come with the byte offset jq 1.6 points at (it prints that
/// many spaces after the program's line).
pub fn parse_at(src: &str) -> Result<Ast, (String, Option<usize>)> {
    let chars: Vec<char> = src.chars().collect();
    let mut lx = Lexer { s: &chars, i: 0, starts: Vec::new(), last: 0 };
    let toks = match lx.tokens(false) {
        Ok(t) => t,
        Err(m) => {
            let at = if m.starts_with("syntax error") { Some(byte_at(src, lx.last)) } else { None };
            return Err((m, at));
        }
    };
    let mut p = Parser { t: toks, i: 0, at: lx.starts, zero_div: None };
    let r = p.top();
    let byte = |c: usize| src.char_indices().nth(c).map_or(src.len(), |(b, _)| b);
    match (r, p.zero_div) {
        (_, Some(c)) => Err(("Division by zero?".into(), Some(byte(c)))),
        (Ok(a), None) => Ok(a),
        (Err(m), None) if m.starts_with("syntax error") => {
            // jq 1.6 points at the token it could not take; at the end of the program, at the
            // last thing its lexer read (the trailing blanks, if any, else the last token).
            let at = match p.at.get(p.i) {
                Some(&c) if p.i < p.t.len() => Some(c),
                _ => {
                    let blank = chars.iter().rev().take_while(|c| matches!(c, ' ' | '\t' | '\n')).count();
                    if blank > 0 {
                        Some(chars.len() - blank)
                    } else {
                        p.at.get(p.t.len().wrapping_sub(1)).copied()
                    }
                }
            };
            Err((m, at.map(byte)))
        }
        (Err(m), None) => Err((m, None)),
    }
}

fn byte_at(src: &str, c: usize) -> usize {
    src.char_indices().nth(c).map_or(src.len(), |(b, _)| b)
}

/// An interpolation's program: what may follow it is `)`, not the end of the program.
fn parse_toks(toks: Vec<Tok>) -> Result<Ast, String> {
    let mut p = Parser { t: toks, i: 0, at: Vec::new(), zero_div: None };
    if p.t.is_empty() {
        return Err(format!("syntax error, unexpected {}", "QQSTRING_INTERP_END"));
    }
    let a = p.pipe()?;
    if p.i < p.t.len() {
        return Err(format!("syntax error, unexpected {}", p.show()));
    }
    Ok(a)
}

/// A number jq 1.6 computes while compiling (a literal, or an earlier fold).
fn folded(a: &Ast) -> Option<f64> {
    match a {
        Ast::Lit(V::Num(n)) => Some(*n),
        _ => None,
    }
}

impl Parser {
    fn top(&mut self) -> Result<Ast, String> {
        let p = self;
    if p.t.is_empty() {
        return Ok(Ast::Identity);
    }
    let a = p.pipe()?;
    if p.i < p.t.len() {
        // bison reduces what it has to the whole program, which only the end may follow.
        return Err(format!("syntax error, unexpected {}, expecting $end", p.show()));
    }
    Ok(a)
    }

    /// jq 1.6 folds `+ - * /` on two numbers while compiling; a division that comes out
    /// infinite is its compile error "Division by zero?" (0/0 folds to nan, printed null).
    fn fold(&mut self, op: &'static str, a: Ast, r: Ast, st: usize) -> Ast {
        match (folded(&a), folded(&r)) {
            (Some(x), Some(y)) => {
                let v = match op {
                    "+" => x + y,
                    "-" => x - y,
                    "*" => x * y,
                    "/" => x / y,
                    _ => return Ast::Bin(op, b(a), b(r)),
                };
                if op == "/" && v.is_infinite() && self.zero_div.is_none() {
                    self.zero_div = Some(st);
                }
                Ast::Lit(V::Num(v))
            }
            _ => Ast::Bin(op, b(a), b(r)),
        }
    }
}

struct Parser {
    t: Vec<Tok>,
    i: usize,
    /// Where each token starts in the program (chars; empty inside string interpolations).
    at: Vec<usize>,
    /// Where the first constant division by zero starts.
    zero_div: Option<usize>,
}

fn b(a: Ast) -> Box<Ast> {
    Box::new(a)
}

const KEYWORDS: &[&str] = &["def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try", "catch", "label", "and", "or", "not_a_keyword", "__loc__"];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i)
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Some(Tok::Op(o)) if *o == op)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(o)) if o == kw)
    }
    /// The lookahead as jq 1.6's bison names it: one-character tokens quoted, the others by
    /// their token names (keywords and multi-character operators as written).
    fn show(&self) -> String {
        match self.peek() {
            None => "$end".into(),
            Some(Tok::Op(o)) if o.len() == 1 => format!("'{}'", o),
            Some(Tok::Op(o)) => o.to_string(),
            Some(Tok::Ident(s)) if KEYWORDS.contains(&s.as_str()) => s.clone(),
            Some(Tok::Ident(_)) => "IDENT".into(),
            Some(Tok::Field(_)) => "FIELD".into(),
            Some(Tok::Var(_)) => "'$'".into(),
            Some(Tok::Num(_)) => "LITERAL".into(),
            Some(Tok::Str(_)) => "QQSTRING_START".into(),
            Some(Tok::Format(_)) => "FORMAT".into(),
            Some(Tok::Invalid) => "INVALID_CHARACTER".into(),
        }
    }
    /// The closer of a bracket around an expression: bison's state there also takes every
    /// operator, too many tokens for its message to list.
    fn close(&mut self, op: &str) -> Result<(), String> {
        if self.is_op(op) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("syntax error, unexpected {}", self.show()))
        }
    }
    /// The `)` of a call's arguments or a def's parameters, where `;` may come instead.
    fn close_args(&mut self) -> Result<(), String> {
        if self.is_op(")") {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("syntax error, unexpected {}, expecting ';' or ')'", self.show()))
        }
    }
    fn expect_op(&mut self, op: &str) -> Result<(), String> {
        if self.is_op(op) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("syntax error, unexpected {}, expecting '{}'", self.show(), op))
        }
    }
    /// A keyword that ends an expression (`then`, `end`): bison lists no expected tokens there.
    fn close_kw(&mut self, kw: &str) -> Result<(), String> {
        if self.is_kw(kw) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("syntax error, unexpected {}", self.show()))
        }
    }
    fn expect_kw(&mut self, kw: &str) -> Result<(), String> {
        if self.is_kw(kw) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("syntax error, unexpected {}, expecting {}", self.show(), kw))
        }
    }

    fn pipe(&mut self) -> Result<Ast, String> {
        self.pipe_with(true)
    }

    /// `comma` false parses an object value: a pipe whose parts hold no `,`.
    fn pipe_with(&mut self, comma: bool) -> Result<Ast, String> {
        if self.is_kw("def") {
            let d = self.def()?;
            let rest = self.pipe_with(comma)?;
            return Ok(Ast::Def(Rc::new(d), b(rest)));
        }
        if self.is_kw("label") {
            self.i += 1;
            let name = match self.t.get(self.i) {
                Some(Tok::Var(v)) => v.clone(),
                _ => return Err(format!("syntax error, unexpected {}, expecting '$'", self.show())),
            };
            self.i += 1;
            self.expect_op("|")?;
            let body = self.pipe_with(comma)?;
            return Ok(Ast::Label(name, b(body)));
        }
        let lhs = if comma { self.comma()? } else { self.alt()? };
        if self.is_op("|") {
            self.i += 1;
            let rhs = self.pipe_with(comma)?;
            return Ok(Ast::Pipe(b(lhs), b(rhs)));
        }
        Ok(lhs)
    }

    fn def(&mut self) -> Result<FnDef, String> {
        self.expect_kw("def")?;
        let name = match self.t.get(self.i) {
            Some(Tok::Ident(n)) if !KEYWORDS.contains(&n.as_str()) => n.clone(),
            _ => return Err(format!("syntax error, unexpected {}, expecting IDENT", self.show())),
        };
        self.i += 1;
        let mut params = Vec::new();
        if self.is_op("(") {
            self.i += 1;
            loop {
                match self.t.get(self.i) {
                    Some(Tok::Ident(n)) => params.push(Rc::from(n.as_str())),
                    Some(Tok::Var(n)) => params.push(Rc::from(format!("${}", n).as_str())),
                    _ => return Err(format!("syntax error, unexpected {}", self.show())),
                }
                self.i += 1;
                if self.is_op(";") {
                    self.i += 1;
                    continue;
                }
                self.close_args()?;
                break;
            }
        }
        if !self.is_op(":") {
            return Err(format!("syntax error, unexpected {}, expecting {}", self.show(), if params.is_empty() { "'(' or ':'" } else { "':'" }));
        }
        self.i += 1;
        let body = self.pipe()?;
        self.close(";")?;
        Ok(FnDef { name, params, body: Rc::new(body) })
    }

    fn comma(&mut self) -> Result<Ast, String> {
        let mut a = self.alt()?;
        while self.is_op(",") {
            self.i += 1;
            let r = self.alt()?;
            a = Ast::Comma(b(a), b(r));
        }
        Ok(a)
    }

    fn alt(&mut self) -> Result<Ast, String> {
        let a = self.assign()?;
        if self.is_op("//") {
            self.i += 1;
            let r = self.alt()?;
            return Ok(Ast::Alt(b(a), b(r)));
        }
        Ok(a)
    }

    fn assign(&mut self) -> Result<Ast, String> {
        let a = self.or()?;
        for op in ["=", "|=", "+=", "-=", "*=", "/=", "%=", "//="] {
            if self.is_op(op) {
                self.i += 1;
                let r = self.alt()?;
                let op: &'static str = OPS.iter().find(|o| **o == op).unwrap();
                return Ok(Ast::Assign(op, b(a), b(r)));
            }
        }
        Ok(a)
    }

    fn or(&mut self) -> Result<Ast, String> {
        let mut a = self.and()?;
        while self.is_kw("or") {
            self.i += 1;
            let r = self.and()?;
            a = Ast::Or(b(a), b(r));
        }
        Ok(a)
    }

    fn and(&mut self) -> Result<Ast, String> {
        let mut a = self.cmp()?;
        while self.is_kw("and") {
            self.i += 1;
            let r = self.cmp()?;
            a = Ast::And(b(a), b(r));
        }
        Ok(a)
    }

    fn cmp(&mut self) -> Result<Ast, String> {
        let a = self.add()?;
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            if self.is_op(op) {
                self.i += 1;
                let r = self.add()?;
                let op: &'static str = OPS.iter().find(|o| **o == op).unwrap();
                return Ok(Ast::Bin(op, b(a), b(r)));
            }
        }
        Ok(a)
    }

    fn add(&mut self) -> Result<Ast, String> {
        let st = self.at.get(self.i).copied().unwrap_or(0);
        let mut a = self.mul()?;
        loop {
            let op = if self.is_op("+") { "+" } else if self.is_op("-") { "-" } else { break };
            self.i += 1;
            let r = self.mul()?;
            a = self.fold(op, a, r, st);
        }
        Ok(a)
    }

    fn mul(&mut self) -> Result<Ast, String> {
        let st = self.at.get(self.i).copied().unwrap_or(0);
        let mut a = self.unary()?;
        loop {
            let op = if self.is_op("*") {
                "*"
            } else if self.is_op("/") {
                "/"
            } else if self.is_op("%") {
                "%"
            } else {
                break;
            };
            self.i += 1;
            let r = self.unary()?;
            a = self.fold(op, a, r, st);
        }
        Ok(a)
    }

    fn unary(&mut self) -> Result<Ast, String> {
        if self.is_op("-") {
            self.i += 1;
            let a = self.unary()?;
            return Ok(Ast::Neg(b(a)));
        }
        self.postfix(true)
    }

    fn postfix(&mut self, allow_as: bool) -> Result<Ast, String> {
        let mut t = self.term()?;
        loop {
            match self.peek().cloned() {
                Some(Tok::Field(f)) => {
                    self.i += 1;
                    t = Ast::Index(b(t), b(Ast::Lit(V::str(&f))));
                }
                Some(Tok::Op(".")) if matches!(self.t.get(self.i + 1), Some(Tok::Str(_))) => {
                    self.i += 1;
                    let k = self.term()?;
                    t = Ast::Index(b(t), b(k));
                }
                Some(Tok::Op(".")) if matches!(self.t.get(self.i + 1), Some(Tok::Op("["))) => {
                    self.i += 1;
                }
                Some(Tok::Op("[")) => {
                    self.i += 1;
                    t = self.bracket(t)?;
                }
                Some(Tok::Op("?")) => {
                    self.i += 1;
                    t = Ast::Try(b(t), None);
                }
                Some(Tok::Ident(k)) if k == "as" && allow_as => {
                    self.i += 1;
                    let pat = self.pattern()?;
                    self.expect_op("|")?;
                    let body = self.pipe()?;
                    return Ok(Ast::As(b(t), pat, b(body)));
                }
                _ => return Ok(t),
            }
        }
    }

    /// After `[`: `]` iterates, `e]` indexes, `a:b]` slices.
    fn bracket(&mut self, t: Ast) -> Result<Ast, String> {
        if self.is_op("]") {
            self.i += 1;
            return Ok(Ast::Iter(b(t)));
        }
        if self.is_op(":") {
            self.i += 1;
            let hi = self.pipe()?;
            self.close("]")?;
            return Ok(Ast::Slice(b(t), None, Some(b(hi))));
        }
        let k = self.pipe()?;
        if self.is_op(":") {
            self.i += 1;
            if self.is_op("]") {
                self.i += 1;
                return Ok(Ast::Slice(b(t), Some(b(k)), None));
            }
            let hi = self.pipe()?;
            self.close("]")?;
            return Ok(Ast::Slice(b(t), Some(b(k)), Some(b(hi))));
        }
        self.close("]")?;
        Ok(Ast::Index(b(t), b(k)))
    }

    fn pattern(&mut self) -> Result<Pat, String> {
        match self.peek().cloned() {
            Some(Tok::Var(v)) => {
                self.i += 1;
                Ok(Pat::Var(v))
            }
            Some(Tok::Op("[")) => {
                self.i += 1;
                let mut ps = Vec::new();
                loop {
                    ps.push(self.pattern()?);
                    if self.is_op(",") {
                        self.i += 1;
                        continue;
                    }
                    if !self.is_op("]") {
                        return Err(format!("syntax error, unexpected {}, expecting ',' or ']'", self.show()));
                    }
                    self.i += 1;
                    return Ok(Pat::Arr(ps));
                }
            }
            Some(Tok::Op("{")) => {
                self.i += 1;
                let mut ps = Vec::new();
                loop {
                    match self.peek().cloned() {
                        Some(Tok::Var(v)) => {
                            self.i += 1;
                            let sub = if self.is_op(":") {
                                self.i += 1;
                                Some(self.pattern()?)
                            } else {
                                None
                            };
                            // `$name` binds the field and may destructure it too.
                            ps.push((Ast::Lit(V::str(&v)), Some(Pat::Var(v.clone()))));
                            if let Some(s) = sub {
                                ps.push((Ast::Lit(V::str(&v)), Some(s)));
                            }
                        }
                        Some(Tok::Ident(k)) => {
                            self.i += 1;
                            self.expect_op(":")?;
                            ps.push((Ast::Lit(V::str(&k)), Some(self.pattern()?)));
                        }
                        Some(Tok::Str(_)) => {
                            let k = self.term()?;
                            self.expect_op(":")?;
                            ps.push((k, Some(self.pattern()?)));
                        }
                        Some(Tok::Op("(")) => {
                            self.i += 1;
                            let k = self.pipe()?;
                            self.close(")")?;
                            self.expect_op(":")?;
                            ps.push((k, Some(self.pattern()?)));
                        }
                        _ => return Err(format!("syntax error, unexpected {} in object pattern", self.show())),
                    }
                    if self.is_op(",") {
                        self.i += 1;
                        continue;
                    }
                    self.expect_op("}")?;
                    return Ok(Pat::Obj(ps));
                }
            }
            _ => Err(format!("syntax error, unexpected {}, expecting '$' or '[' or '{{'", self.show())),
        }
    }

    fn string(&mut self, fmt: Option<String>, parts: Vec<Part>) -> Result<Ast, String> {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Part::Lit(s) => out.push(StrPart::Lit(s)),
                Part::Interp(toks) => out.push(StrPart::Interp(parse_toks(toks)?)),
            }
        }
        if fmt.is_none() && out.len() == 1 {
            if let StrPart::Lit(s) = &out[0] {
                return Ok(Ast::Lit(V::str(s)));
            }
        }
        Ok(Ast::Str(fmt, out))
    }

    fn term(&mut self) -> Result<Ast, String> {
        let t = match self.peek().cloned() {
            Some(t) => t,
            None => return Err(format!("syntax error, unexpected {}", self.show())),
        };
        self.i += 1;
        match t {
            Tok::Num(n) => Ok(Ast::Lit(V::Num(n))),
            Tok::Str(parts) => self.string(None, parts),
            Tok::Format(f) => {
                if let Some(Tok::Str(parts)) = self.peek().cloned() {
                    self.i += 1;
                    return self.string(Some(f), parts);
                }
                Ok(Ast::Format(f))
            }
            Tok::Field(f) => Ok(Ast::Index(b(Ast::Identity), b(Ast::Lit(V::str(&f))))),
            Tok::Var(v) => Ok(Ast::Var(v)),
            Tok::Op(".") => {
                if let Some(Tok::Str(parts)) = self.peek().cloned() {
                    self.i += 1;
                    let k = self.string(None, parts)?;
                    return Ok(Ast::Index(b(Ast::Identity), b(k)));
                }
                Ok(Ast::Identity)
            }
            Tok::Op("..") => Ok(Ast::Call("recurse".into(), vec![])),
            Tok::Op("(") => {
                let e = self.pipe()?;
                self.close(")")?;
                Ok(e)
            }
            Tok::Op("[") => {
                if self.is_op("]") {
                    self.i += 1;
                    return Ok(Ast::Array(None));
                }
                let e = self.pipe()?;
                self.close("]")?;
                Ok(Ast::Array(Some(b(e))))
            }
            Tok::Op("{") => self.object(),
            Tok::Ident(k) => match k.as_str() {
                "true" => Ok(Ast::Lit(V::Bool(true))),
                "false" => Ok(Ast::Lit(V::Bool(false))),
                "null" => Ok(Ast::Lit(V::Null)),
                "if" => {
                    let mut arms = Vec::new();
                    loop {
                        let c = self.pipe()?;
                        self.close_kw("then")?;
                        let t = self.pipe()?;
                        arms.push((c, t));
                        if self.is_kw("elif") {
                            self.i += 1;
                            continue;
                        }
                        break;
                    }
                    let els = if self.is_kw("else") {
                        self.i += 1;
                        Some(b(self.pipe()?))
                    } else {
                        None
                    };
                    self.close_kw("end")?;
                    Ok(Ast::If(arms, els))
                }
                "try" => {
                    let body = self.postfix(false)?;
                    let catch = if self.is_kw("catch") {
                        self.i += 1;
                        Some(b(self.postfix(false)?))
                    } else {
                        None
                    };
                    Ok(Ast::Try(b(body), catch))
                }
                "reduce" | "foreach" => {
                    let src = self.postfix(false)?;
                    self.expect_kw("as")?;
                    let pat = self.pattern()?;
                    self.expect_op("(")?;
                    let init = self.pipe()?;
                    self.close(";")?;
                    let upd = self.pipe()?;
                    if k == "reduce" {
                        self.close(")")?;
                        return Ok(Ast::Reduce(b(src), pat, b(init), b(upd)));
                    }
                    let ext = if self.is_op(";") {
                        self.i += 1;
                        Some(b(self.pipe()?))
                    } else {
                        None
                    };
                    self.close(")")?;
                    Ok(Ast::Foreach(b(src), pat, b(init), b(upd), ext))
                }
                "def" => {
                    self.i -= 1;
                    let d = self.def()?;
                    let rest = self.pipe()?;
                    Ok(Ast::Def(Rc::new(d), b(rest)))
                }
                "break" => match self.peek().cloned() {
                    Some(Tok::Var(v)) => {
                        self.i += 1;
                        Ok(Ast::Break(v))
                    }
                    _ => Err(format!("syntax error, unexpected {}", self.show())),
                },
                _ if KEYWORDS.contains(&k.as_str()) => {
                    self.i -= 1;
                    Err(format!("syntax error, unexpected {}", k))
                }
                _ => {
                    let mut args = Vec::new();
                    if self.is_op("(") {
                        self.i += 1;
                        loop {
                            args.push(Rc::new(self.pipe()?));
                            if self.is_op(";") {
                                self.i += 1;
                                continue;
                            }
                            self.close_args()?;
                            break;
                        }
                    }
                    Ok(Ast::Call(k, args))
                }
            },
            Tok::Op(_) | Tok::Invalid => {
                self.i -= 1;
                Err(format!("syntax error, unexpected {}", self.show()))
            }
        }
    }

    fn object(&mut self) -> Result<Ast, String> {
        let mut entries = Vec::new();
        if self.is_op("}") {
            self.i += 1;
            return Ok(Ast::Object(entries));
        }
        loop {
            let key = match self.peek().cloned() {
                Some(Tok::Var(v)) => {
                    self.i += 1;
                    entries.push((Ast::Lit(V::str(&v)), Some(Ast::Var(v))));
                    None
                }
                Some(Tok::Ident(k)) => {
                    self.i += 1;
                    Some(Ast::Lit(V::str(&k)))
                }
                Some(Tok::Num(n)) => {
                    self.i += 1;
                    Some(Ast::Lit(V::Num(n)))
                }
                Some(Tok::Str(_)) | Some(Tok::Format(_)) => Some(self.term()?),
                Some(Tok::Op("(")) => {
                    self.i += 1;
                    let k = self.pipe()?;
                    self.close(")")?;
                    Some(k)
                }
                _ => return Err(format!("syntax error, unexpected {}", self.show())),
            };
            if let Some(key) = key {
                if self.is_op(":") {
                    self.i += 1;
                    let v = self.pipe_with(false)?;
                    entries.push((key, Some(v)));
                } else {
                    entries.push((key, None));
                }
            }
            if self.is_op(",") {
                self.i += 1;
                continue;
            }
            self.expect_op("}")?;
            return Ok(Ast::Object(entries));
        }
    }
}
