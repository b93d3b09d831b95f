//! Compiles GNU gzip's own deflate (deflate.c, trees.c, bits.c from Debian's gzip source package)
//! with csrc/shim.c into a static library the toolbox links: only gzip's code gives GNU gzip's
//! compressed bytes (zlib's and miniz_oxide's deflate choose other matches and block ends).
//!
//! TOOLBOX_GZIP_SRC names the unpacked source (scripts/build-wasm.mjs and scripts/test-rust.mjs
//! fetch it with `apt-get source gzip` and set it). The C compiler is Debian's clang-14: for
//! wasm32 with wasi-libc's headers, natively for the host's unit tests.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: [&str; 3] = ["deflate.c", "trees.c", "bits.c"];

fn run(cmd: &mut Command) {
    let shown = format!("{:?}", cmd);
    let st = cmd.status().unwrap_or_else(|e| panic!("could not run {}: {}", shown, e));
    if !st.success() {
        panic!("{} failed with {}", shown, st);
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=TOOLBOX_GZIP_SRC");
    println!("cargo:rerun-if-changed=csrc");
    let src = match env::var("TOOLBOX_GZIP_SRC") {
        Ok(s) if Path::new(&s).join("deflate.c").exists() => PathBuf::from(s),
        _ => panic!(
            "TOOLBOX_GZIP_SRC must name an unpacked GNU gzip source tree (deflate.c, trees.c, bits.c): \
             build with `node scripts/build-wasm.mjs` or test with `npm run test:rust`, which fetch it \
             (apt-get source gzip) and set it"
        ),
    };
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let target = env::var("TARGET").unwrap();
    let wasm = target.starts_with("wasm32");
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("csrc");
    let mut objs = Vec::new();
    let sources: Vec<PathBuf> = FILES.iter().map(|f| src.join(f)).chain(std::iter::once(shim.join("shim.c"))).collect();
    for (i, c) in sources.iter().enumerate() {
        println!("cargo:rerun-if-changed={}", c.display());
        let o = out.join(format!("gz{}.o", i));
        let mut cc = Command::new("clang-14");
        if wasm {
            cc.arg("--target=wasm32-wasi");
        } else {
            cc.arg("-fPIC");
        }
        // UNALIGNED_OK as Debian builds gzip on amd64 (debian/rules); the bytes are the same either way.
        cc.args(["-O2", "-DUNALIGNED_OK", "-w"]).arg("-I").arg(&shim).arg("-I").arg(&src).arg("-I").arg(src.join("lib"));
        cc.arg("-c").arg(c).arg("-o").arg(&o);
        run(&mut cc);
        objs.push(o);
    }
    let lib = out.join("libtoolboxgzip.a");
    let _ = std::fs::remove_file(&lib);
    run(Command::new(if wasm { "llvm-ar-14" } else { "ar" }).arg("rcs").arg(&lib).args(&objs));
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=toolboxgzip");
}
