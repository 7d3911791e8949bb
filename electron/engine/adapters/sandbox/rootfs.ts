/**
 * The sandbox's root file system, built without a registry: a static busybox with one link per
 * applet, two identities (root and `user`, uid 1000) and the usual top-level folders. The tarball
 * is byte-for-byte reproducible (fixed times, fixed order), so its hash names the image.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { pack, type Header } from 'tar-stream';
import { EngineError } from '../../../../shared/errors.js';

const run = promisify(execFile);

/** Bumped whenever the layout below changes in a way the busybox bytes would not show. */
const LAYOUT_VERSION = 'warden-rootfs-2';

/** A fixed time for every entry, so the same inputs give the same bytes. */
const MTIME = new Date('2024-01-01T00:00:00Z');

/** The static busybox used when nothing else is named: Debian's busybox-static. */
export const DEFAULT_BUSYBOX = '/bin/busybox';

/** Account files: root, the ordinary user the agent runs as, and nobody. */
export const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'user:x:1000:1000:user:/home/user:/bin/sh',
  'nobody:x:65534:65534:nobody:/nonexistent:/bin/false',
].join('\n') + '\n';

/** Groups matching PASSWD. */
export const GROUP = ['root:x:0:', 'user:x:1000:', 'nogroup:x:65534:'].join('\n') + '\n';

/** A built root file system. */
export interface Rootfs {
  tar: Buffer;
  /** sha256 of the tarball, hex. */
  hash: string;
  /** Applet paths linked to busybox, relative to `/`. */
  applets: string[];
}

type Entry = { header: Partial<Header> & { name: string }; body?: Buffer };

function dir(name: string, mode: number, uid = 0, gid = 0): Entry {
  return { header: { name, type: 'directory', mode, uid, gid, mtime: MTIME } };
}

function file(name: string, body: Buffer, mode: number): Entry {
  return { header: { name, type: 'file', mode, uid: 0, gid: 0, size: body.length, mtime: MTIME }, body };
}

function symlink(name: string, target: string): Entry {
  return { header: { name, type: 'symlink', linkname: target, mode: 0o777, uid: 0, gid: 0, mtime: MTIME } };
}

/**
 * Applet install paths as busybox itself lists them (`--list-full`, e.g. `usr/bin/wget`). Entries
 * outside bin/sbin folders (busybox's `linuxrc`) are left out: nothing runs them and they would
 * clutter `/`.
 */
async function appletPaths(busybox: string): Promise<string[]> {
  let full: string;
  let names: string;
  try {
    full = (await run(busybox, ['--list-full'], { maxBuffer: 1 << 20 })).stdout;
    names = (await run(busybox, ['--list'], { maxBuffer: 1 << 20 })).stdout;
  } catch (e) {
    throw new EngineError('SANDBOX_UNAVAILABLE', `cannot run ${busybox} to list its applets (${(e as Error).message.split('\n')[0]}): it must be a static busybox for this machine (apt-get install busybox-static)`);
  }
  const paths = full.split('\n').map((l) => l.trim()).filter((l) => /^(usr\/)?s?bin\/[^/]+$/.test(l));
  const listed = new Set(paths.map((p) => p.slice(p.lastIndexOf('/') + 1)));
  // an applet --list names but --list-full does not place still gets a link in /bin
  for (const n of names.split('\n').map((l) => l.trim())) if (n && n !== 'linuxrc' && !listed.has(n) && !n.includes('/')) paths.push(`bin/${n}`);
  return [...new Set(paths)].filter((p) => p !== 'bin/busybox').sort();
}

function entries(busybox: Buffer, applets: string[]): Entry[] {
  const out: Entry[] = [
    dir('bin/', 0o755),
    dir('sbin/', 0o755),
    dir('usr/', 0o755),
    dir('usr/bin/', 0o755),
    dir('usr/sbin/', 0o755),
    dir('usr/local/', 0o755),
    dir('usr/local/bin/', 0o755),
    dir('etc/', 0o755),
    dir('root/', 0o700),
    dir('home/', 0o755),
    dir('home/user/', 0o755, 1000, 1000),
    dir('tmp/', 0o1777),
    dir('var/', 0o755),
    dir('var/tmp/', 0o1777),
    dir('var/log/', 0o755),
    dir('run/', 0o755),
    dir('mnt/', 0o755),
    dir('opt/', 0o755),
    dir('srv/', 0o755),
    dir('proc/', 0o555),
    dir('sys/', 0o555),
    dir('dev/', 0o755),
    file('bin/busybox', busybox, 0o755),
    file('etc/passwd', Buffer.from(PASSWD), 0o644),
    file('etc/group', Buffer.from(GROUP), 0o644),
    file('etc/shells', Buffer.from('/bin/sh\n/bin/ash\n/bin/bash\n'), 0o644),
    file('etc/hostname', Buffer.from('sandbox\n'), 0o644),
    // busybox init is the container's PID 1: with nothing to start it only reaps orphans
    file('etc/inittab', Buffer.from('# nothing to start: init only reaps orphaned processes\n'), 0o644),
  ];
  for (const a of applets) out.push(symlink(a, '/bin/busybox'));
  // agents write `bash script.sh` and `#!/bin/bash` as a matter of course; busybox has no bash
  // applet, so bash hands over to ash, which runs the common part of bash
  if (!applets.some((a) => a === 'bin/bash' || a === 'usr/bin/bash')) out.push(file('bin/bash', Buffer.from('#!/bin/sh\nexec /bin/sh "$@"\n'), 0o755));
  return out;
}

/** Builds the root file system tarball in memory (about 2 MB) from a static busybox. */
export async function buildRootfs(busyboxPath = process.env['WARDEN_BUSYBOX'] ?? DEFAULT_BUSYBOX): Promise<Rootfs> {
  let busybox: Buffer;
  try {
    busybox = await readFile(busyboxPath);
  } catch {
    throw new EngineError('SANDBOX_UNAVAILABLE', `no static busybox at ${busyboxPath}: apt-get install busybox-static, or set WARDEN_BUSYBOX to one`);
  }
  const applets = await appletPaths(busyboxPath);
  const p = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    p.on('data', (c: unknown) => chunks.push(c as Buffer));
    p.on('end', resolve);
    p.on('error', reject);
  });
  for (const e of entries(busybox, applets)) {
    await new Promise<void>((resolve, reject) => {
      p.entry(e.header, e.body ?? Buffer.alloc(0), (err) => (err ? reject(err) : resolve()));
    });
  }
  p.finalize();
  await done;
  const tar = Buffer.concat(chunks);
  const hash = createHash('sha256').update(LAYOUT_VERSION).update(tar).digest('hex');
  return { tar, hash, applets };
}
