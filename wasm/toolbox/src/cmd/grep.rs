//! grep [-EFGP] [-e PAT]... [-f FILE] [-ivwxclLnhHoqsbrRzaIT] [-m N]
//!      [-A N] [-B N] [-C N] [--include GLOB] [--exclude GLOB]
//!      [--exclude-dir GLOB] [--label L] PATTERN [FILE]...
//!
//! Patterns are POSIX BRE/ERE translated for the `regex` crate (no
//! back-references). Without -v, context or -z the regex runs over whole
//! blocks of lines (`BlockScan`); otherwise lines are read one at a time.
//! Binary files (a NUL in the first block) report "binary file matches" as
//! GNU grep 3.8 does.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::backref::{self, Backref};
use crate::regex_posix::translate;
use crate::text::glob_match;
use crate::{fsx, input};
use regex::bytes::{Regex, RegexBuilder};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    flag('E', "extended-regexp", "E"),
    flag('F', "fixed-strings", "F"),
    flag('G', "basic-regexp", "G"),
    flag('P', "perl-regexp", "P"),
    val('e', "regexp", "e"),
    val('f', "file", "f"),
    flag('i', "ignore-case", "i"),
    flag('y', "", "i"),
    flag('\0', "no-ignore-case", "no-i"),
    flag('v', "invert-match", "v"),
    flag('w', "word-regexp", "w"),
    flag('x', "line-regexp", "x"),
    flag('c', "count", "c"),
    optval('\0', "color", "color"),
    optval('\0', "colour", "color"),
    val('\0', "group-separator", "group-separator"),
    flag('\0', "no-group-separator", "no-group-separator"),
    flag('V', "", crate::args::VERSION),
    flag('L', "files-without-match", "L"),
    flag('l', "files-with-matches", "l"),
    val('m', "max-count", "m"),
    flag('o', "only-matching", "o"),
    flag('q', "quiet", "q"),
    flag('q', "silent", "q"),
    flag('s', "no-messages", "s"),
    flag('b', "byte-offset", "b"),
    flag('H', "with-filename", "H"),
    flag('h', "no-filename", "h"),
    val('\0', "label", "label"),
    flag('n', "line-number", "n"),
    flag('T', "initial-tab", "T"),
    flag('Z', "null", "Z"),
    flag('z', "null-data", "z"),
    val('A', "after-context", "A"),
    val('B', "before-context", "B"),
    val('C', "context", "C"),
    flag('a', "text", "a"),
    val('\0', "binary-files", "binary-files"),
    flag('I', "", "I"),
    flag('r', "recursive", "r"),
    flag('R', "dereference-recursive", "r"),
    val('\0', "include", "include"),
    val('\0', "exclude", "exclude"),
    val('\0', "exclude-dir", "exclude-dir"),
    flag('\0', "line-buffered", "ignored"),
    flag('U', "binary", "ignored"),
    val('d', "directories", "directories"),
    val('D', "devices", "ignored"),
];
const HELP: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...\nSearch for PATTERNS in each FILE.\nExample: grep -i 'hello world' menu.h main.c\nPATTERNS can contain multiple patterns separated by newlines.\n\nPattern selection and interpretation:\n  -E, --extended-regexp     PATTERNS are extended regular expressions\n  -F, --fixed-strings       PATTERNS are strings\n  -G, --basic-regexp        PATTERNS are basic regular expressions\n  -P, --perl-regexp         PATTERNS are Perl-like (look-around and backreferences too)\n  -e, --regexp=PATTERNS     use PATTERNS for matching\n  -f, --file=FILE           take PATTERNS from FILE\n  -i, --ignore-case         ignore case distinctions in patterns and data\n  -w, --word-regexp         match only whole words\n  -x, --line-regexp         match only whole lines\n\nMiscellaneous:\n  -s, --no-messages         suppress error messages\n  -v, --invert-match        select non-matching lines\n\nOutput control:\n  -m, --max-count=NUM       stop after NUM selected lines\n  -b, --byte-offset         print the byte offset with output lines\n  -n, --line-number         print line number with output lines\n  -H, --with-filename       print file name with output lines\n  -h, --no-filename         suppress the file name prefix on output\n      --label=LABEL         use LABEL as the standard input file name prefix\n  -o, --only-matching       show only nonempty parts of lines that match\n  -q, --quiet, --silent     suppress all normal output\n      --binary-files=TYPE   'binary', 'text', or 'without-match'\n  -a, --text                equivalent to --binary-files=text\n  -I                        equivalent to --binary-files=without-match\n  -r, --recursive           search directories recursively\n      --include=GLOB        search only files that match GLOB\n      --exclude=GLOB        skip files that match GLOB\n      --exclude-dir=GLOB    skip directories that match GLOB\n  -L, --files-without-match  print only names of FILEs with no selected lines\n  -l, --files-with-matches  print only names of FILEs with selected lines\n  -c, --count               print only a count of selected lines per FILE\n  -T, --initial-tab         make tabs line up (if needed)\n  -Z, --null                print 0 byte after FILE name\n\nContext control:\n  -B, --before-context=NUM  print NUM lines of leading context\n  -A, --after-context=NUM   print NUM lines of trailing context\n  -C, --context=NUM         print NUM lines of output context\n      --group-separator=SEP  print SEP on line between matches with context\n      --no-group-separator  do not print separator for matches with context\n  -NUM                      same as --context=NUM\n  -z, --null-data           a data line ends in 0 byte, not newline\n\nExit status is 0 if any line is selected, 1 otherwise;\nif any error occurs and -q is not given, the exit status is 2.\n";

#[derive(PartialEq, Clone, Copy)]
enum Binary {
    Binary,
    Text,
    WithoutMatch,
}

