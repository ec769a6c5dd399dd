//! The scalar functions: one implementation of DataFusion's
//! `ScalarUDFImpl` for all of them ([`UriUdf`]), which function it is
//! told by [`Func`]. Each evaluation parses its column once with the
//! batch engine over the column's values and offsets, then builds its
//! result in one pass from the batch's records.

use crate::input::Refs;
use crate::out::Views;
use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, BooleanBufferBuilder, ListArray, StringBuilder,
    StructArray, UInt16Builder, UInt64Builder,
};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::compute::{cast, take};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{exec_err, plan_err, Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature,
    Volatility,
};
// An argument after the first: a literal (the usual case), or a column.
use datafusion::logical_expr::ColumnarValue as Arg;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::Arc;
use urilex::template::Template;
use urilex::{Batch, Component, HostKind, Parser, Profile, Syntax, UriRef};

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

fn is_text(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// A `Utf8View` field of a list's struct.
fn view(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8View, nullable)
}

fn params_type() -> DataType {
    let s = DataType::Struct(Fields::from(vec![view("key", false), view("value", true)]));
    DataType::List(Arc::new(Field::new_list_field(s, true)))
}

fn extract_type() -> DataType {
    let s = DataType::Struct(Fields::from(vec![
        Field::new("uri", DataType::Utf8, false),
        Field::new("start", DataType::UInt64, false),
        Field::new("end", DataType::UInt64, false),
    ]));
    DataType::List(Arc::new(Field::new_list_field(s, true)))
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

/// `uri_parse`'s type for `profile`: the reference columns of the row
/// schema.
fn parse_type(profile: Profile) -> DataType {
    DataType::Struct(parse_schema(profile).arrow_schema().fields().clone())
}

/// The struct `uri_parse` gives for `profile`, and its builder.
fn parse_schema(profile: Profile) -> urilex_io::columnar::BatchBuilder {
    urilex_io::columnar::BatchBuilder::new(urilex_io::schema::Schema::references(
        profile,
        Syntax::Reference,
    ))
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
                parse_type(profile)
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
        Func::QueryParams => params_type(),
        Func::Extract => extract_type(),
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
    let refs = Refs::new(first)?;
    match f {
        Func::Valid => return Ok(valid(&refs)),
        Func::Extract => return Ok(extract(&refs)),
        Func::UrnNid | Func::UrnNss => return Ok(urn(&refs, f == Func::UrnNid)),
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
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        refs.parse(&parser, &mut batch);
        let batch = &*batch;
        match f {
            Func::Parse => Ok(parse(&refs, batch, parser.get_profile())),
            Func::Error => Ok(error(&refs, batch)),
            Func::Part(c) => Ok(part(&refs, batch, c)),
            Func::Port => Ok(port(&refs, batch)),
            Func::QueryParam => Ok(query_param(&refs, batch, &rest[0])),
            Func::QueryParams => Ok(query_params(&refs, batch)),
            Func::PathSegment => Ok(path_segment(&refs, batch, &rest[0])),
            Func::Registrable | Func::Suffix => Ok(domain(&refs, batch, f == Func::Registrable)),
            Func::Normalize => normalize(&refs, batch, rest.first()),
            Func::Get => get(&refs, batch, &rest[0]),
            Func::ParseUrl => Ok(parse_url(&refs, batch, &rest[0], rest.get(1))),
            Func::Valid | Func::Extract | Func::UrnNid | Func::UrnNss | Func::Resolve => {
                unreachable!("answered above")
            }
        }
    })
}

/// `uri_valid`: the spanless verdict over the whole column.
fn valid(refs: &Refs<'_>) -> ArrayRef {
    let mut bits = BooleanBufferBuilder::new(refs.len());
    refs.validate(&Parser::new(), |v| bits.append(v));
    Arc::new(BooleanArray::new(bits.finish(), refs.nulls().cloned()))
}

/// Value `i`'s part `c` as a range of the value, when it is valid and
/// has one.
#[inline]
fn span(refs: &Refs<'_>, batch: &Batch, i: usize, c: Component) -> Option<std::ops::Range<usize>> {
    if refs.is_null(i) {
        return None;
    }
    batch.entry(i).span(c)
}

/// Value `i`'s part `c` as text.
#[inline]
fn part_text<'r>(refs: &'r Refs<'_>, batch: &Batch, i: usize, c: Component) -> Option<&'r str> {
    let r = span(refs, batch, i, c)?;
    std::str::from_utf8(&refs.value(i)[r]).ok()
}

