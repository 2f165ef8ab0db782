"""Test-wide settings.

numba's on-disk cache does not notice edits to helpers imported from other files (a kernel in
rulesets/ inlines primitives from simcore/), so the tests compile afresh instead of trusting it.
Set BALANCE_NUMBA_CACHE=1 to reuse the cache when you know it is current.
"""

import os

os.environ.setdefault("BALANCE_NUMBA_CACHE", "0")
