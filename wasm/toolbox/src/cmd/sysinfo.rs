//! Facts about the sandbox "machine", as agents ask for them with coreutils:
//! uname, whoami, hostname, id, nproc, which, printenv, sleep, and ln (which
//! only explains that links cannot be made here). The answers are fixed: the
//! workspace runs as user `agent` on host `toolshed`, one CPU, and the
//! machine says it is Linux on x86_64 as a Debian box would (the toolbox's
//! wasm32 is how it runs, not what its programs should plan for).

use crate::args::{flag, val, Spec};
use crate::ctx::{q, Ctx, Res};
use std::io::Write;

pub const USER: &str = "agent";
pub const UID: u32 = 1000;
const HOST: &str = "toolshed";

const UNAME_SPECS: &[Spec] = &[
    flag('a', "all", "a"),
    flag('s', "kernel-name", "s"),
    flag('n', "nodename", "n"),
    flag('r', "kernel-release", "r"),
    flag('v', "kernel-version", "v"),
    flag('m', "machine", "m"),
    flag('p', "processor", "p"),
    flag('i', "hardware-platform", "i"),
    flag('o', "operating-system", "o"),
];
const UNAME_HELP: &str = "Usage: uname [OPTION]...\nPrint certain system information.  With no OPTION, same as -s.\n\n  -a, --all                print all information, in the following order,\n                             except omit -p and -i if unknown:\n  -s, --kernel-name        print the kernel name\n  -n, --nodename           print the network node hostname\n  -r, --kernel-release     print the kernel release\n  -v, --kernel-version     print the kernel version\n  -m, --machine            print the machine hardware name\n  -p, --processor          print the processor type (non-portable)\n  -i, --hardware-platform  print the hardware platform (non-portable)\n  -o, --operating-system   print the operating system\n";

pub fn run_uname(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, UNAME_SPECS, UNAME_HELP, 1);
    if let Some(op) = p.operands.first() {
        crate::cmd::extra_operand(ctx, op);
        return Ok(1);
    }
    let all = p.has("a");
    let fields: &[(&str, &str, bool)] = &[
        ("s", "Linux", true),
        ("n", HOST, true),
        ("r", "6.1.0-toolshed", true),
        ("v", "#1 SMP WASI", true),
        ("m", "x86_64", true),
        ("p", "unknown", false),
        ("i", "unknown", false),
        ("o", "GNU/Linux", true),
    ];
    let any = fields.iter().any(|(k, _, _)| p.has(k));
    let mut out = Vec::new();
    for (k, v, in_all) in fields {
        if p.has(k) || (all && *in_all) || (!any && !all && *k == "s") {
            out.push(*v);
        }
    }
    writeln!(ctx.out, "{}", out.join(" "))?;
    Ok(0)
}

fn no_operands(ctx: &mut Ctx, args: &[String], help: &str) -> Result<bool, std::io::Error> {
    let p = match crate::cmd::getopt(ctx, args, &[], help, 1)? {
        Ok(p) => p,
        Err(_) => return Ok(false),
    };
    if let Some(op) = p.operands.first() {
        crate::cmd::extra_operand(ctx, op);
        return Ok(false);
    }
    Ok(true)
}

pub fn run_whoami(ctx: &mut Ctx, args: &[String]) -> Res {
    if !no_operands(ctx, args, "Usage: whoami [OPTION]...\nPrint the user name associated with the current effective user ID.\n")? {
        return Ok(if ctx.diag.failed { 1 } else { 0 });
    }
    writeln!(ctx.out, "{}", USER)?;
    Ok(0)
}

const HOSTNAME_SPECS: &[Spec] = &[
    flag('s', "short", "name"),
    flag('f', "fqdn", "name"),
    flag('f', "long", "name"),
    flag('i', "ip-address", "i"),
    flag('I', "all-ip-addresses", "I"),
    flag('a', "alias", "a"),
    flag('A', "all-fqdns", "A"),
    flag('d', "domain", "d"),
    flag('y', "yp", "y"),
    flag('y', "nis", "y"),
    flag('b', "boot", "set"),
    val('F', "file", "set"),
];

