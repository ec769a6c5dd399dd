//! Arrow IPC and Parquet output read back as JSON Lines rows (each cell
//! as the JSON Lines writer writes it), for the pipeline's tests and the
//! writers' fuzz target (which includes this file).

use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, UInt16Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use serde_json::{json, Map, Value};
use urilex_io::run::OutputFormat;

/// The record batches of an Arrow IPC stream or a Parquet file, read with
/// arrow-rs's own readers.
pub fn read_back(out: &[u8], f: OutputFormat) -> Vec<RecordBatch> {
    match f {
        OutputFormat::Arrow => {
            arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(out.to_vec()), None)
                .unwrap()
                .map(Result::unwrap)
                .collect()
        }
        _ => {
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let p = std::env::temp_dir().join(format!(
                "urilex-readback-{}-{n}.parquet",
                std::process::id()
            ));
            std::fs::write(&p, out).unwrap();
            let file = std::fs::File::open(&p).unwrap();
            let _ = std::fs::remove_file(&p);
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
                .unwrap()
                .build()
                .unwrap()
                .map(Result::unwrap)
                .collect()
        }
    }
}

/// Bytes as lower-case hex, as the writers write raw bytes.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// Cell `i` of `a` as the JSON Lines writer writes it.
fn json_of(a: &dyn Array, i: usize) -> Value {
    if a.is_null(i) {
        return Value::Null;
    }
    match a.data_type() {
        DataType::UInt64 => json!(a.as_primitive::<UInt64Type>().value(i)),
        DataType::UInt16 => json!(a.as_primitive::<UInt16Type>().value(i)),
        DataType::Boolean => json!(a.as_boolean().value(i)),
        DataType::Utf8 => json!(a.as_string::<i32>().value(i)),
        DataType::Binary => json!(hex(a.as_binary::<i32>().value(i))),
        DataType::Dictionary(..) => {
            let d = a.as_dictionary::<Int16Type>();
            let k = d.keys().value(i) as usize;
            json!(d.values().as_string::<i32>().value(k))
        }
        DataType::List(_) => {
            let l = a.as_list::<i32>();
            let v = l.value(i);
            Value::Array((0..v.len()).map(|j| json_of(&v, j)).collect())
        }
        DataType::Struct(fields) => {
            let s = a.as_struct();
            let mut m = Map::new();
            for (f, c) in fields.iter().zip(s.columns()) {
                m.insert(f.name().clone(), json_of(c, i));
            }
            Value::Object(m)
        }
        t => panic!("unexpected type {t}"),
    }
}

/// Every row of `batches` as the JSON Lines writer writes it.
pub fn json_rows(batches: &[RecordBatch]) -> Vec<Value> {
    let mut v = Vec::new();
    for b in batches {
        for i in 0..b.num_rows() {
            let mut m = Map::new();
            for (f, c) in b.schema().fields().iter().zip(b.columns()) {
                m.insert(f.name().clone(), json_of(c, i));
            }
            v.push(Value::Object(m));
        }
    }
    v
}
