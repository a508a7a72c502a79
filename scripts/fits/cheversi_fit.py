#!/usr/bin/env python3
"""Fits the Cheversi evaluation weights (src/eval/cheversi.rs) to exact final margins.

    cargo build --release
    python3 scripts/fits/cheversi_fit.py generate --games 600 --out cheversi-fit.jsonl
    python3 scripts/fits/cheversi_fit.py fit cheversi-fit.jsonl

`generate` plays self-play games over pipes (1-4 random placements, then searches of
3k-100k nodes), and at every number of placements before the end from 8 down to 1 writes
the position, the exact final margin found by `go depth <left>` (the search is exact in
that window) and the engine's `eval` terms. The game then goes on with the best move (70%) or a random
one. `fit` solves least squares for: secure and exposed attack weights and a tempo per
number of placements left, and hand values shared by all (relative to a King), and
prints them in centi-points with their five-fold cross-validated error. Pure Python.
"""

import argparse
import json
import random
import subprocess

FILES = "abcdefgh"
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = ROOK + BISHOP
LEFTS = tuple(range(1, 9))
HAND_KINDS = "QRBN"
FULL_HAND = {"K": 1, "Q": 1, "R": 2, "B": 2, "N": 2}


class Engine:
    """A tessera process driven line by line."""

    def __init__(self, binary):
        self.process = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, last):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            lines.append(line.rstrip("\n"))
            if last(lines[-1]):
                return lines

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def legal_moves(self, moves):
        self.position(moves)
        self.send("query moves")
        return self.read_until(lambda line: line.startswith("response"))[-1].split()[1:]

    def search(self, moves, limit):
        """The best move and the last reported centi-point score."""
        self.position(moves)
        self.send("go " + limit)
        lines = self.read_until(lambda line: line.startswith("bestmove"))
        score = None
        for line in lines:
            words = line.split()
            if line.startswith("info depth") and "cp" in words:
                score = int(words[words.index("cp") + 1])
        return lines[-1].split()[1], score

    def eval_terms(self, moves):
        self.position(moves)
        self.send("eval")
        self.send("isready")
        terms = {}
        for line in self.read_until(lambda line: line == "readyok"):
            words = line.split()
            if len(words) >= 2 and words[-1].lstrip("-").isdigit():
                terms[words[0]] = int(words[-1])
        return terms


def generate(arguments):
    rng = random.Random(arguments.seed)
    engine = Engine(arguments.binary)
    with open(arguments.out, "a") as out:
        for _ in range(arguments.games):
            moves = []
            randoms = rng.randint(1, 4)
            while len(moves) < 16 - max(LEFTS):
                if len(moves) < randoms:
                    moves.append(rng.choice(engine.legal_moves(moves)))
                else:
                    nodes = rng.choice([3000, 20000, 100000])
                    moves.append(engine.search(moves, f"nodes {nodes}")[0])
            for left in sorted(LEFTS, reverse=True):
                best, exact = engine.search(moves, f"depth {left}")
                record = {"moves": moves, "left": left, "exact": exact,
                          "eval": engine.eval_terms(moves)}
                out.write(json.dumps(record) + "\n")
                out.flush()
                if rng.random() < 0.7:
                    moves = moves + [best]
                else:
                    moves = moves + [rng.choice(engine.legal_moves(moves))]
    engine.send("quit")


def square(text):
    return FILES.index(text[1]), int(text[2:]) - 1


def attacked(kind, x, y, board):
    on = lambda a, b: 0 <= a < 8 and 0 <= b < 8
    if kind in "KN":
        steps = KING if kind == "K" else KNIGHT
        return [(x + dx, y + dy) for dx, dy in steps if on(x + dx, y + dy)]
    rays = {"R": ROOK, "B": BISHOP, "Q": ROOK + BISHOP}[kind]
    squares = []
    for dx, dy in rays:
        a, b = x + dx, y + dy
        while on(a, b):
            squares.append((a, b))
            if (a, b) in board:
                break
            a, b = a + dx, b + dy
    return squares


