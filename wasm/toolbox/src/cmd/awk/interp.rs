//! Executes an awk program.

use super::format::sprintf;
use super::parse::{Expr, Func, Pattern, Program, Redir, Stmt};
use super::hash::Map;
use super::value::{compare, num_to_str, Val, ValRef};
use crate::bytescan::{eq_lanes, find_byte, load, splat, HI};
use crate::regex_posix::translate;
use crate::{fsx, input};
use regex::Regex;
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::rc::Rc;

pub type Array = Map<Val>;

#[derive(Clone, Debug)]
pub enum Cell {
    Scalar(Val),
    Array(usize),
}

pub enum Flow {
    Normal,
    Next,
    NextFile,
    Exit(i32),
    Return(Val),
    Break,
    Continue,
}

/// Where the main records come from.
pub struct Inputs<'a> {
    pub operands: Vec<String>,
    pub pos: usize,
    pub cur: Option<Box<dyn BufRead + 'a>>,
    pub stdin: Option<&'a mut dyn BufRead>,
    pub used_any_file: bool,
}

/// How FS splits a record, worked out once per FS change.
#[derive(Clone)]
enum FsMode {
    /// " ": runs of blanks separate, leading and trailing blanks ignored.
    Blank,
    /// One literal character.
    Char(char),
    Regex(Rc<Regex>),
    /// FS is not a valid regex: each split reports it and keeps the whole text.
    Bad(String),
}

/// Special variables the interpreter reads for every record or print,
/// cached as strings; set_var refreshes them when one is assigned.
#[derive(Default)]
struct Specials {
    fs: String,
    rs: String,
    ofs: String,
    ors: String,
    subsep: String,
    convfmt: String,
    ofmt: String,
}

const SPECIALS: [&str; 7] = ["FS", "RS", "OFS", "ORS", "SUBSEP", "CONVFMT", "OFMT"];

pub struct Interp<'p, 'o> {
    pub prog: &'p Program,
    pub globals: Map<Cell>,
    pub arrays: Vec<Array>,
    frames: Vec<Map<Cell>>,
    pub record: String,
    /// Fields are split from `record` on first use (a field or NF read), so
    /// programs that only look at $0 never pay for splitting.
    /// All fields found (NF known); else `ranges` holds the first few and
    /// scanning resumes at `scan_pos`, so `$1` never splits the whole line.
    split_complete: bool,
    scan_pos: usize,
    /// Once split and unmodified, fields are byte ranges into `record`...
    ranges: Vec<(usize, usize)>,
    /// ...and after a field or NF assignment they are owned strings.
    owned: bool,
    fields: Vec<String>,
    nf: usize,
    fs_mode: FsMode,
    sp: Specials,
    /// NR and FNR live here rather than in `globals`, being bumped per record.
    nr: Val,
    fnr: Val,
    /// Reused buffers: the raw bytes of the record being read, the key
    /// being built for an array subscript, and the text of a print.
    line: Vec<u8>,
    keybuf: String,
    printbuf: String,
    print_ends: Vec<usize>,
    /// Rc: cloning a Regex would give each clone its own match cache.
    regexes: Map<Rc<Regex>>,
    pub out: &'o mut dyn Write,
    files: HashMap<String, io::BufWriter<std::fs::File>>,
    readers: HashMap<String, io::BufReader<std::fs::File>>,
    range_on: Vec<bool>,
    rand_state: u64,
    seed: f64,
    pub errors: Vec<String>,
    /// The program line the running statement starts on (Stmt::Line), 0 before any.
    pub src_line: usize,
    pub inputs: Inputs<'o>,
    /// -b: length() counts bytes, not characters.
    pub bytes: bool,
    /// -S: no redirections to or from files.
    pub sandbox: bool,
}

type R<T> = Result<T, String>;

fn uses_as_array(body: &[Stmt], name: &str) -> bool {
    fn e(x: &Expr, n: &str) -> bool {
        match x {
            Expr::Index(a, idx) => a == n || idx.iter().any(|i| e(i, n)),
            Expr::Sub(b, idx) => e(b, n) || idx.iter().any(|i| e(i, n)),
            Expr::In(keys, a) => is_array_named(a, n) || keys.iter().any(|k| e(k, n)),
            Expr::Builtin(b, args) => (b == "split" && matches!(args.get(1), Some(Expr::Var(v)) if v == n)) || args.iter().any(|a| e(a, n)),
            Expr::Call(_, args) => args.iter().any(|a| e(a, n)),
            Expr::Field(a) | Expr::Neg(a) | Expr::Plus(a) | Expr::Not(a) | Expr::Group(a) | Expr::IncDec(_, _, a) => e(a, n),
            Expr::Assign(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Match(_, a, b) | Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) | Expr::Concat(a, b) => e(a, n) || e(b, n),
            Expr::Cond(a, b, c) => e(a, n) || e(b, n) || e(c, n),
            Expr::Getline(a, b) => a.as_ref().map(|x| e(x, n)).unwrap_or(false) || b.as_ref().map(|x| e(x, n)).unwrap_or(false),
            _ => false,
        }
    }
    fn s(x: &Stmt, n: &str) -> bool {
        match x {
            Stmt::Expr(a) => e(a, n),
            Stmt::Print(v, _) | Stmt::Printf(v, _) => v.iter().any(|a| e(a, n)),
            Stmt::If(c, a, b) => e(c, n) || s(a, n) || b.as_ref().map(|b| s(b, n)).unwrap_or(false),
            Stmt::While(c, b) | Stmt::Do(b, c) => e(c, n) || s(b, n),
            Stmt::For(i, c, st, b) => i.as_ref().map(|x| s(x, n)).unwrap_or(false) || c.as_ref().map(|x| e(x, n)).unwrap_or(false) || st.as_ref().map(|x| s(x, n)).unwrap_or(false) || s(b, n),
            Stmt::ForIn(_, a, b) => is_array_named(a, n) || e(a, n) || s(b, n),
            Stmt::Block(v) => v.iter().any(|x| s(x, n)),
            Stmt::Delete(a, k) => is_array_named(a, n) || e(a, n) || k.as_ref().map(|k| k.iter().any(|x| e(x, n))).unwrap_or(false),
            Stmt::Exit(Some(a)) | Stmt::Return(Some(a)) => e(a, n),
            _ => false,
        }
    }
    body.iter().any(|x| s(x, name))
}

/// Is `a`, in an array's place (`in`, `for in`, `delete`), the plain name `n`?
fn is_array_named(a: &Expr, n: &str) -> bool {
    matches!(a, Expr::Var(v) if v == n)
}

/// gawk's name for an element in its messages: `a["1"]["x"]`.
fn elem_label(base: &str, key: &str) -> String {
    format!("{}[\"{}\"]", base, key)
}

impl<'p, 'o> Interp<'p, 'o> {
    pub fn new(prog: &'p Program, out: &'o mut dyn Write, inputs: Inputs<'o>) -> Self {
        let mut g = Map::default();
        for (k, v) in [("FS", " "), ("OFS", " "), ("ORS", "\n"), ("RS", "\n"), ("SUBSEP", "\u{1c}"), ("CONVFMT", "%.6g"), ("OFMT", "%.6g"), ("FILENAME", "")] {
            g.insert(k.to_string(), Cell::Scalar(Val::Str(v.to_string())));
        }
        for k in ["NR", "FNR", "RSTART", "RLENGTH"] {
            g.insert(k.to_string(), Cell::Scalar(Val::Num(0.0)));
        }
        g.insert("RLENGTH".into(), Cell::Scalar(Val::Num(-1.0)));
        let n = prog.items.len();
        let mut it = Interp {
            prog,
            globals: g,
            arrays: Vec::new(),
            frames: Vec::new(),
            record: String::new(),
            split_complete: true,
            scan_pos: 0,
            ranges: Vec::new(),
            owned: false,
            fields: Vec::new(),
            nf: 0,
            fs_mode: FsMode::Blank,
            sp: Specials::default(),
            nr: Val::Num(0.0),
            fnr: Val::Num(0.0),
            line: Vec::new(),
            keybuf: String::new(),
            printbuf: String::new(),
            print_ends: Vec::new(),
            regexes: Map::default(),
            out,
            files: HashMap::new(),
            readers: HashMap::new(),
            range_on: vec![false; n],
            rand_state: 0x2545F4914F6CDD1D,
            seed: 0.0,
            errors: Vec::new(),
            src_line: 0,
            bytes: false,
            sandbox: false,
            inputs,
        };
        it.refresh_specials();
        it
    }

    pub fn new_array(&mut self, a: Array) -> usize {
        self.arrays.push(a);
        self.arrays.len() - 1
    }

