#!/usr/bin/env python3
"""The strength levels' ladder: the Elo of each level of one variant, measured.

What it is for: the Elo of the `UCI_LimitStrength` levels (the tables in the game facts,
shown in README.md). It plays the weakest level against `random` (the anchor: Elo 0),
then each level against the one below it, and chains the differences; the 95% errors add
up along the chain (in quadrature). It also plays the weakest level against `greedy`
and, for reference, the full engine (`UCI_LimitStrength false`) at the strongest level's
node budget against the strongest level. Every match is `tessera match` with colour-swapped
pairs from openings of `--random-plies` random plies; a level searches a fixed number of
nodes, so the results do not depend on the machine's speed or load (one thread, a
seeded draw; the runner seeds every engine per game from `--seed`).

With `--elo E` it checks the interpolation between levels instead: it plays `UCI_Elo E`
against the level below and the level above it, and gives the Elo each match implies
(that level's Elo, from README.md's table, plus the match's difference) and their
weighted mean, which should come out near E.

How to run it (after `cargo build --release`):
    python3 scripts/matches/ladder.py --variant cheversi --levels 5
    python3 scripts/matches/ladder.py --variant hexcheckers --size 5 --levels 7 --games 200
    python3 scripts/matches/ladder.py --variant catchup --size 5 --elo 370
The records stay in `--out` (one JSONL file per match). Run it under `nice -n 19`.
"""

import argparse
import math
import os
import re
import subprocess
import sys


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/release/tessera",
                        help="the engine binary (default: target/release/tessera)")
    parser.add_argument("--variant", required=True,
                        help="cheversi, kruzno, hexcheckers or catchup")
    parser.add_argument("--size", type=int, default=None, help="board side (variant default)")
    parser.add_argument("--levels", type=int, default=None,
                        help="how many levels to play, from the weakest (the variant's "
                             "table's count for the whole ladder)")
    parser.add_argument("--elo", type=int, default=None,
                        help="instead of the ladder: measure UCI_Elo ELO against the levels "
                             "on either side of it")
    parser.add_argument("--full-nodes", type=int, default=None,
                        help="node budget of the full engine's reference match against the "
                             "strongest level (default: none played)")
    parser.add_argument("--games", type=int, default=200,
                        help="games per match, colour-swapped pairs (default 200)")
    parser.add_argument("--random-plies", type=int, default=4,
                        help="random plies opening each pair (default 4)")
    parser.add_argument("--seed", type=int, default=1,
                        help="the match seed: the openings and every engine's seed per game "
                             "(default 1)")
    parser.add_argument("--out", default="ladder-out",
                        help="folder for the JSONL records (default ladder-out)")
    arguments = parser.parse_args()
    if (arguments.levels is None) == (arguments.elo is None):
        parser.error("give --levels (the ladder) or --elo (one interpolated Elo), not both")
    return arguments


def level_engine(arguments, level):
    # No `option.Seed`: the runner gives every engine a seed of its own in every game (from
    # --seed, the game and the engine), so games are independent samples and the two
    # engines of a game never draw the same numbers; a fixed Seed would replay one random
    # sequence in every game.
    return ["cmd=" + arguments.engine, f"name=level{level}",
            "option.UCI_LimitStrength=true", f"option.StrengthLevel={level}"]


def elo_engine(arguments, elo):
    return ["cmd=" + arguments.engine, f"name=elo{elo}",
            "option.UCI_LimitStrength=true", f"option.UCI_Elo={elo}"]


def strategy_engine(arguments, strategy):
    return ["cmd=" + arguments.engine, f"name={strategy}", f"option.Strategy={strategy}"]


def full_engine(arguments):
    return ["cmd=" + arguments.engine, "name=full", f"nodes={arguments.full_nodes}"]


def play(arguments, first, second, label):
    """Plays one match; returns (wins, draws, losses) from `first`'s side."""
    os.makedirs(arguments.out, exist_ok=True)
    records = os.path.join(arguments.out, f"{arguments.variant}-{label}.jsonl")
    if os.path.exists(records):
        os.remove(records)
    command = [arguments.engine, "match", "--engine", *first, "--engine", *second,
               "--variant", arguments.variant, "--games", str(arguments.games),
               # A cap only: each level searches its own node budget.
               "--nodes", "100000000",
               "--random-plies", str(arguments.random_plies), "--seed", str(arguments.seed),
               "--jsonl", records]
    if arguments.size is not None:
        command += ["--size", str(arguments.size)]
    finished = subprocess.run(command, capture_output=True, text=True)
    if finished.returncode != 0:
        sys.exit(f"ladder: {label}: tessera match failed:\n{finished.stderr}")
    found = re.search(r"^Games\s+\d+ \(W (\d+), D (\d+), L (\d+)\)", finished.stdout, re.M)
    if not found:
        sys.exit(f"ladder: {label}: no result in:\n{finished.stdout}")
    failures = re.search(r"^Engine failures\s+(.*)$", finished.stdout, re.M)
    if failures and re.search(r" [1-9]", failures.group(1)):
        print(f"ladder: {label}: engine failures: {failures.group(1)}", file=sys.stderr)
    return tuple(int(count) for count in found.groups())


