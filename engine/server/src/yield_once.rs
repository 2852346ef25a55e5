//! A reply that needs no log write waits one turn of the scheduler before it is sent, as a
//! write's reply already does (storage's `DurableWait` yields once before it writes the log
//! out).
//!
//! Why: Redis reads every client that is ready, runs their commands, and only then writes the
//! replies (`beforeSleep`); its clients get their replies together and send their next
//! requests together. A connection that answered at once woke the client for each reply. On
//! two cores shared with a two-thread client (issue 17's speed table) that left the client's
//! threads waiting for a core: the kernel's scheduler showed them waiting 0.75-1.2 ms on
//! average behind the server's threads (Redis: 0.13 ms), and 128 B ping-pong reads had a p99
//! of 4.3 ms (Redis 1.7-2.2). With the turn: 2.5-3.0 ms, at the same ops/s
//! (bench/README.md, "Tail latency on two shared cores").
//!
//! The turn is a wake of the task by itself: tokio puts it at the back of its worker's run
//! queue, behind every connection already woken (not after the next poll of the I/O driver,
//! as `tokio::task::yield_now` would).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Pending once (after waking its own task), then ready.
pub fn yield_once() -> YieldOnce {
    YieldOnce { yielded: false }
}

pub struct YieldOnce {
    yielded: bool,
}

impl Future for YieldOnce {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.yielded, true) {
            return Poll::Ready(());
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    use std::sync::Arc;

    #[tokio::test(flavor = "current_thread")]
    async fn a_task_woken_before_the_turn_runs_before_the_turn_ends() {
        let order = Arc::new(AtomicUsize::new(0));
        let other = {
            let order = order.clone();
            tokio::spawn(async move { order.compare_exchange(0, 1, SeqCst, SeqCst).is_ok() })
        };
        yield_once().await;
        let ran_first = order.compare_exchange(0, 2, SeqCst, SeqCst).is_err();
        assert!(ran_first, "the spawned task had not run when the turn ended");
        assert!(other.await.unwrap());
    }
}
