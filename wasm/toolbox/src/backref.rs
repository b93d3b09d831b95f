//! A small backtracking matcher for POSIX BRE/ERE patterns (GNU flavour)
//! that use back-references (`\1`..`\9`), which the `regex` crate cannot
//! express. Only such patterns come here; everything else keeps the crate's
//! fast automata.
//!
//! The pattern is parsed straight from POSIX syntax (same rules as
//! `regex_posix::translate`) and compiled to a tiny instruction list run by
//! a backtracking VM over bytes (UTF-8 characters are decoded where valid,
//! a stray byte stands for itself). At each start position every path is
//! explored and the longest overall match wins (POSIX leftmost-longest);
//! among equally long matches the greedy-first one supplies the groups.
//! A step budget turns catastrophic backtracking into an error instead of a
//! hang.

/// Error returned when a search exceeds its step budget.
pub const TOO_COMPLEX: &str = "pattern too complex for back-references";

/// Steps (instructions executed) allowed for one search call.
const BUDGET: u64 = 5_000_000;
/// Largest compiled program; counted repetitions are unrolled.
const MAX_PROG: usize = 200_000;

/// Group spans of one match: index 0 is the whole match.
pub type Captures = Vec<Option<(usize, usize)>>;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Look {
    /// `^` (after a newline too when multi-line).
    Bol,
    /// `$` (before a newline too when multi-line).
    Eol,
    /// \` and \' : the very start and end of the subject.
    Start,
    End,
    Word,
    NotWord,
    WordStart,
    WordEnd,
}

#[derive(Debug, Clone)]
struct Class {
    negated: bool,
    /// Inclusive code point ranges (already case-expanded when icase).
    ranges: Vec<(u32, u32)>,
}

impl Class {
    fn matches(&self, c: u32) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= c && c <= b) != self.negated
    }
}

#[derive(Debug, Clone)]
enum Node {
    Empty,
    Char(u32),
    Any,
    Class(usize),
    Look(Look),
    Group(usize, Box<Node>),
    Backref(usize),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

impl Node {
    /// Collects ASCII literals that every match of the node contains.
    fn required(&self, icase: bool, out: &mut Vec<u8>) {
        match self {
            Node::Char(c) if *c < 128 && !(icase && (*c as u8).is_ascii_alphabetic()) => {
                if !out.contains(&(*c as u8)) {
                    out.push(*c as u8);
                }
            }
            Node::Group(_, n) => n.required(icase, out),
            Node::Concat(v) => v.iter().for_each(|n| n.required(icase, out)),
            Node::Repeat(n, min, _) if *min > 0 => n.required(icase, out),
            _ => {}
        }
    }

