"""Benchmarks of search depth and strength (issue 13).

- :mod:`rosen.bench.suite` -- the committed position suite and its reference moves;
- :mod:`rosen.bench.runner` -- one configuration over the suite at budgets and threads (``rosen bench``);
- :mod:`rosen.bench.report` -- aggregates, stability, time to depth, A-B differences; table, CSV;
- :mod:`rosen.bench.ladder` -- Elo against budget by matches against an anchor (``rosen strength``);
- :mod:`rosen.bench.plots` -- the pictures (matplotlib, the ``rosen[plot]`` extra).

The protocol's ``bench`` command (a deterministic signature) is :mod:`rosen.engine.bench`.
"""
