// Stands in for mux's `src/node/runtime/LocalBaseRuntime.ts`, which the manager names only in an
// `instanceof` check (to choose a monitor's poll interval; the adapter arms no monitor). The
// real module pulls in much of the app. No runtime is an instance of this class.

export class LocalBaseRuntime {}
