//! The bench node signature is stable: two runs count the same nodes.

#[test]
fn bench_node_count_is_stable() {
    let mut first_lines = Vec::new();
    let first = tessera::bench::run(&mut |line| first_lines.push(line));
    let mut second_lines = Vec::new();
    let second = tessera::bench::run(&mut |line| second_lines.push(line));
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
