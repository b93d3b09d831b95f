//! Compile-time checks jq makes before running anything: every function
//! call must name a defined function of that arity and every `$var` must be
//! bound, so a typo is exit 3 with no partial output.

use super::eval::Env;
use super::parse::{Ast, Pat, StrPart};
use std::rc::Rc;

pub(super) const NATIVES: &str = "_fromjson/0 _max_by/1 _min_by/1 add/0 ascii_downcase/0 ascii_upcase/0 atan2/2 builtins/0 ceil/0 contains/1 debug/0 delpaths/1 empty/0 endswith/1 error/0 exp/0 exp10/0 explode/0 fabs/0 first/1 flatten/1 floor/0 fromdate/0 fromdateiso8601/0 getpath/1 gmtime/0 group_by/1 halt/0 halt_error/1 has/1 implode/0 indices/1 infinite/0 input/0 input_filename/0 inputs/0 isinfinite/0 isnan/0 isnormal/0 join/1 keys/0 keys_unsorted/0 length/0 limit/2 log/0 log10/0 log2/0 ltrimstr/1 ltrimstr_ws/0 match/1 match/2 max/0 min/0 mktime/0 nan/0 not/0 now/0 path/1 pow/2 range/2 range/3 recurse/0 reverse/0 repeat/1 round/0 rtrimstr/1 rtrimstr_ws/0 setpath/2 significand/0 sort/0 sort_by/1 split/1 split/2 sqrt/0 startswith/1 stderr/0 strftime/1 strptime/1 sub/3 test/1 test/2 todate/0 todateiso8601/0 tojson/0 tonumber/0 tostring/0 trunc/0 type/0 unique/0 until/2 utf8bytelength/0 while/2";

struct Scope {
    funcs: Vec<(String, usize)>,
    vars: Vec<String>,
    labels: Vec<String>,
}

pub fn check(ast: &Ast, env: &Rc<Env>) -> Result<(), String> {
    let mut s = Scope { funcs: Vec::new(), vars: vec!["ENV".into(), "__loc__".into(), "ARGS".into(), "__prog_args".into()], labels: Vec::new() };
    let mut e = env.clone();
    loop {
        let next = match &*e {
            Env::Func(d, p) => {
                s.funcs.push((d.name.clone(), d.params.len()));
                p.clone()
            }
            Env::Var(n, _, p) => {
                s.vars.push(n.clone());
                p.clone()
            }
            _ => break,
        };
        e = next;
    }
    walk(ast, &mut s)
}

fn pat_vars(p: &Pat, s: &mut Scope) -> Result<(), String> {
    match p {
        Pat::Var(v) => s.vars.push(v.clone()),
        Pat::Arr(ps) => {
            for q in ps {
                pat_vars(q, s)?;
            }
        }
        Pat::Obj(ps) => {
            for (k, q) in ps {
                walk(k, s)?;
                if let Some(q) = q {
                    pat_vars(q, s)?;
                }
            }
        }
    }
    Ok(())
}

fn scoped(s: &mut Scope, f: impl FnOnce(&mut Scope) -> Result<(), String>) -> Result<(), String> {
    let (nf, nv, nl) = (s.funcs.len(), s.vars.len(), s.labels.len());
    let r = f(s);
    s.funcs.truncate(nf);
    s.vars.truncate(nv);
    s.labels.truncate(nl);
    r
}

fn walk(a: &Ast, s: &mut Scope) -> Result<(), String> {
    match a {
        Ast::Identity | Ast::Lit(_) | Ast::Format(_) => Ok(()),
        Ast::Index(x, y) | Ast::Pipe(x, y) | Ast::Comma(x, y) | Ast::Bin(_, x, y) | Ast::And(x, y) | Ast::Or(x, y) | Ast::Alt(x, y) | Ast::Assign(_, x, y) => {
            walk(x, s)?;
            walk(y, s)
        }
        Ast::Slice(t, x, y) => {
            walk(t, s)?;
            if let Some(x) = x {
                walk(x, s)?;
            }
            if let Some(y) = y {
                walk(y, s)?;
            }
            Ok(())
        }
        Ast::Iter(x) | Ast::Neg(x) => walk(x, s),
        Ast::Array(x) => x.as_ref().map_or(Ok(()), |x| walk(x, s)),
        Ast::Str(_, parts) => {
            for p in parts {
                if let StrPart::Interp(e) = p {
                    walk(e, s)?;
                }
            }
            Ok(())
        }
        Ast::Object(es) => {
            for (k, v) in es {
                walk(k, s)?;
                if let Some(v) = v {
                    walk(v, s)?;
                }
            }
            Ok(())
        }
        Ast::If(arms, els) => {
            for (c, t) in arms {
                walk(c, s)?;
                walk(t, s)?;
            }
            els.as_ref().map_or(Ok(()), |e| walk(e, s))
        }
        Ast::Try(b, c) => {
            walk(b, s)?;
            c.as_ref().map_or(Ok(()), |c| walk(c, s))
        }
        Ast::Reduce(src, p, init, upd) => {
            walk(src, s)?;
            walk(init, s)?;
            scoped(s, |s| {
                pat_vars(p, s)?;
                walk(upd, s)
            })
        }
        Ast::Foreach(src, p, init, upd, ext) => {
            walk(src, s)?;
            walk(init, s)?;
            scoped(s, |s| {
                pat_vars(p, s)?;
                walk(upd, s)?;
                ext.as_ref().map_or(Ok(()), |e| walk(e, s))
            })
        }
        Ast::Def(d, rest) => scoped(s, |s| {
            s.funcs.push((d.name.clone(), d.params.len()));
            scoped(s, |s| {
                for p in &d.params {
                    match p.strip_prefix('$') {
                        Some(v) => {
                            s.vars.push(v.to_string());
                            s.funcs.push((v.to_string(), 0));
                        }
                        None => s.funcs.push((p.to_string(), 0)),
                    }
                }
                walk(&d.body, s)
            })?;
            walk(rest, s)
        }),
        Ast::Call(name, args) => {
            let n = args.len();
            let known = s.funcs.iter().any(|(f, a)| f == name && *a == n) || NATIVES.split(' ').any(|x| x == format!("{}/{}", name, n));
            if !known {
                return Err(format!("{}/{} is not defined", name, n));
            }
            for a in args {
                walk(a, s)?;
            }
            Ok(())
        }
        Ast::Var(v) => {
            if s.vars.iter().any(|x| x == v) {
                Ok(())
            } else {
                Err(format!("${} is not defined", v))
            }
        }
        Ast::As(src, p, body) => {
            walk(src, s)?;
            scoped(s, |s| {
                pat_vars(p, s)?;
                walk(body, s)
            })
        }
        Ast::Label(n, body) => scoped(s, |s| {
            s.labels.push(n.clone());
            walk(body, s)
        }),
        Ast::Break(n) => {
            if s.labels.contains(n) {
                Ok(())
            } else {
                Err(format!("$*label-{} is not defined", n))
            }
        }
    }
}
