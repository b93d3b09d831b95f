//! In-process runner for table-driven command tests (native target).

use std::io::Cursor;
use std::sync::atomic::{AtomicUsize, Ordering};

pub fn run(cmd: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    // The session's locale (messages quote with ‘’ there); every test sets the same value.
    std::env::set_var("LANG", "C.UTF-8");
    std::env::remove_var("LC_ALL");
    std::env::remove_var("LC_CTYPE");
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut input = Cursor::new(stdin.as_bytes().to_vec());
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = crate::run(cmd, &args, &mut input, &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// Asserts stdout and exit status; stderr only when `err` is Some.
pub fn check(cmd: &str, args: &[&str], stdin: &str, out: &str, code: i32) {
    let (c, o, e) = run(cmd, args, stdin);
    assert_eq!((o.as_str(), c), (out, code), "{} {:?} (stderr: {})", cmd, args, e);
}

pub fn check_err(cmd: &str, args: &[&str], stdin: &str, err: &str, code: i32) {
    let (c, _o, e) = run(cmd, args, stdin);
    assert_eq!((e.as_str(), c), (err, code), "{} {:?}", cmd, args);
}

static N: AtomicUsize = AtomicUsize::new(0);

/// A fresh empty directory for one test.
pub fn tmpdir() -> String {
    let n = N.fetch_add(1, Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("toolbox-test-{}-{}", std::process::id(), n));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d.to_string_lossy().into_owned()
}

pub fn write(path: &str, text: &str) {
    std::fs::write(path, text).unwrap();
}

pub fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A reader that hands out its data in pieces of the given sizes (cycled), so
/// block and buffer boundaries fall anywhere: inside words, CRLF pairs, lines.
pub struct Pieces<'a> {
    data: &'a [u8],
    sizes: &'a [usize],
    i: usize,
}

impl<'a> Pieces<'a> {
    pub fn new(data: &'a [u8], sizes: &'a [usize]) -> Self {
        Pieces { data, sizes, i: 0 }
    }
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = self.sizes[self.i % self.sizes.len()].min(buf.len()).min(self.data.len());
        self.i += 1;
        buf[..want].copy_from_slice(&self.data[..want]);
        self.data = &self.data[want..];
        Ok(want)
    }
}
