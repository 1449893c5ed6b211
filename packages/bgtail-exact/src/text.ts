// The `bgtail-exact-1` text of a reply: the header or the status line, the body, the notes, and
// the notes about the log itself.

import { formatBytes, groupThousands, plural } from "./js.js";
import type { Limits } from "./limits.js";
import type { Numbers } from "./numbers.js";
import type { Start } from "./start.js";
import type { Scan } from "./scan.js";
import type { Selection } from "./select.js";
import type { ResetReason } from "./types.js";

/**
 * The text, and where its body is (`[start, end)` in UTF-16 units): the header (or the status
 * line when nothing is new) and the body, the notes, then the notes about the log (its cap,
 * the view, the line bound). A raw read's reset note goes first among the notes.
 */
export function compose(
  limits: Limits,
  raw: boolean,
  window: number,
  scan: Scan,
  start: Start,
  sel: Selection,
  n: Numbers,
  partialPending: boolean,
): [string, [number, number]] {
  const reset = start.reset === undefined ? undefined : resetWords(start.reset);
  let text = "";
  let body: [number, number] = [0, 0];
  if (sel.body !== undefined && raw) {
    if (sel.shownComplete.length > 0 || sel.partialShown) body = [0, sel.body.length];
    text += sel.body;
    if (reset !== undefined) sel.notes.unshift(`${reset}, so the bookmark started over`);
  } else if (sel.body !== undefined) {
    text += prefix(reset, n) + headerWhat(sel, n) + ` — ${n.logWords}\n`;
    body = [text.length, text.length + sel.body.length];
    text += sel.body;
  } else {
    text += prefix(reset, n) + status(n, partialPending);
  }
  if (sel.notes.length > 0) text += `\n\n(${sel.notes.join("; ")})`;
  return [text + logNotes(limits, window, scan), body];
}

function prefix(reset: string | undefined, n: Numbers): string {
  if (reset !== undefined) return `${reset}, so the bookmark starts over: `;
  return n.continuing ? "" : "first read: ";
}

/** What a condensed header says the text carries, its parts joined by `", "`. */
function headerWhat(sel: Selection, n: Numbers): string {
  const parts: string[] = [];
  const shown = sel.shownComplete.length;
  if (n.continuing) {
    if (n.newShown > 0 && n.newShown < n.newLines) parts.push(`+${n.newShown} of ${n.newLines} new lines`);
    else if (n.newShown > 0) parts.push(`+${n.newShown} new ${plural(n.newShown, "line", "lines")}`);
    if (n.earlierShown > 0) {
      parts.push(`${n.earlierShown} earlier ${plural(n.earlierShown, "line", "lines")} not shown before`);
    }
  } else if (shown > 0 || !sel.partialShown) {
    parts.push(`${shown} ${plural(shown, "line", "lines")}`);
  }
  if (sel.partialShown) parts.push("a partial line");
  return parts.join(", ");
}

/** The status of a reply with nothing to show. */
function status(n: Numbers, partialPending: boolean): string {
  let text: string;
  if (n.counted === 0) {
    // A view that starts past the log's first byte may hold no line of a log that has many:
    // the log is empty only when the view is all of it.
    text = `(${n.wholeLog ? "empty log" : "nothing in view"} — ${n.logWords}`;
  } else {
    text = `(no new lines — ${n.logWords}`;
    if (n.newestUnseen !== undefined) {
      text += `; ${n.unseenAbove} earlier ${plural(n.unseenAbove, "line", "lines")} never shown — lines: ${n.counted - n.newestUnseen} reaches the newest`;
    }
  }
  if (partialPending) text += "; the last line is still being written";
  return text + ")";
}

/** The wrapper's cap note (upstream's words). */
export function capNote(cap: number): string {
  return `\n\n(log truncated at ${formatBytes(cap)} — lines past the cap were never written, so this is not the run's real end)`;
}

function logNotes(limits: Limits, window: number, scan: Scan): string {
  let text = "";
  if (scan.truncatedAt !== undefined) text += capNote(scan.truncatedAt);
  if (scan.origin > 0) {
    text += `\n\n(view: the last ${formatBytes(window)} of ${formatBytes(scan.view.size)} — earlier lines are not counted; pass a larger \`bytes\` (max ${formatBytes(limits.viewMax)}) to reach them)`;
  }
  if (scan.lineBoundHit) {
    text += `\n\n(only the last ${groupThousands(limits.scanLinesMax)} ${plural(limits.scanLinesMax, "line", "lines")} of the view were scanned)`;
  }
  return text;
}

/** Why the bookmark starts over, in the words the text uses. */
export function resetWords(reason: ResetReason): string {
  switch (reason) {
    case "path_changed":
      return "the id now resolves to another log path";
    case "shrank":
      return "the log shrank since the last read";
    case "file_replaced":
      return "another file now sits at the log path";
    case "rewritten":
      return "the log's first bytes changed (it was rewritten, or cut and written again)";
    case "regrown_past_cut":
      return "the bytes before the last read's end changed (the log was cut and regrown, or rewritten)";
    case "partial_rewritten":
      return "the unfinished last line the last read saw changed (redrawn in place, or the log was cut and regrown)";
  }
}
