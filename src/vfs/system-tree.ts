import type { NodeInfo } from "./workspace";
import { STORED_ROOTS, baseName } from "./paths";
import { ZONE_BLOBS, ZONE_FILES, ZONE_LINKS } from "./zoneinfo.gen";

/**
 * The read-only part of the machine the shell and its programs see: `/`, `/bin` and `/usr/bin`
 * (one entry per command that can run), a small `/etc`, `/dev` and `/proc/self`, and Debian's
 * alternatives links for the commands the session has under another name. Nothing here is
 * stored; the stored roots (/workspace, /tmp, /usr/local/bin) appear in listings as names only,
 * their nodes come from the workspace. Which paths exist at all is the policy's call
 * (src/policy/paths.ts, `machineArea`).
 */

const BOOT_MS = Date.UTC(2026, 0, 1);
/** Inode numbers far above any SQLite rowid a session will reach. */
const INO_BASE = 1 << 30;
const utf8 = new TextEncoder();
/** The directory holding `path` on a Linux root (vfs/paths parentOf treats /workspace as a top). */
const dirOf = (p: string) => p.slice(0, p.lastIndexOf("/")) || "/";

const ETC: Record<string, string> = {
  // Debian 12's base-passwd accounts (what a minimal Debian lists; scripts read, sort and cut them), then the agent.
  passwd:
    "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\nsys:x:3:3:sys:/dev:/usr/sbin/nologin\nsync:x:4:65534:sync:/bin:/bin/sync\ngames:x:5:60:games:/usr/games:/usr/sbin/nologin\nman:x:6:12:man:/var/cache/man:/usr/sbin/nologin\nlp:x:7:7:lp:/var/spool/lpd:/usr/sbin/nologin\nmail:x:8:8:mail:/var/mail:/usr/sbin/nologin\nnews:x:9:9:news:/var/spool/news:/usr/sbin/nologin\nuucp:x:10:10:uucp:/var/spool/uucp:/usr/sbin/nologin\nproxy:x:13:13:proxy:/bin:/usr/sbin/nologin\nwww-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\nbackup:x:34:34:backup:/var/backups:/usr/sbin/nologin\nlist:x:38:38:Mailing List Manager:/var/list:/usr/sbin/nologin\nirc:x:39:39:ircd:/run/ircd:/usr/sbin/nologin\n_apt:x:42:65534::/nonexistent:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nagent:x:1000:1000:agent:/workspace:/bin/bash\n",
  group:
    "root:x:0:\ndaemon:x:1:\nbin:x:2:\nsys:x:3:\nadm:x:4:\ntty:x:5:\ndisk:x:6:\nlp:x:7:\nmail:x:8:\nnews:x:9:\nuucp:x:10:\nman:x:12:\nproxy:x:13:\nkmem:x:15:\ndialout:x:20:\nfax:x:21:\nvoice:x:22:\ncdrom:x:24:\nfloppy:x:25:\ntape:x:26:\nsudo:x:27:\naudio:x:29:\ndip:x:30:\nwww-data:x:33:\nbackup:x:34:\noperator:x:37:\nlist:x:38:\nirc:x:39:\nsrc:x:40:\nshadow:x:42:\nutmp:x:43:\nvideo:x:44:\nsasl:x:45:\nplugdev:x:46:\nstaff:x:50:\ngames:x:60:\nusers:x:100:\nnogroup:x:65534:\nagent:x:1000:\n",
  hostname: "toolshed\n",
  hosts: "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\ttoolshed\n",
  "os-release": 'PRETTY_NAME="Toolshed sandbox (Debian-like)"\nNAME="Toolshed"\nID=toolshed\nID_LIKE=debian\nHOME_URL="https://github.com/"\n',
  profile: 'export PATH="/usr/local/bin:/usr/bin:/bin"\nexport TMPDIR=/tmp\numask 022\n',
  shells: "/bin/sh\n/bin/bash\n/usr/bin/sh\n/usr/bin/bash\n",
};

/**
 * /proc agrees with the toolbox's `uname` (Linux 6.1.0-toolshed, `#1 SMP WASI`, x86_64) and `nproc`
 * (1): one x86_64 processor in the layout Linux prints. Memory is the isolate's 128 MiB.
 */
