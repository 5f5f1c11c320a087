//! Execution outcomes: record, count, list.

use ccos_store::OutcomeKind;

use crate::common::{Eng, fresh};

crate::engine_tests!(record_and_count_outcomes);

async fn record_and_count_outcomes(eng: Eng) {
    let Some(db) = fresh(eng).await else { return };
    let s = &db.store;
    assert_eq!(s.outcome_stats("ccos.echo").await.unwrap(), (0, 0));
    for ok in [true, true, false, true] {
        s.record_outcome("ccos.echo", OutcomeKind::Capability, ok, Some("run-1"))
            .await
            .unwrap();
    }
    s.record_outcome("agent.a", OutcomeKind::Agent, false, None)
        .await
        .unwrap();
    assert_eq!(s.outcome_stats("ccos.echo").await.unwrap(), (3, 1));
    assert_eq!(s.outcome_stats("agent.a").await.unwrap(), (0, 1));
    let list = s.outcomes("ccos.echo").await.unwrap();
    assert_eq!(list.len(), 4);
    assert!(!list[2].ok);
    assert_eq!(list[0].kind, "capability");
    assert_eq!(list[0].run_id.as_deref(), Some("run-1"));
    assert!(
        s.record_outcome(" ", OutcomeKind::Agent, true, None)
            .await
            .is_err()
    );
}