/// The sandbox's host has no DNS domain, no aliases and no network interface but loopback.
pub fn run_hostname(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, HOSTNAME_SPECS, "Usage: hostname [-s|-f|-i|-I|-a|-A|-d|-y]\nShow the system's host name. Setting it needs root, which the session's user is not.\n\n    -a, --alias            alias names\n    -A, --all-fqdns        all long host names (FQDNs)\n    -d, --domain           DNS domain name\n    -f, --fqdn, --long     long host name (FQDN)\n    -i, --ip-address       addresses for the host name\n    -I, --all-ip-addresses all addresses for the host\n    -s, --short            short host name\n    -y, --yp, --nis        NIS/YP domain name\n", 1);
    if !p.operands.is_empty() || p.has("set") {
        ctx.diag.error("you must be root to change the host name");
        return Ok(1);
    }
    match p.opts.last().map(|o| o.key) {
        Some("i") => writeln!(ctx.out, "127.0.0.1")?,
        Some("I") | Some("a") | Some("A") => writeln!(ctx.out)?,
        Some("d") => {}
        Some("y") => {
            // net-tools prints this on stdout.
            writeln!(ctx.out, "hostname: Local domain name not set")?;
            return Ok(1);
        }
        _ => writeln!(ctx.out, "{}", HOST)?,
    }
    Ok(0)
}

pub fn run_nproc(ctx: &mut Ctx, args: &[String]) -> Res {
    let specs = &[flag('\0', "all", "all"), val('\0', "ignore", "ignore")];
    let p = getopt!(ctx, args, specs, "Usage: nproc [OPTION]...\nPrint the number of processing units available to the current process.\n\n      --all      print the number of installed processors\n      --ignore=N  if possible, exclude N processing units\n", 1);
    if let Some(op) = p.operands.first() {
        crate::cmd::extra_operand(ctx, op);
        return Ok(1);
    }
    if let Some(n) = p.last("ignore") {
        if n.parse::<u64>().is_err() {
            ctx.diag.error(format!("invalid number: {}", q(n)));
            return Ok(1);
        }
    }
    writeln!(ctx.out, "1")?;
    Ok(0)
}

const ID_SPECS: &[Spec] = &[flag('a', "", "ignored"), flag('u', "user", "u"), flag('g', "group", "g"), flag('G', "groups", "G"), flag('n', "name", "n"), flag('r', "real", "r"), flag('z', "zero", "z")];

pub fn run_id(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, ID_SPECS, "Usage: id [OPTION]... [USER]\nPrint user and group information for the specified USER,\nor (when USER omitted) for the current user.\n\n  -g, --group    print only the effective group ID\n  -G, --groups   print all group IDs\n  -n, --name     print a name instead of a number, for -ugG\n  -r, --real     print the real ID instead of the effective ID, with -ugG\n  -u, --user     print only the effective user ID\n  -z, --zero     delimit entries with NUL characters, not whitespace\n", 1);
    if let Some(u) = p.operands.first() {
        if u != USER && u != "1000" {
            ctx.diag.error(format!("{}: no such user", q(u)));
            return Ok(1);
        }
    }
    let picks = ["u", "g", "G"].iter().filter(|k| p.has(k)).count();
    if picks > 1 {
        ctx.diag.error("cannot print \"only\" of more than one choice");
        return Ok(1);
    }
    if picks == 0 && (p.has("n") || p.has("r")) {
        ctx.diag.error("cannot print only names or real IDs in default format");
        return Ok(1);
    }
    let end = if p.has("z") { "\0" } else { "\n" };
    if picks == 1 {
        let v = if p.has("n") { USER.to_string() } else { UID.to_string() };
        write!(ctx.out, "{}{}", v, end)?;
    } else {
        writeln!(ctx.out, "uid={u}({n}) gid={u}({n}) groups={u}({n})", u = UID, n = USER)?;
    }
    Ok(0)
}

pub fn run_which(ctx: &mut Ctx, args: &[String]) -> Res {
    let specs = &[flag('a', "all", "a"), flag('s', "", "s")];
    let p = getopt!(ctx, args, specs, "Usage: which [-as] COMMAND...\nPrint where each COMMAND would be found. Only this toolbox's commands exist\nhere; each is reported as /usr/bin/NAME.\n", 2);
    if p.operands.is_empty() {
        return Ok(1);
    }
    let mut status = 0;
    for name in &p.operands {
        let base = crate::fsx::base_name(name);
        if crate::cmd::lookup(base).is_some() && (!name.contains('/') || name == &format!("/usr/bin/{}", base) || name == &format!("/bin/{}", base)) {
            if !p.has("s") {
                writeln!(ctx.out, "{}", if name.contains('/') { name.clone() } else { format!("/usr/bin/{}", name) })?;
            }
        } else {
            status = 1;
        }
    }
    Ok(status)
}

