"""``loads``: :func:`json.loads` for text from outside the program.

Python's parser raises RecursionError, not ValueError, for arrays or objects nested deeper than
its stack allows (``"[" * 100000``); every reader of files and requests would otherwise have to
catch both. Here it is a ValueError like any other malformed JSON.
"""
from __future__ import annotations

import json
from typing import Any, Union


def loads(text: Union[str, bytes]) -> Any:
    """The value of the JSON ``text``; ValueError (json.JSONDecodeError or one for nesting too
    deep) when it is not JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
