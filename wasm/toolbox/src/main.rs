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
    let stdin = io::stdin();
    let mut input = io::BufReader::with_capacity(toolbox::input::BUF, stdin.lock());
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(toolbox::input::BUF, stdout.lock());
    let stderr = io::stderr();
    let mut err = stderr.lock();
    let code = toolbox::run(&name, &args, &mut input, &mut out, &mut err);
    std::process::exit(code);
}
