use crate::testutil::{check, run, tmpdir, write};

const TEXT: &str = "apple pie\nbanana split\nCherry tart\napple crumble\n";

/// Runs rg with `D` in arguments standing for directory `d`, and `D` put
/// back in place of `d` in stdout.
fn rg_in(d: &str, args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|a| a.replace('D', d)).collect();
    let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (c, o, e) = run("rg", &refs, "");
    (c, o.replace(d, "D"), e.replace(d, "D"))
}

fn tree(files: &[(&str, &str)]) -> String {
    let d = tmpdir();
    for (p, t) in files {
        let full = format!("{}/{}", d, p);
        if let Some(i) = full.rfind('/') {
            std::fs::create_dir_all(&full[..i]).unwrap();
        }
        write(&full, t);
    }
    d
}

#[test]
fn stdin_flags() {
    let cases: &[(&[&str], &str, &str, i32)] = &[
        (&["apple", "-"], TEXT, "apple pie\napple crumble\n", 0),
        (&["-n", "apple", "-"], TEXT, "1:apple pie\n4:apple crumble\n", 0),
        (&["-n", "-N", "apple", "-"], TEXT, "apple pie\napple crumble\n", 0),
        (&["-c", "apple", "-"], TEXT, "2\n", 0),
        (&["--count-matches", "p", "-"], TEXT, "6\n", 0),
        (&["-v", "apple", "-"], TEXT, "banana split\nCherry tart\n", 0),
        (&["cherry", "-"], TEXT, "", 1),
        (&["-i", "cherry", "-"], TEXT, "Cherry tart\n", 0),
        (&["-i", "-s", "cherry", "-"], TEXT, "", 1),
        (&["-S", "cherry", "-"], TEXT, "Cherry tart\n", 0),
        (&["-S", "Apple", "-"], TEXT, "", 1),
        (&["-S", r"\Sherry", "-"], TEXT, "Cherry tart\n", 0),
        (&["-F", "a.p", "-"], "a.p\naxp\n", "a.p\n", 0),
        (&["a.p", "-"], "a.p\naxp\n", "a.p\naxp\n", 0),
        (&["-w", "app", "-"], "app le\napple\n", "app le\n", 0),
        (&["-w", "foo", "-"], "foobar foo\n", "foobar foo\n", 0),
        (&["-w", "-o", "foo", "-"], "foo foo,foo xfoo\n", "foo\nfoo\nfoo\n", 0),
        (&["-w", "foo|foobar", "-"], "foobar\n", "foobar\n", 0),
        (&["-x", "apple", "-"], "apple\napple pie\n", "apple\n", 0),
        (&["-e", "pie", "-e", "tart", "-"], TEXT, "apple pie\nCherry tart\n", 0),
        (&["-m", "1", "apple", "-"], TEXT, "apple pie\n", 0),
        (&["-m", "0", "apple", "-"], TEXT, "", 1),
        (&["-q", "apple", "-"], TEXT, "", 0),
        (&["-q", "zzz", "-"], TEXT, "", 1),
        (&["-o", "a[np]", "-"], TEXT, "ap\nan\nan\nap\n", 0),
        (&["-o", "-n", "--column", "an", "-"], TEXT, "2:2:an\n2:4:an\n", 0),
        (&["--column", "split", "-"], TEXT, "2:8:banana split\n", 0),
        (&["-b", "banana", "-"], TEXT, "10:banana split\n", 0),
        (&["-r", "X", "a", "-"], "banana\n", "bXnXnX\n", 0),
        (&["-r", "[$1]", "(a)(n)", "-"], "banana\n", "b[a][a]a\n", 0),
        (&["-r", "${w}!", "(?P<w>b)a", "-"], "banana\n", "b!nana\n", 0),
        (&["-o", "-r", "$2$1", "(a)(n)", "-"], "banana\n", "na\nna\n", 0),
        (&["-r", "<$0>", "-w", "ab", "-"], "ab abc ab\n", "<ab> abc <ab>\n", 0),
        (&["-r", "$1", "-w", "a(b)", "-"], "ab\n", "b\n", 0),
        (&["-r", "$$x", "a", "-"], "a\n", "$x\n", 0),
        (&["-l", "a", "-"], "a\n", "<stdin>\n", 0),
        (&["--files-without-match", "a", "-"], "b\n", "<stdin>\n", 0),
        (&["--files-without-match", "a", "-"], "a\n", "", 1),
        (&["-H", "pie", "-"], TEXT, "<stdin>:apple pie\n", 0),
        (&["-0", "-H", "pie", "-"], TEXT, "<stdin>\0apple pie\n", 0),
        (&["-0", "-l", "pie", "-"], TEXT, "<stdin>\0", 0),
        (&["--trim", "x", "-"], "  \tx y\n", "x y\n", 0),
        (&["-M", "3", "a", "-"], "aaaa\na\n", "[Omitted long line with 4 matches]\na\n", 0),
        // -U (outputs from ripgrep 13): lines a match touches print once; -c counts matches.
        (&["-U", "-n", "a\\nb", "-"], "xa\nby\nz\n", "1:xa\n2:by\n", 0),
        (&["-U", "-c", "a\\nb|y", "-"], "xa\nby\nz\n", "2\n", 0),
        (&["-U", "-c", "a", "-"], "aa\na\n", "2\n", 0),
        (&["-U", "-n", "-o", "a\\nb", "-"], "xa\nby\n", "1:a\n2:b\n", 0),
        (&["-U", "--multiline-dotall", "a.b", "-"], "xa\nby\n", "xa\nby\n", 0),
        (&["-U", "a.b", "-"], "xa\nby\n", "", 1),
        // -P: look-around and backreferences (fancy-regex).
        (&["-P", "-o", "(?<=x)a", "-"], "xa\nya\n", "a\n", 0),
        (&["-P", "-w", "(\\w)\\1", "-"], "aa b\nxaa\n", "aa b\n", 0),
        (&["--engine", "auto", "b(?!y)", "-"], "by\nbz\n", "bz\n", 0),
        (&["x", "-"], "no newline x", "no newline x\n", 0),
        (&["x$", "-"], "a x\r\nb x\n", "b x\n", 0),
        (&["", "-"], "a\n\nb\n", "a\n\nb\n", 0),
        (&["--vimgrep", "a", "-"], "xa a\n", "<stdin>:1:2:xa a\n<stdin>:1:4:xa a\n", 0),
        (&["--passthru", "b", "-"], "a\nb\nc\n", "a\nb\nc\n", 0),
        (&["-c", "-v", "x", "-"], "a\nb\n", "2\n", 0),
        (&["-c", "x", "-"], "a\nb\n", "", 1),
        (&["-c", "--include-zero", "x", "-"], "a\nb\n", "0\n", 0 + 1),
        // The whole-buffer scan must not let matches cross lines or anchors drift.
        (&["a\\sb", "-"], "a\nb\n", "", 1),
        (&["-n", "^b", "-"], "a\nb\nc\nb\n", "2:b\n4:b\n", 0),
        (&["-n", "\\Ab", "-"], "a\nb\n", "2:b\n", 0),
        (&["-n", "b\\z", "-"], "b\nab\n", "1:b\n2:ab\n", 0),
        (&["-n", "(?-m)^b", "-"], "a\nb\n", "2:b\n", 0),
        (&["-n", "-w", "foo", "-"], "x\n.foo\nfoox\nfoo\n", "2:.foo\n4:foo\n", 0),
        (&["-n", "-m", "2", "b", "-"], "b\nx\nb\nb\n", "1:b\n3:b\n", 0),
        (&["-c", "b", "-"], "b\nx\nb\nb", "3\n", 0),
        (&["-n", "-i", "B$", "-"], "xb\r\nab\n", "2:ab\n", 0),
        (&["", "-"], "", "", 1),
    ];
    for (args, input, out, code) in cases {
        check("rg", args, input, out, *code);
    }
}

