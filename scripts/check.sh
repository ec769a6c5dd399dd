#!/usr/bin/env bash
# Fast pre-commit gate: formatting and lints (the tests run in .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo clippy --workspace --all-targets -q -- -D warnings
cargo clippy -p urilex --all-targets -q -- -D warnings
