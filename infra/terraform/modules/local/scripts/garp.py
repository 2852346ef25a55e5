"""Gratuitous ARP for a floating address (vm-address.sh runs it inside the VM's network
namespace): three ARP replies from the interface's MAC, so the bridge and every neighbour
update the address's owner at once instead of after their cache times out.
Usage: garp.py INTERFACE IPV4 MAC (the interface's; /sys shows the host's interfaces here)"""
import ipaddress
import socket
import sys
import time

interface, address, mac_text = sys.argv[1], sys.argv[2], sys.argv[3]
ip = ipaddress.IPv4Address(address).packed
mac = bytes.fromhex(mac_text.replace(":", ""))
if len(mac) != 6:
    sys.exit(f"not a MAC address: {mac_text}")
broadcast = b"\xff" * 6
# Ethernet header, then ARP: Ethernet/IPv4, reply (2), sender = target = the address.
frame = broadcast + mac + b"\x08\x06" + b"\x00\x01\x08\x00\x06\x04\x00\x02" + mac + ip + broadcast + ip
with socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as sock:
    sock.bind((interface, 0))
    for attempt in range(3):
        sock.send(frame)
        time.sleep(0.05)