def features(moves):
    """Secure and exposed attack pairs, and hand counts, per player (0 = White)."""
    board = {square(move): (index % 2, move[0]) for index, move in enumerate(moves)}
    frontier = {
        (x + dx, y + dy)
        for (x, y) in board
        for dx, dy in KING
        if 0 <= x + dx < 8 and 0 <= y + dy < 8 and (x + dx, y + dy) not in board
    }
    values = {}
    for player in (0, 1):
        values[player, "secure"] = values[player, "exposed"] = 0
        for kind in FULL_HAND:
            placed = sum(1 for owner, piece in board.values() if (owner, piece) == (player, kind))
            values[player, "hand", kind] = FULL_HAND[kind] - placed
    for (x, y), (player, kind) in board.items():
        for target in attacked(kind, x, y, board):
            if target not in board:
                values[player, "exposed" if target in frontier else "secure"] += 1
    return values


def row(record):
    """Regression inputs from the side to move's view."""
    values = features(record["moves"])
    mover = len(record["moves"]) % 2
    other = 1 - mover
    inputs = []
    for left in LEFTS:
        here = 1.0 if record["left"] == left else 0.0
        inputs += [here * (values[mover, term] - values[other, term]) for term in ("secure", "exposed")]
        inputs.append(here)
    inputs += [values[mover, "hand", kind] - values[other, "hand", kind] for kind in HAND_KINDS]
    return inputs


def least_squares(rows, targets):
    """Solves the normal equations (with a tiny ridge for inputs that never vary)."""
    size = len(rows[0])
    matrix = [[sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0.0) for j in range(size)]
              for i in range(size)]
    vector = [sum(r[i] * t for r, t in zip(rows, targets)) for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(matrix[r][column]))
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        vector[column], vector[pivot] = vector[pivot], vector[column]
        for other in range(size):
            if other != column:
                factor = matrix[other][column] / matrix[column][column]
                matrix[other] = [a - factor * b for a, b in zip(matrix[other], matrix[column])]
                vector[other] -= factor * vector[column]
    return [vector[i] / matrix[i][i] for i in range(size)]


def fit(arguments):
    records = [json.loads(line) for line in open(arguments.data)]
    records = [r for r in records if r["exact"] is not None and r["left"] in LEFTS]
    rows = [row(r) for r in records]
    targets = [r["exact"] / 100 for r in records]
    predict = lambda weights, inputs: sum(w * x for w, x in zip(weights, inputs))
    squared = []
    for fold in range(5):
        train = [i for i in range(len(rows)) if i % 5 != fold]
        weights = least_squares([rows[i] for i in train], [targets[i] for i in train])
        squared += [(targets[i] - predict(weights, rows[i])) ** 2
                    for i in range(len(rows)) if i % 5 == fold]
    weights = least_squares(rows, targets)
    print(f"{len(rows)} positions, cross-validated error {(sum(squared) / len(squared)) ** 0.5:.2f} points")
    for index, left in enumerate(LEFTS):
        secure, exposed, tempo = (round(100 * w) for w in weights[3 * index:3 * index + 3])
        count = sum(1 for r in records if r["left"] == left)
        print(f"left {left}: secure {secure} exposed {exposed} tempo {tempo} ({count} positions)")
    hand_weights = weights[3 * len(LEFTS):]
    hand = ", ".join(f"{kind} {round(100 * w)}" for kind, w in zip(HAND_KINDS, hand_weights))
    print(f"hand (King 0): {hand}")
    current = []
    for r, target in zip(records, targets):
        sign = 1 if len(r["moves"]) % 2 == 0 else -1
        terms = r["eval"]
        estimate = sign * (terms["secure_attacks"] + terms["exposed_attacks"] + terms["hand"])
        current.append((target - (estimate + sign * terms["tempo"]) / 100) ** 2)
    print(f"the engine's own evaluation: error {(sum(current) / len(current)) ** 0.5:.2f} points")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate")
    make.add_argument("--binary", default="target/release/tessera")
    make.add_argument("--games", type=int, default=600)
    make.add_argument("--seed", type=int, default=11)
    make.add_argument("--out", default="cheversi-fit.jsonl")
    solve = commands.add_parser("fit")
    solve.add_argument("data")
    arguments = parser.parse_args()
    generate(arguments) if arguments.command == "generate" else fit(arguments)


if __name__ == "__main__":
    main()
