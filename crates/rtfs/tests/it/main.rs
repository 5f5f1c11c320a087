//! Integration tests of the `rtfs` crate: the seed examples, the
//! print/parse round trip (property-tested) and diagnostic snapshots.

mod diagnostics;
mod roundtrip;
mod seeds;
