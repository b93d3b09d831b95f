//! The e command and the s///e flag: a command line run as GNU sed runs it with popen(3),
//! its standard output given back. Here the session's shell runs it (its command rules, file
//! policy and log): the request goes to /dev/toolshed as JSON (src/wasi/fs/host-device.ts,
//! src/tools/shell/program-host.ts) and the answer comes back the same way. Natively (unit
//! tests) `sh -c` runs it, as popen does.

/// What a command gave: its standard output and standard error.
pub struct Ran {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a command could not be run at all (a sentence; sed reports it and stops).
#[cfg_attr(not(target_os = "wasi"), allow(dead_code))]
pub const NO_DEVICE: &str = "the e command and the s///e flag (run the pattern space as a shell command) cannot run commands here: print the commands and pipe them to bash instead, e.g. sed 's/.*/echo &/' | bash";

#[cfg(target_os = "wasi")]
pub fn run(cmd: &[u8]) -> Result<Ran, String> {
    use std::io::{Read, Write};
    let mut dev = match std::fs::OpenOptions::new().read(true).write(true).open("/dev/toolshed") {
        Ok(f) => f,
        Err(_) => return Err(NO_DEVICE.to_string()),
    };
    let cwd = std::env::var("PWD").unwrap_or_else(|_| "/workspace".to_string());
    let mut req = String::from("{\"op\":\"run\",\"script\":");
    json_str(&String::from_utf8_lossy(cmd), &mut req);
    req.push_str(",\"cwd\":");
    json_str(&cwd, &mut req);
    req.push_str(",\"env\":{");
    for (i, (k, v)) in std::env::vars_os().enumerate() {
        if i > 0 {
            req.push(',');
        }
        json_str(&k.to_string_lossy(), &mut req);
        req.push(':');
        json_str(&v.to_string_lossy(), &mut req);
    }
    req.push_str("}}");
    let mut answer = Vec::new();
    let io = dev.write_all(req.as_bytes()).and_then(|_| dev.read_to_end(&mut answer));
    if let Err(e) = io {
        return Err(format!("couldn't run the command through the session: {}", crate::ctx::reason(&e)));
    }
    parse_answer(&answer)
}

#[cfg(not(target_os = "wasi"))]
pub fn run(cmd: &[u8]) -> Result<Ran, String> {
    let cmd = String::from_utf8_lossy(cmd).into_owned();
    match std::process::Command::new("sh").arg("-c").arg(&cmd).stdin(std::process::Stdio::null()).output() {
        Ok(o) => Ok(Ran { stdout: o.stdout, stderr: o.stderr }),
        Err(e) => Err(format!("error in subprocess: {}", e)),
    }
}

/// The answer: `{"status":N,"stdout":B64,"stderr":B64}` or `{"error":TEXT,...}`.
pub fn parse_answer(answer: &[u8]) -> Result<Ran, String> {
    let text = String::from_utf8_lossy(answer);
    if let Some(e) = field(&text, "error") {
        return Err(e);
    }
    match (field(&text, "stdout"), field(&text, "stderr")) {
        (Some(o), Some(e)) => Ok(Ran { stdout: unbase64(&o), stderr: unbase64(&e) }),
        _ => Err("the session gave no answer for the command".to_string()),
    }
}

/// `s` as a JSON string literal.
pub fn json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The string value of a top-level `"name":"..."` in the host's flat JSON answer.
fn field(text: &str, name: &str) -> Option<String> {
    let key = format!("\"{}\":\"", name);
    let start = text.find(&key)? + key.len();
    let mut out = String::new();
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or('\u{fffd}'));
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

fn unbase64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some((c - b'A') as u32),
            b'a'..=b'z' => Some((c - b'a') as u32 + 26),
            b'0'..=b'9' => Some((c - b'0') as u32 + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn answers() {
        let r = super::parse_answer(br#"{"status":0,"stdout":"aGkK","stderr":""}"#).ok().unwrap();
        assert_eq!(r.stdout, b"hi\n");
        assert!(r.stderr.is_empty());
        let e = super::parse_answer(br#"{"error":"no \"way\"\n","unsupported":true}"#).err().unwrap();
        assert_eq!(e, "no \"way\"\n");
        let mut s = String::new();
        super::json_str("a\"b\\\n\u{1}", &mut s);
        assert_eq!(s, r#""a\"b\\\n\u0001""#);
    }
}
