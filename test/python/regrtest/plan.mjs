// What test/python/regrtest.test.ts runs of CPython's own regression tests (`python3 -m test`)
// in a session, and the files of the source's Lib/test it needs. Debian's python3.11 runs the same
// command lines on the same files (test/python/regrtest.global.mjs) and the session must pass
// every test that passes there, but for SESSION_SKIPS.

/** Files and folders of Lib/test the runs need: regrtest itself, the modules, their data. */
export const LIB_TEST_FILES = [
  "__init__.py",
  "__main__.py",
  "support",
  "libregrtest",
  "re_tests.py",
  "test_json",
  "test_re.py",
  "test_csv.py",
  "test_collections.py",
  "test_itertools.py",
  "test_functools.py",
  "test_string.py",
  "test_textwrap.py",
  "test_difflib.py",
  "test_difflib_expect.html",
  "test_fractions.py",
  "test_decimal.py",
  "decimaltestdata",
  "test_datetime.py",
  "datetimetester.py",
  "test_statistics.py",
  "test_pathlib.py",
  "test_argparse.py",
  "test_sqlite3",
  "test_zlib.py",
  "test_gzip.py",
];

/**
 * One `python3 -m test --junit-xml FILE ARGS` per entry, each one tool call in the session
 * (LIMITS.shellMaxTimeoutSeconds is the most one call may take).
 */
export const RUNS = [
  { name: "json", args: ["test_json"] },
  { name: "re", args: ["test_re"] },
  { name: "csv", args: ["test_csv"] },
  { name: "collections", args: ["test_collections"] },
  { name: "itertools", args: ["test_itertools"] },
  { name: "functools", args: ["test_functools"] },
  { name: "string", args: ["test_string"] },
  { name: "textwrap", args: ["test_textwrap"] },
  { name: "difflib", args: ["test_difflib"] },
  { name: "fractions", args: ["test_fractions"] },
  { name: "decimal", args: ["test_decimal"] },
  { name: "datetime", args: ["test_datetime"] },
  { name: "statistics", args: ["test_statistics"] },
  { name: "pathlib", args: ["test_pathlib"] },
  { name: "argparse", args: ["test_argparse"] },
  // CPython's _testcapi (a C module of test helpers) is not in the session's build; test_sqlite3
  // imports two C limits from it, which this module gives for the session's run only (on Debian
  // the real module answers).
  { name: "sqlite3", args: ["test_sqlite3"], sessionFiles: { "_testcapi.py": "INT_MAX = 2**31 - 1\nULLONG_MAX = 2**64 - 1\n" } },
  { name: "zlib", args: ["test_zlib"] },
  { name: "gzip", args: ["test_gzip"] },
];

/**
 * Tests that pass on Debian and are skipped in the session, each for what a session does not
 * have. Everything else that passes on Debian must pass in the session. (Tests CPython itself
 * skips on WASI, by its own `support.requires_*` markers, are skipped on this side by CPython.)
 */
export const SESSION_SKIPS = {
  "test.test_itertools.TestBasicOps.test_tee_del_backward":
    "needs more memory than a program may have (LIMITS.programMemoryBytes, 64 MiB): tee() buffers 20 million items; MemoryError here",
  "test.test_decimal.CIBMTestCases.test_extra":
    "pwmx330 (a power with a 10^8-digit exponent) needs nearly all the memory a program may have (LIMITS.programMemoryBytes, 64 MiB): MemoryError in some runs, depending on how the heap grew before it",
  "test.test_pathlib.PathTest.test_link_to": "hard links: the workspace has none (os.link is ENOTSUP, as `ln` without -s)",
  "test.test_pathlib.PosixPathTest.test_link_to": "hard links: the workspace has none (os.link is ENOTSUP, as `ln` without -s)",
  "test.test_pathlib.PathTest.test_hardlink_to": "hard links: the workspace has none (os.link is ENOTSUP, as `ln` without -s)",
  "test.test_pathlib.PosixPathTest.test_hardlink_to": "hard links: the workspace has none (os.link is ENOTSUP, as `ln` without -s)",
};

/**
 * Skip reasons of CPython's own markers for what WASI lacks (test.support: has_subprocess_support,
 * has_fork_support, requires_working_socket, threading_helper.requires_working_threading, ...):
 * a test Debian passes may be skipped in the session with one of these.
 */
