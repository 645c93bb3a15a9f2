/** Reading a V8 `.cpuprofile` (node --cpu-prof) for the profiling benches (profile-front.ts, profile-sidecar.ts). */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time in µs per node id, from the samples of the measured load only: the last `seconds`
 * before the profile ends (the process stops right after its load), so start-up and warm-up are
 * left out.
 */
export function selfTimeOfLast(profile: Profile, seconds: number): Map<number, number> {
  const self = new Map<number, number>();
  let at = profile.startTime;
  const from = profile.endTime - seconds * 1e6;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return self;
}
