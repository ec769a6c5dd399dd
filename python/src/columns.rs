//! Whole Arrow columns at once: the column functions of `urilex-io`
//! (the SQL functions' own) over arrays handed over through the Arrow C
//! data interface, with the GIL released and long columns cut into pieces
//! parsed across cores.

use crate::one::profile;
use arrow_array::cast::AsArray;
use arrow_array::{make_array, new_null_array, Array, ArrayRef};
use arrow_data::ArrayData;
use arrow_pyarrow::PyArrowType;
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::cell::RefCell;
use urilex::template::Template;
use urilex::{Batch, Component, Parser, Profile};
use urilex_io::column::{self, Refs};

/// What is asked of the column.
enum Op {
    Parse(Profile),
    Valid(Profile),
    Error(Profile),
    Part(Component),
    Get(String),
    QueryParam(String),
    Registrable,
    Suffix,
    Normalize(String),
}

impl Op {
    /// The operation named `name` with its argument, checked before any
    /// row is read (an unknown template or part is an error up front).
    fn new(name: &str, arg: Option<&str>, profile: Profile) -> PyResult<Op> {
        let need = |what: &str| {
            arg.map(str::to_owned)
                .ok_or_else(|| PyTypeError::new_err(format!("{name} needs {what}")))
        };
        Ok(match name {
            "parse" => Op::Parse(profile),
            "valid" => Op::Valid(profile),
            "error" => Op::Error(profile),
            "part" => {
                let p = need("a part's name")?;
                Op::Part(Component::from_name(&p).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "unknown part {p:?} (scheme, authority, userinfo, host, port, path, query, fragment)"
                    ))
                })?)
            }
            "get" => {
                let t = need("a template")?;
                Template::parse(&t)
                    .map_err(|e| PyValueError::new_err(format!("template {t:?}: {e}")))?;
                Op::Get(t)
            }
            "query_param" => Op::QueryParam(need("a key")?),
            "registrable_domain" => Op::Registrable,
            "public_suffix" => Op::Suffix,
            "normalize" => {
                let m = arg.unwrap_or("syntax");
                if !matches!(m, "syntax" | "scheme" | "dedup") {
                    return Err(PyValueError::new_err(format!(
                        "unknown mode {m:?} (syntax, scheme, dedup)"
                    )));
                }
                Op::Normalize(m.to_owned())
            }
            _ => return Err(PyValueError::new_err(format!("unknown operation {name:?}"))),
        })
    }

    /// The operation over one string array (nulls give nulls).
    fn run(&self, a: &ArrayRef) -> Result<ArrayRef, String> {
        match a.data_type() {
            // Over the dictionary's values once, then one value per key.
            DataType::Dictionary(..) => {
                let d = a.as_any_dictionary();
                let values = self.run(d.values())?;
                return arrow_select::take::take(values.as_ref(), d.keys(), None)
                    .map_err(|e| e.to_string());
            }
            // All nulls (pyarrow's type for a column of None).
            DataType::Null => return self.run(&new_null_array(&DataType::Utf8, a.len())),
            _ => {}
        }
        let refs = Refs::new(a)?;
        if let Op::Valid(p) = self {
            return Ok(column::valid(&refs, &Parser::new().profile(*p)));
        }
        let parser = match self {
            Op::Parse(p) | Op::Error(p) => Parser::new().profile(*p),
            _ => Parser::new(),
        };
        BATCH.with(|b| {
            let mut batch = b.borrow_mut();
            refs.parse(&parser, &mut batch);
            let batch = &*batch;
            Ok(match self {
                Op::Parse(p) => column::parse(&refs, batch, *p),
                Op::Error(_) => column::error(&refs, batch),
                Op::Part(Component::Port) => column::port(&refs, batch),
                Op::Part(c) => column::part(&refs, batch, *c),
                Op::Get(t) => column::get(&refs, batch, |_| Some(t.as_str()))?,
                Op::QueryParam(k) => column::query_param(&refs, batch, |_| Some(k.as_str())),
                Op::Registrable => column::domain(&refs, batch, true),
                Op::Suffix => column::domain(&refs, batch, false),
                Op::Normalize(m) => column::normalize(&refs, batch, m)?,
                Op::Valid(_) => unreachable!("answered above"),
            })
        })
    }
}

thread_local! {
    /// Each thread's batch: its storage is kept from call to call.
    static BATCH: RefCell<Batch> = RefCell::new(Batch::new());
}

/// Rows in a piece of a long array: small enough that the cores share a
/// column of some ten thousand rows, large enough that a piece's fixed
/// costs (a batch's setup, one more output array to join) are lost in it
/// (a piece takes 0.2 to 2 ms).
const PIECE: usize = 1 << 13;

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
fn over_chunks(op: &Op, chunks: Vec<ArrayRef>) -> Result<Vec<ArrayRef>, String> {
    let threads = rayon::current_num_threads().max(1);
    let mut pieces = Vec::new();
    for (c, a) in chunks.iter().enumerate() {
        let n = a.len();
        let dictionary = matches!(a.data_type(), DataType::Dictionary(..));
        let split = threads > 1 && n >= 2 * PIECE && !dictionary;
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
        .map(|(c, a)| op.run(&a).map(|r| (c, r)))
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

/// The engine behind the column functions of the `urilex` package (its
/// `parse_arrow` and the others, which hand it a column's chunks as
/// pyarrow arrays): operation `op` over each chunk, one result array per
/// chunk. The inputs are imported through the Arrow C data interface (no
/// copy of a `string` or `large_string` chunk; a `string_view` chunk is
/// gathered once); the GIL is released while they are parsed.
#[pyfunction]
#[pyo3(signature = (chunks, op, arg = None, profile = "rfc3986"))]
pub fn column_op(
    py: Python<'_>,
    chunks: Vec<PyArrowType<ArrayData>>,
    op: &str,
    arg: Option<&str>,
    profile: &str,
) -> PyResult<Vec<PyArrowType<ArrayData>>> {
    let op = Op::new(op, arg, self::profile(profile)?)?;
    let arrays: Vec<ArrayRef> = chunks.into_iter().map(|a| make_array(a.0)).collect();
    for a in &arrays {
        let t = match a.data_type() {
            DataType::Dictionary(_, v) => v.as_ref(),
            t => t,
        };
        if !column::is_text(t) && *t != DataType::Null {
            return Err(PyTypeError::new_err(format!(
                "a column of {t}, not of strings"
            )));
        }
    }
    let out = py
        .detach(|| over_chunks(&op, arrays))
        .map_err(PyValueError::new_err)?;
    Ok(out.into_iter().map(|a| PyArrowType(a.to_data())).collect())
}
