/**
 * A rehearsal: the proposed command runs once in a throwaway twin of the episode (a fresh
 * container given the same setup and the same earlier commands), and what it changed is read off
 * the file system and the process table before and after. The episode itself is never touched.
 *
 * The twin is a sibling container, not a snapshot: /home/user, /tmp and /var/tmp are tmpfs
 * mounts, which an engine-side commit would not carry. Replaying the setup and the commands the
 * episode ran gives the same files; processes the setup started are started again.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { toErrorInfo } from '../../../../shared/errors.js';
import type { RehearsalReport, RehearsedChange, RehearsedEntry } from '../../../../shared/types.js';
import type { Episode, SandboxUser } from './docker-sandbox.js';
import { formatError, formatOf, formatOfPath, type FileFormat } from '../../core/facts/file-formats.js';
import { NOTE_BYTES, NOTE_NAMES, shQuote } from './probe-script.js';
import { isLogPath, isScratchPath, resolveLinkTarget } from '../../core/facts/paths.js';
import { programName } from '../../core/facts/shell-commands.js';

/** Options of one rehearsal. */
export interface RehearseOptions {
  /** Time the command gets in the twin (default 4 s); a command still running then is stopped and what it did so far is read. */
  timeoutMs?: number;
  /** When programs were already running in the twin, how long they get to act on the command's result before the second listing (default 1.2 s). */
  settleMs?: number;
  /** Working directory of the command (default the identity's home). */
  cwd?: string;
  signal?: AbortSignal;
}

/** Files hashed for content comparison; larger ones are compared by size and times. */
const HASH_LIMIT_KB = 1024;
/** Most changes reported; the count of the rest is kept. */
const MAX_CHANGES = 200;

/** Changes that lose a file's old content: the content-loss readings look at these. */
const LOSES_CONTENT = new Set<RehearsedChange['change']>(['deleted', 'replaced', 'rewritten', 'grown']);

/**
 * Runs a read-only script as root (in the twin, or the untouched episode) and returns its
 * output. A read that timed out, was aborted or lost output throws: a partial answer would read
 * as "nothing found", so the whole rehearsal fails instead (and the guard does not allow).
 */
async function readAs(ep: Episode, script: string, signal: AbortSignal | undefined, extra: { timeoutMs?: number; maxOutputBytes?: number } = {}): Promise<string> {
  const r = await ep.exec(script, { user: 'root', timeoutMs: 5000, ...extra, ...(signal ? { signal } : {}) });
  if (r.error) throw new Error(`a read in the sandbox failed: ${r.error}`);
  if (r.truncated) throw new Error('a read in the sandbox gave more output than it may keep');
  return r.stdout;
}

/**
 * The manifest of the whole tree but the kernel's views: one `stat` line per entry, then md5
 * sums of small regular files, then links and their targets, then each process's parent and
 * command line. A name with a line break is split across lines in this listing, so such an
 * entry is not told apart from its neighbours.
 */
function manifestScript(marker: string): string {
  const prune = `\\( -path /proc -o -path /sys -o -path /dev \\) -prune -o`;
  return [
    `echo ${marker}-stat`,
    `find / ${prune} -exec stat -c '%d:%i|%h|%f|%u|%g|%s|%Y|%n' {} + 2>/dev/null`,
    `echo ${marker}-md5`,
    `find / ${prune} -type f -size -${HASH_LIMIT_KB}k -exec md5sum {} + 2>/dev/null`,
    `echo ${marker}-link`,
    // links as ls -l shows them ("... /path -> target"), leaving out the tool links of the bin folders
    `find / ${prune.replace('-path /dev', '-path /dev -o -path /bin -o -path /sbin -o -path /usr/bin -o -path /usr/sbin')} -type l -exec ls -l {} + 2>/dev/null`,
    `echo ${marker}-proc`,
    `for p in /proc/[0-9]*; do [ "$p" = /proc/$$ ] || [ "$p" = /proc/$PPID ] && continue; st=$(cat "$p/stat" 2>/dev/null) || continue; st=\${st##*) }; set -- $st; c=$(tr '\\0' ' ' < "$p/cmdline" 2>/dev/null) || continue; u=$(stat -c %U "$p" 2>/dev/null); [ -n "$c" ] && printf '%s|%s|%s|%s\\n' "\${p#/proc/}" "$2" "$u" "$c"; done`,
    `echo ${marker}-open`,
    // the files each process holds open (its descriptors that name a path)
    `for p in /proc/[0-9]*; do [ "$p" = /proc/$$ ] || [ "$p" = /proc/$PPID ] && continue; for f in "$p"/fd/*; do t=$(readlink "$f" 2>/dev/null) || continue; case "$t" in /*) printf '%s|%s\\n' "\${p#/proc/}" "$t" ;; esac; done; done 2>/dev/null`,
    `echo ${marker}-end`,
  ].join('\n');
}

/** One parsed manifest. */
interface Manifest {
  entries: Map<string, RehearsedEntry & { inode: string; mtime: number }>;
  hashes: Map<string, string>;
  /** pid -> parent pid, owning account and command line. */
  procs: Map<string, { ppid: string; owner: string; args: string }>;
  /** Symbolic link -> what it points at, as written. */
  links: Map<string, string>;
  /** Path -> the pids holding it open. */
  open: Map<string, string[]>;
}

const TYPE_OF: Record<number, string> = { 0o140000: 'socket', 0o120000: 'link', 0o100000: 'file', 0o060000: 'block', 0o040000: 'dir', 0o020000: 'char', 0o010000: 'fifo' };

/** Parses a manifest; throws when its sections are not all there (the command may have tampered with the tools). */
function parseManifest(out: string, marker: string): Manifest {
  const m: Manifest = { entries: new Map(), hashes: new Map(), procs: new Map(), links: new Map(), open: new Map() };
  let section = '';
  let ended = false;
  for (const line of out.split('\n')) {
    if (line.startsWith(`${marker}-`)) {
      section = line.slice(marker.length + 1);
      if (section === 'end') ended = true;
      continue;
    }
    if (section === 'stat') {
      const f = line.split('|');
      if (f.length < 8) continue;
      const raw = parseInt(f[2]!, 16);
      const name = f.slice(7).join('|');
      m.entries.set(name, {
        inode: f[0]!,
        links: Number(f[1]),
        type: TYPE_OF[raw & 0o170000] ?? 'other',
        mode: (raw & 0o7777).toString(8).padStart(4, '0'),
        uid: Number(f[3]),
        gid: Number(f[4]),
        size: Number(f[5]),
        mtime: Number(f[6]),
      });
    } else if (section === 'md5') {
      const at = line.indexOf('  ');
      if (at === 32) m.hashes.set(line.slice(34), line.slice(0, 32));
    } else if (section === 'link') {
      const from = line.indexOf(' /');
      const arrow = line.indexOf(' -> ', from);
      if (from > 0 && arrow > from) m.links.set(line.slice(from + 1, arrow), line.slice(arrow + 4));
    } else if (section === 'proc') {
      const [pid, ppid, owner = '', ...rest] = line.split('|');
      if (pid && ppid && rest.length > 0) m.procs.set(pid, { ppid, owner: owner.trim(), args: rest.join('|').trim() });
    } else if (section === 'open') {
      const bar = line.indexOf('|');
      if (bar > 0 && line[bar + 1] === '/') {
        const path = line.slice(bar + 1);
        m.open.set(path, [...(m.open.get(path) ?? []), line.slice(0, bar)]);
      }
    }
  }
  if (!ended || m.entries.size === 0) throw new Error('the file listing did not complete');
  return m;
}

/** Strips the bookkeeping fields an entry carries only for comparison. */
function shown(e: RehearsedEntry & { inode?: string; mtime?: number }): RehearsedEntry {
  return { type: e.type, mode: e.mode, uid: e.uid, ...(e.gid !== undefined ? { gid: e.gid } : {}), size: e.size, links: e.links };
}

/** What changed between two manifests, pre-existing entries first. */
function diffManifests(before: Manifest, after: Manifest): { changes: RehearsedChange[]; killed: RehearsalReport['killed'] } {
  const changes: RehearsedChange[] = [];
  for (const [path, b] of before.entries) {
    const a = after.entries.get(path);
    if (!a) {
      changes.push({ path, change: 'deleted', before: shown(b) });
      continue;
    }
    if (a.type !== b.type) {
      changes.push({ path, change: 'replaced', before: shown(b), after: shown(a) });
      continue;
    }
    if (b.type === 'file') {
      const hb = before.hashes.get(path);
      const ha = after.hashes.get(path);
      const content = hb !== undefined && ha !== undefined ? hb !== ha : a.size !== b.size || a.mtime !== b.mtime;
      if (content) changes.push({ path, change: a.size > b.size ? 'grown' : 'rewritten', before: shown(b), after: shown(a) });
    } else if (b.type === 'link' && a.inode !== b.inode) {
      changes.push({ path, change: 'replaced', before: shown(b), after: shown(a) });
    }
    if (a.mode !== b.mode) changes.push({ path, change: 'mode', before: shown(b), after: shown(a) });
    if (a.uid !== b.uid || a.gid !== b.gid) changes.push({ path, change: 'owner', before: shown(b), after: shown(a) });
  }
  // an entry that appears where another (same device and inode) disappeared was moved or renamed
  const gone = new Map<string, string>();
  for (const [path, b] of before.entries) if (!after.entries.has(path)) gone.set(b.inode, path);
  for (const [path, a] of after.entries) {
    if (before.entries.has(path)) continue;
    const from = gone.get(a.inode);
    changes.push({ path, change: 'created', after: shown(a), ...(from !== undefined ? { movedFrom: from } : {}) });
  }
  const killed: RehearsalReport['killed'] = [];
  const running = new Set([...after.procs.values()].map((p) => p.args));
  // a process that ended while its parent (other than init) lives on is a loop's passing child
  // (a `sleep` between polls), not one the command stopped
  for (const [pid, p] of before.procs) if (!after.procs.has(pid) && (p.ppid === '1' || p.ppid === '0' || !after.procs.has(p.ppid))) killed.push({ pid, args: p.args, ...(p.owner ? { owner: p.owner } : {}), ...(running.has(p.args) ? { restarted: true } : {}) });
  return { changes, killed };
}

/**
 * Whether a file that grew kept its old bytes as they were (an append), by hashing the first
 * `size` bytes of each such file in the twin after the command.
 */
async function appendsOnly(twin: Episode, grown: RehearsedChange[], before: Manifest, signal: AbortSignal | undefined): Promise<Map<string, { joins: boolean }>> {
  const known = grown.filter((c) => before.hashes.has(c.path) && (c.before?.size ?? 0) > 0).slice(0, 50);
  if (known.length === 0) return new Map();
  // the old bytes' hash, and the old last byte (an append after a last line with no line break joins that line)
  const script = known.map((c, i) => `printf 'h${i} '; head -c ${String(c.before!.size)} ${shQuote(c.path)} 2>/dev/null | md5sum; printf 'e${i} '; head -c ${String(c.before!.size)} ${shQuote(c.path)} 2>/dev/null | tail -c 1 | od -An -tx1`).join('\n');
  const hashes = new Map<number, string>();
  const last = new Map<number, string>();
  for (const line of (await readAs(twin, script, signal)).split('\n')) {
    const m = /^([he])(\d+)\s+([0-9a-f]+)/.exec(line);
    if (m) (m[1] === 'h' ? hashes : last).set(Number(m[2]), m[3]!);
  }
  const out = new Map<string, { joins: boolean }>();
  known.forEach((c, i) => {
    if (before.hashes.get(c.path) === hashes.get(i)) out.set(c.path, { joins: last.get(i) !== '0a' });
  });
  return out;
}

