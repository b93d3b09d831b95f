//! rg's directory walk: gitignore-style globs, ignore files, `-g` overrides,
//! `-t` file types and hidden-file skipping, in ripgrep's precedence order
//! (overrides, then ignore files, then types, then hidden). Entries come out
//! in path order (each directory's names sorted bytewise, depth first), which
//! is ripgrep's `--sort path` order.

use crate::fsx;
use std::fs;

/// Matches `s` (a `/`-separated path) against a gitignore-style glob: `*`
/// and `?` never cross `/`, `[...]` classes (`!`/`^` negate, ranges), `\`
/// escapes, and `**` as a whole component matches any number of components
/// (`**/x`, `a/**/b`, `a/**`).
pub fn glob_path(pat: &[u8], s: &[u8], icase: bool) -> bool {
    gm(pat, s, icase, true)
}

fn eq(a: u8, b: u8, icase: bool) -> bool {
    a == b || (icase && a.to_ascii_lowercase() == b.to_ascii_lowercase())
}

fn gm(p: &[u8], s: &[u8], ic: bool, at_component: bool) -> bool {
    if p.is_empty() {
        return s.is_empty();
    }
    if at_component && p.starts_with(b"**") && (p.len() == 2 || p[2] == b'/') {
        if p.len() == 2 {
            return true;
        }
        let rest = &p[3..];
        if gm(rest, s, ic, true) {
            return true;
        }
        return s.iter().enumerate().any(|(i, &c)| c == b'/' && gm(rest, &s[i + 1..], ic, true));
    }
    match p[0] {
        b'*' => {
            let mut k = 1;
            while k < p.len() && p[k] == b'*' {
                k += 1;
            }
            let rest = &p[k..];
            for i in 0..=s.len() {
                if gm(rest, &s[i..], ic, false) {
                    return true;
                }
                if i < s.len() && s[i] == b'/' {
                    break;
                }
            }
            false
        }
        b'?' => !s.is_empty() && s[0] != b'/' && gm(&p[1..], &s[1..], ic, false),
        b'[' => {
            if s.is_empty() || s[0] == b'/' {
                return false;
            }
            match crate::text::class_match(p, 0, s[0], ic) {
                Some((true, next)) => gm(&p[next..], &s[1..], ic, false),
                Some((false, _)) => false,
                // An unclosed `[` is a literal.
                None => s[0] == b'[' && gm(&p[1..], &s[1..], ic, false),
            }
        }
        b'\\' if p.len() > 1 => !s.is_empty() && eq(p[1], s[0], ic) && gm(&p[2..], &s[1..], ic, false),
        c => !s.is_empty() && eq(c, s[0], ic) && gm(&p[1..], &s[1..], ic, c == b'/'),
    }
}

/// One line of a gitignore-style file (or one `-g` glob).
#[derive(Clone, Debug)]
pub struct Rule {
    pat: Vec<u8>,
    /// `!pattern`.
    pub negate: bool,
    /// Trailing `/`: only directories match.
    dir_only: bool,
    /// A `/` at the start or in the middle: matched against the whole path
    /// relative to the file's directory, not just the last component.
    anchored: bool,
    icase: bool,
}

impl Rule {
    pub fn parse(line: &str, icase: bool) -> Option<Rule> {
        let mut l = line.strip_suffix('\r').unwrap_or(line);
        if l.is_empty() || l.starts_with('#') {
            return None;
        }
        // Trailing spaces are dropped unless escaped with a backslash.
        while l.ends_with(' ') && !l.ends_with("\\ ") {
            l = &l[..l.len() - 1];
        }
        let mut negate = false;
        if let Some(r) = l.strip_prefix('!') {
            negate = true;
            l = r;
        } else if l.starts_with("\\!") || l.starts_with("\\#") {
            l = &l[1..];
        }
        let mut dir_only = false;
        while l.len() > 1 && l.ends_with('/') {
            dir_only = true;
            l = &l[..l.len() - 1];
        }
        let anchored = l.contains('/');
        let l = l.strip_prefix('/').unwrap_or(l);
        if l.is_empty() {
            return None;
        }
        Some(Rule { pat: l.as_bytes().to_vec(), negate, dir_only, anchored, icase })
    }

    fn matches(&self, rel: &str, is_dir: bool) -> bool {
        if self.dir_only && !is_dir {
            return false;
        }
        let s = if self.anchored { rel } else { fsx::base_name(rel) };
        glob_path(&self.pat, s.as_bytes(), self.icase)
    }
}

