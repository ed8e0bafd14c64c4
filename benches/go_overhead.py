#!/usr/bin/env python3
"""What one `go` costs besides its search: `go depth 1` repeated N times on one position,
the mean wall time per answer, for each binary given, alternately, at Threads=1 and 2.

    python3 benches/go_overhead.py BINARY_A BINARY_B [--n 300]
"""
import argparse
import subprocess
import time


def run(path, n=300, threads=1):
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(l): p.stdin.write(l+"\n")
    def wait(pref):
        while True:
            l = p.stdout.readline()
            if l.startswith(pref): return
    send("uci"); wait("uciok"); send(f"setoption name Threads value {threads}"); send("isready"); wait("readyok")
    send("position startpos moves e2e4 e7e5")
    t = time.perf_counter()
    for _ in range(n):
        send("go depth 1"); wait("bestmove")
    dt = (time.perf_counter() - t) / n * 1000
    send("quit"); p.wait()
    return dt
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--n", type=int, default=300)
    args = ap.parse_args()
    for th in (1, 2):
        for _ in range(2):
            for b in args.binaries:
                print(f"Threads={th} {b}: {run(b, args.n, th):.2f} ms per go depth 1")


if __name__ == "__main__":
    main()
