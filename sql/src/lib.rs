//! urilex's URI functions for Apache DataFusion and Ballista.
//!
//! [`register`] adds every function to a `SessionContext`; on a Ballista
//! cluster the scheduler and each executor must know them too (plans
//! travel by function name): [`ballista`] has what their processes need.
//!
//! Each function parses its column with urilex's batch engine over the
//! column's values and offsets at once (no copy of a `Utf8` or
//! `LargeUtf8` column, no allocation per row), and returns parts of the
//! references as `Utf8View` values that point into the input's buffers.

pub mod cluster;
mod functions;
pub mod table;

pub use functions::udfs;
pub use urilex_columns::FUNCTIONS;

use datafusion::execution::context::SessionContext;

/// Registers every urilex function on `ctx`.
pub fn register(ctx: &SessionContext) {
    for f in udfs() {
        ctx.register_udf(f.as_ref().clone());
    }
}
