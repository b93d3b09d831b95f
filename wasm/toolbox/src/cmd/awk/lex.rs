//! awk tokens. Whether `/` starts a regex depends on the previous token.

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Num(f64),
    Str(String),
    Regex(String),
    Name(String),
    FuncName(String),
    Builtin(String),
    Kw(&'static str),
    Op(&'static str),
    Newline,
    Eof,
}

const KEYWORDS: [&str; 18] = ["BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break", "continue", "next", "nextfile", "exit", "return", "delete", "in", "getline"];
const BUILTINS: [&str; 29] = [
    "asort", "asorti", "isarray", "typeof", "length", "substr", "index", "split", "sub", "gsub", "gensub", "match", "sprintf", "tolower", "toupper", "int", "sqrt", "exp", "log", "sin", "cos", "atan2", "rand", "srand", "system", "close", "fflush",
    "strftime", "systime",
];
const OPS: [&str; 41] = [
    "+=", "-=", "*=", "/=", "%=", "^=", "**=", "==", "<=", ">=", "!=", "++", "--", "&&", "||", ">>", "!~", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "=",
];

pub fn lex(src: &str) -> Result<Vec<(Tok, usize)>, String> {
    let b: Vec<char> = src.chars().collect();
    let mut out: Vec<(Tok, usize)> = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        let c = b[i];
        if c == '\\' && i + 1 < b.len() && b[i + 1] == '\n' {
            i += 2;
            line += 1;
            continue;
        }
        if c == '\\' && i + 2 < b.len() && b[i + 1] == '\r' && b[i + 2] == '\n' {
            i += 3;
            line += 1;
            continue;
        }
        if c == ' ' || c == '\t' || c == '\r' {
            i += 1;
            continue;
        }
        if c == '#' {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '\n' {
            out.push((Tok::Newline, line));
            line += 1;
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
            let s = i;
            if c == '0' && i + 1 < b.len() && (b[i + 1] == 'x' || b[i + 1] == 'X') {
                i += 2;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let t: String = b[s + 2..i].iter().collect();
                out.push((Tok::Num(i64::from_str_radix(&t, 16).unwrap_or(0) as f64), line));
                continue;
            }
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == '.') {
                i += 1;
            }
            if i < b.len() && (b[i] == 'e' || b[i] == 'E') {
                let save = i;
                i += 1;
                if i < b.len() && (b[i] == '+' || b[i] == '-') {
                    i += 1;
                }
                if i < b.len() && b[i].is_ascii_digit() {
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                } else {
                    i = save;
                }
            }
            let t: String = b[s..i].iter().collect();
            out.push((Tok::Num(t.parse().map_err(|_| format!("syntax error at source line {}: bad number {}", line, t))?), line));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let s = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            let w: String = b[s..i].iter().collect();
            if w == "print" || w == "printf" {
                // Statements, not functions, even when "(" follows.
                out.push((Tok::Name(w), line));
            } else if let Some(k) = KEYWORDS.iter().find(|k| **k == w) {
                out.push((Tok::Kw(if *k == "func" { "function" } else { k }), line));
            } else if BUILTINS.contains(&w.as_str()) {
                out.push((Tok::Builtin(w), line));
            } else if i < b.len() && b[i] == '(' {
                out.push((Tok::FuncName(w), line));
            } else {
                out.push((Tok::Name(w), line));
            }
            continue;
        }
        if c == '"' {
            i += 1;
            let mut s = String::new();
            loop {
                if i >= b.len() || b[i] == '\n' {
                    return Err(format!("non-terminated string at source line {}", line));
                }
                let ch = b[i];
                i += 1;
                if ch == '"' {
                    break;
                }
                if ch == '\\' && i < b.len() {
                    let e = b[i];
                    i += 1;
                    match e {
                        'n' => s.push('\n'),
                        't' => s.push('\t'),
                        'r' => s.push('\r'),
                        '\\' => s.push('\\'),
                        '"' => s.push('"'),
                        '/' => s.push('/'),
                        'a' => s.push('\u{7}'),
                        'b' => s.push('\u{8}'),
                        'f' => s.push('\u{c}'),
                        'v' => s.push('\u{b}'),
                        'u' => match super::escape::unicode(&b[i..]) {
                            Some((c, n)) => {
                                s.push(c);
                                i += n;
                            }
                            None => s.push_str("\\u"),
                        },
                        '\n' => line += 1,
                        '0'..='7' => {
                            let mut v = e.to_digit(8).unwrap();
                            let mut n = 1;
                            while n < 3 && i < b.len() && b[i].is_digit(8) {
                                v = v * 8 + b[i].to_digit(8).unwrap();
                                i += 1;
                                n += 1;
                            }
                            s.push(char::from_u32(v).unwrap_or('?'));
                        }
                        other => {
                            s.push('\\');
                            s.push(other);
                        }
                    }
                    continue;
                }
                s.push(ch);
            }
            out.push((Tok::Str(s), line));
            continue;
        }
        if c == '/' && regex_allowed(out.last().map(|t| &t.0)) {
            i += 1;
            let mut s = String::new();
            let mut in_br = false;
            loop {
                if i >= b.len() || b[i] == '\n' {
                    return Err(format!("non-terminated regular expression at source line {}", line));
                }
                let ch = b[i];
                i += 1;
                if ch == '/' && !in_br {
                    break;
                }
                if ch == '[' {
                    in_br = true;
                } else if ch == ']' {
                    in_br = false;
                }
                if ch == '\\' && i < b.len() {
                    if b[i] == '/' {
                        s.push('/');
                    } else {
                        s.push('\\');
                        s.push(b[i]);
                    }
                    i += 1;
                    continue;
                }
                s.push(ch);
            }
            out.push((Tok::Regex(s), line));
            continue;
        }
        let rest: String = b[i..(i + 3).min(b.len())].iter().collect();
        match OPS.iter().find(|op| rest.starts_with(**op)) {
            Some(op) => {
                i += op.chars().count();
                out.push((Tok::Op(op), line));
            }
            None => return Err(format!("syntax error at source line {}: unexpected character '{}'", line, c)),
        }
    }
    out.push((Tok::Eof, line));
    Ok(out)
}

/// After an operand a `/` divides; anywhere else it opens a regex.
fn regex_allowed(prev: Option<&Tok>) -> bool {
    !matches!(prev, Some(Tok::Num(_)) | Some(Tok::Str(_)) | Some(Tok::Name(_)) | Some(Tok::Builtin(_)) | Some(Tok::Op(")")) | Some(Tok::Op("]")) | Some(Tok::Op("$")) | Some(Tok::Op("++")) | Some(Tok::Op("--")))
}