struct Opts {
    re: Option<Regex>,
    /// Patterns with back-references (`\(a\)\1`), which the regex crate cannot run: they
    /// take crate::backref's engine, line by line. `re` is None then.
    back: Option<Backref>,
    /// The engine gave up on a line (its step budget): reported once, exit 2.
    back_error: std::cell::RefCell<Option<String>>,
    /// The same pattern with `^`/`$` matching at newlines, for searching a
    /// whole block of lines at once (see `BlockScan`). None when a line
    /// cannot be told from a block that way (-P's own syntax, `\``, `\'`).
    block_re: Option<Regex>,
    /// -P patterns `re` cannot run (look-around, backreferences): crate::pcre.
    pcre: Option<fancy_regex::Regex>,
    /// The one pattern when it is a plain string (no -i, no -x): the block
    /// search then looks for the bytes themselves (`bytescan::find_lit`).
    block_lit: Option<Vec<u8>>,
    invert: bool,
    word: bool,
    count: bool,
    list: bool,
    list_without: bool,
    max: Option<u64>,
    only: bool,
    quiet: bool,
    no_messages: bool,
    byte_offset: bool,
    names: bool,
    line_numbers: bool,
    initial_tab: bool,
    null_after_name: bool,
    eol: u8,
    after: usize,
    before: usize,
    /// Printed between non-adjacent groups: GNU does so once any context
    /// option is given, even `-A 0`; None for --no-group-separator.
    group_sep: Option<Vec<u8>>,
    binary: Binary,
    recursive: bool,
    include: Vec<String>,
    exclude: Vec<String>,
    exclude_dir: Vec<String>,
    label: String,
    skip_dirs: bool,
}

/// Search state that spans files: the exit status and the `--` separator.
struct State {
    selected_any: bool,
    printed_any: bool,
    error: bool,
    stop_all: bool,
    /// `BlockScan`'s read buffer, kept across files: `grep -r` over many
    /// small files would otherwise allocate and clear a block for each.
    block_buf: Vec<u8>,
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Opts {
    /// Matches in `line`, honouring -w. Without a regex (no patterns at
    /// all, e.g. `-f /dev/null`) nothing matches.
    fn first_match(&self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        let find = |hay: &[u8], at: usize| -> Option<(usize, usize)> {
            match (&self.re, &self.back) {
                (Some(re), _) => re.find_at(hay, at).map(|m| (m.start(), m.end())),
                (None, Some(b)) => match b.find_at(hay, at) {
                    Ok(caps) => caps.and_then(|c| c.first().copied().flatten()),
                    Err(e) => {
                        self.back_error.borrow_mut().get_or_insert(e);
                        None
                    }
                },
                (None, None) => self.pcre.as_ref().and_then(|f| crate::pcre::find_at(f, hay, at)),
            }
        };
        let mut start = from;
        while start <= line.len() {
            let (ms, me) = find(line, start)?;
            if !self.word {
                return Some((ms, me));
            }
            let ok_before = ms == 0 || !is_word(line[ms - 1]);
            let ok_after = me == line.len() || !is_word(line[me]);
            if ok_before && ok_after && me > ms {
                return Some((ms, me));
            }
            // Try a shorter match at the same place before moving on.
            if ok_before {
                let mut end = me;
                while end > ms + 1 {
                    end -= 1;
                    if let Some((ss, se)) = find(&line[ms..end], 0) {
                        if ss == 0 && se == end - ms && (end == line.len() || !is_word(line[end])) {
                            return Some((ms, end));
                        }
                    }
                }
            }
            start = ms + 1;
        }
        None
    }
    fn selected(&self, line: &[u8]) -> bool {
        self.first_match(line, 0).is_some() != self.invert
    }
}

fn parse_num(ctx: &mut Ctx, v: &str, what: &str) -> Option<usize> {
    match v.parse::<usize>() {
        Ok(n) => Some(n),
        Err(_) => {
            ctx.diag.error(format!("{}: invalid {} argument", v, what));
            None
        }
    }
}

pub fn run_egrep(ctx: &mut Ctx, args: &[String]) -> Res {
    let mut a = vec!["-E".to_string()];
    a.extend(args.iter().cloned());
    run(ctx, &a)
}

pub fn run_fgrep(ctx: &mut Ctx, args: &[String]) -> Res {
    let mut a = vec!["-F".to_string()];
    a.extend(args.iter().cloned());
    run(ctx, &a)
}

/// `-5` means `-C 5` anywhere among the options.
fn context_shorthand(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut after_dd = false;
    let mut takes_value = false;
    for a in args {
        if !after_dd && !takes_value && a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) {
            out.push("-C".to_string());
            out.push(a[1..].to_string());
            continue;
        }
        if a == "--" {
            after_dd = true;
        }
        // Options whose value is the next argument must not be rewritten.
        takes_value = !after_dd && matches!(a.as_str(), "-e" | "-f" | "-m" | "-A" | "-B" | "-C" | "-d" | "-D");
        out.push(a.clone());
    }
    out
}

