"""Reading the engine over a pipe for the exact-lines checks (exact_lines.py,
ending_lines.py): its replies to a list of commands, and the MultiPV lines of a search
with the marker line after each."""

import subprocess


def engine_replies(binary, commands):
    """Runs the engine on `commands` (end of input finishes the search) and returns its
    output lines."""
    text = "".join(command + "\n" for command in commands)
    done = subprocess.run([binary], input=text, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def words_after(words, key):
    return words[words.index(key) + 1]


def score_of(words):
    """('cp', N) or ('mate', N) of an info line's words."""
    kind = "cp" if "cp" in words else "mate"
    return kind, int(words_after(words, kind))


def multipv_lines(replies):
    """The search's lines in output order, (rank, score, first move, the line after it),
    with `score` as `score_of` gives it, and the `bestmove`."""
    lines, best = [], None
    for index, line in enumerate(replies):
        words = line.split()
        if line.startswith("bestmove "):
            best = words[1]
        if words[:1] != ["info"] or "multipv" not in words:
            continue
        marker = replies[index + 1] if index + 1 < len(replies) else ""
        lines.append((int(words_after(words, "multipv")), score_of(words), words_after(words, "pv"), marker))
    return lines, best


def shape_problems(lines, best, legal, key):
    """What is wrong with `lines` (as `multipv_lines` gives them, with plain scores) as a
    whole: one line per move of `legal`, ranked 1, 2, ... in order, best first by `key`
    of the score, and the `bestmove` line 1's."""
    problems = []
    if sorted(move for _, _, move, _ in lines) != sorted(legal):
        problems.append(f"lines for {len(lines)} moves, {len(legal)} legal")
    for number, (rank, _, _, _) in enumerate(lines):
        if rank != number + 1:
            problems.append(f"line {number + 1} has rank {rank}")
    keys = [key(score) for _, score, _, _ in lines]
    if keys != sorted(keys, reverse=True):
        problems.append("lines not best first")
    if lines and best != lines[0][2]:
        problems.append(f"bestmove {best}, line 1 {lines[0][2]}")
    return problems