pub fn run_printenv(ctx: &mut Ctx, args: &[String]) -> Res {
    let specs = &[flag('0', "null", "0")];
    let p = getopt!(ctx, args, specs, "Usage: printenv [OPTION]... [VARIABLE]...\nPrint the values of the specified environment VARIABLE(s).\nIf no VARIABLE is specified, print name and value pairs for them all.\n\n  -0, --null     end each output line with NUL, not newline\n", 2);
    let end = if p.has("0") { "\0" } else { "\n" };
    if p.operands.is_empty() {
        for (k, v) in std::env::vars() {
            write!(ctx.out, "{}={}{}", k, v, end)?;
        }
        return Ok(0);
    }
    let mut status = 0;
    for name in &p.operands {
        match std::env::var(name) {
            Ok(v) if !name.contains('=') => write!(ctx.out, "{}{}", v, end)?,
            _ => status = 1,
        }
    }
    Ok(status)
}

/// `1.5`, `2m`, `1h`, `3d`: seconds as f64.
pub fn parse_duration(s: &str) -> Option<f64> {
    let (num, mult) = match s.chars().last()? {
        's' => (&s[..s.len() - 1], 1.0),
        'm' => (&s[..s.len() - 1], 60.0),
        'h' => (&s[..s.len() - 1], 3600.0),
        'd' => (&s[..s.len() - 1], 86400.0),
        _ => (s, 1.0),
    };
    if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return if num == "inf" || num == "infinity" { Some(f64::INFINITY) } else { None };
    }
    num.parse::<f64>().ok().map(|n| n * mult)
}

pub fn run_sleep(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, &[] as &[Spec], "Usage: sleep NUMBER[SUFFIX]...\nPause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n'm' for minutes, 'h' for hours or 'd' for days.  The pause is the sum of all\narguments.\n", 1);
    if p.operands.is_empty() {
        crate::cmd::missing_operand(ctx, None);
        return Ok(1);
    }
    let mut total = 0.0;
    for a in &p.operands {
        match parse_duration(a) {
            Some(d) => total += d,
            None => {
                ctx.diag.error(format!("invalid time interval {}", q(a)));
                let _ = writeln!(ctx.diag.raw(), "Try 'sleep --help' for more information.");
                return Ok(1);
            }
        }
    }
    if total.is_finite() && total > 0.0 {
        std::thread::sleep(std::time::Duration::from_secs_f64(total.min(1e9)));
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&str, &[&str], &str, i32)] = &[
            ("uname", &[], "Linux\n", 0),
            ("uname", &["-s", "-m"], "Linux x86_64\n", 0),
            ("uname", &["-a"], "Linux toolshed 6.1.0-toolshed #1 SMP WASI x86_64 GNU/Linux\n", 0),
            ("uname", &["-n"], "toolshed\n", 0),
            ("whoami", &[], "agent\n", 0),
            ("hostname", &[], "toolshed\n", 0),
            ("nproc", &[], "1\n", 0),
            ("id", &[], "uid=1000(agent) gid=1000(agent) groups=1000(agent)\n", 0),
            ("id", &["-u"], "1000\n", 0),
            ("id", &["-un"], "agent\n", 0),
            ("which", &["cat", "nosuch", "ls"], "/usr/bin/cat\n/usr/bin/ls\n", 1),
            ("which", &["jq"], "/usr/bin/jq\n", 0),
            ("printenv", &["NO_SUCH_VAR_X"], "", 1),
            ("sleep", &["0"], "", 0),
            ("sleep", &["0.01s", "0m"], "", 0),
        ];
        for (cmd, args, out, code) in cases {
            check(cmd, args, "", out, *code);
        }
        check_err("sleep", &["x"], "", "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n", 1);
        check_err("uname", &["-z"], "", "uname: invalid option -- 'z'\nTry 'uname --help' for more information.\n", 1);
        check_err("id", &["-u", "-g"], "", "id: cannot print \"only\" of more than one choice\n", 1);
    }
}
