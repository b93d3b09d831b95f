/**
 * Run at every start (not in the zip, so the build's cache key stays): WASI starts programs in
 * "/", and the session's working directory comes as $PWD.
 */
export const SITECUSTOMIZE = `# Toolshed: WASI starts every program in "/"; the session's working directory is $PWD.
import os as _os
try:
    _os.chdir(_os.environ.get("PWD") or ".")
except OSError:
    pass



# Commands (subprocess, os.system, os.popen) run through the session's shell and URLs
# (urllib.request) are fetched through its URL policy, by the runtime's _toolshed module; it is
# loaded only when a script uses them.
def _system(command):
    import _toolshed
    return _toolshed.system(command)


_os.system = _system


# os.utime(path) / os.utime(path, None) mean "now"; this build's libc hands WASI two explicit
# zero times instead (the host cannot tell them from os.utime(path, (0, 0))), so a touch set
# the file's times to 1970. "Now" is asked for here, from the same clock the host stamps with.
def _make_utime(utime):
    import time

    def utime_now(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):
        if ns is not None:
            return utime(path, times, ns=ns, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        if times is None:
            now = time.time_ns()
            return utime(path, ns=(now, now), dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        return utime(path, times, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

    utime_now.__doc__ = utime.__doc__
    for group in (_os.supports_dir_fd, _os.supports_fd, _os.supports_follow_symlinks):
        if utime in group:
            group.add(utime_now)
    return utime_now


_os.utime = _make_utime(_os.utime)


import sys as _sys


class _ToolshedPatches:
    _patches = {"subprocess": "patch_subprocess", "urllib.request": "patch_urllib"}
    # \`python3 -m mod\` puts the working directory first on sys.path, computed before this file
    # changes to $PWD and, without realpath on WASI, as "." (unittest's discovery and regrtest
    # see a different sys.path than on Debian): made absolute at the first import after CPython
    # put it there, which is the -m module's own.
    _path0 = _sys.path[0] if _sys.path else None

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if cls._path0 is not None:
            import sys
            if sys.path and sys.path[0] != cls._path0:
                cls._path0 = None
                if sys.path[0] == ".":
                    import os
                    sys.path[0] = os.getcwd()
        patch = cls._patches.get(name)
        if patch is None:
            return None
        from importlib.machinery import PathFinder
        spec = PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            import _toolshed
            getattr(_toolshed, patch)(module)

        spec.loader.exec_module = exec_module
        return spec


_sys.meta_path.insert(0, _ToolshedPatches)


# Raw sockets cannot exist under WASI preview1; name lookups say what to use instead.
def _no_network(*args, **kwargs):
    raise OSError(58, "sockets are not available in this session; use urllib.request.urlopen, or curl or wget from bash, which go through the session's URL policy")


import _socket

_socket.getaddrinfo = _no_network
_socket.gethostbyname = _no_network
del _os, _socket, _sys
`;
