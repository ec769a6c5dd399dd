//! Ballista: the functions on a cluster. Ballista ships plans by function
//! name, so the client's session, the scheduler's sessions and every
//! executor's function registry must all hold them; this module makes
//! each of the three (through Ballista's override points) and runs the
//! scheduler and executor processes of `urilex-sql`.
//!
//! Log tables travel too: the client's plan carries a [`LogProvider`]
//! to the scheduler ([`LogicalCodec`]), whose scan is a
//! `DataSourceExec` of file groups (files, byte ranges of a file) that
//! goes to the executors ([`PhysicalCodec`]); each executor reads and
//! parses the files of its tasks by their paths.

use crate::table::{decode_scan, encode_scan, LogProvider, LogTable};
use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use ballista_core::utils::default_session_builder;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{Result, TableReference};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::execution::context::SessionState;
use datafusion::execution::{FunctionRegistry, TaskContext};
use datafusion::logical_expr::{Extension, LogicalPlan};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionConfig;
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};
use std::net::SocketAddr;
use std::sync::Arc;

/// Adds every urilex function to `state`.
pub fn register_state(state: &mut SessionState) -> Result<()> {
    for f in cluster_udfs() {
        state.register_udf(f)?;
    }
    Ok(())
}

/// The functions a cluster's processes add: urilex's, and with the
/// `bench` feature also datafusion-spark's (the benchmark's peer runs on
/// the same cluster).
fn cluster_udfs() -> Vec<Arc<datafusion::logical_expr::ScalarUDF>> {
    #[allow(unused_mut)]
    let mut fs = crate::udfs();
    #[cfg(feature = "bench")]
    fs.extend(datafusion_spark::all_default_scalar_functions());
    fs
}

/// Ballista's default session for `config`, with the urilex functions:
/// the scheduler's sessions (`SchedulerConfig::with_override_session_builder`).
pub fn session_state(config: SessionConfig) -> Result<SessionState> {
    let mut state = default_session_builder(config)?;
    register_state(&mut state)?;
    Ok(state)
}

/// Ballista's default function registry, with the urilex functions: the
/// executors' (`ExecutorProcessConfig::override_function_registry`).
pub fn function_registry() -> BallistaFunctionRegistry {
    let mut r = BallistaFunctionRegistry::default();
    for f in cluster_udfs() {
        r.scalar_functions.insert(f.name().to_string(), f);
    }
    r
}

/// Runs a scheduler on `addr` until the process ends.
pub async fn run_scheduler(addr: SocketAddr) -> ballista_core::error::Result<()> {
    use ballista_scheduler::cluster::BallistaCluster;
    use ballista_scheduler::config::SchedulerConfig;
    let mut config = SchedulerConfig::default()
        .with_hostname(addr.ip().to_string())
        .with_port(addr.port())
        .with_override_session_builder(Arc::new(session_state));
    config.override_logical_codec = Some(Arc::new(LogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(PhysicalCodec::default()));
    let cluster = BallistaCluster::new_from_config(&config).await?;
    ballista_scheduler::scheduler_process::start_server(cluster, addr, Arc::new(config)).await
}

/// Where an executor listens and whom it serves.
#[derive(Clone, Debug)]
pub struct ExecutorOptions {
    /// The address it binds.
    pub bind_host: String,
    /// Its Arrow Flight port (shuffle data).
    pub port: u16,
    /// Its gRPC port (tasks).
    pub grpc_port: u16,
    /// The scheduler.
    pub scheduler_host: String,
    pub scheduler_port: u16,
    /// Tasks at once.
    pub concurrent_tasks: usize,
    /// Where shuffle files go (a temporary folder when `None`).
    pub work_dir: Option<String>,
}

/// Runs an executor until the process ends.
pub async fn run_executor(o: ExecutorOptions) -> ballista_core::error::Result<()> {
    use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
    let config = ExecutorProcessConfig {
        bind_host: o.bind_host.clone(),
        external_host: Some(o.bind_host),
        port: o.port,
        grpc_port: o.grpc_port,
        scheduler_host: o.scheduler_host,
        scheduler_port: o.scheduler_port,
        vcores: o.concurrent_tasks.max(1),
        work_dir: o.work_dir,
        override_function_registry: Some(Arc::new(function_registry())),
        override_logical_codec: Some(Arc::new(LogicalCodec::default())),
        override_physical_codec: Some(Arc::new(PhysicalCodec::default())),
        ..ExecutorProcessConfig::default()
    };
    start_executor_process(Arc::new(config)).await
}

/// A client session on the scheduler at `url` (`df://host:port`) whose
/// plans carry the urilex functions.
pub async fn remote_context(
    url: &str,
    config: SessionConfig,
) -> Result<datafusion::prelude::SessionContext> {
    use ballista::prelude::{SessionConfigExt, SessionContextExt};
    let config = config
        .upgrade_for_ballista()
        .with_ballista_logical_extension_codec(Arc::new(LogicalCodec::default()))
        .with_ballista_physical_extension_codec(Arc::new(PhysicalCodec::default()));
    let state = session_state(config)?;
    let ctx = datafusion::prelude::SessionContext::remote_with_state(url, state).await?;
    // Ballista's upgrade of the state puts its own list of functions in
    // place of the state's: the urilex ones go back on after it.
    for f in cluster_udfs() {
        ctx.register_udf(f.as_ref().clone());
    }
    Ok(ctx)
}

/// Ballista's logical codec, and log tables: a [`LogProvider`] travels as
/// [`LogTable::encode`] writes it; everything else as Ballista's.
#[derive(Debug, Default)]
pub struct LogicalCodec {
    ballista: BallistaLogicalExtensionCodec,
}

impl LogicalExtensionCodec for LogicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> Result<Extension> {
        self.ballista.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.ballista.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        if LogTable::is_encoded(buf) {
            let (table, _) = LogTable::decode(buf)?;
            return Ok(Arc::new(table.provider()?));
        }
        self.ballista
            .try_decode_table_provider(buf, table_ref, schema, ctx)
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        if let Some(p) = node.downcast_ref::<LogProvider>() {
            return p.table().encode(buf);
        }
        self.ballista
            .try_encode_table_provider(table_ref, node, buf)
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> Result<Arc<dyn FileFormatFactory>> {
        self.ballista.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> Result<()> {
        self.ballista.try_encode_file_format(buf, node)
    }
}

/// Ballista's physical codec, and log scans: a log table's scan (a
/// `DataSourceExec`, [`LogTable::scan`]) travels as [`encode_scan`] writes
/// it, with the file groups the scheduler left it (a task's own);
/// everything else as Ballista's.
#[derive(Debug, Default)]
pub struct PhysicalCodec {
    ballista: BallistaPhysicalExtensionCodec,
}

impl PhysicalExtensionCodec for PhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if LogTable::is_encoded(buf) {
            return Ok(decode_scan(buf)?);
        }
        self.ballista.try_decode(buf, inputs, ctx, converter)
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        if let Some(done) = encode_scan(node.as_ref(), buf) {
            return done;
        }
        self.ballista.try_encode(node, buf, converter)
    }
}
