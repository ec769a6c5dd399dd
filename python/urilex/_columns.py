"""The column functions, one per entry of urilex's column registry
(``urilex-columns``, which the SQL functions are made from too).

Generated from the registry: ``UPDATE=1 pytest python/tests/test_registry.py``
rewrites it, and the test fails when it differs."""

from __future__ import annotations

from typing import Any, Optional

from ._arrow import _column

Column = Any
Result = Any


def valid_arrow(col: Column, profile: Optional[str] = None) -> Result:
    """Each reference of ``col``: whether `u` is a URI-reference (under
    `profile`, RFC 3986 by default): the engine's verdict alone, faster
    than a parse. A null gives a null; the result is Boolean (pyarrow;
    chunked for a chunked input). In SQL: ``uri_valid(u [, profile])``.
    """
    return _column(col, 'valid', (profile,))


def error_arrow(col: Column, profile: Optional[str] = None) -> Result:
    """Each reference of ``col``: the error message (`invalid character ' '
    (0x20) at byte 9 in path (rule segment)`); null when valid. A null
    gives a null; the result is Utf8 (pyarrow; chunked for a chunked
    input). In SQL: ``uri_error(u [, profile])``.
    """
    return _column(col, 'error', (profile,))


def parse_arrow(col: Column, profile: Optional[str] = None) -> Result:
    """Each reference of ``col``: the row of `urilex parse` for one reference
    (docs/schema.md, less `line`): `valid`, the profile's parts (null
    absent, `''` empty; Utf8View, views of the input), `host_kind`,
    `port_number`, `error` (`kind`, `part`, `index`, `rule`, `message`,
    `raw`; every field null when the struct is, as in docs/schema.md);
    `profile` must be a literal, since the fields depend on it. A null
    gives a null; the result is Struct (pyarrow; chunked for a chunked
    input). In SQL: ``uri_parse(u [, profile])``.
    """
    return _column(col, 'parse', (profile,))


def scheme_arrow(col: Column) -> Result:
    """Each reference of ``col``: the scheme as written (not decoded): null
    when absent. A null gives a null; the result is Utf8View (pyarrow;
    chunked for a chunked input). In SQL: ``uri_scheme(u)``.
    """
    return _column(col, 'scheme', ())


def authority_arrow(col: Column) -> Result:
    """Each reference of ``col``: the authority as written: null when absent,
    `''` when empty. A null gives a null; the result is Utf8View (pyarrow;
    chunked for a chunked input). In SQL: ``uri_authority(u)``.
    """
    return _column(col, 'authority', ())


def userinfo_arrow(col: Column) -> Result:
    """Each reference of ``col``: the userinfo as written: null when absent. A
    null gives a null; the result is Utf8View (pyarrow; chunked for a
    chunked input). In SQL: ``uri_userinfo(u)``.
    """
    return _column(col, 'userinfo', ())


def host_arrow(col: Column) -> Result:
    """Each reference of ``col``: the host as written (not decoded, not
    lower-cased): null when absent. A null gives a null; the result is
    Utf8View (pyarrow; chunked for a chunked input). In SQL:
    ``uri_host(u)``.
    """
    return _column(col, 'host', ())


def port_arrow(col: Column) -> Result:
    """Each reference of ``col``: the port; null when absent, empty, or over
    65535. A null gives a null; the result is UInt16 (pyarrow; chunked for
    a chunked input). In SQL: ``uri_port(u)``.
    """
    return _column(col, 'port', ())


def path_arrow(col: Column) -> Result:
    """Each reference of ``col``: the path as written (every reference has
    one, maybe `''`). A null gives a null; the result is Utf8View (pyarrow;
    chunked for a chunked input). In SQL: ``uri_path(u)``.
    """
    return _column(col, 'path', ())


def query_arrow(col: Column) -> Result:
    """Each reference of ``col``: the query as written: null when absent, `''`
    when empty (`http://a?` has query `''`). A null gives a null; the
    result is Utf8View (pyarrow; chunked for a chunked input). In SQL:
    ``uri_query(u)``.
    """
    return _column(col, 'query', ())


def fragment_arrow(col: Column) -> Result:
    """Each reference of ``col``: the fragment as written: null when absent. A
    null gives a null; the result is Utf8View (pyarrow; chunked for a
    chunked input). In SQL: ``uri_fragment(u)``.
    """
    return _column(col, 'fragment', ())


def query_param_arrow(col: Column, key: str) -> Result:
    """Each reference of ``col``: the first value of `key` as written; `''`
    for a key without `=`; null when the key is not there. Keys compare as
    written (`a%20b` is not `a b`). A null gives a null; the result is
    Utf8View (pyarrow; chunked for a chunked input). In SQL:
    ``uri_query_param(u, key)``.
    """
    return _column(col, 'query_param', (key,))


def query_params_arrow(col: Column) -> Result:
    """Each reference of ``col``: every pair in order; `value` null without
    `=`; `[]` for a valid reference without a query. A null gives a null;
    the result is List(Struct(key, value)) (pyarrow; chunked for a chunked
    input). In SQL: ``uri_query_params(u)``.
    """
    return _column(col, 'query_params', ())


def path_segment_arrow(col: Column, n: int) -> Result:
    """Each reference of ``col``: segment `n` of the path as written, 1 the
    first, -1 the last (the template field `path:N`). A null gives a null;
    the result is Utf8View (pyarrow; chunked for a chunked input). In SQL:
    ``uri_path_segment(u, n)``.
    """
    return _column(col, 'path_segment', (n,))


