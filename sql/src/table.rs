//! Logs as tables: the log pipeline's reader (every `--input` format of
//! the CLI, gzip and zstd, files read through a memory map and parsed on
//! worker threads) as a DataFusion table, its rows those of `urilex parse
//! --fields all` (`docs/schema.md`). A scan builds only the columns its
//! query uses: DataFusion's projection goes into the pipeline's schema
//! (`Schema::project`), so that the decoders take out only those fields
//! and the row builder fills only those columns.
//!
//! A scan ([`LogTable::scan`]) is a `DataSourceExec` of a [`LogSource`]
//! in several partitions (file groups), each a run of whole
//! files or a byte range of one uncompressed file (a format whose records
//! are lines that need nothing before them: `lines`, `common`,
//! `combined`, `jsonl`, `tsv` by column number), so that one large log is
//! read on every core, and
//! on a Ballista cluster every executor reads and parses its own files
//! or ranges: the table and its scans travel to the cluster's processes
//! through [`crate::cluster`]'s codecs ([`LogTable::encode`]).

use datafusion::arrow::array::{AsArray, BooleanArray};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::object_store::ObjectStoreUrl;
use datafusion::datasource::physical_plan::{
    FileGroup, FileOpenFuture, FileOpener, FileScanConfig, FileScanConfigBuilder, FileSource,
};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::datasource::TableType;
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::TableProviderFilterPushDown;
use datafusion::object_store::ObjectStore;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::{DisplayFormatType, ExecutionPlan};
use futures::stream::BoxStream;
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
    /// What it was made from (`--input` format, profile name), and the
    /// columns kept and filtered (indices into the whole table's), for
    /// [`encode`](Self::encode).
    format: String,
    profile: String,
    kept: Option<Vec<usize>>,
    filters: Vec<usize>,
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
        profile: &str,
        threads: usize,
    ) -> Result<LogTable> {
        let spec = format.to_string();
        let profile_name = profile.to_string();
        let profile =
            Profile::by_name(profile).map_err(|e| DataFusionError::Plan(e.to_string()))?;
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
            format: spec,
            profile: profile_name,
            kept: None,
            filters: Vec::new(),
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
            format: self.format.clone(),
            profile: self.profile.clone(),
            kept: Some(keep.iter().map(|&k| self.whole_column(k)).collect()),
            filters: valid.iter().map(|&k| self.whole_column(k)).collect(),
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

    /// Column `k` of this table's as an index into the whole table's.
    fn whole_column(&self, k: usize) -> usize {
        self.kept.as_ref().map_or(k, |kept| kept[k])
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

/// A [`LogTable`] as a DataFusion table: each scan a
/// [`LogTable::scan`] of the projected table.
#[derive(Debug)]
pub struct LogProvider {
    table: LogTable,
}

impl LogProvider {
    /// The table it scans.
    pub fn table(&self) -> &LogTable {
        &self.table
    }
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
        _limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        // The limit is a hint: DataFusion's own limit above the scan stops
        // it (the pipeline ends when its stream is dropped).
        let schema = self.table.schema();
        let valid: Vec<usize> = filters
            .iter()
            .filter_map(|f| valid_filter(f, &schema))
            .collect();
        let all: Vec<usize> = (0..schema.fields().len()).collect();
        let table = self.table.filtered(projection.unwrap_or(&all), &valid);
        let parts = table.parts(state.config().target_partitions());
        Ok(table.scan(&parts))
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

/// What one partition of a scan reads: whole files, or the records that
/// start in a byte range of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Indices into the table's files, in order.
    pub files: Vec<usize>,
    /// `[start, end)` of the one file (`ReadOptions::range`).
    pub range: Option<(u64, u64)>,
}

/// The smallest byte range a file is cut into: below it, one more reader
/// costs more than it saves.
const MIN_RANGE: u64 = 1 << 20;

impl LogTable {
    /// The files cut into about `n` partitions of similar size: runs of
    /// whole files where there are at least `n` files; else each file
    /// read in place (uncompressed) in a format whose records are lines
    /// needing nothing before them, cut into byte ranges of at least
    /// [`MIN_RANGE`], and every other file whole.
    pub fn parts(&self, n: usize) -> Vec<Part> {
        let n = n.max(1);
        let sizes: Vec<u64> = self
            .files
            .iter()
            .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
            .collect();
        let splittable = self.engine.extractor.format.splittable();
        if n == 1 || self.files.len() <= 1 && !splittable {
            return vec![Part {
                files: (0..self.files.len()).collect(),
                range: None,
            }];
        }
        if self.files.len() >= n {
            return runs(&sizes, n);
        }
        let total: u64 = sizes.iter().sum();
        let piece = total.div_ceil(n as u64).max(MIN_RANGE);
        let mut parts = Vec::new();
        for (k, (f, &size)) in self.files.iter().zip(&sizes).enumerate() {
            if splittable && size > piece && urilex_io::source::read_in_place(f) {
                let count = size.div_ceil(piece);
                for c in 0..count {
                    let start = size * c / count;
                    let end = size * (c + 1) / count;
                    parts.push(Part {
                        files: vec![k],
                        range: Some((start, end)),
                    });
                }
            } else {
                parts.push(Part {
                    files: vec![k],
                    range: None,
                });
            }
        }
        parts
    }

    /// Runs the pipeline over `files` (the records starting in `range`,
    /// when given) on threads of its own: its batches, in input order.
    fn stream(
        &self,
        files: Vec<PathBuf>,
        range: Option<(u64, u64)>,
    ) -> BoxStream<'static, Result<RecordBatch>> {
        // A few batches wait in the channel at most.
        let (tx, rx) = futures::channel::mpsc::channel::<Result<RecordBatch>>(4);
        let me = self.clone();
        std::thread::spawn(move || {
            let mut tx = tx;
            let read = ReadOptions {
                number_lines: true,
                range,
                ..ReadOptions::default()
            };
            let _ = urilex_io::run::Pipeline {
                files: &files,
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
        Box::pin(rx)
    }

    /// A scan of this table in `parts`, each a partition: a
    /// `DataSourceExec` of file groups (a part's files, or its one file
    /// with its byte range), which a Ballista scheduler hands out to its
    /// tasks group by group. The table's threads are shared among the
    /// partitions, at least one each.
    pub fn scan(&self, parts: &[Part]) -> Arc<DataSourceExec> {
        self.scan_in(parts, (self.threads / parts.len().max(1)).max(1))
    }

    /// [`scan`](Self::scan) with `threads` workers for each partition.
    fn scan_in(&self, parts: &[Part], threads: usize) -> Arc<DataSourceExec> {
        let mut table = self.clone();
        table.threads = threads;
        let groups = parts
            .iter()
            .map(|p| {
                FileGroup::new(
                    p.files
                        .iter()
                        .map(|&k| {
                            let size = std::fs::metadata(&self.files[k]).map_or(0, |m| m.len());
                            let f = PartitionedFile::new(location(&self.files[k]), size);
                            match p.range {
                                Some((a, b)) => f.with_range(a as i64, b as i64),
                                None => f,
                            }
                        })
                        .collect(),
                )
            })
            .collect();
        let source = LogSource {
            schema: TableSchema::from(table.out.clone()),
            table,
            metrics: ExecutionPlanMetricsSet::new(),
        };
        let config =
            FileScanConfigBuilder::new(ObjectStoreUrl::local_filesystem(), Arc::new(source))
                .with_file_groups(groups)
                .build();
        DataSourceExec::from_data_source(config)
    }

    /// The parts of `scan`, a scan of this table ([`scan`](Self::scan)),
    /// as they are now (a Ballista task's scan holds its own groups only).
    fn scan_parts(&self, config: &FileScanConfig) -> Result<Vec<Part>> {
        config
            .file_groups
            .iter()
            .map(|g| {
                let mut part = Part {
                    files: Vec::new(),
                    range: None,
                };
                for f in g.files() {
                    part.files.push(self.file_index(f)?);
                    part.range = file_range(f);
                }
                Ok(part)
            })
            .collect()
    }

    /// Which of the table's files a scan's `file` is.
    fn file_index(&self, file: &PartitionedFile) -> Result<usize> {
        let at = file.object_meta.location.as_ref();
        self.files
            .iter()
            .position(|f| location(f) == at)
            .ok_or_else(|| {
                DataFusionError::Internal(format!("log scan: {at} is not one of the table's files"))
            })
    }
}

/// The byte range of a scan's `file`, when it has one.
fn file_range(file: &PartitionedFile) -> Option<(u64, u64)> {
    file.range.as_ref().map(|r| (r.start as u64, r.end as u64))
}

/// A file's name as a scan's file groups hold it (an object store path).
fn location(file: &std::path::Path) -> String {
    PartitionedFile::new(file.to_string_lossy(), 0)
        .object_meta
        .location
        .to_string()
}

/// `sizes` (at least `n` files) as `n` runs of consecutive files of about
/// equal bytes, none empty.
fn runs(sizes: &[u64], n: usize) -> Vec<Part> {
    let total: u64 = sizes.iter().sum();
    let mut parts: Vec<Part> = Vec::with_capacity(n);
    let mut files = Vec::new();
    let mut done = 0u64;
    for (k, &size) in sizes.iter().enumerate() {
        files.push(k);
        done += size;
        let left_files = sizes.len() - k - 1;
        let left_parts = n - parts.len() - 1;
        // Close this run when its share of the bytes is reached, or when
        // every later file must start a run of its own.
        let share = total * (parts.len() as u64 + 1) / n as u64;
        if left_parts > 0 && (done >= share || left_files == left_parts) {
            parts.push(Part {
                files: std::mem::take(&mut files),
                range: None,
            });
        }
    }
    if !files.is_empty() {
        parts.push(Part { files, range: None });
    }
    parts
}

/// The log pipeline as a DataFusion file source: each file of a scan's
/// group read (its byte range, when it has one) and parsed by the
/// pipeline on threads of its own.
#[derive(Clone)]
pub struct LogSource {
    table: LogTable,
    schema: TableSchema,
    metrics: ExecutionPlanMetricsSet,
}

impl LogSource {
    /// The table it reads.
    pub fn table(&self) -> &LogTable {
        &self.table
    }
}

impl std::fmt::Debug for LogSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogSource")
            .field("table", &self.table)
            .finish()
    }
}

impl FileSource for LogSource {
    fn create_file_opener(
        &self,
        _store: Arc<dyn ObjectStore>,
        _config: &FileScanConfig,
        _partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        Ok(Arc::new(LogOpener {
            table: self.table.clone(),
        }))
    }

    fn table_schema(&self) -> &TableSchema {
        &self.schema
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        // Its filters are the table's own (`uri_valid` on columns), not
        // expressions of the plan.
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_batch_size(&self, _batch_size: usize) -> Arc<dyn FileSource> {
        // A batch is a chunk of input, as the pipeline cuts it.
        Arc::new(self.clone())
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        "log"
    }

    fn fmt_extra(&self, _t: DisplayFormatType, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            ", format={}, columns={}, threads={}",
            self.table.format,
            self.table.out.fields().len(),
            self.table.threads
        )?;
        if !self.table.filters.is_empty() {
            write!(f, ", uri_valid={:?}", self.table.filters)?;
        }
        Ok(())
    }

    /// The scan's partitions are the table's own ([`LogTable::parts`]):
    /// DataFusion's byte ranges would cut compressed files too.
    fn supports_repartitioning(&self) -> bool {
        false
    }
}

/// Opens one file (or byte range) of a log scan.
struct LogOpener {
    table: LogTable,
}

impl FileOpener for LogOpener {
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let path = self.table.files[self.table.file_index(&file)?].clone();
        let stream = self.table.stream(vec![path], file_range(&file));
        Ok(Box::pin(futures::future::ready(Ok(stream))))
    }
}

/// The bytes a table or a scan travels as (a Ballista plan's extension
/// node): a mark, then fields each a little-endian length or number.
const MARK: &[u8] = b"urilex-log-table/1\0";

struct Wire<'a>(&'a [u8]);