fn bad_usage(ctx: &mut Ctx) {
    let _ = write!(ctx.diag.raw(), "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n");
    ctx.diag.failed = true;
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = context_shorthand(args);
    // GNU grep puts its usage line between the complaint and the hint.
    if let Err(m) = crate::args::parse(&args, SPECS) {
        ctx.diag.warn(m);
        bad_usage(ctx);
        return Ok(2);
    }
    let p = getopt!(ctx, &args, SPECS, HELP, 2);
    let mut ops = p.operands.clone();
    let mut patterns: Vec<String> = Vec::new();
    let mut have_pattern_opt = false;
    for f in &p.opts {
        match f.key {
            "e" => {
                have_pattern_opt = true;
                patterns.extend(f.val.as_deref().unwrap_or("").split('\n').map(|s| s.to_string()));
            }
            "f" => {
                have_pattern_opt = true;
                let name = f.val.clone().unwrap_or_default();
                let mut text = Vec::new();
                let res = input::open(ctx.stdin, &name).and_then(|mut r| io::Read::read_to_end(&mut r, &mut text));
                if let Err(e) = res {
                    ctx.diag.error(format!("{}: {}", name, reason(&e)));
                    return Ok(2);
                }
                let t = String::from_utf8_lossy(&text).into_owned();
                let t = t.strip_suffix('\n').unwrap_or(&t);
                if !text.is_empty() {
                    patterns.extend(t.split('\n').map(|s| s.to_string()));
                }
            }
            _ => {}
        }
    }
    if !have_pattern_opt {
        if ops.is_empty() {
            bad_usage(ctx);
            return Ok(2);
        }
        patterns.extend(ops.remove(0).split('\n').map(|s| s.to_string()));
    }
    let mode = p.opts.iter().rev().find(|o| matches!(o.key, "E" | "F" | "G" | "P")).map(|o| o.key).unwrap_or("G");
    let icase = p.opts.iter().rev().find(|o| o.key == "i" || o.key == "no-i").map(|o| o.key == "i").unwrap_or(false);
    let mut back = None;
    if matches!(mode, "G" | "E") && patterns.iter().any(|p| backref::has_backref(p)) {
        let pats: Vec<&str> = patterns.iter().map(|s| s.as_str()).collect();
        match Backref::with_patterns(&pats, mode == "E", icase, false, p.has("x")) {
            Ok(b) => back = Some(b),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(2);
            }
        }
    }
    let mut parts = Vec::new();
    for pat in patterns.iter().filter(|_| back.is_none()) {
        let t = match mode {
            "F" => Ok(regex::escape(pat)),
            "P" => Ok(pat.clone()),
            "E" => translate(pat, true),
            _ => translate(pat, false),
        };
        match t {
            Ok(s) => parts.push(s),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(2);
            }
        }
    }
    let mut block_re = None;
    let mut pcre = None;
    let re = if parts.is_empty() {
        None
    } else {
        let body = parts.iter().map(|s| format!("(?:{})", s)).collect::<Vec<_>>().join("|");
        let full = if p.has("x") { format!("^(?:{})$", body) } else { body };
        // Translated BRE/ERE/-F text holds no inline flags; `\A` and `\z`
        // (grep's \` and \') would mean the block's ends, not the line's.
        // Patterns anchored at the line start (all `^...`, or -x) fail at
        // once on each line, which beats scanning every byte of a block.
        let anchored = p.has("x") || parts.iter().all(|s| s.starts_with('^'));
        if mode != "P" && !anchored && !full.contains("\\A") && !full.contains("\\z") {
            block_re = RegexBuilder::new(&full).case_insensitive(icase).multi_line(true).build().ok();
        }
        match RegexBuilder::new(&full).case_insensitive(icase).multi_line(false).build() {
            Ok(r) => Some(r),
            Err(_) if mode == "P" && crate::pcre::fancy(&full, icase).is_ok() => {
                pcre = crate::pcre::fancy(&full, icase).ok();
                None
            }
            Err(e) => {
                let msg = e.to_string();
                let first = msg.lines().last().unwrap_or("invalid pattern").trim().trim_start_matches("error: ").to_string();
                // -P: PCRE2's words for the mistakes agents make most, as GNU grep prints them.
                let pcre2 = match first.as_str() {
                    "unclosed group" => Some("missing closing parenthesis"),
                    "unopened group" => Some("unmatched closing parenthesis"),
                    "unclosed character class" => Some("missing terminating ] for character class"),
                    "incomplete escape sequence, reached end of pattern prematurely" => Some("\\ at end of pattern"),
                    _ => None,
                };
                match pcre2 {
                    Some(m) if mode == "P" => ctx.diag.error(m),
                    _ => ctx.diag.error(format!("invalid regular expression: {}", first)),
                }
                return Ok(2);
            }
        }
    };
    let block_lit = match patterns.as_slice() {
        [pat] if back.is_none() && !icase && !p.has("x") && !pat.is_empty() => {
            let special: &[char] = match mode {
                "F" => &[],
                "G" => &['\\', '.', '[', '*', '^', '$'],
                _ => &['\\', '.', '[', ']', '*', '^', '$', '+', '?', '{', '}', '(', ')', '|'],
            };
            if mode != "P" && !pat.contains(special) {
                Some(pat.as_bytes().to_vec())
            } else {
                None
            }
        }
        _ => None,
    };
    let num = |ctx: &mut Ctx, k: &str, what: &str| -> Result<Option<usize>, ()> {
        match p.last(k) {
            None => Ok(None),
            Some(v) => parse_num(ctx, v, what).map(Some).ok_or(()),
        }
    };
    let ctxn = match num(ctx, "C", "context length") {
        Ok(v) => v.unwrap_or(0),
        Err(()) => return Ok(2),
    };
    let after = match num(ctx, "A", "context length") {
        Ok(v) => v.unwrap_or(ctxn),
        Err(()) => return Ok(2),
    };
    let before = match num(ctx, "B", "context length") {
        Ok(v) => v.unwrap_or(ctxn),
        Err(()) => return Ok(2),
    };
    let max = match p.last("m") {
        None => None,
        Some(v) => match v.parse::<i64>() {
            Ok(n) if n < 0 => None,
            Ok(n) => Some(n as u64),
            Err(_) => {
                ctx.diag.error(format!("invalid max count"));
                return Ok(2);
            }
        },
    };
    let binary = if p.has("a") {
        Binary::Text
    } else if p.has("I") {
        Binary::WithoutMatch
    } else {
        match p.last("binary-files") {
            None | Some("binary") => Binary::Binary,
            Some("text") => Binary::Text,
            Some("without-match") => Binary::WithoutMatch,
            Some(v) => {
                ctx.diag.error(format!("invalid argument '{}' for '--binary-files'", v));
                return Ok(2);
            }
        }
    };
    let recursive = p.has("r") || p.last("directories") == Some("recurse");
    let implicit_dot = recursive && ops.is_empty();
    if ops.is_empty() {
        ops.push(if recursive { ".".into() } else { "-".into() });
    }
    // One operand gets a name prefix only when it is a directory being walked (`grep -r x -`
    // and `grep -r x file` print bare lines, as GNU does).
    let names_default = ops.len() > 1 || (recursive && ops[0] != "-" && fsx::is_dir(&ops[0]));
    let names = p.opts.iter().rev().find(|o| o.key == "H" || o.key == "h").map(|o| o.key == "H").unwrap_or(names_default);
    let o = Opts {
        re,
        back,
        back_error: std::cell::RefCell::new(None),
        block_re,
        pcre,
        block_lit,
        invert: p.has("v"),
        word: p.has("w"),
        count: p.has("c"),
        list: p.has("l"),
        list_without: p.has("L"),
        max,
        only: p.has("o"),
        quiet: p.has("q"),
        no_messages: p.has("s"),
        byte_offset: p.has("b"),
        names,
        line_numbers: p.has("n"),
        initial_tab: p.has("T"),
        null_after_name: p.has("Z"),
        eol: if p.has("z") { 0 } else { b'\n' },
        after,
        before,
        group_sep: match p.last("group-separator") {
            _ if !(p.has("A") || p.has("B") || p.has("C")) || p.last_key(&["group-separator", "no-group-separator"]) == Some("no-group-separator") => None,
            sep => Some(format!("{}\n", sep.unwrap_or("--")).into_bytes()),
        },
        binary,
        recursive,
        include: p.all("include").iter().map(|s| s.to_string()).collect(),
        exclude: p.all("exclude").iter().map(|s| s.to_string()).collect(),
        exclude_dir: p.all("exclude-dir").iter().map(|s| s.to_string()).collect(),
        label: p.last("label").unwrap_or("(standard input)").to_string(),
        skip_dirs: p.last("directories") == Some("skip"),
    };
    // GNU gives up at once when nothing can be selected (`-f /dev/null` without -v, `-m 0`),
    // printing nothing, not even -c counts; -L still has files to list.
    let nothing_selectable = o.max == Some(0) || (o.re.is_none() && o.back.is_none() && o.pcre.is_none() && !o.invert);
    if nothing_selectable && !o.list_without {
        return Ok(1);
    }
    let mut st = State { selected_any: false, printed_any: false, error: false, stop_all: false, block_buf: Vec::new() };
    for op in &ops {
        if st.stop_all {
            break;
        }
        if op == "-" {
            let label = o.label.clone();
            let r: &mut dyn BufRead = &mut *ctx.stdin;
            search(r, &label, input::stdin_file_size(), &o, &mut st, &mut ctx.out, &mut ctx.diag)?;
            continue;
        }
        if !included(&o, op, true) {
            continue;
        }
        if fsx::is_dir(op) {
            if o.recursive {
                walk(ctx, op, implicit_dot, &o, &mut st)?;
            } else if !o.skip_dirs {
                if !o.no_messages {
                    ctx.diag.warn(format!("{}: Is a directory", op));
                }
                st.error = true;
            }
            continue;
        }
        file(ctx, op, op, &o, &mut st)?;
    }
    if let Some(e) = o.back_error.borrow_mut().take() {
        ctx.diag.error(e);
        st.error = true;
    }
    Ok(if st.selected_any && (o.quiet || !st.error) {
        0
    } else if st.error {
        2
    } else if st.selected_any {
        0
    } else {
        1
    })
}

