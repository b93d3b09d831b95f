//! The command table and the option handling every command shares.

use crate::args::{self, Parsed, Spec, HELP, VERSION};
use crate::ctx::Ctx;
use crate::RunFn;
use std::io::{self, Write};

/// Parses options; on --help/--version/usage error it writes what GNU writes
/// and makes the calling command return with the right status.
macro_rules! getopt {
    ($ctx:expr, $args:expr, $specs:expr, $help:expr, $bad:expr) => {
        match crate::cmd::getopt($ctx, $args, $specs, $help, $bad)? {
            Ok(p) => p,
            Err(code) => return Ok(code),
        }
    };
}

pub mod basename;
pub mod awk;
pub mod base64;
pub mod cat;
pub mod comm;
pub mod cp;
pub mod cut;
pub mod diff;
pub mod dirname;
pub mod du;
pub mod echo;
pub mod expand;
pub mod find;
pub mod fold;
pub mod grep;
pub mod hashsum;
pub mod head;
pub mod join;
pub mod jq;
pub mod ls;
pub mod mkdir;
pub mod mv;
pub mod nl;
pub mod paste;
pub mod printf;
pub mod ln;
pub mod realpath;
pub mod rev;
pub mod rg;
pub mod rm;
pub mod rmdir;
pub mod sed;
pub mod seq;
pub mod sort;
pub mod stat;
pub mod tac;
pub mod tail;
pub mod tee;
pub mod touch;
pub mod tr;
pub mod tree;
pub mod trivial;
pub mod uniq;
pub mod wc;
pub mod xargs;
pub mod sysinfo;
pub mod envcmd;
pub mod envsubst;
pub mod date;
pub mod dd;
pub mod dump;
pub mod hexdump;
pub mod cmp;
pub mod strings;
pub mod filetype;
pub mod expr;
pub mod shuf;
pub mod split;
pub mod column;
pub mod fmt;
pub mod df;
pub mod gz;
pub mod zgrep;
pub mod csplit;
pub mod tar;
pub mod tarcheckpoint;
pub mod tarname;
pub mod tarpick;
pub mod tarxform;
pub mod patch;
pub mod mktemp;
pub mod bc;
pub mod truncate;
pub mod owner;
pub mod term;
pub mod cksum;
pub mod mkfifo;
pub mod install;
pub mod getopt;
pub mod iconv;
pub mod numfmt;
pub mod rename;

const TABLE: &[(&str, RunFn)] = &[
    ("awk", awk::run),
    ("gawk", awk::run),
    ("base64", base64::run),
    ("basename", basename::run),
    ("bc", bc::run),
    ("cat", cat::run),
    ("chgrp", owner::run),
    ("chown", owner::run),
    ("cksum", cksum::run),
    ("cmp", cmp::run),
    ("column", column::run),
    ("comm", comm::run),
    ("cp", cp::run),
    ("csplit", csplit::run),
    ("cut", cut::run),
    ("date", date::run),
    ("dd", dd::run),
    ("df", df::run),
    ("diff", diff::run),
    ("dirname", dirname::run),
    ("du", du::run),
    ("echo", echo::run),
    ("egrep", grep::run_egrep),
    ("env", envcmd::run_env),
    ("envsubst", envsubst::run),
    ("expand", expand::run),
    ("expr", expr::run),
    ("false", trivial::run_false),
    ("fgrep", grep::run_fgrep),
    ("file", filetype::run),
    ("find", find::run),
    ("fmt", fmt::run),
    ("fold", fold::run),
    ("getopt", getopt::run),
    ("grep", grep::run),
    ("gunzip", gz::run_gunzip),
    ("gzip", gz::run_gzip),
    ("head", head::run),
    ("hexdump", hexdump::run),
    ("hostname", sysinfo::run_hostname),
    ("iconv", iconv::run),
    ("id", sysinfo::run_id),
    ("install", install::run),
    ("join", join::run),
    ("jq", jq::run),
    ("less", term::run_pager),
    ("ln", ln::run),
    ("ls", ls::run),
    ("md5sum", hashsum::run),
    ("mkdir", mkdir::run),
    ("mktemp", mktemp::run),
    ("mkfifo", mkfifo::run),
    ("more", term::run_pager),
    ("mv", mv::run),
    ("nl", nl::run),
    ("nproc", sysinfo::run_nproc),
    ("numfmt", numfmt::run),
    ("od", dump::run_od),
    ("paste", paste::run),
    ("patch", patch::run),
    ("printenv", sysinfo::run_printenv),
    ("printf", printf::run),
    ("readlink", realpath::run),
    ("realpath", realpath::run),
    ("rename", rename::run),
    ("rev", rev::run),
    ("rg", rg::run),
    ("rm", rm::run),
    ("rmdir", rmdir::run),
    ("sed", sed::run),
    ("seq", seq::run),
    ("sha1sum", hashsum::run),
    ("sha224sum", hashsum::run),
    ("sha256sum", hashsum::run),
    ("sha384sum", hashsum::run),
    ("sha512sum", hashsum::run),
    ("shuf", shuf::run),
    ("sleep", sysinfo::run_sleep),
    ("sort", sort::run),
    ("split", split::run),
    ("stat", stat::run),
    ("strings", strings::run),
    ("tac", tac::run),
    ("tail", tail::run),
    ("tar", tar::run),
    ("tee", tee::run),
    ("timeout", envcmd::run_timeout),
    ("touch", touch::run),
    ("tr", tr::run),
    ("tree", tree::run),
    ("true", trivial::run_true),
    ("truncate", truncate::run),
    ("tty", term::run_tty),
    ("uname", sysinfo::run_uname),
    ("unexpand", expand::run),
    ("uniq", uniq::run),
    ("wc", wc::run),
    ("which", sysinfo::run_which),
    ("whoami", sysinfo::run_whoami),
    ("xargs", xargs::run),
    ("xxd", dump::run_xxd),
    ("yes", trivial::run_yes),
    ("zcat", gz::run_zcat),
    ("zegrep", zgrep::run_zegrep),
    ("zfgrep", zgrep::run_zfgrep),
    ("zgrep", zgrep::run),
];

