#!/usr/bin/env python3
"""Measures the hex-checkers evaluation terms (src/eval/checkers.rs) against game outcomes.

    cargo build --release
    python3 scripts/fits/hexcheckers_fit.py extract --out terms.jsonl MATCH.jsonl...
    python3 scripts/fits/hexcheckers_fit.py fit --size 9 --phase plain --strength terms.jsonl

`extract` replays the games of `tessera match --jsonl` records (hexcheckers, sides 7 to 9)
through the engine and writes, every `--step` plies, each quiet position's `eval` terms
(player 1's view) with the game's result. Quiet: the move played next is not a capture (a
capture is compulsory, so none was available); from the start position the first 10
plies are skipped.

`fit` is a Texel-style logistic regression of the result (1, 0.5, 0 for player 1) on the
terms: P(player 1 wins) = sigmoid(sum of b_i x_i). Each term is its own feature (the raw
count: the weighted value divided by today's weight), and the conversion terms are split
so that the parts tied to material (`conversion`: hunt's 8 x diameter + restrict's 48 +
space's cells, for the converting side; `gather_men`: own men x enemy men short of 8) are
apart from the parts that depend on where the men stand. Weights are printed in
centi-men (b_i / b_material x 100) with a bootstrap over games (5% to 95%), and the
log-loss, five-fold cross-validated by game, of the fitted terms against today's weights
(their sum, with one fitted scale). Positions in the classes `drawn` scales are left out.
`--phase plain` keeps positions where no side earns the conversion terms, `converting`
the others. `--strength` adds a covariate for games against `minimax2` (+1 when player 1
is the other engine), so that the outcome's dependence on who played is not credited to
the terms. `--drop` leaves terms out; `--fix advancement=0.75` holds a term at a weight
(centi-men per raw unit) and fits the rest around it. Needs numpy.

The fitted weights quoted in `src/eval/checkers.rs` come from `extract --step 4` over
side 7-9 match records and these fits.
"""

import argparse
import json
import random
import subprocess
import sys

import numpy as np



def weak_kind(engine):
    """The weaker strategy an engine name stands for in our records, None for `full`."""
    for prefix, kind in (("minimax2", "minimax2"), ("mm2", "minimax2"), ("greedy", "greedy"),
                         ("random", "random")):
        if engine.startswith(prefix):
            return kind
    return None

NAMES = ["material", "centre", "mobility", "advancement", "conversion", "gather_men",
         "hunt", "restrict", "space", "gather"]
# Today's weights in the same units (per raw count; advancement per squared row).
CURRENT = {"material": 100, "centre": 3, "mobility": 2, "advancement": 0.75,
           "gather_men": 16 * 8, "hunt": 15, "restrict": 10, "space": 8, "gather": 16}


def drawn_class(size, men, enemies):
    more, fewer = max(men, enemies), min(men, enemies)
    return fewer >= 1 and more > fewer and (
        more <= 2 or (more == 3 and (fewer == 2 or size >= 8)))


def converting(size, men, enemies):
    return enemies <= 8 and men > enemies and men >= (4 if size >= 8 else 3)


