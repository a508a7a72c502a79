//! protocol.md stays honest about the options and the commands: its handshake block and
//! its option table list exactly what the engine announces, in the same order, and its
//! command summary names exactly the commands the parser knows.

use tessera::protocol::command::COMMANDS;
use tessera::protocol::options::{OPTIONS, option_line};

fn protocol_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    std::fs::read_to_string(path).expect("protocol.md is in the repository")
}

/// The fenced block that follows the line "Handshake lines, in this order:".
fn documented_handshake(text: &str) -> Vec<String> {
    let after = text
        .split_once("Handshake lines, in this order:")
        .expect("protocol.md has the handshake block")
        .1;
    let block = after
        .split("```")
        .nth(1)
        .expect("the handshake block is fenced");
    block
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_documented_handshake_is_the_engines() {
    let announced: Vec<String> = OPTIONS.iter().map(option_line).collect();
    assert_eq!(documented_handshake(&protocol_text()), announced);
}

#[test]
fn the_option_table_names_every_option_in_order() {
    let text = protocol_text();
    let table = text
        .split_once("### 7. Options")
        .expect("protocol.md has section 7")
        .1
        .split_once("Handshake lines, in this order:")
        .expect("the table comes before the handshake block")
        .0;
    let documented: Vec<&str> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`').map(|(name, _)| name))
        .collect();
    let announced: Vec<&str> = OPTIONS.iter().map(|spec| spec.name).collect();
    assert_eq!(documented, announced);
}

/// The command words of the section 9 summary table: the first word of every backquoted
/// usage in the table's first column (`d` / `show` gives both words).
fn documented_commands(text: &str) -> Vec<String> {
    let table = text
        .split_once("### 9. Command summary")
        .expect("protocol.md has section 9")
        .1;
    let mut words = Vec::new();
    let rows = table.lines().take_while(|line| !line.starts_with('#'));
    for row in rows.filter_map(|line| line.strip_prefix("| ")) {
        let first_column = row.split(" | ").next().unwrap_or_default();
        for (index, usage) in first_column.split('`').enumerate() {
            if index % 2 == 1 {
                let word = usage.split_whitespace().next().unwrap_or_default();
                words.push(word.to_string());
            }
        }
    }
    words
}

#[test]
fn the_command_summary_lists_exactly_the_engines_commands() {
    let mut documented = documented_commands(&protocol_text());
    let mut known: Vec<String> = COMMANDS
        .iter()
        .flat_map(|spec| spec.words.iter().map(|word| word.to_string()))
        .collect();
    documented.sort();
    known.sort();
    assert_eq!(documented, known);
}
