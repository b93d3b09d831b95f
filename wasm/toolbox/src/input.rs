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

/// Moves stdin's offset back by `n` bytes (lseek SEEK_CUR), as GNU head does to
/// leave a seekable input right after what it used. A pipe refuses (ESPIPE) and
/// keeps Unix's answer: what was read is gone. Natively (unit tests read a
/// buffer, not fd 0) nothing moves.
pub fn unread_stdin(n: u64) {
    #[cfg(target_os = "wasi")]
    {
        #[link(wasm_import_module = "wasi_snapshot_preview1")]
        extern "C" {
            fn fd_seek(fd: u32, offset: i64, whence: u8, newoffset: *mut u64) -> u16;
        }
        const WHENCE_CUR: u8 = 1;
        let mut at = 0u64;
        // SAFETY: the host writes the new offset into `at`, which lives through the call.
        let _ = unsafe { fd_seek(0, -(n as i64), WHENCE_CUR, &mut at) };
    }
    #[cfg(not(target_os = "wasi"))]
    let _ = n;
}

/// The size of stdin when it is a regular file (a `<` redirection), as fstat(0) tells GNU tools;
/// None for a pipe or a terminal. Natively (unit tests) stdin is never a file.
pub fn stdin_file_size() -> Option<u64> {
    #[cfg(target_os = "wasi")]
    {
        use std::os::wasi::io::FromRawFd;
        // SAFETY: fd 0 stays open for the whole run; ManuallyDrop keeps this handle from closing it.
        let f = std::mem::ManuallyDrop::new(unsafe { File::from_raw_fd(0) });
        return f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    }
    #[cfg(not(target_os = "wasi"))]
    None
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
