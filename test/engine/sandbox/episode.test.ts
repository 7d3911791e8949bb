import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { hostname } from 'node:os';
import { DockerSandbox, EPISODE_LABEL, sandboxStatus, type Episode } from '../../../electron/engine/adapters/sandbox/index.js';
import { connectTestEngine } from './engine.js';

describe('no engine', () => {
  it('says plainly there is no engine and how to get one when DOCKER_HOST points at a dead socket', async () => {
    const saved = process.env['DOCKER_HOST'];
    process.env['DOCKER_HOST'] = 'unix:///tmp/warden-no-engine-here.sock';
    try {
      const err = await DockerSandbox.connect({ pingTimeoutMs: 500 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
      const message = (err as Error).message;
      expect(message).toContain('no Docker-API engine at unix:///tmp/warden-no-engine-here.sock');
      expect(message).toContain('scripts/docker-engine.sh start');
      expect(message).toContain('DOCKER_HOST');
      expect(message).not.toContain('\n');
      const status = await sandboxStatus({ pingTimeoutMs: 500 });
      expect(status).toMatchObject({ available: false, address: 'unix:///tmp/warden-no-engine-here.sock' });
      expect(status.message).toBe(message);
    } finally {
      if (saved === undefined) delete process.env['DOCKER_HOST'];
      else process.env['DOCKER_HOST'] = saved;
    }
  });
});

describe('sandbox episodes', () => {
  let sandbox: DockerSandbox;
  beforeAll(async () => {
    sandbox = await connectTestEngine();
  });
  afterAll(async () => {
    await sandbox?.closeAll();
  });

  it('reports the engine as available with its version', async () => {
    const status = await sandboxStatus();
    expect(status.available).toBe(true);
    expect(status.message).toMatch(/^sandbox engine .+ at /);
  });

  it('locks the container down: no network, no capabilities for the user, no new privileges, limits, labels', async () => {
    const ep = await sandbox.openEpisode({ user: 'user' });
    try {
      const info = await sandbox.docker.getContainer(ep.id).inspect();
      const hc = info.HostConfig;
      expect(hc.NetworkMode).toBe('none');
      expect(hc.CapDrop).toEqual(['ALL']);
      expect(hc.SecurityOpt).toContain('no-new-privileges');
      expect(hc.Memory).toBe(256 * 1024 * 1024);
      expect(hc.MemorySwap).toBe(hc.Memory);
      expect(hc.PidsLimit).toBe(128);
      expect(hc.NanoCpus).toBe(1e9);
      expect(Object.keys(hc.Tmpfs ?? {})).toEqual(expect.arrayContaining(['/tmp', '/home/user']));
      expect(info.Config.Labels[EPISODE_LABEL]).toBe('1');
      expect(Number(info.Config.Labels['warden.created'])).toBeGreaterThan(Date.now() - 60_000);
      // what the processes themselves see
      const r = await ep.exec('grep -E "^(CapEff|NoNewPrivs)" /proc/self/status; ls /sys/class/net; id -u -n');
      expect(r.stdout).toContain('CapEff:\t0000000000000000');
      expect(r.stdout).toContain('NoNewPrivs:\t1');
      expect(r.stdout.split('\n')).not.toContain('eth0');
      expect(r.stdout.trim().endsWith('user')).toBe(true);
      const root = await ep.exec('id -u; mknod /tmp/dev c 1 3', { user: 'root' });
      expect(root.stdout.trim()).toBe('0');
      expect(root.exitCode).not.toBe(0);
    } finally {
      await ep.close();
    }
  });

  it('runs the setup script as root before anything else, and root can prepare the user home', async () => {
    const ep = await sandbox.openEpisode({ user: 'user', setup: 'mkdir -p /srv/app && echo hi > /home/user/note && chown user:user /home/user/note && id -u -n' });
    try {
      expect(ep.setup).toMatchObject({ exitCode: 0, stdout: 'root\n', timedOut: false });
      const r = await ep.exec('cat note; ls -ld /srv/app; echo more >> note && cat note');
      expect(r.stdout).toContain('hi\n');
      expect(r.stdout).toContain('more\n');
      expect(r.exitCode).toBe(0);
    } finally {
      await ep.close();
    }
  });

  it('runs the ordinary account with the groups the setup made it a member of, as a login would, and not at all once it is taken out', async () => {
    const setup = "echo 'crew:x:1400:user' >> /etc/group && mkdir -p /srv/crew && echo old > /srv/crew/roster && chgrp -R 1400 /srv/crew && chmod 664 /srv/crew/roster";
    const ep = await sandbox.openEpisode({ user: 'user', setup });
    try {
      const r = await ep.exec('id -G; echo new > /srv/crew/roster && cat /srv/crew/roster');
      expect(r.stdout.split('\n')[0]!.split(' ')).toEqual(expect.arrayContaining(['1000', '1400']));
      expect(r.stdout).toContain('new\n');
      expect(r.exitCode).toBe(0);
      // (root's own group is never lent to it)
      expect(r.stdout.split('\n')[0]!.split(' ')).not.toContain('0');
      const gone = await ep.exec("sed -i '/^user:/d' /etc/passwd", { user: 'root' });
      expect(gone.exitCode).toBe(0);
      const after = await ep.exec('id -u');
      expect(after.exitCode).not.toBe(0);
      expect(after.stdout).not.toContain('1000');
    } finally {
      await ep.close();
    }
  });

  it('keeps the transcript of a failing setup instead of throwing', async () => {
    const ep = await sandbox.openEpisode({ user: 'user', setup: 'echo partial; exit 7' });
    try {
      expect(ep.setup).toMatchObject({ exitCode: 7, stdout: 'partial\n' });
    } finally {
      await ep.close();
    }
  });

  it('splits stdout from stderr and reports the exit code and duration', async () => {
    const ep = await sandbox.openEpisode({ user: 'user' });
    try {
      const r = await ep.exec('echo out; echo err >&2; printf "x%.0s" 1 2 3; exit 3');
      expect(r).toMatchObject({ stdout: 'out\nxxx', stderr: 'err\n', exitCode: 3, timedOut: false, truncated: false });
      expect(r.durationMs).toBeGreaterThan(0);
      const asRoot = await ep.exec('id -u -n; pwd', { user: 'root' });
      expect(asRoot.stdout).toBe('root\n/root\n');
      const asUser = await ep.exec('id -u -n; pwd; echo $HOME');
      expect(asUser.stdout).toBe('user\n/home/user\n/home/user\n');
    } finally {
      await ep.close();
    }
  });

  it('caps captured output and says so, while the command still runs to the end', async () => {
    const ep = await sandbox.openEpisode({ user: 'user' });
    try {
      const r = await ep.exec('dd if=/dev/zero bs=1024 count=3072 2>/dev/null | tr "\\0" a; echo done >&2', { maxOutputBytes: 1024 * 1024 });
      expect(r.stdout.length).toBe(1024 * 1024);
      expect(r.truncated).toBe(true);
      expect(r.stderr).toBe('done\n');
      expect(r.exitCode).toBe(0);
    } finally {
      await ep.close();
    }
  });

  it('close removes the container, twice is harmless, and an ended episode refuses commands', async () => {
    const ep = await sandbox.openEpisode({ user: 'root' });
    const id = ep.id;
    await ep.close();
    await ep.close();
    await expect(sandbox.docker.getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(ep.ended).toBe('closed');
    await expect(ep.exec('true')).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
  });

  it('rejects an identity other than root or user as bad input naming the field', async () => {
    await expect(sandbox.openEpisode({ user: 'admin' as 'root' })).rejects.toMatchObject({ code: 'BAD_INPUT', field: 'user' });
    const ep = await sandbox.openEpisode({ user: 'user' });
    try {
      await expect(ep.exec('true', { user: 'nobody' as 'user' })).rejects.toMatchObject({ code: 'BAD_INPUT', field: 'user' });
    } finally {
      await ep.close();
    }
  });

  it('sweeps containers left by a crashed run on connect, and spares those of live processes', async () => {
    const { tag } = await sandbox.prepare();
    const deadPid = 2 ** 22 + 12345; // above pid_max: no process can have it
    const make = (pid: number) =>
      sandbox.docker.createContainer({
        Image: tag,
        Cmd: ['/sbin/init'],
        Labels: { [EPISODE_LABEL]: '1', 'warden.created': String(Date.now()), 'warden.pid': String(pid), 'warden.host': hostname() },
        HostConfig: { NetworkMode: 'none' },
      });
    const orphan = await make(deadPid);
    const alive = await make(process.ppid);
    const open = await sandbox.openEpisode({ user: 'user' });
    try {
      // a second connection in this same process must not take the first one's episode either
      const second = await DockerSandbox.connect({ warm: false });
      await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
      expect((await alive.inspect()).Id).toBe(alive.id);
      expect((await open.exec('echo still')).stdout).toBe('still\n');
      await second.closeAll();
    } finally {
      await open.close();
      await orphan.remove({ force: true }).catch(() => undefined);
      await alive.remove({ force: true }).catch(() => undefined);
    }
  });

  it('gives every episode a container nobody used before, even with a spare kept ready', async () => {
    const first = await sandbox.openEpisode({ user: 'root', setup: 'echo dirty > /marker' });
    const firstId = first.id;
    await first.close();
    const second = await sandbox.openEpisode({ user: 'root' });
    try {
      expect(second.id).not.toBe(firstId);
      const r = await second.exec('cat /marker; ls -A /tmp /home/user | grep -v ":$" | grep -c . ');
      expect(r.stderr).toMatch(/No such file/);
      expect(r.stdout.trim()).toBe('0');
    } finally {
      await second.close();
    }
  });

  it('leaves no container of its own behind after closeAll, spare included', async () => {
    const own = await DockerSandbox.connect();
    const mine = async () => (await own.docker.listContainers({ all: true, filters: { label: [`${EPISODE_LABEL}=1`, `warden.connection=${own.connectionId}`] } })).length;
    await own.openEpisode({ user: 'user' });
    // the spare for the next episode is started in the background: wait for it to appear
    let during = await mine();
    for (let i = 0; i < 100 && during < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      during = await mine();
    }
    expect(during).toBe(2);
    await own.closeAll();
    expect(await mine()).toBe(0);
  });

  it('runs several episodes side by side without them seeing each other', async () => {
    const eps: Episode[] = await Promise.all([1, 2, 3].map((i) => sandbox.openEpisode({ user: 'root', setup: `echo ${i} > /mark` })));
    try {
      const marks = await Promise.all(eps.map((e) => e.exec('cat /mark')));
      expect(marks.map((m) => m.stdout.trim())).toEqual(['1', '2', '3']);
    } finally {
      await Promise.all(eps.map((e) => e.close()));
    }
  });
});