#[test]
fn long_input() {
    // Lines around and past 64 KiB, a very long line, and no final newline.
    let mut s = String::new();
    for i in 0..100_000 {
        s.push_str(&format!("line {}\n", i));
    }
    s.push_str(&"y".repeat(200_000));
    s.push_str("needle");
    let (c, o, _) = run("rg", &["-n", "line 7000[05]$|needle", "-"], &s);
    assert_eq!(c, 0);
    let lines: Vec<&str> = o.lines().collect();
    assert_eq!(&lines[..2], &["70001:line 70000", "70006:line 70005"]);
    assert!(lines[2].starts_with("100001:yyy") && lines[2].ends_with("needle"));
}

#[test]
fn implicit_root_prints_bare_paths() {
    // Unit tests run in the crate directory.
    check("rg", &["--files", "-g", "Cargo.toml", "--max-depth", "1"], "", "Cargo.toml\n", 0);
    check("rg", &["-l", "^name = \"toolbox\"", "-g", "Cargo.toml", "-d", "1"], "", "Cargo.toml\n", 0);
    check("rg", &["-l", "^name = \"toolbox\"", "-g", "Cargo.toml", "-d", "1", "."], "", "./Cargo.toml\n", 0);
}

#[test]
fn context_separators() {
    let t = "a\nb\nc\nd\ne\nf\ng\n";
    let cases: &[(&[&str], &str)] = &[
        (&["-n", "-C1", "-e", "b", "-e", "f", "-"], "1-a\n2:b\n3-c\n--\n5-e\n6:f\n7-g\n"),
        (&["-A1", "c", "-"], "c\nd\n"),
        (&["-B2", "c", "-"], "a\nb\nc\n"),
        (&["-A1", "-e", "b", "-e", "c", "-"], "b\nc\nd\n"),
        (&["-C1", "--context-separator", "##", "-e", "a", "-e", "g", "-"], "a\nb\n##\nf\ng\n"),
        (&["-m1", "-A1", "[bc]", "-"], "b\nc\n"),
        (&["-H", "-n", "-B1", "c", "-"], "<stdin>-2-b\n<stdin>:3:c\n"),
    ];
    for (args, out) in cases {
        check("rg", args, t, out, 0);
    }
}

