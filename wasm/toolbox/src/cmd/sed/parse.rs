//! Script text to a flat command list; blocks become jumps.

use crate::backref::{has_backref, Backref};
use crate::regex_posix::translate;
use regex::bytes::{Regex, RegexBuilder};

/// A compiled sed regex: the `regex` crate's automaton, or the backtracking
/// engine for the patterns that use back-references (which the crate lacks).
#[derive(Debug, Clone)]
pub enum Re {
    Crate(Regex),
    Back(Backref),
}

#[derive(Debug, Clone)]
pub enum Addr {
    Line(u64),
    Last,
    /// None: the last regex used (`//`).
    Re(Option<Re>),
    Step(u64, u64),
    /// `0` as first address of `0,/re/`.
    Zero,
}

#[derive(Debug, Clone)]
pub enum Addr2 {
    Line(u64),
    Last,
    Re(Option<Re>),
    Plus(u64),
    Tilde(u64),
}

#[derive(Debug, Clone)]
pub enum Part {
    Lit(Vec<u8>),
    Group(usize),
    /// \L \U \E, \l \u
    Case(u8),
}

#[derive(Debug, Clone)]
pub enum Kind {
    /// `{`: index of the matching `}` (jump there when the address fails).
    Block(usize),
    EndBlock,
    /// `wfile`: s///w FILE, an index into Program::wfiles. `eval`: the e flag, with how many of
    /// the `print` p flags came before it (GNU prints those before running the command).
    Subst { re: Option<Re>, repl: Vec<Part>, global: bool, nth: usize, print: u8, wfile: Option<usize>, eval: Option<u8> },
    Translit(Box<[u8; 256]>),
    Delete,
    DeleteFirst,
    Print,
    PrintFirst,
    Next,
    NextAppend,
    Get,
    GetAppend,
    Hold,
    HoldAppend,
    Exchange,
    Branch(String),
    BranchIfSub(String),
    BranchIfNotSub(String),
    Label,
    LineNo,
    List,
    Quit(i32),
    QuitSilent(i32),
    Append(Vec<u8>),
    Insert(Vec<u8>),
    Change(Vec<u8>),
    Zap,
    /// w FILE / W FILE: the pattern space (W: its first line) to Program::wfiles[i].
    Write(usize),
    WriteFirst(usize),
    /// r FILE: the file's text after this cycle's output; R FILE: its next line.
    ReadFile(String),
    ReadLine(String),
    /// F: the input file's name (`-` for stdin).
    FileName,
    /// e COMMAND: its output before the pattern space; bare e (None): the pattern space run
    /// as a command and replaced by its output.
    Exec(Option<Vec<u8>>),
}

#[derive(Debug, Clone)]
pub struct Cmd {
    pub a1: Option<Addr>,
    pub a2: Option<Addr2>,
    pub negate: bool,
    pub kind: Kind,
}

pub struct Program {
    pub cmds: Vec<Cmd>,
    /// Label name -> command index.
    pub labels: Vec<(String, usize)>,
    /// The files `w`, `W` and `s///w` write, each once (GNU truncates them all at the start).
    pub wfiles: Vec<String>,
}

type Err = (usize, String);

