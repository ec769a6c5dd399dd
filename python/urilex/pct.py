"""Percent-encoding (RFC 3986 2.1) by each component's grammar.

>>> import urilex
>>> urilex.pct.encode("a b/c", "path"), urilex.pct.decode("a%20b")
('a%20b/c', 'a b')
"""

from ._urilex import pct_decode as decode
from ._urilex import pct_decode_bytes as decode_bytes
from ._urilex import pct_encode as encode

__all__ = ["encode", "decode", "decode_bytes"]
