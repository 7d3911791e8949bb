import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { extract } from 'tar-stream';
import { Readable } from 'node:stream';
import { buildRootfs, GROUP, PASSWD } from '../../../electron/engine/adapters/sandbox/rootfs.js';
import { ensureImage, prepareSandboxImage, IMAGE_HASH_LABEL, type ImageProgress } from '../../../electron/engine/adapters/sandbox/index.js';
import type { DockerSandbox } from '../../../electron/engine/adapters/sandbox/index.js';
import { connectTestEngine } from './engine.js';

interface TarEntry {
  type: string;
  mode: number;
  uid: number;
  gid: number;
  linkname: string | null;
  body: Buffer;
}

async function readTar(tar: Buffer): Promise<Map<string, TarEntry>> {
  const out = new Map<string, TarEntry>();
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (h, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        out.set(h.name.replace(/\/$/, ''), { type: h.type, mode: h.mode, uid: h.uid, gid: h.gid, linkname: h.linkname, body: Buffer.concat(chunks) });
        next();
      });
      stream.resume();
    });
    ex.on('finish', () => resolve());
    ex.on('error', reject);
  });
  Readable.from([tar]).pipe(ex as unknown as NodeJS.WritableStream);
  await done;
  return out;
}

describe('sandbox root file system', () => {
  it('holds busybox, a link for every applet busybox lists, and the two identities', async () => {
    const rootfs = await buildRootfs();
    const entries = await readTar(rootfs.tar);
    const busybox = entries.get('bin/busybox');
    expect(busybox?.type).toBe('file');
    expect(busybox?.mode).toBe(0o755);
    const listed = execFileSync('/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n').filter((n) => n && n !== 'linuxrc' && n !== 'busybox');
    const linkNames = new Set([...entries].filter(([, e]) => e.type === 'symlink' && e.linkname === '/bin/busybox').map(([n]) => n.slice(n.lastIndexOf('/') + 1)));
    expect(listed.filter((n) => !linkNames.has(n))).toEqual([]);
    expect(entries.get('bin/sh')?.linkname).toBe('/bin/busybox');
    expect(entries.get('etc/passwd')?.body.toString()).toBe(PASSWD);
    expect(PASSWD).toContain('user:x:1000:1000:user:/home/user:/bin/sh');
    expect(entries.get('etc/group')?.body.toString()).toBe(GROUP);
    expect(entries.get('tmp')?.mode).toBe(0o1777);
    expect(entries.get('home/user')).toMatchObject({ type: 'directory', uid: 1000, gid: 1000 });
    expect(entries.get('root')).toMatchObject({ type: 'directory', mode: 0o700, uid: 0 });
  });

  it('is byte-for-byte reproducible, so its hash names the content', async () => {
    const [a, b] = await Promise.all([buildRootfs(), buildRootfs()]);
    expect(a.hash).toBe(b.hash);
    expect(a.tar.equals(b.tar)).toBe(true);
  });

  it('fails with SANDBOX_UNAVAILABLE naming the fix when there is no busybox', async () => {
    await expect(buildRootfs('/nonexistent/busybox')).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE', message: expect.stringContaining('busybox-static') });
  });
});

describe('sandbox image', () => {
  let sandbox: DockerSandbox;
  beforeAll(async () => {
    sandbox = await connectTestEngine();
  });
  afterAll(async () => {
    await sandbox?.closeAll();
  });

  it('is imported once under a content-hash tag and label, then reused', async () => {
    const first = await ensureImage(sandbox.docker);
    const info = await sandbox.docker.getImage(first.tag).inspect();
    expect(info.Config.Labels?.[IMAGE_HASH_LABEL]).toBe(first.hash);
    expect(first.tag).toBe(`warden-sandbox:${first.hash.slice(0, 12)}`);
    const phases: ImageProgress[] = [];
    const again = await ensureImage(sandbox.docker, { onProgress: (p) => phases.push(p) });
    expect(again).toMatchObject({ tag: first.tag, hash: first.hash, imported: false });
    expect(phases.map((p) => p.phase)).toEqual(['build', 'build', 'check', 'check', 'done']);
  });

  it('is what prepareSandboxImage makes sure of, naming the engine it used', async () => {
    const phases: string[] = [];
    const prepared = await prepareSandboxImage({ onProgress: (p) => phases.push(p.phase) });
    expect(prepared.tag).toBe((await ensureImage(sandbox.docker)).tag);
    expect(prepared.address).toBe(sandbox.address);
    expect(phases.at(-1)).toBe('done');
  });

  it('reports import progress from 0 to 1 when the image is missing', async () => {
    // a repository of its own, so the image other test files use is never touched
    const repo = `warden-sandbox-trial-${process.pid}`;
    const phases: ImageProgress[] = [];
    const made = await ensureImage(sandbox.docker, { repo, onProgress: (p) => phases.push(p) });
    try {
      expect(made.imported).toBe(true);
      expect(made.tag.startsWith(`${repo}:`)).toBe(true);
      const imports = phases.filter((p) => p.phase === 'import').map((p) => p.fraction);
      expect(imports[0]).toBe(0);
      expect(imports.at(-1)).toBe(1);
      expect(imports.every((f, i) => i === 0 || f >= imports[i - 1]!)).toBe(true);
      expect(phases.at(-1)).toMatchObject({ phase: 'done', fraction: 1 });
    } finally {
      await sandbox.docker.getImage(made.tag).remove({ force: true });
    }
  });
});