    /// True when the node may match without consuming input (conservative).
    fn nullable(&self) -> bool {
        match self {
            Node::Empty | Node::Look(_) | Node::Backref(_) => true,
            Node::Char(_) | Node::Any | Node::Class(_) => false,
            Node::Group(_, n) => n.nullable(),
            Node::Concat(v) => v.iter().all(|n| n.nullable()),
            Node::Alt(v) => v.iter().any(|n| n.nullable()),
            Node::Repeat(n, min, _) => *min == 0 || n.nullable(),
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Inst {
    Char(u32),
    Any,
    Class(usize),
    Look(Look),
    /// Try the first target, then (on failure) the second.
    Split(usize, usize),
    Jmp(usize),
    Save(usize),
    Backref(usize),
    /// Record the position at the start of an iteration of a loop whose body
    /// can match empty ...
    Mark(usize),
    /// ... and fail the iteration if it consumed nothing (no endless loops).
    Progress(usize),
    Match,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Backref {
    prog: Vec<Inst>,
    classes: Vec<Class>,
    groups: usize,
    marks: usize,
    icase: bool,
    multiline: bool,
    /// Pattern starts with `^` (not multi-line): only offset 0 can match.
    anchored: bool,
    /// A byte every match must start with, to skip ahead with memchr.
    first_byte: Option<u8>,
    /// ASCII bytes every match must contain: a subject without one of them
    /// is rejected before any backtracking.
    required: Vec<u8>,
    /// The pattern with back-references loosened to `.*`, run by the `regex`
    /// crate (on valid UTF-8 subjects) to reject subjects at once: glibc rejects with a DFA first
    /// too, so `\([a-z]*\)[0-9]\1` on a long line of letters must not
    /// backtrack into the step budget.
    filter: Option<regex::bytes::Regex>,
}

struct Parser<'a> {
    c: &'a [char],
    i: usize,
    ere: bool,
    icase: bool,
    /// Groups of earlier patterns (grep -e A -e B): `\1` here means
    /// group base + 1.
    base: usize,
    groups: usize,
    closed: Vec<bool>,
    classes: Vec<Class>,
}

fn fold(c: u32) -> u32 {
    if c < 128 {
        return (c as u8).to_ascii_lowercase() as u32;
    }
    match char::from_u32(c) {
        Some(ch) => ch.to_lowercase().next().map(|l| l as u32).unwrap_or(c),
        None => c,
    }
}

/// ASCII members of a named class (the crate's `[[:name:]]` is ASCII too).
fn class_members(name: &str) -> Option<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    let test: fn(u8) -> bool = match name {
        "alpha" => |b| b.is_ascii_alphabetic(),
        "digit" => |b| b.is_ascii_digit(),
        "alnum" => |b| b.is_ascii_alphanumeric(),
        "upper" => |b| b.is_ascii_uppercase(),
        "lower" => |b| b.is_ascii_lowercase(),
        "space" => |b| b == b' ' || (9..=13).contains(&b),
        "blank" => |b| b == b' ' || b == b'\t',
        "punct" => |b| b.is_ascii_punctuation(),
        "print" => |b| (0x20..0x7f).contains(&b),
        "graph" => |b| b.is_ascii_graphic(),
        "cntrl" => |b| b < 0x20 || b == 0x7f,
        "xdigit" => |b| b.is_ascii_hexdigit(),
        _ => return None,
    };
    for b in 0..128u8 {
        if test(b) {
            out.push((b as u32, b as u32));
        }
    }
    Some(out)
}

fn word_ranges() -> Vec<(u32, u32)> {
    vec![(b'0' as u32, b'9' as u32), (b'A' as u32, b'Z' as u32), (b'_' as u32, b'_' as u32), (b'a' as u32, b'z' as u32)]
}

impl<'a> Parser<'a> {
    fn add_class(&mut self, negated: bool, mut ranges: Vec<(u32, u32)>) -> Node {
        if self.icase {
            // Add the other case of every letter so folding is not needed
            // while matching.
            let mut extra = Vec::new();
            for &(a, b) in &ranges {
                if b - a > 0x3000 {
                    continue;
                }
                for c in a..=b {
                    if let Some(ch) = char::from_u32(c) {
                        for o in ch.to_lowercase().chain(ch.to_uppercase()) {
                            if o != ch {
                                extra.push((o as u32, o as u32));
                            }
                        }
                    }
                }
            }
            ranges.extend(extra);
        }
        self.classes.push(Class { negated, ranges });
        Node::Class(self.classes.len() - 1)
    }

    fn lit(&self, c: char) -> Node {
        Node::Char(if self.icase { fold(c as u32) } else { c as u32 })
    }

    /// Bracket expression; `self.i` is just after '['.
    fn bracket(&mut self) -> Result<Node, String> {
        const UNMATCHED: &str = "Unmatched [, [^, [:, [., or [=";
        let c = self.c;
        let mut negated = false;
        if c.get(self.i) == Some(&'^') {
            negated = true;
            self.i += 1;
        }
        // GNU's dfa: a '[' (or "[^") that ends the pattern is reported before any bracket is parsed.
        if self.i == c.len() {
            return Err("Invalid regular expression".into());
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let ch = match c.get(self.i) {
                Some(ch) => *ch,
                None => return Err(UNMATCHED.into()),
            };
            if ch == ']' && !first {
                self.i += 1;
                break;
            }
            first = false;
            if ch == '[' && matches!(c.get(self.i + 1), Some(':') | Some('=') | Some('.')) {
                let kind = c[self.i + 1];
                let mut j = self.i + 2;
                while j + 1 < c.len() && !(c[j] == kind && c[j + 1] == ']') {
                    j += 1;
                }
                if j + 1 >= c.len() {
                    return Err(UNMATCHED.into());
                }
                let name: String = c[self.i + 2..j].iter().collect();
                if kind == ':' {
                    ranges.extend(class_members(&name).ok_or_else(|| "Invalid character class name".to_string())?);
                } else {
                    ranges.extend(name.chars().map(|x| (x as u32, x as u32)));
                }
                self.i = j + 2;
                continue;
            }
            // A range `a-z`, unless the '-' is last (`[a-]`).
            if c.get(self.i + 1) == Some(&'-') && matches!(c.get(self.i + 2), Some(e) if *e != ']') {
                let end = c[self.i + 2];
                if (end as u32) < (ch as u32) {
                    return Err("Invalid range end".into());
                }
                ranges.push((ch as u32, end as u32));
                self.i += 3;
                continue;
            }
            ranges.push((ch as u32, ch as u32));
            self.i += 1;
        }
        Ok(self.add_class(negated, ranges))
    }

    /// Interval body after the opening brace; returns (min, max, index after
    /// the closing brace) or None when it is not a valid interval.
    fn interval(&self, start: usize) -> Option<(u32, Option<u32>, usize)> {
        let c = self.c;
        let num = |mut j: usize| -> (Option<u32>, usize) {
            let st = j;
            let mut v: u32 = 0;
            while j < c.len() && c[j].is_ascii_digit() {
                v = v.saturating_mul(10).saturating_add(c[j] as u32 - '0' as u32);
                j += 1;
            }
            (if j > st { Some(v) } else { None }, j)
        };
        let (lo, mut j) = num(start);
        let hi;
        if c.get(j) == Some(&',') {
            let (h, k) = num(j + 1);
            if lo.is_none() && h.is_none() {
                return None;
            }
            hi = h;
            j = k;
        } else {
            lo?;
            hi = lo;
        }
        let end = if self.ere {
            if c.get(j) != Some(&'}') {
                return None;
            }
            j + 1
        } else {
            if c.get(j) != Some(&'\\') || c.get(j + 1) != Some(&'}') {
                return None;
            }
            j + 2
        };
        Some((lo.unwrap_or(0), hi, end))
    }

    /// Alternatives up to the end of the pattern or the closing paren.
    fn alt(&mut self, depth: usize) -> Result<Node, String> {
        // As in glibc, a branch may only refer to groups closed before the
        // alternation or inside the branch itself, not in an earlier branch.
        let initial = self.closed.clone();
        let mut branches = vec![self.seq(depth)?];
        loop {
            let c = self.c;
            if self.ere && c.get(self.i) == Some(&'|') {
                self.i += 1;
            } else if !self.ere && c.get(self.i) == Some(&'\\') && c.get(self.i + 1) == Some(&'|') {
                self.i += 2;
            } else {
                break;
            }
            let done = std::mem::replace(&mut self.closed, initial.clone());
            self.closed.resize(done.len(), false);
            branches.push(self.seq(depth)?);
            for (c, d) in self.closed.iter_mut().zip(done) {
                *c |= d;
            }
        }
        Ok(if branches.len() == 1 { branches.pop().unwrap() } else { Node::Alt(branches) })
    }

    fn seq(&mut self, depth: usize) -> Result<Node, String> {
        let c = self.c;
        let ere = self.ere;
        let mut items: Vec<Node> = Vec::new();
        // True where a quantifier would have nothing to repeat (so is literal).
        let mut at_start = true;
        while self.i < c.len() {
            let ch = c[self.i];
            let next = c.get(self.i + 1).copied();
            // End of this sequence?
            if ere && (ch == '|' || (ch == ')' && depth > 0)) {
                break;
            }
            if !ere && ch == '\\' && matches!(next, Some('|') | Some(')')) {
                if next == Some(')') && depth == 0 {
                    return Err("Unmatched ) or \\)".into());
                }
                break;
            }
            let was_start = at_start;
            at_start = false;
            // GNU's ERE refuses a quantifier with nothing before it (BRE
            // takes it literally, below).
            if ere && was_start && matches!(ch, '*' | '+' | '?' | '{') {
                return Err("Invalid preceding regular expression".into());
            }
            // Quantifiers apply to the previous item.
            let quant: Option<(u32, Option<u32>, usize)> = match ch {
                '*' if !was_start => Some((0, None, self.i + 1)),
                '+' | '?' if ere && !was_start => Some((if ch == '+' { 1 } else { 0 }, if ch == '+' { None } else { Some(1) }, self.i + 1)),
                '\\' if !ere && !was_start && matches!(next, Some('+') | Some('?')) => {
                    Some((if next == Some('+') { 1 } else { 0 }, if next == Some('+') { None } else { Some(1) }, self.i + 2))
                }
                '{' if ere => match self.interval(self.i + 1) {
                    Some(q) => Some(q),
                    None => return Err("Unmatched \\{".into()),
                },
                '\\' if !ere && next == Some('{') => {
                    if was_start {
                        return Err("Unmatched \\{".into());
                    }
                    match self.interval(self.i + 2) {
                        Some(q) => Some(q),
                        None => return Err("Unmatched \\{".into()),
                    }
                }
                _ => None,
            };
            if let Some((min, max, after)) = quant {
                if let Some(m) = max {
                    if m < min {
                        return Err("Invalid content of \\{\\}".into());
                    }
                }
                if min > 32767 || max.map_or(false, |m| m > 32767) {
                    return Err("Regular expression too big".into());
                }
                let prev = items.pop().unwrap_or(Node::Empty);
                items.push(Node::Repeat(Box::new(prev), min, max));
                self.i = after;
                continue;
            }
            match ch {
                '[' => {
                    self.i += 1;
                    let n = self.bracket()?;
                    items.push(n);
                    continue;
                }
                '(' if ere => {
                    self.i += 1;
                    items.push(self.group(depth)?);
                    continue;
                }
                ')' if ere => return Err("Unmatched ) or \\)".into()),
                '^' if ere || was_start => {
                    items.push(Node::Look(Look::Bol));
                    at_start = true;
                }
                '$' => {
                    let at_end = self.i + 1 == c.len()
                        || (!ere && next == Some('\\') && matches!(c.get(self.i + 2), Some(')') | Some('|')));
                    items.push(if ere || at_end { Node::Look(Look::Eol) } else { Node::Char('$' as u32) });
                }
                '.' => items.push(Node::Any),
                '\\' => {
                    let n = match next {
                        Some(n) => n,
                        None => return Err("Trailing backslash".into()),
                    };
                    self.i += 2;
                    let node = match n {
                        '(' if !ere => {
                            items.push(self.group(depth)?);
                            continue;
                        }
                        '1'..='9' => {
                            let g = self.base + (n as usize - '0' as usize);
                            if g > self.groups || !self.closed[g] {
                                return Err("Invalid back reference".into());
                            }
                            Node::Backref(g)
                        }
                        '<' => Node::Look(Look::WordStart),
                        '>' => Node::Look(Look::WordEnd),
                        'b' => Node::Look(Look::Word),
                        'B' => Node::Look(Look::NotWord),
                        '`' => Node::Look(Look::Start),
                        '\'' => Node::Look(Look::End),
                        'w' | 'W' => self.add_class(n == 'W', word_ranges()),
                        's' | 'S' => self.add_class(n == 'S', class_members("space").unwrap()),
                        'n' => Node::Char('\n' as u32),
                        other => self.lit(other),
                    };
                    items.push(node);
                    continue;
                }
                other => items.push(self.lit(other)),
            }
            self.i += 1;
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap(),
            _ => Node::Concat(items),
        })
    }

    /// A group; `self.i` is just after its opening paren.
    fn group(&mut self, depth: usize) -> Result<Node, String> {
        self.groups += 1;
        let idx = self.groups;
        self.closed.push(false);
        let inner = self.alt(depth + 1)?;
        let c = self.c;
        if self.ere && c.get(self.i) == Some(&')') {
            self.i += 1;
        } else if !self.ere && c.get(self.i) == Some(&'\\') && c.get(self.i + 1) == Some(&')') {
            self.i += 2;
        } else {
            return Err("Unmatched ( or \\(".into());
        }
        self.closed[idx] = true;
        Ok(Node::Group(idx, Box::new(inner)))
    }
}

struct Compiler {
    prog: Vec<Inst>,
    marks: usize,
}

impl Compiler {
    fn push(&mut self, i: Inst) -> Result<usize, String> {
        if self.prog.len() >= MAX_PROG {
            return Err("Regular expression too big".into());
        }
        self.prog.push(i);
        Ok(self.prog.len() - 1)
    }

