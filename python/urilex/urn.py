"""URNs (RFC 8141).

>>> import urilex
>>> u = urilex.urn.parse("urn:ISBN:0-395-36341-1")
>>> u.nid, u.nss, u.normalized()
('ISBN', '0-395-36341-1', 'urn:isbn:0-395-36341-1')
"""

from ._urilex import Urn
from ._urilex import urn_parse as parse

__all__ = ["Urn", "parse"]
