//! Pub/sub at the wire: SUBSCRIBE, PSUBSCRIBE, UNSUBSCRIBE, PUNSUBSCRIBE, PUBLISH and PUBSUB
//! with exact bytes, in RESP2 (subscribed context) and RESP3 (pushes between replies), and
//! the ACL channel rules.

mod common;

use common::TestServer;

#[tokio::test]
async fn subscribe_publish_unsubscribe_resp2() {
    let server = TestServer::start().await;
    let mut sub = server.client().await;
    let mut publisher = server.client().await;
    sub.expect(
        b"SUBSCRIBE news sport\r\n",
        b"*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n*3\r\n$9\r\nsubscribe\r\n$5\r\nsport\r\n:2\r\n",
    )
    .await;
    sub.expect(b"PSUBSCRIBE n*\r\n", b"*3\r\n$10\r\npsubscribe\r\n$2\r\nn*\r\n:3\r\n").await;
    publisher.expect(b"PUBLISH news hello\r\n", b":2\r\n").await;
    sub.expect(b"", b"*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$5\r\nhello\r\n").await;
    publisher.expect(b"PUBLISH nobody x\r\n", b":1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$6\r\nnobody\r\n$1\r\nx\r\n").await;
    publisher.expect(b"PUBLISH other x\r\n", b":0\r\n").await;
    // Only pub/sub commands while subscribed in RESP2; PING answers as a message.
    sub.expect(
        b"GET k\r\n",
        b"-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n",
    )
    .await;
    sub.expect(b"PING\r\n", b"*2\r\n$4\r\npong\r\n$0\r\n\r\n").await;
    publisher.expect(b"PUBSUB CHANNELS\r\n", b"*2\r\n$4\r\nnews\r\n$5\r\nsport\r\n").await;
    publisher.expect(b"PUBSUB CHANNELS s*\r\n", b"*1\r\n$5\r\nsport\r\n").await;
    publisher.expect(b"PUBSUB NUMSUB news none\r\n", b"*4\r\n$4\r\nnews\r\n:1\r\n$4\r\nnone\r\n:0\r\n").await;
    publisher.expect(b"PUBSUB NUMPAT\r\n", b":1\r\n").await;
    sub.expect(b"UNSUBSCRIBE news\r\n", b"*3\r\n$11\r\nunsubscribe\r\n$4\r\nnews\r\n:2\r\n").await;
    sub.expect(b"PUNSUBSCRIBE\r\n", b"*3\r\n$12\r\npunsubscribe\r\n$2\r\nn*\r\n:1\r\n").await;
    sub.expect(b"UNSUBSCRIBE\r\n", b"*3\r\n$11\r\nunsubscribe\r\n$5\r\nsport\r\n:0\r\n").await;
    sub.expect(b"UNSUBSCRIBE\r\n", b"*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n").await;
    // Out of the subscribed context: ordinary commands again.
    sub.expect(b"GET k\r\n", b"$-1\r\n").await;
    publisher.expect(b"PUBLISH news x\r\n", b":0\r\n").await;
    // A closed subscriber is forgotten.
    sub.expect(b"SUBSCRIBE gone\r\n", b"*3\r\n$9\r\nsubscribe\r\n$4\r\ngone\r\n:1\r\n").await;
    drop(sub);
    for _ in 0..100 {
        publisher.send(b"PUBSUB NUMSUB gone\r\n").await;
        if publisher.next_reply().await == b"*2\r\n$4\r\ngone\r\n:0\r\n" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    publisher.expect(b"PUBLISH gone x\r\n", b":0\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn resp3_pushes_between_replies() {
    let server = TestServer::start().await;
    let mut sub = server.client().await;
    let mut publisher = server.client().await;
    sub.send(b"HELLO 3\r\n").await;
    sub.read_reply().await;
    sub.expect(b"SUBSCRIBE ch\r\n", b">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n").await;
    // RESP3 clients may run any command while subscribed.
    sub.expect(b"SET k v\r\n", b"+OK\r\n").await;
    publisher.expect(b"PUBLISH ch m\r\n", b":1\r\n").await;
    sub.expect(b"", b">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$1\r\nm\r\n").await;
    sub.expect(b"PING\r\n", b"+PONG\r\n").await;
    sub.expect(b"PUBSUB NUMSUB ch\r\n", b"%1\r\n$2\r\nch\r\n:1\r\n").await;
    sub.expect(b"RESET\r\n", b"+RESET\r\n").await;
    publisher.expect(b"PUBLISH ch m\r\n", b":0\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn many_messages_arrive_in_order() {
    let server = TestServer::start().await;
    let mut sub = server.client().await;
    let mut publisher = server.client().await;
    sub.expect(b"SUBSCRIBE c\r\n", b"*3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n").await;
    let mut burst = Vec::new();
    for i in 0..2000 {
        burst.extend_from_slice(format!("PUBLISH c {i}\r\n").as_bytes());
    }
    publisher.send(&burst).await;
    for i in 0..2000 {
        let text = i.to_string();
        let expected = format!("*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n${}\r\n{text}\r\n", text.len());
        assert_eq!(String::from_utf8(sub.next_reply().await).unwrap(), expected);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_subscriber_that_does_not_read_is_cut_off() {
    let server = TestServer::start().await;
    let mut slow = server.client().await;
    let mut publisher = server.client().await;
    slow.expect(b"SUBSCRIBE firehose\r\n", b"*3\r\n$9\r\nsubscribe\r\n$8\r\nfirehose\r\n:1\r\n").await;
    // 64 KB messages until the subscriber's 32 MB mailbox (plus what the socket holds) is full:
    // PUBLISH then counts no receiver, and the subscriber's connection is closed.
    let payload = "p".repeat(64 * 1024);
    let mut cut_after = None;
    for i in 0..4000 {
        publisher.send(format!("PUBLISH firehose {payload}\r\n").as_bytes()).await;
        if publisher.next_reply().await == b":0\r\n" {
            cut_after = Some(i);
            break;
        }
    }
    let cut_after = cut_after.expect("the slow subscriber was never cut off");
    assert!(cut_after >= 32 * 16, "cut after {cut_after} messages, before 32 MB were waiting");
    publisher.expect(b"PUBSUB NUMSUB firehose\r\n", b"*2\r\n$8\r\nfirehose\r\n:0\r\n").await;
    // The slow client finds its connection closed once it reads what was sent before the cut.
    let mut closed = false;
    for _ in 0..200 {
        let mut buf = vec![0u8; 1 << 20];
        match tokio::time::timeout(std::time::Duration::from_secs(5), tokio::io::AsyncReadExt::read(&mut slow.stream, &mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                closed = true;
                break;
            }
            Ok(Ok(_)) => continue,
            Err(_) => break,
        }
    }
    assert!(closed, "the cut subscriber's connection is closed");
    server.stop().await;
}