struct P<'a> {
    s: &'a [u8],
    i: usize,
    ere: bool,
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn err<T>(&self, m: &str) -> Result<T, Err> {
        Err((self.i.max(1).min(self.s.len().max(1)), m.to_string()))
    }
    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ') | Some(b'\t')) {
            self.i += 1;
        }
    }
    fn skip_ws_nl(&mut self) {
        while matches!(self.peek(), Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b';')) {
            self.i += 1;
        }
    }
    fn number(&mut self) -> Option<u64> {
        let st = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.i += 1;
        }
        if st == self.i {
            return None;
        }
        std::str::from_utf8(&self.s[st..self.i]).ok()?.parse().ok()
    }
    /// Reads up to the unescaped delimiter; `\delim` becomes delim, `\n` a newline.
    fn delimited(&mut self, delim: u8, keep_escapes: bool) -> Result<Vec<u8>, Err> {
        let mut out = Vec::new();
        loop {
            let c = match self.peek() {
                Some(c) => c,
                None => return self.err(&format!("unterminated `s' command")),
            };
            self.i += 1;
            if c == delim {
                return Ok(out);
            }
            if c == b'\\' {
                let n = match self.peek() {
                    Some(n) => n,
                    None => return self.err("unterminated `s' command"),
                };
                self.i += 1;
                if n == delim {
                    out.push(n);
                } else if n == b'n' && !keep_escapes {
                    out.push(b'\n');
                } else if n == b't' && !keep_escapes {
                    // GNU sed turns \t into a tab before the regex is compiled.
                    out.push(b'\t');
                } else if let (false, Some((b, len))) = (keep_escapes, numeric_escape(n, &self.s[self.i..])) {
                    // \xHH, \dNNN, \oNNN: the byte itself, before the regex is compiled (so
                    // `s/\x1b\[[0-9;]*m//g` strips colours, and \x2e is a '.' that matches anything).
                    out.push(b);
                    self.i += len;
                } else {
                    out.push(b'\\');
                    out.push(n);
                }
                continue;
            }
            if c == b'[' && !keep_escapes {
                // A bracket expression may contain the delimiter unescaped.
                out.push(c);
                let mut first = true;
                if self.peek() == Some(b'^') {
                    out.push(b'^');
                    self.i += 1;
                }
                while let Some(d) = self.peek() {
                    self.i += 1;
                    // \n and \t mean newline and tab even inside brackets (GNU).
                    if d == b'\\' && matches!(self.peek(), Some(b'n') | Some(b't')) {
                        let e = self.peek().unwrap();
                        self.i += 1;
                        out.push(if e == b'n' { b'\n' } else { b'\t' });
                        first = false;
                        continue;
                    }
                    out.push(d);
                    if d == b']' && !first {
                        break;
                    }
                    if d == b'\n' {
                        break;
                    }
                    first = false;
                }
                continue;
            }
            out.push(c);
        }
    }
    fn label(&mut self) -> String {
        self.skip_ws();
        let st = self.i;
        while matches!(self.peek(), Some(c) if c != b'\n' && c != b';') {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[st..self.i]).trim_end().to_string()
    }
    /// The file name of r/R/w/W and s///w: the rest of the line, as GNU reads it.
    fn filename(&mut self) -> Result<String, Err> {
        self.skip_ws();
        let st = self.i;
        while matches!(self.peek(), Some(c) if c != b'\n') {
            self.i += 1;
        }
        if st == self.i {
            return self.err("missing filename in r/R/w/W commands");
        }
        Ok(String::from_utf8_lossy(&self.s[st..self.i]).into_owned())
    }
    /// Text of a/i/c: `a text`, `a\` NEWLINE text, lines joined by `\` NEWLINE.
    fn text(&mut self) -> Vec<u8> {
        self.skip_ws();
        if self.peek() == Some(b'\\') {
            self.i += 1;
            if self.peek() == Some(b'\n') {
                self.i += 1;
            }
        }
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            if c == b'\\' {
                match self.peek() {
                    Some(n) => {
                        self.i += 1;
                        out.push(if n == b't' { b'\t' } else { n });
                    }
                    None => {}
                }
                continue;
            }
            if c == b'\n' {
                // The newline ends the command; the next command's parse starts on it.
                self.i -= 1;
                break;
            }
            out.push(c);
        }
        out.push(b'\n');
        out
    }
}

pub fn compile(raw: &[u8], ere: bool, icase: bool, multiline: bool) -> Result<Option<Re>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    let s = String::from_utf8_lossy(raw);
    if has_backref(&s) {
        return Backref::new(&s, ere, icase, multiline).map(|b| Some(Re::Back(b)));
    }
    let t = translate(&s, ere)?;
    RegexBuilder::new(&t)
        .case_insensitive(icase)
        .multi_line(multiline)
        .dot_matches_new_line(true)
        .build()
        .map(|r| Some(Re::Crate(r)))
        .map_err(|e| format!("invalid regex: {}", e.to_string().lines().last().unwrap_or("").trim()))
}

