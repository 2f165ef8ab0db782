"""numba functions without an entry point of their own are linked into their callers, not compiled alone.

numba finalizes every function it compiles: it links in the LLVM modules of the functions it calls, runs
LLVM's whole module pipeline over the result and emits machine code for it. A kernel's per-trial code is a
call tree (a Drakerys engagement calls an action, which calls a fight, which calls an exchange, which
calls a strike, ...), so each level optimizes again, and turns into machine code again, everything below
it: the Drakerys records kernel's tree was optimized and emitted nine times over, about 1 s per level near
the top. Only the kernel at the root is ever called from Python; the functions below it are compiled with
``no_cpython_wrapper`` and ``no_cfunc_wrapper`` (``simcore.config.TRIAL_JIT``, and numba's own ``@overload``
implementations), so their own machine code is never used: the root's module holds its own optimized copy.

:func:`install` makes numba finalize such a function's library *link-only*: when numba asks for the
address of an entry point the library does not define (its Python wrapper, which was not built), the
library links its callees in and stops there, without LLVM's module passes or machine code. The root kernel
then links the whole tree and optimizes and compiles it once, as a C compiler does a translation unit.
Measured on the Drakerys records kernel from an empty cache (2026-11-26, 2 cores): 12.8 s to compile
without this, 8.4 s with it; every result is the same bits (LLVM may not reorder floating-point arithmetic
without fastmath, which no kernel uses).

Should anything later ask a link-only library for an address it does define (numba's first-class function
types ask for a cfunc wrapper), it is optimized and compiled then, as numba would have done at first.

numba's on-disk cache stores a compiled library as its machine code and its linkable bitcode; a link-only
library has no machine code, so it is stored as its bitcode alone (kind ``LINK_ONLY``) and loaded back as a
link-only library. Kernels at the root are stored and loaded exactly as before. numba without this module
cannot read such an entry (it would stop on the unknown kind), so the cache key carries the kind as well
(numba's ``magic_tuple`` of the machine, extended): code from before this module (a checkout being bisected,
say) sharing a cache folder finds no entry of ours and compiles, as this code finds none of its.

A function's environment (``NumbaEnv``: what numba needs to raise an exception with run-time values) is a
global of its module, whose address numba writes once the machine code exists. For a link-only function
that address appears only in its callers' machine code, so the environment is kept and written into every
module that holds that global when the module is compiled.
"""

from __future__ import annotations

import ctypes

#: The kind under which a link-only library is stored in numba's cache (numba's own are "bitcode" and
#: "object").
LINK_ONLY = "balance-link-only"

_installed = False
#: Environments by global name, kept so that they can be written into every module that holds them.
_envs: dict = {}


def _defines(library, name: str) -> bool:
    try:
        return not library._final_module.get_function(name).is_declaration
    except NameError:
        return False


def _link_only(library) -> None:
    """numba's ``CPUCodeLibrary.finalize`` without the module passes and the machine code."""
    from numba.core.compiler_lock import require_global_compiler_lock

    require_global_compiler_lock()
    library._raise_if_finalized()
    seen = set()
    for callee in library._linking_libraries:
        if callee not in seen:
            library._reload_init.update(callee._reload_init)
            seen.add(callee)
            library._final_module.link_in(callee._get_module_for_linking(), preserve=True)
    library._final_module.verify()
    library._finalize_dynamic_globals()
    library._verify_declare_only_symbols()
    library._link_only = True
    library._finalized = True


def _compile_now(library) -> None:
    """The rest of numba's ``finalize`` for a link-only library: module passes, then machine code."""
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:
        if getattr(library, "_link_only", False):
            library._optimize_final_module()
            library._final_module.verify()
            library._finalize_final_module()
            library._link_only = False


def _write_env(engine, name: str, env) -> None:
    """Point the global ``name`` at ``env`` where machine code holding it exists (as numba's ``set_env``)."""
    address = engine.get_global_value_address(name)
    if address:
        (ctypes.c_void_p * 1).from_address(address)[0] = ctypes.c_void_p(id(env))


def _write_envs(codegen, module) -> None:
    """Write every kept environment whose global ``module`` holds (its machine code now exists)."""
    for gv in module.global_variables:
        env = _envs.get(gv.name)
        if env is not None:
            _write_env(codegen._engine, gv.name, env)


def install() -> None:
    """Patch numba's JIT code libraries as the module docstring says (once per process)."""
    global _installed
    if _installed:
        return
    from llvmlite import binding as ll
    from numba.core import codegen

    library_class = codegen.JITCodeLibrary
    get_pointer = library_class.get_pointer_to_function
    serialize = codegen.CPUCodeLibrary.serialize_using_object_code
    unserialize = codegen.CPUCodeLibrary._unserialize.__func__
    finalize_specific = library_class._finalize_specific

    def get_pointer_to_function(self, name):
        if not self._finalized and not _defines(self, name):
            _link_only(self)  # no entry point here: the callers compile this code
            return 0
        if getattr(self, "_link_only", False):
            if not _defines(self, name):
                return 0
            _compile_now(self)
        return get_pointer(self, name)

    def serialize_using_object_code(self):
        if getattr(self, "_link_only", False):
            return (self.name, LINK_ONLY, self._final_module.as_bitcode())
        return serialize(self)

    def _unserialize(cls, codegen_, state):
        name, kind, data = state
        if kind != LINK_ONLY:
            return unserialize(cls, codegen_, state)
        self = codegen_.create_library(name)
        self._final_module = ll.parse_bitcode(data)
        self._finalize_dynamic_globals()
        self._link_only = True
        self._finalized = True
        return self

    def _finalize_specific(self):
        finalize_specific(self)
        _write_envs(self._codegen, self._final_module)

    def set_env(self, env_name, env):
        _envs[env_name] = env  # a link-only function's has no address yet: written with a caller's code
        _write_env(self._engine, env_name, env)

    magic_tuple = codegen.CPUCodegen.magic_tuple

    def keyed_magic_tuple(self):
        return (*magic_tuple(self), LINK_ONLY)

    codegen.CPUCodegen.magic_tuple = keyed_magic_tuple
    library_class.get_pointer_to_function = get_pointer_to_function
    library_class.serialize_using_object_code = serialize_using_object_code
    library_class._unserialize = classmethod(_unserialize)
    library_class._finalize_specific = _finalize_specific
    codegen.JITCPUCodegen.set_env = set_env
    _installed = True
