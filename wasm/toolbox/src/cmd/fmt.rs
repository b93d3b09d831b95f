//! fmt [-WIDTH] [-w WIDTH] [-g GOAL] [-c|-t|-s] [-u] [-p PREFIX] [FILE]... —
//! refills paragraphs the way GNU fmt does: each paragraph's line breaks are
//! chosen to minimise GNU's cost (lines near the goal width, about 93% of the
//! maximum, even lengths, breaks after sentences preferred), sentence ends
//! keep two spaces, and indentation starts a new paragraph unless -c/-t say
//! how the first lines are indented. Widths count bytes, as GNU does.

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('w', "width", "w"),
    val('g', "goal", "g"),
    flag('s', "split-only", "s"),
    flag('u', "uniform-spacing", "u"),
    flag('c', "crown-margin", "c"),
    flag('t', "tagged-paragraph", "t"),
    val('p', "prefix", "p"),
];
const HELP: &str = "Usage: fmt [-WIDTH] [OPTION]... [FILE]...\nReformat each paragraph in the FILE(s), writing to standard output.\nThe option -WIDTH is an abbreviated form of --width=DIGITS.\n\n  -c, --crown-margin        preserve indentation of first two lines\n  -p, --prefix=STRING       reformat only lines beginning with STRING,\n                              reattaching the prefix to reformatted lines\n  -s, --split-only          split long lines, but do not refill\n  -t, --tagged-paragraph    indentation of first line different from second\n  -u, --uniform-spacing     one space between words, two after sentences\n  -w, --width=WIDTH         maximum line width (default of 75 columns)\n  -g, --goal=WIDTH          goal width (default of 93% of width)\n";

const TABWIDTH: i32 = 8;
type Cost = i64;
const MAXCOST: Cost = Cost::MAX;

const fn equiv(n: Cost) -> Cost {
    n * n
}
const fn short_cost(n: Cost) -> Cost {
    equiv(n * 10)
}
const fn ragged_cost(n: Cost) -> Cost {
    short_cost(n) / 2
}
const LINE_COST: Cost = equiv(70);
const fn widow_cost(n: Cost) -> Cost {
    equiv(200) / (n + 2)
}
const fn orphan_cost(n: Cost) -> Cost {
    equiv(150) / (n + 2)
}
const SENTENCE_BONUS: Cost = equiv(50);
const NOBREAK_COST: Cost = equiv(600);
const PAREN_BONUS: Cost = equiv(40);
const PUNCT_BONUS: Cost = equiv(40);

#[derive(Clone, Default)]
struct Word {
    text: Vec<u8>,
    length: i32,
    space: i32,
    paren: bool,
    period: bool,
    punct: bool,
    fin: bool,
    line_length: i32,
    best_cost: Cost,
    next_break: usize,
}

const EOF: i32 = -1;
const MAXWORDS: usize = 1000;
const MAXCHARS: usize = 5000;

struct Fmt<'a> {
    max_width: i32,
    goal_width: i32,
    split: bool,
    crown: bool,
    tagged: bool,
    uniform: bool,
    prefix: Vec<u8>,
    prefix_lead_space: i32,
    prefix_full_length: i32,
    prefix_length: i32,
    data: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    tabs: bool,
    in_column: i32,
    out_column: i32,
    next_prefix_indent: i32,
    prefix_indent: i32,
    first_indent: i32,
    other_indent: i32,
    last_line_length: i32,
    next_char: i32,
    words: Vec<Word>,
    /// Bytes of word text held (GNU's paragraph buffer).
    chars: usize,
}