#[test]
fn walk_and_ignore() {
    let d = tree(&[
        ("a.txt", "needle\n"),
        ("b.rs", "needle in rust\n"),
        (".hidden.txt", "needle hidden\n"),
        (".hdir/x.txt", "needle hdir\n"),
        (".git/config", "needle git\n"),
        (".gitignore", "*.log\n!keep.log\nbuild/\n/top.md\n"),
        ("drop.log", "needle\n"),
        ("keep.log", "needle\n"),
        ("build/out.txt", "needle\n"),
        ("top.md", "needle\n"),
        ("sub/top.md", "needle\n"),
        ("sub/.gitignore", "inner.txt\n"),
        ("sub/inner.txt", "needle\n"),
        ("sub/deep/inner.txt", "needle\n"),
        ("sub/deep/ok.txt", "needle\n"),
        ("ig/.ignore", "x.txt\n"),
        ("ig/x.txt", "needle\n"),
        ("rg/.gitignore", "!y.txt\n"),
        ("rg/.rgignore", "y.txt\n"),
        ("rg/y.txt", "needle\n"),
        ("bin.dat", "needle\0binary\n"),
    ]);
    let (c, o, _) = rg_in(&d, &["-l", "needle", "D"]);
    assert_eq!((c, o.as_str()), (0, "D/a.txt\nD/b.rs\nD/keep.log\nD/sub/deep/ok.txt\nD/sub/top.md\n"));
    let (_, o, _) = rg_in(&d, &["--files", "D"]);
    assert_eq!(o, "D/a.txt\nD/b.rs\nD/bin.dat\nD/keep.log\nD/sub/deep/ok.txt\nD/sub/top.md\n");
    let (_, o, _) = rg_in(&d, &["-l", "--hidden", "needle", "D"]);
    assert_eq!(o, "D/.hdir/x.txt\nD/.hidden.txt\nD/a.txt\nD/b.rs\nD/keep.log\nD/sub/deep/ok.txt\nD/sub/top.md\n");
    let (_, o, _) = rg_in(&d, &["-l", "-.", "needle", "D"]);
    assert!(o.starts_with("D/.hdir/x.txt\n"), "{}", o);
    let (_, o, _) = rg_in(&d, &["-l", "--no-ignore", "needle", "D"]);
    assert_eq!(
        o,
        "D/a.txt\nD/b.rs\nD/build/out.txt\nD/drop.log\nD/ig/x.txt\nD/keep.log\nD/rg/y.txt\nD/sub/deep/inner.txt\nD/sub/deep/ok.txt\nD/sub/inner.txt\nD/sub/top.md\nD/top.md\n"
    );
    let (_, o2, _) = rg_in(&d, &["-l", "-u", "needle", "D"]);
    assert_eq!(o, o2);
    let (_, o, _) = rg_in(&d, &["-l", "-uu", "needle", "D"]);
    assert!(o.contains("D/.hidden.txt\n") && !o.contains(".git/") && !o.contains("bin.dat"), "{}", o);
    let (_, o, _) = rg_in(&d, &["-l", "-uuu", "needle", "D"]);
    assert!(o.contains("D/bin.dat\n"), "{}", o);
    let (_, o, _) = rg_in(&d, &["-uuu", "binary", "D"]);
    assert_eq!(o, "D/bin.dat: binary file matches (found \"\\0\" byte around offset 6)\n");
    let (_, o, _) = rg_in(&d, &["--binary", "-a", "binary", "D"]);
    assert_eq!(o, "D/bin.dat:needle\0binary\n");
    let (_, o, _) = rg_in(&d, &["-l", "--no-ignore-dot", "needle", "D"]);
    assert!(o.contains("D/ig/x.txt\n") && !o.contains("rg/y.txt") && !o.contains("drop.log"), "{}", o);
    let (_, o, _) = rg_in(&d, &["-l", "--no-ignore-vcs", "needle", "D"]);
    assert!(o.contains("D/drop.log\n") && !o.contains("ig/x.txt"), "{}", o);
    // Searching a subdirectory still honours the parent's .gitignore.
    let (_, o, _) = rg_in(&d, &["-l", "needle", "D/sub"]);
    assert_eq!(o, "D/sub/deep/ok.txt\nD/sub/top.md\n");
    let (_, o, _) = rg_in(&d, &["-l", "--no-ignore-parent", "needle", "D/sub"]);
    assert_eq!(o, "D/sub/deep/ok.txt\nD/sub/top.md\n");
    // Explicit files are searched whatever the ignore rules say.
    let (_, o, _) = rg_in(&d, &["needle", "D/drop.log"]);
    assert_eq!(o, "needle\n");
    // Output shape for a directory: path:line.
    let (_, o, _) = rg_in(&d, &["-n", "rust", "D"]);
    assert_eq!(o, "D/b.rs:1:needle in rust\n");
    let (_, o, _) = rg_in(&d, &["-I", "rust", "D"]);
    assert_eq!(o, "needle in rust\n");
    let (_, o, _) = rg_in(&d, &["-c", "needle", "D/a.txt", "D/b.rs"]);
    assert_eq!(o, "D/a.txt:1\nD/b.rs:1\n");
    let (_, o, _) = rg_in(&d, &["--max-depth", "1", "--files", "D"]);
    assert_eq!(o, "D/a.txt\nD/b.rs\nD/bin.dat\nD/keep.log\n");
    let (_, o, _) = rg_in(&d, &["-d", "0", "--files", "D"]);
    assert_eq!(o, "");
}

