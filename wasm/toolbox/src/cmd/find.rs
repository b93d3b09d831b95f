//! find [PATH]... [EXPRESSION]
//!
//! Tests: -name -iname -path -ipath -wholename -regex -iregex -type -size
//! -empty -mtime -mmin -newer -true -false; options: -maxdepth -mindepth
//! -depth; actions: -print -print0 -printf -delete -prune -quit -exec/-ok
//! (`;` or `+`, running toolbox's own commands in-process: WASI cannot
//! start other programs). Operators: ( ) ! -not -a -and -o -or ,
//! Entries are visited in name order (GNU uses on-disk order).

use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::regex_posix::translate;
use crate::text::glob_match;
use crate::fsx;
use crate::host;
use regex::bytes::{Regex, RegexBuilder};
use std::fs::Metadata;
use std::io::{self, Write};

const HELP: &str = "Usage: find [starting-point...] [expression]\n\nexpression may consist of: operators, options, tests, and actions.\n\noperators (decreasing precedence; -and is implicit where no others are given):\n      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2\n      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2\n\nnormal options: -depth -maxdepth LEVELS -mindepth LEVELS\n\ntests (N can be +N or -N or N): -empty -false -iname PATTERN -ipath PATTERN\n      -iregex PATTERN -mmin N -mtime N -name PATTERN -newer FILE -path PATTERN\n      -regex PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -wholename PATTERN\n\nactions: -delete -print0 -printf FORMAT -prune -print -quit\n      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;\n      (COMMAND must be one of this toolbox's commands)\n";

#[derive(Clone, Copy)]
enum Cmp {
    Gt(i64),
    Lt(i64),
    Eq(i64),
}

impl Cmp {
    fn parse(s: &str) -> Option<Cmp> {
        if let Some(r) = s.strip_prefix('+') {
            r.parse().ok().map(Cmp::Gt)
        } else if let Some(r) = s.strip_prefix('-') {
            r.parse().ok().map(Cmp::Lt)
        } else {
            s.parse().ok().map(Cmp::Eq)
        }
    }
    fn test(&self, v: i64) -> bool {
        match *self {
            Cmp::Gt(n) => v > n,
            Cmp::Lt(n) => v < n,
            Cmp::Eq(n) => v == n,
        }
    }
}

/// Names of the one owner every file here has: the session user, its uid,
/// and "user", the name `ls -l` and `-printf %u` show.
const OWNERS: &[&str] = &[super::sysinfo::USER, "1000", "user"];

enum Node {
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Comma(Box<Node>, Box<Node>),
    Name(String, bool),
    Path(String, bool),
    Regex(Regex),
    Type(Vec<char>),
    /// -xtype: the type of what a link points at (of the link itself under -L).
    XType(Vec<char>),
    /// -lname/-ilname: a glob over a link's target text.
    LName(String, bool),
    Size(Cmp, u64),
    Empty,
    /// -perm MODE (exact), -perm -MODE (all these bits), -perm /MODE (any of them).
    Perm(char, u32),
    /// -mtime/-atime and the like: the age in units of seconds, of the access time when set.
    Time(Cmp, i64, bool),
    /// -newer/-anewer: the entry's modification (or access) time is after this one.
    Newer(i64, u32, bool),
    /// -used N: days from the status change (the modification here) to the last access.
    Used(Cmp),
    /// -links N and -inum N: the entry's link count or inode number.
    Links(Cmp),
    Inum(Cmp),
    Const(bool),
    Print(u8),
    Printf(String),
    Ls,
    Delete,
    Prune,
    Quit,
    Exec { argv: Vec<String>, batch: bool, idx: usize, dir: bool },
}

impl Node {
    /// Whether evaluating this needs more than an entry's name and type. A walk whose
    /// expression does not can take types from the directory listing and skip a stat per entry.
    fn needs_metadata(&self) -> bool {
        match self {
            Node::And(a, b) | Node::Or(a, b) | Node::Comma(a, b) => a.needs_metadata() || b.needs_metadata(),
            Node::Not(a) => a.needs_metadata(),
            Node::Size(..) | Node::Empty | Node::Time(..) | Node::Newer(..) | Node::Used(_) | Node::Printf(_) | Node::Ls | Node::Links(_) | Node::Inum(_) => true,
            Node::Name(..) | Node::Path(..) | Node::Regex(_) | Node::Type(_) | Node::XType(_) | Node::LName(..) | Node::Const(_) | Node::Print(_) | Node::Perm(..) => false,
            Node::Delete | Node::Prune | Node::Quit | Node::Exec { .. } => false,
        }
    }
}

struct Parser<'a> {
    t: &'a [String],
    i: usize,
    maxdepth: Option<usize>,
    mindepth: usize,
    depth_first: bool,
    has_action: bool,
    batches: usize,
    /// -regextype: whether later -regex patterns are POSIX extended.
    ere: bool,
    /// -regextype emacs (find's default): `+ ?` repeat, `\\( \\| \\)` group, `{ | ( )` are literal.
    emacs: bool,
}

type PErr = String;