/// Where `sub`, a slice of `whole`, lies in it.
#[inline]
fn offset_in(whole: &str, sub: &str) -> std::ops::Range<usize> {
    let at = sub.as_ptr() as usize - whole.as_ptr() as usize;
    at..at + sub.len()
}

fn part(refs: &Refs<'_>, batch: &Batch, c: Component) -> ArrayRef {
    let mut out = Views::new(refs.len());
    // The records in order (no search for each), nulls checked apart.
    for (i, e) in batch.entries().enumerate() {
        match e.span(c).filter(|_| !refs.is_null(i)) {
            Some(r) => out.part(refs, i, r),
            None => out.null(),
        }
    }
    out.finish()
}

fn port(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let mut out = UInt16Builder::with_capacity(refs.len());
    for i in 0..refs.len() {
        let n = span(refs, batch, i, Component::Port)
            .and_then(|r| urilex::port_number(&refs.value(i)[r]));
        out.append_option(n);
    }
    Arc::new(out.finish())
}

fn error(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(refs.len(), 0);
    for i in 0..refs.len() {
        match (refs.is_null(i), batch.parse_error(i)) {
            (false, Some(e)) => {
                let _ = write!(out, "{e}");
                out.append_value("");
            }
            _ => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

fn parse(refs: &Refs<'_>, batch: &Batch, profile: Profile) -> ArrayRef {
    let builder = parse_schema(profile);
    let rows = builder.build_references(batch, refs.values(), |i| !refs.is_null(i));
    let (fields, columns, _) = StructArray::from(rows).into_parts();
    Arc::new(StructArray::new(fields, columns, refs.nulls().cloned()))
}

fn query_param(refs: &Refs<'_>, batch: &Batch, key: &Arg) -> ArrayRef {
    let mut out = Views::new(refs.len());
    for i in 0..refs.len() {
        let found = key.str(i).and_then(|k| {
            let q = part_text(refs, batch, i, Component::Query)?;
            let p = urilex::query::params(q).find(|p| p.key == k)?;
            let at = span(refs, batch, i, Component::Query)?.start;
            Some(p.value.map(|v| {
                let r = offset_in(q, v);
                at + r.start..at + r.end
            }))
        });
        match found {
            Some(Some(r)) => out.part(refs, i, r),
            Some(None) => out.text(""),
            None => out.null(),
        }
    }
    out.finish()
}

fn query_params(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let mut keys = Views::new(refs.len());
    let mut values = Views::new(refs.len());
    let mut offsets = Vec::with_capacity(refs.len() + 1);
    offsets.push(0i32);
    let mut present = BooleanBufferBuilder::new(refs.len());
    let mut n = 0i32;
    for i in 0..refs.len() {
        let ok = !refs.is_null(i) && batch.is_valid(i);
        present.append(ok);
        if let (true, Some(q)) = (ok, part_text(refs, batch, i, Component::Query)) {
            let at = span(refs, batch, i, Component::Query).map_or(0, |r| r.start);
            for p in urilex::query::params(q) {
                let k = offset_in(q, p.key);
                keys.part(refs, i, at + k.start..at + k.end);
                match p.value {
                    Some(v) => {
                        let r = offset_in(q, v);
                        values.part(refs, i, at + r.start..at + r.end);
                    }
                    None => values.null(),
                }
                n += 1;
            }
        }
        offsets.push(n);
    }
    list_of_structs(
        params_type(),
        vec![keys.finish(), values.finish()],
        offsets,
        Some(NullBuffer::new(present.finish())),
    )
}

/// A list of structs of type `t` (a `List(Struct(..))`) from the
/// structs' fields, the lists' offsets into them, and the lists' nulls.
fn list_of_structs(
    t: DataType,
    children: Vec<ArrayRef>,
    offsets: Vec<i32>,
    nulls: Option<NullBuffer>,
) -> ArrayRef {
    let DataType::List(item) = t else {
        unreachable!("a list")
    };
    let DataType::Struct(fields) = item.data_type().clone() else {
        unreachable!("of structs")
    };
    let structs = StructArray::new(fields, children, None);
    Arc::new(ListArray::new(
        item,
        OffsetBuffer::new(offsets.into()),
        Arc::new(structs),
        nulls,
    ))
}

fn path_segment(refs: &Refs<'_>, batch: &Batch, n: &Arg) -> ArrayRef {
    let mut out = Views::new(refs.len());
    for i in 0..refs.len() {
        let r = n.int(i).and_then(|n| {
            let n = i32::try_from(n).ok()?;
            let path = part_text(refs, batch, i, Component::Path)?;
            let seg = urilex::template::path_segment(path, n)?;
            let at = span(refs, batch, i, Component::Path)?.start;
            let r = offset_in(path, seg);
            Some(at + r.start..at + r.end)
        });
        match r {
            Some(r) => out.part(refs, i, r),
            None => out.null(),
        }
    }
    out.finish()
}

fn domain(refs: &Refs<'_>, batch: &Batch, registrable: bool) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(refs.len(), refs.len() * 12);
    let mut scratch = Vec::new();
    for i in 0..refs.len() {
        let d = (!refs.is_null(i) && batch.host_kind(i) == Some(HostKind::RegName))
            .then(|| part_text(refs, batch, i, Component::Host))
            .flatten()
            .filter(|host| urilex::domain::lookup_name(host, &mut scratch))
            .and_then(|_| urilex::domain::of_name(&scratch, urilex::domain::Section::All))
            .and_then(|d| {
                if registrable {
                    d.registrable()
                } else {
                    Some(d.suffix())
                }
            });
        match d.and_then(|d| std::str::from_utf8(d).ok()) {
            Some(d) => out.append_value(d),
            None => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// How `uri_normalize` normalizes: its second argument.
enum Mode {
    Syntax(urilex::NormalizeOptions),
    Dedup(Box<(urilex::edit::Dedup, urilex::edit::Editor)>),
}

fn normalize(refs: &Refs<'_>, batch: &Batch, mode: Option<&Arg>) -> Result<ArrayRef> {
    let name = match mode {
        None => Some("syntax"),
        Some(Arg::Scalar(_)) => mode.and_then(|m| m.str(0)),
        Some(Arg::Array(_)) => return exec_err!("uri_normalize: the mode must be a literal"),
    };
    let mut mode = match name {
        None => return Ok(datafusion::arrow::array::new_null_array(&DataType::Utf8, refs.len())),
        Some("syntax") => Mode::Syntax(urilex::NormalizeOptions::new()),
        Some("scheme") => Mode::Syntax(urilex::NormalizeOptions::new().scheme_based(true)),
        Some("dedup") => Mode::Dedup(Box::new((
            urilex::edit::Dedup::new(),
            urilex::edit::Editor::new(),
        ))),
        Some(m) => {
            return exec_err!(
                "uri_normalize: unknown mode '{m}' (syntax: RFC 3986 6.2.2; scheme: and 6.2.3; dedup: and sorted query, no fragment, tracking parameters stripped)"
            )
        }
    };
    let values = std::str::from_utf8(refs.values()).ok();
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len());
    let mut text = String::new();
    for i in 0..refs.len() {
        let u = match (refs.is_null(i), values) {
            (false, Some(v)) => batch.get_str(i, v).ok(),
            (false, None) => batch.get(i, refs.values()).ok(),
            _ => None,
        };
        let Some(u) = u else {
            out.append_null();
            continue;
        };
        text.clear();
        let ok = match &mut mode {
            Mode::Syntax(o) => {
                urilex::normalize_into(&u, *o, &mut text);
                true
            }
            Mode::Dedup(d) => {
                let (dedup, editor) = &mut **d;
                dedup.apply(editor, &u, &mut text).is_ok()
            }
        };
        if ok {
            out.append_value(&text);
        } else {
            out.append_null();
        }
    }
    Ok(Arc::new(out.finish()))
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
            (Some(Refs::new(&column)?), None)
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

/// `uri_get(u, template)`: the CLI's template language.
fn get(refs: &Refs<'_>, batch: &Batch, template: &Arg) -> Result<ArrayRef> {
    let mut cached: Option<(String, Template)> = None;
    let values = std::str::from_utf8(refs.values()).ok();
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len());
    let mut buf = Vec::new();
    for i in 0..refs.len() {
        let Some(t) = template.str(i) else {
            out.append_null();
            continue;
        };
        if cached.as_ref().is_none_or(|(s, _)| s != t) {
            match Template::parse(t) {
                Ok(p) => cached = Some((t.to_string(), p)),
                Err(e) => return exec_err!("uri_get: template {t:?}: {e}"),
            }
        }
        let tpl = &cached.as_ref().expect("parsed above").1;
        if refs.is_null(i) {
            out.append_null();
            continue;
        }
        buf.clear();
        let done = if tpl.entry_ready() {
            tpl.render_batch(batch, i, refs.values(), &mut buf).is_ok()
        } else {
            let u = match values {
                Some(v) => batch.get_str(i, v),
                None => batch.get(i, refs.values()),
            };
            u.is_ok_and(|u| tpl.render(&u, &mut buf).is_ok())
        };
        if done {
            out.append_value(String::from_utf8_lossy(&buf));
        } else {
            out.append_null();
        }
    }
    Ok(Arc::new(out.finish()))
}

fn urn(refs: &Refs<'_>, nid: bool) -> ArrayRef {
    let mut out = Views::new(refs.len());
    for i in 0..refs.len() {
        let text = refs.text(i);
        let r = (!refs.is_null(i))
            .then(|| urilex::urn::Urn::parse(text).ok())
            .flatten()
            .map(|u| offset_in(text, if nid { u.nid() } else { u.nss() }));
        match r {
            Some(r) => out.part(refs, i, r),
            None => out.null(),
        }
    }
    out.finish()
}

fn extract(refs: &Refs<'_>) -> ArrayRef {
    let mut uris = StringBuilder::new();
    let mut starts = UInt64Builder::new();
    let mut ends = UInt64Builder::new();
    let mut offsets = Vec::with_capacity(refs.len() + 1);
    offsets.push(0i32);
    let mut n = 0i32;
    for i in 0..refs.len() {
        if !refs.is_null(i) {
            for hit in
                urilex::extract::find_iter(refs.value(i), urilex::extract::ExtractOptions::new())
            {
                uris.append_value(&hit.uri);
                starts.append_value(hit.span.start as u64);
                ends.append_value(hit.span.end as u64);
                n += 1;
            }
        }
        offsets.push(n);
    }
    list_of_structs(
        extract_type(),
        vec![
            Arc::new(uris.finish()),
            Arc::new(starts.finish()),
            Arc::new(ends.finish()),
        ],
        offsets,
        refs.nulls().cloned(),
    )
}

/// `uri_parse_url(u, part [, key])`: Spark's `parse_url` (whose parts are
/// those of `java.net.URI`, raw: nothing decoded), on RFC 3986's grammar;
/// an invalid reference, an unknown part, or a missing key give null, as
/// Spark's `try_parse_url` does.
fn parse_url(refs: &Refs<'_>, batch: &Batch, which: &Arg, key: Option<&Arg>) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len());
    for i in 0..refs.len() {
        let v = (!refs.is_null(i) && batch.is_valid(i))
            .then(|| {
                let text = refs.value(i);
                let get = |c| span(refs, batch, i, c).map(|r| &text[r]);
                let key = match key {
                    Some(k) => Some(k.str(i)?),
                    None => None,
                };
                match (which.str(i)?, key) {
                    ("QUERY", Some(k)) => spark_query_value(get(Component::Query)?, k.as_bytes()),
                    (_, Some(_)) => None,
                    ("HOST", None) => get(Component::Host).filter(|h| !h.is_empty()),
                    ("PATH", None) => get(Component::Path),
                    ("QUERY", None) => get(Component::Query),
                    ("REF", None) => get(Component::Fragment),
                    ("PROTOCOL", None) => get(Component::Scheme),
                    ("FILE", None) => {
                        let p = span(refs, batch, i, Component::Path)?;
                        let end = span(refs, batch, i, Component::Query).map_or(p.end, |q| q.end);
                        Some(&text[p.start..end])
                    }
                    ("AUTHORITY", None) => get(Component::Authority),
                    ("USERINFO", None) => get(Component::Userinfo),
                    _ => None,
                }
            })
            .flatten();
        match v.and_then(|v| std::str::from_utf8(v).ok()) {
            Some(v) => out.append_value(v),
            None => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// Spark's value of `key` in a raw query: the text after the first
/// `key=` that starts the query or follows a `&`, up to the next `&`
/// (Spark's pattern `(&|^)key=([^&]*)`).
fn spark_query_value<'q>(query: &'q [u8], key: &[u8]) -> Option<&'q [u8]> {
    let mut at = 0;
    loop {
        let rest = &query[at..];
        if rest.len() > key.len() && rest.starts_with(key) && rest[key.len()] == b'=' {
            let v = &rest[key.len() + 1..];
            let end = v.iter().position(|&b| b == b'&').unwrap_or(v.len());
            return Some(&v[..end]);
        }
        at += rest.iter().position(|&b| b == b'&')? + 1;
    }
}
