//! The process's live heap, as a run budget.
//!
//! Values built by a plan are bounded one by one (`rtfs::Limits`), but a
//! plan can keep many of them alive at once (each frame of a deep recursion
//! holding a large list). What bounds *live* memory is this module: the
//! binary counts its allocations (the `ccos` binary installs a counting
//! global allocator and registers it with [`install_probe`]) and a run's
//! host asks a [`HeapBudget`] at every poll whether the heap grew past the
//! run's allowance since the run began.
//!
//! A library embedding ccos without a counting allocator has no probe:
//! [`live_bytes`] is `None` and every budget holds. The measure is the
//! whole process, so concurrent runs in one process (`ccos mcp serve`)
//! share one allowance.
//!
//! ```
//! use ccos_core::heap::HeapBudget;
//!
//! // Without a probe (as in this doctest) a budget never fails.
//! let budget = HeapBudget::starting_now(1 << 20);
//! assert!(budget.check().is_ok());
//! ```

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

static PROBE: OnceLock<fn() -> usize> = OnceLock::new();

/// Live heap above which every budget fails (0: none): set by the binary
/// from the process's address-space limit, so a budget larger than the
/// machine allows still ends in a clean error, not an aborting allocation.
static CEILING: AtomicUsize = AtomicUsize::new(0);

/// Sets the live-heap ceiling every [`HeapBudget`] also enforces.
pub fn set_ceiling(bytes: usize) {
    CEILING.store(bytes, Ordering::Relaxed);
}

/// Registers how to read the live heap (bytes currently allocated). The
/// first registration wins; returns whether this one did.
pub fn install_probe(probe: fn() -> usize) -> bool {
    PROBE.set(probe).is_ok()
}

/// Bytes currently allocated on the heap, when the binary counts them.
pub fn live_bytes() -> Option<usize> {
    PROBE.get().map(|probe| probe())
}

/// An allowance of heap growth, measured from when it was made.
#[derive(Debug, Clone, Copy)]
pub struct HeapBudget {
    baseline: usize,
    max_growth: u64,
}

/// A [`HeapBudget`] was exceeded: the heap grew by `grown` bytes, more than
/// the allowed `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapExceeded {
    /// Growth since the budget was made, in bytes.
    pub grown: u64,
    /// The allowance, in bytes.
    pub max: u64,
}

impl std::fmt::Display for HeapExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "live memory grew by {} MiB, over the allowance of {} MiB",
            self.grown >> 20,
            self.max >> 20
        )
    }
}

impl HeapBudget {
    /// A budget allowing the heap to grow by `max_growth` bytes from now.
    pub fn starting_now(max_growth: u64) -> Self {
        HeapBudget {
            baseline: live_bytes().unwrap_or(0),
            max_growth,
        }
    }

    /// `Err` when the heap grew past the allowance (never without a probe).
    pub fn check(&self) -> Result<(), HeapExceeded> {
        let Some(now) = live_bytes() else {
            return Ok(());
        };
        let grown = now.saturating_sub(self.baseline) as u64;
        let ceiling = CEILING.load(Ordering::Relaxed);
        if ceiling > 0 && now > ceiling {
            return Err(HeapExceeded {
                grown,
                max: (ceiling.saturating_sub(self.baseline) as u64).min(self.max_growth),
            });
        }
        if grown > self.max_growth {
            return Err(HeapExceeded {
                grown,
                max: self.max_growth,
            });
        }
        Ok(())
    }
}
