"""The rosen engine protocol (PROTOCOL.md, docs/protocol.md): both ends of it.

- :mod:`rosen.engine.protocol` -- the vocabulary: one formatter and one parser per line type;
- :mod:`rosen.engine.server` -- :class:`Engine`, what ``rosen engine`` runs on stdin/stdout;
- :mod:`rosen.engine.client` -- :class:`EngineClient`, drives any engine speaking the protocol;
- :mod:`rosen.engine.options`, :mod:`rosen.engine.search`, :mod:`rosen.engine.bench` -- the
  server's options, its sliced search and the ``bench`` workload.
"""
from .client import Analysis, EngineClient, EngineError, PlayResult
from .protocol import CandidateInfo, InfoString, SearchInfo, parse_info
from .server import Engine

__all__ = ["Analysis", "CandidateInfo", "Engine", "EngineClient", "EngineError", "InfoString", "PlayResult",
           "SearchInfo", "parse_info"]
