//! The scalar functions: every function of the column registry
//! (`urilex_columns::FUNCTIONS`) as a DataFusion `ScalarUDF` under its SQL
//! name, one implementation of `ScalarUDFImpl` for all ([`UriUdf`]).
//! Each evaluation hands the registry's kernel the column and the other
//! arguments (literals or columns); the kernel parses the column once
//! with the batch engine and builds its result in one pass.

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{exec_datafusion_err, plan_err, Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature,
    Volatility,
};
use std::sync::Arc;
use urilex_columns::{is_text, Args, Function, Kind, FUNCTIONS};

/// Every function as a DataFusion `ScalarUDF`.
pub fn udfs() -> Vec<Arc<ScalarUDF>> {
    FUNCTIONS
        .iter()
        .enumerate()
        .map(|(index, f)| {
            Arc::new(ScalarUDF::new_from_impl(UriUdf {
                name: f.sql,
                index,
                signature: Signature::user_defined(Volatility::Immutable),
            }))
        })
        .collect()
}

/// One of the functions, by its SQL name.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UriUdf {
    name: &'static str,
    /// Its place in the registry.
    index: usize,
    signature: Signature,
}

impl UriUdf {
    fn function(&self) -> &'static Function {
        &FUNCTIONS[self.index]
    }
}

/// The arguments after the column as DataFusion hands them over.
struct SqlArgs<'a>(&'a [ColumnarValue]);

fn scalar_text(s: &ScalarValue) -> Option<&str> {
    match s {
        ScalarValue::Utf8(s) | ScalarValue::LargeUtf8(s) | ScalarValue::Utf8View(s) => s.as_deref(),
        ScalarValue::Dictionary(_, v) => scalar_text(v),
        _ => None,
    }
}

impl Args for SqlArgs<'_> {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn text(&self, k: usize, i: usize) -> Option<&str> {
        match self.0.get(k)? {
            ColumnarValue::Scalar(s) => scalar_text(s),
            ColumnarValue::Array(a) => {
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
    fn int(&self, k: usize, i: usize) -> Option<i64> {
        match self.0.get(k)? {
            ColumnarValue::Scalar(ScalarValue::Int64(v)) => *v,
            ColumnarValue::Scalar(_) => None,
            ColumnarValue::Array(a) => {
                let a = a.as_primitive_opt::<datafusion::arrow::datatypes::Int64Type>()?;
                a.is_valid(i).then(|| a.value(i))
            }
        }
    }
    fn column(&self, k: usize) -> Option<&ArrayRef> {
        match self.0.get(k)? {
            ColumnarValue::Array(a) => Some(a),
            ColumnarValue::Scalar(_) => None,
        }
    }
}

/// The literal arguments the planner knows (a column argument: `None`).
struct PlanArgs<'a>(&'a [Option<&'a ScalarValue>]);

impl Args for PlanArgs<'_> {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn text(&self, k: usize, _: usize) -> Option<&str> {
        self.0.get(k).copied().flatten().and_then(scalar_text)
    }
    fn int(&self, _: usize, _: usize) -> Option<i64> {
        None
    }
    fn column(&self, _: usize) -> Option<&ArrayRef> {
        None
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
        let f = self.function();
        let (min, max) = f.arity();
        if args.len() < min + 1 || args.len() > max + 1 {
            return plan_err!(
                "{} takes {} argument{}, not {}",
                self.name,
                if min == max {
                    (min + 1).to_string()
                } else {
                    format!("{} to {}", min + 1, max + 1)
                },
                if max == 0 { "" } else { "s" },
                args.len()
            );
        }
        args.iter()
            .enumerate()
            .map(|(k, t)| {
                let param = k.checked_sub(1).map(|p| f.params[p]);
                if let Some(p) = param.filter(|p| p.kind == Kind::Int) {
                    return if t.is_integer() || t.is_null() {
                        Ok(DataType::Int64)
                    } else {
                        plan_err!("{}: {} must be an integer, not {t}", self.name, p.name)
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
        plan_err!("{}'s type comes from its arguments", self.name)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let f = self.function();
        let rest = args.scalar_arguments.get(1..).unwrap_or_default();
        for (k, p) in f.params.iter().enumerate() {
            if p.literal && k < rest.len() && rest[k].is_none() {
                return plan_err!("{}: the {} must be a string literal", self.name, p.name);
            }
        }
        let t = f
            .output(&PlanArgs(rest))
            .map_err(|e| exec_datafusion_err!("{}: {e}", self.name))?;
        Ok(Arc::new(Field::new(self.name, t, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let all_scalar = args
            .args
            .iter()
            .all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if all_scalar { 1 } else { args.number_rows };
        // Column arguments after the first as long as the column.
        let rest: Vec<ColumnarValue> = args.args[1..]
            .iter()
            .map(|a| match a {
                ColumnarValue::Array(_) => a.to_array(rows).map(ColumnarValue::Array),
                ColumnarValue::Scalar(_) => Ok(a.clone()),
            })
            .collect::<Result<_>>()?;
        let first = args.args[0].to_array(rows)?;
        let out = self
            .function()
            .eval(&first, &SqlArgs(&rest))
            .map_err(|e| exec_datafusion_err!("{}: {e}", self.name))?;
        if all_scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}