def extract(args):
    out = open(args.out, "w")
    for path in args.records:
        games = [json.loads(line) for line in open(path) if line.strip()]
        for size in sorted({g["size"] for g in games if g["variant"] == "hexcheckers"}):
            batch = []
            for g in games:
                if g["variant"] != "hexcheckers" or g["size"] != size or size < 7:
                    continue
                result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(g["result"])
                if result is None or g["termination"] != "normal":
                    continue
                opening = g.get("opening") or {"position": "startpos", "moves": []}
                start = opening["position"]
                moves = list(opening.get("moves") or []) + g["moves"]
                from_start = start == "startpos" or start.startswith("B" * size)
                for ply in range(0, len(moves) - 1, args.step):
                    if (from_start and ply < 10) or "x" in moves[ply]:
                        continue
                    batch.append((g, ply, start, moves[:ply], result))
            lines = ["setoption name UCI_Variant value hexcheckers",
                     f"setoption name BoardSize value {size}"]
            for _, _, start, moves, _ in batch:
                where = "startpos" if start == "startpos" else "fen " + start
                lines.append(f"position {where}" + (" moves " + " ".join(moves) if moves else ""))
                lines += ["query fen", "eval"]
            lines.append("quit")
            reply = subprocess.run([args.engine], input="\n".join(lines) + "\n",
                                   capture_output=True, text=True, check=True).stdout.splitlines()
            at = 0
            for g, ply, _, _, result in batch:
                fen = reply[at].split(" ", 1)[1]
                at += 1
                terms = {}
                while not reply[at].startswith("total"):
                    name, value = reply[at].split()
                    terms[name] = int(value)
                    at += 1
                at += 1
                board, mover = fen.split()[:2]
                out.write(json.dumps({
                    "size": size, "game": f"{path}:{g['game']}", "ply": ply, "fen": fen,
                    "terms": terms, "p1_result": result, "p1_to_move": mover == "w",
                    "men": [board.count("W"), board.count("B")],
                    "p1_engine": g["white"], "p2_engine": g["black"]}) + "\n")
            print(path, size, len(batch), file=sys.stderr, flush=True)


def features(record):
    """The raw counts of [`NAMES`], player 1's view."""
    size, (men, enemies), terms = record["size"], record["men"], record["terms"]
    sign, own, other = 0, 0, 0
    if converting(size, men, enemies):
        sign, own, other = 1, men, enemies
    elif converting(size, enemies, men):
        sign, own, other = -1, enemies, men
    # Side 7's ramp: the conversion terms grow in as ((9 - enemy men) / 9)^2.
    share = sign * (1.0 if size >= 8 else ((9 - other) / 9) ** 2)
    diameter, cells = 2 * (size - 1), 3 * size * (size - 1) + 1
    gather_men = share * own * (8 - other) * 8
    return [
        men - enemies,
        terms["centre"] / 3,
        terms["mobility"] / 2,
        terms["advancement"] / 0.75,
        share,
        gather_men,
        terms["hunt"] / 15 - share * 8 * diameter,
        terms["restrict"] / 10 - share * 48,
        terms["space"] / 8 - share * cells,
        terms["gather"] / 16 - gather_men,
    ]


def newton(x, y, free, iterations=60):
    """Logistic regression with soft labels over the `free` columns (the others 0)."""
    beta = np.zeros(x.shape[1])
    columns = x[:, free]
    b = np.zeros(columns.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(columns @ b, -40, 40)))
        gradient = columns.T @ (p - y) + 1e-8 * b
        hessian = (columns * (p * (1 - p))[:, None]).T @ columns + 1e-8 * np.eye(len(b))
        step = np.linalg.solve(hessian, gradient)
        b -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    beta[free] = b
    return beta


def log_loss(x, y, beta):
    p = 1 / (1 + np.exp(-np.clip(x @ beta, -40, 40)))
    return float(-np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))


