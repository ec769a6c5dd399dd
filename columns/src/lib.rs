//! urilex's URI functions over whole Arrow string columns, in one
//! registry, [`FUNCTIONS`]: each function's name, its arguments after the
//! column, its result type, its kernel, the line the docs give it, and
//! examples. The SQL functions (`urilex-datafusion`: `uri_host`, ...) and
//! the Python package's column functions (`urilex.host_arrow`, ...) are
//! both made from it, so a function written here is in both, and the
//! examples are the table their tests run.
//!
//! Each kernel parses its column once with the batch engine over the
//! column's values and offsets (no copy of a `Utf8` or `LargeUtf8`
//! column, no allocation per row) and builds its result in one pass from
//! the batch's records; parts come back as `Utf8View` values that point
//! into the input's buffers.
//!
//! ```
//! use arrow_array::{ArrayRef, StringArray};
//! use std::sync::Arc;
//! use urilex_columns::{function, Literals};
//!
//! let col: ArrayRef = Arc::new(StringArray::from(vec![Some("https://a.example/x?id=7"), None]));
//! let f = function("query_param").unwrap();
//! let out = f.eval(&col, &Literals::text(&["id"])).unwrap();
//! assert_eq!(urilex_columns::display(&out, 0), "7");
//! assert_eq!(urilex_columns::display(&out, 1), "null");
//! ```

pub mod kernel;
mod refs;
mod views;

pub use kernel::{extract_type, params_type, parse_type};
pub use refs::{is_text, Refs};

use arrow_array::cast::AsArray;
use arrow_array::{new_null_array, Array, ArrayRef};
use arrow_schema::DataType;
use std::cell::RefCell;
use urilex::{Batch, Component, Parser, Profile};

/// What a column function fails with: a message (an unknown template,
/// mode or profile, a column that is not of strings or too large).
pub type Result<T> = std::result::Result<T, String>;

/// The type of an argument after the column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    Text,
    /// An integer.
    Int,
}

/// An argument after the column.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name (the Python keyword; the docs' placeholder).
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Whether it may be left out.
    pub optional: bool,
    /// Whether it must be the same in every row (a literal in SQL): it
    /// decides the result's type, or is checked before any row is read.
    pub literal: bool,
}

const fn text(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Text,
        optional: false,
        literal: false,
    }
}

const fn setting(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Text,
        optional: true,
        literal: true,
    }
}

/// The arguments after the column, row by row, as an adapter (SQL,
/// Python) hands them over.
pub trait Args {
    /// How many were given.
    fn count(&self) -> usize;
    /// Argument `k`'s text in row `i` (`None`: null, or not given).
    fn text(&self, k: usize, i: usize) -> Option<&str>;
    /// Argument `k`'s integer in row `i`.
    fn int(&self, k: usize, i: usize) -> Option<i64>;
    /// Argument `k` as a column of its own; `None` for a literal (the
    /// same in every row).
    fn column(&self, k: usize) -> Option<&ArrayRef>;
}

/// Literal arguments (every row the same), as Python gives them and the
/// examples are written.
#[derive(Clone, Debug, Default)]
pub struct Literals(pub Vec<Option<Literal>>);

/// One literal argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// A string.
    Text(String),
    /// An integer.
    Int(i64),
}

impl Literals {
    /// Strings, all given.
    pub fn text(values: &[&str]) -> Literals {
        Literals(
            values
                .iter()
                .map(|v| Some(Literal::Text(v.to_string())))
                .collect(),
        )
    }
}

impl Args for Literals {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn text(&self, k: usize, _: usize) -> Option<&str> {
        match self.0.get(k)? {
            Some(Literal::Text(s)) => Some(s),
            _ => None,
        }
    }
    fn int(&self, k: usize, _: usize) -> Option<i64> {
        match self.0.get(k)? {
            Some(Literal::Int(n)) => Some(*n),
            Some(Literal::Text(s)) => s.parse().ok(),
            None => None,
        }
    }
    fn column(&self, _: usize) -> Option<&ArrayRef> {
        None
    }
}

/// A function's example: the input (`None`: null), the arguments after
/// it, and the result as [`display`] writes it.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The reference.
    pub input: Option<&'static str>,
    /// The arguments after it, as text (integers in decimal).
    pub args: &'static [&'static str],
    /// The result.
    pub want: &'static str,
}

/// A column function.
pub struct Function {
    /// Its name: the Python function is `{name}_arrow`.
    pub name: &'static str,
    /// Its SQL name.
    pub sql: &'static str,
    /// What its column holds, as the docs call it (`u`, `base`, `text`).
    pub column: &'static str,
    /// The arguments after the column.
    pub params: &'static [Param],
    /// Its result type, as the docs name it.
    pub result: &'static str,
    /// What it gives, one line (the docs' table, Python's help).
    pub doc: &'static str,
    /// Examples, run by the tests of every adapter.
    pub examples: &'static [Example],
    output: fn(&dyn Args) -> Result<DataType>,
    kernel: fn(&Refs<'_>, &dyn Args) -> Result<ArrayRef>,
}

impl Function {
    /// `uri_query_param(u, key)`, `uri_parse(u [, profile])` for `name`.
    pub fn usage(&self, name: &str) -> String {
        let mut s = format!("{name}({}", self.column);
        let mut closes = 0;
        for p in self.params {
            if p.optional {
                s.push_str(" [");
                closes += 1;
            }
            s.push_str(", ");
            s.push_str(p.name);
        }
        s.push_str(&"]".repeat(closes));
        s.push(')');
        s
    }

