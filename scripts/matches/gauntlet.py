#!/usr/bin/env python3
"""Tessera against a gauntlet of opponents of different styles, one table.

What it is for: measuring strength against players that do not share the engine's
blind spots: `random`, `greedy`, `minimax2`, `minimax4` (material minimax, 2 and 4 plies),
`defender` (two-ply, keeps its army home), `attacker` (two-ply, marches on the enemy) and
`sampled2` (two-ply over a random sample of its moves), each the engine binary with
`option.Strategy=<member>`. Every game is played to the end under the rules by
`tessera match`; the table gives points, losses and, in
the checkers variants, the men at the end (games finished behind in men, the mean margin,
the deepest deficit met during a game) and the captures (games with any capture at all,
and the men Tessera took and lost in a game on average): against a player who stays home
a draw at 30 v 30 and a draw after ten even exchanges score alike, and only these show
the difference.

How to run it (after `cargo build --release`):
    python3 scripts/matches/gauntlet.py --variant hexcheckers --size 9 --games 40
    python3 scripts/matches/gauntlet.py --variant kruzno --games 20 --members defender,minimax4
    python3 scripts/matches/gauntlet.py --variant hexcheckers --size 7 --games 20 --check
`--check` exits 1 unless no game was lost or finished behind in men, the points reach
90% against every member (75% against `defender`) and the mean men margin is at least +2.
The records stay in `--out` (one JSONL file per member); `--summary-only` re-reads them.
"""

import argparse
import json
import os
import subprocess
import sys

