//! protocol.md stays honest about the code: its handshake block and option table list
//! exactly what the engine announces, in the same order; its command summary names exactly
//! the commands the parser knows; and its file formats (the match records, the solver's
//! checkpoints and proofs, the ending tables file) name the fields the code writes. The
//! README's table of strength levels shows the Elo of every game's levels in the code.

use tessera::protocol::options::OptionTable;
use tessera::protocol::parse::COMMANDS;
use tessera::registry::Registry;

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
    let announced = OptionTable::builtin().lines();
    assert_eq!(documented_handshake(&protocol_text()), announced);
}

/// The rows of section 7's option table.
fn option_rows(text: &str) -> Vec<&str> {
    text.split_once("### 7. Options")
        .expect("protocol.md has section 7")
        .1
        .split_once("Handshake lines, in this order:")
        .expect("the table comes before the handshake block")
        .0
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect()
}

/// The range or values column of the option table's row for `option`.
fn documented_values<'a>(rows: &[&'a str], option: &str) -> &'a str {
    let row = rows
        .iter()
        .find(|row| row.starts_with(&format!("| `{option}` |")))
        .unwrap_or_else(|| panic!("protocol.md documents {option}"));
    row.split(" | ").nth(3).expect("a values column")
}

/// The games' facts as protocol.md's option table states them: `UCI_Variant`'s values,
/// each game's board sides and default under `BoardSize`, each parameter's values.
#[test]
fn the_option_table_states_the_games_facts() {
    let text = protocol_text();
    let rows = option_rows(&text);
    let registry = Registry::builtin();
    let backquoted = |words: &[&str]| -> String {
        words
            .iter()
            .map(|word| format!("`{word}`"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        documented_values(&rows, "UCI_Variant"),
        backquoted(&registry.names())
    );
    let sides: Vec<String> = registry
        .facts()
        .map(|facts| {
            let (low, high) = (facts.sizes.start(), facts.sizes.end());
            if low == high {
                format!("{} {low} only", facts.name)
            } else {
                format!(
                    "{} {low}..{high} (default {})",
                    facts.name, facts.default_size
                )
            }
        })
        .collect();
    let board_size = documented_values(&rows, "BoardSize");
    assert!(
        board_size.ends_with(&sides.join(", ")),
        "BoardSize in protocol.md: {board_size}; the facts: {}",
        sides.join(", ")
    );
    for parameter in registry.parameters() {
        assert_eq!(
            documented_values(&rows, parameter.option),
            backquoted(parameter.values),
            "{}",
            parameter.option
        );
    }
}

#[test]
fn the_option_table_names_every_option_in_order() {
    let text = protocol_text();
    let documented: Vec<&str> = option_rows(&text)
        .into_iter()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`').map(|(name, _)| name))
        .collect();
    let table = OptionTable::builtin();
    let announced: Vec<&str> = table.specs().iter().map(|spec| spec.name).collect();
    assert_eq!(documented, announced);
}

/// The command words of the section 8 summary table: the first word of every backquoted
/// usage in the table's first column (`d` / `show` gives both words).
fn documented_commands(text: &str) -> Vec<String> {
    let table = text
        .split_once("### 8. Command summary")
        .expect("protocol.md has section 8")
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

/// The text of protocol.md from the heading `start` up to the next heading of the same or
/// a higher level.
fn section<'a>(text: &'a str, start: &str) -> &'a str {
    let after = text
        .split_once(&format!("\n{start}\n"))
        .unwrap_or_else(|| panic!("protocol.md has the section {start}"))
        .1;
    let level = start.split(' ').next().unwrap_or("###");
    let mut end = after.len();
    for (offset, _) in after.match_indices("\n#") {
        let heading = &after[offset + 1..];
        let hashes = heading.chars().take_while(|&c| c == '#').count();
        if hashes <= level.len() {
            end = offset;
            break;
        }
    }
    &after[..end]
}

/// The backquoted words of the first column of the markdown table rows in `text`.
fn first_column_words(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("| "))
        .filter_map(|row| row.split(" | ").next())
        .flat_map(|cell| {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The first fenced block of `text`, line by line.
fn fenced_block(text: &str) -> Vec<String> {
    text.split("```")
        .nth(1)
        .expect("the section has a fenced block")
        .lines()
        .skip(1) // the language tag line
        .map(str::to_string)
        .collect()
}

fn sample_record() -> tessera::arena::record::MatchRecord {
    use tessera::arena::record::{GameResult, MatchRecord, OpeningRecord, Termination};
    MatchRecord {
        game: 4,
        pair: 2,
        variant: "catchup".to_string(),
        size: 5,
        rule: "revised".to_string(),
        engines: ["new".to_string(), "old".to_string()],
        white_engine: 0,
        white: "new".to_string(),
        black: "old".to_string(),
        opening: OpeningRecord {
            index: 0,
            position: "5/6/7/8/9/8/7/6/5 w 1".to_string(),
            moves: vec!["e5".to_string(), "a1,b2".to_string()],
        },
        moves: vec!["c3,d4".to_string()],
        times_ms: vec![41],
        result: GameResult::WhiteWins,
        termination: Termination::Normal,
        reason: "p1win by the rules".to_string(),
        final_position: "5/6/7/8/9/8/7/6/5 w 1".to_string(),
        seed: 1,
        engine_seeds: [Some(1_234_567), None],
        sprt: Some("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized".to_string()),
    }
}

#[test]
fn the_jsonl_field_table_lists_exactly_the_fields_the_runner_writes() {
    let text = protocol_text();
    let jsonl = section(&text, "### Match records (JSONL)");
    let line = sample_record().to_json_line();
    let value: serde_json::Value = serde_json::from_str(&line).expect("a JSON object");
    let object = value.as_object().expect("a JSON object");
    let mut written: Vec<String> = object.keys().cloned().collect();
    let mut documented = first_column_words(jsonl.split("Terminations").next().unwrap_or(""));
    written.sort();
    documented.sort();
    assert_eq!(documented, written, "protocol.md's JSONL field table");
    // The nested opening's fields are named in its row.
    let opening_row = jsonl
        .lines()
        .find(|line| line.starts_with("| `opening`"))
        .expect("an opening row");
    let opening = object["opening"].as_object().expect("opening is an object");
    for key in opening.keys() {
        assert!(
            opening_row.contains(&format!("`{key}`:")),
            "the opening row does not describe `{key}`"
        );
    }
    // The example line names the same fields.
    let example = fenced_block(jsonl).join("");
    for key in object.keys() {
        assert!(
            example.contains(&format!("\"{key}\":")),
            "the example lacks {key}"
        );
    }
}

#[test]
fn the_termination_table_lists_every_termination() {
    use tessera::arena::record::Termination;
    let every = [
        Termination::Normal,
        Termination::MaxPlies,
        Termination::IllegalMove,
        Termination::MalformedBestmove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::Stall,
        Termination::Aborted,
    ];
    // A new termination must be added to the list above (and so to protocol.md).
    for termination in every {
        match termination {
            Termination::Normal
            | Termination::MaxPlies
            | Termination::IllegalMove
            | Termination::MalformedBestmove
            | Termination::TimeForfeit
            | Termination::Crash
            | Termination::Stall
            | Termination::Aborted => {}
        }
    }
    let text = protocol_text();
    let jsonl = section(&text, "### Match records (JSONL)");
    let table = jsonl
        .split_once("Terminations")
        .expect("the terminations table follows the fields")
        .1;
    let documented = first_column_words(table);
    let written: Vec<String> = every.iter().map(|t| t.as_str().to_string()).collect();
    assert_eq!(documented, written);
}

#[test]
fn the_pgn_example_has_the_tags_the_runner_writes_in_order() {
    let text = protocol_text();
    let tag_names = |lines: Vec<String>| -> Vec<String> {
        lines
            .iter()
            .filter_map(|line| line.strip_prefix('['))
            .filter_map(|line| line.split(' ').next())
            .map(str::to_string)
            .collect()
    };
    let documented = tag_names(fenced_block(section(
        &text,
        "### Match records (PGN-like text)",
    )));
    let written = tag_names(
        sample_record()
            .to_pgn(true)
            .lines()
            .map(str::to_string)
            .collect(),
    );
    assert_eq!(documented, written);
}

/// Runs the tessera binary; panics with its stderr when it fails.
fn tessera(arguments: &[&str]) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(arguments)
        .output()
        .expect("tessera runs");
    assert!(
        output.status.success(),
        "tessera {arguments:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The first word of each line, for the header lines of a file format.
fn first_words(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|line| line.split(' ').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_checkpoint_and_proof_headers_are_those_the_solver_writes() {
    let directory = std::env::temp_dir().join(format!("tessera-doc-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    let checkpoint = directory.join("side2.cp");
    let proof = directory.join("side2.proof");
    let (checkpoint_text, proof_text) = (
        checkpoint.to_string_lossy().to_string(),
        proof.to_string_lossy().to_string(),
    );
    tessera(&[
        "solve",
        "--variant",
        "catchup",
        "--size",
        "2",
        "--progress",
        "0",
        "--checkpoint",
        &checkpoint_text,
        "--proof",
        &proof_text,
    ]);
    let text = protocol_text();

    let bytes = std::fs::read(&checkpoint).expect("the checkpoint is written");
    let header_lines: Vec<String> = String::from_utf8_lossy(&bytes)
        .lines()
        .take(6)
        .map(str::to_string)
        .collect();
    let documented = fenced_block(section(&text, "### Solver checkpoints"));
    assert_eq!(first_words(&documented[..6]), first_words(&header_lines));
    // The records are binary: the checksum line follows them without a line break.
    let all = String::from_utf8_lossy(&bytes);
    let checksum = all.trim_end().rsplit_once("checksum ").map(|(_, hex)| hex);
    assert!(checksum.is_some_and(|hex| hex.len() == 16), "{checksum:?}");
    assert!(documented.iter().any(|line| line.starts_with("checksum ")));

    let written: Vec<String> = std::fs::read_to_string(&proof)
        .expect("the proof is written")
        .lines()
        .map(str::to_string)
        .collect();
    let documented = fenced_block(section(&text, "### Proofs"));
    // The header up to the first claim, word for word; the claim line's form; the end.
    let header_length = documented
        .iter()
        .position(|line| line.starts_with("claim "))
        .expect("a documented claim");
    assert_eq!(documented[0], written[0]);
    assert_eq!(
        first_words(&documented[..header_length]),
        first_words(&written[..header_length])
    );
    let claim_words = |line: &str| -> Vec<String> {
        line.split(' ')
            .enumerate()
            .filter(|(index, _)| index % 2 == 0)
            .map(|(_, word)| word.to_string())
            .collect()
    };
    assert_eq!(
        claim_words(&documented[header_length]),
        claim_words(&written[header_length])
    );
    assert_eq!(documented.last(), written.last());
    let _ = std::fs::remove_dir_all(&directory);
}

#[test]
fn the_endings_file_header_names_the_keys_the_writer_writes() {
    let directory =
        std::env::temp_dir().join(format!("tessera-doc-endings-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    let file = directory.join("side4.tce");
    tessera(&[
        "endings",
        "--size",
        "4",
        "--men",
        "2v1",
        "--write",
        &file.to_string_lossy(),
    ]);
    let bytes = std::fs::read(&file).expect("the tables file is written");
    let header_end = bytes
        .iter()
        .position(|&byte| byte == b'\n')
        .expect("a header line");
    let header = String::from_utf8_lossy(&bytes[..header_end]).to_string();
    // The magic word, then `key value` pairs: the magic and the keys.
    let keys = |line: &str| -> Vec<String> {
        line.split(' ')
            .enumerate()
            .filter(|(index, _)| *index == 0 || index % 2 == 1)
            .map(|(_, word)| word.to_string())
            .collect()
    };
    let text = protocol_text();
    let documented = fenced_block(section(&text, "### Ending tables"));
    assert_eq!(keys(&documented[0]), keys(&header));
    let _ = std::fs::remove_dir_all(&directory);
}

/// The README's table of strength levels: the Elo figures of the row that starts with
/// the game's name (each cell is the Elo, then its error).
fn readme_level_row(readme: &str, game: &str) -> Vec<u32> {
    let row = readme
        .lines()
        .find(|line| line.starts_with(&format!("| {game} |")))
        .unwrap_or_else(|| panic!("README.md shows the levels of {game}"));
    row.split('|')
        .skip(2)
        .map(str::trim)
        .take_while(|cell| !cell.starts_with('`'))
        .filter(|cell| !cell.is_empty())
        .map(|cell| {
            let (elo, error) = cell.split_once(" ±").unwrap_or((cell, ""));
            assert!(
                error.parse::<u32>().is_ok(),
                "{game}: an Elo and its error ({cell})"
            );
            elo.parse()
                .unwrap_or_else(|_| panic!("{game}: an Elo ({cell})"))
        })
        .collect()
}

#[test]
fn the_readme_shows_every_games_levels() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).expect("README.md is in the repository");
    for facts in Registry::builtin().facts() {
        let elo: Vec<u32> = facts.levels.iter().map(|level| level.elo).collect();
        assert_eq!(readme_level_row(&readme, facts.name), elo, "{}", facts.name);
    }
}
