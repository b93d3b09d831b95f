//! jq [OPTION]... FILTER [FILE]... — the jq language, implemented here
//! (jq 1.6 output format and messages): paths, pipes, generators,
//! construction, arithmetic, conditionals, try/catch, `//`, variables and
//! destructuring, reduce/foreach, def, label/break, string interpolation
//! and @formats, assignments (`= |= += //=` …), regexes (Rust `regex`
//! syntax, close to jq's Oniguruma for everyday patterns) and the common
//! builtins; --stream and --seq (framing.rs). Not supported: modules (`import`, -L),
//! SQL-style and date builtins beyond todate/fromdate/strftime/now.

mod builtins;
mod eval;
mod framing;
mod parse;
#[cfg(test)]
mod tests;
mod value;

use crate::ctx::{reason, Ctx, Res};
use crate::fsx;
use eval::{Ctl, Cur, Env, Interp};
use std::cell::{Cell, RefCell};
use std::io::{Read, Write};
use std::rc::Rc;
use value::{dump, dump_into, parse_one, Fmt, Reader, Scratch, V};

const HELP: &str = "Usage:\tjq [OPTIONS] FILTER [FILE...]\n\tjq [OPTIONS] --args FILTER [STRINGS...]\n\tjq [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]\n\njq applies FILTER to its JSON text inputs and prints the results as JSON.\n\n  -c, --compact-output      compact instead of pretty-printed output\n  -n, --null-input          use `null` as the single input value\n  -e, --exit-status         set the exit status code based on the output\n  -s, --slurp               read all inputs into an array and apply the filter to it\n  -r, --raw-output          output raw strings, not JSON texts\n  -j, --join-output         like -r, without a newline after each output\n  -a, --ascii-output        escape non-ASCII characters\n  -R, --raw-input           read each line as a string, not JSON\n  -S, --sort-keys           sort keys of objects on output\n  -C, -M                    colored / monochrome output\n      --seq                 application/json-seq: RS before each text (input and output)\n      --stream              read each input as its stream of [path, leaf] events\n      --tab                 indent with tabs\n      --indent N            indent with N spaces (0-7)\n  -f, --from-file FILE      read the filter from FILE\n      --arg NAME VALUE      set $NAME to the string VALUE\n      --argjson NAME JSON   set $NAME to the JSON value\n      --slurpfile NAME FILE set $NAME to an array of the JSON texts in FILE\n      --rawfile NAME FILE   set $NAME to the contents of FILE\n      --args                remaining arguments are strings ($ARGS.positional)\n      --jsonargs            remaining arguments are JSON texts ($ARGS.positional)\n\nExit status: 0 ok; 1 with -e when the last output is false or null; 2 usage or\ninput error; 3 compile error; 4 with -e when there was no output; 5 runtime error.\n";

/// Output is written in pieces of about this size.
const OUT_CHUNK: usize = 64 * 1024;

const TRY: &str = "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq";

#[derive(Default)]
struct Opts {
    /// -C: jq 1.6's default colors; -M (the default off a terminal) turns them off.
    color: bool,
    compact: bool,
    null_input: bool,
    exit_status: bool,
    slurp: bool,
    raw_out: bool,
    join: bool,
    ascii: bool,
    raw_in: bool,
    sort_keys: bool,
    tab: bool,
    stream: bool,
    seq: bool,
    indent: Option<usize>,
    from_file: Option<String>,
    filter: Option<String>,
    files: Vec<String>,
    named: Vec<(String, V)>,
    positional: Vec<V>,
}

fn usage_err(ctx: &mut Ctx, msg: &str) -> i32 {
    let _ = writeln!(ctx.diag.raw(), "jq: {}\n{}", msg, TRY);
    2
}

