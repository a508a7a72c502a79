#!/usr/bin/env python3
"""Protocol latency benchmark (a benchmark, not a test): run it on a release build.

    cargo build --release
    python3 scripts/benchmarks/protocol_latency.py [--binary target/release/tessera] [--repeats 200]

Measures, over pipes, as a GUI sees them:
  1. process start -> `ugiok` (best and median of N starts);
  2. `isready` -> `readyok` while a `go infinite` search runs (median, p99);
  3. `stop` -> `bestmove` of a running `go infinite` search (median, p99, max),
     stopping after a random 5-40 ms of search.
Targets: readyok median <= 1 ms, stop p99 <= 5 ms, start -> ugiok <= 50 ms.
"""

import argparse
import random
import statistics
import subprocess
import sys
import threading
import queue
import time


class Engine:
    def __init__(self, binary):
        self.process = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, bufsize=0)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            self.lines.put((time.perf_counter(), raw.decode(errors="replace").rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Writes one line; returns the time just before the write."""
        sent = time.perf_counter()
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()
        return sent

    def wait_for(self, predicate, timeout=30.0):
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no matching reply")
            stamp, line = self.lines.get(timeout=left)
            if line is None:
                raise EOFError("engine exited")
            if predicate(line):
                return stamp, line

    def close(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        self.process.wait(timeout=10)


def percentile(values, fraction):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds):
    return f"{seconds * 1000:.3f} ms"


def start_to_ugiok(binary, repeats):
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        engine = Engine(binary)
        engine.send("ugi")
        stamp, _ = engine.wait_for(lambda line: line == "ugiok")
        times.append(stamp - started)
        engine.close()
    return times


def readyok_during_search(binary, variant, repeats):
    engine = Engine(binary)
    engine.send(f"setoption name UCI_Variant value {variant}")
    engine.send("position startpos")
    engine.send("isready")
    engine.wait_for(lambda line: line == "readyok")
    engine.send("go infinite")
    time.sleep(0.05)
    times = []
    for _ in range(repeats):
        sent = engine.send("isready")
        stamp, _ = engine.wait_for(lambda line: line == "readyok")
        times.append(stamp - sent)
        time.sleep(0.002)
    engine.send("stop")
    engine.wait_for(lambda line: line.startswith("bestmove"))
    engine.close()
    return times


def stop_to_bestmove(binary, variant, repeats):
    engine = Engine(binary)
    engine.send(f"setoption name UCI_Variant value {variant}")
    times = []
    rng = random.Random(1)
    for _ in range(repeats):
        engine.send("position startpos")
        engine.send("go infinite")
        time.sleep(rng.uniform(0.005, 0.040))
        sent = engine.send("stop")
        stamp, _ = engine.wait_for(lambda line: line.startswith("bestmove"))
        times.append(stamp - sent)
    engine.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/tessera")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--variants", default="cheversi,kruzno,hexcheckers,catchup")
    args = parser.parse_args()

    starts = start_to_ugiok(args.binary, args.starts)
    print(f"start -> ugiok: best {ms(min(starts))}, median {ms(statistics.median(starts))}"
          f" over {len(starts)} starts")
    for variant in args.variants.split(","):
        ready = readyok_during_search(args.binary, variant, args.repeats)
        stop = stop_to_bestmove(args.binary, variant, args.repeats)
        print(f"{variant}: isready -> readyok during search: median {ms(statistics.median(ready))},"
              f" p99 {ms(percentile(ready, 0.99))};"
              f" stop -> bestmove: median {ms(statistics.median(stop))},"
              f" p99 {ms(percentile(stop, 0.99))}, max {ms(max(stop))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
