//! `tessera render`'s pictures: a golden snapshot per variant, well-formed XML, every cell
//! or square drawn exactly once, and the overlays agreeing with the rules.

use std::collections::BTreeMap;

use tessera::game::{CatchupRule, GameConfig, Variant};
use tessera::picture::{MarkKind, frame, layout, render};
use tessera::registry::AnyGame;

/// A fixed position of every variant: (name, config, moves); the last move is drawn.
fn positions() -> Vec<(&'static str, GameConfig, Vec<&'static str>)> {
    let config = |variant, size| {
        CatchupRule::Revised.chosen_in(GameConfig {
            size,
            ..GameConfig::new(variant)
        })
    };
    vec![
        (
            "cheversi",
            config(Variant::Cheversi, None),
            vec!["Ke4", "Nd5", "Qe5", "Qf6", "Rd4"],
        ),
        (
            "kruzno",
            config(Variant::Kruzno, None),
            "b4-a4 j4-k3 a4-b4 k3-j4 d4-e4 j2-k2 b3-a2 k2-j2 a2-b3 i3-h3 c3-c2 h6-h7 e4-d3 \
             j6-k5 d5-e6 k5-j6 b5-a4 h7-h8 a4-b5 j5-k5 c6-d7 k5-j5 e6-f6 h3-i3 b5-a5 h4-h3 \
             a5-b5 h3-g4 c2-b1 j4-k3 b1-c2 k3-j4 c5-d5 j6-k5 d3-d4 k5-j6 c2-d3 h5-g5 f6xh4xf4"
                .split_whitespace()
                .collect(),
        ),
        (
            "hexcheckers5",
            config(Variant::HexCheckers, Some(5)),
            "c2-d3 g5-f6 d3-d4 f6-g5 c6-d7 g5-f6 d4-d3 h4-g5 b5-c6 h5-h4 a4-b5 g6-h5 c1-d2 \
             g7-g6 c3-c2 g2-f2 d3-e3 f2xd3xd1"
                .split_whitespace()
                .collect(),
        ),
        (
            "catchup",
            config(Variant::Catchup, None),
            vec!["e5", "d4,d5", "f5,f6", "c3,c4", "e4"],
        ),
    ]
}

fn play(config: GameConfig, moves: &[&str]) -> (AnyGame, Option<String>) {
    let mut game = AnyGame::new(config).expect("start position");
    let mut last = None;
    for text in moves {
        last = Some(game.play_text(text).expect("legal move"));
    }
    (game, last)
}

/// One element per line, so a snapshot diff shows what changed.
fn lines(svg: &str) -> String {
    svg.replace("><", ">\n<")
}

#[test]
fn every_variant_renders_a_golden_picture() {
    for (name, config, moves) in positions() {
        let (game, last) = play(config, &moves);
        let svg = render(&game, last.as_deref()).expect("drawable");
        assert_eq!(
            svg,
            render(&game, last.as_deref()).expect("drawable"),
            "deterministic"
        );
        insta::assert_snapshot!(format!("render_{name}"), lines(&svg));
    }
}

#[test]
fn pictures_parse_as_xml_with_every_cell_once() {
    for (name, config, moves) in positions() {
        let (game, last) = play(config, &moves);
        let svg = render(&game, last.as_deref()).expect("drawable");
        let document = roxmltree::Document::parse(&svg)
            .unwrap_or_else(|error| panic!("{name}: not XML: {error}"));
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for node in document.descendants() {
            if let Some(cell) = node.attribute("data-cell") {
                *seen.entry(cell.to_string()).or_default() += 1;
            }
        }
        let side = tessera::picture::picture_side(&game);
        let board = layout(config.variant, side).expect("layout");
        let expected = match config.variant {
            Variant::Cheversi => 64,
            _ => 3 * side * (side - 1) + 1,
        };
        assert_eq!(seen.len(), expected, "{name}: cells drawn");
        assert!(seen.values().all(|&count| count == 1), "{name}: {seen:?}");
        for cell in &board.names {
            assert_eq!(seen.get(cell), Some(&1), "{name}: {cell}");
        }
        // Every piece of the position string is drawn once.
        let pieces = frame(&game, last.as_deref())
            .expect("frame")
            .contents
            .chars()
            .filter(|&c| c != '.')
            .count();
        let drawn = document
            .descendants()
            .filter(|node| {
                node.attribute("class").is_some_and(|class| {
                    class.starts_with("man ")
                        || class.starts_with("stone ")
                        || class.starts_with("glyph ")
                })
            })
            .count();
        assert_eq!(drawn, pieces, "{name}: pieces drawn");
    }
}

#[test]
fn overlays_agree_with_the_rules() {
    for (name, config, moves) in positions() {
        let (game, last) = play(config, &moves);
        let picture = frame(&game, last.as_deref()).expect("frame");
        let marks = |kind: MarkKind| picture.marks.iter().filter(move |mark| mark.kind == kind);
        let [white, black] = game.score();
        match config.variant {
            Variant::Cheversi => {
                // The attacked-square counts add up to each side's rule score.
                let total = |kind| -> i32 {
                    marks(kind)
                        .flat_map(|mark| mark.labels.iter())
                        .map(|label| label.parse::<i32>().expect("a count"))
                        .sum()
                };
                assert_eq!(total(MarkKind::AttackWhite), white, "{name}");
                assert_eq!(total(MarkKind::AttackBlack), black, "{name}");
                assert_eq!(marks(MarkKind::LastMove).count(), 1);
            }
            Variant::Kruzno | Variant::HexCheckers => {
                // The last move is a double capture: a path of three cells, two men taken.
                let path: Vec<_> = marks(MarkKind::MovePath).collect();
                assert_eq!(path.len(), 1, "{name}");
                assert_eq!(path[0].cells.len(), 3, "{name}");
                let captured: usize = marks(MarkKind::Captured).map(|m| m.cells.len()).sum();
                assert_eq!(captured, 2, "{name}");
                // Obligations are the position string's third field.
                let field = game.position_text();
                let field = field.split_whitespace().nth(2).expect("obligations field");
                let obligated: usize = marks(MarkKind::Obligation).map(|m| m.cells.len()).sum();
                let expected = if field == "-" {
                    0
                } else {
                    field.split(',').count()
                };
                assert_eq!(obligated, expected, "{name}: {field}");
            }
            Variant::Catchup => {
                // The marked largest groups have the rule score's size (or are absent
                // while a side has single stones only).
                for (kind, score) in [(MarkKind::GroupWhite, white), (MarkKind::GroupBlack, black)]
                {
                    let cells: usize = marks(kind).map(|mark| mark.cells.len()).sum();
                    if score >= 2 {
                        assert_eq!(cells % score as usize, 0, "{name}");
                        assert!(cells >= score as usize, "{name}");
                    } else {
                        assert_eq!(cells, 0, "{name}");
                    }
                }
                let stones: usize = marks(MarkKind::LastMove).map(|m| m.cells.len()).sum();
                assert_eq!(stones, 1, "{name}: the last turn placed one stone");
            }
            Variant::Added(_) => unreachable!("the cases are built-in games"),
        }
    }
}

#[test]
fn readme_pictures_are_current() {
    // The README shows these files; they must be what `render` draws today.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pictures");
    for (name, config, moves) in positions() {
        let (game, last) = play(config, &moves);
        let svg = render(&game, last.as_deref()).expect("drawable");
        let path = dir.join(format!("{name}.svg"));
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        assert_eq!(
            committed,
            svg,
            "{} is stale: regenerate it with scripts/pictures/readme_pictures.sh",
            path.display()
        );
    }
}