    /// One round of a repetition; `guarded` rounds must consume input.
    fn emit_round(&mut self, inner: &Node, guarded: bool, mark: usize) -> Result<(), String> {
        if guarded {
            self.push(Inst::Mark(mark))?;
        }
        self.emit(inner)?;
        if guarded {
            self.push(Inst::Progress(mark))?;
        }
        Ok(())
    }

    fn emit(&mut self, n: &Node) -> Result<(), String> {
        match n {
            Node::Empty => {}
            Node::Char(c) => {
                self.push(Inst::Char(*c))?;
            }
            Node::Any => {
                self.push(Inst::Any)?;
            }
            Node::Class(k) => {
                self.push(Inst::Class(*k))?;
            }
            Node::Look(l) => {
                self.push(Inst::Look(*l))?;
            }
            Node::Backref(g) => {
                self.push(Inst::Backref(*g))?;
            }
            Node::Group(g, inner) => {
                self.push(Inst::Save(2 * g))?;
                self.emit(inner)?;
                self.push(Inst::Save(2 * g + 1))?;
            }
            Node::Concat(v) => {
                for x in v {
                    self.emit(x)?;
                }
            }
            Node::Alt(v) => {
                let mut jumps = Vec::new();
                for (k, x) in v.iter().enumerate() {
                    if k + 1 < v.len() {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.emit(x)?;
                        jumps.push(self.push(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, next);
                    } else {
                        self.emit(x)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.prog[j] = Inst::Jmp(end);
                }
            }
            Node::Repeat(inner, min, max) => {
                // glibc lets only the first round of a repetition match empty
                // (`(x*)*y\1` matches "y" with \1 empty, but `(a?){2}b\1`
                // matches neither "b" nor "ab"); later rounds of a body that
                // can match empty are guarded to consume something. That also
                // keeps unbounded loops from spinning.
                let guard = inner.nullable();
                let mark = self.marks;
                if guard {
                    self.marks += 1;
                }
                let mut round = 0u32;
                for _ in 0..*min {
                    self.emit_round(inner, guard && round > 0, mark)?;
                    round += 1;
                }
                let mut skips = Vec::new();
                match max {
                    None => {
                        if guard && round == 0 {
                            skips.push(self.push(Inst::Split(0, 0))?);
                            self.emit(inner)?;
                        }
                        // L: Split(body, out); body: round; Jmp L
                        let split = self.push(Inst::Split(0, 0))?;
                        skips.push(split);
                        self.emit_round(inner, guard, mark)?;
                        self.push(Inst::Jmp(split))?;
                    }
                    Some(max) => {
                        // Each optional round may be skipped to the very end.
                        for _ in *min..*max {
                            skips.push(self.push(Inst::Split(0, 0))?);
                            self.emit_round(inner, guard && round > 0, mark)?;
                            round += 1;
                        }
                    }
                }
                let out = self.prog.len();
                for s in skips {
                    self.prog[s] = Inst::Split(s + 1, out);
                }
            }
        }
        Ok(())
    }
}

/// True when a POSIX pattern uses a back-reference (outside brackets), so it
/// needs this engine rather than the `regex` crate.
pub fn has_backref(pat: &str) -> bool {
    let c: Vec<char> = pat.chars().collect();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' => {
                if matches!(c.get(i + 1), Some('1'..='9')) {
                    return true;
                }
                i += 2;
            }
            '[' => i = bracket_end(&c, i),
            _ => i += 1,
        }
    }
    false
}

/// Index just past the bracket expression starting at c[i] == '['
/// (`]` first is a member; `[:x:]` style items may contain `]`).
fn bracket_end(c: &[char], mut i: usize) -> usize {
    i += 1;
    if c.get(i) == Some(&'^') {
        i += 1;
    }
    if c.get(i) == Some(&']') {
        i += 1;
    }
    while i < c.len() && c[i] != ']' {
        if c[i] == '[' && matches!(c.get(i + 1), Some(':') | Some('=') | Some('.')) {
            let kind = c[i + 1];
            let mut j = i + 2;
            while j + 1 < c.len() && !(c[j] == kind && c[j + 1] == ']') {
                j += 1;
            }
            i = j + 2;
            continue;
        }
        i += 1;
    }
    (i + 1).min(c.len())
}

/// A POSIX pattern that matches at least wherever `pat` does, in a form the
/// `regex` crate can run: each back-reference becomes `(.*)`, word-boundary
/// assertions become an empty group and `\W` `\S` any character (the crate's
/// Unicode notions of those are not supersets of ours).
fn superset_source(pat: &str, ere: bool) -> String {
    let c: Vec<char> = pat.chars().collect();
    let (open, close) = if ere { ("(", ")") } else { ("\\(", "\\)") };
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' if i + 1 < c.len() => {
                match c[i + 1] {
                    '1'..='9' => {
                        out.push_str(open);
                        out.push_str(".*");
                        out.push_str(close);
                    }
                    '<' | '>' | 'b' | 'B' => {
                        out.push_str(open);
                        out.push_str(close);
                    }
                    'W' | 'S' => out.push('.'),
                    n => {
                        out.push('\\');
                        out.push(n);
                    }
                }
                i += 2;
            }
            '[' => {
                let end = bracket_end(&c, i);
                out.extend(c[i..end].iter());
                i = end;
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// Decodes the character at `hay[i]`: (code point, length). A byte that does
/// not start a valid UTF-8 sequence stands for itself (as 0x110000 + byte, so
/// it never equals a real character but `.` and `[^x]` still take it).
#[inline]
fn decode(hay: &[u8], i: usize) -> (u32, usize) {
    let b = hay[i];
    if b < 0x80 {
        return (b as u32, 1);
    }
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (0x110000 + b as u32, 1),
    };
    if let Some(s) = hay.get(i..i + len) {
        if let Ok(t) = std::str::from_utf8(s) {
            if let Some(ch) = t.chars().next() {
                return (ch as u32, len);
            }
        }
    }
    (0x110000 + b as u32, 1)
}

fn is_word(hay: &[u8], i: usize) -> bool {
    i < hay.len() && (hay[i].is_ascii_alphanumeric() || hay[i] == b'_')
}

enum Frame {
    Try(usize, usize),
    Slot(usize, usize),
    Mark(usize, usize),
}

const NONE: usize = usize::MAX;

impl Backref {
    /// Compiles a POSIX pattern (`ere` for extended syntax).
    pub fn new(pat: &str, ere: bool, icase: bool, multiline: bool) -> Result<Backref, String> {
        Backref::with_patterns(&[pat], ere, icase, multiline, false)
    }

