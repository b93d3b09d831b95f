//! -U/--multiline: the pattern runs over the whole file, so one match may
//! span lines. Every line a match touches is printed once, as a matching
//! line; -o prints each line's piece of a match; -c counts matches; -m has
//! no effect (as in ripgrep 13, the reference here). A pattern that can
//! never match a line terminator is searched line by line, as ripgrep does
//! (so -c still counts lines for it).

use super::{Mode, Searcher, State};

/// Whether `pat` may match a line terminator: a `\n`, a class that can hold
/// one (`\s`, `\W`, `\D`, `[^...]`, `\P{..}`) or `.` under dotall.
pub fn crosses_lines(pat: &str, dotall: bool) -> bool {
    let dot = (dotall || pat.contains("(?s")) && pat.contains('.');
    dot || pat.contains('\n') || ["\\n", "\\s", "\\W", "\\D", "[^", "\\P", "\\x0a", "\\x0A", "\\012"].iter().any(|s| pat.contains(s))
}

impl<'c> Searcher<'c> {
    /// Searches `data` whole; returns the exit-status match as `search` does.
    pub(super) fn search_multiline(&mut self, data: &[u8], st: &mut State, out: &mut Vec<u8>) -> bool {
        let cfg = self.cfg;
        let eol = cfg.eol;
        let mut count = 0u64;
        // `lineno` is the number of the line starting at `counted`.
        let (mut lineno, mut counted) = (1u64, 0usize);
        // Lines before this offset have been printed.
        let mut printed_to = 0usize;
        let mut pos = 0usize;
        while pos <= data.len() {
            let (s, e) = match self.find_at(data, pos) {
                Some(m) => m,
                None => break,
            };
            let first = memchr::memrchr(eol, &data[..s]).map_or(0, |i| i + 1);
            if s == data.len() && first == s && s > 0 {
                // An empty match after the last terminator is on no line.
                break;
            }
            count += 1;
            // A match ending with a terminator ends on that terminator's line.
            let last = if e > s && data[e - 1] == eol { e - 1 } else { e };
            let end = memchr::memchr(eol, &data[last..]).map_or(data.len(), |i| last + i);
            lineno += memchr::memchr_iter(eol, &data[counted..first]).count() as u64;
            counted = first;
            match cfg.mode {
                Mode::Quiet | Mode::FilesWith | Mode::FilesWithout => return self.summary(count, 0, out),
                Mode::Count | Mode::CountMatches => {}
                Mode::Lines if cfg.only => {
                    // Each line's piece of the match on its own line (empty pieces
                    // skipped), all with the match's byte offset, as ripgrep prints them.
                    for (k, piece) in data[s..last.max(s)].split(|&c| c == eol).enumerate() {
                        if !piece.is_empty() {
                            self.begin(st, out);
                            self.separate(lineno + k as u64, out);
                            self.prefix(out, lineno + k as u64, None, s, b':');
                            self.body(out, piece, false, 1);
                        }
                    }
                }
                Mode::Lines => {
                    let mut at = first.max(printed_to);
                    let mut n = lineno + memchr::memchr_iter(eol, &data[first..at]).count() as u64;
                    while at <= end && at < data.len() {
                        let le = memchr::memchr(eol, &data[at..end]).map_or(end, |i| at + i);
                        self.begin(st, out);
                        self.separate(n, out);
                        self.prefix(out, n, None, at, b':');
                        self.body(out, &data[at..le], false, 1);
                        n += 1;
                        at = le + 1;
                    }
                    printed_to = printed_to.max(end + 1);
                }
            }
            // -m/--max-count does not stop a multiline search in ripgrep 13 either.
            pos = if e > s { e } else { e + 1 };
        }
        self.summary(count, count, out)
    }
}