impl<'a> Parser<'a> {
    fn arg(&mut self, pred: &str) -> Result<String, PErr> {
        match self.t.get(self.i) {
            Some(a) => {
                self.i += 1;
                Ok(a.clone())
            }
            None => Err(format!("missing argument to `{}'", pred)),
        }
    }
    fn expr(&mut self) -> Result<Node, PErr> {
        let mut left = self.or()?;
        while self.t.get(self.i).map(|s| s == ",").unwrap_or(false) {
            self.i += 1;
            let right = self.or()?;
            left = Node::Comma(Box::new(left), Box::new(right));
        }
        Ok(left)
    }
    fn or(&mut self) -> Result<Node, PErr> {
        let mut left = self.and()?;
        while matches!(self.t.get(self.i).map(|s| s.as_str()), Some("-o") | Some("-or")) {
            self.i += 1;
            let right = self.and()?;
            left = Node::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }
    fn and(&mut self) -> Result<Node, PErr> {
        let mut left = self.unary()?;
        loop {
            match self.t.get(self.i).map(|s| s.as_str()) {
                None | Some("-o") | Some("-or") | Some(")") | Some(",") => return Ok(left),
                Some("-a") | Some("-and") => self.i += 1,
                _ => {}
            }
            let right = self.unary()?;
            left = Node::And(Box::new(left), Box::new(right));
        }
    }
    fn unary(&mut self) -> Result<Node, PErr> {
        match self.t.get(self.i).map(|s| s.as_str()) {
            Some("!") | Some("-not") => {
                self.i += 1;
                Ok(Node::Not(Box::new(self.unary()?)))
            }
            Some("(") => {
                self.i += 1;
                let e = self.expr()?;
                if self.t.get(self.i).map(|s| s.as_str()) != Some(")") {
                    return Err("invalid expression; I was expecting to find a ')' somewhere but did not see one.".into());
                }
                self.i += 1;
                Ok(e)
            }
            Some(_) => self.primary(),
            None => Err("invalid expression".into()),
        }
    }
    fn primary(&mut self) -> Result<Node, PErr> {
        let p = self.t[self.i].clone();
        self.i += 1;
        let n = match p.as_str() {
            "-name" | "-iname" => Node::Name(self.arg(&p)?, p == "-iname"),
            "-path" | "-ipath" | "-wholename" | "-iwholename" => Node::Path(self.arg(&p)?, p.starts_with("-i")),
            "-regex" | "-iregex" => {
                let a = self.arg(&p)?;
                let src = if self.emacs { emacs_to_ere(&a) } else { a.clone() };
                let t = translate(&src, self.ere || self.emacs).map_err(|m| format!("invalid regular expression {}: {}", lq(&a), m))?;
                let re = RegexBuilder::new(&format!("^(?:{})$", t)).case_insensitive(p == "-iregex").build().map_err(|e| format!("invalid regular expression {}: {}", lq(&a), e))?;
                Node::Regex(re)
            }
            "-type" | "-xtype" => {
                let a = self.arg(&p)?;
                let types: Vec<char> = a.split(',').filter_map(|s| s.chars().next()).collect();
                if types.is_empty() || types.iter().any(|c| !"bcdpflsD".contains(*c)) {
                    return Err(format!("Unknown argument to {}: {}", p, a));
                }
                if p == "-xtype" {
                    Node::XType(types)
                } else {
                    Node::Type(types)
                }
            }
            "-size" => {
                let a = self.arg(&p)?;
                let (num, unit) = match a.chars().last() {
                    Some(c) if c.is_ascii_alphabetic() => (&a[..a.len() - 1], c),
                    _ => (a.as_str(), 'b'),
                };
                let mult = match unit {
                    'c' => 1,
                    'w' => 2,
                    'b' => 512,
                    'k' => 1024,
                    'M' => 1 << 20,
                    'G' => 1 << 30,
                    _ => return Err(format!("invalid -size type `{}'", unit)),
                };
                let c = Cmp::parse(num).ok_or_else(|| format!("invalid argument `{}' to `-size'", a))?;
                Node::Size(c, mult)
            }
            "-empty" => Node::Empty,
            "-perm" => {
                let a = self.arg(&p)?;
                let (how, spec) = match a.chars().next() {
                    Some(c @ ('-' | '/')) => (c, &a[1..]),
                    Some('+') if a[1..].chars().all(|c| c.is_ascii_digit()) => ('/', &a[1..]),
                    _ => (' ', a.as_str()),
                };
                let bits = perm_bits(spec).ok_or_else(|| format!("invalid mode {}", lq(&a)))?;
                Node::Perm(how, bits)
            }
            "-mtime" | "-mmin" | "-atime" | "-amin" | "-ctime" | "-cmin" => {
                let a = self.arg(&p)?;
                let c = Cmp::parse(&a).ok_or_else(|| format!("invalid argument `{}' to `{}'", a, p))?;
                Node::Time(c, if p.ends_with("min") { 60 } else { 86400 }, p.starts_with("-a"))
            }
            "-used" => {
                let a = self.arg(&p)?;
                Node::Used(Cmp::parse(&a).ok_or_else(|| format!("invalid argument `{}' to `{}'", a, p))?)
            }
            "-regextype" => {
                let a = self.arg(&p)?;
                self.emacs = matches!(a.as_str(), "findutils-default" | "emacs");
                self.ere = match a.as_str() {
                    "posix-extended" | "posix-egrep" | "egrep" | "posix-awk" | "awk" | "gnu-awk" => true,
                    "findutils-default" | "emacs" | "posix-basic" | "posix-minimal-basic" | "grep" | "sed" | "ed" => false,
                    _ => return Err(format!("Unknown regular expression type {}; valid types are findutils-default, awk, egrep, ed, emacs, gnu-awk, grep, posix-awk, posix-basic, posix-egrep, posix-extended, posix-minimal-basic, sed.", q(&a))),
                };
                Node::Const(true)
            }
            "-links" | "-inum" => {
                let a = self.arg(&p)?;
                let c = Cmp::parse(&a).ok_or_else(|| format!("invalid argument `{}' to `{}'", a, p))?;
                if p == "-links" { Node::Links(c) } else { Node::Inum(c) }
            }
            // Permission tests read the owner's bits: the session's user owns every file.
            "-readable" => Node::Perm('/', 0o400),
            "-writable" => Node::Perm('/', 0o200),
            "-executable" => Node::Perm('/', 0o100),
            "-lname" | "-ilname" => Node::LName(self.arg(&p)?, p == "-ilname"),
            "-fstype" => Node::Const(self.arg(&p)? == "workspace"),
            "-newer" | "-anewer" | "-cnewer" => {
                let a = self.arg(&p)?;
                let m = fsx::metadata(&a).map_err(|e| format!("{}: {}", lq(&a), reason(&e)))?;
                let (s, ns) = fsx::mtime(&m);
                Node::Newer(s, ns, p == "-anewer")
            }
            // -newerXY REF: X is the entry's time (a, m; c and B read as m here), Y the
            // reference's: a file's time (a, c, m, B) or, for t, REF read as a date as `date -d` does.
            _ if p.len() == 8 && p.starts_with("-newer") && "acmB".contains(&p[6..7]) && "acmBt".contains(&p[7..8]) => {
                let a = self.arg(&p)?;
                let (s, ns) = if &p[7..8] == "t" {
                    crate::cmd::date::parse_date(&a, fsx::now()).ok_or_else(|| format!("I cannot figure out how to interpret {} as a date or time", q(&a)))?
                } else {
                    let m = fsx::metadata(&a).map_err(|e| format!("{}: {}", q(&a), reason(&e)))?;
                    if &p[7..8] == "a" {
                        fsx::atime(&m)
                    } else {
                        fsx::mtime(&m)
                    }
                };
                Node::Newer(s, ns, &p[6..7] == "a")
            }
            "-true" => Node::Const(true),
            "-false" => Node::Const(false),
            "-print" => {
                self.has_action = true;
                Node::Print(b'\n')
            }
            "-print0" => {
                self.has_action = true;
                Node::Print(0)
            }
            "-printf" => {
                self.has_action = true;
                Node::Printf(self.arg(&p)?)
            }
            "-ls" => {
                self.has_action = true;
                Node::Ls
            }
            "-fls" | "-fprint" | "-fprint0" | "-fprintf" => return Err(format!("{} is not supported here; use -{} and redirect its output (> FILE)", p, &p[2..])),
            // Every file belongs to the session's user; root and others own nothing.
            "-user" | "-group" | "-uid" | "-gid" => {
                let who = self.arg(&p)?;
                let numeric = p == "-uid" || p == "-gid";
                if numeric && who.parse::<u64>().is_err() {
                    return Err(format!("invalid argument {} to {}", lq(&who), p));
                }
                if !numeric && !OWNERS.contains(&who.as_str()) && who != "root" && who != "0" {
                    let kind = if p == "-user" { "user" } else { "group" };
                    return Err(format!("{} is not the name of a known {} (files here belong to {}; there is also root)", q(&who), kind, super::sysinfo::USER));
                }
                Node::Const(OWNERS.contains(&who.as_str()))
            }
            "-nouser" | "-nogroup" => Node::Const(false),
            "-delete" => {
                self.has_action = true;
                self.depth_first = true;
                Node::Delete
            }
            "-prune" => Node::Prune,
            "-quit" => {
                // GNU counts -quit as an action: no implicit -print.
                self.has_action = true;
                Node::Quit
            }
            "-ok" | "-okdir" => return Err(format!("{} is not supported here: there is no terminal to confirm each command; use {}", p, if p == "-ok" { "-exec" } else { "-execdir" })),
            "-exec" | "-execdir" => {
                self.has_action = true;
                let mut argv = Vec::new();
                loop {
                    let a = match self.t.get(self.i) {
                        Some(a) => a.clone(),
                        None => return Err(format!("missing argument to `{}'", p)),
                    };
                    self.i += 1;
                    if a == ";" {
                        break;
                    }
                    if a == "+" && argv.last().map(|l: &String| l == "{}").unwrap_or(false) {
                        argv.pop();
                        let idx = self.batches;
                        self.batches += 1;
                        if argv.is_empty() {
                            return Err(format!("missing argument to `{}'", p));
                        }
                        return Ok(Node::Exec { argv, batch: true, idx, dir: p == "-execdir" });
                    }
                    argv.push(a);
                }
                if argv.is_empty() {
                    return Err(format!("missing argument to `{}'", p));
                }
                Node::Exec { argv, batch: false, idx: 0, dir: p == "-execdir" }
            }
            "-maxdepth" | "-mindepth" => {
                let a = self.arg(&p)?;
                let n: usize = a.parse().map_err(|_| format!("Expected a positive decimal integer argument to {}, but got {}", p, lq(&a)))?;
                if p == "-maxdepth" {
                    self.maxdepth = Some(n);
                } else {
                    self.mindepth = n;
                }
                Node::Const(true)
            }
            "-depth" | "-d" => {
                self.depth_first = true;
                Node::Const(true)
            }
            "-follow" | "-noleaf" | "-mount" | "-xdev" | "-ignore_readdir_race" | "-noignore_readdir_race" | "-daystart" | "-warn" | "-nowarn" => Node::Const(true),
            _ if p.starts_with('-') => return Err(format!("unknown predicate `{}'", p)),
            _ => return Err(format!("paths must precede expression: `{}'", p)),
        };
        Ok(n)
    }
}

/// The bits a -perm MODE names: octal, or symbolic clauses (`u+x`, `g=w,o=r`, `a+rwx`) applied
/// to an empty mode, as GNU find reads them.
fn perm_bits(spec: &str) -> Option<u32> {
    if !spec.is_empty() && spec.chars().all(|c| ('0'..='7').contains(&c)) {
        return u32::from_str_radix(spec, 8).ok().filter(|m| *m <= 0o7777);
    }
    let mut mode = 0;
    for clause in spec.split(',') {
        let op_at = clause.find(|c| c == '+' || c == '=' || c == '-')?;
        let who = clause[..op_at].chars().try_fold(0u32, |w, c| match c {
            'u' => Some(w | 0o4700),
            'g' => Some(w | 0o2070),
            'o' => Some(w | 0o1007),
            'a' => Some(w | 0o7777),
            _ => None,
        })?;
        let who = if who == 0 { 0o7777 } else { who };
        let op = clause[op_at..].chars().next()?;
        let perms = clause[op_at + 1..].chars().try_fold(0u32, |b, c| match c {
            'r' => Some(b | 0o444),
            'w' => Some(b | 0o222),
            'x' => Some(b | 0o111),
            's' => Some(b | 0o6000),
            't' => Some(b | 0o1000),
            _ => None,
        })?;
        match op {
            '-' => mode &= !(perms & who),
            '=' => mode = (mode & !who) | (perms & who),
            _ => mode |= perms & who,
        }
    }
    Some(mode)
}

struct Entry<'a> {
    path: &'a str,
    start: &'a str,
    depth: usize,
    /// 'd', 'f', 'l' or 'p', as `-type` and `%y` spell it.
    kind: char,
    /// Read only when the expression needs it (Node::needs_metadata); see `meta()`.
    meta: Option<&'a Metadata>,
}

