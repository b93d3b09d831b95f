use crate::testutil::{check, run};

/// (program, flags, stdout) — outputs taken from GNU bc 1.07.1.
const CASES: &[(&str, &[&str], &str)] = &[
    ("scale=2; 10/3\n", &[], "3.33\n"),
    ("10/3\n", &[], "3\n"),
    ("scale=3; 0/1\n", &[], "0\n"),
    ("0.000\n", &[], "0\n"),
    (".5*-1\n", &[], "-.5\n"),
    ("x=3; x\n", &[], "3\n"),
    ("a = 3 < 5; a\n", &[], "1\n3\n"),
    ("-2^2\n", &[], "4\n"),
    ("2^-2\n", &[], "0\n"),
    ("scale=2;2^-2\n", &[], ".25\n"),
    ("sqrt(2)\n", &[], "1\n"),
    ("scale=10;sqrt(2)\n", &[], "1.4142135623\n"),
    ("sqrt(16); sqrt(0.25)\n", &[], "4\n.50\n"),
    ("s(1)\n", &["-l"], ".84147098480789650665\n"),
    ("c(0)\n", &["-l"], "1.00000000000000000000\n"),
    ("l(0)\n", &["-l"], "-99999999999999999999.00000000000000000000\n"),
    ("e(1)\n", &["-l"], "2.71828182845904523536\n"),
    ("a(1)*4\n", &["-l"], "3.14159265358979323844\n"),
    ("l(10)\n", &["-l"], "2.30258509299404568401\n"),
    ("scale=5; e(-2); l(2)\n", &["-l"], ".13533\n.69314\n"),
    ("obase=16; 255; -10.5\n", &[], "FF\n-A.8\n"),
    ("obase=2; 5.25\n", &[], "101.0100000\n"),
    ("ibase=16; FF; A\n", &[], "255\n10\n"),
    ("2^100\n", &[], "1267650600228229401496703205376\n"),
    ("2^300\n", &[], "20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n"),
    ("print \"a\\tb\\n\"\n", &[], "a\tb\n"),
    ("\"x\\ty\"\n", &[], "x\\ty"),
    ("if (1) quit; 5\n", &[], ""),
    ("1.50+0\n", &[], "1.50\n"),
    ("length(123.45); scale(1.234)\n", &[], "5\n3\n"),
    ("x++; x; ++x\n", &[], "0\n1\n2\n"),
    ("last; 4; last; .\n", &[], "0\n4\n4\n4\n"),
    ("obase=20; 1234\n", &[], " 03 01 14\n"),
    ("halt; 4\n", &[], ""),
    ("define f(x){ return (x*2) }; f(3)\n", &[], "6\n"),
    ("define f(x){ x*2 }; f(3)\n", &[], "6\n0\n"),
    ("10%3; scale=2; 10%3; -7%3\n", &[], "1\n.01\n-.01\n"),
    ("1==1; 2<1; !0; 1&&0; 0||2\n", &[], "1\n0\n1\n0\n1\n"),
    ("1/0; 5\n6\n", &[], "6\n"),
    ("2+; 3\n4\n", &[], "4\n"),
    ("for (i=0; i<3; i++) i\n", &[], "0\n1\n2\n"),
    ("i=0; while (1) { if (i++ > 2) break; i }\n", &[], "1\n2\n3\n"),
    ("define f(n) {\n  if (n <= 1) return (1)\n  return (n * f(n-1))\n}\nf(20)\n", &[], "2432902008176640000\n"),
    ("a[2]=5; a[2]+a[1]\n", &[], "5\n"),
    ("define s(a[]) { return (a[0]+a[1]) }\nx[0]=1; x[1]=2; s(x[])\n", &[], "3\n"),
    ("x=5; define g() { auto x; x=1; return (x) }; g(); x\n", &[], "1\n5\n"),
    ("if (0) 1 else 2\n", &[], "2\n"),
    ("/* c */ 1 # c\n", &[], "1\n"),
    ("x=2; x^=3; x\n", &[], "8\n"),
    ("scale=4; 1/3*3\n", &[], ".9999\n"),
    ("123456789*987654321\n", &[], "121932631112635269\n"),
    ("ibase=2; 1010; ibase=16; 1F.8\n", &[], "10\n5.6\n"),
    ("scale=3; 1.0005*2\n", &[], "2.0010\n"),
    ("3-5.25\n", &[], "-2.25\n"),
    ("print 1, \" \", 2.5, \"\\n\"\n", &[], "1 2.5\n"),
];

#[test]
fn table() {
    for (prog, flags, out) in CASES {
        check("bc", flags, prog, out, 0);
    }
}

#[test]
fn errors_name_the_problem() {
    // Deep recursion needs more stack than a debug build's test thread has.
    std::thread::Builder::new().stack_size(256 << 20).spawn(errors).unwrap().join().unwrap();
}

fn errors() {
    let cases: &[(&str, &str)] = &[
        ("1/0\n", "Divide by zero"),
        ("2+\n", "syntax error"),
        ("s(1)\n", "needs bc -l"),
        ("define f() { return (f()) }\nf()\n", "nested deeper"),
        ("read()\n", "not supported"),
    ];
    for (prog, want) in cases {
        let (_, _, e) = run("bc", &[], prog);
        assert!(e.contains(want), "{:?}: {}", prog, e);
    }
}
