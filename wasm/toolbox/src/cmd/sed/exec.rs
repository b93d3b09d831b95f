//! Runs a parsed sed program over the input stream(s).

use super::parse::{Addr, Addr2, Kind, Part, Program, Re};
use super::shell;
use crate::backref::Backref;
use crate::ctx::{q, reason, Ctx, Res};
use crate::{fsx, input};
use regex::bytes::Regex;
use std::io::{self, BufRead, Write};

pub struct Opts {
    pub quiet: bool,
    pub separate: bool,
    pub in_place: Option<String>,
    pub eol: u8,
    pub line_len: usize,
}

/// Lines from a list of inputs with one line of lookahead, so `$` can be
/// known before the last line is processed.
struct Lines<'a> {
    names: Vec<String>,
    next_file: usize,
    cur: Option<Box<dyn BufRead + 'a>>,
    stdin: Option<&'a mut dyn BufRead>,
    ahead: Option<(Vec<u8>, bool)>,
    eol: u8,
    errors: Vec<String>,
    /// The file the next line comes from (for `F`).
    current: String,
}

impl<'a> Lines<'a> {
    fn fill(&mut self) {
        while self.ahead.is_none() {
            if self.cur.is_none() {
                if self.next_file >= self.names.len() {
                    return;
                }
                let n = self.names[self.next_file].clone();
                self.next_file += 1;
                self.current = n.clone();
                if n == "-" {
                    match self.stdin.take() {
                        Some(s) => self.cur = Some(Box::new(s)),
                        None => continue,
                    }
                } else {
                    let opened = std::fs::File::open(fsx::host(&n)).and_then(|f| {
                        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                            Err(input::is_a_directory())
                        } else {
                            Ok(f)
                        }
                    });
                    match opened {
                        Ok(f) => self.cur = Some(Box::new(io::BufReader::with_capacity(input::BUF, f))),
                        Err(e) => {
                            let what = if reason(&e) == "Is a directory" { "read error on" } else { "can't read" };
                            self.errors.push(format!("{} {}: {}", what, n, reason(&e)));
                            continue;
                        }
                    }
                }
            }
            let mut buf = Vec::new();
            let r = self.cur.as_mut().unwrap().read_until(self.eol, &mut buf);
            match r {
                Ok(0) | Err(_) => {
                    if let Err(e) = r {
                        self.errors.push(format!("read error: {}", reason(&e)));
                    }
                    self.cur = None;
                }
                Ok(_) => {
                    let nl = buf.last() == Some(&self.eol);
                    if nl {
                        buf.pop();
                    }
                    self.ahead = Some((buf, nl));
                }
            }
        }
    }
    fn next(&mut self) -> Option<(Vec<u8>, bool)> {
        self.fill();
        self.ahead.take()
    }
    fn is_last(&mut self) -> bool {
        self.fill();
        self.ahead.is_none()
    }
}

struct Out<'w> {
    w: &'w mut dyn Write,
    missing_nl: bool,
    eol: u8,
}

impl<'w> Out<'w> {
    /// Writes `b`, first closing an earlier unterminated line (GNU does so).
    fn line(&mut self, b: &[u8], nl: bool) -> io::Result<()> {
        if self.missing_nl {
            self.w.write_all(&[self.eol])?;
            self.missing_nl = false;
        }
        self.w.write_all(b)?;
        if nl {
            self.w.write_all(&[self.eol])?;
        } else {
            self.missing_nl = true;
        }
        Ok(())
    }
    fn raw(&mut self, b: &[u8]) -> io::Result<()> {
        if b.is_empty() {
            return Ok(());
        }
        if self.missing_nl {
            self.w.write_all(&[self.eol])?;
            self.missing_nl = false;
        }
        self.w.write_all(b)
    }
}

/// State that lives across cycles (and across files with -s).
struct Machine<'p> {
    prog: &'p Program,
    hold: Vec<u8>,
    active: Vec<bool>,
    range_end: Vec<u64>,
    /// Regex clones are costly (each gets its own match cache): borrow.
    last_re: Option<&'p Re>,
    quit: Option<i32>,
    /// A back-reference search gave up (step budget); ends the run.
    error: Option<String>,
    /// Open `w` files by Program::wfiles index; None is /dev/stdout (sed's own output).
    writers: Vec<Option<io::BufWriter<std::fs::File>>>,
    /// `R` files being read a line at a time.
    readers: Vec<(String, Option<Box<dyn BufRead>>)>,
}

