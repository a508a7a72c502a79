//! Static evaluation per game (owned by the search work). PLACEHOLDER.
