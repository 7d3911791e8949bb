/**
 * Classifying paths: normalising against a working directory and home, and telling system,
 * sensitive, persistence, privilege and scratch places apart. Works on single words the shell
 * parser has already isolated (or path-like words of the request), never on raw command text.
 */
import { patternOfNamedKind } from './file-kinds.js';
import type { PathEffect } from '../../../../shared/types.js';

/** Where relative paths and `~` resolve. */
export interface PathBase {
  cwd: string;
  home: string;
}

/** Joins and normalises a path against a working directory (no file system access). */
export function normalizePath(p: string, cwd: string, home: string): string {
  let path = p;
  if (path === '~' || path.startsWith('~/')) path = home + path.slice(1);
  else if (path.startsWith('~')) {
    // ~name/...: another account's home
    const slash = path.indexOf('/');
    const user = path.slice(1, slash < 0 ? undefined : slash);
    if (/^[a-z_][a-z0-9_.-]*$/i.test(user)) path = (user === 'root' ? '/root' : `/home/${user}`) + (slash < 0 ? '' : path.slice(slash));
  }
  if (!path.startsWith('/')) path = `${cwd.replace(/\/+$/, '')}/${path}`;
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

/** True when `path` is `prefix` or below it. */
export function isUnder(path: string, prefix: string): boolean {
  if (prefix === '/' || prefix === '') return path.startsWith('/');
  const p = prefix.replace(/\/+$/, '');
  return path === p || path.startsWith(p + '/');
}

/** The path without a trailing `/*` or `/**`-style glob tail, for comparisons with named places. */
function stripGlobTail(p: string): string {
  const s = p.replace(/\/\*+$/, '');
  return s === '' ? '/' : s;
}

/**
 * Directories whose direct children are system places too (besides the top-level ones). /opt and
 * /srv are not among them: their children are one application's install or one site's data,
 * whose loss breaks that application, not the machine.
 */
const SYSTEM_DIRS = [
  '/etc',
  '/bin',
  '/sbin',
  '/usr',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib64',
  '/usr/local',
  '/usr/share',
  '/lib',
  '/lib32',
  '/lib64',
  '/boot',
  '/var',
  '/var/lib',
  '/dev',
  '/proc',
  '/sys',
  '/root',
  '/snap',
];
/** Trees that belong to the operating system (/opt and /srv hold applications and sites). */
const SYSTEM_TREES = ['/etc', '/bin', '/sbin', '/usr', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/var', '/dev', '/proc', '/sys', '/snap'];
const NOT_SYSTEM = ['/var/tmp', '/dev/null', '/dev/shm', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/fd', '/dev/tty', '/proc/self/fd'];

/** The folder a path is in (`/` for a top-level entry). */
export function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/**
 * A link's target (resolved, absolute) that is the same place moved elsewhere: its last part
 * carries the link's own name, whole or as one of its dashed parts (/var/spool/squid/cache ->
 * /data/squid-cache, /var/lib/docker -> /mnt/big/docker, ~/.cache -> /scratch/user-cache).
 * A link to a place of another name (cache -> /srv/uploads) is not.
 */
export function isRelocation(link: string, target: string): boolean {
  const name = (p: string) => (p.replace(/\/+$/, '').split('/').pop() ?? '').replace(/^\./, '').toLowerCase();
  const l = name(link);
  const t = name(target);
  if (l.length < 3 || t === '' || !target.startsWith('/')) return false;
  return t === l || t.split(/[-_.]+/).includes(l);
}

/** A link's target, as written, made absolute against the link's own folder (no links followed). */
export function resolveLinkTarget(link: string, target: string): string {
  const parts = (target.startsWith('/') ? target : `${parentOf(link)}/${target}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return `/${out.join('/')}`;
}

/**
 * `/`, a top-level system directory, or a direct child of one (/etc/passwd, /usr/bin, /var/lib,
 * /var/lib/docker, /usr/bin/ls): the places whose loss or change breaks the machine.
 */
export function isSystemPath(p: string): boolean {
  const s = stripGlobTail(p);
  if (p === '/' || s === '/') return true;
  if (NOT_SYSTEM.some((n) => isUnder(s, n))) return false;
  return SYSTEM_DIRS.includes(s) || SYSTEM_DIRS.includes(parentOf(s)) || SYSTEM_SPOOLS.has(s) || SYSTEM_SPOOLS.has(parentOf(s));
}

/** The operating system's own spools; another folder in /var/spool is one application's queue. */
const SYSTEM_SPOOLS = new Set(['/var/spool/cron', '/var/spool/cron/crontabs', '/var/spool/mail', '/var/spool/at', '/var/spool/anacron', '/var/spool/postfix', '/var/spool/exim4', '/var/spool/cups', '/var/spool/rsyslog', '/var/spool/mqueue', '/var/spool/clientmqueue']);

/** Spools that keep one file per account, named for the account, and the words for what they keep. */
const ACCOUNT_SPOOLS = new Map<string, RegExp>([
  ['/var/spool/cron/crontabs', /^(cron|crontabs?|cron ?jobs?)$/],
  ['/var/spool/cron', /^(cron|crontabs?|cron ?jobs?)$/],
  ['/var/spool/mail', /^(mail|mailbox(es)?|mbox|inbox)$/],
  ['/var/mail', /^(mail|mailbox(es)?|mbox|inbox)$/],
]);

/** Anywhere inside the operating system's own trees (/etc, /usr, /var, /boot...), at any depth. */
export function isSystemArea(p: string): boolean {
  if (p === '/' || p === '/*') return true;
  if (NOT_SYSTEM.some((n) => isUnder(p, n))) return false;
  return SYSTEM_TREES.some((r) => isUnder(p, r));
}

/** A home directory itself (or everything in it), or /home, or /root. */
export function isHomeRoot(p: string, home: string): boolean {
  const s = stripGlobTail(p.replace(/\/+$/, '')) || '/';
  return s === home || s === '/home' || /^\/home\/[^/*?[]+$/.test(s) || s === '/root';
}

const SENSITIVE_NAMES = new Set([
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  '.netrc',
  '.pgpass',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.my.cnf',
  '.vault-token',
  'credentials',
  'credentials.json',
  'credentials.db',
  'access_tokens.db',
  '.env',
  'secrets',
  'secret',
  '.htpasswd',
  'wallet.dat',
  'login.keychain',
  'login.keychain-db',
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.history',
  '.python_history',
  '.mysql_history',
  '.psql_history',
  'key4.db',
  'logins.json',
  'cookies.sqlite',
  'cookies',
  'login data',
  'kubeconfig',
  'master.key',
  'hosts.yml',
  // web applications' settings files, which hold the database password
  'wp-config.php',
  'configuration.php',
  'localsettings.php',
  'config.inc.php',
  'database.yml',
]);
const SENSITIVE_DIRS = [
  '/.ssh',
  '/.aws',
  '/.gnupg',
  '/.kube',
  '/.docker',
  '/.config/gcloud',
  '/.azure',
  '/.mozilla',
  '/.config/google-chrome',
  '/.config/chromium',
  '/.config/BraveSoftware',
  '/.config/gh',
  '/.password-store',
  '/.local/share/keyrings',
  '/Library/Keychains',
  '/.terraform.d',
  '/.vault',
];
const SENSITIVE_FILES = ['/proc/self/environ', '/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/master.passwd', '/etc/ssl/private', '/etc/passwd', '/etc/security/opasswd', '/var/lib/sss', '/proc/kcore'];
/** Names that look like secrets but are templates or public halves. */
const NOT_SENSITIVE = /(\.pub|\.example|\.sample|\.template|\.dist|known_hosts|\.env\.defaults)$/;

/** Words a request uses when it means secrets of some kind: keys, tokens, credentials, history. */
const SECRET_WORDS = /(^|[^a-z0-9])(keys?|ssh|secrets?|credentials?|creds|passwords?|passwd|tokens?|\.?env|dotenv|history|certs?|certificates?|pem|tls|ssl|wallet|keyrings?|keychains?|vault|aws|kube(config)?|gpg|gnupg|cookies|logins?|profiles?|shadow|sudoers|htpasswd|netrc|pgpass|npmrc|pypirc)([^a-z0-9]|$)/i;

/**
 * Whether a request that reaches a secret file through a folder it names also means the secret:
 * it names the file itself, or a secret folder (~/.ssh), or a part of the file's own name, or a
 * kind of secret. "use the files server (/srv/share)" puts /srv/share in reach, not the private
 * key someone left in /srv/share/.ssh.
 */
export function secretNamed(path: string, scope: RequestScope): boolean {
  // a file private only because it lies in root's home is not a secret by what it is
  if (!isSensitivePath(path, '/root')) return true;
  if (scope.paths.some((rp) => rp === path || (isSensitivePath(rp, '/root') && isUnder(path, rp)))) return true;
  const base = (path.split('/').pop() ?? '').toLowerCase();
  if (scope.words.has(base) || base.replace(/^\./, '').split(/[_.-]+/).some((p) => p.length >= 3 && scope.words.has(p))) return true;
  return SECRET_WORDS.test(scope.text ?? '');
}

/** Credentials, keys, secrets, password databases, browser profiles and shell history. */
export function isSensitivePath(p: string, home = ''): boolean {
  const base = (p.split('/').pop() ?? '').toLowerCase();
  if (NOT_SENSITIVE.test(base)) return false;
  if (SENSITIVE_FILES.some((f) => p === f || p.startsWith(f + '/') || p.startsWith(f + '.') || p.startsWith(f + '-'))) return true;
  if (/^\/etc\/ssh\/ssh_host_[a-z0-9*?]+_key$/.test(p) || /^\/proc\/(\d+|\*)\/environ$/.test(p)) return true;
  if (SENSITIVE_DIRS.some((d) => p.includes(d + '/') || p.endsWith(d))) return true;
  // another account's home is private to it; root's home is the agent's own when it runs as root
  if (home !== '/root' && isUnder(p, '/root') && p !== '/root') return true;
  if (SENSITIVE_NAMES.has(base)) return true;
  if (base.startsWith('.env.') || base.endsWith('.pem') || base.endsWith('.key') || base.endsWith('.p12') || base.endsWith('.pfx') || base.endsWith('.kdbx') || base.endsWith('.keystore') || base.endsWith('.jks')) return true;
  return /(^|[._-])(secret|secrets|credential|credentials|passwords?|apikey|api_key|tokens?|private[._-]?key)([._-]|$)/.test(base);
}

const PERSISTENCE = [
  '/etc/cron',
  '/var/spool/cron',
  '/etc/anacrontab',
  '/etc/systemd/',
  '/lib/systemd/system',
  '/usr/lib/systemd/system',
  '/etc/rc.local',
  '/etc/rc.d',
  '/etc/init.d/',
  '/etc/init/',
  '/etc/profile',
  '/etc/bash.bashrc',
  '/etc/bashrc',
  '/etc/zsh',
  '/etc/environment',
  '/etc/ld.so.preload',
  '/etc/xdg/autostart',
  '/etc/update-motd.d',
  '/etc/udev/rules.d',
  '/etc/modules-load.d',
  '/etc/NetworkManager/dispatcher.d',
  '/etc/apt/apt.conf.d',
];
const HOME_PERSISTENCE = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.config/autostart',
  '.config/systemd',
  '.ssh/authorized_keys',
  '.ssh/authorized_keys2',
  '.ssh/rc',
  '.xinitrc',
  '.xprofile',
  '.xsessionrc',
  '.config/fish/config.fish',
  '.local/share/systemd',
];

/** Places that make something run again later; the name of the place, or undefined. */
export function persistencePlace(p: string): string | undefined {
  for (const pre of PERSISTENCE) if (p.startsWith(pre)) return pre.replace(/\/$/, '');
  for (const h of HOME_PERSISTENCE) if (p.endsWith('/' + h) || p.includes('/' + h + '/')) return '~/' + h;
  if (p.includes('/.git/hooks/')) return '.git/hooks';
  return undefined;
}

/** Files whose change alters who may do what; the name of the place, or undefined. */
export function privilegePlace(p: string): string | undefined {
  for (const f of ['/etc/sudoers', '/etc/passwd', '/etc/shadow', '/etc/group', '/etc/gshadow', '/etc/pam.d', '/etc/security', '/etc/polkit-1', '/etc/ld.so.preload', '/etc/doas.conf']) {
    if (p === f || p.startsWith(f + '/') || p.startsWith(f + '.') || p.startsWith(f + '-')) return f;
  }
  return undefined;
}

const SCRATCH_PARTS = new Set(['Trash', 'node_modules', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.cache', 'dist', 'build', 'target', 'out', 'coverage', '.next', '.nuxt', '.turbo', '.gradle', 'tmp', 'temp', '.tox', '.venv', 'venv', '.parcel-cache', '.eggs', '.sass-cache']);

/** Temporary files, caches and build output: deleting them loses nothing that cannot be rebuilt. */
export function isScratchPath(p: string): boolean {
  if (p.startsWith('/tmp/') || p.startsWith('/var/tmp/') || p.startsWith('/dev/shm/') || p.startsWith('/var/cache/')) return true;
  const parts = p.split('/');
  // only below a first-level directory (/home/user/..., /srv/app/...): /build or /home/tmp are not scratch
  return parts.length > 3 && parts.slice(3).some((seg) => SCRATCH_PARTS.has(seg) || /\.(pyc|pyo|o|obj|class|tmp|swp|bak)$/.test(seg) || seg.endsWith('.egg-info'));
}

/** Log, audit and shell-history places. */
export function isLogPath(p: string): boolean {
  const base = p.split('/').pop() ?? '';
  return isUnder(p, '/var/log') || base.endsWith('_history') || base === '.history' || isUnder(p, '/var/audit') || /^(wtmp|btmp|lastlog|utmp)(\.\d+)?$/.test(base);
}

/** Block devices and raw memory. */
export function isDevicePath(p: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md\d|dm-|mapper\/|loop\d|mem$|kmem$|port$|sr\d|root$)/.test(p);
}

/** Lower-cased words of a request (and the parts of slash-separated words), for matching names. */
export function requestWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().split(/[\s,;:"'`()[\]{}<>]+/)) {
    const w = raw.replace(/[.!?]+$/, '');
    if (!w) continue;
    words.add(w);
    for (const part of w.split('/')) if (part) words.add(part);
  }
  return words;
}

/** Path-like words of a request ("/tmp/x", "~/a", "./b", "c.txt", ".env", "*.log"), normalised. */
export function requestPathsOf(text: string, cwd: string, home: string): string[] {
  const out = new Set<string>();
  // a placeholder inside a path stands for whatever goes there ("/var/backups/ill-queue-<today's date>.tar.gz")
  text = text.replace(/(?<=[\w./-])<[^<>\n]{1,40}>(?=[\w./-])/g, '*');
  // a numbered range stands for the names it spans ("~/scratch/ens_m01..ens_m20" for ens_m*)
  text = text.replace(/(?<=^|[\s(])((?:[~.\/\w-]*\/)?)([A-Za-z][\w-]*?[A-Za-z_-])(\d+)\.\.(?:\2)?(\d+)(?=[\s,;:!?)]|[.](?:\s|$)|$)/g, (_m, dir: string, stem: string) => `${dir}${stem}*`);
  const words = extensionsAsPatterns(text.split(/[\s,;"'`()[\]{}<>]+/).map((raw) => raw.replace(/[.!?:]+$/, '')));
  words.forEach((w, i) => {
    if (!w || w.length > 4096 || w.includes('://')) return;
    if (/^\*+\.[\w.-]+$/.test(w)) {
      // a bare pattern lies where the action runs, or in the folder the words after it place it
      // in ("*.log files all over ~/workspace", "the rotated logs (*.gz) in /var/log/nginx")
      // (not in a system folder as a whole: "tidy up /etc" does not put every file there in reach,
      // and neither does "the *.bak files in /etc")
      const d = placedIn(words.slice(i + 1, i + 8));
      const folder = d === undefined ? undefined : normalizePath(d, cwd, home).replace(/\/+$/, '');
      out.add(normalizePath(folder && folder !== '' && !SYSTEM_DIRS.includes(folder) ? `${folder}/${w}` : w, cwd, home));
      return;
    }
    const pathLike =
      w.startsWith('/') ||
      w.startsWith('~') ||
      w.startsWith('./') ||
      w.startsWith('../') ||
      w.includes('/') ||
      /^\.?[\w@+-]+(\.[\w-]+)*\.[A-Za-z0-9]{1,8}$/.test(w) ||
      /^\.[\w-]+$/.test(w);
    if (pathLike) out.add(normalizePath(w, cwd, home));
  });
  return [...out];
}

/** Nouns that say the dot-words before them are file extensions (".tar.bz2 and .conda archives"). */
const FILE_NOUN = /^(files?|archives?|tarballs?|packages?|dumps?|logs?|backups?|images?|copies|leftovers?|artifacts?|downloads?|documents?|videos?|photos?|pictures?|exports?|snapshots?|checkpoints?|builds?|objects?)$/i;

/**
 * A dot-word that a file noun follows (through "and", "or" and other dot-words) is an extension,
 * not a hidden file in the current folder: ".tar.bz2 and .conda archives" are `*.tar.bz2` and
 * `*.conda`.
 */
function extensionsAsPatterns(words: string[]): string[] {
  const dotWord = (w: string) => /^\.[A-Za-z0-9][\w.-]*$/.test(w) && !w.endsWith('.');
  return words.map((w, i) => {
    if (!dotWord(w)) return w;
    for (let j = i + 1; j < Math.min(words.length, i + 8); j++) {
      const n = words[j]!;
      if (FILE_NOUN.test(n)) return '*' + w;
      if (!(dotWord(n) || /^(and|or|&|\/|plus)$/i.test(n))) break;
    }
    return w;
  });
}

/** Whether a name is two words of the request, each at least `least` long, said one after the other ("patron db" for patrondb). */
function saidApart(name: string, text: string | undefined, least = 2): boolean {
  const words = (text ?? '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  // (numbers compared by their value: "till 9" for till09)
  const unpadded = (x: string): string => x.replace(/(^|[^0-9])0+(?=[0-9])/g, '$1');
  for (let i = 0; i + 1 < words.length; i++) {
    const number = /^[0-9]+$/.test(words[i + 1]!) && words[i]!.length >= 3 && /[a-z]$/.test(words[i]!);
    if (words[i]!.length < least || (words[i + 1]!.length < least && !number)) continue;
    const joined = words[i]! + words[i + 1]!;
    if (joined === name || (number && unpadded(joined) === unpadded(name))) return true;
    // (the second word said with an ending the name leaves off: "ticket printer" for ticketprint)
    if (words[i]!.length >= 4 && words[i + 1]!.length >= 6 && name.length > words[i]!.length + 3 && joined.startsWith(name) && /^(er|ers|ing|s|es)$/.test(joined.slice(name.length))) return true;
  }
  return false;
}

/** Whether a hyphened word of the text, its hyphens left out, is the name ("x-ray" for xray). */
function saidHyphened(name: string, text: string | undefined): boolean {
  return (text ?? '').toLowerCase().split(/[^a-z0-9-]+/).some((w) => w.includes('-') && w.replace(/-/g, '') === name);
}

/** Whether a file ending is a word with letters left out (mrc for marc, jpg for jpeg, cfg for config), never the word itself. */
function shortens(ending: string, word: string): boolean {
  if (ending.length >= word.length || ending[0] !== word[0]) return false;
  let at = 0;
  for (const ch of word) if (ch === ending[at]) at++;
  return at === ending.length;
}

/** Words that place what comes before them in a folder named after them. */
const PLACING = /^(in|under|inside|within|across|over|throughout|beneath|below|from)$/i;

/**
 * The folder the words following a pattern place it in: a preposition, then within three words a
 * folder path (absolute or under the home, no pattern, no file extension); none when another
 * path comes first.
 */
function placedIn(after: string[]): string | undefined {
  const at = after.findIndex((w) => PLACING.test(w));
  if (at < 0) return undefined;
  for (const w of after.slice(at + 1, at + 4)) {
    if (!(w.startsWith('/') || w.startsWith('~'))) continue;
    const last = w.replace(/\/+$/, '').split('/').pop() ?? '';
    return /[*?[]/.test(w) || /.\.[^/]*$/.test(last) ? undefined : w;
  }
  return undefined;
}

/**
 * Files in /etc whose one job a request can ask for without naming the file: blocking logins
 * during maintenance is /etc/nologin, the message shown after login is /etc/motd. A request that
 * asks for the job names the file.
 */
const ETC_JOBS: [string, RegExp][] = [
  ['/etc/nologin', /\b(block|disable|prevent|stop|refuse|deny|lock out|turn off|suspend)\s+(all\s+|any\s+|new\s+|user\s+|ordinary\s+|normal\s+)*(non-?root\s+|non-?admin\s+)?(user\s+)?log-?ins?\b(?!\s+(for|of|from|by|to)\s+(user\s+|account\s+)?(?!(the|a|an|this|next|\d+)\b)\w)/i],
  ['/etc/motd', /\b(message of the day|motd|(login|welcome) (message|banner|notice|text))\b/i],
  ['/etc/issue', /\b(pre-?login|before (the )?login) (message|banner|notice|text)\b/i],
  ['/etc/hostname', /\b(the |its |machine'?s? |box'?s? |system'?s? )host ?name\b/i],
  ['/etc/timezone', /\btime ?zone\b/i],
];

/**
 * Places in an account's home that everyday words name without a path: "empty my trash" is the
 * desktop's trash folder.
 */
const HOME_PLACES: [string, RegExp][] = [['.local/share/Trash', /\b(trash( ?(can|bin|folder))?|recycle bin|wastebasket)\b/i]];

/** The places in `home` whose everyday name the request uses (see HOME_PLACES). */
export function homePlacesNamed(request: string, home: string): string[] {
  return HOME_PLACES.filter(([, words]) => words.test(request)).map(([rel]) => `${home}/${rel}`);
}

/** The /etc files whose job the request asks for (see ETC_JOBS). */
export function etcFilesForJobs(request: string): string[] {
  return ETC_JOBS.filter(([, words]) => words.test(request)).map(([file]) => file);
}

/** What a request names, prepared once per action. */
export interface RequestScope {
  paths: string[];
  words: Set<string>;
  home: string;
  /** The request itself, for phrases words alone do not keep ("core dumps"). */
  text?: string;
}

/** Matches a glob's last component (`*.log`) against a name. */
function globMatches(pattern: string, name: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === name;
  const re = new RegExp('^' + pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
  return re.test(name);
}

/** What rotating a file adds to its name: a number or a date stamp, and a compression suffix. */
const ROTATED = /^(?=.)([-._](\d{1,2}|\d{8}|\d{4}-\d{2}-\d{2}))?(\.(gz|bz2|xz|zst))?$/;

/** Folder names that say where on the box, not what is there. */
/**
 * Whether the request calls a file or folder by its name in ways plain words miss: in quotes
 * with its blanks ('Vacation 2019 copy'), as two of its words run together ("shader cache" for
 * shadercache), or without the version digits its name ends in ("the SKSE log in my Skyrim
 * folder" for skse64.log) when it also names the folder it is in.
 */
function namedInText(base: string, folder: string, scope: RequestScope): boolean {
  const text = (scope.text ?? '').toLowerCase();
  for (const m of text.matchAll(/(?:^|[\s(])['"\u2018\u201c]([^'"\u2019\u201d\n]{2,120})['"\u2019\u201d]/g)) if (m[1] === base) return true;
  if (saidApart(base, text, 3)) return true;
  const stem = base.replace(/^\./, '').replace(/\.[a-z0-9]+$/, '');
  // (a name ending in a number, said as a word and the number: "screen 3" for screen3.hours)
  if (stem !== base && /[a-z][0-9]+$/.test(stem) && saidApart(stem, text, 3)) return true;
  const bare = stem.replace(/[_.-]?v?\d+$/, '');
  const folderName = (folder.split('/').pop() ?? '').toLowerCase();
  const namedFolder = folderName.length >= 4 && !PLACE_WORDS.has(folderName) && scope.words.has(folderName);
  if (bare !== stem && bare.length >= 3 && scope.words.has(bare) && namedFolder) return true;
  // "the CSV" of riverside's customer data export: the file's kind by its ending, said as the
  // one file of that kind, every word of its name, and its folder's name
  const ext = /\.([a-z0-9]{2,5})$/.exec(base)?.[1];
  const has = (w: string): boolean => scope.words.has(w) || scope.words.has(`${w}s`) || (w.endsWith('s') && scope.words.has(w.slice(0, -1)));
  const nameWords = stem.split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
  return ext !== undefined && new RegExp(`\\bthe ${ext}\\b(?! files)`).test(text) && nameWords.length > 0 && nameWords.every(has) && namedFolder;
}

/**
 * A path that holds settings or data rather than code: a configuration or database file, or a
 * file in a settings or data folder. Written for both JavaScript and `grep -E`.
 */
export const SETTINGS_OR_DATA = /[.](conf|cfg|cnf|ini|ya?ml|toml|env|properties|json|db|sqlite[0-9]?)$|\/([.]env[^/]*|conf|config|etc|settings|data|uploads|media|storage|var)\//;

/** Whether a path holds settings or data rather than code. */
export function isSettingsOrData(path: string): boolean {
  return SETTINGS_OR_DATA.test(path);
}

/** A folder named as a program's cache (cache2, Cache, GPUCache, "Code Cache", startupCache). */
const CACHE_FOLDER = /^([a-z]+[ _-]?)?cache\d*$/i;

const PLACE_WORDS = new Set(['home', 'user', 'root', 'srv', 'opt', 'var', 'usr', 'local', 'tmp', 'data', 'mnt', 'media', 'lib', 'share']);

/**
 * Whether an effect on `path` is within what the request asked for: the path, or a parent of it,
 * is named in the request (a trailing `/*` counts as the directory itself); or the request names
 * its last component (or the glob that produced it). Top-level system directories and home
 * directories themselves only count when the request names the full path; so, unless `lenient`,
 * do their direct children, so "clean up docker" never puts /var/lib/docker in scope of a delete
 * (a write of /etc/myapp for "configure myapp" is judged leniently).
 */
export function inRequestScope(path: string, scope: RequestScope, lenient = false): boolean {
  const clean = stripGlobTail(path);
  const base = (clean.split('/').pop() ?? '').toLowerCase();
  // deleting ~/Pictures when the request named ~/Pictures/dupes goes beyond it (unless the
  // request names ~/Pictures itself as well)
  if (!scope.paths.includes(clean) && scope.paths.some((rp) => rp !== clean && isUnder(rp, clean))) return false;
  for (const rp of scope.paths) {
    if (rp === '/' || (!lenient && SYSTEM_DIRS.includes(rp))) {
      // "tidy up /etc" does not put every system file in reach of a delete
      if (clean === rp) return true;
      continue;
    }
    if (isUnder(clean, rp)) return true;
    // a rotated copy of a file the request names, beside it (mail.log-20240601.gz, app.log.1)
    if (clean.startsWith(rp) && ROTATED.test(clean.slice(rp.length)) && !/[*?]/.test(rp)) return true;
    // a request naming `*.log` covers a find over `**/*.log` and `dir/*.log`
    const rbase = rp.split('/').pop() ?? '';
    // (in the folder of that pattern; another pattern of the request may still place it elsewhere)
    if (/[*?]/.test(rbase) && (base === rbase.toLowerCase() || globMatches(rbase.toLowerCase(), base)) && isUnder(parentOf(clean), parentOf(rp))) return true;
  }
  // an account's own table or mailbox in a system spool, named by the account and by what the
  // spool holds ("olduser's crontab is still in the cron spool")
  const spool = ACCOUNT_SPOOLS.get(parentOf(clean));
  if (spool && base && scope.words.has(base) && [...scope.words].some((w) => spool.test(w))) return true;
  if (clean === '/' || SYSTEM_DIRS.includes(clean) || isHomeRoot(clean, scope.home) || (!lenient && isSystemPath(clean))) return false;
  if (!base) return false;
  // the cur, new and tmp folders of a mail folder the request calls by its name ("the Maildir
  // Spam folder" for ~/Maildir/.Spam/cur): they hold its messages
  if (/^(cur|new|tmp)$/.test(base) && scope.words.has('maildir')) {
    const folder = (parentOf(clean).split('/').pop() ?? '').replace(/^\./, '').toLowerCase();
    if (folder.length >= 3 && scope.words.has(folder)) return true;
  }
  if (/[*?[]/.test(base)) {
    // a find's name pattern of a kind the request names ("core dumps" for core.[0-9]*), over a
    // folder the request names or over the home it speaks of ("my home is full of core dumps")
    const root = clean.includes('/**/') ? clean.slice(0, clean.indexOf('/**/')) : parentOf(clean);
    // (or a program's own log folder, named by the program and "logs": "the nginx logs" for /var/log/nginx)
    const logFolder = /^\/var\/log\/([^/]+)$/.exec(root)?.[1]?.toLowerCase();
    // (or a program's cache, named by the program and "cache": "the apt cache" for /var/cache/apt and what is in it)
    const cacheOf = /^\/var\/cache\/([^/]+)(\/|$)/.exec(root)?.[1]?.toLowerCase();
    // (or a folder the request calls by its own name: "out of downloads" for ~/Downloads)
    const rootName = (root.split('/').pop() ?? '').toLowerCase();
    // (a folder's name counts said in one number or the other: "photo uploads" for photos/)
    const sayWord = (w: string): boolean => [w, w.replace(/s$/, ''), `${w}s`].some((x) => scope.words.has(x));
    const rootNamed =
      scope.paths.some((rp) => isUnder(root, rp)) ||
      (root === scope.home && scope.words.has('home')) ||
      (rootName.length >= 4 && !PLACE_WORDS.has(rootName) && (sayWord(rootName) || saidApart(rootName, scope.text) || saidHyphened(rootName, scope.text)) && !isSystemPath(root) && !isHomeRoot(root, scope.home)) ||
      (logFolder !== undefined && scope.words.has(logFolder) && (scope.words.has('logs') || scope.words.has('log'))) ||
      (cacheOf !== undefined && cacheOf.length >= 3 && scope.words.has(cacheOf) && (scope.words.has('cache') || scope.words.has('caches')));
    // (a month's folder the request calls by the month's name is named, as by its path)
    if (monthNamed(rootName, scope.text) && !isSystemPath(root)) return true;
    if (rootNamed && scope.text !== undefined && patternOfNamedKind(base, scope.text, root)) return true;
    // (or files by an ending the request says as a word: "my csv exports" for ~/exports/**/*.csv)
    // (or given with its dot: "the ones with a .done next to them" for exports/*.done)
    if (rootNamed && /^\*\.[a-z0-9]{2,5}$/.test(base) && (scope.words.has(base.slice(2)) || scope.words.has(`${base.slice(2)}s`) || scope.words.has(base.slice(1)))) return true;
    // (or files by their ending in a folder the request calls by its own name and its parent's
    // for the things it deletes: "studbook exports older than 90 days" for
    // /srv/studbook/exports/*.csv; the ending only narrows what it names, unless the request says
    // a kind of its own)
    const parentName = (parentOf(root).split('/').pop() ?? '').toLowerCase();
    const folderSaid = rootName.length >= 4 && parentName.length >= 3 && !PLACE_WORDS.has(rootName) && !PLACE_WORDS.has(parentName) && sayWord(rootName) && sayWord(parentName) && !isSystemPath(root) && !isSystemPath(parentOf(root)) && !isHomeRoot(parentOf(root), scope.home);
    if (folderSaid && /^\*\.[a-z0-9]{2,5}$/.test(base) && !/\b[a-z0-9]{2,5} files\b/i.test(scope.text ?? '')) return true;
    // (or the pattern itself, written out in the request: "its studies (US-*.dcm) in the x-ray folder")
    if (rootNamed && scope.text !== undefined && new RegExp(`(^|[\\s(\"'\`])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s)\"'\`,;:]|\\.(\\s|$))`, 'i').test(scope.text)) return true;
    // (a spool's own sub-folder the request gives by its name with a slash and calls the spool's:
    // "out of the spool's done/ folder" for /var/spool/efile/done/*.xml)
    const spoolSub = /^\/var\/spool\/[^/]+\/([a-z][a-z0-9_-]{2,})$/i.exec(root)?.[1];
    if (spoolSub !== undefined && scope.text !== undefined && scope.words.has('spool') && new RegExp(`(^|[\\s"'(])${spoolSub.replace(/[-]/g, '\\-')}/(?![\\w.-])`, 'i').test(scope.text)) return true;
    // (or an ending that shortens a word of the request: "the marc files" for *.mrc, "completed
    // ILL requests" for *.req)
    const ending = /^\*\.([a-z0-9]{3,5})$/.exec(base)?.[1];
    if (rootNamed && ending !== undefined && [...scope.words].some((w) => w.length >= 4 && /^[a-z]+$/.test(w) && shortens(ending, w))) return true;
    // a pattern whose fixed start is a word of the request ("the old autosaves" for
    // _autosave*.zip; a number of four digits or more it says, "job 4410" for 4410-*.pdf), in a
    // folder outside the system places that the request calls by one of its names ("the
    // factorio server dir"); a separator may close the start ("the TEST_ accounts" for TEST_*)
    const start = /^[._-]*([a-z][a-z0-9]{3,}|\d{4,}(?=[._-]))([._-]?)[*?[]/.exec(base.toLowerCase());
    const lead = start?.[1];
    const said = (w: string) => scope.words.has(w) || scope.words.has(`${w}s`) || scope.words.has(`${w}es`);
    return lead !== undefined && (said(lead) || (start![2] !== '' && scope.words.has(`${lead}${start![2]}`))) && !isSystemPath(root) && root.split('/').some((part) => part.length >= 3 && !PLACE_WORDS.has(part.toLowerCase()) && said(part.toLowerCase()));
  }
  if (scope.words.has(base)) return true;
  if (scope.text !== undefined && namedInText(base, parentOf(clean), scope)) return true;
  // a month's folder (2024-02) the request calls by the month's name ("the Feb folder")
  if (monthNamed(base, scope.text) && !isSystemPath(clean)) return true;
  // a cache folder by its name (cache2, Cache, GPUCache, startupCache) inside a folder the request
  // calls by its name, when the request speaks of the cache ("the disk cache for my profile
  // x8k2p1.default-release" for .../x8k2p1.default-release/cache2)
  if (CACHE_FOLDER.test(base) && (scope.words.has('cache') || scope.words.has('caches'))) {
    const owner = parentOf(clean);
    const name = (owner.split('/').pop() ?? '').toLowerCase();
    if (name.length >= 4 && !PLACE_WORDS.has(name) && !isSystemPath(owner) && !isHomeRoot(owner, scope.home) && scope.words.has(name)) return true;
  }
  const stem = base.replace(/^\./, '').replace(/\.[a-z0-9]+$/, '');
  if (stem.length >= 3 && scope.words.has(stem)) return true;
  // a name of several parts, every part a word of the request: "the sshd config" names sshd_config
  const parts = stem.split(/[_.-]+/);
  if (parts.length >= 2 && parts.every((p) => p.length >= 2 && scope.words.has(p))) return true;
  // or every part but an ordering number, in a folder whose name has a word of the request too:
  // "that motd news thing" names /etc/update-motd.d/50-news
  const worded = parts.filter((p) => !/^\d+$/.test(p));
  const folderWords = (parentOf(clean).split('/').pop() ?? '').toLowerCase().split(/[_.-]+/);
  return worded.length >= 1 && worded.length < parts.length && worded.every((p) => p.length >= 3 && scope.words.has(p)) && folderWords.some((w) => w.length >= 3 && scope.words.has(w));
}

const MONTHS = ['jan(uary)?', 'feb(ruary)?', 'mar(ch)?', 'apr(il)?', 'May', 'june?', 'july?', 'aug(ust)?', 'sep(t|tember)?', 'oct(ober)?', 'nov(ember)?', 'dec(ember)?'];

/**
 * Whether `name` is a month's folder (2024-05, 2024_05, 202405) whose month the request says by
 * its name ("gzip May's exports", "delete the Feb folder"); May only with its capital, as "may"
 * is also a verb.
 */
function monthNamed(name: string, text: string | undefined): boolean {
  const m = /^(19|20)\d\d[-_]?(0[1-9]|1[0-2])$/.exec(name);
  if (!m || text === undefined) return false;
  const month = MONTHS[Number(m[2]) - 1]!;
  return new RegExp(`\\b${month}\\b`, month === 'May' ? '' : 'i').test(text);
}

/** Extra properties of one effect. */
export interface EffectExtra {
  recursive?: boolean;
  mode?: string;
  dynamic?: boolean;
  glob?: boolean;
}

/** Builds a classified path effect. `raw` is resolved against `base` unless already absolute. */
export function pathEffect(raw: string, by: string, base: PathBase & { scope: RequestScope; cwdKnown?: boolean }, extra: EffectExtra = {}): PathEffect {
  const path = normalizePath(raw, base.cwd, base.home);
  const relativeToUnknown = base.cwdKnown === false && !raw.startsWith('/') && !raw.startsWith('~');
  const e: PathEffect = {
    path,
    by,
    recursive: extra.recursive === true,
    inScope: inRequestScope(path, base.scope),
    system: isSystemPath(path),
    sensitive: isSensitivePath(path, base.home),
    homeRoot: isHomeRoot(path, base.home),
    scratch: isScratchPath(path),
    glob: extra.glob ?? /[*?[]/.test(raw),
    dynamic: extra.dynamic === true || relativeToUnknown,
  };
  if (extra.mode !== undefined) e.mode = extra.mode;
  return e;
}
