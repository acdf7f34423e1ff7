"""Epic Monster Tea Party solvers.

* :mod:`.hint` -- the hint: exact when it fits, else MCTS; hints for every draw; the hint policy;
* :mod:`.exact` -- the exact searches and which one runs, ``solve``, exact fractions;
* :mod:`.kernel` -- the compiled (numba) two-monster search and playouts;
* :mod:`.lean` -- the same search interpreted, for small positions before the kernel compiles;
* :mod:`.bounds` -- proven bounds on every option where the exact search does not finish;
* :mod:`.playouts` -- MCTS's leaf estimates;
* :mod:`.policies` -- greedy evaluation by material, the greedy policy, new games;
* :mod:`.budgets` -- the searches' default budgets and thresholds.

No module of the package imports one that imports it back: budgets and policies import none of
the others; lean, kernel and playouts only those two; exact imports lean (and kernel when it
runs it); bounds imports lean and budgets (and kernel when it runs it); hint imports the rest.
"""
