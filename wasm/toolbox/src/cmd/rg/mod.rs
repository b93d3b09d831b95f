//! rg: ripgrep's command line, the part agents use. Output follows ripgrep
//! 14 when stdout is not a terminal (no colour, no line numbers unless -n,
//! no headings unless --heading).
//!
//! Supported:
//!   rg [OPTIONS] PATTERN [PATH...]    rg [OPTIONS] -e PATTERN... [PATH...]
//!   rg [OPTIONS] --files [PATH...]    rg --type-list
//! Patterns use the `regex` crate's syntax (as ripgrep does). No PATH means
//! stdin when it is a pipe or a file (ripgrep's rule), else `.` (paths then
//! print without `./`); `-` names stdin.
//! Matching: -e -f -F -i -s -S -w -x -v; -P/--pcre2 and --engine auto|pcre2
//! use fancy-regex (look-around, backreferences; crate::pcre).
//! Output: -n -N --column --no-column -b -H -I --heading --no-heading -p
//!   -0 -o -r/--replace ($0 $1 ${name} $$) -c --count-matches --include-zero
//!   -l --files-without-match -q -m -A -B -C --context-separator --passthru
//!   --vimgrep --trim -M/--max-columns (--max-columns-preview) --color/--colors
//!   (ripgrep's palette with `always`), --stats, --null-data, --crlf,
//!   --field-match-separator --field-context-separator --path-separator.
//! Walk: --hidden/-. --no-ignore --no-ignore-vcs --no-ignore-dot
//!   --no-ignore-parent -u/-uu/-uuu -g/--glob --iglob --glob-case-insensitive
//!   -t/-T (built-in table, see --type-list) -d/--max-depth -L (accepted)
//!   -a/--text --binary --files --sort path|none --sort-files -j (ignored)
//!   --no-config (ignored) --no-messages.
//! Types: --type-add --type-clear. Ignore: --ignore-file (below every ignore file).
//! -z searches .gz files. Tuning flags (--mmap, --dfa-size-limit, -j ...) change nothing.
//! -U/--multiline and --multiline-dotall: multiline.rs (not with -v, context,
//! -r, --vimgrep or --column).
//! --json: json.rs (not with -c, -l, -U).
//! Refused with an error: --pre/--pre-glob, --pcre2-version,
//! encodings but UTF-8, and anything unknown.
//! Differences from ripgrep, kept simple on purpose:
//! - .gitignore is honoured in any directory, git repository or not; ignore
//!   files of the directories above a search root are read too.
//! - `.git` directories are never searched, even with --hidden.
//! - Binary: a NUL in the first 8 KiB makes a file binary. Walked binary files
//!   are skipped (unless --binary or -uuu); a binary file named on the
//!   command line (or stdin, or walked with --binary) prints
//!   `binary file matches (found "\0" byte around offset N)` (prefixed with
//!   `PATH: ` when names are shown) instead of its lines; N is the first NUL's
//!   offset. -c/-l/-q count such a file's lines as text. -a searches binary
//!   files as text.
//! - `-g` globs match the path as printed (without a leading `./`); a glob
//!   without `/` matches the file name.
//! - Error numbers in messages use Linux's values (ENOENT is os error 2).

mod color;
mod json;
mod multiline;
mod walk;