pub fn run(ctx: &mut Ctx, prog: &Program, o: &Opts, files: &[String]) -> Res {
    let n = prog.cmds.len();
    let mut m = Machine { prog, hold: Vec::new(), active: vec![false; n], range_end: vec![0; n], last_re: None, quit: None, error: None, writers: Vec::new(), readers: Vec::new() };
    // GNU opens (and empties) every w file before reading any input.
    for f in &prog.wfiles {
        if f == "/dev/stdout" {
            m.writers.push(None);
            continue;
        }
        match std::fs::File::create(fsx::host(f)) {
            Ok(file) => m.writers.push(Some(io::BufWriter::new(file))),
            Err(e) => {
                ctx.diag.error(format!("couldn't open file {}: {}", f, reason(&e)));
                return Ok(4);
            }
        }
    }
    let code = run_inputs(ctx, &mut m, o, files)?;
    for (w, name) in m.writers.iter_mut().zip(&prog.wfiles) {
        if let Some(Err(e)) = w.as_mut().map(|w| w.flush()) {
            ctx.diag.error(format!("couldn't write {}: {}", name, reason(&e)));
            return Ok(4);
        }
    }
    Ok(code)
}

fn run_inputs(ctx: &mut Ctx, m: &mut Machine, o: &Opts, files: &[String]) -> Res {
    if let Some(suffix) = &o.in_place {
        for f in files {
            if f == "-" {
                ctx.diag.error("couldn't edit -: not a regular file");
                continue;
            }
            match fsx::metadata(f) {
                Ok(md) if md.is_file() => {}
                Ok(_) => {
                    ctx.diag.error(format!("couldn't edit {}: not a regular file", f));
                    continue;
                }
                Err(e) => {
                    ctx.diag.error(format!("can't read {}: {}", f, reason(&e)));
                    continue;
                }
            }
            let mut buf = Vec::new();
            let mut lines = Lines { names: vec![f.clone()], next_file: 0, cur: None, stdin: None, ahead: None, eol: o.eol, errors: Vec::new(), current: String::new() };
            {
                let mut out = Out { w: &mut buf, missing_nl: false, eol: o.eol };
                m.range_reset();
                stream(m, &mut lines, &mut out, o, &mut ctx.out)?;
            }
            for e in lines.errors {
                ctx.diag.error(e);
            }
            if !suffix.is_empty() {
                let bak = if suffix.contains('*') { suffix.replace('*', fsx::base_name(f)) } else { format!("{}{}", f, suffix) };
                if let Err(e) = std::fs::copy(fsx::host(f), fsx::host(&bak)) {
                    ctx.diag.error(format!("cannot rename {}: {}", q(f), reason(&e)));
                    continue;
                }
            }
            if let Err(e) = std::fs::write(fsx::host(f), &buf) {
                ctx.diag.error(format!("couldn't write {}: {}", q(f), reason(&e)));
            }
            if m.quit.is_some() {
                break;
            }
        }
    } else {
        let groups: Vec<Vec<String>> = if o.separate { files.iter().map(|f| vec![f.clone()]).collect() } else { vec![files.to_vec()] };
        let mut out_missing = false;
        for g in groups {
            let mut lines = Lines { names: g, next_file: 0, cur: None, stdin: Some(&mut *ctx.stdin), ahead: None, eol: o.eol, errors: Vec::new(), current: String::new() };
            let mut sink = io::sink();
            {
                let mut out = Out { w: &mut ctx.out, missing_nl: out_missing, eol: o.eol };
                m.range_reset();
                stream(m, &mut lines, &mut out, o, &mut sink)?;
                out_missing = out.missing_nl;
            }
            for e in lines.errors {
                ctx.diag.error(e);
            }
            if m.quit.is_some() {
                break;
            }
        }
    }
    Ok(match m.quit {
        Some(c) if c != 0 => c,
        _ => {
            if ctx.diag.failed {
                2
            } else {
                0
            }
        }
    })
}

impl<'p> Machine<'p> {
    fn range_reset(&mut self) {
        for a in self.active.iter_mut() {
            *a = false;
        }
    }

    fn re_match(&mut self, re: &'p Option<Re>, ps: &[u8]) -> bool {
        let r = match re {
            Some(r) => {
                self.last_re = Some(r);
                r
            }
            None => match self.last_re {
                Some(r) => r,
                None => return false,
            },
        };
        match r {
            Re::Crate(r) => r.is_match(ps),
            Re::Back(b) => b.is_match(ps).unwrap_or_else(|e| {
                self.error = Some(e);
                false
            }),
        }
    }