    fn cell(&mut self, name: &str) -> &mut Cell {
        if let Some(f) = self.frames.last_mut() {
            if f.contains_key(name) {
                return f.get_mut(name).unwrap();
            }
        }
        // Look up before inserting: entry() would allocate the key every time.
        if !self.globals.contains_key(name) {
            self.globals.insert(name.to_string(), Cell::Scalar(Val::Uninit));
        }
        self.globals.get_mut(name).unwrap()
    }

    /// The cell a name reads from, without creating it.
    fn lookup(&self, name: &str) -> Option<&Cell> {
        if let Some(c) = self.frames.last().and_then(|f| f.get(name)) {
            return Some(c);
        }
        self.globals.get(name)
    }

    fn is_local(&self, name: &str) -> bool {
        self.frames.last().map_or(false, |f| f.contains_key(name))
    }

    /// NR and FNR, unless a function parameter of that name hides them.
    fn counter(&mut self, name: &str) -> Option<&mut Val> {
        let slot = match name {
            "NR" => &mut self.nr,
            "FNR" => &mut self.fnr,
            _ => return None,
        };
        if self.frames.last().map_or(false, |f| f.contains_key(name)) {
            return None;
        }
        Some(slot)
    }

    pub fn get_var(&mut self, name: &str) -> R<Val> {
        if name == "NF" {
            self.ensure_split();
            return Ok(Val::Num(self.nf as f64));
        }
        if let Some(v) = self.counter(name) {
            return Ok(v.clone());
        }
        match self.lookup(name) {
            Some(Cell::Scalar(v)) => Ok(v.clone()),
            Some(Cell::Array(_)) => Err(format!("can't use array {} in scalar context", name)),
            None => Ok(Val::Uninit),
        }
    }

    /// A variable's numeric value, without copying a string value.
    fn var_num(&mut self, name: &str) -> R<f64> {
        if name == "NF" {
            self.ensure_split();
            return Ok(self.nf as f64);
        }
        if let Some(v) = self.counter(name) {
            return Ok(v.num());
        }
        match self.lookup(name) {
            Some(Cell::Scalar(v)) => Ok(v.num()),
            Some(Cell::Array(_)) => Err(format!("can't use array {} in scalar context", name)),
            None => Ok(0.0),
        }
    }

    /// `x op= y` and `x++` on an existing plain scalar in one lookup:
    /// replaces its value with `f(old)` and gives (old, new). None when the
    /// general path is needed: names with a capital first letter (all the
    /// special variables), arrays, and variables not yet created.
    fn update_var_num(&mut self, name: &str, f: impl FnOnce(f64) -> R<f64>) -> Option<R<(f64, f64)>> {
        if name.as_bytes().first().map_or(true, u8::is_ascii_uppercase) {
            return None;
        }
        let cell = match self.frames.last_mut().and_then(|fr| fr.get_mut(name)) {
            Some(c) => Some(c),
            None => self.globals.get_mut(name),
        };
        match cell {
            Some(Cell::Scalar(v)) => {
                let old = v.num();
                Some(f(old).map(|new| {
                    *v = Val::Num(new);
                    (old, new)
                }))
            }
            _ => None,
        }
    }

    pub fn set_var(&mut self, name: &str, v: Val) -> R<()> {
        if name == "NF" {
            let n = v.num().max(0.0) as usize;
            self.set_nf(n);
            return Ok(());
        }
        if let Some(slot) = self.counter(name) {
            *slot = v;
            return Ok(());
        }
        // All special names start with a capital: skip the list otherwise.
        let special = name.as_bytes().first().map_or(false, u8::is_ascii_uppercase) && SPECIALS.contains(&name);
        if special && name == "FS" && !self.is_local(name) {
            // The current record keeps the FS it was read with.
            self.ensure_split();
        }
        let cell = match self.frames.last_mut().and_then(|f| f.get_mut(name)) {
            Some(c) => Some(c),
            None => self.globals.get_mut(name),
        };
        match cell {
            Some(Cell::Array(_)) => return Err(format!("can't assign to {}; it's an array name.", name)),
            Some(c) => *c = Cell::Scalar(v),
            None => {
                self.globals.insert(name.to_string(), Cell::Scalar(v));
            }
        }
        if special {
            self.refresh_specials();
        }
        Ok(())
    }

    /// Re-reads the cached special variables from `globals`.
    fn refresh_specials(&mut self) {
        let convfmt = match self.globals.get("CONVFMT") {
            Some(Cell::Scalar(v)) => v.str_with("%.6g"),
            _ => "%.6g".into(),
        };
        let get = |me: &Self, name: &str| match me.globals.get(name) {
            Some(Cell::Scalar(v)) => v.str_with(&convfmt),
            _ => String::new(),
        };
        let sp = Specials {
            fs: get(self, "FS"),
            rs: get(self, "RS"),
            ofs: get(self, "OFS"),
            ors: get(self, "ORS"),
            subsep: get(self, "SUBSEP"),
            ofmt: get(self, "OFMT"),
            convfmt: convfmt.clone(),
        };
        if sp.fs != self.sp.fs || self.sp.convfmt.is_empty() {
            self.fs_mode = self.fs_mode_for(&sp.fs.clone());
        }
        self.sp = sp;
    }