use crate::args::{self, flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::fsx;
use crate::pcre::{self as engine, Engine, Groups};
use regex::bytes::{Regex, RegexBuilder};
use std::collections::VecDeque;
use std::io::{self, Write};
use walk::{Entry, Filter, Rule};

const SPECS: &[Spec] = &[
    val('e', "regexp", "e"),
    val('f', "file", "f"),
    flag('i', "ignore-case", "i"),
    flag('s', "case-sensitive", "s"),
    flag('S', "smart-case", "S"),
    flag('F', "fixed-strings", "F"),
    flag('\0', "no-fixed-strings", "no-F"),
    flag('w', "word-regexp", "w"),
    flag('x', "line-regexp", "x"),
    flag('v', "invert-match", "v"),
    flag('P', "pcre2", "P"),
    flag('c', "count", "c"),
    flag('\0', "count-matches", "count-matches"),
    flag('\0', "include-zero", "include-zero"),
    flag('l', "files-with-matches", "l"),
    flag('\0', "files-without-match", "files-without-match"),
    flag('o', "only-matching", "o"),
    val('r', "replace", "r"),
    val('m', "max-count", "m"),
    val('A', "after-context", "A"),
    val('B', "before-context", "B"),
    val('C', "context", "C"),
    val('\0', "context-separator", "context-separator"),
    flag('\0', "passthru", "passthru"),
    flag('\0', "passthrough", "passthru"),
    flag('q', "quiet", "q"),
    flag('\0', "files", "files"),
    val('g', "glob", "g"),
    val('\0', "iglob", "iglob"),
    flag('\0', "glob-case-insensitive", "glob-ci"),
    val('t', "type", "t"),
    val('T', "type-not", "T"),
    flag('\0', "type-list", "type-list"),
    flag('0', "null", "0"),
    val('\0', "color", "color"),
    val('\0', "colour", "color"),
    val('\0', "colors", "colors"),
    flag('\0', "no-messages", "no-messages"),
    flag('U', "multiline", "U"),
    flag('\0', "json", "json"),
    val('\0', "pre", "pre"),
    flag('V', "", "V"),
    flag('h', "", "h"),
    flag('n', "line-number", "n"),
    flag('N', "no-line-number", "N"),
    flag('\0', "column", "column"),
    flag('\0', "no-column", "no-column"),
    flag('b', "byte-offset", "b"),
    flag('\0', "heading", "heading"),
    flag('\0', "no-heading", "no-heading"),
    flag('p', "pretty", "p"),
    flag('H', "with-filename", "H"),
    flag('I', "no-filename", "I"),
    flag('.', "hidden", "hidden"),
    flag('\0', "no-hidden", "no-hidden"),
    flag('u', "unrestricted", "u"),
    flag('\0', "no-ignore", "no-ignore"),
    flag('\0', "no-ignore-vcs", "no-ignore-vcs"),
    flag('\0', "no-ignore-dot", "no-ignore-dot"),
    flag('\0', "no-ignore-parent", "no-ignore-parent"),
    flag('a', "text", "a"),
    flag('\0', "binary", "binary"),
    val('d', "max-depth", "max-depth"),
    val('\0', "maxdepth", "max-depth"),
    flag('L', "follow", "L"),
    val('j', "threads", "ignored"),
    val('\0', "sort", "sort"),
    flag('\0', "sort-files", "ignored"),
    flag('\0', "no-config", "ignored"),
    flag('\0', "vimgrep", "vimgrep"),
    flag('\0', "trim", "trim"),
    val('M', "max-columns", "max-columns"),
    flag('\0', "max-columns-preview", "max-columns-preview"),
    flag('z', "search-zip", "z"),
    val('\0', "ignore-file", "ignore-file"),
    flag('\0', "ignore-file-case-insensitive", "ignore-file-ci"),
    flag('\0', "no-ignore-files", "no-ignore-files"),
    flag('\0', "crlf", "crlf"),
    flag('\0', "null-data", "null-data"),
    flag('\0', "stats", "stats"),
    val('\0', "type-add", "type-add"),
    val('\0', "type-clear", "type-clear"),
    val('\0', "sortr", "sortr"),
    val('\0', "field-context-separator", "field-context-separator"),
    val('\0', "field-match-separator", "field-match-separator"),
    val('\0', "path-separator", "path-separator"),
    flag('\0', "no-unicode", "no-unicode"),
    flag('\0', "unicode", "unicode"),
    val('E', "encoding", "encoding"),
    val('\0', "engine", "engine"),
    flag('\0', "multiline-dotall", "dotall"),
    val('\0', "pre-glob", "pre"),
    flag('\0', "pcre2-version", "pcre2-version"),
    // Tuning and diagnostics that change nothing in what is printed here.
    flag('\0', "auto-hybrid-regex", "auto"),
    flag('\0', "block-buffered", "ignored"),
    flag('\0', "line-buffered", "ignored"),
    val('\0', "dfa-size-limit", "ignored"),
    val('\0', "regex-size-limit", "ignored"),
    flag('\0', "mmap", "ignored"),
    flag('\0', "no-mmap", "ignored"),
    flag('\0', "no-pcre2-unicode", "no-unicode"),
    flag('\0', "one-file-system", "ignored"),
    flag('\0', "debug", "ignored"),
    flag('\0', "trace", "ignored"),
    // No global gitignore or .git/info/exclude is read, and .gitignore counts outside git
    // repositories too (see above), so these have nothing to turn off.
    flag('\0', "no-ignore-global", "ignored"),
    flag('\0', "no-ignore-exclude", "ignored"),
    flag('\0', "no-ignore-messages", "ignored"),
    flag('\0', "no-require-git", "ignored"),
];

const USAGE: &str = "ripgrep 14.1.0 (toolshed toolbox)
Recursively search the current directory for lines matching a pattern.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list

OPTIONS (a subset of ripgrep's):
  -e, --regexp PAT      a pattern (repeatable)    -f, --file FILE  patterns from FILE
  -F, --fixed-strings   -i/-s/-S  ignore case / case-sensitive / smart case
  -w, --word-regexp     -x, --line-regexp         -v, --invert-match
  -n/-N  line numbers on/off   --column   -b, --byte-offset   --vimgrep
  -H/-I  with/without file names   --heading/--no-heading   -p, --pretty
  -o, --only-matching   -r, --replace REPL ($1, ${name})   -0, --null
  -c, --count   --count-matches   --include-zero   -q, --quiet
  -l, --files-with-matches   --files-without-match   -m, --max-count N
  -A/-B/-C N  context   --context-separator SEP   --passthru
  --trim   -M, --max-columns N
  --files   -g, --glob GLOB ('!' excludes)   --iglob GLOB   --glob-case-insensitive
  -t/-T TYPE   --type-list   --hidden (-.)   --no-ignore   --no-ignore-vcs
  --no-ignore-dot   --no-ignore-parent   -u/-uu/-uuu   -d, --max-depth N
  -a, --text   --binary   -L, --follow   --no-messages   --sort path
Not supported: --pre; -U with -v, context, -r, --vimgrep or --column.

Exit status: 0 if something matched, 1 if nothing did, 2 on error.
";

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Lines,
    Count,
    CountMatches,
    FilesWith,
    FilesWithout,
    Quiet,
}

/// The compiled pattern. With -w the user's pattern is wrapped as
/// `(?:^|\W)(PAT)(?:\W|$)` and group 1 is the match, so user group `i` is
/// group `i + shift` here.
struct Matcher {
    re: Engine,
    shift: usize,
    names: Vec<Option<String>>,
    /// The same pattern in multi-line mode, run over a whole file to jump to
    /// the next line that can match. Every line match is also a match of
    /// this one (`^`/`$` match at line ends), so no line is missed; a hit may
    /// be spurious (e.g. `\s` across a newline) and is re-checked per line.
    /// None when the pattern uses `\A`, `\z` or turns multi-line mode off.
    scan: Option<Regex>,
}

/// Whether running the pattern over a whole buffer in multi-line mode finds
/// every line that matches alone (see Matcher::scan).
fn scan_safe(pat: &str) -> bool {
    if pat.contains("\\A") || pat.contains("\\z") {
        return false;
    }
    // A flag group that clears flags, like `(?-m)` or `(?i-m:...)`.
    let b = pat.as_bytes();
    !b.windows(2).enumerate().any(|(i, w)| {
        w == b"(?" && b[i + 2..].iter().take_while(|c| c.is_ascii_alphabetic() || **c == b'-').any(|&c| c == b'-')
    })
}

struct Cfg {
    matcher: Option<Matcher>,
    /// Captures are needed (for -w or --replace); otherwise plain find.
    captures: bool,
    invert: bool,
    mode: Mode,
    max: Option<u64>,
    only: bool,
    replace: Option<Vec<u8>>,
    line_numbers: bool,
    column: bool,
    vimgrep: bool,
    byte_offset: bool,
    heading: bool,
    with_filename: bool,
    null: bool,
    before: usize,
    after: usize,
    ctx_sep: Vec<u8>,
    trim: bool,
    max_columns: Option<usize>,
    text: bool,
    binary_walk: bool,
    include_zero: bool,
    max_columns_preview: bool,
    search_zip: bool,
    crlf: bool,
    /// -U with a pattern that can match a line terminator (multiline.rs).
    multiline: bool,
    /// --json (json.rs).
    json: bool,
    /// The line terminator: NUL with --null-data.
    eol: u8,
    /// `--color always` (stdout is never a terminal here, so `auto` means never).
    colors: Option<color::Colors>,
    stats: bool,
    field_match_sep: Vec<u8>,
    field_context_sep: Vec<u8>,
    /// --path-separator: printed paths use this byte instead of `/`.
    path_sep: Option<u8>,
}

/// State that spans files.
struct State {
    /// --stats: matches, matched lines, files with matches, files searched, bytes printed, bytes searched.
    stats: [u64; 6],
    matched: bool,
    error: bool,
    /// Some file already printed output (separators go between files).
    printed_file: bool,
    stop: bool,
    /// --json totals for the summary line.
    json: json::Totals,
}

/// Error text the way ripgrep shows it, with Linux's errno value (WASI's
/// numbers differ), e.g. `No such file or directory (os error 2)`.
fn os_msg(e: &io::Error) -> String {
    let code = match e.kind() {
        io::ErrorKind::NotFound => Some(2),
        io::ErrorKind::PermissionDenied => Some(13),
        _ => e.raw_os_error(),
    };
    match code {
        Some(n) => format!("{} (os error {})", reason(e), n),
        None => reason(e),
    }
}

/// Smart case: any uppercase letter that is not part of an escape (`\S`,
/// `\W`, `\p{Lu}` ...) makes the search case-sensitive.
fn has_uppercase(pat: &str, fixed: bool) -> bool {
    if fixed {
        return pat.chars().any(|c| c.is_uppercase());
    }
    let mut it = pat.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('p') | Some('P') => {
                    if it.peek() == Some(&'{') {
                        for d in it.by_ref() {
                            if d == '}' {
                                break;
                            }
                        }
                    } else {
                        it.next();
                    }
                }
                _ => {}
            }
            continue;
        }
        if c.is_uppercase() {
            return true;
        }
    }
    false
}

