//! Integration tests of the `rtfs` crate: the bounds on evaluation, the
//! seed examples, the print/parse round trip (property-tested), diagnostic
//! snapshots, the examples of the language reference (`docs/rtfs.md`) and
//! the RTFS 2.0 conformance suite (`tests/conformance/`).

mod bounds;
mod conformance;
mod diagnostics;
mod docs;
mod roundtrip;
mod seeds;
