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


class _ToolshedPatches:
    _patches = {"subprocess": "patch_subprocess", "urllib.request": "patch_urllib"}

    @classmethod
    def find_spec(cls, name, path=None, target=None):
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


import sys as _sys

_sys.meta_path.insert(0, _ToolshedPatches)


# Raw sockets cannot exist under WASI preview1; name lookups say what to use instead.
def _no_network(*args, **kwargs):
    raise OSError(58, "sockets are not available in this session; use urllib.request.urlopen, or curl or wget from bash, which go through the session's URL policy")


import _socket

_socket.getaddrinfo = _no_network
_socket.gethostbyname = _no_network
del _os, _socket, _sys
`;
