//! uniq [-cdDuiz] [-f N] [-s N] [-w N] [INPUT [OUTPUT]]

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::{fsx, input};
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    flag('c', "count", "c"),
    flag('d', "repeated", "d"),
    flag('D', "", "D"),
    optval('\0', "all-repeated", "D"),
    optval('\0', "group", "group"),
    val('f', "skip-fields", "f"),
    flag('i', "ignore-case", "i"),
    val('s', "skip-chars", "s"),
    flag('u', "unique", "u"),
    val('w', "check-chars", "w"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: uniq [OPTION]... [INPUT [OUTPUT]]\nFilter adjacent matching lines from INPUT (or standard input),\nwriting to OUTPUT (or standard output).\n\n  -c, --count           prefix lines by the number of occurrences\n  -d, --repeated        only print duplicate lines, one for each group\n  -D                    print all duplicate lines\n      --all-repeated[=METHOD]  like -D, but allow separating groups\n                                 with an empty line;\n                                 METHOD={none(default),prepend,separate}\n  -f, --skip-fields=N   avoid comparing the first N fields\n  -i, --ignore-case     ignore differences in case when comparing\n  -s, --skip-chars=N    avoid comparing the first N characters\n      --group[=METHOD]  show all items, separating groups with an empty line;\n                          METHOD={separate(default),prepend,append,both}\n  -u, --unique          only print unique lines\n  -z, --zero-terminated     line delimiter is NUL, not newline\n  -w, --check-chars=N   compare no more than N characters in lines\n";

struct Cmp {
    fields: usize,
    chars: usize,
    width: Option<usize>,
    icase: bool,
}

impl Cmp {
    fn key<'a>(&self, l: &'a [u8]) -> &'a [u8] {
        let mut p = 0;
        for _ in 0..self.fields {
            while p < l.len() && (l[p] == b' ' || l[p] == b'\t') {
                p += 1;
            }
            while p < l.len() && !(l[p] == b' ' || l[p] == b'\t') {
                p += 1;
            }
        }
        p = (p + self.chars).min(l.len());
        let end = match self.width {
            Some(w) => (p + w).min(l.len()),
            None => l.len(),
        };
        &l[p..end]
    }
    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        let (ka, kb) = (self.key(a), self.key(b));
        if self.icase {
            ka.eq_ignore_ascii_case(kb)
        } else {
            ka == kb
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut nums = [0usize; 3];
    for (i, k) in ["f", "s", "w"].iter().enumerate() {
        if let Some(v) = p.last(k) {
            match v.parse::<usize>() {
                Ok(n) => nums[i] = n,
                Err(_) => {
                    let what = ["number of fields to skip", "number of bytes to skip", "number of bytes to compare"][i];
                    ctx.diag.error(format!("{}: invalid {}", v, what));
                    return Ok(1);
                }
            }
        }
    }
    let cmp = Cmp { fields: nums[0], chars: nums[1], width: p.last("w").map(|_| nums[2]), icase: p.has("i") };
    if p.operands.len() > 2 {
        super::extra_operand(ctx, &p.operands[2]);
        return Ok(1);
    }
    let (count, dups, all_dups, uniq) = (p.has("c"), p.has("d"), p.has("D"), p.has("u"));
    if all_dups && count {
        ctx.diag.usage("printing all duplicated lines and repeat counts is meaningless");
        return Ok(1);
    }
    // Where empty lines go around groups: before a run, between runs, after the last one.
    let chosen = if p.has("group") {
        if count || dups || all_dups || uniq {
            ctx.diag.usage("--group is mutually exclusive with -c/-d/-D/-u");
            return Ok(1);
        }
        method(ctx, "--group", p.last("group"), &["separate", "prepend", "append", "both"])
    } else if all_dups {
        method(ctx, "--all-repeated", p.last("D"), &["none", "prepend", "separate"])
    } else {
        Some("none")
    };
    let m = match chosen {
        Some(m) => m,
        None => return Ok(1),
    };
    let sep = Sep { before: m == "prepend" || m == "both", between: m == "separate" || m == "append", after: m == "append" || m == "both" };
    let delim = if p.has("z") { 0 } else { b'\n' };
    let inp = p.operands.first().cloned().unwrap_or_else(|| "-".into());
    let mut r = match input::open(ctx.stdin, &inp) {
        Ok(r) => r,
        Err(e) => {
            ctx.diag.error(format!("{}: {}", inp, reason(&e)));
            return Ok(1);
        }
    };
    let mut file_out;
    let out: &mut dyn Write = match p.operands.get(1) {
        Some(o) if o != "-" => match std::fs::File::create(fsx::host(o)) {
            Ok(f) => {
                file_out = io::BufWriter::new(f);
                &mut file_out
            }
            Err(e) => {
                ctx.diag.error(format!("{}: {}", o, reason(&e)));
                return Ok(1);
            }
        },
        _ => &mut ctx.out,
    };
    let group = p.has("group");
    let mut groups = Groups { cmp: &cmp, delim, count, dups, all_dups, uniq, group, sep, shown: 0, prev: Vec::new(), n: 0, staged: Vec::with_capacity(input::BUF) };
    // Lines are taken straight from the reader's buffer; only a line that
    // straddles two buffer fills is pieced together in `split_line`.
    let mut split_line = Vec::new();
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let len = buf.len();
        let mut start = 0;
        for end in memchr::memchr_iter(delim, buf) {
            if split_line.is_empty() {
                groups.line(&buf[start..end], out)?;
            } else {
                split_line.extend_from_slice(&buf[start..end]);
                groups.line(&split_line, out)?;
                split_line.clear();
            }
            start = end + 1;
        }
        split_line.extend_from_slice(&buf[start..]);
        r.consume(len);
    }
    if !split_line.is_empty() {
        // Unterminated last line: uniq's output terminates it.
        groups.line(&split_line, out)?;
    }
    groups.finish(out)?;
    out.flush()?;
    Ok(0)
}

