//! The fuzz targets' seed corpus replayed through the targets themselves (the functions
//! of `tests/fuzz/src/lib.rs`, which `cargo fuzz` runs for hours; see
//! `tests/fuzz/README.md`): every seed, and every input the fuzzers once found a fault
//! with, runs clean on every `cargo test`.

use std::path::{Path, PathBuf};

#[path = "fuzz/src/lib.rs"]
mod targets;

fn fuzz_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz")
}

/// The files of one target's seed folder, sorted.
fn seeds(target: &str) -> Vec<PathBuf> {
    let folder = fuzz_folder().join("seeds").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    files.sort();
    files
}

#[test]
fn every_target_has_a_fuzz_target_and_seeds() {
    for (name, _) in targets::TARGETS {
        let file = fuzz_folder()
            .join("fuzz_targets")
            .join(format!("{name}.rs"));
        assert!(file.is_file(), "no {}", file.display());
        assert!(seeds(name).len() >= 3, "{name} has too few seeds");
    }
}

#[test]
fn every_seed_runs_clean_through_its_target() {
    for (name, target) in targets::TARGETS {
        for file in seeds(name) {
            let bytes = std::fs::read(&file).expect("a seed file");
            let outcome = std::panic::catch_unwind(|| target(&bytes));
            assert!(outcome.is_ok(), "{name}: {} fails", file.display());
        }
    }
}

/// The session scripts through the real binary too (with `stop` and `quit` after
/// them): stdout carries only whole printable lines, and the engine exits with status 0.
#[test]
fn session_scripts_through_the_binary_write_only_protocol_lines() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    for file in seeds("protocol_script") {
        let mut script = std::fs::read(&file).expect("a seed file");
        script.extend_from_slice(b"\nstop\nquit\n");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            // The engine may exit (quit) before it has read everything.
            let _ = stdin.write_all(&script);
        });
        let mut stdout = child.stdout.take().expect("stdout");
        let (sender, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stdout.read_to_end(&mut bytes);
            let _ = sender.send(bytes);
        });
        // Only a hang waits this long.
        let bytes = output
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{} hangs", file.display()));
        let status = child.wait().expect("the engine exits");
        writer.join().expect("the writer");
        assert!(status.success(), "{}: {status}", file.display());
        let text = String::from_utf8(bytes).expect("stdout is UTF-8");
        assert!(
            text.is_empty() || text.ends_with('\n'),
            "{}",
            file.display()
        );
        for line in text.lines() {
            assert!(
                !line.chars().any(char::is_control),
                "{}: {line:?}",
                file.display()
            );
        }
    }
}