MEMBERS = ["random", "greedy", "minimax2", "minimax4", "defender", "attacker", "sampled2"]
CHECKERS = {"kruzno", "hexcheckers"}


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/release/tessera",
                        help="the engine under test (default: target/release/tessera)")
    parser.add_argument("--opponent", default=None,
                        help="the binary that plays the members (default: --engine)")
    parser.add_argument("--option", action="append", default=[],
                        help="NAME=VALUE, a setoption for the engine under test (repeatable)")
    parser.add_argument("--variant", required=True,
                        help="cheversi, kruzno, hexcheckers or catchup")
    parser.add_argument("--size", type=int, default=None, help="board side (variant default)")
    parser.add_argument("--games", type=int, default=20,
                        help="games per member, colour-swapped pairs (default 20)")
    parser.add_argument("--movetime", type=int, default=100,
                        help="ms per move for the engine under test (default 100)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="a node limit per move instead of --movetime (equal nodes)")
    parser.add_argument("--timemargin", type=int, default=200,
                        help="ms a move may overrun (default 200)")
    parser.add_argument("--members", default=",".join(MEMBERS),
                        help="comma-separated members (default: all: %(default)s)")
    parser.add_argument("--seed", type=int, default=1,
                        help="the match seed: openings (4 random plies) and tie-breaks (default 1)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--out", default="gauntlet-out",
                        help="folder for the JSONL records (default gauntlet-out)")
    parser.add_argument("--summary-only", action="store_true",
                        help="play nothing: print the table from the records in --out")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the acceptance figures above are met")
    return parser.parse_args()


def record_path(arguments, member):
    size = arguments.size if arguments.size is not None else "default"
    return os.path.join(arguments.out, f"{arguments.variant}-{size}-{member}.jsonl")


def play(arguments, member):
    """Plays one member's games with `tessera match`, records to its JSONL file."""
    path = record_path(arguments, member)
    if os.path.exists(path):
        os.remove(path)
    opponent = arguments.opponent or arguments.engine
    command = [arguments.engine, "match", "--variant", arguments.variant,
               "--games", str(arguments.games), "--random-plies", "4",
               "--seed", str(arguments.seed), "--concurrency", str(arguments.concurrency),
               "--timemargin", str(arguments.timemargin), "--jsonl", path]
    if arguments.size is not None:
        command += ["--size", str(arguments.size)]
    limit = f"nodes={arguments.nodes}" if arguments.nodes else f"movetime={arguments.movetime}"
    tessera = ["cmd=" + arguments.engine, "name=tessera", limit]
    tessera += ["option." + option for option in arguments.option]
    # The members answer at once; a movetime only bounds how long the runner waits. No
    # `option.Seed`: the runner seeds both engines per game from --seed, so a member's
    # tie-breaks differ from game to game.
    command += ["--engine", *tessera,
                "--engine", "cmd=" + opponent, "name=" + member, "movetime=1000",
                "option.Strategy=" + member]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.exit(f"gauntlet: tessera match against {member} failed ({result.returncode})")


def men(position):
    """White's and Black's men in a hex checkers position string."""
    rows = position.split(" ")[0]
    return rows.count("W"), rows.count("B")


def captured(move):
    """Men a move captures: each `x` in its text is one jump."""
    return move.count("x")


def game_figures(record):
    """Points, loss, men margin at the end and deepest deficit, from Tessera's side."""
    tessera_white = record["white_engine"] == 0
    result = record["result"]
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
    if points is None:
        return None
    if not tessera_white:
        points = 1.0 - points
    figures = {"points": points, "plies": len(record["moves"]),
               "termination": record["termination"]}
    if record["variant"] in CHECKERS:
        white, black = men(record["opening"]["position"])
        mover = record["opening"]["position"].split(" ")[1]
        deepest = 0
        taken = lost = 0
        for move in record["opening"]["moves"] + record["moves"]:
            if mover == "w":
                black -= captured(move)
            else:
                white -= captured(move)
            if (mover == "w") == tessera_white:
                taken += captured(move)
            else:
                lost += captured(move)
            mover = "b" if mover == "w" else "w"
            margin = white - black if tessera_white else black - white
            deepest = min(deepest, margin)
        final_white, final_black = men(record["final_position"])
        figures["margin"] = final_white - final_black if tessera_white else final_black - final_white
        figures["deepest"] = deepest
        figures["taken"] = taken
        figures["lost"] = lost
        figures["end"] = (final_white, final_black) if tessera_white else (final_black, final_white)
    return figures


def summarise(arguments, members):
    """Prints the table; returns False when --check's figures are not met."""
    checkers = arguments.variant in CHECKERS
    header = ["member", "games", "W-D-L", "points", "lost"]
    if checkers:
        header += ["behind at end", "mean margin", "deepest deficit", "with a capture",
                   "men taken / lost"]
    header += ["mean plies", "terminations"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    passed = True
    for member in members:
        path = record_path(arguments, member)
        games = []
        if os.path.exists(path):
            with open(path) as records:
                games = [game_figures(json.loads(line)) for line in records if line.strip()]
        games = [game for game in games if game is not None]
        if not games:
            print(f"| {member} | 0 |" + " |" * (len(header) - 2))
            passed = False
            continue
        wins = sum(game["points"] == 1.0 for game in games)
        draws = sum(game["points"] == 0.5 for game in games)
        losses = len(games) - wins - draws
        share = 100.0 * sum(game["points"] for game in games) / len(games)
        terminations = {}
        for game in games:
            terminations[game["termination"]] = terminations.get(game["termination"], 0) + 1
        row = [member, str(len(games)), f"{wins}-{draws}-{losses}", f"{share:.1f}%", str(losses)]
        target = 75.0 if member == "defender" else 90.0
        passed &= losses == 0 and share >= target
        if checkers:
            behind = sum(game["margin"] < 0 for game in games)
            margin = sum(game["margin"] for game in games) / len(games)
            deepest = min(game["deepest"] for game in games)
            opened = sum(game["taken"] + game["lost"] > 0 for game in games)
            taken = sum(game["taken"] for game in games) / len(games)
            lost = sum(game["lost"] for game in games) / len(games)
            row += [str(behind), f"{margin:+.1f}", str(deepest), str(opened),
                    f"{taken:.1f} / {lost:.1f}"]
            passed &= behind == 0 and margin >= 2.0
        plies = sum(game["plies"] for game in games) / len(games)
        row += [f"{plies:.0f}", " ".join(f"{name} {count}" for name, count in sorted(terminations.items()))]
        print("| " + " | ".join(row) + " |")
    return passed


def main():
    arguments = parse_arguments()
    members = [member for member in arguments.members.split(",") if member]
    unknown = [member for member in members if member not in MEMBERS]
    if unknown:
        sys.exit(f"gauntlet: unknown member {unknown[0]!r}; expected some of {', '.join(MEMBERS)}")
    os.makedirs(arguments.out, exist_ok=True)
    if not arguments.summary_only:
        for member in members:
            play(arguments, member)
    limit = f"{arguments.nodes} nodes" if arguments.nodes else f"{arguments.movetime} ms"
    size = f" side {arguments.size}" if arguments.size else ""
    print(f"{arguments.variant}{size}, Tessera at {limit} a move, {arguments.games} games per member, seed {arguments.seed}")
    print()
    passed = summarise(arguments, members)
    if arguments.check and not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()