    fn match1(&mut self, a: &'p Addr, ln: u64, last: bool, ps: &[u8]) -> bool {
        match a {
            Addr::Line(n) => ln == *n,
            Addr::Last => last,
            Addr::Re(r) => self.re_match(r, ps),
            Addr::Step(f, s) => {
                if *s == 0 {
                    ln == *f
                } else {
                    ln >= *f && (ln - f) % s == 0
                }
            }
            Addr::Zero => false,
        }
    }

    fn selected(&mut self, i: usize, ln: u64, last: bool, ps: &[u8]) -> bool {
        let prog: &'p Program = self.prog;
        let cmd = &prog.cmds[i];
        if cmd.a1.is_none() {
            return !cmd.negate;
        }
        let hit = match (&cmd.a1, &cmd.a2) {
            (None, _) => true,
            (Some(a), None) => self.match1(&a, ln, last, ps),
            (Some(a), Some(b)) => {
                if self.active[i] {
                    let ends = match b {
                        Addr2::Line(_) | Addr2::Plus(_) => ln >= self.range_end[i],
                        Addr2::Last => last,
                        Addr2::Re(r) => self.re_match(r, ps),
                        Addr2::Tilde(n) => *n == 0 || ln % n == 0,
                    };
                    if ends {
                        self.active[i] = false;
                    }
                    true
                } else {
                    let start = match a {
                        Addr::Zero => true,
                        other => self.match1(other, ln, last, ps),
                    };
                    if !start {
                        false
                    } else {
                        // A range whose end is already behind covers one line.
                        let single = match b {
                            Addr2::Line(n) => *n <= ln,
                            Addr2::Plus(n) => *n == 0,
                            Addr2::Last => last,
                            Addr2::Tilde(n) => *n == 0 || ln % n == 0,
                            Addr2::Re(r) => matches!(a, Addr::Zero) && self.re_match(r, ps),
                        };
                        self.range_end[i] = match b {
                            Addr2::Line(n) => *n,
                            Addr2::Plus(n) => ln + n,
                            _ => 0,
                        };
                        if matches!(a, Addr::Zero) && ln != 1 {
                            // 0,/re/ starts only at line 1.
                            false
                        } else {
                            self.active[i] = !single;
                            true
                        }
                    }
                }
            }
        };
        hit != cmd.negate
    }
}

fn subst<'p>(m: &mut Machine<'p>, re: &'p Option<Re>, repl: &[Part], global: bool, nth: usize, ps: &mut Vec<u8>) -> bool {
    let re: &'p Re = match re {
        Some(r) => {
            m.last_re = Some(r);
            r
        }
        None => match m.last_re {
            Some(r) => r,
            None => return false,
        },
    };
    match re {
        Re::Crate(r) => subst_crate(r, repl, global, nth, ps),
        Re::Back(b) => subst_backref(b, repl, global, nth, ps).unwrap_or_else(|e| {
            m.error = Some(e);
            false
        }),
    }
}

/// s/// with the back-reference engine: the same walk as the crate's
/// iterators (an empty match right after the previous match is skipped).
fn subst_backref(re: &Backref, repl: &[Part], global: bool, nth: usize, ps: &mut Vec<u8>) -> Result<bool, String> {
    let mut out = Vec::with_capacity(ps.len());
    let (mut pos, mut last, mut k, mut did) = (0, 0, 0, false);
    let mut prev_end = None;
    let utf8 = std::str::from_utf8(ps).is_ok();
    while pos <= ps.len() {
        let caps = match re.find_at_utf8(ps, pos, utf8)? {
            Some(c) => c,
            None => break,
        };
        let (start, end) = caps[0].unwrap_or((pos, pos));
        if start == end && prev_end == Some(start) {
            pos = start + 1;
            continue;
        }
        k += 1;
        if k >= nth {
            out.extend_from_slice(&ps[last..start]);
            let hay: &[u8] = ps;
            expand(repl, &|g| caps.get(g).copied().flatten().map(|(a, b)| &hay[a..b]), &mut out);
            last = end;
            did = true;
            if !global {
                break;
            }
        }
        prev_end = Some(end);
        pos = if start == end { end + 1 } else { end };
    }
    if did {
        out.extend_from_slice(&ps[last..]);
        *ps = out;
    }
    Ok(did)
}

