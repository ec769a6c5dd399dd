//! The scalar functions: one implementation of DataFusion's
//! `ScalarUDFImpl` for all of them ([`UriUdf`]), which function it is
//! told by [`Func`]. Each evaluation parses its column once with the
//! batch engine over the column's values and offsets, then builds its
//! result in one pass from the batch's records.

use datafusion::arrow::array::{new_null_array, Array, ArrayRef, AsArray, StringBuilder};
use datafusion::arrow::compute::{cast, take};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{exec_datafusion_err, exec_err, plan_err, Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature,
    Volatility,
};
// An argument after the first: a literal (the usual case), or a column.
use datafusion::logical_expr::ColumnarValue as Arg;
use std::cell::RefCell;
use std::sync::Arc;
use urilex::{Batch, Component, Parser, Profile, UriRef};
use urilex_io::column::{self, is_text, Refs};

/// Which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Valid,
    Error,
    Parse,
    Part(Component),
    Port,
    QueryParam,
    QueryParams,
    PathSegment,
    Registrable,
    Suffix,
    Normalize,
    Resolve,
    Get,
    UrnNid,
    UrnNss,
    Extract,
    ParseUrl,
}

/// Every function: its SQL name, what it is, and how many arguments it
/// takes (fewest, most).
pub const FUNCTIONS: &[(&str, Func, usize, usize)] = &[
    ("uri_valid", Func::Valid, 1, 1),
    ("uri_error", Func::Error, 1, 1),
    ("uri_parse", Func::Parse, 1, 2),
    ("uri_scheme", Func::Part(Component::Scheme), 1, 1),
    ("uri_authority", Func::Part(Component::Authority), 1, 1),
    ("uri_userinfo", Func::Part(Component::Userinfo), 1, 1),
    ("uri_host", Func::Part(Component::Host), 1, 1),
    ("uri_port", Func::Port, 1, 1),
    ("uri_path", Func::Part(Component::Path), 1, 1),
    ("uri_query", Func::Part(Component::Query), 1, 1),
    ("uri_fragment", Func::Part(Component::Fragment), 1, 1),
    ("uri_query_param", Func::QueryParam, 2, 2),
    ("uri_query_params", Func::QueryParams, 1, 1),
    ("uri_path_segment", Func::PathSegment, 2, 2),
    ("uri_registrable_domain", Func::Registrable, 1, 1),
    ("uri_public_suffix", Func::Suffix, 1, 1),
    ("uri_normalize", Func::Normalize, 1, 2),
    ("uri_resolve", Func::Resolve, 2, 2),
    ("uri_get", Func::Get, 2, 2),
    ("urn_nid", Func::UrnNid, 1, 1),
    ("urn_nss", Func::UrnNss, 1, 1),
    ("uri_extract", Func::Extract, 1, 1),
    ("uri_parse_url", Func::ParseUrl, 2, 3),
];

/// Every function as a DataFusion `ScalarUDF`.
pub fn udfs() -> Vec<Arc<ScalarUDF>> {
    FUNCTIONS
        .iter()
        .map(|&(name, func, min, max)| {
            Arc::new(ScalarUDF::new_from_impl(UriUdf {
                name,
                func,
                min,
                max,
                signature: Signature::user_defined(Volatility::Immutable),
            }))
        })
        .collect()
}

/// One of the functions.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UriUdf {
    name: &'static str,
    func: Func,
    min: usize,
    max: usize,
    signature: Signature,
}

/// The profile `uri_parse` was given (a literal), RFC 3986 without one.
fn parse_profile(arg: Option<&ScalarValue>) -> Result<Profile> {
    let Some(v) = arg else {
        return Ok(Profile::Rfc3986);
    };
    match v {
        ScalarValue::Utf8(Some(s))
        | ScalarValue::LargeUtf8(Some(s))
        | ScalarValue::Utf8View(Some(s)) => match Profile::by_name(s) {
            Ok(p) => Ok(p),
            Err(e) => plan_err!("uri_parse: {e}"),
        },
        _ => plan_err!("uri_parse: the profile must be a string literal"),
    }
}