impl<'a> Entry<'a> {
    fn meta(&self) -> &'a Metadata {
        // `visit` stats every entry whenever the expression has a node that reads metadata.
        self.meta.expect("find: metadata is read for every node that needs it")
    }
    fn is_dir(&self) -> bool {
        self.kind == 'd'
    }
}

struct Run<'c, 'x> {
    ctx: &'c mut Ctx<'x>,
    now: i64,
    pruned: bool,
    quit: bool,
    /// The host refused a command line: nothing else runs, not even pending `+` batches.
    denied: bool,
    batches: Vec<Vec<String>>,
    batch_argv: Vec<Vec<String>>,
    exit: i32,
    follow: Follow,
    /// Directories being walked (canonical paths) while links are followed: a link back to one is a loop.
    walking: Vec<String>,
}

/// -P (the default), -H (starting points only) and -L (every link) followed.
#[derive(Clone, Copy, Default)]
struct Follow {
    all: bool,
    starts: bool,
}

fn type_char(ft: std::fs::FileType) -> char {
    if ft.is_dir() {
        'd'
    } else if ft.is_symlink() {
        'l'
    } else if ft.is_file() {
        'f'
    } else {
        'p'
    }
}

fn is_empty(e: &Entry) -> bool {
    if e.is_dir() {
        fsx::read_dir_names(e.path).map(|v| v.is_empty()).unwrap_or(false)
    } else {
        e.kind == 'f' && e.meta().len() == 0
    }
}