/// The METHOD of --group / --all-repeated (the first listed when none is given), or None after
/// reporting an invalid one as GNU's argmatch does.
fn method<'m>(ctx: &mut Ctx, opt: &str, given: Option<&str>, valid: &[&'m str]) -> Option<&'m str> {
    let v = match given {
        Some(v) => v,
        None => return Some(valid[0]),
    };
    if let Some(m) = valid.iter().find(|m| **m == v) {
        return Some(m);
    }
    let list: String = valid.iter().map(|m| format!("\n  - '{}'", m)).collect();
    ctx.diag.usage(format!("invalid argument '{}' for '{}'\nValid arguments are:{}", v, opt, list));
    None
}

/// Where --group and --all-repeated put empty lines.
#[derive(Default, Clone, Copy)]
struct Sep {
    before: bool,
    between: bool,
    after: bool,
}

/// Runs of matching lines, written out as each run ends.
struct Groups<'a> {
    cmp: &'a Cmp,
    delim: u8,
    count: bool,
    dups: bool,
    all_dups: bool,
    uniq: bool,
    /// --group: every line is printed, runs set apart by `sep`.
    group: bool,
    sep: Sep,
    /// Runs printed so far (for `sep.between`).
    shown: u64,
    /// First line of the current run (n > 0).
    prev: Vec<u8>,
    n: u64,
    /// Output gathered into one write per buffer's worth.
    staged: Vec<u8>,
}