def elo_of(result):
    """Elo difference and its 95% error from (wins, draws, losses), as cutechess: the
    trinomial variance per game. A score of 0 or 1 is moved half a game inward (and
    marked) so the figure stays finite."""
    wins, draws, losses = result
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    clamped = min(max(score, 0.5 / games), 1 - 0.5 / games)
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2
                + losses * score ** 2) / games
    deviation = math.sqrt(max(variance, 0.25 / games) / games)
    elo = -400 * math.log10(1 / clamped - 1)
    slope = 400 / (math.log(10) * clamped * (1 - clamped))
    return elo, 1.96 * deviation * slope, score, clamped != score


def readme_levels(variant):
    """The variant's level Elos from README.md's table (a test keeps it equal to the
    engine's own table)."""
    readme = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")
    with open(readme, encoding="utf-8") as text:
        for line in text:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if cells and cells[0] == variant:
                # Each cell: the Elo, then its error (`326 ±70`).
                return [int(cell.split()[0]) for cell in cells[1:]
                        if cell and cell.split()[0].isdigit()]
    sys.exit(f"ladder: README.md has no levels row for {variant}")


def check_elo(arguments):
    """Plays UCI_Elo against the levels on either side of it; prints the Elo implied."""
    levels = readme_levels(arguments.variant)
    elo = arguments.elo
    above = next((index for index, level in enumerate(levels) if level > elo), None)
    if above is None or above == 0:
        sys.exit(f"ladder: {elo} is not between two levels of {arguments.variant}: {levels}")
    estimates = []
    for index in (above - 1, above):
        level = index + 1
        result = play(arguments, elo_engine(arguments, elo), level_engine(arguments, level),
                      f"elo{elo}-level{level}")
        difference, error, score, bound = elo_of(result)
        implied = levels[index] + difference
        estimates.append((implied, error))
        print(f"UCI_Elo {elo}: {100 * score:.1f}% vs level {level} (Elo {levels[index]}) "
              f"({result[0]}-{result[1]}-{result[2]}): {implied:.0f} +/- {error:.0f}"
              + (" (bound)" if bound else ""))
    weights = [1 / max(error, 1) ** 2 for _, error in estimates]
    mean = sum(weight * implied for weight, (implied, _) in zip(weights, estimates)) / sum(weights)
    combined = 1 / math.sqrt(sum(weights))
    print(f"UCI_Elo {elo}: measured {mean:.0f} +/- {combined:.0f} "
          f"(the levels' own errors not included)")


def main():
    arguments = parse_arguments()
    if arguments.elo is not None:
        check_elo(arguments)
        return
    rows = []
    total_elo, total_variance = 0.0, 0.0
    for level in range(1, arguments.levels + 1):
        if level == 1:
            below = strategy_engine(arguments, "random")
            against = "random"
        else:
            below = level_engine(arguments, level - 1)
            against = f"level {level - 1}"
        result = play(arguments, level_engine(arguments, level), below, f"level{level}")
        difference, error, score, bound = elo_of(result)
        total_elo += difference
        total_variance += (error / 1.96) ** 2
        rows.append((f"{level}", total_elo, 1.96 * math.sqrt(total_variance), sum(result),
                     f"{100 * score:.1f}% vs {against}" + (" (bound)" if bound else ""),
                     result))
        print(f"level {level}: {result} vs {against}", file=sys.stderr, flush=True)
    print(f"Ladder: {arguments.variant}"
          + (f", side {arguments.size}" if arguments.size else "")
          + f", {arguments.games} games per match, random = Elo 0")
    print(f"{'level':>6} {'Elo':>6} {'+/-95%':>7} {'games':>6}  score (W-D-L)")
    for name, elo, error, games, text, result in rows:
        print(f"{name:>6} {elo:6.0f} {error:7.0f} {games:6d}  {text} "
              f"({result[0]}-{result[1]}-{result[2]})")
    greedy = play(arguments, level_engine(arguments, 1), strategy_engine(arguments, "greedy"),
                  "greedy")
    _, _, score, _ = elo_of(greedy)
    print(f"level 1 vs greedy: {100 * score:.1f}% ({greedy[0]}-{greedy[1]}-{greedy[2]})")
    greedy_random = play(arguments, strategy_engine(arguments, "greedy"),
                         strategy_engine(arguments, "random"), "greedy-random")
    difference, error, score, _ = elo_of(greedy_random)
    print(f"greedy vs random: {100 * score:.1f}% ({greedy_random[0]}-{greedy_random[1]}-"
          f"{greedy_random[2]}), greedy Elo {difference:.0f} +/- {error:.0f}")
    if arguments.full_nodes:
        top = arguments.levels
        full = play(arguments, full_engine(arguments), level_engine(arguments, top), "full")
        difference, error, score, bound = elo_of(full)
        print(f"full engine at {arguments.full_nodes} nodes vs level {top}: "
              f"{100 * score:.1f}% ({full[0]}-{full[1]}-{full[2]}), "
              f"{difference:+.0f} +/- {error:.0f} Elo" + (" (bound)" if bound else ""))


if __name__ == "__main__":
    main()