fn included(o: &Opts, path: &str, command_line: bool) -> bool {
    let base = fsx::base_name(path).as_bytes();
    if o.exclude.iter().any(|g| glob_match(g.as_bytes(), base)) {
        return false;
    }
    // --include limits files found while recursing, and command-line files.
    if !o.include.is_empty() && !fsx::is_dir(path) && !o.include.iter().any(|g| glob_match(g.as_bytes(), base)) {
        let _ = command_line;
        return false;
    }
    true
}

fn walk(ctx: &mut Ctx, dir: &str, implicit: bool, o: &Opts, st: &mut State) -> io::Result<()> {
    let names = match fsx::read_dir_names(dir) {
        Ok(n) => n,
        Err(e) => {
            if !o.no_messages {
                ctx.diag.warn(format!("{}: {}", dir, reason(&e)));
            }
            st.error = true;
            return Ok(());
        }
    };
    for n in names {
        if st.stop_all {
            break;
        }
        let path = fsx::join(dir, &n);
        // `grep -r PAT` with no operand names files without a "./" prefix.
        let shown = if implicit && dir == "." { n.clone() } else { path.clone() };
        let meta = match fsx::symlink_metadata(&path) {
            Ok(m) => m,
            Err(_) => continue,
        };
        if meta.is_dir() {
            if o.exclude_dir.iter().any(|g| glob_match(g.as_bytes(), n.as_bytes())) {
                continue;
            }
            walk_named(ctx, &path, &shown, o, st)?;
        } else if meta.is_file() && included(o, &path, false) {
            file(ctx, &path, &shown, o, st)?;
        }
    }
    Ok(())
}

/// Recurses into `path`, printing names under `shown`.
fn walk_named(ctx: &mut Ctx, path: &str, shown: &str, o: &Opts, st: &mut State) -> io::Result<()> {
    let names = match fsx::read_dir_names(path) {
        Ok(n) => n,
        Err(e) => {
            if !o.no_messages {
                ctx.diag.warn(format!("{}: {}", shown, reason(&e)));
            }
            st.error = true;
            return Ok(());
        }
    };
    for n in names {
        if st.stop_all {
            break;
        }
        let p = fsx::join(path, &n);
        let s = fsx::join(shown, &n);
        let meta = match fsx::symlink_metadata(&p) {
            Ok(m) => m,
            Err(_) => continue,
        };
        if meta.is_dir() {
            if o.exclude_dir.iter().any(|g| glob_match(g.as_bytes(), n.as_bytes())) {
                continue;
            }
            walk_named(ctx, &p, &s, o, st)?;
        } else if meta.is_file() && included(o, &p, false) {
            file(ctx, &p, &s, o, st)?;
        }
    }
    Ok(())
}

fn file(ctx: &mut Ctx, path: &str, shown: &str, o: &Opts, st: &mut State) -> io::Result<()> {
    let f = match std::fs::File::open(fsx::host(path)) {
        Ok(f) => f,
        Err(e) => {
            if !o.no_messages {
                ctx.diag.warn(format!("{}: {}", shown, reason(&e)));
            }
            st.error = true;
            return Ok(());
        }
    };
    let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let mut r = io::BufReader::with_capacity(input::BUF, f);
    search(&mut r, shown, size, o, st, &mut ctx.out, &mut ctx.diag)
}

struct Printer<'o> {
    o: &'o Opts,
    name: &'o str,
    width: usize,
}

impl<'o> Printer<'o> {
    fn prefix(&self, out: &mut dyn Write, lineno: u64, offset: u64, sep: u8) -> io::Result<()> {
        if self.o.names {
            out.write_all(self.name.as_bytes())?;
            if self.o.null_after_name {
                out.write_all(&[0])?;
            } else {
                out.write_all(&[sep])?;
            }
        }
        if self.o.line_numbers {
            write!(out, "{:>w$}{}", lineno, sep as char, w = self.width)?;
        }
        if self.o.byte_offset {
            write!(out, "{:>w$}{}", offset, sep as char, w = self.width)?;
        }
        if self.o.initial_tab && (self.o.names || self.o.line_numbers || self.o.byte_offset) {
            out.write_all(b"\t")?;
        }
        Ok(())
    }
}

/// -T pads line numbers and byte offsets to the digits of the largest offset the input can have,
/// as GNU grep does: the file's size, or the largest off_t for a stream.
fn tab_width(o: &Opts, size: Option<u64>) -> usize {
    if !o.initial_tab {
        return 0;
    }
    size.unwrap_or(i64::MAX as u64).max(1).to_string().len()
}