fn read_file(name: &str) -> Result<Vec<u8>, String> {
    let mut b = Vec::new();
    // Sized from the file's length up front: growing a big buffer step by
    // step re-copies (and re-zeroes) it several times.
    let read = |mut f: std::fs::File, b: &mut Vec<u8>| {
        if let Ok(m) = f.metadata() {
            b.reserve_exact((m.len() as usize).saturating_add(1));
        }
        f.read_to_end(b)
    };
    match std::fs::File::open(fsx::host(name)).and_then(|f| read(f, &mut b)) {
        Ok(_) => Ok(b),
        Err(e) => Err(format!("Could not open {}: {}", name, reason(&e))),
    }
}

/// Parses jq's command line (options may follow the filter; short options
/// combine as in `-rc`). Err is the exit status after a message.
fn parse_args(ctx: &mut Ctx, args: &[String]) -> Result<Opts, i32> {
    let mut o = Opts::default();
    let mut i = 0;
    let mut rest_mode: Option<bool> = None; // Some(json?) after --args/--jsonargs
    let mut only_operands = false;
    while i < args.len() {
        let a = args[i].clone();
        i += 1;
        // Like jq, "-1" is a program or operand, not an option.
        let is_opt = !only_operands && a.len() > 1 && a.starts_with('-') && a[1..].starts_with(|c: char| c == '-' || c.is_ascii_alphabetic());
        if !is_opt {
            if o.filter.is_none() && o.from_file.is_none() {
                o.filter = Some(a);
            } else if let Some(json) = rest_mode {
                if json {
                    match parse_one(&a) {
                        Ok(v) => o.positional.push(v),
                        Err(_) => return Err(usage_err(ctx, &format!("Invalid JSON text passed to --jsonargs"))),
                    }
                } else {
                    o.positional.push(V::str(&a));
                }
            } else {
                o.files.push(a);
            }
            continue;
        }
        if a == "--" {
            only_operands = true;
            continue;
        }
        let mut take = |n: usize, what: &str, ctx: &mut Ctx| -> Result<Vec<String>, i32> {
            if i + n > args.len() {
                return Err(usage_err(ctx, &format!("{} takes {} parameter{}", what, n, if n > 1 { "s (e.g. --arg varname value)" } else { "" })));
            }
            let v = args[i..i + n].to_vec();
            i += n;
            Ok(v)
        };
        if let Some(long) = a.strip_prefix("--") {
            match long {
                "compact-output" => o.compact = true,
                "null-input" => o.null_input = true,
                "exit-status" => o.exit_status = true,
                "slurp" => o.slurp = true,
                "raw-output" => o.raw_out = true,
                "join-output" => {
                    o.raw_out = true;
                    o.join = true
                }
                "ascii-output" => o.ascii = true,
                "raw-input" => o.raw_in = true,
                "sort-keys" => o.sort_keys = true,
                "color-output" => o.color = true,
                "monochrome-output" => o.color = false,
                "unbuffered" => {}
                "tab" => o.tab = true,
                "help" => {
                    let _ = ctx.out.write_all(HELP.as_bytes());
                    return Err(0);
                }
                "version" => {
                    let _ = writeln!(ctx.out, "jq-1.6");
                    return Err(0);
                }
                "indent" => {
                    let v = take(1, "--indent", ctx)?;
                    match v[0].parse::<i32>() {
                        Ok(n) if (-1..=7).contains(&n) => o.indent = Some(n.max(0) as usize),
                        _ => return Err(usage_err(ctx, "--indent takes a number between -1 and 7")),
                    }
                }
                "from-file" => o.from_file = Some(take(1, "--from-file", ctx)?.remove(0)),
                "arg" => {
                    let v = take(2, "--arg", ctx)?;
                    o.named.push((v[0].clone(), V::str(&v[1])));
                }
                "argjson" => {
                    let v = take(2, "--argjson", ctx)?;
                    match parse_one(&v[1]) {
                        Ok(j) => o.named.push((v[0].clone(), j)),
                        Err(_) => return Err(usage_err(ctx, &format!("Invalid JSON text passed to --argjson"))),
                    }
                }
                "slurpfile" | "rawfile" => {
                    let v = take(2, &format!("--{}", long), ctx)?;
                    let data = match read_file(&v[1]) {
                        Ok(d) => d,
                        Err(m) => {
                            let _ = writeln!(ctx.diag.raw(), "jq: Bad JSON in --{} {} {}: {}", long, v[0], v[1], m);
                            return Err(2);
                        }
                    };
                    if long == "rawfile" {
                        o.named.push((v[0].clone(), V::str(&String::from_utf8_lossy(&data))));
                    } else {
                        let mut r = Reader::new(&data);
                        let mut vals = Vec::new();
                        while let Some(x) = r.next() {
                            match x {
                                Ok(x) => vals.push(x),
                                Err(m) => {
                                    let _ = writeln!(ctx.diag.raw(), "jq: Bad JSON in --slurpfile {} {}: {}", v[0], v[1], m);
                                    return Err(2);
                                }
                            }
                        }
                        o.named.push((v[0].clone(), V::arr(vals)));
                    }
                }
                "args" => rest_mode = Some(false),
                "jsonargs" => rest_mode = Some(true),
                "stream" => o.stream = true,
                "seq" => o.seq = true,
                _ => return Err(usage_err(ctx, &format!("Unknown option {}", a))),
            }
            continue;
        }
        for c in a[1..].chars() {
            match c {
                'c' => o.compact = true,
                'n' => o.null_input = true,
                'e' => o.exit_status = true,
                's' => o.slurp = true,
                'r' => o.raw_out = true,
                'j' => {
                    o.raw_out = true;
                    o.join = true
                }
                'a' => o.ascii = true,
                'R' => o.raw_in = true,
                'S' => o.sort_keys = true,
                'C' => o.color = true,
                'M' => o.color = false,
                'h' => {
                    let _ = ctx.out.write_all(HELP.as_bytes());
                    return Err(0);
                }
                'f' => o.from_file = Some(take(1, "-f", ctx)?.remove(0)),
                _ => return Err(usage_err(ctx, &format!("Unknown option {}", a))),
            }
        }
    }
    Ok(o)
}

