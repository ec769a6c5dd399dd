//! urilex for Python: the extension module `urilex._urilex`, which the
//! package `urilex` (`python/urilex/`) re-exports with its column
//! functions' Python side (inputs of pyarrow, Polars and DuckDB in,
//! pyarrow arrays out).

mod columns;
mod one;
mod text;

use pyo3::prelude::*;

/// Result buffers are allocated and freed once per call: see the
/// dependency's note in Cargo.toml.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// urilex's parser, resolver and column functions (RFC 3986 and the
/// profiles of its source documents).
#[pymodule]
fn _urilex(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParseError", m.py().get_type::<one::ParseError>())?;
    m.add_class::<one::UriRef>()?;
    m.add_class::<text::Hit>()?;
    m.add_class::<text::Urn>()?;
    m.add_function(wrap_pyfunction!(one::parse, m)?)?;
    m.add_function(wrap_pyfunction!(one::is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(text::extract, m)?)?;
    m.add_function(wrap_pyfunction!(text::parse_urn, m)?)?;
    m.add_function(wrap_pyfunction!(text::encode, m)?)?;
    m.add_function(wrap_pyfunction!(text::decode, m)?)?;
    m.add_function(wrap_pyfunction!(text::decode_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(columns::column_op, m)?)?;
    m.add_function(wrap_pyfunction!(columns::column_functions, m)?)?;
    m.add_function(wrap_pyfunction!(columns::column_examples, m)?)?;
    m.add_function(wrap_pyfunction!(columns::display_value, m)?)?;
    Ok(())
}
