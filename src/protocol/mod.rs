//! The UGI/UCI protocol loop. PLACEHOLDER owned by the protocol work.

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run_stdio() -> std::process::ExitCode {
    eprintln!("protocol loop not built yet");
    std::process::ExitCode::FAILURE
}