    /// Whether the function spreads a column over the cores itself:
    /// `parse` and the part functions (`scheme` ... `fragment`) with the
    /// `rayon` feature, whose pieces are joined before their arrays are
    /// made. An adapter that cuts columns into pieces for
    /// the cores (and joins the results after) should leave it whole.
    pub fn uses_the_cores(&self) -> bool {
        // (`kernel::parse` and `kernel::part` are the ones that cut their
        // rows into pieces.)
        cfg!(feature = "rayon")
            && (self.name == "parse" || PARTS.iter().any(|c| c.as_str() == self.name))
    }

    /// The fewest and the most arguments after the column.
    pub fn arity(&self) -> (usize, usize) {
        let required = self.params.iter().filter(|p| !p.optional).count();
        (required, self.params.len())
    }

    /// The result's type for these arguments (only the literal ones are
    /// read: `uri_parse`'s fields come from its profile).
    pub fn output(&self, args: &dyn Args) -> Result<DataType> {
        (self.output)(args)
    }

    /// The function over `column` (strings of any Arrow string type,
    /// dictionary-encoded or not, or all nulls), row by row with `args`.
    pub fn eval(&self, column: &ArrayRef, args: &dyn Args) -> Result<ArrayRef> {
        let (min, max) = self.arity();
        if args.count() < min || args.count() > max {
            return Err(format!(
                "takes {} argument{} after the column, not {}",
                if min == max {
                    min.to_string()
                } else {
                    format!("{min} to {max}")
                },
                if max == 1 { "" } else { "s" },
                args.count()
            ));
        }
        for (k, p) in self.params.iter().enumerate() {
            if p.literal && args.column(k).is_some() {
                return Err(format!("the {} must be a literal", p.name));
            }
        }
        let literal_args = (0..args.count()).all(|k| args.column(k).is_none());
        match column.data_type() {
            // Over the dictionary's values once, then one value per key.
            DataType::Dictionary(..) if literal_args => {
                let d = column.as_any_dictionary();
                let values = self.eval(d.values(), args)?;
                arrow_select::take::take(values.as_ref(), d.keys(), None).map_err(|e| e.to_string())
            }
            DataType::Dictionary(_, v) => {
                let plain = arrow_cast::cast::cast(column, v).map_err(|e| e.to_string())?;
                self.eval(&plain, args)
            }
            // All nulls (pyarrow's type for a column of None; SQL's NULL).
            DataType::Null => self.eval(&new_null_array(&DataType::Utf8, column.len()), args),
            _ => (self.kernel)(&Refs::new(column)?, args),
        }
    }
}

/// Row `i` of `a` as text, as the examples write results (`null` for a
/// null; structs and lists as Arrow's display writes them).
pub fn display(a: &ArrayRef, i: usize) -> String {
    let options = arrow_cast::display::FormatOptions::default().with_null("null");
    match arrow_cast::display::ArrayFormatter::try_new(a.as_ref(), &options) {
        Ok(f) => f.value(i).to_string(),
        Err(e) => format!("<{e}>"),
    }
}

/// The function named `name` (its own name or its SQL name).
pub fn function(name: &str) -> Option<&'static Function> {
    FUNCTIONS.iter().find(|f| f.name == name || f.sql == name)
}

thread_local! {
    /// Each thread's batch: its storage is kept from call to call.
    static BATCH: RefCell<Batch> = RefCell::new(Batch::new());
}

/// `f` over `refs` parsed by `parser` with this thread's batch.
pub(crate) fn parsed<T>(refs: &Refs<'_>, parser: &Parser, f: impl FnOnce(&Batch) -> T) -> T {
    parsed_keeping(refs, parser, None, f)
}

/// [`parsed`], for a function that reads one part of each value when
/// `part` names it: the batch keeps that part's spans alone where the
/// engine allows.
fn parsed_keeping<T>(
    refs: &Refs<'_>,
    parser: &Parser,
    part: Option<Component>,
    f: impl FnOnce(&Batch) -> T,
) -> T {
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        refs.parse_keeping(parser, &mut batch, part);
        f(&batch)
    })
}

/// Rows parsed at once by [`in_blocks`]: their bytes and records stay in
/// the cache between the engine's pass and the result's.
#[cfg(not(fuzzing))]
const BLOCK_ROWS: usize = 4096;
/// Under the fuzzer, a few rows: the fuzz targets' short columns then
/// cross blocks at every place.
#[cfg(fuzzing)]
const BLOCK_ROWS: usize = 7;

/// `each` over `refs` parsed by `parser` with this thread's batch, a
/// block of rows at a time (the batch, and the rows it holds).
pub(crate) fn in_blocks(
    refs: &Refs<'_>,
    parser: &Parser,
    part: Option<Component>,
    each: impl FnMut(&Batch, std::ops::Range<usize>),
) {
    in_blocks_over(refs, parser, part, 0..refs.len(), each);
}

