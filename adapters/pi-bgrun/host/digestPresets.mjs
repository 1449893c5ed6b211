// Stands in for the checkout's sibling `./digestPresets.ts`, which a pi-bgrun checkout ships
// beside `extension/index.ts` (the copy this adapter is pointed at may not). The extension uses
// it only at a job's exit wake and when a config names digest presets — never in bgtail. With
// no config, none of these is reached; if one is, it fails loudly rather than invent an answer.

export const DIGEST_PRESET_IDS = [];

function unavailable(name) {
  return () => {
    throw new Error(`bgtail adapter: digestPresets.${name} is not available in this headless host`);
  };
}

export const digestNoMatchWakeLine = unavailable("digestNoMatchWakeLine");
export const digestNoMatchWarning = unavailable("digestNoMatchWarning");
export const selectDigestEntry = unavailable("selectDigestEntry");

/** No digest section is configured, so there are no declared digest types. */
export function digestTypes() {
  return [];
}
