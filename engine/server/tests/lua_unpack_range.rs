//! A script's `unpack` over a range near 2^31 elements: Lua 5.1 counts it in a C int whose
//! overflow check the compiler dropped, and the server process died (Redis' suite, scripting
//! "Test table unpack with invalid indexes"). It is refused with Lua's own error, as Redis
//! answers (`user_script:1: too many results to unpack`), and the server goes on.

mod common;

use common::TestServer;

#[tokio::test]
async fn unpack_of_a_huge_range_is_an_error_not_a_crash() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for script in [
        "return {unpack({1,2,3}, -2, 2147483647)}",
        "return {unpack({1,2,3}, 0, 2147483647)}",
        "return {unpack({1,2,3}, -2147483648, -2)}",
        "return {unpack({1,2,3}, 1, 9000)}",
    ] {
        let reply = c.call(&[b"EVAL", script.as_bytes(), b"0"]).await;
        assert!(reply.starts_with(b"-ERR user_script:1: too many results to unpack"), "{script}: {}", String::from_utf8_lossy(&reply));
    }
    // Ranges Lua can hold keep Lua's answers (bytes as redis-server 7.0.15).
    for (script, expected) in [
        ("return {unpack({1,2,3}, -1, -2)}", &b"*0\r\n"[..]),
        ("return {unpack({1,2,3}, 2)}", b"*2\r\n:2\r\n:3\r\n"),
        ("return {unpack({1,2,3})}", b"*3\r\n:1\r\n:2\r\n:3\r\n"),
    ] {
        assert_eq!(c.call(&[b"EVAL", script.as_bytes(), b"0"]).await, expected, "{script}");
    }
    c.expect(b"*1\r\n$4\r\nPING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}