/// [`in_blocks`] over rows `over` of `refs` alone.
pub(crate) fn in_blocks_over(
    refs: &Refs<'_>,
    parser: &Parser,
    part: Option<Component>,
    over: std::ops::Range<usize>,
    mut each: impl FnMut(&Batch, std::ops::Range<usize>),
) {
    BATCH.with(|b| {
        let mut batch = b.borrow_mut();
        let mut at = over.start;
        while at < over.end {
            let rows = at..(at + BLOCK_ROWS).min(over.end);
            refs.parse_rows_keeping(parser, &mut batch, part, rows.clone());
            at = rows.end;
            each(&batch, rows);
        }
    })
}

/// Rows a piece of a column made on a core of its own has at the least
/// (the `rayon` feature): a task's start and the join cost some tens of
/// microseconds, a piece of this many URLs a few hundred.
#[cfg(not(fuzzing))]
const PIECE_ROWS: usize = 3072;
/// Under the fuzzer, a few rows: the fuzz targets' short columns are then
/// cut into pieces at every place.
#[cfg(fuzzing)]
const PIECE_ROWS: usize = 5;

/// `parse` of a `Utf8` column cut into a piece for each of `threads`
/// (made one after the other without the `rayon` feature), for the fuzz
/// target that checks it against `parse` in one piece.
#[cfg(fuzzing)]
pub fn parse_in_pieces(column: &ArrayRef, threads: usize) -> ArrayRef {
    let refs = Refs::new(column).expect("a column of strings");
    kernel::parse_on(&refs, &Parser::new(), Profile::Rfc3986, threads)
}

/// [`kernel::part`] of component `c` of a `Utf8` column cut into a piece
/// for each of `threads`, for the fuzz target that checks it against the
/// part function in one piece.
#[cfg(fuzzing)]
pub fn part_in_pieces(column: &ArrayRef, c: Component, threads: usize) -> ArrayRef {
    let refs = Refs::new(column).expect("a column of strings");
    kernel::part_on(&refs, &Parser::new(), c, threads)
}

/// The threads a column may be made on: the `rayon` pool's with that
/// feature, else one.
pub(crate) fn threads() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    1
}

/// `n` rows cut into a piece for each of `threads`, none shorter than
/// [`PIECE_ROWS`].
pub(crate) fn pieces(n: usize, threads: usize) -> Vec<std::ops::Range<usize>> {
    let k = threads.min(n / PIECE_ROWS).max(1);
    let step = n.div_ceil(k).max(1);
    (0..k)
        .map(|i| (i * step).min(n)..((i + 1) * step).min(n))
        .collect()
}

/// `make` of each item, at once on the pool's threads with the `rayon`
/// feature: the results in order.
pub(crate) fn each_of<I: Send, T: Send>(
    items: Vec<I>,
    make: impl Fn(I) -> T + Sync + Send,
) -> Vec<T> {
    #[cfg(feature = "rayon")]
    if items.len() > 1 && rayon::current_num_threads() > 1 {
        use rayon::prelude::*;
        return items.into_par_iter().map(make).collect();
    }
    items.into_iter().map(make).collect()
}

/// `a` and `b`, at once on the pool's threads with the `rayon` feature.
pub(crate) fn both<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(feature = "rayon")]
    if rayon::current_num_threads() > 1 {
        return rayon::join(a, b);
    }
    (a(), b())
}

/// The profile argument `k` names (RFC 3986 when none is given).
fn profile(args: &dyn Args, k: usize) -> Result<Profile> {
    match args.text(k, 0) {
        None => Ok(Profile::Rfc3986),
        Some(p) => Profile::by_name(p).map_err(|e| e.to_string()),
    }
}

macro_rules! part {
    ($f:ident, $c:ident) => {
        fn $f(refs: &Refs<'_>, _: &dyn Args) -> Result<ArrayRef> {
            Ok(kernel::part(refs, &Parser::new(), Component::$c))
        }
    };
}

/// The components with a function of their own, named as
/// [`Component::as_str`] names them ([`kernel::part`]).
const PARTS: [Component; 7] = [
    Component::Scheme,
    Component::Authority,
    Component::Userinfo,
    Component::Host,
    Component::Path,
    Component::Query,
    Component::Fragment,
];

part!(scheme, Scheme);
part!(authority, Authority);
part!(userinfo, Userinfo);
part!(host, Host);
part!(path, Path);
part!(query, Query);
part!(fragment, Fragment);

fn utf8(_: &dyn Args) -> Result<DataType> {
    Ok(DataType::Utf8)
}

fn view(_: &dyn Args) -> Result<DataType> {
    Ok(DataType::Utf8View)
}

fn boolean(_: &dyn Args) -> Result<DataType> {
    Ok(DataType::Boolean)
}

const PROFILE: [Param; 1] = [setting("profile")];

