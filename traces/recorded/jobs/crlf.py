"""A tool that ends its lines with CRLF, as Windows-born tools and ptys do."""
import sys, time
out = sys.stdout.buffer
for i in range(1, 41):
    out.write(f"[{i:02d}/40] converting asset_{i:03d}.png -> asset_{i:03d}.webp\r\n".encode()); out.flush(); time.sleep(0.01)
out.write(b"\r\nconverted 40 assets, 0 errors\r\n")