impl Wire<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        if self.0.len() < n {
            return Err(DataFusionError::Internal(
                "a urilex log table's bytes end early".into(),
            ));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn usize(&mut self) -> Result<usize> {
        usize::try_from(self.u64()?)
            .map_err(|_| DataFusionError::Internal("a log table's number is too large".into()))
    }
    fn text(&mut self) -> Result<String> {
        let n = self.usize()?;
        String::from_utf8(self.take(n)?.to_vec())
            .map_err(|_| DataFusionError::Internal("a log table's text is not UTF-8".into()))
    }
    fn list(&mut self) -> Result<Vec<usize>> {
        let n = self.usize()?;
        (0..n).map(|_| self.usize()).collect()
    }
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_text(out: &mut Vec<u8>, t: &str) {
    put_u64(out, t.len() as u64);
    out.extend_from_slice(t.as_bytes());
}

fn put_list(out: &mut Vec<u8>, l: &[usize]) {
    put_u64(out, l.len() as u64);
    for &v in l {
        put_u64(out, v as u64);
    }
}

impl LogTable {
    /// Appends what makes this table again on another machine
    /// ([`decode`](Self::decode)): its files (paths the other machine
    /// must reach the same way), format, field, profile, threads, and the
    /// columns it keeps and filters.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<()> {
        out.extend_from_slice(MARK);
        put_u64(out, self.files.len() as u64);
        for f in &self.files {
            let Some(t) = f.to_str() else {
                return Err(DataFusionError::Plan(format!(
                    "{}: a log table's path must be UTF-8 to travel to a cluster",
                    f.display()
                )));
            };
            put_text(out, t);
        }
        put_text(out, &self.format);
        put_u64(
            out,
            match self.engine.extractor.field {
                LogField::Target => 0,
                LogField::Referer => 1,
                LogField::Both => 2,
            },
        );
        put_text(out, &self.profile);
        put_u64(out, self.threads as u64);
        match &self.kept {
            None => put_u64(out, 0),
            Some(k) => {
                put_u64(out, 1);
                put_list(out, k);
            }
        }
        put_list(out, &self.filters);
        Ok(())
    }

