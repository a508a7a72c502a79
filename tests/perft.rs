//! perft of the built-in games from the data files in `tests/data/perft/<variant>.txt`
//! (the format is in `perft_support`).

mod perft_support;

use perft_support::check;
use tessera::game::Variant;

#[test]
fn cheversi_perft() {
    check(Variant::Cheversi);
}

#[test]
fn kruzno_perft() {
    check(Variant::Kruzno);
}

#[test]
fn hexcheckers_perft() {
    check(Variant::HexCheckers);
}

#[test]
fn catchup_perft() {
    check(Variant::Catchup);
}