impl<'c, 'x> Run<'c, 'x> {
    fn eval(&mut self, n: &Node, e: &Entry) -> io::Result<bool> {
        Ok(match n {
            Node::And(a, b) => self.eval(a, e)? && self.eval(b, e)?,
            Node::Or(a, b) => self.eval(a, e)? || self.eval(b, e)?,
            Node::Not(a) => !self.eval(a, e)?,
            Node::Comma(a, b) => {
                self.eval(a, e)?;
                self.eval(b, e)?
            }
            Node::Name(p, icase) => {
                let base = fsx::base_name(e.path);
                if *icase {
                    glob_match(p.to_lowercase().as_bytes(), base.to_lowercase().as_bytes())
                } else {
                    glob_match(p.as_bytes(), base.as_bytes())
                }
            }
            Node::Path(p, icase) => {
                if *icase {
                    glob_match(p.to_lowercase().as_bytes(), e.path.to_lowercase().as_bytes())
                } else {
                    glob_match(p.as_bytes(), e.path.as_bytes())
                }
            }
            Node::Regex(re) => re.is_match(e.path.as_bytes()),
            Node::Type(ts) => ts.contains(&e.kind),
            Node::XType(ts) => {
                // Under -L entries are already followed: what is left as 'l' is a dangling link.
                let other = if self.follow.all {
                    if e.kind == 'l' { 'l' } else { e.kind }
                } else if e.kind == 'l' {
                    fsx::metadata(e.path).map(|m| type_char(m.file_type())).unwrap_or('l')
                } else {
                    e.kind
                };
                ts.contains(&other)
            }
            Node::LName(p, icase) => match fsx::read_link(e.path) {
                Ok(t) if *icase => glob_match(p.to_lowercase().as_bytes(), t.to_lowercase().as_bytes()),
                Ok(t) => glob_match(p.as_bytes(), t.as_bytes()),
                Err(_) => false,
            },
            Node::Size(c, unit) => {
                let units = (e.meta().len() + unit - 1) / unit;
                c.test(units as i64)
            }
            Node::Empty => is_empty(e),
            Node::Links(c) => c.test(super::ls::link_count(e.path, e.is_dir()) as i64),
            Node::Inum(c) => c.test(fsx::inode(e.path).unwrap_or(0) as i64),
            Node::Perm(how, bits) => {
                let m = host::mode_of(e.path, e.is_dir()) & 0o7777;
                match how {
                    '-' => m & bits == *bits,
                    '/' => *bits == 0 || m & bits != 0,
                    _ => m == *bits,
                }
            }
            Node::Time(c, unit, access) => {
                let age = self.now - if *access { fsx::atime(e.meta()).0 } else { fsx::mtime(e.meta()).0 };
                // GNU rounds the age down to whole units (days or minutes),
                // except -mmin, which compares unrounded for + and -.
                c.test(age.div_euclid(*unit))
            }
            Node::Newer(s, ns, access) => (if *access { fsx::atime(e.meta()) } else { fsx::mtime(e.meta()) }) > (*s, *ns),
            // GNU counts whole days since the change, rounded up.
            Node::Used(c) => {
                let (a, m) = (fsx::atime(e.meta()), fsx::mtime(e.meta()));
                let secs = (a.0 - m.0) as f64 + (a.1 as f64 - m.1 as f64) / 1e9;
                c.test((secs / 86400.0).ceil() as i64)
            }
            Node::Const(b) => *b,
            Node::Print(end) => {
                self.ctx.out.write_all(e.path.as_bytes())?;
                self.ctx.out.write_all(&[*end])?;
                true
            }
            Node::Printf(f) => {
                let s = printf(f, e);
                self.ctx.out.write_all(s.as_bytes())?;
                true
            }
            Node::Ls => {
                let m = e.meta();
                let blocks = (m.len() + 4095) / 4096 * 4;
                let when = super::ls::ls_time(fsx::mtime(m).0, self.now);
                let links = super::ls::link_count(e.path, e.is_dir());
                let mode = format!("{}{}", if e.is_dir() { 'd' } else { '-' }, host::mode_letters(host::mode_of(e.path, e.is_dir())));
                let (ino, user) = (fsx::inode(e.path).unwrap_or(0), super::sysinfo::USER);
                writeln!(self.ctx.out, "{:>9} {:>6} {} {:>3} {:<8} {:<8} {:>8} {} {}", ino, blocks, mode, links, user, user, m.len(), when, e.path)?;
                true
            }
            // GNU find leaves `.` itself in place (and says nothing); the rest of the tree goes.
            Node::Delete if e.path == "." => true,
            Node::Delete => {
                let r = if e.is_dir() { std::fs::remove_dir(fsx::host(e.path)) } else { std::fs::remove_file(fsx::host(e.path)) };
                match r {
                    Ok(()) => true,
                    Err(err) => {
                        self.ctx.diag.error(format!("cannot delete {}: {}", q(e.path), reason(&err)));
                        self.exit = 1;
                        false
                    }
                }
            }
            Node::Prune => {
                self.pruned = true;
                true
            }
            Node::Quit => {
                self.quit = true;
                true
            }
            Node::Exec { argv, batch, idx, dir } => {
                if *dir {
                    // -execdir: from the entry's own directory, naming it `./BASE` (one run per
                    // entry, also for `{} +`).
                    let (parent, base) = match e.path.rfind('/') {
                        Some(i) => (if i == 0 { "/" } else { &e.path[..i] }, &e.path[i + 1..]),
                        None => (".", e.path),
                    };
                    let here = format!("./{}", base);
                    let mut args: Vec<String> = argv.iter().map(|a| a.replace("{}", &here)).collect();
                    if *batch {
                        args.push(here);
                    }
                    let saved = std::env::var("PWD").ok();
                    std::env::set_var("PWD", fsx::host(parent));
                    let code = self.spawn(&args);
                    match saved {
                        Some(d) => std::env::set_var("PWD", d),
                        None => std::env::remove_var("PWD"),
                    }
                    code? == 0
                } else if *batch {
                    self.batch_argv[*idx] = argv.clone();
                    self.batches[*idx].push(e.path.to_string());
                    true
                } else {
                    let args: Vec<String> = argv.iter().map(|a| a.replace("{}", e.path)).collect();
                    self.spawn(&args)? == 0
                }
            }
        })
    }

