#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: acpi-tables.py PRESENT POSSIBLE FACP OUTDIR

ACPI tables for run.sh --possible (see acpi_cpio() there):
writes OUTDIR/FACP.aml (the probe boot's FACP raised to ACPI 6.3) and
the MADT that makes POSSIBLE CPUs known, PRESENT of them online, for the
guest kernel to load from its initramfs (kernel/firmware/acpi/)."""
import struct, sys

if sys.argv[1:2] in (["-h"], ["--help"]):
    sys.exit(print(__doc__))
present, possible, facp, outdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]

def finish(t):
    t = bytearray(t)
    struct.pack_into('<I', t, 4, len(t))
    struct.pack_into('<I', t, 24, struct.unpack_from('<I', t, 24)[0] + 1)  # OEM revision
    t[9] = 0
    t[9] = (-sum(t)) & 0xff
    return bytes(t)

f = bytearray(open(facp, 'rb').read())
f += bytes(276 - len(f))
f[8] = 6            # FADT revision 6 ...
f[131] = 3          # ... minor 3: ACPI 6.3, online-capable bit honoured
open(outdir + '/FACP.aml', 'wb').write(finish(f))

body = struct.pack('<II', 0xFEE00000, 1)
for i in range(possible):
    body += struct.pack('<BBBBI', 0, 8, i, i, 1 if i < present else 2)
body += struct.pack('<BBBBII', 1, 12, 0, 0, 0xFEC00000, 0)
body += struct.pack('<BBBBIH', 2, 10, 0, 0, 2, 0)
for irq in (5, 9, 10, 11):
    body += struct.pack('<BBBBIH', 2, 10, 0, irq, irq, 0xd)
body += struct.pack('<BBBHB', 4, 6, 0xff, 0, 1)
hdr = struct.pack('<4sIBB6s8sI4sI', b'APIC', 0, 5, 0, b'BOCHS ', b'BXPC    ', 1, b'BXPC', 1)
open(outdir + '/APIC.aml', 'wb').write(finish(hdr + body))
