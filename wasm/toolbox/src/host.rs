//! What toolbox asks the host that runs it. Commands that start other
//! commands in-process (xargs, find -exec, env, timeout) are a way around the
//! shell's command rules, so each such command line is shown to the host
//! first: the `toolshed.check_command` import gets the argv as NUL-terminated
//! strings and answers 0 (run it) or 1 (refused; the host has already said
//! why on stderr and recorded the denial). Natively (unit tests, the GNU
//! comparison) there is no host to ask and everything is allowed.

/// Exit status for a command line the host refused, as for one that cannot
/// be executed (126).
pub const EXIT_DENIED: i32 = 126;

/// The argv as the host reads it: each argument followed by a NUL.
pub fn encode_argv(argv: &[String]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(argv.iter().map(|a| a.len() + 1).sum());
    for a in argv {
        buf.extend_from_slice(a.as_bytes());
        buf.push(0);
    }
    buf
}

#[cfg(target_os = "wasi")]
mod imp {
    #[link(wasm_import_module = "toolshed")]
    extern "C" {
        fn check_command(argv_ptr: *const u8, argv_len: usize) -> i32;
    }

    pub fn allowed(buf: &[u8]) -> bool {
        // SAFETY: the host only reads `argv_len` bytes at `argv_ptr`, which `buf` owns.
        unsafe { check_command(buf.as_ptr(), buf.len()) == 0 }
    }
}

#[cfg(not(target_os = "wasi"))]
mod imp {
    pub fn allowed(_buf: &[u8]) -> bool {
        true
    }
}

/// True when the host lets `argv` run (argv[0] as the user wrote it).
pub fn command_allowed(argv: &[String]) -> bool {
    imp::allowed(&encode_argv(argv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_allows_natively() {
        let argv: Vec<String> = ["rm", "-rf", "", "a b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(encode_argv(&argv), b"rm\0-rf\0\0a b\0".to_vec());
        assert!(command_allowed(&argv));
    }
}

/// ripgrep's rule for a command line without paths: search stdin when it is
/// a pipe or a file, not when it is a terminal or /dev/null. The host shows
/// "no stdin" (and /dev/null) as a character device. Natively (unit tests,
/// the GNU comparison) stdin is never searched implicitly, so tests do not
/// depend on how they were started.
#[cfg(target_os = "wasi")]
pub fn stdin_is_readable() -> bool {
    // SAFETY: fstat only writes into the zeroed struct it is given.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(0, &mut st) } != 0 {
        return false;
    }
    let kind = st.st_mode & libc::S_IFMT;
    kind != libc::S_IFCHR && kind != libc::S_IFDIR
}

#[cfg(not(target_os = "wasi"))]
pub fn stdin_is_readable() -> bool {
    false
}