fn search(r: &mut dyn BufRead, name: &str, size: Option<u64>, o: &Opts, st: &mut State, out: &mut crate::ctx::Out, diag: &mut crate::ctx::Diag) -> io::Result<()> {
    let is_binary = o.binary != Binary::Text && {
        match r.fill_buf() {
            Ok(b) => memchr::memchr(0, b).is_some() && o.eol != 0,
            Err(e) => {
                if !o.no_messages {
                    diag.warn(format!("{}: {}", name, reason(&e)));
                }
                st.error = true;
                return Ok(());
            }
        }
    };
    if is_binary && o.binary == Binary::WithoutMatch {
        return Ok(());
    }
    let pr = Printer { o, name, width: tab_width(o, size) };
    // Only the bare listing modes skip line output.
    let print_lines = !(o.quiet || o.count || o.list || o.list_without || is_binary);
    // Whole-block search is exact when no output depends on the lines that
    // do not match: no -v, no context, newline-terminated lines.
    let block_re = o.block_re.as_ref().filter(|_| !o.invert && o.before == 0 && o.after == 0 && o.group_sep.is_none() && o.eol == b'\n');
    let count = match block_re {
        Some(re) => {
            let mut buf = std::mem::take(&mut st.block_buf);
            let mut scan = BlockScan { o, re, pr: &pr, out: Vec::new(), st, is_binary, print_lines, count: 0, lines: 0, base: 0, ahead: None };
            let res = scan.run(r, name, diag, out, &mut buf);
            // Whatever happened, what was selected so far goes out first.
            out.write_all(&scan.out)?;
            let count = scan.count;
            st.block_buf = buf;
            res?;
            count
        }
        None => scan_lines(r, name, o, st, out, diag, &pr, is_binary, print_lines)?,
    };
    // -l and -L win over -c, and -q silences all three.
    if o.quiet {
        return Ok(());
    }
    if o.count && !o.list && !o.list_without {
        if o.names {
            out.write_all(name.as_bytes())?;
            out.write_all(if o.null_after_name { b"\0" } else { b":" })?;
        }
        writeln!(out, "{}", count)?;
    }
    if (o.list && count > 0) || (o.list_without && count == 0) {
        out.write_all(name.as_bytes())?;
        out.write_all(if o.null_after_name { b"\0" } else { b"\n" })?;
    }
    if is_binary && count > 0 && !o.count && !o.list && !o.list_without {
        diag.warn(format!("{}: binary file matches", name));
    }
    Ok(())
}

/// The general path: one line at a time. Returns the selected-line count.
#[allow(clippy::too_many_arguments)]
fn scan_lines(
    r: &mut dyn BufRead,
    name: &str,
    o: &Opts,
    st: &mut State,
    out: &mut crate::ctx::Out,
    diag: &mut crate::ctx::Diag,
    pr: &Printer,
    is_binary: bool,
    print_lines: bool,
) -> io::Result<u64> {
    let mut count = 0u64;
    let mut lineno = 0u64;
    let mut offset = 0u64;
    let mut ring: VecDeque<(u64, u64, Vec<u8>)> = VecDeque::new();
    let mut after_left = 0usize;
    let mut last_printed: Option<u64> = None;
    let mut rec = Vec::new();
    loop {
        rec.clear();
        let n = match r.read_until(o.eol, &mut rec) {
            Ok(n) => n,
            Err(e) => {
                if !o.no_messages {
                    diag.warn(format!("{}: {}", name, reason(&e)));
                }
                st.error = true;
                break;
            }
        };
        if n == 0 {
            break;
        }
        lineno += 1;
        let line_off = offset;
        offset += n as u64;
        let (line, _) = input::chomp(&rec, o.eol);
        let done = o.max.map(|m| count >= m).unwrap_or(false);
        let sel = !done && o.selected(line);
        if sel {
            count += 1;
            st.selected_any = true;
            if o.quiet {
                st.stop_all = true;
                return Ok(count);
            }
            if o.list || o.list_without || (is_binary && !o.count) {
                break;
            }
            if print_lines {
                if let Some(lp) = last_printed {
                    let first_ctx = ring.front().map(|x| x.0).unwrap_or(lineno);
                    if let Some(sep) = o.group_sep.as_ref().filter(|_| first_ctx > lp + 1) {
                        out.write_all(sep)?;
                    }
                } else if let Some(sep) = o.group_sep.as_ref().filter(|_| st.printed_any) {
                    out.write_all(sep)?;
                }
                for (ln, off, l) in ring.drain(..) {
                    pr.prefix(out, ln, off, b'-')?;
                    out.write_all(&l)?;
                    out.write_all(&[o.eol])?;
                }
                if o.only && !o.invert {
                    let mut at = 0;
                    while let Some((s, e)) = o.first_match(line, at) {
                        if e > s {
                            pr.prefix(out, lineno, line_off + s as u64, b':')?;
                            out.write_all(&line[s..e])?;
                            out.write_all(&[o.eol])?;
                            at = e;
                        } else {
                            at = e + 1;
                        }
                        if at > line.len() {
                            break;
                        }
                    }
                } else if !o.only {
                    pr.prefix(out, lineno, line_off, b':')?;
                    out.write_all(line)?;
                    out.write_all(&[o.eol])?;
                }
                last_printed = Some(lineno);
                st.printed_any = true;
                after_left = o.after;
            }
        } else if print_lines {
            if after_left > 0 {
                after_left -= 1;
                pr.prefix(out, lineno, line_off, b'-')?;
                out.write_all(line)?;
                out.write_all(&[o.eol])?;
                last_printed = Some(lineno);
            } else if done {
                break;
            } else if o.before > 0 {
                ring.push_back((lineno, line_off, line.to_vec()));
                if ring.len() > o.before {
                    ring.pop_front();
                }
            }
        } else if done {
            break;
        }
    }
    Ok(count)
}

/// Read size for `BlockScan`; a block grows when one line does not fit.
const BLOCK: usize = 256 * 1024;

