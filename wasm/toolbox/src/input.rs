//! Opening operands for reading (`-` is stdin) and reading them in lines or
//! blocks, never whole, so large files stream.

use crate::fsx;
use std::fs::File;
use std::io::{self, BufRead, BufReader};

pub const BUF: usize = 64 * 1024;

/// Opens `name` for reading; `-` borrows stdin. A directory is refused up
/// front with EISDIR's text, as GNU tools report it on read.
pub fn open<'b>(stdin: &'b mut dyn BufRead, name: &str) -> io::Result<Box<dyn BufRead + 'b>> {
    if name == "-" {
        return Ok(Box::new(stdin));
    }
    let path = fsx::host(name);
    let f = File::open(&path)?;
    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(is_a_directory());
    }
    Ok(Box::new(BufReader::with_capacity(BUF, f)))
}

pub fn is_a_directory() -> io::Error {
    io::Error::new(io::ErrorKind::Other, "Is a directory")
}

/// Operands, or `-` when there are none.
pub fn or_stdin(ops: &[String]) -> Vec<String> {
    if ops.is_empty() {
        vec!["-".to_string()]
    } else {
        ops.to_vec()
    }
}

/// Calls `f` with each record including its terminator (the last one may
/// lack it). `f` returns false to stop early.
pub fn each_record(r: &mut dyn BufRead, delim: u8, mut f: impl FnMut(&[u8]) -> io::Result<bool>) -> io::Result<()> {
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        if r.read_until(delim, &mut buf)? == 0 {
            return Ok(());
        }
        if !f(&buf)? {
            return Ok(());
        }
    }
}

/// Splits a record into body and terminator presence.
pub fn chomp(rec: &[u8], delim: u8) -> (&[u8], bool) {
    match rec.last() {
        Some(&c) if c == delim => (&rec[..rec.len() - 1], true),
        _ => (rec, false),
    }
}