#[test]
fn globs_and_types() {
    let d = tree(&[
        ("a.rs", "x\n"),
        ("b.py", "x\n"),
        ("c.md", "x\n"),
        ("src/d.rs", "x\n"),
        ("src/e.TS", "x\n"),
        ("web/f.tsx", "x\n"),
        ("web/g.js", "x\n"),
    ]);
    let cases: &[(&[&str], &str)] = &[
        (&["-g", "*.rs"], "D/a.rs\nD/src/d.rs\n"),
        (&["-g", "!*.rs"], "D/b.py\nD/c.md\nD/src/e.TS\nD/web/f.tsx\nD/web/g.js\n"),
        (&["-g", "*.rs", "-g", "!src"], "D/a.rs\n"),
        (&["-g", "!src/"], "D/a.rs\nD/b.py\nD/c.md\nD/web/f.tsx\nD/web/g.js\n"),
        (&["-g", "*.ts"], ""),
        (&["--iglob", "*.ts"], "D/src/e.TS\n"),
        (&["--glob-case-insensitive", "-g", "*.ts"], "D/src/e.TS\n"),
        (&["-g", "D/src/*"], "D/src/d.rs\nD/src/e.TS\n"),
        (&["-g", "**/web/**"], "D/web/f.tsx\nD/web/g.js\n"),
        (&["-t", "rust"], "D/a.rs\nD/src/d.rs\n"),
        (&["-t", "ts"], "D/web/f.tsx\n"),
        (&["-t", "js", "-t", "py"], "D/b.py\nD/web/g.js\n"),
        (&["-T", "rust", "-T", "md"], "D/b.py\nD/src/e.TS\nD/web/f.tsx\nD/web/g.js\n"),
    ];
    for (flags, out) in cases {
        let mut a: Vec<&str> = flags.to_vec();
        a.extend(["-l", "x", "D"]);
        let (c, o, e) = rg_in(&d, &a);
        assert_eq!(o, *out, "{:?} {}", flags, e);
        assert_eq!(c, if out.is_empty() { 1 } else { 0 }, "{:?}", flags);
    }
    let (c, _, e) = rg_in(&d, &["-t", "nosuch", "x", "D"]);
    assert_eq!((c, e.as_str()), (2, "rg: unrecognized file type: nosuch\n"));
    let (c, o, _) = run("rg", &["--type-list"], "");
    assert!(c == 0 && o.contains("rust: *.rs\n") && o.contains("js: *.js, *.jsx, *.mjs, *.cjs\n"));
}

