import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { ActionRequest, ProbeResult } from '../../../shared/types.js';
import { extractFacts } from '../../../electron/engine/core/facts/index.js';
import { createEpisodeProber, cronAccount, findTests, scheduledIds, parseProbeOutput, planProbes, probeResults, programOf, sedSubstitution, settingsOffBy, probesToEnv, type DockerSandbox, type Episode, type PathInfo } from '../../../electron/engine/adapters/sandbox/index.js';
import { connectTestEngine } from './engine.js';

const shell = (command: string, request = 'tidy up', context?: ActionRequest['context']): ActionRequest => ({
  request,
  action: { type: 'shell', command },
  ...(context ? { context } : {}),
});

describe('sandbox probes', () => {
  let sandbox: DockerSandbox;
  beforeAll(async () => {
    sandbox = await connectTestEngine();
  });
  afterAll(async () => {
    await sandbox?.closeAll();
  });

  async function probeIn(setup: string, req: ActionRequest, user: 'root' | 'user' = 'user'): Promise<{ results: ProbeResult[]; episode: Episode }> {
    const episode = await sandbox.openEpisode({ user, setup });
    expect(episode.setup?.exitCode).toBe(0);
    const results = await createEpisodeProber(episode).probe(extractFacts(req), req, new AbortController().signal);
    return { results, episode };
  }

  async function probeOnce(setup: string, req: ActionRequest, user: 'root' | 'user' = 'user'): Promise<ProbeResult[]> {
    const { results, episode } = await probeIn(setup, req, user);
    await episode.close();
    return results;
  }

  const pathValue = (results: ProbeResult[], target: string) => results.find((r) => r.probe === 'path' && r.target === target)?.value as PathInfo | undefined;

  it('sees that `mv /good /hello` lands in a non-empty /hello, and not when /hello is absent', async () => {
    const req = shell('mv /good /hello', 'rename the good folder to hello');
    const crowded = probesToEnv(await probeOnce('mkdir -p /hello && echo data > /hello/f && mkdir -p /good', req));
    expect(crowded.available).toBe(true);
    expect(crowded.overwrites).toEqual(['/hello']);
    expect(crowded.paths['/hello']).toMatchObject({ exists: true, type: 'dir', entries: 1, owner: 'root', mode: '755' });
    expect(crowded.paths['/good']).toMatchObject({ exists: true, type: 'dir', entries: 0 });

    const clear = probesToEnv(await probeOnce('mkdir -p /good', req));
    expect(clear.available).toBe(true);
    expect(clear.overwrites).toEqual([]);
    expect(clear.paths['/hello']).toMatchObject({ exists: false, type: 'none' });
  });

  it('flags the DIR/name an mv into an existing directory would replace', async () => {
    const req = shell('mv -t /dst /src');
    const env = probesToEnv(await probeOnce('mkdir -p /src /dst/src && echo keep > /dst/src/keep && echo other > /dst/other', req));
    expect(env.overwrites).toEqual(['/dst/src']);
    const spared = probesToEnv(await probeOnce('mkdir -p /src /dst && echo other > /dst/other', req));
    expect(spared.overwrites).toEqual([]);
  });

  it('counts a `>` redirect onto a file with data as an overwrite, but not `>>` or /dev/null', async () => {
    const setup = 'echo hello > /etc/motd && : > /etc/empty';
    expect(probesToEnv(await probeOnce(setup, shell('echo hi > /etc/motd'))).overwrites).toEqual(['/etc/motd']);
    expect(probesToEnv(await probeOnce(setup, shell('echo hi >> /etc/motd'))).overwrites).toEqual([]);
    expect(probesToEnv(await probeOnce(setup, shell('echo hi > /etc/empty'))).overwrites).toEqual([]);
    expect(probesToEnv(await probeOnce(setup, shell('echo hi > /dev/null'))).overwrites).toEqual([]);
  });

  it('expands a glob to exactly what the shell would match, odd names included', async () => {
    const setup = `mkdir -p /data && cd /data && touch a 'b c' "we'ird" .hidden '$(x)' && touch "$(printf 'new\\nline')" && ln -s /etc lnk && mkdir sub`;
    const results = await probeOnce(setup, shell('rm -rf /data/*', 'clear the data folder'));
    const env = probesToEnv(results);
    expect([...env.globs['/data/*']!].sort()).toEqual(['/data/$(x)', '/data/a', '/data/b c', '/data/lnk', '/data/new\nline', '/data/sub', "/data/we'ird"].sort());
    expect(results.find((r) => r.probe === 'glob-count')).toMatchObject({ target: '/data/*', ok: true, value: 7 });
  });

  it("expands a find's pattern (`**`) at every depth, the top folder included, as find would", async () => {
    const setup = "mkdir -p /home/user/dl/iso && echo p > '/home/user/dl/big movie.mkv.part' && echo p > /home/user/dl/iso/a.iso.part && echo f > /home/user/dl/iso/b.iso && chown -R 1000:1000 /home/user";
    const results = await probeOnce(setup, shell("find ~/dl -name '*.part' -print0 | xargs -0 rm -f", 'delete the .part files in ~/dl'));
    const env = probesToEnv(results);
    expect([...env.globs['/home/user/dl/**/*.part']!].sort()).toEqual(['/home/user/dl/big movie.mkv.part', '/home/user/dl/iso/a.iso.part']);
    expect(env.doomed.map((d) => d.path).sort()).toEqual(['/home/user/dl/big movie.mkv.part', '/home/user/dl/iso/a.iso.part']);
  });

  it('lists at most 100 matches of a glob but counts them all', async () => {
    const results = await probeOnce('mkdir -p /many && cd /many && i=0; while [ $i -lt 150 ]; do : > f$i; i=$((i+1)); done', shell('rm /many/f*'));
    const glob = results.find((r) => r.probe === 'glob' && r.target === '/many/f*');
    expect((glob?.value as string[]).length).toBe(100);
    expect(results.find((r) => r.probe === 'glob-count')?.value).toBe(150);
  });

  it('treats hostile path names as names: nothing in them runs', async () => {
    const cmd = `rm -rf '/h/$(touch /tmp/pwned1)' "/h/'; touch /tmp/pwned2; '" '/h/\`touch /tmp/pwned3\`' '/h/x"$(touch /tmp/pwned4)"' $'/h/two\\nlines'`;
    const req = shell(cmd);
    const facts = extractFacts(req);
    expect(facts.effects.deletes.length).toBe(5);
    const { results, episode } = await probeIn(`mkdir -p /h && touch "/h/$(printf 'two\\nlines')"`, req);
    try {
      const paths = results.filter((r) => r.probe === 'path');
      expect(paths).toHaveLength(5);
      expect(paths.every((r) => r.ok)).toBe(true);
      expect(pathValue(results, '/h/two\nlines')).toMatchObject({ exists: true, type: 'file', size: 0 });
      expect(paths.filter((r) => (r.value as PathInfo).exists)).toHaveLength(1);
      const after = await episode.exec('ls -A /tmp', { user: 'root' });
      expect(after.stdout).toBe('');
    } finally {
      await episode.close();
    }
  });

  it('looks as the action identity and falls back to root only for what it cannot see', async () => {
    const setup = 'mkdir -p /root/keys && echo k > /root/keys/id && mkdir -p /srv/pub && echo p > /srv/pub/x';
    const asUser = await probeOnce(setup, shell('cat /root/keys/id /srv/pub/x'));
    expect(asUser.find((r) => r.probe === 'user')?.value).toBe('user');
    expect(pathValue(asUser, '/srv/pub/x')).toMatchObject({ exists: true, visibleToActionUser: true, owner: 'root', size: 2 });
    expect(pathValue(asUser, '/root/keys/id')).toMatchObject({ exists: true, visibleToActionUser: false, size: 2 });
    const asRoot = await probeOnce(setup, shell('cat /root/keys/id', 'show the key', { user: 'root' }), 'root');
    expect(asRoot.find((r) => r.probe === 'user')?.value).toBe('root');
    expect(pathValue(asRoot, '/root/keys/id')).toMatchObject({ exists: true, visibleToActionUser: true });
  });

  it('reports ownership, mode, links, mounts and free space', async () => {
    const setup = 'echo s > /home/user/s && chown user:user /home/user/s && chmod 600 /home/user/s && ln -s /etc/passwd /home/user/pw';
    const results = await probeOnce(setup, shell('chmod 644 ~/s; rm ~/pw; rm -rf /tmp'));
    expect(pathValue(results, '/home/user/s')).toMatchObject({ exists: true, type: 'file', owner: 'user', uid: 1000, mode: '600', writable: true });
    expect(pathValue(results, '/home/user/pw')).toMatchObject({ type: 'link', linkTarget: '/etc/passwd', pointsTo: 'file' });
    expect(pathValue(results, '/tmp')).toMatchObject({ type: 'dir', mount: true, fsType: 'tmpfs', mode: '1777' });
    const free = results.find((r) => r.probe === 'free-disk');
    expect(free?.ok).toBe(true);
    expect(free?.value).toBeGreaterThan(0);
  });

  it('never changes the environment it looks at', async () => {
    const setup = "mkdir -p /w/d && echo 1 > /w/f && touch -d '2020-01-01 00:00:00' /w/f /w/d /w";
    const req = shell('mv /w/f /w/d; cp /w/d /w/e; echo x > /w/f; rm -rf /w/*');
    const { episode } = await probeIn(setup, req);
    try {
      const snapshot = 'find /w /tmp /home/user | sort | while read -r p; do stat -c "%n %a %s %Y %X" "$p"; done';
      const before = await episode.exec(snapshot, { user: 'root' });
      await createEpisodeProber(episode).probe(extractFacts(req), req, new AbortController().signal);
      const after = await episode.exec(snapshot, { user: 'root' });
      expect(after.stdout).toBe(before.stdout);
      // the setup's 2020 mtime survives (midnight UTC, given in full: busybox fills a missing
      // time of day from the clock)
      expect(before.stdout).toMatch(/\/w\/f 644 2 1577836800 /);
    } finally {
      await episode.close();
    }
  });

  it('answers ok:false for every probe, and never throws, when the episode is gone', async () => {
    const req = shell('mv /good /hello');
    const episode = await sandbox.openEpisode({ user: 'user' });
    await episode.close();
    const results = await createEpisodeProber(episode).probe(extractFacts(req), req, new AbortController().signal);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => !r.ok && typeof r.error === 'string')).toBe(true);
    expect(probesToEnv(results)).toMatchObject({ available: false, overwrites: [], user: '', freeKb: -1 });
  });

  it('reads probe output records whole, dropping a tail cut short instead of misreading it', () => {
    const rec = (s: string, k: string, v: string) => `R\0${s}\0${k}\0${v}\0`;
    const full = rec('p0', 'exists', '1') + rec('g0', 'match', '/a\nb') + rec('g0', 'match', "/c 'd'");
    const torn = full + rec('p1', 'exists', '1').slice(0, 9);
    const recs = parseProbeOutput(torn);
    expect(recs.get('p0')?.get('exists')).toEqual(['1']);
    expect(recs.get('g0')?.get('match')).toEqual(['/a\nb', "/c 'd'"]);
    expect(recs.has('p1')).toBe(false);
  });

  it('skips paths the parser could not resolve instead of probing their literal text', () => {
    const req = shell('rm -rf "$TARGET/cache"');
    const plan = planProbes(extractFacts(req), req);
    expect(plan.paths).toEqual([]);
    expect(plan.skipped[0]).toMatchObject({ probe: 'path', error: expect.stringContaining('expansion') });
  });

  it('resolves relative destinations against the working directory and literal cd', () => {
    const req = shell('cd /srv && mv -t out a "b c" && cp notes.txt ../backup/', 'move them', { cwd: '/home/user' });
    const plan = planProbes(extractFacts(req), req);
    expect(plan.destinations).toEqual(
      expect.arrayContaining([
        { target: '/srv/out/a', by: 'mv', kind: 'into', sources: ['/srv/a'] },
        { target: '/srv/out/b c', by: 'mv', kind: 'into', sources: ['/srv/b c'] },
        { target: '/backup/notes.txt', by: 'cp', kind: 'into', sources: ['/srv/notes.txt'] },
      ]),
    );
    expect(plan.destinations.some((d) => d.kind === 'dest')).toBe(false);
  });

  it('counts what ln -f links over as a destination, and nothing for ln without --force (it fails instead of replacing)', () => {
    const plain = shell('mv ~/.vimrc ~/dotfiles/vimrc && ln -s ~/dotfiles/vimrc ~/.vimrc', 'move it and leave a symlink in its place', { cwd: '/home/user' });
    const dests = planProbes(extractFacts(plain), plain).destinations.map((d) => d.target);
    expect(dests).toContain('/home/user/dotfiles/vimrc');
    expect(dests).not.toContain('/home/user/.vimrc');
    const forced = shell('ln -sf ~/dotfiles/vimrc ~/.vimrc', 'link it', { cwd: '/home/user' });
    expect(planProbes(extractFacts(forced), forced).destinations.map((d) => d.target)).toContain('/home/user/.vimrc');
  });

  it('looks around a delete for a failed run only when the request says the data was already processed or copied', () => {
    const claimed = shell('rm -rf /data/raw/*.parquet', 'the raw events in /data/raw are already processed into /data/processed, delete them', { cwd: '/root' });
    // a failed run's log lands in the log folder beside the claimed one, so that is looked in too
    expect(planProbes(extractFacts(claimed), claimed).claimed).toEqual([{ target: '/data/raw', glob: '/data/raw/*.parquet', places: ['/data/raw', '/data', '/data/processed', '/data/logs', '/data/log'] }]);
    const plain = shell('rm -rf /data/raw/*.parquet', 'delete the raw events in /data/raw, we do not need them', { cwd: '/root' });
    expect(planProbes(extractFacts(plain), plain).claimed).toEqual([]);
    // work the person says they did themselves ("I gzipped all my dumps") is a claim too
    const gzipped = shell('rm -f ~/backups/*.sql', 'I gzipped all my DB dumps in ~/backups. Delete the plain .sql files', { cwd: '/home/user' });
    expect(planProbes(extractFacts(gzipped), gzipped).claimed?.map((c) => c.glob)).toEqual(['/home/user/backups/*.sql']);
    const asked = shell('rm -f ~/backups/*.sql', 'gzip is broken here, just delete the plain .sql files in ~/backups', { cwd: '/home/user' });
    expect(planProbes(extractFacts(asked), asked).claimed).toEqual([]);
  });

  it('does not count a file rewritten through a temporary copy as overwritten, but the temporary copy is', () => {
    const req = shell('sort -u notes.txt > notes.tmp && mv notes.tmp notes.txt; awk 1 /etc/hosts > /tmp/h && cat /tmp/h > /etc/hosts', 'dedupe my notes', { cwd: '/srv' });
    const plan = planProbes(extractFacts(req), req);
    const dests = plan.destinations.filter((d) => d.kind === 'dest').map((d) => d.target);
    expect(dests).toEqual(expect.arrayContaining(['/srv/notes.tmp', '/tmp/h']));
    expect(dests).not.toContain('/srv/notes.txt');
    expect(dests).not.toContain('/etc/hosts');
    // a temporary file written from something else brings other data over the target
    const other = shell('sort -u other.txt > notes.tmp && mv notes.tmp notes.txt', 'dedupe my notes', { cwd: '/srv' });
    expect(planProbes(extractFacts(other), other).destinations.map((d) => d.target)).toContain('/srv/notes.txt');
  });

  it('reads each script a pattern of scripts matches, and says how many matched', () => {
    const req = shell('for f in /srv/steps/*.sh; do sh "$f"; done', 'run the setup steps in /srv/steps in order');
    const plan = planProbes(extractFacts(req), req);
    expect(plan.scriptGlobs).toEqual(['/srv/steps/*.sh']);
    expect(plan.scripts).toEqual([]);
    const rec = (s: string, k: string, v: string) => `R\0${s}\0${k}\0${v}\0`;
    const out = rec('S0', 'name', '/srv/steps/01.sh') + rec('S0', 'text', 'mkdir -p /srv/data') + rec('S0', 'size', '18') + rec('S0', 'name', '/srv/steps/02 b.sh') + rec('S0', 'text', '') + rec('S0', 'size', '-1') + rec('S0', 'count', '2');
    const results = probeResults(plan, parseProbeOutput(out));
    expect(results.filter((r) => r.probe === 'script')).toEqual([
      { probe: 'script', target: '/srv/steps/01.sh', ok: true, value: { text: 'mkdir -p /srv/data', complete: true } },
      { probe: 'script', target: '/srv/steps/02 b.sh', ok: false, error: 'the script could not be read' },
    ]);
    expect(results.find((r) => r.probe === 'script-glob')).toEqual({ probe: 'script-glob', target: '/srv/steps/*.sh', ok: true, value: { matches: ['/srv/steps/01.sh', '/srv/steps/02 b.sh'], count: 2 } });
  });

  it('replays a find that deletes with its tests only, and leaves other finds alone', () => {
    expect(findTests(['find', '/d', '-type', 'f', '-mtime', '+30', '-exec', 'rm', '-f', '{}', '+'])).toEqual(['/d', '-type', 'f', '-mtime', '+30']);
    expect(findTests(['find', '.', '-name', '*.tmp', '-print', '-delete'])).toEqual(['.', '-name', '*.tmp']);
    expect(findTests(['find', '.', '-name', '*.tmp'])).toBeUndefined();
    expect(findTests(['find', '.', '-name', '*.tmp', '-print'])).toBeUndefined();
    // a test after an action: not an expression this reading replays
    expect(findTests(['find', '.', '-delete', '-o', '-name', 'x'])).toBeUndefined();
    expect(findTests(['find', '.', '-exec', 'rm', '{}'])).toBeUndefined();
    const req = shell('find ~/Downloads -type f -mtime +30 -exec rm -f {} + && find /srv -name "*.log" -exec chmod 600 {} +', 'clear old installers');
    const plan = planProbes(extractFacts(req), req);
    expect(plan.finds).toEqual([{ target: expect.stringContaining('find'), cwd: '/home/user/work', args: ['/home/user/Downloads', '-type', 'f', '-mtime', '+30'] }]);
  });

  it('looks through what rm and shred -u delete and what a find deletes by its tests, patterns kept, and not through a move\'s source or a find\'s start folder', () => {
    const req = shell(`rm -rf ~/old ~/'x (1).jpg' ~/dl/*.part && shred -u /tmp/k && mv ~/a ~/b && find ~/logs -name "*.gz" -delete && find ~/cache -mtime +30 -delete`, 'tidy up');
    const plan = planProbes(extractFacts(req), req);
    expect(plan.doomed.sort()).toEqual(['/home/user/dl/*.part', '/home/user/old', '/home/user/x (1).jpg', '/tmp/k', '/home/user/logs/**/*.gz', '/home/user/cache/**/*'].sort());
  });

  it('lists what pkill and killall reach, and looks for the holder of each pid or lock file rm deletes by name', () => {
    const req = shell('pkill -f "worker.*" ; killall -9 nginx ; pkill cron ; kill 42 ; rm -f /run/app.pid ~/notes/.lock ~/db/LOCK ~/x.txt /run/*.pid', 'restart it', { user: 'root' });
    const plan = planProbes(extractFacts(req), req);
    expect(plan.processes).toEqual([
      { target: 'worker.*', match: 'line' },
      { target: 'nginx', match: 'exact' },
      { target: 'cron', match: 'name' },
    ]);
    expect(plan.locks.sort()).toEqual(['/root/db/LOCK', '/root/notes/.lock', '/run/app.pid']);
  });

  it('names the program a listed process runs: the script an interpreter runs, else the executable', () => {
    expect(programOf('17 /bin/sh /opt/worker.sh ')).toBe('worker.sh');
    expect(programOf('18 python3 -u /srv/app/main.py --port 8000')).toBe('main.py');
    expect(programOf('19 /usr/sbin/nginx -g daemon off;')).toBe('nginx');
    expect(programOf('20 sleep 5')).toBe('sleep');
  });

  it("reads sed -i's expression and the patterns that find it glued to a longer word", () => {
    expect(sedSubstitution(['sed', '-i', 's/10\\.0\\.0\\.1/10.0.0.2/g', '/etc/a.conf'])).toEqual({
      re: '10\\.0\\.0\\.1',
      extended: false,
      glued: ['[[:alnum:]_]\\(10\\.0\\.0\\.1\\)', '\\(10\\.0\\.0\\.1\\)[[:alnum:]_]'],
      files: ['/etc/a.conf'],
    });
    // an expression that ends in a non-word character can only be glued at its start
    expect(sedSubstitution(['sed', '-E', '-i', '-e', 's|port=|listen=|', 'a.conf'])?.glued).toEqual(['[[:alnum:]_](port=)']);
    // an anchored one has none, but its files are still read for a comment pinning the value
    expect(sedSubstitution(['sed', '-i', 's/=8080$/=9090/', 'a.conf'])).toEqual({ re: '=8080$', extended: false, glued: [], files: ['a.conf'] });
    expect(sedSubstitution(['sed', 's/a/b/', 'a.conf'])).toBeUndefined();
    expect(sedSubstitution(['sed', '-i', '/^#/d', 'a.conf'])).toBeUndefined();
  });

  it('finds the settings an in-place edit switches off, comments out or deletes, and not one it switches on or sets to a value', () => {
    expect(settingsOffBy(['sed', '-i', 's/^acars_relay=enabled$/acars_relay=disabled/', 'u.conf'])).toEqual(['acars_relay']);
    expect(settingsOffBy(['sed', '-i', 's/^legacy_feed: *yes/legacy_feed: no/', 'u.yml'])).toEqual(['legacy_feed']);
    expect(settingsOffBy(['sed', '-i', 's/^relay_out/#relay_out/', 'u.conf'])).toEqual(['relay_out']);
    expect(settingsOffBy(['sed', '-i', 's/^\\(relay_out.*\\)/#\\1/', 'u.conf'])).toEqual(['relay_out']);
    expect(settingsOffBy(['sed', '-i', '/^relay_out=/s/^/#/', 'u.conf'])).toEqual(['relay_out']);
    expect(settingsOffBy(['sed', '-i', '/^relay_out=/d', 'u.conf'])).toEqual(['relay_out']);
    expect(settingsOffBy(['sed', '-i', 's/^acars_relay=disabled$/acars_relay=enabled/', 'u.conf'])).toEqual([]);
    expect(settingsOffBy(['sed', '-i', 's/^max_conn=.*/max_conn=40/', 'u.conf'])).toEqual([]);
    expect(settingsOffBy(['sed', 's/^acars_relay=enabled$/acars_relay=disabled/', 'u.conf'])).toEqual([]);
  });
});

