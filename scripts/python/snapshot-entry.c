/* Two entry points beside `_start`, so that the runtime can keep a started interpreter per
 * isolate and run each command from it (src/wasi/python/snapshot.ts):
 *
 * - toolshed_init: CPython's core initialization, as Py_BytesMain does it for a command line
 *   with no options and no PYTHON* variables, stopped before the main phase (`_init_main = 0`),
 *   then the frozen modules every start imports. Nothing it does depends on the command: the
 *   runtime, the builtin types, `sys`, the frozen import system, the hash secret (so one per
 *   isolate, not per run) and those modules. The runtime copies the memory and globals after it.
 * - toolshed_resume: on that copy, reads this run's argv and environment as pymain_init would
 *   (PyConfig_Read), makes them the interpreter's configuration, finishes initialization
 *   (encodings, stdio, site, sitecustomize: everything that reads the command, the variables or
 *   the files) and runs the command as Py_RunMain does.
 *
 * Only command lines without interpreter options take this path (snapshot.ts decides); every
 * other run calls `_start`, which is Debian's unchanged main. wasi-libc's constructors run again
 * at each export call (wasm-ld wraps a command's exports), so the environment is read again from
 * the run; the preopen table is kept, and snapshot.ts keys a snapshot by the run's preopens.
 */
#define Py_BUILD_CORE 1
#include "Python.h"
#include "pycore_initconfig.h"
#include "pycore_pystate.h"
#include "pycore_runtime.h"
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

/* Set for resumed runs: Py_FinalizeEx returns after the last flush (build-python.mjs,
 * patchFinalize); what it skips only frees memory, and the instance is put back after the run. */
extern int _Py_toolshed_fast_exit;

/* wasi-libc: reads the environment of the run (again). */
void __wasilibc_initialize_environ(void);

/* LC_CTYPE as the core start left it when it coerced the C locale to C.UTF-8 (PEP 538), which
 * it does by setenv: the resumed run's environment is read afresh and must carry it too. */
static char *coerced_ctype;

/* Frozen modules every start imports (site and what it needs), executed once here: none of
 * them keeps anything of the command or the files. `os` keeps the environment, as
 * posix.environ, which refresh_environ replaces in place. */
static const char *PREIMPORTED[] = {"abc", "io", "os", "_sitebuiltins", NULL};

/* posix.environ (and so os.environ and os.environb, which wrap that dict) from this run's
 * environment, as posixmodule.c's convertenviron builds it at import. */
static void refresh_environ(void) {
  PyObject *posix = PyImport_ImportModule("posix");
  PyObject *d = posix ? PyObject_GetAttrString(posix, "environ") : NULL;
  if (!d || !PyDict_Check(d)) exit(70);
  PyDict_Clear(d);
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    PyObject *k = PyBytes_FromStringAndSize(*e, eq - *e);
    PyObject *v = PyBytes_FromString(eq + 1);
    if (!k || !v || !PyDict_SetDefault(d, k, v)) exit(70);
    Py_DECREF(k);
    Py_DECREF(v);
  }
  Py_DECREF(d);
  Py_DECREF(posix);
}

static void fail(PyStatus status) {
  if (PyStatus_IsExit(status)) exit(status.exitcode);
  Py_ExitStatusException(status);
}

__attribute__((export_name("toolshed_init"))) void toolshed_init(void) {
  const char *ctype = getenv("LC_CTYPE");
  char *before = ctype ? strdup(ctype) : NULL;
  PyStatus status = _PyRuntime_Initialize();
  if (PyStatus_Exception(status)) fail(status);
  PyPreConfig preconfig;
  PyPreConfig_InitPythonConfig(&preconfig);
  status = Py_PreInitialize(&preconfig);
  if (PyStatus_Exception(status)) fail(status);

  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  char *argv[] = {"/usr/bin/python3", NULL};
  status = PyConfig_SetBytesArgv(&config, 1, argv);
  if (!PyStatus_Exception(status)) {
    config._init_main = 0;
    status = Py_InitializeFromConfig(&config);
  }
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) fail(status);
  for (const char **m = PREIMPORTED; *m; m++) {
    PyObject *mod = PyImport_ImportModule(*m);
    if (!mod) {
      PyErr_Print();
      exit(70);
    }
    Py_DECREF(mod);
  }
  ctype = getenv("LC_CTYPE");
  if (ctype && (!before || strcmp(before, ctype) != 0)) coerced_ctype = strdup(ctype);
  free(before);
}

/* The run's argv, as wasi-libc's __main_void reads it. */
static char **run_argv(size_t *argc) {
  size_t size;
  if (__wasi_args_sizes_get(argc, &size) != 0) exit(71);
  char **argv = calloc(*argc + 1, sizeof(char *));
  char *buf = malloc(size);
  if (!argv || !buf || __wasi_args_get((uint8_t **)argv, (uint8_t *)buf) != 0) exit(71);
  return argv;
}

__attribute__((export_name("toolshed_resume"))) void toolshed_resume(void) {
  __wasilibc_initialize_environ();
  if (coerced_ctype) setenv("LC_CTYPE", coerced_ctype, 1);
  size_t argc;
  char **argv = run_argv(&argc);

  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  PyStatus status = PyConfig_SetBytesArgv(&config, (Py_ssize_t)argc, argv);
  if (!PyStatus_Exception(status)) status = PyConfig_Read(&config);
  PyInterpreterState *interp = PyInterpreterState_Main();
  if (!PyStatus_Exception(status)) status = _PyConfig_Copy(&interp->config, &config);
  PyConfig_Clear(&config);
  if (!PyStatus_Exception(status)) status = _PyConfig_Write(&interp->config, &_PyRuntime);
  if (!PyStatus_Exception(status)) refresh_environ();
  if (!PyStatus_Exception(status)) status = _Py_InitializeMain();
  if (PyStatus_Exception(status)) fail(status);
  _Py_toolshed_fast_exit = 1;
  exit(Py_RunMain());
}
