"""Structured JSON logs with very long lines, as a service under load writes them."""
import json, sys, time
for i in range(1, 61):
    record = {"ts": f"2026-11-30T09:{i // 60:02d}:{i % 60:02d}Z", "level": "warn" if i % 7 == 0 else "info",
              "msg": "request handled", "request_id": f"req-{i:05d}",
              "headers": {f"x-header-{k}": "v" * (20 + k) for k in range(40 + i % 20)},
              "body_sample": "abcdefghij" * (150 + 10 * (i % 9))}
    print(json.dumps(record), flush=True)
    time.sleep(0.02)
print(json.dumps({"level": "error", "msg": "shutdown: 3 requests failed", "failed": ["req-00007", "req-00014", "req-00021"]}))
sys.exit(3)
