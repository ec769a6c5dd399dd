//! Ballista: the functions on a cluster. Ballista ships plans by function
//! name, so the client's session, the scheduler's sessions and every
//! executor's function registry must all hold them; this module makes
//! each of the three (through Ballista's override points) and runs the
//! scheduler and executor processes of `urilex-sql`.

use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::utils::default_session_builder;
use datafusion::common::Result;
use datafusion::execution::context::SessionState;
use datafusion::execution::FunctionRegistry;
use datafusion::prelude::SessionConfig;
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
    let config = SchedulerConfig::default()
        .with_hostname(addr.ip().to_string())
        .with_port(addr.port())
        .with_override_session_builder(Arc::new(session_state));
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
    let state = session_state(config.upgrade_for_ballista())?;
    let ctx = datafusion::prelude::SessionContext::remote_with_state(url, state).await?;
    // Ballista's upgrade of the state puts its own list of functions in
    // place of the state's: the urilex ones go back on after it.
    for f in cluster_udfs() {
        ctx.register_udf(f.as_ref().clone());
    }
    Ok(ctx)
}
