/**
 * The shape sandbox probe results take inside check expressions. Always complete (empty when no
 * sandbox answered), so expressions never need `has()` for it.
 */
import type { ProbeResult } from '../../../../shared/types.js';
import { resolveLinkTarget } from '../facts/paths.js';
import { cronCommandWords, programWord } from '../facts/shell-commands.js';

/** One probed path. */
export interface ProbedPath {
  exists: boolean;
  type: string;
  owner: string;
  /** Its owner's uid (-1 when unknown). */
  uid: number;
  mode: string;
  size: number;
  /** Hard links (1 for an ordinary file). */
  links: number;
  entries: number;
  /** False when only root could see it: the action's own account cannot reach it. */
  visible: boolean;
  /** For a link: what is at its end ("dir", "file", "other", or "none" when it leads nowhere); empty otherwise. */
  pointsTo: string;
  /** For a link: where it leads, made absolute against its own folder; empty otherwise. */
  linkTo: string;
}

/** Probes as checks read them: `probes.available`, `probes.paths["/x"].exists`, `probes.overwrites`... */
export interface ProbesEnv {
  available: boolean;
  paths: Record<string, ProbedPath>;
  /** Targets an mv / cp / ln / redirect would overwrite that hold data. */
  overwrites: string[];
  /** Probed paths that are symbolic links (not to be confused with a path's hard-link count, `paths[p].links`). */
  symlinks: string[];
  /**
   * Folders a recursive chmod / chown would change, looked through: the first entry another
   * account owns (and its owner), the first file closed to others, and the first of those named
   * like a secret (a key, a .env, credentials); empty strings when none.
   */
  trees: Record<string, { foreign: string; foreignOwner: string; private: string; secret: string }>;
  /** Existing, non-empty files a recursive copy or an extracted archive would replace (one per tree). */
  clobbers: string[];
  /** Files a pattern's copy or move replaces whose own first lines say they are signed or final while the file laid over them does not: the file and that line. */
  finals: { file: string; says: string }[];
  /** Files an archive unpacked over them replaces with a member whose first lines give a lower version than theirs: the file and its first line. */
  downgrades: { file: string; says: string }[];
  /** Links a find's matches hold whose targets are there (live links, not dead ones). */
  liveLinks: string[];
  /** A pattern's matches closed to other accounts (no read for others), by pattern. */
  globPrivate: Record<string, string[]>;
  /** Where an archive's members land (the first two levels of their paths under the folder it is unpacked in; "more" when over ten). */
  unpacked: { dest: string; lands: string[] }[];
  /** Files in what the action deletes that say the data must be kept, with the line that says it. */
  keepNotes: { target: string; file: string; says: string }[];
  /** Groups the action takes out that accounts still have as their primary group: group -> those accounts. */
  primaryGroups: { group: string; accounts: string[] }[];
  /** Files in a home that are still byte for byte the stock copy in /etc/skel: replacing one loses nothing. */
  stockCopies: string[];
  /** Paths whose new mode takes reading away from an account or group a running program or a cron job (not the actor's) runs as; `job` is the cron line when a job was cut off (its pid is then 0). */
  cutOff: { target: string; pid: number; uid: number; through: string; job?: string }[];
  /** Notes beside what a copy or move brings (or where it lands) saying the target is not to be replaced: merged into instead. */
  /** `archive`: the target is an archive the command writes afresh (found to hold data by the note's probe itself). */
  replaceNotes: { target: string; file: string; says: string; archive: boolean; unpacked: boolean }[];
  /** Files a copy or move writes over whose own first lines give a later date than the first lines of the file brought, with both lines. */
  olderOver: { target: string; says: string }[];
  /** Files a copy or dd replaces whose own first lines mark them, in capitals, as the ones in use. */
  liveMarks: { target: string; says: string }[];
  /**
   * What the action deletes that something still uses: a configuration file in /etc, a crontab or a
   * manifest or configuration file next to it that names it (and the line), or a link near it that
   * leads into it.
   */
  inUse: { target: string; config: string; line: string; link: string }[];
  /**
   * What the action's rm, unlink or shred -u reach, entry by entry: the operand as written
   * (`target`, a pattern or a path), the entry, its owner's uid and name, and whether the entry
   * came from a pattern rather than being named.
   */
  doomed: { target: string; path: string; uid: number; owner: string; glob: boolean }[];
  /** Operands the environment has looked through (their entries, copies and references are known). */
  doomedAnswered: string[];
  /** Entries named as copies ("x (1).jpg", "x copy.txt") with no identical original beside them: the only copy. */
  loneCopies: string[];
  /** Files the action deletes that hold a private key. */
  doomedKeys: string[];
  /** Sudoers drop-ins the action deletes, and whom each grants rights to (the first word of each rule). */
  doomedGrants: { path: string; to: string[] }[];
  /** Git repositories the action deletes (or folders holding one) with a branch that no remote-tracking ref has, and that branch. */
  unpushed: { path: string; branch: string }[];
  /** In-place substitutions whose expression also matches inside a longer word or number, with the first such file and line. */
  glued: { re: string; file: string; line: string }[];
  /** In-place substitutions that change a file whose own comment says a value in it must stay as it is, with that file and comment. */
  pinned: { re: string; file: string; line: string }[];
  /** Accounts given a shell that refuses logins that a cron job or a running program enters through `su ACCOUNT -c` (no -s of its own): the line. */
  suEntered: { account: string; line: string }[];
  /** Ports an edit sets a listening setting to that a socket already listens on ("unknown (...)" when the sockets could not be read). */
  portsTaken: string[];
  /** Settings an edit switches off or takes out that a log of the last day names on a line of traffic still going through them: the file and line ("unknown (...)" when the logs could not be read). */
  settingsInUse: { key: string; line: string }[];
  /** Files an in-place substitution that can add or take away blanks changes, whose first lines or a note beside them say their records have a fixed width. */
  fixedWidth: { re: string; file: string; line: string }[];
  /**
   * The setting lines an in-place substitution changes (comments left out), each with the name
   * of the setting it sets (`port = 8080` sets port, `listen 8080;` sets listen; '' when the line
   * names none).
   */
  settings: { re: string; file: string; key: string; line: string }[];
  /** What each pid file a kill reads holds (its text, blanks removed; absent when it could not be read). */
  pidfiles: Record<string, string>;
  /** Single files the action deletes whose full path a file the request names holds (a report or list pointing to them). */
  listed: string[];
  /** For each of those pid files, the command line of the running process it holds ('' when none runs). */
  pidfileArgs: Record<string, string>;
  /** For each of those pid files, the other pid files in folders of their own that hold the same id. */
  pidfileTwins: Record<string, string[]>;
  /** For each of those pid files, a note naming the id it holds that says not to stop that process. */
  pidfileSpared: Record<string, { file: string; says: string }>;
  /**
   * The running processes each name or pattern a pkill or killall signals reaches (`PID ARGS`),
   * and the programs they run (a script's name when an interpreter runs one).
   */
  /** `spared`: matched processes that a small file in the run, lock or temp folders names by id and says not to stop. */
  processes: Record<string, { matches: string[]; programs: string[]; runs: string[]; spared: { pid: string; file: string; says: string }[]; locks: string[] }>;
  /**
   * Pid and lock files the action deletes that a running process still holds, with that process
   * (`PID ARGS`), or that could not be looked at, with why.
   */
  lockHolders: Record<string, string>;
  /** Copies or moves into a place a note calls public (its file, the note and its line) that bring a file holding a secret or personal data. */
  publicDrops: { dest: string; file: string; note: string; says: string; linked: boolean }[];
  /** Accounts the action takes out that still run a process: the account and the process (pid, command line). */
  busyAccounts: { account: string; process: string }[];
  /** Jobs of crontabs the action removes or replaces whole: the line, its program's file name, that name without its ending, and that with - _ . read as spaces. */
  cronJobs: { table: string; line: string; program: string; stem: string; words: string }[];
  /** What the request says was already processed or copied, and the sign beside it that the run failed (a marker file, or a log's last word). */
  failedRuns: { target: string; file: string; says: string }[];
  /** Folders a link is about to point at, with the sign in them that the run that filled them failed (a marker, or a log's last word). */
  linkFailedRuns: { target: string; file: string; says: string }[];
  /**
   * Accounts and groups the action adds with an id that the live account files show as already
   * held by another name (`holder`), or whose name is already there (`exists`); keyed `passwd:NAME`
   * or `group:NAME`. `accountIds` lists every one the environment answered for.
   */
  accountClashes: { target: string; id: string; holder: string; exists: boolean }[];
  accountIds: string[];
  /** Account ids a find selects files by, with the account /etc/passwd gives each now ('' for none; unknown when it could not be read). */
  uidHolders: { id: string; holder: string }[];
  /**
   * Folders a web server the action starts would serve, with the first file in them holding a
   * secret by its name (a key, a .env, credentials, a git history) and the first program the
   * server would run for whoever asks (a CGI program, a PHP page); empty strings when none.
   */
  served: { root: string; secret: string; program: string }[];
  /** Scripts the action runs whose text, judged as a command, fails hard checks, with those checks' titles. */
  scriptHarm: { script: string; fails: string[] }[];
  /** Binary files (a NUL byte) among what a line-ending converter or sed -i would rewrite as text. */
  binaries: string[];
  /** Files a sort rewrites whose own first lines say their order is to be kept, with that line. */
  orderNotes: { target: string; says: string }[];
  /** Files about to be formatted that already hold bytes other than zero (a file system, data). */
  holdsBytes: string[];
  /** What each glob expands to. */
  globs: Record<string, string[]>;
  /** What the action's finds that delete (-delete, -exec rm) would reach, found by running their tests only. */
  finds: string[];
  /** Links among what each glob expands to that lead out of the folder it expands in, with where they lead. */
  globLinks: Record<string, { link: string; to: string }[]>;
  /** The folders with entries among what each glob expands to. */
  globFolders: Record<string, string[]>;
  /** Each match's mode (octal, a link's target's), in the order of `globs`. */
  globModes: Record<string, string[]>;
  user: string;
  freeKb: number;
  /**
   * The line that marks the machine as production (a login banner, its host name, an environment
   * file under /etc: `/etc/app/env:APP_ENV=production`), '' when none does, `unknown (why)` when
   * it could not be read.
   */
  production: string;
  /**
   * What running the command in a throwaway twin of the environment did: destructive changes to
   * places neither the command nor the request names, processes it stopped that neither names,
   * files holding a secret it left readable by every account, what it destroyed that a
   * configuration file, script or link left behind still names, the only copies it lost when the
   * request says another copy exists or asks only to move or rename, files it left damaged,
   * entries it left writable by every account, entries it closed to the service account or group
   * they belong to, and why it could not be read
   * (empty when it could, or when none ran).
   */
  rehearsal: { ran: boolean; unnamed: string[]; kills: string[]; exposed: string[]; stillUsed: string[]; onlyCopies: string[]; corrupted: string[]; openToAll: string[]; lockedOut: string[]; unaskedEdits: string[]; grants: string[]; failed: string };
}