fn parse_usize(ctx: &mut Ctx, flag: &str, v: &str) -> Option<usize> {
    match v.parse::<usize>() {
        Ok(n) => Some(n),
        Err(e) => {
            ctx.diag.error(format!("error parsing flag {}: invalid number: {}", flag, e));
            None
        }
    }
}

pub fn run(ctx: &mut Ctx, argv: &[String]) -> Res {
    let p = match args::parse(argv, SPECS) {
        Ok(p) => p,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
    if p.has(args::HELP) || p.has("h") {
        ctx.out.write_all(USAGE.as_bytes())?;
        return Ok(0);
    }
    if p.has(args::VERSION) || p.has("V") {
        ctx.out.write_all(b"ripgrep 14.1.0 (toolshed toolbox)\n")?;
        return Ok(0);
    }
    for (key, what) in [
        ("pre", "--pre/--pre-glob preprocessors (no commands can run here)"),
        ("pcre2-version", "PCRE2 (--pcre2-version)"),
    ] {
        if p.has(key) {
            ctx.diag.error(format!("{} is not supported by this rg", what));
            return Ok(2);
        }
    }
    let mut types = walk::Types::builtin();
    for o in &p.opts {
        let v = o.val.as_deref().unwrap_or("");
        match o.key {
            "type-clear" => types.clear(v),
            "type-add" => {
                if let Err(m) = types.add(v) {
                    ctx.diag.error(m);
                    return Ok(2);
                }
            }
            _ => {}
        }
    }
    if p.has("type-list") {
        for (name, globs) in &types.0 {
            writeln!(ctx.out, "{}: {}", name, globs.join(", "))?;
        }
        return Ok(0);
    }
    let mut ops = p.operands.clone();
    let files_mode = p.has("files");

    // Patterns.
    let mut patterns: Vec<String> = Vec::new();
    let mut have_pattern_flag = false;
    for o in &p.opts {
        match o.key {
            "e" => {
                have_pattern_flag = true;
                patterns.push(o.val.clone().unwrap_or_default());
            }
            "f" => {
                have_pattern_flag = true;
                let name = o.val.clone().unwrap_or_default();
                let mut text = Vec::new();
                let res = if name == "-" {
                    ctx.stdin.read_to_end(&mut text).map(|_| ())
                } else {
                    std::fs::read(fsx::host(&name)).map(|b| text = b)
                };
                if let Err(e) = res {
                    ctx.diag.error(format!("{}: {}", name, os_msg(&e)));
                    return Ok(2);
                }
                let t = String::from_utf8_lossy(&text).into_owned();
                for l in t.lines() {
                    patterns.push(l.to_string());
                }
            }
            _ => {}
        }
    }
    if !have_pattern_flag && !files_mode {
        if ops.is_empty() {
            ctx.diag.error("ripgrep requires at least one pattern to execute a search");
            return Ok(2);
        }
        patterns.push(ops.remove(0));
    }

    let fixed = p.opts.iter().rev().find(|o| o.key == "F" || o.key == "no-F").map(|o| o.key == "F").unwrap_or(false);
    let case = p.last_key(&["i", "s", "S"]);
    // Only UTF-8 (and plain bytes) are read here; `auto` is that for text without a BOM.
    if let Some(e) = p.last("encoding") {
        if !matches!(e.to_ascii_lowercase().as_str(), "auto" | "none" | "utf-8" | "utf8") {
            ctx.diag.error(format!("-E/--encoding {} is not supported by this rg (only utf-8)", e));
            return Ok(2);
        }
    }
    if let Some(e) = p.last("engine") {
        if !matches!(e, "default" | "auto" | "pcre2") {
            ctx.diag.error(format!("--engine {} is not supported by this rg (default, auto or pcre2)", e));
            return Ok(2);
        }
    }
    let unicode = p.last_key(&["unicode", "no-unicode"]) != Some("no-unicode");
    let icase = match case {
        Some("i") => true,
        Some("S") => !patterns.iter().any(|pt| has_uppercase(pt, fixed)),
        _ => false,
    };

    // -P always backtracks; `auto` only when the default engine cannot
    // compile the pattern (look-around, backreferences).
    let engine = match p.last_key(&["P", "auto", "engine"]) {
        Some("P") => "pcre2",
        Some("auto") => "auto",
        Some(_) => p.last("engine").unwrap_or("default"),
        None => "default",
    };
    let word = p.has("w");
    let line = p.has("x");
    let multiline = p.has("U");
    // --multiline-dotall only changes -U searches, as in ripgrep.
    let dotall = multiline && p.has("dotall");
    if p.has("json") {
        for (key, what) in [("c", "--count"), ("count-matches", "--count-matches"), ("l", "--files-with-matches"), ("files-without-match", "--files-without-match"), ("U", "-U/--multiline"), ("vimgrep", "--vimgrep"), ("files", "--files")] {
            if p.has(key) {
                ctx.diag.error(format!("the argument '{}' cannot be used with '--json'", what));
                return Ok(2);
            }
        }
    }
    if multiline {
        for (key, what) in [("v", "-v"), ("A", "-A"), ("B", "-B"), ("C", "-C"), ("r", "-r/--replace"), ("vimgrep", "--vimgrep"), ("column", "--column")] {
            if p.has(key) {
                ctx.diag.error(format!("-U/--multiline with {} is not supported by this rg", what));
                return Ok(2);
            }
        }
    }
    let matcher = if files_mode || patterns.is_empty() {
        None
    } else {
        let mut parts = Vec::new();
        let mut backtrack = engine == "pcre2";
        for pt in &patterns {
            let s = if fixed { regex::escape(pt) } else { pt.clone() };
            // Compile each pattern alone first so errors quote what the user wrote.
            let plain = if backtrack { Ok(()) } else { RegexBuilder::new(&s).case_insensitive(icase).unicode(unicode).build().map(|_| ()).map_err(|e| e.to_string()) };
            let res = match plain {
                Err(_) if engine == "auto" && engine::fancy(&s, icase).is_ok() => {
                    backtrack = true;
                    Ok(())
                }
                Ok(()) if backtrack => engine::fancy(&s, icase).map(|_| ()),
                r => r,
            };
            if let Err(e) = res {
                ctx.diag.error(e);
                return Ok(2);
            }
            parts.push(s);
        }
        let body = if parts.len() == 1 { parts[0].clone() } else { parts.iter().map(|s| format!("(?:{})", s)).collect::<Vec<_>>().join("|") };
        let (full, shift) = if line {
            (format!("^(?:{})$", body), 0)
        } else if word && backtrack {
            // Look-around keeps the user's group numbers (and backreferences) as written.
            (format!(r"(?<!\w)(?:{})(?!\w)", body), 0)
        } else if word {
            (format!(r"(?:^|\W)({})(?:\W|$)", body), 1)
        } else {
            (body, 0)
        };
        let built = if backtrack {
            let flags = match (multiline, dotall) {
                (true, true) => "(?ms)",
                (true, false) => "(?m)",
                _ => "",
            };
            engine::fancy(&format!("{}{}", flags, full), icase).map(Engine::Fancy)
        } else {
            let b = RegexBuilder::new(&full).case_insensitive(icase).unicode(unicode).multi_line(multiline).dot_matches_new_line(dotall).build();
            b.map(Engine::Plain).map_err(|e| e.to_string())
        };
        match built {
            Ok(re) => {
                let names = re.names();
                let scan = if !backtrack && scan_safe(&full) { RegexBuilder::new(&full).case_insensitive(icase).unicode(unicode).multi_line(true).build().ok() } else { None };
                Some(Matcher { re, shift, names, scan })
            }
            Err(e) => {
                ctx.diag.error(e);
                return Ok(2);
            }
        }
    };

    // Numbers.
    let mut nums = [None; 5];
    for (i, (key, flag)) in [("A", "-A"), ("B", "-B"), ("C", "-C"), ("m", "-m"), ("max-depth", "--max-depth")].iter().enumerate() {
        if let Some(v) = p.last(key) {
            match parse_usize(ctx, flag, v) {
                Some(n) => nums[i] = Some(n),
                None => return Ok(2),
            }
        }
    }
    let max_columns = match p.last("max-columns") {
        Some(v) => match parse_usize(ctx, "-M", v) {
            Some(0) => None,
            Some(n) => Some(n),
            None => return Ok(2),
        },
        None => None,
    };
    let passthru = p.has("passthru");
    let (mut before, mut after) = (nums[1].or(nums[2]).unwrap_or(0), nums[0].or(nums[2]).unwrap_or(0));
    if passthru {
        before = usize::MAX;
        after = usize::MAX;
    }

    // Walk filter.
    let u = p.opts.iter().filter(|o| o.key == "u").count();
    let no_ignore = p.has("no-ignore") || u >= 1;
    let hidden = p.last_key(&["hidden", "no-hidden"]) == Some("hidden") || u >= 2;
    let text = p.has("a");
    // --binary (and -uuu) treat walked binary files like ones named explicitly.
    let binary_walk = p.has("binary") || u >= 3;
    let glob_ci = p.has("glob-ci");
    let mut overrides = Vec::new();
    for o in &p.opts {
        let icase = match o.key {
            "g" => glob_ci,
            "iglob" => true,
            _ => continue,
        };
        // Parsed like an ignore-file line; the walk reads `!` as "exclude".
        if let Some(r) = Rule::parse(o.val.as_deref().unwrap_or(""), icase) {
            overrides.push(r);
        }
    }
    let mut types_select = Vec::new();
    let mut types_negate = Vec::new();
    for o in &p.opts {
        if o.key == "t" || o.key == "T" {
            let name = o.val.as_deref().unwrap_or("");
            match types.lookup(name) {
                Some(g) => {
                    if o.key == "t" {
                        types_select.push(g)
                    } else {
                        types_negate.push(g)
                    }
                }
                None => {
                    ctx.diag.error(format!("unrecognized file type: {}", name));
                    return Ok(2);
                }
            }
        }
    }
    for key in ["sort", "sortr"] {
        if let Some(s) = p.last(key) {
            if !matches!(s, "path" | "none") {
                ctx.diag.error(format!("--{} {} is not supported by this rg (only path and none)", key, s));
                return Ok(2);
            }
        }
    }
    let reverse = p.last_key(&["sort", "sortr"]) == Some("sortr") && p.last("sortr") == Some("path");
    let mut colors = color::Colors::default();
    for spec in p.all("colors") {
        if let Err(m) = colors.apply(spec) {
            ctx.diag.error(m);
            return Ok(2);
        }
    }
    let colors = match p.last("color") {
        Some("always") | Some("ansi") => Some(colors),
        Some("never") | Some("auto") | None => None,
        Some(other) => {
            ctx.diag.error(format!("invalid value for --color: {} (always, ansi, auto or never)", other));
            return Ok(2);
        }
    };
    let mut extra = Vec::new();
    if !no_ignore && !p.has("no-ignore-files") {
        for f in p.all("ignore-file") {
            match std::fs::read(fsx::host(f)) {
                Ok(b) => extra.extend(walk::parse_rules_case(&String::from_utf8_lossy(&b), p.has("ignore-file-ci"))),
                Err(e) => {
                    if !p.has("no-messages") {
                        ctx.diag.warn(format!("{}: {}", f, os_msg(&e)));
                    }
                }
            }
        }
    }
    let filter = Filter {
        hidden,
        ignore_kinds: if no_ignore {
            [false; 3]
        } else {
            // .rgignore, .ignore, .gitignore
            [true, !p.has("no-ignore-dot"), !p.has("no-ignore-vcs")]
        },
        parents: !p.has("no-ignore-parent"),
        overrides,
        types_select,
        types_negate,
        max_depth: nums[4],
        follow: p.has("L"),
        extra,
        extra_base: fsx::normal("."),
    };

    let implicit = ops.is_empty();
    if implicit {
        // ripgrep searches a piped or redirected stdin when no path is given
        let stdin = !files_mode && crate::host::stdin_is_readable();
        ops.push(if stdin { "-" } else { "." }.to_string());
    }
    let vimgrep = p.has("vimgrep");
    let with_filename = match p.last_key(&["H", "I"]) {
        Some(k) => k == "H",
        None => vimgrep || ops.len() > 1 || (ops[0] != "-" && fsx::is_dir(&ops[0])),
    };
    let pretty = p.has("p");
    let heading = p.last_key(&["heading", "no-heading"]).map(|k| k == "heading").unwrap_or(pretty) && !vimgrep;
    let column = p.last_key(&["column", "no-column"]) == Some("column") || vimgrep;
    // --column implies line numbers unless -N comes after it.
    let line_numbers = p.last_key(&["n", "N"]).map(|k| k == "n").unwrap_or(pretty || column) || vimgrep;

    let mode = if p.has("q") {
        Mode::Quiet
    } else if p.has("l") {
        Mode::FilesWith
    } else if p.has("files-without-match") {
        Mode::FilesWithout
    } else if p.has("count-matches") || (p.has("c") && p.has("o")) {
        Mode::CountMatches
    } else if p.has("c") {
        Mode::Count
    } else {
        Mode::Lines
    };
    let replace = p.last("r").map(|s| s.as_bytes().to_vec());
    let cfg = Cfg {
        captures: word || replace.is_some(),
        multiline: multiline && patterns.iter().any(|pt| multiline::crosses_lines(pt, dotall)),
        json: p.has("json"),
        matcher,
        invert: p.has("v"),
        mode,
        max: nums[3].map(|n| n as u64),
        only: p.has("o"),
        replace,
        line_numbers,
        column,
        vimgrep,
        byte_offset: p.has("b"),
        heading,
        with_filename,
        null: p.has("0"),
        before,
        after,
        ctx_sep: p.last("context-separator").unwrap_or("--").as_bytes().to_vec(),
        trim: p.has("trim"),
        max_columns,
        text,
        binary_walk,
        include_zero: p.has("include-zero"),
        max_columns_preview: p.has("max-columns-preview"),
        search_zip: p.has("z"),
        crlf: p.has("crlf"),
        eol: if p.has("null-data") { 0 } else { b'\n' },
        colors,
        stats: p.has("stats"),
        field_match_sep: p.last("field-match-separator").unwrap_or(":").as_bytes().to_vec(),
        field_context_sep: p.last("field-context-separator").unwrap_or("-").as_bytes().to_vec(),
        path_sep: p.last("path-separator").and_then(|s| s.bytes().next()),
    };
    let no_messages = p.has("no-messages");
    let started = std::time::Instant::now();
    let mut st = State { stats: [0; 6], matched: false, error: false, printed_file: false, stop: false, json: [0; 7] };

    for op in &ops {
        if st.stop {
            break;
        }
        if op == "-" {
            if files_mode {
                continue;
            }
            let mut data = Vec::new();
            if let Err(e) = ctx.stdin.read_to_end(&mut data) {
                if !no_messages {
                    ctx.diag.warn(format!("<stdin>: {}", os_msg(&e)));
                }
                st.error = true;
                continue;
            }
            search_one(ctx, &cfg, &mut st, "<stdin>", &data, true)?;
            continue;
        }
        let meta = match fsx::metadata(op) {
            Ok(m) => m,
            Err(e) => {
                if !no_messages {
                    ctx.diag.warn(format!("{}: {}", op, os_msg(&e)));
                }
                st.error = true;
                continue;
            }
        };
        if !meta.is_dir() {
            if files_mode {
                list_file(ctx, &cfg, &mut st, op)?;
            } else {
                search_path(ctx, &cfg, &mut st, op, true, no_messages)?;
            }
            continue;
        }
        let mut entries = filter.walk(op, implicit);
        if reverse {
            entries.reverse();
        }
        for entry in entries {
            if st.stop {
                break;
            }
            match entry {
                Entry::File(path) => {
                    if files_mode {
                        list_file(ctx, &cfg, &mut st, &path)?;
                    } else {
                        search_path(ctx, &cfg, &mut st, &path, false, no_messages)?;
                    }
                }
                Entry::Error(path, e) => {
                    if !no_messages {
                        ctx.diag.warn(format!("{}: {}", path, os_msg(&e)));
                    }
                    st.error = true;
                }
            }
        }
    }
    if cfg.json {
        let mut line = Vec::new();
        json::summary(&mut line, &st.json, started.elapsed());
        ctx.out.write_all(&line)?;
    }
    if cfg.stats && cfg.mode != Mode::Quiet {
        let s = st.stats;
        let secs = started.elapsed().as_secs_f64();
        write!(
            ctx.out,
            "\n{} matches\n{} matched lines\n{} files contained matches\n{} files searched\n{} bytes printed\n{} bytes searched\n{:.6} seconds spent searching\n{:.6} seconds\n",
            s[0], s[1], s[2], s[3], s[4], s[5], secs, secs
        )?;
    }
    Ok(if st.matched && (!st.error || cfg.mode == Mode::Quiet) {
        0
    } else if st.error {
        2
    } else {
        1
    })
}

/// Which of several mutually overriding flags came last.

fn list_file(ctx: &mut Ctx, cfg: &Cfg, st: &mut State, path: &str) -> io::Result<()> {
    st.matched = true;
    if cfg.mode == Mode::Quiet {
        st.stop = true;
        return Ok(());
    }
    match cfg.path_sep {
        Some(c) => ctx.out.write_all(&path.bytes().map(|b| if b == b'/' { c } else { b }).collect::<Vec<u8>>())?,
        None => ctx.out.write_all(path.as_bytes())?,
    }
    ctx.out.write_all(if cfg.null { b"\0" } else { b"\n" })
}

fn search_path(ctx: &mut Ctx, cfg: &Cfg, st: &mut State, path: &str, explicit: bool, no_messages: bool) -> io::Result<()> {
    match std::fs::read(fsx::host(path)) {
        // -z: gzip files are searched decompressed (the other formats need programs not here).
        Ok(data) if cfg.search_zip && path.ends_with(".gz") => match crate::cmd::gz::decompress(&data) {
            Ok(plain) => search_one(ctx, cfg, st, path, &plain, explicit),
            Err(m) => {
                if !no_messages {
                    ctx.diag.warn(format!("{}: {}", path, m));
                }
                st.error = true;
                Ok(())
            }
        },
        Ok(data) => search_one(ctx, cfg, st, path, &data, explicit),
        Err(e) => {
            if !no_messages {
                ctx.diag.warn(format!("{}: {}", path, os_msg(&e)));
            }
            st.error = true;
            Ok(())
        }
    }
}

fn search_one(ctx: &mut Ctx, cfg: &Cfg, st: &mut State, path: &str, data: &[u8], explicit: bool) -> io::Result<()> {
    let mut out = Vec::new();
    let mut searcher = Searcher::new(cfg, path);
    let matched = searcher.search(data, explicit, st, &mut out);
    if cfg.json {
        searcher.json_end(st, &mut out);
    }
    st.stats[3] += 1;
    st.stats[5] += data.len() as u64;
    if cfg.mode == Mode::Lines {
        st.stats[4] += out.len() as u64;
    }
    if matched && cfg.mode != Mode::FilesWithout {
        st.stats[2] += 1;
    }
    if matched {
        st.matched = true;
        if cfg.mode == Mode::Quiet {
            st.stop = true;
        }
    }
    ctx.out.write_all(&out)
}

/// Searches one file's bytes.
struct Searcher<'c> {
    cfg: &'c Cfg,
    path: &'c str,
    locs: Option<Groups>,
    /// Line number of the last line printed in this file (0: none yet).
    last_printed: u64,
    started: bool,
    /// --json: where this file's output began, its matched lines and
    /// matches, the file's length and when the search started.
    json_from: usize,
    json_counts: [u64; 2],
    data_len: usize,
    began: std::time::Instant,
}

