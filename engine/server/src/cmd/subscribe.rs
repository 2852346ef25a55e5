//! SUBSCRIBE channel [channel ...]: messages published to these channels arrive on this
//! connection (RESP2: as arrays, and only pub/sub commands are allowed meanwhile; RESP3: as
//! pushes between ordinary replies).

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::pubsub::Subscriptions;
use crate::resp::Args;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    subscribe(ctx, args, false)
}

/// SUBSCRIBE and PSUBSCRIBE: one confirmation per name, with the running count.
pub fn subscribe(ctx: &mut Ctx<'_>, args: Args<'_>, patterns: bool) -> CmdResult {
    let names: Vec<&[u8]> = args.iter().skip(1).collect();
    permit(ctx, &names, patterns)?;
    let id = ctx.session.id();
    let handle = ctx.session.handle.clone();
    let subs = ctx.session.subs.get_or_insert_with(|| Subscriptions::new(handle));
    for name in names {
        let set = if patterns { &mut subs.patterns } else { &mut subs.channels };
        if set.insert(Bytes::copy_from_slice(name)) {
            ctx.shared.pubsub.subscribe(patterns, name, id, &subs.mailbox);
        }
        ctx.reply.push(3);
        ctx.reply.bulk(if patterns { b"psubscribe" } else { b"subscribe" });
        ctx.reply.bulk(name);
        ctx.reply.int(subs.count() as i64);
    }
    let (sub, psub) = (subs.channels.len(), subs.patterns.len());
    ctx.session.handle.update_meta(|m| (m.sub, m.psub) = (sub, psub));
    Ok(())
}

/// The user's `&` rules allow these channels (or patterns).
pub fn permit(ctx: &Ctx<'_>, names: &[&[u8]], patterns: bool) -> CmdResult {
    if let Some(acl) = ctx.shared.auth.acl() {
        let user = ctx.session.user.as_deref().unwrap_or("default");
        acl.permit_channels(user, names, patterns).map_err(|denied| CmdError::msg(denied.to_string()))?;
    }
    Ok(())
}
