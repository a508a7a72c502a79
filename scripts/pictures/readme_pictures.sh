#!/usr/bin/env bash
# Draws the README's pictures (one position of every variant) with `tessera render` into
# tests/data/pictures/. The test `readme_pictures_are_current` (tests/picture_render.rs)
# draws the same positions and fails when these files are stale. They live under
# tests/data because the repository's top level is fixed and a test checks them.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet
tessera=target/debug/tessera
out=tests/data/pictures
mkdir -p "$out"
"$tessera" render --variant cheversi --moves Ke4 Nd5 Qe5 Qf6 Rd4 -o "$out/cheversi.svg"
"$tessera" render --variant kruzno --moves b4-a4 j4-k3 a4-b4 k3-j4 d4-e4 j2-k2 b3-a2 k2-j2 \
    a2-b3 i3-h3 c3-c2 h6-h7 e4-d3 j6-k5 d5-e6 k5-j6 b5-a4 h7-h8 a4-b5 j5-k5 c6-d7 k5-j5 \
    e6-f6 h3-i3 b5-a5 h4-h3 a5-b5 h3-g4 c2-b1 j4-k3 b1-c2 k3-j4 c5-d5 j6-k5 d3-d4 k5-j6 \
    c2-d3 h5-g5 f6xh4xf4 -o "$out/kruzno.svg"
"$tessera" render --variant hexcheckers --size 5 --moves c2-d3 g5-f6 d3-d4 f6-g5 c6-d7 g5-f6 \
    d4-d3 h4-g5 b5-c6 h5-h4 a4-b5 g6-h5 c1-d2 g7-g6 c3-c2 g2-f2 d3-e3 f2xd3xd1 \
    -o "$out/hexcheckers5.svg"
"$tessera" render --variant catchup --moves e5 d4,d5 f5,f6 c3,c4 e4 -o "$out/catchup.svg"
echo "wrote $(ls "$out"/*.svg | wc -l) pictures to $out"
