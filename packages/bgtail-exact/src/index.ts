// bgtail's exact engine for TypeScript harnesses: the same reads, byte for byte, as the Rust
// reference (`bgtail::ExactEngine`), checked by bgtail's differential harness and model checker.
// The public API is this file's exports; the modules' other exports (the fingerprint hash, the
// request's clamps, the span reader) are the engine's internals and may change in any release.

export { ExactEngine, RejectedError, checkId } from "./engine.js";
export { emptyState } from "./bookmark.js";
export { defaultLimits, modelLimits, validateLimits, LimitsError } from "./limits.js";
export type { Limits } from "./limits.js";
export { FileSource, MemorySource, UnavailableSource, SourceError } from "./source.js";
export type { LogSource, LogStat, LogIdentity } from "./source.js";
export { parseState, snapshotState, StateError } from "./state.js";
export type {
  Bookmark,
  BytePrint,
  Counts,
  ExactState,
  Job,
  ReadKind,
  Reply,
  Request,
  ResetReason,
  ShownLine,
} from "./types.js";