describe('the accounts scheduled jobs run as', () => {
  it('takes the account su names in a cron line, past its options, or else the crontab owner', () => {
    expect(cronAccount('root', '0 1 * * * su -s /bin/sh billing -c "/opt/billing/bin/batch-run"')).toBe('billing');
    expect(cronAccount('root', '*/5 * * * * /bin/su - -l svc -c run')).toBe('svc');
    expect(cronAccount('root', '0 2 * * * /usr/local/bin/rotate')).toBe('root');
    expect(cronAccount('user', '@daily sh /home/user/bin/sync.sh')).toBe('user');
  });

  it('gives each job the uid, primary group and member groups of its account, and skips accounts it cannot find', () => {
    const passwd = 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000::/home/user:/bin/sh\nbilling:x:1100:1100:billing batch:/nonexistent:/bin/sh';
    const groups = 'root:x:0:\nuser:x:1000:billing\nbilling:x:1100:\naudit:x:1200:user,billing';
    const jobs = scheduledIds('root\t0 1 * * * su -s /bin/sh billing -c batch\nroot\t0 3 * * * su ghost -c x\nuser\t@daily sync', passwd, groups);
    expect(jobs).toEqual([
      { uid: 1100, gids: new Set([1100, 1000, 1200]), cmd: '0 1 * * * su -s /bin/sh billing -c batch' },
      { uid: 1000, gids: new Set([1000, 1200]), cmd: '@daily sync' },
    ]);
    expect(scheduledIds(undefined, passwd, groups)).toEqual([]);
  });
});
