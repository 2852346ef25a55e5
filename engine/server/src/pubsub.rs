//! Pub/sub: who listens to which channel or pattern, and each subscriber's mailbox.
//!
//! PUBLISH puts a `Delivery` in the mailbox of every subscriber of the channel and of every
//! matching pattern; the subscriber's connection task takes it from there and writes it in
//! the subscriber's protocol (a RESP2 array or a RESP3 push). A subscriber that does not read
//! fast enough has at most `MAILBOX_LIMIT` bytes waiting: past that its mailbox is cut and
//! its connection closed (Redis' `client-output-buffer-limit pubsub`), so one slow client
//! never holds the server's memory.

pub mod notify;

use crate::client::ClientHandle;
use crate::glob;
use crate::resp::Reply;
use bytes::Bytes;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Bytes of messages that may wait for one subscriber (Redis' pubsub hard limit, 32 MB).
pub const MAILBOX_LIMIT: usize = 32 << 20;

/// A message on its way to one subscriber.
pub struct Delivery {
    /// The pattern that matched, for `pmessage`; None for `message`.
    pub pattern: Option<Bytes>,
    pub channel: Bytes,
    pub payload: Bytes,
}

impl Delivery {
    fn size(&self) -> usize {
        self.pattern.as_ref().map_or(0, |p| p.len()) + self.channel.len() + self.payload.len() + 64
    }
}

/// The sending side of one subscriber's mailbox.
pub struct Mailbox {
    tx: mpsc::UnboundedSender<Delivery>,
    queued: AtomicUsize,
    /// Set once the subscriber fell `MAILBOX_LIMIT` behind: its connection closes.
    pub cut: AtomicBool,
    /// The subscriber's connection, closed when the mailbox is cut (it may be stuck writing
    /// to a client that does not read).
    owner: Arc<ClientHandle>,
}

impl Mailbox {
    fn deliver(&self, delivery: Delivery) -> bool {
        if self.cut.load(Relaxed) {
            return false;
        }
        let size = delivery.size();
        if self.queued.fetch_add(size, Relaxed) + size > MAILBOX_LIMIT {
            self.cut.store(true, Relaxed);
            self.owner.kill();
            return false;
        }
        self.tx.send(delivery).is_ok()
    }
}

/// A connection's subscriptions and the receiving side of its mailbox.
pub struct Subscriptions {
    pub mailbox: Arc<Mailbox>,
    rx: mpsc::UnboundedReceiver<Delivery>,
    pub channels: BTreeSet<Bytes>,
    pub patterns: BTreeSet<Bytes>,
}

impl Subscriptions {
    pub fn new(owner: Arc<ClientHandle>) -> Subscriptions {
        let (tx, rx) = mpsc::unbounded_channel();
        Subscriptions {
            mailbox: Arc::new(Mailbox { tx, queued: AtomicUsize::new(0), cut: AtomicBool::new(false), owner }),
            rx,
            channels: BTreeSet::new(),
            patterns: BTreeSet::new(),
        }
    }

    /// Channels plus patterns: the count Redis puts in (un)subscribe replies.
    pub fn count(&self) -> usize {
        self.channels.len() + self.patterns.len()
    }

    /// The next message; None once the mailbox was cut for falling behind.
    pub async fn next(&mut self) -> Option<Delivery> {
        if self.mailbox.cut.load(Relaxed) {
            return None;
        }
        let delivery = self.rx.recv().await?;
        self.mailbox.queued.fetch_sub(delivery.size(), Relaxed);
        Some(delivery)
    }

    /// A message already waiting, if any (to send a burst in one write).
    pub fn try_next(&mut self) -> Option<Delivery> {
        let delivery = self.rx.try_recv().ok()?;
        self.mailbox.queued.fetch_sub(delivery.size(), Relaxed);
        Some(delivery)
    }
}

/// Writes a message as the subscriber's protocol wants it.
pub fn write_delivery(reply: &mut Reply, delivery: &Delivery) {
    match &delivery.pattern {
        None => {
            reply.push(3);
            reply.bulk(b"message");
        }
        Some(pattern) => {
            reply.push(4);
            reply.bulk(b"pmessage");
            reply.bulk(pattern);
        }
    }
    reply.bulk(&delivery.channel);
    reply.bulk(&delivery.payload);
}

/// Whether a command's replies are pushes ((P)(UN)SUBSCRIBE confirmations; RESP3 pushes, RESP2
/// arrays), which CLIENT REPLY OFF/SKIP does not silence.
pub fn replies_are_pushes(name: &[u8]) -> bool {
    ["subscribe", "psubscribe", "unsubscribe", "punsubscribe"].iter().any(|c| name.eq_ignore_ascii_case(c.as_bytes()))
}

/// Commands a RESP2 connection may send while subscribed (as Redis).
pub const ALLOWED_WHILE_SUBSCRIBED: &[&str] =
    &["subscribe", "psubscribe", "unsubscribe", "punsubscribe", "ping", "quit", "reset"];

type Listeners = HashMap<Bytes, HashMap<u64, Arc<Mailbox>>>;

/// Every subscription of the server. A clone shares them (the keyspace-notification hook the
/// store calls holds one).
#[derive(Default, Clone)]
pub struct PubSub {
    channels: Arc<Mutex<Listeners>>,
    patterns: Arc<Mutex<Listeners>>,
    /// notify-keyspace-events: which keyspace notifications are published (`notify::flags`).
    pub keyspace_events: Arc<std::sync::atomic::AtomicU32>,
}

fn lock(m: &Mutex<Listeners>) -> std::sync::MutexGuard<'_, Listeners> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl PubSub {
    fn table(&self, pattern: bool) -> &Mutex<Listeners> {
        if pattern {
            &self.patterns
        } else {
            &self.channels
        }
    }

    pub fn subscribe(&self, pattern: bool, name: &[u8], client: u64, mailbox: &Arc<Mailbox>) {
        lock(self.table(pattern)).entry(Bytes::copy_from_slice(name)).or_default().insert(client, mailbox.clone());
    }

    pub fn unsubscribe(&self, pattern: bool, name: &[u8], client: u64) {
        let mut table = lock(self.table(pattern));
        if let Some(listeners) = table.get_mut(name) {
            listeners.remove(&client);
            if listeners.is_empty() {
                table.remove(name);
            }
        }
    }

    /// PUBLISH: the number of subscribers that got the message. A subscriber whose mailbox is
    /// cut stops counting at once (its connection closes on its own time).
    pub fn publish(&self, channel: &[u8], payload: &[u8]) -> usize {
        let channel = Bytes::copy_from_slice(channel);
        let payload = Bytes::copy_from_slice(payload);
        let mut receivers = 0;
        let mut deliver = |listeners: &mut HashMap<u64, Arc<Mailbox>>, pattern: Option<&Bytes>| {
            listeners.retain(|_, mailbox| {
                let delivery = Delivery { pattern: pattern.cloned(), channel: channel.clone(), payload: payload.clone() };
                receivers += mailbox.deliver(delivery) as usize;
                !mailbox.cut.load(Relaxed)
            });
        };
        {
            let mut channels = lock(&self.channels);
            if let Some(listeners) = channels.get_mut(&channel) {
                deliver(listeners, None);
                if listeners.is_empty() {
                    channels.remove(&channel);
                }
            }
        }
        let mut patterns = lock(&self.patterns);
        for (pattern, listeners) in patterns.iter_mut() {
            if glob::matches(pattern, &channel, false) {
                deliver(listeners, Some(pattern));
            }
        }
        patterns.retain(|_, listeners| !listeners.is_empty());
        receivers
    }

    /// PUBSUB CHANNELS [pattern]: channels with at least one subscriber.
    pub fn active_channels(&self, pattern: Option<&[u8]>) -> Vec<Bytes> {
        let mut names: Vec<Bytes> = lock(&self.channels)
            .keys()
            .filter(|c| pattern.is_none_or(|p| glob::matches(p, c, false)))
            .cloned()
            .collect();
        names.sort();
        names
    }

    /// PUBSUB NUMSUB: subscribers of one channel.
    pub fn subscribers(&self, channel: &[u8]) -> usize {
        lock(&self.channels).get(channel).map_or(0, HashMap::len)
    }

    /// PUBSUB NUMPAT: distinct patterns with a subscriber.
    pub fn pattern_count(&self) -> usize {
        lock(&self.patterns).len()
    }

    /// Removes every subscription of a closing connection.
    pub fn forget(&self, client: u64, subs: &Subscriptions) {
        for channel in &subs.channels {
            self.unsubscribe(false, channel, client);
        }
        for pattern in &subs.patterns {
            self.unsubscribe(true, pattern, client);
        }
    }
}