impl<'a> Fmt<'a> {
    fn getc(&mut self) -> i32 {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b as i32
            }
            None => EOF,
        }
    }

    fn get_space(&mut self, mut c: i32) -> i32 {
        loop {
            if c == b' ' as i32 {
                self.in_column += 1;
            } else if c == b'\t' as i32 {
                self.tabs = true;
                self.in_column = (self.in_column / TABWIDTH + 1) * TABWIDTH;
            } else {
                return c;
            }
            c = self.getc();
        }
    }

    fn get_prefix(&mut self) -> i32 {
        self.in_column = 0;
        let c0 = self.getc();
        let mut c = self.get_space(c0);
        if self.prefix_length == 0 {
            self.next_prefix_indent = self.prefix_lead_space.min(self.in_column);
        } else {
            self.next_prefix_indent = self.in_column;
            for i in 0..self.prefix.len() {
                if c != self.prefix[i] as i32 {
                    return c;
                }
                self.in_column += 1;
                c = self.getc();
            }
            c = self.get_space(c);
        }
        c
    }

    fn put_space(&mut self, space: i32) {
        let target = self.out_column + space;
        if self.tabs {
            let tab_target = target / TABWIDTH * TABWIDTH;
            if self.out_column + 1 < tab_target {
                while self.out_column < tab_target {
                    self.out.push(b'\t');
                    self.out_column = (self.out_column / TABWIDTH + 1) * TABWIDTH;
                }
            }
        }
        while self.out_column < target {
            self.out.push(b' ');
            self.out_column += 1;
        }
    }

    /// Copies a line that is not reformatted (blank, or without the prefix).
    fn copy_rest(&mut self, mut c: i32) -> i32 {
        self.out_column = 0;
        if self.in_column > self.next_prefix_indent || (c != b'\n' as i32 && c != EOF) {
            self.put_space(self.next_prefix_indent);
            let mut k = 0;
            while self.out_column != self.in_column && k < self.prefix.len() {
                self.out.push(self.prefix[k]);
                k += 1;
                self.out_column += 1;
            }
            if c != EOF && c != b'\n' as i32 {
                self.put_space(self.in_column - self.out_column);
            }
            if c == EOF && self.in_column >= self.next_prefix_indent + self.prefix_length {
                self.out.push(b'\n');
            }
        }
        while c != b'\n' as i32 && c != EOF {
            self.out.push(c as u8);
            c = self.getc();
        }
        c
    }

    fn same_paragraph(&self, c: i32) -> bool {
        self.next_prefix_indent == self.prefix_indent && self.in_column >= self.next_prefix_indent + self.prefix_full_length && c != b'\n' as i32 && c != EOF
    }

    fn set_other_indent(&mut self, same: bool) {
        if self.split {
            self.other_indent = self.first_indent;
        } else if self.crown {
            self.other_indent = if same { self.in_column } else { self.first_indent };
        } else if self.tagged {
            if same && self.in_column != self.first_indent {
                self.other_indent = self.in_column;
            } else if self.other_indent == self.first_indent {
                self.other_indent = if self.first_indent == 0 { 3 } else { 0 };
            }
        } else {
            self.other_indent = self.first_indent;
        }
    }

    fn get_line(&mut self, mut c: i32) -> i32 {
        loop {
            let mut w = Word::default();
            loop {
                if self.chars == MAXCHARS {
                    self.set_other_indent(true);
                    self.flush_paragraph(&mut w.text);
                }
                w.text.push(c as u8);
                self.chars += 1;
                c = self.getc();
                if c == EOF || is_space(c) {
                    break;
                }
            }
            w.length = w.text.len() as i32;
            self.in_column += w.length;
            check_punctuation(&mut w);
            let start = self.in_column;
            c = self.get_space(c);
            w.space = self.in_column - start;
            w.fin = c == EOF || (w.period && (c == b'\n' as i32 || w.space > 1));
            if c == b'\n' as i32 || c == EOF || self.uniform {
                w.space = if w.fin { 2 } else { 1 };
            }
            self.words.push(w);
            if self.words.len() == MAXWORDS - 1 {
                // The word just read stays for the next part, as in GNU.
                let last = self.words.pop().unwrap();
                self.set_other_indent(true);
                let mut none = Vec::new();
                self.flush_paragraph(&mut none);
                self.words.push(last);
            }
            if c == b'\n' as i32 || c == EOF {
                break;
            }
        }
        self.get_prefix()
    }

    fn get_paragraph(&mut self) -> bool {
        self.last_line_length = 0;
        let mut c = self.next_char;
        while c == b'\n' as i32 || c == EOF || self.next_prefix_indent < self.prefix_lead_space || self.in_column < self.next_prefix_indent + self.prefix_full_length {
            c = self.copy_rest(c);
            if c == EOF {
                self.next_char = EOF;
                return false;
            }
            self.out.push(b'\n');
            c = self.get_prefix();
        }
        self.prefix_indent = self.next_prefix_indent;
        self.first_indent = self.in_column;
        self.words.clear();
        self.chars = 0;
        c = self.get_line(c);
        let same = self.same_paragraph(c);
        self.set_other_indent(same);
        if self.split {
        } else if self.crown {
            if self.same_paragraph(c) {
                loop {
                    c = self.get_line(c);
                    if !(self.same_paragraph(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else if self.tagged {
            if self.same_paragraph(c) && self.in_column != self.first_indent {
                loop {
                    c = self.get_line(c);
                    if !(self.same_paragraph(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else {
            while self.same_paragraph(c) && self.in_column == self.other_indent {
                c = self.get_line(c);
            }
        }
        let last = self.words.last_mut().unwrap();
        last.period = true;
        last.fin = true;
        self.next_char = c;
        true
    }

    fn base_cost(&self, this: usize) -> Cost {
        let w = &self.words;
        let mut cost = LINE_COST;
        if this > 0 {
            if w[this - 1].period {
                if w[this - 1].fin {
                    cost -= SENTENCE_BONUS;
                } else {
                    cost += NOBREAK_COST;
                }
            } else if w[this - 1].punct {
                cost -= PUNCT_BONUS;
            } else if this > 1 && w[this - 2].fin {
                cost += widow_cost(w[this - 1].length as Cost);
            }
        }
        if w[this].paren {
            cost -= PAREN_BONUS;
        } else if w[this].fin {
            cost += orphan_cost(w[this].length as Cost);
        }
        cost
    }

    fn line_cost(&self, next: usize, len: i32, limit: usize) -> Cost {
        if next == limit {
            return 0;
        }
        let mut cost = short_cost((self.goal_width - len) as Cost);
        if self.words[next].next_break != limit {
            cost += ragged_cost((len - self.words[next].line_length) as Cost);
        }
        cost
    }

    /// Chooses every line break of the paragraph, last word first (GNU's dynamic programme).
    fn fmt_paragraph(&mut self) {
        let limit = self.words.len();
        self.words.push(Word { length: self.max_width, ..Word::default() });
        for start in (0..limit).rev() {
            let mut best = MAXCOST;
            let mut len = if start == 0 { self.first_indent } else { self.other_indent };
            let mut w = start;
            len += self.words[w].length;
            loop {
                w += 1;
                let mut wcost = self.line_cost(w, len, limit).saturating_add(self.words[w].best_cost);
                if start == 0 && self.last_line_length > 0 {
                    wcost += ragged_cost((len - self.last_line_length) as Cost);
                }
                if wcost < best {
                    best = wcost;
                    self.words[start].next_break = w;
                    self.words[start].line_length = len;
                }
                if w == limit {
                    break;
                }
                len += self.words[w - 1].space + self.words[w].length;
                if len >= self.max_width {
                    break;
                }
            }
            self.words[start].best_cost = best.saturating_add(self.base_cost(start));
        }
        self.words.pop();
    }

    fn put_line(&mut self, mut w: usize, indent: i32) {
        self.out_column = 0;
        self.put_space(self.prefix_indent);
        let prefix = self.prefix[..self.prefix_length as usize].to_vec();
        self.out.extend_from_slice(&prefix);
        self.out_column += self.prefix_length;
        self.put_space(indent - self.out_column);
        let endline = self.words[w].next_break - 1;
        while w != endline {
            self.put_word(w);
            self.put_space(self.words[w].space);
            w += 1;
        }
        self.put_word(w);
        self.last_line_length = self.out_column;
        self.out.push(b'\n');
    }

    fn put_word(&mut self, w: usize) {
        let text = std::mem::take(&mut self.words[w].text);
        self.out.extend_from_slice(&text);
        self.out_column += self.words[w].length;
        self.words[w].text = text;
    }

    /// A paragraph longer than GNU's buffers (1000 words, 5000 bytes) is output up to a
    /// cheap break near its end and the rest kept, so long paragraphs break as GNU's do.
    fn flush_paragraph(&mut self, partial: &mut Vec<u8>) {
        if self.words.is_empty() {
            self.out.extend_from_slice(partial);
            partial.clear();
            self.chars = 0;
            return;
        }
        self.fmt_paragraph();
        let limit = self.words.len();
        let mut split = limit;
        let mut best_break = MAXCOST;
        let mut w = self.words[0].next_break;
        while w != limit {
            let next = self.words[w].next_break;
            let next_cost = if next == limit { 0 } else { self.words[next].best_cost };
            let here = self.words[w].best_cost.saturating_sub(next_cost);
            if here < best_break {
                split = w;
                best_break = here;
            }
            if best_break <= MAXCOST - LINE_COST {
                best_break += LINE_COST;
            }
            w = next;
        }
        self.put_paragraph(split);
        self.words.drain(..split);
        self.chars = self.words.iter().map(|w| w.text.len()).sum::<usize>() + partial.len();
    }

    fn put_paragraph(&mut self, limit: usize) {
        self.put_line(0, self.first_indent);
        let mut w = self.words[0].next_break;
        while w != limit {
            self.put_line(w, self.other_indent);
            w = self.words[w].next_break;
        }
    }

    fn run(&mut self) {
        self.tabs = false;
        self.other_indent = 0;
        self.next_char = self.get_prefix();
        while self.get_paragraph() {
            self.fmt_paragraph();
            self.put_paragraph(self.words.len());
        }
    }
}

fn is_space(c: i32) -> bool {
    matches!(c, 9..=13 | 32)
}

fn check_punctuation(w: &mut Word) {
    let t = &w.text;
    let mut finish = t.len() - 1;
    w.paren = b"(['`\"".contains(&t[0]);
    w.punct = t[finish].is_ascii_punctuation();
    while finish > 0 && b")]'\"".contains(&t[finish]) {
        finish -= 1;
    }
    w.period = b".?!".contains(&t[finish]);
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // GNU also takes the width as `-75` (first argument only there; anywhere here).
    let args: Vec<String> = args.iter().map(|a| if a.len() > 1 && a.starts_with('-') && a[1..].bytes().all(|c| c.is_ascii_digit()) { format!("-w{}", &a[1..]) } else { a.clone() }).collect();
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    let number = |ctx: &mut Ctx, k: &str| -> Result<Option<i32>, ()> {
        match p.last(k).map(|w| w.parse::<i32>()) {
            Some(Ok(n)) if (0..2500).contains(&n) => Ok(Some(n)),
            Some(_) => {
                ctx.diag.error(format!("invalid width: {}", lq(p.last(k).unwrap())));
                Err(())
            }
            None => Ok(None),
        }
    };
    let (w, g) = match (number(ctx, "w"), number(ctx, "g")) {
        (Ok(w), Ok(g)) => (w, g),
        _ => return Ok(1),
    };
    let max_width = w.unwrap_or(match g {
        Some(g) => g + 10,
        None => 75,
    });
    let goal_width = g.unwrap_or(max_width * (2 * (100 - 7) + 1) / 200);
    if goal_width > max_width {
        ctx.diag.error(format!("invalid width: {}", lq(&goal_width.to_string())));
        return Ok(1);
    }
    let raw = p.last("p").unwrap_or("").as_bytes();
    let lead = raw.iter().take_while(|&&b| b == b' ').count();
    let prefix = raw[lead..].to_vec();
    let trimmed = prefix.len() - prefix.iter().rev().take_while(|&&b| b == b' ').count();
    for name in input::or_stdin(&p.operands) {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("cannot open {} for reading: {}", q(&name), reason(&e)));
            continue;
        }
        let mut f = Fmt {
            max_width,
            goal_width,
            split: p.has("s"),
            crown: p.has("c"),
            tagged: p.has("t"),
            uniform: p.has("u"),
            prefix_lead_space: lead as i32,
            prefix_full_length: prefix.len() as i32,
            prefix_length: trimmed as i32,
            prefix: prefix[..trimmed].to_vec(),
            data: &data,
            pos: 0,
            out: Vec::new(),
            tabs: false,
            in_column: 0,
            out_column: 0,
            next_prefix_indent: 0,
            prefix_indent: 0,
            first_indent: 0,
            other_indent: 0,
            last_line_length: 0,
            next_char: EOF,
            words: Vec::new(),
            chars: 0,
        };
        f.run();
        ctx.out.write_all(&f.out)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["-w", "20"], "The quick brown fox jumps over the lazy dog. The end.\n", "The quick brown fox\njumps over the lazy\ndog. The end.\n"),
            (&[], "a b\n\n\n  c d\n", "a b\n\n\n  c d\n"),
            (&[], "a\nb\nc\n", "a b c\n"),
            (&["-10"], "aaa bbb ccc\n", "aaa\nbbb ccc\n"),
        ];
        for (args, input, out) in cases {
            check("fmt", args, input, out, 0);
        }
    }
}
