//! chown/chgrp OWNER[:GROUP] FILE... — every file here belongs to the
//! session's user (`agent`, uid 1000, group `agent`), who is not root: naming
//! that user or group is accepted and changes nothing ("retained"), giving a
//! file to root fails with EPERM as it would for a user on Linux, and any
//! other name is unknown. Messages are GNU's.

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use super::sysinfo::{UID, USER};
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('R', "recursive", "R"),
    flag('c', "changes", "c"),
    flag('f', "silent", "f"),
    flag('\0', "quiet", "f"),
    flag('v', "verbose", "v"),
    flag('h', "no-dereference", "h"),
    flag('\0', "dereference", "deref"),
    flag('H', "", "H"),
    flag('L', "", "L"),
    flag('P', "", "P"),
    val('\0', "reference", "reference"),
    val('\0', "from", "from"),
    flag('\0', "preserve-root", "preserve-root"),
    flag('\0', "no-preserve-root", "no-preserve-root"),
];

fn help(name: &str) -> String {
    let what = if name == "chown" { "OWNER[:[GROUP]]" } else { "GROUP" };
    format!("Usage: {n} [OPTION]... {w} FILE...\n  or:  {n} [OPTION]... --reference=RFILE FILE...\nChange the {k} of each FILE. Every file here belongs to {u} ({id}), who is not\nroot: naming {u} changes nothing, giving a file to root is not permitted.\n\n  -c, --changes          like verbose but report only when a change is made\n  -f, --silent, --quiet  suppress most error messages\n  -v, --verbose          output a diagnostic for every file processed\n      --from=CURRENT_OWNER:CURRENT_GROUP  change only files owned so\n  -h, --no-dereference   accepted (there are no symbolic links here)\n      --reference=RFILE  use RFILE's owner and group\n  -R, --recursive        operate on files and directories recursively\n", n = name, w = what, k = if name == "chown" { "owner and/or group" } else { "group" }, u = USER, id = UID)
}

/// Who a name or id is here: Some(true) for the session's user (or group), Some(false) for
/// root, None for anyone else.
fn who(name: &str) -> Option<bool> {
    match name {
        n if n == USER || n == UID.to_string() => Some(true),
        "root" | "0" => Some(false),
        _ => None,
    }
}

/// An owner or group as GNU names it in messages: ids of known accounts become names.
fn named(name: &str) -> &str {
    match who(name) {
        Some(true) => USER,
        Some(false) => "root",
        None => name,
    }
}

/// The request read from OWNER[:GROUP] (chown) or GROUP (chgrp): the user and group to set
/// (None: unchanged) and the text -v shows for it.
struct Request {
    user: Option<String>,
    group: Option<String>,
    shown: Option<String>,
    /// "ownership" when a user is shown, "group" otherwise.
    what: &'static str,
}

