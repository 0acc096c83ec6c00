"""Learned evaluation: the network file (docs/learning.md, "Network format"), its NumPy reference forward pass
and the C++ evaluator that the search and the ``net`` agent use. See docs/learning.md.

>>> import rosen
>>> from rosen.learning import random_network
>>> ev = rosen.Evaluator(random_network(hidden=(16, 8), seed=0))
>>> out = ev.evaluate([rosen.Position.new(seed=1)])
>>> out.policy.shape, out.wdl.shape, out.margin.shape, out.value.shape
((1, 50), (1, 3), (1,), (1,))
"""
from .evaluator import Evaluation, Evaluator
from .network import (BUILTIN, BUILTIN_TEAM, Network, builtin_network_path, forward_numpy, load_network,
                      random_network, save_network)

__all__ = ["BUILTIN", "BUILTIN_TEAM", "Evaluation", "Evaluator", "Network", "builtin_network_path", "forward_numpy",
           "load_network", "random_network", "save_network"]
