//! Only tests live here (tests/adversarial.rs).
