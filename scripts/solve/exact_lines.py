#!/usr/bin/env python3
"""Checks that every MultiPV line of a Cheversi search near the end carries its move's
exact value: on positions N placements before the end (seeded random play), the engine's
`go nodes 2000000000` with `MultiPV 256` (every move a line) against `tessera solve --all`.

    cargo build --release
    python3 scripts/solve/exact_lines.py [--binary target/release/tessera] [--positions 20] [--left 8] [--seed 1]

For each position: every legal move has exactly one line, each line's `score cp` is 100 x
the solver's value of its move and is followed by `info string proven cp <same>`, the
lines come best first, and `bestmove` is line 1's move. Prints one line per position and
exits with status 1 on the first difference.
"""

import argparse
import random
import subprocess
import sys

from engine_lines import engine_replies, multipv_lines, shape_problems


def random_moves(binary, left, rng):
    """Moves of a random game up to `left` placements before the end (16 in all)."""
    moves = []
    for _ in range(16 - left):
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        replies = engine_replies(binary, [position, "query moves"])
        legal = replies[-1].split()[1:]
        moves.append(rng.choice(legal))
    return moves


def solver_values(binary, moves):
    """`tessera solve --all`'s value of every root move, in points."""
    done = subprocess.run(
        [binary, "solve", "--variant", "cheversi", "--all", "--moves", *moves],
        capture_output=True,
        text=True,
        check=True,
    )
    values = {}
    for line in done.stdout.splitlines():
        move, _, value = line.partition(": ")
        if value and move not in ("value",):
            values[move] = int(value)
    return values


def engine_lines(binary, moves):
    """The engine's lines: (rank, score, move, marker) in output order, and its bestmove."""
    replies = engine_replies(
        binary,
        [
            "setoption name MultiPV value 256",
            "position startpos moves " + " ".join(moves),
            # A bound, since end of input stops a search without one; this one leaves
            # the solver its room (3/4 of it).
            "go nodes 2000000000",
        ],
    )
    lines, best = multipv_lines(replies)
    # Cheversi's lines score in points, always `cp`.
    for _, (kind, _), move, _ in lines:
        if kind != "cp":
            raise ValueError(f"{move}: a {kind} score")
    return [(rank, value, move, marker) for rank, (_, value), move, marker in lines], best


def check(binary, moves):
    """The differences between the engine's lines and the solver's values (empty: none)."""
    values = solver_values(binary, moves)
    lines, best = engine_lines(binary, moves)
    problems = shape_problems(lines, best, values, lambda score: score)
    for _, score, move, marker in lines:
        if values.get(move) is None or score != 100 * values[move]:
            problems.append(f"{move}: cp {score}, solve --all {values.get(move)}")
        if marker != f"info string proven cp {score}":
            problems.append(f"{move}: marker {marker!r}")
    return problems, len(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/tessera")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--left", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    checked_lines = 0
    for number in range(1, args.positions + 1):
        moves = random_moves(args.binary, args.left, rng)
        problems, count = check(args.binary, moves)
        checked_lines += count
        status = "ok" if not problems else "DIFFERS: " + "; ".join(problems)
        print(f"{number:2} {' '.join(moves)}: {count} lines {status}", flush=True)
        if problems:
            sys.exit(1)
    print(f"{args.positions} positions, {checked_lines} lines: every value equals solve --all's")


if __name__ == "__main__":
    main()
