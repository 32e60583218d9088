#!/usr/bin/env python3
"""screen.py - what a terminal shows after the bytes on stdin.

A small VT100 subset: printable text, CR, LF, BS, tab, ESC[K, ESC[J and
ESC[nA/B/C/D/G, with lines wrapped at the width given (default 80; 0:
never).  Prints the screen's lines, trailing spaces removed, so that a test
checks what a person at the terminal would see rather than the bytes
rebench wrote.  With --join, a line the terminal wrapped is printed whole,
as one line: what was glued to what stays in one line, and table rows keep
their tabs (a tab is kept as a tab, not as the spaces it skips).

Usage: screen.py [--join] [COLUMNS] < capture
"""
import re
import sys

args = sys.argv[1:]
join = "--join" in args
args = [a for a in args if a != "--join"]
cols = int(args[0]) if args else 80
data = sys.stdin.buffer.read().decode("utf-8", "replace")
lines = [[]]
wrapped = set()  # rows that continue the row above (soft wraps)
row = col = 0
csi = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def cell_line(r):
    while len(lines) <= r:
        lines.append([])
    return lines[r]


def pad(line, n):
    while len(line) < n:
        line.append(" ")


i = 0
while i < len(data):
    c = data[i]
    if c == "\x1b":
        m = csi.match(data, i)
        if not m:
            i += 1
            continue
        arg, op = m.group(1), m.group(2)
        n = int(arg) if arg.isdigit() else 0
        line = cell_line(row)
        if op == "K":
            if n == 0:
                del line[col:]
            elif n == 2:
                line.clear()
        elif op == "J" and n == 0:
            del line[col:]
            del lines[row + 1:]
            wrapped = {r for r in wrapped if r <= row}
        elif op == "A":
            row = max(0, row - max(n, 1))
        elif op == "B":
            row += max(n, 1)
        elif op == "C":
            col += max(n, 1)
        elif op == "D":
            col = max(0, col - max(n, 1))
        elif op == "G":
            col = max(n, 1) - 1
        i = m.end()
        continue
    if c == "\r":
        col = 0
    elif c == "\n":
        row += 1
        col = 0
        wrapped.discard(row)
    elif c == "\b":
        col = max(0, col - 1)
    elif c == "\t":
        line = cell_line(row)
        pad(line, col)
        stop = (col // 8 + 1) * 8
        if cols:
            stop = min(cols, stop)
        line[col:stop] = ["\t"] + [""] * (stop - col - 1)
        col = stop
    elif c >= " ":
        if cols and col >= cols:
            row += 1
            col = 0
            wrapped.add(row)
            cell_line(row).clear()
        line = cell_line(row)
        pad(line, col)
        if col < len(line):
            line[col] = c
        else:
            line.append(c)
        col += 1
    cell_line(row)
    i += 1

out = []
for r, l in enumerate(lines):
    text = "".join(l)
    if join and r in wrapped and out:
        out[-1] += text
    else:
        out.append(text)
out = [l.rstrip(" ") for l in out]
while out and not out[-1]:
    out.pop()
print("\n".join(out))
