//! Perl-style patterns (rg -P/--pcre2/--engine auto|pcre2, grep -P) that
//! Rust's `regex` cannot run (look-around, backreferences) go to
//! `fancy-regex`, a backtracking engine standing in for PCRE2. It works on
//! UTF-8 text: a line that is not UTF-8 never matches under it. `Engine`
//! is either one, as rg holds it.

use regex::bytes::{CaptureLocations, Regex};

pub enum Engine {
    Plain(Regex),
    Fancy(fancy_regex::Regex),
}

/// Where each group of the last match is.
pub enum Groups {
    Plain(CaptureLocations),
    Fancy(Vec<Option<(usize, usize)>>),
}

impl Groups {
    pub fn get(&self, i: usize) -> Option<(usize, usize)> {
        match self {
            Groups::Plain(l) => l.get(i),
            Groups::Fancy(g) => g.get(i).copied().flatten(),
        }
    }
}

/// The next match of `re` in `hay` at or after `from`.
pub fn find_at(re: &fancy_regex::Regex, hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let s = std::str::from_utf8(hay).ok()?;
    re.find_from_pos(s, from).ok().flatten().map(|m| (m.start(), m.end()))
}

/// Compiles `pat` for the backtracking engine, case-insensitive if asked.
pub fn fancy(pat: &str, icase: bool) -> Result<fancy_regex::Regex, String> {
    let full = if icase { format!("(?i){}", pat) } else { pat.to_string() };
    fancy_regex::Regex::new(&full).map_err(|e| format!("regex parse error:\n    {}\nerror: {}", pat, e))
}

impl Engine {
    pub fn names(&self) -> Vec<Option<String>> {
        match self {
            Engine::Plain(r) => r.capture_names().map(|n| n.map(str::to_string)).collect(),
            Engine::Fancy(r) => r.capture_names().map(|n| n.map(str::to_string)).collect(),
        }
    }

    pub fn groups(&self) -> Groups {
        match self {
            Engine::Plain(r) => Groups::Plain(r.capture_locations()),
            Engine::Fancy(r) => Groups::Fancy(vec![None; r.captures_len()]),
        }
    }

    pub fn is_match(&self, line: &[u8]) -> bool {
        match self {
            Engine::Plain(r) => r.is_match(line),
            Engine::Fancy(r) => std::str::from_utf8(line).ok().map_or(false, |s| r.is_match(s).unwrap_or(false)),
        }
    }

    pub fn find_at(&self, line: &[u8], from: usize) -> Option<(usize, usize)> {
        match self {
            Engine::Plain(r) => r.find_at(line, from).map(|m| (m.start(), m.end())),
            Engine::Fancy(r) => find_at(r, line, from),
        }
    }

    /// Finds the next match at or after `from`, recording its groups.
    pub fn captures_at(&self, groups: &mut Groups, line: &[u8], from: usize) -> Option<()> {
        match (self, groups) {
            (Engine::Plain(r), Groups::Plain(l)) => r.captures_read_at(l, line, from).map(|_| ()),
            (Engine::Fancy(r), Groups::Fancy(g)) => {
                let s = std::str::from_utf8(line).ok()?;
                let c = r.captures_from_pos(s, from).ok().flatten()?;
                for (i, slot) in g.iter_mut().enumerate() {
                    *slot = c.get(i).map(|m| (m.start(), m.end()));
                }
                Some(())
            }
            _ => None,
        }
    }
}
