//! Whole Arrow columns at once: the functions of the column registry
//! (`urilex-columns`, which the SQL functions are made from too) over
//! arrays handed over through the Arrow C data interface, with the GIL
//! released and long columns cut into pieces parsed across cores.

use arrow_array::cast::AsArray;
use arrow_array::{make_array, new_null_array, Array, ArrayRef};
use arrow_data::ffi::FFI_ArrowArray;
use arrow_data::ArrayData;
use arrow_pyarrow::{PyArrowType, ToPyArrow};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use rayon::prelude::*;
use std::sync::{Mutex, PoisonError};
use urilex_columns::{Function, Kind, Literal, Literals, FUNCTIONS};

/// The literal arguments Python passes after the column (`None`: left
/// out or null).
fn literals(args: Vec<Option<Bound<'_, PyAny>>>) -> PyResult<Literals> {
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        out.push(match a {
            None => None,
            Some(v) if v.is_none() => None,
            Some(v) => Some(if let Ok(n) = v.extract::<i64>() {
                Literal::Int(n)
            } else if let Ok(s) = v.extract::<String>() {
                Literal::Text(s)
            } else {
                return Err(PyTypeError::new_err(format!(
                    "an argument must be a str or an int, not {}",
                    v.get_type().name()?
                )));
            }),
        });
    }
    // Trailing arguments left out are not given (their defaults apply).
    while out.last().is_some_and(Option::is_none) {
        out.pop();
    }
    Ok(Literals(out))
}

/// A parameter as Python sees it: name, `str` or `int`, optional.
type PyParam = (&'static str, &'static str, bool);

/// A function as Python sees it: name, parameters, doc line, result type,
/// its SQL call (`uri_query_param(u, key)`).
type PyFunction = (
    &'static str,
    Vec<PyParam>,
    &'static str,
    &'static str,
    String,
);

/// The registry's functions: name, parameters (name, kind, optional), the
/// line the docs give them, their result type's name, and their SQL call.
/// The package has `{name}_arrow` of each (`urilex/_columns.py`, generated
/// from this).
#[pyfunction]
pub fn column_functions() -> Vec<PyFunction> {
    FUNCTIONS
        .iter()
        .map(|f| {
            let params = f
                .params
                .iter()
                .map(|p| {
                    let kind = match p.kind {
                        Kind::Text => "str",
                        Kind::Int => "int",
                    };
                    (p.name, kind, p.optional)
                })
                .collect();
            (f.name, params, f.doc, f.result, f.usage(f.sql))
        })
        .collect()
}

/// Every example of the registry: function, input, arguments, result (as
/// [`display_value`] writes it), for the table-driven tests.
#[pyfunction]
pub fn column_examples() -> Vec<(
    &'static str,
    Option<&'static str>,
    Vec<&'static str>,
    &'static str,
)> {
    FUNCTIONS
        .iter()
        .flat_map(|f| {
            f.examples
                .iter()
                .map(|e| (f.name, e.input, e.args.to_vec(), e.want))
        })
        .collect()
}

/// Row `i` of a result as the registry's examples write it.
#[pyfunction]
pub fn display_value(array: PyArrowType<ArrayData>, i: usize) -> String {
    urilex_columns::display(&make_array(array.0), i)
}

/// Rows in a piece of a long array: small enough that the cores share a
/// column of some ten thousand rows, large enough that a piece's fixed
/// costs (a batch's setup, one more output array to join) are lost in it
/// (a piece takes 0.2 to 2 ms).
const PIECE: usize = 1 << 13;

/// Rows a column needs at the least to be cut into pieces at all: a
/// column of some thousands of rows takes a millisecond on one core, and
/// the pieces' cost (a task on each core, a join) is some microseconds.
const MIN_SPLIT: usize = 1 << 12;

/// The bytes of a string array's values (those its rows span).
fn text_bytes(a: &ArrayRef) -> usize {
    match a.data_type() {
        DataType::Utf8 => {
            let o = a.as_string::<i32>().value_offsets();
            (o[o.len() - 1] - o[0]) as usize
        }
        DataType::LargeUtf8 => {
            let o = a.as_string::<i64>().value_offsets();
            usize::try_from(o[o.len() - 1] - o[0]).unwrap_or(usize::MAX)
        }
        DataType::Utf8View => a.as_string_view().lengths().map(|l| l as usize).sum(),
        _ => 0,
    }
}

