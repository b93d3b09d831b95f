//! --json: ripgrep 13's JSON Lines. Per file with a match: `begin`, a
//! `match` or `context` message per line, `end` with the file's stats; then
//! one `summary`, whose stats add up the files that had a match (as
//! ripgrep's do). Elapsed times are measured here, so like ripgrep's they
//! differ from run to run.

use super::{Searcher, State};
use std::time::Duration;

/// Per-run totals: bytes printed, bytes searched, matched lines, matches,
/// searches, searches with a match, and nanoseconds spent.
pub type Totals = [u64; 7];

/// Text as serde_json writes a string.
fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            c if (c as u32) < 0x20 => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out.push(b'"');
}

/// `{"text":...}` for UTF-8, else `{"bytes":<base64>}`, as ripgrep writes data.
fn data(out: &mut Vec<u8>, b: &[u8]) {
    match std::str::from_utf8(b) {
        Ok(s) => {
            out.extend_from_slice(b"{\"text\":");
            string(out, s);
        }
        Err(_) => {
            out.extend_from_slice(b"{\"bytes\":\"");
            crate::cmd::base64::encode_block(b, out);
            out.push(b'"');
        }
    }
    out.push(b'}');
}

fn elapsed(d: Duration, sorted: bool) -> String {
    let (secs, nanos, human) = (d.as_secs(), d.subsec_nanos(), format!("{:.6}s", d.as_secs_f64()));
    if sorted {
        format!("{{\"human\":\"{}\",\"nanos\":{},\"secs\":{}}}", human, nanos, secs)
    } else {
        format!("{{\"secs\":{},\"nanos\":{},\"human\":\"{}\"}}", secs, nanos, human)
    }
}

/// The closing line of a run.
pub fn summary(out: &mut Vec<u8>, t: &Totals, total: Duration) {
    let spent = elapsed(Duration::from_nanos(t[6]), true);
    out.extend_from_slice(
        format!(
            "{{\"data\":{{\"elapsed_total\":{},\"stats\":{{\"bytes_printed\":{},\"bytes_searched\":{},\"elapsed\":{},\"matched_lines\":{},\"matches\":{},\"searches\":{},\"searches_with_match\":{}}}}},\"type\":\"summary\"}}\n",
            elapsed(total, true), t[0], t[1], spent, t[2], t[3], t[4], t[5]
        )
        .as_bytes(),
    );
}

impl<'c> Searcher<'c> {
    /// A `match` or `context` message for one line at byte `offset` of the file.
    pub(super) fn json_line(&mut self, st: &mut State, kind: &str, lineno: u64, offset: usize, line: &[u8], out: &mut Vec<u8>) {
        self.json_begin(st, out);
        let mut spans = Vec::new();
        if kind == "match" {
            self.matches(line, |_, a, b| spans.push((a, b)));
            self.json_counts[0] += 1;
            self.json_counts[1] += spans.len() as u64;
        }
        let end = (offset + line.len() + 1).min(self.data_len);
        out.extend_from_slice(format!("{{\"type\":\"{}\",\"data\":{{\"path\":", kind).as_bytes());
        data(out, self.path.as_bytes());
        out.extend_from_slice(b",\"lines\":");
        let mut text = line.to_vec();
        if end > offset + line.len() {
            text.push(self.cfg.eol);
        }
        data(out, &text);
        out.extend_from_slice(format!(",\"line_number\":{},\"absolute_offset\":{},\"submatches\":[", lineno, offset).as_bytes());
        for (k, &(a, b)) in spans.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"match\":");
            data(out, &line[a..b]);
            out.extend_from_slice(format!(",\"start\":{},\"end\":{}}}", a, b).as_bytes());
        }
        out.extend_from_slice(b"]}}\n");
    }

    fn json_begin(&mut self, st: &mut State, out: &mut Vec<u8>) {
        if self.started {
            return;
        }
        self.started = true;
        st.printed_file = true;
        self.json_from = out.len();
        out.extend_from_slice(b"{\"type\":\"begin\",\"data\":{\"path\":");
        data(out, self.path.as_bytes());
        out.extend_from_slice(b"}}\n");
    }

    /// The `end` message of a file that printed anything; adds to the run's totals.
    pub(super) fn json_end(&mut self, st: &mut State, out: &mut Vec<u8>) {
        if !self.started {
            return;
        }
        let took = self.began.elapsed();
        let printed = (out.len() - self.json_from) as u64;
        let [lines, matches] = self.json_counts;
        out.extend_from_slice(b"{\"type\":\"end\",\"data\":{\"path\":");
        data(out, self.path.as_bytes());
        out.extend_from_slice(
            format!(
                ",\"binary_offset\":null,\"stats\":{{\"elapsed\":{},\"searches\":1,\"searches_with_match\":1,\"bytes_searched\":{},\"bytes_printed\":{},\"matched_lines\":{},\"matches\":{}}}}}}}\n",
                elapsed(took, false), self.data_len, printed, lines, matches
            )
            .as_bytes(),
        );
        let t = &mut st.json;
        for (i, n) in [printed, self.data_len as u64, lines, matches, 1, 1, took.as_nanos() as u64].iter().enumerate() {
            t[i] += n;
        }
    }
}
