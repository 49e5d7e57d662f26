#!/usr/bin/env python3
"""one_write_per_line.py PATTERN -- COMMAND...: runs COMMAND with its standard error a datagram
socket, which hands its reader each write(2) as one message, and prints what it wrote there, then
a line "lines in pieces: N". Exits 1 when a line that contains PATTERN came in more than one write
(or shared a write with part of another line), else with COMMAND's exit code.

Under mpirun the ranks' standard errors reach one terminal, and a message written in pieces (each
std::cerr << a write of its own) is cut by another rank's; how often depends on timing, so a test
of the job itself would pass by luck. One write per line is what makes it never happen, and this
tests that, whatever the timing.
"""
import socket
import subprocess
import sys

args = sys.argv[1:]
if len(args) < 3 or args[1] != "--":
    sys.exit(__doc__)
pattern, command = args[0], args[2:]

ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
process = subprocess.Popen(command, stderr=theirs)
theirs.close()
writes = []
ours.settimeout(600)
while True:
    # A daemon the command started (Open MPI's, for a singleton) may hold the socket a little
    # longer than the command lives.
    if process.poll() is not None:
        ours.settimeout(5)
    try:
        data = ours.recv(1 << 20)
    except socket.timeout:
        break
    if not data:
        break
    writes.append(data.decode("utf-8", "replace"))
code = process.wait()

pieces = 0
text = "".join(writes)
sys.stdout.write(text)
for line in text.splitlines():
    if pattern not in line:
        continue
    whole = any(w == line + "\n" or w.startswith(line + "\n") or ("\n" + line + "\n") in w
                for w in writes)
    if not whole:
        pieces += 1
        print(f"in pieces: {line!r}")
print(f"lines in pieces: {pieces}")
sys.exit(1 if pieces else code)