    /// Compiles several patterns as alternatives (grep's -e A -e B), each
    /// with its own group numbering for `\1`..`\9`; `whole` anchors the
    /// alternation at both ends (grep -x). Captures number the groups of
    /// all patterns one after another.
    pub fn with_patterns(pats: &[&str], ere: bool, icase: bool, multiline: bool, whole: bool) -> Result<Backref, String> {
        let (mut groups, mut closed, mut classes) = (0, vec![true], Vec::new());
        let mut alts = Vec::new();
        for pat in pats {
            let chars: Vec<char> = pat.chars().collect();
            let mut p = Parser { c: &chars, i: 0, ere, icase, base: groups, groups, closed, classes };
            alts.push(p.alt(0)?);
            if p.i < chars.len() {
                // Only an unmatched BRE `\)` stops the top level early.
                return Err("Unmatched ) or \\)".into());
            }
            groups = p.groups;
            closed = p.closed;
            classes = p.classes;
        }
        let mut node = if alts.len() == 1 { alts.pop().unwrap() } else { Node::Alt(alts) };
        if whole {
            node = Node::Concat(vec![Node::Look(Look::Start), node, Node::Look(Look::End)]);
        }
        let p = Parser { c: &[], i: 0, ere, icase, base: 0, groups, closed, classes };
        let mut cm = Compiler { prog: Vec::new(), marks: 0 };
        cm.emit(&node)?;
        cm.push(Inst::Match)?;
        let anchored = !multiline && matches!(cm.prog.first(), Some(Inst::Look(Look::Bol)) | Some(Inst::Look(Look::Start)));
        let first_byte = match cm.prog.iter().find(|i| !matches!(i, Inst::Save(_))) {
            Some(Inst::Char(c)) if *c < 128 && !(icase && (*c as u8).is_ascii_alphabetic()) => Some(*c as u8),
            _ => None,
        };
        // A Save before a Split (group starting with an alternative) makes
        // the first byte unknowable; `find` above only skips Saves, and a
        // Split is not a Char, so first_byte is None then.
        let mut required = Vec::new();
        node.required(icase, &mut required);
        let filter = Backref::filter(pats, ere, icase, multiline, whole);
        Ok(Backref { prog: cm.prog, classes: p.classes, groups: p.groups, marks: cm.marks, icase, multiline, anchored, first_byte, required, filter })
    }

