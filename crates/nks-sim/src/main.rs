//! `nks-sim` binary: parse the command line, start, announce the address, serve.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    let config = nks_sim::Cli::parse().into_config();
    let sim = match nks_sim::start(config).await {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("nks-sim: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Scripts wait for this exact first line to learn the port, so flush it at once.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "nks-sim listening on {}", sim.url());
    let _ = out.flush();
    drop(out);
    sim.run().await;
    ExitCode::SUCCESS
}
