//! Integration tests of the `rtfs` crate: the seed examples, the
//! print/parse round trip (property-tested), diagnostic snapshots and the
//! examples of the language reference (`docs/rtfs.md`).

mod diagnostics;
mod docs;
mod roundtrip;
mod seeds;