const CPUINFO = [
  ["processor", "0"],
  ["vendor_id", "GenuineIntel"],
  ["cpu family", "6"],
  ["model", "85"],
  ["model name", "Intel(R) Xeon(R) CPU @ 2.20GHz"],
  ["stepping", "7"],
  ["cpu MHz", "2200.000"],
  ["cache size", "39424 KB"],
  ["physical id", "0"],
  ["siblings", "1"],
  ["core id", "0"],
  ["cpu cores", "1"],
  ["apicid", "0"],
  ["initial apicid", "0"],
  ["fpu", "yes"],
  ["fpu_exception", "yes"],
  ["cpuid level", "13"],
  ["wp", "yes"],
  [
    "flags",
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap clflushopt clwb avx512cd avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves arat",
  ],
  ["bugs", "spectre_v1 spectre_v2 spec_store_bypass swapgs"],
  ["bogomips", "4400.00"],
  ["clflush size", "64"],
  ["cache_alignment", "64"],
  ["address sizes", "46 bits physical, 48 bits virtual"],
  ["power management", ""],
];
const cpuinfo = CPUINFO.map(([k, v]) => (v ? `${k}${k!.length < 8 ? "\t\t" : "\t"}: ${v}\n` : `${k}:\n`)).join("") + "\n";

const MEMINFO_KB = {
  MemTotal: 131072,
  MemFree: 65536,
  MemAvailable: 98304,
  Buffers: 0,
  Cached: 16384,
  SwapCached: 0,
  Active: 32768,
  Inactive: 16384,
  SwapTotal: 0,
  SwapFree: 0,
  Shmem: 0,
};
const meminfo = Object.entries(MEMINFO_KB)
  .map(([k, v]) => `${`${k}:`.padEnd(16)}${String(v).padStart(8)} kB\n`)
  .join("");

const PROC: Record<string, string> = {
  version: "Linux version 6.1.0-toolshed (agent@toolshed) (wasm32-wasi rustc 1.63.0) #1 SMP WASI\n",
  cpuinfo,
  meminfo,
  "self/cmdline": "bash\0",
  "self/status": "Name:\tbash\nState:\tR (running)\nPid:\t1\nPPid:\t0\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\n",
};

const DEVICES = ["null", "zero", "random", "urandom", "stdin", "stdout", "stderr", "tty"];

/**
 * Debian's alternatives (update-alternatives) for a name the session runs as another program:
 * `/usr/bin/NAME -> /etc/alternatives/NAME -> /usr/bin/TARGET`, as Debian 12 with gawk installed
 * has them. Only where both names run here (awk is this toolbox's gawk-dialect awk; nawk is not a command).
 */
const ALTERNATIVES: Record<string, string> = { awk: "gawk" };

const ZONEINFO = "/usr/share/zoneinfo";

interface Entry {
  kind: "file" | "dir" | "symlink";
  /** A file's content, or a link's target text. */
  data: Uint8Array;
  /** A time zone file: its index in ZONE_BLOBS, decoded into `data` on first read. */
  zone?: number;
  /** Permission bits (0o755 for commands and directories, 0o644 for data, 0o666 for devices). */
  mode: number;
}

/** How a command name shows in /bin and /usr/bin when read (they are not real binaries). */
const commandText = (name: string) => utf8.encode(`#!/toolshed/builtin ${name}\n`);

export class SystemTree {
  private entries: Map<string, Entry> | null = null;
  private inodes = new Map<string, number>();

  /** `commands`: every command name that can run (toolbox programs, the shell, host commands). */
  constructor(private readonly commands: () => Iterable<string>) {}

