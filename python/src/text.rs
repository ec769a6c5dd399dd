//! URIs in free text, URNs, percent-encoding.

use crate::one::{parse_error, profile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use urilex::extract::{find_iter, ExtractOptions};
use urilex::urn::{QueryRule, Urn as UrnRef, UrnBuf};
use urilex::Component;

/// Byte offset `at` of `s` in characters.
pub fn char_index(s: &str, at: usize) -> usize {
    let at = at.min(s.len());
    if s.is_ascii() {
        return at;
    }
    s.as_bytes()[..at]
        .iter()
        .filter(|&&b| (b as i8) >= -0x40)
        .count()
}

/// One URI found in text: the URI (delimiters and embedded whitespace
/// removed, refanged or completed on request), where it is in the text
/// (`start`, `end`: character offsets, `text[start:end]`), how it was
/// delimited, and what was done to it.
#[pyclass(frozen, module = "urilex", name = "Hit", get_all)]
pub struct Hit {
    uri: String,
    start: usize,
    end: usize,
    delimiter: &'static str,
    flags: Vec<&'static str>,
}

#[pymethods]
impl Hit {
    fn __repr__(&self) -> String {
        format!(
            "Hit(uri={:?}, start={}, end={}, delimiter={:?})",
            self.uri, self.start, self.end, self.delimiter
        )
    }
}

/// Every URI in `text`, in order (RFC 3986 Appendix C's delimiters:
/// quotes, angle brackets, whitespace; a URI broken across lines is
/// joined). `abbreviated=True` also finds `www.example.com/x` (completed
/// with `http://`); `refang=True` also finds `hxxp://example[.]com` and
/// puts it back.
///
/// >>> [h.uri for h in urilex.extract('see <http://example.com/a> and "ftp://ftp.is.co.za/rfc/rfc1808.txt".')]
/// ['http://example.com/a', 'ftp://ftp.is.co.za/rfc/rfc1808.txt']
#[pyfunction]
#[pyo3(signature = (text, profile = "rfc3986", abbreviated = false, refang = false))]
pub fn extract(text: &str, profile: &str, abbreviated: bool, refang: bool) -> PyResult<Vec<Hit>> {
    let options = ExtractOptions::new()
        .profile(self::profile(profile)?)
        .abbreviated(abbreviated)
        .refang(refang);
    let ascii = text.is_ascii();
    // Character offsets counted forward once (hits come in order).
    let (mut byte, mut chars) = (0usize, 0usize);
    let mut at = |b: usize| {
        if ascii {
            return b;
        }
        chars += char_index(&text[byte..], b - byte);
        byte = b;
        chars
    };
    Ok(find_iter(text.as_bytes(), options)
        .map(|h| {
            let start = at(h.span.start);
            let end = at(h.span.end);
            Hit {
                uri: h.uri.into_owned(),
                start,
                end,
                delimiter: h.delimiter.as_str(),
                flags: h.flags.names().collect(),
            }
        })
        .collect())
}

/// A URN (RFC 8141), immutable.
///
/// >>> u = urilex.urn.parse("urn:example:a123,z456?+abc#frag")
/// >>> (u.nid, u.nss, u.r_component, u.f_component)
/// ('example', 'a123,z456', 'abc', 'frag')
#[pyclass(frozen, module = "urilex.urn", name = "Urn")]
pub struct Urn {
    buf: UrnBuf,
}

impl Urn {
    fn r(&self) -> UrnRef<'_> {
        self.buf.as_ref()
    }
}

#[pymethods]
impl Urn {
    /// The namespace identifier.
    #[getter]
    fn nid(&self) -> &str {
        self.r().nid()
    }

    /// The namespace-specific string.
    #[getter]
    fn nss(&self) -> &str {
        self.r().nss()
    }

    /// The r-component (after `?+`), or None.
    #[getter]
    fn r_component(&self) -> Option<&str> {
        self.r().r_component()
    }

    /// The q-component (after `?=`), or None.
    #[getter]
    fn q_component(&self) -> Option<&str> {
        self.r().q_component()
    }

    /// The f-component (after `#`), or None.
    #[getter]
    fn f_component(&self) -> Option<&str> {
        self.r().f_component()
    }

    /// The normalized form (RFC 8141 section 3): `urn` and the NID in
    /// lower case, percent-encoding in upper case, r-, q- and
    /// f-components dropped.
    ///
    /// >>> urilex.urn.parse("URN:EXAMPLE:a%2c?+r#f").normalized()
    /// 'urn:example:a%2C'
    fn normalized(&self) -> String {
        self.r().normalized(QueryRule::Drop)
    }

    /// Whether two URNs are equivalent (RFC 8141 section 3.1).
    fn equivalent(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let o = match other.cast::<Urn>() {
            Ok(u) => u.get().buf.clone(),
            Err(_) => parse_urn(py, other.extract()?)?.buf,
        };
        Ok(self.r().equivalent(&o.as_ref(), QueryRule::Drop))
    }

    fn __str__(&self) -> &str {
        self.buf.as_str()
    }

    fn __repr__(&self) -> String {
        format!("urilex.urn.parse({:?})", self.buf.as_str())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Urn>()
            .is_ok_and(|o| o.get().buf.as_str() == self.buf.as_str())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.buf.as_str().hash(&mut h);
        h.finish()
    }
}

/// Parses a URN (RFC 8141), or raises `urilex.ParseError` naming the
/// fault in the URN documents' words.
#[pyfunction(name = "urn_parse")]
pub fn parse_urn(py: Python<'_>, text: &str) -> PyResult<Urn> {
    match UrnBuf::parse(text) {
        Ok(buf) => Ok(Urn { buf }),
        Err(e) => {
            let err = parse_error(py, &e.error, text);
            // The URN's own wording of the fault.
            let _ = err.value(py).setattr("args", (format!("{e}: {text:?}"),));
            Err(err)
        }
    }
}

fn component(name: &str) -> PyResult<Component> {
    Component::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown component {name:?} (scheme, authority, userinfo, host, port, path, query, fragment)"
        ))
    })
}

/// `text` percent-encoded for `component` of a reference: what the
/// component's grammar allows stays, a valid `%XX` stays, every other
/// byte of its UTF-8 becomes `%XX`.
///
/// >>> urilex.pct.encode("a b&c=d/é", "query")
/// 'a%20b&c=d/%C3%A9'
#[pyfunction(name = "pct_encode")]
#[pyo3(signature = (text, component = "path"))]
pub fn encode(text: &str, component: &str) -> PyResult<String> {
    urilex::pct::encode(self::component(component)?, text)
        .map(|s| s.into_owned())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `text` with every `%XX` decoded, as a string (the bytes must be
/// UTF-8).
///
/// >>> urilex.pct.decode("caf%C3%A9%20au%20lait")
/// 'café au lait'
#[pyfunction(name = "pct_decode")]
pub fn decode(text: &str) -> PyResult<String> {
    urilex::pct::decode_utf8(text)
        .map(|s| s.into_owned())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `text` with every `%XX` decoded, as bytes.
///
/// >>> urilex.pct.decode_bytes("%FF%00a")
/// b'\xff\x00a'
#[pyfunction(name = "pct_decode_bytes")]
pub fn decode_bytes<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyBytes>> {
    urilex::pct::decode(text)
        .map(|s| PyBytes::new(py, &s))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
