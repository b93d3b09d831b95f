//! awk grammar to AST (POSIX awk, recursive descent).

use super::lex::Tok;

#[derive(Debug, Clone)]
pub enum Expr {
    Num(f64),
    Str(String),
    Regex(String),
    Var(String),
    Field(Box<Expr>),
    Index(String, Vec<Expr>),
    /// gawk's arrays of arrays: an element of the subarray the first expression names
    /// (an Index or another Sub): `a[i][j]` is Sub(Index(a, [i]), [j]).
    Sub(Box<Expr>, Vec<Expr>),
    Assign(&'static str, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// `(keys) in ARRAY`, the array a name or a subarray (Var, Index or Sub).
    In(Vec<Expr>, Box<Expr>),
    Match(bool, Box<Expr>, Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Cmp(&'static str, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Not(Box<Expr>),
    IncDec(bool, i8, Box<Expr>),
    Call(String, Vec<Expr>),
    Builtin(String, Vec<Expr>),
    Getline(Option<Box<Expr>>, Option<Box<Expr>>),
    /// `cmd | getline [var]`: parsed so the refusal names it (no commands run here).
    CmdGetline,
    Group(Box<Expr>),
}

#[derive(Debug, Clone)]
pub enum Redir {
    None,
    File(Expr),
    Append(Expr),
    Pipe(Expr),
}

#[derive(Debug, Clone)]
pub enum Stmt {
    Expr(Expr),
    Print(Vec<Expr>, Redir),
    Printf(Vec<Expr>, Redir),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    Do(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Box<Stmt>>, Box<Stmt>),
    /// `for (k in ARRAY)`, the array a Var, Index or Sub.
    ForIn(String, Expr, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    /// `delete ARRAY[keys]` or `delete ARRAY`, the array a Var, Index or Sub.
    Delete(Expr, Option<Vec<Expr>>),
    /// The source line (of the whole program text) the statements after it start on: where a
    /// runtime fatal says it happened (`awk: cmd. line:3: fatal: ...`).
    Line(usize),
}

#[derive(Debug, Clone)]
pub enum Pattern {
    Begin,
    End,
    All,
    Expr(Expr),
    Range(Expr, Expr),
}

#[derive(Debug, Clone)]
pub struct Func {
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
}

#[derive(Debug, Default)]
pub struct Program {
    pub items: Vec<(Pattern, Option<Vec<Stmt>>)>,
    pub funcs: std::collections::HashMap<String, Func>,
}

pub struct P {
    t: Vec<(Tok, usize)>,
    i: usize,
    /// Inside print's argument list an unparenthesised `>` redirects.
    no_gt: bool,
    no_in: bool,
}

type R<T> = Result<T, String>;

impl P {
    fn peek(&self) -> &Tok {
        &self.t[self.i].0
    }
    fn line(&self) -> usize {
        self.t[self.i].1
    }
    fn next(&mut self) -> Tok {
        let t = self.t[self.i].0.clone();
        if self.i + 1 < self.t.len() {
            self.i += 1;
        }
        t
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Kw(k) if *k == kw)
    }
    fn err<T>(&self, what: &str) -> R<T> {
        Err(format!("syntax error at source line {}: {} (near {:?})", self.line(), what, self.peek()))
    }
    fn expect_op(&mut self, op: &str) -> R<()> {
        if self.is_op(op) {
            self.next();
            Ok(())
        } else {
            self.err(&format!("expected '{}'", op))
        }
    }
    fn nl(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.next();
        }
    }
    fn term(&mut self) {
        while matches!(self.peek(), Tok::Newline) || self.is_op(";") {
            self.next();
        }
    }

    pub fn program(&mut self) -> R<Program> {
        let mut prog = Program::default();
        self.term();
        while !matches!(self.peek(), Tok::Eof) {
            if self.is_kw("function") {
                self.next();
                let name = match self.next() {
                    Tok::Name(n) | Tok::FuncName(n) => n,
                    _ => return self.err("function name expected"),
                };
                self.expect_op("(")?;
                let mut params = Vec::new();
                while !self.is_op(")") {
                    match self.next() {
                        Tok::Name(n) => params.push(n),
                        _ => return self.err("parameter name expected"),
                    }
                    if self.is_op(",") {
                        self.next();
                        self.nl();
                    }
                }
                self.next();
                self.nl();
                let body = self.block()?;
                prog.funcs.insert(name, Func { params, body });
            } else {
                let pat = if self.is_kw("BEGIN") {
                    self.next();
                    Pattern::Begin
                } else if self.is_kw("END") {
                    self.next();
                    Pattern::End
                } else if self.is_op("{") {
                    Pattern::All
                } else {
                    let a = self.expr()?;
                    if self.is_op(",") {
                        self.next();
                        self.nl();
                        Pattern::Range(a, self.expr()?)
                    } else {
                        Pattern::Expr(a)
                    }
                };
                let action = if self.is_op("{") { Some(self.block()?) } else { None };
                if action.is_none() && matches!(pat, Pattern::Begin | Pattern::End) {
                    return self.err("BEGIN and END need an action");
                }
                prog.items.push((pat, action));
            }
            self.term();
        }
        Ok(prog)
    }

    fn block(&mut self) -> R<Vec<Stmt>> {
        self.expect_op("{")?;
        let mut v = Vec::new();
        self.term();
        let mut line = 0;
        while !self.is_op("}") {
            if matches!(self.peek(), Tok::Eof) {
                return self.err("unexpected end of program, missing '}'");
            }
            if self.line() != line {
                line = self.line();
                v.push(Stmt::Line(line));
            }
            v.push(self.stmt()?);
            self.term();
        }
        self.next();
        Ok(v)
    }

    fn simple_or_block(&mut self) -> R<Stmt> {
        self.nl();
        if self.is_op(";") {
            self.next();
            return Ok(Stmt::Block(vec![]));
        }
        self.stmt()
    }

    fn end_simple(&mut self) -> R<()> {
        if self.is_op(";") || matches!(self.peek(), Tok::Newline) {
            self.next();
            Ok(())
        } else if self.is_op("}") || matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            self.err("unexpected token")
        }
    }

    fn stmt(&mut self) -> R<Stmt> {
        if self.is_op("{") {
            return Ok(Stmt::Block(self.block()?));
        }
        if let Tok::Kw(k) = self.peek().clone() {
            match k {
                "if" => {
                    self.next();
                    self.expect_op("(")?;
                    let c = self.expr()?;
                    self.expect_op(")")?;
                    let then = self.simple_or_block()?;
                    // `else` may follow after newlines or a `;`.
                    let save = self.i;
                    self.term();
                    if self.is_kw("else") {
                        self.next();
                        let e = self.simple_or_block()?;
                        return Ok(Stmt::If(c, Box::new(then), Some(Box::new(e))));
                    }
                    self.i = save;
                    return Ok(Stmt::If(c, Box::new(then), None));
                }
                "while" => {
                    self.next();
                    self.expect_op("(")?;
                    let c = self.expr()?;
                    self.expect_op(")")?;
                    if self.is_op(";") {
                        self.next();
                        return Ok(Stmt::While(c, Box::new(Stmt::Block(vec![]))));
                    }
                    let body = self.simple_or_block()?;
                    return Ok(Stmt::While(c, Box::new(body)));
                }
                "do" => {
                    self.next();
                    let body = self.simple_or_block()?;
                    self.term();
                    if !self.is_kw("while") {
                        return self.err("expected 'while' after do body");
                    }
                    self.next();
                    self.expect_op("(")?;
                    let c = self.expr()?;
                    self.expect_op(")")?;
                    self.end_simple()?;
                    return Ok(Stmt::Do(Box::new(body), c));
                }
                "for" => {
                    self.next();
                    self.expect_op("(")?;
                    // for (k in arr) and for (k in a[i]...)
                    if let (Tok::Name(k), Tok::Kw("in"), Tok::Name(_)) = (
                        self.t[self.i].0.clone(),
                        self.t.get(self.i + 1).map(|x| x.0.clone()).unwrap_or(Tok::Eof),
                        self.t.get(self.i + 2).map(|x| x.0.clone()).unwrap_or(Tok::Eof),
                    ) {
                        let save = self.i;
                        self.i += 2;
                        let arr = self.array_ref()?;
                        if self.is_op(")") {
                            self.next();
                            let body = self.simple_or_block()?;
                            return Ok(Stmt::ForIn(k, arr, Box::new(body)));
                        }
                        self.i = save;
                    }
                    let init = if self.is_op(";") { None } else { Some(Box::new(self.simple_stmt()?)) };
                    self.expect_op(";")?;
                    self.nl();
                    let cond = if self.is_op(";") { None } else { Some(self.expr()?) };
                    self.expect_op(";")?;
                    self.nl();
                    let step = if self.is_op(")") { None } else { Some(Box::new(self.simple_stmt()?)) };
                    self.expect_op(")")?;
                    if self.is_op(";") {
                        self.next();
                        return Ok(Stmt::For(init, cond, step, Box::new(Stmt::Block(vec![]))));
                    }
                    let body = self.simple_or_block()?;
                    return Ok(Stmt::For(init, cond, step, Box::new(body)));
                }
                _ => {}
            }
        }
        let s = self.simple_stmt()?;
        self.end_simple()?;
        Ok(s)
    }

    fn simple_stmt(&mut self) -> R<Stmt> {
        if let Tok::Kw(k) = self.peek().clone() {
            match k {
                "next" => {
                    self.next();
                    return Ok(Stmt::Next);
                }
                "nextfile" => {
                    self.next();
                    return Ok(Stmt::NextFile);
                }
                "break" => {
                    self.next();
                    return Ok(Stmt::Break);
                }
                "continue" => {
                    self.next();
                    return Ok(Stmt::Continue);
                }
                "exit" | "return" => {
                    self.next();
                    let e = if self.is_op(";") || self.is_op("}") || matches!(self.peek(), Tok::Newline | Tok::Eof) { None } else { Some(self.expr()?) };
                    return Ok(if k == "exit" { Stmt::Exit(e) } else { Stmt::Return(e) });
                }
                "delete" => {
                    self.next();
                    if !matches!(self.peek(), Tok::Name(_)) {
                        return self.err("array name expected after delete");
                    }
                    // `delete a[i][j]`: the last subscript is the key, the rest name the array.
                    return Ok(match self.array_ref()? {
                        Expr::Index(n, idx) => Stmt::Delete(Expr::Var(n), Some(idx)),
                        Expr::Sub(base, idx) => Stmt::Delete(*base, Some(idx)),
                        arr => Stmt::Delete(arr, None),
                    });
                }
                _ => {}
            }
        }
        match self.peek().clone() {
            Tok::Name(n) if n == "print" || n == "printf" => {
                self.next();
                let save = (self.no_gt, self.no_in);
                self.no_gt = true;
                let args = if self.is_op(";") || self.is_op("}") || self.is_op(">") || self.is_op(">>") || self.is_op("|") || matches!(self.peek(), Tok::Newline | Tok::Eof) {
                    Vec::new()
                } else if self.is_op("(") {
                    // print (a, b) > "f"  or  print (a)(b)
                    let start = self.i;
                    self.next();
                    self.no_gt = false;
                    let list = self.expr_list(")")?;
                    self.no_gt = true;
                    if list.len() > 1 && (self.is_op(";") || self.is_op("}") || self.is_op(">") || self.is_op(">>") || self.is_op("|") || matches!(self.peek(), Tok::Newline | Tok::Eof)) {
                        list
                    } else {
                        self.i = start;
                        self.expr_list_until_redir()?
                    }
                } else {
                    self.expr_list_until_redir()?
                };
                let redir = if self.is_op(">") {
                    self.next();
                    Redir::File(self.concat_level()?)
                } else if self.is_op(">>") {
                    self.next();
                    Redir::Append(self.concat_level()?)
                } else if self.is_op("|") {
                    self.next();
                    Redir::Pipe(self.concat_level()?)
                } else {
                    Redir::None
                };
                self.no_gt = save.0;
                self.no_in = save.1;
                if n == "printf" {
                    if args.is_empty() {
                        return self.err("printf: no format");
                    }
                    return Ok(Stmt::Printf(args, redir));
                }
                return Ok(Stmt::Print(args, redir));
            }
            _ => {}
        }
        Ok(Stmt::Expr(self.expr()?))
    }

    fn expr_list_until_redir(&mut self) -> R<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.is_op(",") {
            self.next();
            self.nl();
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn expr_list(&mut self, close: &str) -> R<Vec<Expr>> {
        let mut v = Vec::new();
        self.nl();
        if self.is_op(close) {
            self.next();
            return Ok(v);
        }
        loop {
            v.push(self.expr()?);
            self.nl();
            if self.is_op(",") {
                self.next();
                self.nl();
                continue;
            }
            self.expect_op(close)?;
            return Ok(v);
        }
    }

    pub fn expr(&mut self) -> R<Expr> {
        self.ternary()
    }

    fn ternary(&mut self) -> R<Expr> {
        let c = self.or()?;
        if self.is_op("?") {
            self.next();
            self.nl();
            let a = self.ternary()?;
            self.nl();
            self.expect_op(":")?;
            self.nl();
            let b = self.ternary()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        if let Tok::Op(op) = self.peek().clone() {
            if matches!(op, "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "^=" | "**=") && is_lvalue(&c) {
                self.next();
                self.nl();
                let rhs = self.ternary()?;
                let op = if op == "**=" { "^=" } else { op };
                return Ok(Expr::Assign(op, Box::new(c), Box::new(rhs)));
            }
        }
        Ok(c)
    }

    fn or(&mut self) -> R<Expr> {
        let mut l = self.and()?;
        while self.is_op("||") {
            self.next();
            self.nl();
            let r = self.and()?;
            l = Expr::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn and(&mut self) -> R<Expr> {
        let mut l = self.in_expr()?;
        while self.is_op("&&") {
            self.next();
            self.nl();
            let r = self.in_expr()?;
            l = Expr::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn in_expr(&mut self) -> R<Expr> {
        let mut l = self.match_expr()?;
        while self.is_kw("in") && !self.no_in {
            self.next();
            if !matches!(self.peek(), Tok::Name(_)) {
                return self.err("array name expected after 'in'");
            }
            let arr = Box::new(self.array_ref()?);
            let keys = match l {
                Expr::Group(inner) => vec![*inner],
                other => vec![other],
            };
            l = Expr::In(keys, arr);
        }
        Ok(l)
    }

    fn match_expr(&mut self) -> R<Expr> {
        let mut l = self.comparison()?;
        loop {
            let neg = if self.is_op("~") {
                false
            } else if self.is_op("!~") {
                true
            } else {
                return Ok(l);
            };
            self.next();
            let r = self.comparison()?;
            l = Expr::Match(neg, Box::new(l), Box::new(r));
        }
    }

    fn comparison(&mut self) -> R<Expr> {
        let l = self.concat_level()?;
        let op = match self.peek() {
            Tok::Op(o) if matches!(*o, "<" | "<=" | "!=" | "==" | ">=") => *o,
            Tok::Op(">") if !self.no_gt => ">",
            _ => return Ok(l),
        };
        self.next();
        let r = self.concat_level()?;
        Ok(Expr::Cmp(op, Box::new(l), Box::new(r)))
    }

    fn concat_level(&mut self) -> R<Expr> {
        let mut l = self.additive()?;
        while self.starts_operand() {
            let r = self.additive()?;
            l = Expr::Concat(Box::new(l), Box::new(r));
        }
        while self.is_op("|") && matches!(self.t.get(self.i + 1).map(|t| &t.0), Some(Tok::Kw("getline"))) {
            self.next();
            self.next();
            if matches!(self.peek(), Tok::Name(_)) || self.is_op("$") {
                self.postfix()?;
            }
            l = Expr::CmdGetline;
        }
        Ok(l)
    }

    /// Can the next token begin an operand of a concatenation?
    fn starts_operand(&self) -> bool {
        match self.peek() {
            Tok::Num(_) | Tok::Str(_) | Tok::Regex(_) | Tok::Name(_) | Tok::FuncName(_) | Tok::Builtin(_) => {
                !matches!(self.peek(), Tok::Name(n) if n == "print" || n == "printf")
            }
            // `-`/`+` after an operand subtract/add; `!` would be ambiguous.
            Tok::Op(o) => matches!(*o, "$" | "(" | "++" | "--"),
            Tok::Kw("getline") => false,
            _ => false,
        }
    }

    fn additive(&mut self) -> R<Expr> {
        let mut l = self.mult()?;
        loop {
            let op = match self.peek() {
                Tok::Op("+") => "+",
                Tok::Op("-") => "-",
                _ => return Ok(l),
            };
            self.next();
            self.nl();
            let r = self.mult()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }

    fn mult(&mut self) -> R<Expr> {
        let mut l = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Op("*") => "*",
                Tok::Op("/") => "/",
                Tok::Op("%") => "%",
                _ => return Ok(l),
            };
            let line = self.line();
            self.next();
            self.nl();
            let r = self.unary()?;
            // gawk checks a constant divisor while parsing: dividing by a constant zero is an
            // error before anything runs (exit 1), reported as "\0const LINE:message" to awk's caller.
            let konst = |e: &Expr| match e {
                Expr::Num(n) => Some(*n),
                Expr::Neg(b) => match &**b {
                    Expr::Num(n) => Some(-*n),
                    _ => None,
                },
                _ => None,
            };
            if op != "*" && konst(&r) == Some(0.0) {
                let what = if op == "%" { " in `%'" } else { "" };
                return Err(format!("\u{0}const {}:division by zero attempted{}", line, what));
            }
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }

    fn unary(&mut self) -> R<Expr> {
        if self.is_op("!") {
            self.next();
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.is_op("-") {
            self.next();
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.is_op("+") {
            self.next();
            return Ok(Expr::Plus(Box::new(self.unary()?)));
        }
        self.power()
    }

    fn power(&mut self) -> R<Expr> {
        let base = self.postfix()?;
        if self.is_op("^") || self.is_op("**") {
            self.next();
            // Right associative, and binds tighter than unary minus on its left.
            let exp = if self.is_op("-") {
                self.next();
                Expr::Neg(Box::new(self.power()?))
            } else {
                self.power()?
            };
            return Ok(Expr::Bin("^", Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> R<Expr> {
        if self.is_op("++") || self.is_op("--") {
            let d = if self.is_op("++") { 1 } else { -1 };
            self.next();
            let e = self.postfix()?;
            if !is_lvalue(&e) {
                return self.err("++ or -- needs a variable");
            }
            return Ok(Expr::IncDec(true, d, Box::new(e)));
        }
        let e = self.primary()?;
        if is_lvalue(&e) && (self.is_op("++") || self.is_op("--")) {
            let d = if self.is_op("++") { 1 } else { -1 };
            self.next();
            return Ok(Expr::IncDec(false, d, Box::new(e)));
        }
        Ok(e)
    }

    /// NAME followed by any number of `[subscripts]`: Var, Index, or Sub for gawk's arrays of
    /// arrays (`a[i][j]`). The caller has checked that a name comes next.
    fn array_ref(&mut self) -> R<Expr> {
        let n = match self.next() {
            Tok::Name(n) => n,
            _ => return self.err("array name expected"),
        };
        if !self.is_op("[") {
            return Ok(Expr::Var(n));
        }
        self.next();
        let save = (self.no_gt, self.no_in);
        self.no_gt = false;
        self.no_in = false;
        let mut e = Expr::Index(n, self.expr_list("]")?);
        while self.is_op("[") {
            self.next();
            e = Expr::Sub(Box::new(e), self.expr_list("]")?);
        }
        self.no_gt = save.0;
        self.no_in = save.1;
        Ok(e)
    }

    fn primary(&mut self) -> R<Expr> {
        let t = self.next();
        Ok(match t {
            Tok::Num(n) => Expr::Num(n),
            Tok::Str(s) => Expr::Str(s),
            Tok::Regex(r) => Expr::Regex(r),
            Tok::Op("$") => {
                let e = if self.is_op("++") || self.is_op("--") { self.postfix()? } else { self.primary()? };
                Expr::Field(Box::new(e))
            }
            Tok::Op("(") => {
                let save = (self.no_gt, self.no_in);
                self.no_gt = false;
                self.no_in = false;
                let first = self.expr()?;
                if self.is_op(",") {
                    // (i, j) in arr
                    self.next();
                    let mut keys = vec![first];
                    keys.extend(self.expr_list(")")?);
                    self.no_gt = save.0;
                    self.no_in = save.1;
                    if !self.is_kw("in") {
                        return self.err("expected 'in' after (list)");
                    }
                    self.next();
                    if !matches!(self.peek(), Tok::Name(_)) {
                        return self.err("array name expected");
                    }
                    return Ok(Expr::In(keys, Box::new(self.array_ref()?)));
                }
                self.expect_op(")")?;
                self.no_gt = save.0;
                self.no_in = save.1;
                Expr::Group(Box::new(first))
            }
            Tok::Op("-") => Expr::Neg(Box::new(self.unary()?)),
            Tok::Op("!") => Expr::Not(Box::new(self.unary()?)),
            Tok::Name(_) => {
                self.i -= 1;
                self.array_ref()?
            }
            Tok::FuncName(n) => {
                self.expect_op("(")?;
                let args = self.expr_list(")")?;
                Expr::Call(n, args)
            }
            Tok::Builtin(b) => {
                if self.is_op("(") {
                    self.next();
                    let args = self.expr_list(")")?;
                    Expr::Builtin(b, args)
                } else if b == "length" {
                    Expr::Builtin(b, vec![])
                } else {
                    return self.err(&format!("{} needs arguments", b));
                }
            }
            Tok::Kw("getline") => {
                let var = if matches!(self.peek(), Tok::Name(_)) || self.is_op("$") { Some(Box::new(self.postfix()?)) } else { None };
                let src = if self.is_op("<") {
                    self.next();
                    Some(Box::new(self.primary()?))
                } else {
                    None
                };
                Expr::Getline(var, src)
            }
            _ => {
                self.i -= 1;
                return self.err("unexpected token");
            }
        })
    }
}

fn is_lvalue(e: &Expr) -> bool {
    matches!(e, Expr::Var(_) | Expr::Field(_) | Expr::Index(_, _) | Expr::Sub(_, _))
}

pub fn parse(toks: Vec<(Tok, usize)>) -> R<Program> {
    let mut p = P { t: toks, i: 0, no_gt: false, no_in: false };
    p.program()
}