    fn filter(pats: &[&str], ere: bool, icase: bool, multiline: bool, whole: bool) -> Option<regex::bytes::Regex> {
        let mut parts = Vec::new();
        for p in pats {
            parts.push(format!("(?:{})", crate::regex_posix::translate(&superset_source(p, ere), ere).ok()?));
        }
        let body = parts.join("|");
        let full = if whole { format!("\\A(?:{})\\z", body) } else { body };
        regex::bytes::RegexBuilder::new(&full).case_insensitive(icase).multi_line(multiline).dot_matches_new_line(true).build().ok()
    }

    /// Number of groups (not counting the whole match).
    pub fn groups(&self) -> usize {
        self.groups
    }

    pub fn is_match(&self, hay: &[u8]) -> Result<bool, String> {
        Ok(self.find_at(hay, 0)?.is_some())
    }

    /// The leftmost-longest match starting at or after `start`; the subject
    /// before `start` still counts for `^`, `\b` and the like.
    pub fn find_at(&self, hay: &[u8], start: usize) -> Result<Option<Captures>, String> {
        let utf8 = self.filter.is_some() && std::str::from_utf8(hay).is_ok();
        self.find_at_utf8(hay, start, utf8)
    }

    /// `find_at` for a caller that searches one subject repeatedly (s///g)
    /// and knows whether it is valid UTF-8 (which the filter needs).
    pub fn find_at_utf8(&self, hay: &[u8], start: usize, utf8: bool) -> Result<Option<Captures>, String> {
        if start > hay.len() || self.required.iter().any(|&b| memchr::memchr(b, &hay[start..]).is_none()) {
            return Ok(None);
        }
        // One early-exit DFA check; asking the crate for match positions
        // per candidate start would cost more than it saves (`.*` scans on).
        if utf8 {
            if let Some(f) = &self.filter {
                if !f.is_match_at(hay, start) {
                    return Ok(None);
                }
            }
        }
        let mut steps = 0u64;
        let mut slots = vec![NONE; 2 * (self.groups + 1)];
        let mut marks = vec![NONE; self.marks];
        let mut stack: Vec<Frame> = Vec::new();
        let mut s = start;
        while s <= hay.len() {
            if self.anchored && s > 0 {
                return Ok(None);
            }
            if let Some(b) = self.first_byte {
                match memchr::memchr(b, &hay[s..]) {
                    Some(k) => s += k,
                    None => return Ok(None),
                }
            }
            // Do not start inside a UTF-8 character.
            let mid_char = s > 0 && s < hay.len() && (0x80..0xC0).contains(&hay[s]) && hay[s - 1] >= 0x80;
            if !mid_char {
                if let Some(end) = self.run(hay, s, &mut slots, &mut marks, &mut stack, &mut steps)? {
                    let mut caps: Captures = Vec::with_capacity(self.groups + 1);
                    caps.push(Some((s, end)));
                    for g in 1..=self.groups {
                        let (a, b) = (slots[2 * g], slots[2 * g + 1]);
                        caps.push(if a != NONE && b != NONE && a <= b { Some((a, b)) } else { None });
                    }
                    return Ok(Some(caps));
                }
            }
            s += 1;
        }
        Ok(None)
    }

