"""A bgtail-eut engine in one file: the protocol loop around a reader of your own.

Copy this file beside your reader, subclass `Reader`, and run
`bgtail check --engine "cmd:python3 your_reader.py"`. The loop answers every request with
exactly one JSON line and flushes it at once: a reader that does not flush times out at `init`.
Only the standard library is used. See docs/your-reader.md.
"""

import json
import sys


class Reader:
    """One reader of background jobs' logs. Override `read`; keep every bookmark in
    `self.state`, a JSON value, so that `snapshot` and `restore` are exact."""

    name = "my-reader"
    version = "0.1.0"
    # What the reader can do (docs/engine-protocol.md, `init_ok`): `snapshot` lets the model
    # checker explore every sequence of appends and reads from any state.
    capabilities = {"snapshot": True, "reset": True}
    # Limits the reader has, or `None` for none (the judge then holds it to an 8,000-unit body).
    limits = None
    # How the reader prints the log's lines (docs/engine-protocol.md, "The plain format").
    plain = {}

    def __init__(self):
        self.state = {}

    def read(self, job_id, log_path, lines, running):
        """The text the agent sees for one read of `job_id`'s log at `log_path`. `lines` is
        the agent's `lines` (`None` when it gave none); `running` whether the job runs."""
        raise NotImplementedError

    def init_ok(self):
        reply = {
            "type": "init_ok",
            "version": 1,
            "engine": {"name": self.name, "version": self.version},
            "capabilities": self.capabilities,
            "text_format": "plain-1",
            "plain": self.plain,
        }
        if self.limits is not None:
            reply["limits"] = self.limits
        return reply

    def answer(self, request):
        """The reply to one request, without `in_reply_to`."""
        kind = request.get("type")
        if kind == "init":
            return self.init_ok()
        if kind == "read":
            text = self.read(
                request["job_id"],
                request["log_path"],
                request.get("lines"),
                request.get("running", False),
            )
            return {"type": "read_ok", "text": text}
        if kind == "reset":
            self.state = {}
            return {"type": "reset_ok"}
        if kind == "snapshot":
            return {"type": "snapshot_ok", "state": self.state}
        if kind == "restore":
            self.state = request["state"]
            return {"type": "restore_ok"}
        return {"type": "error", "code": "not_supported", "text": f"no request {kind!r}"}


def read_text(path):
    """The log's bytes as text (undecodable bytes become U+FFFD), or "" when it is missing."""
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def serve(reader):
    """Answers requests from stdin until it closes, one JSON line each, flushed."""
    for line in sys.stdin:
        request = json.loads(line)
        reply = reader.answer(request)
        reply["in_reply_to"] = request["msg_id"]
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