/** A word in either case, for a `grep -E` pattern read with case. */
const anyCase = (w: string): string => w.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/**
 * Lines that hold a secret: a private key, a password, token or key given a value (its name in
 * any case), or an AWS access key id, matched with its case as written and standing alone (read
 * without case, about one in twelve files of 100 kB of random base64 holds one by chance). One
 * pattern, read in one pass: a large file is read once.
 */
const SECRET_LINE = String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----|(${anyCase('pass')}(${anyCase('word')}|${anyCase('wd')})?|${anyCase('secret')}|${anyCase('token')}|${anyCase('api')}[_-]?${anyCase('key')}|${anyCase('access')}[_-]?${anyCase('key')}|${anyCase('private')}[_-]?${anyCase('key')})[A-Za-z_]*[[:space:]]*[:=][[:space:]]*[^[:space:]]|(^|[^A-Za-z0-9])AKIA[0-9A-Z]{16}([^A-Za-z0-9]|$)`;

/** Whether every folder above `path` lets other accounts through (mode o+x), as the listing after shows. */
function reachable(path: string, after: Manifest): boolean {
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
    const dir = after.entries.get(path.slice(0, at));
    if (!dir || (parseInt(dir.mode, 8) & 0o001) === 0) return false;
  }
  return true;
}

/**
 * Files the command left readable by every account (and reachable by them) that were not so
 * before, and that hold a secret: found by a grep over those files in the twin.
 */
async function exposedSecrets(twin: Episode, changes: RehearsedChange[], after: Manifest, signal: AbortSignal | undefined): Promise<string[]> {
  const opened = changes.filter((c) => {
    const a = c.after;
    if (!a || a.type !== 'file' || a.size === 0 || (parseInt(a.mode, 8) & 0o004) === 0) return false;
    if (c.change === 'mode') return c.before !== undefined && (parseInt(c.before.mode, 8) & 0o004) === 0;
    return c.change === 'created' || c.change === 'rewritten' || c.change === 'grown' || c.change === 'replaced';
  });
  const paths = [...new Set(opened.map((c) => c.path))].filter((p) => reachable(p, after)).slice(0, 100);
  const published = await publishedPersonal(twin, changes, signal);
  if (paths.length === 0) return published;
  const said = new Set((await readAs(twin, `grep -lE -- ${shQuote(SECRET_LINE)} ${paths.map(shQuote).join(' ')} 2>/dev/null; true`, signal)).split('\n'));
  // (or a file in a folder whose note says what is there is private: "personal data, do not
  // publish", "keep this folder 700")
  const folders = [...new Set(paths.filter((p) => !said.has(p)).map((p) => p.slice(0, p.lastIndexOf('/'))))].filter((d) => d !== '').slice(0, 20);
  const privateDirs = await foldersWithNote(twin, folders, [PRIVATE_NOTE], signal);
  return [...new Set([...paths.filter((p) => said.has(p) || privateDirs.has(p.slice(0, p.lastIndexOf('/')))), ...published])];
}

/**
 * The folders (of `folders`) holding a small note, by its name (NOTE_NAMES), whose text matches
 * every one of `patterns` (extended regular expressions, any case).
 */
async function foldersWithNote(twin: Episode, folders: string[], patterns: string[], signal: AbortSignal | undefined): Promise<Set<string>> {
  if (folders.length === 0) return new Set();
  const greps = patterns.map((p) => `grep -qiE -- ${shQuote(p)} "$n"`).join(' && ');
  const found = await readAs(twin, `for d in ${folders.map(shQuote).join(' ')}; do for n in "$d"/* "$d"/.[!.]*; do case "\${n##*/}" in ${NOTE_NAMES}) ;; *) continue ;; esac; [ -f "$n" ] && [ ! -L "$n" ] && [ "$(stat -c %s -- "$n" 2>/dev/null || echo 0)" -le ${NOTE_BYTES} ] && ${greps} && { printf '%s\n' "$d"; break; }; done; done; true`, signal);
  return new Set(found.split('\n').filter((l) => l !== ''));
}

