// Every limit Toolshed applies by default, once, with its reason. Code imports the value from
// here (often under a local name), and text that states a limit (tool descriptions, error
// messages) is built from it, so a limit and its description cannot drift apart.
// A leaf: it imports nothing. Operator settings (TOOLSHED_*) override some of these at run time;
// the functions that read them (e.g. src/policy/limits.ts) fall back to these values.

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

export const LIMITS = {
  // --- What a model reads -------------------------------------------------------------------
  /** A tool's text output, cut in the middle beyond this: a model's context is the scarce resource. */
  toolOutputChars: 30_000,
  /** Of that output, the most stderr may take, so a noisy stderr cannot hide stdout. */
  stderrShareChars: 10_000,
  /** A status line (set_status): one short line for a human watching. */
  statusChars: 256,
  /** grep tool: matching lines shown; more means the pattern should be narrower. */
  grepLines: 250,
  /** glob tool: paths listed. */
  globResults: 100,

  // --- Shell and programs --------------------------------------------------------------------
  /** bash/exec: default time budget of one call, in seconds (counted as work on Workers). */
  shellTimeoutSeconds: 60,
  /** bash/exec: the most a caller may ask for; Workers allow 300 s of CPU per request at most. */
  shellMaxTimeoutSeconds: 300,
  /** The interpreter's own default budget when no timeout is given (tests, the terminal). */
  interpreterTimeoutMs: 30_000,
  /** Past the timeout, how long a run may sit on an await that never settles before the call gives up. */
  hangGraceMs: 2_000,
  /** Function-call nesting: deep enough for real scripts, stops runaway recursion before the JS stack does. */
  shellCallDepth: 1000,
  /** Nested command substitutions. */
  shellSubstDepth: 64,
  /** One shell string (variable, expansion result); well under the isolate's 128 MB. */
  shellStringBytes: 64 * MiB,
  /** Words one brace expansion may produce ({1..N}). */
  shellBraceWords: 200_000,
  /** Output one run may produce on stdout/stderr before it is stopped. */
  shellOutputBytes: 16 * MiB,
  /** A pipe's buffer between two stages, as Linux's default. */
  pipeBufferBytes: 64 * KiB,
  /** Bytes one run may write to files through redirects: stops `yes > f`, still fits a large sort. */
  fileOutputBytes: 1 * GiB,
  /** Subshells alive at once: a fork bomb's wall. */
  liveProcesses: 512,
  /** Wrappers (env, timeout, nice, ...) the command policy unwraps before it refuses. */
  wrapperDepth: 8,
  /** Standard input handed to a WASI program at once. */
  programStdinBytes: 64 * MiB,
  /** A WASI program's output, per stream. */
  programOutputBytes: 16 * MiB,
  /** One WASI program's linear memory. */
  programMemoryBytes: 64 * MiB,
  /** All programs of one run together: the isolate has 128 MB for JS and Wasm. */
  programsTotalMemoryBytes: 96 * MiB,
  /**
   * Calls whose programs may run at once in the isolate (the others wait their turn, in order,
   * src/wasi/runner.ts admitRun): each may hold about a third of programsTotalMemoryBytes.
   * Programs start small and grow, so admitting by memory alone let 100 sessions' pipelines
   * start together and pass the cap (`npm run bench -- load`).
   */
  programCallsAtOnce: 3,
  /** System calls of one program: a busy loop of tiny reads stops here. */
  programSyscalls: 5_000_000,
  /** Metered fuel of one program (wasm/meter): CPU work, since the clock stands still on Workers. */
  programSteps: 1_000_000_000,
  /** A path passed to a host import, in bytes. */
  programPathBytes: 8192,
  /** argv and environment of one program together. */
  programArgvBytes: 1 * MiB,
  /** Instances kept warm per program (and import shape) for the next run. */
  idleInstances: 2,
  /**
   * Memory all idle instances of an isolate hold together (each keeps its linear memory: 3 MiB
   * for the toolbox, 10 MiB for python): past it a finished instance is dropped, not kept, so
   * warm instances never take more than about a third of the isolate's 128 MB.
   */
  idleInstancesBytes: 40 * MiB,
  /**
   * Started interpreters kept per program and isolate (src/wasi/snapshot.ts), one per locale
   * setting the runs use: each holds a copy of the memory after CPython's core start (~4 MiB).
   */
  snapshotsPerProgram: 2,
  /**
   * A request a program writes to /dev/toolshed (Python's subprocess input, a POST body), JSON
   * with base64 bytes: bounded so a script cannot fill the isolate through it.
   */
  programHostRequestBytes: 16 * MiB,
  /** Commands and fetches one program run may ask the session for (each is a whole shell run or request). */
  programHostCalls: 200,
  /** Body bytes one fetch from a program (Python's urllib) may read. */
  programFetchBytes: 16 * MiB,
  /** One read from a device file (/dev/urandom, /dev/zero). */
  deviceReadBytes: 64 * KiB,
  /** A line of the terminal (WebSocket) protocol. */
  terminalLineChars: 16_384,
  /** Streamed output buffered for a slow reader before the call waits for it. */
  streamedBytes: 1 * MiB,

  // --- Workspace and files -------------------------------------------------------------------
  /** A session's workspace, in bytes (TOOLSHED_QUOTA_BYTES). */
  quotaBytes: 1 * GiB,
  /** A session's workspace, in files (TOOLSHED_QUOTA_FILES). */
  quotaFiles: 100_000,
  /** A path, as Linux's PATH_MAX. */
  pathBytes: 4096,
  /** One path component, as Linux's NAME_MAX. */
  nameBytes: 255,
  /** Directories deep. */
  pathDepth: 128,
  /** Symbolic links followed in one lookup, as Linux's MAXSYMLINKS. */
  linkHops: 40,
  /** Stored chunks kept in memory per session. */
  chunkCacheBytes: 16 * MiB,
  /**
   * A program reading a file bigger than the chunk cache straight through gets up to this much
   * per SQL query (starting at one chunk and doubling while it reads on), held by its fd alone
   * and freed chunk by chunk as it is consumed. Measured in workerd on 200 MB: one query per
   * 256 KiB chunk cost 1.2-1.8x the CPU of 4 MiB per query; whole-file queries gained nothing more.
   */
  readAheadBytes: 4 * MiB,
  /** Read-ahead held by all the files one program has open together (sort merging many runs). */
  readAheadTotalBytes: 16 * MiB,
  /** Policy answers a shell run keeps by command words: a loop runs a handful of commands over and over. */
  checkedCommands: 256,
  /**
   * The most one read of an upload's body takes at once in the Worker (and so the largest piece
   * sent on to the session object). The platform hands a body to a default reader in 4 KiB
   * pieces; reading into a buffer this big takes whatever has arrived in one go. Measured on
   * 100 MB under wrangler dev: 25,600 pieces became about 500, and the upload 2-4x faster.
   */
  uploadReadBytes: 256 * KiB,
  /** Access times are written at most once per this long (Linux's relatime). */
  relatimeMs: 24 * 3600 * 1000,
  /** JSON bodies (tool arguments); larger is refused with 413 (TOOLSHED_MAX_JSON_BYTES). */
  jsonBodyBytes: 10 * MiB,
  /** One raw upload through the files endpoint. */
  uploadBytes: 1 * GiB,
  /** Uploads of one session holding an open editor (an uncommitted blob) at once; more wait their turn. */
  pendingUploads: 8,
  /** Uploads waiting for a slot; past this a client gets 429 with Retry-After at once. */
  uploadsWaiting: 4096,
  /** How long an upload waits for a slot before it is answered 429 with Retry-After. */
  uploadWaitMs: 60_000,
  /** The Retry-After (seconds) sent with that 429. */
  uploadRetryAfterS: 2,
  /** An upload whose body has not moved for this long belongs to a request that died. */
  uploadIdleMs: 10 * 60 * 1000,
  /** An opened upload whose body never started, or ended but was never committed: the Worker does
   * either step right after the other, so this long means its request died. */
  uploadHandoffMs: 30_000,
  /**
   * A fork's stream sends rows and content in pieces of about this size: every piece is one
   * message between two Durable Objects and a few SQL statements on each side, so one piece per
   * 10 KB file made a 10,000-file fork cost 20,000 messages (106 s under wrangler dev). Measured
   * on 100 MB: 4 MiB pieces use 10-15% less CPU than 1 MiB; each side holds about two pieces.
   */
  forkPieceBytes: 4 * MiB,
  /** grep tool: files bigger than this are skipped (and listed). */
  grepFileBytes: 32 * MiB,
  /** read_file: the most bytes rendered at once; use offset/limit. */
  readFileBytes: 64 * MiB,
  /** Bytes read to decide whether a file is text. */
  sniffBytes: 8192,
  /** send_file: the largest file. */
  sendFileBytes: 50 * MiB,
  /** A session's outbox: files held at once. */
  outboxFiles: 100,
  /** A session's outbox: bytes held at once. */
  outboxBytes: 512 * MiB,
  /** How long a sent file and its link last (TOOLSHED_OUTBOX_TTL_SECONDS). */
  outboxTtlSeconds: 24 * 60 * 60,
  /** The longest an operator may set that to. */
  outboxMaxTtlSeconds: 7 * 24 * 60 * 60,
  /** A skill's SKILL.md. */
  skillBytes: 256 * KiB,
  /** Sessions one listing returns. */
  listedSessions: 200,

  // --- Network -------------------------------------------------------------------------------
  /** Redirects one fetch follows, each judged by the URL policy again. */
  redirects: 5,
  /** web_fetch: bytes of a page read. */
  webFetchBytes: 10 * MiB,
  /** web_fetch: time for one page. */
  webFetchTimeoutMs: 30_000,
  /** curl and wget: bytes of one download into the workspace. */
  downloadBytes: 64 * MiB,
  /** A DNS-over-HTTPS lookup. */
  dnsTimeoutMs: 5_000,
  /** A search provider's answer: time, and bytes read. */
  searchTimeoutMs: 10_000,
  searchBodyBytes: 4 * MiB,
  /** One IMAP protocol line (a literal can be large). */
  imapLineBytes: 4 * MiB,
  /** email_search: bytes fetched per message, characters of a body shown, time for the search. */
  mailFetchBytes: 256 * KiB,
  mailBodyChars: 4000,
  mailTimeoutMs: 20_000,
  /** Browser: a page's content returned, navigation time, the grace after a click that navigates. */
  browserContentBytes: 100 * KiB,
  browserNavigationMs: 30_000,
  browserNavigationGraceMs: 1_000,
  /** An idle browser is closed after this long: it holds a paid session. */
  browserIdleMs: 600_000,

  // --- Models, sub-agents and MCP ------------------------------------------------------------
  /** A model's reply, and one model request's time. */
  modelReplyBytes: 4 * MiB,
  modelTimeoutMs: 120_000,
  /** An image model's reply (PNG/JPEG bytes). */
  imageReplyBytes: 32 * MiB,
  /** generate_image: the longest side, in pixels; and what a JPEG may decode to. */
  imageSide: 1024,
  jpegMegapixels: 4,
  /** A tool result handed back to a sub-agent's model, as the caller's own output limit. */
  subAgentToolResultChars: 30_000,
  /** Background sub-agents of one session running at once. */
  runningSubAgents: 5,
  /** Model turns of a sub-agent: default and most. */
  subAgentTurns: 15,
  subAgentMaxTurns: 50,
  /** A sub-agent's wall-clock time in seconds: default and most (a model turn takes seconds). */
  subAgentTimeoutSeconds: 300,
  subAgentMaxTimeoutSeconds: 600,
  /** A remote MCP server's answer: bytes, and time. */
  mcpAnswerBytes: 8 * MiB,
  mcpTimeoutMs: 30_000,
  /** How often a long call reports progress to an MCP client. */
  mcpProgressMs: 1_000,
  /** How long a claimed alarm job is leased before another may take it. */
  alarmLeaseMs: 60_000,
} as const;

/** A count as text in the tool descriptions' style: 30000 -> "30,000". */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Bytes as whole megabytes (MiB) in text: 52428800 -> 50. */
export const megabytes = (n: number): number => n / MiB;