impl ScalarUDFImpl for UriUdf {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Every function gives null when any argument is null (the tests
    /// check each with null rows), which the optimizer may use.
    fn is_strict(&self) -> bool {
        true
    }

    fn coerce_types(&self, args: &[DataType]) -> Result<Vec<DataType>> {
        if args.len() < self.min || args.len() > self.max {
            return plan_err!(
                "{} takes {} argument{}, not {}",
                self.name,
                if self.min == self.max {
                    self.min.to_string()
                } else {
                    format!("{} to {}", self.min, self.max)
                },
                if self.max == 1 { "" } else { "s" },
                args.len()
            );
        }
        args.iter()
            .enumerate()
            .map(|(k, t)| {
                if self.func == Func::PathSegment && k == 1 {
                    return if t.is_integer() || t.is_null() {
                        Ok(DataType::Int64)
                    } else {
                        plan_err!(
                            "{}: the segment's number must be an integer, not {t}",
                            self.name
                        )
                    };
                }
                match t {
                    t if is_text(t) => Ok(t.clone()),
                    DataType::Null => Ok(DataType::Utf8),
                    // The first argument's dictionary is kept: the
                    // function runs over its values once.
                    DataType::Dictionary(_, v) if is_text(v) => Ok(if k == 0 {
                        t.clone()
                    } else {
                        v.as_ref().clone()
                    }),
                    t => plan_err!("{} takes strings, not {t}", self.name),
                }
            })
            .collect()
    }

    fn return_type(&self, _args: &[DataType]) -> Result<DataType> {
        match self.func {
            Func::Parse => plan_err!("uri_parse's type comes from its arguments"),
            f => Ok(fixed_type(f)),
        }
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let t = match self.func {
            Func::Parse => {
                if args.arg_fields.len() > 1 && args.scalar_arguments[1].is_none() {
                    return plan_err!("uri_parse: the profile must be a string literal");
                }
                let profile = parse_profile(args.scalar_arguments.get(1).copied().flatten())?;
                column::parse_type(profile)
            }
            f => fixed_type(f),
        };
        Ok(Arc::new(Field::new(self.name, t, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let n = args.number_rows;
        let all_scalar = args
            .args
            .iter()
            .all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if all_scalar { 1 } else { n };
        let rest = &args.args[1..];
        let first = args.args[0].to_array(rows)?;
        let out = if let (DataType::Dictionary(..), true) = (
            first.data_type(),
            rest.iter().all(|a| matches!(a, Arg::Scalar(_))),
        ) {
            // Over the dictionary's values once, then one value per key.
            let d = first.as_any_dictionary();
            let values = eval(self.func, d.values(), rest)?;
            take(values.as_ref(), d.keys(), None)?
        } else {
            let first = match first.data_type() {
                DataType::Dictionary(_, v) => cast(&first, v)?,
                _ => first,
            };
            eval(self.func, &first, rest)?
        };
        if all_scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

/// The result type of every function but `uri_parse`.
fn fixed_type(f: Func) -> DataType {
    match f {
        Func::Valid => DataType::Boolean,
        Func::Port => DataType::UInt16,
        Func::Part(_) | Func::QueryParam | Func::PathSegment | Func::UrnNid | Func::UrnNss => {
            DataType::Utf8View
        }
        Func::QueryParams => column::params_type(),
        Func::Extract => column::extract_type(),
        Func::Error
        | Func::Registrable
        | Func::Suffix
        | Func::Normalize
        | Func::Resolve
        | Func::Get
        | Func::ParseUrl
        | Func::Parse => DataType::Utf8,
    }
}

/// What the functions read of an argument after the first.
trait ArgValues {
    /// The text in row `i`, `None` for a null.
    fn str(&self, i: usize) -> Option<&str>;
    /// The integer in row `i`.
    fn int(&self, i: usize) -> Option<i64>;
}

impl ArgValues for Arg {
    fn str(&self, i: usize) -> Option<&str> {
        match self {
            Arg::Scalar(
                ScalarValue::Utf8(s) | ScalarValue::LargeUtf8(s) | ScalarValue::Utf8View(s),
            ) => s.as_deref(),
            Arg::Scalar(_) => None,
            Arg::Array(a) => {
                if a.is_null(i) {
                    return None;
                }
                match a.data_type() {
                    DataType::Utf8 => Some(a.as_string::<i32>().value(i)),
                    DataType::LargeUtf8 => Some(a.as_string::<i64>().value(i)),
                    DataType::Utf8View => Some(a.as_string_view().value(i)),
                    _ => None,
                }
            }
        }
    }

    fn int(&self, i: usize) -> Option<i64> {
        match self {
            Arg::Scalar(ScalarValue::Int64(v)) => *v,
            Arg::Scalar(_) => None,
            Arg::Array(a) => {
                let a = a.as_primitive_opt::<datafusion::arrow::datatypes::Int64Type>()?;
                a.is_valid(i).then(|| a.value(i))
            }
        }
    }
}

thread_local! {
    /// Each thread's batch: its storage is kept from call to call.
    static BATCH: RefCell<Batch> = RefCell::new(Batch::new());
}

/// `f` over the column `first` and the other arguments.
fn eval(f: Func, first: &ArrayRef, rest: &[Arg]) -> Result<ArrayRef> {
    let refs = Refs::new(first).map_err(|e| exec_datafusion_err!("{e}"))?;
    let str_arg = |k: usize| {
        let a: &Arg = &rest[k];
        move |i| a.str(i)
    };
    match f {
        Func::Valid => return Ok(column::valid(&refs, &Parser::new())),
        Func::Extract => return Ok(column::extract(&refs)),
        Func::UrnNid | Func::UrnNss => return Ok(column::urn(&refs, f == Func::UrnNid)),
        Func::Resolve => return resolve(&refs, &rest[0]),
        _ => {}
    }
    let parser = match f {
        Func::Parse => Parser::new().profile(parse_profile(match rest.first() {
            Some(Arg::Scalar(s)) => Some(s),
            Some(Arg::Array(_)) => return exec_err!("uri_parse: the profile must be a literal"),
            None => None,
        })?),
        _ => Parser::new(),
    };
    let mode = match (f, rest.first()) {
        (Func::Normalize, Some(Arg::Array(_))) => {
            return exec_err!("uri_normalize: the mode must be a literal")
        }
        (Func::Normalize, Some(m)) => match m.str(0) {
            Some(m) => m,
            None => return Ok(new_null_array(&DataType::Utf8, refs.len())),
        },
        _ => "syntax",
    };
    let named = |e: String| exec_datafusion_err!("{}: {e}", name_of(f));
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        refs.parse(&parser, &mut batch);
        let batch = &*batch;
        match f {
            Func::Parse => Ok(column::parse(&refs, batch, parser.get_profile())),
            Func::Error => Ok(column::error(&refs, batch)),
            Func::Part(c) => Ok(column::part(&refs, batch, c)),
            Func::Port => Ok(column::port(&refs, batch)),
            Func::QueryParam => Ok(column::query_param(&refs, batch, str_arg(0))),
            Func::QueryParams => Ok(column::query_params(&refs, batch)),
            Func::PathSegment => Ok(column::path_segment(&refs, batch, |i| rest[0].int(i))),
            Func::Registrable | Func::Suffix => {
                Ok(column::domain(&refs, batch, f == Func::Registrable))
            }
            Func::Normalize => column::normalize(&refs, batch, mode).map_err(named),
            Func::Get => column::get(&refs, batch, str_arg(0)).map_err(named),
            Func::ParseUrl => Ok(column::parse_url(
                &refs,
                batch,
                str_arg(0),
                (rest.len() > 1).then(|| str_arg(1)),
            )),
            Func::Valid | Func::Extract | Func::UrnNid | Func::UrnNss | Func::Resolve => {
                unreachable!("answered above")
            }
        }
    })
}

/// The SQL name of `f`.
fn name_of(f: Func) -> &'static str {
    FUNCTIONS
        .iter()
        .find(|(_, g, _, _)| *g == f)
        .map_or("?", |(name, ..)| name)
}

/// `uri_resolve(base, ref)`: the column parsed by the batch is the
/// references (`rest`); the base is most often a literal, parsed once.
fn resolve(bases: &Refs<'_>, refs: &Arg) -> Result<ArrayRef> {
    let parser = Parser::new();
    let column;
    let (targets, literal) = match refs {
        Arg::Array(a) => {
            column = match a.data_type() {
                DataType::Dictionary(_, v) => cast(a, v)?,
                _ => a.clone(),
            };
            (
                Some(Refs::new(&column).map_err(|e| exec_datafusion_err!("uri_resolve: {e}"))?),
                None,
            )
        }
        Arg::Scalar(_) => (None, refs.str(0).map(|s| parser.parse(s))),
    };
    let mut out = StringBuilder::with_capacity(bases.len(), bases.values().len() * 2);
    let mut text = String::new();
    let mut last: Option<(usize, UriRef<'_>)> = None;
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        if let Some(t) = &targets {
            t.parse(&parser, &mut batch);
        }
        for i in 0..bases.len() {
            let r = match (&targets, &literal) {
                (Some(t), _) if !t.is_null(i) => batch.get(i, t.values()).ok(),
                (None, Some(Ok(u))) => Some(*u),
                _ => None,
            };
            let base = (!bases.is_null(i))
                .then(|| {
                    let b = bases.text(i);
                    match &last {
                        // The same base as the row before (a repeated
                        // literal): parsed once.
                        Some((k, u)) if bases.text(*k) == b => Some(*u),
                        _ => parser.parse(b).ok(),
                    }
                })
                .flatten();
            if let Some(u) = base {
                last = Some((i, u));
            }
            match (base, r) {
                (Some(b), Some(r))
                    if urilex::resolve_into(&b, &r, urilex::ResolveOptions::new(), &mut text)
                        .is_ok() =>
                {
                    out.append_value(&text)
                }
                _ => out.append_null(),
            }
        }
    });
    Ok(Arc::new(out.finish()))
}