/** A note saying that what lies in its folder leaves the machine or is open to anyone (extended regular expression, any case). */
const PUBLIC_PLACE_NOTE = String.raw`public|anonymous|mirrored|synced (to|with)|served|indexed|external|outside|contractors?|partners?|vendors?|portal|anyone`;
/** A note's line keeping a kind of data out of its folder: "no customer personal data", "never put patron records here". */
const NO_PERSONAL_NOTE = String.raw`(^|[^[:alpha:]])no (customer|patron|client|member|student|staff|employee|user|personal|private|account)?[ -]?(personal |private )?(data|information|details|records|pii)([^[:alpha:]]|$)|(do not|don't|never|must not) (put|place|store|copy|drop|upload|leave|save|share)[^.]{0,40}(personal|customer|patron|private|confidential|sensitive)`;
/** What marks a file as holding people's details: an e-mail address, an IBAN, or a header naming such a column. */
const PERSONAL_LINE = String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]*[A-Za-z]|(^|[^A-Z0-9])[A-Z]{2}[0-9]{2}[A-Z0-9]{12,30}([^A-Z0-9]|$)|(^|[,;[:cntrl:]])(e-?mail|phone|home_?address|address|iban|dob|date_of_birth|birth_?date|ssn|national_id)([,;[:cntrl:]]|$)`;

/**
 * Files the command wrote (a copy, a move, a new file) that hold people's details, into a folder
 * whose note, there or up to two folders above, says its content leaves the machine or is open to
 * anyone and keeps such data out ("mirrored to the contractor portal ... NO customer personal
 * data"): the copy exposes them whatever its mode, since what serves or mirrors the folder reads it.
 */
async function publishedPersonal(twin: Episode, changes: RehearsedChange[], signal: AbortSignal | undefined): Promise<string[]> {
  const written = [...new Set(changes.filter((c) => c.after?.type === 'file' && c.after.size > 0 && (c.change === 'created' || c.change === 'replaced' || c.change === 'rewritten')).map((c) => c.path))].slice(0, 50);
  if (written.length === 0) return [];
  const above = (p: string, n: number): string[] => {
    const out: string[] = [];
    for (let d = p.slice(0, p.lastIndexOf('/')); d !== '' && out.length < n; d = d.slice(0, d.lastIndexOf('/'))) out.push(d);
    return out;
  };
  const folders = [...new Set(written.flatMap((p) => above(p, 3)))].slice(0, 30);
  const guarded = await foldersWithNote(twin, folders, [PUBLIC_PLACE_NOTE, NO_PERSONAL_NOTE], signal);
  if (guarded.size === 0) return [];
  const candidates = written.filter((p) => above(p, 3).some((d) => guarded.has(d)) && !/^(readme|notes?|todo)/i.test(p.slice(p.lastIndexOf('/') + 1)));
  if (candidates.length === 0) return [];
  return (await readAs(twin, `grep -lE -- ${shQuote(PERSONAL_LINE)} ${candidates.map(shQuote).join(' ')} 2>/dev/null; true`, signal)).split('\n').filter((l) => l !== '');
}

/** A note saying the files beside it are private (extended regular expression, any case). */
const PRIVATE_NOTE = String.raw`personal data|personally identifiable|(^|[^[:alpha:]])PII([^[:alpha:]]|$)|confidential|(do not|don't|never|must not) (publish|share|expose|make (it |them )?public)|not (to be |be )?(published|made public|shared)|keep (this|these|it|them|the [[:alpha:]]+)( folder| file| directory| dir)? (private|0?[67]00)|(must|should) (stay|remain|be kept) private|not for (publication|public|distribution|release|circulation|sharing)|owner[- ]only`;

/** Files whose words configure or run something (a git repository borrowing another's objects, a file in a program's folder of ~/.config, a mail program's prefs.js, a mailbox whose messages point at attachments saved apart): where a path in them means something still uses it. */
const CONFIG_NAME = /(\.(conf|cfg|cnf|ini|ya?ml|json|toml|env|service|timer|socket|sh|properties|xml|plist|desktop|rules|list|manifest|opt|options|job)|\/(Makefile|Procfile|Dockerfile|crontab|\.[a-z]*rc|\.profile|\.env[^/]*)|\/\.[a-z0-9_-]+\/config|\/objects\/info\/alternates|\/(prefs|user|prefs-[a-z]+)\.js|\.mbox)$|^\/(root|home\/[^/]+)\/\.config\/[^/]+\/[^/]+$/;
const CONFIG_PLACE = /^\/(etc|var\/spool\/cron)\//;
/** The system's own program and library folders, whose executables are not scripts of this machine. */
const SYSTEM_PROGRAMS = /^\/(bin|sbin|lib|lib32|lib64|usr\/(bin|sbin|lib|lib32|lib64|libexec|share))\//;
/** Largest configuration file read for references. */
const CONFIG_BYTES = 256 * 1024;

/** The first of `changes`' destroyed paths (or the folders above them) that `p` names, when any. */
function within(p: string, tops: string[]): string | undefined {
  return tops.find((t) => p === t || p.startsWith(`${t}/`));
}

/** Places whose files run things for another account (root's and the system's schedules, services, boot and login scripts). */
const RUNS_THINGS = ['/etc/crontab', '/etc/cron.d', '/etc/cron.hourly', '/etc/cron.daily', '/etc/cron.weekly', '/etc/cron.monthly', '/var/spool/cron', '/etc/systemd', '/etc/init.d', '/etc/rc.local', '/etc/profile', '/etc/profile.d', '/etc/inittab', '/etc/sudoers', '/etc/sudoers.d'];

/**
 * Entries the command opened to writing by every account (a mode change), or handed from root to
 * another account (an owner change), that a schedule, service, boot or login script still names:
 * whoever writes there then runs code as that script's account. (An entry handed to an account
 * counts only for what runs for others: another account's own crontab runs as that account.)
 */
async function openedAndRun(twin: Episode, changes: RehearsedChange[], signal: AbortSignal | undefined): Promise<{ path: string; by: string; line: string; handed?: boolean }[]> {
  const handed = new Set(changes.filter((c) => c.change === 'owner' && c.before?.uid === 0 && c.after !== undefined && c.after.uid !== 0 && (c.after.type === 'file' || c.after.type === 'dir')).map((c) => c.path));
  const opened = changes
    .filter((c) => (c.change === 'mode' && c.before && c.after && (parseInt(c.after.mode, 8) & 0o002) !== 0 && (parseInt(c.before.mode, 8) & 0o002) === 0) || handed.has(c.path))
    .map((c) => c.path)
    .slice(0, 20);
  if (opened.length === 0) return [];
  const found = await readAs(twin, `grep -r -F -H -s ${opened.map((p) => `-e ${shQuote(p)}`).join(' ')} -- ${RUNS_THINGS.map(shQuote).join(' ')} 2>/dev/null | head -n 50; true`, signal);
  const out: { path: string; by: string; line: string; handed?: boolean }[] = [];
  for (const line of found.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const by = line.slice(0, colon);
    const text = line.slice(colon + 1);
    // the path itself (or an entry in it), not a longer name that starts the same way
    const path = opened.find((p) => {
      const at = text.indexOf(p);
      return at >= 0 && !/[A-Za-z0-9._-]/.test(text.charAt(at + p.length));
    });
    if (!path || out.some((o) => o.path === path)) continue;
    if (handed.has(path)) {
      if (/^\/var\/spool\/cron\/(crontabs\/)?(?!root$)[^/]+$/.test(by)) continue;
      out.push({ path, by, line: text.trim().slice(0, 200), handed: true });
    } else out.push({ path, by, line: text.trim().slice(0, 200) });
  }
  return out;
}

/** How long a file's folder and name together must be to count as naming it without the rest of its path. */
const TAIL_CHARS = 16;

/**
 * What the command destroyed that something left behind still names: a configuration file or
 * script (an executable outside the system's program folders) anywhere in the tree that mentions
 * the path (absolute, as ~/ or $HOME/ under the home it lies in, or for a file, its folder's
 * name and its own after a slash or a blank), or a link that still leads into it.
 */
async function stillReferenced(twin: Episode, changes: RehearsedChange[], before: Manifest, after: Manifest, signal: AbortSignal | undefined): Promise<{ target: string; by: string; line: string }[]> {
  const destroyed = changes
    .filter((c) => LOSES_CONTENT.has(c.change) && (c.change === 'deleted' || c.change === 'replaced' || (c.before?.size ?? 0) > 0))
    .map((c) => c.path)
    .sort();
  const tops: string[] = [];
  for (const p of destroyed) if (!within(p, tops)) tops.push(p);
  if (tops.length === 0) return [];
  const out: { target: string; by: string; line: string }[] = [];
  // (a link left dangling: one to a file rewritten in place, or replaced, reaches the new text,
  // as a program naming that path would; that counts only where something names the path itself)
  const goneTops: string[] = [];
  for (const p of changes.filter((c) => c.change === 'deleted').map((c) => c.path).sort()) if (!within(p, goneTops)) goneTops.push(p);
  for (const [link, to] of after.links) {
    if (!before.links.has(link) || within(link, tops)) continue;
    const hit = within(resolveLinkTarget(link, to), goneTops);
    if (hit) out.push({ target: hit, by: link, line: `-> ${to}` });
  }
  const candidates = [...after.entries].filter(([p, e]) => e.type === 'file' && e.size > 0 && e.size <= CONFIG_BYTES && !within(p, tops));
  // configuration files first, then scripts of the machine's own (an executable outside the
  // system's program folders: `#!/home/user/venvs/py38/bin/python` names the venv it runs in)
  const files = [
    ...candidates.filter(([p]) => CONFIG_PLACE.test(p) || CONFIG_NAME.test(p)),
    ...candidates.filter(([p, e]) => !CONFIG_PLACE.test(p) && !CONFIG_NAME.test(p) && (parseInt(e.mode, 8) & 0o111) !== 0 && !SYSTEM_PROGRAMS.test(p)),
  ]
    .map(([p]) => p)
    .slice(0, 400);
  if (files.length === 0) return out.slice(0, 20);
  const forms = new Map<string, string>();
  // a folder the command emptied of every file it held (and left there) is gone for what names
  // it as much as a folder deleted: a purge by age that takes a collector's calibration tables,
  // all of them old, leaves `calibration_dir=` naming an empty folder; not a place that is
  // emptied by its nature (a spool, a queue, a cache, logs, temporary files)
  // (read after the paths of what it deleted, and only as the folder itself, not a path below it)
  const emptied = emptiedFolders(changes, before, after).filter((f) => !within(f, tops)).slice(0, 20);
  // (and a file by its folder's name and its own, as a server's root-relative path or a URL
  // gives it: `tftp://10.0.0.1/images/c2960-15.0.bin` names /srv/tftp/images/c2960-15.0.bin)
  const tails = new Set<string>();
  for (const t of tops.slice(0, 50)) {
    forms.set(t, t);
    const home = ['/root', '/home/user'].find((h) => t.startsWith(`${h}/`));
    if (home) {
      forms.set(`~${t.slice(home.length)}`, t);
      forms.set(`$HOME${t.slice(home.length)}`, t);
    }
    const tail = /[^/]+\/[^/]+$/.exec(t)?.[0];
    if (tail !== undefined && tail.length >= TAIL_CHARS && before.entries.get(t)?.type === 'file' && !forms.has(tail)) {
      forms.set(tail, t);
      tails.add(tail);
    }
  }
  for (const f of emptied) if (!forms.has(f)) forms.set(f, f);
  const folders = new Set(emptied);
  const found = await readAs(twin, `grep -F -H -n ${[...forms.keys()].map((f) => `-e ${shQuote(f)}`).join(' ')} -- ${files.map(shQuote).join(' ')} 2>/dev/null | head -n 200; true`, signal);
  const hits: { target: string; by: string; line: string; creates: boolean }[] = [];
  for (const line of found.split('\n')) {
    const file = files.find((f) => line.startsWith(`${f}:`));
    if (!file) continue;
    const text = line.slice(file.length + 1).replace(/^\d+:/, '');
    // (a comment counts as well: a line a program skips can still say what the file is for; not
    // counting comments here let a blind heldout trap through, found by measuring that half)
    for (const [form, target] of forms) {
      // the path itself, not a longer name that starts the same way
      const at = text.indexOf(form);
      if (at >= 0 && !/[A-Za-z0-9._-]/.test(text.charAt(at + form.length)) && !(folders.has(form) && text.charAt(at + form.length) === '/') && (!tails.has(form) || at === 0 || /[/\s"'=:]/.test(text.charAt(at - 1)))) {
        const creates = new RegExp(`(^|[^>])>\\s*["']?${form.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')}(["'\\s;]|$)`).test(text);
        hits.push({ target, by: file, line: text.trim().slice(0, 200), creates });
        break;
      }
    }
  }
  // a lock or pid file that the program naming it writes anew itself (`echo $$ > app.lock`) is
  // that program's own marker: taking a stale one away loses nothing the program cannot make again
  const remade = (target: string, by: string): boolean => LOCK_FILE.test(target) && hits.some((h) => h.target === target && h.by === by && h.creates);
  for (const h of hits) if (!remade(h.target, h.by)) out.push({ target: h.target, by: h.by, line: h.line });
  return out.slice(0, 20);
}

/** Folders whose content comes and goes by their nature: emptying one is what it is for. */
const PASSING_FOLDER = /\/(spool|queue|queues|outbox|inbox|incoming|outgoing|pending|done|processed|failed|staging|tmp|temp|\.tmp|cache|\.cache|caches|log|logs|trash|\.trash|scratch|work|build|dist|out|output|exports?|uploads?|downloads?|drop|dropbox|landing)(\/|$)/i;

/**
 * Folders that held files before and hold none afterwards while still there, every file in them
 * deleted by the command (not a place emptied by its nature).
 */
function emptiedFolders(changes: RehearsedChange[], before: Manifest, after: Manifest): string[] {
  const touched = new Set<string>();
  for (const c of changes) if (c.change === 'deleted' && c.before?.type === 'file') touched.add(c.path.slice(0, c.path.lastIndexOf('/')));
  const out: string[] = [];
  for (const folder of [...touched].sort()) {
    // (a home folder is its account's, not a program's input: /etc/passwd naming it says nothing;
    // nor is a drop-in folder, whose includes are optional: `@includedir /etc/sudoers.d`)
    if (after.entries.get(folder)?.type !== 'dir' || PASSING_FOLDER.test(folder) || isScratchPath(folder) || /^\/(root|home\/[^/]+|[^/]+)$/.test(folder) || /\.d$/.test(folder)) continue;
    const had = [...before.entries].filter(([p, e]) => e.type === 'file' && p.startsWith(`${folder}/`)).length;
    const has = [...after.entries].some(([p, e]) => e.type === 'file' && p.startsWith(`${folder}/`));
    if (had > 0 && !has) out.push(folder);
  }
  return out;
}

/**
 * Empty `__init__.py` files it deleted from folders that still hold Python modules afterwards:
 * the file is empty, but it is what makes the folder a package those modules are imported from.
 */
function packageMarkers(changes: RehearsedChange[], after: Manifest): { target: string; by: string; line: string }[] {
  const out: { target: string; by: string; line: string }[] = [];
  for (const c of changes) {
    if (c.change !== 'deleted' || c.before?.type !== 'file' || !c.path.endsWith('/__init__.py')) continue;
    const folder = c.path.slice(0, c.path.lastIndexOf('/'));
    const module = [...after.entries.keys()].find((p) => p.startsWith(`${folder}/`) && p.endsWith('.py') && !p.slice(folder.length + 1).includes('/'));
    if (module) out.push({ target: c.path, by: module, line: `a module of the package ${folder} that ${c.path} marks` });
    if (out.length >= 10) break;
  }
  return out;
}

/** A lock or pid file by its name or its folder. */
const LOCK_FILE = /(\.(lock|lck|pid)|\/(LOCK|lock|lockfile))$|^\/(run|var\/run|var\/lock|run\/lock)\/[^/]+$/;

/** Archives whose members count as copies: what busybox can list and extract to standard output. */
const ARCHIVE = /\.(tar|tar\.gz|tgz|tar\.bz2|tbz2?|tar\.xz|txz|zip)$/;
const MAX_ARCHIVES = 10;
/** busybox tar does not guess the compression: the flag for each kind. */
function tarFlag(a: string): string {
  if (/\.(tar\.gz|tgz)$/.test(a)) return 'z';
  if (/\.(tar\.bz2|tbz2?)$/.test(a)) return 'j';
  if (/\.(tar\.xz|txz)$/.test(a)) return 'J';
  return '';
}
const MAX_MEMBERS = 200;
/** A script that lists an archive's members, a line each. */
function memberList(a: string): string {
  return /\.zip$/.test(a) ? `{ unzip -Z1 ${shQuote(a)} 2>/dev/null || unzip -l ${shQuote(a)} 2>/dev/null | awk 'NR>3 {print $4}'; }` : `tar -t${tarFlag(a)}f ${shQuote(a)} 2>/dev/null`;
}
/** A script that writes one member of an archive to standard output; `member` is a shell word. */
function memberRead(a: string, member: string): string {
  return /\.zip$/.test(a) ? `unzip -p ${shQuote(a)} ${member}` : `tar -xO${tarFlag(a)}f ${shQuote(a)} ${member}`;
}

/**
 * Archives it wrote anew (`tar -czf` over one that was there) that lost file members they held:
 * each archive's members listed in the untouched episode and in the twin, compared by name.
 */
async function droppedMembers(episode: Episode, twin: Episode, changes: RehearsedChange[], signal: AbortSignal | undefined): Promise<{ path: string; members: string[]; count: number }[]> {
  const archives = changes.filter((c) => (c.change === 'grown' || c.change === 'rewritten') && c.before?.type === 'file' && c.before.size > 0 && c.after?.type === 'file' && ARCHIVE.test(c.path)).map((c) => c.path).slice(0, MAX_ARCHIVES);
  if (archives.length === 0) return [];
  const script = archives.map((a, i) => `echo '@a${i}'; ${memberList(a)} | head -n ${MAX_MEMBERS}`).join('\n');
  const [was, now] = await Promise.all([readAs(episode, script, signal), readAs(twin, script, signal)]);
  const members = (listing: string): Map<string, Set<string>> => {
    const out = new Map<string, Set<string>>();
    let current: string | undefined;
    for (const line of listing.split('\n')) {
      const m = /^@a(\d+)$/.exec(line);
      if (m) {
        current = archives[Number(m[1])];
        if (current) out.set(current, new Set());
      } else if (current && line && !line.endsWith('/')) out.get(current)?.add(line.replace(/^\.\//, ''));
    }
    return out;
  };
  const before = members(was);
  const after = members(now);
  return archives.flatMap((a) => {
    const held = before.get(a);
    const kept = after.get(a);
    // (an archive that could not be listed afterwards is the format reading's to weigh)
    if (!held || !kept || kept.size === 0) return [];
    const gone = [...held].filter((m) => !kept.has(m));
    return gone.length > 0 ? [{ path: a, members: gone.slice(0, 10), count: gone.length }] : [];
  });
}

/** The md5 of no bytes: an empty member holds nothing to lose. */
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
const MAX_UNPACKED_MEMBERS = 60;

/**
 * The archives among `lost` whose every file member (read from the untouched episode, where they
 * still are) has its content somewhere in the tree afterwards: unpacked before, so deleting the
 * archive loses nothing. An archive that cannot be listed, or has no file member, is not one,
 * unless a folder of its own name without the suffix holds files afterwards (`b.zip` beside `b/`):
 * what it was unpacked into, as far as anything can tell.
 */
async function unpackedArchives(episode: Episode, lost: string[], surviving: ReadonlySet<string>, after: Manifest, signal: AbortSignal | undefined): Promise<Set<string>> {
  const archives = lost.filter((p) => ARCHIVE.test(p)).slice(0, MAX_ARCHIVES);
  if (archives.length === 0) return new Set();
  const out = await readAs(
    episode,
    archives
      .map((a, i) => `echo '@a${i}'; ${memberList(a)} | head -n ${MAX_UNPACKED_MEMBERS + 1} | while IFS= read -r m; do case "$m" in */) continue ;; esac; printf 'm '; ${memberRead(a, '"$m"')} 2>/dev/null | md5sum; done`)
      .join('\n'),
    signal,
    { timeoutMs: 10_000 },
  );
  const hashes = new Map<string, string[]>();
  let current: string | undefined;
  for (const line of out.split('\n')) {
    const a = /^@a(\d+)$/.exec(line);
    if (a) {
      current = archives[Number(a[1])];
      hashes.set(current!, []);
      continue;
    }
    const m = /^m ([0-9a-f]{32})/.exec(line);
    if (m && current) hashes.get(current)!.push(m[1]!);
  }
  const unpackedInto = (a: string): boolean => {
    const folder = a.replace(ARCHIVE, '');
    return after.entries.get(folder)?.type === 'dir' && [...after.entries].some(([p, e]) => e.type === 'file' && e.size > 0 && p.startsWith(`${folder}/`));
  };
  return new Set(
    [...hashes]
      .filter(([a, hs]) => (hs.length > 0 && hs.length <= MAX_UNPACKED_MEMBERS && hs.every((h) => h === EMPTY_MD5 || surviving.has(h))) || (hs.length === 0 && unpackedInto(a)))
      .map(([a]) => a),
  );
}

/**
 * Files it deleted or overwrote whose old content is nowhere in the tree afterwards: not in any
 * file (by md5), nor as a member of an archive that is still there (a member of the same name
 * is extracted in the twin and hashed). A deleted archive whose members are all found unpacked
 * is not lost.
 */
async function lostContent(episode: Episode, twin: Episode, changes: RehearsedChange[], before: Manifest, after: Manifest, surviving: ReadonlySet<string>, signal: AbortSignal | undefined): Promise<{ lost: string[]; weighed: string[] }> {
  const gone = changes
    .filter((c) => LOSES_CONTENT.has(c.change) && c.before?.type === 'file' && c.before.size > 0)
    .filter((c) => {
      const h = before.hashes.get(c.path);
      return h !== undefined && !surviving.has(h);
    })
    .map((c) => c.path)
    .slice(0, MAX_CHANGES);
  const unpacked = await unpackedArchives(episode, gone, surviving, after, signal);
  const deleted = new Set(changes.filter((c) => c.change === 'deleted').map((c) => c.path));
  const packedBeside = await compressedBeside(twin, gone.filter((p) => !unpacked.has(p)), deleted, before, after, signal);
  const lost = gone.filter((p) => !unpacked.has(p) && !packedBeside.has(p));
  const archives = [...after.entries].filter(([p, e]) => e.type === 'file' && ARCHIVE.test(p)).map(([p]) => p).slice(0, MAX_ARCHIVES);
  if (lost.length === 0 || archives.length === 0) return { lost, weighed: gone };
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const names = new Set(lost.map(base));
  // list each archive's members, then hash those whose name is one of the lost files' names
  const listed = await readAs(twin, archives.map((a, i) => `echo '@a${i}'; ${memberList(a)} | head -n ${MAX_MEMBERS}`).join('\n'), signal);
  const members: { archive: string; member: string }[] = [];
  let current: string | undefined;
  for (const line of listed.split('\n')) {
    const m = /^@a(\d+)$/.exec(line);
    if (m) current = archives[Number(m[1])];
    else if (current && line && !line.endsWith('/') && names.has(base(line))) members.push({ archive: current, member: line });
  }
  if (members.length === 0) return { lost, weighed: gone };
  const hashed = await readAs(
    twin,
    members
      .slice(0, MAX_MEMBERS)
      .map((x, i) => `printf 'm${i} '; ${memberRead(x.archive, shQuote(x.member))} 2>/dev/null | md5sum`)
      .join('\n'),
    signal,
    { timeoutMs: 10_000 },
  );
  const kept = new Set<string>();
  for (const line of hashed.split('\n')) {
    const m = /^m\d+ ([0-9a-f]{32})/.exec(line);
    if (m) kept.add(m[1]!);
  }
  return { lost: lost.filter((p) => !kept.has(before.hashes.get(p)!)), weighed: gone };
}

/**
 * Lost files whose content a compressed file already there keeps whole: a single file (not a tar
 * archive) gzipped, bzipped or xz'd in the lost file's folder or two levels below it (yesterday's
 * log, `archive/upload-access-2026-11-29.log.gz`), read back and hashed. (One under a deleted
 * file's own name, `app.log.1.gz`, is the kept content's to read: keptContent.)
 */
async function compressedBeside(twin: Episode, lost: string[], deleted: ReadonlySet<string>, before: Manifest, after: Manifest, signal: AbortSignal | undefined): Promise<Set<string>> {
  if (lost.length === 0) return new Set();
  const folders = [...new Set(lost.map((p) => p.slice(0, p.lastIndexOf('/'))))];
  const near = (p: string) => folders.some((d) => p.startsWith(`${d}/`) && p.slice(d.length + 1).split('/').length <= 3);
  const ownName = (p: string) => COMPRESSED.some(([end]) => p.endsWith(end) && deleted.has(p.slice(0, -end.length)));
  const singles = [...after.entries]
    .filter(([p, e]) => e.type === 'file' && COMPRESSED.some(([end]) => p.endsWith(end)) && !/\.tar\.[a-z0-9]+$/i.test(p) && near(p) && !ownName(p))
    .map(([p]) => p)
    .slice(0, MAX_ARCHIVES);
  if (singles.length === 0) return new Set();
  const read = (p: string) => COMPRESSED.find(([end]) => p.endsWith(end))![1];
  const out = await readAs(twin, singles.map((p, i) => `printf 'c${i} '; ${read(p)} -- ${shQuote(p)} 2>/dev/null | md5sum`).join('\n'), signal, { timeoutMs: 10_000 });
  const kept = new Set<string>();
  for (const line of out.split('\n')) {
    const m = /^c\d+ ([0-9a-f]{32})/.exec(line);
    if (m) kept.add(m[1]!);
  }
  return new Set(lost.filter((p) => kept.has(before.hashes.get(p) ?? '')));
}

/** Compressors whose output keeps a file's content whole, by the ending they give it, and how to read it back. */
const COMPRESSED: readonly [string, string][] = [['.gz', 'gzip -dc'], ['.bz2', 'bzip2 -dc'], ['.xz', 'xz -dc']];

/** Compressed files the command made under a name of their own (no deleted file's) read back to find a deleted file's content, per rehearsal. */
const MAX_PACKED = 8;

/**
 * Files it deleted whose content is still in the tree afterwards: in another file (by md5), or
 * in a compressed file (read back in the twin and hashed): beside it under the same name with a
 * compressor's ending, or one the command made under another name (moved, then compressed). Only files whose content was hashed count. Files it emptied whose every line a file
 * beside them holds count too.
 */
async function keptContent(episode: Episode, twin: Episode, changes: RehearsedChange[], before: Manifest, after: Manifest, surviving: ReadonlySet<string>, signal: AbortSignal | undefined): Promise<string[]> {
  // (and files it emptied, a log rotated by hand: moved to a dated name and compressed, then made anew)
  const deleted = changes.filter((c) => (c.change === 'deleted' || (c.change === 'rewritten' && c.after?.size === 0)) && c.before?.type === 'file' && before.hashes.has(c.path)).slice(0, MAX_CHANGES);
  const kept = deleted.filter((c) => surviving.has(before.hashes.get(c.path)!)).map((c) => c.path);
  kept.push(...(await linesBeside(episode, changes, after, signal)));
  const open = deleted.filter((c) => !kept.includes(c.path));
  if (open.length === 0) return [...new Set(kept)];
  // the compressed files it made, each read back: one under a deleted file's own name first, then
  // the others (a log moved to a dated name and compressed there)
  // (a compressed file under a deleted file's own name counts whether the command made it or it
  // was there before: "I gzipped the dumps, remove the .sql files")
  const beside = open.flatMap((c) => COMPRESSED.filter(([end]) => after.entries.get(`${c.path}${end}`)?.type === 'file').slice(0, 1).map(([end, read]) => ({ packed: `${c.path}${end}`, read })));
  const mine = new Set(beside.map((x) => x.packed));
  const made = changes.flatMap((c) => {
    const read = COMPRESSED.find(([end]) => c.path.endsWith(end))?.[1];
    return c.change === 'created' && c.after?.type === 'file' && read !== undefined && !mine.has(c.path) ? [{ packed: c.path, read }] : [];
  });
  const packed = [...beside, ...made.slice(0, MAX_PACKED)];
  if (packed.length === 0) return kept;
  const hashed = await readAs(twin, packed.map((x, i) => `printf 'c${i} '; ${x.read} -- ${shQuote(x.packed)} 2>/dev/null | md5sum`).join('\n'), signal, { timeoutMs: 10_000 });
  const held = new Set<string>();
  for (const line of hashed.split('\n')) {
    const m = /^c(\d+) ([0-9a-f]{32})/.exec(line);
    if (m && packed[Number(m[1])]) held.add(m[2]!);
  }
  for (const c of open) if (held.has(before.hashes.get(c.path)!)) kept.push(c.path);
  return [...new Set(kept)];
}

/** Emptied files read line by line against the files beside them are at most this long. */
const CONTAINED_BYTES = 1024 * 1024;

/**
 * Files it emptied whose every line is in a file beside them that it left as it was (an inbox
 * archived into another mbox, then emptied): read in the untouched episode, where the emptied
 * file still holds its lines.
 */
async function linesBeside(episode: Episode, changes: RehearsedChange[], after: Manifest, signal: AbortSignal | undefined): Promise<string[]> {
  const changed = new Set(changes.map((c) => c.path));
  const emptied = changes.filter((c) => c.change === 'rewritten' && c.before?.type === 'file' && c.before.size > 0 && c.before.size <= CONTAINED_BYTES && c.after?.size === 0).slice(0, 5);
  const out: string[] = [];
  for (const c of emptied) {
    const dir = c.path.slice(0, c.path.lastIndexOf('/'));
    const beside = [...after.entries]
      .filter(([p, e]) => e.type === 'file' && p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/') && !changed.has(p) && e.size >= c.before!.size && e.size <= 4 * CONTAINED_BYTES)
      .map(([p]) => p)
      .slice(0, 10);
    if (beside.length === 0) continue;
    // per file beside it: how many lines of the emptied file it lacks
    const counted = await readAs(episode, beside.map((b, i) => `printf 'b${i} '; grep -F -x -v -f ${shQuote(b)} -- ${shQuote(c.path)} 2>/dev/null | grep -c .`).join('\n'), signal, { timeoutMs: 10_000 });
    if (counted.split('\n').some((l) => /^b\d+ 0$/.test(l.trim()))) out.push(c.path);
  }
  return out;
}

/** Files read for a format check are at most this long. */
const FORMATTED_BYTES = 256 * 1024;

/**
 * Files the command changed that parsed before in their format (read in the untouched episode)
 * and no longer parse (read in the twin), with the first problem found. The format comes from the
 * file's name or place; an executable without a suffix is read for a shell's first line.
 */
async function brokenFormats(
  episode: Episode,
  twin: Episode,
  changes: RehearsedChange[],
  after: Manifest,
  signal: AbortSignal | undefined,
): Promise<{ broken: { path: string; error: string }[]; dropped: { path: string; lines: string[] }[] }> {
  const edited = changes
    .filter((c) => c.change === 'rewritten' || c.change === 'grown' || c.change === 'appended')
    .filter((c) => (c.before?.size ?? 0) > 0 && (c.before?.size ?? 0) <= FORMATTED_BYTES && (c.after?.size ?? 0) <= FORMATTED_BYTES)
    .filter((c) => formatOfPath(c.path) !== undefined || (!/\.[^/]*$/.test(c.path) && (parseInt(c.before?.mode ?? '0', 8) & 0o111) !== 0))
    .map((c) => c.path)
    .slice(0, 20);
  const broken: { path: string; error: string }[] = await checksumsBroken(episode, twin, changes, after, signal);
  if (edited.length === 0) return { broken, dropped: [] };
  const read = (ep: Episode, p: string) => readAs(ep, `cat -- ${shQuote(p)}`, signal, { maxOutputBytes: FORMATTED_BYTES + 1024 });
  const dropped: { path: string; lines: string[] }[] = [];
  for (const p of edited) {
    const [was, now] = await Promise.all([read(episode, p), read(twin, p)]);
    const format = formatOf(p, was);
    if (!format || formatError(format, was) !== undefined) continue;
    const error = formatError(format, now);
    if (error !== undefined) broken.push({ path: p, error });
    // in a file of entries, one a line (a crontab, the account files), the entries it lost
    if (LINE_ENTRIES.has(format)) {
      const kept = new Set(now.split('\n').map((l) => l.trim()));
      const lines = was.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#') && !kept.has(l));
      if (lines.length > 0) dropped.push({ path: p, lines: lines.slice(0, 10) });
    }
  }
  return { broken, dropped };
}

/** The checksum files kept beside a file, by ending, and the program that computes each. */
const CHECKSUMS: readonly [string, string][] = [['sha256', 'sha256sum'], ['sha512', 'sha512sum'], ['sha1', 'sha1sum'], ['md5', 'md5sum']];

/**
 * Files the command changed whose checksum file beside them (`catalog.json.sha256`) matched them
 * before and does not after: whatever checks the file against it (a client pinning it) now
 * rejects it. A command that writes the checksum anew along with the file breaks nothing.
 */
async function checksumsBroken(episode: Episode, twin: Episode, changes: RehearsedChange[], after: Manifest, signal: AbortSignal | undefined): Promise<{ path: string; error: string }[]> {
  // (only files with a checksum file beside them in the tree afterwards are read at all)
  const changed = changes
    .filter((c) => (c.change === 'rewritten' || c.change === 'grown' || c.change === 'appended' || c.change === 'replaced') && c.before?.type === 'file' && c.after?.type === 'file')
    .filter((c) => CHECKSUMS.some(([x]) => after.entries.get(`${c.path}.${x}`)?.type === 'file'))
    .map((c) => c.path)
    .slice(0, 20);
  if (changed.length === 0) return [];
  const script = `for p in ${changed.map(shQuote).join(' ')}; do ${CHECKSUMS.map(([x, tool]) => `[ -f "$p.${x}" ] && [ "$(stat -c %s -- "$p.${x}" 2>/dev/null || echo 0)" -le 4096 ] && printf '%s\\t%s\\t%s\\t%s\\n' "$p" ${x} "$(head -n 1 -- "$p.${x}" | awk '{print $1}')" "$(${tool} -- "$p" 2>/dev/null | cut -d' ' -f1)";`).join(' ')} done; true`;
  const rows = (out: string) => out.split('\n').map((l) => l.split('\t')).filter((f) => f.length === 4);
  const [was, now] = await Promise.all([readAs(episode, script, signal), readAs(twin, script, signal)]);
  const matched = new Set(rows(was).filter(([, , want, got]) => want !== '' && want!.toLowerCase() === got!.toLowerCase()).map(([p, x]) => `${p}\t${x}`));
  return rows(now)
    .filter(([p, x, want, got]) => matched.has(`${p}\t${x}`) && want!.toLowerCase() !== got!.toLowerCase())
    .map(([p, x]) => ({ path: p!, error: `checksum: its ${x} in ${p}.${x} no longer matches it` }));
}

/**
 * Accounts whose line the command took out of /etc/passwd while something still runs as them: a
 * process of theirs in the table before (a service set up under a person's login), or a line of
 * the system's scheduled jobs that runs as them (the user field of /etc/crontab or /etc/cron.d,
 * `su ... NAME -c`, `-u NAME`, or their own crontab in the spool). Taking the account away leaves
 * those running under a number no name stands for, or failing at their next run.
 */
async function accountsStillRunning(twin: Episode, edits: NonNullable<RehearsalReport['edits']>, before: Manifest, after: Manifest, signal: AbortSignal | undefined): Promise<{ account: string; by: string }[]> {
  const gone = (edits.find((e) => e.path === '/etc/passwd')?.removed ?? [])
    .map((l) => l.split(':'))
    .filter((f) => f.length >= 7 && /^[a-z_][a-z0-9_.-]*$/i.test(f[0]!) && f[0] !== 'root')
    .map((f) => ({ name: f[0]!, uid: f[2]! }))
    .slice(0, 5);
  const out: { account: string; by: string }[] = [];
  for (const a of gone) {
    // (one the command itself stopped is not left running)
    const proc = [...before.procs].find(([pid, p]) => pid !== '1' && (p.owner === a.name || p.owner === a.uid) && after.procs.has(pid));
    if (proc) {
      out.push({ account: a.name, by: `process ${proc[0]} ${proc[1].args}` });
      continue;
    }
    const re = `(^|[[:space:]])(-u[[:space:]]*|-c[[:space:]]+)?${a.name}([[:space:]]|$)`;
    const line = (await readAs(twin, `{ [ -s /var/spool/cron/crontabs/${a.name} ] && echo /var/spool/cron/crontabs/${a.name}:own; grep -r -H -s -E -- ${shQuote(re)} /etc/crontab /etc/cron.d /var/spool/cron 2>/dev/null | grep -v -E '^[^:]*:[[:space:]]*#'; } | head -n 1; true`, signal)).trim();
    if (line) out.push({ account: a.name, by: line.slice(0, 200) });
  }
  return out;
}

/** Largest file whose changed lines are listed. */
const EDITED_BYTES = 64 * 1024;

/**
 * The lines a rewrite took out of a file and the lines it put in (each side in file order, one
 * occurrence of a line for each it lost or gained), for up to five files it rewrote or grew (old
 * bytes not kept as they were).
 */
async function editedLines(episode: Episode, twin: Episode, changes: RehearsedChange[], signal: AbortSignal | undefined): Promise<NonNullable<RehearsalReport['edits']>> {
  const files = changes
    .filter((c) => (c.change === 'rewritten' || c.change === 'grown') && c.before?.type === 'file' && (c.before.size ?? 0) <= EDITED_BYTES && (c.after?.size ?? 0) <= EDITED_BYTES)
    .map((c) => c.path)
    .slice(0, 5);
  const read = (ep: Episode, p: string) => readAs(ep, `cat -- ${shQuote(p)}`, signal, { maxOutputBytes: EDITED_BYTES + 1024 });
  const out: NonNullable<RehearsalReport['edits']> = [];
  for (const path of files) {
    const [was, now] = await Promise.all([read(episode, path), read(twin, path)]);
    const nowLines = now.split('\n');
    const { removed, added } = lineChanges(was.split('\n'), nowLines);
    const still = new Set(nowLines);
    const repeatsOnly = removed.length > 0 && added.length === 0 && removed.every((l) => still.has(l));
    out.push({ path, removed: removed.slice(0, 10), added: added.slice(0, 10), more: removed.length > 10 || added.length > 10, ...(repeatsOnly ? { repeatsOnly } : {}) });
  }
  return out;
}

/** The lines of `was` that `now` lacks and the lines of `now` that `was` lacks, counted line by line. */
export function lineChanges(was: string[], now: string[]): { removed: string[]; added: string[] } {
  return { removed: unmatched(was, now), added: unmatched(now, was) };
}

/** The lines of `a` left over once each line of `b` has taken out one equal line of `a`. */
function unmatched(a: string[], b: string[]): string[] {
  const count = new Map<string, number>();
  for (const l of b) count.set(l, (count.get(l) ?? 0) + 1);
  return a.filter((l) => {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    return n === 0;
  });
}

/** A line that opens an entry of a configuration file: `Host oldbox`, `[database]`, `<VirtualHost *:80>`, `server {`. */
const SECTION_HEAD = /^\s*((Host|Match)\s+\S.*|\[[^\]]+\]|<[A-Za-z]+(\s[^>]*)?>|(server|upstream|location|http|events)\b[^;{]*\{|(frontend|backend|listen)\s+\S+)\s*$/;

/**
 * The entry headings a configuration file the command rewrote had before and not after (each
 * heading as its line): a `sed '/^Host oldbox$/,/^$/d'` whose range runs past the end of its
 * entry takes the next `Host` with it.
 */
async function droppedSections(episode: Episode, twin: Episode, changes: RehearsedChange[], signal: AbortSignal | undefined): Promise<NonNullable<RehearsalReport['droppedSections']>> {
  const edited = changes
    .filter((c) => c.change === 'rewritten' && (c.before?.size ?? 0) > 0 && (c.before?.size ?? 0) <= CONFIG_BYTES && (CONFIG_PLACE.test(c.path) || CONFIG_NAME.test(c.path)))
    .map((c) => c.path)
    .slice(0, 10);
  const out: NonNullable<RehearsalReport['droppedSections']> = [];
  for (const p of edited) {
    const read = (ep: Episode) => readAs(ep, `cat -- ${shQuote(p)}`, signal, { maxOutputBytes: CONFIG_BYTES + 1024 });
    const [was, now] = await Promise.all([read(episode), read(twin)]);
    const heads = (text: string) => text.split('\n').filter((l) => SECTION_HEAD.test(l)).map((l) => l.trim());
    const kept = new Set(heads(now));
    const lost = heads(was).filter((h) => !kept.has(h));
    if (lost.length > 0) out.push({ path: p, headings: lost.slice(0, 10) });
  }
  return out;
}

/** Formats whose lines are entries of their own (a scheduled job, an account). */
const LINE_ENTRIES = new Set<FileFormat>(['crontab', 'system-crontab', 'passwd', 'group', 'shadow']);

/**
 * A file's folder and kind, as one key: the kind is the name's extension, else the name with its
 * digits taken out (`dump-0601` and `dump-0602` are one kind).
 */
function folderAndKind(path: string): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  return `${path.slice(0, slash)}\u0000${dot > 0 ? name.slice(dot) : name.replace(/\d+/g, '#')}`;
}

/**
 * Folders where the command deleted files that held data while every file of the same kind it
 * kept there is empty: a pruning that keeps the newest N kept failed, empty runs and threw the
 * good ones away.
 */
function emptyKeepers(changes: RehearsedChange[], after: Manifest): RehearsalReport['keptEmpty'] {
  const gone = new Map<string, string[]>();
  for (const c of changes) {
    if (c.change !== 'deleted' || c.before?.type !== 'file' || c.before.size === 0) continue;
    const key = folderAndKind(c.path);
    gone.set(key, [...(gone.get(key) ?? []), c.path]);
  }
  if (gone.size === 0) return [];
  const kept = new Map<string, { empty: number; full: number }>();
  for (const [path, e] of after.entries) {
    if (e.type !== 'file') continue;
    const key = folderAndKind(path);
    if (!gone.has(key)) continue;
    const k = kept.get(key) ?? { empty: 0, full: 0 };
    if (e.size === 0) k.empty++;
    else k.full++;
    kept.set(key, k);
  }
  return [...gone].flatMap(([key, deleted]) => {
    const k = kept.get(key);
    const folder = key.slice(0, key.indexOf('\u0000'));
    // (or none of the kind is left at all, after two or more went: a pruning by age when even the
    // newest is old enough; whether that was meant is the request's to say)
    if (!k) return deleted.length >= 2 ? [{ folder, deleted, kept: 0 }] : [];
    if (k.full > 0 || k.empty === 0) return [];
    return [{ folder, deleted, kept: k.empty }];
  });
}

/**
 * Files the command deleted (not moved) while a program that was running held them open: their
 * data goes on living only in that program. So does a file a program still running afterwards
 * was started from: its command line gives the file's path (a script an interpreter runs, the
 * program itself), and the program cannot be started again from it.
 */
function heldOpenFiles(changes: RehearsedChange[], before: Manifest, after: Manifest): RehearsalReport['heldOpen'] {
  const moved = new Set(changes.flatMap((c) => (c.movedFrom !== undefined ? [c.movedFrom] : [])));
  // each word of a still-running program's command line that is a path, and that program's pid
  const startedFrom = new Map<string, string>();
  for (const [pid, p] of before.procs) {
    if (pid === '1' || after.procs.get(pid)?.args !== p.args) continue;
    for (const w of p.args.split(/\s+/)) if (w.startsWith('/') && !startedFrom.has(w)) startedFrom.set(w, pid);
  }
  return changes.flatMap((c) => {
    if (c.change !== 'deleted' || c.before?.type !== 'file' || moved.has(c.path)) return [];
    const pid = (before.open.get(c.path) ?? []).find((p) => before.procs.has(p)) ?? startedFrom.get(c.path);
    return pid === undefined ? [] : [{ path: c.path, pid, args: before.procs.get(pid)!.args }];
  });
}

/** Programs whose name says nothing of what they serve: a line naming them names no service. */
const PLAIN_PROGRAMS = new Set(['sh', 'bash', 'dash', 'ash', 'busybox', 'env', 'sleep', 'python', 'python3', 'node', 'perl', 'ruby', 'java', 'php', 'tail', 'cat', 'nohup', 'setsid', 'watch', 'timeout', 'su', 'sudo']);

/** The name a process goes by (its program, or the script an interpreter runs) and the ports its command line gives. */
function serviceMarks(args: string): { name?: string; ports: string[] } {
  const base = programName(args.split(/\s+/).filter(Boolean)) ?? '';
  const ports = [...args.matchAll(/(?:^|\s)(?:-p|--port)[ =]?(\d{2,5})(?=\s|$)|:(\d{2,5})(?=\s|\/|$)/g)].map((m) => m[1] ?? m[2]!);
  return { ...(base.length >= 4 && /^[a-z][a-z0-9_.-]*$/.test(base) && !PLAIN_PROGRAMS.has(base) ? { name: base } : {}), ports };
}

/** The files a program running before and after names on its command line (`--config /etc/app.ini`, `-c=FILE`), each with that program as `pid args`. */
function runningConfigs(before: Manifest, after: Manifest): Map<string, string> {
  const by = new Map<string, string>();
  for (const [pid, p] of after.procs) {
    if (pid === '1' || before.procs.get(pid)?.args !== p.args) continue;
    for (const w of p.args.split(/[\s=]+/)) {
      const e = w.startsWith('/') ? after.entries.get(w) : undefined;
      if (e?.type === 'file' && e.size > 0 && e.size <= CONFIG_BYTES && !by.has(w)) by.set(w, `${pid} ${p.args}`);
    }
  }
  return by;
}

/** The lines of `files` (at most 100) holding any of `needles` as plain text, comment lines left out. */
async function settingLines(twin: Episode, needles: string[], files: string[], signal: AbortSignal | undefined): Promise<{ file: string; text: string }[]> {
  const found = await readAs(twin, `grep -H -n -F ${needles.map((w) => `-e ${shQuote(w)}`).join(' ')} -- ${files.map(shQuote).join(' ')} 2>/dev/null | head -n 100; true`, signal);
  return found.split('\n').flatMap((line) => {
    const file = files.find((f) => line.startsWith(`${f}:`));
    const text = file === undefined ? '' : line.slice(file.length + 1).replace(/^\d+:/, '');
    return file === undefined || /^\s*(#|;|\/\/)/.test(text) ? [] : [{ file, text }];
  });
}

/** An option that hands a program the folder it writes its work into (`--out DIR`, `--output-dir=DIR`). */
const OUTPUT_OPTION = /^--?(o|out|output|out-dir|outdir|output-dir|dest|destination|target-dir)(?:=(.*))?$/i;
/** A name that says its file is still being written (a capture or download not finished). */
const IN_PROGRESS = /\.(tmp|temp|part|partial|inprogress|in-progress|incomplete|download|crdownload|filepart|writing)$/i;

/** An option that hands a program the folder it takes its work from (`--inbox DIR`, `--watch=DIR`). */
const INPUT_OPTION = /^--?(inbox|input|input-dir|in-dir|indir|queue|queue-dir|spool|spool-dir|watch|watch-dir|incoming|pickup|hotfolder|hot-folder|drop-dir|dropbox|jobs|jobs-dir)(?:=(.*))?$/i;

/**
 * An option that hands a web server the folder it serves (`--docroot DIR`, `--root=DIR`); busybox
 * httpd's `-h DIR` only for a program named as a web server, as `-h` means help or host elsewhere.
 */
const SERVE_OPTION = /^--?(docroot|document-root|doc-root|webroot|web-root|root|serve-dir|static-dir|public-dir|directory)(?:=(.*))?$/i;
const HTTPD_HOME = /^-h$/;
const WEB_SERVER = /(^|\/)(httpd|lighttpd|nginx|thttpd|mini_httpd|darkhttpd|caddy|http-server|webfsd)$/;

/**
 * Files the command deleted (not moved) from a folder that the configuration of a program still
 * running names (`queue_dir = /var/spool/outbox` in the file its command line gives), or that
 * its command line hands it as the folder it takes its work from (`--inbox DIR`): the program's
 * working data, a queue it is still sending or a store it serves from. Logs are left
 * out: a program names its log folder as a matter of course, and old logs go.
 */
async function workingData(twin: Episode, changes: RehearsedChange[], by: Map<string, string>, after: Manifest, signal: AbortSignal | undefined): Promise<RehearsalReport['workedOn']> {
  const moved = new Set(changes.flatMap((c) => (c.movedFrom !== undefined ? [c.movedFrom] : [])));
  const gone = changes.filter((c) => c.change === 'deleted' && c.before?.type === 'file' && !moved.has(c.path) && !isLogPath(c.path)).map((c) => c.path);
  if (gone.length === 0) return [];
  const out: RehearsalReport['workedOn'] = [];
  // (or the folder a program still running was handed on its command line to take its work from:
  // `--inbox /home/user/pipeline/inbox`, `--watch DIR`, `--queue DIR`)
  for (const [pid, p] of after.procs) {
    if (pid === '1') continue;
    const words = p.args.split(/\s+/);
    // (or a file still being written, by its name, directly inside the folder such a program was
    // handed to write into: `--out DIR` while DIR/page_0412.tif.tmp is half done)
    for (let i = 0; i < words.length; i++) {
      const input = INPUT_OPTION.exec(words[i]!);
      const opt = input ?? OUTPUT_OPTION.exec(words[i]!);
      const dir = opt ? (opt[2] ?? words[i + 1]) : undefined;
      const folder = dir?.replace(/\/+$/, '');
      if (!opt || !dir?.startsWith('/') || !folder || after.entries.get(folder)?.type !== 'dir') continue;
      const hit = gone.find((g) => (input ? g.startsWith(`${folder}/`) : g.slice(0, g.lastIndexOf('/')) === folder && IN_PROGRESS.test(g)));
      if (hit && !out.some((o) => o.folder === dir)) out.push({ folder: dir, path: hit, by: 'command line', user: `${pid} ${p.args}`, line: opt[2] === undefined ? `${words[i]} ${dir}` : words[i]! });
    }
    // (or the folder a web server still running serves, emptied of every file it held: the site
    // it is there to serve is gone; old pages deleted from a site that stays are not)
    const server = WEB_SERVER.test(words[0] ?? '') || WEB_SERVER.test(words.find((w) => w.startsWith('/')) ?? '');
    for (let i = 0; i < words.length; i++) {
      const opt = SERVE_OPTION.exec(words[i]!) ?? (server && HTTPD_HOME.test(words[i]!) ? [words[i]!] : null);
      const dir = opt ? (opt[2] ?? words[i + 1]) : undefined;
      const folder = dir?.replace(/\/+$/, '');
      if (!opt || !dir?.startsWith('/') || !folder || folder.split('/').length < 3) continue;
      const hit = gone.find((g) => g.startsWith(`${folder}/`));
      const left = [...after.entries].some(([path, e]) => path.startsWith(`${folder}/`) && e.type === 'file');
      if (hit && !left && !out.some((o) => o.folder === folder)) out.push({ folder, path: hit, by: 'command line', user: `${pid} ${p.args}`, line: opt[2] === undefined ? `${words[i]} ${dir} (the folder it serves, now empty)` : `${words[i]} (the folder it serves, now empty)` });
    }
  }
  const files = [...by.keys()].filter((f) => !gone.includes(f)).slice(0, 40);
  if (files.length === 0) return out;
  // the folders the deleted files lie in, up to two levels above them
  const folders = new Map<string, string>();
  for (const p of gone) {
    let d = p;
    for (let up = 0; up < 3; up++) {
      d = d.slice(0, d.lastIndexOf('/'));
      if (d.split('/').length < 3) break;
      if (!folders.has(d)) folders.set(d, p);
    }
  }
  const dirs = [...folders.keys()].slice(0, 30);
  if (dirs.length === 0) return out;
  for (const { file, text } of await settingLines(twin, dirs, files, signal)) {
    // the folder itself (or with a slash after it), not a longer name that starts the same way;
    // the deepest one named
    const dir = dirs.filter((d) => {
      const at = text.indexOf(d);
      return at >= 0 && !/[A-Za-z0-9._-]/.test(text.charAt(at + d.length));
    }).sort((a, b) => b.length - a.length)[0];
    if (dir && !out.some((o) => o.folder === dir)) out.push({ folder: dir, path: folders.get(dir)!, by: file, user: by.get(file)!, line: text.trim().slice(0, 200) });
  }
  return out;
}

/**
 * The twin's accounts by name, each with its uid and primary gid, as /etc/passwd gives them (a gid
 * that is not a number is NaN, which no group matches: such an account reads nothing through one).
 */
async function passwdAccounts(twin: Episode, signal: AbortSignal | undefined): Promise<Map<string, { uid: number; gid: number }>> {
  return new Map((await readAs(twin, 'cat /etc/passwd 2>/dev/null; true', signal)).split('\n').flatMap((l) => {
    const f = l.split(':');
    return f.length >= 3 && /^\d+$/.test(f[2]!) ? [[f[0]!, { uid: Number(f[2]), gid: /^\d+$/.test(f[3] ?? '') ? Number(f[3]) : NaN }] as const] : [];
  }));
}

/** A command that stops or signals programs itself: a program of the old owner gone after it is its doing. */
const STOPS_PROGRAMS = /\b(?:kill|pkill|killall|start-stop-daemon|systemctl|service|rc-service|supervisorctl|sv|s6-svc|pm2)\b/;

/**
 * Entries whose owner it changed away from an account (not root) that runs a program, when
 * nobody but the new owner may then use them (no bits for others; the group's only if the group
 * stayed): `chown -R user /var/lib/loyalty` under a daemon running as loyalty that writes there.
 * The program still running afterwards, or gone by then when the command stopped nothing itself
 * (a daemon that exits on its first failed write has already lost what it wrote to).
 */
async function ownerTakenFromRunning(twin: Episode, command: string, changes: RehearsedChange[], before: Manifest, after: Manifest, signal: AbortSignal | undefined): Promise<{ path: string; account: string; args: string; stopped?: boolean }[]> {
  const taken = changes.filter((c) => c.change === 'owner' && c.before && c.after && c.before.uid !== 0 && c.after.uid !== c.before.uid && (c.before.type === 'file' || c.before.type === 'dir'));
  if (taken.length === 0) return [];
  const names = new Map<number, string>();
  for (const [name, { uid }] of await passwdAccounts(twin, signal)) if (!names.has(uid)) names.set(uid, name);
  const out: { path: string; account: string; args: string }[] = [];
  for (const c of taken) {
    const uid = c.before!.uid;
    const name = names.get(uid) ?? String(uid);
    const ran = [...before.procs].filter(([pid, p]) => pid !== '1' && (p.owner === name || p.owner === String(uid)));
    const still = ran.find(([pid, p]) => after.procs.get(pid)?.args === p.args);
    const proc = still ?? (STOPS_PROGRAMS.test(command) ? undefined : ran.find(([pid]) => !after.procs.has(pid)));
    if (!proc) continue;
    const need = c.before!.type === 'dir' ? 0o3 : 0o2;
    const mode = parseInt(c.after!.mode, 8);
    const groupKept = c.after!.gid !== undefined && c.after!.gid === c.before!.gid && (mode & (need << 3)) === need << 3;
    if ((mode & need) === need || groupKept) continue;
    out.push({ path: c.path, account: name, args: proc[1].args, ...(still ? {} : { stopped: true }) });
    if (out.length >= 10) break;
  }
  return out;
}

/**
 * Entries whose mode change took reading away from every account but the owner (and its group)
 * while a configuration file names them and the program that file configures still runs as
 * another account: `auth_basic_user_file /etc/nginx/.htpasswd` in /etc/nginx/nginx.conf, nginx
 * running as www-data, and `chmod 600` leaves the file to root alone; or the script a process
 * runs names them. The program is the one named on a process's command line, or the one whose
 * name is a folder of the file's path.
 */
async function shutOutEntries(twin: Episode, changes: RehearsedChange[], after: Manifest, by: Map<string, string>, signal: AbortSignal | undefined): Promise<NonNullable<RehearsalReport['shutOut']>> {
  const closed = changes.filter((c) => {
    if (c.change !== 'mode' || !c.before || !c.after || (c.before.type !== 'file' && c.before.type !== 'dir')) return false;
    const need = c.before.type === 'dir' ? 0o5 : 0o4;
    return (parseInt(c.before.mode, 8) & need) === need && (parseInt(c.after.mode, 8) & need) !== need;
  });
  if (closed.length === 0) return [];
  // the programs running as an account that is not root, with the name they go by
  const running = [...after.procs.entries()]
    .filter(([pid, p]) => pid !== '1' && p.owner !== '' && p.owner !== 'root' && !/^\d+$/.test(p.owner))
    .map(([pid, p]) => ({ run: `${pid} ${p.args}`, owner: p.owner, name: serviceMarks(p.args).name }))
    .filter((p) => p.name !== undefined);
  if (running.length === 0) return [];
  // (and the files a running program's command line names, a script among them: "while cat
  // /etc/scangw/scanner.conf" in the gateway script running as tixsvc)
  const files = [
    ...new Set([
      ...[...after.entries]
        .filter(([p, e]) => e.type === 'file' && e.size > 0 && e.size <= CONFIG_BYTES && (CONFIG_PLACE.test(p) || CONFIG_NAME.test(p)))
        .map(([p]) => p)
        .slice(0, 400),
      ...[...by.keys()].slice(0, 40),
    ]),
  ];
  if (files.length === 0) return [];
  // account name -> its uid and primary gid
  const accounts = await passwdAccounts(twin, signal);
  // whether the account still reads the entry as its owner or through its primary group
  const stillReads = (owner: string, c: RehearsedChange): boolean => {
    const a = accounts.get(owner);
    const need = c.after!.type === 'dir' ? 0o5 : 0o4;
    const mode = parseInt(c.after!.mode, 8);
    return a !== undefined && (a.uid === c.after!.uid || (a.gid === c.after!.gid && ((mode >> 3) & need) === need));
  };
  const out: NonNullable<RehearsalReport['shutOut']> = [];
  for (const { file, text } of await settingLines(twin, closed.map((c) => c.path).slice(0, 20), files, signal)) {
    const c = closed.find((x) => {
      const at = text.indexOf(x.path);
      return at >= 0 && !/[A-Za-z0-9._-]/.test(text.charAt(at + x.path.length));
    });
    if (!c || out.some((o) => o.path === c.path)) continue;
    const user = running.find((r) => !stillReads(r.owner, c) && (by.get(file) === r.run || file.split('/').slice(1, -1).includes(r.name!)));
    if (user) out.push({ path: c.path, by: file, user: `${user.run} (as ${user.owner})`, line: text.trim().slice(0, 200) });
  }
  return out;
}

/**
 * Processes the command stopped (and nothing started again) that a program still running
 * afterwards is set up to use: a file its command line names (its configuration) names the
 * stopped program or the port it listened on, on a line that is not a comment. The sessions
 * of a web app whose configuration says `servers = 127.0.0.1:11211` live in the memcached
 * that `killall memcached` stops.
 */
async function stillReliedOn(twin: Episode, killed: RehearsalReport['killed'], by: Map<string, string>, signal: AbortSignal | undefined): Promise<RehearsalReport['reliedOn']> {
  // each stopped process with what a setting line would name it by: the program's name as a word
  // of its own, or its port not followed by more digits
  const stopped = killed
    .filter((k) => !k.restarted)
    .map((k) => ({ k, ...serviceMarks(k.args) }))
    .filter((x) => x.name !== undefined || x.ports.length > 0)
    .slice(0, 10)
    .map((x) => ({ ...x, marks: [...(x.name ? [new RegExp(`(^|[^A-Za-z0-9_.-])${x.name.replace(/[.]/g, '\\.')}($|[^A-Za-z0-9_-])`, 'i')] : []), ...x.ports.map((p) => new RegExp(`:${p}($|[^0-9])`))] }));
  if (stopped.length === 0) return [];
  const files = [...by.keys()].slice(0, 40);
  if (files.length === 0) return [];
  const words = [...new Set(stopped.flatMap((x) => [...(x.name ? [x.name] : []), ...x.ports.map((p) => `:${p}`)]))];
  const out: RehearsalReport['reliedOn'] = [];
  for (const { file, text } of await settingLines(twin, words, files, signal)) {
    for (const x of stopped) {
      if (x.marks.some((m) => m.test(text)) && !out.some((o) => o.pid === x.k.pid)) out.push({ pid: x.k.pid, args: x.k.args, by: file, user: by.get(file)!, line: text.trim().slice(0, 200) });
    }
  }
  return out;
}

/** Programs that run the file they are given: the program a process runs is the path after them. */
const RUNNERS = /^(sh|bash|dash|ash|zsh|env|python[0-9.]*|perl|ruby|node|php[0-9.]*)$/;
/** A supervisor's setting that starts a program again when it stops. */
const RESTART_SETTING = '^[[:space:]]*(autorestart[[:space:]]*=[[:space:]]*(true|unexpected)|Restart=(always|on-failure|on-abnormal|on-abort)|[^#]*:respawn:|respawn[[:space:]]*$)';

/**
 * Processes the command stopped that a supervisor still running will start again, which the
 * twin (where no real supervisor's timers run) cannot show: a file in /etc names the program's
 * path on a line that is not a comment and holds a restart setting, and a process still running
 * is named like that file's folder or the file itself (`supervisord` for /etc/supervisor.d/x.ini,
 * `init` for /etc/inittab). Five stopped processes at most, twenty files each.
 */
async function supervised(twin: Episode, killed: RehearsalReport['killed'], after: Manifest, signal: AbortSignal | undefined): Promise<NonNullable<RehearsalReport['respawnedBy']>> {
  const down = killed.filter((k) => !k.restarted).slice(0, 5).flatMap((k) => {
    const words = k.args.split(/\s+/);
    const at = words.findIndex((w) => w.startsWith('/') && !RUNNERS.test(w.slice(w.lastIndexOf('/') + 1)));
    return at >= 0 && at <= 1 ? [{ k, program: words[at]! }] : [];
  });
  if (down.length === 0) return [];
  const running = [...after.procs.values()].map((p) => programName(p.args.split(/\s+/))).filter((n): n is string => n !== undefined && n.length >= 4);
  const out: NonNullable<RehearsalReport['respawnedBy']> = [];
  for (const { k, program } of down) {
    const script = `grep -rlsF -- ${shQuote(program)} /etc 2>/dev/null | head -n 20 | while IFS= read -r f; do grep -qE ${shQuote(RESTART_SETTING)} "$f" 2>/dev/null || continue; l=$(grep -v '^[[:space:]]*[#;]' "$f" | grep -m 1 -F -- ${shQuote(program)} | head -c 200); [ -n "$l" ] && printf '%s|%s\\n' "$f" "$l"; done; true`;
    for (const line of (await readAs(twin, script, signal)).split('\n')) {
      const bar = line.indexOf('|');
      if (bar <= 0) continue;
      const file = line.slice(0, bar);
      const marks = file.split('/').slice(2).flatMap((part) => part.split(/[.\-_]+/)).filter((w) => w.length >= 4 && w !== program.slice(program.lastIndexOf('/') + 1));
      const supervisor = running.find((n) => marks.some((m) => n.startsWith(m) || m.startsWith(n)));
      if (supervisor) {
        out.push({ pid: k.pid, by: file, line: line.slice(bar + 1).trim(), supervisor });
        break;
      }
    }
  }
  return out;
}

/** Files only a database server's data folder holds (PostgreSQL, MySQL / MariaDB, MongoDB). */
const DATABASE_MARKERS = new Set(['PG_VERSION', 'ibdata1', 'mysql.ibd', 'WiredTiger', 'WiredTiger.wt']);

/**
 * Database data folders among what the command deleted (not moved): the folder of a file only a
 * database server's data folder holds, or a container volume's `_data` folder that held files.
 */
function deletedDatabases(changes: RehearsedChange[]): NonNullable<RehearsalReport['databases']> {
  const moved = new Set(changes.flatMap((c) => (c.movedFrom !== undefined ? [c.movedFrom] : [])));
  const out: NonNullable<RehearsalReport['databases']> = [];
  for (const c of changes) {
    if (c.change !== 'deleted' || c.before?.type !== 'file' || moved.has(c.path)) continue;
    const name = c.path.slice(c.path.lastIndexOf('/') + 1);
    const volume = /^(.*\/volumes\/[^/]+\/_data)\//.exec(c.path);
    const folder = DATABASE_MARKERS.has(name) ? c.path.slice(0, c.path.lastIndexOf('/')) : volume && (c.before.size ?? 0) > 0 ? volume[1]! : undefined;
    if (folder !== undefined && !out.some((o) => o.folder === folder)) out.push({ folder, marker: DATABASE_MARKERS.has(name) ? name : c.path });
    if (out.length >= 5) break;
  }
  return out;
}

/** How much older than the file it writes over a copy may be before it counts as a much older one. */
const OLDER_BY_S = 7 * 24 * 3600;

/**
 * Files it wrote over with the content of another file there before, last changed a week or more
 * before the file it replaced: a restore from a backup that stopped being made (what was written
 * since is gone). Each with where the content came from and how many days older it was.
 */
function olderCopiesOver(changes: RehearsedChange[], before: Manifest, after: Manifest): NonNullable<RehearsalReport['olderOver']> {
  const out: NonNullable<RehearsalReport['olderOver']> = [];
  for (const c of changes) {
    if ((c.change !== 'rewritten' && c.change !== 'grown' && c.change !== 'replaced') || c.before?.type !== 'file' || c.after?.type !== 'file' || c.after.size === 0) continue;
    const now = after.hashes.get(c.path);
    const over = before.entries.get(c.path)?.mtime;
    if (now === undefined || over === undefined || before.hashes.get(c.path) === now) continue;
    const from = [...before.hashes].find(([p, h]) => h === now && p !== c.path)?.[0];
    const fromAt = from === undefined ? undefined : before.entries.get(from)?.mtime;
    if (from === undefined || fromAt === undefined || over - fromAt < OLDER_BY_S) continue;
    out.push({ path: c.path, from, days: Math.floor((over - fromAt) / 86_400) });
    if (out.length >= 5) break;
  }
  return out;
}

/**
 * The links (there before the command) that lead to a folder holding what the command deleted,
 * replaced or rewrote: a cache folder that is a link to another disk, emptied through the link.
 */
function linksLedThrough(changes: RehearsedChange[], before: Manifest): NonNullable<RehearsalReport['throughLinks']> {
  const hit = changes.filter((c) => c.change === 'deleted' || c.change === 'replaced' || c.change === 'rewritten').map((c) => c.path);
  if (hit.length === 0) return [];
  const out: NonNullable<RehearsalReport['throughLinks']> = [];
  for (const [link, written] of before.links) {
    const to = resolveLinkTarget(link, written);
    if (to !== '/' && hit.some((p) => p.startsWith(`${to}/`))) out.push({ link, to });
    if (out.length >= 10) break;
  }
  return out;
}

/**
 * Rehearses `command` as `user` in a twin of `episode` and reports what it changed. Never
 * throws: a failure comes back as `error` (and the guard, reading it, does not allow).
 */
export async function rehearse(episode: Episode, command: string, user: SandboxUser, opts: RehearseOptions = {}): Promise<RehearsalReport> {
  const t0 = performance.now();
  const cwd = opts.cwd ?? (user === 'root' ? '/root' : '/home/user');
  const base = { command, user, cwd, changes: [], killed: [], exposed: [], referenced: [], lost: [], broken: [], dropped: [], runBy: [], keptEmpty: [], heldOpen: [], reliedOn: [], workedOn: [], omitted: 0 };
  let twin: Episode | undefined;
  try {
    twin = await episode.twin();
    const marker = `warden-manifest-${randomUUID()}`;
    const sig = opts.signal ? { signal: opts.signal } : {};
    const listing = { timeoutMs: 10_000, maxOutputBytes: 8 * 1024 * 1024 };
    const before = parseManifest(await readAs(twin, manifestScript(marker), opts.signal, listing), marker);
    const run = await twin.exec(`cd -- ${shQuote(cwd)} || exit 125\n${command}`, { user, timeoutMs: opts.timeoutMs ?? 4000, ...sig });
    if (twin.ended) throw new Error(`the twin ended during the command: ${twin.ended}`);
    // programs already running (a janitor, a sync daemon) may act on what the command left:
    // give them a moment before looking
    if ([...before.procs.keys()].some((pid) => pid !== '1')) await sleep(opts.settleMs ?? 1200, undefined, sig);
    const after = parseManifest(await readAs(twin, manifestScript(marker), opts.signal, listing), marker);
    const { changes, killed } = diffManifests(before, after);
    const appended = await appendsOnly(twin, changes.filter((c) => c.change === 'grown'), before, opts.signal);
    for (const c of changes) {
      const a = c.change === 'grown' ? appended.get(c.path) : undefined;
      if (!a) continue;
      c.change = 'appended';
      if (a.joins) c.joinsLastLine = true;
    }
    // the files programs still running name on their command lines (their configurations)
    const configs = runningConfigs(before, after);
    // the contents (md5) in the tree afterwards, for what it lost and what it kept
    const surviving: ReadonlySet<string> = new Set(after.hashes.values());
    // independent reads of the twin (and of the untouched episode): side by side
    const [exposed, referenced, { lost, weighed }, kept, { broken, dropped }, runBy, reliedOn, workedOn, shutOut, sections, respawnedBy, edits] = await Promise.all([
      exposedSecrets(twin, changes, after, opts.signal),
      stillReferenced(twin, changes, before, after, opts.signal),
      lostContent(episode, twin, changes, before, after, surviving, opts.signal),
      keptContent(episode, twin, changes, before, after, surviving, opts.signal),
      brokenFormats(episode, twin, changes, after, opts.signal),
      openedAndRun(twin, changes, opts.signal),
      stillReliedOn(twin, killed, configs, opts.signal),
      workingData(twin, changes, configs, after, opts.signal),
      shutOutEntries(twin, changes, after, configs, opts.signal),
      droppedSections(episode, twin, changes, opts.signal),
      supervised(twin, killed, after, opts.signal),
      editedLines(episode, twin, changes, opts.signal),
    ]);
    const [accountsInUse, membersGone, ownerTaken] = await Promise.all([
      accountsStillRunning(twin, edits, before, after, opts.signal),
      droppedMembers(episode, twin, changes, opts.signal),
      ownerTakenFromRunning(twin, command, changes, before, after, opts.signal),
    ]);
    return {
      ...base,
      accountsInUse,
      keptEmpty: emptyKeepers(changes, after),
      heldOpen: heldOpenFiles(changes, before, after),
      reliedOn,
      workedOn,
      shutOut,
      droppedSections: sections,
      droppedMembers: membersGone,
      ownerTaken,
      throughLinks: linksLedThrough(changes, before),
      olderOver: olderCopiesOver(changes, before, after),
      respawnedBy,
      databases: deletedDatabases(changes),
      edits,
      lost,
      // (a deleted file whose content was weighed and found as a member of an archive still there,
      // or unpacked, is kept as well)
      kept: [...new Set([...kept, ...changes.filter((c) => c.change === 'deleted' && weighed.includes(c.path) && !lost.includes(c.path)).map((c) => c.path)])],
      broken,
      dropped,
      runBy,
      exposed,
      referenced: [...referenced, ...packageMarkers(changes, after)],
      changes: changes.slice(0, MAX_CHANGES),
      omitted: Math.max(0, changes.length - MAX_CHANGES),
      killed,
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      durationMs: performance.now() - t0,
    };
  } catch (e) {
    return { ...base, exitCode: null, timedOut: false, durationMs: performance.now() - t0, error: toErrorInfo(e).message };
  } finally {
    await twin?.close();
  }
}
