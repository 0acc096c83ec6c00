"""A tiny engine speaking just enough of PROTOCOL.md for `rosen bench`, which misbehaves once.

``python fake_engine.py MODE COUNTER``: every `go` adds one to the number in the file COUNTER
(shared by every process the test starts); the second `go` of the run misbehaves by MODE:
``crash`` (exit at once), ``hang`` (never answer), ``garbage`` (a malformed info line), or
``ok`` (never misbehave). Otherwise it answers the first legal move with a root info line.
"""
import sys
import time

import rosen

mode, counter = sys.argv[1], sys.argv[2]
position = None


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "ugi":
        say("id name fake")
        say("ugiok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position" and words[1] == "fen":
        position = rosen.Position(" ".join(words[2:]))
    elif words[0] == "go":
        with open(counter, "a+") as f:
            f.seek(0)
            count = len(f.read()) + 1
            f.write("x")
        if count == 2 and mode == "crash":
            sys.exit(3)
        if count == 2 and mode == "hang":
            time.sleep(3600)
        if count == 2 and mode == "garbage":
            say("info depth lots seldepth ? nodes many")
        say("info depth 1.5 seldepth 2 nodes 10 nps 1000 time 10 winrate 0.5 score 0 tree 11")
        say(f"bestmove {position.legal_moves()[0]}")
    elif words[0] == "quit":
        break