    /// Whether `bytes` begin as [`encode`](Self::encode) writes.
    pub fn is_encoded(bytes: &[u8]) -> bool {
        bytes.starts_with(MARK)
    }

    /// The table [`encode`](Self::encode) wrote at the start of `bytes`,
    /// and the bytes after it.
    pub fn decode(bytes: &[u8]) -> Result<(LogTable, &[u8])> {
        let Some(rest) = bytes.strip_prefix(MARK) else {
            return Err(DataFusionError::Internal("not a urilex log table".into()));
        };
        let mut w = Wire(rest);
        let n = w.usize()?;
        let files = (0..n)
            .map(|_| w.text().map(PathBuf::from))
            .collect::<Result<Vec<_>>>()?;
        let format = w.text()?;
        let field = match w.u64()? {
            0 => LogField::Target,
            1 => LogField::Referer,
            2 => LogField::Both,
            k => return Err(DataFusionError::Internal(format!("log field {k}?"))),
        };
        let profile = w.text()?;
        let threads = w.usize()?;
        let kept = match w.u64()? {
            0 => None,
            _ => Some(w.list()?),
        };
        let filters = w.list()?;
        let whole = LogTable::new(files, &format, field, &profile, threads)?;
        let n = whole.schema().fields().len();
        if kept.iter().flatten().chain(&filters).any(|&k| k >= n) {
            return Err(DataFusionError::Internal(
                "a log table's column is out of range".into(),
            ));
        }
        let table = match kept {
            None if filters.is_empty() => whole,
            None => whole.filtered(&(0..n).collect::<Vec<_>>(), &filters),
            Some(k) => whole.filtered(&k, &filters),
        };
        Ok((table, w.0))
    }
}