fn request(chown: bool, spec: &str) -> Result<Request, String> {
    let (user, group) = if !chown {
        (None, Some(spec))
    } else {
        match spec.find(':').or_else(|| spec.find('.').filter(|_| who(spec).is_none())) {
            Some(i) => (Some(&spec[..i]).filter(|u| !u.is_empty()), Some(&spec[i + 1..])),
            None => (Some(spec).filter(|u| !u.is_empty()), None),
        }
    };
    let bare_colon = chown && group == Some("") && user.is_none();
    // `OWNER:` means OWNER's login group; GNU refuses it for a numeric OWNER.
    let group = match (user, group) {
        (Some(u), Some("")) if u.bytes().all(|b| b.is_ascii_digit()) => return Err(format!("invalid spec: {}", lq(spec))),
        (Some(u), Some("")) => Some(u),
        (_, g) => g.filter(|g| !g.is_empty()),
    };
    if user.map_or(false, |u| who(u).is_none()) {
        return Err(format!("invalid user: {}", lq(spec)));
    }
    if let Some(g) = group.filter(|g| who(g).is_none()) {
        return Err(format!("invalid group: {}", lq(if chown { spec } else { g })));
    }
    // GNU 9.1 shows `:NAME` as USER:NAME but `:ID` as the group alone.
    let user_shown = user.map(named).or_else(|| group.filter(|g| chown && !g.bytes().all(|b| b.is_ascii_digit())).map(|_| USER));
    let shown = match (user_shown, group.map(named)) {
        _ if bare_colon => None,
        (Some(u), Some(g)) => Some(format!("{}:{}", u, g)),
        (Some(u), None) => Some(u.to_string()),
        (None, g) => g.map(str::to_string),
    };
    let what = if user_shown.is_some() || bare_colon { "ownership" } else { "group" };
    Ok(Request { user: user.map(str::to_string), group: group.map(str::to_string), shown, what })
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let chown = ctx.name == "chown";
    let h = help(ctx.name);
    let p = getopt!(ctx, args, SPECS, &h, 1);
    let mut ops = p.operands.clone();
    let spec = match p.last("reference") {
        Some(r) => {
            if let Err(e) = fsx::metadata(r) {
                ctx.diag.error(format!("failed to get attributes of {}: {}", q(r), reason(&e)));
                return Ok(1);
            }
            if chown { format!("{}:{}", USER, USER) } else { USER.to_string() }
        }
        None => {
            if ops.is_empty() {
                super::missing_operand(ctx, None);
                return Ok(1);
            }
            ops.remove(0)
        }
    };
    if ops.is_empty() {
        ctx.diag.usage(format!("missing operand after {}", q(&spec)));
        return Ok(1);
    }
    let req = match request(chown, &spec) {
        Ok(r) => r,
        Err(msg) => {
            ctx.diag.error(msg);
            return Ok(1);
        }
    };
    // --from: files not owned so are left alone (all files here are the user's).
    let from_matches = match p.last("from") {
        None => true,
        Some(f) => {
            let (u, g) = f.split_once(':').unwrap_or((f, ""));
            [u, g].iter().all(|x| x.is_empty() || who(x) == Some(true))
        }
    };
    let mut files = Vec::new();
    for f in &ops {
        if p.has("R") && p.has("preserve-root") && fsx::normal(f) == "/" {
            ctx.diag.error(format!("it is dangerous to operate recursively on {}\n{}: use --no-preserve-root to override this failsafe", q("/"), ctx.name));
            continue;
        }
        collect(f, p.has("R"), &mut files);
    }
    let to_root = req.user.as_deref().map(who) == Some(Some(false)) || req.group.as_deref().map(who) == Some(Some(false));
    let what = req.what;
    for f in &files {
        if let Err(e) = fsx::symlink_metadata(f) {
            if p.has("f") {
                ctx.diag.failed = true;
            } else {
                ctx.diag.error(format!("cannot access {}: {}", q(f), reason(&e)));
            }
            continue;
        }
        if to_root && from_matches {
            if p.has("v") {
                writeln!(ctx.out, "failed to change {} of {} from {} to {}", what, q(f), USER, spec)?;
            }
            if p.has("f") {
                ctx.diag.failed = true;
            } else {
                ctx.diag.error(format!("changing {} of {}: Operation not permitted", what, q(f)));
            }
            continue;
        }
        if p.has("v") {
            let shown = if from_matches { req.shown.clone() } else { Some(USER.to_string()) };
            match shown {
                Some(s) => writeln!(ctx.out, "{} of {} retained as {}", what, q(f), s)?,
                None => writeln!(ctx.out, "ownership of {} retained", q(f))?,
            }
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// `f` and, with -R, everything under it, children before their directory (GNU's order).
fn collect(f: &str, recursive: bool, out: &mut Vec<String>) {
    if recursive && fsx::is_dir(f) {
        for name in fsx::read_dir_names(f).unwrap_or_default() {
            collect(&fsx::join(f, &name), true, out);
        }
    }
    out.push(f.to_string());
}

#[cfg(test)]
mod tests {
    use crate::testutil::{run, tmpdir, write};

    #[test]
    fn accepts_known_users_only() {
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "x");
        let cases: &[(&str, &[&str], i32, &str)] = &[
            ("chown", &["agent:agent", &f], 0, ""),
            ("chown", &["-R", "1000", &d], 0, ""),
            ("chgrp", &["agent", &f], 0, ""),
            ("chown", &["root", &f], 1, &format!("chown: changing ownership of '{}': Operation not permitted\n", f)),
            ("chgrp", &["0", &f], 1, &format!("chgrp: changing group of '{}': Operation not permitted\n", f)),
            ("chown", &["bob", &f], 1, "chown: invalid user: ‘bob’\n"),
            ("chown", &["agent:staff", &f], 1, "chown: invalid group: ‘agent:staff’\n"),
            ("chown", &["1000:", &f], 1, "chown: invalid spec: ‘1000:’\n"),
            ("chgrp", &["wheel", &f], 1, "chgrp: invalid group: ‘wheel’\n"),
            ("chown", &["root"], 1, "chown: missing operand after 'root'\nTry 'chown --help' for more information.\n"),
            ("chown", &["agent", "/nonexistent-x"], 1, "chown: cannot access '/nonexistent-x': No such file or directory\n"),
            ("chown", &["-f", "agent", "/nonexistent-x"], 1, ""),
        ];
        for (cmd, args, code, err) in cases {
            let (c, _, e) = run(cmd, args, "");
            assert_eq!((e.as_str(), c), (*err, *code), "{} {:?}", cmd, args);
        }
    }
}