impl Groups<'_> {
    fn line(&mut self, body: &[u8], out: &mut dyn Write) -> io::Result<()> {
        if self.n > 0 && self.cmp.same(&self.prev, body) {
            self.n += 1;
            if self.group {
                self.staged.extend_from_slice(body);
                self.staged.push(self.delim);
            } else if self.all_dups {
                if self.n == 2 {
                    self.open_run();
                    self.staged.extend_from_slice(&self.prev);
                    self.staged.push(self.delim);
                }
                self.staged.extend_from_slice(body);
                self.staged.push(self.delim);
            }
        } else {
            self.end_run();
            self.prev.clear();
            self.prev.extend_from_slice(body);
            self.n = 1;
            if self.group {
                self.open_run();
                self.staged.extend_from_slice(body);
                self.staged.push(self.delim);
            }
        }
        if self.staged.len() >= input::BUF {
            out.write_all(&self.staged)?;
            self.staged.clear();
        }
        Ok(())
    }

    /// The empty line a printed run starts with, if its method wants one.
    fn open_run(&mut self) {
        if self.sep.before || (self.sep.between && self.shown > 0) {
            self.staged.push(self.delim);
        }
        self.shown += 1;
    }

    /// Emits the finished run (first line `prev`, seen `n` times).
    fn end_run(&mut self) {
        let n = self.n;
        if n == 0 || (self.dups && n < 2) || (self.uniq && n > 1) || self.all_dups || self.group {
            return;
        }
        if self.count {
            // GNU's "%7d " without going through the formatting machinery.
            let mut digits = [0u8; 20];
            let mut at = digits.len();
            let mut v = n;
            loop {
                at -= 1;
                digits[at] = b'0' + (v % 10) as u8;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            for _ in digits.len() - at..7 {
                self.staged.push(b' ');
            }
            self.staged.extend_from_slice(&digits[at..]);
            self.staged.push(b' ');
        }
        self.staged.extend_from_slice(&self.prev);
        self.staged.push(self.delim);
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.end_run();
        if self.sep.after && self.shown > 0 {
            self.staged.push(self.delim);
        }
        self.n = 0;
        out.write_all(&self.staged)?;
        self.staged.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "a\na\nb\na\n", "a\nb\na\n"),
            (&["-c"], "a\na\nb\n", "      2 a\n      1 b\n"),
            (&["-d"], "a\na\nb\nc\nc\n", "a\nc\n"),
            (&["-u"], "a\na\nb\nc\nc\n", "b\n"),
            (&["-D"], "a\na\nb\nc\nc\n", "a\na\nc\nc\n"),
            (&["-i"], "a\nA\nb\n", "a\nb\n"),
            (&["-f", "1"], "x a\ny a\nz b\n", "x a\nz b\n"),
            (&["-s", "1"], "xa\nya\nzb\n", "xa\nzb\n"),
            (&["-w", "1"], "ab\nac\nbd\n", "ab\nbd\n"),
            (&[], "a\na", "a\n"),
            (&["-z"], "a\0a\0b\0", "a\0b\0"),
            (&[], "", ""),
            (&["-c"], "", ""),
            (&["-c"], "x", "      1 x\n"),
            (&[], "a\r\na\r\na\n", "a\r\na\n"),
            (&[], "a\0b\na\0b\na\0c\n", "a\0b\na\0c\n"),
            (&["-z", "-c"], "a\nb\0a\nb\0c", "      2 a\nb\0      1 c\0"),
            (&["-D"], "a\na\na\nb\n", "a\na\na\n"),
            (&["--all-repeated=separate"], "a\na\nb\nc\nc\n", "a\na\n\nc\nc\n"),
            (&["--all-repeated=prepend"], "a\na\nb\nc\nc\n", "\na\na\n\nc\nc\n"),
            (&["--group"], "a\na\nb\n", "a\na\n\nb\n"),
            (&["--group=append"], "a\nb\n", "a\n\nb\n\n"),
            (&["--group=both"], "a\nb\n", "\na\n\nb\n\n"),
            (&["--group=prepend"], "a\nb\n", "\na\n\nb\n"),
            (&["-d", "-c"], "a\na\nb\n", "      2 a\n"),
            (&["-u", "-c"], "a\na\nb\n", "      1 b\n"),
            (&["-i", "-c"], "Ab\naB\nab\n", "      3 Ab\n"),
        ];
        for (args, input, out) in cases {
            check("uniq", args, input, out, 0);
        }
    }

    /// Straightforward uniq over a whole input, to check the buffered
    /// reader's handling of lines split across 64 KiB fills.
    fn reference(input: &str, count: bool, all_dups: bool) -> String {
        let mut lines: Vec<&str> = input.split('\n').collect();
        if lines.last() == Some(&"") {
            lines.pop();
        }
        let mut out = String::new();
        let mut i = 0;
        while i < lines.len() {
            let mut j = i + 1;
            while j < lines.len() && lines[j] == lines[i] {
                j += 1;
            }
            if all_dups {
                if j - i > 1 {
                    for l in &lines[i..j] {
                        out += l;
                        out += "\n";
                    }
                }
            } else {
                if count {
                    out += &format!("{:>7} ", j - i);
                }
                out += lines[i];
                out += "\n";
            }
            i = j;
        }
        out
    }

    #[test]
    fn lines_across_buffer_fills() {
        // Line lengths chosen to land terminators on, just before and just
        // after 64 KiB boundaries, plus lines longer than a whole buffer.
        let mut input = String::new();
        let lens = [1, 65535, 65535, 2, 70000, 70000, 3, 3, 65536, 131072, 131072, 5, 0, 0, 7];
        for (k, &len) in lens.iter().enumerate() {
            let c = (b'a' + (k % 3) as u8) as char;
            input.push_str(&c.to_string().repeat(len));
            input.push('\n');
        }
        for _ in 0..50_000 {
            input.push_str("dup\n");
        }
        input.push_str("tail-no-newline");
        let d = tmpdir();
        let f = format!("{}/in", d);
        write(&f, &input);
        check("uniq", &[&f], "", &reference(&input, false, false), 0);
        check("uniq", &["-c", &f], "", &reference(&input, true, false), 0);
        check("uniq", &["-D", &f], "", &reference(&input, false, true), 0);
        // The same through stdin.
        check("uniq", &["-c"], &input, &reference(&input, true, false), 0);
    }
}