fn subst_crate(re: &Regex, repl: &[Part], global: bool, nth: usize, ps: &mut Vec<u8>) -> bool {
    let mut out = Vec::with_capacity(ps.len());
    let mut last = 0;
    let mut k = 0;
    let mut did = false;
    // Capture groups cost a slower search; most replacements only need `&`.
    let groups = repl.iter().any(|p| matches!(p, Part::Group(g) if *g > 0));
    if !groups {
        for mm in re.find_iter(ps) {
            k += 1;
            if k < nth {
                continue;
            }
            out.extend_from_slice(&ps[last..mm.start()]);
            let whole = mm.as_bytes();
            expand(repl, &|g| if g == 0 { Some(whole) } else { None }, &mut out);
            last = mm.end();
            did = true;
            if !global {
                break;
            }
        }
        if did {
            out.extend_from_slice(&ps[last..]);
            *ps = out;
        }
        return did;
    }
    for caps in re.captures_iter(ps) {
        let whole = caps.get(0).unwrap();
        k += 1;
        if k < nth {
            continue;
        }
        out.extend_from_slice(&ps[last..whole.start()]);
        expand(repl, &|g| caps.get(g).map(|m| m.as_bytes()), &mut out);
        last = whole.end();
        did = true;
        if !global {
            break;
        }
    }
    if did {
        out.extend_from_slice(&ps[last..]);
        *ps = out;
    }
    did
}

/// Writes a replacement with \1..\9, & and the \L \U \E \l \u case controls.
fn expand<'a>(repl: &[Part], group: &dyn Fn(usize) -> Option<&'a [u8]>, out: &mut Vec<u8>) {
    let mut mode = 0u8; // 0 none, b'L', b'U'
    let mut one = 0u8; // pending \l or \u
    let push = |bytes: &[u8], out: &mut Vec<u8>, mode: u8, one: &mut u8| {
        for &b in bytes {
            let mut c = match mode {
                b'L' => b.to_ascii_lowercase(),
                b'U' => b.to_ascii_uppercase(),
                _ => b,
            };
            if *one == b'l' {
                c = c.to_ascii_lowercase();
                *one = 0;
            } else if *one == b'u' {
                c = c.to_ascii_uppercase();
                *one = 0;
            }
            out.push(c);
        }
    };
    for p in repl {
        match p {
            Part::Lit(l) => push(l, out, mode, &mut one),
            Part::Group(g) => {
                if let Some(b) = group(*g) {
                    push(b, out, mode, &mut one);
                }
            }
            Part::Case(c) => match c {
                b'L' | b'U' => mode = *c,
                b'E' => mode = 0,
                _ => one = *c,
            },
        }
    }
}

fn list(ps: &[u8], width: usize, out: &mut Vec<u8>) {
    let mut col = 0;
    for &b in ps {
        let piece: Vec<u8> = match b {
            b'\\' => b"\\\\".to_vec(),
            7 => b"\\a".to_vec(),
            8 => b"\\b".to_vec(),
            12 => b"\\f".to_vec(),
            b'\n' => b"\\n".to_vec(),
            b'\r' => b"\\r".to_vec(),
            b'\t' => b"\\t".to_vec(),
            11 => b"\\v".to_vec(),
            c if (0x20..0x7f).contains(&c) => vec![c],
            c => format!("\\{:03o}", c).into_bytes(),
        };
        if width > 1 && col + piece.len() > width - 1 {
            out.extend_from_slice(b"\\\n");
            col = 0;
        }
        col += piece.len();
        out.extend_from_slice(&piece);
    }
    out.extend_from_slice(b"$\n");
}

/// `w FILE`: the text and a newline; /dev/stdout is sed's own output (the real stdout with -i).
fn write_to(m: &mut Machine, i: usize, text: &[u8], out: &mut Out, o: &Opts, aux: &mut dyn Write) -> io::Result<()> {
    match m.writers.get_mut(i) {
        Some(Some(w)) => {
            w.write_all(text)?;
            w.write_all(&[o.eol])
        }
        _ if o.in_place.is_some() => {
            aux.write_all(text)?;
            aux.write_all(&[o.eol])
        }
        _ => out.line(text, true),
    }
}