/// The fast path, after ripgrep: run the regex over a block of whole lines
/// and only look for line boundaries around the matches it finds, instead
/// of running the regex once per line.
///
/// Why it is exact: with `^`/`$` matching at newlines, every match the
/// regex has in a line is also a match in the block (same text, same
/// context: a newline looks like the start or end of text to `^`, `$` and
/// `\b`). So the leftmost block match from a line start is never later
/// than the first line that has a match of its own: the lines skipped over
/// have none. A block match can also run across a newline (`[^x]`, `\s`)
/// or need -w's checks; then the line is decided by the per-line code.
struct BlockScan<'a, 'o> {
    o: &'o Opts,
    re: &'o Regex,
    pr: &'a Printer<'o>,
    /// Output collects here and goes to stdout in large writes: -o prints
    /// hundreds of thousands of tiny pieces.
    out: Vec<u8>,
    st: &'a mut State,
    is_binary: bool,
    print_lines: bool,
    count: u64,
    /// Line number of the line last looked at (exact only with -n, the
    /// one user; counting the lines between matches costs a pass).
    lines: u64,
    /// Byte offset in the input of the block's first byte.
    base: u64,
    /// A search result -o already got past the end of its line (None: no
    /// match in the rest of the block). It is also the leftmost match from
    /// any later position up to its start, so the next line search reuses
    /// it instead of running the regex again.
    ahead: Option<Option<(usize, usize)>>,
}

enum Flow {
    Go,
    Stop,
}

