//! expr EXPRESSION — GNU expr: | & < <= = == != >= > + - * / % : (anchored
//! BRE match), match, substr, index, length, + TOKEN, parentheses. Status 0
//! when the result is neither null nor 0, 1 when it is, 2 for a bad
//! expression, 3 for other errors (none arise here).

use crate::ctx::{q, Ctx, Res};
use std::io::Write;

const HELP: &str = "Usage: expr EXPRESSION\n  or:  expr OPTION\n\n  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2\n  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0\n  ARG1 < ARG2 (also <=, =, ==, !=, >=, >)  comparison, numeric when both are integers\n  ARG1 + ARG2 (also -, *, /, %)  integer arithmetic\n  STRING : REGEXP   anchored pattern match of REGEXP in STRING\n  match STRING REGEXP        same as STRING : REGEXP\n  substr STRING POS LENGTH   substring of STRING, POS counted from 1\n  index STRING CHARS         index in STRING where any CHARS is found, or 0\n  length STRING              length of STRING\n  + TOKEN                    interpret TOKEN as a string\n  ( EXPRESSION )             value of EXPRESSION\n\nExit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null\nor 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.\n";

#[derive(Clone, Debug)]
enum Val {
    Int(i128),
    Str(String),
}

impl Val {
    fn text(&self) -> String {
        match self {
            Val::Int(n) => n.to_string(),
            Val::Str(s) => s.clone(),
        }
    }
    fn int(&self) -> Option<i128> {
        match self {
            Val::Int(n) => Some(*n),
            Val::Str(s) => {
                let t = s.strip_prefix('-').unwrap_or(s);
                if !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()) {
                    s.parse().ok()
                } else {
                    None
                }
            }
        }
    }
    fn is_null(&self) -> bool {
        match self {
            Val::Int(n) => *n == 0,
            Val::Str(s) => s.is_empty() || self.int() == Some(0),
        }
    }
}

struct P<'a> {
    t: &'a [String],
    i: usize,
}

type R = Result<Val, (i32, String)>;

fn syntax(msg: String) -> (i32, String) {
    (2, format!("syntax error: {}", msg))
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&str> {
        self.t.get(self.i).map(|s| s.as_str())
    }
    fn take_op(&mut self, ops: &[&str]) -> Option<String> {
        let o = self.peek().filter(|o| ops.contains(o))?.to_string();
        self.i += 1;
        Some(o)
    }
    fn need(&self, after: &str) -> Result<(), (i32, String)> {
        if self.i >= self.t.len() {
            return Err(syntax(format!("missing argument after {}", q(after))));
        }
        Ok(())
    }
    fn or(&mut self) -> R {
        let mut l = self.and()?;
        while let Some(op) = self.take_op(&["|"]) {
            self.need(&op)?;
            let r = self.and()?;
            l = if !l.is_null() { l } else if r.is_null() { Val::Int(0) } else { r };
        }
        Ok(l)
    }
    fn and(&mut self) -> R {
        let mut l = self.cmp()?;
        while let Some(op) = self.take_op(&["&"]) {
            self.need(&op)?;
            let r = self.cmp()?;
            l = if l.is_null() || r.is_null() { Val::Int(0) } else { l };
        }
        Ok(l)
    }
    fn cmp(&mut self) -> R {
        let mut l = self.add()?;
        while let Some(op) = self.take_op(&["<", "<=", "=", "==", "!=", ">=", ">"]) {
            self.need(&op)?;
            let r = self.add()?;
            let ord = match (l.int(), r.int()) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => l.text().cmp(&r.text()),
            };
            use std::cmp::Ordering::*;
            let v = match op.as_str() {
                "<" => ord == Less,
                "<=" => ord != Greater,
                "=" | "==" => ord == Equal,
                "!=" => ord != Equal,
                ">=" => ord != Less,
                _ => ord == Greater,
            };
            l = Val::Int(v as i128);
        }
        Ok(l)
    }
    fn arith(op: &str, l: &Val, r: &Val) -> R {
        let (a, b) = match (l.int(), r.int()) {
            (Some(a), Some(b)) => (a, b),
            _ => return Err((2, "non-integer argument".into())),
        };
        if (op == "/" || op == "%") && b == 0 {
            return Err((2, "division by zero".into()));
        }
        Ok(Val::Int(match op {
            "+" => a + b,
            "-" => a - b,
            "*" => a * b,
            "/" => a / b,
            _ => a % b,
        }))
    }
    fn add(&mut self) -> R {
        let mut l = self.mul()?;
        while let Some(op) = self.take_op(&["+", "-"]) {
            self.need(&op)?;
            let r = self.mul()?;
            l = Self::arith(&op, &l, &r)?;
        }
        Ok(l)
    }
    fn mul(&mut self) -> R {
        let mut l = self.matchop()?;
        while let Some(op) = self.take_op(&["*", "/", "%"]) {
            self.need(&op)?;
            let r = self.matchop()?;
            l = Self::arith(&op, &l, &r)?;
        }
        Ok(l)
    }
    fn matchop(&mut self) -> R {
        let mut l = self.primary()?;
        while self.take_op(&[":"]).is_some() {
            self.need(":")?;
            let r = self.primary()?;
            l = do_match(&l.text(), &r.text())?;
        }
        Ok(l)
    }
    fn token(&mut self) -> Result<String, (i32, String)> {
        match self.t.get(self.i) {
            Some(s) => {
                self.i += 1;
                Ok(s.clone())
            }
            None => Err(syntax(format!("missing argument after {}", q(self.t.last().map(|s| s.as_str()).unwrap_or(""))))),
        }
    }
    fn primary(&mut self) -> R {
        let t = match self.peek() {
            Some(t) => t.to_string(),
            None => return Err(syntax(format!("missing argument after {}", q(self.t.last().map(|s| s.as_str()).unwrap_or(""))))),
        };
        self.i += 1;
        match t.as_str() {
            "(" => {
                let v = self.or()?;
                if self.take_op(&[")"]).is_none() {
                    return Err(match self.peek() {
                        Some(x) => syntax(format!("expecting ')' instead of {}", q(x))),
                        None => syntax("expecting ')' after ".to_string() + &q(self.t.last().unwrap())),
                    });
                }
                Ok(v)
            }
            "+" => Ok(Val::Str(self.token()?)),
            "length" => Ok(Val::Int(self.token()?.chars().count() as i128)),
            "match" => {
                let s = self.token()?;
                let r = self.token()?;
                do_match(&s, &r)
            }
            "index" => {
                let s = self.token()?;
                let cs = self.token()?;
                let pos = s.chars().position(|c| cs.contains(c)).map(|p| p + 1).unwrap_or(0);
                Ok(Val::Int(pos as i128))
            }
            "substr" => {
                let s = self.token()?;
                let pos = Val::Str(self.token()?).int();
                let len = Val::Str(self.token()?).int();
                let chars: Vec<char> = s.chars().collect();
                Ok(Val::Str(match (pos, len) {
                    (Some(p), Some(l)) if p >= 1 && l >= 1 && (p as usize) <= chars.len() => chars[(p - 1) as usize..((p - 1 + l) as usize).min(chars.len())].iter().collect(),
                    _ => String::new(),
                }))
            }
            ")" => Err(syntax("unexpected ')'".to_string())),
            _ => Ok(Val::Str(t)),
        }
    }
}

