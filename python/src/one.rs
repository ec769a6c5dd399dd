//! One reference at a time: `urilex.parse`, `UriRef`, `ParseError`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use urilex::{NormalizeOptions, Parser, Profile, UriRef as Ref, UriRefBuf};

pyo3::create_exception!(
    urilex,
    ParseError,
    PyValueError,
    "A reference its grammar does not take: `index` is the byte offset of the\nfault, `part` the component it is in (or None), `rule` the grammar's rule,\n`kind` what went wrong (`invalid-character`, `unexpected-end`, ...)."
);

/// The exception for `e`, raised on `input`, with its fields as attributes.
pub fn parse_error(py: Python<'_>, e: &urilex::ParseError, input: &str) -> PyErr {
    let make = || -> PyResult<PyErr> {
        let err = py
            .get_type::<ParseError>()
            .call1((format!("{e}: {input:?}"),))?;
        // A byte offset; no grammar takes a byte over 0x7F, so the fault
        // is at or before the first one, where bytes and characters count
        // the same.
        err.setattr("index", e.index())?;
        err.setattr("part", e.part())?;
        err.setattr("rule", e.rule())?;
        err.setattr("kind", e.kind().as_str())?;
        err.setattr("byte", e.byte())?;
        Ok(PyErr::from_value(err))
    };
    make().unwrap_or_else(|err| err)
}