    /// Runs one of toolbox's commands in-process with find's stdout.
    fn spawn(&mut self, argv: &[String]) -> io::Result<i32> {
        let name = fsx::base_name(&argv[0]).to_string();
        if crate::cmd::lookup(&name).is_none() {
            self.ctx.diag.error(format!("{}: command not available to -exec (only this toolbox's commands can run here)", q(&argv[0])));
            self.exit = 1;
            return Ok(127);
        }
        // The host has the last word on every command line built here (it explains a refusal);
        // a refusal ends the walk, as nothing after it should run unchecked by the user.
        if !crate::host::command_allowed(argv) {
            self.exit = 1;
            self.quit = true;
            self.denied = true;
            return Ok(crate::host::EXIT_DENIED);
        }
        let mut empty = io::empty();
        let mut stdin = io::BufReader::new(&mut empty);
        let Ctx { out, diag, .. } = &mut *self.ctx;
        let code = crate::run(&name, &argv[1..], &mut stdin, out, diag.raw());
        if out.failed {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "write error"));
        }
        Ok(code)
    }

    /// `listed` is the entry's type as its directory listing gave it; starting points
    /// (and every entry, when the expression reads metadata) are looked up instead.
    fn visit(&mut self, path: &str, start: &str, depth: usize, listed: Option<char>, expr: &Node, p: &Opts) -> io::Result<()> {
        if self.quit {
            return Ok(());
        }
        let follow = self.follow.all || (self.follow.starts && depth == 0);
        let meta = match listed {
            Some(k) if !p.needs_metadata && !(follow && k == 'l') => None,
            // A dangling link stays a link when followed, as in GNU find.
            _ if follow => match fsx::metadata(path).or_else(|_| fsx::symlink_metadata(path)) {
                Ok(m) => Some(m),
                Err(err) => {
                    self.ctx.diag.error(format!("{}: {}", lq(path), reason(&err)));
                    self.exit = 1;
                    return Ok(());
                }
            },
            _ => match fsx::symlink_metadata(path) {
                Ok(m) => Some(m),
                Err(err) => {
                    self.ctx.diag.error(format!("{}: {}", lq(path), reason(&err)));
                    self.exit = 1;
                    return Ok(());
                }
            },
        };
        let kind = match (&meta, listed) {
            (Some(m), _) => type_char(m.file_type()),
            (None, Some(k)) => k,
            (None, None) => unreachable!("an entry without a listed type is always looked up"),
        };
        let e = Entry { path, start, depth, kind, meta: meta.as_ref() };
        let in_range = depth >= p.mindepth;
        self.pruned = false;
        if !p.depth_first && in_range {
            self.eval(expr, &e)?;
        }
        let mut descend = kind == 'd' && !self.pruned && p.maxdepth.map(|m| depth < m).unwrap_or(true);
        let canon = if descend && self.follow.all { fsx::canonical(path, fsx::Exist::None).ok() } else { None };
        if let Some(c) = &canon {
            if self.walking.contains(c) {
                self.ctx.diag.error(format!("File system loop detected; {} is part of the same file system loop as {}.", q(path), q(c)));
                self.exit = 1;
                descend = false;
            }
        }
        if let Some(c) = canon.clone().filter(|_| descend) {
            self.walking.push(c);
        }
        if descend && !self.quit {
            match fsx::read_dir_typed(path) {
                Ok(children) => {
                    for (n, ft) in children {
                        let child = fsx::join(path, &n);
                        self.visit(&child, start, depth + 1, Some(type_char(ft)), expr, p)?;
                        if self.quit {
                            break;
                        }
                    }
                }
                Err(err) => {
                    self.ctx.diag.error(format!("{}: {}", lq(path), reason(&err)));
                    self.exit = 1;
                }
            }
        }
        if descend && canon.is_some() {
            self.walking.pop();
        }
        if p.depth_first && in_range && !self.quit {
            // Metadata may have changed (children deleted): look again.
            let meta2 = match &meta {
                Some(m) => Some(fsx::symlink_metadata(path).unwrap_or_else(|_| m.clone())),
                None => None,
            };
            let e2 = Entry { path, start, depth, kind, meta: meta2.as_ref() };
            self.eval(expr, &e2)?;
        }
        Ok(())
    }
}

