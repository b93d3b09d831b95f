//! What a command sees of the world: its name, stdin, stdout and a
//! diagnostics sink. Commands never touch the process's streams directly, so
//! tests run them in-process with byte buffers.

use std::fmt::Display;
use std::io::{self, BufRead, Write};

pub struct Ctx<'a> {
    /// Name used in messages (`cat: x: No such file or directory`).
    pub name: &'static str,
    pub stdin: &'a mut dyn BufRead,
    pub out: Out<'a>,
    pub diag: Diag<'a>,
}

/// stdout that remembers whether a write failed, so an io error can be told
/// apart as "our output is gone" (stop) versus "this input is bad" (go on).
pub struct Out<'a> {
    inner: &'a mut dyn Write,
    pub failed: bool,
}

impl<'a> Out<'a> {
    pub fn new(inner: &'a mut dyn Write) -> Self {
        Out { inner, failed: false }
    }
}

impl<'a> Write for Out<'a> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        if r.is_err() {
            self.failed = true;
        }
        r
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = self.inner.write_all(buf);
        if r.is_err() {
            self.failed = true;
        }
        r
    }
    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        if r.is_err() {
            self.failed = true;
        }
        r
    }
}

pub struct Diag<'a> {
    pub name: &'static str,
    w: &'a mut dyn Write,
    /// Set by `error`: most commands exit 1 if any operand failed.
    pub failed: bool,
}

impl<'a> Diag<'a> {
    pub fn new(name: &'static str, w: &'a mut dyn Write) -> Self {
        Diag { name, w, failed: false }
    }
    /// `name: msg` on stderr and remember the failure.
    pub fn error(&mut self, msg: impl Display) {
        let _ = writeln!(self.w, "{}: {}", self.name, argmatch_quotes(msg.to_string()));
        self.failed = true;
    }
    /// `name: msg` on stderr without marking the run failed.
    pub fn warn(&mut self, msg: impl Display) {
        let _ = writeln!(self.w, "{}: {}", self.name, argmatch_quotes(msg.to_string()));
    }
    /// GNU usage error: message plus the `Try ... --help` hint.
    pub fn usage(&mut self, msg: impl Display) {
        let _ = writeln!(self.w, "{}: {}", self.name, argmatch_quotes(msg.to_string()));
        let _ = writeln!(self.w, "Try '{} --help' for more information.", self.name);
        self.failed = true;
    }
    /// Just the `Try ... --help` hint, after a message that said the rest.
    pub fn try_help(&mut self) {
        let _ = writeln!(self.w, "Try '{} --help' for more information.", self.name);
        self.failed = true;
    }
    /// Routes an io error met while handling one operand: when stdout has
    /// failed (`out_failed`) the command must end, so the error is returned;
    /// anything else is reported as `name: operand: reason` and the command
    /// goes on with its next operand.
    pub fn file_err(&mut self, out_failed: bool, operand: &str, e: io::Error) -> io::Result<()> {
        if out_failed {
            return Err(e);
        }
        self.error(format!("{}: {}", operand, reason(&e)));
        Ok(())
    }
    pub fn raw(&mut self) -> &mut dyn Write {
        self.w
    }
}

/// strerror-style text: Rust's Display appends " (os error N)", GNU doesn't.
pub fn reason(e: &io::Error) -> String {
    // wasi-libc says "Symbolic link loop"; glibc's wording is what agents know.
    if e.raw_os_error() == Some(libc::ELOOP) {
        return "Too many levels of symbolic links".into();
    }
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Outcome of a command body: Ok(exit status) or an error writing stdout,
/// which ends the command (EPIPE quietly, anything else with a message).
pub type Res = io::Result<i32>;

/// Whether the locale's character set is UTF-8 (LC_ALL, else LC_CTYPE, else LANG), as gnulib's
/// quote() asks before choosing its quotation marks. The session's locale is C.UTF-8.
pub fn utf8_locale() -> bool {
    let v = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty())).unwrap_or_default().to_ascii_lowercase();
    v.contains("utf-8") || v.contains("utf8")
}

/// GNU's quote() for an argument in a message ("invalid number: ‘x’", "extra operand ‘c’",
/// find's file names): ‘x’ in a UTF-8 locale, else 'x' with a quote inside written \'. File names
/// in most coreutils messages use the shell-style `q` instead.
pub fn lq(s: &str) -> String {
    if utf8_locale() {
        format!("\u{2018}{}\u{2019}", s)
    } else {
        format!("'{}'", s.replace('\'', "\\'"))
    }
}

/// argmatch's "invalid argument 'x' for '--opt'" and its "Valid arguments are:" list quote every
/// word with quote(): curly in a UTF-8 locale.
fn argmatch_quotes(msg: String) -> String {
    if !msg.starts_with("invalid argument ") || !msg.contains(" for ") || !utf8_locale() {
        return msg;
    }
    let mut out = String::with_capacity(msg.len());
    let mut open = true;
    for c in msg.chars() {
        if c == '\'' {
            out.push(if open { '\u{2018}' } else { '\u{2019}' });
            open = !open;
        } else {
            out.push(c);
        }
    }
    out
}

/// GNU's quoting of a file name in messages: 'name' (shell-escaped if needed).
pub fn q(s: &str) -> String {
    if s.contains('\'') {
        format!("\"{}\"", s)
    } else {
        format!("'{}'", s)
    }
}
