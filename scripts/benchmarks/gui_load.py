#!/usr/bin/env python3
"""`tessera gui` under load (a benchmark, not a test): run it on a release build.

    cargo build --release
    python3 scripts/benchmarks/gui_load.py [--binary target/release/tessera] [--pages 200] [--requests 100]

Starts `tessera gui` (hexcheckers, side 9, a person on both sides), opens PAGES pages that
each keep one long poll (`GET /api/state?after=V`) open all the time, then times REQUESTS
of `GET /` and REQUESTS of `POST /api/move` (each move taken back by an untimed
`POST /api/undo`), and reports median, p99 and max of each and any request that failed.
Two kinds of pages: `live` ones follow the game as the page does (every move answers
every poll, and each asks again at once), `stale` ones ask after a version far ahead (each
poll waits its full 10 s). Target: p99 under 100 ms, no failure.
"""

import argparse
import json
import multiprocessing
import socket
import statistics
import subprocess
import sys
import threading
import time

FAR_AHEAD = 1 << 60


def request(address, method, path, body=None, timeout=60):
    """One request with `Connection: close`; returns (status, body text)."""
    host, port = address.split(":")
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    head += f"Content-Length: {len(data)}\r\n\r\n"
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(head.encode() + data)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    answer = b"".join(chunks)
    split = answer.find(b"\r\n\r\n")
    if split < 0:
        raise IOError("incomplete answer")
    status = int(answer[:split].split()[1])
    content = answer[split + 4:]
    if b"transfer-encoding: chunked" in answer[:split].lower():
        content = unchunk(content)
    return status, content.decode(errors="replace")


def unchunk(data):
    out = b""
    while True:
        end = data.find(b"\r\n")
        size = int(data[:end], 16) if end > 0 else 0
        if size == 0:
            return out
        out += data[end + 2:end + 2 + size]
        data = data[end + 2 + size + 2:]


def page(address, live, done, failures):
    version = 0
    while not done.is_set():
        after = version if live else FAR_AHEAD
        try:
            status, text = request(address, "GET", f"/api/state?after={after}")
            if status != 200:
                failures.append(f"poll {status}")
                time.sleep(1)
                continue
            version = json.loads(text)["version"]
        except (OSError, ValueError) as error:
            failures.append(f"poll {error}")
            time.sleep(1)


def open_pages(address, pages, live):
    """The pages, until the process is ended; failed polls are printed."""
    done = threading.Event()
    failures = []
    threads = [threading.Thread(target=page, args=(address, live, done, failures), daemon=True)
               for _ in range(pages)]
    for thread in threads:
        thread.start()
    last = 0
    while True:
        time.sleep(0.5)
        if len(failures) > last:
            print(f"  failed polls: {failures[last:]}", flush=True)
            last = len(failures)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed(count, send, failures):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        try:
            status, text = send()
            if status != 200:
                failures.append(f"{status} {text[:80]}")
        except OSError as error:
            failures.append(str(error))
        times.append(time.perf_counter() - started)
    return times


def report(name, times):
    ms = [t * 1000 for t in times]
    print(f"  {name}: median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms,"
          f" max {max(ms):.1f} ms over {len(ms)}")


def run(binary, pages, requests, live):
    process = subprocess.Popen([binary, "gui", "--variant", "hexcheckers"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = process.stdout.readline().strip()
        address = first.removeprefix("listening on http://").rstrip("/")
        status, text = request(address, "POST", "/api/new", {"white": "human", "black": "human"})
        assert status == 200, text
        move = json.loads(text)["legal"][0]
        # The pages run in a process of their own, so that their work does not hold up
        # the timed requests inside this one (Python runs one thread at a time).
        pages_process = multiprocessing.Process(target=open_pages, args=(address, pages, live))
        pages_process.start()
        failures = []
        time.sleep(2)
        page_times = timed(requests, lambda: request(address, "GET", "/"), failures)
        # Only the move is timed; the undo that takes it back is not.
        move_times = []
        for _ in range(requests):
            started = time.perf_counter()
            status, text = request(address, "POST", "/api/move", {"move": move})
            move_times.append(time.perf_counter() - started)
            if status != 200:
                failures.append(f"move {status} {text[:80]}")
            status, text = request(address, "POST", "/api/undo", {"count": 1})
            if status != 200:
                failures.append(f"undo {status} {text[:80]}")
        pages_process.terminate()
        pages_process.join()
        print(f"{pages} {'live' if live else 'stale'} pages open:")
        report("GET /", page_times)
        report("POST /api/move", move_times)
        print(f"  failed timed requests: {len(failures)} {failures[:5]}")
    finally:
        process.kill()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/tessera")
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    for live in (False, True):
        run(args.binary, args.pages, args.requests, live)
    return 0


if __name__ == "__main__":
    sys.exit(main())
