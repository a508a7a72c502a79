#!/usr/bin/env python3
"""Protocol latency benchmark (a benchmark, not a test): run it on a release build.

    cargo build --release
    python3 scripts/benchmarks/protocol_latency.py [--binary target/release/tessera] [--repeats 200]

Measures, over pipes, as a GUI sees them:
  1. process start -> `ugiok` (best and median of N starts);
  2. `isready` -> `readyok` while a `go infinite` search runs (median, p99);
  3. `stop` -> `bestmove` of a running `go infinite` search (median, p99, max),
     stopping after a random 5-40 ms of search;
  4. `isready` -> `readyok` behind a long job (kruzno perft 12, divide 12, bench, and
     perft 12 with a `go` waiting behind it) with commands waiting (median, max);
  5. `stop` -> the interrupted report of perft 12, divide 12 and bench, stopping after
     a random 5-40 ms (median, p99, max).
Targets: readyok median <= 1 ms and at most 50 ms behind any job, stop p99 <= 5 ms for
a search and at most 50 ms for any job, start -> ugiok <= 50 ms.
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


LONG_JOBS = {
    "perft 12": ["perft 12", "position startpos"],
    "divide 12": ["divide 12", "position startpos"],
    "bench": ["bench", "position startpos"],
    "waiting go": ["perft 12", "position startpos", "go depth 3"],
}


def readyok_behind_jobs(binary, repeats):
    """isready latency with a long job running and commands waiting behind it."""
    results = {}
    for name, script in LONG_JOBS.items():
        times = []
        for _ in range(max(1, repeats // 20)):
            engine = Engine(binary)
            engine.send("setoption name UCI_Variant value kruzno")
            for line in script:
                engine.send(line)
            for _ in range(10):
                time.sleep(0.002)
                sent = engine.send("isready")
                stamp, _ = engine.wait_for(lambda line: line == "readyok")
                times.append(stamp - sent)
            engine.close()
        results[name] = times
    return results


def stop_long_jobs(binary, repeats):
    """stop -> interrupted report of perft, divide and bench."""
    rng = random.Random(2)
    results = {}
    for job in ["perft 12", "divide 12", "bench"]:
        engine = Engine(binary)
        engine.send("setoption name UCI_Variant value kruzno")
        times = []
        for _ in range(max(1, repeats // 4)):
            engine.send(job)
            time.sleep(rng.uniform(0.005, 0.040))
            sent = engine.send("stop")
            stamp, _ = engine.wait_for(lambda line: "interrupted by stop" in line)
            times.append(stamp - sent)
        engine.close()
        results[job] = times
    return results


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
    for name, ready in readyok_behind_jobs(args.binary, args.repeats).items():
        print(f"isready -> readyok behind {name} with commands waiting:"
              f" median {ms(statistics.median(ready))}, max {ms(max(ready))}"
              f" over {len(ready)}")
    for job, stop in stop_long_jobs(args.binary, args.repeats).items():
        print(f"stop -> interrupted {job}: median {ms(statistics.median(stop))},"
              f" p99 {ms(percentile(stop, 0.99))}, max {ms(max(stop))} over {len(stop)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