struct Opts {
    maxdepth: Option<usize>,
    mindepth: usize,
    depth_first: bool,
    needs_metadata: bool,
}

fn printf(f: &str, e: &Entry) -> String {
    let mut out = String::new();
    let mut it = f.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\\' => match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('0') => out.push('\0'),
                Some('\\') => out.push('\\'),
                Some(o) => {
                    out.push('\\');
                    out.push(o)
                }
                None => out.push('\\'),
            },
            '%' => match it.next() {
                Some('p') => out.push_str(e.path),
                Some('f') => out.push_str(fsx::base_name(e.path)),
                Some('h') => {
                    let d = super::dirname::dir(e.path);
                    out.push_str(&d)
                }
                Some('P') => {
                    let rel = e.path.strip_prefix(e.start).unwrap_or(e.path);
                    out.push_str(rel.trim_start_matches('/'))
                }
                Some('s') => out.push_str(&e.meta().len().to_string()),
                // ctime(3)'s layout in local time, with the fraction GNU find prints.
                Some(t @ ('t' | 'a' | 'c')) => {
                    let (s, ns) = if t == 'a' { fsx::atime(e.meta()) } else { fsx::mtime(e.meta()) };
                    out.push_str(&super::date::format_local(&format!("%a %b %e %H:%M:%S.{:09}0 %Y", ns), s, 0))
                }
                Some('d') => out.push_str(&e.depth.to_string()),
                Some('y') => out.push(e.kind),
                Some('m') => out.push_str(&format!("{:o}", host::mode_of(e.path, e.is_dir()))),
                Some('M') => out.push_str(&format!("{}{}", if e.is_dir() { 'd' } else { '-' }, host::mode_letters(host::mode_of(e.path, e.is_dir())))),
                Some('u') | Some('g') => out.push_str(super::sysinfo::USER),
                Some(t @ ('T' | 'A' | 'C')) => {
                    let (s, ns) = if t == 'A' { fsx::atime(e.meta()) } else { fsx::mtime(e.meta()) };
                    match it.next() {
                        Some('@') => out.push_str(&format!("{}.{:09}0", s, ns)),
                        Some('s') => out.push_str(&s.to_string()),
                        Some(k) => {
                            let local = s + crate::tz::Zone::local(s).off;
                            let (y, mo, d) = super::ls::civil_from_days(local.div_euclid(86400));
                            let sec = local.rem_euclid(86400);
                            match k {
                                'Y' => out.push_str(&y.to_string()),
                                'm' => out.push_str(&format!("{:02}", mo)),
                                'd' => out.push_str(&format!("{:02}", d)),
                                'H' => out.push_str(&format!("{:02}", sec / 3600)),
                                'M' => out.push_str(&format!("{:02}", sec % 3600 / 60)),
                                'S' => out.push_str(&format!("{:02}", sec % 60)),
                                'F' => out.push_str(&format!("{}-{:02}-{:02}", y, mo, d)),
                                'T' => out.push_str(&format!("{:02}:{:02}:{:02}", sec / 3600, sec % 3600 / 60, sec % 60)),
                                'z' => out.push_str(&crate::tz::offset_text(local - s)),
                                'Z' => out.push_str(&crate::tz::Zone::local(s).abbr),
                                _ => {}
                            }
                        }
                        None => {}
                    }
                }
                Some('%') => out.push('%'),
                Some(o) => {
                    out.push('%');
                    out.push(o)
                }
                None => out.push('%'),
            },
            _ => out.push(c),
        }
    }
    out
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    if args.first().map(|a| a == "--help").unwrap_or(false) {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    let mut i = 0;
    let mut follow = Follow::default();
    while i < args.len() && matches!(args[i].as_str(), "-H" | "-L" | "-P") {
        // The last of -H/-L/-P wins.
        follow = Follow { all: args[i] == "-L", starts: args[i] == "-H" };
        i += 1;
    }
    let mut paths = Vec::new();
    while i < args.len() {
        let a = &args[i];
        if (a.starts_with('-') && a.len() > 1) || a == "(" || a == "!" {
            break;
        }
        paths.push(a.clone());
        i += 1;
    }
    if paths.is_empty() {
        paths.push(".".into());
    }
    let rest = &args[i..];
    let mut ps = Parser { t: rest, i: 0, maxdepth: None, mindepth: 0, depth_first: false, has_action: false, batches: 0, ere: false, emacs: true };
    let expr = if rest.is_empty() {
        Node::Const(true)
    } else {
        match ps.expr() {
            Ok(e) => {
                if ps.i < rest.len() {
                    ctx.diag.error(format!("unexpected extra predicate '{}'", rest[ps.i]));
                    return Ok(1);
                }
                e
            }
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        }
    };
    let expr = if ps.has_action { expr } else { Node::And(Box::new(expr), Box::new(Node::Print(b'\n'))) };
    let opts = Opts { maxdepth: ps.maxdepth, mindepth: ps.mindepth, depth_first: ps.depth_first, needs_metadata: expr.needs_metadata() };
    let mut r = Run { ctx, now: fsx::now().0, pruned: false, quit: false, denied: false, batches: vec![Vec::new(); ps.batches], batch_argv: vec![Vec::new(); ps.batches], exit: 0, follow, walking: Vec::new() };
    for p in &paths {
        r.visit(p, p, 0, None, &expr, &opts)?;
        if r.quit {
            break;
        }
    }
    for k in 0..r.batches.len() {
        if r.denied {
            break;
        }
        if r.batches[k].is_empty() {
            continue;
        }
        let mut argv = r.batch_argv[k].clone();
        argv.extend(std::mem::take(&mut r.batches[k]));
        if r.spawn(&argv)? != 0 {
            r.exit = 1;
        }
    }
    Ok(r.exit)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/src/sub", d)).unwrap();
        std::fs::create_dir_all(format!("{}/empty", d)).unwrap();
        write(&format!("{}/src/a.rs", d), "fn a() {}\n");
        write(&format!("{}/src/sub/b.RS", d), "");
        write(&format!("{}/top.txt", d), &"x".repeat(2000));
        let cases: &[(&[&str], &str)] = &[
            (&[], ".\n./empty\n./src\n./src/a.rs\n./src/sub\n./src/sub/b.RS\n./top.txt\n"),
            (&["-name", "*.rs"], "./src/a.rs\n"),
            (&["-iname", "*.rs"], "./src/a.rs\n./src/sub/b.RS\n"),
            (&["-type", "d"], ".\n./empty\n./src\n./src/sub\n"),
            (&["-maxdepth", "1", "-type", "f"], "./top.txt\n"),
            (&["-mindepth", "2", "-type", "f"], "./src/a.rs\n./src/sub/b.RS\n"),
            (&["-empty"], "./empty\n./src/sub/b.RS\n"),
            (&["-type", "f", "-size", "+1k"], "./top.txt\n"),
            (&["-size", "-1", "-type", "f"], "./src/sub/b.RS\n"),
            (&["-path", "./src/*", "-type", "f"], "./src/a.rs\n./src/sub/b.RS\n"),
            (&["-name", "src", "-prune", "-o", "-type", "f", "-print"], "./top.txt\n"),
            (&["!", "-name", "*.rs", "-type", "f"], "./src/sub/b.RS\n./top.txt\n"),
            (&["(", "-name", "a.rs", "-o", "-name", "top.txt", ")"], "./src/a.rs\n./top.txt\n"),
            (&["-type", "f", "-printf", "%f %s %d\\n"], "a.rs 10 2\nb.RS 0 3\ntop.txt 2000 1\n"),
            (&["-regex", ".*\\.rs"], "./src/a.rs\n"),
            // find's default -regextype is emacs: `+` repeats, `\|` alternates, `{` is literal.
            (&["-regex", ".*/[a-z]+\\.rs"], "./src/a.rs\n"),
            (&["-regex", ".*/\\(a\\|top\\)\\..*"], "./src/a.rs\n./top.txt\n"),
            (&["-regex", ".*/a{1}\\.rs"], ""),
            (&["-regextype", "posix-basic", "-regex", ".*/[a-z]+\\.rs"], ""),
            (&["-name", "*.rs", "-exec", "cat", "{}", ";"], "fn a() {}\n"),
            (&["-name", "*.txt", "-exec", "wc", "-c", "{}", "+"], "2000 ./top.txt\n"),
            (&["-type", "f", "-quit"], ""),
            (&["-type", "f", "-print", "-quit"], "./src/a.rs\n"),
            (&["-mtime", "-1", "-name", "a.rs"], "./src/a.rs\n"),
            (&["-type", "f", "-user", "agent"], "./src/a.rs\n./src/sub/b.RS\n./top.txt\n"),
            (&["-name", "a.rs", "-group", "user", "-uid", "1000"], "./src/a.rs\n"),
            (&["-user", "root"], ""),
            (&["-nouser", "-o", "-nogroup"], ""),
        ];
        let cwd = std::env::current_dir().unwrap();
        std::env::set_current_dir(&d).unwrap();
        for (args, out) in cases {
            check("find", args, "", out, 0);
        }
        check_err("find", &["-bogus"], "", "find: unknown predicate `-bogus'\n", 1);
        check_err("find", &["-name"], "", "find: missing argument to `-name'\n", 1);
        check_err("find", &["missing"], "", "find: ‘missing’: No such file or directory\n", 1);
        check_err("find", &["-user", "bob"], "", "find: 'bob' is not the name of a known user (files here belong to agent; there is also root)\n", 1);
        let (_, ls, _) = crate::testutil::run("find", &["-name", "top.txt", "-ls"], "");
        assert!(ls.contains("      4 -rw-r--r--   1 agent    agent        2000 ") && ls.ends_with(" ./top.txt\n"), "{:?}", ls);
        check("find", &["empty", "-delete"], "", "", 0);
        assert!(!std::path::Path::new(&format!("{}/empty", d)).exists());
        std::env::set_current_dir(cwd).unwrap();
    }
}

