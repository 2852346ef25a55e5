//! ACL channel rules (`&pattern`) at the wire: PUBLISH and SUBSCRIBE need a matching channel
//! pattern, PSUBSCRIBE an identical one (Redis 7), `allchannels` allows every channel.

mod security_support;

use security_support::{start, TempDir};

const NOPERM_CHANNEL: &str = "-NOPERM No permissions to access a channel\r\n";

#[tokio::test]
async fn channel_rules_bound_publish_and_subscribe() {
    let dir = TempDir::new("pubsub-acl");
    let server = start(&dir, &[("requirepass", "s3cret")]).await;
    let mut admin = server.client().await;
    assert_eq!(admin.call(&["AUTH", "s3cret"]).await, "+OK\r\n");
    assert_eq!(admin.call(&["ACL", "SETUSER", "news", "on", ">pw", "&news.*", "+@pubsub", "+@connection"]).await, "+OK\r\n");
    let mut c = server.client().await;
    assert_eq!(c.call(&["AUTH", "news", "pw"]).await, "+OK\r\n");
    assert_eq!(c.call(&["PUBLISH", "news.tech", "m"]).await, ":0\r\n");
    assert_eq!(c.call(&["PUBLISH", "sport", "m"]).await, NOPERM_CHANNEL);
    assert_eq!(c.call(&["SUBSCRIBE", "news.tech", "sport"]).await, NOPERM_CHANNEL);
    assert_eq!(c.call(&["PSUBSCRIBE", "news.t*"]).await, NOPERM_CHANNEL);
    assert_eq!(c.call(&["PSUBSCRIBE", "news.*"]).await, "*3\r\n$10\r\npsubscribe\r\n$6\r\nnews.*\r\n:1\r\n");
    assert_eq!(admin.call(&["ACL", "SETUSER", "news", "allchannels"]).await, "+OK\r\n");
    let mut d = server.client().await;
    assert_eq!(d.call(&["AUTH", "news", "pw"]).await, "+OK\r\n");
    assert_eq!(d.call(&["PUBLISH", "sport", "m"]).await, ":0\r\n");
    server.stop().await;
}
