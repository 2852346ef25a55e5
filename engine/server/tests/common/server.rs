//! Servers inside the test process: `ServerTask` is a started server's accept loop, which a
//! test stops by asking for a shutdown; `TestServer` is the RESP server alone (no users,
//! allowlist or extra ports) on 127.0.0.1:0 with its own temp dir.

use super::client::{connect, Client};
use super::temp_dir::TempDir;
use basalt_server::{Config, Server, ServerError, Shared};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// A server's accept loop running on the test's runtime, and the state to ask it to stop.
pub struct ServerTask {
    pub shared: Arc<Shared>,
    pub task: tokio::task::JoinHandle<Result<(), ServerError>>,
}

impl ServerTask {
    pub fn spawn(shared: Arc<Shared>, run: impl Future<Output = Result<(), ServerError>> + Send + 'static) -> ServerTask {
        ServerTask { shared, task: tokio::spawn(run) }
    }

    /// Asks for a shutdown and waits up to 10 s for the accept loop to end.
    pub async fn stop(self) {
        self.shared.request_shutdown();
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub running: ServerTask,
    pub dir: TempDir,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::start_with(|_| {}).await
    }

    /// Starts with the defaults on port 0 and the temp dir, as changed by `tweak`.
    pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> TestServer {
        let dir = TempDir::new("wire");
        let mut config = Config { port: 0, dir: dir.0.clone(), ..Config::default() };
        tweak(&mut config);
        let server = Server::bind(config).await.expect("bind");
        let addr = server.local_addr();
        let running = ServerTask::spawn(server.shared.clone(), server.run());
        TestServer { addr, running, dir }
    }

    pub async fn client(&self) -> Client {
        connect(self.addr).await
    }

    pub async fn stop(self) {
        self.running.stop().await;
    }
}