  private build(): Map<string, Entry> {
    const m = new Map<string, Entry>();
    const dir = (p: string) => m.set(p, { kind: "dir", data: new Uint8Array(0), mode: 0o755 });
    const file = (p: string, text: string | Uint8Array, mode = 0o644) => m.set(p, { kind: "file", data: typeof text === "string" ? utf8.encode(text) : text, mode });
    for (const d of ["/", "/bin", "/usr", "/usr/bin", "/usr/local", "/etc", "/dev", "/dev/fd", "/proc", "/proc/self", "/var"]) dir(d);
    const link = (p: string, target: string) => m.set(p, { kind: "symlink", data: utf8.encode(target), mode: 0o777 });
    const commands = new Set(this.commands());
    for (const name of commands) {
      file(`/bin/${name}`, commandText(name), 0o755);
      file(`/usr/bin/${name}`, commandText(name), 0o755);
    }
    dir("/etc/alternatives");
    for (const [name, target] of Object.entries(ALTERNATIVES)) {
      if (!commands.has(name) || !commands.has(target)) continue;
      link(`/etc/alternatives/${name}`, `/usr/bin/${target}`);
      link(`/usr/bin/${name}`, `/etc/alternatives/${name}`);
      link(`/bin/${name}`, `/etc/alternatives/${name}`);
    }
    for (const [name, text] of Object.entries(ETC)) file(`/etc/${name}`, text);
    for (const [name, text] of Object.entries(PROC)) file(`/proc/${name}`, text, 0o444);
    for (const name of DEVICES) file(`/dev/${name}`, "", 0o666);
    for (const n of [0, 1, 2]) file(`/dev/fd/${n}`, "", 0o666);
    // Debian's tzdata, for TZ=Zone/Name (the session's own zone is UTC, as /etc/localtime says).
    dir("/usr/share");
    dir(ZONEINFO);
    const zoneDirs = (name: string) => {
      for (let i = name.indexOf("/"); i > 0; i = name.indexOf("/", i + 1)) dir(`${ZONEINFO}/${name.slice(0, i)}`);
    };
    for (const [name, blob] of Object.entries(ZONE_FILES)) {
      zoneDirs(name);
      m.set(`${ZONEINFO}/${name}`, { kind: "file", data: new Uint8Array(0), zone: blob, mode: 0o644 });
    }
    for (const [name, target] of Object.entries(ZONE_LINKS)) {
      zoneDirs(name);
      link(`${ZONEINFO}/${name}`, target);
    }
    link("/etc/localtime", `${ZONEINFO}/Etc/UTC`);
    return m;
  }

  private entry(path: string): Entry | undefined {
    this.entries ??= this.build();
    const e = this.entries.get(path);
    if (e?.zone !== undefined) {
      e.data = Uint8Array.from(atob(ZONE_BLOBS[e.zone]!), (c) => c.charCodeAt(0));
      e.zone = undefined;
    }
    return e;
  }

  private info(path: string, e: Entry): NodeInfo {
    let ino = this.inodes.get(path);
    if (ino === undefined) this.inodes.set(path, (ino = INO_BASE + this.inodes.size));
    const info: NodeInfo = { path, ino, kind: e.kind, size: e.data.length, mtimeMs: BOOT_MS, atimeMs: BOOT_MS, mode: e.mode, uid: 0 };
    if (e.kind === "symlink") info.target = new TextDecoder().decode(e.data);
    return info;
  }

  /** A system link's target text (`/usr/bin/awk` → `/etc/alternatives/awk`), or undefined. */
  linkTarget(path: string): string | undefined {
    const e = this.entry(path);
    return e?.kind === "symlink" ? new TextDecoder().decode(e.data) : undefined;
  }

  stat(path: string): NodeInfo | null {
    const e = this.entry(path);
    return e ? this.info(path, e) : null;
  }

  /** Names directly inside a system directory, stored roots included (by name), sorted. */
  list(path: string): string[] {
    this.entries ??= this.build();
    const names = new Set<string>();
    for (const p of this.entries.keys()) if (p !== "/" && dirOf(p) === path) names.add(baseName(p));
    for (const root of STORED_ROOTS) if (dirOf(root) === path) names.add(baseName(root));
    return [...names].sort();
  }

  /** The whole content of a system file (they are all small; a link has none of its own). */
  content(path: string): Uint8Array {
    const e = this.entry(path);
    return e && e.kind !== "symlink" ? e.data : new Uint8Array(0);
  }

  /** The command a system path runs (`/usr/bin/sed` → `sed`), or undefined. */
  commandAt(path: string): string | undefined {
    const dir = dirOf(path);
    if ((dir === "/bin" || dir === "/usr/bin") && this.entry(path)) return baseName(path);
    return undefined;
  }
}