impl<'c> Searcher<'c> {
    fn new(cfg: &'c Cfg, path: &'c str) -> Self {
        let locs = cfg.matcher.as_ref().filter(|_| cfg.captures).map(|m| m.re.groups());
        Searcher { cfg, path, locs, last_printed: 0, started: false, json_from: 0, json_counts: [0; 2], data_len: 0, began: std::time::Instant::now() }
    }

    /// The next match in `line` at or after `from` (the -w wrapper's group 1).
    fn find_at(&mut self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        let m = self.cfg.matcher.as_ref()?;
        let line = self.crlf_strip(line);
        if from > line.len() {
            return None;
        }
        match self.locs.as_mut() {
            None => m.re.find_at(line, from),
            Some(locs) => {
                m.re.captures_at(locs, line, from)?;
                locs.get(m.shift)
            }
        }
    }

    /// All matches in `line` the way `find_iter` walks them: an empty match
    /// right where the previous one ended is skipped.
    fn matches(&mut self, line: &[u8], mut f: impl FnMut(&mut Self, usize, usize)) {
        let mut pos = 0;
        let mut last_end = usize::MAX;
        while pos <= line.len() {
            let (s, e) = match self.find_at(line, pos) {
                Some(m) => m,
                None => break,
            };
            if s == e && e == last_end {
                pos = e + 1;
                continue;
            }
            f(self, s, e);
            last_end = e;
            pos = if e > s { e } else { e + 1 };
        }
    }

