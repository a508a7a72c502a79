//! The match runner (`tessera match`). PLACEHOLDER owned by the match-runner work.

/// Arguments of `tessera match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {}

/// Runs a match; returns the process exit status.
pub fn run(_args: &MatchArgs) -> std::process::ExitCode {
    eprintln!("match runner not built yet");
    std::process::ExitCode::FAILURE
}
