//! Every subcommand's `--help` is its complete manual: every flag says its default (or
//! that it is required), so a reader never has to guess what happens without it.

use std::process::Command;

const SUBCOMMANDS: [&str; 9] = [
    "perft", "divide", "bench", "endings", "solve", "match", "render", "report", "gui",
];

fn long_help(subcommand: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([subcommand, "--help"])
        .output()
        .expect("tessera runs");
    assert!(output.status.success(), "{subcommand} --help failed");
    String::from_utf8(output.stdout).expect("the help is UTF-8")
}

/// The entries of the help's "Options:" section: each flag's header line and its text.
fn option_entries(help: &str) -> Vec<String> {
    let section = help
        .split_once("\nOptions:\n")
        .expect("the help has an Options section")
        .1;
    let mut entries: Vec<String> = Vec::new();
    for line in section.lines() {
        let indent = line.len() - line.trim_start().len();
        if !line.is_empty() && indent == 0 {
            break; // the text after the options
        }
        if indent <= 6 && line.trim_start().starts_with('-') {
            entries.push(line.trim().to_string());
        } else if let Some(entry) = entries.last_mut() {
            entry.push(' ');
            entry.push_str(line.trim());
        }
    }
    entries
}

#[test]
fn every_flag_of_every_subcommand_states_its_default() {
    let mut missing = Vec::new();
    for subcommand in SUBCOMMANDS {
        let help = long_help(subcommand);
        let entries = option_entries(&help);
        assert!(
            entries.iter().any(|entry| entry.starts_with("-h, --help")),
            "{subcommand}: no options parsed from:\n{help}"
        );
        for entry in entries {
            if entry.starts_with("-h, --help") || entry.starts_with("-V, --version") {
                continue;
            }
            let lower = entry.to_lowercase();
            if !lower.contains("default") && !lower.contains("required") {
                missing.push(format!("tessera {subcommand}: {entry}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "flags whose help states no default:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_match_manual_names_every_statistic_and_the_engine_exchange() {
    let help = long_help("match");
    for words in [
        "Statistics",
        "SPRT",
        "uginewgame",
        "Many machines",
        "Exit status",
    ] {
        assert!(help.contains(words), "tessera match --help lacks {words}");
    }
}
