#!/usr/bin/env python3
"""Bounded loopback check of `draughtsdb dxp` with a hub engine (ENGINE=builtin:
the built-in one): RSS and engine processes idle, with 100 connections open,
after they close and after 100 more played 4 at a time; then the answer to a
999-minute GAMEREQ. Usage: dxp_rss.py BINARY PORT [dxp flags...], e.g.
dxp_rss.py ./draughtsdb 27821 --max-minutes 5. It starts and stops its own
dxp servers on 127.0.0.1:PORT."""
import os, socket, subprocess, sys, time

binary, port = sys.argv[1], int(sys.argv[2])
extra = sys.argv[3:]

def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return 0

def children(pid):
    n, mem = 0, 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            st = open(f"/proc/{d}/stat").read()
            ppid = int(st.rsplit(")", 1)[1].split()[1])
        except Exception:
            continue
        if ppid == pid:
            n += 1
            mem += rss(int(d))
    return n, mem

def report(label, pid):
    n, mem = children(pid)
    print(f"{label}: dxp RSS {rss(pid)} MB, engine processes {n} ({mem} MB)", flush=True)

def gamereq(minutes, follower=b"W"):
    name = b"rss-check".ljust(32)
    return b"R01" + name + follower + b"%03d" % minutes + b"000A\x00"

def recv_msgs(s, timeout):
    s.settimeout(timeout)
    buf = b""
    try:
        while True:
            d = s.recv(4096)
            if not d:
                break
            buf += d
            if any(m.startswith(b"M") for m in buf.split(b"\x00")[:-1]):
                break
    except (socket.timeout, OSError):
        pass
    return [m for m in buf.split(b"\x00") if m]

eng = ["--engine", "hub:" + binary, "--engine-arg", "hub"]
if os.environ.get("ENGINE") == "builtin":
    eng = ["--engine", "builtin"]
srv = subprocess.Popen([binary, "dxp", "--listen", f"127.0.0.1:{port}", "--depth", "2", *eng, *extra],
                       stderr=subprocess.DEVNULL)
try:
    time.sleep(1.5)
    report("idle", srv.pid)
    # 100 connections at once, each asking for a game (the server plays
    # White and moves first), held while we measure, then closed.
    socks = []
    for i in range(100):
        s = socket.create_connection(("127.0.0.1", port))
        socks.append(s)
    for s in socks:
        try:
            s.sendall(gamereq(5))
        except OSError:
            pass
    answered = 0
    for s in socks:
        msgs = recv_msgs(s, 0.5)
        if any(m.startswith(b"M") for m in msgs):
            answered += 1
    report(f"100 connections open ({answered} got a move)", srv.pid)
    for s in socks:
        s.close()
    time.sleep(3)
    report("3 s after closing them", srv.pid)
    # 100 more, 4 at a time, each playing one move.
    answered = 0
    for i in range(25):
        batch = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        for s in batch:
            try:
                s.sendall(gamereq(5))
            except OSError:
                pass
        for s in batch:
            if any(m.startswith(b"M") for m in recv_msgs(s, 10)):
                answered += 1
            s.close()
        time.sleep(0.3)
    time.sleep(3)
    report(f"3 s after 100 more, 4 at a time ({answered} got a move)", srv.pid)
finally:
    srv.terminate()
    srv.wait()

# A 999-minute GAMEREQ: without --depth/--movetime the move time comes
# from the request.
srv = subprocess.Popen([binary, "dxp", "--listen", f"127.0.0.1:{port}", *eng, *extra], stderr=subprocess.DEVNULL)
try:
    time.sleep(1.5)
    s = socket.create_connection(("127.0.0.1", port))
    t0 = time.time()
    s.sendall(gamereq(999))
    got = []
    s.settimeout(20)
    buf = b""
    try:
        while not any(m.startswith(b"M") for m in buf.split(b"\x00")):
            d = s.recv(4096)
            if not d:
                break
            buf += d
    except socket.timeout:
        pass
    msgs = [m for m in buf.split(b"\x00") if m]
    mv = [m for m in msgs if m.startswith(b"M")]
    print("999-minute GAMEREQ:", [m.decode(errors="replace") for m in msgs if not m.startswith(b"M")],
          f"first move after {time.time()-t0:.1f} s" if mv else f"no move within {time.time()-t0:.1f} s", flush=True)
    s.close()
finally:
    srv.terminate()
    srv.wait()
