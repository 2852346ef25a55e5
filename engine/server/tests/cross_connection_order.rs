//! Commands sent on two connections are mostly run in the order they were sent, as Redis'
//! single event loop runs them. Celery leans on it: its result consumer sends SUBSCRIBE on one
//! connection without waiting for the reply, then GETs the task's state on another; if the
//! GET ran first and the task finished in between, the PUBLISH found no subscriber and the
//! consumer waited for ever (a kill -9 test of e2e/engine/celery.test.ts hung on it under
//! load). The runtime's LIFO slot ran the last socket woken first, reversing two connections
//! that became readable in one poll (half the pairs or more here); main.rs turns it off.
//!
//! Two worker threads may still run both connections at once, so some pairs cross, as they
//! can in Redis under load. Pairs sent 1 µs apart (this test), of 2,000: with the LIFO slot
//! 982-1,448 crossed, without it 71-296; the test allows 500. Pairs sent from Python (about
//! as far apart as Celery sends them), of 5,000: Redis 7 crossed 0 idle and 96 beside four
//! busy loops; basalt-server with the LIFO slot 1,586 and 3,521, without it 27 and 1.

mod spawned;
use spawned::*;

const PAIRS: usize = 2000;

#[test]
fn a_subscribe_sent_first_is_run_first() {
    let dir = TempDir::new("order");
    let engine = Engine::start(&dir.0, &["--threads", "2"]);
    let mut subscriber = engine.connect();
    let mut asker = engine.connect();
    let mut crossed = 0;
    for i in 0..PAIRS {
        let channel = format!("celery-task-meta-{i}");
        let mut out = Vec::new();
        encode(&[b"SUBSCRIBE", channel.as_bytes()], &mut out);
        subscriber.send(&out).expect("send SUBSCRIBE");
        // Sent after the SUBSCRIBE, without waiting for its reply (as Celery does).
        match asker.cmd(&[b"PUBSUB", b"NUMSUB", channel.as_bytes()]) {
            Reply::Array(items) if items.get(1) == Some(&Reply::Int(1)) => {}
            Reply::Array(_) => crossed += 1,
            other => panic!("PUBSUB NUMSUB: {other:?}"),
        }
        subscriber.read().expect("subscribe confirmation");
        out.clear();
        encode(&[b"UNSUBSCRIBE", channel.as_bytes()], &mut out);
        subscriber.send(&out).expect("send UNSUBSCRIBE");
        subscriber.read().expect("unsubscribe confirmation");
    }
    eprintln!("{crossed} of {PAIRS} crossed");
    assert!(crossed * 4 <= PAIRS, "{crossed} of {PAIRS} NUMSUB ran before the SUBSCRIBE sent ahead of them");
}