pub fn lookup(name: &str) -> Option<(&'static str, RunFn)> {
    TABLE.iter().find(|(n, _)| *n == name).map(|(n, f)| (*n, *f))
}

pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(n, _)| *n)
}

pub fn getopt(ctx: &mut Ctx, argv: &[String], specs: &[Spec], help: &str, bad: i32) -> io::Result<Result<Parsed, i32>> {
    match args::parse(argv, specs) {
        Err(m) => {
            ctx.diag.usage(m);
            Ok(Err(bad))
        }
        Ok(p) => {
            if p.has(HELP) {
                ctx.out.write_all(help.as_bytes())?;
                return Ok(Err(0));
            }
            if p.has(VERSION) {
                write_version(ctx)?;
                return Ok(Err(0));
            }
            Ok(Ok(p))
        }
    }
}

/// What `--version` prints first on Debian 12 for the programs the toolbox behaves as. Scripts
/// read that line to choose syntax (`sed --version | grep -q GNU`), so it names the program and
/// version whose behaviour the toolbox follows; the toolbox's own identity is the second line.
pub fn debian_identity(name: &str) -> Option<String> {
    const COREUTILS: &[&str] = &[
        "base64", "basename", "cat", "chgrp", "chown", "chmod", "cksum", "comm", "cp", "cut", "date", "df", "dirname", "du", "echo", "env",
        "expand", "expr", "false", "fmt", "fold", "head", "id", "install", "join", "ln", "ls", "md5sum", "mkdir", "mktemp", "mkfifo", "mv",
        "nl", "nproc", "numfmt", "od", "paste", "printenv", "printf", "readlink", "realpath", "rm", "rmdir", "seq", "sha1sum", "sha224sum",
        "sha256sum", "sha384sum", "sha512sum", "shuf", "sleep", "sort", "split", "stat", "tac", "tail", "tee", "timeout", "touch", "tr",
        "true", "truncate", "tty", "uname", "unexpand", "uniq", "wc", "whoami", "yes", "b2sum", "basenc", "base32", "pwd", "csplit", "tsort",
    ];
    let line = match name {
        n if COREUTILS.contains(&n) => format!("{} (GNU coreutils) 9.1", n),
        "awk" | "gawk" => "GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)".to_string(),
        "tar" => "tar (GNU tar) 1.34".to_string(),
        "sed" => "sed (GNU sed) 4.9".to_string(),
        "grep" | "egrep" | "fgrep" => "grep (GNU grep) 3.8".to_string(),
        "find" | "xargs" => format!("{} (GNU findutils) 4.9.0", name),
        "diff" | "cmp" => format!("{} (GNU diffutils) 3.8", name),
        "gzip" => "gzip 1.12".to_string(),
        "gunzip" | "zcat" => format!("{} (gzip) 1.12", name),
        "jq" => "jq-1.6".to_string(),
        _ => return None,
    };
    Some(line)
}

/// `--version`: Debian's first line where the toolbox behaves as a Debian program, then its own.
pub fn write_version(ctx: &mut Ctx) -> io::Result<()> {
    if let Some(first) = debian_identity(ctx.name) {
        writeln!(ctx.out, "{}", first)?;
    }
    writeln!(ctx.out, "{} (toolshed toolbox) {}", ctx.name, env!("CARGO_PKG_VERSION"))
}

/// `missing operand` / `extra operand 'x'` in GNU's words.
pub fn missing_operand(ctx: &mut Ctx, after: Option<&str>) {
    match after {
        Some(a) => ctx.diag.usage(format!("missing destination file operand after '{}'", a)),
        None => ctx.diag.usage("missing operand"),
    }
}

pub fn extra_operand(ctx: &mut Ctx, op: &str) {
    ctx.diag.usage(format!("extra operand {}", crate::ctx::lq(op)));
}

/// A count operand (`-n 5`), GNU's `invalid number of lines: 'x'` otherwise.
pub fn parse_count(ctx: &mut Ctx, what: &str, s: &str) -> Option<u64> {
    match crate::num::parse_size(s) {
        Some(n) => Some(n),
        None => {
            ctx.diag.error(format!("invalid number of {}: {}", what, crate::ctx::lq(s)));
            None
        }
    }
}
