#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (seeds/<target>/) from real engine output.

    cargo build --release
    python3 tests/fuzz/make_seeds.py [--binary target/release/tessera]

Short engine-vs-engine matches of every variant (JSONL and PGN records), positions and
legal moves along those games (asked of the engine over the protocol), the engine's own
search output, the perft data's positions, the protocol transcripts' scripts, a small
ending tables file, a solve's checkpoint and proof. Files named `regression-*` (inputs
that once found a fault) are kept; every other seed is written anew. Run from anywhere.
"""

import argparse
import json
import pathlib
import random
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VARIANTS = ["cheversi", "kruzno", "hexcheckers", "catchup"]
# (variant, size or None) of the matches played for seeds: small boards keep games short.
BOARDS = [("cheversi", None), ("kruzno", None), ("hexcheckers", 4), ("hexcheckers", None),
          ("catchup", 3), ("catchup", None)]


def config_byte(variant, size=None, rule="revised"):
    """The byte `config_of` in src/lib.rs reads back as this configuration."""
    code = 0 if size is None else size + 1
    return VARIANTS.index(variant) + 4 * code + 48 * (1 if rule == "original" else 0)


class Engine:
    """The protocol over pipes, one command at a time."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, line, last):
        """Sends `line`; returns the reply lines up to the first for which `last` holds."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            reply = self.process.stdout.readline()
            if not reply:
                raise EOFError(f"the engine exited after {line}")
            lines.append(reply.rstrip("\n"))
            if last(lines[-1]):
                return lines

    def query(self, what):
        return self.ask(f"query {what}", lambda line: line.startswith("response"))[-1]

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=30)


class Seeds:
    def __init__(self):
        self.written = {}

    def add(self, target, name, data):
        folder = HERE / "seeds" / target
        folder.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode()
        (folder / name).write_bytes(data)
        self.written[target] = self.written.get(target, 0) + 1


def clear_old_seeds():
    for folder in (HERE / "seeds").glob("*"):
        for file in folder.glob("*"):
            if not file.name.startswith("regression-"):
                file.unlink()


def play_matches(binary, work):
    """Short matches per board; returns [(variant, size, jsonl text, pgn text)]."""
    played = []
    for index, (variant, size) in enumerate(BOARDS):
        jsonl = work / f"{variant}-{size}.jsonl"
        pgn = work / f"{variant}-{size}.pgn"
        command = [binary, "match", "--variant", variant, "--games", "2", "--nodes", "200",
                   "--random-plies", "4", "--seed", str(index + 1),
                   "--engine", f"cmd={binary}", "--engine", f"cmd={binary}",
                   "--jsonl", str(jsonl), "--pgn", str(pgn)]
        if size is not None:
            command += ["--size", str(size)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=600)
        played.append((variant, size, jsonl.read_text(), pgn.read_text()))
    return played


def game_positions(binary, variant, size, record, count):
    """Position strings, legal moves and search output along one recorded game."""
    engine = Engine(binary)
    engine.process.stdin.write(f"setoption name UCI_Variant value {variant}\n")
    if size is not None:
        engine.process.stdin.write(f"setoption name BoardSize value {size}\n")
    opening = record["opening"]
    start = f"fen {opening['position']}" if opening["position"] else "startpos"
    moves = opening["moves"] + record["moves"]
    found = []
    for ply in sorted({round(k * len(moves) / count) for k in range(count)} | {len(moves)}):
        line = f"position {start} moves {' '.join(moves[:ply])}" if ply else f"position {start}"
        engine.process.stdin.write(line + "\n")
        fen = engine.query("fen").removeprefix("response ")
        legal = engine.query("moves").split()[1:]
        output = []
        if legal:
            output = engine.ask("go nodes 300", lambda reply: reply.startswith("bestmove"))
        found.append((line, fen, legal, output))
    engine.close()
    return found


def transcript_scripts():
    """The command scripts of tests/protocol_transcripts.rs."""
    source = (ROOT / "tests" / "protocol_transcripts.rs").read_text()
    scripts = {}
    for name, body in re.findall(r"const (\w+): &\[&str\] = &\[(.*?)\];", source, re.S):
        scripts[name.lower()] = [json.loads(text) for text in re.findall(r'"(?:[^"\\]|\\.)*"', body)]
    return scripts


def perft_positions():
    """(variant, size, rule, position) of tests/data/perft."""
    found = []
    for file in sorted((ROOT / "tests" / "data" / "perft").glob("*.txt")):
        for line in file.read_text().splitlines():
            if line.startswith("#") or "|" not in line:
                continue
            options, position, _ = [part.strip() for part in line.split("|")]
            settings = dict(option.split("=") for option in options.split() if "=" in option)
            if position == "startpos":
                continue
            found.append((file.stem, int(settings["size"]) if "size" in settings else None,
                          settings.get("rule", "revised"), position))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "target" / "release" / "tessera"))
    args = parser.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())
    rng = random.Random(1)
    seeds = Seeds()
    clear_old_seeds()
    with tempfile.TemporaryDirectory() as directory:
        work = pathlib.Path(directory)
        played = play_matches(binary, work)
        for variant, size, jsonl, pgn in played:
            tag = f"{variant}-{size or 'default'}"
            seeds.add("match_records", f"{tag}.jsonl", jsonl)
            seeds.add("match_records", f"{tag}-cut.jsonl", jsonl[: len(jsonl) * 3 // 4])
            records = [json.loads(line) for line in jsonl.splitlines() if line.strip()]
            seeds.add("game_record", f"{tag}.json", jsonl.splitlines()[0])
            seeds.add("game_record", f"{tag}.pgn", pgn.split("\n\n[")[0])
            record = records[0]
            byte = config_byte(variant, size)
            along = game_positions(binary, variant, size, record, 4)
            for index, (line, fen, legal, output) in enumerate(along):
                seeds.add("position_text", f"{tag}-{index}", bytes([byte]) + fen.encode())
                seeds.add("position_text", f"{tag}-{index}-search",
                          bytes([byte | 0x80]) + fen.encode())
                if index == 0 and legal:
                    for move in rng.sample(legal, min(3, len(legal))):
                        seeds.add("move_text", f"{tag}-{move}",
                                  bytes([byte, 0, 0]) + move.encode())
                seeds.add("engine_output", f"{tag}-{index}", "\n".join(output) + "\n")
                seeds.add("openings", f"{tag}-{index}",
                          bytes([byte]) + f"# from a game\n{fen}\nstartpos\n{line.split(' ', 1)[1]}\n".encode())
            moves = record["opening"]["moves"] + record["moves"]
            seeds.add("move_text", f"{tag}-game-moves",
                      bytes([byte, 8, 3]) + " ".join(moves[8:12]).encode())
            script = ["ugi", f"setoption name UCI_Variant value {variant}"]
            if size is not None:
                script.append(f"setoption name BoardSize value {size}")
            script += ["isready", along[1][0], "go nodes 500", along[2][0], "go infinite",
                       "query fen", "stop", "perft 2", "divide 1", "eval", "d",
                       "position startpos", "perft 9", "position startpos moves " + moves[0],
                       "isready", "stop", "isready"]
            seeds.add("protocol_script", f"{tag}-game", "\n".join(script) + "\n")
            seeds.add("protocol_lines", f"{tag}-lines", "\n".join(script[1:6]) + "\n")
            requests = [f'new {{"variant": "{variant}", "white": "human", "black": "human"'
                        + (f', "size": {size}' if size else "") + "}"]
            requests += [f'move {{"move": "{move}"}}' for move in moves[:6]]
            requests += ['undo {"count": 2}', 'redo {"count": 1}', 'resume {}', 'stop {}',
                         f'load {json.dumps({"text": jsonl.splitlines()[0]})}',
                         'settings {"white": "engine0", "nodes": 100}', 'eval {}', 'analyse {}',
                         f"layout variant={variant}&side={size or 6}"]
            seeds.add("gui_requests", tag, bytes([byte]) + "\n".join(requests).encode())
    for name, script in transcript_scripts().items():
        seeds.add("protocol_script", f"transcript-{name}", "\n".join(script) + "\n")
        seeds.add("protocol_lines", f"transcript-{name}", "\n".join(script) + "\n")
    for index, (variant, size, rule, position) in enumerate(perft_positions()):
        if index % 2 == 0:
            seeds.add("position_text", f"perft-{variant}-{index}",
                      bytes([config_byte(variant, size, rule)]) + position.encode())
    with tempfile.TemporaryDirectory() as directory:
        work = pathlib.Path(directory)
        for side, men in [(4, "2v1"), (4, "3v1"), (5, "2v1")]:
            path = work / f"side{side}-{men}.tce"
            subprocess.run([binary, "endings", "--size", str(side), "--men", men, "--write",
                            str(path)], check=True, stdout=subprocess.DEVNULL, timeout=600)
            data = path.read_bytes()
            if len(data) <= 1 << 16:
                seeds.add("endings_file", f"side{side}-{men}", b"\x00" + data)
                seeds.add("endings_file", f"side{side}-{men}-fixed-checksum", b"\x01" + data)
        for rule in ["revised", "original"]:
            checkpoint = work / f"{rule}.checkpoint"
            proof = work / f"{rule}.proof"
            subprocess.run([binary, "solve", "--variant", "catchup", "--size", "2", "--rule", rule,
                            "--hash", "1", "--progress", "0", "--checkpoint", str(checkpoint),
                            "--proof", str(proof)], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=600)
            seeds.add("checkpoint", f"catchup-2-{rule}", b"\x00" + checkpoint.read_bytes())
            seeds.add("checkpoint", f"catchup-2-{rule}-fixed-checksum",
                      b"\x01" + checkpoint.read_bytes())
            seeds.add("proof", f"catchup-2-{rule}", proof.read_bytes())
    for name, words in {
        "engine": "cmd=/usr/bin/tessera\nname=one\narg=--log\narg=warn\noption.Hash=16\n--\n"
                  "tc=10+0.1\nnodes=500\n",
        "each": "option.Threads=1\ndepth=3\n--\ncmd=other\nproto=uci\nst=0.5\nmovetime=100\n",
        "sprt": "cmd=x\n--\nelo0=0\nelo1=5\nalpha=0.05\nbeta=0.05\nmodel=logistic\n",
    }.items():
        seeds.add("match_settings", name, words)
    for name, text in {"empty": "", "garbage": "{]\n[", "bom": "\ufeff{}\n"}.items():
        seeds.add("game_record", name, text)
        seeds.add("proof", name, text)
        seeds.add("match_settings", f"text-{name}", text)
    for target, count in sorted(seeds.written.items()):
        print(f"{target}: {count} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