fn addr1(p: &mut P) -> Result<Option<Addr>, Err> {
    match p.peek() {
        Some(c) if c.is_ascii_digit() => {
            let n = p.number().unwrap_or(0);
            if p.peek() == Some(b'~') {
                p.i += 1;
                let step = p.number().unwrap_or(0);
                return Ok(Some(Addr::Step(n, step)));
            }
            Ok(Some(if n == 0 { Addr::Zero } else { Addr::Line(n) }))
        }
        Some(b'$') => {
            p.i += 1;
            Ok(Some(Addr::Last))
        }
        Some(b'/') | Some(b'\\') => {
            let delim = if p.peek() == Some(b'\\') {
                p.i += 1;
                let d = p.peek();
                p.i += 1;
                d.unwrap_or(b'/')
            } else {
                p.i += 1;
                b'/'
            };
            let mut icase = false;
            let raw = p.delimited(delim, false)?;
            while matches!(p.peek(), Some(b'I') | Some(b'M')) {
                icase |= p.peek() == Some(b'I');
                p.i += 1;
            }
            let re = compile(&raw, p.ere, icase, false).map_err(|m| (p.i, m))?;
            Ok(Some(Addr::Re(re)))
        }
        _ => Ok(None),
    }
}

fn addr2(p: &mut P) -> Result<Option<Addr2>, Err> {
    match addr1(p)? {
        Some(Addr::Line(n)) => Ok(Some(Addr2::Line(n))),
        Some(Addr::Zero) => Ok(Some(Addr2::Line(0))),
        Some(Addr::Last) => Ok(Some(Addr2::Last)),
        Some(Addr::Re(r)) => Ok(Some(Addr2::Re(r))),
        Some(Addr::Step(a, _)) => Ok(Some(Addr2::Line(a))),
        None => match p.peek() {
            Some(b'+') | Some(b'~') => {
                let plus = p.peek() == Some(b'+');
                p.i += 1;
                let n = match p.number() {
                    Some(n) => n,
                    None => return p.err("expected newer version of sed"),
                };
                Ok(Some(if plus { Addr2::Plus(n) } else { Addr2::Tilde(n) }))
            }
            _ => p.err("unexpected `,'"),
        },
    }
}

/// GNU sed's \xHH (one or two hex digits), \dNNN (decimal) and \oNNN (octal): the byte and how
/// many digits it took, or None when no digit follows (then the escape stays as written).
fn numeric_escape(kind: u8, rest: &[u8]) -> Option<(u8, usize)> {
    let (radix, max) = match kind {
        b'x' => (16, 2),
        b'd' => (10, 3),
        b'o' => (8, 3),
        _ => return None,
    };
    let len = rest.iter().take(max).take_while(|c| (**c as char).is_digit(radix)).count();
    if len == 0 {
        return None;
    }
    let v = u32::from_str_radix(std::str::from_utf8(&rest[..len]).ok()?, radix).ok()?;
    Some(((v & 0xff) as u8, len))
}

fn parse_repl(raw: &[u8]) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        i += 1;
        if c == b'&' {
            if !lit.is_empty() {
                parts.push(Part::Lit(std::mem::take(&mut lit)));
            }
            parts.push(Part::Group(0));
        } else if c == b'\\' && i < raw.len() {
            let n = raw[i];
            i += 1;
            match n {
                b'0'..=b'9' => {
                    if !lit.is_empty() {
                        parts.push(Part::Lit(std::mem::take(&mut lit)));
                    }
                    parts.push(Part::Group((n - b'0') as usize));
                }
                b'L' | b'U' | b'E' | b'l' | b'u' => {
                    if !lit.is_empty() {
                        parts.push(Part::Lit(std::mem::take(&mut lit)));
                    }
                    parts.push(Part::Case(n));
                }
                b'n' => lit.push(b'\n'),
                b't' => lit.push(b'\t'),
                b'\n' => lit.push(b'\n'),
                b'x' | b'd' | b'o' if numeric_escape(n, &raw[i..]).is_some() => {
                    let (b, len) = numeric_escape(n, &raw[i..]).unwrap();
                    lit.push(b);
                    i += len;
                }
                other => lit.push(other),
            }
        } else {
            lit.push(c);
        }
    }
    if !lit.is_empty() {
        parts.push(Part::Lit(lit));
    }
    parts
}

/// The error position of a fault found after parsing (GNU exits 4 for it, without a position).
pub const NO_POSITION: usize = usize::MAX;

