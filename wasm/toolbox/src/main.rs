use std::cell::RefCell;
use std::io::{self, BufWriter, Write};

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let (name, args) = toolbox::main_args(argv);
    if name.is_empty() || name == "--help" || name == "--list" {
        let mut o = io::stdout().lock();
        let _ = writeln!(o, "Usage: toolbox COMMAND [ARG]...  (or run with argv[0] = COMMAND)\nCommands:");
        for n in toolbox::cmd::names() {
            let _ = writeln!(o, "  {}", n);
        }
        std::process::exit(if name.is_empty() { 2 } else { 0 });
    }
    let stdout = io::stdout();
    let out = RefCell::new(BufWriter::with_capacity(toolbox::input::BUF, stdout.lock()));
    let stdin = io::stdin();
    let mut input = io::BufReader::with_capacity(toolbox::input::BUF, FlushBeforeRead { out: &out, inner: stdin.lock() });
    let stderr = io::stderr();
    let mut err = FlushFirst { out: &out, err: stderr.lock() };
    let code = toolbox::run(&name, &args, &mut input, &mut Shared(&out), &mut err);
    std::process::exit(code);
}

/// stdout, also reachable from the stderr writer below.
struct Shared<'a, W: Write>(&'a RefCell<W>);

impl<'a, W: Write> Write for Shared<'a, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// stdin that first hands on what stdout holds, as GNU's programs (which write unbuffered or
/// line by line) have before they wait for more input: a command talking to the shell through
/// two pipes (`coproc cat`) answers each line before the next arrives.
struct FlushBeforeRead<'a, O: Write, R: io::Read> {
    out: &'a RefCell<O>,
    inner: R,
}

impl<'a, O: Write, R: io::Read> io::Read for FlushBeforeRead<'a, O, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A stdout that already failed is reported by the command itself when it writes.
        let _ = self.out.borrow_mut().flush();
        self.inner.read(buf)
    }
}

/// stderr that first flushes what stdout holds, as GNU's error() does: when both streams go to
/// one place (`cmd 2>&1`) a message lands after the output written before it.
struct FlushFirst<'a, O: Write, E: Write> {
    out: &'a RefCell<O>,
    err: E,
}

impl<'a, O: Write, E: Write> Write for FlushFirst<'a, O, E> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A stdout that already failed is reported by the command itself; stderr still works.
        let _ = self.out.borrow_mut().flush();
        self.err.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.err.flush()
    }
}
