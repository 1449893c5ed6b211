"""A byte cursor: every read shows the complete lines written since the last read, cut to
8,000 characters by keeping the oldest, and moves the cursor to the end of what it read.

The lines past the cut are never shown: `bgtail check --engine "cmd:python3
examples/python/cursor.py"` names them lost, and the read that cut them stalled.
"""

from eut import Reader, read_text, serve

BUDGET = 8000


class Cursor(Reader):
    name = "cursor.py"
    # Everything new is returned whatever `lines` says.
    capabilities = {"snapshot": True, "reset": True, "no_window": True}
    # An empty read says so in a line of its own.
    plain = {"notes": r"\(no new lines\)"}

    def read(self, job_id, log_path, lines, running):
        data = read_text(log_path).encode("utf-8")
        start = self.state.get(job_id, 0)
        if start > len(data):
            start = 0
        end = data.rfind(b"\n") + 1
        if end <= start:
            return "(no new lines)"
        self.state[job_id] = end
        kept, size = [], 0
        for line in data[start:end].decode("utf-8", errors="replace").split("\n")[:-1]:
            if size + len(line) + 1 > BUDGET:
                break
            kept.append(line)
            size += len(line) + 1
        return "\n".join(kept)


if __name__ == "__main__":
    serve(Cursor())