    fn fs_mode_for(&mut self, fs: &str) -> FsMode {
        if fs == " " {
            return FsMode::Blank;
        }
        // gawk: any single character other than a space is taken literally (`-F'|'`)
        let mut chars = fs.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return FsMode::Char(c);
        }
        match self.regex(fs) {
            Ok(re) => FsMode::Regex(re),
            Err(e) => FsMode::Bad(e),
        }
    }

    fn array_id(&mut self, name: &str) -> R<usize> {
        // The common case, an existing array, in one lookup.
        if let Some(Cell::Array(id)) = self.lookup(name) {
            return Ok(*id);
        }
        let existing = self.cell(name).clone();
        match existing {
            Cell::Array(id) => Ok(id),
            Cell::Scalar(Val::Uninit) => {
                let id = self.new_array(Map::default());
                *self.cell(name) = Cell::Array(id);
                Ok(id)
            }
            Cell::Scalar(_) => Err(format!("can't use scalar {} as array", name)),
        }
    }

    pub fn to_s(&self, v: &Val) -> String {
        v.str_with(&self.sp.convfmt)
    }

    fn into_s(&self, v: Val) -> String {
        v.into_str_with(&self.sp.convfmt)
    }

    fn regex(&mut self, src: &str) -> R<Rc<Regex>> {
        if let Some(r) = self.regexes.get(src) {
            return Ok(Rc::clone(r));
        }
        let t = translate(&super::escape::regex(src), true).map_err(|m| format!("regular expression /{}/: {}", src, m))?;
        let r = Rc::new(Regex::new(&t).map_err(|e| format!("regular expression /{}/: {}", src, e.to_string().lines().last().unwrap_or("").trim()))?);
        self.regexes.insert(src.to_string(), Rc::clone(&r));
        Ok(r)
    }

    // ---- records and fields ----

    pub fn set_record(&mut self, rec: String) {
        self.record = rec;
        self.record_changed();
    }

    /// Marks the fields stale after `record` was replaced.
    fn record_changed(&mut self) {
        self.split_complete = false;
        self.scan_pos = 0;
        self.ranges.clear();
        self.owned = false;
        if let FsMode::Bad(_) = self.fs_mode {
            // Report a bad FS for every record, as eager splitting did.
            self.ensure_split();
        }
    }

    /// Splits until at least `want` fields are known or the record ends.
    fn split_to(&mut self, want: usize) {
        if self.split_complete || self.ranges.len() >= want {
            return;
        }
        self.split_complete = split_more(&self.record, &self.fs_mode, &mut self.ranges, &mut self.scan_pos, want, &mut self.errors);
        if self.split_complete {
            self.nf = self.ranges.len();
        }
    }

    /// Finds all fields, so that NF is known.
    fn ensure_split(&mut self) {
        self.split_to(usize::MAX);
    }

    /// Turns the range fields into owned strings, before one is changed.
    fn own_fields(&mut self) {
        self.ensure_split();
        if self.owned {
            return;
        }
        self.fields.clear();
        for &(a, b) in &self.ranges {
            self.fields.push(self.record[a..b].to_string());
        }
        self.owned = true;
    }

    fn split_with(&mut self, s: &str, fs: &str) -> Vec<String> {
        let mode = if fs == self.sp.fs { self.fs_mode.clone() } else { self.fs_mode_for(fs) };
        self.split_mode(s, &mode)
    }

    fn split_mode(&mut self, s: &str, mode: &FsMode) -> Vec<String> {
        let mut ranges = Vec::new();
        split_more(s, mode, &mut ranges, &mut 0, usize::MAX, &mut self.errors);
        ranges.iter().map(|&(a, b)| s[a..b].to_string()).collect()
    }

    fn rebuild(&mut self) {
        self.record = self.fields[..self.nf].join(&self.sp.ofs);
    }

    fn set_nf(&mut self, n: usize) {
        self.own_fields();
        self.fields.resize(n, String::new());
        self.nf = n;
        self.rebuild();
    }

    /// Text of field i (0 = the record), None past NF.
    fn field_str(&mut self, i: usize) -> Option<&str> {
        self.prepare_field(i);
        self.field_ref(i)
    }

    /// Splits far enough for field_ref(i).
    fn prepare_field(&mut self, i: usize) {
        if i > 0 && !self.owned {
            self.split_to(i);
        }
    }

    /// Field i after prepare_field(i).
    fn field_ref(&self, i: usize) -> Option<&str> {
        if i == 0 {
            Some(&self.record)
        } else if self.owned {
            self.fields[..self.nf].get(i - 1).map(|f| f.as_str())
        } else {
            self.ranges.get(i - 1).map(|&(a, b)| &self.record[a..b])
        }
    }

    fn get_field(&mut self, i: usize) -> Val {
        // A field past NF is the empty string from input: `$9 == 0` compares as strings (false), as gawk.
        Val::StrNum(self.field_str(i).unwrap_or("").to_string())
    }

    fn set_field(&mut self, i: usize, v: String) {
        if i == 0 {
            self.set_record(v);
            return;
        }
        self.own_fields();
        if i > self.nf {
            self.fields.resize(i, String::new());
            self.nf = i;
        }
        self.fields[i - 1] = v;
        self.rebuild();
    }

    /// Evaluates a field's index expression.
    fn field_index(&mut self, x: &Expr) -> R<usize> {
        let i = self.eval_num(x)?;
        if i < 0.0 {
            return Err(format!("trying to access out of range field {}", i as i64));
        }
        Ok(i as usize)
    }

    /// Numeric value of an expression, skipping the string copies that
    /// eval() makes for fields and variables.
    fn eval_num(&mut self, e: &Expr) -> R<f64> {
        match e {
            Expr::Num(n) => Ok(*n),
            Expr::Var(n) => self.var_num(n),
            Expr::Field(x) => {
                let i = self.field_index(x)?;
                Ok(self.field_str(i).map_or(0.0, super::value::input_to_num))
            }
            Expr::Group(x) => self.eval_num(x),
            _ => Ok(self.eval(e)?.num()),
        }
    }

    /// Appends an expression's string value to `out` (fields copied in place).
    fn eval_into(&mut self, e: &Expr, out: &mut String) -> R<()> {
        match e {
            Expr::Field(x) => {
                let i = self.field_index(x)?;
                if let Some(s) = self.field_str(i) {
                    out.push_str(s);
                }
            }
            Expr::Str(s) => out.push_str(s),
            _ => match self.eval(e)? {
                Val::Str(s) | Val::StrNum(s) => out.push_str(&s),
                Val::Num(n) => out.push_str(&num_to_str(n, &self.sp.convfmt)),
                Val::Uninit | Val::Arr(_) => {}
            },
        }
        Ok(())
    }
    // ---- evaluation ----

    fn assign(&mut self, target: &Expr, v: Val) -> R<()> {
        match target {
            Expr::Var(n) => self.set_var(n, v),
            Expr::Field(e) => {
                let i = self.field_index(e)?;
                let s = self.into_s(v);
                self.set_field(i, s);
                Ok(())
            }
            Expr::Index(..) | Expr::Sub(..) => {
                let (id, k, label) = self.elem_place(target)?;
                if let Some(Val::Arr(_)) = self.arrays[id].get(&k) {
                    return Err(format!("attempt to use array `{}' in a scalar context", elem_label(&label, &k)));
                }
                self.arrays[id].insert(k, v);
                Ok(())
            }
            Expr::Group(e) => self.assign(e, v),
            _ => Err("assignment to a non-variable".into()),
        }
    }

    fn key(&mut self, idx: &[Expr]) -> R<String> {
        if let [e] = idx {
            let v = self.eval(e)?;
            return Ok(self.into_s(v));
        }
        let mut parts = Vec::new();
        for e in idx {
            let v = self.eval(e)?;
            parts.push(self.into_s(v));
        }
        Ok(parts.join(&self.sp.subsep))
    }

    /// key() built in the reusable `keybuf`; hand the buffer back with
    /// `self.keybuf = k` so a lookup of an existing element allocates nothing.
    fn key_buf(&mut self, idx: &[Expr]) -> R<String> {
        if let [e] = idx {
            let mut k = std::mem::take(&mut self.keybuf);
            k.clear();
            self.eval_into(e, &mut k)?;
            return Ok(k);
        }
        self.key(idx)
    }

    /// Runs `f` on the element a subscript names, created if missing.
    /// (A closure rather than returning the reference: that lets an existing
    /// element be found with a single hash lookup.)
    fn with_element<T>(&mut self, name: &str, idx: &[Expr], f: impl FnOnce(&mut Val) -> T) -> R<T> {
        let k = self.key_buf(idx)?;
        let id = self.array_id(name)?;
        let arr = &mut self.arrays[id];
        let out = match arr.get_mut(k.as_str()) {
            Some(Val::Arr(_)) => return Err(format!("attempt to use array `{}' in a scalar context", elem_label(name, &k))),
            Some(v) => f(v),
            None => f(arr.entry(k.clone()).or_insert(Val::Uninit)),
        };
        self.keybuf = k;
        Ok(out)
    }

    /// The array, key and label of an element expression (Index or Sub), its subarrays made
    /// as gawk makes them on first use.
    fn elem_place(&mut self, e: &Expr) -> R<(usize, String, String)> {
        match e {
            Expr::Index(n, idx) => {
                let k = self.key(idx)?;
                Ok((self.array_id(n)?, k, n.clone()))
            }
            Expr::Sub(base, idx) => {
                let (id, label) = self.array_of(base)?;
                let k = self.key(idx)?;
                Ok((id, k, label))
            }
            _ => Err("array element expected".into()),
        }
    }

    /// The array an expression names: a variable, or an element that is (or becomes, when
    /// unset) a subarray. Returns its id and gawk's label for it.
    fn array_of(&mut self, e: &Expr) -> R<(usize, String)> {
        if let Expr::Var(n) = e {
            return Ok((self.array_id(n)?, n.clone()));
        }
        let (parent, k, label) = self.elem_place(e)?;
        let label = elem_label(&label, &k);
        match self.arrays[parent].get(&k) {
            Some(Val::Arr(id)) => Ok((*id, label)),
            Some(Val::Uninit) | None => {
                let id = self.new_array(Map::default());
                self.arrays[parent].insert(k, Val::Arr(id));
                Ok((id, label))
            }
            Some(_) => Err(format!("attempt to use scalar `{}' as an array", label)),
        }
    }

    /// An element's value as stored (a subarray too), made (unset) when missing.
    fn elem_raw(&mut self, e: &Expr) -> R<(Val, String)> {
        let (id, k, label) = self.elem_place(e)?;
        let label = elem_label(&label, &k);
        let v = self.arrays[id].entry(k).or_insert(Val::Uninit).clone();
        Ok((v, label))
    }

    fn match_re(&mut self, re: &Expr, s: &str) -> R<bool> {
        let src = match re {
            Expr::Regex(r) => r.clone(),
            other => {
                let v = self.eval(other)?;
                self.to_s(&v)
            }
        };
        Ok(self.regex(&src)?.is_match(s))
    }

    pub fn eval(&mut self, e: &Expr) -> R<Val> {
        Ok(match e {
            Expr::Num(n) => Val::Num(*n),
            Expr::Str(s) => Val::Str(s.clone()),
            Expr::Regex(r) => {
                let re = self.regex(r)?;
                Val::Num(if re.is_match(&self.record) { 1.0 } else { 0.0 })
            }
            Expr::Var(n) => self.get_var(n)?,
            Expr::Group(x) => self.eval(x)?,
            Expr::Field(x) => {
                let i = self.field_index(x)?;
                self.get_field(i)
            }
            Expr::Index(n, idx) => self.with_element(n, idx, |v| v.clone())?,
            Expr::Sub(..) => match self.elem_raw(e)? {
                (Val::Arr(_), label) => return Err(format!("attempt to use array `{}' in a scalar context", label)),
                (v, _) => v,
            },
            Expr::In(keys, n) => {
                let k = self.key(keys)?;
                let (id, _) = self.array_of(n)?;
                Val::Num(if self.arrays[id].contains_key(&k) { 1.0 } else { 0.0 })
            }
            Expr::Assign(op, t, rhs) => {
                let v = if *op == "=" {
                    self.eval(rhs)?
                } else {
                    let b = self.eval_num(rhs)?;
                    if let Expr::Index(n, idx) = &**t {
                        // Find the element once: the subscript is evaluated once.
                        let v = self.with_element(n, idx, |slot| {
                            let v = arith(op, slot.num(), b)?;
                            *slot = Val::Num(v);
                            R::<f64>::Ok(v)
                        })??;
                        return Ok(Val::Num(v));
                    }
                    if let Expr::Var(n) = &**t {
                        if let Some(r) = self.update_var_num(n, |cur| arith(op, cur, b)) {
                            return Ok(Val::Num(r?.1));
                        }
                    }
                    let cur = self.eval_num(t)?;
                    Val::Num(arith(op, cur, b)?)
                };
                self.assign(t, v.clone())?;
                v
            }
            Expr::Cond(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::And(a, b) => Val::Num(if self.eval(a)?.truthy() && self.eval(b)?.truthy() { 1.0 } else { 0.0 }),
            Expr::Or(a, b) => Val::Num(if self.eval(a)?.truthy() || self.eval(b)?.truthy() { 1.0 } else { 0.0 }),
            Expr::Not(a) => Val::Num(if self.eval(a)?.truthy() { 0.0 } else { 1.0 }),
            Expr::Neg(a) => Val::Num(-self.eval_num(a)?),
            Expr::Plus(a) => Val::Num(self.eval_num(a)?),
            Expr::Match(neg, l, r) => {
                let lv = self.eval(l)?;
                let s = self.to_s(&lv);
                let m = self.match_re(r, &s)?;
                Val::Num(if m != *neg { 1.0 } else { 0.0 })
            }
            Expr::Bin(op, a, b) => {
                let x = self.eval_num(a)?;
                let y = self.eval_num(b)?;
                Val::Num(arith(op, x, y)?)
            }
            Expr::Cmp(op, a, b) => {
                let ord = self.compare_exprs(a, b)?;
                use std::cmp::Ordering::*;
                let t = match *op {
                    "<" => ord == Less,
                    "<=" => ord != Greater,
                    ">" => ord == Greater,
                    ">=" => ord != Less,
                    "==" => ord == Equal,
                    _ => ord != Equal,
                };
                Val::Num(if t { 1.0 } else { 0.0 })
            }
            Expr::Concat(a, b) => {
                let mut x = String::new();
                self.eval_into(a, &mut x)?;
                self.eval_into(b, &mut x)?;
                Val::Str(x)
            }
            Expr::IncDec(pre, d, t) => {
                if let Expr::Index(n, idx) = &**t {
                    // Find the element once: the subscript is evaluated once.
                    let step = *d as f64;
                    let (old, new) = self.with_element(n, idx, |slot| {
                        let old = slot.num();
                        *slot = Val::Num(old + step);
                        (old, old + step)
                    })?;
                    return Ok(Val::Num(if *pre { new } else { old }));
                }
                if let Expr::Var(n) = &**t {
                    let step = *d as f64;
                    if let Some(r) = self.update_var_num(n, |old| Ok(old + step)) {
                        let (old, new) = r?;
                        return Ok(Val::Num(if *pre { new } else { old }));
                    }
                }
                let old = self.eval_num(t)?;
                let new = old + *d as f64;
                self.assign(t, Val::Num(new))?;
                Val::Num(if *pre { new } else { old })
            }
            Expr::Call(name, args) => self.call(name, args)?,
            Expr::Builtin(name, args) => self.builtin(name, args)?,
            Expr::Getline(var, src) => self.getline(var.as_deref(), src.as_deref())?,
            Expr::CmdGetline if self.sandbox => return Err("redirection not allowed in sandbox mode".into()),
            Expr::CmdGetline => return Err("input from a command (\"cmd\" | getline) is not available in this sandbox".into()),
        })
    }

    /// Orders two operands as awk's comparison operators do. A field on the
    /// left is compared in place when the right side has no side effects
    /// (else evaluating it could change the field first).
    fn compare_exprs(&mut self, a: &Expr, b: &Expr) -> R<std::cmp::Ordering> {
        if let (Expr::Field(x), Expr::Num(_) | Expr::Str(_) | Expr::Var(_)) = (a, b) {
            let i = self.field_index(x)?;
            let y = self.eval(b)?;
            self.prepare_field(i);
            let xr = ValRef::StrNum(self.field_ref(i).unwrap_or(""));
            return Ok(compare(xr, y.as_ref(), &self.sp.convfmt));
        }
        let x = self.eval(a)?;
        let y = self.eval(b)?;
        Ok(compare(x.as_ref(), y.as_ref(), &self.sp.convfmt))
    }

    fn call(&mut self, name: &str, args: &[Expr]) -> R<Val> {
        let f: &'p Func = match self.prog.funcs.get(name) {
            Some(f) => f,
            None => return Err(format!("calling undefined function {}", name)),
        };
        if args.len() > f.params.len() {
            return Err(format!("function {} called with {} args, accepts only {}", name, args.len(), f.params.len()));
        }
        let mut frame = Map::default();
        for (i, p) in f.params.iter().enumerate() {
            let cell = match args.get(i) {
                Some(Expr::Var(v)) => {
                    let c = self.cell(v).clone();
                    match c {
                        Cell::Array(id) => Cell::Array(id),
                        Cell::Scalar(Val::Uninit) if uses_as_array(&f.body, p) => {
                            // The callee fills an array the caller names: share it.
                            let id = self.new_array(Map::default());
                            *self.cell(v) = Cell::Array(id);
                            Cell::Array(id)
                        }
                        Cell::Scalar(_) => Cell::Scalar(self.get_var(v)?),
                    }
                }
                // An element holding a subarray is passed as that array (gawk); an unset one the
                // callee uses as an array becomes one.
                Some(e @ (Expr::Index(..) | Expr::Sub(..))) => match self.elem_raw(e)?.0 {
                    Val::Arr(id) => Cell::Array(id),
                    Val::Uninit if uses_as_array(&f.body, p) => Cell::Array(self.array_of(e)?.0),
                    v => Cell::Scalar(v),
                },
                Some(e) => Cell::Scalar(self.eval(e)?),
                None => Cell::Scalar(Val::Uninit),
            };
            frame.insert(p.clone(), cell);
        }
        if self.frames.len() > 1000 {
            return Err("function call nesting too deep".into());
        }
        self.frames.push(frame);
        let r = self.block(&f.body);
        self.frames.pop();
        match r? {
            Flow::Return(v) => Ok(v),
            Flow::Exit(c) => Err(format!("\u{0}exit {}", c)),
            Flow::Next => Err("\u{0}next".into()),
            _ => Ok(Val::Uninit),
        }
    }

    fn builtin(&mut self, name: &str, args: &[Expr]) -> R<Val> {
        let argn = |i: usize| -> Option<&Expr> { args.get(i) };
        let num_arg = |me: &mut Self, i: usize| -> R<f64> { Ok(match argn(i) { Some(e) => me.eval(e)?.num(), None => 0.0 }) };
        Ok(match name {
            "length" => match args.first() {
                None if self.bytes => Val::Num(self.record.len() as f64),
                None => Val::Num(self.record.chars().count() as f64),
                Some(Expr::Var(v)) if matches!(self.cell(v), Cell::Array(_)) => {
                    let id = self.array_id(v)?;
                    Val::Num(self.arrays[id].len() as f64)
                }
                Some(e @ (Expr::Index(..) | Expr::Sub(..))) => match self.elem_raw(e)?.0 {
                    Val::Arr(id) => Val::Num(self.arrays[id].len() as f64),
                    v => {
                        let s = self.to_s(&v);
                        Val::Num(if self.bytes { s.len() } else { s.chars().count() } as f64)
                    }
                },
                Some(e) => {
                    let v = self.eval(e)?;
                    let s = self.to_s(&v);
                    Val::Num(if self.bytes { s.len() } else { s.chars().count() } as f64)
                }
            },
            // gawk: is the argument an array (a name, or an element holding a subarray)?
            "isarray" | "typeof" => {
                let e = argn(0).ok_or_else(|| format!("{}: missing argument", name))?;
                let v = match e {
                    Expr::Var(v) => match self.lookup(v) {
                        Some(Cell::Array(_)) => Val::Arr(0),
                        Some(Cell::Scalar(x)) => x.clone(),
                        None => Val::Uninit,
                    },
                    Expr::Index(..) | Expr::Sub(..) => self.elem_raw(e)?.0,
                    e => self.eval(e)?,
                };
                if name == "isarray" {
                    Val::Num(if matches!(v, Val::Arr(_)) { 1.0 } else { 0.0 })
                } else {
                    Val::Str(type_name(&v).into())
                }
            }
            // gawk's asort(src [, dest]) sorts the values, asorti the indices (as strings), into
            // dest[1..n] (src itself when dest is absent); numbers come before strings.
            "asort" | "asorti" => {
                let src = match argn(0) {
                    Some(e @ (Expr::Var(_) | Expr::Index(..) | Expr::Sub(..))) => e,
                    _ => return Err(format!("{}: first argument not an array", name)),
                };
                let (id, _) = self.array_of(src)?;
                let mut items: Vec<Val> = if name == "asorti" {
                    self.arrays[id].keys().map(|k| Val::Str(k.clone())).collect()
                } else {
                    self.arrays[id].values().cloned().collect()
                };
                let convfmt = self.sp.convfmt.clone();
                let rank = |v: &Val| match v {
                    Val::Num(_) | Val::Uninit => 0,
                    Val::StrNum(s) if super::value::looks_numeric(s) => 0,
                    Val::Arr(_) => 2,
                    _ => 1,
                };
                items.sort_by(|x, y| {
                    rank(x).cmp(&rank(y)).then_with(|| match rank(x) {
                        0 => x.num().partial_cmp(&y.num()).unwrap_or(std::cmp::Ordering::Equal).then_with(|| x.str_with(&convfmt).cmp(&y.str_with(&convfmt))),
                        _ => x.str_with(&convfmt).cmp(&y.str_with(&convfmt)),
                    })
                });
                let dest = match argn(1) {
                    Some(e @ (Expr::Var(_) | Expr::Index(..) | Expr::Sub(..))) => self.array_of(e)?.0,
                    Some(_) => return Err(format!("{}: second argument not an array", name)),
                    None => id,
                };
                let n = items.len();
                self.arrays[dest].clear();
                for (i, v) in items.into_iter().enumerate() {
                    self.arrays[dest].insert((i + 1).to_string(), v);
                }
                Val::Num(n as f64)
            }
            "substr" if self.bytes => {
                // Bytes as units (-b or a C locale); a cut inside a UTF-8
                // character cannot be kept in a string here and becomes U+FFFD.
                let v = self.eval(argn(0).ok_or("substr: missing argument")?)?;
                let s = self.to_s(&v).into_bytes();
                let (a, b) = substr_span(s.len(), num_arg(self, 1)?, if args.len() > 2 { Some(num_arg(self, 2)?) } else { None });
                Val::Str(String::from_utf8_lossy(&s[a..b]).into_owned())
            }
            "substr" => {
                let s: Vec<char> = {
                    let v = self.eval(argn(0).ok_or("substr: missing argument")?)?;
                    self.to_s(&v).chars().collect()
                };
                let m = num_arg(self, 1)?;
                let m = round_half_even(m);
                let n = if args.len() > 2 { round_half_even(num_arg(self, 2)?) } else { f64::INFINITY };
                let start = m.max(1.0);
                let end = if n.is_infinite() { s.len() as f64 + 1.0 } else { (m + n).min(s.len() as f64 + 1.0) };
                if end <= start {
                    Val::Str(String::new())
                } else {
                    Val::Str(s[(start as usize - 1).min(s.len())..(end as usize - 1).min(s.len())].iter().collect())
                }
            }
            "index" => {
                let a = self.eval(argn(0).ok_or("index: missing argument")?)?;
                let b = self.eval(argn(1).ok_or("index: missing argument")?)?;
                let (a, b) = (self.to_s(&a), self.to_s(&b));
                Val::Num(match a.find(&b) {
                    Some(p) if self.bytes => (p + 1) as f64,
                    Some(p) => (a[..p].chars().count() + 1) as f64,
                    None => 0.0,
                })
            }
            "split" => {
                let s = self.eval(argn(0).ok_or("split: missing argument")?)?;
                let s = self.to_s(&s);
                let arr = match argn(1) {
                    Some(e @ (Expr::Var(_) | Expr::Index(..) | Expr::Sub(..))) => e,
                    _ => return Err("split: second argument must be an array name".into()),
                };
                let parts = match argn(2) {
                    // a regex constant is always a regex, even of one character (`/./`)
                    Some(Expr::Regex(r)) => {
                        let mode = match self.regex(r) {
                            Ok(re) => FsMode::Regex(re),
                            Err(e) => FsMode::Bad(e),
                        };
                        self.split_mode(&s, &mode)
                    }
                    Some(e) => {
                        let v = self.eval(e)?;
                        let fs = self.to_s(&v);
                        self.split_with(&s, &fs)
                    }
                    None => {
                        let fs = self.sp.fs.clone();
                        self.split_with(&s, &fs)
                    }
                };
                let (id, _) = self.array_of(arr)?;
                self.arrays[id].clear();
                for (i, p) in parts.iter().enumerate() {
                    self.arrays[id].insert((i + 1).to_string(), Val::StrNum(p.clone()));
                }
                Val::Num(parts.len() as f64)
            }
            "sub" | "gsub" => {
                let re_src = match argn(0) {
                    Some(Expr::Regex(r)) => r.clone(),
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                    None => return Err(format!("{}: missing argument", name)),
                };
                let repl = {
                    let v = self.eval(argn(1).ok_or("sub: missing replacement")?)?;
                    self.to_s(&v)
                };
                let target = argn(2).cloned().unwrap_or(Expr::Field(Box::new(Expr::Num(0.0))));
                let cur = {
                    let v = self.eval(&target)?;
                    self.to_s(&v)
                };
                let re = self.regex(&re_src)?;
                let mut out = String::new();
                let mut last = 0;
                let mut count = 0;
                for m in re.find_iter(&cur) {
                    out.push_str(&cur[last..m.start()]);
                    let mut chars = repl.chars().peekable();
                    while let Some(c) = chars.next() {
                        if c == '\\' && matches!(chars.peek(), Some('&')) {
                            out.push('&');
                            chars.next();
                        } else if c == '\\' && matches!(chars.peek(), Some('\\')) {
                            out.push('\\');
                            chars.next();
                        } else if c == '&' {
                            out.push_str(m.as_str());
                        } else {
                            out.push(c);
                        }
                    }
                    last = m.end();
                    count += 1;
                    if name == "sub" {
                        break;
                    }
                }
                if count > 0 {
                    out.push_str(&cur[last..]);
                    self.assign(&target, Val::Str(out))?;
                }
                Val::Num(count as f64)
            }
            "gensub" => {
                let re_src = match argn(0) {
                    Some(Expr::Regex(r)) => r.clone(),
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                    None => return Err("gensub: missing argument".into()),
                };
                let repl: Vec<char> = {
                    let v = self.eval(argn(1).ok_or("gensub: missing replacement")?)?;
                    self.to_s(&v).chars().collect()
                };
                let how = self.eval(argn(2).ok_or("gensub: missing third argument (\"g\" or a match number)")?)?;
                let how_s = self.to_s(&how);
                // "g"/"G" replaces every match, a number n only the n-th (gawk treats n < 1 as 1)
                let nth = if how_s.starts_with('g') || how_s.starts_with('G') { 0 } else { (how.num() as i64).max(1) as usize };
                let cur = match argn(3) {
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                    None => self.record.clone(),
                };
                let re = self.regex(&re_src)?;
                let mut out = String::new();
                let mut last = 0;
                for (k, c) in re.captures_iter(&cur).enumerate() {
                    let m = c.get(0).expect("group 0");
                    if nth != 0 && k + 1 != nth {
                        continue;
                    }
                    out.push_str(&cur[last..m.start()]);
                    let mut i = 0;
                    while i < repl.len() {
                        let ch = repl[i];
                        i += 1;
                        match (ch, repl.get(i)) {
                            ('\\', Some(&d)) if d.is_ascii_digit() => {
                                out.push_str(c.get(d as usize - '0' as usize).map_or("", |g| g.as_str()));
                                i += 1;
                            }
                            ('\\', Some(&e)) if e == '&' || e == '\\' => {
                                out.push(e);
                                i += 1;
                            }
                            ('&', _) => out.push_str(m.as_str()),
                            _ => out.push(ch),
                        }
                    }
                    last = m.end();
                    if nth != 0 {
                        break;
                    }
                }
                out.push_str(&cur[last..]);
                Val::Str(out)
            }
            "match" => {
                let s = self.eval(argn(0).ok_or("match: missing argument")?)?;
                let s = self.to_s(&s);
                let re = argn(1).ok_or("match: missing regex")?.clone();
                let src = match &re {
                    Expr::Regex(r) => r.clone(),
                    e => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                };
                let r = self.regex(&src)?;
                let caps = r.captures(&s);
                let (start, len) = match caps.as_ref().and_then(|c| c.get(0)) {
                    Some(m) if self.bytes => (m.start() as f64 + 1.0, m.as_str().len() as f64),
                    Some(m) => (s[..m.start()].chars().count() as f64 + 1.0, m.as_str().chars().count() as f64),
                    None => (0.0, -1.0),
                };
                // gawk's match(s, re, arr): arr[n] is group n, arr[n, "start"] and arr[n, "length"] where it is
                match argn(2) {
                    None => {}
                    Some(Expr::Var(name)) => {
                        let id = self.array_id(name)?;
                        let sep = self.sp.subsep.clone();
                        self.arrays[id].clear();
                        for (k, g) in caps.iter().flat_map(|c| c.iter()).enumerate() {
                            if let Some(g) = g {
                                let at = s[..g.start()].chars().count() + 1;
                                let a = &mut self.arrays[id];
                                a.insert(k.to_string(), Val::StrNum(g.as_str().to_string()));
                                a.insert(format!("{}{}start", k, sep), Val::Num(at as f64));
                                a.insert(format!("{}{}length", k, sep), Val::Num(g.as_str().chars().count() as f64));
                            }
                        }
                    }
                    Some(_) => return Err("match: third argument must be an array name".into()),
                }
                self.set_var("RSTART", Val::Num(start))?;
                self.set_var("RLENGTH", Val::Num(len))?;
                Val::Num(start)
            }
            "sprintf" => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(a)?);
                }
                if vals.is_empty() {
                    return Err("sprintf: no format".into());
                }
                let f = self.to_s(&vals[0]);
                Val::Str(sprintf(&f, &vals[1..], &self.sp.convfmt)?)
            }
            // gawk's time functions; the toolbox's clock and zone are UTC, as the session's are
            "systime" => Val::Num(fsx::now().0 as f64),
            "strftime" => {
                let fmt = match argn(0) {
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.to_s(&v)
                    }
                    None => "%a %b %e %H:%M:%S %Z %Y".to_string(),
                };
                let secs = if args.len() > 1 { num_arg(self, 1)? as i64 } else { fsx::now().0 };
                Val::Str(crate::cmd::date::format_utc(&fmt, secs, 0))
            }
            "tolower" | "toupper" => {
                let v = self.eval(argn(0).ok_or("missing argument")?)?;
                let s = self.to_s(&v);
                Val::Str(if name == "tolower" { s.to_lowercase() } else { s.to_uppercase() })
            }
            "int" => Val::Num(num_arg(self, 0)?.trunc()),
            "sqrt" => Val::Num(num_arg(self, 0)?.sqrt()),
            "exp" => Val::Num(num_arg(self, 0)?.exp()),
            "log" => Val::Num(num_arg(self, 0)?.ln()),
            "sin" => Val::Num(num_arg(self, 0)?.sin()),
            "cos" => Val::Num(num_arg(self, 0)?.cos()),
            "atan2" => {
                let y = num_arg(self, 0)?;
                let x = num_arg(self, 1)?;
                Val::Num(y.atan2(x))
            }
            "rand" => {
                // xorshift64*: deterministic for a given srand seed, as in awk.
                let mut x = self.rand_state;
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                self.rand_state = x;
                Val::Num((x.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64)
            }
            "srand" => {
                let prev = self.seed;
                self.seed = if args.is_empty() { fsx::now().0 as f64 } else { num_arg(self, 0)? };
                self.rand_state = (self.seed as i64 as u64) ^ 0x2545F4914F6CDD1D;
                if self.rand_state == 0 {
                    self.rand_state = 1;
                }
                Val::Num(prev)
            }
            "system" if self.sandbox => return Err("'system' function not allowed in sandbox mode".into()),
            "system" => return Err("system() is not available in this sandbox".into()),
            "close" => {
                let v = self.eval(argn(0).ok_or("close: missing argument")?)?;
                let k = self.to_s(&v);
                let mut found = false;
                if let Some(mut f) = self.files.remove(&k) {
                    let _ = f.flush();
                    found = true;
                }
                found |= self.readers.remove(&k).is_some();
                Val::Num(if found { 0.0 } else { -1.0 })
            }
            "fflush" => {
                let _ = self.out.flush();
                Val::Num(0.0)
            }
            other => return Err(format!("unknown function {}", other)),
        })
    }

    fn getline(&mut self, var: Option<&Expr>, src: Option<&Expr>) -> R<Val> {
        let src = match src {
            Some(_) if self.sandbox => return Err("redirection not allowed in sandbox mode".into()),
            Some(s) => s,
            None => {
                // Plain getline reads the next main-input record.
                if !self.read_record()? {
                    return Ok(Val::Num(0.0));
                }
                self.bump_nr();
                match var {
                    Some(t) => {
                        let rec = self.take_line();
                        self.assign(t, Val::StrNum(rec))?
                    }
                    None => self.line_to_record(),
                }
                return Ok(Val::Num(1.0));
            }
        };
        let v = self.eval(src)?;
        let name = self.to_s(&v);
        if !self.readers.contains_key(&name) {
            match std::fs::File::open(fsx::host(&name)) {
                Ok(f) => {
                    self.readers.insert(name.clone(), io::BufReader::new(f));
                }
                Err(_) => return Ok(Val::Num(-1.0)),
            }
        }
        let mut buf = Vec::new();
        let r = self.readers.get_mut(&name).unwrap();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) => Ok(Val::Num(0.0)),
            Ok(_) => {
                let (body, _) = input::chomp(&buf, b'\n');
                let line = String::from_utf8_lossy(body).into_owned();
                match var {
                    Some(t) => self.assign(t, Val::StrNum(line))?,
                    None => {
                        self.set_record(line);
                    }
                }
                Ok(Val::Num(1.0))
            }
            Err(_) => Ok(Val::Num(-1.0)),
        }
    }

    pub fn bump_nr(&mut self) {
        self.nr = Val::Num(self.nr.num() + 1.0);
        self.fnr = Val::Num(self.fnr.num() + 1.0);
    }

    /// Next record of the main input, walking the operands (files, `-`,
    /// and `var=value` assignments) as awk does.
    /// Reads the next main-input record and makes it $0; false at the end.
    pub fn next_main_record(&mut self) -> R<bool> {
        if !self.read_record()? {
            return Ok(false);
        }
        self.line_to_record();
        Ok(true)
    }

    /// The record in `line` as a string (invalid UTF-8 replaced), leaving
    /// `line` empty.
    fn take_line(&mut self) -> String {
        let bytes = std::mem::take(&mut self.line);
        match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }

    /// Makes the record in `line` $0, trading buffers with the old record
    /// so that steady-state reading allocates nothing.
    fn line_to_record(&mut self) {
        let rec = self.take_line();
        let mut old = std::mem::replace(&mut self.record, rec).into_bytes();
        old.clear();
        self.line = old;
        self.record_changed();
    }

    /// Reads the next main-input record into `line` (without its
    /// terminator), walking the operands (files, `-`, and `var=value`
    /// assignments) as awk does. False when the input is exhausted.
    fn read_record(&mut self) -> R<bool> {
        self.line.clear();
        loop {
            if self.inputs.cur.is_none() {
                let ops_len = self.inputs.operands.len();
                if self.inputs.pos >= ops_len {
                    if self.inputs.used_any_file {
                        return Ok(false);
                    }
                    // No file operands: read standard input once.
                    self.inputs.used_any_file = true;
                    match self.inputs.stdin.take() {
                        Some(s) => self.inputs.cur = Some(Box::new(s)),
                        None => return Ok(false),
                    }
                } else {
                    let op = self.inputs.operands[self.inputs.pos].clone();
                    self.inputs.pos += 1;
                    if let Some(eq) = op.find('=') {
                        let name = &op[..eq];
                        if !name.is_empty() && name.chars().next().map(|c| c.is_alphabetic() || c == '_').unwrap_or(false) && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                            let v = super::unescape(&op[eq + 1..]);
                            self.set_var(name, Val::StrNum(v))?;
                            continue;
                        }
                    }
                    self.inputs.used_any_file = true;
                    self.set_var("FNR", Val::Num(0.0))?;
                    self.set_var("FILENAME", Val::Str(op.clone()))?;
                    if op == "-" || op == "/dev/stdin" {
                        match self.inputs.stdin.take() {
                            Some(s) => self.inputs.cur = Some(Box::new(s)),
                            None => continue,
                        }
                    } else {
                        match std::fs::File::open(fsx::host(&op)) {
                            Ok(f) if f.metadata().map(|m| m.is_dir()).unwrap_or(false) => {
                                self.errors.push(format!("warning: command line argument `{}' is a directory: skipped", op));
                                continue;
                            }
                            Ok(f) => self.inputs.cur = Some(Box::new(io::BufReader::with_capacity(input::BUF, f))),
                            Err(e) => return Err(format!("cannot open file `{}' for reading: {}", op, crate::ctx::reason(&e))),
                        }
                    }
                }
            }
            let r = self.inputs.cur.as_mut().unwrap();
            let buf = &mut self.line;
            let got = if self.sp.rs.is_empty() {
                // Paragraph mode: records are separated by blank lines.
                let mut lines: Vec<Vec<u8>> = Vec::new();
                loop {
                    let mut l = Vec::new();
                    let n = r.read_until(b'\n', &mut l).map_err(|e| e.to_string())?;
                    if n == 0 {
                        break;
                    }
                    let body = input::chomp(&l, b'\n').0.to_vec();
                    if body.is_empty() {
                        if lines.is_empty() {
                            continue;
                        }
                        break;
                    }
                    lines.push(body);
                }
                if lines.is_empty() {
                    false
                } else {
                    *buf = lines.join(&b'\n');
                    true
                }
            } else {
                let d = self.sp.rs.as_bytes()[0];
                read_until_byte(&mut **r, d, buf).map_err(|e| e.to_string())?
            };
            if got {
                return Ok(true);
            }
            self.inputs.cur = None;
        }
    }

    /// Skips the rest of the current input file (nextfile).
    pub fn skip_file(&mut self) {
        self.inputs.cur = None;
    }

    // ---- statements ----

    pub fn block(&mut self, stmts: &[Stmt]) -> R<Flow> {
        for s in stmts {
            match self.stmt(s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn output(&mut self, redir: &Redir, text: &str) -> R<()> {
        match redir {
            Redir::None => self.out.write_all(text.as_bytes()).map_err(|e| format!("\u{0}io {}", e)),
            Redir::Pipe(_) | Redir::File(_) | Redir::Append(_) if self.sandbox => Err("redirection not allowed in sandbox mode".into()),
            Redir::Pipe(_) => Err("output to a pipe (print | \"cmd\") is not available in this sandbox".into()),
            Redir::File(e) | Redir::Append(e) => {
                let v = self.eval(e)?;
                let name = self.to_s(&v);
                if name == "/dev/stdout" || name == "-" {
                    return self.out.write_all(text.as_bytes()).map_err(|e| format!("\u{0}io {}", e));
                }
                if name == "/dev/stderr" {
                    self.errors.push(format!("\u{0}raw{}", text));
                    return Ok(());
                }
                if !self.files.contains_key(&name) {
                    let f = if matches!(redir, Redir::Append(_)) {
                        std::fs::OpenOptions::new().create(true).append(true).open(fsx::host(&name))
                    } else {
                        std::fs::File::create(fsx::host(&name))
                    };
                    let f = f.map_err(|e| format!("can't redirect to {}: {}", name, crate::ctx::reason(&e)))?;
                    self.files.insert(name.clone(), io::BufWriter::new(f));
                }
                self.files.get_mut(&name).unwrap().write_all(text.as_bytes()).map_err(|e| format!("write to {}: {}", name, e))
            }
        }
    }

    /// Appends one print argument's text: numbers through OFMT.
    fn print_arg(&mut self, e: &Expr, out: &mut String) -> R<()> {
        match e {
            Expr::Field(_) | Expr::Str(_) => self.eval_into(e, out),
            _ => {
                match self.eval(e)? {
                    Val::Num(n) => out.push_str(&num_to_str(n, &self.sp.ofmt)),
                    Val::Str(s) | Val::StrNum(s) => out.push_str(&s),
                    Val::Uninit | Val::Arr(_) => {}
                }
                Ok(())
            }
        }
    }

    pub fn close_all(&mut self) {
        for (_, mut f) in self.files.drain() {
            let _ = f.flush();
        }
    }

    fn stmt(&mut self, s: &Stmt) -> R<Flow> {
        match s {
            // A plain assignment as a statement: its value is not needed, so
            // skip the copy that eval() returns.
            Stmt::Expr(Expr::Assign("=", t, rhs)) => {
                let v = self.eval(rhs)?;
                self.assign(t, v)?;
            }
            Stmt::Expr(e) => {
                self.eval(e)?;
            }
            Stmt::Print(args, redir) => {
                let mut text = std::mem::take(&mut self.printbuf);
                text.clear();
                if args.is_empty() {
                    text.push_str(&self.record);
                } else if let [a] = &args[..] {
                    self.print_arg(a, &mut text)?;
                } else {
                    // Values are taken in order, but OFS and ORS as they are
                    // after all the arguments ran (an argument may set them).
                    let mut parts = String::new();
                    let mut ends = std::mem::take(&mut self.print_ends);
                    ends.clear();
                    for a in args {
                        self.print_arg(a, &mut parts)?;
                        ends.push(parts.len());
                    }
                    let mut start = 0;
                    for (n, &end) in ends.iter().enumerate() {
                        if n > 0 {
                            text.push_str(&self.sp.ofs);
                        }
                        text.push_str(&parts[start..end]);
                        start = end;
                    }
                    self.print_ends = ends;
                }
                text.push_str(&self.sp.ors);
                self.output(redir, &text)?;
                self.printbuf = text;
            }
            Stmt::Printf(args, redir) => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(a)?);
                }
                let f = self.to_s(&vals[0]);
                let text = sprintf(&f, &vals[1..], &self.sp.convfmt)?;
                self.output(redir, &text)?;
            }
            Stmt::If(c, a, b) => {
                if self.eval(c)?.truthy() {
                    return self.stmt(a);
                } else if let Some(b) = b {
                    return self.stmt(b);
                }
            }
            Stmt::While(c, body) => {
                while self.eval(c)?.truthy() {
                    match self.stmt(body)? {
                        Flow::Break => break,
                        Flow::Continue | Flow::Normal => {}
                        other => return Ok(other),
                    }
                }
            }
            Stmt::Do(body, c) => loop {
                match self.stmt(body)? {
                    Flow::Break => break,
                    Flow::Continue | Flow::Normal => {}
                    other => return Ok(other),
                }
                if !self.eval(c)?.truthy() {
                    break;
                }
            },
            Stmt::For(init, cond, step, body) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                loop {
                    if let Some(c) = cond {
                        if !self.eval(c)?.truthy() {
                            break;
                        }
                    }
                    match self.stmt(body)? {
                        Flow::Break => break,
                        Flow::Continue | Flow::Normal => {}
                        other => return Ok(other),
                    }
                    if let Some(st) = step {
                        self.stmt(st)?;
                    }
                }
            }
            Stmt::ForIn(k, arr, body) => {
                let (id, _) = self.array_of(arr)?;
                let mut keys: Vec<String> = self.arrays[id].keys().cloned().collect();
                // Deterministic order: numeric keys by value, then the rest.
                keys.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
                    (Ok(_), Err(_)) => std::cmp::Ordering::Less,
                    (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
                    _ => a.cmp(b),
                });
                for key in keys {
                    if !self.arrays[id].contains_key(&key) {
                        continue;
                    }
                    self.set_var(k, Val::StrNum(key))?;
                    match self.stmt(body)? {
                        Flow::Break => break,
                        Flow::Continue | Flow::Normal => {}
                        other => return Ok(other),
                    }
                }
            }
            Stmt::Block(v) => return self.block(v),
            Stmt::Next => return Ok(Flow::Next),
            Stmt::NextFile => return Ok(Flow::NextFile),
            Stmt::Exit(e) => {
                let code = match e {
                    Some(e) => self.eval(e)?.num() as i32,
                    None => 0,
                };
                return Ok(Flow::Exit(code));
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Val::Uninit,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Line(n) => self.src_line = *n,
            Stmt::Delete(n, idx) => {
                let (id, _) = self.array_of(n)?;
                match idx {
                    Some(i) => {
                        let k = self.key(i)?;
                        self.arrays[id].remove(&k);
                    }
                    None => self.arrays[id].clear(),
                }
            }
        }
        Ok(Flow::Normal)
    }

    /// What gawk puts before `fatal:` once a record has been read: `(FILENAME=f FNR=n) `.
    pub fn record_context(&self) -> String {
        let fnr = self.fnr.num();
        if fnr <= 0.0 {
            return String::new();
        }
        let name = match self.globals.get("FILENAME") {
            Some(Cell::Scalar(v)) => v.str_with("%.6g"),
            _ => String::new(),
        };
        format!("(FILENAME={} FNR={}) ", if name.is_empty() { "-" } else { &name }, fnr)
    }

    /// Runs the pattern-action items for the current record.
    pub fn record_items(&mut self) -> R<Flow> {
        let prog = self.prog;
        for (i, (pat, action)) in prog.items.iter().enumerate() {
            let hit = match pat {
                Pattern::Begin | Pattern::End => continue,
                Pattern::All => true,
                Pattern::Expr(e) => self.eval(e)?.truthy(),
                Pattern::Range(a, b) => {
                    if self.range_on[i] {
                        if self.eval(b)?.truthy() {
                            self.range_on[i] = false;
                        }
                        true
                    } else if self.eval(a)?.truthy() {
                        self.range_on[i] = !self.eval(b)?.truthy();
                        true
                    } else {
                        false
                    }
                }
            };
            if !hit {
                continue;
            }
            let flow = match action {
                Some(stmts) => self.block(stmts)?,
                None => {
                    let mut text = std::mem::take(&mut self.printbuf);
                    text.clear();
                    text.push_str(&self.record);
                    text.push_str(&self.sp.ors);
                    self.output(&Redir::None, &text)?;
                    self.printbuf = text;
                    Flow::Normal
                }
            };
            match flow {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }
}

/// gawk's typeof() names.
fn type_name(v: &Val) -> &'static str {
    match v {
        Val::Arr(_) => "array",
        Val::Uninit => "untyped",
        Val::Num(_) => "number",
        Val::Str(_) => "string",
        Val::StrNum(s) if super::value::looks_numeric(s) => "strnum",
        Val::StrNum(_) => "string",
    }
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

fn arith(op: &str, x: f64, y: f64) -> R<f64> {
    Ok(match op {
        "+" | "+=" => x + y,
        "-" | "-=" => x - y,
        "*" | "*=" => x * y,
        "/" | "/=" => {
            if y == 0.0 {
                return Err(if op == "/" { "division by zero attempted".into() } else { "division by zero attempted in `/='".into() });
            }
            x / y
        }
        "%" | "%=" => {
            if y == 0.0 {
                return Err(format!("division by zero attempted in `{}'", op));
            }
            x % y
        }
        _ => x.powf(y),
    })
}

/// Continues splitting `s` from byte `*pos`, appending field byte ranges to
/// `out` until it holds `want` fields or the text ends; returns true once
/// every field is found. Blank and single-byte separators split
/// incrementally, the rest all at once. A bad regex FS is reported in
/// `errors` and leaves the whole text as one field.
fn split_more(s: &str, mode: &FsMode, out: &mut Vec<(usize, usize)>, pos: &mut usize, want: usize, errors: &mut Vec<String>) -> bool {
    let b = s.as_bytes();
    if let FsMode::Blank = mode {
        let mut i = *pos;
        while out.len() < want {
            i = skip_blanks(b, i, true);
            if i == b.len() {
                *pos = i;
                return true;
            }
            let start = i;
            i = skip_blanks(b, i, false);
            out.push((start, i));
        }
        *pos = i;
        return false;
    }
    if s.is_empty() {
        return true;
    }
    match mode {
        FsMode::Blank => unreachable!(),
        FsMode::Char(c) if c.is_ascii() => {
            while out.len() < want {
                match find_byte(&b[*pos..], *c as u8) {
                    Some(k) => {
                        out.push((*pos, *pos + k));
                        *pos += k + 1;
                    }
                    None => {
                        out.push((*pos, b.len()));
                        *pos = b.len();
                        return true;
                    }
                }
            }
            return false;
        }
        FsMode::Char(c) => {
            let w = c.len_utf8();
            let mut start = 0;
            for (end, _) in s.match_indices(*c) {
                out.push((start, end));
                start = end + w;
            }
            out.push((start, b.len()));
        }
        FsMode::Regex(re) => {
            // Same pieces as Regex::split: text between successive matches.
            let mut start = 0;
            for m in re.find_iter(s) {
                out.push((start, m.start()));
                start = m.end();
            }
            out.push((start, b.len()));
        }
        FsMode::Bad(e) => {
            out.push((0, b.len()));
            errors.push(e.clone());
        }
    }
    true
}

/// High bit set in the bytes of x that are awk default-FS blanks
/// (space, tab, newline).
#[inline(always)]
fn blank_bytes(x: u64) -> u64 {
    // Bytes <= 0x20: (b | 0x80) - 0x21 keeps its high bit only for b & 0x7f
    // >= 0x21, and never borrows from the next byte.
    let low = !((x | HI).wrapping_sub(splat(0x21))) & !x & HI;
    let spaces = eq_lanes(x, splat(b' '));
    if low & !spaces == 0 {
        return low;
    }
    // Some other byte <= 0x20: keep only tabs and newlines besides spaces.
    low & (spaces | eq_lanes(x, splat(b'\t')) | eq_lanes(x, splat(b'\n')))
}

/// From `i`, the index of the first byte that is not a blank (if `blanks`)
/// or that is one (if not), or b.len(). Eight bytes per step.
fn skip_blanks(b: &[u8], mut i: usize, blanks: bool) -> usize {
    let flip = if blanks { HI } else { 0 };
    while i + 8 <= b.len() {
        let stop = (blank_bytes(load(&b[i..])) ^ flip) & HI;
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let is_blank = |c: u8| c == b' ' || c == b'\t' || c == b'\n';
    while i < b.len() && is_blank(b[i]) == blanks {
        i += 1;
    }
    i
}

/// Appends bytes from `r` to `buf` up to (not including) the next `delim`,
/// which is consumed. Like BufRead::read_until but with bytescan's 8-byte
/// steps. True if anything was read, i.e. there was a record.
fn read_until_byte(r: &mut dyn BufRead, delim: u8, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut got = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(got);
        }
        got = true;
        match find_byte(avail, delim) {
            Some(k) => {
                buf.extend_from_slice(&avail[..k]);
                r.consume(k + 1);
                return Ok(true);
            }
            None => {
                let n = avail.len();
                buf.extend_from_slice(avail);
                r.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte strings that exercise the 8-byte steps: every blank and
    /// near-blank byte, high bytes, NUL, and every offset within a word.
    fn samples() -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = vec![b"".to_vec(), b" ".to_vec(), b"a".to_vec(), b"  a  b  ".to_vec()];
        let alphabet: &[u8] = &[b' ', b'\t', b'\n', b'\r', 0, 0x1f, 0x20, 0x21, b'a', 0x7f, 0x80, 0xa0, 0xff, 0x0b, 0x0c];
        let mut seed: u32 = 7;
        for len in 0..40 {
            for _ in 0..20 {
                let mut s = Vec::new();
                for _ in 0..len {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    s.push(alphabet[(seed >> 16) as usize % alphabet.len()]);
                }
                v.push(s);
            }
        }
        v
    }

    #[test]
    fn word_scans_match_byte_scans() {
        let is_blank = |c: u8| c == b' ' || c == b'\t' || c == b'\n';
        for s in samples() {
            for start in 0..=s.len() {
                let want_nb = (start..s.len()).find(|&i| !is_blank(s[i])).unwrap_or(s.len());
                let want_b = (start..s.len()).find(|&i| is_blank(s[i])).unwrap_or(s.len());
                assert_eq!(skip_blanks(&s, start, true), want_nb, "{:?} from {}", s, start);
                assert_eq!(skip_blanks(&s, start, false), want_b, "{:?} from {}", s, start);
                for needle in [0u8, b' ', b'\n', 0x80, 0xff, b'a'] {
                    let want = s[start..].iter().position(|&c| c == needle);
                    assert_eq!(find_byte(&s[start..], needle), want);
                }
            }
        }
    }

    fn fields(s: &str, mode: &FsMode, step: usize) -> (Vec<String>, Vec<String>) {
        // Split in increments of `step` fields, as lazy field access does.
        let (mut out, mut pos, mut errors) = (Vec::new(), 0, Vec::new());
        let mut want = step;
        while !split_more(s, mode, &mut out, &mut pos, want, &mut errors) {
            assert!(out.len() >= want);
            want += step;
        }
        (out.iter().map(|&(a, b)| s[a..b].to_string()).collect(), errors)
    }

    #[test]
    fn incremental_splits_match_whole_splits() {
        let texts = ["", " ", "a", " a ", "a b", "\ta\n b  c\t", "a:b:", ":", "::a", "a\u{e9}:\u{e9}b", "x\0y z\r\n", "aaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbb c"];
        let re = Rc::new(Regex::new("[:\u{e9}]+").unwrap());
        let modes = [FsMode::Blank, FsMode::Char(':'), FsMode::Char('\u{e9}'), FsMode::Regex(re), FsMode::Bad("bad".into())];
        for t in texts {
            for mode in &modes {
                let whole = fields(t, mode, usize::MAX);
                for step in 1..4 {
                    assert_eq!(fields(t, mode, step), whole, "{:?} step {}", t, step);
                }
                let naive: Vec<String> = match mode {
                    FsMode::Blank => t.split(|c| c == ' ' || c == '\t' || c == '\n').filter(|x| !x.is_empty()).map(String::from).collect(),
                    _ if t.is_empty() => vec![],
                    FsMode::Char(c) => t.split(*c).map(String::from).collect(),
                    FsMode::Regex(r) => r.split(t).map(String::from).collect(),
                    FsMode::Bad(_) => vec![t.to_string()],
                };
                assert_eq!(whole.0, naive, "{:?}", t);
                assert_eq!(whole.1.len(), if matches!(mode, FsMode::Bad(_)) && !t.is_empty() { 1 } else { 0 });
            }
        }
    }
}

/// substr's byte range for string length `len`, start `m` and count `n`
/// (both rounded half to even, as gawk does).
fn substr_span(len: usize, m: f64, n: Option<f64>) -> (usize, usize) {
    let m = round_half_even(m);
    let start = m.max(1.0);
    let end = match n {
        None => len as f64 + 1.0,
        Some(n) => (m + round_half_even(n)).min(len as f64 + 1.0),
    };
    if end <= start {
        return (0, 0);
    }
    ((start as usize - 1).min(len), (end as usize - 1).min(len))
}