/// Where each input file starts in the concatenated input (bytes), for `input_filename`.
type Starts = Rc<RefCell<Vec<(u64, Rc<str>)>>>;

/// One input file in the chain: notes the offset it starts at when it is first read.
struct Marked<R> {
    inner: R,
    name: Rc<str>,
    starts: Starts,
    total: Rc<Cell<u64>>,
    seen: bool,
}

impl<R: Read> Read for Marked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.seen {
            self.seen = true;
            self.starts.borrow_mut().push((self.total.get(), self.name.clone()));
        }
        let n = self.inner.read(buf)?;
        self.total.set(self.total.get() + n as u64);
        Ok(n)
    }
}

fn marked<'a, R: Read + 'a>(inner: R, name: &str, starts: &Starts, total: &Rc<Cell<u64>>) -> Box<dyn Read + 'a> {
    Box::new(Marked { inner, name: Rc::from(name), starts: starts.clone(), total: total.clone(), seen: false })
}

/// The input stream: JSON texts (or lines with -R) from the files in turn.
struct Inputs<'s> {
    data: Vec<u8>,
    pos: usize,
    /// Where more input comes from (read in blocks as the values are
    /// used, so line-delimited JSON streams in bounded memory); None once
    /// `data` holds all of it.
    source: Option<Box<dyn Read + 's>>,
    raw: bool,
    slurp: bool,
    done: bool,
    line: Rc<Cell<usize>>,
    /// For JSON input `line` is brought up to date only when an error
    /// needs it (`sync_line`): newlines in `data[..counted]` are counted.
    counted: usize,
    /// The reader's key cache and buffers, kept across inputs (NDJSON
    /// repeats its keys every line).
    scratch: Scratch,
    /// --stream: each text's events, handed out one by one.
    stream: bool,
    /// --seq: the input is read whole and split at RS (framing.rs).
    seq: bool,
    pending: std::collections::VecDeque<V>,
    /// What --seq dropped, reported after the outputs.
    warnings: Vec<String>,
    /// Where jq 1.6 says an error happened: at the input's line once reading has begun, and
    /// still on the first "no more input" (the file is still current), `<unknown>` before any
    /// reading and after a second "no more input".
    reading: Reading,
    /// Bytes dropped from the front of `data`, and the file starts: which file the last value came from.
    dropped: u64,
    starts: Starts,
    /// The name of the file the last input came from (`input_filename`).
    filename: Rc<RefCell<V>>,
}

