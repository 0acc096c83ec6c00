"""Observation encoding speed (rosen.encode, docs/encoding.md): 10 000 positions from seeded random
games, as Position objects and as record rows, in both layouts.

Run: pytest bench --benchmark-only
"""
from __future__ import annotations


import numpy as np
import pytest

import rosen
from rosen.encoding import feature_names, plane_names, rows_from_positions

CROWN = plane_names().index("crown")


@pytest.fixture(scope="module")
def rows(positions) -> dict:
    return rows_from_positions(positions)


def check_planes(x: np.ndarray, n: int) -> None:
    assert x.shape == (n, len(plane_names()), 9, 9) and (x[:, CROWN].sum(axis=(1, 2)) == 1).all()


def test_encode_10k_positions_planes(benchmark, positions):
    x = benchmark(rosen.encode, positions)
    benchmark.extra_info["positions_per_second"] = len(positions) / benchmark.stats.stats.mean
    check_planes(x, len(positions))


def test_encode_10k_positions_flat(benchmark, positions):
    x = benchmark(rosen.encode, positions, "flat")
    assert x.shape == (len(positions), len(feature_names())) and (x[:, 306:387].sum(axis=1) == 1).all()  # one crown each


def test_encode_10k_rows_planes_into_a_buffer(benchmark, positions, rows):
    out = np.empty((len(positions), len(plane_names()), 9, 9), np.int8)
    x = benchmark(rosen.encode, rows, out=out)
    benchmark.extra_info["rows_per_second"] = len(positions) / benchmark.stats.stats.mean
    check_planes(x, len(positions))
    assert (x[::997] == rosen.encode(positions[::997])).all()