/// `op` over every chunk: a chunk of more than two pieces' rows is cut
/// into pieces (slices: no copy) run across the cores, whose results are
/// joined again, so that each chunk gives one result of its length.
fn over_chunks(
    f: &Function,
    args: &Literals,
    chunks: Vec<ArrayRef>,
) -> Result<Vec<ArrayRef>, String> {
    let threads = rayon::current_num_threads().max(1);
    let mut pieces = Vec::new();
    for (c, a) in chunks.iter().enumerate() {
        let n = a.len();
        let dictionary = matches!(a.data_type(), DataType::Dictionary(..));
        // A function that uses the cores itself (`parse` and the part
        // functions, which join their pieces before their arrays are
        // made: pieces joined by Arrow's `concat` after cost `parse` a
        // sixth of the work) is left whole.
        let split = threads > 1 && n >= MIN_SPLIT && !dictionary && !f.uses_the_cores();
        // A multiple of the threads (so that none waits on the last
        // piece), up to four each.
        let k = if split {
            threads * (n / PIECE / threads).clamp(1, 4)
        } else {
            1
        };
        // And at most a gibibyte of text and 4 Mi rows a piece: the engine
        // takes 4 GiB at once, and a result's `string` columns hold 2 GiB
        // (parts are no longer than their text; error messages are about
        // a hundred bytes a row).
        let k = if dictionary {
            k
        } else {
            k.max(text_bytes(a).div_ceil(1 << 30))
                .max(n.div_ceil(1 << 22))
                .min(n.max(1))
        };
        let step = n.div_ceil(k.max(1)).max(1);
        let mut at = 0;
        loop {
            let len = step.min(n - at);
            pieces.push((c, if k == 1 { a.clone() } else { a.slice(at, len) }));
            at += len;
            if at >= n {
                break;
            }
        }
    }
    let results: Vec<(usize, ArrayRef)> = pieces
        .into_par_iter()
        .map(|(c, a)| f.eval(&a, args).map(|r| (c, r)))
        .collect::<Result<_, _>>()?;
    let mut out: Vec<Vec<ArrayRef>> = vec![Vec::new(); chunks.len()];
    for (c, r) in results {
        out[c].push(r);
    }
    out.into_iter()
        .map(|parts| match parts.len() {
            1 => Ok(parts.into_iter().next().expect("one")),
            _ => {
                let refs: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
                arrow_select::concat::concat(&refs).map_err(|e| e.to_string())
            }
        })
        .collect()
}

/// pyarrow's type objects of the results made so far, by Arrow type: a
/// result is handed to pyarrow with its type object, imported once, not
/// with a C schema made and imported at every call (for `parse`'s struct
/// of eighteen fields that was some ten of a call's 27 microseconds over
/// one URL).
static TYPES: Mutex<Vec<(DataType, Py<PyAny>)>> = Mutex::new(Vec::new());

/// pyarrow's type object for `t` (imported through a C schema the first
/// time).
fn pyarrow_type<'py>(py: Python<'py>, t: &DataType) -> PyResult<Bound<'py, PyAny>> {
    let known = TYPES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .find(|(k, _)| k == t)
        .map(|(_, o)| o.clone_ref(py));
    if let Some(o) = known {
        return Ok(o.into_bound(py));
    }
    let o = t.to_pyarrow(py)?;
    TYPES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push((t.clone(), o.clone().unbind()));
    Ok(o)
}

/// `data` as a pyarrow array, through the Arrow C data interface (no copy)
/// with its type object (see [`TYPES`]). As arrow-pyarrow hands arrays
/// over: pyarrow moves the C array out of `array`, whose drop then
/// releases nothing.
fn to_pyarrow<'py>(py: Python<'py>, data: &ArrayData) -> PyResult<Bound<'py, PyAny>> {
    static IMPORT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let import = IMPORT.get_or_try_init(py, || {
        py.import("pyarrow")?
            .getattr("Array")?
            .getattr("_import_from_c")
            .map(Bound::unbind)
    })?;
    let t = pyarrow_type(py, data.data_type())?;
    let array = FFI_ArrowArray::new(data);
    import.bind(py).call1((&raw const array as usize, t))
}

/// The engine behind the column functions of the `urilex` package (its
/// `{name}_arrow` functions, which hand it a column's chunks as pyarrow
/// arrays): the registry's function `name` over each chunk with `args`,
/// one result array per chunk. The inputs are imported through the Arrow
/// C data interface (no copy of a `string` or `large_string` chunk; a
/// `string_view` chunk is gathered once); the GIL is released while they
/// are parsed.
#[pyfunction]
#[pyo3(signature = (chunks, name, args = Vec::new()))]
pub fn column_op<'py>(
    py: Python<'py>,
    chunks: Vec<PyArrowType<ArrayData>>,
    name: &str,
    args: Vec<Option<Bound<'py, PyAny>>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let f = urilex_columns::function(name)
        .filter(|f| f.name == name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown column function {name:?}")))?;
    let args = literals(args)?;
    // Checked before any row is read: the arguments' count, a profile or
    // a template (on an empty column).
    let (min, max) = f.arity();
    if args.0.len() < min || args.0.len() > max {
        return Err(PyTypeError::new_err(format!(
            "{name}_arrow takes {min} to {max} arguments after the column, not {}",
            args.0.len()
        )));
    }
    // (With no arguments there is nothing to check but their count.)
    if !args.0.is_empty() {
        f.eval(&new_null_array(&DataType::Utf8, 1), &args)
            .and_then(|_| f.output(&args))
            .map_err(|e| PyValueError::new_err(format!("{name}_arrow: {e}")))?;
    }
    let arrays: Vec<ArrayRef> = chunks.into_iter().map(|a| make_array(a.0)).collect();
    for a in &arrays {
        let t = match a.data_type() {
            DataType::Dictionary(_, v) => v.as_ref(),
            t => t,
        };
        if !urilex_columns::is_text(t) && *t != DataType::Null {
            return Err(PyTypeError::new_err(format!(
                "a column of {t}, not of strings"
            )));
        }
    }
    let out = py
        .detach(|| over_chunks(f, &args, arrays))
        .map_err(|e| PyValueError::new_err(format!("{name}_arrow: {e}")))?;
    out.iter().map(|a| to_pyarrow(py, &a.to_data())).collect()
}
