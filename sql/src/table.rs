//! Logs as tables: the log pipeline's reader (every `--input` format of
//! the CLI, gzip and zstd, files read through a memory map and parsed on
//! worker threads) as a DataFusion table, its rows those of `urilex parse
//! --fields all` (`docs/schema.md`). A scan builds only the columns its
//! query uses: DataFusion's projection goes into the pipeline's schema
//! (`Schema::project`), so that the decoders take out only those fields
//! and the row builder fills only those columns.

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::streaming::StreamingTable;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::TableType;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::Expr;
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
        Ok(LogTable {
            files,
            engine,
            builder: Arc::new(BatchBuilder::new(schema)),
            threads: threads.max(1),
        })
    }

    /// The rows' schema.
    pub fn schema(&self) -> SchemaRef {
        self.builder.arrow_schema()
    }

    /// As a table (one stream of the files in order) whose scans build
    /// only the columns their query uses.
    pub fn provider(self) -> Result<LogProvider> {
        Ok(LogProvider { table: self })
    }

    /// The table of columns `keep` (indices into [`schema`](Self::schema),
    /// in that order): the decoders take out only the fields they hold.
    pub fn project(&self, keep: &[usize]) -> LogTable {
        let mut extractor = self.engine.extractor.clone();
        let schema = self.builder.schema().project(keep, &mut extractor);
        LogTable {
            files: self.files.clone(),
            engine: Engine {
                extractor,
                profile: self.engine.profile,
            },
            builder: Arc::new(BatchBuilder::new(schema)),
            threads: self.threads,
        }
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

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let table = match projection {
            Some(keep) => self.table.project(keep),
            None => self.table.clone(),
        };
        StreamingTable::try_new(table.schema(), vec![Arc::new(table)])?
            .scan(state, None, filters, limit)
            .await
    }
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
        // The builder keeps it; `arrow_schema` hands out a clone.
        self.builder.schema_ref()
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
                |_, rows| me.builder.build(rows),
                |done| {
                    let item = match done {
                        Done::Rows(batch, _) => Ok(batch),
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