impl BlockScan<'_, '_> {
    fn run(&mut self, r: &mut dyn BufRead, name: &str, diag: &mut crate::ctx::Diag, out: &mut crate::ctx::Out, buf: &mut Vec<u8>) -> io::Result<()> {
        if buf.len() < BLOCK {
            buf.resize(BLOCK, 0);
        }
        let mut len = 0;
        let mut eof = false;
        loop {
            if len == buf.len() {
                // One line fills the block: make room.
                buf.resize(len * 2, 0);
            }
            // Each read's whole lines are searched at once (a pipe's
            // lines are not held back waiting for a full block).
            let mut failed = false;
            match r.read(&mut buf[len..]) {
                Ok(0) => eof = true,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    if !self.o.no_messages {
                        diag.warn(format!("{}: {}", name, reason(&e)));
                    }
                    self.st.error = true;
                    // As the line reader does: lines read whole count, the torn one not.
                    eof = true;
                    failed = true;
                }
            }
            let end = match crate::bytescan::rfind_byte(&buf[..len], b'\n') {
                _ if eof && !failed => len,
                Some(i) => i + 1,
                None if eof => 0,
                None => continue,
            };
            let tail = end > 0 && buf[end - 1] != b'\n';
            let flow = self.block(&buf[..end], tail)?;
            if self.out.len() >= input::BUF {
                out.write_all(&self.out)?;
                self.out.clear();
            }
            if let Flow::Stop = flow {
                return Ok(());
            }
            if eof {
                return Ok(());
            }
            self.base += end as u64;
            buf.copy_within(end..len, 0);
            len -= end;
        }
    }

    /// Searches `hay`, whole lines; the last one lacks its newline when
    /// `tail` (end of input).
    fn block(&mut self, hay: &[u8], tail: bool) -> io::Result<Flow> {
        use crate::bytescan::{count_byte, find_byte, rfind_byte};
        let o = self.o;
        let mut pos = 0;
        self.ahead = None;
        while pos < hay.len() {
            let found = match self.ahead.take() {
                Some(Some(m)) if m.0 >= pos => Some(m),
                Some(None) => None,
                _ => self.find(hay, pos),
            };
            let m = match found {
                Some(m) => m,
                None => break,
            };
            let line_end = match find_byte(&hay[m.0..], b'\n') {
                Some(i) => m.0 + i,
                None if tail => hay.len(),
                // An empty match after the last newline is in no line.
                None => break,
            };
            let line_start = match rfind_byte(&hay[pos..m.0], b'\n') {
                Some(i) => pos + i + 1,
                None => pos,
            };
            if o.line_numbers {
                self.lines += count_byte(&hay[pos..line_start], b'\n') as u64;
            }
            self.lines += 1;
            let line = &hay[line_start..line_end];
            let inside = m.1 <= line_end && !o.word;
            if inside || o.selected(line) {
                let first = if inside { Some((m.0 - line_start, m.1 - line_start)) } else { None };
                if let Flow::Stop = self.select(hay, line_start, line, first)? {
                    return Ok(Flow::Stop);
                }
            }
            pos = line_end + 1;
        }
        if o.line_numbers && pos < hay.len() {
            self.lines += count_byte(&hay[pos..], b'\n') as u64;
        }
        Ok(Flow::Go)
    }

    /// A selected line, as `scan_lines` handles it without context.
    /// `first` is its leftmost match when the block search found it whole.
    fn select(&mut self, hay: &[u8], line_start: usize, line: &[u8], first: Option<(usize, usize)>) -> io::Result<Flow> {
        let o = self.o;
        self.count += 1;
        self.st.selected_any = true;
        if o.quiet {
            self.st.stop_all = true;
            return Ok(Flow::Stop);
        }
        if o.list || o.list_without || (self.is_binary && !o.count) {
            return Ok(Flow::Stop);
        }
        if self.print_lines {
            let (lineno, off) = (self.lines, self.base + line_start as u64);
            if o.only {
                let mut at = 0;
                let mut next = first;
                while let Some((s, e)) = next.take().or_else(|| self.match_in_line(hay, line_start, line, at)) {
                    if e > s {
                        self.pr.prefix(&mut self.out, lineno, off + s as u64, b':')?;
                        self.out.write_all(&line[s..e])?;
                        self.out.write_all(b"\n")?;
                        at = e;
                    } else {
                        at = e + 1;
                    }
                    if at > line.len() {
                        break;
                    }
                }
            } else {
                self.pr.prefix(&mut self.out, lineno, off, b':')?;
                self.out.write_all(line)?;
                self.out.write_all(b"\n")?;
            }
            self.st.printed_any = true;
        }
        if o.max.map(|m| self.count >= m).unwrap_or(false) {
            return Ok(Flow::Stop);
        }
        Ok(Flow::Go)
    }

    /// The leftmost match in `hay` starting at or after `from`.
    fn find(&self, hay: &[u8], from: usize) -> Option<(usize, usize)> {
        match &self.o.block_lit {
            Some(lit) => crate::bytescan::find_lit(&hay[from..], lit).map(|i| (from + i, from + i + lit.len())),
            None => self.re.find_at(hay, from).map(|m| (m.start(), m.end())),
        }
    }

    /// `Opts::first_match(line, at)`, answered from the block when the
    /// block's match lies within the line (same text, same context).
    fn match_in_line(&mut self, hay: &[u8], line_start: usize, line: &[u8], at: usize) -> Option<(usize, usize)> {
        if self.o.word {
            return self.o.first_match(line, at);
        }
        let line_end = line_start + line.len();
        let found = self.find(hay, line_start + at);
        let m = match found {
            Some(m) => m,
            None => {
                self.ahead = Some(None);
                return None;
            }
        };
        if m.0 > line_end {
            self.ahead = Some(found);
            None
        } else if m.1 <= line_end {
            Some((m.0 - line_start, m.1 - line_start))
        } else {
            self.o.first_match(line, at)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, run, tmpdir, write, Pieces};

    const TEXT: &str = "apple pie\nbanana split\nCherry tart\napple crumble\n";

    #[test]
    fn stdin_table() {
        let cases: &[(&[&str], &str, &str, i32)] = &[
            (&["apple"], TEXT, "apple pie\napple crumble\n", 0),
            (&["-c", "apple"], TEXT, "2\n", 0),
            (&["-v", "apple"], TEXT, "banana split\nCherry tart\n", 0),
            (&["-i", "cherry"], TEXT, "Cherry tart\n", 0),
            (&["-n", "split"], TEXT, "2:banana split\n", 0),
            (&["-o", "a[np]"], TEXT, "ap\nan\nan\nap\n", 0),
            (&["-E", "pie|tart"], TEXT, "apple pie\nCherry tart\n", 0),
            (&["pie\\|tart"], TEXT, "apple pie\nCherry tart\n", 0),
            (&["-F", "a.p"], "a.p\naxp\n", "a.p\n", 0),
            (&["a.p"], "a.p\naxp\n", "a.p\naxp\n", 0),
            (&["-w", "app"], "app le\napple\n", "app le\n", 0),
            (&["-w", "foo"], "foobar foo\n", "foobar foo\n", 0),
            (&["-x", "apple"], "apple\napple pie\n", "apple\n", 0),
            (&["-e", "pie", "-e", "tart"], TEXT, "apple pie\nCherry tart\n", 0),
            (&["-m", "1", "apple"], TEXT, "apple pie\n", 0),
            (&["-b", "banana"], TEXT, "10:banana split\n", 0),
            (&["-q", "apple"], TEXT, "", 0),
            (&["nothing"], TEXT, "", 1),
            (&["-H", "pie"], TEXT, "(standard input):apple pie\n", 0),
            (&["-c", "-v", "x"], "a\nb\n", "2\n", 0),
            (&["^$"], "a\n\nb\n", "\n", 0),
            (&["-E", "a{2}"], "aa\na\n", "aa\n", 0),
            (&["a\\{2\\}"], "aa\na\n", "aa\n", 0),
            (&["[[:digit:]]\\+"], "x1\ny\n", "x1\n", 0),
            (&["-z", "b"], "a\0b\0", "b\0", 0),
            (&["-o", "-i", "A"], "aA\n", "a\nA\n", 0),
            (&["-l", "a"], "a\n", "(standard input)\n", 0),
            (&["-L", "a"], "b\n", "(standard input)\n", 1),
            // -l/-L win over -c; -q silences them; nothing selectable gives up at once.
            (&["-L", "-c", "a"], "a\n", "", 0),
            (&["-L", "-c", "a"], "b\n", "(standard input)\n", 1),
            (&["-L", "-q", "a"], "b\n", "", 1),
            (&["-l", "-c", "a"], "a\n", "(standard input)\n", 0),
            (&["-c", "-m", "0", "a"], "a\n", "", 1),
            (&["-r", "a", "-"], "a\n", "a\n", 0),
            (&["-r", "a", "-", "-"], "a\n", "(standard input):a\n", 0),
        ];
        for (args, input, out, code) in cases {
            check("grep", args, input, out, *code);
        }
    }

    /// The block search must answer exactly as the per-line path. `-P`
    /// never takes the block path, and these patterns mean the same in
    /// -E and -P, so the two runs must agree byte for byte.
    #[test]
    fn back_references() {
        let text = "abab\nab\nxababy\nthe the cat\n";
        let cases: &[(&[&str], &str, i32)] = &[
            (&["\\(ab\\)\\1"], "abab\nxababy\n", 0),
            (&["-E", "(ab)\\1"], "abab\nxababy\n", 0),
            (&["-c", "-E", "([a-z]+) \\1"], "1\n", 0),
            (&["-v", "\\(ab\\)\\1"], "ab\nthe the cat\n", 0),
            (&["-o", "-E", "(the) \\1"], "the the\n", 0),
            (&["-x", "\\(ab\\)\\1"], "abab\n", 0),
            (&["-w", "-E", "(ab)\\1"], "abab\n", 0),
            (&["-E", "(x)\\1"], "", 1),
            (&["-E", "(a)\\2"], "", 2),
        ];
        for (args, out, code) in cases {
            crate::testutil::check("grep", args, text, out, *code);
        }
    }

    #[test]
    fn block_path_matches_line_path() {
        let d = tmpdir();
        let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
        let mut big = Vec::new();
        let words = ["kavovo", "foo", "foobar", "xkavovox", "ab", "z", "", "bar_foo", "FOO", "q"];
        let mut i = 0usize;
        // Over 256 KiB: two blocks and several 64 KiB reads, lines cut at the boundaries.
        while big.len() < 300_000 {
            let n = 1 + i * 7 % 9;
            let line: Vec<&str> = (0..n).map(|k| words[(i * 3 + k * 5) % words.len()]).collect();
            big.extend_from_slice(line.join(if i % 5 == 0 { "\t" } else { " " }).as_bytes());
            big.extend_from_slice(if i % 17 == 0 { b"\r\n" } else { b"\n" });
            i += 1;
        }
        inputs.push(("big".into(), big.clone()));
        let mut nonl = big.clone();
        nonl.extend_from_slice(b"last foo kavovo");
        inputs.push(("nonl".into(), nonl));
        // One line longer than a block, between short ones.
        let mut long = b"foo\n".to_vec();
        long.extend(std::iter::repeat(b'y').take(300_000));
        long.extend_from_slice(b" kavovo foo\nab\n\n");
        inputs.push(("long".into(), long));
        inputs.push(("empty".into(), Vec::new()));
        inputs.push(("blank".into(), b"\n\n\n".to_vec()));
        inputs.push(("nul".into(), b"foo\0bar\nkavovo\n\0\nz".to_vec()));
        let pats: &[&[&str]] = &[
            &["kavovo"],
            &["foo"],
            &["a[a-z]*"],
            &["^foo"],
            &["foo$"],
            &["^$"],
            &["z*"],
            &["[^q]*kavovo"],
            &["\\s+z"],
            &["o\\s"],
            &["\\bfoo\\b"],
            &["-e", "ab", "-e", "^q"],
            &["(foo|ab) "],
            &["foo b"],
            &["\r$"],
        ];
        let flags: &[&[&str]] = &[
            &[],
            &["-c"],
            &["-o"],
            &["-n"],
            &["-ob"],
            &["-w"],
            &["-i"],
            &["-n", "-m", "5"],
            &["-b"],
            &["-on"],
            &["-wo"],
            &["-x"],
            &["-io"],
            &["-c", "-m", "3"],
            &["-l"],
            &["-L"],
            &["-q"],
            &["-H", "-n"],
            &["-a"],
        ];
        for (name, data) in &inputs {
            let path = format!("{}/{}", d, name);
            std::fs::write(&path, data).unwrap();
            // Every flag on the small inputs; the usual ones across blocks.
            let flags = if data.len() > 1000 { &flags[..8] } else { flags };
            for pat in pats {
                for fl in flags {
                    let mut args: Vec<&str> = fl.to_vec();
                    args.extend_from_slice(pat);
                    args.push(&path);
                    let mut e = vec!["-E"];
                    e.extend_from_slice(&args);
                    let mut p = vec!["-P"];
                    p.extend_from_slice(&args);
                    assert_eq!(run("grep", &e, ""), run("grep", &p, ""), "{:?} on {}", args, name);
                }
            }
            // Standard input takes the same path, also when it comes in
            // pieces that cut lines anywhere (a pipe).
            let text = String::from_utf8_lossy(data).into_owned();
            assert_eq!(run("grep", &["-E", "-n", "foo"], &text), run("grep", &["-P", "-n", "foo"], &text), "stdin {}", name);
            let sizes_list: &[&[usize]] = if data.len() > 1000 { &[&[65_536], &[5, 70_000]] } else { &[&[1, 7, 3], &[2]] };
            for &sizes in sizes_list {
                let piecewise = |mode: &str| {
                    let args: Vec<String> = [mode, "-nb", "-o", "foo|kavovo"].iter().map(|s| s.to_string()).collect();
                    let mut stdin = std::io::BufReader::with_capacity(8, Pieces::new(data, sizes));
                    let (mut out, mut err) = (Vec::new(), Vec::new());
                    let code = crate::run("grep", &args, &mut stdin, &mut out, &mut err);
                    (code, out, err)
                };
                assert!(piecewise("-E") == piecewise("-P"), "stdin {} in {:?}", name, sizes);
            }
        }
    }


    #[test]
    fn context() {
        let t = "a\nb\nc\nd\ne\nf\ng\n";
        check("grep", &["-n", "-C1", "-e", "b", "-e", "f"], t, "1-a\n2:b\n3-c\n--\n5-e\n6:f\n7-g\n", 0);
        check("grep", &["-A1", "c"], t, "c\nd\n", 0);
        check("grep", &["-B2", "c"], t, "a\nb\nc\n", 0);
        check("grep", &["-1", "d"], t, "c\nd\ne\n", 0);
        check("grep", &["-A1", "-e", "b", "-e", "c"], t, "b\nc\nd\n", 0);
    }

    #[test]
    fn errors() {
        check_err("grep", &["\\(a"], "", "grep: Unmatched ( or \\(\n", 2);
        check_err("grep", &[], "", "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2);
        check_err("grep", &["--nope", "x"], "", "grep: unrecognized option '--nope'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2);
        let (code, _, err) = run("grep", &["a", "/definitely/missing"], "");
        assert_eq!((code, err.as_str()), (2, "grep: /definitely/missing: No such file or directory\n"));
        check("grep", &["-s", "a", "/definitely/missing"], "", "", 2);
    }

    #[test]
    fn files_and_recursion() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/src/deep", d)).unwrap();
        std::fs::create_dir_all(format!("{}/node_modules", d)).unwrap();
        write(&format!("{}/src/a.rs", d), "fn main() {}\n");
        write(&format!("{}/src/deep/b.txt", d), "main street\n");
        write(&format!("{}/node_modules/c.rs", d), "main\n");
        write(&format!("{}/bin", d), "main\0\n");
        check("grep", &["-r", "main", &format!("{}/src", d)], "", &format!("{d}/src/a.rs:fn main() {{}}\n{d}/src/deep/b.txt:main street\n", d = d), 0);
        check("grep", &["-rl", "--include=*.rs", "main", &d], "", &format!("{d}/node_modules/c.rs\n{d}/src/a.rs\n", d = d), 0);
        check("grep", &["-rl", "--exclude-dir=node_modules", "--exclude=*.txt", "main", &d], "", &format!("{d}/bin\n{d}/src/a.rs\n", d = d), 0);
        check("grep", &["-r", "main", &format!("{}/src/a.rs", d)], "", "fn main() {}\n", 0);
        write(&format!("{}/empty.pat", d), "");
        check("grep", &["-c", "-f", &format!("{}/empty.pat", d), &format!("{}/src/a.rs", d)], "", "", 1);
        check("grep", &["-v", "-f", &format!("{}/empty.pat", d), &format!("{}/src/a.rs", d)], "", "fn main() {}\n", 0);
        check("grep", &["-c", "main", &format!("{}/src/a.rs", d), &format!("{}/src/deep/b.txt", d)], "", &format!("{d}/src/a.rs:1\n{d}/src/deep/b.txt:1\n", d = d), 0);
        let (code, out, err) = run("grep", &["main", &format!("{}/bin", d)], "");
        assert_eq!((code, out.as_str(), err), (0, "", format!("grep: {}/bin: binary file matches\n", d)));
        let (code, _, err) = run("grep", &["main", &format!("{}/src", d)], "");
        assert_eq!((code, err), (2, format!("grep: {}/src: Is a directory\n", d)));
    }
}