export const CPYTHON_WASI_SKIPS = [
  /^requires subprocess support$/,
  /^test requires multiprocessing$/,
  // wasm32 is a 32-bit platform.
  /^requires 64bit platform$/,
  // CPython's C modules of test helpers (_testcapi, _testinternalcapi) are not in the session's build.
  /^requires legacy Unicode C API$/,
  /^_testinternalcapi required$/,
  /^requires _testcapi$/,
  /^need _testcapi module$/,
  // test.support's WASI checks and the modules and functions WASI has not (pwd, grp, time.tzset, os.mkfifo, AF_UNIX).
  /^requires working os\.chmod\(\)$/,
  /Emscripten\/WASI\.?$/,
  /^WASI has no user accounts\.$/,
  /^the (pwd|grp) module is needed for this test$/,
  /^Test requires pwd module to get homedir\.$/,
  /^pwd module does not expose getpwall\(\)$/,
  /^tzset required$/,
  /^os\.mkfifo\(\) required$/,
  /^Unix sockets required$/,
  // The session has no time zone database (/usr/share/zoneinfo); datetimetester skips its zone tests itself.
  /^Skipping [A-Za-z_]+\/[A-Za-z_]+: \[Errno \d+\] No such file or directory: '\/usr\/share\/zoneinfo\//,
  /^requires working os\.fork\(\)$/,
  /^requires threading support$/,
  /^requires working socket$/,
  /^requires signal/,
];

/**
 * Tests left out of the session's runs for time (`-i`), with the seconds each took in the session
 * (under load, 2 shared cores): a second or more each, together most of the suite's time.
 * TOOLSHED_PYTHON_REGRTEST_ALL=1 runs them too.
 */
export const SLOW = {
  "test.test_json.test_unicode.TestPyUnicode.test_unicode_decode": 4.4,
  "test.test_json.test_unicode.TestCUnicode.test_unicode_decode": 3.8,
  "test.test_json.test_recursion.TestCRecursion.test_highly_nested_objects_encoding": 1.3,
  "test.test_json.test_recursion.TestPyRecursion.test_highly_nested_objects_encoding": 1.2,
  "test.test_re.ExternalTests.test_re_tests": 2.3,
  "test.test_re.ReTests.test_big_codesize": 1.3,
  "test.test_csv.KeyOrderingTest.test_ordering_for_the_dict_reader_and_writer": 1.7,
  "test.test_collections.TestCounter.test_multiset_operations_equivalent_to_set_operations": 1.4,
  "test.test_itertools.RegressionTests.test_long_chain_of_empty_iterables": 13.2,
  "test.test_itertools.TestBasicOps.test_combinatorics": 3.6,
  "test.test_itertools.TestBasicOps.test_combinations_with_replacement": 2.7,
  "test.test_itertools.TestBasicOps.test_permutations": 2.0,
  "test.test_difflib.TestSFpatches.test_recursion_limit": 1.4,
  "test.test_difflib.TestJunkAPIs.test_is_line_junk_REDOS": 1.2,
  "test.test_statistics.TestSqrtHelpers.test_float_sqrt_of_frac": 28.2,
  "test.test_statistics.TestNormalDistPython.test_inv_cdf": 17.1,
  "test.test_statistics.TestNormalDistC.test_inv_cdf": 12.0,
  "test.test_statistics.TestNormalDistPython.test_overlap": 2.9,
  "test.test_statistics.TestNormalDistC.test_overlap": 2.3,
  "test.test_statistics.SumTortureTest.test_torture": 1.2,
  "test.test_statistics.TestSqrtHelpers.test_integer_sqrt_of_frac_rto": 1.2,
  "test.test_decimal.PyContextAPItests.test_pickle": 5.6,
  "test.test_decimal.CContextAPItests.test_pickle": 4.8,
  "test.test_decimal.CWhitebox.test_bignum": 2.7,
  "test.test_decimal.PyUsabilityTest.test_as_integer_ratio": 1.9,
  "test.datetimetester.TestTimezoneConversions_Pure.test_easy": 2.0,
  "test.test_pathlib.PathTest.test_glob_many_open_files": 5.7,
  "test.test_pathlib.PosixPathTest.test_glob_many_open_files": 3.9,
  "test.test_collections.TestCounter.test_inplace_operations": 2.3,
  "test.test_collections.TestNamedTuple.test_odd_sizes": 1.0,
  "test.test_zlib.CompressTestCase.test_big_compress_buffer": 4.1,
  "test.test_zlib.CompressObjectTestCase.test_big_compress_buffer": 2.8,
};