    /// Explores every path from `s`; returns the end of the longest match and
    /// leaves its group positions in `slots`.
    fn run(&self, hay: &[u8], s: usize, slots: &mut Vec<usize>, marks: &mut [usize], stack: &mut Vec<Frame>, steps: &mut u64) -> Result<Option<usize>, String> {
        for x in slots.iter_mut() {
            *x = NONE;
        }
        let mut best: Option<usize> = None;
        let mut best_slots: Vec<usize> = Vec::new();
        stack.clear();
        stack.push(Frame::Try(0, s));
        'outer: while let Some(f) = stack.pop() {
            let (mut pc, mut pos) = match f {
                Frame::Try(pc, pos) => (pc, pos),
                Frame::Slot(k, old) => {
                    slots[k] = old;
                    continue;
                }
                Frame::Mark(k, old) => {
                    marks[k] = old;
                    continue;
                }
            };
            loop {
                *steps += 1;
                if *steps > BUDGET {
                    return Err(TOO_COMPLEX.into());
                }
                match self.prog[pc] {
                    Inst::Char(c) => {
                        if pos >= hay.len() {
                            continue 'outer;
                        }
                        let (mut got, len) = decode(hay, pos);
                        if self.icase {
                            got = fold(got);
                        }
                        if got != c {
                            continue 'outer;
                        }
                        pos += len;
                        pc += 1;
                    }
                    Inst::Any => {
                        if pos >= hay.len() {
                            continue 'outer;
                        }
                        pos += decode(hay, pos).1;
                        pc += 1;
                    }
                    Inst::Class(k) => {
                        if pos >= hay.len() {
                            continue 'outer;
                        }
                        let (got, len) = decode(hay, pos);
                        if !self.classes[k].matches(got) {
                            continue 'outer;
                        }
                        pos += len;
                        pc += 1;
                    }
                    Inst::Look(l) => {
                        let ok = match l {
                            Look::Bol => pos == 0 || (self.multiline && hay[pos - 1] == b'\n'),
                            Look::Eol => pos == hay.len() || (self.multiline && hay[pos] == b'\n'),
                            Look::Start => pos == 0,
                            Look::End => pos == hay.len(),
                            Look::Word | Look::NotWord | Look::WordStart | Look::WordEnd => {
                                let before = pos > 0 && is_word(hay, pos - 1);
                                let after = is_word(hay, pos);
                                match l {
                                    Look::Word => before != after,
                                    Look::NotWord => before == after,
                                    Look::WordStart => !before && after,
                                    _ => before && !after,
                                }
                            }
                        };
                        if !ok {
                            continue 'outer;
                        }
                        pc += 1;
                    }
                    Inst::Split(a, b) => {
                        stack.push(Frame::Try(b, pos));
                        pc = a;
                    }
                    Inst::Jmp(t) => pc = t,
                    Inst::Save(k) => {
                        stack.push(Frame::Slot(k, slots[k]));
                        slots[k] = pos;
                        pc += 1;
                    }
                    Inst::Mark(k) => {
                        stack.push(Frame::Mark(k, marks[k]));
                        marks[k] = pos;
                        pc += 1;
                    }
                    Inst::Progress(k) => {
                        if marks[k] == pos {
                            continue 'outer;
                        }
                        pc += 1;
                    }
                    Inst::Backref(g) => {
                        let (a, b) = (slots[2 * g], slots[2 * g + 1]);
                        // A group that did not take part matches nothing (GNU).
                        if a == NONE || b == NONE || a > b {
                            continue 'outer;
                        }
                        let len = b - a;
                        *steps += (len / 16) as u64;
                        if pos + len > hay.len() {
                            continue 'outer;
                        }
                        let same = if self.icase {
                            hay[a..b].iter().zip(&hay[pos..pos + len]).all(|(x, y)| x.eq_ignore_ascii_case(y))
                        } else {
                            hay[a..b] == hay[pos..pos + len]
                        };
                        if !same {
                            continue 'outer;
                        }
                        pos += len;
                        pc += 1;
                    }
                    Inst::Match => {
                        if best.map_or(true, |e| pos > e) {
                            best = Some(pos);
                            best_slots.clear();
                            best_slots.extend_from_slice(slots);
                            if pos == hay.len() {
                                // Nothing can be longer.
                                break 'outer;
                            }
                        }
                        continue 'outer;
                    }
                }
            }
        }
        stack.clear();
        if best.is_some() {
            slots.copy_from_slice(&best_slots);
        }
        for m in marks.iter_mut() {
            *m = NONE;
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::{has_backref, Backref, TOO_COMPLEX};

    fn find(pat: &str, ere: bool, icase: bool, hay: &str) -> Option<Vec<Option<(usize, usize)>>> {
        Backref::new(pat, ere, icase, false).unwrap().find_at(hay.as_bytes(), 0).unwrap()
    }

    #[test]
    fn matches_and_captures() {
        // (pattern, ere, icase, subject, expected whole match and group 1)
        type Case = (&'static str, bool, bool, &'static str, Option<(usize, usize)>, Option<(usize, usize)>);
        let cases: &[Case] = &[
            ("\\(ab\\)\\1", false, false, "xxababyy", Some((2, 6)), Some((2, 4))),
            ("\\(ab\\)\\1", false, false, "abxab", None, None),
            ("(.)\\1", true, false, "abccd", Some((2, 4)), Some((2, 3))),
            ("\\([a-z]*\\) \\1", false, false, "foo foo bar", Some((0, 7)), Some((0, 3))),
            // Leftmost wins over longer later: empty group at 0 matches " ".
            ("\\([a-z]*\\) \\1", false, false, "x foo foo", Some((1, 2)), Some((1, 1))),
            ("(a|ab)(c|bcd)\\2", true, false, "abcdbcd", Some((0, 7)), Some((0, 1))),
            // Leftmost-longest: the longer alternative wins even though listed last.
            ("(a|aa)\\1", true, false, "aaaa", Some((0, 4)), Some((0, 2))),
            ("(.+)\\1", true, false, "xyzxyz", Some((0, 6)), Some((0, 3))),
            ("^\\(.*\\)\\1$", false, false, "abcabc", Some((0, 6)), Some((0, 3))),
            ("^\\(.*\\)\\1$", false, false, "abcab", None, None),
            ("\\(a\\)\\1*b", false, false, "aaab", Some((0, 4)), Some((0, 1))),
            ("(a)\\1{2}", true, false, "aaaa", Some((0, 3)), Some((0, 1))),
            ("\\(a\\)\\1\\{1,2\\}", false, false, "aaaa", Some((0, 3)), Some((0, 1))),
            ("\\(a\\)\\1\\+", false, false, "aaaa", Some((0, 4)), Some((0, 1))),
            ("\\(a\\)\\1\\?x", false, false, "aax", Some((0, 3)), Some((0, 1))),
            ("\\(a\\|b\\)\\1", false, false, "abba", Some((1, 3)), Some((1, 2))),
            ("a+\\(b\\)\\1", false, false, "a+bb", Some((0, 4)), Some((2, 3))),
            ("([[:digit:]]+)-\\1", true, false, "12-13 7-7", Some((6, 9)), Some((6, 7))),
            ("([^ ]+) \\1", true, false, "the the", Some((0, 7)), Some((0, 3))),
            ("([]x])\\1", true, false, "]]", Some((0, 2)), Some((0, 1))),
            ("(\\w+) \\1", true, false, "is is it", Some((0, 5)), Some((0, 2))),
            ("\\<(\\w+) \\1\\>", true, false, "this is isx", None, None),
            ("\\b(\\w) \\1\\b", true, false, "a a", Some((0, 3)), Some((0, 1))),
            ("(\\S)\\s\\1", true, false, "x\ty", None, None),
            ("(\\S)\\s\\1", true, false, "x\tx", Some((0, 3)), Some((0, 1))),
            ("(A)\\1", true, true, "xaA", Some((1, 3)), Some((1, 2))),
            ("([a-c])\\1", true, true, "BB", Some((0, 2)), Some((0, 1))),
            ("(é)\\1", true, false, "aéé", Some((1, 5)), Some((1, 3))),
            ("(.)\\1", true, false, "éé", Some((0, 4)), Some((0, 2))),
            ("(x*)*y\\1", true, false, "y", Some((0, 1)), Some((0, 0))),
            ("(x*)*y\\1", true, false, "xxy", Some((2, 3)), Some((2, 2))),
            ("(a*)+b\\1", true, false, "aab", Some((2, 3)), Some((2, 2))),
            ("(a|)+b\\1", true, false, "ab", Some((1, 2)), Some((1, 1))),
            ("(a?){2}b\\1", true, false, "b", None, None),
            ("(a?){1,2}\\1", true, false, "aa", Some((0, 2)), Some((0, 1))),
            ("((a[ab]a)?){1,2}\\1{1,2}", true, false, "caaaa", Some((0, 0)), Some((0, 0))),
            ("()\\1", true, false, "", Some((0, 0)), Some((0, 0))),
            ("((a)|b)\\2", true, false, "ba", None, None),
            ("((a)|b)\\2", true, false, "baa", Some((1, 3)), Some((1, 2))),
            ("a$\\(b\\)\\1", false, false, "a$bb", Some((0, 4)), Some((2, 3))),
            ("*\\(a\\)\\1", false, false, "*aa", Some((0, 3)), Some((1, 2))),
            ("a\\.\\(b\\)\\1", false, false, "axbb a.bb", Some((5, 9)), Some((7, 8))),
            ("(a)\\1\\n", true, false, "aa\n", Some((0, 3)), Some((0, 1))),
        ];
        for (pat, ere, icase, hay, whole, g1) in cases {
            let got = find(pat, *ere, *icase, hay);
            match whole {
                None => assert!(got.is_none(), "{} on {:?}: {:?}", pat, hay, got),
                Some(w) => {
                    let caps = got.unwrap_or_else(|| panic!("{} on {:?}: no match", pat, hay));
                    assert_eq!(caps[0], Some(*w), "{} on {:?}", pat, hay);
                    assert_eq!(caps.get(1).copied().flatten(), *g1, "{} on {:?} group 1", pat, hay);
                }
            }
        }
    }

    #[test]
    fn anchors_multiline_and_start_offset() {
        let re = Backref::new("^\\(a\\)\\1", false, false, false).unwrap();
        assert!(re.find_at(b"aa", 1).unwrap().is_none());
        assert!(re.find_at(b"x\naa", 0).unwrap().is_none());
        let ml = Backref::new("^\\(a\\)\\1$", false, false, true).unwrap();
        assert_eq!(ml.find_at(b"x\naa\ny", 0).unwrap().unwrap()[0], Some((2, 4)));
        let re = Backref::new("(a)\\1", true, false, false).unwrap();
        assert_eq!(re.find_at(b"aaaa", 1).unwrap().unwrap()[0], Some((1, 3)));
        assert!(re.find_at(b"", 0).unwrap().is_none());
        assert!(re.is_match(b"x\0aa").unwrap());
        let long = format!("{}zz", "y".repeat(200_000));
        assert_eq!(Backref::new("(z)\\1", true, false, false).unwrap().find_at(long.as_bytes(), 0).unwrap().unwrap()[0], Some((200_000, 200_002)));
    }

    #[test]
    fn errors() {
        let bad: &[(&str, bool, &str)] = &[
            ("\\(a\\)\\2", false, "Invalid back reference"),
            ("\\(a\\1\\)", false, "Invalid back reference"),
            ("(a\\1)", true, "Invalid back reference"),
            ("\\(a\\)\\1\\)", false, "Unmatched ) or \\)"),
            ("\\(a\\1", false, "Invalid back reference"),
            ("\\(a\\)\\1\\(", false, "Unmatched ( or \\("),
            ("(a)\\1)", true, "Unmatched ) or \\)"),
            ("(a)|\\1", true, "Invalid back reference"),
            ("((a)|b\\2)", true, "Invalid back reference"),
            ("(a)\\1{", true, "Unmatched \\{"),
            ("(*a)\\1", true, "Invalid preceding regular expression"),
            ("(a)|*b\\1", true, "Invalid preceding regular expression"),
            ("(a)\\1[b", true, "Unmatched [, [^, [:, [., or [="),
            ("(a)\\1[[:foo:]]", true, "Invalid character class name"),
            ("(a)\\1[z-a]", true, "Invalid range end"),
            ("\\(a\\)\\1\\{2", false, "Unmatched \\{"),
            ("(a)\\1\\", true, "Trailing backslash"),
        ];
        for (p, ere, msg) in bad {
            assert_eq!(Backref::new(p, *ere, false, false).unwrap_err(), *msg, "{}", p);
        }
    }

    #[test]
    fn filter_rejects_long_lines_fast() {
        // No digit anywhere: the crate's DFA says so before any backtracking
        // (3000 starts x 3000 steps would blow the budget).
        let line = "abcdefghij".repeat(300);
        let re = Backref::new("\\([a-z]*\\)[0-9]\\1", false, false, false).unwrap();
        assert_eq!(re.find_at(line.as_bytes(), 0), Ok(None));
        // (Where the loosened pattern matches, every start is still tried:
        // keep such lines short.)
        let hit = format!("{}abc7abc", "abcdefghij".repeat(30));
        assert_eq!(re.find_at(hit.as_bytes(), 0).unwrap().unwrap()[0], Some((300, 307)));
        // Invalid UTF-8 skips the filter (its `.` would not take 0xff).
        let re = Backref::new("\\(.\\)\\1", false, false, false).unwrap();
        assert_eq!(re.find_at(b"a\xff\xff", 0).unwrap().unwrap()[0], Some((1, 3)));
        // Word boundaries and \W are loosened, not dropped from the match.
        let re = Backref::new("\\<(\\w)\\W\\1\\>", true, false, false).unwrap();
        assert_eq!(re.find_at("é a-a".as_bytes(), 0).unwrap().unwrap()[0], Some((3, 6)));
        assert_eq!(super::superset_source("\\<\\(a\\)\\W[\\1]\\1", false), "\\(\\)\\(a\\).[\\1]\\(.*\\)");
    }

    #[test]
    fn several_patterns() {
        // grep -e '\(a\)\1' -e '\(b\)\1': each pattern numbers its own groups.
        let re = Backref::with_patterns(&["\\(a\\)\\1", "x\\(b\\)\\1"], false, false, false, false).unwrap();
        assert_eq!(re.groups(), 2);
        let caps = re.find_at(b"ab xbb", 0).unwrap().unwrap();
        assert_eq!(caps, vec![Some((3, 6)), None, Some((4, 5))]);
        assert!(Backref::with_patterns(&["\\(a\\)", "\\2"], false, false, false, false).is_err());
        // grep -x: only a match spanning the whole subject.
        let re = Backref::with_patterns(&["(a)\\1", "b"], true, false, false, true).unwrap();
        assert!(re.is_match(b"aa").unwrap());
        assert!(re.is_match(b"b").unwrap());
        assert!(!re.is_match(b"aab").unwrap());
        assert!(!re.is_match(b"baa").unwrap());
    }

    #[test]
    fn budget() {
        // The loosened pattern (`\3` as `.*`) matches, so the engine has to
        // try every way of splitting the a's.
        let re = Backref::new("\\(\\(a*\\)*\\)*\\(c\\)b\\3", false, false, false).unwrap();
        let hay = format!("{}cbx", "a".repeat(40));
        assert_eq!(re.find_at(hay.as_bytes(), 0).unwrap_err(), TOO_COMPLEX);
        let hay = "a".repeat(40);
        // A literal every match needs, missing from the subject: no search.
        let re = Backref::new("\\(\\(a*\\)*\\)*b\\1", false, false, false).unwrap();
        assert_eq!(re.find_at(hay.as_bytes(), 0), Ok(None));
    }

    #[test]
    fn detects_backrefs() {
        let cases: &[(&str, bool)] = &[("\\(a\\)\\1", true), ("a\\.b", false), ("[\\1]", false), ("[]\\1]x", false), ("[[:alpha:]]\\2", true), ("\\\\1", false), ("(a)\\9", true)];
        for (p, want) in cases {
            assert_eq!(has_backref(p), *want, "{}", p);
        }
    }
}