#[test]
fn binary_files() {
    let d = tree(&[("bin.dat", "abc\0needle\nmore needle\n"), ("t.txt", "needle\n")]);
    let (c, o, _) = rg_in(&d, &["needle", "D"]);
    assert_eq!((c, o.as_str()), (0, "D/t.txt:needle\n"));
    let (_, o, _) = rg_in(&d, &["needle", "D/bin.dat"]);
    assert_eq!(o, "binary file matches (found \"\\0\" byte around offset 3)\n");
    let (_, o, _) = rg_in(&d, &["needle", "D/bin.dat", "D/t.txt"]);
    assert_eq!(o, "D/bin.dat: binary file matches (found \"\\0\" byte around offset 3)\nD/t.txt:needle\n");
    let (c, o, _) = rg_in(&d, &["zzz", "D/bin.dat"]);
    assert_eq!((c, o.as_str()), (1, ""));
    let (_, o, _) = rg_in(&d, &["-a", "more", "D/bin.dat"]);
    assert_eq!(o, "more needle\n");
    let (_, o, _) = rg_in(&d, &["-c", "needle", "D/bin.dat"]);
    assert_eq!(o, "2\n");
}

#[test]
fn headings_and_file_separators() {
    let d = tree(&[("a.txt", "1\nhit\n3\n4\n5\nhit\n"), ("b.txt", "hit\n")]);
    let (_, o, _) = rg_in(&d, &["--heading", "-n", "hit", "D"]);
    assert_eq!(o, "D/a.txt\n2:hit\n6:hit\n\nD/b.txt\n1:hit\n");
    let (_, o, _) = rg_in(&d, &["-p", "hit", "D"]);
    assert_eq!(o, "D/a.txt\n2:hit\n6:hit\n\nD/b.txt\n1:hit\n");
    let (_, o, _) = rg_in(&d, &["--heading", "--no-heading", "hit", "D"]);
    assert_eq!(o, "D/a.txt:hit\nD/a.txt:hit\nD/b.txt:hit\n");
    let (_, o, _) = rg_in(&d, &["-C1", "hit", "D"]);
    assert_eq!(o, "D/a.txt-1\nD/a.txt:hit\nD/a.txt-3\n--\nD/a.txt-5\nD/a.txt:hit\n--\nD/b.txt:hit\n");
    let (_, o, _) = rg_in(&d, &["-0", "-c", "hit", "D"]);
    assert_eq!(o, "D/a.txt\x002\nD/b.txt\x001\n");
    let (_, o, _) = rg_in(&d, &["-0", "--files", "D"]);
    assert_eq!(o, "D/a.txt\0D/b.txt\0");
    let (_, o, _) = rg_in(&d, &["-H", "hit", "D/b.txt"]);
    assert_eq!(o, "D/b.txt:hit\n");
}

