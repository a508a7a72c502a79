#!/usr/bin/env python3
"""Checks that every MultiPV line of a hex checkers search in an ending the tables cover
carries its move's exact value: on random positions of 2 men against 1 (either side to
move, fresh counter; the built-in tables), the engine's `go depth 1` with `MultiPV 256`
(every move a line) against the ordinary single-line search (`MultiPV 1`, `go depth 3`)
of the position each move leads to. Positions whose every line is a draw are checked
but not counted unless `--all-draws`.

    cargo build --release
    python3 scripts/solve/ending_lines.py [--binary target/release/tessera] [--positions 20] [--side 5] [--seed 1] [--all-draws]

The reference reaches the tables one ply further down and through the alpha-beta search's
own table scoring, not through the exact lines: a child scored `cp 100000 - m` (its mover
wins, conversion m plies on) makes the line `proven loss m+1` scored `cp -(100000 -
(m+1))`; `cp -(100000 - m)` makes it `proven win m+1`; `mate 1` (the child's mover takes
the last man at once) `proven loss 2`; `mate -1` `proven win 3`; a decisive child whose
first move is a capture (compulsory, so the next capture: the line's conversion comes 2
plies on, where the child's own search counts on past it) `proven win 2` or `proven loss
2`; a child with no legal
move `proven win 1` with `score mate 1`; any other score (a table draw, with contempt
and its tie-break) `proven draw` with `cp 0`. Also checked: one line per legal move, each
followed by its marker, best first, `bestmove` line 1's. Prints one line per position
and exits with status 1 on the first difference.
"""

import argparse
import random
import sys

from engine_lines import engine_replies, multipv_lines, score_of, shape_problems, words_after

TABLE_WIN = 100000


def setup(side, lines):
    return [
        "setoption name UCI_Variant value hexcheckers",
        f"setoption name BoardSize value {side}",
        f"setoption name MultiPV value {lines}",
    ]


def random_position(side, rng):
    """A position string with 2 men against 1 at random cells, either side to move."""
    rows = [side + min(row, 2 * side - 2 - row) for row in range(2 * side - 1)]
    cells = [(row, column) for row, length in enumerate(rows) for column in range(length)]
    strong, weak = rng.choice([("W", "B"), ("B", "W")])
    board = [["."] * length for length in rows]
    for (row, column), man in zip(rng.sample(cells, 3), [strong, strong, weak]):
        board[row][column] = man
    texts = []
    for row in board:
        text, empty = "", 0
        for cell in row:
            if cell == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        texts.append(text + (str(empty) if empty else ""))
    return "/".join(texts) + f" {rng.choice('wb')} - 0 40"


def engine_lines(binary, side, position):
    """The exact lines of `position`: (rank, score, move, marker) and the bestmove."""
    replies = engine_replies(
        binary, setup(side, 256) + [f"position fen {position}", "go depth 1"]
    )
    lines, best = multipv_lines(replies)
    return lines, best


def reference(binary, side, position, moves):
    """The expected (score, marker) of each move, from the single-line search of the
    position it leads to."""
    commands = setup(side, 1)
    for move in moves:
        commands += [f"position fen {position} moves {move}", "query moves", "go depth 3"]
    replies = engine_replies(binary, commands)
    expected, last_score, answers = {}, None, []
    for line in replies:
        words = line.split()
        if line.startswith("response"):
            answers.append([len(words) > 1, None, False])
        elif words[:1] == ["info"] and "score" in words:
            answers[-1][1] = score_of(words)
            answers[-1][2] = "x" in words_after(words, "pv")
    for move, (has_moves, child, captures) in zip(moves, answers):
        if child is not None and child[0] == "cp" and captures and abs(child[1]) > TABLE_WIN - 1000:
            # Captures are compulsory: the child's first move is the next capture, and
            # it keeps the win (the value is decisive), so the conversion is 2 plies on.
            child = ("cp", (TABLE_WIN - 1) * (1 if child[1] > 0 else -1))
        if not has_moves:
            expected[move] = (("mate", 1), "info string proven win 1")
        elif child == ("mate", 1):
            expected[move] = (("cp", -(TABLE_WIN - 2)), "info string proven loss 2")
        elif child == ("mate", -1):
            expected[move] = (("cp", TABLE_WIN - 3), "info string proven win 3")
        elif child[0] == "cp" and child[1] > TABLE_WIN - 1000:
            plies = TABLE_WIN - child[1] + 1
            expected[move] = (("cp", -(TABLE_WIN - plies)), f"info string proven loss {plies}")
        elif child[0] == "cp" and child[1] < -(TABLE_WIN - 1000):
            plies = TABLE_WIN + child[1] + 1
            expected[move] = (("cp", TABLE_WIN - plies), f"info string proven win {plies}")
        elif child[0] == "cp":
            expected[move] = (("cp", 0), "info string proven draw")
        else:
            expected[move] = (child, "unexpected child score")
    return expected


def rank_key(score):
    kind, value = score
    return 10**7 * (1 if value > 0 else -1) if kind == "mate" else value


def check(binary, side, position):
    """The differences between the engine's lines and the reference (empty: none)."""
    legal = engine_replies(binary, setup(side, 1) + [f"position fen {position}", "query moves"])
    moves = legal[-1].split()[1:]
    lines, best = engine_lines(binary, side, position)
    expected = reference(binary, side, position, moves)
    problems = shape_problems(lines, best, moves, rank_key)
    for _, score, move, marker in lines:
        if expected.get(move) != (score, marker):
            problems.append(f"{move}: {score} {marker!r}, reference {expected.get(move)}")
    kinds = [marker.split()[3] for _, _, _, marker in lines if len(marker.split()) > 3]
    return problems, len(lines), kinds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/tessera")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--side", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--all-draws", dest="decisive", action="store_false",
        help="count positions whose every line is a draw too (most random ones)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    checked, counts, number = 0, {}, 0
    while number < args.positions:
        position = random_position(args.side, rng)
        legal = engine_replies(args.binary, setup(args.side, 1) + [f"position fen {position}", "query moves"])
        if legal[-1] == "response":
            continue
        problems, count, kinds = check(args.binary, args.side, position)
        if not problems and args.decisive and set(kinds) <= {"draw"}:
            continue
        number += 1
        checked += count
        for kind in kinds:
            counts[kind] = counts.get(kind, 0) + 1
        status = "ok" if not problems else "DIFFERS: " + "; ".join(problems)
        print(f"{number:2} {position}: {count} lines {status}", flush=True)
        if problems:
            sys.exit(1)
    summary = ", ".join(f"{counts[kind]} {kind}" for kind in sorted(counts))
    print(f"{args.positions} positions, {checked} lines ({summary}): every value equals the reference")


if __name__ == "__main__":
    main()
