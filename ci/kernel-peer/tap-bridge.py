#!/usr/bin/env python3
"""The Linux kernel's IPv6 stack as an independent peer for AwareBench's IPv6 host.

Run inside a fresh user and network namespace (``unshare -rn``, no root needed where
/dev/net/tun is open to the user): it creates the TAP interface awb0 with the MAC address given,
brings it up with its EUI-64 link-local address (duplicate address detection off, so the address
is usable at once), listens on TCP port 7000, and bridges awb0's Ethernet frames to standard
output and from standard input.

Messages both ways: type (1 octet), length (2, big-endian), body.
  type 0: an Ethernet frame (destination, source, EtherType, payload).
  type 1: a line of text. From the bridge: "ready ADDRESS", "no-tap REASON", and the result of a
          command. To the bridge, commands run by the kernel's stack against ADDRESS on awb0:
          "connect ADDRESS PORT"       TCP connect, then close  -> "connected" / "failed REASON"
          "udp ADDRESS PORT HEX"       one UDP datagram          -> "sent"
          "ping ADDRESS"               one ICMPv6 echo (raw)     -> "pong SECONDS" / "failed REASON"
Stops when standard input ends.
"""

import fcntl
import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time

TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000
NAME = "awb0"

out_lock = threading.Lock()


def send(kind, body):
    with out_lock:
        sys.stdout.buffer.write(struct.pack(">BH", kind, len(body)) + body)
        sys.stdout.buffer.flush()


def text(line):
    send(1, line.encode())


def read_exact(stream, count):
    data = b""
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def sysctl(path, value):
    with open("/proc/sys/net/ipv6/conf/%s/%s" % (NAME, path), "w") as f:
        f.write(value)


def link_local():
    for _ in range(100):
        with open("/proc/net/if_inet6") as f:
            for line in f:
                fields = line.split()
                if fields[5] == NAME and fields[0].startswith("fe80"):
                    raw = fields[0]
                    return socket.inet_ntop(socket.AF_INET6, bytes.fromhex(raw))
        time.sleep(0.02)
    return None


def listen():
    """Port 7000 listens before "ready" is announced: a probe sent the moment the host reads
    "ready" must find the listener, not a closed port (a race seen in CI, stop 30)."""
    server = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("::", 7000))
    server.listen(8)
    return server


def accept_forever(server):
    while True:
        connection, _ = server.accept()
        connection.close()


def command(line):
    words = line.split()
    try:
        scope = socket.if_nametoindex(NAME)
        if words[0] == "connect":
            with socket.create_connection((words[1] + "%" + NAME, int(words[2])), timeout=5):
                pass
            text("connected")
        elif words[0] == "udp":
            with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as udp:
                udp.sendto(bytes.fromhex(words[3]), (words[1], int(words[2]), 0, scope))
            text("sent")
        elif words[0] == "ping":
            with socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6) as raw:
                raw.settimeout(5)
                # Type 128, code 0, checksum 0 (the kernel fills it in for ICMPv6), id, sequence.
                raw.sendto(struct.pack(">BBHHH", 128, 0, 0, 0x4B50, 1) + b"kernel", (words[1], 0, 0, scope))
                started = time.monotonic()
                while True:
                    data, _ = raw.recvfrom(2048)
                    if data[0] == 129 and data[4:8] == struct.pack(">HH", 0x4B50, 1) and data[8:] == b"kernel":
                        text("pong %.6f" % (time.monotonic() - started))
                        break
        else:
            text("failed unknown command")
    except Exception as error:  # every failure is the command's answer
        text("failed %s" % error)


def main():
    mac = sys.argv[1]
    try:
        tap = os.open("/dev/net/tun", os.O_RDWR)
        fcntl.ioctl(tap, TUNSETIFF, struct.pack("16sH", NAME.encode(), IFF_TAP | IFF_NO_PI))
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        subprocess.run(["ip", "link", "set", NAME, "address", mac], check=True)
        sysctl("accept_dad", "0")
        sysctl("dad_transmits", "0")
        subprocess.run(["ip", "link", "set", NAME, "up"], check=True)
    except Exception as error:
        text("no-tap %s" % error)
        return
    server = listen()
    threading.Thread(target=accept_forever, args=(server,), daemon=True).start()
    address = link_local()
    text("ready %s" % address)

    def from_tap():
        while True:
            frame = os.read(tap, 65536)
            send(0, frame)

    threading.Thread(target=from_tap, daemon=True).start()
    stdin = sys.stdin.buffer
    while True:
        header = read_exact(stdin, 3)
        if header is None:
            return
        kind, length = struct.unpack(">BH", header)
        body = read_exact(stdin, length)
        if body is None:
            return
        if kind == 0:
            os.write(tap, body)
        else:
            threading.Thread(target=command, args=(body.decode(),), daemon=True).start()


if __name__ == "__main__":
    main()