/// The profile named `name` (compiled in: every one is), or a ValueError.
pub fn profile(name: &str) -> PyResult<Profile> {
    if name == "rfc3986" {
        return Ok(Profile::Rfc3986);
    }
    Profile::by_name(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A parsed URI reference, immutable. Its parts are attributes: `None`
/// where the reference has no such part, `""` where it has an empty one
/// (`http://h?` has `query == ""`, `http://h` has `query is None`).
///
/// >>> u = urilex.parse("https://user@example.com:8042/over/there?name=ferret#nose")
/// >>> (u.scheme, u.userinfo, u.host, u.port, u.path, u.query, u.fragment)
/// ('https', 'user', 'example.com', '8042', '/over/there', 'name=ferret', 'nose')
/// >>> u.host_kind
/// 'reg-name'
#[pyclass(frozen, module = "urilex", name = "UriRef")]
pub struct UriRef {
    pub(crate) buf: UriRefBuf,
}

impl UriRef {
    fn r(&self) -> Ref<'_> {
        self.buf.as_ref()
    }
}

/// `other` as a reference: a `UriRef` as it is, a string parsed under
/// `profile`.
fn coerce(py: Python<'_>, other: &Bound<'_, PyAny>, profile: Profile) -> PyResult<UriRefBuf> {
    if let Ok(u) = other.cast::<UriRef>() {
        return Ok(u.get().buf.clone());
    }
    let s: &str = other
        .extract()
        .map_err(|_| PyTypeError::new_err("expected a str or a urilex.UriRef"))?;
    Parser::new()
        .profile(profile)
        .parse(s)
        .map(|u| u.to_owned())
        .map_err(|e| parse_error(py, &e, s))
}

#[pymethods]
impl UriRef {
    /// Parses `text` (as `urilex.parse` does).
    #[new]
    #[pyo3(signature = (text, profile = "rfc3986"))]
    fn new(py: Python<'_>, text: &str, profile: &str) -> PyResult<UriRef> {
        parse(py, text, profile)
    }

    /// The scheme, or None (a relative reference).
    #[getter]
    fn scheme(&self) -> Option<&str> {
        self.r().scheme()
    }

    /// The authority (`userinfo@host:port`), or None.
    #[getter]
    fn authority(&self) -> Option<&str> {
        self.r().authority()
    }

    /// The userinfo, or None.
    #[getter]
    fn userinfo(&self) -> Option<&str> {
        self.r().userinfo()
    }

    /// The host as written (an IPv6 literal with its brackets), or None.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.r().host_str()
    }

    /// What the host is: `reg-name`, `ipv4`, `ipv6` or `ipvfuture`
    /// (None without a host).
    #[getter]
    fn host_kind(&self) -> Option<&'static str> {
        self.r().host_kind().map(|k| k.as_str())
    }

    /// The port as written (digits, maybe `""`), or None.
    #[getter]
    fn port(&self) -> Option<&str> {
        self.r().port()
    }

    /// The port as a number, or None (no port, an empty one, or one over
    /// 65535).
    #[getter]
    fn port_number(&self) -> Option<u16> {
        self.r().port_u16()
    }

    /// The path: always there, maybe `""`.
    #[getter]
    fn path(&self) -> &str {
        self.r().path()
    }

    /// The query (after `?`), or None.
    #[getter]
    fn query(&self) -> Option<&str> {
        self.r().query()
    }

    /// The fragment (after `#`), or None.
    #[getter]
    fn fragment(&self) -> Option<&str> {
        self.r().fragment()
    }

    /// The profile (grammar) it was parsed with.
    #[getter]
    fn profile(&self) -> &'static str {
        self.r().profile().name()
    }

    /// Whether it has a scheme (a URI rather than a relative reference).
    #[getter]
    fn is_absolute(&self) -> bool {
        self.r().is_absolute()
    }

    /// The parts as a dict (the attributes of the same names).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let r = self.r();
        d.set_item("scheme", r.scheme())?;
        d.set_item("authority", r.authority())?;
        d.set_item("userinfo", r.userinfo())?;
        d.set_item("host", r.host_str())?;
        d.set_item("host_kind", r.host_kind().map(|k| k.as_str()))?;
        d.set_item("port", r.port())?;
        d.set_item("path", r.path())?;
        d.set_item("query", r.query())?;
        d.set_item("fragment", r.fragment())?;
        Ok(d)
    }

    /// The reference normalized (RFC 3986 6.2.2: case, percent-encoding,
    /// dot segments; with `scheme_based=True` also 6.2.3: default ports
    /// and empty paths).
    ///
    /// >>> str(urilex.parse("HTTP://Example.COM:80/a/./b/../%7euser").normalized(scheme_based=True))
    /// 'http://example.com/a/~user'
    #[pyo3(signature = (scheme_based = false))]
    fn normalized(&self, scheme_based: bool) -> UriRef {
        UriRef {
            buf: self
                .r()
                .normalized_with(NormalizeOptions::new().scheme_based(scheme_based)),
        }
    }

    /// `reference` resolved against this reference as the base (RFC 3986
    /// 5.2); the base must be absolute.
    ///
    /// >>> str(urilex.parse("http://a/b/c/d;p?q").resolve("../g"))
    /// 'http://a/b/g'
    fn resolve(&self, py: Python<'_>, reference: &Bound<'_, PyAny>) -> PyResult<UriRef> {
        let r = coerce(py, reference, self.r().profile())?;
        self.r()
            .resolve(&r.as_ref())
            .map(|buf| UriRef { buf })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Whether this reference and `other` are the same after
    /// normalization (RFC 3986 6.2.2).
    ///
    /// >>> urilex.parse("http://example.com/%7Efoo").equivalent("HTTP://EXAMPLE.com/~foo")
    /// True
    fn equivalent(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let o = coerce(py, other, self.r().profile())?;
        Ok(self.r().equivalent(&o.as_ref()))
    }

    fn __str__(&self) -> &str {
        self.buf.as_str()
    }

    fn __repr__(&self) -> String {
        match self.r().profile() {
            Profile::Rfc3986 => format!("urilex.parse({:?})", self.buf.as_str()),
            p => format!(
                "urilex.parse({:?}, profile={:?})",
                self.buf.as_str(),
                p.name()
            ),
        }
    }

    /// Equal when the text and the profile are (use `equivalent` for
    /// RFC 3986 equivalence).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<UriRef>().is_ok_and(|o| {
            let o = &o.get().buf;
            o.as_str() == self.buf.as_str() && o.as_ref().profile() == self.r().profile()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.buf.as_str().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let f = py.import("urilex")?.getattr("parse")?;
        let args = PyTuple::new(py, [self.buf.as_str(), self.r().profile().name()])?;
        Ok((f, args))
    }
}

/// Parses `text` as a URI reference under `profile` (RFC 3986 by
/// default; any of urilex's profiles by name), or raises `ParseError`.
///
/// >>> urilex.parse("http://[::1]:80/").host_kind
/// 'ipv6'
/// >>> urilex.parse("http://exa mple.com/")
/// Traceback (most recent call last):
/// ...
/// urilex.ParseError: invalid character ' ' (0x20) at byte 10 in host (rule reg-name): "http://exa mple.com/"
#[pyfunction]
#[pyo3(signature = (text, profile = "rfc3986"))]
pub fn parse(py: Python<'_>, text: &str, profile: &str) -> PyResult<UriRef> {
    let p = self::profile(profile)?;
    match Parser::new().profile(p).parse(text) {
        Ok(u) => Ok(UriRef { buf: u.to_owned() }),
        Err(e) => Err(parse_error(py, &e, text)),
    }
}

/// Whether `text` is a valid URI reference under `profile`.
///
/// >>> urilex.is_valid("a b")
/// False
#[pyfunction]
#[pyo3(signature = (text, profile = "rfc3986"))]
pub fn is_valid(text: &str, profile: &str) -> PyResult<bool> {
    Ok(Parser::new()
        .profile(self::profile(profile)?)
        .is_valid(text.as_bytes()))
}