/// `R FILE`: the file's next line (with its newline), or None at its end or when unreadable.
fn read_line(m: &mut Machine, name: &str, eol: u8) -> Option<Vec<u8>> {
    let at = match m.readers.iter().position(|(n, _)| n == name) {
        Some(i) => i,
        None => {
            let r = std::fs::File::open(fsx::host(name)).ok().map(|f| Box::new(io::BufReader::new(f)) as Box<dyn BufRead>);
            m.readers.push((name.to_string(), r));
            m.readers.len() - 1
        }
    };
    let r = m.readers[at].1.as_mut()?;
    let mut buf = Vec::new();
    match r.read_until(eol, &mut buf) {
        Ok(n) if n > 0 => {
            if buf.last() != Some(&eol) {
                buf.push(eol);
            }
            Some(buf)
        }
        _ => None,
    }
}

fn stream(m: &mut Machine, lines: &mut Lines, out: &mut Out, o: &Opts, aux: &mut dyn Write) -> io::Result<()> {
    let cmds = &m.prog.cmds;
    let mut ln = 0u64;
    let mut append: Vec<u8> = Vec::new();
    let mut restart: Option<(Vec<u8>, bool)> = None;
    loop {
        let (mut ps, mut nl) = match restart.take() {
            Some(x) => x,
            None => match lines.next() {
                Some(x) => {
                    ln += 1;
                    x
                }
                None => break,
            },
        };
        let mut subst_flag = false;
        let mut pc = 0;
        let mut autoprint = !o.quiet;
        let mut end_cycle = false;
        while pc < cmds.len() && !end_cycle {
            let last = lines.is_last();
            let selected = m.selected(pc, ln, last, &ps);
            if m.error.is_some() {
                return Err(failure(m, out));
            }
            if !selected {
                if let Kind::Block(end) = cmds[pc].kind {
                    pc = end + 1;
                } else {
                    pc += 1;
                }
                continue;
            }
            let mut next_pc = pc + 1;
            match &cmds[pc].kind {
                Kind::Block(_) | Kind::EndBlock | Kind::Label => {}
                Kind::Subst { re, repl, global, nth, print, wfile, eval } => {
                    let did = subst(m, re, repl, *global, *nth, &mut ps);
                    if m.error.is_some() {
                        return Err(failure(m, out));
                    }
                    if did {
                        subst_flag = true;
                        // GNU: a p before e prints the command, a p after it the output.
                        let before = eval.unwrap_or(0);
                        for _ in 0..before {
                            out.line(&ps, nl)?;
                        }
                        if eval.is_some() {
                            ps = execute(m, &ps, out, o.eol)?;
                        }
                        for _ in before..*print {
                            out.line(&ps, nl)?;
                        }
                        if let Some(i) = wfile {
                            write_to(m, *i, &ps, out, o, aux)?;
                        }
                    }
                }
                Kind::Write(i) => write_to(m, *i, &ps, out, o, aux)?,
                Kind::WriteFirst(i) => {
                    let end = memchr::memchr(b'\n', &ps).unwrap_or(ps.len());
                    write_to(m, *i, &ps[..end], out, o, aux)?;
                }
                Kind::ReadFile(f) => {
                    // A missing or unreadable file is silently ignored, as in GNU sed.
                    if let Ok(text) = std::fs::read(fsx::host(f)) {
                        append.extend_from_slice(&text);
                    }
                }
                Kind::ReadLine(f) => {
                    if let Some(l) = read_line(m, f, o.eol) {
                        append.extend_from_slice(&l);
                    }
                }
                Kind::Exec(None) => ps = execute(m, &ps, out, o.eol)?,
                Kind::Exec(Some(cmd)) => {
                    let text = execute(m, cmd, out, 0)?;
                    // GNU ends an unterminated line first, even when the command prints nothing.
                    if out.missing_nl {
                        out.w.write_all(&[out.eol])?;
                        out.missing_nl = false;
                    }
                    out.w.write_all(&text)?;
                }
                Kind::FileName => {
                    let name = if lines.current.is_empty() { "-".to_string() } else { lines.current.clone() };
                    out.raw(format!("{}\n", name).as_bytes())?;
                }
                Kind::Translit(map) => {
                    for b in ps.iter_mut() {
                        *b = map[*b as usize];
                    }
                }
                Kind::Delete => {
                    autoprint = false;
                    end_cycle = true;
                }
                Kind::DeleteFirst => match memchr::memchr(b'\n', &ps) {
                    None => {
                        autoprint = false;
                        end_cycle = true;
                    }
                    Some(i) => {
                        let rest = ps[i + 1..].to_vec();
                        out.raw(&append)?;
                        append.clear();
                        restart = Some((rest, nl));
                        autoprint = false;
                        end_cycle = true;
                    }
                },
                Kind::Print => out.line(&ps, nl)?,
                Kind::PrintFirst => {
                    let end = memchr::memchr(b'\n', &ps).unwrap_or(ps.len());
                    out.line(&ps[..end], true)?;
                }
                Kind::Next => {
                    if lines.is_last() {
                        // GNU: no next line, so quit (printing unless -n).
                        m.quit = Some(0);
                        end_cycle = true;
                    } else {
                        if !o.quiet {
                            out.line(&ps, nl)?;
                        }
                        out.raw(&append)?;
                        append.clear();
                        let (l, n2) = lines.next().unwrap();
                        ln += 1;
                        ps = l;
                        nl = n2;
                    }
                }
                Kind::NextAppend => {
                    if lines.is_last() {
                        m.quit = Some(0);
                        end_cycle = true;
                    } else {
                        out.raw(&append)?;
                        append.clear();
                        let (l, n2) = lines.next().unwrap();
                        ln += 1;
                        ps.push(b'\n');
                        ps.extend_from_slice(&l);
                        nl = n2;
                    }
                }
                Kind::Get => ps = m.hold.clone(),
                Kind::GetAppend => {
                    ps.push(b'\n');
                    ps.extend_from_slice(&m.hold);
                }
                Kind::Hold => m.hold = ps.clone(),
                Kind::HoldAppend => {
                    m.hold.push(b'\n');
                    m.hold.extend_from_slice(&ps);
                }
                Kind::Exchange => std::mem::swap(&mut ps, &mut m.hold),
                Kind::Zap => ps.clear(),
                Kind::Branch(l) => next_pc = target(m.prog, l),
                Kind::BranchIfSub(l) => {
                    if subst_flag {
                        subst_flag = false;
                        next_pc = target(m.prog, l);
                    }
                }
                Kind::BranchIfNotSub(l) => {
                    if !subst_flag {
                        next_pc = target(m.prog, l);
                    } else {
                        subst_flag = false;
                    }
                }
                Kind::LineNo => out.raw(format!("{}\n", ln).as_bytes())?,
                Kind::List => {
                    let mut b = Vec::new();
                    list(&ps, o.line_len, &mut b);
                    out.raw(&b)?;
                }
                Kind::Quit(c) => {
                    m.quit = Some(*c);
                    end_cycle = true;
                }
                Kind::QuitSilent(c) => {
                    m.quit = Some(*c);
                    autoprint = false;
                    end_cycle = true;
                }
                Kind::Append(t) => append.extend_from_slice(t),
                Kind::Insert(t) => out.raw(t)?,
                Kind::Change(t) => {
                    // In a range, the text replaces the whole range once, at its end.
                    let in_range = cmds[pc].a2.is_some() && m.active[pc] && !cmds[pc].negate;
                    if !in_range {
                        out.raw(t)?;
                    }
                    autoprint = false;
                    end_cycle = true;
                }
            }
            pc = next_pc;
        }
        if autoprint {
            out.line(&ps, nl)?;
        }
        out.raw(&append)?;
        append.clear();
        if m.quit.is_some() {
            break;
        }
    }
    Ok(())
}

