"""A stateless tail: every read shows the last `lines` lines of the log under a
`last N of M lines` header, whatever was shown before.

It repeats lines the agent has seen, and past 8,000 characters its body is over budget:
`bgtail check --engine "cmd:python3 examples/python/tail.py"` names both.
"""

from eut import Reader, read_text, serve


class Tail(Reader):
    name = "tail.py"
    # The header is not a line of the log, and its M is the log's line count.
    plain = {"header": {"pattern": r"last \d+ of (?P<total>\d+) lines"}}

    def read(self, job_id, log_path, lines, running):
        text = read_text(log_path)
        every = text.split("\n")
        if every and every[-1] == "":
            every.pop()
        n = 40 if lines is None else max(1, int(lines))
        shown = every[-n:]
        return "\n".join([f"last {len(shown)} of {len(every)} lines"] + shown)


if __name__ == "__main__":
    serve(Tail())
