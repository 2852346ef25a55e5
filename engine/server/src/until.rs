//! [`until`]: runs a connection's future until a rare stop signal (shutdown, CLIENT KILL)
//! resolves, polling the signal only when it was woken.
//!
//! `tokio::select!` polls every branch each time the task wakes, in random order: a connection
//! woken once per request polled its shutdown watch (a lock and a notify registration) and its
//! kill notify every time, and drew a random number to pick the order, about 8 % of a ping-pong
//! request's instructions. Here the stop future gets a waker of its own, which marks it woken
//! and wakes the task; the task polls it only then (and once at the start, so it registers).

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

/// The stop future's waker: remembers that it fired and wakes the task running `until`.
#[derive(Default)]
struct Signal {
    woken: AtomicBool,
    task: Mutex<Option<Waker>>,
}

impl Signal {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Waker>> {
        self.task.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Wake for Signal {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref()
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Marked before the task is woken: the poll that follows sees it.
        self.woken.store(true, SeqCst);
        if let Some(task) = self.lock().as_ref() {
            task.wake_by_ref();
        }
    }
}

/// `main`'s output, or None if `stop` resolved first (then `main` is dropped unfinished).
pub async fn until<F: Future, S: Future>(main: F, stop: S) -> Option<F::Output> {
    let mut main = pin!(main);
    let mut stop = pin!(stop);
    let signal = Arc::new(Signal::default());
    let stop_waker = Waker::from(signal.clone());
    let mut registered = false;
    std::future::poll_fn(|cx| {
        {
            let mut task = signal.lock();
            if !task.as_ref().is_some_and(|t| t.will_wake(cx.waker())) {
                *task = Some(cx.waker().clone());
            }
        }
        if !registered || signal.woken.swap(false, SeqCst) {
            registered = true;
            if stop.as_mut().poll(&mut Context::from_waker(&stop_waker)).is_ready() {
                return Poll::Ready(None);
            }
        }
        main.as_mut().poll(cx).map(Some)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::sync::Notify;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_main_future_finishes_when_nothing_stops_it() {
        let stop = Notify::new();
        let out = until(async { tokio::time::sleep(Duration::from_millis(20)).await; 7 }, stop.notified()).await;
        assert_eq!(out, Some(7));
    }

    /// A stop that fires while the main future waits (woken from another thread) ends it, every
    /// time, also when it fires before the first poll or between two wakes of the main future.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stop_from_another_task_ends_a_waiting_main_future() {
        for round in 0..200u64 {
            let stop = Arc::new(Notify::new());
            let ticks = Arc::new(Notify::new());
            let (s, t) = (stop.clone(), ticks.clone());
            let firing = tokio::spawn(async move {
                for _ in 0..round % 5 {
                    t.notify_one();
                    tokio::task::yield_now().await;
                }
                s.notify_one();
            });
            let main = async {
                loop {
                    ticks.notified().await;
                }
            };
            let out: Option<()> = tokio::time::timeout(Duration::from_secs(5), until(main, stop.notified())).await.expect("stopped");
            assert_eq!(out, None, "round {round}");
            firing.await.unwrap();
        }
    }
}
