//! A run of the log pipeline into any output format, for the pipeline's
//! tests and the fuzz targets of its decoders and writers (which include
//! this file).
#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;
use urilex::{Profile, Syntax};
use urilex_io::format::{Extractor, InputFormat, LogField};
use urilex_io::rows::Engine;
use urilex_io::run::{OutputFormat, Pipeline, Report, RowOutput};
use urilex_io::schema::Schema;
use urilex_io::source::ReadOptions;

/// `bytes` written to file `name` of this test process's own directory.
pub fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("urilex-io-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A path of the repository.
pub fn repo(path: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

/// The input format `spec` (`csv:url`), as `--input` takes it.
pub fn input(spec: &str) -> InputFormat {
    spec.parse().expect("a registered input format")
}

/// A pipeline run: the input format, the fields, the profile, threads,
/// chunks and the record limit.
pub struct Run {
    pub input: InputFormat,
    pub field: LogField,
    pub fields: Option<&'static str>,
    pub profile: Profile,
    pub threads: usize,
    pub chunk: usize,
    pub max: usize,
}

impl Run {
    /// RFC 3986, target fields, one thread, 256 KiB chunks.
    pub fn new(input: InputFormat) -> Run {
        Run {
            input,
            field: LogField::Target,
            fields: None,
            profile: Profile::Rfc3986,
            threads: 1,
            chunk: 1 << 18,
            max: 16 << 20,
        }
    }

    /// The engine and schema of the run.
    pub fn engine(&self) -> (Engine, Schema) {
        let mut ex = Extractor {
            format: self.input.clone(),
            syntax: Syntax::Reference,
            field: self.field,
            carry: Vec::new(),
            max_record_bytes: self.max,
        };
        let schema = Schema::new(self.profile, &mut ex, self.fields).unwrap();
        let engine = Engine {
            extractor: ex,
            profile: self.profile,
        };
        engine.check().unwrap();
        (engine, schema)
    }

    /// How the inputs are read.
    pub fn read(&self) -> ReadOptions {
        ReadOptions {
            chunk_bytes: self.chunk,
            max_record_bytes: self.max,
            ..ReadOptions::default()
        }
    }

    /// The output, the rows written and the faults.
    pub fn out(&self, files: &[PathBuf], format: OutputFormat) -> (Vec<u8>, u64, Vec<String>) {
        let (engine, schema) = self.engine();
        let read = self.read();
        let mut out = Vec::new();
        let mut faults = Vec::new();
        let pipeline = Pipeline {
            files,
            read,
            engine: &engine,
            threads: self.threads,
        };
        let rows = RowOutput {
            schema: &schema,
            format,
            header: format == OutputFormat::Csv,
            compress: None,
        };
        let report = Report {
            fault: &mut |m| faults.push(m.to_string()),
            progress: &mut |_| {},
        };
        let s = pipeline
            .write(rows, &mut out, report)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(s.faults as usize, faults.len());
        (out, s.rows, faults)
    }

    /// The JSON Lines rows.
    pub fn jsonl(&self, files: &[PathBuf]) -> Vec<Value> {
        let (out, rows, _) = self.out(files, OutputFormat::Jsonl);
        let v = rows_of(&out);
        assert_eq!(v.len() as u64, rows);
        v
    }
}

/// The rows of JSON Lines output.
pub fn rows_of(out: &[u8]) -> Vec<Value> {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            serde_json::from_slice(l)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(l)))
        })
        .collect()
}
