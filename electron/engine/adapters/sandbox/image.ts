/**
 * The sandbox image: the busybox root file system imported into the engine under a tag derived
 * from its content hash, so an unchanged image is found and reused instead of imported again.
 */
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { EngineError } from '../../../../shared/errors.js';
import { buildRootfs } from './rootfs.js';

/** Image repository name; the tag is the first 12 hex digits of the content hash. */
export const IMAGE_REPO = 'warden-sandbox';

/** Label holding the full content hash of the imported root file system. */
export const IMAGE_HASH_LABEL = 'warden.image.hash';

/** Stages of preparing the image. */
export type ImagePhase = 'build' | 'check' | 'import' | 'done';

/** One progress report: the stage and how far it is (0..1). */
export interface ImageProgress {
  phase: ImagePhase;
  fraction: number;
  message?: string;
}

/** Options of ensureImage. */
export interface EnsureImageOptions {
  onProgress?: (p: ImageProgress) => void;
  /** Path of a static busybox (default: WARDEN_BUSYBOX or /bin/busybox). */
  busyboxPath?: string;
  /** Repository name (default IMAGE_REPO); a separate one keeps trial imports away from the real image. */
  repo?: string;
}

/** What ensureImage found or made. */
export interface SandboxImage {
  /** `<repo>:<hash12>`, usable as a container's Image. */
  tag: string;
  hash: string;
  /** False when an image with this content was already present. */
  imported: boolean;
  ms: number;
}

async function findImage(docker: Docker, tag: string, hash: string): Promise<boolean> {
  try {
    const info = await docker.getImage(tag).inspect();
    return info.Config?.Labels?.[IMAGE_HASH_LABEL] === hash;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return false;
    throw e;
  }
}

/** Waits for the engine's JSON progress stream to end; an `error` member in it is a failure. */
function drain(stream: NodeJS.ReadableStream, modem: Docker['modem']): Promise<void> {
  return new Promise((resolve, reject) => {
    modem.followProgress(stream, (err: Error | null, out: { error?: string; errorDetail?: { message?: string } }[]) => {
      if (err) return reject(err);
      const bad = out.find((o) => o.error || o.errorDetail);
      if (bad) return reject(new Error(bad.error ?? bad.errorDetail?.message ?? 'import failed'));
      resolve();
    });
  });
}

/**
 * Makes sure the engine holds the sandbox image, importing it from a freshly built root file
 * system when no image with the same content hash is present.
 */
export async function ensureImage(docker: Docker, opts: EnsureImageOptions = {}): Promise<SandboxImage> {
  const t0 = performance.now();
  const report = (phase: ImagePhase, fraction: number, message?: string) => opts.onProgress?.(message === undefined ? { phase, fraction } : { phase, fraction, message });
  report('build', 0, 'building the busybox root file system');
  const rootfs = await buildRootfs(opts.busyboxPath);
  report('build', 1, `${rootfs.applets.length} applets, ${Math.round(rootfs.tar.length / 1024)} KiB`);
  const tag = `${opts.repo ?? IMAGE_REPO}:${rootfs.hash.slice(0, 12)}`;
  report('check', 0, `looking for ${tag}`);
  if (await findImage(docker, tag, rootfs.hash)) {
    report('check', 1, 'present');
    report('done', 1, tag);
    return { tag, hash: rootfs.hash, imported: false, ms: performance.now() - t0 };
  }
  report('check', 1, 'absent');
  report('import', 0, `importing ${tag}`);
  const total = rootfs.tar.length;
  const step = 256 * 1024;
  let sent = 0;
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < total; i += step) {
        const chunk = rootfs.tar.subarray(i, Math.min(total, i + step));
        sent += chunk.length;
        report('import', Math.min(0.99, sent / total));
        yield chunk;
      }
    })(),
  );
  try {
    // the tag goes inside `repo`: the engine ignores a separate `tag` on import; one label per
    // change, because Podman reads `LABEL a=1 b=2` as a single label
    const res = await docker.importImage(source, { repo: tag, changes: [`LABEL ${IMAGE_HASH_LABEL}=${rootfs.hash}`, 'LABEL warden.image=1'] });
    await drain(res, docker.modem);
  } catch (e) {
    throw new EngineError('SANDBOX_UNAVAILABLE', `importing the sandbox image failed: ${(e as Error).message}`);
  }
  if (!(await findImage(docker, tag, rootfs.hash))) throw new EngineError('SANDBOX_UNAVAILABLE', `the engine did not keep the imported image ${tag}`);
  report('import', 1);
  report('done', 1, tag);
  return { tag, hash: rootfs.hash, imported: true, ms: performance.now() - t0 };
}