/**
 * The name of the setting a configuration line sets: the word before = or : (`port = 8080`,
 * `  port: 8080`, `PORT=8080`), or a directive's first word (`listen 8080;`, `Listen 8080`).
 */
/** The file name of the program a crontab line runs (its schedule skipped; a script an interpreter is given), or ''. */
export function cronProgram(line: string): string {
  const fields = line.trim().split(/\s+/);
  const cmd = fields.slice(fields[0]?.startsWith('@') ? 1 : 5).join(' ');
  const word = programWord(cronCommandWords(cmd).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))) ?? '';
  return word.slice(word.lastIndexOf('/') + 1);
}

export function settingKey(line: string): string {
  const m = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*(?:[=:](?!\/\/)|\s+\S)/.exec(line);
  if (!m) return '';
  // (a name and its value apart by blanks only, `Listen 8080`, `server_name a b;`, is a directive;
  // a line of prose is not: "Kerry FM news at nine.", "You are listening to Kerry FM")
  const bare = !/^\s*(?:export\s+)?[A-Za-z_][\w.-]*\s*[=:](?!\/\/)/.test(line);
  if (bare && (line.trim().split(/\s+/).length > 4 || /[.!?]["')]?$/.test(line.trim()) || /,\s/.test(line))) return '';
  return m[1]!;
}

/** Folds probe results into the environment shape. */
export function probesEnv(results: ProbeResult[]): ProbesEnv {
  const env: ProbesEnv = { available: false, paths: {}, overwrites: [], symlinks: [], trees: {}, clobbers: [], finals: [], downgrades: [], liveLinks: [], globPrivate: {}, unpacked: [], keepNotes: [], primaryGroups: [], replaceNotes: [], liveMarks: [], olderOver: [], cutOff: [], stockCopies: [], inUse: [], doomed: [], doomedAnswered: [], loneCopies: [], doomedKeys: [], doomedGrants: [], unpushed: [], holdsBytes: [], glued: [], pinned: [], suEntered: [], portsTaken: [], settingsInUse: [], fixedWidth: [], settings: [], binaries: [], orderNotes: [], served: [], scriptHarm: [], pidfiles: {}, pidfileArgs: {}, listed: [], pidfileTwins: {}, pidfileSpared: {}, processes: {}, lockHolders: {}, publicDrops: [], busyAccounts: [], cronJobs: [], failedRuns: [], linkFailedRuns: [], accountClashes: [], accountIds: [], uidHolders: [], globs: {}, globFolders: {}, globModes: {}, globLinks: {}, finds: [], user: '', freeKb: -1, production: '', rehearsal: { ran: false, unnamed: [], kills: [], exposed: [], stillUsed: [], onlyCopies: [], corrupted: [], openToAll: [], lockedOut: [], unaskedEdits: [], grants: [], failed: '' } };
  for (const r of results) {
    if (!r.ok) {
      // a lock file nobody could look at may still be held: the check treats it as held
      if (r.probe === 'lock-holder') env.lockHolders[r.target] = `unknown (${r.error ?? 'no answer'})`;
      // so may a run nobody could look into have failed
      if (r.probe === 'failed-run') env.failedRuns.push({ target: r.target, file: '', says: `unknown (${r.error ?? 'no answer'})` });
      if (r.probe === 'link-failed-run') env.linkFailedRuns.push({ target: r.target, file: '', says: `unknown (${r.error ?? 'no answer'})` });
      // so may a machine nobody could look at be production: a request calling it a test one asks
      if (r.probe === 'production-mark') env.production = `unknown (${r.error ?? 'no answer'})`;
      // so may an account nobody could look up still run a process
      if (r.probe === 'account-busy') env.busyAccounts.push({ account: r.target, process: `unknown (${r.error ?? 'no answer'})` });
      // and a job nobody could look for still enter an account through su
      if (r.probe === 'su-entered') env.suEntered.push({ account: r.target, line: `unknown (${r.error ?? 'no answer'})` });
      // and a port nobody could look at be taken already
      if (r.probe === 'port-taken') env.portsTaken.push(`${r.target}: unknown (${r.error ?? 'no answer'})`);
      // and a setting nobody could look up in the logs still carry traffic
      if (r.probe === 'setting-in-use') env.settingsInUse.push({ key: r.target, line: `unknown (${r.error ?? 'no answer'})` });
      // and an id nobody could look up be another account's now
      if (r.probe === 'uid-holder') env.uidHolders.push({ id: r.target, holder: `unknown (${r.error ?? 'no answer'})` });
      // and a copy into a folder nobody could look at be going somewhere public with a secret
      if (r.probe === 'public-drop') env.publicDrops.push({ dest: r.target, file: '', note: '', says: `unknown (${r.error ?? 'no answer'})`, linked: false });
      // and what a delete reaches, when nobody could look at it or at the notes beside it, be
      // something a note says to keep
      if (r.probe === 'doomed' || r.probe === 'keep-note') env.keepNotes.push({ target: r.target, file: '', says: `unknown (${r.error ?? 'no answer'})` });
      // and a file nobody could read the head of say its order is part of it
      if (r.probe === 'order-note') env.orderNotes.push({ target: r.target, says: `unknown (${r.error ?? 'no answer'})` });
      // and a crontab nobody could read hold a job the request does not speak of
      if (r.probe === 'cron-jobs') env.cronJobs.push({ table: r.target, line: `unknown (${r.error ?? 'no answer'})`, program: '', stem: '(unread)', words: '(unread)' });
      continue;
    }
    env.available = true;
    const v = r.value as Record<string, unknown> | string | number | boolean | string[] | undefined;
    if (r.probe === 'path' && v && typeof v === 'object' && !Array.isArray(v)) {
      env.paths[r.target] = {
        exists: v['exists'] === true,
        type: String(v['type'] ?? ''),
        owner: String(v['owner'] ?? ''),
        uid: typeof v['uid'] === 'number' && Number.isFinite(v['uid']) ? v['uid'] : -1,
        mode: String(v['mode'] ?? ''),
        size: Number(v['size'] ?? 0),
        links: Number(v['links'] ?? 1),
        entries: Number(v['entries'] ?? 0),
        visible: v['visibleToActionUser'] !== false,
        pointsTo: String(v['pointsTo'] ?? ''),
        linkTo: typeof v['linkTarget'] === 'string' && v['linkTarget'] !== '' ? resolveLinkTarget(r.target, v['linkTarget']) : '',
      };
      if (v['type'] === 'link') env.symlinks.push(r.target);
    } else if (r.probe === 'tree' && v && typeof v === 'object' && !Array.isArray(v)) {
      env.trees[r.target] = { foreign: String(v['foreign'] ?? ''), foreignOwner: String(v['foreignOwner'] ?? ''), private: String(v['private'] ?? ''), secret: String(v['secret'] ?? '') };
    } else if (r.probe === 'overlay' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['clobbers']) env.clobbers.push(String(v['clobbers']));
      if (v['final']) env.finals.push({ file: String(v['final']), says: String(v['says'] ?? '') });
      if (v['older']) env.downgrades.push({ file: String(v['older']), says: String(v['olderSays'] ?? '') });
      // (a note where it lands saying not to lay anything over what is there speaks for what it replaces)
      if (v['guard'] && v['clobbers']) env.replaceNotes.push({ target: String(v['clobbers']), file: String(v['guard']), says: String(v['guardSays'] ?? ''), archive: false, unpacked: true });
      if (Array.isArray(v['lands'])) env.unpacked.push({ dest: r.target, lands: (v['lands'] as unknown[]).map(String) });
    } else if (r.probe === 'keep-note' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['file']) env.keepNotes.push({ target: r.target, file: String(v['file']), says: String(v['says'] ?? '') });
    } else if (r.probe === 'primary-group' && Array.isArray(v)) {
      if (v.length > 0) env.primaryGroups.push({ group: r.target, accounts: v.map(String) });
    } else if (r.probe === 'stock-copy' && typeof v === 'string') {
      env.stockCopies.push(r.target);
    } else if (r.probe === 'cut-off' && v && typeof v === 'object' && !Array.isArray(v)) {
      env.cutOff.push({ target: r.target, pid: Number(v['pid']), uid: Number(v['uid']), through: String(v['through'] ?? ''), ...(v['job'] ? { job: String(v['job']) } : {}) });
    } else if (r.probe === 'replace-note' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['file']) env.replaceNotes.push({ target: r.target, file: String(v['file']), says: String(v['says'] ?? ''), archive: v['archive'] === true, unpacked: false });
      if (v['live']) env.liveMarks.push({ target: r.target, says: String(v['live']) });
      if (v['older']) env.olderOver.push({ target: r.target, says: String(v['older']) });
    } else if (r.probe === 'in-use' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['config'] || v['link']) env.inUse.push({ target: r.target, config: String(v['config'] ?? ''), line: String(v['line'] ?? ''), link: String(v['link'] ?? '') });
    } else if (r.probe === 'doomed' && v && typeof v === 'object' && !Array.isArray(v)) {
      env.doomedAnswered.push(r.target);
      const glob = /[*?[]/.test(r.target);
      for (const x of (v['entries'] as { path: string; uid: number; owner: string }[] | undefined) ?? []) env.doomed.push({ target: r.target, path: x.path, uid: x.uid, owner: x.owner, glob });
      env.loneCopies.push(...(((v['lone'] as string[] | undefined) ?? []).map(String)));
      env.doomedKeys.push(...(((v['keys'] as string[] | undefined) ?? []).map(String)));
      for (const x of (v['unpushed'] as { path: string; branch: string }[] | undefined) ?? []) env.unpushed.push({ path: String(x.path), branch: String(x.branch) });
      for (const x of (v['refs'] as { target: string; by: string; line: string }[] | undefined) ?? []) env.inUse.push({ target: x.target, config: x.by, line: x.line, link: '' });
      for (const x of (v['notes'] as { target: string; file: string; says: string }[] | undefined) ?? []) env.keepNotes.push({ target: String(x.target), file: String(x.file), says: String(x.says) });
      for (const x of (v['grants'] as { path: string; to: string }[] | undefined) ?? []) {
        const seen = env.doomedGrants.find((g) => g.path === String(x.path));
        if (seen) seen.to.push(String(x.to));
        else env.doomedGrants.push({ path: String(x.path), to: [String(x.to)] });
      }
    } else if (r.probe === 'substitution' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['file']) env.glued.push({ re: r.target, file: String(v['file']), line: String(v['line'] ?? '') });
      if (v['pinned']) env.pinned.push({ re: r.target, file: String(v['pinned']), line: String(v['pin'] ?? '') });
      if (v['fixed']) env.fixedWidth.push({ re: r.target, file: String(v['fixed']), line: String(v['fixedSays'] ?? '') });
      for (const x of (v['hits'] as { file: string; line: string }[] | undefined) ?? []) env.settings.push({ re: r.target, file: String(x.file), key: settingKey(String(x.line)), line: String(x.line) });
    } else if (r.probe === 'pidfile' && typeof v === 'string') env.pidfiles[r.target] = v;
    else if (r.probe === 'pidfile-args' && typeof v === 'string') env.pidfileArgs[r.target] = v;
    else if (r.probe === 'listed' && Array.isArray(v)) env.listed.push(...v.map(String));
    else if (r.probe === 'pidfile-twins' && Array.isArray(v)) env.pidfileTwins[r.target] = v.map(String);
    else if (r.probe === 'pidfile-spared' && v && typeof v === 'object' && typeof (v as { file?: unknown }).file === 'string') {
      const x = v as { file: string; says?: unknown };
      env.pidfileSpared[r.target] = { file: x.file, says: String(x.says ?? '') };
    }
    else if (r.probe === 'processes' && v && typeof v === 'object' && !Array.isArray(v)) {
      const x = v as { matches?: unknown; programs?: unknown; runs?: unknown; spared?: unknown; locks?: unknown };
      const spared = Array.isArray(x.spared) ? (x.spared as Record<string, unknown>[]).map((y) => ({ pid: String(y['pid'] ?? ''), file: String(y['file'] ?? ''), says: String(y['says'] ?? '') })) : [];
      env.processes[r.target] = { matches: Array.isArray(x.matches) ? x.matches.map(String) : [], programs: Array.isArray(x.programs) ? x.programs.map(String) : [], runs: Array.isArray(x.runs) ? x.runs.map(String) : [], spared, locks: Array.isArray(x.locks) ? x.locks.map(String) : [] };
    } else if (r.probe === 'lock-holder' && typeof v === 'string' && v !== '') env.lockHolders[r.target] = v;
    else if (r.probe === 'public-drop' && v && typeof v === 'object' && !Array.isArray(v)) {
      const x = v as Record<string, unknown>;
      env.publicDrops.push({ dest: r.target, file: String(x['file'] ?? ''), note: String(x['note'] ?? ''), says: String(x['says'] ?? ''), linked: x['linked'] === true });
    }
    else if (r.probe === 'account-busy' && typeof v === 'string' && v !== '') env.busyAccounts.push({ account: r.target, process: v });
    else if (r.probe === 'su-entered' && typeof v === 'string' && v !== '') env.suEntered.push({ account: r.target, line: v });
    else if (r.probe === 'port-taken' && typeof v === 'string' && v !== '') env.portsTaken.push(r.target);
    else if (r.probe === 'setting-in-use' && typeof v === 'string' && v !== '') env.settingsInUse.push({ key: r.target, line: v });
    else if (r.probe === 'uid-holder' && typeof v === 'string') env.uidHolders.push({ id: r.target, holder: v });
    else if (r.probe === 'cron-jobs' && Array.isArray(v)) {
      for (const line of v.map(String)) {
        const program = cronProgram(line);
        if (program === '') continue;
        const stem = program.replace(/\.[A-Za-z0-9]{1,4}$/, '');
        env.cronJobs.push({ table: r.target, line, program, stem, words: stem.replace(/[-_.]+/g, ' ') });
      }
    }
    else if (r.probe === 'failed-run' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['file']) env.failedRuns.push({ target: r.target, file: String(v['file']), says: String(v['says'] ?? '') });
    } else if (r.probe === 'link-failed-run' && v && typeof v === 'object' && !Array.isArray(v)) {
      if (v['file']) env.linkFailedRuns.push({ target: r.target, file: String(v['file']), says: String(v['says'] ?? '') });
    } else if (r.probe === 'account-id' && v && typeof v === 'object' && !Array.isArray(v)) {
      env.accountIds.push(r.target);
      const holder = String(v['holder'] ?? '');
      const name = r.target.slice(r.target.indexOf(':') + 1);
      if ((holder !== '' && holder !== name) || v['exists'] === true) env.accountClashes.push({ target: r.target, id: String(v['id'] ?? ''), holder, exists: v['exists'] === true });
    } else if (r.probe === 'served' && v && typeof v === 'object' && !Array.isArray(v)) {
      env.served.push({ root: r.target, secret: String(v['secret'] ?? ''), program: String(v['program'] ?? '') });
    } else if (r.probe === 'script-harm' && Array.isArray(v)) {
      if (v.length > 0) env.scriptHarm.push({ script: r.target, fails: v.map(String) });
    } else if (r.probe === 'binary' && typeof v === 'string' && v !== '') env.binaries.push(v);
    else if (r.probe === 'order-note' && typeof v === 'string' && v !== '') env.orderNotes.push({ target: r.target, says: v });
    else if (r.probe === 'holds-bytes' && v === true) env.holdsBytes.push(r.target);
    else if (r.probe === 'would-overwrite' && v === true) env.overwrites.push(r.target);
    else if (r.probe === 'glob' && Array.isArray(v)) env.globs[r.target] = v.map(String);
    else if (r.probe === 'glob-folders' && Array.isArray(v)) env.globFolders[r.target] = v.map(String);
    else if (r.probe === 'glob-modes' && Array.isArray(v)) env.globModes[r.target] = v.map(String);
    else if (r.probe === 'glob-links' && Array.isArray(v)) env.globLinks[r.target] = v.map((x) => ({ link: String((x as { link?: unknown }).link ?? ''), to: String((x as { to?: unknown }).to ?? '') }));
    else if (r.probe === 'find' && Array.isArray(v)) env.finds.push(...v.map(String));
    else if (r.probe === 'live-links' && Array.isArray(v)) env.liveLinks.push(...v.map(String));
    else if (r.probe === 'rehearsal' && v && typeof v === 'object' && !Array.isArray(v)) {
      const reading = (v['reading'] ?? {}) as { unnamed?: unknown[]; kills?: unknown[]; exposed?: unknown[]; stillUsed?: unknown[]; onlyCopies?: unknown[]; corrupted?: unknown[]; openToAll?: unknown[]; lockedOut?: unknown[]; unaskedEdits?: unknown[]; grants?: unknown[]; failed?: unknown };
      const list = (x: unknown[] | undefined): string[] => (x ?? []).map(String);
      env.rehearsal = { ran: true, unnamed: list(reading.unnamed), kills: list(reading.kills), exposed: list(reading.exposed), stillUsed: list(reading.stillUsed), onlyCopies: list(reading.onlyCopies), corrupted: list(reading.corrupted), openToAll: list(reading.openToAll), lockedOut: list(reading.lockedOut), unaskedEdits: list(reading.unaskedEdits), grants: list(reading.grants), failed: String(reading.failed ?? 'the rehearsal was not read') };
    } else if (r.probe === 'user' && typeof v === 'string') env.user = v;
    else if (r.probe === 'free-disk' && typeof v === 'number') env.freeKb = v;
    else if (r.probe === 'production-mark' && typeof v === 'string') env.production = v;
  }
  // a pattern's matches that other accounts may not read (the modes listed beside the matches, in order)
  for (const [pattern, matches] of Object.entries(env.globs)) {
    const modes = env.globModes[pattern];
    if (!modes || modes.length !== matches.length) continue;
    const closed = matches.filter((_, i) => /^[0-7]{3,4}$/.test(modes[i]!) && (parseInt(modes[i]!.slice(-1), 8) & 4) === 0);
    if (closed.length > 0) env.globPrivate[pattern] = closed;
  }
  return env;
}
