//! The bench node signature is stable (two runs count the same nodes) and pinned: it
//! equals the checked-in `tests/data/bench_signature.txt`, so a change of search
//! behaviour cannot land unannounced.

/// Runs the bench, returning the total and its lines.
fn bench() -> (u64, Vec<String>) {
    let mut lines = Vec::new();
    let total = tessera::bench::run(&mut |line| lines.push(line));
    (total, lines)
}

#[test]
fn bench_node_count_is_stable() {
    let (first, first_lines) = bench();
    let (second, second_lines) = bench();
    assert_eq!(first, second);
    let last = first_lines.last().expect("bench prints a summary line");
    assert!(last.starts_with(&format!("{first} nodes ")), "{last}");
    assert!(last.ends_with(" nps"), "{last}");
    // Every position line names its best move; the nps figures may differ.
    let strip = |lines: &[String]| -> Vec<String> {
        lines[..lines.len() - 1]
            .iter()
            .map(|line| line.split(" nps ").next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(strip(&first_lines), strip(&second_lines));
}

#[test]
fn bench_node_count_is_the_checked_in_signature() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench_signature.txt"
    );
    let text = std::fs::read_to_string(path).expect("tests/data/bench_signature.txt exists");
    let pinned: u64 = text
        .trim()
        .parse()
        .expect("tests/data/bench_signature.txt holds one number");
    let (total, _) = bench();
    assert_eq!(
        total, pinned,
        "the bench signature moved: `tessera bench` counts {total} nodes, \
         tests/data/bench_signature.txt says {pinned}. If the change is meant to alter the \
         search, write {total} into tests/data/bench_signature.txt and put `Bench: {total}` \
         on the last line of the commit body; if it is not, the change altered the search's \
         behaviour by accident."
    );
}