pub fn parse_rules(text: &str) -> Vec<Rule> {
    parse_rules_case(text, false)
}

pub fn parse_rules_case(text: &str, icase: bool) -> Vec<Rule> {
    text.split('\n').filter_map(|l| Rule::parse(l, icase)).collect()
}

/// Last matching rule wins: Some(true) ignored, Some(false) re-included.
fn decide(rules: &[Rule], rel: &str, is_dir: bool) -> Option<bool> {
    rules.iter().rev().find(|r| r.matches(rel, is_dir)).map(|r| !r.negate)
}

/// The ignore files ripgrep reads, highest precedence first.
pub const IGNORE_FILES: [&str; 3] = [".rgignore", ".ignore", ".gitignore"];

/// The rules one directory contributes, per ignore-file kind.
struct Level {
    /// Normalised absolute directory the rules are relative to.
    base: String,
    rules: [Vec<Rule>; 3],
}

impl Level {
    fn load(dir_fs: &str, base: String, kinds: [bool; 3]) -> Level {
        let mut rules: [Vec<Rule>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for (k, name) in IGNORE_FILES.iter().enumerate() {
            if kinds[k] {
                if let Ok(b) = fs::read(fsx::host(&fsx::join(dir_fs, name))) {
                    rules[k] = parse_rules(&String::from_utf8_lossy(&b));
                }
            }
        }
        Level { base, rules }
    }
    fn is_empty(&self) -> bool {
        self.rules.iter().all(|r| r.is_empty())
    }
}

/// File types for `-t`/`-T`: name and basename globs.
pub const TYPES: &[(&str, &[&str])] = &[
    ("c", &["*.c", "*.h"]),
    ("cpp", &["*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h"]),
    ("css", &["*.css"]),
    ("csv", &["*.csv"]),
    ("go", &["*.go"]),
    ("html", &["*.htm", "*.html"]),
    ("java", &["*.java"]),
    ("js", &["*.js", "*.jsx", "*.mjs", "*.cjs"]),
    ("json", &["*.json"]),
    ("markdown", &["*.md", "*.markdown"]),
    ("md", &["*.md", "*.markdown"]),
    ("php", &["*.php"]),
    ("py", &["*.py"]),
    ("ruby", &["*.rb"]),
    ("rust", &["*.rs"]),
    ("sh", &["*.sh", "*.bash", "*.zsh"]),
    ("sql", &["*.sql"]),
    ("toml", &["*.toml"]),
    ("ts", &["*.ts", "*.tsx", "*.mts", "*.cts"]),
    ("txt", &["*.txt"]),
    ("xml", &["*.xml"]),
    ("yaml", &["*.yml", "*.yaml"]),
];

/// The type table after --type-add/--type-clear (`name:glob[,glob]`, or `name:include:other,...`).
pub struct Types(pub Vec<(String, Vec<String>)>);

impl Types {
    pub fn builtin() -> Types {
        Types(TYPES.iter().map(|(n, g)| (n.to_string(), g.iter().map(|x| x.to_string()).collect())).collect())
    }
    pub fn lookup(&self, name: &str) -> Option<Vec<String>> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, g)| g.clone())
    }
    pub fn clear(&mut self, name: &str) {
        self.0.retain(|(n, _)| n != name);
    }
    pub fn add(&mut self, spec: &str) -> Result<(), String> {
        let (name, rest) = spec.split_once(':').ok_or_else(|| format!("invalid definition (format is type:glob, e.g., html:*.html): {}", spec))?;
        let globs: Vec<String> = match rest.strip_prefix("include:") {
            Some(others) => {
                let mut g = Vec::new();
                for o in others.split(',') {
                    g.extend(self.lookup(o).ok_or_else(|| format!("unrecognized file type: {}", o))?);
                }
                g
            }
            None => rest.split(',').map(str::to_string).collect(),
        };
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, g)) => g.extend(globs),
            None => {
                self.0.push((name.to_string(), globs));
                self.0.sort();
            }
        }
        Ok(())
    }
}

/// What decides which walked entries are searched.
pub struct Filter {
    pub hidden: bool,
    /// Which of IGNORE_FILES are honoured.
    pub ignore_kinds: [bool; 3],
    /// Also read ignore files in the directories above a search root.
    pub parents: bool,
    /// `-g`/`--iglob` globs: a plain glob includes, `!glob` (negate) excludes.
    pub overrides: Vec<Rule>,
    pub types_select: Vec<Vec<String>>,
    pub types_negate: Vec<Vec<String>>,
    pub max_depth: Option<usize>,
    pub follow: bool,
    /// --ignore-file rules, relative to the working directory; below every ignore file found.
    pub extra: Vec<Rule>,
    pub extra_base: String,
}