    /// --crlf: a line's `\r\n` ends it, so `$` matches before the `\r`.
    fn crlf_strip<'l>(&self, line: &'l [u8]) -> &'l [u8] {
        match (self.cfg.crlf, line.last()) {
            (true, Some(b'\r')) => &line[..line.len() - 1],
            _ => line,
        }
    }

    fn is_match(&mut self, line: &[u8]) -> bool {
        match &self.cfg.matcher {
            None => false,
            Some(m) if self.locs.is_none() => m.re.is_match(self.crlf_strip(line)),
            Some(_) => self.find_at(line, 0).is_some(),
        }
    }

    /// Appends the replacement for the match whose groups are in `locs`:
    /// `$N`, `${N}`, `$name`, `${name}`, `$$`; unknown groups are empty.
    fn expand(&self, line: &[u8], out: &mut Vec<u8>) {
        let (m, locs) = match (&self.cfg.matcher, &self.locs) {
            (Some(m), Some(l)) => (m, l),
            _ => return,
        };
        let rep = self.cfg.replace.as_deref().unwrap_or(b"");
        let group = |name: &[u8]| -> Option<usize> {
            let n = std::str::from_utf8(name).ok()?;
            match n.parse::<usize>() {
                Ok(i) => Some(i + m.shift),
                Err(_) => m.names.iter().position(|x| x.as_deref() == Some(n)),
            }
        };
        let mut i = 0;
        while i < rep.len() {
            if rep[i] != b'$' {
                out.push(rep[i]);
                i += 1;
                continue;
            }
            if rep.get(i + 1) == Some(&b'$') {
                out.push(b'$');
                i += 2;
                continue;
            }
            let (name, next) = if rep.get(i + 1) == Some(&b'{') {
                match rep[i + 2..].iter().position(|&c| c == b'}') {
                    Some(k) => (&rep[i + 2..i + 2 + k], i + 3 + k),
                    None => (&rep[i..i], i),
                }
            } else {
                let k = rep[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
                (&rep[i + 1..i + 1 + k], i + 1 + k)
            };
            if name.is_empty() {
                out.push(b'$');
                i += 1;
                continue;
            }
            if let Some(g) = group(name) {
                if let Some((s, e)) = locs.get(g) {
                    out.extend_from_slice(&line[s..e]);
                }
            }
            i = next;
        }
    }

    /// Output for one file before its first line: the separator from the
    /// previous file's output and the --heading line.
    fn begin(&mut self, st: &mut State, out: &mut Vec<u8>) {
        if self.started {
            return;
        }
        self.started = true;
        let cfg = self.cfg;
        if st.printed_file {
            if cfg.heading {
                out.push(cfg.eol);
            } else if cfg.before > 0 || cfg.after > 0 {
                out.extend_from_slice(&cfg.ctx_sep);
                out.push(cfg.eol);
            }
        }
        st.printed_file = true;
        if cfg.heading && cfg.with_filename {
            self.path_into(out);
            out.push(if cfg.null { 0 } else { cfg.eol });
        }
    }

    /// `path:line:col:offset:` with `sep` (`:` for matches, `-` for context).
    fn prefix(&self, out: &mut Vec<u8>, lineno: u64, col: Option<usize>, offset: usize, sep: u8) {
        let cfg = self.cfg;
        let sep: &[u8] = if sep == b':' { &cfg.field_match_sep } else { &cfg.field_context_sep };
        if cfg.with_filename && !cfg.heading {
            self.path_into(out);
            if cfg.null {
                out.push(0);
            } else {
                out.extend_from_slice(sep);
            }
        }
        if cfg.line_numbers {
            self.field(out, |c| &c.line, lineno.to_string().as_bytes());
            out.extend_from_slice(sep);
        }
        if cfg.column {
            if let Some(c) = col {
                self.field(out, |c| &c.column, (c + 1).to_string().as_bytes());
                out.extend_from_slice(sep);
            }
        }
        if cfg.byte_offset {
            self.field(out, |c| &c.column, offset.to_string().as_bytes());
            out.extend_from_slice(sep);
        }
    }

    /// The path as printed (with --path-separator's byte for `/`).
    fn path_into(&self, out: &mut Vec<u8>) {
        let shown: Vec<u8> = match self.cfg.path_sep {
            Some(c) => self.path.bytes().map(|b| if b == b'/' { c } else { b }).collect(),
            None => self.path.as_bytes().to_vec(),
        };
        self.field(out, |c| &c.path, &shown);
    }

    /// A prefix field (path, line number, column, offset), coloured with --color always.
    fn field(&self, out: &mut Vec<u8>, which: impl Fn(&color::Colors) -> &color::Spec, text: &[u8]) {
        match &self.cfg.colors {
            Some(c) => color::paint(out, which(c), text),
            None => out.extend_from_slice(text),
        }
    }

    fn body(&self, out: &mut Vec<u8>, body: &[u8], context: bool, nmatches: usize) {
        let body = if self.cfg.trim {
            let k = body.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\r')).count();
            &body[k..]
        } else {
            body
        };
        match self.cfg.max_columns {
            Some(m) if body.len() > m => {
                if self.cfg.max_columns_preview {
                    let cut = std::str::from_utf8(&body[..m]).map(|_| m).unwrap_or_else(|e| e.valid_up_to());
                    out.extend_from_slice(&body[..cut]);
                    out.extend_from_slice(b" [... omitted end of long line]");
                } else if context {
                    out.extend_from_slice(b"[Omitted long context line]");
                } else {
                    out.extend_from_slice(format!("[Omitted long line with {} matches]", nmatches).as_bytes());
                }
            }
            _ => out.extend_from_slice(body),
        }
        out.push(self.cfg.eol);
    }

    /// The `--` between context groups that are not adjacent.
    fn separate(&mut self, lineno: u64, out: &mut Vec<u8>) {
        let cfg = self.cfg;
        if (cfg.before > 0 || cfg.after > 0) && self.last_printed > 0 && lineno > self.last_printed + 1 {
            out.extend_from_slice(&cfg.ctx_sep);
            out.push(cfg.eol);
        }
        self.last_printed = lineno;
    }

    fn context_line(&mut self, st: &mut State, lineno: u64, offset: usize, line: &[u8], out: &mut Vec<u8>) {
        if self.cfg.json {
            return self.json_line(st, "context", lineno, offset, line, out);
        }
        self.begin(st, out);
        self.separate(lineno, out);
        self.prefix(out, lineno, None, offset, b'-');
        self.body(out, line, true, 0);
    }

    fn match_line(&mut self, st: &mut State, lineno: u64, offset: usize, line: &[u8], out: &mut Vec<u8>) {
        if self.cfg.json {
            return self.json_line(st, "match", lineno, offset, line, out);
        }
        self.begin(st, out);
        self.separate(lineno, out);
        let cfg = self.cfg;
        if cfg.invert {
            self.prefix(out, lineno, None, offset, b':');
            self.body(out, line, false, 0);
            return;
        }
        let mut spans = Vec::new();
        let mut reps: Vec<Vec<u8>> = Vec::new();
        let want_rep = cfg.replace.is_some();
        self.matches(line, |s: &mut Self, a, b| {
            spans.push((a, b));
            if want_rep {
                let mut r = Vec::new();
                s.expand(line, &mut r);
                reps.push(r);
            }
        });
        if cfg.only || cfg.vimgrep {
            for (k, &(a, b)) in spans.iter().enumerate() {
                if a == b && cfg.only {
                    continue;
                }
                self.prefix(out, lineno, Some(a), offset + if cfg.only { a } else { 0 }, b':');
                if cfg.only {
                    let t: &[u8] = if want_rep { &reps[k] } else { &line[a..b] };
                    match &cfg.colors {
                        Some(c) if !cfg.trim && cfg.max_columns.is_none() => {
                            color::paint(out, &c.matched, t);
                            out.push(cfg.eol);
                        }
                        _ => self.body(out, t, false, 1),
                    }
                } else {
                    let l = if want_rep { replaced(line, &spans, &reps) } else { line.to_vec() };
                    self.body(out, &l, false, spans.len());
                }
            }
            return;
        }
        self.prefix(out, lineno, spans.first().map(|m| m.0), offset, b':');
        match &cfg.colors {
            // Each match (or its replacement) painted; the rest as it is.
            Some(c) if !cfg.trim && cfg.max_columns.is_none() => {
                let mut last = 0;
                for (k, &(a, b)) in spans.iter().enumerate() {
                    out.extend_from_slice(&line[last..a]);
                    color::paint(out, &c.matched, if want_rep { &reps[k] } else { &line[a..b] });
                    last = b;
                }
                out.extend_from_slice(&line[last..]);
                out.push(cfg.eol);
            }
            _ if want_rep => {
                let l = replaced(line, &spans, &reps);
                self.body(out, &l, false, spans.len());
            }
            _ => self.body(out, line, false, spans.len()),
        }
    }

    /// Returns whether the file counts as a match for the exit status.
    fn search(&mut self, data: &[u8], explicit: bool, st: &mut State, out: &mut Vec<u8>) -> bool {
        let cfg = self.cfg;
        self.data_len = data.len();
        let head = &data[..data.len().min(8192)];
        // With --null-data NUL ends lines, so it does not make a file binary.
        let nul = if cfg.text || cfg.eol == 0 { None } else { memchr::memchr(0, head) };
        if nul.is_some() && !explicit && !cfg.binary_walk {
            return false;
        }
        if let (Some(off), Mode::Lines) = (nul, cfg.mode) {
            // Binary data named explicitly: NUL bytes split lines, and one
            // message stands for all of the file's matches.
            let mut any = false;
            for l in data.split(|&c| c == b'\n' || c == 0) {
                if self.is_match(l) != cfg.invert {
                    any = true;
                    break;
                }
            }
            if any {
                self.begin(st, out);
                if cfg.with_filename && !cfg.heading {
                    self.path_into(out);
                    out.extend_from_slice(b": ");
                }
                out.extend_from_slice(format!("binary file matches (found \"\\0\" byte around offset {})\n", off).as_bytes());
            }
            return any;
        }
        if cfg.max == Some(0) {
            return self.summary(0, 0, out);
        }
        if cfg.multiline {
            return self.search_multiline(data, st, out);
        }
        let lines_mode = cfg.mode == Mode::Lines;
        let mut ring: VecDeque<(u64, usize, usize)> = VecDeque::new();
        let mut count = 0u64;
        let mut nmatches = 0u64;
        let mut lineno = 0u64;
        let mut after_left = 0usize;
        let mut done = false;
        let mut pos = 0usize;
        // Without -v or context, lines between matches need no look: jump
        // from one candidate line to the next with the whole-buffer scan.
        let scan = match &cfg.matcher {
            Some(m) if !cfg.invert && !cfg.crlf && cfg.eol == b'\n' && cfg.before == 0 && cfg.after == 0 => m.scan.as_ref(),
            _ => None,
        };
        while pos < data.len() {
            if let (Some(sc), false) = (scan, done) {
                let hit = match sc.find_at(data, pos) {
                    Some(m) => m.start(),
                    None => break,
                };
                let line_start = memchr::memrchr(cfg.eol, &data[pos..hit]).map(|i| pos + i + 1).unwrap_or(pos);
                lineno += memchr::memchr_iter(cfg.eol, &data[pos..line_start]).count() as u64;
                pos = line_start;
            }
            let end = memchr::memchr(cfg.eol, &data[pos..]).map(|i| pos + i).unwrap_or(data.len());
            let line = &data[pos..end];
            lineno += 1;
            let start = pos;
            pos = end + 1;
            if done {
                if after_left == 0 {
                    break;
                }
                after_left -= 1;
                self.context_line(st, lineno, start, line, out);
                continue;
            }
            if self.is_match(line) != cfg.invert {
                count += 1;
                if cfg.stats {
                    st.stats[1] += 1;
                    if !cfg.invert {
                        let mut n = 0;
                        self.matches(line, |_, _, _| n += 1);
                        st.stats[0] += n;
                    }
                }
                match cfg.mode {
                    Mode::Quiet | Mode::FilesWith | Mode::FilesWithout => return self.summary(count, 0, out),
                    Mode::CountMatches => {
                        if cfg.invert {
                            nmatches += 1;
                        } else {
                            let mut n = 0;
                            self.matches(line, |_, _, _| n += 1);
                            nmatches += n;
                        }
                    }
                    Mode::Count => {}
                    Mode::Lines => {
                        while let Some((n, s, e)) = ring.pop_front() {
                            if n > self.last_printed {
                                self.context_line(st, n, s, &data[s..e], out);
                            }
                        }
                        self.match_line(st, lineno, start, line, out);
                        after_left = cfg.after;
                    }
                }
                if cfg.max == Some(count) {
                    done = true;
                    if !lines_mode {
                        break;
                    }
                }
            } else if lines_mode {
                if after_left > 0 {
                    after_left -= 1;
                    self.context_line(st, lineno, start, line, out);
                } else if cfg.before > 0 {
                    ring.push_back((lineno, start, end));
                    if ring.len() > cfg.before {
                        ring.pop_front();
                    }
                }
            }
        }
        self.summary(count, nmatches, out)
    }

    /// The per-file line of the summary modes; returns the exit-status match.
    fn summary(&mut self, count: u64, nmatches: u64, out: &mut Vec<u8>) -> bool {
        let cfg = self.cfg;
        let term = if cfg.null { 0 } else { cfg.eol };
        match cfg.mode {
            Mode::Lines | Mode::Quiet => count > 0,
            Mode::FilesWith => {
                if count > 0 {
                    self.path_into(out);
                    out.push(term);
                }
                count > 0
            }
            Mode::FilesWithout => {
                if count == 0 {
                    self.path_into(out);
                    out.push(term);
                }
                count == 0
            }
            Mode::Count | Mode::CountMatches => {
                let n = if cfg.mode == Mode::Count { count } else { nmatches };
                if n > 0 || cfg.include_zero {
                    if cfg.with_filename {
                        self.path_into(out);
                        out.push(if cfg.null { 0 } else { b':' });
                    }
                    out.extend_from_slice(n.to_string().as_bytes());
                    out.push(cfg.eol);
                }
                count > 0
            }
        }
    }
}

/// `line` with each span replaced by its replacement text.
fn replaced(line: &[u8], spans: &[(usize, usize)], reps: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut last = 0;
    for (k, &(a, b)) in spans.iter().enumerate() {
        out.extend_from_slice(&line[last..a]);
        out.extend_from_slice(&reps[k]);
        last = b;
    }
    out.extend_from_slice(&line[last..]);
    out
}

#[cfg(test)]
mod tests;