fn do_match(s: &str, pat: &str) -> R {
    let tr = crate::regex_posix::translate(pat, false).map_err(|m| (2, m))?;
    let re = regex::Regex::new(&format!("^(?:{})", tr)).map_err(|e| (2, e.to_string()))?;
    match re.captures(s) {
        Some(c) => {
            if re.captures_len() > 1 {
                Ok(Val::Str(c.get(1).map(|m| m.as_str().to_string()).unwrap_or_default()))
            } else {
                Ok(Val::Int(c.get(0).unwrap().as_str().chars().count() as i128))
            }
        }
        None => Ok(if re.captures_len() > 1 { Val::Str(String::new()) } else { Val::Int(0) }),
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // GNU expr takes --help/--version only as the sole argument; "--" ends options.
    let mut args = args;
    if args.len() == 1 && args[0] == "--help" {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    if args.first().map(|s| s.as_str()) == Some("--") {
        args = &args[1..];
    }
    if args.is_empty() {
        ctx.diag.usage("missing operand");
        return Ok(2);
    }
    let mut p = P { t: args, i: 0 };
    let r = p.or().and_then(|v| {
        if p.i < args.len() {
            Err(syntax(format!("unexpected argument {}", q(&args[p.i]))))
        } else {
            Ok(v)
        }
    });
    match r {
        Ok(v) => {
            writeln!(ctx.out, "{}", v.text())?;
            Ok(if v.is_null() { 1 } else { 0 })
        }
        Err((code, m)) => {
            ctx.diag.error(m);
            Ok(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, i32)] = &[
            (&["1", "+", "2"], "3\n", 0),
            (&["10", "-", "10"], "0\n", 1),
            (&["3", "*", "4", "+", "1"], "13\n", 0),
            (&["(", "3", "+", "4", ")", "*", "2"], "14\n", 0),
            (&["7", "/", "2"], "3\n", 0),
            (&["-7", "%", "3"], "-1\n", 0),
            (&["abc", "<", "abd"], "1\n", 0),
            (&["10", "<", "9"], "0\n", 1),
            (&["a", "=", "a"], "1\n", 0),
            (&["", "|", "x"], "x\n", 0),
            (&["0", "&", "x"], "0\n", 1),
            (&["hello", ":", "hel"], "3\n", 0),
            (&["hello", ":", "\\(h.*\\)o"], "hell\n", 0),
            (&["hello", ":", "x"], "0\n", 1),
            (&["match", "abc", "a."], "2\n", 0),
            (&["length", "hello"], "5\n", 0),
            (&["substr", "hello", "2", "3"], "ell\n", 0),
            (&["index", "hello", "lo"], "3\n", 0),
            (&["+", "length"], "length\n", 0),
            (&["foo.txt", ":", ".*\\.\\(.*\\)"], "txt\n", 0),
        ];
        for (args, out, code) in cases {
            check("expr", args, "", out, *code);
        }
        check_err("expr", &["1", "+"], "", "expr: syntax error: missing argument after '+'\n", 2);
        check_err("expr", &["a", "+", "1"], "", "expr: non-integer argument\n", 2);
        check_err("expr", &["1", "/", "0"], "", "expr: division by zero\n", 2);
        check_err("expr", &["1", "2"], "", "expr: syntax error: unexpected argument '2'\n", 2);
    }
}
