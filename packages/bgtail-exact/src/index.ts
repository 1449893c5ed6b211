// bgtail's exact engine for TypeScript harnesses: the same reads, byte for byte, as the Rust
// reference (`bgtail::ExactEngine`), checked by bgtail's differential harness and model checker.

export { ExactEngine, RejectedError, emptyState, exactLines, clampWindow, checkId, fnv1a } from "./engine.js";
export { defaultLimits, modelLimits, validateLimits, longestEmission, LimitsError } from "./limits.js";
export type { Limits } from "./limits.js";
export { FileSource, MemorySource, UnavailableSource, SourceError, readSpan } from "./source.js";
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