#[derive(Clone, Copy, PartialEq)]
enum Reading {
    NotYet,
    Open,
    AtEnd,
    Ended,
}

/// Input read at a time; a value longer than this makes the buffer grow.
const BLOCK: usize = 1 << 20;

impl<'s> Inputs<'s> {
    /// Sets `line` to the lines consumed so far, counted incrementally
    /// (rescanning from the start would be quadratic on NDJSON).
    fn sync_line(&mut self) {
        if self.raw || self.slurp {
            return;
        }
        let end = self.pos.min(self.data.len());
        if self.counted < end {
            self.line.set(self.line.get() + crate::bytescan::count_byte(&self.data[self.counted..end], b'\n'));
            self.counted = end;
        }
    }

    /// Reads at least `more` bytes (a block at least), or to the end, after
    /// dropping what has been used. At the end `source` becomes None.
    fn refill(&mut self, more: usize) -> Result<(), String> {
        let src = match self.source.as_mut() {
            Some(s) => s,
            None => return Ok(()),
        };
        if self.pos > 0 {
            let used = self.pos;
            let end = used.min(self.data.len());
            if !self.raw && !self.slurp && self.counted < end {
                self.line.set(self.line.get() + crate::bytescan::count_byte(&self.data[self.counted..end], b'\n'));
            }
            self.data.drain(..used);
            self.dropped += used as u64;
            self.counted = 0;
            self.pos = 0;
        }
        let want = self.data.len() + more.max(BLOCK);
        while self.data.len() < want {
            let at = self.data.len();
            self.data.resize(want, 0);
            match src.read(&mut self.data[at..]) {
                Ok(0) => {
                    self.data.truncate(at);
                    self.source = None;
                    return Ok(());
                }
                Ok(n) => self.data.truncate(at + n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => self.data.truncate(at),
                Err(e) => {
                    self.data.truncate(at);
                    self.source = None;
                    return Err(reason(&e));
                }
            }
        }
        Ok(())
    }

    /// The next input, noting where an error message should say it happened.
    fn next(&mut self) -> Option<Result<V, String>> {
        let r = self.next_framed();
        if let Some(Ok(_)) = &r {
            let end = (self.dropped + self.pos.min(self.data.len()) as u64).saturating_sub(1);
            let starts = self.starts.borrow();
            if let Some((_, name)) = starts.iter().rev().find(|(at, _)| *at <= end).or_else(|| starts.first()) {
                *self.filename.borrow_mut() = V::Str(name.clone());
            }
        }
        self.reading = match (&r, self.reading) {
            (Some(_), _) => Reading::Open,
            (None, Reading::NotYet | Reading::Open) => Reading::AtEnd,
            (None, _) => Reading::Ended,
        };
        r
    }

    /// The next input after --seq and --stream framing.
    fn next_framed(&mut self) -> Option<Result<V, String>> {
        loop {
            if let Some(v) = self.pending.pop_front() {
                return Some(Ok(v));
            }
            if self.seq && !self.raw && !self.slurp {
                if self.done {
                    return None;
                }
                while self.source.is_some() {
                    if let Err(m) = self.refill(self.data.len()) {
                        return Some(Err(m));
                    }
                }
                self.done = true;
                let (texts, warnings) = framing::seq_texts(&self.data[self.pos..]);
                self.warnings = warnings;
                for t in texts {
                    self.frame(t);
                }
                continue;
            }
            match self.next_text()? {
                Ok(v) if self.stream && !self.slurp => framing::events(&v, &mut self.pending),
                other => return Some(other),
            }
        }
    }

    fn frame(&mut self, v: V) {
        if self.stream {
            framing::events(&v, &mut self.pending);
        } else {
            self.pending.push_back(v);
        }
    }

    fn next_text(&mut self) -> Option<Result<V, String>> {
        if self.done {
            return None;
        }
        if self.slurp {
            // Slurping needs all of it.
            while self.source.is_some() {
                if let Err(m) = self.refill(self.data.len()) {
                    return Some(Err(m));
                }
            }
            self.done = true;
            if self.raw {
                return Some(Ok(V::str(&String::from_utf8_lossy(&self.data))));
            }
            let mut r = Reader::new(&self.data);
            let mut all = Vec::new();
            while let Some(x) = r.next() {
                match x {
                    Ok(x) => all.push(x),
                    Err(e) => return Some(Err(e)),
                }
            }
            return Some(Ok(V::arr(all)));
        }
        if self.raw {
            while self.source.is_some() && crate::bytescan::find_byte(&self.data[self.pos..], b'\n').is_none() {
                let more = 2 * (self.data.len() - self.pos);
                if let Err(m) = self.refill(more) {
                    return Some(Err(m));
                }
            }
            if self.pos >= self.data.len() {
                self.done = true;
                return None;
            }
            let rest = &self.data[self.pos..];
            let end = crate::bytescan::find_byte(rest, b'\n').unwrap_or(rest.len());
            let s = V::str(&String::from_utf8_lossy(&rest[..end]));
            self.pos += (end + 1).min(rest.len());
            self.line.set(self.line.get() + 1);
            return Some(Ok(s));
        }
        loop {
            if self.source.is_some() && self.data.len() - self.pos < BLOCK / 2 {
                if let Err(m) = self.refill(BLOCK) {
                    return Some(Err(m));
                }
            }
            // While more input may follow, only complete lines are parsed (no
            // number or literal is cut short at the block's edge); a value
            // that does not end within them is read again with more input.
            let end = if self.source.is_none() {
                self.data.len()
            } else {
                match self.data[self.pos..].iter().rposition(|&c| c == b'\n') {
                    Some(i) => self.pos + i + 1,
                    None => self.pos,
                }
            };
            let mut r = Reader::new(&self.data[..end]);
            r.pos = self.pos;
            r.scratch = std::mem::take(&mut self.scratch);
            let res = r.next();
            let at = r.pos;
            self.scratch = r.scratch;
            if self.source.is_some() && !matches!(res, Some(Ok(_))) {
                let more = 2 * (self.data.len() - self.pos);
                if let Err(m) = self.refill(more) {
                    return Some(Err(m));
                }
                continue;
            }
            self.pos = at;
            // jq counts the newline ending a value's line as read (error locations).
            while self.pos < self.data.len() && matches!(self.data[self.pos], b' ' | b'\t' | b'\r') {
                self.pos += 1;
            }
            if self.data.get(self.pos) == Some(&b'\n') {
                self.pos += 1;
            }
            if let Some(Err(_)) = res {
                self.done = true;
            }
            return res;
        }
    }
}

fn err_text(v: &V) -> String {
    match v {
        V::Str(s) => s.to_string(),
        _ => dump(v, &Fmt::compact()),
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let o = match parse_args(ctx, args) {
        Ok(o) => o,
        Err(code) => return Ok(code),
    };
    let program = match (&o.from_file, &o.filter) {
        (Some(f), _) => match read_file(f) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(m) => {
                let _ = writeln!(ctx.diag.raw(), "jq: error: {}", m);
                return Ok(2);
            }
        },
        (None, Some(f)) => f.clone(),
        (None, None) => ".".to_string(),
    };
    let mut files = o.files.clone();
    if o.from_file.is_some() {
        if let Some(f) = &o.filter {
            files.insert(0, f.clone());
        }
    }
    let ast = match parse::parse_at(&program) {
        Ok(a) => a,
        Err((m, at)) => {
            let m = if m.starts_with("syntax error") { format!("{} (Unix shell quoting issues?)", m) } else { m };
            // jq 1.6 names the error's line, prints it, then as many spaces as the error's
            // offset in that line.
            let (line, text, pad) = match at {
                Some(b) => {
                    let b = b.min(program.len());
                    let start = program[..b].rfind('\n').map_or(0, |i| i + 1);
                    let end = program[start..].find('\n').map_or(program.len(), |i| start + i);
                    (program[..start].matches('\n').count() + 1, &program[start..end], program[start..b].chars().count())
                }
                None => (1, program.as_str(), 0),
            };
            let _ = writeln!(ctx.diag.raw(), "jq: error: {} at <top-level>, line {}:\n{}{}\njq: 1 compile error", m, line, text, " ".repeat(pad));
            return Ok(3);
        }
    };
    let prelude = parse::parse(builtins::PRELUDE).expect("prelude parses");
    // The prelude is a chain of defs; its innermost env is where user code runs.
    let mut env = Rc::new(Env::Nil);
    let mut node = &prelude;
    while let parse::Ast::Def(d, rest) = node {
        env = Rc::new(Env::Func(d.clone(), env));
        node = rest;
    }
    for (n, v) in &o.named {
        env = Rc::new(Env::Var(n.clone(), v.clone(), env));
    }
    if let Err(m) = check::check(&ast, &env) {
        let _ = writeln!(ctx.diag.raw(), "jq: error: {} at <top-level>, line 1:\n{}\njq: 1 compile error", m, program);
        return Ok(3);
    }

    // Input is read as it is used (see Inputs::refill); a file that cannot
    // be opened is reported before any output, as jq does.
    let mut status = 0;
    let where_name = if files.is_empty() { "<stdin>".to_string() } else { files[0].clone() };
    let stdin: &mut dyn std::io::BufRead = &mut *ctx.stdin;
    let mut stdin = Some(stdin);
    let mut chain: Box<dyn Read + '_> = Box::new(std::io::empty());
    let starts: Starts = Rc::new(RefCell::new(Vec::new()));
    let total = Rc::new(Cell::new(0u64));
    if files.is_empty() {
        if !o.null_input || program.contains("input") {
            chain = marked(stdin.take().unwrap(), "<stdin>", &starts, &total);
        }
    } else {
        for f in &files {
            // `-` names standard input, as for jq 1.7 and every POSIX tool.
            let next: Box<dyn Read + '_> = if f == "-" {
                match stdin.take() {
                    Some(s) => marked(s, "<stdin>", &starts, &total),
                    None => continue,
                }
            } else {
                match std::fs::File::open(fsx::host(f)) {
                    Ok(file) => marked(file, f, &starts, &total),
                    Err(e) => {
                        let _ = writeln!(ctx.diag.raw(), "jq: error: Could not open file {}: {}", f, reason(&e));
                        status = 2;
                        continue;
                    }
                }
            };
            chain = Box::new(chain.chain(next));
        }
    }
    let data = Vec::new();
    let line = Rc::new(Cell::new(0));
    let filename = Rc::new(RefCell::new(V::Null));
    let inputs = Rc::new(RefCell::new(Inputs { data, pos: 0, source: Some(chain), raw: o.raw_in, slurp: o.slurp, done: false, line: line.clone(), counted: 0, scratch: Scratch::default(), stream: o.stream, seq: o.seq, pending: Default::default(), warnings: Vec::new(), reading: Reading::NotYet, dropped: 0, starts: starts.clone(), filename: filename.clone() }));
    let src = inputs.clone();
    let mut it = Interp::new(Box::new(move || src.borrow_mut().next()));
    it.env_obj = V::obj(std::env::vars().map(|(k, v)| (Rc::from(k.as_str()), V::str(&v))).collect());
    it.named_args = V::obj(o.named.iter().map(|(k, v)| (Rc::from(k.as_str()), v.clone())).collect());
    it.positional = V::arr(o.positional.clone());
    it.filename = filename;

