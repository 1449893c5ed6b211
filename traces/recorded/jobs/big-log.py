"""A chatty job whose log outgrows a 2 MiB view while it is polled."""
import sys, time
w = sys.stdout.write
for i in range(1, 42001):
    w(f"{i:06d} processed shard {i % 97:02d} offset {i * 4096:012d} checksum {(i * 2654435761) % 2**32:08x}\n")
    if i % 3000 == 0:
        sys.stdout.flush(); time.sleep(0.25)
w("summary: 42000 records, 0 errors\n")