/// The log scan in `plan`, when it is one ([`LogTable::scan`]): its
/// table and its file groups' parts.
pub fn log_scan(plan: &dyn ExecutionPlan) -> Option<(&LogTable, &FileScanConfig)> {
    let exec = plan.downcast_ref::<DataSourceExec>()?;
    let source: &dyn std::any::Any = exec.data_source().as_ref();
    let config = source.downcast_ref::<FileScanConfig>()?;
    let file_source: &dyn std::any::Any = config.file_source().as_ref();
    let log = file_source.downcast_ref::<LogSource>()?;
    Some((&log.table, config))
}

/// Appends what makes the log scan `plan` again on another machine: its
/// table ([`LogTable::encode`], its threads those of each partition) and
/// its file groups as parts. `None` when `plan` is not a log scan.
pub fn encode_scan(plan: &dyn ExecutionPlan, out: &mut Vec<u8>) -> Option<Result<()>> {
    let (table, config) = log_scan(plan)?;
    Some(table.scan_parts(config).and_then(|parts| {
        table.encode(out)?;
        put_u64(out, parts.len() as u64);
        for p in &parts {
            put_list(out, &p.files);
            match p.range {
                None => put_u64(out, 0),
                Some((a, b)) => {
                    put_u64(out, 1);
                    put_u64(out, a);
                    put_u64(out, b);
                }
            }
        }
        Ok(())
    }))
}

/// The scan [`encode_scan`] wrote.
pub fn decode_scan(bytes: &[u8]) -> Result<Arc<DataSourceExec>> {
    let (table, rest) = LogTable::decode(bytes)?;
    let mut w = Wire(rest);
    let n = w.usize()?;
    let mut parts = Vec::new();
    for _ in 0..n {
        let files = w.list()?;
        if files.iter().any(|&k| k >= table.files.len()) {
            return Err(DataFusionError::Internal(
                "a log scan's file is out of range".into(),
            ));
        }
        let range = match w.u64()? {
            0 => None,
            _ => Some((w.u64()?, w.u64()?)),
        };
        parts.push(Part { files, range });
    }
    // The threads encoded are each partition's already.
    Ok(table.scan_in(&parts, table.threads))
}