/// Every function, in the order the docs list them.
pub static FUNCTIONS: &[Function] = &[
    Function {
        name: "valid",
        sql: "uri_valid",
        column: "u",
        params: &PROFILE,
        result: "Boolean",
        doc: "whether `u` is a URI-reference (under `profile`, RFC 3986 by default): the engine's verdict alone, faster than a parse",
        examples: &[
            Example { input: Some("http://h/"), args: &[], want: "true" },
            Example { input: Some("a b"), args: &[], want: "false" },
            Example { input: Some("http://[fe80::1%25eth0]/"), args: &["rfc6874"], want: "true" },
            Example { input: None, args: &[], want: "null" },
        ],
        output: boolean,
        kernel: |refs, args| Ok(kernel::valid(refs, &Parser::new().profile(profile(args, 0)?))),
    },
    Function {
        name: "error",
        sql: "uri_error",
        column: "u",
        params: &PROFILE,
        result: "Utf8",
        doc: "the error message (`invalid character ' ' (0x20) at byte 9 in path (rule segment)`); null when valid",
        examples: &[
            Example { input: Some("http://h/"), args: &[], want: "null" },
            Example { input: Some("http://h/a b"), args: &[], want: "invalid character ' ' (0x20) at byte 10 in path (rule segment)" },
        ],
        output: utf8,
        kernel: |refs, args| {
            let parser = Parser::new().profile(profile(args, 0)?);
            Ok(parsed(refs, &parser, |b| kernel::error(refs, b)))
        },
    },
    Function {
        name: "parse",
        sql: "uri_parse",
        column: "u",
        params: &PROFILE,
        result: "Struct",
        doc: "the row of `urilex parse` for one reference (docs/schema.md, less `line`): `valid`, the profile's parts (null absent, `''` empty; Utf8View, views of the input), `host_kind`, `port_number`, `error` (`kind`, `part`, `index`, `rule`, `message`, `raw`; every field null when the struct is, as in docs/schema.md); `profile` must be a literal, since the fields depend on it",
        examples: &[
            Example { input: Some("http://h:8080/p?q"), args: &[], want: "{valid: true, scheme: http, authority: h:8080, userinfo: null, host: h, host_kind: reg-name, port: 8080, port_number: 8080, path: /p, query: q, fragment: null, error: null}" },
            Example { input: Some("http://[fe80::1%25eth0]/"), args: &["rfc6874"], want: "{valid: true, scheme: http, authority: [fe80::1%25eth0], userinfo: null, host: [fe80::1%25eth0], host_kind: ipv6, port: null, port_number: null, path: /, query: null, fragment: null, zone: eth0, error: null}" },
        ],
        output: |args| Ok(parse_type(profile(args, 0)?)),
        kernel: |refs, args| {
            let p = profile(args, 0)?;
            Ok(kernel::parse(refs, &Parser::new().profile(p), p))
        },
    },
    Function {
        name: "scheme",
        sql: "uri_scheme",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the scheme as written (not decoded): null when absent",
        examples: &[Example { input: Some("HTTP://h/"), args: &[], want: "HTTP" }],
        output: view,
        kernel: scheme,
    },
    Function {
        name: "authority",
        sql: "uri_authority",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the authority as written: null when absent, `''` when empty",
        examples: &[Example { input: Some("file:///etc"), args: &[], want: "" }],
        output: view,
        kernel: authority,
    },
    Function {
        name: "userinfo",
        sql: "uri_userinfo",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the userinfo as written: null when absent",
        examples: &[Example { input: Some("ftp://u:p@h/"), args: &[], want: "u:p" }],
        output: view,
        kernel: userinfo,
    },
    Function {
        name: "host",
        sql: "uri_host",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the host as written (not decoded, not lower-cased): null when absent",
        examples: &[
            Example { input: Some("http://[::1]:8080/p"), args: &[], want: "[::1]" },
            Example { input: Some("/p"), args: &[], want: "null" },
            Example { input: Some("not a uri"), args: &[], want: "null" },
        ],
        output: view,
        kernel: host,
    },
    Function {
        name: "port",
        sql: "uri_port",
        column: "u",
        params: &[],
        result: "UInt16",
        doc: "the port; null when absent, empty, or over 65535",
        examples: &[
            Example { input: Some("http://h:8080/"), args: &[], want: "8080" },
            Example { input: Some("http://h:99999/"), args: &[], want: "null" },
        ],
        output: |_| Ok(DataType::UInt16),
        kernel: |refs, _| Ok(parsed(refs, &Parser::new(), |b| kernel::port(refs, b))),
    },
    Function {
        name: "path",
        sql: "uri_path",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the path as written (every reference has one, maybe `''`)",
        examples: &[Example { input: Some("http://h/a/b;p?q"), args: &[], want: "/a/b;p" }],
        output: view,
        kernel: path,
    },
    Function {
        name: "query",
        sql: "uri_query",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the query as written: null when absent, `''` when empty (`http://a?` has query `''`)",
        examples: &[
            Example { input: Some("http://a?"), args: &[], want: "" },
            Example { input: Some("http://a"), args: &[], want: "null" },
        ],
        output: view,
        kernel: query,
    },
    Function {
        name: "fragment",
        sql: "uri_fragment",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "the fragment as written: null when absent",
        examples: &[Example { input: Some("/p#top"), args: &[], want: "top" }],
        output: view,
        kernel: fragment,
    },
    Function {
        name: "query_param",
        sql: "uri_query_param",
        column: "u",
        params: &[text("key")],
        result: "Utf8View",
        doc: "the first value of `key` as written; `''` for a key without `=`; null when the key is not there. Keys compare as written (`a%20b` is not `a b`)",
        examples: &[
            Example { input: Some("/s?q=a%20b&x"), args: &["q"], want: "a%20b" },
            Example { input: Some("/s?q=a%20b&x"), args: &["x"], want: "" },
            Example { input: Some("/s?x"), args: &["q"], want: "null" },
        ],
        output: view,
        kernel: |refs, args| {
            Ok(parsed(refs, &Parser::new(), |b| kernel::query_param(refs, b, |i| args.text(0, i))))
        },
    },
    Function {
        name: "query_params",
        sql: "uri_query_params",
        column: "u",
        params: &[],
        result: "List(Struct(key, value))",
        doc: "every pair in order; `value` null without `=`; `[]` for a valid reference without a query",
        examples: &[Example { input: Some("/s?a=1&b&a=2"), args: &[], want: "[{key: a, value: 1}, {key: b, value: null}, {key: a, value: 2}]" }],
        output: |_| Ok(params_type()),
        kernel: |refs, _| Ok(parsed(refs, &Parser::new(), |b| kernel::query_params(refs, b))),
    },
    Function {
        name: "path_segment",
        sql: "uri_path_segment",
        column: "u",
        params: &[Param { name: "n", kind: Kind::Int, optional: false, literal: false }],
        result: "Utf8View",
        doc: "segment `n` of the path as written, 1 the first, -1 the last (the template field `path:N`)",
        examples: &[
            Example { input: Some("http://h/a/b/c.html"), args: &["2"], want: "b" },
            Example { input: Some("http://h/a/b/c.html"), args: &["-1"], want: "c.html" },
        ],
        output: view,
        kernel: |refs, args| {
            Ok(parsed(refs, &Parser::new(), |b| kernel::path_segment(refs, b, |i| args.int(0, i))))
        },
    },
    Function {
        name: "registrable_domain",
        sql: "uri_registrable_domain",
        column: "u",
        params: &[],
        result: "Utf8",
        doc: "by the Public Suffix List the CLI uses (`psl` crate, both sections); the host percent-decoded and lower-cased; null for IP literals and unknown suffixes",
        examples: &[
            Example { input: Some("https://a.b.Example.CO.uk/"), args: &[], want: "example.co.uk" },
            Example { input: Some("http://10.0.0.1/"), args: &[], want: "null" },
        ],
        output: utf8,
        kernel: |refs, _| {
            Ok(parsed_keeping(refs, &Parser::new(), Some(Component::Host), |b| {
                kernel::domain(refs, b, true)
            }))
        },
    },
    Function {
        name: "public_suffix",
        sql: "uri_public_suffix",
        column: "u",
        params: &[],
        result: "Utf8",
        doc: "the host's public suffix by the same list",
        examples: &[Example { input: Some("https://a.b.example.co.uk/"), args: &[], want: "co.uk" }],
        output: utf8,
        kernel: |refs, _| {
            Ok(parsed_keeping(refs, &Parser::new(), Some(Component::Host), |b| {
                kernel::domain(refs, b, false)
            }))
        },
    },
    Function {
        name: "normalize",
        sql: "uri_normalize",
        column: "u",
        params: &[setting("mode")],
        result: "Utf8",
        doc: "`'syntax'` (default): RFC 3986 6.2.2; `'scheme'`: and 6.2.3; `'dedup'`: as `urilex normalize --dedup` (and the query sorted, no fragment; no parameter stripped)",
        examples: &[
            Example { input: Some("HTTP://Example.COM:80/a/../b/%7e"), args: &[], want: "http://example.com:80/b/~" },
            Example { input: Some("HTTP://Example.COM:80/a/../b"), args: &["scheme"], want: "http://example.com/b" },
            Example { input: Some("http://h/?b=2&a=1#f"), args: &["dedup"], want: "http://h/?a=1&b=2" },
        ],
        output: utf8,
        kernel: |refs, args| {
            let mode = match (args.count(), args.text(0, 0)) {
                (0, _) => "syntax",
                (_, Some(m)) => m,
                (_, None) => return Ok(new_null_array(&DataType::Utf8, refs.len())),
            };
            parsed(refs, &Parser::new(), |b| kernel::normalize(refs, b, mode))
        },
    },
    Function {
        name: "resolve",
        sql: "uri_resolve",
        column: "base",
        params: &[text("reference")],
        result: "Utf8",
        doc: "the column is the base, the argument the reference: RFC 3986 5.2 (strict); null when either is invalid or the base has no scheme",
        examples: &[
            Example { input: Some("http://a/b/c/d;p?q"), args: &["../g?y"], want: "http://a/b/g?y" },
            Example { input: Some("/no/scheme"), args: &["g"], want: "null" },
        ],
        output: utf8,
        kernel: resolve,
    },
    Function {
        name: "get",
        sql: "uri_get",
        column: "u",
        params: &[text("template")],
        result: "Utf8",
        doc: "the CLI's `get` template (`{host}{+:port}`, `{query:id}`, `{host:registrable}`, ...); decoded text that is not UTF-8 gets U+FFFD",
        examples: &[
            Example { input: Some("https://www.example.co.uk/a/b?x=1"), args: &["{host:registrable} {path:2}"], want: "example.co.uk b" },
        ],
        output: utf8,
        kernel: |refs, args| parsed(refs, &Parser::new(), |b| kernel::get(refs, b, |i| args.text(0, i))),
    },
    Function {
        name: "urn_nid",
        sql: "urn_nid",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "RFC 8141's NID; null for anything that is not a URN",
        examples: &[
            Example { input: Some("urn:isbn:0451450523"), args: &[], want: "isbn" },
            Example { input: Some("http://h/"), args: &[], want: "null" },
        ],
        output: view,
        kernel: |refs, _| Ok(kernel::urn(refs, true)),
    },
    Function {
        name: "urn_nss",
        sql: "urn_nss",
        column: "u",
        params: &[],
        result: "Utf8View",
        doc: "RFC 8141's NSS; null for anything that is not a URN",
        examples: &[Example { input: Some("urn:ietf:rfc:3986"), args: &[], want: "rfc:3986" }],
        output: view,
        kernel: |refs, _| Ok(kernel::urn(refs, false)),
    },
    Function {
        name: "extract",
        sql: "uri_extract",
        column: "text",
        params: &[],
        result: "List(Struct(uri, start, end))",
        doc: "the URIs in free text (as `urilex extract`), with their byte spans",
        examples: &[Example { input: Some("see <http://a.example/x>, ok"), args: &[], want: "[{uri: http://a.example/x, start: 5, end: 23}]" }],
        output: |_| Ok(extract_type()),
        kernel: |refs, _| Ok(kernel::extract(refs)),
    },
    Function {
        name: "parse_url",
        sql: "uri_parse_url",
        column: "u",
        params: &[text("part"), Param { name: "key", kind: Kind::Text, optional: true, literal: false }],
        result: "Utf8",
        doc: "Spark's `parse_url` on RFC 3986's grammar: `HOST`, `PATH`, `QUERY`, `REF`, `PROTOCOL`, `FILE`, `AUTHORITY`, `USERINFO` (raw, as `java.net.URI` gives them; an empty host is null), `QUERY` with a key (Spark's `(&|^)key=([^&]*)`); an invalid reference, an unknown part or a missing key give null, as `try_parse_url` does",
        examples: &[
            Example { input: Some("http://h/p?a=1&b=2#r"), args: &["HOST"], want: "h" },
            Example { input: Some("http://h/p?a=1&b=2#r"), args: &["QUERY", "b"], want: "2" },
            Example { input: Some("http://h/p?a=1&b=2#r"), args: &["FILE"], want: "/p?a=1&b=2" },
        ],
        output: utf8,
        kernel: |refs, args| {
            let key = (args.count() > 1).then_some(|i| args.text(1, i));
            Ok(parsed(refs, &Parser::new(), |b| kernel::parse_url(refs, b, |i| args.text(0, i), key)))
        },
    },
    Function {
        name: "whatwg_host",
        sql: "uri_whatwg_host",
        column: "u",
        params: &[],
        result: "Utf8",
        doc: "the host a WHATWG URL parser (browsers, the `url` crate) reads in `u` with no base: lower-cased, decoded and mapped by UTS 46, IPv4 numbers as dotted decimal, IPv6 in brackets; `''` when it has none; null when the Standard rejects `u` (docs/security.md)",
        examples: &[
            Example { input: Some("http://127.1/"), args: &[], want: "127.0.0.1" },
            Example { input: Some("http://evil.com\\@good.com/"), args: &[], want: "evil.com" },
            Example { input: Some("/relative"), args: &[], want: "null" },
        ],
        output: utf8,
        kernel: |refs, _| Ok(parsed(refs, &Parser::new(), |b| kernel::whatwg_host(refs, b))),
    },
    Function {
        name: "whatwg_differences",
        sql: "uri_whatwg_differences",
        column: "u",
        params: &[],
        result: "List(Utf8)",
        doc: "how the RFC 3986 and WHATWG readings of `u` differ (docs/security.md): `whatwg-host-differs`, `whatwg-only` or `rfc-only`, then the class (`whatwg-backslash`, `whatwg-slashes`, `whatwg-ipv4-number`, ...); empty when they agree",
        examples: &[
            Example { input: Some("http://127.1/"), args: &[], want: "[whatwg-host-differs, whatwg-ipv4-number]" },
            Example { input: Some("http:/evil.com/x"), args: &[], want: "[whatwg-host-differs, whatwg-slashes]" },
            Example { input: Some("https://example.com/"), args: &[], want: "[]" },
            Example { input: None, args: &[], want: "null" },
        ],
        output: |_| Ok(kernel::differences_type()),
        kernel: |refs, _| Ok(parsed(refs, &Parser::new(), |b| kernel::whatwg_differences(refs, b))),
    },
];

