//! Board geometry shared by the games: hex coordinates and bitsets. (Cheversi's 8x8
//! bitboards live with Cheversi, its only user.)

pub mod hex;
pub mod hexset;
pub mod strided;

pub use hex::{Direction, HexGeometry, geometry};
pub use hexset::HexSet;
pub use strided::StridedSet;
