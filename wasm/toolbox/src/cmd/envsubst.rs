//! envsubst [-v] [SHELL-FORMAT] — GNU gettext's envsubst: copies stdin to stdout with `$NAME`
//! and `${NAME}` replaced by the environment's values (empty when unset). With SHELL-FORMAT only
//! the variables it names are replaced; `-v` prints those names, one per line. Other forms
//! (`${NAME:-x}`, `$1`) are copied as they are, as GNU's does.

use crate::args::{flag, Spec};
use crate::ctx::{Ctx, Res};
use std::io::Write;

const HELP: &str = "Usage: envsubst [OPTION] [SHELL-FORMAT]\n\nSubstitutes the values of environment variables.\n\nOperation mode:\n  -v, --variables             output the variables occurring in SHELL-FORMAT\n\nInformative output:\n  -h, --help                  display this help and exit\n  -V, --version               output version information and exit\n";

/// Each `$NAME` / `${NAME}` reference in s: (start, end, name).
fn references(s: &[u8]) -> Vec<(usize, usize, String)> {
    let is_start = |c: u8| c == b'_' || c.is_ascii_alphabetic();
    let is_name = |c: u8| c == b'_' || c.is_ascii_alphanumeric();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'$' {
            i += 1;
            continue;
        }
        let braced = s.get(i + 1) == Some(&b'{');
        let from = if braced { i + 2 } else { i + 1 };
        if from < s.len() && is_start(s[from]) {
            let mut j = from + 1;
            while j < s.len() && is_name(s[j]) {
                j += 1;
            }
            if !braced {
                out.push((i, j, String::from_utf8_lossy(&s[from..j]).into_owned()));
                i = j;
                continue;
            }
            if s.get(j) == Some(&b'}') {
                out.push((i, j + 1, String::from_utf8_lossy(&s[from..j]).into_owned()));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    const SPECS: &[Spec] = &[flag('v', "variables", "v"), flag('h', "help", "h"), flag('V', "version", "V")];
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("h") {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    if p.has("V") {
        writeln!(ctx.out, "envsubst (GNU gettext-runtime) 0.21\n(toolshed toolbox {})", env!("CARGO_PKG_VERSION"))?;
        return Ok(0);
    }
    if p.operands.len() > 1 {
        ctx.diag.usage("too many arguments".to_string());
        return Ok(1);
    }
    let format = p.operands.first();
    if p.has("v") {
        let f = match format {
            Some(f) => f,
            None => {
                ctx.diag.usage("missing arguments".to_string());
                return Ok(1);
            }
        };
        for (_, _, name) in references(f.as_bytes()) {
            writeln!(ctx.out, "{}", name)?;
        }
        return Ok(0);
    }
    let only: Option<Vec<String>> = format.map(|f| references(f.as_bytes()).into_iter().map(|r| r.2).collect());
    let mut input = Vec::new();
    ctx.stdin.read_to_end(&mut input)?;
    let mut out = Vec::with_capacity(input.len());
    let mut last = 0;
    for (start, end, name) in references(&input) {
        if let Some(names) = &only {
            if !names.contains(&name) {
                continue;
            }
        }
        out.extend_from_slice(&input[last..start]);
        if let Some(v) = std::env::var_os(&name) {
            out.extend_from_slice(v.to_string_lossy().as_bytes());
        }
        last = end;
    }
    out.extend_from_slice(&input[last..]);
    ctx.out.write_all(&out)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::references;

    #[test]
    fn finds_plain_and_braced_names_only() {
        let r: Vec<String> = references(b"$A ${B} ${C:-x} $1 $ ${D").into_iter().map(|r| r.2).collect();
        assert_eq!(r, vec!["A", "B"]);
    }
}
