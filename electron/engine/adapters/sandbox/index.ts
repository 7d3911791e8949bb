/**
 * The OS sandbox on a Docker-API engine: episodes, read-only probes, and the gated run.
 */
export { DockerSandbox, Episode, sandboxStatus, prepareSandboxImage, inEpisodeCwd, DEFAULT_LIMITS, EPISODE_LABEL } from './docker-sandbox.js';
export type { ConnectOptions, EpisodeOptions, ExecOptions, ExecResult, SandboxLimits, SandboxStatus, SandboxUser } from './docker-sandbox.js';
export { ensureImage, IMAGE_REPO, IMAGE_HASH_LABEL } from './image.js';
export type { EnsureImageOptions, ImagePhase, ImageProgress, SandboxImage } from './image.js';
export { EpisodeProber, createEpisodeProber, probesToEnv } from './episode-prober.js';
export type { EpisodeProberOptions } from './episode-prober.js';
export { cronAccount, findTests, planProbes, scheduledIds, programOf, probeScript, parseProbeOutput, probeResults, sedSubstitution, settingsOffBy, shQuote } from './probe-script.js';
export type { Destination, FindProbe, PathInfo, ProbePlan, Substitution } from './probe-script.js';
export { runInEpisode } from './run.js';
export { rehearse } from './rehearsal.js';
export type { RehearseOptions } from './rehearsal.js';
export type { RunOptions, Transcript } from './run.js';