pub fn parse(script: &str, ere: bool) -> Result<Program, Err> {
    let mut p = P { s: script.as_bytes(), i: 0, ere };
    let mut cmds: Vec<Cmd> = Vec::new();
    let mut labels = Vec::new();
    let mut wfiles: Vec<String> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        p.skip_ws_nl();
        if p.peek().is_none() {
            break;
        }
        if p.peek() == Some(b'#') {
            while !matches!(p.peek(), None | Some(b'\n')) {
                p.i += 1;
            }
            continue;
        }
        let a1 = addr1(&mut p)?;
        let mut a2 = None;
        if a1.is_some() {
            p.skip_ws();
            if p.peek() == Some(b',') {
                p.i += 1;
                p.skip_ws();
                a2 = addr2(&mut p)?;
            }
        }
        if matches!(a1, Some(Addr::Zero)) && !matches!(a2, Some(Addr2::Re(_))) {
            return p.err("invalid usage of line address 0");
        }
        p.skip_ws();
        let mut negate = false;
        while p.peek() == Some(b'!') {
            negate = true;
            p.i += 1;
            p.skip_ws();
        }
        let c = match p.peek() {
            Some(c) => c,
            None => return p.err("missing command"),
        };
        p.i += 1;
        let no_addr = |p: &P, what: char| -> Result<(), Err> {
            let _ = what;
            p.err(&format!("{} doesn't want any addresses", what))
        };
        let kind = match c {
            b'{' => {
                open.push(cmds.len());
                Kind::Block(0)
            }
            b'}' => {
                if a1.is_some() {
                    no_addr(&p, '}')?;
                }
                let st = match open.pop() {
                    Some(s) => s,
                    None => return p.err("unexpected `}'"),
                };
                let here = cmds.len();
                cmds[st].kind = Kind::Block(here);
                Kind::EndBlock
            }
            b's' => {
                let delim = match p.peek() {
                    Some(d) if d != b'\n' && d != b'\\' => d,
                    _ => return p.err("unterminated `s' command"),
                };
                p.i += 1;
                let raw_re = p.delimited(delim, false)?;
                let raw_repl = p.delimited(delim, true)?;
                let (mut global, mut nth, mut print, mut icase, mut ml) = (false, 1usize, 0u8, false, false);
                let mut wfile = None;
                let mut eval = None;
                loop {
                    match p.peek() {
                        Some(b'g') => global = true,
                        Some(b'p') => print += 1,
                        Some(b'i') | Some(b'I') => icase = true,
                        Some(b'm') | Some(b'M') => ml = true,
                        Some(c) if c.is_ascii_digit() => {
                            nth = p.number().unwrap_or(1) as usize;
                            if nth == 0 {
                                return p.err("number option to `s' command may not be zero");
                            }
                            continue;
                        }
                        Some(b'e') => eval = Some(print),
                        Some(b'w') => {
                            p.i += 1;
                            let f = p.filename()?;
                            wfile = Some(wfile_index(&mut wfiles, f));
                            break;
                        }
                        _ => break,
                    }
                    p.i += 1;
                }
                let re = compile(&raw_re, ere, icase, ml).map_err(|m| (p.i, m))?;
                let repl = parse_repl(&raw_repl);
                let groups = match &re {
                    Some(Re::Crate(r)) => r.captures_len() - 1,
                    Some(Re::Back(b)) => b.groups(),
                    None => 9,
                };
                for part in &repl {
                    if let Part::Group(g) = part {
                        if *g > groups {
                            return Err((p.i, format!("invalid reference \\{} on `s' command's RHS", g)));
                        }
                    }
                }
                // Unescape the replacement's own delimiter handling was done by
                // `delimited`; `\n` etc. are handled by parse_repl.
                Kind::Subst { re, repl, global, nth, print, wfile, eval }
            }
            b'y' => {
                let delim = match p.peek() {
                    Some(d) => d,
                    None => return p.err("unterminated `y' command"),
                };
                p.i += 1;
                let a = unescape_y(&p.delimited(delim, true)?);
                let b = unescape_y(&p.delimited(delim, true)?);
                if a.chars().count() != b.chars().count() || a.len() != b.len() {
                    return p.err("strings for `y' command are different lengths");
                }
                let mut map = Box::new([0u8; 256]);
                for (i, m) in map.iter_mut().enumerate() {
                    *m = i as u8;
                }
                for (x, y) in a.bytes().zip(b.bytes()) {
                    map[x as usize] = y;
                }
                Kind::Translit(map)
            }
            b'd' => Kind::Delete,
            b'D' => Kind::DeleteFirst,
            b'p' => Kind::Print,
            b'P' => Kind::PrintFirst,
            b'n' => Kind::Next,
            b'N' => Kind::NextAppend,
            b'g' => Kind::Get,
            b'G' => Kind::GetAppend,
            b'h' => Kind::Hold,
            b'H' => Kind::HoldAppend,
            b'x' => Kind::Exchange,
            b'z' => Kind::Zap,
            b'=' => Kind::LineNo,
            b'l' => {
                p.skip_ws();
                let _ = p.number();
                Kind::List
            }
            b'b' => Kind::Branch(p.label()),
            b't' => Kind::BranchIfSub(p.label()),
            b'T' => Kind::BranchIfNotSub(p.label()),
            b':' => {
                if a1.is_some() {
                    return p.err(": doesn't want any addresses");
                }
                let l = p.label();
                if l.is_empty() {
                    return p.err("\":\" lacks a label");
                }
                labels.push((l, cmds.len()));
                Kind::Label
            }
            b'q' | b'Q' => {
                p.skip_ws();
                let code = p.number().unwrap_or(0) as i32;
                if c == b'q' {
                    Kind::Quit(code)
                } else {
                    Kind::QuitSilent(code)
                }
            }
            b'a' => Kind::Append(p.text()),
            b'i' => Kind::Insert(p.text()),
            b'c' => Kind::Change(p.text()),
            b'w' => Kind::Write(wfile_index(&mut wfiles, p.filename()?)),
            b'W' => Kind::WriteFirst(wfile_index(&mut wfiles, p.filename()?)),
            b'r' => Kind::ReadFile(p.filename()?),
            b'R' => Kind::ReadLine(p.filename()?),
            b'F' => Kind::FileName,
            b'e' => {
                // The rest of the line is the command (`;` too), as GNU reads it.
                p.skip_ws();
                let st = p.i;
                while matches!(p.peek(), Some(c) if c != b'\n') {
                    p.i += 1;
                }
                Kind::Exec(if st == p.i { None } else { Some(p.s[st..p.i].to_vec()) })
            }
            // v [VERSION]: GNU's check that sed is GNU sed; this one reads GNU's script.
            b'v' => {
                p.label();
                Kind::Label
            }
            other => return p.err(&format!("unknown command: `{}'", other as char)),
        };
        cmds.push(Cmd { a1, a2, negate, kind });
        p.skip_ws();
        match p.peek() {
            None | Some(b'\n') | Some(b';') | Some(b'}') | Some(b'#') => {}
            Some(_) => {
                if !matches!(cmds.last().map(|c| &c.kind), Some(Kind::Block(_))) {
                    return p.err(&format!("extra characters after command"));
                }
            }
        }
    }
    if !open.is_empty() {
        return Err((script.len(), "unmatched `{'".into()));
    }
    for c in &cmds {
        if let Kind::Branch(l) | Kind::BranchIfSub(l) | Kind::BranchIfNotSub(l) = &c.kind {
            if !l.is_empty() && !labels.iter().any(|(n, _)| n == l) {
                // GNU reports a missing label after parsing, with no position, and exits 4.
                return Err((NO_POSITION, format!("can't find label for jump to `{}'", l)));
            }
        }
    }
    Ok(Program { cmds, labels, wfiles })
}

fn wfile_index(files: &mut Vec<String>, name: String) -> usize {
    match files.iter().position(|f| *f == name) {
        Some(i) => i,
        None => {
            files.push(name);
            files.len() - 1
        }
    }
}

fn unescape_y(raw: &[u8]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() {
            out.push(match raw[i + 1] {
                b'n' => b'\n',
                b't' => b'\t',
                b'\\' => b'\\',
                o => o,
            });
            i += 2;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