pub enum Entry {
    File(String),
    /// A directory that could not be read: (path, io error).
    Error(String, std::io::Error),
}

#[derive(PartialEq)]
enum Verdict {
    Skip,
    Keep,
    Neutral,
}

impl Filter {
    fn any_ignore(&self) -> bool {
        self.ignore_kinds.iter().any(|&k| k)
    }

    fn override_verdict(&self, shown: &str, is_dir: bool) -> Verdict {
        if self.overrides.is_empty() {
            return Verdict::Neutral;
        }
        // Anchored globs lose their leading `/` when parsed, so compare
        // absolute paths without theirs too.
        let rel = shown.strip_prefix("./").unwrap_or(shown).trim_start_matches('/');
        match self.overrides.iter().rev().find(|r| r.matches(rel, is_dir)) {
            Some(r) if r.negate => Verdict::Skip,
            Some(_) => Verdict::Keep,
            // With any include glob, an unmatched file is left out (directories are still entered).
            None if !is_dir && self.overrides.iter().any(|r| !r.negate) => Verdict::Skip,
            None => Verdict::Neutral,
        }
    }

    fn type_verdict(&self, name: &str, is_dir: bool) -> Verdict {
        if is_dir || (self.types_select.is_empty() && self.types_negate.is_empty()) {
            return Verdict::Neutral;
        }
        let hit = |globs: &Vec<String>| globs.iter().any(|g| glob_path(g.as_bytes(), name.as_bytes(), false));
        if self.types_negate.iter().any(|g| hit(g)) {
            return Verdict::Skip;
        }
        if self.types_select.is_empty() {
            return Verdict::Neutral;
        }
        if self.types_select.iter().any(|g| hit(g)) {
            Verdict::Keep
        } else {
            Verdict::Skip
        }
    }

    /// True when the entry is left out of the walk.
    fn skip(&self, levels: &[Level], abs: &str, shown: &str, name: &str, is_dir: bool) -> bool {
        match self.override_verdict(shown, is_dir) {
            Verdict::Skip => return true,
            Verdict::Keep => return false,
            Verdict::Neutral => {}
        }
        let mut keep = false;
        let extra = || {
            let rel = abs.strip_prefix(self.extra_base.as_str()).and_then(|r| r.strip_prefix('/'))?;
            decide(&self.extra, rel, is_dir)
        };
        if let Some(ignored) = ignore_decision(levels, abs, is_dir).or_else(extra) {
            if ignored {
                return true;
            }
            keep = true;
        }
        match self.type_verdict(name, is_dir) {
            Verdict::Skip => return true,
            Verdict::Keep => keep = true,
            Verdict::Neutral => {}
        }
        !keep && !self.hidden && name.starts_with('.')
    }

    /// Lists the files under directory `root` that would be searched. `shown_root`
    /// is the prefix for displayed paths ("" when rg was given no path).
    pub fn walk(&self, root: &str, implicit: bool) -> Vec<Entry> {
        let mut out = Vec::new();
        let root_abs = fsx::normal(root);
        let mut levels = Vec::new();
        if self.any_ignore() {
            if self.parents {
                let mut anc = Vec::new();
                let mut d = root_abs.clone();
                while d != "/" {
                    d = match d.rfind('/') {
                        Some(0) => "/".to_string(),
                        Some(i) => d[..i].to_string(),
                        None => break,
                    };
                    anc.push(d.clone());
                }
                // `/` is outside the sandbox: reading there would only print a refusal.
                for a in anc.into_iter().rev().filter(|a| a != "/") {
                    let l = Level::load(&a, a.clone(), self.ignore_kinds);
                    if !l.is_empty() {
                        levels.push(l);
                    }
                }
            }
            levels.push(Level::load(root, root_abs.clone(), self.ignore_kinds));
        }
        let shown = if implicit { String::new() } else { root.to_string() };
        self.visit(root, &shown, &root_abs, 0, &mut levels, &mut out);
        out
    }

