"""``python -m partysolver.solvers.meeple_party``: compile the Meeple Party turn kernel now
(numba, about 75 s of CPU once; later runs load it from numba's cache in a second or two).

A hint never compiles it: until it is compiled the hint answers with the interpreted search
(``turn.use_kernel``).  ``make run``'s warm step runs this once after installing, so that
later hints use the kernel.  The compile notice goes to stderr; the last line says how long
it took."""

from __future__ import annotations

import sys

from ..notices import listening
from .compiled import kernel_available
from .turn import warm_up


def main() -> int:
    if not kernel_available():
        print("numba is not installed: the Meeple Party hint stays interpreted", file=sys.stderr)
        return 0
    with listening(lambda text: print(text, file=sys.stderr, flush=True)):
        seconds = warm_up()
    print(f"the Meeple Party turn search is ready ({seconds:.1f} s of CPU)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