/// `uri_resolve(base, ref)`: the column holds the bases; the references
/// are a column (parsed by the batch) or a literal (parsed once). A base
/// repeated from the row before is parsed once.
fn resolve(bases: &Refs<'_>, args: &dyn Args) -> Result<ArrayRef> {
    use arrow_array::builder::StringBuilder;
    let parser = Parser::new();
    let column = match args.column(0) {
        Some(a) => Some(match a.data_type() {
            DataType::Dictionary(_, v) => {
                arrow_cast::cast::cast(a, v).map_err(|e| e.to_string())?
            }
            _ => a.clone(),
        }),
        None => None,
    };
    let targets = column.as_ref().map(Refs::new).transpose()?;
    let literal = args
        .text(0, 0)
        .filter(|_| targets.is_none())
        .map(|s| parser.parse(s));
    let mut out = StringBuilder::with_capacity(bases.len(), bases.values().len() * 2);
    let mut text = String::new();
    let mut last: Option<(usize, urilex::UriRef<'_>)> = None;
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
    Ok(std::sync::Arc::new(out.finish()))
}

/// The table of functions in docs/sql.md, made from the registry.
pub fn docs_table() -> String {
    let mut t = String::from("| function | result | what it gives |\n| --- | --- | --- |\n");
    for f in FUNCTIONS {
        t.push_str(&format!(
            "| `{}` | {} | {} |\n",
            f.usage(f.sql),
            f.result,
            f.doc
        ));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::StringArray;
    use std::sync::Arc;

    /// Every function's examples, through the registry.
    #[test]
    fn every_example() {
        let mut n = 0;
        for f in FUNCTIONS.iter() {
            assert!(!f.examples.is_empty(), "{} has no example", f.name);
            for e in f.examples {
                let col: ArrayRef = Arc::new(StringArray::from(vec![e.input]));
                let args = Literals::text(e.args);
                let out = f
                    .eval(&col, &args)
                    .unwrap_or_else(|m| panic!("{}: {m}", f.name));
                assert_eq!(out.data_type(), &f.output(&args).unwrap(), "{}", f.name);
                assert_eq!(
                    display(&out, 0),
                    e.want,
                    "{}({:?}, {:?})",
                    f.name,
                    e.input,
                    e.args
                );
                n += 1;
            }
        }
        assert!(n >= FUNCTIONS.len());
    }

    /// docs/sql.md's table is the registry's (`docs_table`).
    #[test]
    fn the_docs_list_every_function() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/sql.md"))
            .unwrap();
        let start = doc.find("| function | result | what it gives |").unwrap();
        let end = doc[start..]
            .find("\n\n")
            .map_or(doc.len(), |e| start + e + 1);
        assert_eq!(
            &doc[start..end],
            docs_table(),
            "docs/sql.md's table of functions"
        );
    }

    /// A column of several blocks' rows (`in_blocks`): valid, invalid,
    /// null, empty, non-ASCII and overlong values in every block, and
    /// block edges inside runs of each. Each part function and
    /// `uri_parse` give row by row what `UriRef::parse` gives, in a `Utf8`
    /// column and a `Utf8View` one (the views path and the copied one).
    #[test]
    fn columns_of_many_blocks_are_each_value_parsed_alone() {
        use arrow_array::cast::AsArray;
        use arrow_array::{Array, StringViewArray};
        let long = format!("http://h/{}", "p".repeat(70_000));
        let kinds = [
            "http://user@www.example.com:8080/a/b?q=1#f",
            "not a uri",
            "",
            "/relative/path?x",
            "http://[::1]:99999/",
            "https://h\u{e9}.example/",
            "//host.example",
            "mailto:a@b.example",
            &long,
            "http://a%zz/",
        ];
        let n = 3 * BLOCK_ROWS + 77;
        let values: Vec<Option<String>> = (0..n)
            .map(|i| match i % 13 {
                5 => None,
                // The host a different length in each row: inline views and not.
                k => Some(format!("{}{}", kinds[k % kinds.len()], "x".repeat(i % 17))),
            })
            .collect();
        let utf8: ArrayRef = Arc::new(StringArray::from(values.clone()));
        let view: ArrayRef = Arc::new(StringViewArray::from(values.clone()));
        let none = Literals(Vec::new());
        for col in [&utf8, &view] {
            let parsed = function("uri_parse").unwrap().eval(col, &none).unwrap();
            let parsed = parsed.as_struct();
            for c in PARTS {
                let name = format!("uri_{}", c.as_str());
                let got = function(&name).unwrap().eval(col, &none).unwrap();
                let got = got.as_string_view();
                let field = parsed.column_by_name(c.as_str()).unwrap().as_string_view();
                for (i, v) in values.iter().enumerate() {
                    let want = v.as_deref().and_then(|v| {
                        let r = urilex::UriRef::parse(v).ok()?;
                        r.component(c).map(str::to_owned)
                    });
                    let have = got.is_valid(i).then(|| got.value(i).to_owned());
                    assert_eq!(have, want, "{name} of row {i}: {v:?}");
                    let field = field.is_valid(i).then(|| field.value(i).to_owned());
                    assert_eq!(field, want, "uri_parse's {name} of row {i}");
                }
            }
            let valid = parsed.column_by_name("valid").unwrap().as_boolean();
            let port = parsed.column_by_name("port_number").unwrap();
            let port = port.as_primitive::<arrow_array::types::UInt16Type>();
            let error = parsed.column_by_name("error").unwrap().as_struct();
            let message = error.column_by_name("message").unwrap().as_string::<i32>();
            for (i, v) in values.iter().enumerate() {
                let one = v.as_deref().map(urilex::UriRef::parse);
                assert_eq!(parsed.is_valid(i), v.is_some(), "row {i}");
                assert_eq!(
                    valid.is_valid(i).then(|| valid.value(i)),
                    one.as_ref().map(|r| r.is_ok()),
                    "valid of row {i}"
                );
                let want = one
                    .as_ref()
                    .and_then(|r| urilex::port_number(r.as_ref().ok()?.port()?.as_bytes()));
                assert_eq!(
                    port.is_valid(i).then(|| port.value(i)),
                    want,
                    "port of row {i}"
                );
                let want = one
                    .as_ref()
                    .and_then(|r| Some(r.as_ref().err()?.to_string()));
                let have = error.is_valid(i).then(|| message.value(i).to_owned());
                assert_eq!(have, want, "error of row {i}");
            }
        }
    }

    /// `parse` made in pieces (one per thread, joined before the arrays
    /// are made) is `parse` made in one, whatever falls at the pieces'
    /// edges: nulls, invalid values (their errors), non-ASCII bytes (the
    /// views then checked), long values, empty ones; for 2 to 5 pieces.
    #[test]
    fn parse_in_pieces_is_parse_in_one() {
        let kinds = [
            "http://a.example/p?q#f",
            "not a uri",
            "//[::1]:8080/x",
            "",
            "https://ü.example/straße",
            "mailto:someone@example.com",
            "http://h/%zz",
            "ftp://user:pw@host:21/a/very/long/path/that/is/not/inline/in/a/view",
        ];
        let mut x: u64 = 7;
        let values: Vec<Option<String>> = (0..4 * PIECE_ROWS + 777)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = (x >> 33) as usize % (kinds.len() + 1);
                (k < kinds.len()).then(|| format!("{}{}", kinds[k], i % 97))
            })
            .collect();
        for ascii in [true, false] {
            let vals: Vec<Option<String>> = values
                .iter()
                .map(|v| v.clone().filter(|v| !ascii || v.is_ascii()))
                .collect();
            let col: ArrayRef = Arc::new(StringArray::from(vals));
            let refs = crate::refs::Refs::new(&col).unwrap();
            let one = kernel::parse_on(&refs, &Parser::new(), Profile::Rfc3986, 1);
            for threads in 2..=5 {
                let pieces = kernel::parse_on(&refs, &Parser::new(), Profile::Rfc3986, threads);
                assert_eq!(
                    pieces.to_data(),
                    one.to_data(),
                    "{threads} pieces, ascii {ascii}"
                );
                // And each part function's views, joined in the same way.
                for c in PARTS {
                    let one = kernel::part_on(&refs, &Parser::new(), c, 1);
                    let pieces = kernel::part_on(&refs, &Parser::new(), c, threads);
                    pieces.to_data().validate_full().unwrap();
                    assert_eq!(
                        pieces.to_data(),
                        one.to_data(),
                        "{c:?} in {threads} pieces, ascii {ascii}"
                    );
                }
            }
        }
        assert_eq!(pieces(4 * PIECE_ROWS + 777, 5).len(), 4);
        assert_eq!(pieces(PIECE_ROWS + 1, 2).len(), 1);
        // Adapters that cut columns for the cores leave `parse` and the
        // part functions whole.
        for f in FUNCTIONS.iter() {
            let own = f.name == "parse" || PARTS.iter().any(|c| c.as_str() == f.name);
            assert_eq!(
                f.uses_the_cores(),
                own && cfg!(feature = "rayon"),
                "{}",
                f.name
            );
        }
        for c in PARTS {
            assert!(function(c.as_str()).is_some(), "{c:?}");
        }
    }

    #[test]
    fn names_are_unique_and_arguments_checked() {
        let mut names: Vec<&str> = FUNCTIONS.iter().flat_map(|f| [f.name, f.sql]).collect();
        names.sort_unstable();
        let all = names.len();
        names.dedup();
        // `urn_nid` and `urn_nss` are their own SQL names.
        assert_eq!(names.len(), all - 2);
        let col: ArrayRef = Arc::new(StringArray::from(vec!["http://h/"]));
        let e = function("uri_host")
            .unwrap()
            .eval(&col, &Literals::text(&["x"]));
        assert_eq!(e.unwrap_err(), "takes 0 arguments after the column, not 1");
        let e = function("parse")
            .unwrap()
            .eval(&col, &Literals::text(&["nope"]));
        assert!(e.unwrap_err().contains("nope"));
        assert_eq!(
            function("uri_parse").unwrap().usage("uri_parse"),
            "uri_parse(u [, profile])"
        );
    }
}
