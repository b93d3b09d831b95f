//! fsprobe: a tiny WASI program that exercises the filesystem calls the
//! workspace must support. The workspace tests run it and compare what it
//! prints with what they stored, so its output format is a contract:
//!
//!   ls DIR                 name<TAB>file|dir<TAB>size, one line per entry, sorted by name
//!   cat FILE               the file's bytes
//!   write FILE TEXT        FILE becomes exactly TEXT
//!   append FILE TEXT       TEXT added at the end of FILE (created if missing)
//!   mv FROM TO | rm FILE | mkdir DIR | rmdir DIR
//!   stat FILE              "size mtime_secs file|dir"
//!   seekread FILE OFF LEN  LEN bytes from offset OFF (fewer at end of file)
//!
//! Errors go to stderr as `fsprobe: CMD: PATH: reason` with exit status 1;
//! bad usage exits 2.

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::process::exit;
use std::time::UNIX_EPOCH;

/// The only directory the host preopens; relative paths are taken from here
/// (or from $PWD when the host sets an absolute one), because WASI has no
/// process-wide current directory the host could hand us.
const ROOT: &str = "/workspace";

fn resolve(p: &str) -> PathBuf {
    if p.starts_with('/') {
        return PathBuf::from(p);
    }
    let base = match std::env::var("PWD") {
        Ok(d) if d.starts_with('/') => d,
        _ => ROOT.to_string(),
    };
    let mut out = PathBuf::from(base);
    if p != "." && !p.is_empty() {
        out.push(p);
    }
    out
}

/// strerror-style text: Rust appends " (os error N)", GNU tools do not.
fn reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: fsprobe ls DIR | cat FILE | write FILE TEXT | append FILE TEXT | mv FROM TO\n       \
         | rm FILE | mkdir DIR | rmdir DIR | stat FILE | seekread FILE OFFSET LEN"
    );
    exit(2)
}

fn kind(ft: fs::FileType) -> &'static str {
    if ft.is_dir() {
        "dir"
    } else if ft.is_symlink() {
        "symlink"
    } else {
        "file"
    }
}

fn parse_u64(cmd: &str, what: &str, s: &str) -> Result<u64, String> {
    s.parse::<u64>()
        .map_err(|_| format!("{}: invalid {}: '{}'", cmd, what, s))
}

fn run(cmd: &str, args: &[String]) -> Result<(), String> {
    let need = |n: usize| {
        if args.len() != n {
            usage()
        }
    };
    // Attaches the command and the user's own spelling of the path to an
    // io error, never the resolved host-side path.
    let fail = |path: &str| {
        let path = path.to_string();
        let cmd = cmd.to_string();
        move |e: io::Error| format!("{}: {}: {}", cmd, path, reason(&e))
    };
    let mut out = io::stdout().lock();
    match cmd {
        "ls" => {
            need(1);
            let mut rows = Vec::new();
            for entry in fs::read_dir(resolve(&args[0])).map_err(fail(&args[0]))? {
                let entry = entry.map_err(fail(&args[0]))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let meta = entry.metadata().map_err(fail(&name))?;
                rows.push((name, kind(meta.file_type()), meta.len()));
            }
            rows.sort();
            for (name, k, size) in rows {
                writeln!(out, "{}\t{}\t{}", name, k, size).map_err(fail("stdout"))?;
            }
        }
        "cat" => {
            need(1);
            let mut f = fs::File::open(resolve(&args[0])).map_err(fail(&args[0]))?;
            io::copy(&mut f, &mut out).map_err(fail(&args[0]))?;
        }
        "write" | "append" => {
            need(2);
            let mut opts = OpenOptions::new();
            opts.create(true);
            if cmd == "write" {
                opts.write(true).truncate(true);
            } else {
                opts.append(true);
            }
            let mut f = opts.open(resolve(&args[0])).map_err(fail(&args[0]))?;
            f.write_all(args[1].as_bytes()).map_err(fail(&args[0]))?;
        }
        "mv" => {
            need(2);
            fs::rename(resolve(&args[0]), resolve(&args[1])).map_err(fail(&args[0]))?;
        }
        "rm" => {
            need(1);
            fs::remove_file(resolve(&args[0])).map_err(fail(&args[0]))?;
        }
        "mkdir" => {
            need(1);
            fs::create_dir(resolve(&args[0])).map_err(fail(&args[0]))?;
        }
        "rmdir" => {
            need(1);
            fs::remove_dir(resolve(&args[0])).map_err(fail(&args[0]))?;
        }
        "stat" => {
            need(1);
            let meta = fs::metadata(resolve(&args[0])).map_err(fail(&args[0]))?;
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| d.as_secs())
                .unwrap_or(0);
            writeln!(out, "{} {} {}", meta.len(), mtime, kind(meta.file_type()))
                .map_err(fail("stdout"))?;
        }
        "seekread" => {
            need(3);
            let off = parse_u64(cmd, "offset", &args[1])?;
            let len = parse_u64(cmd, "length", &args[2])?;
            let mut f = fs::File::open(resolve(&args[0])).map_err(fail(&args[0]))?;
            f.seek(SeekFrom::Start(off)).map_err(fail(&args[0]))?;
            let mut buf = Vec::new();
            f.take(len).read_to_end(&mut buf).map_err(fail(&args[0]))?;
            out.write_all(&buf).map_err(fail("stdout"))?;
        }
        _ => usage(),
    }
    out.flush().map_err(fail("stdout"))
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.len() < 2 {
        usage();
    }
    if let Err(msg) = run(&argv[1], &argv[2..]) {
        eprintln!("fsprobe: {}", msg);
        exit(1);
    }
}
