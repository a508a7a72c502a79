//! Catchup's one parameter: which rule grants the third stone. A configuration carries
//! it as the game parameter `CatchupRule` (see [`FACTS`](super::FACTS)); the rules read it
//! as this type ([`CatchupRule::of`]).

use std::str::FromStr;

/// Which Catchup rule grants the third stone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CatchupRule {
    /// Nick Bentley's revised rule: 3 stones when the opponent's score increased on its
    /// last turn and is now at least the mover's.
    #[default]
    Revised,
    /// The original rule: 3 stones when the largest group on the board, of either colour,
    /// grew during the opponent's last turn.
    Original,
}

impl CatchupRule {
    /// Every rule, in declaration order.
    pub const ALL: [CatchupRule; 2] = [CatchupRule::Revised, CatchupRule::Original];
    /// The parameter's values, in the order of [`CatchupRule::ALL`] (the default first).
    pub const NAMES: [&'static str; 2] = ["revised", "original"];
    /// The protocol option that sets the rule.
    pub const OPTION: &'static str = "CatchupRule";

    pub const fn name(self) -> &'static str {
        CatchupRule::NAMES[self as usize]
    }
}

impl FromStr for CatchupRule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        CatchupRule::ALL
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                format!(
                    "unknown Catchup rule, expected {} ({text})",
                    CatchupRule::NAMES.join(" or ")
                )
            })
    }
}
