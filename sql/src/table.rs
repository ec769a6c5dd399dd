//! Logs as tables: the log pipeline's reader (every `--input` format of
//! the CLI, gzip and zstd, files read through a memory map and parsed on
//! worker threads) as a DataFusion table, its rows those of `urilex parse
//! --fields all` (`docs/schema.md`). A scan builds only the columns its
//! query uses: DataFusion's projection goes into the pipeline's schema
//! (`Schema::project`), so that the decoders take out only those fields
//! and the row builder fills only those columns.

use datafusion::arrow::array::{AsArray, BooleanArray};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::streaming::StreamingTable;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::TableType;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::TableProviderFilterPushDown;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::streaming::PartitionStream;
use datafusion::physical_plan::ExecutionPlan;
use std::path::PathBuf;
use std::sync::Arc;
use urilex::{Profile, Syntax};
use urilex_io::columnar::BatchBuilder;
use urilex_io::format::{Extractor, InputFormat, LogField};
use urilex_io::rows::Engine;
use urilex_io::run::Done;
use urilex_io::schema::Schema;
use urilex_io::source::ReadOptions;

/// A log file (or several) in one of the pipeline's input formats.
#[derive(Clone)]
pub struct LogTable {
    files: Vec<PathBuf>,
    engine: Engine,
    builder: Arc<BatchBuilder>,
    threads: usize,
    /// Columns (of the builder's) whose rows must be valid references
    /// (`uri_valid(column)` filters the scan answers itself).
    valid: Vec<usize>,
    /// The columns handed on: the builder's first ones (the rest are
    /// built for the filters alone).
    out: SchemaRef,
}

impl LogTable {
    /// `files` read as `format` (`lines`, `combined`, `common`, `jsonl:FIELD`,
    /// `tsv:COLUMN`, `csv:COLUMN`, ... as the CLI's `--input`), references
    /// parsed under `profile`, on `threads` workers. For a combined log,
    /// `field` says which reference the row's parts are of (the other is a
    /// plain column).
    pub fn new(
        files: Vec<PathBuf>,
        format: &str,
        field: LogField,
        profile: Profile,
        threads: usize,
    ) -> Result<LogTable> {
        let format: InputFormat = format.parse().map_err(DataFusionError::Plan)?;
        let mut extractor = Extractor {
            format,
            syntax: Syntax::Reference,
            field,
            carry: Vec::new(),
            max_record_bytes: 16 << 20,
        };
        let schema =
            Schema::new(profile, &mut extractor, Some("all")).map_err(DataFusionError::Plan)?;
        let engine = Engine { extractor, profile };
        engine.check().map_err(DataFusionError::Plan)?;
        let builder = Arc::new(BatchBuilder::new(schema));
        Ok(LogTable {
            files,
            engine,
            out: builder.arrow_schema(),
            builder,
            threads: threads.max(1),
            valid: Vec::new(),
        })
    }

    /// The rows' schema.
    pub fn schema(&self) -> SchemaRef {
        self.out.clone()
    }

    /// As a table (one stream of the files in order) whose scans build
    /// only the columns their query uses.
    pub fn provider(self) -> Result<LogProvider> {
        Ok(LogProvider { table: self })
    }

    /// The table of columns `keep` (indices into [`schema`](Self::schema),
    /// in that order): the decoders take out only the fields they hold.
    pub fn project(&self, keep: &[usize]) -> LogTable {
        self.filtered(keep, &[])
    }

    /// [`project`](Self::project) to `keep`, of the rows whose columns
    /// `valid` (indices into [`schema`](Self::schema), kept or not) hold
    /// valid references (RFC 3986): `uri_valid(column)` applied on the
    /// workers, each batch built with the filters' columns, filtered, then
    /// cut to `keep`.
    pub fn filtered(&self, keep: &[usize], valid: &[usize]) -> LogTable {
        let mut all = keep.to_vec();
        for v in valid {
            if !all.contains(v) {
                all.push(*v);
            }
        }
        let mut extractor = self.engine.extractor.clone();
        let schema = self.builder.schema().project(&all, &mut extractor);
        let builder = Arc::new(BatchBuilder::new(schema));
        let out = Arc::new(
            builder
                .arrow_schema()
                .project(&(0..keep.len()).collect::<Vec<_>>())
                .expect("the kept columns come first"),
        );
        LogTable {
            files: self.files.clone(),
            engine: Engine {
                extractor,
                profile: self.engine.profile,
            },
            builder,
            threads: self.threads,
            valid: valid
                .iter()
                .map(|v| {
                    all.iter()
                        .position(|a| a == v)
                        .expect("a filter's column is built")
                })
                .collect(),
            out,
        }
    }

