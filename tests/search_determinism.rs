//! A search bounded by depth or nodes alone gives the same answer on every run: where it
//! needs the built-in ending tables it waits for them instead of going on without them
//! while they are solved in the background (what a timed search does). One test in its own
//! process, so no other test has solved the tables first.

use std::sync::atomic::AtomicBool;

use tessera::endings::engine_tables_if_ready;
use tessera::engine::Engine;
use tessera::game::checkers::LargeCheckers;
use tessera::game::{GameConfig, GameRecord, Rules, Variant};
use tessera::search::SearchLimits;

#[test]
fn a_depth_bounded_search_waits_for_the_ending_tables_it_needs() {
    // Side 7: two White men against one Black man, within the built-in tables.
    let position = LargeCheckers::from_position_text(
        "7/8/9/10/11/12/6B6/12/11/10/3WW4/8/7 w - 0 1",
        &GameConfig::new(Variant::HexCheckers),
    )
    .expect("a valid position");
    assert!(
        engine_tables_if_ready(7).is_none(),
        "nothing has solved side 7's tables yet"
    );
    let limits = SearchLimits {
        depth: Some(2),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let found = Engine::default().search_record(
        &GameRecord::new(position.clone()),
        &limits,
        &stop,
        &mut |_| {},
    );
    assert!(found.best_move.is_some());
    // A search of two plies takes far less than solving the tables: they are ready right
    // after it only because it waited for them.
    assert!(engine_tables_if_ready(7).is_some());
}