    let fmt = Fmt {
        indent: if o.compact || o.indent == Some(0) { None } else if o.tab { Some("\t".into()) } else { Some(" ".repeat(o.indent.unwrap_or(2))) },
        sort_keys: o.sort_keys,
        ascii: o.ascii,
        color: o.color,
    };
    let mut last: Option<V> = None;
    let mut first = true;
    let mut text = String::new();
    loop {
        let input = if o.null_input {
            if !first {
                break;
            }
            first = false;
            Some(Ok(V::Null))
        } else {
            let x = inputs.borrow_mut().next();
            x
        };
        let v = match input {
            None => break,
            Some(Ok(v)) => v,
            Some(Err(m)) => {
                // jq 1.6 (Debian 12): no "jq: " before it, and exit status 4
                let _ = writeln!(ctx.diag.raw(), "parse error: {}", m);
                status = 4;
                break;
            }
        };
        let out = &mut ctx.out;
        let mut werr: Option<std::io::Error> = None;
        let r = it.eval(&ast, &env, Cur::val(v), &mut |_, x| {
            if o.seq {
                text.push(framing::RS as char);
            }
            match (&x.v, o.raw_out) {
                (V::Str(s), true) => text.push_str(s),
                _ => dump_into(&mut text, &x.v, &fmt),
            }
            if !o.join {
                text.push('\n');
            }
            last = Some(x.v);
            // Outputs are gathered and written in pieces of about 64 KiB:
            // one write call per output costs more than the printing.
            if text.len() >= OUT_CHUNK {
                if let Err(e) = out.write_all(text.as_bytes()) {
                    werr = Some(e);
                    return Err(Ctl::Halt(-1));
                }
                text.clear();
            }
            Ok(())
        });
        // Everything this input produced is written before any message
        // about it, in the order jq would have written it.
        if werr.is_none() && !text.is_empty() {
            if let Err(e) = out.write_all(text.as_bytes()) {
                werr = Some(e);
            }
            text.clear();
        }
        if !it.stderr.is_empty() {
            let _ = ctx.diag.raw().write_all(&it.stderr);
            it.stderr.clear();
        }
        if let Some(e) = werr {
            return Err(e);
        }
        match r {
            Ok(()) => {}
            Err(Ctl::Err(e)) => {
                inputs.borrow_mut().sync_line();
                let open = matches!(inputs.borrow().reading, Reading::Open | Reading::AtEnd);
                let loc = if open { format!("{}:{}", where_name, line.get()) } else { "<unknown>".to_string() };
                let ns = if matches!(e, V::Str(_)) { "" } else { " (not a string)" };
                let _ = writeln!(ctx.diag.raw(), "jq: error (at {}){}: {}", loc, ns, err_text(&e));
                status = 5;
            }
            Err(Ctl::Compile(m)) => {
                let _ = writeln!(ctx.diag.raw(), "jq: error: {} at <top-level>, line 1:\n{}\njq: 1 compile error", m, program);
                return Ok(3);
            }
            Err(Ctl::Halt(code)) => return Ok(code),
            Err(Ctl::Break(_)) => {
                let _ = writeln!(ctx.diag.raw(), "jq: error (at {}): break", where_name);
                status = 5;
            }
            Err(Ctl::Pass(_, _)) => status = 5,
        }
    }
    for w in inputs.borrow_mut().warnings.drain(..) {
        let _ = writeln!(ctx.diag.raw(), "{}", w);
    }
    if status != 0 {
        return Ok(status);
    }
    if o.exit_status {
        return Ok(match last {
            None => 4,
            Some(v) if !v.truthy() => 1,
            _ => 0,
        });
    }
    Ok(0)
}

mod check;

/// True when `s` is one JSON text (used by `file` to say "JSON text data").
pub fn is_json(s: &str) -> bool {
    parse_one(s.trim()).is_ok()
}