/// The back-reference engine gave up: keep the output so far, and end the
/// run with its message. Kept out of line, away from the per-line loop.
#[cold]
#[inline(never)]
fn failure(m: &mut Machine, out: &mut Out) -> io::Error {
    let _ = out.w.flush();
    io::Error::new(io::ErrorKind::Other, m.error.take().unwrap_or_default())
}

/// Runs `cmd` as GNU sed does with popen (through the session's shell here) and gives its
/// output, less one trailing `strip` byte (the line delimiter; 0 keeps it all). Its standard
/// error goes to sed's, after what sed has written so far.
fn execute(m: &mut Machine, cmd: &[u8], out: &mut Out, strip: u8) -> io::Result<Vec<u8>> {
    out.w.flush()?;
    match shell::run(cmd) {
        Ok(r) => {
            if !r.stderr.is_empty() {
                let _ = io::stderr().write_all(&r.stderr);
            }
            let mut text = r.stdout;
            if strip != 0 && text.last() == Some(&strip) {
                text.pop();
            }
            Ok(text)
        }
        Err(e) => {
            m.error = Some(e);
            Err(failure(m, out))
        }
    }
}

fn target(p: &Program, label: &str) -> usize {
    if label.is_empty() {
        return usize::MAX;
    }
    p.labels.iter().find(|(n, _)| n == label).map(|(_, i)| *i).unwrap_or(usize::MAX)
}
