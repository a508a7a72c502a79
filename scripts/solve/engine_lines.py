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
