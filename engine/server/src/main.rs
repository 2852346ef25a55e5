//! `basalt-server [--config FILE] [--bind ADDR] [--port N] [--dir PATH]
//! [--fsync always|everysec|no] [--maxmemory BYTES] [--threads N]`, or `-v` / `--version`

use basalt_server::Config;
use std::process::ExitCode;

/// A start-up failure of the issue-3 parts (users file, TLS files, ports), already worded.
#[derive(Debug)]
struct StartError(String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

fn main() -> ExitCode {
    // As `redis-server -v` (the only argument, so a flag's value spelled `-v` stays a value):
    // the version INFO server's basalt_version gives, which the worker's health check compares
    // with the instance's engine version.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() == 1 && (args[0] == "-v" || args[0] == "--version") {
        println!("basalt-server v={}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let config = match Config::from_args(args.into_iter()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("basalt-server: {e}");
            return ExitCode::from(2);
        }
    };
    // Thousands of connections need thousands of descriptors: lift the soft limit to the hard one.
    let descriptors = basalt_server::fdlimit::raise();
    if descriptors < 4096 {
        eprintln!("basalt-server: only {descriptors} file descriptors available; fewer clients can connect");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.threads)
        .thread_name("basalt-net")
        // Sockets that became readable in one poll run in the order they did: the LIFO slot
        // ran the last one first, so a command could overtake one another connection sent
        // before it (tests/cross_connection_order.rs). Unstable API: .cargo/config.toml.
        .disable_lifo_slot()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("basalt-server: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        let server = basalt_server::launch::start(config.clone()).await.map_err(|e| Box::new(StartError(e)) as Box<dyn std::error::Error>)?;
        println!(
            "basalt-server {} ready to accept connections on {} (dir {}, fsync {}, maxmemory {}, threads {})",
            env!("CARGO_PKG_VERSION"),
            server.addrs.plain.or(server.addrs.tls).map(|a| a.to_string()).unwrap_or_default(),
            config.dir.display(),
            config.fsync.name(),
            config.maxmemory,
            config.threads
        );
        let shared = server.shared.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            eprintln!("basalt-server: signal received, shutting down");
            shared.request_shutdown();
        });
        server.run().await.map_err(|e| Box::new(e) as Box<dyn std::error::Error>)
    });
    match result {
        Ok(()) => {
            println!("basalt-server: data flushed, bye");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("basalt-server: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn wait_for_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}