    fn visit(&self, dir: &str, shown_dir: &str, abs_dir: &str, depth: usize, levels: &mut Vec<Level>, out: &mut Vec<Entry>) {
        if let Some(m) = self.max_depth {
            if depth >= m {
                return;
            }
        }
        let entries = match fsx::read_dir_typed(dir) {
            Ok(e) => e,
            Err(e) => {
                out.push(Entry::Error(if shown_dir.is_empty() { ".".into() } else { shown_dir.to_string() }, e));
                return;
            }
        };
        for (name, ft) in entries {
            let path = fsx::join(dir, &name);
            let (is_dir, is_file) = if ft.is_symlink() {
                if !self.follow {
                    continue;
                }
                match fsx::metadata(&path) {
                    Ok(m) => (m.is_dir(), m.is_file()),
                    Err(_) => continue,
                }
            } else {
                (ft.is_dir(), ft.is_file())
            };
            if is_dir && name == ".git" {
                continue;
            }
            let shown = if shown_dir.is_empty() { name.clone() } else { fsx::join(shown_dir, &name) };
            let abs = if abs_dir == "/" { format!("/{}", name) } else { format!("{}/{}", abs_dir, name) };
            if self.skip(levels, &abs, &shown, &name, is_dir) {
                continue;
            }
            if is_dir {
                let pushed = if self.any_ignore() {
                    let l = Level::load(&path, abs.clone(), self.ignore_kinds);
                    levels.push(l);
                    true
                } else {
                    false
                };
                self.visit(&path, &shown, &abs, depth + 1, levels, out);
                if pushed {
                    levels.pop();
                }
            } else if is_file {
                out.push(Entry::File(shown));
            }
        }
    }
}

/// Per ignore-file kind (highest precedence first), the deepest directory
/// with a matching rule decides; Some(true) ignored, Some(false) whitelisted.
fn ignore_decision(levels: &[Level], abs: &str, is_dir: bool) -> Option<bool> {
    for k in 0..IGNORE_FILES.len() {
        for l in levels.iter().rev() {
            if l.rules[k].is_empty() {
                continue;
            }
            let rel = if l.base == "/" {
                &abs[1..]
            } else {
                match abs.strip_prefix(l.base.as_str()).and_then(|r| r.strip_prefix('/')) {
                    Some(r) => r,
                    None => continue,
                }
            };
            if let Some(d) = decide(&l.rules[k], rel, is_dir) {
                return Some(d);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        let cases: &[(&str, &str, bool)] = &[
            ("*.rs", "main.rs", true),
            ("*.rs", "src/main.rs", false),
            ("src/*.rs", "src/main.rs", true),
            ("src/*.rs", "src/a/main.rs", false),
            ("**/*.rs", "main.rs", true),
            ("**/*.rs", "a/b/main.rs", true),
            ("a/**/b", "a/b", true),
            ("a/**/b", "a/x/y/b", true),
            ("a/**", "a/x/y", true),
            ("a/**", "a", false),
            ("**", "x/y", true),
            ("?.txt", "a.txt", true),
            ("?.txt", "ab.txt", false),
            ("[ab].c", "b.c", true),
            ("[!ab].c", "b.c", false),
            ("[a-c]x", "bx", true),
            ("\\*x", "*x", true),
            ("\\*x", "ax", false),
            ("a**b", "aXb", true),
            ("[unclosed", "[unclosed", true),
            ("", "", true),
        ];
        for (p, s, want) in cases {
            assert_eq!(glob_path(p.as_bytes(), s.as_bytes(), false), *want, "{} vs {}", p, s);
        }
        assert!(glob_path(b"*.RS", b"x.rs", true));
        assert!(glob_path(b"[A-C].rs", b"b.rs", true));
    }

    #[test]
    fn rules() {
        let r = parse_rules("# comment\n\n*.log\n!keep.log\nbuild/\n/top.txt\nsub/x.txt\n\\#hash\ntrail   \n");
        let cases: &[(&str, bool, Option<bool>)] = &[
            ("a.log", false, Some(true)),
            ("d/a.log", false, Some(true)),
            ("keep.log", false, Some(false)),
            ("build", true, Some(true)),
            ("build", false, None),
            ("x/build", true, Some(true)),
            ("top.txt", false, Some(true)),
            ("d/top.txt", false, None),
            ("sub/x.txt", false, Some(true)),
            ("d/sub/x.txt", false, None),
            ("#hash", false, Some(true)),
            ("trail", false, Some(true)),
            ("other", false, None),
        ];
        for (path, dir, want) in cases {
            assert_eq!(decide(&r, path, *dir), *want, "{}", path);
        }
    }
}