def registrable_domain_arrow(col: Column) -> Result:
    """Each reference of ``col``: by the Public Suffix List the CLI uses
    (`psl` crate, both sections); the host percent-decoded and lower-cased;
    null for IP literals and unknown suffixes. A null gives a null; the
    result is Utf8 (pyarrow; chunked for a chunked input). In SQL:
    ``uri_registrable_domain(u)``.
    """
    return _column(col, 'registrable_domain', ())


def public_suffix_arrow(col: Column) -> Result:
    """Each reference of ``col``: the host's public suffix by the same list. A
    null gives a null; the result is Utf8 (pyarrow; chunked for a chunked
    input). In SQL: ``uri_public_suffix(u)``.
    """
    return _column(col, 'public_suffix', ())


def normalize_arrow(col: Column, mode: Optional[str] = None) -> Result:
    """Each reference of ``col``: `'syntax'` (default): RFC 3986 6.2.2;
    `'scheme'`: and 6.2.3; `'dedup'`: as `urilex normalize --dedup` (and
    the query sorted, no fragment; no parameter stripped). A null gives a
    null; the result is Utf8 (pyarrow; chunked for a chunked input). In
    SQL: ``uri_normalize(u [, mode])``.
    """
    return _column(col, 'normalize', (mode,))


def resolve_arrow(col: Column, reference: str) -> Result:
    """Each reference of ``col``: the column is the base, the argument the
    reference: RFC 3986 5.2 (strict); null when either is invalid or the
    base has no scheme. A null gives a null; the result is Utf8 (pyarrow;
    chunked for a chunked input). In SQL: ``uri_resolve(base, reference)``.
    """
    return _column(col, 'resolve', (reference,))


def get_arrow(col: Column, template: str) -> Result:
    """Each reference of ``col``: the CLI's `get` template (`{host}{+:port}`,
    `{query:id}`, `{host:registrable}`, ...); decoded text that is not
    UTF-8 gets U+FFFD. A null gives a null; the result is Utf8 (pyarrow;
    chunked for a chunked input). In SQL: ``uri_get(u, template)``.
    """
    return _column(col, 'get', (template,))


def urn_nid_arrow(col: Column) -> Result:
    """Each reference of ``col``: RFC 8141's NID; null for anything that is
    not a URN. A null gives a null; the result is Utf8View (pyarrow;
    chunked for a chunked input). In SQL: ``urn_nid(u)``.
    """
    return _column(col, 'urn_nid', ())


def urn_nss_arrow(col: Column) -> Result:
    """Each reference of ``col``: RFC 8141's NSS; null for anything that is
    not a URN. A null gives a null; the result is Utf8View (pyarrow;
    chunked for a chunked input). In SQL: ``urn_nss(u)``.
    """
    return _column(col, 'urn_nss', ())


def extract_arrow(col: Column) -> Result:
    """Each reference of ``col``: the URIs in free text (as `urilex extract`),
    with their byte spans. A null gives a null; the result is
    List(Struct(uri, start, end)) (pyarrow; chunked for a chunked input).
    In SQL: ``uri_extract(text)``.
    """
    return _column(col, 'extract', ())


def parse_url_arrow(col: Column, part: str, key: Optional[str] = None) -> Result:
    """Each reference of ``col``: Spark's `parse_url` on RFC 3986's grammar:
    `HOST`, `PATH`, `QUERY`, `REF`, `PROTOCOL`, `FILE`, `AUTHORITY`,
    `USERINFO` (raw, as `java.net.URI` gives them; an empty host is null),
    `QUERY` with a key (Spark's `(&|^)key=([^&]*)`); an invalid reference,
    an unknown part or a missing key give null, as `try_parse_url` does. A
    null gives a null; the result is Utf8 (pyarrow; chunked for a chunked
    input). In SQL: ``uri_parse_url(u, part [, key])``.
    """
    return _column(col, 'parse_url', (part, key,))


def whatwg_host_arrow(col: Column) -> Result:
    """Each reference of ``col``: the host a WHATWG URL parser (browsers, the
    `url` crate) reads in `u` with no base: lower-cased, decoded and mapped
    by UTS 46, IPv4 numbers as dotted decimal, IPv6 in brackets; `''` when
    it has none; null when the Standard rejects `u` (docs/security.md). A
    null gives a null; the result is Utf8 (pyarrow; chunked for a chunked
    input). In SQL: ``uri_whatwg_host(u)``.
    """
    return _column(col, 'whatwg_host', ())


def whatwg_differences_arrow(col: Column) -> Result:
    """Each reference of ``col``: how the RFC 3986 and WHATWG readings of `u`
    differ (docs/security.md): `whatwg-host-differs`, `whatwg-only` or
    `rfc-only`, then the class (`whatwg-backslash`, `whatwg-slashes`,
    `whatwg-ipv4-number`, ...); empty when they agree. A null gives a null;
    the result is List(Utf8) (pyarrow; chunked for a chunked input). In
    SQL: ``uri_whatwg_differences(u)``.
    """
    return _column(col, 'whatwg_differences', ())


__all__ = [
    "valid_arrow",
    "error_arrow",
    "parse_arrow",
    "scheme_arrow",
    "authority_arrow",
    "userinfo_arrow",
    "host_arrow",
    "port_arrow",
    "path_arrow",
    "query_arrow",
    "fragment_arrow",
    "query_param_arrow",
    "query_params_arrow",
    "path_segment_arrow",
    "registrable_domain_arrow",
    "public_suffix_arrow",
    "normalize_arrow",
    "resolve_arrow",
    "get_arrow",
    "urn_nid_arrow",
    "urn_nss_arrow",
    "extract_arrow",
    "parse_url_arrow",
    "whatwg_host_arrow",
    "whatwg_differences_arrow",
]