    /// A built batch as the scan hands it on: its rows that pass the
    /// `uri_valid` filters, its kept columns.
    fn finish(&self, batch: RecordBatch) -> Result<RecordBatch> {
        if self.valid.is_empty() {
            return Ok(batch);
        }
        let f = urilex_columns::function("valid").expect("uri_valid is in the registry");
        let mut mask: Option<BooleanArray> = None;
        for &k in &self.valid {
            let v = f
                .eval(batch.column(k), &urilex_columns::Literals(Vec::new()))
                .map_err(DataFusionError::Execution)?;
            let v = v.as_boolean().clone();
            mask = Some(match mask {
                None => v,
                Some(m) => datafusion::arrow::compute::and(&m, &v)?,
            });
        }
        let mask = mask.expect("a filter");
        let batch = datafusion::arrow::compute::filter_record_batch(&batch, &mask)?;
        Ok(batch.project(&(0..self.out.fields().len()).collect::<Vec<_>>())?)
    }
}

/// A [`LogTable`] as a DataFusion table: each scan a stream of the
/// projected table's batches.
#[derive(Debug)]
pub struct LogProvider {
    table: LogTable,
}

#[async_trait::async_trait]
impl TableProvider for LogProvider {
    fn schema(&self) -> SchemaRef {
        self.table.schema()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    /// `uri_valid(column)` on one of the table's text columns is the
    /// scan's own (`Exact`): its rows are tested on the workers, before
    /// DataFusion sees them; any other filter is DataFusion's.
    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        let schema = self.table.schema();
        Ok(filters
            .iter()
            .map(|f| match valid_filter(f, &schema) {
                Some(_) => TableProviderFilterPushDown::Exact,
                None => TableProviderFilterPushDown::Unsupported,
            })
            .collect())
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let schema = self.table.schema();
        let valid: Vec<usize> = filters
            .iter()
            .filter_map(|f| valid_filter(f, &schema))
            .collect();
        let all: Vec<usize> = (0..schema.fields().len()).collect();
        let table = self.table.filtered(projection.unwrap_or(&all), &valid);
        StreamingTable::try_new(table.schema(), vec![Arc::new(table)])?
            .scan(state, None, &[], limit)
            .await
    }
}

/// The column `filter` tests, when it is `uri_valid(column)` (RFC 3986,
/// the one-argument form) of one of `schema`'s text columns.
fn valid_filter(filter: &Expr, schema: &SchemaRef) -> Option<usize> {
    let Expr::ScalarFunction(f) = filter else {
        return None;
    };
    let [Expr::Column(c)] = f.args.as_slice() else {
        return None;
    };
    if f.name() != "uri_valid" {
        return None;
    }
    let k = schema.index_of(c.name()).ok()?;
    urilex_columns::is_text(schema.field(k).data_type()).then_some(k)
}

impl std::fmt::Debug for LogTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogTable")
            .field("files", &self.files)
            .field("format", &self.engine.extractor.format)
            .field("profile", &self.engine.profile)
            .finish()
    }
}

impl PartitionStream for LogTable {
    fn schema(&self) -> &SchemaRef {
        &self.out
    }

    fn execute(&self, _ctx: Arc<TaskContext>) -> SendableRecordBatchStream {
        // The pipeline runs on threads of its own and hands its batches
        // over in input order; a few wait in the channel at most.
        let (tx, rx) = futures::channel::mpsc::channel::<Result<RecordBatch>>(4);
        let me = self.clone();
        std::thread::spawn(move || {
            let mut tx = tx;
            let read = ReadOptions {
                number_lines: true,
                ..ReadOptions::default()
            };
            let _ = urilex_io::run::Pipeline {
                files: &me.files,
                read,
                engine: &me.engine,
                threads: me.threads,
            }
            .run(
                || (),
                |_, rows| me.finish(me.builder.build(rows)),
                |done| {
                    let item = match done {
                        Done::Rows(batch, _) => batch,
                        Done::Fault(m) => Err(DataFusionError::Execution(m)),
                    };
                    futures::executor::block_on(futures::SinkExt::send(&mut tx, item))
                        .map_err(|_| ())
                },
            );
        });
        Box::pin(RecordBatchStreamAdapter::new(self.schema(), rx))
    }
}
