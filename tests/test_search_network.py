"""Search guided by a network (PUCT with its priors, its value at the leaves), and the guarantee
that a search without one is bit-for-bit what it was before networks existed."""
from __future__ import annotations

from search_signature import search_signature

# Recorded at commit 8600ba2, before network-guided search was added (tests/search_signature.py).
SIGNATURE_WITHOUT_NETWORK = "71d981e8ecb3627d"


def test_search_without_a_network_is_unchanged():
    assert search_signature() == SIGNATURE_WITHOUT_NETWORK