/// An emacs regular expression (find's default -regextype) as POSIX extended: the operators
/// emacs spells with a backslash lose it, the characters it takes literally gain one; bracket
/// expressions stay as they are.
fn emacs_to_ere(p: &str) -> String {
    let c: Vec<char> = p.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' if i + 1 < c.len() => {
                match c[i + 1] {
                    '(' | ')' | '|' => out.push(c[i + 1]),
                    n => {
                        out.push('\\');
                        out.push(n);
                    }
                }
                i += 2;
                continue;
            }
            '(' | ')' | '|' | '{' | '}' => {
                out.push('\\');
                out.push(c[i]);
            }
            '[' => {
                // Copied up to its closing `]` (one right after `[` or `[^` is a member).
                let st = i;
                i += 1;
                if c.get(i) == Some(&'^') {
                    i += 1;
                }
                if c.get(i) == Some(&']') {
                    i += 1;
                }
                while i < c.len() && c[i] != ']' {
                    if c[i] == '[' && matches!(c.get(i + 1), Some(':') | Some('.') | Some('=')) {
                        let close = c[i + 1];
                        i += 2;
                        while i + 1 < c.len() && !(c[i] == close && c[i + 1] == ']') {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                let end = (i + 1).min(c.len());
                out.extend(&c[st..end]);
                i = end;
                continue;
            }
            ch => out.push(ch),
        }
        i += 1;
    }
    out
}
