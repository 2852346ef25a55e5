//! UNSUBSCRIBE [channel ...]: stops listening to these channels (all of them without
//! arguments); one confirmation per channel with the remaining count.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    unsubscribe(ctx, args, false)
}

/// UNSUBSCRIBE and PUNSUBSCRIBE.
pub fn unsubscribe(ctx: &mut Ctx<'_>, args: Args<'_>, patterns: bool) -> CmdResult {
    let kind: &[u8] = if patterns { b"punsubscribe" } else { b"unsubscribe" };
    let id = ctx.session.id();
    let handle = ctx.session.handle.clone();
    let subs = ctx.session.subs.get_or_insert_with(|| crate::pubsub::Subscriptions::new(handle));
    let set = if patterns { &subs.patterns } else { &subs.channels };
    let names: Vec<Bytes> =
        if args.len() > 1 { args.iter().skip(1).map(Bytes::copy_from_slice).collect() } else { set.iter().cloned().collect() };
    if names.is_empty() {
        ctx.reply.push(3);
        ctx.reply.bulk(kind);
        ctx.reply.null();
        ctx.reply.int(subs.count() as i64);
    }
    for name in names {
        let set = if patterns { &mut subs.patterns } else { &mut subs.channels };
        if set.remove(&name) {
            ctx.shared.pubsub.unsubscribe(patterns, &name, id);
        }
        ctx.reply.push(3);
        ctx.reply.bulk(kind);
        ctx.reply.bulk(&name);
        ctx.reply.int(subs.count() as i64);
    }
    let (sub, psub) = (subs.channels.len(), subs.patterns.len());
    ctx.session.handle.update_meta(|m| (m.sub, m.psub) = (sub, psub));
    Ok(())
}