def fit(args):
    games, rows, today, labels = [], [], [], []
    for path in args.terms:
        for line in open(path):
            record = json.loads(line)
            men, enemies = record["men"]
            size = record["size"]
            if size != args.size or not men or not enemies or drawn_class(size, men, enemies):
                continue
            earning = converting(size, men, enemies) or converting(size, enemies, men)
            if earning != (args.phase == "converting"):
                continue
            kinds = (weak_kind(record["p1_engine"]), weak_kind(record["p2_engine"]))
            extra = [1.0 if record["p1_to_move"] else -1.0]
            if args.strength:
                if sorted(kinds, key=str) != [None, "minimax2"]:
                    continue
                extra.append(-1.0 if kinds[0] else 1.0)
            elif kinds != (None, None):
                continue
            games.append(record["game"])
            rows.append(features(record) + extra)
            total = sum(value for name, value in record["terms"].items() if name != "drawn")
            today.append([total / 100] + extra)
            labels.append(record["p1_result"])
    x, x_today, y = np.array(rows), np.array(today), np.array(labels)
    fixed = [item.split("=") for item in filter(None, args.fix.split(","))]
    for name, weight in fixed:
        # A fixed weight joins its term to material: b_material x (men + weight/100 x term).
        x[:, 0] += float(weight) / 100 * x[:, NAMES.index(name)]
        x[:, NAMES.index(name)] = 0
    spread = x.std(0)
    free = spread > 0
    for name in filter(None, args.drop.split(",")):
        free[NAMES.index(name)] = False
    spread[spread == 0] = 1
    scaled = x / spread
    all_today = np.ones(x_today.shape[1], bool)
    names = sorted(set(games))
    print(f"side {args.size}, {args.phase}{', against minimax2' if args.strength else ''}: {len(y)} positions from {len(names)} games,"
          f" {np.mean(y != 0.5):.2f} of them from decisive games")
    order = names[:]
    random.Random(1).shuffle(order)
    fold_of = {name: i % 5 for i, name in enumerate(order)}
    folds = np.array([fold_of[g] for g in games])
    losses = [0.0, 0.0]
    for fold in range(5):
        train, test = folds != fold, folds == fold
        losses[0] += log_loss(x_today[test], y[test],
                              newton(x_today[train], y[train], all_today)) * test.sum()
        losses[1] += log_loss(scaled[test], y[test], newton(scaled[train], y[train], free)) * test.sum()
    print(f"log-loss (5-fold by game): constant {log_loss(x[:, :1] * 0, y, np.zeros(1)):.4f},"
          f" today's weights {losses[0] / len(y):.4f}, fitted {losses[1] / len(y):.4f}")
    coefficients = newton(scaled, y, free) / spread
    index = {name: i for i, name in enumerate(names)}
    members = [[] for _ in names]
    for row, game in enumerate(games):
        members[index[game]].append(row)
    generator = np.random.default_rng(7)
    samples = []
    for _ in range(args.bootstrap):
        picked = np.concatenate([members[i] for i in generator.integers(0, len(names), len(names))])
        beta = newton(scaled[picked], y[picked], free & (x[picked].std(0) > 0)) / spread
        samples.append(100 * beta / beta[0])
    samples = np.array(samples)
    print(f"logit per man {coefficients[0]:.4f}; extra columns (side to move, strength)"
          f" {np.round(coefficients[len(NAMES):], 3)}")
    print(f"{'term':12s} {'today':>8s} {'fitted':>9s} {'5%':>9s} {'95%':>9s}")
    for i, name in enumerate(NAMES):
        if free[i]:
            low, high = np.percentile(samples[:, i], [5, 95])
            value = 100 * coefficients[i] / coefficients[0]
            today_weight = CURRENT.get(name, 0)
            if name == "conversion":
                # hunt 15 x 8 x diameter + restrict 10 x 48 + space 8 x cells.
                size = args.size
                today_weight = 15 * 8 * 2 * (size - 1) + 10 * 48 + 8 * (3 * size * (size - 1) + 1)
            print(f"{name:12s} {today_weight:8.2f} {value:9.2f} {low:9.2f} {high:9.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    first = commands.add_parser("extract")
    first.add_argument("--engine", default="target/release/tessera")
    first.add_argument("--out", required=True)
    first.add_argument("--step", type=int, default=4, help="sample every STEP plies")
    first.add_argument("records", nargs="+")
    second = commands.add_parser("fit")
    second.add_argument("--size", type=int, default=9)
    second.add_argument("--phase", choices=["plain", "converting"], default="plain")
    second.add_argument("--strength", action="store_true",
                        help="games of full against minimax2, with a strength covariate")
    second.add_argument("--drop", default="", help="terms left out, comma-separated")
    second.add_argument("--fix", default="",
                        help="terms held at a weight, e.g. advancement=0.75 (comma-separated)")
    second.add_argument("--bootstrap", type=int, default=100)
    second.add_argument("terms", nargs="+")
    args = parser.parse_args()
    {"extract": extract, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
