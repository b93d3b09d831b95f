/**
 * `_toolshed`, a pure-Python module the runtime adds to the standard library (stdlib-fs.ts):
 * subprocess, os.system, os.popen and urllib.request through the session. WASI has no processes
 * and no sockets; the module writes a JSON request to /dev/toolshed and reads the answer
 * (src/wasi/fs/host-device.ts), while the session runs the command line through its own shell
 * or fetches through its URL policy (src/tools/shell/program-host.ts). The sitecustomize patches
 * it in when `subprocess` or `urllib.request` is first imported, so a start that uses neither
 * pays nothing. Served from here, not built into the library zip, so the CPython build and its
 * cache key do not change.
 */
export const HOST_MODULE = String.raw`"""Toolshed: subprocess, os.system, os.popen and urllib.request through the session.

Commands run through the session's shell (its command rules and file policy apply as from
bash); URLs are fetched through the session's URL policy. See docs/python.md.
"""
import base64 as _b64
import errno as _errno
import io as _io
import json as _json
import os as _os
import sys as _sys

DEVICE = "/dev/toolshed"


def _call(request):
    data = _json.dumps(request).encode()
    try:
        fd = _os.open(DEVICE, _os.O_RDWR)
    except OSError:
        raise OSError(_errno.ENOTSUP, "running commands and fetching URLs from Python is not available in this run; use bash instead") from None
    try:
        view = memoryview(data)
        while view:
            view = view[_os.write(fd, view):]
        parts = []
        while True:
            chunk = _os.read(fd, 1 << 20)
            if not chunk:
                break
            parts.append(chunk)
    finally:
        _os.close(fd)
    answer = _json.loads(b"".join(parts))
    # What the session cannot do at all (no JSPI, the call budget spent, a bad request).
    if "error" in answer and (answer.get("unsupported") or (request["op"] == "run" and "errno" not in answer)):
        raise OSError(_errno.ENOTSUP, answer["error"])
    return answer


def _text(v):
    return _os.fsdecode(v) if isinstance(v, (bytes, bytearray, _os.PathLike)) else str(v)


class Stopped(Exception):
    """The command ran out of its timeout and was stopped: what it wrote until then."""

    def __init__(self, stdout, stderr):
        super().__init__("stopped")
        self.stdout = stdout
        self.stderr = stderr


def run_command(script, program=None, cwd=None, env=None, stdin=b"", merge=False, timeout=None):
    """Runs a command line through the session's shell: (status, stdout bytes, stderr bytes).

    timeout (seconds) bounds the command by counted work as the call's timeout does; past it
    the command is stopped and Stopped is raised."""
    where = _os.path.abspath(_os.fsdecode(cwd)) if cwd is not None else _os.getcwd()
    if env is None:
        env = _os.environ
    request = {
        "op": "run",
        "script": script,
        "program": program,
        "cwd": where,
        "env": {_text(k): _text(v) for k, v in env.items()},
        "stdin": _b64.b64encode(stdin).decode() if stdin else None,
        "merge": bool(merge),
        "timeout": None if timeout is None else max(0.0, float(timeout)),
    }
    answer = _call(request)
    if "errno" in answer:
        code = getattr(_errno, answer["errno"], _errno.ENOENT)
        raise OSError(code, _os.strerror(code), answer.get("filename"))
    if answer.get("timedOut"):
        raise Stopped(_b64.b64decode(answer["stdout"]), _b64.b64decode(answer["stderr"]))
    return answer["status"], _b64.b64decode(answer["stdout"]), _b64.b64decode(answer["stderr"])


def _quote(s):
    import shlex
    return shlex.quote(s)


def _write_fd(fd, data):
    view = memoryview(data)
    while view:
        view = view[_os.write(fd, view):]


# --- os.system -------------------------------------------------------------------------------

def system(command):
    """os.system: the command line through the session's shell; its output goes to fds 1 and 2."""
    status, out, err = run_command(_os.fsdecode(command))
    _write_fd(1, out)
    _write_fd(2, err)
    return (status & 0xFF) << 8


# --- subprocess.Popen ------------------------------------------------------------------------

_pids = [1000]
# Popen objects whose command has not run yet: run at exit, as a child left running would finish.
_pending = None


class _ChildOutput(_io.RawIOBase):
    """A child's captured stdout or stderr; reading it first lets the child finish."""

    def __init__(self, proc, which):
        self._proc = proc
        self._which = which
        self._data = None
        self._pos = 0

    def readable(self):
        return True

    def readinto(self, b):
        if self._data is None:
            self._proc._finish()
            self._data = self._proc._captured[self._which] or b""
        n = min(len(b), len(self._data) - self._pos)
        b[:n] = self._data[self._pos:self._pos + n]
        self._pos += n
        return n


class _ChildInput(_io.RawIOBase):
    """A child's stdin pipe: what is written is its input once it is closed (or communicate)."""

    def __init__(self, proc):
        self._proc = proc
        self._parts = []

    def writable(self):
        return True

    def write(self, b):
        if self._proc._done:
            raise BrokenPipeError(_errno.EPIPE, "Broken pipe")
        data = bytes(b)
        self._parts.append(data)
        return len(data)

    def data(self):
        return b"".join(self._parts)


def patch_subprocess(sp):
    """Replaces subprocess.Popen (and so run, call, check_output, getoutput, os.popen)."""
    PIPE, STDOUT, DEVNULL = sp.PIPE, sp.STDOUT, sp.DEVNULL

    class Popen:
        """subprocess.Popen whose command runs through the session's shell.

        The command starts when Python first waits for it (communicate(), wait(), poll(),
        reading its output, closing its stdin pipe, leaving the with block, dropping the
        object, or Python's exit) and runs to its end then; a timeout given there bounds it
        and stops it when it runs out. kill(), terminate() and send_signal() before that end
        it unstarted, as the signal would end a child that had not finished (returncode -9, -15).
        """

        _child_created = False

        def __init__(self, args, bufsize=-1, executable=None, stdin=None, stdout=None, stderr=None,
                     preexec_fn=None, close_fds=True, shell=False, cwd=None, env=None,
                     universal_newlines=None, startupinfo=None, creationflags=0, restore_signals=True,
                     start_new_session=False, pass_fds=(), *, user=None, group=None, extra_groups=None,
                     encoding=None, errors=None, text=None, umask=-1, pipesize=-1, process_group=None):
            if bufsize is None:
                bufsize = -1
            if not isinstance(bufsize, int):
                raise TypeError("bufsize must be an integer")
            if text is not None and universal_newlines is not None and bool(universal_newlines) != bool(text):
                raise sp.SubprocessError("Cannot disambiguate when both text and universal_newlines are supplied but different. Pass one or the other.")
            self.args = args
            self.stdin = self.stdout = self.stderr = None
            self.pid = None
            self.returncode = None
            self.encoding = encoding
            self.errors = errors
            self.pipesize = pipesize
            self.text_mode = bool(encoding or errors or text or universal_newlines)
            if self.text_mode and encoding is None:
                import locale
                self.encoding = locale.getpreferredencoding(False)
            self.universal_newlines = self.text_mode
            self._done = False
            self._signal = None
            self._stopped = False
            self._captured = {"stdout": None, "stderr": None}
            self._communication_started = False

            if isinstance(args, (str, bytes, _os.PathLike)):
                argv = [args]
            else:
                argv = list(args)
            argv = [_os.fsdecode(a) if isinstance(a, (bytes, _os.PathLike)) else a for a in argv]
            for a in argv:
                if not isinstance(a, str):
                    raise TypeError(f"expected str, bytes or os.PathLike object, not {type(a).__name__}")
            if shell:
                if not argv:
                    raise IndexError("list index out of range")
                script = argv[0]
                if len(argv) > 2:
                    script = "set -- " + " ".join(_quote(a) for a in argv[2:]) + "\n" + script
                self._program = None
            else:
                if not argv:
                    raise IndexError("list index out of range")
                if executable is not None:
                    argv[0] = _os.fsdecode(executable)
                script = " ".join(_quote(a) for a in argv)
                self._program = argv[0]
            self._script = script
            if cwd is not None:
                where = _os.fsdecode(cwd)
                if not _os.path.isdir(where):
                    code = _errno.ENOTDIR if _os.path.exists(where) else _errno.ENOENT
                    raise OSError(code, _os.strerror(code), where)
            self._cwd = cwd
            self._env = env

            self._stdin_spec = stdin
            self._stdout_spec = stdout
            self._stderr_spec = stderr
            self._input = b""
            if stdin == PIPE:
                self._pipe_in = _ChildInput(self)
                raw = _io.BufferedWriter(self._pipe_in) if bufsize != 0 else self._pipe_in
                self.stdin = _io.TextIOWrapper(raw, encoding=self.encoding, errors=errors, write_through=True, line_buffering=(bufsize == 1)) if self.text_mode else raw
            else:
                self._pipe_in = None
                self._input = self._read_source(stdin)
            for which, spec in (("stdout", stdout), ("stderr", stderr)):
                if spec == PIPE:
                    raw = _ChildOutput(self, which)
                    buf = _io.BufferedReader(raw)
                    setattr(self, which, _io.TextIOWrapper(buf, encoding=self.encoding, errors=errors) if self.text_mode else buf)
            _pids[0] += 1
            self.pid = _pids[0]
            self._child_created = True
            global _pending
            if _pending is None:
                import atexit
                import weakref
                _pending = weakref.WeakSet()
                atexit.register(_run_pending)
            _pending.add(self)

        @staticmethod
        def _read_source(spec):
            if spec is None or spec == DEVNULL:
                return b""
            fd = spec if isinstance(spec, int) else spec.fileno()
            parts = []
            while True:
                chunk = _os.read(fd, 1 << 16)
                if not chunk:
                    break
                parts.append(chunk)
            return b"".join(parts)

        def _finish(self, timeout=None):
            """Runs the command (once), with the input gathered so far; Stopped past timeout."""
            if self._done:
                return
            self._done = True
            if _pending is not None:
                _pending.discard(self)
            if self._signal is not None:
                # Signalled before it ran: it ends as a signal ends a process, having done nothing.
                self.returncode = -self._signal
                for which in ("stdout", "stderr"):
                    self._captured[which] = b""
                return
            data = self._input
            if self._pipe_in is not None:
                try:
                    if self.stdin is not None and not self.stdin.closed:
                        self.stdin.flush()
                except (OSError, ValueError):
                    pass
                data = self._pipe_in.data()
            merge = self._stderr_spec == STDOUT
            try:
                status, out, err = run_command(self._script, program=self._program, cwd=self._cwd, env=self._env, stdin=data, merge=merge, timeout=timeout)
            except Stopped as e:
                # Stopped by the timeout: killed, as the caller's kill() after TimeoutExpired would.
                self._stopped = True
                self._signal = 9
                status, out, err = -9, e.stdout, e.stderr
                self._deliver(out, err)
                raise
            except BaseException:
                self.returncode = 255
                raise
            self.returncode = status
            self._deliver(out, err)

        def _deliver(self, out, err):
            for which, spec, data in (("stdout", self._stdout_spec, out), ("stderr", self._stderr_spec, err)):
                if spec == PIPE:
                    self._captured[which] = data
                elif spec is None:
                    _write_fd(1 if which == "stdout" else 2, data)
                elif spec == DEVNULL or spec == STDOUT:
                    pass
                else:
                    _write_fd(spec if isinstance(spec, int) else spec.fileno(), data)

        def _translate(self, data):
            text = data.decode(self.encoding, self.errors or "strict")
            return text.replace("\r\n", "\n").replace("\r", "\n")

        def _timed_out(self, timeout, out=True):
            """TimeoutExpired as CPython raises it, with what the command wrote before it was stopped."""
            data = {}
            for which in ("stdout", "stderr"):
                data[which] = (self._captured[which] or None) if out else None
            return sp.TimeoutExpired(self.args, timeout, output=data["stdout"], stderr=data["stderr"])

        def _run_bounded(self, timeout, out):
            try:
                self._finish(timeout)
            except Stopped:
                self.returncode = None  # reaped by the caller's wait() after kill(), as on Linux
                raise self._timed_out(timeout, out) from None

        def communicate(self, input=None, timeout=None):
            if self._communication_started and input:
                raise ValueError("Cannot send input after starting communication")
            self._communication_started = True
            if input is not None and self.stdin is not None and not self._done:
                if not self.stdin.closed:
                    self.stdin.flush()
                if self.text_mode and isinstance(input, str):
                    input = input.encode(self.encoding, self.errors or "strict")
                self._pipe_in.write(input)
            self._run_bounded(timeout, True)
            if self.stdin is not None:
                try:
                    self.stdin.close()
                except (OSError, ValueError):
                    pass
            results = []
            for which in ("stdout", "stderr"):
                stream = getattr(self, which)
                if stream is None:
                    results.append(None)
                    continue
                data = stream.buffer.read() if self.text_mode else stream.read()
                stream.close()
                results.append(self._translate(data) if self.text_mode else data)
            return tuple(results)

        def poll(self):
            if self.returncode is None:
                if not self._done and self._pipe_in is not None and not self._pipe_in.closed:
                    return None  # still reading its stdin pipe
                self._finish()
                if self._stopped:
                    self.returncode = -self._signal
            return self.returncode

        def wait(self, timeout=None):
            if self.stdin is not None and not self.stdin.closed:
                try:
                    self.stdin.close()
                except (OSError, ValueError):
                    pass
            if self._stopped:
                # Stopped by an earlier timeout: it is gone; reaped here as a killed child.
                self.returncode = -self._signal
                return self.returncode
            self._run_bounded(timeout, False)
            return self.returncode

        def send_signal(self, sig):
            if self.returncode is not None or (self._done and not self._stopped):
                return  # it has ended already (CPython's own check)
            sig = int(sig)
            if sig != 0:
                self._signal = sig

        def terminate(self):
            self.send_signal(15)

        def kill(self):
            self.send_signal(9)

        def __enter__(self):
            return self

        def __exit__(self, exc_type, value, traceback):
            for stream in (self.stdout, self.stderr):
                if stream is not None:
                    stream.close()
            self.wait()

        def __del__(self):
            # A child nobody waited for still runs (as it would after its Popen was dropped).
            if not self._done and self._signal is None:
                try:
                    self._finish()
                except Exception:
                    pass

        def __repr__(self):
            return f"<{self.__class__.__name__}: returncode: {self.returncode} args: {self.args!r}>"

        __class_getitem__ = classmethod(lambda cls, item: cls)

    # The stdin pipe's close runs the command with what was written (os.popen(cmd, "w")).
    _orig_close = _ChildInput.close

    def _close(self):
        if not self.closed:
            _orig_close(self)
            proc = self._proc
            if not proc._done and not proc._communication_started:
                proc._finish()

    _ChildInput.close = _close
    Popen.__module__ = "subprocess"
    Popen.__qualname__ = "Popen"
    sp.Popen = Popen


def _run_pending():
    """At exit: commands started with Popen and never waited for run now."""
    for proc in list(_pending or ()):
        if not proc._done and proc._signal is None:
            try:
                proc._finish()
            except Exception:
                pass


# --- urllib.request --------------------------------------------------------------------------

def fetch(url, method, headers, body):
    answer = _call({
        "op": "fetch",
        "url": url,
        "method": method,
        "headers": [[str(k), str(v)] for k, v in headers],
        "body": _b64.b64encode(body).decode() if body else None,
    })
    return answer


def patch_urllib(ur):
    """Adds a handler for http:// and https:// that fetches through the session."""
    import http.client
    import urllib.error
    import urllib.response

    class ToolshedHTTPHandler(ur.AbstractHTTPHandler):
        """http:// and https:// through the session's URL policy (replaces HTTPHandler)."""

        def _open(self, req):
            headers = dict(req.unredirected_hdrs)
            headers.update({k: v for k, v in req.headers.items() if k not in headers})
            headers = {name.title(): val for name, val in headers.items()}
            headers.pop("Host", None)
            headers.pop("Connection", None)
            data = req.data
            if data is not None and not isinstance(data, (bytes, bytearray)):
                if hasattr(data, "read"):
                    data = data.read()
                else:
                    data = b"".join(bytes(chunk) for chunk in data)
            answer = fetch(req.full_url, req.get_method(), headers.items(), data)
            if "error" in answer:
                if answer.get("denied"):
                    raise urllib.error.URLError(PermissionError(_errno.EACCES, answer["error"]))
                raise urllib.error.URLError(answer["error"])
            msg = http.client.HTTPMessage()
            for k, v in answer["headers"]:
                msg[k] = v
            fp = _io.BytesIO(_b64.b64decode(answer["body"]))
            resp = urllib.response.addinfourl(fp, msg, answer["url"] or req.full_url, answer["status"])
            resp.msg = resp.reason = answer["reason"] or http.client.responses.get(answer["status"], "")
            resp.headers = msg
            return resp

        def http_open(self, req):
            return self._open(req)

        def https_open(self, req):
            return self._open(req)

        http_request = ur.AbstractHTTPHandler.do_request_
        https_request = ur.AbstractHTTPHandler.do_request_

    ToolshedHTTPHandler.__module__ = "urllib.request"
    ur.HTTPHandler = ToolshedHTTPHandler
    if not hasattr(ur, "HTTPSHandler"):
        ur.HTTPSHandler = ToolshedHTTPHandler
`;