#[test]
fn errors_and_exit_codes() {
    let d = tree(&[("a.txt", "x\n")]);
    let (c, o, e) = rg_in(&d, &["x", "D/missing", "D/a.txt"]);
    assert_eq!((c, o.as_str(), e.as_str()), (2, "D/a.txt:x\n", "rg: D/missing: No such file or directory (os error 2)\n"));
    let (c, _, e) = rg_in(&d, &["--no-messages", "x", "D/missing"]);
    assert_eq!((c, e.as_str()), (2, ""));
    let (c, _, _) = rg_in(&d, &["-q", "x", "D/missing", "D/a.txt"]);
    assert_eq!(c, 0);
    let (c, _, e) = run("rg", &["a(", "-"], "");
    assert_eq!(c, 2);
    assert!(e.starts_with("rg: regex parse error:\n    a(\n"), "{}", e);
    let (c, _, e) = run("rg", &[], "");
    assert_eq!((c, e.as_str()), (2, "rg: ripgrep requires at least one pattern to execute a search\n"));
    let (c, _, e) = run("rg", &["-U", "-v", "x"], "");
    assert_eq!(c, 2);
    assert!(e.contains("-U/--multiline with -v is not supported"), "{}", e);
    let (c, _, e) = run("rg", &["--json", "-c", "x"], "");
    assert!(c == 2 && e.contains("cannot be used with '--json'"), "{}", e);
    let (c, o, _) = run("rg", &["--json", "x", "-"], "ax\n");
    assert_eq!(c, 0);
    assert!(o.starts_with("{\"type\":\"begin\",\"data\":{\"path\":{\"text\":\"<stdin>\"}}}\n{\"type\":\"match\""), "{}", o);
    assert!(o.contains("\"submatches\":[{\"match\":{\"text\":\"x\"},\"start\":1,\"end\":2}]") && o.ends_with("\"type\":\"summary\"}\n"), "{}", o);
    check("rg", &["-V"], "", "ripgrep 14.1.0 (toolshed toolbox)\n", 0);
    check("rg", &["--version"], "", "ripgrep 14.1.0 (toolshed toolbox)\n", 0);
    let (c, o, _) = run("rg", &["--help"], "");
    assert!(c == 0 && o.contains("USAGE:"));
    let (c, _, _) = run("rg", &["--bogus", "x"], "");
    assert_eq!(c, 2);
    let (c, o, _) = rg_in(&d, &["-f", "D/a.txt", "D/a.txt"]);
    assert_eq!((c, o.as_str()), (0, "x\n"));
}

#[test]
fn smart_case_detection() {
    use super::has_uppercase;
    let cases: &[(&str, bool, bool)] = &[
        ("abc", false, false),
        ("aBc", false, true),
        (r"\Sfoo", false, false),
        (r"\p{Lu}x", false, false),
        (r"\pLx", false, false),
        (r"\W", true, true),
    ];
    for (p, fixed, want) in cases {
        assert_eq!(has_uppercase(p, *fixed), *want, "{}", p);
    }
}
